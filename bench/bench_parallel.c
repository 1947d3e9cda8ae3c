/*
 * bench_parallel.c — the inflation sweep of the FGD/PWR family on the
 * Alibaba 2023 default trace (1213 nodes, 8152 tasks inflated to 130 %),
 * 10 policies × SEEDS seeds, run through par.h as `gpuplan sweep -j N`
 * runs it: wall time with 2 threads against 1 (ideal 2×), and whether
 * the averaged curves are identical (they must be, for any N).
 *
 * The machine is shared: the ratio is of two wall times measured in the
 * same process one after the other, and says little when other programs
 * hold the cores meanwhile.
 *
 * Reads ../shared/data/alibaba-gpu-2023 (or $GPUPLAN_SHARED_DATA) through
 * the openb importer into a temporary database; says so and exits 0 when
 * the data is absent.  $BENCH_SEEDS (default 10) sets the seeds per
 * policy.  Not a test: apart from the equality line it checks nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "db/store.h"
#include "io/import.h"
#include "plan/par.h"
#include "sim/inflation.h"
#include "openb_default.h"


static const char *const policies[] = {
    "random", "dotprod", "gpuclustering", "gpupacking", "bestfit", "fgd", "pwr",
    "pwr+fgd:0.05", "pwr+fgd:0.1", "pwr+fgd:0.2",
};
#define NPOL (sizeof policies / sizeof *policies)

/* One sweep: the setup, the policies and one accumulator per policy. */
typedef struct sweep {
    infl_setup s;
    policy_spec pol[NPOL];
    size_t nseeds;
    infl_agg agg[NPOL];
} sweep;

static int work(void *ctx, size_t i, void **out, gp_err *err)
{
    sweep *sw = ctx;
    infl_run *r = xmalloc(sizeof *r);
    if (infl_run_one(&sw->s, &sw->pol[i / sw->nseeds], 42 + i % sw->nseeds, 0, r, err)) {
        free(r);
        return -1;
    }
    *out = r;
    return 0;
}

static int take(void *ctx, size_t i, void *result, gp_err *err)
{
    (void)err;
    sweep *sw = ctx;
    infl_agg_add(&sw->agg[i / sw->nseeds], result);
    infl_run_free(result);
    free(result);
    return 0;
}

static void drop(void *ctx, size_t i, void *result)
{
    (void)ctx;
    (void)i;
    infl_run_free(result);
    free(result);
}

/* User + system CPU seconds of this process so far (all threads). */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* The sweep with `threads` threads; its wall and CPU time in *wall, *cpu. */
static int run_sweep(sweep *sw, int threads, double *wall, double *cpu, gp_err *err)
{
    for (size_t p = 0; p < NPOL; p++)
        infl_agg_init(&sw->agg[p]);
    par_job job = {work, take, drop, sw};
    double t0 = now_seconds(), c0 = cpu_seconds();
    int rc = par_run(&job, NPOL * sw->nseeds, threads, err);
    *wall = now_seconds() - t0;
    *cpu = cpu_seconds() - c0;
    return rc;
}

/* The curves of two sweeps are the same (their wall times aside). */
static int same_curves(const infl_agg *a, const infl_agg *b)
{
    for (size_t p = 0; p < NPOL; p++)
        if (a[p].nruns != b[p].nruns || memcmp(a[p].sum, b[p].sum, sizeof a[p].sum) ||
            memcmp(a[p].sumsq, b[p].sumsq, sizeof a[p].sumsq) ||
            memcmp(a[p].min, b[p].min, sizeof a[p].min) ||
            memcmp(a[p].max, b[p].max, sizeof a[p].max) ||
            memcmp(a[p].n, b[p].n, sizeof a[p].n) || a[p].failed_sum != b[p].failed_sum ||
            a[p].clones_sum != b[p].clones_sum)
            return 0;
    return 1;
}

int main(void)
{
    data d;
    memset(&d, 0, sizeof d);
    gp_err err = {{0}};
    if (load(&d, &err)) {
        printf("bench_parallel: %s\n", err.msg);
        unload(&d);
        return strncmp(err.msg, "skipped", 7) == 0 ? 0 : 1;
    }
    const char *env = getenv("BENCH_SEEDS");
    sweep *one = xcalloc(1, sizeof *one), *two = xcalloc(1, sizeof *two);
    one->nseeds = env && atoi(env) > 0 ? (size_t)atoi(env) : 10;
    one->s = (infl_setup){d.cl, d.cat, d.tr, INFL_DEFAULT_RATIO, NULL, 0, NULL, 0, INFL_RNG_GO};
    for (size_t p = 0; p < NPOL; p++)
        if (policy_spec_parse(policies[p], &one->pol[p], &err))
            goto fail;
    *two = *one;
    double w1, w2, c1, c2;
    if (run_sweep(one, 1, &w1, &c1, &err) || run_sweep(two, 2, &w2, &c2, &err))
        goto fail;
    printf("inflation sweep, default trace, %zu policies x %zu seeds (%zu runs): "
           "-j 1 %.2f s, -j 2 %.2f s, speed-up %.2fx (ideal 2x; %d cores online, shared)\n",
           NPOL, one->nseeds, NPOL * one->nseeds, w1, w2, w1 / w2, par_default_threads());
    /* CPU time over wall time: the cores the sweep actually got.  With
     * -j 2 on an idle 2-core machine it is near 2; less means other
     * programs held the cores. */
    printf("CPU time: -j 1 %.2f s (%.2f cores used), -j 2 %.2f s (%.2f cores used)\n", c1,
           c1 / w1, c2, c2 / w2);
    int same = same_curves(one->agg, two->agg);
    printf("curves of -j 2 %s those of -j 1\n", same ? "identical to" : "DIFFER from");
    free(one);
    free(two);
    unload(&d);
    return same ? 0 : 1;
fail:
    printf("bench_parallel: %s\n", err.msg);
    free(one);
    free(two);
    unload(&d);
    return 1;
}
