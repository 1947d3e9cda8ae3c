/*
 * policy_bestfit.c — BestFit (least remaining CPU and GPU, Hadary et al.
 * OSDI'20) (SPEC §5.3), as the published FGD simulator scores it: the
 * weighted remaining CPU and GPU after placement, reversed and min-max
 * normalised (FGD_NOTES §5).
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term bestfit_terms[] = {
    {"bestfit", fgd_score_bestfit, FGD_NORM_MINMAX, 1000, 0, "bestfit_norm"},
};

static int bestfit_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, bestfit_terms, 1, ti, out, ex);
}

const policy_ops policy_bestfit = {
    .name = "bestfit",
    .title = "BestFit (least remaining CPU and GPU, Hadary et al. OSDI'20)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = bestfit_place,
};
