/*
 * bench_rounds.c — the allocation family in the simulator: whole runs of
 * GOGH (on the table's throughputs, and on P1 estimates), Gavel and the
 * heterogeneity-blind baseline on Gavel-style traces of 64, 128 and 256
 * jobs arriving at once on a K80/P100/V100 cluster of a third as many
 * GPUs, over the gavel-like sample table (sample-data/gavel-like) and,
 * when present, the real Gavel table
 * (../shared/data/gavel/simulation_throughputs.json or under
 * $GPUPLAN_SHARED_DATA; skipped with a message when absent).
 *
 * Reports per run its wall time, rounds, time per round and the ratio
 * against blind on the same rounds (what the solver and the estimates add
 * to a round), with mean JCT and energy for the record.  Each solve stops
 * at the policy's default work limit (1 nominal second), so the figures
 * are deterministic but for the wall times.  Times are minima over
 * repeats (shared machines are noisy).  Not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/store.h"
#include "db/store_int.h"
#include "io/import.h"
#include "predict/gogh_est.h"
#include "samples/gen_trace.h"
#include "samples/gen_trace_int.h"
#include "sim/sim.h"

extern const importer import_gavel;

#define REPEATS 3

typedef struct inputs {
    catalog *cat;
    tput_catalog *tp;
    gogh_nets *nets;
} inputs;

/* Table `name` read by importer imp from path (with the profiles a native
 * set carries) into a temporary store, and the store's catalog. */
static int load(const importer *imp, const char *path, const char *name, inputs *in,
                gp_err *err)
{
    char dir[] = "/tmp/gpuplan-bench-XXXXXX", db[64];
    if (!mkdtemp(dir))
        return gp_error(err, "cannot create a temporary directory");
    snprintf(db, sizeof db, "%s/bench.db", dir);
    store *st = NULL;
    int rc = store_open(db, &st, NULL, err);
    if (rc == 0) {
        catalog *builtin = catalog_new();
        catalog_add_builtin(builtin);
        for (size_t i = 0; i < builtin->ngpus && rc == 0; i++)
            rc = store_put_gpu_profile(st, &builtin->gpus[i], err);
        catalog_free(builtin);
    }
    if (rc == 0) {
        const char *paths[1] = {path};
        import_opts opts = {0};
        opts.name = name;
        import_result res;
        memset(&res, 0, sizeof res);
        rc = import_run(st, imp, paths, 1, &opts, &res, err);
    }
    if (rc == 0)
        rc = store_get_tput_catalog(st, name, &in->tp, err);
    if (rc == 0)
        rc = store_load_catalog(st, &in->cat, err);
    store_close(st);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    free(cmd);
    return rc;
}

static void inputs_free(inputs *in)
{
    catalog_free(in->cat);
    tput_catalog_free(in->tp);
    gogh_nets_free(in->nets);
}

/* One run of policy on tr and cl: its wall time (minimum over repeats),
 * rounds, mean JCT and energy.  -1 when it cannot run. */
static double time_run(const inputs *in, const cluster *cl, const gp_trace *tr,
                       const char *policy, double *rounds, double *jct, double *kwh)
{
    policy_spec sp;
    gp_err err = {{0}};
    if (policy_spec_parse(policy, &sp, &err))
        return -1;
    sim_config c;
    sim_config_default(&c);
    c.tput = in->tp;
    c.nets = in->nets;
    double best = 1e30;
    for (int k = 0; k < REPEATS; k++) {
        double t0 = now_seconds();
        sim *s = sim_new(&c, cl, in->cat, tr, &sp, &err);
        if (!s) {
            fprintf(stderr, "bench: %s: %s\n", policy, err.msg);
            return -1;
        }
        sim_run(s, NULL);
        sim_finish(s);
        double t = now_seconds() - t0;
        best = t < best ? t : best;
        const run *r = sim_run_record(s);
        *rounds = run_metric_get(r, "rounds", 0);
        *jct = run_metric_get(r, "jct_mean_s", 0);
        *kwh = run_metric_get(r, "energy_j", 0) / 3.6e6;
        sim_free(s);
    }
    return best;
}

