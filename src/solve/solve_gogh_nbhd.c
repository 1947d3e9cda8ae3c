/*
 * solve_gogh_nbhd.c — the GOGH solver's large neighbourhood search (Shaw
 * 1998), a stage of solve_gogh.c's search between the restricted MILP and
 * the last branch and bound: a few job classes at a time are freed — a
 * pivot, the classes related to it by the root LP's reduced costs (pairs
 * the LP likes), and the best solution's partners of those — and the model
 * is solved exactly over them as a small GLPK problem of its own, every
 * other GPU held as the best solution has it (the held GPUs taken out of
 * the rows).  Each neighbourhood's solution is checked against the whole
 * model and kept when it is better, so nothing proven changes: the bound
 * is the other stages' business.
 *
 * Why: on 128 random jobs, half of them on up to two GPUs, the gap left
 * at the time limit was the best solution's, not the bound's.  The dive
 * and the restricted MILP stop 3-5 % above the optimum (the exchanges
 * between GPUs move only jobs with D_j = 1), and branch and bound over
 * every column never improved on them within 60 s: its LP pairs the jobs
 * fractionally at every node (GLPK's root cuts raise the bound by 0.8 %,
 * its tree by 0.02 % more).  On seed 0 the dive's 12,162 W stood against
 * a bound of about 11,610 W; the neighbourhoods bring it to about
 * 11,704 W in some 30 s.  Where the restricted MILP found the optimum
 * already the search stops after a few neighbourhoods without a better
 * solution, at a fraction of a second.
 *
 * Not here: the model, its bound and the other stages (solve_gogh.c).
 */
#include "solve_gogh_int.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LNS_CLASSES 8       /* classes freed around a pivot, before partners */
#define LNS_SHARE 0.5       /* of the time left when the search begins */
#define LNS_STEP_S 1.0      /* at most this long per neighbourhood */
#define LNS_MOST 24         /* classes freed around a pivot at the most */
#define LNS_STALL 16        /* neighbourhoods in a row without a better solution */

/* How related two classes are: the least reduced cost, at the root LP, of
 * a combination pairing them (0 for the pairs the LP runs, HUGE_VAL when
 * none may share a GPU); dense, C x C.  Re-solving related classes
 * together is what can re-pair them (Shaw's relatedness). */
static double *relatedness(const gsolve *s, const double *rc)
{
    size_t C = (size_t)s->g.n;
    double *rel = xmalloc((C * C + 1) * sizeof *rel);
    for (size_t k = 0; k < C * C; k++)
        rel[k] = HUGE_VAL;
    for (size_t q = 0; q < s->nc; q++) {
        const combo *c = &s->c[q];
        if (c->c2 < 0 || c->c2 == c->c1 || c->ub <= 0)
            continue;
        size_t uv = (size_t)c->c1 * C + (size_t)c->c2, vu = (size_t)c->c2 * C + (size_t)c->c1;
        rel[uv] = rel[vu] = fmin(rel[uv], fmax(rc[q], 0));
    }
    return rel;
}

/* The unchosen class most related to u, one of the three most at random;
 * -1 when none pairs with u. */
static int related_to(const gsolve *s, const double *rel, int u, const unsigned char *in, rng *r)
{
    int C = s->g.n, top[3] = {-1, -1, -1};
    for (int v = 0; v < C; v++) {
        double d = rel[(size_t)u * (size_t)C + (size_t)v];
        if (in[v] || !isfinite(d))
            continue;
        for (int t = 0; t < 3; t++)
            if (top[t] < 0 || d < rel[(size_t)u * (size_t)C + (size_t)top[t]]) {
                for (int m = 2; m > t; m--)
                    top[m] = top[m - 1];
                top[t] = v;
                break;
            }
    }
    int found = (top[0] >= 0) + (top[1] >= 0) + (top[2] >= 0);
    return found ? top[rng_below(r, (uint64_t)found)] : -1;
}

