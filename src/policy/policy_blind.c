/*
 * policy_blind.c — the heterogeneity-blind baseline of the allocation
 * family: GOGH's rounds without any knowledge of throughput.  Running
 * tasks stay where they are (it never moves one); the waiting ones, in
 * arrival order, go first-fit by memory to the first GPUs in cluster
 * order — an empty GPU before one already running a task, two tasks at
 * most per GPU.  What a scheduler does that sees memory and GPU counts
 * but not that a K80 is a third of a V100.
 */
#include "alloc_fit.h"
#include "policy_table.h"

#include <stdio.h>

static const policy_option blind_options[] = {
    {"round", OPT_ROUND_S, 360, 1, 86400, "seconds between rounds (GOGH's and Gavel's 6 min)"},
    {NULL, 0, 0, 0, 0, NULL},
};

static int blind_allocate(const alloc_ctx *ctx, const double *params, alloc_out *out,
                          gp_err *err)
{
    (void)params;
    (void)err;
    alloc_fit *f = alloc_fit_new(ctx->cs, ctx->tr, ctx->jobs, ctx->njobs);
    size_t placed = 0, waiting = 0;
    for (size_t i = 0; i < ctx->njobs; i++) {
        if (!ctx->jobs[i].running)
            continue;
        out->pl[i] = ctx->jobs[i].cur;
        alloc_fit_take(f, ctx->jobs[i].task, &out->pl[i]);
    }
    for (size_t i = 0; i < ctx->njobs; i++) {
        if (ctx->jobs[i].running)
            continue;
        int ti = ctx->jobs[i].task;
        if (alloc_fit_first(f, ti, 1, &out->pl[i]) || alloc_fit_first(f, ti, 0, &out->pl[i])) {
            alloc_fit_take(f, ti, &out->pl[i]);
            placed++;
        } else {
            out->pl[i].ngpus = 0;
            waiting++;
        }
    }
    snprintf(out->note, sizeof out->note, "first fit by memory: %zu placed, %zu wait", placed,
             waiting);
    alloc_fit_free(f);
    return 0;
}

const policy_ops policy_blind = {
    .name = "blind",
    .title = "Blind (rounds, first fit by memory, heterogeneity-blind)",
    .family = FAMILY_ALLOCATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = blind_options,
    .allocate = blind_allocate,
};
