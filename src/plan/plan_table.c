/*
 * plan_table.c — a plan's results as one table (see plan_table.h).
 */
#include "plan_table.h"
#include "core/runsum.h"
#include "power/site_envelope.h"

#include <math.h>

/* Dollars, or what of them is unknown: "unknown" when no GPU of the point
 * has a price, "1200+?" when some lack one. */
static void usd_cell(table *t, const plan *pl, const plan_result *r, const plan_params *p,
                     double usd)
{
    if (!plan_price_unknown(pl, r, p) || isnan(usd))
        table_cell(t, "%.0f", usd);
    else if (usd == 0)
        table_cell(t, "%s", "unknown");
    else
        table_cell(t, "%.0f+?", usd);
}

/* What both layouts hold of a result: tasks run, SLA violations, JCT,
 * power, CapEx. */
static void service_cells(table *t, const plan *pl, const plan_result *r, const plan_params *p)
{
    char sla[32];
    /* Enough decimals that the value never contradicts meets_sla. */
    summary_fmt_pct(plan_value(pl, r, PM_SLA, p), p->sla_target_pct, 2, sla, sizeof sla);
    table_cell(t, "%zu", r->ran);
    table_cell(t, "%s", sla);
    table_cell(t, "%.1f", plan_value(pl, r, PM_JCT, p));
    table_cell(t, "%.1f", r->jct_p95);
    table_cell(t, "%.1f", plan_value(pl, r, PM_POWER, p));
    usd_cell(t, pl, r, p, plan_value(pl, r, PM_CAPEX, p));
}

/* The carbon and power envelope's columns, after the others: only when
 * the plan has a carbon intensity or a site budget. */
static void site_cols(table *t, const plan_params *p)
{
    if (p->g_co2e_per_kwh > 0)
        table_col(t, "co2e_t", 1);
    if (site_has_budget(&p->site)) {
        table_col(t, "peak_kw", 1);
        table_col(t, "fits_site", 0);
    }
}

static void site_cells(table *t, const plan *pl, const plan_result *r, const plan_params *p)
{
    if (p->g_co2e_per_kwh > 0)
        table_cell(t, "%.2f", plan_value(pl, r, PM_CO2E, p));
    if (site_has_budget(&p->site)) {
        table_cell(t, "%.2f", site_facility_w(&p->site, plan_point_peak_w(pl, r, p)) / 1000);
        table_cell(t, "%s", plan_fits_site(pl, r, p) ? "yes" : "no");
    }
}

/* fewest: the first count meeting the target; stable: the fewest from
 * which every larger count swept meets it; monotonic 0 when the two
 * differ (the curve rises again after the first crossing). */
static void one_model(const plan *pl, const plan_params *p, table *t)
{
    int energy = p->usd_per_kwh > 0 || p->usd_per_kw_month > 0;
    static const char *const cols[] = {"gpus", "policy", "ran", "sla_viol_pct", "jct_mean_s",
                                       "jct_p95_s", "avg_power_w", "capex_usd", "meets_sla",
                                       "fewest", "stable", "monotonic"};
    for (int i = 0; i < 12; i++) {
        if (i == 8 && energy) {
            table_col(t, "energy_usd", 1);
            table_col(t, "cost_usd", 1);
        }
        table_col(t, cols[i], i != 1 && i != 8);
    }
    site_cols(t, p);
    for (int c = 0; c < pl->ncounts; c++) {
        for (int j = 0; j < p->npolicies; j++) {
            const plan_result *r = plan_result_at(pl, c, j);
            if (!r->done)
                continue;
            double sla = plan_value(pl, r, PM_SLA, p);
            double capex = plan_value(pl, r, PM_CAPEX, p), cost = plan_value(pl, r, PM_COST, p);
            table_row(t);
            table_cell(t, "%d", r->gpus);
            table_cell(t, "%s", pl->p.policies[j]);
            service_cells(t, pl, r, p);
            if (energy) {
                table_cell(t, "%.0f", cost - capex);
                usd_cell(t, pl, r, p, cost);
            }
            table_cell(t, "%s", plan_meets_target(sla, p->sla_target_pct) ? "yes" : "no");
            table_cell(t, "%d", plan_best(pl, j, p) == c);
            table_cell(t, "%d", plan_stable(pl, j, p) == c);
            table_cell(t, "%d", !plan_nonmonotonic(pl, j, p));
            site_cells(t, pl, r, p);
        }
    }
}

static void grid(const plan *pl, const plan_params *p, table *t)
{
    static const char *const cols[] = {"gpus", "gpus2", "policy", "ran", "sla_viol_pct",
                                       "jct_mean_s", "jct_p95_s", "avg_power_w", "capex_usd",
                                       "energy_usd", "cost_usd", "meets_sla", "frontier",
                                       "cheapest"};
    for (int i = 0; i < 14; i++)
        table_col(t, cols[i], i != 2 && i != 11);
    site_cols(t, p);
    for (int c = 0; c < pl->ncounts; c++)
        for (int j = 0; j < pl->p.npolicies; j++) {
            const plan_result *r = plan_result_at(pl, c, j);
            if (!r->done)
                continue;
            double sla = plan_value(pl, r, PM_SLA, p), cost = plan_value(pl, r, PM_COST, p);
            double capex = plan_value(pl, r, PM_CAPEX, p);
            table_row(t);
            table_cell(t, "%d", r->gpus);
            table_cell(t, "%d", r->gpus2);
            table_cell(t, "%s", pl->p.policies[j]);
            service_cells(t, pl, r, p);
            table_cell(t, "%.0f", cost - capex);
            usd_cell(t, pl, r, p, cost);
            table_cell(t, "%s", plan_meets_target(sla, p->sla_target_pct) ? "yes" : "no");
            table_cell(t, "%d", plan_on_frontier(pl, c, j, p));
            table_cell(t, "%d", plan_best(pl, j, p) == c);
            site_cells(t, pl, r, p);
        }
}

void plan_results_table(const plan *pl, const plan_params *p, table *t)
{
    if (pl->grid)
        grid(pl, p, t);
    else
        one_model(pl, p, t);
}
