/*
 * policy_dotprod.c — DotProd (Tetris dot product, Grandl et al. SIGCOMM'14)
 * (SPEC §5.3), as the published FGD simulator scores it: 100 · (1 − dot/2)
 * of the node's free and the task's demand vectors, both divided by the
 * largest node (FGD_NOTES §5).
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term dotprod_terms[] = {
    {"dotprod", fgd_score_dotprod, FGD_NORM_NONE, 1000, 0, NULL},
};

static int dotprod_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, dotprod_terms, 1, ti, out, ex);
}

const policy_ops policy_dotprod = {
    .name = "dotprod",
    .title = "DotProd (Tetris dot product, Grandl et al. SIGCOMM'14)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = dotprod_place,
};
