/*
 * cli_cost.c — the pricing options and a run's money and carbon columns
 * (cli_cost.h).  The arithmetic is power/energy_cost.c's; this file only
 * reads the options and formats.
 */
#include "cli_cost.h"

#include <stdlib.h>
#include <string.h>

#include "core/runsum.h"
#include "io/hourly_read.h"
#include "power/run_energy.h"

void cli_cost_init(cli_cost *c)
{
    memset(c, 0, sizeof *c);
    c->pr.pue.constant = 1;
}

void cli_cost_free(cli_cost *c)
{
    hourly_free(c->price);
    hourly_free(c->carbon);
    hourly_free(c->pue);
    c->price = c->carbon = c->pue = NULL;
}

/* A number in [kind's min, max] as the constant, else a series file. */
static int parse_value(const char *arg, const hourly_kind *kind, const char *unit,
                       hourly_value *v, hourly **owned, gp_err *err)
{
    double x;
    if (parse_double(arg, &x) == 0) {
        if (!(x >= kind->min && x <= kind->max))
            return gp_error(err, "%s %g is out of range [%g, %g]%s", unit, x, kind->min,
                            kind->max, kind == &HOURLY_PUE ? " (facility energy over IT "
                            "energy is at least 1)" : "");
        v->constant = x;
        v->series = NULL;
        return 0;
    }
    hourly *s;
    if (hourly_read(arg, kind, &s, err))
        return -1;
    hourly_free(*owned);
    *owned = s;
    v->series = s;
    return 0;
}

int cli_cost_parse_price(void *value, const char *arg, gp_err *err)
{
    cli_cost *c = value;
    c->asked = 1;
    return parse_value(arg, &HOURLY_PRICE, "USD/kWh", &c->pr.usd_per_kwh, &c->price, err);
}

int cli_cost_parse_carbon(void *value, const char *arg, gp_err *err)
{
    cli_cost *c = value;
    c->asked = 1;
    return parse_value(arg, &HOURLY_CARBON, "gCO2e/kWh", &c->pr.g_co2e_per_kwh, &c->carbon,
                       err);
}

int cli_cost_parse_pue(void *value, const char *arg, gp_err *err)
{
    cli_cost *c = value;
    c->asked = 1;
    return parse_value(arg, &HOURLY_PUE, "PUE", &c->pr.pue, &c->pue, err);
}

static int parse_bounded(const char *arg, double lo, double hi, const char *what, double *out,
                         gp_err *err)
{
    double x;
    if (parse_double(arg, &x) || !(x >= lo && x <= hi))
        return gp_error(err, "expected %s in [%g, %g], got '%s'", what, lo, hi, arg);
    *out = x;
    return 0;
}

int cli_cost_parse_years(void *value, const char *arg, gp_err *err)
{
    cli_cost *c = value;
    c->asked = 1;
    return parse_bounded(arg, 0, 50, "years", &c->pr.years, err);
}

int cli_cost_parse_kw_month(void *value, const char *arg, gp_err *err)
{
    cli_cost *c = value;
    c->asked = 1;
    return parse_bounded(arg, 0, 1e6, "USD per kW-month", &c->pr.usd_per_kw_month, err);
}

void cli_cost_site(const cli_cost *c, site_envelope *e)
{
    e->pue = hourly_value_max(&c->pr.pue);
}

int cli_cost_has_carbon(const cli_cost *c)
{
    return c->pr.g_co2e_per_kwh.series || c->pr.g_co2e_per_kwh.constant > 0;
}

void cli_cost_cols(const cli_cost *c, table *t)
{
    if (c->site_kw > 0) {
        table_col(t, "peak_site_kw", 1);
        table_col(t, "hours_over_budget", 1);
    }
    if (!c->asked)
        return;
    table_col(t, "energy_usd", 1);
    table_col(t, "co2e_kg", 1);
    if (c->pr.years <= 0)
        return;
    table_col(t, "years_energy_usd", 1);
    table_col(t, "years_co2e_t", 1);
    table_col(t, "facility_usd", 1);
    table_col(t, "tco_usd", 1);
}

/* The run's figures: the run's own summary, priced by the one function
 * the dashboard's Compare table calls too. */
static void run_cost(const cli_cost *c, const run *r, energy_cost *out, int *hours_over)
{
    run_summary s;
    run_summarize(r, -1, &s);
    double capex = run_metric_get(r, "capex_usd", 0);
    run_energy_cost(r, &s, isnan(capex) ? 0 : capex, &c->pr, c->site_kw * 1000, out,
                    hours_over);
}

void cli_cost_cells(const cli_cost *c, table *t, const run *r)
{
    if (!c->asked && !(c->site_kw > 0))
        return;
    if (!r) {                   /* a row of no run of its own (Optimal) */
        int k = (c->site_kw > 0 ? 2 : 0) + (c->asked ? c->pr.years > 0 ? 6 : 2 : 0);
        for (; k > 0; k--)
            table_cell(t, "%s", "");
        return;
    }
    energy_cost e;
    int over;
    run_cost(c, r, &e, &over);
    if (c->site_kw > 0) {
        table_cell(t, "%.1f", e.provisioned_kw);
        table_cell(t, "%d", over);
    }
    if (!c->asked)
        return;
    table_cell(t, "%.4f", e.usd);
    table_cell(t, "%.4f", e.co2e_kg);
    if (c->pr.years <= 0)
        return;
    table_cell(t, "%.0f", e.years_usd);
    table_cell(t, "%.2f", e.years_co2e_kg / 1000);
    table_cell(t, "%.0f", e.facility_usd);
    /* a purchase price not known stays unknown: the known part, then +? */
    int unpriced = run_metric_get(r, "unpriced_gpus", 0) > 0;
    table_cell(t, "%.0f%s", e.tco_usd, unpriced ? "+?" : "");
}

void cli_cost_note(const cli_cost *c, FILE *out)
{
    if (!c->asked)
        return;
    fprintf(out, "energy priced hour by hour on the trace's clock: %s USD/kWh, %s gCO2e/kWh, "
            "PUE %s", c->price ? "series" : "flat", c->carbon ? "series" : "flat",
            c->pue ? "series" : "flat");
    if (c->pr.years > 0)
        fprintf(out, "; TCO over %g years = capex + the run's hourly draw repeated + %g "
                "USD/kW-month x peak IT x PUE", c->pr.years, c->pr.usd_per_kw_month);
    fputc('\n', out);
}
