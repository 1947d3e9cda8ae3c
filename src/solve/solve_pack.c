/*
 * solve_pack.c — the packing core's data, evaluation, its MILP and the
 * pipeline that CATS optimal and CorrGPU optimal both run (solve_int.h).
 *
 * The MILP is the representative ("leader") formulation.  Items are sorted
 * so that a bin's cost is that of its lowest-numbered item, its leader:
 *
 *   y[j,t]    = 1: item j leads a bin of class t (bin (j,t) is open)
 *   x[i,j,t]  = 1: item i > j is in the bin led by j
 *   s[k]      = servers of type k awake (integer)
 *
 *   min  sum lead_cost[t][j] * y[j,t] + sum server_cost[k] * s[k]
 *   assign   sum_{t, j<i} x[i,j,t] + sum_t y[i,t] = 1            every item
 *   memory   sum_i d_i x[i,j,t] <= (c_t - d_j) y[j,t]             every bin
 *   link     x[i,j,t] <= y[j,t]       (only where no clique row implies it)
 *   clique   sum_{i in Q} x[i,j,t] <= y[j,t]   Q pairwise unable to share
 *                                      bin (j,t): correlated, or their
 *                                      memory does not fit beside d_j
 *   supply   sum_j y[j,t] <= sum_k per_class[k][t] * s[k]     every class
 *   prefix   sum_{j<q, t} y[j,t] >= LB(items 0..q-1)          valid cuts
 *
 * Why it is exact: relabel any solution's bins by their lowest item; each
 * item is then either its bin's leader or a later member of one, and the
 * bin's cost is its leader's (costs do not increase along the order).  An
 * item i in bin (j,t) cannot conflict with j nor overflow c_t beside it, so
 * those variables are never created.
 *
 * Why it is fast: no GPU indices, so none of the k! relabellings of
 * identical GPUs the paper's model has; the frequency of CATS eq. 13–14
 * disappears into the leader's cost (no big-M); clique rows replace the
 * pairwise conflict rows of CorrGPU eq. 5 and are far tighter; the prefix
 * rows lift the LP bound to the memory/clique bounds of every prefix.
 *
 * Not here: heuristics and combinatorial bounds (solve_bounds.c), column
 * generation (solve_colgen.c), the papers' own models (solve_cats.c,
 * solve_corrgpu.c).
 */
#include "solve_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- instances and solutions ------------------------------------------ */

void pk_inst_init(pk_inst *p, int n, int nclass, int ntype)
{
    memset(p, 0, sizeof *p);
    size_t nn = (size_t)(n > 0 ? n : 1);
    p->n = n;
    p->size = xcalloc(nn, sizeof *p->size);
    p->rank = xcalloc(nn, sizeof *p->rank);
    p->task = xcalloc(nn, sizeof *p->task);
    p->words = (n + 63) / 64 > 0 ? (n + 63) / 64 : 1;
    p->conf = xcalloc(nn * (size_t)p->words, sizeof *p->conf);
    p->nclass = nclass;
    p->cls = xcalloc((size_t)nclass, sizeof *p->cls);
    for (int t = 0; t < nclass; t++)
        p->cls[t].lead_cost = xcalloc(nn, sizeof(double));
    p->ntype = ntype;
    p->type = ntype ? xcalloc((size_t)ntype, sizeof *p->type) : NULL;
    for (int k = 0; k < ntype; k++)
        p->type[k].per_class = xcalloc((size_t)nclass, sizeof(int));
}

void pk_inst_init_like(pk_inst *q, const pk_inst *p, int n, int ntype)
{
    pk_inst_init(q, n, p->nclass, ntype);
    if (p->size2)
        q->size2 = xcalloc((size_t)(n > 0 ? n : 1), sizeof *q->size2);
    for (int t = 0; t < p->nclass; t++) {
        q->cls[t].cap = p->cls[t].cap;
        q->cls[t].cap2 = p->cls[t].cap2;
    }
}

void pk_inst_free(pk_inst *p)
{
    free(p->size);
    free(p->size2);
    free(p->rank);
    free(p->task);
    free(p->conf);
    for (int t = 0; t < p->nclass; t++)
        free(p->cls[t].lead_cost);
    free(p->cls);
    for (int k = 0; k < p->ntype; k++)
        free(p->type[k].per_class);
    free(p->type);
    memset(p, 0, sizeof *p);
}

