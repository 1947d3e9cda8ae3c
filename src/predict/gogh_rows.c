/*
 * gogh_rows.c — what GOGH's two networks read and give: P1's input (eq. 1)
 * and P2's (eq. 3), their answers turned back into iterations/s, and the
 * rows a split of job types gives for training and measuring them.
 *
 *   P1 in:  Psi_j2, Psi_j3, one-hot a, T_{a,j2}^{j2,j3}, T_{a,j3}^{j2,j3}, Psi_j1
 *      out: T~_{a,j1}^{j1,j3}, T~_{a,j3}^{j1,j3}
 *   P2 in:  Psi_j1, Psi_k, one-hot a1, one-hot a2, T~_{a1,j1}, T~_{a1,k},
 *           T_{a1,j1}, T_{a1,k}, T~_{a2,j1}, T~_{a2,k}
 *      out: T~'_{a2,j1}, T~'_{a2,k}
 *
 * Throughputs travel as ratios to the job's reference (gogh_int.h).  The
 * rows treat every job type of a split as new (its nearest known job
 * stands in for its history) and pair it with every known job and the empty
 * one: the co-located jobs a Catalog holds are the known ones, so no row
 * of any split carries a validation or test type's measurements as input.
 * A pair the table lacks counts as 0, as in tput.h ("cannot run there").
 */
#include "gogh_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gogh_rows_init(gogh_rows *r, int nin)
{
    memset(r, 0, sizeof *r);
    r->nin = nin;
}

void gogh_rows_free(gogh_rows *r)
{
    free(r->x);
    free(r->y);
    free(r->w);
    memset(r, 0, sizeof *r);
}

/* Room for one more row (cap counts rows); returns its input slots.  The
 * targets and factors are set by rows_target(). */
static double *rows_next(gogh_rows *r)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->x = xrealloc(r->x, r->cap * (size_t)r->nin * sizeof *r->x);
        r->y = xrealloc(r->y, r->cap * GOGH_NOUT * sizeof *r->y);
        r->w = xrealloc(r->w, r->cap * GOGH_NOUT * sizeof *r->w);
    }
    return r->x + r->n * (size_t)r->nin;
}

/* Closes the row rows_next() opened: truth in iterations/s of (j1, other),
 * own = j1's best solo throughput (its report scale). */
static void rows_target(gogh_rows *r, const gogh_job *j1, const gogh_job *other,
                        const double *truth, double own)
{
    double *y = r->y + r->n * GOGH_NOUT, *w = r->w + r->n * GOGH_NOUT;
    y[0] = truth[0] / j1->ref;
    y[1] = truth[1] / other->ref;
    w[0] = j1->ref / own;
    w[1] = 1;                   /* a known job's reference is its own best solo */
    r->n++;
}

static double *put(double *p, const double *v, int n)
{
    memcpy(p, v, (size_t)n * sizeof *v);
    return p + n;
}

static double *put_accel(double *p, int a, int naccel)
{
    for (int i = 0; i < naccel; i++)
        p[i] = i == a;
    return p + naccel;
}

/* The table's throughputs of (j, k) on accelerator a; k empty: j alone. */
static void measured(const gogh_hist *h, int a, const gogh_jobtype *j, const gogh_job *k,
                     double *t)
{
    const char *accel = h->nets->accel[a];
    t[1] = 0;
    t[0] = k->t ? tput_pair(h->ix, accel, j, k->t, &t[1]) : tput_solo(h->ix, accel, j);
}

void gogh_p1_input(const gogh_hist *h, int a, const gogh_job *j1, const gogh_job *j3,
                   double *in)
{
    const gogh_nets *n = h->nets;
    int dim = gogh_psi_dim(&n->psi);
    gogh_job j2;
    gogh_job_known(h, &n->types[j1->near], &j2);
    double t[2];
    measured(h, a, j2.t, j3, t);
    double *p = put(in, j2.psi, dim);
    p = put(p, j3->psi, dim);
    p = put_accel(p, a, n->naccel);
    *p++ = t[0] / j2.ref;
    *p++ = t[1] / j3->ref;
    p = put(p, j1->psi, dim);
    assert(p - in == gogh_p1_inputs(n));
}

/* The network's ratios back in iterations/s; a throughput is never
 * negative. */
static void to_tput(const double *ratio, const gogh_job *j1, const gogh_job *other, double *out)
{
    out[0] = fmax(ratio[0], 0) * j1->ref;
    out[1] = other->t ? fmax(ratio[1], 0) * other->ref : 0;
}

void gogh_p1_estimate(const gogh_hist *h, int a, const gogh_job *j1, const gogh_job *j3,
                      double *out)
{
    double in[3 * GOGH_MAX_PSI + GOGH_MAX_ACCELS + 2], ratio[GOGH_NOUT];
    gogh_p1_input(h, a, j1, j3, in);
    gogh_net_run(h->nets->p1, in, ratio);
    to_tput(ratio, j1, j3, out);
}

