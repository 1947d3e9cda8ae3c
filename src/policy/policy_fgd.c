/*
 * policy_fgd.c — FGD (fragmentation gradient descent, Weng et al. ATC'23)
 * (SPEC §5.3), as the published FGD simulator scores it: the node whose
 * expected fragmentation grows least, trunc(100 · sigmoid((F_before −
 * F_after) / 1000)) per device (FGD_NOTES §5), the device reaching the best
 * score chosen.
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term fgd_terms[] = {
    {"fgd", fgd_score_fgd, FGD_NORM_NONE, 1000, 1, NULL},
};

static int fgd_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, fgd_terms, 1, ti, out, ex);
}

const policy_ops policy_fgd = {
    .name = "fgd",
    .title = "FGD (fragmentation gradient descent, Weng et al. ATC'23)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_frag,
    .place = fgd_place,
};
