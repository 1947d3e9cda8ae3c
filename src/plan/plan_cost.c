/*
 * plan_cost.c — the prices of a plan's points (plan_cost.h).  The
 * arithmetic is power/energy_cost.c's; this file reads a value or a
 * series and sets a plan's parameters from them.
 */
#include "plan_cost.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "io/hourly_read.h"

static const hourly_kind *const kinds[PLAN_PRICE_NKINDS] = {
    &HOURLY_PRICE, &HOURLY_CARBON, &HOURLY_PUE,
};
static const char *const units[PLAN_PRICE_NKINDS] = {"USD/kWh", "gCO2e/kWh", "PUE"};

void plan_pricing_init(plan_pricing *c)
{
    memset(c, 0, sizeof *c);
    c->pr.pue.constant = 1;
}

void plan_pricing_free(plan_pricing *c)
{
    for (int k = 0; k < PLAN_PRICE_NKINDS; k++)
        hourly_free(c->series[k]);
    plan_pricing_init(c);
}

const hourly_value *plan_pricing_value(const plan_pricing *c, plan_price_kind kind)
{
    switch (kind) {
    case PLAN_PRICE_CARBON: return &c->pr.g_co2e_per_kwh;
    case PLAN_PRICE_PUE: return &c->pr.pue;
    default: return &c->pr.usd_per_kwh;
    }
}

int plan_pricing_set(plan_pricing *c, plan_price_kind kind, const char *arg, char *src,
                     gp_err *err)
{
    assert(kind >= 0 && kind < PLAN_PRICE_NKINDS);
    const hourly_kind *hk = kinds[kind];
    if (strlen(arg) >= PLAN_SRC_MAX)
        return gp_error(err, "%s: a path of at most %d bytes", units[kind], PLAN_SRC_MAX - 1);
    hourly_value *v = (hourly_value *)plan_pricing_value(c, kind);
    double x;
    hourly *s = NULL;
    if (parse_double(arg, &x) == 0) {
        if (!(x >= hk->min && x <= hk->max))
            return gp_error(err, "%s %g is out of range [%g, %g]%s", units[kind], x, hk->min,
                            hk->max, kind == PLAN_PRICE_PUE ? " (facility energy over IT "
                            "energy is at least 1)" : "");
    } else if (hourly_read(arg, hk, &s, err)) {
        return -1;
    }
    hourly_free(c->series[kind]);
    c->series[kind] = s;
    v->series = s;
    v->constant = s ? 0 : x;
    if (kind == PLAN_PRICE_PUE && s)
        v->constant = 1;
    snprintf(src, PLAN_SRC_MAX, "%s", arg);
    return 0;
}

void plan_params_priced(const energy_prices *pr, double hours, plan_params *p)
{
    p->years = pr->years;
    p->hours = hours > 0 ? hours : pr->years * HOURS_PER_YEAR;
    p->usd_per_kwh = energy_flat_usd_per_kwh(pr, 0, p->hours);
    p->g_co2e_per_kwh = energy_flat_g_per_kwh(pr, 0, p->hours);
    p->usd_per_kw_month = pr->usd_per_kw_month;
    p->site.pue = hourly_value_max(&pr->pue);
}

void plan_horizon_text(const plan_params *p, char *buf, size_t len)
{
    if (p->years > 0 && p->hours == p->years * HOURS_PER_YEAR)
        snprintf(buf, len, "%g year%s", p->years, p->years == 1 ? "" : "s");
    else if (p->hours > 0)
        snprintf(buf, len, "%g h", p->hours);
    else
        snprintf(buf, len, "the simulated span");
}