void pk_set_conflict(pk_inst *p, int i, int k)
{
    size_t w = (size_t)p->words;
    p->conf[(size_t)i * w + (size_t)(k >> 6)] |= 1ULL << (k & 63);
    p->conf[(size_t)k * w + (size_t)(i >> 6)] |= 1ULL << (i & 63);
}

int pk_allowed(const pk_inst *p, int i, int t)
{
    const pk_class *c = &p->cls[t];
    if (c->lead_cost[i] >= HUGE_VAL || p->size[i] > c->cap + SOLVE_EPS)
        return 0;
    return !(p->size2 && c->cap2 > 0 && p->size2[i] > c->cap2 + SOLVE_EPS);
}

void pk_sol_init(pk_sol *s, const pk_inst *p)
{
    size_t n = (size_t)(p->n > 0 ? p->n : 1);
    s->nbins = 0;
    s->bin_class = xcalloc(n, sizeof *s->bin_class);
    s->bin_of = xcalloc(n, sizeof *s->bin_of);
    s->servers = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof *s->servers);
    s->cost = HUGE_VAL;
}

void pk_sol_free(pk_sol *s)
{
    free(s->bin_class);
    free(s->bin_of);
    free(s->servers);
    memset(s, 0, sizeof *s);
}

void pk_sol_copy(pk_sol *dst, const pk_sol *src, const pk_inst *p)
{
    size_t n = (size_t)(p->n > 0 ? p->n : 1);
    dst->nbins = src->nbins;
    dst->cost = src->cost;
    memcpy(dst->bin_class, src->bin_class, n * sizeof *dst->bin_class);
    memcpy(dst->bin_of, src->bin_of, n * sizeof *dst->bin_of);
    if (p->ntype > 0)
        memcpy(dst->servers, src->servers, (size_t)p->ntype * sizeof *dst->servers);
}

/* ---- servers ------------------------------------------------------------ */

typedef struct srv_search {
    const pk_inst *p;
    int *need, *cur, *best;
    double best_cost;
    long nodes;
} srv_search;

static int need_met(const srv_search *q)
{
    for (int t = 0; t < q->p->nclass; t++)
        if (q->need[t] > 0)
            return 0;
    return 1;
}

static void srv_dfs(srv_search *q, int k, double cost)
{
    if (cost >= q->best_cost - SOLVE_EPS || ++q->nodes > 200000)
        return;
    if (need_met(q)) {
        q->best_cost = cost;
        memcpy(q->best, q->cur, (size_t)q->p->ntype * sizeof *q->best);
        return;
    }
    if (k == q->p->ntype)
        return;
    const pk_stype *st = &q->p->type[k];
    int useful = 0;
    for (int t = 0; t < q->p->nclass; t++)
        if (st->per_class[t] > 0 && q->need[t] > 0) {
            int s = (q->need[t] + st->per_class[t] - 1) / st->per_class[t];
            useful = s > useful ? s : useful;
        }
    if (useful > st->count)
        useful = st->count;
    for (int s = useful; s >= 0; s--) {
        for (int t = 0; t < q->p->nclass; t++)
            q->need[t] -= s * st->per_class[t];
        q->cur[k] = s;
        srv_dfs(q, k + 1, cost + s * st->cost);
        for (int t = 0; t < q->p->nclass; t++)
            q->need[t] += s * st->per_class[t];
    }
    q->cur[k] = 0;
}

double pk_server_cost(const pk_inst *p, const int *need, int *srv)
{
    if (p->ntype == 0)
        return 0;
    srv_search q = {p, xmalloc((size_t)p->nclass * sizeof(int)),
                    xcalloc((size_t)p->ntype, sizeof(int)),
                    xcalloc((size_t)p->ntype, sizeof(int)), HUGE_VAL, 0};
    memcpy(q.need, need, (size_t)p->nclass * sizeof(int));
    srv_dfs(&q, 0, 0);
    if (srv && q.best_cost < HUGE_VAL)
        memcpy(srv, q.best, (size_t)p->ntype * sizeof *srv);
    double c = q.best_cost;
    free(q.need);
    free(q.cur);
    free(q.best);
    return c;
}

/* ---- evaluation ---------------------------------------------------------- */

