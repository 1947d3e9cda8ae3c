/*
 * bench_scale.c — how a run's time grows with the cluster and with the
 * trace: Gavel-style traces (gavel-like throughput table, 2,000 arrivals an
 * hour, seed 42) of 1,000, 10,000 and 100,000 tasks simulated on clusters
 * of 1,000, 10,000 and 100,000 V100 (8 a server) by one policy of each
 * family — FGD (scoring), CATS and CorrGPU (correlation), HotCloud
 * (threshold) — as `gpuplan run --tput none` runs them (sim_new, sim_run,
 * sim_finish; not the trace generation).  Prints a table of wall times and,
 * per policy, the exponents fitted between the smallest and the largest
 * size (time ~ GPUs^e at the largest trace; time ~ tasks^e on the largest
 * cluster; e near 0: the cost does not grow with idle hardware).  The
 * target on a 2-core machine: 10k tasks on 100k GPUs under 3 s for every
 * policy.
 *
 * Environment:
 *   BENCH_TASKS      largest trace (default 10000; 100000 adds that row)
 *   BENCH_MIN_GPUS, BENCH_MAX_GPUS   the clusters timed (1000 .. 100000)
 *   BENCH_POLICIES   a comma list (default fgd,cats,corrgpu,hotcloud)
 *   BENCH_SERIES=1   every task gets a utilization series (100 to 600
 *                    samples a minute apart, seeded), the correlation
 *                    policies' real work: the Gavel generator makes none
 *   BENCH_BUDGET_S   a run stops after this many seconds (default 120) and
 *                    its time prints as a lower bound (">")
 * Wall times on a shared machine: one run each, noisy.  Not a test: it
 * checks nothing.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rng.h"
#include "bench_common.h"
#include "samples/gen_trace.h"
#include "samples/gen_trace_int.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "sim/sim.h"

#define MAXPOL 16
static const char *const default_policies[] = {"fgd", "cats", "corrgpu", "hotcloud"};
static const int gpu_counts[] = {1000, 10000, 100000};
static const size_t task_counts[] = {1000, 10000, 100000};
#define NG (sizeof gpu_counts / sizeof *gpu_counts)
#define NT (sizeof task_counts / sizeof *task_counts)

/* One run's wall time; negative (minus the budget) when it was stopped
 * at the budget, 0 after printing why it could not start.  sim_run as
 * `gpuplan run` calls it (stepping decision by decision would add the
 * progress updates sim_step makes for its callers). */
