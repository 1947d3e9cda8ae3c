/*
 * run_energy.c — a run record's energy priced hour by hour (run_energy.h).
 * The arithmetic is energy_cost.c's; this file only hands it the run's
 * timeline.
 */
#include "run_energy.h"

void run_energy_cost(const run *r, const run_summary *s, double capex_known,
                     const energy_prices *pr, double site_budget_w, energy_cost *out,
                     int *hours_over)
{
    const run_point *p = r ? r->points : NULL;
    energy_profile *prof = energy_profile_new(p ? &p[0].t_s : NULL, p ? &p[0].power_w : NULL,
                                              p ? r->npoints : 0, sizeof *p, s->t_end,
                                              s->energy_kwh);
    energy_cost_compute(prof, s->peak_w, capex_known, pr, out);
    if (hours_over)
        *hours_over = site_budget_w > 0 ? energy_hours_over(prof, &pr->pue, site_budget_w) : 0;
    energy_profile_free(prof);
}
