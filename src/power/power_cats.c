/*
 * power_cats.c — the `cats` power model (CATS eq. 1–4, SPEC §3.2) over a
 * cluster state:
 *   GPU  active (running a task)  P_gs + alpha f      eq. 1/3
 *        awake, no task           P_gs                (idle; Alg. 3 sleeps it)
 *        asleep                   sleep_w             (profile, default 0)
 *   server awake  P_static + P_other + sum of its GPUs eq. 4, z_i = 1
 *          asleep 0 (its GPUs included)                eq. 4, z_i = 0
 * No CPU term (cpu_w = 0): CATS folds CPUs into P_other.  Utilization does
 * not enter the model: eq. 1 makes an active GPU's draw depend on its clock
 * only — except on a GPU held under a power cap by PEACE's controller,
 * whose draw is the ground truth the controller settled at (capped_w).  This file evaluates; it never changes power states (the
 * simulator's power-state manager does).
 */
#include "power.h"

#include <assert.h>
#include <string.h>

double power_cats_gpu(const cstate *cs, int gpu)
{
    const cs_gpu *g = &cs->gpus[gpu];
    const cs_node *n = &cs->nodes[g->node];
    if (n->asleep || !n->gpu)
        return 0;                                   /* eq. 4, z_i = 0 */
    if (g->power == GPU_ASLEEP)
        return n->gpu->sleep_w;
    if (g->ntasks > 0 && g->capped_w > 0)
        return g->capped_w;                         /* a cap's controller holds it */
    if (g->ntasks > 0)
        return n->gpu->idle_w + n->gpu->alpha_w_per_mhz * g->freq_mhz;   /* eq. 1 */
    return n->gpu->idle_w;
}

double power_cats_static(const cstate *cs, int node_idx)
{
    const node *spec = &cs->cl->nodes[cs->nodes[node_idx].spec];
    return spec->static_w + spec->other_w;
}

/* The sum over the awake servers in index order: a sleeping one adds
 * nothing, so this is the sum over every server, term for term, at the
 * cost of the awake ones.  cached: read the draws of cs->gpu_draw_w and
 * the servers' static parts of cs->node_draw_w instead of evaluating. */
static void sum_awake(const cstate *cs, int cached, power_split *out)
{
    memset(out, 0, sizeof *out);
    const cs_idxset *awake = &cs->awake_nodes;
    for (int i = cs_idxset_next(awake, 0); i >= 0; i = cs_idxset_next(awake, i + 1)) {
        const cs_node *n = &cs->nodes[i];
        if (cached) {
            out->static_w += cs->node_draw_w[2 * i];
            for (int d = 0; d < n->ngpus; d++)
                out->gpu_w += cs->gpu_draw_w[n->gpu0 + d];
            continue;
        }
        assert(!n->asleep);
        out->static_w += power_cats_static(cs, i);
        for (int d = 0; d < n->ngpus; d++)
            out->gpu_w += power_cats_gpu(cs, n->gpu0 + d);
    }
    out->total_w = out->gpu_w + out->cpu_w + out->static_w;
}

void power_cats(const cstate *cs, power_split *out)
{
    sum_awake(cs, 0, out);
}

void power_cats_cached(const cstate *cs, power_split *out)
{
    sum_awake(cs, 1, out);
}
