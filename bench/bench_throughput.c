/*
 * bench_throughput.c — how many placement decisions a second each policy
 * makes, and how many tasks a second a whole run gets through, on clusters
 * of 10,000 and 100,000 V100 (8 a server) with one Gavel-style trace of
 * 10,000 tasks (gavel-like table, 2,000 arrivals an hour, seed 42: the
 * trace of `gpuplan generate trace --tput gavel-like --jobs 10000 --rate
 * 2000`).  The figures behind bench/THROUGHPUT.md.
 *
 * Runs are as `gpuplan run --tput none` runs them (no throughput table;
 * Gavel, which allocates by the table, gets the gavel-like one).
 *
 * For each policy and cluster, the median of BENCH_REPEAT runs (default 3)
 * of CPU time (this process's, so other work on a shared machine slows
 * the wall clock, not these) of:
 *   setup     sim_new: the cluster state, the policy's workspace;
 *   decide    sim_run: the events, the decisions and what they change;
 *   whole     setup + decide + sim_finish (the run's metrics).
 * decisions/s = the run's decisions (placements asked of the policy,
 * retries from the queue included) / decide; tasks/s = tasks / whole.
 * The last columns are whole and decide on 100k GPUs over the same on 10k:
 * what ten times the idle GPUs cost (the target is at most 1.3).  The
 * decisions column is the 10k run's.
 *
 * Environment:
 *   BENCH_TASKS      trace size (default 10000)
 *   BENCH_POLICIES   a comma list (default: every placement policy)
 *   BENCH_REPEAT     runs per figure, the median is printed (default 3)
 *   BENCH_BUDGET_S   a run stops after this many wall seconds (default 300)
 *                    and prints as a lower bound (">")
 * Not a test: it checks nothing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "samples/gen_trace.h"
#include "samples/gen_trace_int.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "sim/sim.h"

#define MAXPOL 32
#define MAXREP 9
static const char *const default_policies[] = {
    "fgd",  "pwr",   "pwr+fgd", "bestfit",  "dotprod", "gpupacking", "gpuclustering",
    "random", "cats", "corrgpu", "hotcloud", "first",   "harmony",    "blind",
    "gavel"};
static const int gpu_counts[] = {10000, 100000};
#define NG (sizeof gpu_counts / sizeof *gpu_counts)

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct timing {
    double setup, decide, whole;    /* CPU s */
    size_t decisions;
    int stopped;                    /* at the budget */
    int failed;                     /* could not start */
} timing;

