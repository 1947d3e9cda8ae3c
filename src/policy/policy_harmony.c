/*
 * policy_harmony.c — the Harmony baseline (CorrGPU §IV, after Bao et al.,
 * INFOCOM'19): "calculates the sum of the maximum utilization of the
 * existing and incoming tasks on the GPU.  If the combined peak utilization
 * of the two is less than the utilization threshold (q), Harmony schedules
 * them to the same GPU."  Among GPUs running tasks the first in index order
 * that passes and has the memory wins (first-fit bin packing; a multi-GPU
 * window that opens fewer idle devices first); otherwise a fresh GPU.
 * "Less than" is read as the family's one admission test, sum <= q
 * (corr_place.h).  The rule is shared with First and HotCloud (corr_place.c).
 */
#include "corr_place.h"
#include "policy_table.h"

static const policy_option harmony_options[] = {
    {"q", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: the summed utilizations must not exceed it (100)"},
    {0},
};

static int harmony_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                         explain *ex)
{
    corr_rule rule = {US_PEAK, 0, CORR_WIN_WHOLE, CORR_GRID_RESAMPLED};
    return corr_threshold_place(ctx, "harmony", params[0], ti, &rule, out, ex);
}

const policy_ops policy_harmony = {
    .name = "harmony",
    .title = "Harmony (peak utilization sum <= q)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = harmony_options,
    .prepare = corr_prepare,
    .release = corr_release,
    .place = harmony_place,
};
