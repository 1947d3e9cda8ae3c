/*
 * plan_chart.h — the planner's results as a chart people take away
 * (io/plot.h) and as the one-line answer the Planner screen and `gpuplan
 * plot plan` print: which policy meets the SLA target with the cheapest
 * cluster ("CorrGPU: 1 × A100-40GB, 2,500 USD").
 *
 * One GPU model: each policy's metric against the GPU count, the SLA
 * target as a line on the SLA chart, the fewest GPUs meeting it marked.
 * A grid of two models: each point's metric against its cost, the
 * cheapest point meeting the target marked.
 *
 * And the command line that sweeps the same (plan_cli_options), which the
 * dashboard shows next to what it exports.
 *
 * Ownership: plan_chart() returns a new chart (plot_free()).
 */
#ifndef GP_PLAN_CHART_H
#define GP_PLAN_CHART_H

#include <stddef.h>

#include "io/plot.h"
#include "plan.h"

/* The chart of metric m under the live sliders. */
plot_chart *plan_chart(const plan *pl, plan_metric m, const plan_params *live);

/* The answer under the live sliders into buf: the policy whose point
 * meeting the SLA target costs least, its GPUs and its cost in USD with
 * thousands separated; or why there is none.  utf8 0 writes "x" for "×". */
void plan_answer(const plan *pl, const plan_params *live, int utf8, char *buf, size_t len);

/* The index in pl->res of the answer's point (as plan_answer names it);
 * -1 when no policy meets the target. */
int plan_answer_result(const plan *pl, const plan_params *live);

/* A policy's short name: its title up to " (" ("CorrGPU"). */
void plan_policy_short(const plan *pl, int j, char *buf, size_t len);

/* The options of `gpuplan plan` (and `gpuplan plot plan`) that sweep p:
 * "--trace T --gpu G --from 1 --to 8 ...", the defaults left out. */
struct strbuf;
void plan_cli_options(const plan_params *p, struct strbuf *out);
/* The --metric word of `gpuplan plot plan` for m: sla, jct, ... */
const char *plan_metric_word(plan_metric m);

/* The metric's axis label and unit ("SLA violations", "% of tasks"). */
void plan_metric_axis(plan_metric m, const char **label, const char **unit);

#endif
