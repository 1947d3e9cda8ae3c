/*
 * runsum.h — the figures of a run that `gpuplan run`, the dashboard's
 * Compare table and a reopened saved run print: the one place they are
 * computed, so the three agree for the same run.
 *
 * A finished run (the simulator's summary metrics are in its record) is
 * summarised from those metrics, which are exact integrals over its own
 * span, first arrival to last completion: however playback reached the
 * end, and whatever time the other runs beside it ended at, the figures
 * are the run's own.  A run still going is summarised from its record up
 * to the time it has reached (timeline and per-task outcomes), the time
 * averages treating the timeline as a step function (a sample holds until
 * the next one), as the simulator records it.  Pure: no curses.
 */
#ifndef GP_RUNSUM_H
#define GP_RUNSUM_H

#include <stddef.h>

#include "model.h"
#include "run.h"

typedef struct run_summary {
    int final;                  /* 1: a finished run's own metrics; 0: up to t_end */
    double t_end;               /* the horizon the averages run to */
    double now_gpus, now_w, now_frag, now_queued;   /* last sample at t_end */
    double avg_gpus, peak_gpus;
    double avg_w, peak_w;
    double energy_kwh;
    double avg_frag;
    size_t finished;            /* outcomes recorded */
    size_t violations;          /* SLA violations among them */
    double jct_mean, jct_p50, jct_p95;
    /* Known only once the run has finished (NAN before): */
    double unique_gpus, capex_usd, avg_servers, mean_mhz, failed, wakeups;
    /* The placement metric (avg_gpus with DFS off: the run's own when DFS
     * was off, else its DFS-off twin's, NAN when none was run), the fluid
     * lower bound on avg_gpus and the GPU-hours of busy GPUs. */
    double place_gpus, fluid_gpus, gpu_hours;
    char power_model[16];       /* the model its watts are measured with */
} run_summary;

/* 1 when r carries the simulator's summary metrics (it has finished). */
int run_is_final(const run *r);
/* A finished run's capex_usd as text: "240000", or "unknown" when no GPU
 * it used has a price, "240000+?" when only some have (metric
 * unpriced_gpus); "" before it finished.  Returns the unpriced count. */
int run_capex_format(const run *r, char *buf, size_t len);
/* Summarises r: a finished run by its own metrics whatever t_end is (its
 * clock stopped at its last completion), else up to simulated time t_end
 * (< 0: its last sample). */
void run_summarize(const run *r, double t_end, run_summary *out);
/* The two halves of it: the timeline part (cheap, changes with t_end) and
 * the outcome part (percentiles sort the JCTs; it only changes when a task
 * finishes, so the Compare screen caches it).  Each fills only its own
 * fields of *out. */
void run_summarize_points(const run *r, double t_end, run_summary *out);
void run_summarize_outcomes(const run *r, run_summary *out);

/* The papers' SLA on normalised JCT: a policy's mean JCT over the fastest
 * policy's stays within kappa (CATS §6: 1.2 x HotCloud's).  It says
 * nothing of single tasks: a run can meet it with hundreds of tasks over
 * their own kappa x e_min, hence the CLI's column name
 * jct_vs_best_within_kappa (mean_jct_within_k before). */
int run_jct_within(double jct_vs_best, double kappa);
/* 1 when finished run r can be the fastest policy, the "best" of
 * jct_vs_best: it ran every task (a run whose failed tasks left its JCT
 * figures is fast only for the tasks it kept) and completed at least one. */
int run_can_be_best(const run *r);
/* The mean JCT of the fastest of runs[0..n) that can be best; INFINITY
 * when none can. */
double run_best_jct(run *const *runs, size_t n);

/* Writes a percentage with the fewest decimals (min_decimals to 4) that
 * keep the shown value on the same side of target as the value itself,
 * so a shown "1.0" never fails a "<= 1.0" target (1.03 shows as "1.03").
 * The comparison is value <= target within GP_ROUND_EPS, as
 * plan_meets_target's. */
void summary_fmt_pct(double value, double target, int min_decimals, char *buf, size_t len);

/* The step-function mean of field values over [0, t_end]: x and y are read
 * with a stride in bytes (fields of run_point).  Returns 0 for no samples. */
double summary_time_mean(const double *x, const double *y, size_t n, size_t stride,
                         double t_end);

/* Peak GPU demand if every task started on arrival and ran for its
 * standalone duration (the planner's default sweep range); whole GPUs,
 * a shared GPU counting as one. */
int summary_peak_demand(const gp_trace *tr);

#endif
