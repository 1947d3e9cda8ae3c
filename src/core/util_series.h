/*
 * util_series.h — utilization-series helpers shared by the simulator and the
 * correlation-family policies (CATS, CorrGPU, First, HotCloud, Harmony):
 *   - a task's demand at a point of its own progress (SPEC §3.3: a series is
 *     indexed by the task's standalone progress, so a slowed task stretches);
 *   - the constant summaries the baselines schedule by (first sample, mean,
 *     peak);
 *   - the comparison of an incoming task with the aggregate future series of
 *     the tasks running on a GPU (CATS Alg. 1 lines 6–7, CorrGPU Alg. 1
 *     lines 7–9): Pearson correlation on the window truncated to the
 *     shorter series, and the two means.
 *
 * Conventions (documented for users in the man page):
 *   - A series shorter than its task's duration repeats (training is
 *     periodic, CorrGPU §III-B); sample i covers progress [i p, (i+1) p).
 *   - A task without a series demands its util_mean as a constant; with no
 *     utilization data at all (mean, peak and first all 0) it uses its
 *     whole share: gpu_milli / 10 % for a GPU-sharing task, else 100 %.
 *   - Percent throughout (0..100 per task; a GPU's aggregate may exceed 100).
 *
 * Pure functions over borrowed data; useries_in (its _init/_free pair)
 * and useries_memo (_new/_free) own memory.
 */
#ifndef GP_UTIL_SERIES_H
#define GP_UTIL_SERIES_H

#include <stddef.h>

#include "cstate.h"
#include "model.h"

/* Nominal sample period (s) of the virtual constant series of a task that
 * has none, and the cap on that series' length. */
#define USERIES_NOMINAL_PERIOD_S 60.0
#define USERIES_VIRTUAL_MAX 4096

typedef enum useries_kind { US_FIRST, US_MEAN, US_PEAK } useries_kind;

/* 1 when the task carries a utilization series. */
int useries_has_series(const task *tk);

/* Percent demand at sample index idx of the task's own progress (idx may run
 * past the series: it repeats). */
double useries_pct_idx(const task *tk, long idx);

/* The first sample index after idx at which the demand differs from
 * sample idx, scanning at most one series length; *change_s is the progress
 * at which that happens, capped at the task's duration (a task without a
 * series never changes: *change_s = duration).  Returns that index. */
long useries_next_change(const task *tk, long idx, double *change_s);

/* Summary used by the threshold baselines: first sample (First), mean
 * (HotCloud), peak (Harmony), in percent, with the no-data rule above. */
double useries_summary(const task *tk, useries_kind kind);

/* The p-th percentile (0 < p <= 100) of the task's series, percent (linear
 * interpolation, stats_percentile); p = 100 is US_PEAK's summary, and a
 * task without a series gives its US_MEAN summary for p < 100 (it runs
 * at that constant). */
double useries_percentile(const task *tk, double p);

/* GPU aggregates on an absolute time grid (util_series_grid.h) and the
 * incoming task's side of a comparison there. */
typedef struct useries_grid useries_grid;
typedef struct useries_grid_in useries_grid_in;

/* The incoming task's side of its comparisons with every candidate GPU,
 * prepared once per decision: its series (or a virtual constant one
 * covering its duration), prefix sums for O(1) window means, and the
 * scratch space of the GPU aggregates.  useries_in_free() releases it. */
typedef struct useries_in {
    int ti;                     /* trace index */
    const float *pct;           /* NULL for a virtual constant series */
    double value;               /* its constant value */
    size_t len;
    double period_s;
    double *prefix;             /* prefix[i]: sum of the first i samples */
    float *scratch;             /* len floats */
    /* The least of prefix[n] / n over 1 <= n <= len: no window's task_mean
     * (useries_cmp) is below it, so a GPU can be found over a threshold
     * before its aggregate is built. */
    double mean_floor;
    /* Set by useries_grid_in_attach: the comparisons read grid instead
     * (unless from_start), with the task sampled on it in gin. */
    useries_grid *grid;
    useries_grid_in *gin;
    useries_grid *grid_own;     /* a grid made for this decision alone, or NULL */
} useries_in;

void useries_in_init(useries_in *in, const gp_trace *tr, int ti);
void useries_in_free(useries_in *in);

/* The comparison of an incoming task with one GPU. */
typedef struct useries_cmp {
    double rho;                 /* CATS eq. 15 over the window; 0 when n < 2 or
                                 * either side is constant (SPEC §5.1) */
    double gpu_mean;            /* mean of the GPU's aggregate over the window, % */
    double task_mean;           /* mean of the task's series over the window, % */
    size_t n;                   /* window length in samples (0: GPU empty) */
} useries_cmp;

/* The least value task tk ever adds to a GPU's aggregate at one sample:
 * its series' least sample, or the constant it runs at without one.  A
 * GPU's aggregate mean over any window is at least the least floor of its
 * tasks plus the negative floors of all of them (the longest-lived task
 * covers the whole window). */
double useries_floor(const task *tk);

/* Compares the incoming task with the tasks running on GPU g.  The
 * aggregate u(G)[k] is the sum over g's tasks l of u_l at progress
 * s_l + k P, where P is the incoming task's sample period and s_l is l's
 * current progress (progress[l]; from_start = 1 uses s_l = 0, CorrGPU
 * §III-C's "first 30 seconds of both traces").  A task contributes until
 * its remaining standalone time runs out.  Both series are truncated to the
 * shorter length (CATS Alg. 1 line 6). */
void useries_compare(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                     const useries_in *in, int from_start, useries_cmp *out);

/* GPU aggregates kept between comparisons, one per GPU: an aggregate is
 * rebuilt only when what it is made of changed — the window's period, the
 * GPU's tasks, or a task's window (where its samples start, how many it
 * covers) — and otherwise read back with its sum, so that a comparison
 * costs the correlation alone (or nothing, for an incoming task without a
 * series).  The key is the whole input, so an entry is never stale: any
 * state (a rewound one too) may consult it.  Same results as
 * useries_compare, bit for bit. */
typedef struct useries_memo useries_memo;

/* For the tasks of trace tr (the one every comparison through it reads). */
useries_memo *useries_memo_new(const gp_trace *tr);
void useries_memo_free(useries_memo *m);

/* useries_compare through memo (NULL: useries_compare itself). */
void useries_compare_memo(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                          const useries_in *in, int from_start, useries_memo *memo,
                          useries_cmp *out);

/* useries_compare_memo, except that rho is left 0 (and *rho_skipped set)
 * when gpu_mean + task_mean > rho_over: a caller whose admission test
 * already fails there needs no correlation.  The means are the same bit
 * for bit; rho_over = INFINITY computes every rho. */
void useries_compare_lazy(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                          const useries_in *in, int from_start, useries_memo *memo,
                          double rho_over, int *rho_skipped, useries_cmp *out);

/* Summaries of every task of a trace, computed once (useries_summary of
 * each kind); useries_summaries_free() releases them. */
typedef struct useries_summaries {
    double *v[3];               /* [kind][task] */
    size_t ntasks;
} useries_summaries;

void useries_summaries_init(useries_summaries *s, const gp_trace *tr);
void useries_summaries_free(useries_summaries *s);

#endif
