/*
 * stats_int.h — what stats.c defines beyond stats.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * stats.h's interface.
 */
#ifndef GP_STATS_INT_H
#define GP_STATS_INT_H

#include "stats.h"

/* Arithmetic mean of x[0..n) in double precision; 0 when n == 0. */
double stats_mean(const float *x, size_t n);

/* Largest value of x[0..n); 0 when n == 0. */
double stats_peak(const float *x, size_t n);

/* Population standard deviation of x[0..n); 0 when n < 2. */
double stats_stddev(const float *x, size_t n);

#endif
