/*
 * bench_scale.c — how a run's time grows with the cluster: a 10,000-task
 * Gavel-style trace (gavel-like throughput table, 2,000 arrivals an hour,
 * seed 42) simulated on clusters of 1,000, 10,000 and 100,000 V100 (8 a
 * server) by one policy of each family — FGD (scoring), CATS
 * (correlation), HotCloud (threshold) — as `gpuplan run --tput none` runs
 * it.  Prints each wall time (placement loop and simulation, not the
 * trace generation) and the exponent fitted between the smallest and the
 * largest cluster (time ~ GPUs^e; e near 0: the cost does not grow with
 * idle hardware).  The target on a 2-core machine: 10k tasks on 100k GPUs
 * under 3 s for every policy.
 *
 * $BENCH_TASKS and $BENCH_MAX_GPUS change the trace size and the largest
 * cluster; $BENCH_MIN_GPUS the smallest; $BENCH_POLICIES (a comma list,
 * e.g. "cats,corrgpu") the policies.  Wall times on a shared machine: one run each, noisy.  Not a
 * test: it checks nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples/gen_trace.h"
#include "samples/samplegen.h"
#include "sim/sim.h"

static const char *const default_policies[] = {"fgd", "cats", "hotcloud"};
#define MAXPOL 16
static const int gpu_counts[] = {1000, 10000, 100000};
#define NCOUNTS (sizeof gpu_counts / sizeof *gpu_counts)

/* One run's wall time, or a negative value after printing why. */
static double time_run(const cluster *cl, const catalog *cat, const gp_trace *tr,
                       const char *policy)
{
    gp_err err = {{0}};
    policy_spec ps;
    if (policy_spec_parse(policy, &ps, &err)) {
        printf("%s: %s\n", policy, err.msg);
        return -1;
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.checkpoint_every = 0;
    double t0 = now_seconds();
    sim *s = sim_new(&cfg, cl, cat, tr, &ps, &err);
    if (!s) {
        printf("%s: %s\n", policy, err.msg);
        return -1;
    }
    sim_run(s, NULL);
    sim_finish(s);
    double t = now_seconds() - t0;
    sim_free(s);
    return t;
}

/* The policies to time: $BENCH_POLICIES split at commas into buf, or the
 * default three.  Returns how many. */
static size_t pick_policies(const char *names[MAXPOL], char *buf, size_t bufsz)
{
    const char *env = getenv("BENCH_POLICIES");
    size_t n = 0;
    if (!env || !*env) {
        for (; n < sizeof default_policies / sizeof *default_policies; n++)
            names[n] = default_policies[n];
        return n;
    }
    snprintf(buf, bufsz, "%s", env);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && n < MAXPOL;
         tok = strtok_r(NULL, ",", &save))
        names[n++] = tok;
    return n;
}

int main(void)
{
    const char *policies[MAXPOL];
    char polbuf[256];
    size_t npol = pick_policies(policies, polbuf, sizeof polbuf);
    gp_err err = {{0}};
    sample_set set;
    if (samplegen_build("gavel-like", SAMPLEGEN_DEFAULT_SEED, &set, &err)) {
        printf("bench_scale: %s\n", err.msg);
        return 1;
    }
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    const char *env = getenv("BENCH_TASKS"), *envg = getenv("BENCH_MAX_GPUS");
    gen_gavel_params gp;
    gen_gavel_params_default(&gp);
    gp.jobs = env && atoi(env) > 0 ? (size_t)atoi(env) : 10000;
    gp.jobs_per_hour = 2000;
    gp.seed = 42;
    int max_gpus = envg && atoi(envg) > 0 ? atoi(envg) : 100000;
    const char *envm = getenv("BENCH_MIN_GPUS");
    int min_gpus = envm && atoi(envm) > 0 ? atoi(envm) : 0;
    gp_trace *tr = gen_gavel_trace("scale", set.tp, &gp, &err);
    if (!tr) {
        printf("bench_scale: %s\n", err.msg);
        return 1;
    }
    double t[NCOUNTS][MAXPOL];
    int first = -1, last = -1;
    for (size_t c = 0; c < NCOUNTS && gpu_counts[c] <= max_gpus; c++) {
        if (gpu_counts[c] < min_gpus)
            continue;
        if (first < 0)
            first = (int)c;
        char spec[64];
        snprintf(spec, sizeof spec, "V100:%d", gpu_counts[c]);
        cluster *cl = gen_cluster("scale", spec, 8, cat, &err);
        if (!cl) {
            printf("bench_scale: %s\n", err.msg);
            return 1;
        }
        for (size_t p = 0; p < npol; p++) {
            t[c][p] = time_run(cl, cat, tr, policies[p]);
            printf("run %zu tasks on %6d GPUs, %-8s: %7.2f s\n", tr->ntasks, gpu_counts[c],
                   policies[p], t[c][p]);
            fflush(stdout);
        }
        cluster_free(cl);
        last = (int)c;
    }
    for (size_t p = 0; p < npol && last > first; p++)
        if (t[first][p] > 0 && t[last][p] > 0)
            printf("%-8s: time ~ GPUs^%.2f from %d to %d GPUs\n", policies[p],
                   log(t[last][p] / t[first][p]) /
                       log((double)gpu_counts[last] / gpu_counts[first]),
                   gpu_counts[first], gpu_counts[last]);
    trace_free(tr);
    catalog_free(cat);
    sample_set_free(&set);
    return 0;
}