double pk_eval(const pk_inst *p, pk_sol *s)
{
    size_t w = (size_t)p->words;
    int nb = s->nbins;
    uint64_t *seen = xcalloc((size_t)(nb > 0 ? nb : 1) * w, sizeof *seen);
    double *used = xcalloc((size_t)(nb > 0 ? nb : 1), sizeof *used);
    double *used2 = xcalloc((size_t)(nb > 0 ? nb : 1), sizeof *used2);
    int *leader = xmalloc((size_t)(nb > 0 ? nb : 1) * sizeof *leader);
    int *need = xcalloc((size_t)p->nclass, sizeof *need);
    double cost = 0;
    for (int k = 0; k < nb; k++)
        leader[k] = -1;
    for (int i = 0; i < p->n && cost < HUGE_VAL; i++) {
        int k = s->bin_of[i];
        if (k < 0 || k >= nb || !pk_allowed(p, i, s->bin_class[k])) {
            cost = HUGE_VAL;
            break;
        }
        uint64_t *row = &seen[(size_t)k * w];
        if ((row[i >> 6] >> (i & 63)) & 1u)
            cost = HUGE_VAL;            /* conflicts with an earlier member */
        for (size_t q = 0; q < w; q++)
            row[q] |= p->conf[(size_t)i * w + q];
        used[k] += p->size[i];
        if (p->size2)
            used2[k] += p->size2[i];
        if (leader[k] < 0)
            leader[k] = i;
    }
    for (int k = 0; k < nb && cost < HUGE_VAL; k++) {
        if (leader[k] < 0)
            continue;                   /* an empty bin costs nothing */
        const pk_class *c = &p->cls[s->bin_class[k]];
        if (used[k] > c->cap + SOLVE_EPS || (p->size2 && c->cap2 > 0 && used2[k] > c->cap2 + SOLVE_EPS))
            cost = HUGE_VAL;
        else {
            cost += c->lead_cost[leader[k]];
            need[s->bin_class[k]]++;
        }
    }
    if (cost < HUGE_VAL)
        cost += pk_server_cost(p, need, s->servers);
    free(seen);
    free(used);
    free(used2);
    free(leader);
    free(need);
    s->cost = cost;
    return cost;
}

/* ---- the MILP ------------------------------------------------------------ */

/* Growing triplet list for glp_load_matrix (1-based). */
typedef struct trip {
    int *ia, *ja;
    double *ar;
    size_t n, cap;
} trip;

/* Entry 0 is unused: GLPK's arrays start at 1. */
static void trip_add(trip *m, int row, int col, double v)
{
    if (m->n == 0)
        m->n = 1;
    if (m->n + 1 > m->cap) {
        m->cap = m->cap ? m->cap * 2 : 4096;
        m->ia = xrealloc(m->ia, m->cap * sizeof *m->ia);
        m->ja = xrealloc(m->ja, m->cap * sizeof *m->ja);
        m->ar = xrealloc(m->ar, m->cap * sizeof *m->ar);
    }
    m->ia[m->n] = row;
    m->ja[m->n] = col;
    m->ar[m->n] = v;
    m->n++;
}

typedef struct pk_milp {
    glp_prob *P;
    const pk_inst *p;
    int *col;               /* [(t*n + j)*n + i]: column of x[i,j,t] (i == j: y[j,t]) */
    int *srv_col;           /* [ntype] */
    int nrows;
    int names;
    trip m;
} pk_milp;

static size_t cidx(const pk_inst *p, int t, int j, int i)
{
    return ((size_t)t * (size_t)p->n + (size_t)j) * (size_t)p->n + (size_t)i;
}

static int add_row(pk_milp *M, int type, double lo, double hi, const char *fmt, int a, int b,
                   int c)
{
    int r = glp_add_rows(M->P, 1);
    glp_set_row_bnds(M->P, r, type, lo, hi);
    if (M->names) {
        char name[64];
        snprintf(name, sizeof name, fmt, a, b, c);
        glp_set_row_name(M->P, r, name);
    }
    M->nrows = r;
    return r;
}

/* 1 when items i and k cannot both join bin (j,t). */
static int clash_in_bin(const pk_inst *p, int t, int j, int i, int k)
{
    const pk_class *c = &p->cls[t];
    if (pk_conflict(p, i, k))
        return 1;
    if (p->size[i] + p->size[k] > c->cap - p->size[j] + SOLVE_EPS)
        return 1;
    return p->size2 && c->cap2 > 0 &&
           p->size2[i] + p->size2[k] > c->cap2 - p->size2[j] + SOLVE_EPS;
}

