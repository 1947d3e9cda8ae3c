/*
 * solve_gogh_int.h — what the GOGH solver's files share (solve_gogh.c, the
 * model and its search; solve_gogh_nbhd.c, the neighbourhood search;
 * solve_gogh_lattice.c, the lattice of the objective's values): the
 * job classes, the combinations, the cuts and the solve's data, and the
 * few functions of solve_gogh.c the neighbourhood search calls.  Kept out
 * of solve_int.h so that these types stay private to the GOGH solver: the
 * other solvers, the tests and the benchmarks never see them (they use
 * solve.h).  Ownership is solve_gogh.c's: it builds and frees a gsolve.
 */
#ifndef GP_SOLVE_GOGH_INT_H
#define GP_SOLVE_GOGH_INT_H

#include "solve_int.h"

static inline int imin(int a, int b)
{
    return a < b ? a : b;
}

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

/* Jobs that run on one accelerator at a time (D_j = 1) and are identical in
 * everything the model reads — utilization, every throughput with every
 * other job, and which combinations meet their minimum — are
 * interchangeable: the model counts how many of them each combination
 * serves instead of naming them, exactly (a simulator's round has many jobs
 * of one table job type).  Every other job is a class of its own. */
typedef struct gclasses {
    int n;
    int *of;                /* [J] class of each job */
    int *count;             /* [n] members */
    int *rep;               /* [n] its lowest-numbered member */
    int *members;           /* [J] jobs grouped by class, in job order */
    int *first;             /* [n + 1] each class's start in members */
} gclasses;

/* Combination c on type a: one member of class c1 alone (c2 < 0) or next
 * to one of c2 (c1 <= c2; c1 == c2 is two members of one class). */
typedef struct combo {
    int a;
    int c1, c2;
    double t1, t2;          /* a member's throughput in it, of c1 and of c2 */
    double watts;           /* gamma_a(load) */
    double cost;            /* its coefficient in the (minimised) objective */
    int ub;                 /* at most this many GPUs of type a run it */
    int col;
} combo;

/* A cut (search section): an odd set of classes (a triangle), or one
 * class's throughput cut (n = 1, at shift `shift`); how violated it was,
 * its form and row. */
#define GCUT_MAX 3

typedef struct gcut {
    int c[GCUT_MAX];
    int n;                  /* classes in it, odd */
    double viol;
    int packing;            /* x(pairs within) <= (n - 1) / 2, else touching >= (n + 1) / 2 */
    int row;
    double shift;           /* a throughput cut's d */
} gcut;

/* The data of one solve: instance, classes, combinations, GLPK's model. */
typedef struct gsolve {
    const gogh_inst *in;
    gclasses g;
    int *cnt;               /* [A] accelerators of each type */
    double *best;           /* [J] best solo throughput of each job */
    double *most;           /* [J] the most a job gets from one GPU, alone or paired */
    combo *c;               /* every combination; col = its LP column, 0 = none yet */
    size_t nc;
    double quantum;         /* every solution's cost is a multiple of it, 0 = none */
    double step;            /* the full-load combinations' costs are (0 = none) */
    int step_col;           /* the column counting them in steps, 0 = none */
    glp_prob *P;
    int names;              /* name the columns (an LP/MPS file is asked for) */
    int *row_of;            /* [C] each class's eq. 2b/2c row */
    int *tput_row;          /* [C] its eq. 2e row, 0 = none */
    int *half_row;          /* [C] its half row, 0 = none */
    int *share_row;         /* [C] its fair-share row, 0 = none */
    gcut *cuts;
    size_t cuts_cap;
    int ncuts;
    int **cuts_of;          /* [C] the cuts each class is in */
    int *ncuts_of;
    size_t *cuts_of_cap;
} gsolve;


/* ---- solve_gogh.c ---- */

/* Column q's coefficients in every row (type, classes, cuts); returns how
 * many (GLPK's 1-based ind/val). */
int gogh_column_coefs(const gsolve *s, const combo *q, int *ind, double *val);
/* Keeps y when it satisfies the model and beats *ub (takes y either way). */
void gogh_offer_solution(const gsolve *s, double *y, double **x, double *ub);
/* Exchanges between GPUs that lower the cost of *x, until none does. */
void gogh_local_search(gsolve *s, sg_ctx *c, double **x, double *ub);
/* The options of a stage given `seconds` on the solve's clock, within the
 * solve's own limit, stopping at relative gap `gap`. */
void gogh_stage_opts(const sg_ctx *c, double seconds, double gap, solve_opts *sub);
/* 1 when the bound closes the gap as far as the options ask. */
int gogh_gap_closed(const solve_opts *o, double ub, double lb);

/* For the tests: the model of `in` with its root cuts (NULL when the LP
 * did not solve), the least slack over those cuts of an assignment (per
 * accelerator g its jobs job1[g], job2[g], -1 for none; negative when a
 * cut removes it), how many cuts there are, and freeing it. */
gsolve *gogh_cuts_new(const gogh_inst *in);
double gogh_cuts_slack(const gsolve *s, const int *job1, const int *job2);
int gogh_cuts_count(const gsolve *s);
void gogh_cuts_free(gsolve *s);

/* ---- solve_gogh_lattice.c ---- */

/* Finds the lattice of eq. 2a's values (quantum, step) once the
 * combinations are made. */
void gogh_lattice_init(gsolve *s);
/* Lower bound lb rounded up to the lattice (unchanged without a quantum). */
double gogh_round_bound(const gsolve *s, double lb);
/* Adds the integer column counting the lattice part in steps (step_col)
 * and its row, over the columns the LP has now; call once no column is to
 * be added (the last branch and bound). */
void gogh_lattice_row(gsolve *s);
/* That column's value at solution x. */
double gogh_lattice_value(const gsolve *s, const double *x);

/* ---- solve_gogh_nbhd.c ---- */

/* Re-solves neighbourhoods of a few classes exactly, every other GPU held
 * as *x has it, from the root LP's reduced costs rc and bound lb; improves
 * *x / *ub.  -1 on a GLPK failure. */
int gogh_neighbourhood_search(gsolve *s, sg_ctx *c, const double *rc, double lb, double **x,
                              double *ub, gp_err *err);

#endif
