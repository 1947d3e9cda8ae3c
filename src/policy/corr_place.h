/*
 * corr_place.h — placement rules shared by the correlation-family policies
 * (policy_cats.c, policy_corrgpu.c, policy_first.c, policy_hotcloud.c,
 * policy_harmony.c).
 *
 * Resource model of the family (CATS §3.3, CorrGPU §II): tasks time-share a
 * GPU (MPS), so a GPU admits a task when the task may run on its model and
 * its free memory holds the task's footprint d; GPU shares (gpu_milli)
 * are not constraints (the papers place by memory only).  The server's
 * vCPU and host memory left must hold the task's, as in every family
 * (core/fit.h): a trace that asks for them is not placed past them.
 * A task of v > 1 GPUs takes a window of v consecutive devices of one
 * server starting at the chosen GPU (CorrGPU Alg. 1 lines 18–25:
 * "dispatch(t_i) -> g + k").
 *
 * The scoring rules themselves live in the policy files; this file holds
 * what they share: windows, the fresh-GPU fallback, the window comparison
 * and the threshold rule of the three baselines.
 */
#ifndef GP_CORR_PLACE_H
#define GP_CORR_PLACE_H

#include "policy.h"
#include "core/util_series.h"

/* The family's run workspace (policy_ops.prepare/release of each of its
 * policies): GPU aggregates kept between decisions and every task's
 * summaries, so that a decision rebuilds neither.  A policy called
 * without it (ctx->prep NULL) computes them afresh, with the same
 * results. */
int corr_prepare(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                 const double *params, void **prep, gp_err *err);
void corr_release(void *prep);

/* Why a window does not admit a task. */
enum { CORR_FITS = 0, CORR_NO_ROOM, CORR_MODEL, CORR_MEMORY, CORR_HOST };

/* The window of task_gpus(tk) devices starting at global GPU g, on g's
 * node.  Returns CORR_FITS with *out filled, or why it does not fit. */
int corr_window(const cstate *cs, const task *tk, int g, placement *out);

/* Short text for a corr_window() code ("memory", ...). */
const char *corr_reason(int code);

/* A fresh window: devices running no task that admit tk.  Preference, then
 * lowest index: (1) every device awake (no wake-up), (2) on an awake
 * server, (3) anywhere (wakes a server).  Returns 1 with *out, 0 if none. */
int corr_fresh(const cstate *cs, const task *tk, placement *out);

/* A CPU-only task: the first node with its vCPU and RAM left (no GPUs);
 * fills ex (may be NULL) for policy `policy`. */
int corr_place_cpu(const cstate *cs, const char *policy, const task *tk, placement *out,
                   explain *ex);

/* Sets the term names of an explanation without touching its candidates
 * (explain_init() would reset the caller's buffer). */
void corr_explain_terms(explain *ex, const char *const *names, int n);

/* Notes "opens N" on candidate c (may be NULL) when its window opens N > 0
 * idle devices; a rejection's reason, written later, replaces it. */
void corr_note_opens(explain_cand *c, int opens);

/* What every policy of the family knows when it asks whether a GPU can
 * take a task (the shared admission test below): the utilization it sees
 * comes from the run's predictor, and the window its means cover is one
 * of these, set for all the policies of a comparison at once (option
 * role OPT_UTIL_WINDOW; `run --util-window`).
 *   CORR_WIN_REMAINING  each running task's series from its current
 *                       progress, the incoming task's from its start, both
 *                       cut to the shorter (CATS Alg. 1 line 6): what a
 *                       scheduler that knows when its co-runners finish
 *                       sees — the default, as CATS and CorrGPU compare;
 *   CORR_WIN_WHOLE      each task's whole-series summary (its util_mean),
 *                       the constant of the papers' baselines ("the sum of
 *                       the average utilization", CATS §4).
 * Summaries that are no mean (First's first sample, Harmony's peak, a
 * percentile) are constants of a task under either window. */
enum { CORR_WIN_REMAINING = 0, CORR_WIN_WHOLE = 1 };

/* What a comparison's series are laid on (option role OPT_CORR_GRID;
 * `run --corr-grid`):
 *   CORR_GRID_RESAMPLED  each busy GPU's aggregate is rebuilt at every
 *                        decision on the incoming task's own sample
 *                        period, from each co-runner's progress (the
 *                        default; util_series.h);
 *   CORR_GRID_ABSOLUTE   the aggregates are kept on a wall-clock grid of
 *                        one step for the run, each task's series laid
 *                        on it once when it joins and taken off when it
 *                        leaves (util_series_grid.h).
 * from_start=1 compares from the running tasks' starts, which no grid in
 * time holds: it stays resampled. */
