/*
 * repro_gogh.c — GOGH (Raeisi et al.) reproduced: the test MAE of its two
 * estimation networks (Fig. 2: P1, the initial estimate of a new job type,
 * and P2, its refinement from a measurement) over several splits of the
 * job types, on Gavel's measured throughput table imported as "gavel"
 * (../shared/data/gavel/simulation_throughputs.json) and on the gavel-like
 * sample table; and GOGH's objective (Problem 1: the least power that
 * meets every job's minimum throughput) against the heterogeneity-blind
 * baseline on the gavel-like sample set.
 *
 * The nets use the project's defaults (gogh_est.h: feed-forward, 32x2
 * hidden, 500 epochs, job types split 70/15/15); MAE is on throughputs
 * divided by each job's best solo throughput.  Each split seed draws
 * another split and other initial weights, so the spread over seeds is
 * what one figure of the paper's is set beside.
 */
#include "repro.h"
#include "repro_table.h"
#include "predict/gogh_est.h"
#include "predict/gogh_load.h"

#include <math.h>
#include <stdio.h>

#define PAPER "gogh"
#define TABLE "gavel"
#define SAMPLE "gavel-like"
#define SPLIT_SEED0 42
#define SPLIT_SEEDS 5

typedef struct mae_spread {
    double p1[SPLIT_SEEDS], p2[SPLIT_SEEDS];
    size_t test_types;
} mae_spread;

/* Trains the nets on tp once per split seed.  0, or -1 with a message. */
static int train_seeds(const tput_catalog *tp, mae_spread *m, gp_err *err)
{
    for (int k = 0; k < SPLIT_SEEDS; k++) {
        gogh_train_params p;
        gogh_train_params_default(&p);
        p.seed = SPLIT_SEED0 + (uint64_t)k;
        gogh_train_report rep;
        gogh_nets *n = gogh_nets_train(tp, &p, &rep, err);
        if (!n)
            return -1;
        m->p1[k] = rep.p1[2].mae;
        m->p2[k] = rep.p2[2].mae;
        m->test_types = rep.types[2];
        gogh_nets_free(n);
    }
    return 0;
}

static double mean_of(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s / n;
}

static double sd_of(const double *v, int n)
{
    double m = mean_of(v, n), ss = 0;
    for (int i = 0; i < n; i++)
        ss += (v[i] - m) * (v[i] - m);
    return n > 1 ? sqrt(ss / (n - 1)) : 0;
}

/* A row whose ours is the mean over the seeds, printed "mean +- sd". */
static void spread_row(repro_out *o, const char *exp, const char *q, const char *theirs,
                       const repro_claim *c, const double *v, const char *reason)
{
    double m = mean_of(v, SPLIT_SEEDS), sd = sd_of(v, SPLIT_SEEDS);
    repro_row *r = c ? repro_add_claim(o, PAPER, exp, q, theirs, c, m, "%.4f", "%s", reason)
                     : repro_add(o, PAPER, exp, q, theirs, m, "%.4f", REPRO_MEASURED, "%s",
                                 reason);
    snprintf(r->ours_text, sizeof r->ours_text, "%.4f +- %.4f", m, sd);
}

/* P1 and P1 + P2 test MAE on table `name`; judged against the paper's
 * figures when judge, else set beside them. */
