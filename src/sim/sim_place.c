/*
 * sim_place.c — the placement step (sim_place.h): ask, open a server when
 * the pool is unbounded, ask again, check, allocate.
 */
#include "sim_place.h"

#include <string.h>

void sim_place_init(sim_placer *p, const policy_spec *pol, cstate *cs, const cluster *cl,
                    const catalog *cat, const gp_trace *tr, void *prep)
{
    memset(p, 0, sizeof *p);
    p->pol = pol;
    p->cs = cs;
    p->ctx.cs = cs;
    p->ctx.tr = tr;
    p->ctx.prep = prep;
    p->tr = tr;
    p->cl = cl;
    p->cat = cat;
    p->sharing = policy_family_get(pol->ops->family)->sharing;
}

/* Whether v consecutive devices of n, empty, hold tk's memory each. */
static int has_gpu_run(const node *n, const gpu_profile *gp, const task *tk, int v)
{
    for (int d = 0, run_len = 0; d < n->gpu_count && d < GP_NODE_MAX_GPUS; d++) {
        double mem = n->gpu_mem_gib[d] > 0 ? n->gpu_mem_gib[d] : gp->mem_gib;
        run_len = mem + GP_MEM_EPS_GIB >= tk->gpu_mem_gib ? run_len + 1 : 0;
        if (run_len >= v)
            return 1;
    }
    return 0;
}

int sim_place_host(const cluster *cl, const catalog *cat, const task *tk)
{
    int v = task_gpus(tk);
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *n = &cl->nodes[i];
        if (v == 0) {
            if (n->cpu_milli >= tk->cpu_milli && n->ram_mib >= tk->ram_mib)
                return (int)i;
            continue;
        }
        const gpu_profile *gp = n->gpu_count > 0 ? catalog_gpu(cat, n->gpu_model) : NULL;
        if (gp && n->gpu_count >= v && task_allows_model(tk, gp->name) &&
            has_gpu_run(n, gp, tk, v))
            return (int)i;
    }
    return -1;
}

static int ask(sim_placer *p, int ti, placement *pl)
{
    if (p->ex)
        explain_reset(p->ex);
    memset(pl, 0, sizeof *pl);
    return p->pol->ops->place(&p->ctx, p->pol->params, ti, pl, p->ex);
}

/* Unbounded pool: a copy of the first server that can host the task.  A
 * CPU-only task never opens one (the pool is of GPU servers).  1 when a
 * server was opened. */
static int open_server(sim_placer *p, const task *tk)
{
    int spec = sim_place_host(p->cl, p->cat, tk);
    if (spec < 0 || task_gpus(tk) == 0)
        return 0;
    size_t g0 = p->cs->ngpus;
    int n = cstate_open_node(p->cs, spec);
    if (p->opened)
        p->opened(p->owner, n, g0);
    return 1;
}

sim_place_result sim_place_task(sim_placer *p, int ti, int id, placement *pl, gp_err *err)
{
    const task *tk = &p->tr->tasks[ti];
    int ok = ask(p, ti, pl);
    if (!ok && p->unbounded && open_server(p, tk))
        ok = ask(p, ti, pl);
    if (!ok)
        return SIM_PLACE_NO_ROOM;
    if (placement_check(p->cs, tk, pl, p->sharing, err))
        return SIM_PLACE_INVALID;
    if (p->occupy)
        p->occupy(p->owner, ti, pl);
    else
        cstate_alloc(p->cs, tk, id, pl->node, pl->gpus, pl->ngpus);
    return SIM_PLACE_PLACED;
}
