/*
 * policy_gpuclustering.c — GpuClustering (tasks with the same GPU demand
 * together, Xiao et al. OSDI'18) (SPEC §5.3), as the published FGD simulator
 * scores it: 25 · (8000 − idle) / 8000 plus 75/50/25/0 by how the node's
 * task tags match the task's (FGD_NOTES §5).
 * The filter, normalisation, node-rank tie-break and device choice are the
 * family's (fgdscore.c, FGD_NOTES §4–5); this file only says which score
 * terms make up the policy.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static const fgd_term gpuclustering_terms[] = {
    {"gpuclustering", fgd_score_gpuclustering, FGD_NORM_NONE, 1000, 0, NULL},
};

static int gpuclustering_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                    explain *ex)
{
    (void)params;
    return fgd_place_scored(ctx, gpuclustering_terms, 1, ti, out, ex);
}

const policy_ops policy_gpuclustering = {
    .name = "gpuclustering",
    .title = "GpuClustering (tasks with the same GPU demand together, Xiao et al. OSDI'18)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = gpuclustering_place,
};
