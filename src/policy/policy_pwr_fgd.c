/*
 * policy_pwr_fgd.c — alpha · PWR + (1 − alpha) · FGD (PWR paper §IV-A,
 * eq. 5), as the PWR simulator combines score plugins: weights
 * round(1000 · alpha) for PWR (normalised 0..100, all equal → 100) and the
 * rest of 1000 for FGD (raw 0..100), summed per node; the highest total
 * wins, ties to the lowest node rank.  The device is chosen by the plugin
 * with the higher weight (FGD for alpha <= 0.5), as in the simulator where
 * the highest-weighted plugin's device selection is used.
 *
 * Option: alpha (default 0.1; the paper's best compromises are 0.05, 0.1
 * and 0.2).  On the command line: --policy pwr+fgd:0.05.
 */
#include "fgdscore.h"
#include "policy_table.h"

#include <math.h>

static const policy_option pwr_fgd_options[] = {
    {"alpha", OPT_WEIGHT, 0.1, 0, 1, "weight of PWR; FGD gets 1 - alpha (PWR eq. 5)"},
    {0},
};

static int pwr_fgd_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                         explain *ex)
{
    double alpha = params ? params[0] : pwr_fgd_options[0].def;
    int64_t w_pwr = llround(alpha * 1000);
    /* FGD first: on equal weights it keeps the device choice. */
    const fgd_term terms[2] = {
        {"fgd", fgd_score_fgd, FGD_NORM_NONE, 1000 - w_pwr, 1, NULL},
        {"pwr", fgd_score_pwr, FGD_NORM_PWR, w_pwr, 1, "pwr_norm"},
    };
    return fgd_place_scored(ctx, terms, 2, ti, out, ex);
}

const policy_ops policy_pwr_fgd = {
    .name = "pwr+fgd",
    .title = "PWR+FGD (alpha · PWR + (1 − alpha) · FGD, Lettich et al.)",
    FGD_FAMILY_TRAITS,
    .options = pwr_fgd_options,
    .prepare = fgd_prepare_frag,
    .place = pwr_fgd_place,
};
