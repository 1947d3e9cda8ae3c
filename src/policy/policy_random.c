/*
 * policy_random.c — Random (SPEC §5.3): a uniformly random feasible node
 * (the published simulator gives one random node 100 and the others 0) and,
 * for a sharing task, a random device with room.  Draws come from the run's
 * rng (ctx->rng), so a run is reproducible for its seed but cannot match
 * the Go simulator's random numbers.  No options.
 */
#include "fgdscore.h"
#include "policy_table.h"

static int random_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                        explain *ex)
{
    (void)params;
    return fgd_place_random(ctx, ti, out, ex);
}

const policy_ops policy_random = {
    .name = "random",
    .title = "Random (uniform feasible node)",
    FGD_FAMILY_TRAITS,
    .prepare = fgd_prepare_plain,
    .place = random_place,
};
