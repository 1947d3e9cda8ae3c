/*
 * power_fit.c — least squares of CATS §2.1.1 eq. 1 (with an optional
 * utilization term) on monitor readings, bounded below by 0.  See
 * power_fit.h for the model.
 *
 * Bounds: with 2 or 3 parameters, every subset of them held at 0 is
 * solved by its normal equations and the feasible solution of least
 * squared error kept.  The problem is a convex quadratic over the
 * non-negative orthant, so its optimum is the unconstrained optimum on its
 * own support; trying all 2^k supports finds it exactly, with no
 * iteration and no tolerance to tune.
 */
#include "power_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A matrix whose smallest pivot, once scaled to unit diagonal, is below
 * this holds two parameters the readings cannot tell apart. */
#define PF_SINGULAR 1e-9

void pf_set_free(pf_set *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

static void set_add(pf_set *s, const pf_reading *r)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = *r;
}

/* 1 when a placement row of sn holds device gpu of node. */
static int device_held(const snapshot *sn, int node_idx, int gpu)
{
    for (size_t i = 0; i < sn->nrows; i++)
        if (sn->rows[i].node == node_idx && sn->rows[i].gpu == gpu)
            return 1;
    return 0;
}

size_t power_fit_collect(const snapshot *sn, const cluster *cl, const char *gpu_model,
                         pf_set *out)
{
    size_t added = 0;
    for (size_t i = 0; i < sn->nreadings; i++) {
        const gpu_reading *g = &sn->readings[i];
        if (g->node < 0 || (size_t)g->node >= cl->nnodes ||
            strcmp(cl->nodes[g->node].gpu_model, gpu_model) != 0)
            continue;
        if (!isfinite(g->power_w) || g->power_w <= 0) {
            out->no_power++;
            continue;
        }
        if (!isfinite(g->util_pct)) {
            out->no_util++;
            continue;
        }
        pf_reading r = {g->power_w, 0, g->util_pct / 100.0, 0};
        r.active = g->util_pct > 0 || device_held(sn, g->node, g->gpu);
        if (r.active && !(isfinite(g->clock_mhz) && g->clock_mhz > 0)) {
            out->no_clock++;
            continue;
        }
        if (r.active)
            r.clock_mhz = g->clock_mhz;
        set_add(out, &r);
        added++;
    }
    return added;
}

pf_params pf_params_of(const gpu_profile *g)
{
    pf_params m = {{g->idle_w, g->alpha_w_per_mhz, 0}};
    return m;
}

static void features(const pf_reading *r, double x[PF_NPARAM])
{
    x[PF_IDLE] = 1;
    x[PF_ALPHA] = r->active ? r->clock_mhz : 0;
    x[PF_UTIL] = r->util;
}

double power_fit_predict(const pf_params *m, const pf_reading *r)
{
    double x[PF_NPARAM], p = 0;
    features(r, x);
    for (int j = 0; j < PF_NPARAM; j++)
        p += m->p[j] * x[j];
    return p;
}

void power_fit_error(const pf_params *m, const pf_reading *r, size_t n, pf_error *out)
{
    double ape = 0, se = 0, worst = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(r[i].power_w - power_fit_predict(m, &r[i]));
        ape += e / r[i].power_w;
        se += e * e;
        if (e > worst)
            worst = e;
    }
    out->n = n;
    out->mape_pct = n ? 100 * ape / (double)n : NAN;
    out->max_abs_w = n ? worst : NAN;
    out->rmse_w = n ? sqrt(se / (double)n) : NAN;
}

const char *power_fit_param_name(int i)
{
    static const char *const names[PF_NPARAM] = {"idle_w", "alpha_w_per_mhz", "util_w"};
    return i >= 0 && i < PF_NPARAM ? names[i] : "?";
}

/* The normal equations X'X a = X'y over the first k features. */
static void normal_eq(const pf_reading *r, size_t n, int k, double A[PF_NPARAM][PF_NPARAM],
                      double b[PF_NPARAM])
{
    memset(A, 0, sizeof(double) * PF_NPARAM * PF_NPARAM);
    memset(b, 0, sizeof(double) * PF_NPARAM);
    for (size_t i = 0; i < n; i++) {
        double x[PF_NPARAM];
        features(&r[i], x);
        for (int p = 0; p < k; p++) {
            b[p] += x[p] * r[i].power_w;
            for (int q = 0; q < k; q++)
                A[p][q] += x[p] * x[q];
        }
    }
}

/* Solves the system of the parameters in idx[0..m) by Gaussian
 * elimination with partial pivoting, on the matrix scaled to unit
 * diagonal (so the pivot test does not depend on watts against MHz).
 * -1 when singular. */
static int solve_sub(double A[PF_NPARAM][PF_NPARAM], const double b[PF_NPARAM],
                     const int *idx, int m, double *sol)
{
    double M[PF_NPARAM][PF_NPARAM + 1], s[PF_NPARAM];
    for (int p = 0; p < m; p++) {
        double d = A[idx[p]][idx[p]];
        if (!(d > 0))
            return -1;
        s[p] = 1 / sqrt(d);
    }
    for (int p = 0; p < m; p++) {
        for (int q = 0; q < m; q++)
            M[p][q] = A[idx[p]][idx[q]] * s[p] * s[q];
        M[p][m] = b[idx[p]] * s[p];
    }
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int p = c + 1; p < m; p++)
            if (fabs(M[p][c]) > fabs(M[piv][c]))
                piv = p;
        if (fabs(M[piv][c]) < PF_SINGULAR)
            return -1;
        for (int q = 0; q <= m; q++) {
            double t = M[c][q];
            M[c][q] = M[piv][q];
            M[piv][q] = t;
        }
        for (int p = c + 1; p < m; p++) {
            double f = M[p][c] / M[c][c];
            for (int q = c; q <= m; q++)
                M[p][q] -= f * M[c][q];
        }
    }
    for (int c = m - 1; c >= 0; c--) {
        double v = M[c][m];
        for (int q = c + 1; q < m; q++)
            v -= M[c][q] * sol[q];
        sol[c] = v / M[c][c];
    }
    for (int p = 0; p < m; p++)
        sol[p] *= s[p];
    return 0;
}

