/*
 * peace_eval.h — the experiments of PEACE §4.2 on a set: every policy's
 * throughput sum under the controller, normalised to the Oracle's, for
 * each power cap (Figure 4), in three settings:
 *   seen    models trained on ~30 % of the two-workload rows, every pair
 *           evaluated (§4.2 "Comparing PEACE with Baselines");
 *   unseen  for each workload in turn, models trained on ~30 % of the pair
 *           rows without it, the pairs that hold it evaluated (§4.2
 *           "Unseen Workload");
 *   three   the same for groups of three: models trained without any row of
 *           the held-out workload (pairs and triples, unless train_n says
 *           otherwise), the triples that hold it evaluated (§4.2
 *           "Multi-Workload Colocation").
 * Trained on pairs alone, the power model underestimates three workloads
 * (the features average percentages, so a third busy workload barely
 * moves them): train_n = 2 shows it.
 * Also the models' prediction error (MAPE, §4.1) on the rows they did not
 * see.
 */
#ifndef GP_PEACE_EVAL_H
#define GP_PEACE_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "peace_policy.h"

typedef enum peace_setting { PEACE_SEEN, PEACE_UNSEEN, PEACE_THREE, PEACE_NSETTINGS } peace_setting;

const char *peace_setting_name(peace_setting s);   /* "seen", "unseen", "three" */
int peace_setting_parse(const char *s);            /* -1 when unknown */

#define PEACE_MAX_CAPS 8
#define PEACE_MAX_POLICIES 8

typedef struct peace_eval_opts {
    peace_setting setting;
    double caps_w[PEACE_MAX_CAPS];
    int ncaps;
    const peace_policy *pol[PEACE_MAX_POLICIES];   /* the Oracle is always run */
    int npol;
    double train_frac;                  /* of the eligible rows (0.3) */
    int train_n;                        /* train on groups of n workloads, 0 = any;
                                         * -1 = the setting's: 2 (seen, unseen), 0 (three) */
    et_params et;
    peace_ctrl_params ctrl;
    uint64_t seed;
} peace_eval_opts;

/* Caps 60, 100, 200 W (Figure 4), every policy, 30 %, 100 trees of
 * Extra-Trees splitting nodes of 5 rows or more, the controller's defaults
 * for clocks [f_min, f_max], seed 42. */
void peace_eval_opts_default(peace_eval_opts *o, double f_min, double f_max);

/* One policy under one cap: its throughput sum over the Oracle's. */
typedef struct peace_eval_cell {
    double sum, min;                    /* of the normalised throughput sums */
    size_t n;                           /* groups */
    double violation_pct;               /* mean over groups */
} peace_eval_cell;

typedef struct peace_eval_result {
    peace_eval_cell cell[PEACE_MAX_CAPS][PEACE_MAX_POLICIES];
    double tput_mape, power_mape;       /* on held-out rows, mean of trainings */
    size_t trainings, train_rows, test_rows, groups;
    double train_s, eval_s;             /* wall time */
} peace_eval_result;

/* The mean normalised throughput sum of a cell (NAN when empty). */
double peace_eval_mean(const peace_eval_cell *c);

/* Runs the setting.  0, or -1 with a message (a set without groups of the
 * setting's size, a cap outside the set's range, a training failure). */
int peace_eval(const peace_index *ix, const peace_eval_opts *o, peace_eval_result *r,
               gp_err *err);

#endif
