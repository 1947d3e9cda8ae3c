/*
 * policy_hotcloud.c — the HotCloud baseline (CATS §4, after Yeung et al.,
 * HotCloud'20): "calculates the sum of the average utilization of the
 * existing and incoming tasks on the GPU.  If the combined average
 * utilization of the two is below the utilization threshold, Hotcloud
 * schedules them on the same GPU."  Among GPUs running tasks the first in
 * index order that passes and has the memory wins (first-fit bin packing);
 * otherwise a fresh GPU.  The rule is shared with First and Harmony
 * (corr_place.c).
 */
#include "corr_place.h"
#include "policy_table.h"

static const policy_option hotcloud_options[] = {
    {"q", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: the summed utilizations must stay below it (100)"},
    {0},
};

static int hotcloud_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                          explain *ex)
{
    return corr_threshold_place(ctx, "hotcloud", params[0], ti, US_MEAN, out, ex);
}

const policy_ops policy_hotcloud = {
    .name = "hotcloud",
    .title = "HotCloud (mean utilization sum < q)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = hotcloud_options,
    .prepare = corr_prepare,
    .release = corr_release,
    .place = hotcloud_place,
};