/* Neighbourhood `it`: the pivot, then, up to `want`, a class most related
 * to a member drawn at random (the next of `order` when that member pairs
 * with none left); then every class sharing a GPU with one of those in x.
 * in[c] = 1 for its classes.  Draws from a stream of its own per `it`, so
 * the neighbourhoods do not depend on the machine. */
static void pick_classes(const gsolve *s, const double *rel, const int *order, int pivot,
                         int it, int want, const double *x, unsigned char *in)
{
    int C = s->g.n, n = 0;
    int *chosen = xmalloc((size_t)C * sizeof *chosen);
    rng r;
    rng_seed_stream(&r, 20240603, (uint64_t)it);
    memset(in, 0, (size_t)C);
    in[order[pivot]] = 1;
    chosen[n++] = order[pivot];
    for (int next = 1; n < want && next < C;) {
        int v = related_to(s, rel, chosen[rng_below(&r, (uint64_t)n)], in, &r);
        while (v < 0 && next < C) {
            v = order[(pivot + next++) % C];
            v = in[v] ? -1 : v;
        }
        if (v >= 0) {
            in[v] = 1;
            chosen[n++] = v;
        }
    }
    for (size_t q = 0; q < s->nc; q++) {
        const combo *c = &s->c[q];
        if (x[q] > 0.5 && c->c2 >= 0 && (in[c->c1] == 1 || in[c->c2] == 1)) {
            in[c->c1] += in[c->c1] == 0 ? 2 : 0;    /* 2: a partner, not grown from */
            in[c->c2] += in[c->c2] == 0 ? 2 : 0;
        }
    }
    for (int c = 0; c < C; c++)
        in[c] = in[c] != 0;
    free(chosen);
}

static int inside(const unsigned char *in, const combo *q)
{
    return in[q->c1] && (q->c2 < 0 || in[q->c2]);
}

/* The neighbourhood as a problem of its own: its combinations as the
 * columns (cols[k] is column k + 1), each row of the model less what the
 * held GPUs of x put in it, rows none of its columns touch left free.
 * GLPK then works on a few hundred columns instead of every one held at
 * a value. */
static glp_prob *neighbourhood_prob(const gsolve *s, const unsigned char *in, const double *x,
                                    const size_t *cols, size_t n)
{
    int rows = glp_get_num_rows(s->P);
    double *held = xcalloc((size_t)rows + 1, sizeof *held);
    unsigned char *touched = xcalloc((size_t)rows + 1, 1);
    int *ind = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *ind);
    double *val = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *val);
    for (size_t q = 0; q < s->nc; q++) {
        if (inside(in, &s->c[q]) || x[q] < 0.5)
            continue;
        int len = gogh_column_coefs(s, &s->c[q], ind, val);
        for (int k = 1; k <= len; k++)
            held[ind[k]] += val[k] * x[q];
    }
    glp_prob *Q = glp_create_prob();
    glp_set_obj_dir(Q, GLP_MIN);
    glp_add_rows(Q, rows);
    glp_add_cols(Q, (int)n);
    for (size_t k = 0; k < n; k++) {
        const combo *cq = &s->c[cols[k]];
        int col = (int)k + 1, len = gogh_column_coefs(s, cq, ind, val);
        for (int e = 1; e <= len; e++)
            touched[ind[e]] = 1;
        glp_set_col_kind(Q, col, GLP_IV);
        glp_set_col_bnds(Q, col, GLP_DB, 0, cq->ub);
        glp_set_obj_coef(Q, col, cq->cost);
        glp_set_mat_col(Q, col, len, ind, val);
    }
    for (int i = 1; i <= rows; i++) {
        int type = touched[i] ? glp_get_row_type(s->P, i) : GLP_FR;
        double lo = glp_get_row_lb(s->P, i) - held[i], hi = glp_get_row_ub(s->P, i) - held[i];
        if (type == GLP_DB && lo >= hi)
            type = GLP_FX;
        glp_set_row_bnds(Q, i, type, lo, type == GLP_FX ? lo : hi);
    }
    free(ind);
    free(val);
    free(touched);
    free(held);
    return Q;
}

