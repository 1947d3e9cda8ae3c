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

/* "site holds 4 V100 (the site binds); binding: first the site (5
 * needed)" for a one-model sweep with a site budget, else "". */
void plan_site_answer(const plan *pl, const plan_params *live, char *buf, size_t len);

#endif