static double time_run(const cluster *cl, const catalog *cat, const gp_trace *tr,
                       const char *policy, double budget_s)
{
    gp_err err = {{0}};
    policy_spec ps;
    if (policy_spec_parse(policy, &ps, &err)) {
        printf("%s: %s\n", policy, err.msg);
        return 0;
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.checkpoint_every = 0;
    double t0 = now_seconds();
    sim *s = sim_new(&cfg, cl, cat, tr, &ps, &err);
    if (!s) {
        printf("%s: %s\n", policy, err.msg);
        return 0;
    }
    bench_out_of_time = 0;
    signal(SIGALRM, bench_on_alarm);
    alarm((unsigned)budget_s);
    int stopped = sim_run(s, &bench_out_of_time) != 0;
    alarm(0);
    if (!stopped)
        sim_finish(s);
    double t = now_seconds() - t0;
    sim_free(s);
    return stopped ? -t : t;
}

/* A seeded series for every task: 100 to 600 samples 60 s apart, a level
 * and a square wave of random period and phase plus noise, within 0..100
 * — so that pairs of tasks correlate either way, as CATS Fig. 2's do. */
static void attach_series(gp_trace *tr, uint64_t seed)
{
    float *u = malloc(600 * sizeof *u);
    if (!u)
        abort();
    for (size_t i = 0; i < tr->ntasks; i++) {
        rng r;
        rng_seed_stream(&r, seed, i);
        size_t len = 100 + (size_t)rng_below(&r, 501);
        double level = rng_range(&r, 10, 60), swing = rng_range(&r, 0, 30);
        uint64_t period = 2 + rng_below(&r, 20), phase = rng_below(&r, period);
        for (size_t k = 0; k < len; k++) {
            double v = level + (((k + phase) / period) % 2 ? swing : -swing) +
                       5 * rng_normal(&r);
            u[k] = (float)(v < 0 ? 0 : v > 100 ? 100 : v);
        }
        task_set_util(&tr->tasks[i], u, len, 60);
    }
    free(u);
}

static void print_time(double t)
{
    if (t < 0)
        printf(" >%8.1f", -t);
    else
        printf(" %9.2f", t);
}

/* Prints "time ~ X^e" between the first and last measured entries of t
 * (stride apart in the table), when both finished. */
static void print_exponent(const char *what, const double *t, const double *x, size_t n,
                           size_t stride)
{
    int first = -1, last = -1;
    for (size_t i = 0; i < n; i++)
        if (t[i * stride] > 0) {
            if (first < 0)
                first = (int)i;
            last = (int)i;
        }
    if (last > first)
        printf("  ~ %s^%.2f (%g..%g)", what,
               log(t[(size_t)last * stride] / t[(size_t)first * stride]) /
                   log(x[last] / x[first]), x[first], x[last]);
    else
        printf("  ~ %s^?", what);
}

int main(void)
{
    const char *policies[MAXPOL];
    char polbuf[256];
    size_t npol = bench_pick_policies(policies, MAXPOL, default_policies,
                                      sizeof default_policies / sizeof *default_policies,
                                      polbuf, sizeof polbuf);
    gp_err err = {{0}};
    sample_set set;
    if (samplegen_build("gavel-like", SAMPLEGEN_DEFAULT_SEED, &set, &err)) {
        printf("bench_scale: %s\n", err.msg);
        return 1;
    }
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    size_t max_tasks = (size_t)bench_env_int("BENCH_TASKS", 10000);
    int max_gpus = bench_env_int("BENCH_MAX_GPUS", 100000);
    int min_gpus = bench_env_int("BENCH_MIN_GPUS", 1);
    int series = bench_env_int("BENCH_SERIES", 0) > 0;
    double budget = bench_env_int("BENCH_BUDGET_S", 120);
    printf("gpuplan run time (s), Gavel-style traces%s, V100 clusters of 8 a server; "
           "budget %.0f s a run\n", series ? " with utilization series" : "", budget);
    /* t[task row][gpu column][policy]; 0 = not run */
    static double t[NT][NG][MAXPOL];
    double xs_t[NT], xs_g[NG];
    for (size_t c = 0; c < NG; c++)
        xs_g[c] = gpu_counts[c];
    for (size_t r = 0; r < NT; r++)
        xs_t[r] = (double)task_counts[r];
    size_t nrows = 0;
    for (size_t r = 0; r < NT && task_counts[r] <= max_tasks; r++, nrows++) {
        gen_gavel_params gp;
        gen_gavel_params_default(&gp);
        gp.jobs = task_counts[r];
        gp.jobs_per_hour = 2000;
        gp.seed = 42;
        gp_trace *tr = gen_gavel_trace("scale", set.tp, &gp, &err);
        if (!tr) {
            printf("bench_scale: %s\n", err.msg);
            return 1;
        }
        if (series)
            attach_series(tr, 42);
        for (size_t c = 0; c < NG && gpu_counts[c] <= max_gpus; c++) {
            if (gpu_counts[c] < min_gpus)
                continue;
            char spec[64];
            snprintf(spec, sizeof spec, "V100:%d", gpu_counts[c]);
            cluster *cl = gen_cluster("scale", spec, 8, cat, &err);
            if (!cl) {
                printf("bench_scale: %s\n", err.msg);
                return 1;
            }
            for (size_t p = 0; p < npol; p++) {
                t[r][c][p] = time_run(cl, cat, tr, policies[p], budget);
                printf("run %6zu tasks on %6d GPUs, %-8s:", tr->ntasks, gpu_counts[c],
                       policies[p]);
                print_time(t[r][c][p]);
                printf(" s\n");
                fflush(stdout);
            }
            cluster_free(cl);
        }
        trace_free(tr);
    }
    for (size_t p = 0; p < npol; p++) {
        printf("\n%-10s", policies[p]);
        for (size_t c = 0; c < NG; c++)
            printf(" %7dG", gpu_counts[c]);
        printf("\n");
        for (size_t r = 0; r < nrows; r++) {
            printf("%7zu tasks", task_counts[r]);
            for (size_t c = 0; c < NG; c++) {
                if (t[r][c][p] == 0)
                    printf(" %9s", "-");
                else
                    print_time(t[r][c][p]);
            }
            print_exponent("GPUs", &t[r][0][p], xs_g, NG, MAXPOL);
            printf("\n");
        }
        /* Growth in tasks on the largest cluster measured. */
        for (int c = (int)NG - 1; c >= 0; c--) {
            double col[NT];
            size_t have = 0;
            for (size_t r = 0; r < nrows; r++)
                have += (col[r] = t[r][c][p]) != 0;
            if (have) {
                printf("%-13s", "  by tasks");
                print_exponent("tasks", col, xs_t, nrows, 1);
                printf(" on %d GPUs\n", gpu_counts[c]);
                break;
            }
        }
    }
    catalog_free(cat);
    sample_set_free(&set);
    return 0;
}
