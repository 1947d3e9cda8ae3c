/*
 * policy_first.c — the First baseline (CATS §4, CorrGPU §III-B and §IV):
 * "computes the sum of the GPU utilization during the first second for the
 * incoming task and adds it to the aggregated GPU utilization of the tasks
 * already running on the GPU.  If their total utilization is less than the
 * threshold (q), it schedules the tasks to the same GPU."  The first second
 * is the first sample of each task's series (its util_first).  Among GPUs
 * running tasks the first in index order that passes and has the memory
 * wins (first-fit bin packing; a multi-GPU window that opens fewer idle
 * devices first); otherwise a fresh GPU.  "Less than" is read as the
 * family's one admission test, sum <= q (corr_place.h).  The rule is shared
 * with HotCloud and Harmony (corr_place.c).
 */
#include "corr_place.h"
#include "policy_table.h"

static const policy_option first_options[] = {
    {"q", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: the summed utilizations must not exceed it (100)"},
    {0},
};

static int first_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                       explain *ex)
{
    corr_rule rule = {US_FIRST, 0, CORR_WIN_WHOLE, CORR_GRID_RESAMPLED};
    return corr_threshold_place(ctx, "first", params[0], ti, &rule, out, ex);
}

const policy_ops policy_first = {
    .name = "first",
    .title = "First (first-second utilization sum <= q)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = first_options,
    .prepare = corr_prepare,
    .release = corr_release,
    .place = first_place,
};
