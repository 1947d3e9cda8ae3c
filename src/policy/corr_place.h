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

/* An incoming task compared with a window's busy GPUs (those running
 * tasks): the worst of them governs, as a multi-GPU task runs at its
 * slowest GPU's rate (SPEC §3.3).  For v = 1 these are the paper's terms. */
typedef struct corr_terms {
    double rho;                 /* max over busy GPUs */
    double gpu_mean;            /* max aggregate mean over the window, % */
    double task_mean;           /* the task's mean over that GPU's window, % */
    double dmu;                 /* min |gpu_mean - task_mean| / 100 (fractions) */
    int busy;                   /* busy GPUs in the window */
} corr_terms;

void corr_window_compare(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                         int from_start, corr_terms *out);

/* First / HotCloud / Harmony (CATS §4, CorrGPU §IV): the first GPU in index
 * order, among GPUs running tasks, where the summaries (first sample,
 * mean or peak) of its tasks plus the incoming task's stay below q
 * percent and the memory fits — first-fit bin packing — else a fresh GPU. */
int corr_threshold_place(const policy_ctx *ctx, const char *policy, double q, int ti,
                         useries_kind kind, placement *out, explain *ex);

/* Writes "n<node>/g<dev>[,<dev>...]" for logs and summaries. */
void corr_format_placement(const cstate *cs, const placement *pl, char *buf, size_t len);

#endif
