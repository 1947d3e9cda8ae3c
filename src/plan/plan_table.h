/*
 * plan_table.h — a plan's results as one table, the columns `gpuplan plan
 * --format csv` writes and the Planner's X exports: one builder, so the two
 * name every column the same way (capex_usd, fewest, ...).  It fills a
 * table (io/table.h); printing and files are the caller's.
 */
#ifndef GP_PLAN_TABLE_H
#define GP_PLAN_TABLE_H

#include "plan.h"
#include "io/table.h"

/* The finished results of pl read under p (the sweep's parameters, or the
 * Planner's live prices and SLA target) into t:
 *   one model  gpus policy ran sla_viol_pct jct_mean_s jct_p95_s
 *              avg_power_w capex_usd [energy_usd cost_usd: with an energy
 *              price] meets_sla fewest stable monotonic
 *   a grid     gpus gpus2 policy ran sla_viol_pct jct_mean_s jct_p95_s
 *              avg_power_w capex_usd energy_usd cost_usd meets_sla
 *              frontier cheapest
 * both then   [co2e_t: with a carbon intensity] [peak_kw fits_site: with a
 *              site budget]
 * A result not finished (a cancelled sweep) has no row. */
void plan_results_table(const plan *pl, const plan_params *p, table *t);

#endif