enum { CORR_GRID_RESAMPLED = 0, CORR_GRID_ABSOLUTE = 1 };

/* For grid CORR_GRID_ABSOLUTE, brings the run's grid (in the workspace,
 * or one made for this decision without it) up to the decision's state
 * and samples the incoming task of in on it, so that the comparisons
 * through in read the grid.  Call once per decision, after
 * useries_in_init; nothing for CORR_GRID_RESAMPLED. */
void corr_grid_attach(const policy_ctx *ctx, useries_in *in, int grid);

/* The shared admission test: a GPU admits a task when the load it would
 * carry stays within the utilization threshold, load <= q — one operator
 * for every policy (CATS §4's "below the utilization threshold" and the
 * baselines' "less than" read alike), so that a comparison differs only
 * in what each policy sums. */
static inline int corr_admits(double load, double q)
{
    return load <= q;
}

/* An incoming task compared with a window's busy GPUs (those running
 * tasks): the worst of them governs, as a multi-GPU task runs at its
 * slowest GPU's rate (SPEC §3.3).  For v = 1 these are the paper's terms. */
typedef struct corr_terms {
    double rho;                 /* max over busy GPUs */
    double gpu_mean;            /* max aggregate mean over the window, % */
    double task_mean;           /* the task's mean over that GPU's window, % */
    double dmu;                 /* min |gpu_mean - task_mean| / 100 (fractions) */
    /* The admission load under the remaining window: max over busy GPUs
     * of the aggregate's mean plus the task's, each over their common
     * window, %. */
    double load;
    int busy;                   /* busy GPUs in the window */
    /* Devices of the window running nothing, idle or asleep: each is a GPU
     * the placement newly opens (wakes), as a fresh GPU is. */
    int opens;
    /* rho was not computed (left 0): a busy GPU's means already summed
     * over the rho_over of corr_window_compare_lazy, so load > rho_over. */
    int rho_skipped;
} corr_terms;

void corr_window_compare(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                         int from_start, corr_terms *out);

/* corr_window_compare without the correlations once the window's load is
 * known to exceed rho_over (useries_compare_lazy): a policy whose
 * admission test fails there learns so without paying for rho.  The
 * load, means and dmu are those of corr_window_compare. */
void corr_window_compare_lazy(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                              int from_start, double rho_over, corr_terms *out);

/* The cheap test before any comparison: 1 when window pl's
 * remaining-window load (corr_terms.load) is surely over q, known from
 * each busy GPU's tasks' least samples (useries_floor) and the incoming
 * task's least window mean alone, without building an aggregate.  0 when
 * it may pass, and always without the run workspace.  A window it
 * rejects fails the admission test whatever its rho, so a policy that
 * skips it reports the same placements and counts. */
int corr_surely_over(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                     int from_start, double q);

/* What a threshold rule sums per task: kind (first sample, mean, peak),
 * or with 0 < pctl < 100 that percentile of each task's series (a
 * percentile-based HotCloud between mean and Harmony's peak), under the
 * admission window. */
typedef struct corr_rule {
    useries_kind kind;
    double pctl;                /* 0 = kind */
    int window;                 /* CORR_WIN_* */
    int grid;                   /* CORR_GRID_*: what a windowed mean reads */
} corr_rule;

/* The admission load of window pl for task ti under rule: for a mean
 * under the remaining window, t->load (t from corr_window_compare); else
 * the max over the window's busy GPUs of the sum of their tasks'
 * summaries and the incoming task's. */
double corr_load(const policy_ctx *ctx, const placement *pl, int ti, const corr_rule *rule,
                 const corr_terms *t);

/* First / HotCloud / Harmony (CATS §4, CorrGPU §IV): among windows from
 * GPUs running tasks whose memory fits and whose load passes the shared
 * admission test against q, the one that opens the fewest idle devices,
 * then the first in index order — first-fit bin packing — else a fresh
 * window. */
int corr_threshold_place(const policy_ctx *ctx, const char *policy, double q, int ti,
                         const corr_rule *rule, placement *out, explain *ex);

/* The run workspace of a percentile rule: corr_prepare's, with every
 * task's pctl-th percentile computed once. */
int corr_prepare_pctl(const cstate *cs, const gp_trace *tr, double pctl, void **prep,
                      gp_err *err);

/* Writes "n<node>/g<dev>[,<dev>...]" for logs and summaries. */
void corr_format_placement(const cstate *cs, const placement *pl, char *buf, size_t len);

#endif
