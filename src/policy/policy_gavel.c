/*
 * policy_gavel.c — Gavel's max-sum-throughput allocation (Narayanan et
 * al., OSDI'20) on GOGH's rounds: every round, the jobs and their pairs
 * are placed to maximise the sum over jobs of throughput over the job's
 * best solo throughput — heterogeneity-aware, but with no minimum per job
 * and no power in the objective.  Gavel profiles jobs as they run, so its
 * throughputs are the table's (oracle); jobs it leaves out wait.
 *
 * The round is gogh_round.c's with Gavel's objective (solve_gogh).
 */
#include "gogh_round.h"
#include "policy_table.h"

static const policy_option gavel_options[] = {
    {"round", OPT_ROUND_S, 360, 1, 86400, "seconds between rounds (Gavel's 6 min)"},
    {"restart", OPT_RESTART_S, 30, 0, 86400,
     "seconds a moved or resumed job holds its GPU before it progresses again"},
    {"time", OPT_TUNING, 1, 0.01, 3600,
     "work limit of each round's solve in nominal seconds (simplex iterations and nodes, "
     "so a run replays exactly)"},
    {"gap", OPT_TUNING, 0.01, 0, 1, "relative MIP gap each round's solve stops at"},
    {NULL, 0, 0, 0, 0, NULL},
};

static int gavel_prepare(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                         const double *params, void **prep, gp_err *err)
{
    (void)params;
    *prep = gogh_round_new(cs, tr, in, GOGH_EST_ORACLE, err);
    return *prep ? 0 : -1;
}

static void gavel_release(void *prep)
{
    gogh_round_free(prep);
}

static int gavel_allocate(const alloc_ctx *ctx, const double *params, alloc_out *out,
                          gp_err *err)
{
    gogh_round_params p = {
        .objective = GOGH_MAX_THROUGHPUT,
        .mode = GOGH_EST_ORACLE,
        .min_frac = 0,
        .time_limit_s = params[2],
        .mip_gap = params[3],
    };
    return gogh_round_allocate(ctx->prep, ctx, &p, out, err);
}

const policy_ops policy_gavel = {
    .name = "gavel",
    .title = "Gavel (rounds, max-sum throughput, OSDI'20)",
    .family = FAMILY_ALLOCATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = gavel_options,
    .prepare = gavel_prepare,
    .release = gavel_release,
    .allocate = gavel_allocate,
};
