/*
 * whatif.c — what-ifs from a snapshot (whatif.h): the trace of the tasks
 * in place and the arrivals, their pins, and the state the snapshot
 * stands for.
 */
#include "whatif.h"

#include "core/frag.h"
#include "core/speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pin of snapshot task t: its node and devices from its rows. */
static int pin_of(const snapshot *sn, const cluster *cl, int t, sim_pin *p, gp_err *err)
{
    p->node = -1;
    p->ngpus = 0;
    for (size_t i = 0; i < sn->nrows; i++) {
        const placement_row *r = &sn->rows[i];
        if (r->task != t)
            continue;
        if (r->node < 0 || (size_t)r->node >= cl->nnodes)
            return gp_error(err, "snapshot %s: task %s is on node %d, which cluster %s lacks",
                            sn->name, sn->tasks->tasks[t].name, r->node, cl->name);
        p->node = r->node;
        if (r->gpu >= 0 && p->ngpus < GP_NODE_MAX_GPUS)
            p->dev[p->ngpus++] = r->gpu;
    }
    return 0;
}

static void add_arrival(whatif *w, const task *tk, double arrival_s, const char *suffix)
{
    task *t = trace_add_task(w->tr, tk);
    t->arrival_s = arrival_s;
    if (suffix) {
        char name[GP_NAME_MAX * 2];
        snprintf(name, sizeof name, "%s%s", tk->name, suffix);
        strlcpy0(t->name, name, sizeof t->name);
    }
    w->pins = xrealloc(w->pins, w->tr->ntasks * sizeof *w->pins);
    w->pins[w->tr->ntasks - 1] = (sim_pin){.node = -1};
}

double whatif_ref_speed(const whatif_opts *o, const cluster *cl, const catalog *cat)
{
    (void)cl;
    (void)cat;
    return o->ref_speed > 0 ? o->ref_speed : 1;
}

/* Seconds on the task's own GPUs as seconds on the reference GPU: the
 * inverse of the stretch the simulator applies (core/speed.h). */
static double reference_seconds(double s, const task *tk, const sim_pin *p,
                                const cluster *cl, const catalog *cat, double ref)
{
    if (p->node < 0 || p->ngpus == 0)
        return s;
    const gpu_profile *g = catalog_gpu(cat, cl->nodes[p->node].gpu_model);
    return g ? s * speed_rate(speed_gpu_fraction(tk), gpu_speed(g) / ref) : s;
}

int whatif_build(const snapshot *sn, const cluster *cl, const catalog *cat,
                 const gp_trace *arrivals, const whatif_opts *o, whatif *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    char name[GP_NAME_MAX * 2];
    snprintf(name, sizeof name, "%s%s%s", sn->name, arrivals ? "+" : "",
             arrivals ? arrivals->name : "");
    out->tr = trace_new("");
    strlcpy0(out->tr->name, name, sizeof out->tr->name);
    const gp_trace *in = sn->tasks;
    out->pins = xcalloc(in->ntasks ? in->ntasks : 1, sizeof *out->pins);
    for (size_t i = 0; i < in->ntasks; i++) {
        task *t = trace_add_task(out->tr, &in->tasks[i]);
        t->arrival_s = 0;
        if (pin_of(sn, cl, (int)i, &out->pins[i], err)) {
            whatif_free(out);
            return -1;
        }
        if (o->remaining_s > 0)
            t->duration_s = reference_seconds(o->remaining_s, t, &out->pins[i], cl, cat,
                                              whatif_ref_speed(o, cl, cat));
    }
    out->nplaced = in->ntasks;
    for (int k = 0; k < o->more && in->ntasks; k++) {
        char suffix[24];
        snprintf(suffix, sizeof suffix, "+%d", k + 1);
        /* a copy: adding may move the array it is in (its strings and
         * series stay where they are) */
        task like = out->tr->tasks[(size_t)k % in->ntasks];
        add_arrival(out, &like, k * o->more_gap_s, suffix);
    }
    for (size_t i = 0; arrivals && i < arrivals->ntasks; i++)
        add_arrival(out, &arrivals->tasks[i], arrivals->tasks[i].arrival_s, NULL);
    return 0;
}

void whatif_free(whatif *w)
{
    trace_free(w->tr);
    free(w->pins);
    memset(w, 0, sizeof *w);
}

cstate *whatif_state(const whatif *w, const cluster *cl, const catalog *cat, gp_err *err)
{
    cstate *cs = cstate_new(cl, cat, err);
    if (!cs)
        return NULL;
    for (size_t i = 0; i < w->nplaced; i++) {
        const sim_pin *p = &w->pins[i];
        if (p->node < 0)
            continue;
        int gpus[GP_NODE_MAX_GPUS];
        for (int k = 0; k < p->ngpus; k++)
            gpus[k] = cs->nodes[p->node].gpu0 + p->dev[k];
        cstate_alloc(cs, &w->tr->tasks[i], (int)i, p->node, gpus, p->ngpus);
    }
    return cs;
}

cluster *whatif_cluster_plus(const cluster *cl, const cluster *extra)
{
    cluster *c = cluster_new(cl->name);
    for (size_t i = 0; i < cl->nnodes; i++)
        cluster_add_node(c, &cl->nodes[i]);
    for (size_t i = 0; extra && i < extra->nnodes; i++) {
        node n = extra->nodes[i];
        char name[GP_NAME_MAX + 8];
        snprintf(name, sizeof name, "new-%s", extra->nodes[i].name);
        strlcpy0(n.name, name, sizeof n.name);
        cluster_add_node(c, &n);
    }
    return c;
}

int whatif_look_at(const whatif *w, const cluster *cl, const catalog *cat, whatif_look *out,
                   gp_err *err)
{
    memset(out, 0, sizeof *out);
    cstate *cs = whatif_state(w, cl, cat, err);
    if (!cs)
        return -1;
    out->gpus = (int)cs->ngpus;
    for (size_t g = 0; g < cs->ngpus; g++) {
        out->busy_gpus += cs->gpus[g].alloc_milli > 0;
        out->idle_milli += cs_gpu_idle_milli(&cs->gpus[g]);
    }
    frag_workload *fw = frag_workload_new(w->tr);
    out->frag_milli = frag_cluster(fw, cs);
    frag_workload_free(fw);
    cstate_free(cs);
    return 0;
}
