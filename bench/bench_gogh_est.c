/*
 * bench_gogh_est.c — GOGH's throughput estimation (predict/gogh_est.h) on
 * the gavel-like sample table and on the real Gavel table
 * (../shared/data/gavel/simulation_throughputs.json, or under
 * $GPUPLAN_SHARED_DATA; skipped with a message when absent):
 *   1. FANN training time of P1 and of P2 (P2's includes the cross-fitted
 *      P1s its rows need) with the default parameters, and the figures;
 *   2. estimation time of a new job: P1 on every accelerator class, alone
 *      and next to every known job, from a fresh estimator (no cache);
 *   3. one P2 refinement: an observation of a new job alone, refined on
 *      every other class;
 *   4. loading the stored nets (gogh_nets_load), as every command using
 *      them does.
 * Times are minima over repeats (shared machines are noisy).  Not a test:
 * it checks only that the estimates it times are finite.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/store.h"
#include "db/store_int.h"
#include "io/import.h"
#include "predict/gogh_est.h"

extern const importer import_gavel;

#define REPEATS 5

/* A throughput table read by importer imp from path into a store in a
 * temporary directory (removed before returning). */
static tput_catalog *load_table(const importer *imp, const char *path, const char *name,
                                gp_err *err)
{
    char dir[] = "/tmp/gpuplan-bench-XXXXXX", db[64];
    if (!mkdtemp(dir)) {
        gp_error(err, "cannot create a temporary directory");
        return NULL;
    }
    snprintf(db, sizeof db, "%s/bench.db", dir);
    store *st = NULL;
    tput_catalog *tp = NULL;
    if (store_open(db, &st, NULL, err) == 0) {
        catalog *builtin = catalog_new();
        catalog_add_builtin(builtin);
        for (size_t i = 0; i < builtin->ngpus; i++)
            store_put_gpu_profile(st, &builtin->gpus[i], err);
        catalog_free(builtin);
        const char *paths[1] = {path};
        import_opts opts = {0};
        opts.name = name;
        import_result res;
        memset(&res, 0, sizeof res);
        if (import_run(st, imp, paths, 1, &opts, &res, err) == 0)
            store_get_tput_catalog(st, name, &tp, err);
    }
    store_close(st);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    free(cmd);
    return tp;
}

/* The first type the nets held out (validation or test): a new job. */
static const gogh_jobtype *held_out(const gogh_jobtype *types, size_t n, const gogh_nets *nets)
{
    for (size_t i = 0; i < n; i++)
        if (gogh_nets_split_of(nets, &types[i]) > 0)
            return &types[i];
    return NULL;
}

/* Seconds to estimate new job j on every class, alone and next to every
 * known type, from a fresh estimator; *count receives the estimates made. */
static double time_new_job(const tput_catalog *tp, const gogh_nets *nets, const gogh_jobtype *j,
                           const gogh_jobtype *types, size_t nt, const char *const *acc,
                           size_t na, size_t *count)
{
    gp_err err = {{0}};
    double best = INFINITY;
    for (int rep = 0; rep < REPEATS; rep++) {
        gogh_estimator *e = gogh_estimator_new(GOGH_EST_P1, tp, nets, &err);
        double sum = 0, t0 = now_seconds();
        *count = 0;
        for (size_t a = 0; a < na; a++)
            for (size_t k = 0; k <= nt; k++) {
                double tk;
                sum += gogh_estimate(e, acc[a], j, k < nt ? &types[k] : NULL, &tk);
                ++*count;
            }
        double s = now_seconds() - t0;
        if (!isfinite(sum))
            fprintf(stderr, "bench: an estimate is not finite\n");
        best = fmin(best, s);
        gogh_estimator_free(e);
    }
    return best;
}

/* Seconds for one observation of j alone on the first class (P2 on every
 * other one), its P1 estimates made beforehand. */
static double time_refinement(const tput_catalog *tp, const gogh_nets *nets,
                              const gogh_jobtype *j, const char *const *acc, size_t na)
{
    gp_err err = {{0}};
    double best = INFINITY;
    for (int rep = 0; rep < REPEATS; rep++) {
        gogh_estimator *e = gogh_estimator_new(GOGH_EST_P1P2, tp, nets, &err);
        for (size_t a = 0; a < na; a++)
            gogh_estimate(e, acc[a], j, NULL, NULL);
        double t0 = now_seconds();
        gogh_observe(e, acc[0], j, NULL, 1.0, 0);
        best = fmin(best, now_seconds() - t0);
        gogh_estimator_free(e);
    }
    return best;
}

