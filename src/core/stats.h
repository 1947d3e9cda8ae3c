/*
 * stats.h — the summary statistics the engine and the sample generator
 * share: mean and peak of a utilization series, Pearson correlation of two
 * series (CATS eq. 15, CorrGPU eq. 1), percentiles of a sample (JCT
 * p50/p95/p99).  Pure functions over caller-owned arrays; no allocation
 * except the sorted copy stats_percentile() makes and frees itself.
 */
#ifndef GP_STATS_H
#define GP_STATS_H

#include <stddef.h>

/*
 * Pearson correlation coefficient (CATS eq. 15) of a and b over their first
 * n = min(na, nb) samples: CATS Alg. 1 truncates the two series to the
 * length of the shorter one before correlating them (SPEC §5.1).
 *
 * Returns 0 — "uncorrelated" — when n < 2 or when either truncated series
 * has zero variance (a constant series): the coefficient is undefined there,
 * and 0 is the value that neither favours nor forbids consolidation under
 * the correlation thresholds of CATS (0) and CorrGPU (alpha = 0).  The
 * result is clamped to [-1, 1].
 *
 * One pass in double precision over the samples shifted by the first pair
 * (a[0], b[0]): the shift keeps the sums small, so a constant series gives
 * exactly zero variance and nearly constant ones lose no digits.
 */
double stats_pearson(const float *a, size_t na, const float *b, size_t nb);

/*
 * The p-th percentile (p in [0, 100]) of x[0..n) by linear interpolation
 * between the closest ranks (the "type 7" definition of Hyndman and Fan,
 * the default of R and NumPy): with the values sorted, rank h = (n-1)p/100
 * and the result is x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * p outside [0, 100] is clamped.  Returns 0 when n == 0.  x is not modified
 * (a sorted copy is made).
 */
double stats_percentile(const double *x, size_t n, double p);

/* The same on an array already sorted ascending (no copy). */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

#endif