static double sse(const pf_params *m, const pf_reading *r, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double e = r[i].power_w - power_fit_predict(m, &r[i]);
        s += e * e;
    }
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How many distinct values v[0..n) holds (sorts it). */
static size_t distinct(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1])
            d++;
    return d;
}

typedef struct pf_spread {
    size_t n, idle, active, clocks, utils;
    double clock_lo, clock_hi, util_lo, util_hi;
} pf_spread;

static void spread(const pf_reading *r, size_t n, pf_spread *s)
{
    double *c = xcalloc(n + 1, sizeof *c), *u = xcalloc(n + 1, sizeof *u);
    memset(s, 0, sizeof *s);
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        u[i] = r[i].util;
        if (r[i].active)
            c[s->active++] = r[i].clock_mhz;
    }
    s->idle = n - s->active;
    s->clocks = distinct(c, s->active);
    s->utils = distinct(u, n);
    s->clock_lo = s->active ? c[0] : NAN;
    s->clock_hi = s->active ? c[s->active - 1] : NAN;
    s->util_lo = n ? 100 * u[0] : NAN;
    s->util_hi = n ? 100 * u[n - 1] : NAN;
    free(c);
    free(u);
}

/* "N readings: I idle, A active at C clock(s) (lo-hi MHz), utilization
 * at U value(s) (lo-hi %)". */
static void describe(const pf_spread *s, char *buf, size_t len)
{
    int w = snprintf(buf, len, "%zu reading(s): %zu idle, %zu active", s->n, s->idle,
                     s->active);
    if (w < 0 || (size_t)w >= len)
        return;
    if (s->active)
        w += snprintf(buf + w, len - (size_t)w, " at %zu clock(s) (%g-%g MHz)", s->clocks,
                      s->clock_lo, s->clock_hi);
    if (w < 0 || (size_t)w >= len)
        return;
    if (s->n)
        snprintf(buf + w, len - (size_t)w, ", utilization at %zu value(s) (%g-%g %%)",
                 s->utils, s->util_lo, s->util_hi);
}

/* Why the readings cannot give the k parameters, or NULL when they can. */
static const char *degenerate(const pf_spread *s, int k, double A[PF_NPARAM][PF_NPARAM],
                              const double b[PF_NPARAM])
{
    static const int all[PF_NPARAM] = {PF_IDLE, PF_ALPHA, PF_UTIL};
    double sol[PF_NPARAM];
    if (s->n <= (size_t)k)
        return k == 2 ? "too few readings: more than 2 are needed for 2 parameters"
                      : "too few readings: more than 3 are needed for 3 parameters";
    if (s->active == 0)
        return "no GPU is active, so watts per MHz cannot be fitted";
    if (s->clocks == 1 && s->idle == 0)
        return "every GPU is active at one clock and none is idle, so idle watts and "
               "watts per MHz cannot be told apart (readings at another clock, or of an "
               "idle GPU, are needed)";
    if (k == 3 && s->utils == 1)
        return "every reading is at one utilization, so the utilization slope cannot be "
               "fitted";
    if (solve_sub(A, b, all, k, sol))
        return k == 2 ? "clock and idle draw vary together, so idle watts and watts per "
                        "MHz cannot be told apart"
                      : "clock and utilization vary together, so watts per MHz and the "
                        "utilization slope cannot be told apart";
    return NULL;
}

/* Least squares with every parameter >= 0: the best feasible support. */
static void fit_bounded(const pf_reading *r, size_t n, int k, double A[PF_NPARAM][PF_NPARAM],
                        const double b[PF_NPARAM], pf_fit *out)
{
    double best = INFINITY;
    for (unsigned mask = 0; mask < (1u << k); mask++) {
        int idx[PF_NPARAM], m = 0;
        double sol[PF_NPARAM];
        for (int j = 0; j < k; j++)
            if (mask & (1u << j))
                idx[m++] = j;
        if (m && solve_sub(A, b, idx, m, sol))
            continue;
        pf_params cand = {{0, 0, 0}};
        int ok = 1;
        for (int p = 0; p < m; p++) {
            ok &= sol[p] >= 0;
            cand.p[idx[p]] = sol[p];
        }
        double e = ok ? sse(&cand, r, n) : INFINITY;
        if (e < best) {
            best = e;
            out->m = cand;
            for (int j = 0; j < PF_NPARAM; j++)
                out->at_bound[j] = j < k && !(mask & (1u << j));
        }
    }
}

int power_fit(const pf_reading *r, size_t n, int with_util, pf_fit *out, gp_err *err)
{
    int k = with_util ? 3 : 2;
    double A[PF_NPARAM][PF_NPARAM], b[PF_NPARAM];
    pf_spread s;
    char desc[256];
    memset(out, 0, sizeof *out);
    out->nparam = k;
    spread(r, n, &s);
    describe(&s, desc, sizeof desc);
    normal_eq(r, n, k, A, b);
    const char *why = degenerate(&s, k, A, b);
    if (why)
        return gp_error(err, "cannot fit: %s; %s", why, desc);
    fit_bounded(r, n, k, A, b, out);
    return 0;
}