static double time_load(const gogh_nets *nets, size_t *len)
{
    unsigned char *b = gogh_nets_save(nets, len);
    gp_err err = {{0}};
    double best = INFINITY;
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = now_seconds();
        gogh_nets *n = gogh_nets_load(b, *len, &err);
        best = fmin(best, now_seconds() - t0);
        gogh_nets_free(n);
    }
    free(b);
    return best;
}

static void print_report(const gogh_train_report *r)
{
    printf("  types train/validation/test: %zu/%zu/%zu\n", r->types[0], r->types[1],
           r->types[2]);
    for (int k = 0; k < 2; k++) {
        const gogh_split_err *e = k == 0 ? r->p1 : r->p2;
        printf("  %s: training %.2f s; loss/MAE train %.4f/%.4f, validation %.4f/%.4f, "
               "test %.4f/%.4f\n", k == 0 ? "P1" : "P2", k == 0 ? r->p1_s : r->p2_s,
               e[0].loss, e[0].mae, e[1].loss, e[1].mae, e[2].loss, e[2].mae);
    }
}

static void bench_table(const char *what, const tput_catalog *tp)
{
    gogh_train_params p;
    gogh_train_params_default(&p);
    gogh_train_report rep;
    gp_err err = {{0}};
    printf("%s: %zu entries, %zu job types, %zu accelerator classes; hidden %d x %d, %d "
           "epochs, rate %g\n", what, tp->nentries, tput_catalog_job_types(tp),
           tput_catalog_accels(tp), p.hidden, p.layers, p.epochs, p.learning_rate);
    gogh_nets *nets = gogh_nets_train(tp, &p, &rep, &err);
    if (!nets) {
        printf("  training failed: %s\n", err.msg);
        return;
    }
    print_report(&rep);
    tput_index *ix = tput_index_new(tp);
    size_t nt = tput_catalog_job_types(tp), na = tput_catalog_accels(tp), count = 0, len;
    gogh_jobtype *types = xmalloc(nt * sizeof *types);
    const char **acc = xmalloc(na * sizeof *acc);
    nt = tput_jobtypes(ix, types, nt);
    na = tput_accels(ix, acc, na);
    const gogh_jobtype *j = held_out(types, nt, nets);
    if (j) {
        double s = time_new_job(tp, nets, j, types, nt, acc, na, &count);
        printf("  a new job (%s batch %d): %zu estimates (%zu classes x %zu partners) in "
               "%.1f us, %.2f us each\n", j->model, j->batch_size, count, na, nt + 1, 1e6 * s,
               1e6 * s / (double)count);
        printf("  one P2 refinement (observed on %s, refined on %zu classes): %.1f us\n",
               acc[0], na - 1, 1e6 * time_refinement(tp, nets, j, acc, na));
    }
    double load_s = time_load(nets, &len);
    printf("  nets: %zu bytes, loaded in %.2f ms\n", len, 1e3 * load_s);
    free(types);
    free(acc);
    tput_index_free(ix);
    gogh_nets_free(nets);
}

int main(void)
{
    gp_err err = {{0}};
    tput_catalog *sample = load_table(&import_native, "sample-data/gavel-like", "gavel-like",
                                      &err);
    if (sample)
        bench_table("gavel-like sample", sample);
    else
        printf("gavel-like sample: skipped: %s\n", err.msg);
    tput_catalog_free(sample);
    const char *root = getenv("GPUPLAN_SHARED_DATA");
    char *path = xasprintf("%s/gavel/simulation_throughputs.json",
                           root && *root ? root : "../shared/data");
    if (access(path, R_OK) != 0) {
        printf("real Gavel table: skipped: %s not found (public data absent)\n", path);
    } else {
        tput_catalog *real = load_table(&import_gavel, path, "gavel", &err);
        if (real)
            bench_table("real Gavel table", real);
        else
            printf("real Gavel table: %s\n", err.msg);
        tput_catalog_free(real);
    }
    free(path);
    return 0;
}
