/*
 * solve_gogh_lattice.c — the lattice of GOGH's objective values (eq. 2a),
 * used on the bound side of the search.  A combination that keeps its GPU
 * fully loaded costs the type's peak, gamma_a(1) = max_a (SPEC §3.2):
 * with table jobs that have no utilization series almost every
 * combination does, so almost every cost is 150, 250 or 300 W, and the
 * LP's bound falls between two values a solution can take.  Two uses:
 *   - when every combination's cost is a multiple of one step q (exactly:
 *     solve_quantum.c), every bound rounds up to a multiple of q;
 *   - when only the full-load ones are, and they are most of them (a few
 *     pairs share a GPU below full load and cost a fraction: the
 *     gavel-like bench has 52 such among 2,031), the final branch and
 *     bound gets an integer variable z = sum over those of (cost / q) n
 *     (the objective's lattice part, in steps): the same model, since z
 *     is an integer for every integer n, but GLPK may now branch on z,
 *     splitting the LP's fractional number of peak steps in two, which
 *     the combination counts alone never force.
 * Not here: the search's stages (solve_gogh.c).
 */
#include "solve_gogh_int.h"

#include <math.h>
#include <stdlib.h>

/* Combination q's cost in whole steps of s->step, or -1 when it is not
 * on that lattice (within SOLVE_EPS, relative). */
static double steps_of(const gsolve *s, const combo *q)
{
    double k = q->cost / s->step;
    return k >= 0 && fabs(k - round(k)) <= SOLVE_EPS * fmax(1, k) ? round(k) : -1;
}

/* The step of the costs of every combination, or with full_only of the
 * full-load ones; 0 when they have none (solve_quantum.c).  A solution
 * runs at most one combination per accelerator, so it sums to at most
 * naccels of them. */
static double step_of(const gsolve *s, int full_only)
{
    double *cost = xmalloc((s->nc + 1) * sizeof *cost);
    size_t n = 0;
    for (size_t q = 0; q < s->nc; q++) {
        const combo *c = &s->c[q];
        if (!full_only || c->watts >= s->in->types[c->a].max_w - SOLVE_EPS)
            cost[n++] = c->cost;
    }
    double step = solve_quantum(cost, n, (double)s->in->naccels);
    free(cost);
    return step;
}

/* A count of steps tells much about the objective only when it covers
 * most of it: on the bench's random jobs (utilization 0.2-1) a fifth of
 * the combinations are full-load, and there the extra variable cost more
 * tree than it saved (128 jobs, 60 s: gaps of 0.53-0.81 % for 0.22-0.53 %
 * on two seeds of three); on the gavel-like jobs 97 % are. */
#define LATTICE_MIN_SHARE 0.9

/* How many combinations cost a whole number of steps. */
static size_t on_lattice(const gsolve *s)
{
    size_t n = 0;
    for (size_t q = 0; q < s->nc; q++)
        n += steps_of(s, &s->c[q]) >= 0;
    return n;
}

void gogh_lattice_init(gsolve *s)
{
    s->quantum = s->step = 0;
    s->step_col = 0;
    if (s->in->objective == GOGH_MAX_THROUGHPUT || s->nc == 0)
        return;     /* Gavel's objective is not a sum of peaks */
    s->quantum = step_of(s, 0);
    s->step = s->quantum > 0 ? s->quantum : step_of(s, 1);
    if (s->step > 0 && (double)on_lattice(s) < LATTICE_MIN_SHARE * (double)s->nc)
        s->step = 0;
}

double gogh_round_bound(const gsolve *s, double lb)
{
    return s->quantum > 0 && isfinite(lb) ? s->quantum * solve_quanta(lb, s->quantum) : lb;
}

/* z - sum of steps * n = 0 over the columns on the lattice, z integer;
 * nothing when the model has no lattice part or z is there already. */
void gogh_lattice_row(gsolve *s)
{
    if (s->step <= 0 || s->step_col)
        return;
    int ncol = glp_get_num_cols(s->P);
    int *ind = xmalloc((size_t)(ncol + 2) * sizeof *ind);
    double *val = xmalloc((size_t)(ncol + 2) * sizeof *val);
    int len = 0;
    for (size_t q = 0; q < s->nc; q++) {
        double k = steps_of(s, &s->c[q]);
        if (s->c[q].col && k > 0) {
            ind[++len] = s->c[q].col;
            val[len] = k;
        }
    }
    s->step_col = glp_add_cols(s->P, 1);
    glp_set_col_kind(s->P, s->step_col, GLP_IV);
    glp_set_col_bnds(s->P, s->step_col, GLP_LO, 0, 0);
    if (s->names)
        glp_set_col_name(s->P, s->step_col, "lattice_steps");
    ind[++len] = s->step_col;
    val[len] = -1;
    int row = glp_add_rows(s->P, 1);
    glp_set_row_bnds(s->P, row, GLP_FX, 0, 0);
    glp_set_mat_row(s->P, row, len, ind, val);
    free(ind);
    free(val);
}

/* z's value at solution x (a count per combination). */
double gogh_lattice_value(const gsolve *s, const double *x)
{
    double z = 0;
    for (size_t q = 0; q < s->nc; q++) {
        double k = steps_of(s, &s->c[q]);
        if (s->c[q].col && k > 0)
            z += k * x[q];
    }
    return z;
}
