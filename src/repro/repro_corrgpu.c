/*
 * repro_corrgpu.c — CorrGPU (Subramaniyan and Wang) reproduced: the
 * motivating example of §III-B (Fig. 3-4), the testbed comparison of §V
 * (Fig. 5) on the cats-testbed tasks, and the PAI simulation of §V (Fig. 6-7)
 * on pai-like.  CapEx is the unique GPUs a run ever used times the GPU's
 * price (eq. 2, counted as Alg. 1 counts them); the normalized CTD is each
 * policy's mean completion time over CorrGPU's.
 */
#include "repro.h"
#include "repro_table.h"

#include <math.h>

#define PAPER "corrgpu"

static double metric(const run *r, const char *key)
{
    return r ? run_metric_get(r, key, NAN) : NAN;
}

/* Simulates each policy of pols[0..n) on (trace, cluster); runs[i] NULL
 * when it failed.  0, or -1 after a not-run row. */
static int simulate_all(repro_out *o, const char *exp, const char *trace,
                        const char *cluster_name, int unbounded, const char *const *pols, int n,
                        run **runs)
{
    repro_inputs in;
    gp_err err = {{0}};
    if (repro_load(o->st, trace, cluster_name, &in, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        return -1;
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.unbounded = unbounded;
    int rc = 0;
    for (int i = 0; i < n; i++)
        if (!(runs[i] = repro_simulate(o, &in, pols[i], &cfg, &err)) && rc == 0) {
            repro_not_run(o, PAPER, exp, err.msg);
            rc = -1;
        }
    repro_inputs_free(&in);
    return rc;
}

static void free_runs(run **runs, int n)
{
    for (int i = 0; i < n; i++)
        run_free(runs[i]);
}

/* §III-B: two tasks of opposite phase; First needs two A100s, CorrGPU one. */
static void motivating_example(repro_out *o)
{
    static const char *const pols[] = {"corrgpu", "first"};
    const char *exp = "motivating example (Fig. 3-4)";
    run *r[2] = {0};
    if (simulate_all(o, exp, "corrgpu-example", "corrgpu-example", 1, pols, 2, r) == 0) {
        double gc = metric(r[0], "unique_gpus"), gf = metric(r[1], "unique_gpus");
        double cc = metric(r[0], "capex_usd"), cf = metric(r[1], "capex_usd");
        repro_add(o, PAPER, exp, "CorrGPU GPUs", "1", gc, "%.0f", repro_verdict(gc == 1),
                  NULL);
        repro_add(o, PAPER, exp, "First GPUs", "2", gf, "%.0f", repro_verdict(gf == 2), NULL);
        repro_add(o, PAPER, exp, "CorrGPU CapEx, USD", "2,500", cc, "%.0f",
                  repro_verdict(fabs(cc - 2500) < 0.5), NULL);
        repro_add(o, PAPER, exp, "First CapEx, USD", "5,000", cf, "%.0f",
                  repro_verdict(fabs(cf - 5000) < 0.5), NULL);
    }
    free_runs(r, 2);
}

/* §V, Fig. 5: the testbed's PAI tasks on six V100s. */
static void testbed(repro_out *o)
{
    static const char *const pols[] = {"corrgpu", "first", "harmony"};
    const char *exp = "testbed-like (Fig. 5), cats-testbed";
    run *r[3] = {0};
    if (simulate_all(o, exp, "cats-testbed", "cats-testbed", 0, pols, 3, r) == 0) {
        double g[3], jct[3];
        for (int i = 0; i < 3; i++) {
            g[i] = metric(r[i], "unique_gpus");
            jct[i] = metric(r[i], "jct_mean_s") / metric(r[0], "jct_mean_s");
        }
        double save_h = 100 * (1 - g[0] / g[2]), save_f = 100 * (1 - g[0] / g[1]);
        repro_add(o, PAPER, exp, "CapEx saving vs Harmony, %", "50", save_h, "%.1f",
                  repro_verdict(save_h > 0),
                  "unique GPUs: CorrGPU %.0f, Harmony %.0f (the verdict asks for a saving)",
                  g[0], g[2]);
        repro_add(o, PAPER, exp, "CapEx saving vs First, %", "40", save_f, "%.1f",
                  repro_verdict(save_f > 0), "unique GPUs: CorrGPU %.0f, First %.0f", g[0],
                  g[1]);
        repro_add(o, PAPER, exp, "CTD, Harmony / CorrGPU", "0.81", jct[2], "%.2f",
                  repro_verdict(1 / jct[2] <= 1.25), "CorrGPU within 1.25x Harmony's CTD");
        repro_add(o, PAPER, exp, "CTD, First / CorrGPU", "0.90", jct[1], "%.2f",
                  repro_verdict(1 / jct[1] <= 1.25), "CorrGPU within 1.25x First's CTD");
    }
    free_runs(r, 3);
}

/* §V, Fig. 6-7: the PAI simulation; pai-like has 3,000 tasks on 256 V100. */
static void pai_like(repro_out *o)
{
    static const char *const pols[] = {"corrgpu", "first", "harmony"};
    const char *exp = "PAI-like CapEx (Fig. 6-7), pai-like";
    run *r[3] = {0};
    if (simulate_all(o, exp, "pai-like", "pai-like", 0, pols, 3, r) == 0) {
        static const char *const avg_paper[3] = {"15.32", "16.7", "23.2"};
        static const char *const names[3] = {"CorrGPU", "First", "Harmony"};
        for (int i = 0; i < 3; i++) {
            char q[64];
            snprintf(q, sizeof q, "%s average GPUs", names[i]);
            repro_add(o, PAPER, exp, q, avg_paper[i], metric(r[i], "avg_gpus"), "%.2f",
                      REPRO_MEASURED, "another sample of PAI tasks: compare the ranking");
        }
        double u[3];
        for (int i = 0; i < 3; i++)
            u[i] = metric(r[i], "unique_gpus");
        double save = 100 * (1 - u[0] / (u[1] < u[2] ? u[1] : u[2]));
        repro_add(o, PAPER, exp, "CapEx saving vs the better baseline, %", "20.88", save,
                  "%.1f", repro_verdict(save > 0),
                  "unique GPUs: CorrGPU %.0f, First %.0f, Harmony %.0f (paper 72, 91, 91); "
                  "a GPU's aggregate grows positively correlated with newcomers, so rho < 0 "
                  "rejects most busy GPUs and CorrGPU opens new ones", u[0], u[1], u[2]);
        double jf = metric(r[1], "jct_mean_s") / metric(r[0], "jct_mean_s");
        double jh = metric(r[2], "jct_mean_s") / metric(r[0], "jct_mean_s");
        repro_add(o, PAPER, exp, "CTD, Harmony / CorrGPU", "0.89", jh, "%.2f",
                  repro_verdict(1 / jh <= 1.25), "CorrGPU within 1.25x Harmony's CTD");
        repro_add(o, PAPER, exp, "CTD, First / CorrGPU", "0.96", jf, "%.2f",
                  repro_verdict(1 / jf <= 1.25), "CorrGPU within 1.25x First's CTD");
    }
    free_runs(r, 3);
}

static void corrgpu_run(repro_out *o)
{
    motivating_example(o);
    testbed(o);
    pai_like(o);
}

const repro_paper repro_corrgpu = {
    .name = "corrgpu",
    .title = "CorrGPU: task correlation for lower GPU CapEx",
    .experiments = "motivating example; testbed-like table; PAI-like CapEx",
    .run = corrgpu_run,
};