static timing time_run(const cluster *cl, const catalog *cat, const gp_trace *tr,
                       const tput_catalog *tp, const char *policy, double budget_s)
{
    timing t = {0, 0, 0, 0, 0, 0};
    gp_err err = {{0}};
    policy_spec ps;
    if (policy_spec_parse(policy, &ps, &err)) {
        printf("# %s: %s\n", policy, err.msg);
        t.failed = 1;
        return t;
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.checkpoint_every = SIM_NO_REWIND;  /* as the command line: nobody rewinds */
    /* As `gpuplan run --tput none`; Gavel allocates by the table alone. */
    cfg.tput = strcmp(policy, "gavel") == 0 ? tp : NULL;
    double c0 = cpu_seconds();
    sim *s = sim_new(&cfg, cl, cat, tr, &ps, &err);
    if (!s) {
        printf("# %s: %s\n", policy, err.msg);
        t.failed = 1;
        return t;
    }
    double c1 = cpu_seconds();
    bench_out_of_time = 0;
    signal(SIGALRM, bench_on_alarm);
    alarm((unsigned)budget_s);
    t.stopped = sim_run(s, &bench_out_of_time) != 0;
    alarm(0);
    double c2 = cpu_seconds();
    if (!t.stopped)
        sim_finish(s);
    t.decisions = sim_run_record(s)->ndecisions;
    t.setup = c1 - c0;
    t.decide = c2 - c1;
    t.whole = cpu_seconds() - c0;
    sim_free(s);
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median of each figure over n runs (a stopped run stops the rest). */
static timing time_median(const cluster *cl, const catalog *cat, const gp_trace *tr,
                          const tput_catalog *tp, const char *policy, double budget_s, int n)
{
    double setup[MAXREP], decide[MAXREP], whole[MAXREP];
    timing t = {0, 0, 0, 0, 0, 0};
    int done = 0;
    for (; done < n; done++) {
        t = time_run(cl, cat, tr, tp, policy, budget_s);
        if (t.failed || t.stopped)
            return t;
        setup[done] = t.setup;
        decide[done] = t.decide;
        whole[done] = t.whole;
    }
    t.setup = median(setup, done);
    t.decide = median(decide, done);
    t.whole = median(whole, done);
    return t;
}

static void print_cell(const timing *t, size_t ntasks)
{
    if (t->failed)
        printf(" | - | - | - | - | -");
    else if (t->stopped)
        printf(" | > budget | | | |");
    else
        printf(" | %.3f | %.3f | %.3f | %.0f | %.0f", t->setup, t->decide, t->whole,
               t->decide > 0 ? (double)t->decisions / t->decide : 0,
               t->whole > 0 ? (double)ntasks / t->whole : 0);
}

int main(void)
{
    const char *policies[MAXPOL];
    char polbuf[512];
    size_t npol = bench_pick_policies(policies, MAXPOL, default_policies,
                                      sizeof default_policies / sizeof *default_policies,
                                      polbuf, sizeof polbuf);
    int repeat = bench_env_int("BENCH_REPEAT", 3);
    repeat = repeat > MAXREP ? MAXREP : repeat;
    double budget = bench_env_int("BENCH_BUDGET_S", 300);
    gp_err err = {{0}};
    sample_set set;
    if (samplegen_build("gavel-like", SAMPLEGEN_DEFAULT_SEED, &set, &err)) {
        printf("bench_throughput: %s\n", err.msg);
        return 1;
    }
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    gen_gavel_params gp;
    gen_gavel_params_default(&gp);
    gp.jobs = (size_t)bench_env_int("BENCH_TASKS", 10000);
    gp.jobs_per_hour = 2000;
    gp.seed = 42;
    gp_trace *tr = gen_gavel_trace("throughput", set.tp, &gp, &err);
    if (!tr) {
        printf("bench_throughput: %s\n", err.msg);
        return 1;
    }
    cluster *cl[NG];
    for (size_t c = 0; c < NG; c++) {
        char spec[64];
        snprintf(spec, sizeof spec, "V100:%d", gpu_counts[c]);
        if (!(cl[c] = gen_cluster("throughput", spec, 8, cat, &err))) {
            printf("bench_throughput: %s\n", err.msg);
            return 1;
        }
    }
    printf("# %zu tasks; CPU s, median of %d runs; decisions/s = decisions / decide CPU s; "
           "tasks/s = tasks / whole-run CPU s\n", tr->ntasks, repeat);
    printf("| policy | decisions | 10k GPUs: setup | decide | whole | decisions/s | tasks/s "
           "| 100k GPUs: setup | decide | whole | decisions/s | tasks/s "
           "| 100k/10k whole | decide |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t p = 0; p < npol; p++) {
        timing t[NG];
        for (size_t c = 0; c < NG; c++)
            t[c] = time_median(cl[c], cat, tr, set.tp, policies[p], budget, repeat);
        printf("| %s | %zu", policies[p], t[0].decisions);
        for (size_t c = 0; c < NG; c++)
            print_cell(&t[c], tr->ntasks);
        int ok = !t[0].failed && !t[0].stopped && !t[NG - 1].failed && !t[NG - 1].stopped;
        if (ok && t[0].whole > 0 && t[0].decide > 0)
            printf(" | %.2f | %.2f |\n", t[NG - 1].whole / t[0].whole,
                   t[NG - 1].decide / t[0].decide);
        else
            printf(" | - | - |\n");
        fflush(stdout);
    }
    for (size_t c = 0; c < NG; c++)
        cluster_free(cl[c]);
    trace_free(tr);
    sample_set_free(&set);
    catalog_free(cat);
    return 0;
}
