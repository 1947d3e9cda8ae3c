/*
 * speed.h — how long a task lasts, and how busy it keeps its GPU, on a GPU
 * faster or slower than the one its trace was measured on.
 *
 * Speeds are relative to one reference accelerator (a V100 = 1 unless
 * stated otherwise): a profile's `speed` is its speed on that scale, never
 * relative to the cluster a task happens to run on.  A trace states the
 * GPU its durations and utilizations were measured on (gp_trace.ref_gpu);
 * s = speed(gpu) / speed(that GPU) is how much faster the GPU is.
 *
 * The model is Amdahl's law (G. Amdahl, "Validity of the single processor
 * approach to achieving large scale computing capabilities", AFIPS 1967):
 * a task of duration d that kept its reference GPU busy a fraction u of
 * the time spent u d there on GPU work and (1 - u) d elsewhere (data
 * loading, the CPU, communication), which a faster GPU does not shorten.
 * On a GPU s times faster it lasts
 *     d' = u d / s + (1 - u) d                    (= d k, k below)
 * and keeps the GPU busy for the GPU part only: its utilization is
 *     u' = (u / s) / k.
 * A series sample p (percent, at a point of the task's own progress) is
 * read the same way, p' = p / (s k), since the task's wall time stretches
 * by k evenly over its progress; p' is capped at 100 (a sample busier than
 * the mean on a slower GPU).
 *
 * u is the task's mean utilization (its series', else util_mean).  A task
 * with no utilization data at all is taken as all GPU work (u = 1): it then
 * runs s times faster, as a pure speed ratio would have it.
 *
 * Pure functions; no state.
 */
#ifndef GP_SPEED_H
#define GP_SPEED_H

#include <stddef.h>

#include "model.h"
#include "util.h"

/* The reference when neither the trace nor the user names one. */
#define SPEED_DEFAULT_REF "V100"

/* The fraction of its time a task keeps its reference GPU busy, 0..1
 * (1 when it has no utilization data). */
double speed_gpu_fraction(const task *tk);

/* k: wall seconds per reference second of a task busy u of the time on
 * its reference GPU, on a GPU s times as fast (s > 0). */
double speed_stretch(double u, double s);

/* The task's progress rate there: reference seconds per wall second, 1/k. */
double speed_rate(double u, double s);

/* A utilization sample p (percent) on the reference as it reads on a GPU
 * s times as fast, for a task of mean fraction u; at most 100. */
double speed_util(double p, double u, double s);

/* The reference of a run: ref_speed when positive (*name ""), else the
 * profile named ref_gpu, else the trace's ref_gpu, else a V100 (speed 1
 * even without a profile).  0, or -1 naming the missing profile and the
 * options that would do. */
int speed_ref_resolve(const catalog *cat, const gp_trace *tr, const char *ref_gpu,
                      double ref_speed, char *name, size_t name_len, double *speed,
                      gp_err *err);
/* "speeds relative to V100 (speed 1)", or "... to speed 2" without a name. */
void speed_ref_describe(const char *name, double speed, char *buf, size_t len);

#endif
