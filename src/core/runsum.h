/*
 * runsum.h — the numbers of a run the TUI's tables show, computed from
 * the run record itself (timeline and per-task outcomes) so they are
 * available live, while a run is still going, and the same for saved runs.
 * Pure: no curses.
 *
 * Time averages treat the timeline as a step function (a sample holds until
 * the next one), as the simulator records it.
 */
#ifndef GP_RUNSUM_H
#define GP_RUNSUM_H

#include <stddef.h>

#include "model.h"
#include "run.h"

typedef struct run_summary {
    double t_end;               /* the horizon the averages run to */
    double now_gpus, now_w, now_frag, now_queued;   /* last sample at t_end */
    double avg_gpus, peak_gpus;
    double avg_w, peak_w;
    double energy_kwh;
    double avg_frag;
    size_t finished;            /* outcomes recorded */
    size_t violations;          /* SLA violations among them */
    double jct_mean, jct_p50, jct_p95;
} run_summary;

/* Summarises r up to simulated time t_end (< 0: its last sample). */
void run_summarize(const run *r, double t_end, run_summary *out);
/* The two halves of it: the timeline part (cheap, changes with t_end) and
 * the outcome part (percentiles sort the JCTs; it only changes when a task
 * finishes, so the Compare screen caches it).  Each fills only its own
 * fields of *out. */
void run_summarize_points(const run *r, double t_end, run_summary *out);
void run_summarize_outcomes(const run *r, run_summary *out);

/* SLA violations of r's finished tasks against their trace for SLA factor
 * kappa (JCT > kappa * e_min; kappa <= 0 uses each task's own kappa). */
size_t run_violations(const run *r, const gp_trace *tr, double kappa);
/* The papers' SLA on normalised JCT: a policy's mean JCT over the fastest
 * policy's stays within kappa (CATS §6: 1.2 x HotCloud's). */
int run_jct_within(double jct_vs_best, double kappa);

/* The step-function mean of field values over [0, t_end]: x and y are read
 * with a stride in bytes (fields of run_point).  Returns 0 for no samples. */
double summary_time_mean(const double *x, const double *y, size_t n, size_t stride,
                         double t_end);

/* Peak GPU demand if every task started on arrival and ran for its
 * standalone duration (the planner's default sweep range); whole GPUs,
 * a shared GPU counting as one. */
int summary_peak_demand(const gp_trace *tr);

#endif
