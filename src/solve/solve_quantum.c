/*
 * solve_quantum.c — the lattice an integer program's objective lives on:
 * when every cost coefficient is a whole multiple of some step q, every
 * integer solution's objective is one too, so a lower bound L from an LP
 * proves ceil(L / q) * q (solve_quanta), and a solution at that value is
 * optimal.  GOGH's power objective (eq. 2a) is such a case whenever every
 * combination keeps its GPU fully loaded: its cost is the GPU's maximum
 * power (150, 250, 300 W: q = 50 W) — while the LP's bound falls between.
 * Not here: applying the rounding (sg_mip.quantum does, in solve_glpk.c,
 * and the solvers that keep bounds of their own).
 */
#include "solve_int.h"

#include <math.h>
#include <stdint.h>

/* Costs are watts and dollars: whole milliwatts or tenths of a cent at
 * the finest, so a denominator up to this finds every step they have. */
#define QUANTUM_MAX_DENOM 1000
/* A cost is on the grid 1/D when within this much of it, relative. */
#define QUANTUM_REL_TOL 1e-9
/* Numerators stay exact in a double below 2^53. */
#define QUANTUM_MAX_NUMER 9007199254740992.0

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* How far cost c is from the grid 1/den, or -1 when further than the
 * tolerance (or too large to count in whole units of it). */
static double off_grid(double c, int den)
{
    double v = fabs(c) * den;
    if (v >= QUANTUM_MAX_NUMER)
        return -1;
    double d = fabs(v - round(v)) / den;
    return d <= QUANTUM_REL_TOL * fabs(c) ? d : -1;
}

/* The smallest denominator putting every cost on its grid (trying first
 * the cost that failed the last one: most denominators fail on the same
 * few costs), or 0; *dev the largest distance to the grid. */
static int grid_denominator(const double *cost, size_t n, double *dev)
{
    size_t last_bad = 0;
    for (int den = 1; den <= QUANTUM_MAX_DENOM; den++) {
        if (off_grid(cost[last_bad], den) < 0)
            continue;
        double worst = 0;
        size_t i;
        for (i = 0; i < n; i++) {
            double d = off_grid(cost[i], den);
            if (d < 0)
                break;
            worst = fmax(worst, d);
        }
        if (i == n) {
            *dev = worst;
            return den;
        }
        last_bad = i;
    }
    return 0;
}

/* The step q of the objective's lattice: the greatest common divisor of
 * costs cost[0..n), exactly, on their common grid 1/D; 0 when there is
 * none to use: a cost off every grid up to QUANTUM_MAX_DENOM, every cost
 * zero, or costs so close to their grid only that a solution of up to
 * max_units units (the sum of its integer variables) could drift from
 * the lattice by more than a tenth of the rounding's tolerance
 * (SOLVE_LP_EPS quanta). */
double solve_quantum(const double *cost, size_t n, double max_units)
{
    if (n == 0)
        return 0;
    double dev = 0;
    int den = grid_denominator(cost, n, &dev);
    if (den == 0)
        return 0;
    int64_t g = 0;
    for (size_t i = 0; i < n; i++)
        g = gcd64(g, (int64_t)llround(fabs(cost[i]) * den));
    if (g == 0)
        return 0;
    double q = (double)g / den;
    if (max_units * dev > 0.1 * SOLVE_LP_EPS * q)
        return 0;
    return q;
}
