/*
 * peace_policy.h — ways to split a GPU's SMs among co-located workloads
 * under a power cap, as PEACE §4.2 compares them: PEACE itself (predict
 * every split at every representative clock, keep those whose predicted
 * power is within the cap + 10 %, take the highest predicted throughput
 * sum), the offline Oracle, and the baselines as the paper adapts them:
 * Equal partition, No partition, Mudi-Xput (the knee point of the primary
 * workload's co-located throughput curve), MuxFlow (the primary inference
 * workload gets its SM activity) and GSlice (feedback toward each
 * workload's exclusive throughput, capped at its knee).
 *
 * Every policy then runs under the same simulated frequency controller
 * (peace_ctrl.h); what it achieves is the ground truth at the clocks the
 * controller chooses.  Oracle, MuxFlow (without an inference workload) and
 * GSlice use that ground truth to decide, as the paper lets them
 * (offline, or by runtime feedback); PEACE decides from its predictions
 * and the profiles alone.
 *
 * A policy is one entry of the table in peace_policy.c; its choose
 * function is in peace_select.c (PEACE) or peace_baselines.c.
 */
#ifndef GP_PEACE_POLICY_H
#define GP_PEACE_POLICY_H

#include <stddef.h>

#include "peace.h"
#include "peace_ctrl.h"
#include "peace_model.h"

/* What every policy may use. */
typedef struct peace_env {
    const peace_index *ix;
    const peace_models *models;         /* PEACE's; NULL for the others */
    peace_ctrl_params ctrl;             /* the controller all run under */
} peace_env;

/* A policy's choice for one group of workloads under one cap. */
typedef struct peace_decision {
    peace_combo split;                  /* the shares, canonical order */
    int fi;                             /* PEACE: the chosen configuration's clock */
    double pred_tput, pred_power;       /* PEACE's predictions (NAN otherwise) */
    int feasible;                       /* PEACE: configurations within the cap */
    int runs;                           /* controller runs the choice took */
    char why[160];
} peace_decision;

/* What a policy is in the paper's comparison (PEACE §4.2): the figures
 * normalise every result to the Oracle's and measure PEACE's margin over
 * the best of the baselines, so callers ask the role, never the name. */
typedef enum peace_role {
    PEACE_ROLE_BASELINE,                /* a compared policy (the default) */
    PEACE_ROLE_METHOD,                  /* the paper's own method: PEACE */
    PEACE_ROLE_ORACLE,                  /* the offline reference */
} peace_role;

typedef struct peace_policy {
    const char *name;                   /* "peace", "oracle", "equal", ... */
    const char *title;
    peace_role role;
    int max_workloads;                  /* MuxFlow: 2 (the paper's) */
    int needs_models;
    /* Fills d->split (and the rest of d) for group g (its workloads in
     * canonical order; shares unset).  0, or -1 with a message. */
    int (*choose)(const peace_env *env, const peace_combo *g, double cap_w,
                  peace_decision *d, gp_err *err);
} peace_policy;

/* The table's entries: PEACE in peace_select.c, the others in
 * peace_baselines.c.  The Oracle is what every result is normalised to. */
extern const peace_policy peace_policy_peace, peace_policy_oracle, peace_policy_equal,
    peace_policy_nopart, peace_policy_mudi, peace_policy_muxflow, peace_policy_gslice;

/* The table, in the order of the paper's figures (PEACE, Oracle first). */
const peace_policy *peace_policy_nth(size_t i);
const peace_policy *peace_policy_find(const char *name);
/* The first entry of the table with role r (the paper's method, the
 * Oracle), NULL when none has it. */
const peace_policy *peace_policy_with_role(peace_role r);

/* Chooses with p, then runs the controller on the choice.  0, or -1 with a
 * message (including a group larger than p handles). */
int peace_policy_run(const peace_policy *p, const peace_env *env, const peace_combo *g,
                     double cap_w, peace_decision *d, peace_ctrl_result *res, gp_err *err);

/* ---- helpers the policies share -------------------------------------- */

/* g with the shares share[i] given in g's workload order, canonicalised. */
void peace_with_shares(const peace_combo *g, const int *share, peace_combo *out);
/* The knee of an increasing curve y over x[0..n) (Kneedle: the point
 * farthest above the chord of the normalised curve): the first x when the
 * curve is flat (more SMs bring nothing), the last when it has no knee
 * (it keeps rising about linearly). */
int peace_knee(const int *x, const double *y, int n);
/* The representative clock index nearest f. */
int peace_nearest_freq(const peace_index *ix, double f);

#endif
