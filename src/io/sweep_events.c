/*
 * sweep_events.c — an inflation sweep's event log (sweep_events.h).
 */
#include "sweep_events.h"

void sweep_events_header(FILE *f, int with_why)
{
    fprintf(f, "policy\tseed\tevent\ttask\tnode\tgpus\tarrived_milli\tused_milli\t"
               "frag_milli\tfrag_ratio_pct\teopc_w\teopc_cpu_w\teopc_gpu_w\tfailed%s\n",
            with_why ? "\twhy" : "");
}

void sweep_events_write(FILE *f, const char *label, uint64_t seed, const gp_trace *tr,
                        const cluster *cl, int64_t gpu_milli, const infl_event *ev, size_t n)
{
    for (size_t e = 0; e < n; e++) {
        const infl_event *v = &ev[e];
        double idle = (double)(gpu_milli - v->used);
        fprintf(f, "%s\t%llu\t%zu\t%s\t%s\t", label, (unsigned long long)seed, e,
                tr->tasks[v->task].name, v->node >= 0 ? cl->nodes[v->node].name : "");
        for (int i = 0; i < v->ngpus; i++)
            fprintf(f, "%s%d", i ? "," : "", v->gpus[i]);
        fprintf(f, "\t%lld\t%lld\t%.2f\t%.2f\t%.0f\t%.0f\t%.0f\t%d", (long long)v->arrived,
                (long long)v->used, v->frag, idle > 0 ? 100 * v->frag / idle : 0.0,
                v->cpu_w + v->gpu_w, v->cpu_w, v->gpu_w, v->failed);
        if (v->why)
            fprintf(f, "\t%s", v->why);
        fputc('\n', f);
    }
}