/* Columns: y[j,t], x[i,j,t] for the members a bin (j,t) can have, s[k]. */
static void add_columns(pk_milp *M)
{
    const pk_inst *p = M->p;
    for (int t = 0; t < p->nclass; t++)
        for (int j = 0; j < p->n; j++) {
            if (!pk_allowed(p, j, t))
                continue;
            const pk_class *c = &p->cls[t];
            for (int i = j; i < p->n; i++) {
                if (i > j && (!pk_allowed(p, i, t) || pk_conflict(p, i, j) ||
                              p->size[i] + p->size[j] > c->cap + SOLVE_EPS ||
                              (p->size2 && c->cap2 > 0 &&
                               p->size2[i] + p->size2[j] > c->cap2 + SOLVE_EPS)))
                    continue;
                int col = glp_add_cols(M->P, 1);
                glp_set_col_kind(M->P, col, GLP_BV);
                if (i == j)
                    glp_set_obj_coef(M->P, col, c->lead_cost[j]);
                if (M->names) {
                    char name[48];
                    if (i == j)
                        snprintf(name, sizeof name, "y_%d_%d", j, t);
                    else
                        snprintf(name, sizeof name, "x_%d_%d_%d", i, j, t);
                    glp_set_col_name(M->P, col, name);
                }
                M->col[cidx(p, t, j, i)] = col;
            }
        }
    for (int k = 0; k < p->ntype; k++) {
        int col = glp_add_cols(M->P, 1);
        glp_set_col_kind(M->P, col, GLP_IV);
        glp_set_col_bnds(M->P, col, GLP_DB, 0, p->type[k].count);
        if (p->type[k].count == 0)
            glp_set_col_bnds(M->P, col, GLP_FX, 0, 0);
        glp_set_obj_coef(M->P, col, p->type[k].cost);
        if (M->names) {
            char name[32];
            snprintf(name, sizeof name, "s_%d", k);
            glp_set_col_name(M->P, col, name);
        }
        M->srv_col[k] = col;
    }
}

static void add_assign_rows(pk_milp *M)
{
    const pk_inst *p = M->p;
    for (int i = 0; i < p->n; i++) {
        int r = add_row(M, GLP_FX, 1, 1, "assign_%d", i, 0, 0);
        for (int t = 0; t < p->nclass; t++)
            for (int j = 0; j <= i; j++) {
                int col = M->col[cidx(p, t, j, i)];
                if (col)
                    trip_add(&M->m, r, col, 1);
            }
    }
}

/*
 * The rows of one bin (j,t): memory, clique rows covering every pair of
 * members that conflict (and as many memory-clashing pairs as the same
 * cliques catch), and links for members no clique row covers.  Cliques are
 * grown greedily from an uncovered conflicting pair, preferring members
 * with the most uncovered pairs.
 */
