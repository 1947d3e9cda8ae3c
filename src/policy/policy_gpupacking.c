/*
 * policy_gpupacking.c — GpuPacking (shared GPUs first, then used nodes, Weng
 * et al. NSDI'22) (SPEC §5.3), as the published FGD simulator scores it:
 * shared devices first [50,100], free devices of a used node [33,50], an
 * idle node last [0,33] (FGD_NOTES §5).
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term gpupacking_terms[] = {
    {"gpupacking", fgd_score_gpupacking, FGD_NORM_NONE, 1000, 0, NULL},
};

static int gpupacking_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, gpupacking_terms, 1, ti, out, ex);
}

const policy_ops policy_gpupacking = {
    .name = "gpupacking",
    .title = "GpuPacking (shared GPUs first, then used nodes, Weng et al. NSDI'22)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = gpupacking_place,
};