static void estimator_rows(repro_out *o, const char *name, int judge)
{
    char exp[64];
    snprintf(exp, sizeof exp, "estimator MAE (Fig. 2), table %s", name);
    tput_catalog *tp = NULL;
    gp_err err = {{0}};
    mae_spread m = {{0}, {0}, 0};
    if (store_get_tput_catalog(o->st, name, &tp, &err)) {
        repro_not_run(o, PAPER, exp, judge ? "no throughput table 'gavel' (import it: gpuplan "
                      "import --type gavel --name gavel simulation_throughputs.json)" : err.msg);
        return;
    }
    if (train_seeds(tp, &m, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        tput_catalog_free(tp);
        return;
    }
    char why[160];
    snprintf(why, sizeof why, "split seeds %d-%d, %zu test job types the nets never saw; "
             "mean +- sd", SPLIT_SEED0, SPLIT_SEED0 + SPLIT_SEEDS - 1, m.test_types);
    /* The paper's feed-forward P1 is 0.2046 and its best 0.1675: +-0.05
     * covers the two and a split's spread.  P1 + P2: +-0.02, a third of
     * the paper's 0.0660. */
    const repro_claim c1 = {REPRO_FIGURE, 0.1675, NAN, 0.05};
    const repro_claim c2 = {REPRO_FIGURE, 0.0660, NAN, 0.02};
    spread_row(o, exp, "P1 test MAE", "0.1675", judge ? &c1 : NULL, m.p1, why);
    spread_row(o, exp, "P1 + P2 test MAE", "0.0660", judge ? &c2 : NULL, m.p2, why);
    double better = 0;
    for (int k = 0; k < SPLIT_SEEDS; k++)
        better += m.p2[k] < m.p1[k];
    const repro_claim all = {REPRO_FIGURE, SPLIT_SEEDS, NAN, 0};
    snprintf(why, sizeof why, "seeds where P1 + P2 beats P1, of %d", SPLIT_SEEDS);
    repro_add_claim(o, PAPER, exp, "P2 improves on P1 (splits)", "yes", &all, better, "%.0f",
                    "%s", why);
    tput_catalog_free(tp);
}

/* GOGH against the heterogeneity-blind baseline on gavel-like: the energy
 * Problem 1 minimises. */
static void energy_rows(repro_out *o)
{
    const char *exp = "energy vs heterogeneity-blind, " SAMPLE;
    static const char *const pols[2] = {"gogh", "blind"};
    repro_inputs in;
    tput_catalog *tp = NULL;
    gogh_nets *nets = NULL;
    run *r[2] = {0};
    gp_err err = {{0}};
    if (repro_load(o->st, SAMPLE, SAMPLE, &in, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        return;
    }
    if (store_get_tput_catalog(o->st, SAMPLE, &tp, &err) ||
        gogh_nets_find(o->st, NULL, tp, &nets, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        goto out;
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.tput = tp;
    cfg.nets = nets;
    for (int i = 0; i < 2; i++)
        if (!(r[i] = repro_simulate(o, &in, pols[i], &cfg, &err))) {
            repro_not_run(o, PAPER, exp, err.msg);
            goto out;
        }
    double e[2], j[2];
    for (int i = 0; i < 2; i++) {
        e[i] = run_metric_get(r[i], "energy_j", NAN) / 3.6e6;
        j[i] = run_metric_get(r[i], "jct_mean_s", NAN);
    }
    /* GOGH §2 (Problem 1) minimises power under each job's minimum
     * throughput; the paper prints no energy figure, so the claim is the
     * direction: no more energy than a placement blind to the GPU types. */
    const repro_claim less = {REPRO_AT_MOST, 0, NAN, 0};
    repro_add_claim(o, PAPER, exp, "GOGH energy vs blind, %", "< 0", &less,
                    100 * (e[0] / e[1] - 1), "%+.1f", "GOGH %.2f kWh, %.1f GPUs, mean JCT %.0f "
                    "s; blind %.2f kWh, %.1f GPUs, %.0f s", e[0],
                    run_metric_get(r[0], "avg_gpus", NAN), j[0], e[1],
                    run_metric_get(r[1], "avg_gpus", NAN), j[1]);
out:
    for (int i = 0; i < 2; i++)
        run_free(r[i]);
    gogh_nets_free(nets);
    tput_catalog_free(tp);
    repro_inputs_free(&in);
}

static void gogh_run(repro_out *o)
{
    estimator_rows(o, TABLE, 1);
    estimator_rows(o, SAMPLE, 0);
    energy_rows(o);
}

const repro_paper repro_gogh = {
    .name = "gogh",
    .title = "GOGH: correlation-guided orchestration of heterogeneous GPUs",
    .experiments = "P1 and P1 + P2 test MAE over five splits on Gavel's table (Fig. 2) and "
                   "on gavel-like; GOGH's energy against the heterogeneity-blind baseline on "
                   "gavel-like",
    .run = gogh_run,
};
