/*
 * gen_trace_int.h — what gen_trace.c defines beyond gen_trace.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of gen_trace.h's interface.
 */
#ifndef GP_GEN_TRACE_INT_H
#define GP_GEN_TRACE_INT_H

#include "gen_trace.h"

/* A training-like utilization series for job `index` of a trace drawn
 * with `seed`: a warm-up ramp to a steady level, a periodic dip (an
 * evaluation or checkpoint every few dozen samples) and Gaussian noise,
 * clamped to 0..100 and rounded to 0.1; its length uniform in
 * [min_len, max_len].  Each job
 * draws from its own stream of the seed, so a series depends only on
 * (seed, index, bounds).  out holds at least max_len floats; returns the
 * length. */
size_t gen_util_series(uint64_t seed, size_t index, const gen_series_params *sp, float *out);

gp_trace *gen_gavel_trace(const char *name, const tput_catalog *tp, const gen_gavel_params *p,
                          gp_err *err);

#endif
