/*
 * policy_gogh.c — GOGH (GOGH §2): every round, Problem 1 over the active
 * jobs — the fewest watts such that every job reaches its minimum
 * throughput — solved with GLPK on the current throughput estimates, the
 * jobs then run at their true throughputs and the round's measurements
 * refine the estimates.  Three variants differ only in what the estimates
 * may know (gogh_est.h): gogh (P1 for job types it has not seen, refined by
 * P2 from measurements — the paper), gogh-p1 (P1 only) and gogh-oracle
 * (the table's own figures: the bound estimates could reach).
 *
 * The round itself is gogh_round.c's; restart is our assumption (GOGH
 * gives no migration cost): 30 s for a checkpoint and restore.
 */
#include "gogh_round.h"
#include "policy_table.h"

static const policy_option gogh_options[] = {
    {"round", OPT_ROUND_S, 360, 1, 86400, "seconds between rounds (Gavel's 6 min)"},
    {"restart", OPT_RESTART_S, 30, 0, 86400,
     "seconds a moved or resumed job holds its GPU before it progresses again"},
    {"min_frac", OPT_TUNING, 0.5, 0, 1,
     "a job without its own minimum throughput: this share of its best estimated solo one"},
    {"time", OPT_TUNING, 1, 0.01, 3600,
     "work limit of each round's solve in nominal seconds (simplex iterations and nodes, "
     "so a run replays exactly)"},
    {"gap", OPT_TUNING, 0.01, 0, 1, "relative MIP gap each round's solve stops at"},
    {NULL, 0, 0, 0, 0, NULL},
};

static void params_of(const double *params, gogh_est_mode mode, gogh_round_params *p)
{
    p->objective = GOGH_MIN_POWER;
    p->mode = mode;
    p->min_frac = params[2];
    p->time_limit_s = params[3];
    p->mip_gap = params[4];
}

#define GOGH_VARIANT(fn, mode)                                                               \
    static int fn##_prepare(const cstate *cs, const gp_trace *tr, const policy_inputs *in,   \
                            const double *params, void **prep, gp_err *err)                  \
    {                                                                                        \
        (void)params;                                                                        \
        *prep = gogh_round_new(cs, tr, in, mode, err);                                       \
        return *prep ? 0 : -1;                                                               \
    }                                                                                        \
    static int fn##_allocate(const alloc_ctx *ctx, const double *params, alloc_out *out,     \
                             gp_err *err)                                                    \
    {                                                                                        \
        gogh_round_params p;                                                                 \
        params_of(params, mode, &p);                                                         \
        return gogh_round_allocate(ctx->prep, ctx, &p, out, err);                            \
    }

GOGH_VARIANT(p1p2, GOGH_EST_P1P2)
GOGH_VARIANT(p1, GOGH_EST_P1)
GOGH_VARIANT(oracle, GOGH_EST_ORACLE)

static void gogh_release(void *prep)
{
    gogh_round_free(prep);
}

#define GOGH_TRAITS                                                                          \
    .family = FAMILY_ALLOCATION, .power = POWER_CATS, .sleep = 1, .dfs = 0,                  \
    .options = gogh_options, .release = gogh_release

const policy_ops policy_gogh = {
    .name = "gogh",
    .title = "GOGH (rounds, Problem 1 on P1+P2 estimates)",
    GOGH_TRAITS,
    .prepare = p1p2_prepare,
    .allocate = p1p2_allocate,
};

const policy_ops policy_gogh_p1 = {
    .name = "gogh-p1",
    .title = "GOGH with P1 estimates only (no refinement)",
    GOGH_TRAITS,
    .prepare = p1_prepare,
    .allocate = p1_allocate,
};

const policy_ops policy_gogh_oracle = {
    .name = "gogh-oracle",
    .title = "GOGH on the table's true throughputs (oracle estimates)",
    GOGH_TRAITS,
    .prepare = oracle_prepare,
    .allocate = oracle_allocate,
};