static void add_bin_rows(pk_milp *M, int t, int j, int *mem, uint64_t *adj, uint64_t *need,
                         unsigned char *covered)
{
    const pk_inst *p = M->p;
    const pk_class *c = &p->cls[t];
    int y = M->col[cidx(p, t, j, j)], m = 0;
    for (int i = j + 1; i < p->n; i++)
        if (M->col[cidx(p, t, j, i)])
            mem[m++] = i;
    if (m == 0)
        return;
    int r = add_row(M, GLP_UP, 0, 0, "cap_%d_%d", j, t, 0);
    for (int a = 0; a < m; a++)
        trip_add(&M->m, r, M->col[cidx(p, t, j, mem[a])], p->size[mem[a]]);
    trip_add(&M->m, r, y, -(c->cap - p->size[j]));
    if (p->size2 && c->cap2 > 0) {
        r = add_row(M, GLP_UP, 0, 0, "util_%d_%d", j, t, 0);
        for (int a = 0; a < m; a++)
            trip_add(&M->m, r, M->col[cidx(p, t, j, mem[a])], p->size2[mem[a]]);
        trip_add(&M->m, r, y, -(c->cap2 - p->size2[j]));
    }
    /* Local graph on member positions 0..m-1. */
    int w = (m + 63) / 64;
    memset(adj, 0, (size_t)m * (size_t)w * sizeof *adj);
    memset(need, 0, (size_t)m * (size_t)w * sizeof *need);
    memset(covered, 0, (size_t)m);
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            if (!clash_in_bin(p, t, j, mem[a], mem[b]))
                continue;
            adj[(size_t)a * w + (size_t)(b >> 6)] |= 1ULL << (b & 63);
            adj[(size_t)b * w + (size_t)(a >> 6)] |= 1ULL << (a & 63);
            if (pk_conflict(p, mem[a], mem[b])) {
                need[(size_t)a * w + (size_t)(b >> 6)] |= 1ULL << (b & 63);
                need[(size_t)b * w + (size_t)(a >> 6)] |= 1ULL << (a & 63);
            }
        }
    int *q = xmalloc((size_t)m * sizeof *q);
    uint64_t *cand = xmalloc((size_t)w * sizeof *cand);
    int nclq = 0;
    /* The members larger than half the room left beside the leader are
     * pairwise unable to share it: one row for all of them. */
    int big = 0;
    for (int a = 0; a < m; a++)
        if (p->size[mem[a]] > (c->cap - p->size[j]) / 2 + SOLVE_EPS)
            q[big++] = a;
    int first_pass = big >= 2;
    for (;;) {
        int k = 0;
        if (first_pass) {
            k = big;
            first_pass = 0;
        } else {
            /* the member with the most uncovered conflicting pairs */
            int u = -1, best = 0;
            for (int a = 0; a < m; a++) {
                int d = 0;
                for (int x = 0; x < w; x++)
                    d += __builtin_popcountll(need[(size_t)a * w + (size_t)x]);
                if (d > best) {
                    best = d;
                    u = a;
                }
            }
            if (u < 0)
                break;
            q[k++] = u;
            /* The second member is one of u's uncovered pairs, so every
             * row covers at least one more: the loop ends. */
            memcpy(cand, &need[(size_t)u * w], (size_t)w * sizeof *cand);
            for (int first = 1;; first = 0) {
                if (!first && k == 2)
                    for (int x = 0; x < w; x++)
                        cand[x] = adj[(size_t)u * w + (size_t)x] &
                                  adj[(size_t)q[1] * w + (size_t)x];
                int pick = -1, pick_score = -1;
                for (int a = 0; a < m; a++) {
                    if (!((cand[a >> 6] >> (a & 63)) & 1u))
                        continue;
                    int score = 0;
                    for (int b = 0; b < k; b++)
                        score += (int)((need[(size_t)a * w + (size_t)(q[b] >> 6)] >>
                                        (q[b] & 63)) & 1u) * 4;
                    for (int x = 0; x < w; x++)
                        score += __builtin_popcountll(adj[(size_t)a * w + (size_t)x] & cand[x]);
                    if (score > pick_score) {
                        pick_score = score;
                        pick = a;
                    }
                }
                if (pick < 0)
                    break;
                q[k++] = pick;
                for (int x = 0; x < w; x++)
                    cand[x] &= adj[(size_t)pick * w + (size_t)x];
            }
        }
        r = add_row(M, GLP_UP, 0, 0, "clq_%d_%d_%d", j, t, nclq++);
        for (int a = 0; a < k; a++) {
            trip_add(&M->m, r, M->col[cidx(p, t, j, mem[q[a]])], 1);
            covered[q[a]] = 1;
            for (int b = 0; b < k; b++)
                need[(size_t)q[a] * w + (size_t)(q[b] >> 6)] &= ~(1ULL << (q[b] & 63));
        }
        trip_add(&M->m, r, y, -1);
    }
    /* Links for members no clique row bounds by y (a member too large to
     * sit beside any other is bounded by the memory row already). */
    for (int a = 0; a < m; a++) {
        if (covered[a] || p->size[mem[a]] >= c->cap - p->size[j] - SOLVE_EPS)
            continue;
        r = add_row(M, GLP_UP, 0, 0, "link_%d_%d_%d", mem[a], j, t);
        trip_add(&M->m, r, M->col[cidx(p, t, j, mem[a])], 1);
        trip_add(&M->m, r, y, -1);
    }
    free(q);
    free(cand);
}

