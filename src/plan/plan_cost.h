/*
 * plan_cost.h — what prices a plan's points: the electricity price, the
 * grid's carbon intensity and the PUE, each a number or an hourly series
 * file (io/hourly_read.h), the TCO's horizon in years and the facility
 * cost per kW-month (docs/site-and-cost.md).
 *
 * A plan knows each point's average draw only, not a timeline, so a series
 * prices it at its mean of price x PUE (and of carbon x PUE) over the
 * horizon from hour 0 (power/energy_cost.h, energy_flat_*).  One function,
 * plan_params_priced(), turns the prices into a plan's parameters, and
 * `gpuplan plan` and the Planner both call it: the two price every point
 * the same way.  Not here: reading options (cli/cli_cost.h) or drawing.
 *
 * Ownership: a plan_pricing owns the series it read; plan_pricing_free()
 * releases them.
 */
#ifndef GP_PLAN_COST_H
#define GP_PLAN_COST_H

#include "plan.h"
#include "power/energy_cost.h"

typedef enum plan_price_kind {
    PLAN_PRICE_USD,             /* USD per kWh (--usd-per-kwh) */
    PLAN_PRICE_CARBON,          /* gCO2e per kWh (--carbon) */
    PLAN_PRICE_PUE,             /* facility over IT energy (--pue) */
    PLAN_PRICE_NKINDS
} plan_price_kind;

/* The prices as set, and the series read for them. */
typedef struct plan_pricing {
    energy_prices pr;
    hourly *series[PLAN_PRICE_NKINDS];  /* owned; NULL = the constant */
} plan_pricing;

/* No price, no carbon, PUE 1, no horizon, no facility cost. */
void plan_pricing_init(plan_pricing *c);
void plan_pricing_free(plan_pricing *c);

/* The value of kind: a number within the kind's range (hourly_read.h),
 * else the path of a series of that kind.  0, or -1 with a message
 * (file:line:col for a malformed file) and c unchanged.  The text is
 * kept in src (PLAN_SRC_MAX bytes), as the command line gives it. */
int plan_pricing_set(plan_pricing *c, plan_price_kind kind, const char *arg, char *src,
                     gp_err *err);

/* The value of kind as an hourly value (the constant or the series). */
const hourly_value *plan_pricing_value(const plan_pricing *c, plan_price_kind kind);

/* Sets p's energy price and carbon (the means of price x PUE and carbon x
 * PUE over the horizon from hour 0), facility cost, years, the envelope's
 * PUE (the largest hour) and the horizon: `hours` when > 0, else the
 * years, else 0 (each point's simulated span; the means then run over a
 * year). */
void plan_params_priced(const energy_prices *pr, double hours, plan_params *p);

/* What p's energy cost is over: "the simulated span", "3 years",
 * "1000 h". */
void plan_horizon_text(const plan_params *p, char *buf, size_t len);

#endif