void gogh_p2_input(const gogh_hist *h, int a1, int a2, const gogh_job *j1, const gogh_job *k,
                   const double *est1, const double *meas1, const double *est2, double *in)
{
    const gogh_nets *n = h->nets;
    int dim = gogh_psi_dim(&n->psi);
    double *p = put(in, j1->psi, dim);
    p = put(p, k->psi, dim);
    p = put_accel(p, a1, n->naccel);
    p = put_accel(p, a2, n->naccel);
    const double *pairs[] = {est1, meas1, est2};
    for (int i = 0; i < 3; i++) {
        *p++ = pairs[i][0] / j1->ref;
        *p++ = pairs[i][1] / k->ref;
    }
    assert(p - in == gogh_p2_inputs(n));
}

void gogh_p2_estimate(const gogh_hist *h, int a1, int a2, const gogh_job *j1,
                      const gogh_job *k, const double *est1, const double *meas1,
                      const double *est2, double *out)
{
    double in[2 * GOGH_MAX_PSI + 2 * GOGH_MAX_ACCELS + 6], ratio[GOGH_NOUT];
    gogh_p2_input(h, a1, a2, j1, k, est1, meas1, est2, in);
    gogh_net_run(h->nets->p2, in, ratio);
    to_tput(ratio, j1, k, out);
}

/* ---- the rows of a split ---------------------------------------------------------- */

/* Appends t to ts when the table has it alone somewhere (else it has no
 * scale to report on). */
static void add_type(const gogh_hist *h, const gogh_jobtype *t, gogh_jobtype **ts, size_t *n,
                     size_t *cap)
{
    if (gogh_best_solo(h, t) <= 0)
        return;
    grow_array((void **)ts, cap, *n + 1, sizeof **ts);
    (*ts)[(*n)++] = *t;
}

gogh_jobtype *gogh_split_types(const gogh_hist *h, int s, size_t *n)
{
    const gogh_nets *nets = h->nets;
    gogh_jobtype *ts = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < nets->ntypes; i++)
        if (nets->split[i] == s)
            add_type(h, &nets->types[i], &ts, n, &cap);
    if (s == 2) {
        /* Another table's types the nets never saw are new: test them. */
        size_t nt = tput_catalog_job_types(h->tp);
        gogh_jobtype *all = xmalloc((nt + 1) * sizeof *all);
        nt = tput_jobtypes(h->ix, all, nt);
        for (size_t i = 0; i < nt; i++)
            if (all[i].scale == 1 && gogh_nets_type(nets, &all[i]) < 0)
                add_type(h, &all[i], &ts, n, &cap);
        free(all);
    }
    if (!ts)
        ts = xmalloc(sizeof *ts);
    return ts;
}

/* The co-located job m of the rows: -1 the empty job, else the m-th known. */
static void row_partner(const gogh_hist *h, int m, gogh_job *k)
{
    if (m < 0)
        gogh_job_empty(k);
    else
        gogh_job_known(h, &h->nets->types[h->train[m]], k);
}

void gogh_rows_p1(const gogh_hist *h, const gogh_jobtype *ts, size_t n, gogh_rows *r)
{
    assert(r->nin == gogh_p1_inputs(h->nets));
    for (size_t i = 0; i < n; i++) {
        double own = gogh_best_solo(h, &ts[i]);
        assert(own > 0);        /* gogh_split_types() keeps those only */
        gogh_job j1, k;
        gogh_job_new(h, &ts[i], &j1);
        for (int a = 0; a < h->nets->naccel; a++)
            for (int m = -1; m < (int)h->ntrain; m++) {
                row_partner(h, m, &k);
                double truth[2];
                gogh_p1_input(h, a, &j1, &k, rows_next(r));
                measured(h, a, j1.t, &k, truth);
                rows_target(r, &j1, &k, truth, own);
            }
    }
}

/* P2's rows of j1 (own: its best solo) with one co-located job k. */
static void rows_p2_pair(const gogh_hist *h, const gogh_job *j1, const gogh_job *k, double own,
                         gogh_rows *r)
{
    int na = h->nets->naccel;
    double est[GOGH_MAX_ACCELS][2], meas[GOGH_MAX_ACCELS][2];
    for (int a = 0; a < na; a++) {
        gogh_p1_estimate(h, a, j1, k, est[a]);
        measured(h, a, j1->t, k, meas[a]);
    }
    for (int a1 = 0; a1 < na; a1++)
        for (int a2 = 0; a2 < na; a2++)
            if (a1 != a2) {
                gogh_p2_input(h, a1, a2, j1, k, est[a1], meas[a1], est[a2], rows_next(r));
                rows_target(r, j1, k, meas[a2], own);
            }
}

void gogh_rows_p2(const gogh_hist *h, const gogh_jobtype *ts, size_t n, gogh_rows *r)
{
    assert(r->nin == gogh_p2_inputs(h->nets) && h->nets->p1);
    for (size_t i = 0; i < n; i++) {
        double own = gogh_best_solo(h, &ts[i]);
        assert(own > 0);
        gogh_job j1, k;
        gogh_job_new(h, &ts[i], &j1);
        for (int m = -1; m < (int)h->ntrain; m++) {
            row_partner(h, m, &k);
            rows_p2_pair(h, &j1, &k, own, r);
        }
    }
}