static void add_supply_rows(pk_milp *M)
{
    const pk_inst *p = M->p;
    for (int t = 0; t < p->nclass && p->ntype > 0; t++) {
        int r = add_row(M, GLP_UP, 0, 0, "supply_%d", t, 0, 0);
        for (int j = 0; j < p->n; j++)
            if (M->col[cidx(p, t, j, j)])
                trip_add(&M->m, r, M->col[cidx(p, t, j, j)], 1);
        for (int k = 0; k < p->ntype; k++)
            if (p->type[k].per_class[t] > 0)
                trip_add(&M->m, r, M->srv_col[k], -p->type[k].per_class[t]);
    }
}

/* sum_{j<q,t} y[j,t] >= LB(items 0..q-1) wherever that bound steps up: the
 * bins the first q items need are all led by some of them. */
static void add_prefix_rows(pk_milp *M)
{
    const pk_inst *p = M->p;
    int *clique = xmalloc((size_t)p->n * sizeof *clique);
    int k = pk_clique(p, clique), last = 1;
    for (int q = 2; q <= p->n; q++) {
        int lb = pk_count_lb(p, q, clique, k);
        if (lb <= last)
            continue;
        last = lb;
        int r = add_row(M, GLP_LO, lb, 0, "prefix_%d", q, 0, 0);
        for (int t = 0; t < p->nclass; t++)
            for (int j = 0; j < q; j++)
                if (M->col[cidx(p, t, j, j)])
                    trip_add(&M->m, r, M->col[cidx(p, t, j, j)], 1);
    }
    free(clique);
}

static void milp_free(pk_milp *M)
{
    if (M->P)
        glp_delete_prob(M->P);
    free(M->col);
    free(M->srv_col);
    free(M->m.ia);
    free(M->m.ja);
    free(M->m.ar);
    memset(M, 0, sizeof *M);
}

/* Builds the compact MILP.  Its bin rows take seconds at a thousand items,
 * so the build polls c (when not NULL) between leaders and gives up when
 * the solve is stopped: the cancel flag or the time limit; returns
 * SOLVE_CANCELLED / SOLVE_TIMEOUT then (M is to be freed), else -1. */
static int milp_build(pk_milp *M, const pk_inst *p, int names, const sg_ctx *c)
{
    memset(M, 0, sizeof *M);
    M->p = p;
    M->names = names;
    M->P = glp_create_prob();
    glp_set_prob_name(M->P, "gpuplan_pack");
    glp_set_obj_dir(M->P, GLP_MIN);
    M->col = xcalloc((size_t)p->nclass * (size_t)p->n * (size_t)p->n, sizeof *M->col);
    M->srv_col = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof *M->srv_col);
    add_columns(M);
    add_assign_rows(M);
    int w = (p->n + 63) / 64;
    int *mem = xmalloc((size_t)p->n * sizeof *mem);
    uint64_t *adj = xmalloc((size_t)p->n * (size_t)w * sizeof *adj);
    uint64_t *need = xmalloc((size_t)p->n * (size_t)w * sizeof *need);
    unsigned char *covered = xmalloc((size_t)p->n);
    int stop = -1;
    for (int t = 0; t < p->nclass && stop < 0; t++)
        for (int j = 0; j < p->n && stop < 0; j++) {
            if (M->col[cidx(p, t, j, j)])
                add_bin_rows(M, t, j, mem, adj, need, covered);
            if (c)
                stop = sg_should_stop(c);
        }
    free(mem);
    free(adj);
    free(need);
    free(covered);
    if (stop >= 0)
        return stop;
    add_supply_rows(M);
    add_prefix_rows(M);
    if (M->m.n > 1)
        glp_load_matrix(M->P, (int)M->m.n - 1, M->m.ia, M->m.ja, M->m.ar);
    return -1;
}

/* Column values of a solution, for the warm start (1-based). */
static double *milp_start(const pk_milp *M, const pk_sol *s)
{
    const pk_inst *p = M->p;
    double *x = xcalloc((size_t)glp_get_num_cols(M->P) + 1, sizeof *x);
    int *leader = xmalloc((size_t)p->n * sizeof *leader);
    for (int k = 0; k < p->n; k++)
        leader[k] = -1;
    for (int i = 0; i < p->n; i++)
        if (leader[s->bin_of[i]] < 0)
            leader[s->bin_of[i]] = i;
    for (int i = 0; i < p->n; i++) {
        int k = s->bin_of[i];
        int col = M->col[cidx(p, s->bin_class[k], leader[k], i)];
        if (!col) {     /* cannot happen for a feasible solution */
            free(x);
            free(leader);
            return NULL;
        }
        x[col] = 1;
    }
    for (int k = 0; k < p->ntype; k++)
        x[M->srv_col[k]] = s->servers[k];
    free(leader);
    return x;
}

