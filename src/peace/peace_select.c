/*
 * peace_select.c — PEACE's Partition Selector (PEACE §3, online phase):
 * for a group of co-located workloads and a power cap, predict the
 * throughput sum and the GPU's power of every SM split at every
 * representative clock, drop the configurations whose predicted power
 * exceeds the cap by more than 10 % ("a 10 % tolerance for prediction
 * uncertainty", safe because the controller enforces the cap), and take
 * the split of the highest predicted throughput sum.
 *
 * When no configuration fits even at the lowest clock (a cap near idle),
 * the split predicted best at the lowest clock is taken: the controller
 * will go lower still, and that is where the workloads will run.
 */
#include "peace_policy.h"

#include <math.h>
#include <stdio.h>

/* The best configuration so far. */
typedef struct best {
    int found;
    peace_combo split;
    int fi;
    double tput, power;
} best;

static void offer(best *b, const peace_combo *c, int fi, double t, double p)
{
    if (b->found && t <= b->tput)
        return;
    b->found = 1;
    b->split = *c;
    b->fi = fi;
    b->tput = t;
    b->power = p;
}

static int peace_choose(const peace_env *env, const peace_combo *g, double cap_w,
                        peace_decision *d, gp_err *err)
{
    (void)err;
    int splits[PEACE_MAX_SPLITS][PEACE_MAX_COLOC];
    int ns = peace_splits(g->n, splits, PEACE_MAX_SPLITS);
    best fit = {0}, floor = {0};
    for (int s = 0; s < ns; s++) {
        peace_combo c;
        peace_with_shares(g, splits[s], &c);
        for (int fi = 0; fi < peace_nfreqs(env->ix); fi++) {
            double t, p;
            peace_models_predict(env->models, env->ix, &c, fi, &t, &p);
            if (p <= 1.1 * cap_w) {
                offer(&fit, &c, fi, t, p);
                d->feasible++;
            }
            if (fi == 0)
                offer(&floor, &c, fi, t, p);
        }
    }
    const best *b = fit.found ? &fit : &floor;
    d->split = b->split;
    d->fi = b->fi;
    d->pred_tput = b->tput;
    d->pred_power = b->power;
    snprintf(d->why, sizeof d->why, "%s: predicted %.1f at %.0f MHz, %.0f W (%d of %d "
             "configurations within cap + 10 %%)", fit.found ? "best fit" : "none fits",
             b->tput, peace_freq(env->ix, b->fi), b->power, d->feasible,
             ns * peace_nfreqs(env->ix));
    return 0;
}

const peace_policy peace_policy_peace = {
    .name = "peace",
    .title = "PEACE (predicted best split within the cap, SoCC'26)",
    .role = PEACE_ROLE_METHOD,
    .max_workloads = PEACE_MAX_COLOC,
    .needs_models = 1,
    .choose = peace_choose,
};
