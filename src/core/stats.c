/*
 * stats.c — summary statistics of stats.h.  The Pearson loop is the hot
 * path of correlation-aware placement (SPEC §9: 1M samples in < 2 ms), so
 * it is one branch-free pass the compiler can vectorise.
 */
#include "stats.h"
#include "stats_int.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_mean(const float *x, size_t n)
{
    if (n == 0)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

double stats_peak(const float *x, size_t n)
{
    if (n == 0)
        return 0;
    float peak = x[0];
    for (size_t i = 1; i < n; i++)
        if (x[i] > peak)
            peak = x[i];
    return peak;
}

double stats_stddev(const float *x, size_t n)
{
    if (n < 2)
        return 0;
    /* Shifted sums, as in stats_pearson(). */
    const double k = x[0];
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - k;
        s += d;
        ss += d * d;
    }
    double var = (ss - s * s / (double)n) / (double)n;
    return var > 0 ? sqrt(var) : 0;
}

/* Four independent lanes of accumulators: the sums no longer form one
 * dependency chain, so the loop runs several multiply-adds per cycle and
 * the compiler can vectorize it (without -ffast-math, which would let it
 * reorder any sum).  The lanes are added at the end in a fixed order, so
 * the result is deterministic. */
#define PEARSON_LANES 4

double stats_pearson(const float *a, size_t na, const float *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    if (n < 2)
        return 0;
    const double ka = a[0], kb = b[0];
    double sa[PEARSON_LANES] = {0}, sb[PEARSON_LANES] = {0}, saa[PEARSON_LANES] = {0},
           sbb[PEARSON_LANES] = {0}, sab[PEARSON_LANES] = {0};
    size_t i = 0;
    for (; i + PEARSON_LANES <= n; i += PEARSON_LANES) {
        for (int l = 0; l < PEARSON_LANES; l++) {
            double x = a[i + l] - ka, y = b[i + l] - kb;
            sa[l] += x;
            sb[l] += y;
            saa[l] += x * x;
            sbb[l] += y * y;
            sab[l] += x * y;
        }
    }
    for (; i < n; i++) {
        double x = a[i] - ka, y = b[i] - kb;
        sa[0] += x;
        sb[0] += y;
        saa[0] += x * x;
        sbb[0] += y * y;
        sab[0] += x * y;
    }
    for (int l = 1; l < PEARSON_LANES; l++) {
        sa[0] += sa[l];
        sb[0] += sb[l];
        saa[0] += saa[l];
        sbb[0] += sbb[l];
        sab[0] += sab[l];
    }
    /* n^2 times the (co)variances; exactly 0 for a constant series since
     * every shifted sample is then 0. */
    const double dn = (double)n;
    double vaa = dn * saa[0] - sa[0] * sa[0], vbb = dn * sbb[0] - sb[0] * sb[0],
           vab = dn * sab[0] - sa[0] * sb[0];
    if (!(vaa > 0) || !(vbb > 0))
        return 0;
    double r = vab / sqrt(vaa * vbb);
    return r > 1 ? 1 : r < -1 ? -1 : r;
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    if (!(p > 0))       /* also catches NaN */
        p = 0;
    if (p > 100)
        p = 100;
    double h = (double)(n - 1) * p / 100;
    size_t lo = (size_t)h;
    if (lo + 1 >= n)
        return sorted[n - 1];
    double frac = h - (double)lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double stats_percentile(const double *x, size_t n, double p)
{
    if (n == 0)
        return 0;
    double *copy = xmemdup(x, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_double);
    double v = stats_percentile_sorted(copy, n, p);
    free(copy);
    return v;
}
