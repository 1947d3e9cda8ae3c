/*
 * bench_peace.c — PEACE on the modelled peace-v100 set (SPEC §9, issue
 * targets): training the six models on the paper's ~30 % of the pair
 * rows, and one selection — every split of a pair (9) at every
 * representative clock (3), features and two predictions each — against
 * the 1 ms target; also a three-workload selection (36 splits) and one
 * run of the simulated controller, the unit the Oracle repeats per split.
 * The reference measured in the same run is the cost of the selection's
 * 54 bare predictions, so the ratio says what features and scaling add.
 * Times are minima over repeats (shared machines are noisy).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "peace/peace_policy.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"

enum { REPEATS = 5, SELECTIONS = 2000 };

static double min_time(double a, double b)
{
    return a < b ? a : b;
}

/* Seconds per PEACE selection over every group of size n, cycled. */
static double time_selections(const peace_env *env, const peace_combo *g, size_t ng)
{
    double best = INFINITY;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_seconds();
        for (int k = 0; k < SELECTIONS; k++) {
            peace_decision d;
            gp_err err;
            peace_policy_find("peace")->choose(env, &g[(size_t)k % ng], 100, &d, &err);
        }
        best = min_time(best, (now_seconds() - t0) / SELECTIONS);
    }
    return best;
}

/* Seconds for the 54 bare predictions of a pair selection (the reference). */
static double time_bare(const peace_models *m)
{
    double x[PEACE_NFEAT_TPUT] = {0.3, 0.5, 0.2, 0.4, 0.1, 0.6, 0.7, 0.5, 0.4};
    double best = INFINITY, sink = 0;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_seconds();
        for (int k = 0; k < SELECTIONS; k++)
            for (int s = 0; s < 9; s++)
                for (int fi = 0; fi < m->nfreq; fi++) {
                    x[0] = s / 9.0;
                    sink += et_predict(m->power[fi], x) + et_predict(m->tput[fi], x);
                }
        best = min_time(best, (now_seconds() - t0) / SELECTIONS);
    }
    return sink == 42 ? 0 : best;
}

static double time_control(const peace_env *env, const peace_combo *g)
{
    peace_combo c = *g;
    c.share[0] = 50;
    c.share[1] = 50;
    double best = INFINITY;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_seconds();
        for (int k = 0; k < SELECTIONS; k++) {
            peace_ctrl_result res;
            gp_err err;
            peace_control(env->ix, &c, 100, &env->ctrl, &res, &err);
        }
        best = min_time(best, (now_seconds() - t0) / SELECTIONS);
    }
    return best;
}

int main(void)
{
    gp_err err = {{0}};
    sample_set ss;
    if (samplegen_build("peace-v100", SAMPLEGEN_DEFAULT_SEED, &ss, &err)) {
        fprintf(stderr, "bench_peace: %s\n", err.msg);
        return 1;
    }
    peace_index *ix = peace_index_new(ss.peace, &err);
    if (!ix) {
        fprintf(stderr, "bench_peace: %s\n", err.msg);
        return 1;
    }
    size_t *rows = malloc((ss.peace->nco + 1) * sizeof *rows);
    peace_row_filter pairs = {.n = 2, .without = -1, .with = -1};
    size_t n = peace_rows(ix, &pairs, rows), keep = peace_rows_sample(rows, n, 0.3, 42);
    et_params ep;
    et_params_default(&ep);
    ep.min_samples_split = 5;
    peace_models m;
    double train = INFINITY;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_seconds();
        if (peace_models_train(&m, ix, rows, keep, &ep, &err)) {
            fprintf(stderr, "bench_peace: %s\n", err.msg);
            return 1;
        }
        train = min_time(train, now_seconds() - t0);
        if (r < REPEATS - 1)
            peace_models_free(&m);
    }
    peace_env env = {.ix = ix, .models = &m};
    peace_ctrl_params_default(&env.ctrl, 135, 1530);
    peace_combo g2[256], g3[256];
    size_t n2 = peace_groups(ix, 2, g2, 256), n3 = peace_groups(ix, 3, g3, 256);
    double sel2 = time_selections(&env, g2, n2), sel3 = time_selections(&env, g3, n3);
    double bare = time_bare(&m), ctrl = time_control(&env, &g2[0]);
    printf("training: 6 models on %zu of %zu pair rows, 100 trees: %.3f s\n", keep, n, train);
    printf("selection, 2 workloads (9 splits x %d clocks): %.1f us (target < 1000 us)\n",
           m.nfreq, 1e6 * sel2);
    printf("  the same %d bare predictions: %.1f us; selection / bare = %.2f\n",
           9 * m.nfreq * 2, 1e6 * bare, sel2 / bare);
    printf("selection, 3 workloads (36 splits x %d clocks): %.1f us\n", m.nfreq, 1e6 * sel3);
    printf("one controller run (60 s of 500 ms readings): %.1f us; the Oracle of a pair "
           "runs 9\n", 1e6 * ctrl);
    peace_models_free(&m);
    free(rows);
    peace_index_free(ix);
    sample_set_free(&ss);
    return 0;
}