static void milp_read(const pk_milp *M, pk_sol *s)
{
    const pk_inst *p = M->p;
    int *bin_of_leader = xmalloc((size_t)p->n * (size_t)p->nclass * sizeof(int));
    s->nbins = 0;
    for (int t = 0; t < p->nclass; t++)
        for (int j = 0; j < p->n; j++) {
            int col = M->col[cidx(p, t, j, j)];
            bin_of_leader[t * p->n + j] = -1;
            if (col && glp_mip_col_val(M->P, col) > 0.5) {
                bin_of_leader[t * p->n + j] = s->nbins;
                s->bin_class[s->nbins++] = t;
            }
        }
    for (int i = 0; i < p->n; i++)
        for (int t = 0; t < p->nclass; t++)
            for (int j = 0; j <= i; j++) {
                int col = M->col[cidx(p, t, j, i)];
                if (col && glp_mip_col_val(M->P, col) > 0.5)
                    s->bin_of[i] = bin_of_leader[t * p->n + j];
            }
    free(bin_of_leader);
    pk_eval(p, s);
}

/* ---- the pipeline ---------------------------------------------------------- */

int pk_closes(const pk_inst *p, double lb, double ub)
{
    if (!isfinite(ub))
        return 0;
    if (p->quantum > 0)
        return solve_quanta(lb, p->quantum) >= ub / p->quantum - SOLVE_LP_EPS;
    return lb >= ub - PK_REL_TOL * fabs(ub) - SOLVE_EPS;
}

int pk_gap_met(const pk_inst *p, const sg_ctx *c, double lb, double ub)
{
    if (pk_closes(p, lb, ub))
        return 1;
    if (c->o->mip_gap <= 0 || !isfinite(ub) || !isfinite(lb))
        return 0;
    double b = p->quantum > 0 ? p->quantum * solve_quanta(lb, p->quantum) : lb;
    return sg_gap(ub, b) <= c->o->mip_gap;
}

/* An item no class can hold makes the instance infeasible at once. */
static int some_item_homeless(const pk_inst *p)
{
    for (int i = 0; i < p->n; i++) {
        int ok = 0;
        for (int t = 0; t < p->nclass && !ok; t++)
            ok = pk_allowed(p, i, t);
        if (!ok)
            return 1;
    }
    return 0;
}

static double heuristic_budget(const pk_inst *p, const sg_ctx *c)
{
    double b = p->n <= 16 ? 0.002 : p->n <= 64 ? 0.02 : 0.1 + p->n / 1000.0;
    double left = sg_remaining(c);
    return b < left * 0.1 ? b : left * 0.1;
}

static void finish(solve_result *res, const pk_inst *p, double ub, double lb, int stop)
{
    res->objective = ub;
    res->has_solution = isfinite(ub);
    res->bound = p->quantum > 0 && isfinite(lb) ? p->quantum * solve_quanta(lb, p->quantum) : lb;
    if (res->has_solution && res->bound > ub)
        res->bound = ub;
    res->gap = res->has_solution ? sg_gap(ub, res->bound) : HUGE_VAL;
    if (res->has_solution && pk_closes(p, lb, ub)) {
        res->status = SOLVE_OPTIMAL;
        res->bound = ub;
        res->gap = 0;
    } else if (stop >= 0)
        res->status = stop == SOLVE_TIMEOUT && res->has_solution ? SOLVE_FEASIBLE : stop;
    else
        res->status = res->has_solution ? SOLVE_FEASIBLE : SOLVE_TIMEOUT;
}

