/*
 * repro_fgd.c — FGD (Weng et al., ATC'23) and PWR (Lettich et al.)
 * reproduced with the workload-inflation experiment (inflation.h) over the
 * published seeds 42-51 drawn from the published simulator's Go stream:
 * allocation at 100 % of capacity arrived per policy against the published
 * means (FGD_NOTES §8), PWR+FGD's (alpha 0.1) EOPC saving against FGD at
 * 50 % and 80 % of capacity requested, and GRAR, on the default openb trace
 * and on each shared variant that is imported (traces gpushare40,
 * multigpu20, gpuspec10, cpu050 on cluster openb).
 */
#include "repro.h"
#include "repro_table.h"
#include "sim/inflation.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PAPER "fgd"
#define SEED0 42
#define NSEEDS 10

/* The published 10-seed means at 100 % arrived, default trace
 * (fgd-reference/alloc_default_mean10seeds.csv). */
static const struct {
    const char *policy;
    const char *theirs;
    double value;
} published[] = {
    {"fgd", "95.227", 95.227},           {"bestfit", "92.862", 92.862},
    {"gpupacking", "91.779", 91.779},    {"gpuclustering", "91.650", 91.650},
    {"dotprod", "90.622", 90.622},       {"random", "86.303", 86.303},
};

/* The PWR paper's saving claims for PWR+FGD against FGD (§VI-C): the
 * least saving it reports up to 50 % and up to 80 % of capacity requested
 * (NaN: no claim there). */
typedef struct workload {
    const char *trace;
    const char *claim50, *claim80;
    double min50, min80;
    const char *where;
    const char *bestfit;        /* where the paper bounds BestFit's saving, or NULL */
} workload;

static const workload workloads[] = {
    {"default", "> 13", "> 5", 13, 5, "Fig. 3: > 13 % to ~80 %, > 5 % to ~90 %",
     "Fig. 3: the competitors never exceed 5 %"},
    {"gpushare40", "> 13", "-", 13, NAN,
     "Fig. 4 shows the 100 % sharing case (> 13 % to ~70 %); the 40 % one is \"similar\"",
     "Fig. 4: BestFit reaches about 5 % only near 80 %"},
    {"multigpu20", "> 12", "> 12", 12, 12, "Fig. 5 (multi-GPU 20 %, alpha 0.1): > 12 % to ~82 %",
     NULL},
    {"gpuspec10", "> 10", "> 10", 10, 10, "Fig. 6 (constrained 10 %): > 10 % to ~90 %", NULL},
    {"cpu050", "-", "-", NAN, NAN, "no PWR figure for this variant", NULL},
};

/* One policy over the seeds: its aggregate.  0, or -1 with a message. */
static int sweep(const repro_inputs *in, const char *policy, infl_agg *agg, gp_err *err)
{
    policy_spec ps;
    if (policy_spec_parse(policy, &ps, err))
        return -1;
    infl_setup s = {in->cl, in->cat, in->tr, INFL_DEFAULT_RATIO, NULL, 0, NULL, 0, INFL_RNG_GO};
    infl_agg_init(agg);
    for (int k = 0; k < NSEEDS; k++) {
        infl_run r;
        if (infl_run_one(&s, &ps, SEED0 + k, 0, &r, err))
            return -1;
        infl_agg_add(agg, &r);
        infl_run_free(&r);
    }
    return 0;
}

/* Allocation at 100 % arrived against the published means (default only). */
static void allocation(repro_out *o, const repro_inputs *in, const char *exp)
{
    for (size_t i = 0; i < sizeof published / sizeof *published; i++) {
        infl_agg a;
        gp_err err = {{0}};
        if (sweep(in, published[i].policy, &a, &err)) {
            repro_not_run(o, PAPER, exp, err.msg);
            return;
        }
        double ours = infl_agg_pct(&a, INFL_P_ALLOC, 100).mean;
        int random = strcmp(published[i].policy, "random") == 0;
        const repro_claim c = {REPRO_FIGURE, published[i].value, NAN, random ? 0.2 : 0.0005};
        char q[64];
        snprintf(q, sizeof q, "%s allocation at 100 %%, %%", published[i].policy);
        repro_add_claim(o, PAPER, exp, q, published[i].theirs, &c, ours, "%.3f",
                  random ? "Random's node draws are not the published simulator's: within "
                           "0.2 points is the target"
                         : "seeds 42-51 replay the published runs");
    }
}