/* Branch and bound over the combinations inside the neighbourhood, every
 * other GPU held as x has it, within `seconds`, without GLPK's cuts (the
 * neighbourhoods are small); improves x / *ub.  -1 on a GLPK failure. */
static int solve_neighbourhood(gsolve *s, sg_ctx *c, const unsigned char *in, double seconds,
                               double **x, double *ub, sg_mip *m, gp_err *err)
{
    memset(m, 0, sizeof *m);
    size_t *cols = xmalloc((s->nc + 1) * sizeof *cols), n = 0;
    for (size_t q = 0; q < s->nc; q++)
        if (s->c[q].ub > 0 && inside(in, &s->c[q]))
            cols[n++] = q;
    glp_prob *Q = neighbourhood_prob(s, in, *x, cols, n);
    double *start = xcalloc(n + 1, sizeof *start);
    for (size_t k = 0; k < n; k++)
        start[k + 1] = (*x)[cols[k]];
    solve_opts sub;
    gogh_stage_opts(c, seconds, 0, &sub);
    sg_ctx sc = *c;
    sc.o = &sub;
    m->start_x = start;
    m->known_lb = -HUGE_VAL;
    m->quantum = s->quantum;    /* its columns' costs are eq. 2a's */
    int rc = sg_solve(&sc, Q, m, err);
    c->work = sc.work;
    if (rc == 0 && m->has_solution) {
        double *y = xmalloc((s->nc + 1) * sizeof *y);
        memcpy(y, *x, (s->nc + 1) * sizeof *y);
        for (size_t k = 0; k < n; k++)
            y[cols[k]] = round(glp_mip_col_val(Q, (int)k + 1));
        gogh_offer_solution(s, y, x, ub);
    }
    glp_delete_prob(Q);
    free(start);
    free(cols);
    return rc ? -1 : 0;
}

/* Neighbourhoods around every class in turn (a fixed shuffle, so the same
 * instance gives the same sequence), within LNS_SHARE of the time left,
 * until LNS_STALL in a row bring nothing (when the restricted MILP found
 * the optimum already, as it mostly does up to 64 jobs, the search costs
 * a fraction of a second) or the gap asked for is met; a neighbourhood
 * solved to its optimum makes the next one larger (up to half the
 * classes: the whole model is the last stage's, with reduced-cost
 * fixing), one stopped by its time smaller.  -1 on a GLPK failure. */
int gogh_neighbourhood_search(gsolve *s, sg_ctx *c, const double *rc, double lb, double **x,
                              double *ub, gp_err *err)
{
    int C = s->g.n;
    if (!*x || C < 3)
        return 0;
    double until = sg_elapsed(c) + LNS_SHARE * sg_remaining(c);
    double *rel = relatedness(s, rc);
    int *order = xmalloc((size_t)C * sizeof *order);
    unsigned char *in = xmalloc((size_t)C);
    for (int k = 0; k < C; k++)
        order[k] = k;
    rng r;
    rng_seed(&r, 20240603);
    rng_shuffle(&r, order, (size_t)C, sizeof *order);
    int most = imax(3, imin(LNS_MOST, C / 2));  /* the whole model is the last stage's */
    int want = imin(LNS_CLASSES, most), failed = 0;
    for (int it = 0, idle = 0; idle < imin(C, LNS_STALL); it++) {
        if (sg_should_stop(c) >= 0 || sg_elapsed(c) >= until || gogh_gap_closed(c->o, *ub, lb))
            break;
        pick_classes(s, rel, order, it % C, it, want, *x, in);
        double before = *ub;
        sg_mip m;
        failed = solve_neighbourhood(s, c, in, fmin(LNS_STEP_S, until - sg_elapsed(c)), x, ub,
                                     &m, err);
        if (failed)
            break;
        if (*ub < before - SOLVE_EPS * (1 + fabs(before))) {
            idle = 0;
            gogh_local_search(s, c, x, ub);
        } else {
            idle++;
        }
        want = m.status == SOLVE_OPTIMAL ? imin(want + 1, most) : imax(want - 1, 3);
    }
    free(in);
    free(order);
    free(rel);
    return failed ? -1 : 0;
}

