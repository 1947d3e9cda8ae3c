/*
 * plan_site.h — a plan against the facility's power envelope
 * (power/site_envelope.h): per policy, whether the fewest GPUs meeting the
 * SLA fit, or the site or its racks bind.  One text for `gpuplan plan` and
 * the Planner, so the two answer alike.  No curses.
 */
#ifndef GP_PLAN_SITE_H
#define GP_PLAN_SITE_H

#include <stddef.h>

#include "plan.h"

/* What the envelope holds of the plan's first GPU model. */
void plan_site_capacity(const plan *pl, const plan_params *live, site_capacity *cap);

/* The grid's capacity line at n1 GPUs of the first model: the most of
 * the second the envelope holds beside them (power/site_envelope.h). */
void plan_site_mix_at(const plan *pl, const plan_params *live, int n1, site_mix *m);

/* A grid's capacity line over the first model's counts swept: "most
 * A100-40GB beside each count of H100: 0: 224 (racks), 16: 168 (racks),
 * 168: over the racks"; "" without a site budget, for one model or from a
 * snapshot. */
void plan_site_line(const plan *pl, const plan_params *live, char *buf, size_t len);

/* "site holds 4 V100 (the site binds); binding: first the site (5
 * needed)" for a one-model sweep with a site budget; for a grid, per
 * policy, whether its cheapest point meeting the SLA fits or the site or
 * the racks bind, with the cheapest that fits ("binding (cheapest meeting
 * SLA): first the racks (16+200 needed; within: 16+160)"); else "". */
void plan_site_answer(const plan *pl, const plan_params *live, char *buf, size_t len);

#endif