/* EOPC saving of PWR+FGD (alpha 0.1) against FGD, and GRAR. */
static void power(repro_out *o, const repro_inputs *in, const workload *w, const char *exp)
{
    infl_agg f, p, b;
    gp_err err = {{0}};
    if (sweep(in, "fgd", &f, &err) || sweep(in, "pwr+fgd:0.1", &p, &err) ||
        sweep(in, "bestfit", &b, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        return;
    }
    double saving[2], bsave = 0;
    static const int points[2] = {100, 160};     /* x = 0.5, 0.8 */
    for (int k = 0; k < 2; k++) {
        double e0 = infl_agg_grid(&f, INFL_G_EOPC, points[k]).mean;
        saving[k] = 100 * (1 - infl_agg_grid(&p, INFL_G_EOPC, points[k]).mean / e0);
    }
    bsave = 100 * (1 - infl_agg_grid(&b, INFL_G_EOPC, 100).mean /
                           infl_agg_grid(&f, INFL_G_EOPC, 100).mean);
    const double mins[2] = {w->min50, w->min80};
    const char *claims[2] = {w->claim50, w->claim80};
    for (int k = 0; k < 2; k++) {
        char q[64];
        snprintf(q, sizeof q, "PWR+FGD EOPC saving at %d %%, %%", k ? 80 : 50);
        const repro_claim c = {REPRO_AT_LEAST, mins[k], NAN, 0};
        if (isnan(mins[k]))
            repro_add(o, PAPER, exp, q, claims[k], saving[k], "%.1f", REPRO_MEASURED, "%s",
                      w->where);
        else
            repro_add_claim(o, PAPER, exp, q, claims[k], &c, saving[k], "%.1f", "%s",
                            w->where);
    }
    const repro_claim cb = {REPRO_AT_MOST, 5, NAN, 0};
    if (w->bestfit)
        repro_add_claim(o, PAPER, exp, "BestFit EOPC saving at 50 %, %", "< 5", &cb, bsave,
                        "%.1f", "%s", w->bestfit);
    else
        repro_add(o, PAPER, exp, "BestFit EOPC saving at 50 %, %", "-", bsave, "%.1f",
                  REPRO_MEASURED, "no figure for BestFit on this variant");
    double gf = infl_agg_grid(&f, INFL_G_GRAR, 200).mean;
    double gp = infl_agg_grid(&p, INFL_G_GRAR, 200).mean;
    /* Fig. 7 reads about 0.02: 0 to 0.03 is the same size. */
    const repro_claim cg = {REPRO_FIGURE, 0.015, NAN, 0.015};
    repro_add_claim(o, PAPER, exp, "GRAR at 100 %: FGD - PWR+FGD", "~0.02", &cg, gf - gp,
                    "%.3f",
              "FGD %.4f, PWR+FGD %.4f: FGD best, the combination close behind (Fig. 7)", gf,
              gp);
    /* The savings are not failures (§VI-D): PWR+FGD places what FGD places
     * until the datacenter nears saturation. */
    int first = INFL_NGRID;
    for (int i = 0; i < INFL_NGRID && first == INFL_NGRID; i++)
        if (infl_agg_grid(&p, INFL_G_GRAR, i).mean <
            infl_agg_grid(&f, INFL_G_GRAR, i).mean - 0.0005)
            first = i;
    double x = first < INFL_NGRID ? 100 * infl_grid_x(first) : 100;
    const repro_claim cx = {REPRO_AT_LEAST, 80, NAN, 0};
    repro_add_claim(o, PAPER, exp, "PWR+FGD GRAR as FGD's up to, % requested", "~85", &cx, x,
                    "%.1f", "GRAR worsens only near saturation (Fig. 7: beyond "
              "85 %%): the savings are not failed tasks");
}

static void fgd_run(repro_out *o)
{
    for (size_t i = 0; i < sizeof workloads / sizeof *workloads; i++) {
        const workload *w = &workloads[i];
        char exp[64];
        snprintf(exp, sizeof exp, "inflation, %s trace, seeds 42-51", w->trace);
        repro_inputs in;
        gp_err err = {{0}};
        if (repro_load(o->st, w->trace, "openb", &in, &err)) {
            char why[256];
            snprintf(why, sizeof why, "%s (import openb_node_list_gpu_node.csv as cluster "
                     "openb and openb_pod_list_%s.csv as trace %s: docs/inflation.md)", err.msg,
                     w->trace, w->trace);
            repro_not_run(o, PAPER, exp, why);
            continue;
        }
        if (strcmp(w->trace, "default") == 0)
            allocation(o, &in, exp);
        power(o, &in, w, exp);
        repro_inputs_free(&in);
    }
}

const repro_paper repro_fgd = {
    .name = "fgd",
    .title = "FGD and PWR: fragmentation- and power-aware scheduling (openb traces)",
    .experiments = "allocation at 100 % per policy; PWR+FGD EOPC saving at 50/80 %; GRAR — "
                   "default trace and the shared variants",
    .run = fgd_run,
};
