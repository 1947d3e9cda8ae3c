/*
 * policy_hotcloud.c — the HotCloud baseline (CATS §4, after Yeung et al.,
 * HotCloud'20): "calculates the sum of the average utilization of the
 * existing and incoming tasks on the GPU.  If the combined average
 * utilization of the two is below the utilization threshold, Hotcloud
 * schedules them on the same GPU."  Among GPUs running tasks the first in
 * index order that passes and has the memory wins (first-fit bin packing; a
 * multi-GPU window that opens fewer idle devices first); otherwise a fresh
 * GPU.  The rule is shared with First and Harmony (corr_place.c).
 *
 * What it sums is the family's shared admission test (corr_place.h):
 * "below the threshold" read as sum <= q, the means over the admission
 * window every policy of a comparison shares (window; the remaining
 * window by default, as CATS and CorrGPU see it).  The paper's HotCloud
 * sums Yeung et al.'s predictions, not the truth: `--predict-policy
 * hotcloud=bias:+20` and the like study that setting.  pctl sums a
 * percentile of each task's series instead of its mean — a peak- or
 * percentile-based HotCloud beside Harmony.
 */
#include "corr_place.h"
#include "policy_table.h"

static const policy_option hotcloud_options[] = {
    {"q", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: the summed utilizations must not exceed it (100)"},
    {"window", OPT_UTIL_WINDOW, 0, 0, 1,
     "admission window: 0 = means over the remaining window (co-runners from their "
     "progress), 1 = whole-series means; set for every policy by run --util-window"},
    {"pctl", OPT_TUNING, 0, 0, 100,
     "0 = sum means (the paper's HotCloud); P in (0, 100] = sum each task's P-th percentile "
     "(100 = peak, Harmony's summary): a peak- or percentile-based HotCloud"},
    {"grid", OPT_CORR_GRID, 0, 0, 1,
     "what rho and the means are computed on: 0 = each busy GPU's aggregate resampled at "
     "every decision on the task's own period; 1 = aggregates kept on an absolute time grid; "
     "set for every policy by run --corr-grid"},
    {0},
};

static int hotcloud_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                          explain *ex)
{
    corr_rule rule = {US_MEAN, params[2], (int)params[1], (int)params[3]};
    if (rule.pctl >= 100)
        rule = (corr_rule){US_PEAK, 0, (int)params[1], (int)params[3]};
    return corr_threshold_place(ctx, "hotcloud", params[0], ti, &rule, out, ex);
}

static int hotcloud_prepare(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                            const double *params, void **prep, gp_err *err)
{
    (void)in;
    return corr_prepare_pctl(cs, tr, params[2], prep, err);
}

const policy_ops policy_hotcloud = {
    .name = "hotcloud",
    .title = "HotCloud (mean utilization sum <= q)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .options = hotcloud_options,
    .prepare = hotcloud_prepare,
    .release = corr_release,
    .reads_progress = 1,         /* the remaining window starts there */
    .place = hotcloud_place,
};
