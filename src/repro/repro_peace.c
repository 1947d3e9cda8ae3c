/*
 * repro_peace.c — PEACE (Han et al.) reproduced on the peace-v100 sample
 * set: the throughput sum as a share of the Oracle's under the caps of
 * Figure 4 (60, 100, 200 W) in the three settings of §4.2 (seen, unseen,
 * three workloads; peace_eval.h), PEACE's margin over the next best policy,
 * and the baselines' range.  The set is a model of a V100, not the paper's
 * measurements, so the verdicts ask for the paper's shape: PEACE near the
 * Oracle and ahead of every baseline.
 */
#include "repro.h"
#include "repro_table.h"
#include "peace/peace_eval.h"
#include "peace/peace_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAPER "peace"
#define SET "peace-v100"

/* The paper's figures per setting (§4.2): PEACE's share of the Oracle, the
 * least we call agreement, and its margins over the next best at each cap. */
static const struct {
    const char *oracle_text;
    double oracle_min;
    const char *margin[3];
    double margin_pct[3];
} claims[PEACE_NSETTINGS] = {
    [PEACE_SEEN] = {"~97", 95, {"35", "22", "12"}, {35, 22, 12}},
    [PEACE_UNSEEN] = {"96.5-98.4", 94.5, {"34", "22", "12"}, {34, 22, 12}},
    [PEACE_THREE] = {">= 97.5", 95.5, {"~20", "~20", "~20"}, {20, 20, 20}},
};

/* The paper's range of each baseline's share of the Oracle (seen). */
static const struct {
    const char *policy, *range;
} baselines[] = {
    {"nopart", "64-85"}, {"equal", "72-84"}, {"gslice", "70-87"},
    {"muxflow", "69-86"}, {"mudi", "72-85"},
};

static int policy_index(const peace_eval_opts *eo, const char *name)
{
    for (int k = 0; k < eo->npol; k++)
        if (strcmp(eo->pol[k]->name, name) == 0)
            return k;
    return -1;
}

static int role_index(const peace_eval_opts *eo, peace_role role)
{
    for (int k = 0; k < eo->npol; k++)
        if (eo->pol[k]->role == role)
            return k;
    return -1;
}

/* The best share among the baselines (not PEACE, not the Oracle) at cap c. */
static double next_best(const peace_eval_opts *eo, const peace_eval_result *r, int c,
                        const char **who)
{
    double best = -1;
    for (int k = 0; k < eo->npol; k++) {
        double v = peace_eval_mean(&r->cell[c][k]);
        if (eo->pol[k]->role != PEACE_ROLE_BASELINE || isnan(v) || v <= best)
            continue;
        best = v;
        *who = eo->pol[k]->name;
    }
    return best;
}

static void setting_rows(repro_out *o, const peace_eval_opts *eo, const peace_eval_result *r)
{
    char exp[64];
    snprintf(exp, sizeof exp, "%% of Oracle (Fig. 4-6), %s, %s", SET,
             peace_setting_name(eo->setting));
    int pk = role_index(eo, PEACE_ROLE_METHOD);
    for (int c = 0; c < eo->ncaps && pk >= 0; c++) {
        double p = 100 * peace_eval_mean(&r->cell[c][pk]);
        const char *who = "";
        double nb = 100 * next_best(eo, r, c, &who);
        char q[64];
        snprintf(q, sizeof q, "PEACE %% of Oracle at %g W", eo->caps_w[c]);
        const repro_claim co = {REPRO_AT_LEAST, claims[eo->setting].oracle_min, NAN, 0};
        repro_add_claim(o, PAPER, exp, q, claims[eo->setting].oracle_text, &co, p, "%.1f",
                  eo->caps_w[c] < 80 && p < claims[eo->setting].oracle_min
                      ? "this V100 model draws 43-74 W at the lowest representative clock, so "
                        "the power filter keeps only the splits that draw least there"
                      : NULL);
        snprintf(q, sizeof q, "PEACE over the next best at %g W, %%", eo->caps_w[c]);
        double m = 100 * (p / nb - 1);
        /* Half the paper's margin either way is the same size: the set
         * models a V100, it does not measure one. */
        double mp = claims[eo->setting].margin_pct[c];
        const repro_claim cm = {REPRO_FIGURE, mp, 0, mp / 2};
        repro_add_claim(o, PAPER, exp, q, claims[eo->setting].margin[c], &cm, m, "%+.1f",
                        "next best: %s, %.1f %%", who, nb);
    }
    if (eo->setting != PEACE_SEEN)
        return;
    for (size_t b = 0; b < sizeof baselines / sizeof *baselines; b++) {
        int k = policy_index(eo, baselines[b].policy);
        if (k < 0)
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int c = 0; c < eo->ncaps; c++) {
            double v = 100 * peace_eval_mean(&r->cell[c][k]);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        char q[64], text[48];
        snprintf(q, sizeof q, "%s %% of Oracle, lowest cap to highest", baselines[b].policy);
        snprintf(text, sizeof text, "%.1f-%.1f", lo, hi);
        repro_row *row = repro_add(o, PAPER, exp, q, baselines[b].range, lo, "%.1f",
                                   REPRO_MEASURED, "another GPU model: the baselines' order "
                                   "is what compares");
        strlcpy0(row->ours_text, text, sizeof row->ours_text);
    }
}

static void peace_run(repro_out *o)
{
    const char *exp = "% of Oracle (Fig. 4-6), " SET;
    peace_loaded l;
    catalog *cat = NULL;
    gp_err err = {{0}};
    memset(&l, 0, sizeof l);
    if (peace_load(o->st, SET, NULL, 0, NULL, &l, &err) ||
        store_load_catalog(o->st, &cat, &err)) {
        repro_not_run(o, PAPER, exp, err.msg);
        goto out;
    }
    const gpu_profile *gpu = catalog_gpu(cat, l.set->gpu);
    if (!gpu) {
        repro_not_run(o, PAPER, exp, "the set's GPU profile is not in the catalog");
        goto out;
    }
    peace_eval_opts eo;
    peace_eval_opts_default(&eo, gpu->f_min_mhz, gpu->f_max_mhz);
    peace_ctrl_params_default(&eo.ctrl, gpu->f_min_mhz, gpu->f_max_mhz);
    eo.et.seed = eo.seed;
    peace_eval_result *r = xcalloc(1, sizeof *r);
    for (int s = 0; s < PEACE_NSETTINGS; s++) {
        eo.setting = (peace_setting)s;
        memset(r, 0, sizeof *r);
        if (peace_eval(l.ix, &eo, r, &err)) {
            repro_not_run(o, PAPER, exp, err.msg);
            break;
        }
        setting_rows(o, &eo, r);
    }
    free(r);
out:
    peace_loaded_free(&l);
    catalog_free(cat);
}

const repro_paper repro_peace = {
    .name = "peace",
    .title = "PEACE: power- and performance-aware SM partitioning under a cap",
    .experiments = "% of Oracle per cap (60/100/200 W) seen, unseen and three workloads; "
                   "margin over the next best; the baselines' range",
    .run = peace_run,
};
