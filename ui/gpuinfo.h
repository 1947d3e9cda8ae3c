/*
 * gpuinfo.h — what the Step and Cluster screens say about one GPU of a
 * cluster state: its utilization now, the aggregate utilization series of
 * its tasks ahead (CATS's u(G)), its power draw, its level for a heatmap
 * view.  Pure (no curses), so it is unit-tested and benchmarked.
 */
#ifndef GP_GPUINFO_H
#define GP_GPUINFO_H

#include <stddef.h>

#include "core/cstate.h"
#include "core/model.h"

/* A task's utilization (percent) at its own progress point: the sample at
 * progress_s / period, or its mean when it has no series.  progress may be
 * NULL (a snapshot): the first sample is used. */
double task_util_at(const task *tk, double progress_s);

/* Sum of the utilizations of the GPU's tasks now, in percent (may pass
 * 100: time-shared GPUs are oversubscribed). */
double gpu_util_now(const cstate *cs, const gp_trace *tr, const double *progress, int gpu);

/* How many of the GPU's tasks have no utilization anyone read: no series
 * and no mean (a pod no monitor read).  Their share of gpu_util_now is
 * not 0 but unknown, and the screens say so. */
int gpu_util_unread(const cstate *cs, const gp_trace *tr, int gpu);

/* The GPU's aggregate series ahead: out[k] = Σ tasks' u at progress + k
 * samples (period of the first task with a series); returns the length
 * written (≤ cap), 0 when no task has a series. */
size_t gpu_agg_series(const cstate *cs, const gp_trace *tr, const double *progress, int gpu,
                      float *out, size_t cap);

/* The GPU's draw in W under the CATS model (eq. 1–3): asleep sleep_w,
 * idle idle_w, active idle_w + alpha * f; eopc: max_w with any allocation,
 * else idle_w. */
double gpu_watts(const cstate *cs, int gpu, int eopc);

/* The frequency view's levels: 1 up to this fraction of the way from
 * f_min to f_max, 2 above it, 3 at f_max (the legend says the same). */
#define GPU_FREQ_HIGH_FRAC 0.5

/* The heatmap level of a fraction (used, busy): 0 for none, 1..3 by
 * thirds, 4 past 1. */
int gpu_level_of(double frac);

/* Heatmap level of a GPU for a view, 0 (empty/cold) .. 4 (full/over),
 * and -1 for asleep in the power and frequency views.  view is heat_view
 * (allocation, utilization, power state, frequency, memory). */
int gpu_heat_level(const cstate *cs, const gp_trace *tr, const double *progress, int gpu,
                   int view);

#endif
