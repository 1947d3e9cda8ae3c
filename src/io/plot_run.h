/*
 * plot_run.h — charts of saved runs (plot.h): one or several runs' time
 * series of a metric side by side (`gpuplan plot run`, the Compare
 * screen), and the workload-inflation sweep: each policy's curve averaged
 * over the seeds of its saved runs, against the arrived share of the GPU
 * capacity (`gpuplan plot sweep`).
 *
 * Ownership: the builders return a new chart (plot_free()); runs are read
 * only.
 */
#ifndef GP_PLOT_RUN_H
#define GP_PLOT_RUN_H

#include "core/run.h"
#include "plot.h"
#include "power/energy_cost.h"

typedef enum plot_metric {
    PLOT_M_GPUS, PLOT_M_POWER, PLOT_M_FRAG, PLOT_M_JCT, PLOT_M_QUEUE, PLOT_M_ALLOC,
    PLOT_M_SERVERS, PLOT_M_FREQ, PLOT_M_COUNT
} plot_metric;

/* "gpus", "power", ...; -1 when unknown. */
int plot_metric_parse(const char *name);
const char *plot_metric_name(plot_metric m);
/* "gpus|power|frag|..." for help and messages. */
const char *plot_metric_list(void);

/* 1 when r is one run of the inflation experiment (its timeline is over
 * the arrived share, 0..100 %, not over time). */
int plot_run_is_inflation(const run *r);

/* 1 when metric m has a curve in an inflation run (gpus, alloc, frag,
 * power, queue; not jct, servers, freq). */
int plot_metric_in_inflation(plot_metric m);

/* The metric of runs[0..n) over time (or over the arrived share for
 * inflation runs), one series each named by its policy; title names the
 * trace and cluster of the first. */
plot_chart *plot_runs_chart(const run *const *runs, int n, plot_metric m);

/* What a run's energy adds up to over its time, priced hour by hour
 * (power/energy_cost.h): the energy's cost in USD, or its carbon in kg
 * CO2e. */
typedef enum plot_money { PLOT_MONEY_USD, PLOT_MONEY_CO2E } plot_money;

/* The running total of runs[0..n)'s energy cost (or carbon) under pr, one
 * series per run: 0 at its first sample, then a point at the end of each
 * hour of the trace's clock it covers (its last at the run's end), each
 * hour priced as `gpuplan run` prices it, so a run's last point is its
 * energy_usd (co2e_kg).  Runs over time only (not inflation runs). */
plot_chart *plot_runs_money_chart(const run *const *runs, int n, plot_money what,
                                  const energy_prices *pr);

/* The inflation sweep: per policy, the mean over its runs (one per seed)
 * of the metric at each arrived percent; the note says how many seeds. */
plot_chart *plot_sweep_chart(const run *const *runs, int n, plot_metric m);

#endif
