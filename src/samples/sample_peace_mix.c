/*
 * sample_peace_mix.c — the peace-mix sample set (samplegen.h): a trace
 * whose tasks are PEACE's 16 workloads (each task's `model` names one of
 * the peace-v100 set), on four servers of four V100-SXM2-32GB, so that
 * the simulator's GPU power cap with PEACE's SM split (`gpuplan run
 * --gpu-cap`) has something to hold: placement policies co-locate the
 * tasks, PEACE splits the SMs of every GPU they share.
 *
 * 120 tasks arrive as a Poisson process (one every 2 minutes on average,
 * about 4 hours), each a uniformly drawn workload running 5 minutes to 2
 * hours alone (log-normal, median 20 minutes), needing its workload's
 * peak memory; its utilization summaries are the workload's SM activity
 * alone on the whole GPU at the top clock (the correlation policies read
 * them).  Modelled, as peace-v100 is.
 */
#include "samples_int.h"

#include <string.h>

#define PM_TASKS 120
#define PM_SERVERS 4
#define PM_GPUS 4

static void add_task(rng *r, gp_trace *tr, int i, double arrival)
{
    const char *name;
    double mem, act;
    int w = (int)rng_below(r, (uint64_t)sample_peace_nworkloads());
    sample_peace_workload(w, &name, &mem, &act);
    task k;
    task_init(&k);
    sample_name(k.name, sizeof k.name, "pm-%03d", i);
    k.arrival_s = round_to(arrival, 1);
    k.duration_s = round_to(clampd(rng_lognormal(r, log(1200), 0.8), 300, 7200), 0);
    k.num_gpu = 1;
    k.gpu_milli = 1000;
    k.gpu_mem_gib = mem;
    k.cpu_milli = 4000;
    k.ram_mib = 16384;
    strlcpy0(k.model, name, sizeof k.model);
    k.util_mean = k.util_peak = k.util_first = round_to(act, 2);
    trace_add_task(tr, &k);
    task_release(&k);
}

void sample_peace_mix(rng *r, sample_set *out)
{
    out->profiles = catalog_new();
    sample_peace_gpu(out->profiles);
    out->cl = cluster_new("peace-mix");
    for (int i = 0; i < PM_SERVERS; i++) {
        char name[GP_NAME_MAX];
        sample_name(name, sizeof name, "pm%d", i);
        node n = sample_node(name, "V100-SXM2-32GB", PM_GPUS, 64000, 512 * 1024, "");
        cluster_add_node(out->cl, &n);
    }
    out->tr = trace_new("peace-mix");
    /* PEACE measured its workloads on a V100-SXM2-32GB */
    strlcpy0(out->tr->ref_gpu, "V100", sizeof out->tr->ref_gpu);
    double t = 0;
    for (int i = 0; i < PM_TASKS; i++) {
        add_task(r, out->tr, i, t);
        t += rng_exponential(r, 120);
    }
}
