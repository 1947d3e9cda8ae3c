/*
 * policy_pwr.c — PWR (least power increase under eopc, Lettich et al.) (SPEC
 * §5.3), as the PWR fork of the FGD simulator scores it: trunc(P_before −
 * P_after) of the node under the eopc model (FGD_NOTES §6), min-max
 * normalised with all-equal scores at 100 (the plugin's quirk), the device
 * of the best score chosen.
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term pwr_terms[] = {
    {"pwr", fgd_score_pwr, FGD_NORM_PWR, 1000, 1, "pwr_norm"},
};

static int pwr_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, pwr_terms, 1, ti, out, ex);
}

const policy_ops policy_pwr = {
    .name = "pwr",
    .title = "PWR (least power increase under eopc, Lettich et al.)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = pwr_place,
};