static int run_milp(const pk_inst *p, sg_ctx *c, solve_result *res, pk_sol *best,
                    double *ub, double *lb, int *stop, int need_solve, gp_err *err)
{
    int names = c->o->write_lp || c->o->write_mps;
    pk_milp M;
    int built = milp_build(&M, p, names, need_solve ? c : NULL);
    if (built >= 0) {
        *stop = built;      /* stopped while building: nothing to write or solve */
        milp_free(&M);
        return 0;
    }
    res->rows = glp_get_num_rows(M.P);
    res->cols = glp_get_num_cols(M.P);
    if (sg_write(c, M.P, err)) {
        milp_free(&M);
        return -1;
    }
    if (!need_solve) {
        milp_free(&M);
        return 0;
    }
    sg_mip m = {0};
    m.start_x = isfinite(*ub) && !c->o->no_warm_start ? milp_start(&M, best) : NULL;
    m.known_lb = *lb;
    m.quantum = p->quantum;
    m.cuts = 0;
    int rc = sg_solve(c, M.P, &m, err);
    free((void *)m.start_x);
    if (rc) {
        milp_free(&M);
        return -1;
    }
    res->nodes = m.nodes;
    if (isfinite(m.lp_obj) && m.lp_obj > res->lp_bound)
        res->lp_bound = m.lp_obj;
    if (m.has_solution && m.obj < *ub - SOLVE_EPS) {
        pk_sol s;
        pk_sol_init(&s, p);
        milp_read(&M, &s);
        if (s.cost < *ub - SOLVE_EPS) {
            *ub = s.cost;
            pk_sol_copy(best, &s, p);
        }
        pk_sol_free(&s);
    }
    if (m.status == SOLVE_INFEASIBLE && !isfinite(*ub)) {
        *lb = HUGE_VAL;
        res->status = SOLVE_INFEASIBLE;
    } else if (m.status == SOLVE_OPTIMAL) {
        *lb = fmax(*lb, isfinite(*ub) ? *ub : m.bound);
    } else {
        *lb = fmax(*lb, m.bound);
        *stop = m.status;
    }
    milp_free(&M);
    return 0;
}

int pk_solve(const pk_inst *p, const pk_sol *start, sg_ctx *c, solve_result *res,
             pk_sol *best, gp_err *err)
{
    double ub = HUGE_VAL, lb = -HUGE_VAL;
    int stop = -1;
    strlcpy0(res->method, "heuristic", sizeof res->method);
    if (some_item_homeless(p)) {
        /* Still written when asked: the model shows the empty row. */
        res->status = SOLVE_INFEASIBLE;
        strlcpy0(res->method, "bounds", sizeof res->method);
        if (c->o->write_lp || c->o->write_mps)
            return run_milp(p, c, res, best, &ub, &lb, &stop, 0, err);
        return 0;
    }
    if (p->n == 0) {
        best->nbins = 0;
        ub = pk_eval(p, best);
        finish(res, p, ub, ub, -1);
        return 0;
    }
    ub = pk_heuristic(p, heuristic_budget(p, c), best);
    if (start) {
        pk_sol s;
        pk_sol_init(&s, p);
        pk_sol_copy(&s, start, p);
        if (pk_eval(p, &s) < ub) {
            ub = s.cost;
            pk_sol_copy(best, &s, p);
        }
        pk_sol_free(&s);
    }
    res->heur_objective = ub;
    if (!c->o->no_bounds) {
        lb = pk_lower_bound(p);
        if (!pk_gap_met(p, c, lb, ub) && sg_should_stop(c) < 0) {
            long nodes = 0;
            int complete = 0;
            double root = -HUGE_VAL;
            double bl = pk_bnp(p, c, best, &nodes, &complete, &root);
            ub = fmin(ub, best->cost);
            res->nodes = nodes;
            res->lp_bound = root;
            if (complete && !isfinite(ub)) {
                res->status = SOLVE_INFEASIBLE;
                strlcpy0(res->method, "branch-and-price", sizeof res->method);
                return c->o->write_lp || c->o->write_mps
                           ? run_milp(p, c, res, best, &ub, &lb, &stop, 0, err)
                           : 0;
            }
            lb = fmax(lb, bl);
            strlcpy0(res->method, nodes > 1 ? "branch-and-price" : "colgen",
                     sizeof res->method);
        } else
            strlcpy0(res->method, "bounds", sizeof res->method);
    }
    int need = !pk_gap_met(p, c, lb, ub) && sg_should_stop(c) < 0;
    if (need || c->o->write_lp || c->o->write_mps) {
        if (run_milp(p, c, res, best, &ub, &lb, &stop, need, err))
            return -1;
        if (res->status == SOLVE_INFEASIBLE)
            return 0;
        if (need)
            strlcpy0(res->method, c->o->no_bounds ? "milp" : "bnp+milp", sizeof res->method);
    }
    if (stop < 0 && !pk_closes(p, lb, ub))
        stop = sg_should_stop(c);
    finish(res, p, ub, lb, stop);
    return 0;
}