static void bench_table(inputs *in, const char *label)
{
    static const char *const policies[] = {"blind", "gavel", "gogh-oracle", "gogh-p1"};
    static const size_t sizes[] = {64, 128, 256};
    printf("\n%s: jobs all at t = 0, K80/P100/V100M16 in equal thirds, a third as many GPUs\n",
           label);
    printf("%-6s %-12s %9s %7s %10s %9s %12s %10s\n", "jobs", "policy", "run_s", "rounds",
           "ms/round", "vs_blind", "jct_mean_s", "kwh");
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        gen_gavel_params gp;
        gen_gavel_params_default(&gp);
        gp.jobs = sizes[z];
        gp.jobs_per_hour = 0;
        gp_err err = {{0}};
        gp_trace *tr = gen_gavel_trace("bench", in->tp, &gp, &err);
        int third = (int)(sizes[z] / 9);
        char spec[96];
        snprintf(spec, sizeof spec, "K80:%d,P100:%d,V100M16:%d", third, third, third);
        cluster *cl = tr ? gen_cluster("bench", spec, 4, in->cat, &err) : NULL;
        if (!tr || !cl) {
            fprintf(stderr, "bench: %s\n", err.msg);
            trace_free(tr);
            cluster_free(cl);
            continue;
        }
        double blind_per_round = 0;
        for (size_t p = 0; p < sizeof policies / sizeof *policies; p++) {
            double rounds = 0, jct = 0, kwh = 0;
            double t = time_run(in, cl, tr, policies[p], &rounds, &jct, &kwh);
            if (t < 0)
                continue;
            double per_round = rounds > 0 ? t / rounds : 0;
            if (p == 0)
                blind_per_round = per_round;
            printf("%-6zu %-12s %9.3f %7.0f %10.3f %9.1f %12.0f %10.2f\n", sizes[z],
                   policies[p], t, rounds, per_round * 1e3,
                   blind_per_round > 0 ? per_round / blind_per_round : 0, jct, kwh);
        }
        trace_free(tr);
        cluster_free(cl);
    }
}

/* Nets for gogh-p1: trained briefly (the bench times rounds, not nets). */
static void train(inputs *in)
{
    gogh_train_params p;
    gogh_train_params_default(&p);
    p.epochs = 50;
    gogh_train_report rep;
    gp_err err = {{0}};
    in->nets = gogh_nets_train(in->tp, &p, &rep, &err);
    if (!in->nets)
        fprintf(stderr, "bench: no nets (%s): gogh-p1 skipped\n", err.msg);
}

int main(void)
{
    gp_err err = {{0}};
    inputs like = {0};
    if (load(&import_native, "sample-data/gavel-like", "gavel-like", &like, &err)) {
        fprintf(stderr, "bench_rounds: gavel-like: %s\n", err.msg);
        inputs_free(&like);
        return 1;
    }
    train(&like);
    bench_table(&like, "gavel-like sample table");

    const char *root = getenv("GPUPLAN_SHARED_DATA");
    char *path = xasprintf("%s/gavel/simulation_throughputs.json",
                           root ? root : "../shared/data");
    inputs real = {0};
    if (access(path, R_OK) != 0)
        printf("\nreal Gavel table: skipped (%s not found)\n", path);
    else if (load(&import_gavel, path, "gavel", &real, &err))
        fprintf(stderr, "bench_rounds: %s: %s\n", path, err.msg);
    else {
        /* The built-in catalog has no K80: the sample set's. */
        catalog_add_gpu(real.cat, catalog_gpu(like.cat, "K80"));
        train(&real);
        bench_table(&real, "real Gavel table");
    }
    inputs_free(&real);
    inputs_free(&like);
    free(path);
    return 0;
}
