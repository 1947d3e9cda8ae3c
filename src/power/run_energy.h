/*
 * run_energy.h — the money and carbon of one run record: its timeline cut
 * into the hours of the trace's clock, scaled to the run's exact energy,
 * and priced by energy_cost_compute (energy_cost.h).  `gpuplan run`'s
 * energy columns and the dashboard's Compare table both call it, so the
 * two print the same figures for the same run (docs/site-and-cost.md).
 *
 * It reads the run and its summary only; it does not summarize the run
 * (the caller chooses the horizon: a finished run's own figures, or a run
 * still going up to the time it has been simulated to).
 */
#ifndef GP_RUN_ENERGY_H
#define GP_RUN_ENERGY_H

#include "core/run.h"
#include "core/runsum.h"
#include "energy_cost.h"

/* Prices run r's energy up to s->t_end under pr: the timeline's samples
 * up to then give the hourly shape, s->energy_kwh the total and s->peak_w
 * the peak IT draw; capex_known is the purchase price of its GPUs whose
 * price is known (for the TCO).  *hours_over (may be NULL) counts the
 * hours whose peak draw x PUE exceeds site_budget_w (0: none counted). */
void run_energy_cost(const run *r, const run_summary *s, double capex_known,
                     const energy_prices *pr, double site_budget_w, energy_cost *out,
                     int *hours_over);

#endif
