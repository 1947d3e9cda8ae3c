/*
 * solve_bnp.c — branch and price for the packing core: what proves the
 * optimum when neither the combinatorial bounds nor the root column
 * generation bound meet the best packing (solve_int.h).
 *
 * A node is the root instance with decisions on it:
 *   same(i,k)   items i and k share a bin: they become one item (sizes
 *               added, conflicts joined, the lower index leads);
 *   apart(i,k)  they may not: a conflict edge, which pricing respects as it
 *               respects correlation conflicts;
 *   class(i,t)  item i is (or is not) in a bin of class t;
 *   servers     bounds on the count of awake servers of a type.
 *   prefix(q)   N_q, the number of bins led by items below q, is at most
 *               k or at least k + 1: with costs set by the leader (CATS:
 *               the clock of a GPU is its most demanding task's) this is
 *               what decides the cost, and it is branched on first.
 *               (Branching on single leaders was tried and dropped:
 *               neighbouring items cost nearly the same, so forbidding one
 *               moves the LP to the next and the bound hardly changes.)
 *               In the top STRONG_DEPTH levels the prefix is chosen by
 *               strong branching: the best-ranked candidates' children
 *               are solved and the best weaker bound wins, so the tree no
 *               longer depends on which optimal LP vertex GLPK returned;
 *               what those trials gain ranks the candidates (pseudo-costs)
 *               there and decides alone deeper down.  A trial starts from
 *               a copy of the node's master with the new bound (the dual
 *               simplex from the node's basis), and the two children of
 *               the winner keep their solved masters to continue from.
 * Each decision only restricts the root problem, and each branching pair
 * splits it into two parts that together keep every solution (Ryan and
 * Foster 1981: in a fractional set-partitioning LP solution some pair of
 * items is together with a fractional weight), so the tree is exact.
 *
 * At every node the master LP is solved by column generation
 * (solve_colgen.c), seeded with every column generated so far that is valid
 * there; its bound prunes the node when it reaches the best packing.  The
 * LP solution is rounded into a packing (largest columns first, the rest by
 * first fit).  At the root the integer master over all generated columns is
 * tried as well (price and branch).  Nodes are explored depth first, the
 * "together" child first, which reaches packings quickly; before that, a
 * dive from the root LP (fix the column of largest weight, re-solve,
 * repeat, with a little backtracking) usually finds the packing that meets
 * the root bound, which for CorrGPU ends the search at the root.  With
 * costs set by the leader (CATS) a dive also starts from every fifth node
 * below the root, where the prefix decisions steer it to cheaper packings,
 * and the root's packing is repacked a few GPUs at a time (solve_lns.c).
 * With solve_opts.threads = 2 these searches for packings (the root's
 * integer master, dive and repacking; the dives below it) run in a second
 * thread beside the tree (none changes a bound), on copies, and the tree
 * takes their packings at fixed nodes.
 *
 * Not here: the LP itself (solve_colgen.c), heuristics (solve_bounds.c).
 */
#include "solve_int.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAM_EPS 1e-6

#define PLUNGE_DEPTH 8          /* children explored in a row before the best bound again */
/* Repacking at the root (solve_lns.c) runs on work, not time: at most
 * this share of what is left under a work limit, and under a time limit
 * this many nominal seconds of work per second left — its small problems
 * run about seven times faster than SOLVE_WORK_S_PER_ITER assumes (14
 * nominal seconds took 2 s on the first 256 pai-like tasks), so at most
 * about half the time left; it usually ends sooner, when it stalls (4-5 s
 * of 47 there). */
#define LNS_SHARE_WORK 0.3
#define LNS_SHARE_TIME 4.0
/* Beside the tree, the root's search for packings is taken at this node
 * (the first nodes' bounds are far below any packing: they prune nothing
 * either way). */
#define ROOT_JOIN_NODE 40
#define NODE_DIVE_EVERY 5       /* nodes between dives below the root */
#define NODE_DIVE_SHARE 0.02    /* of the time left, at most, per such dive */
#define DIVE_MIN_GAP 1e-3  /* CATS: dive from the root when the gap is above this */

/* ---- decisions ----------------------------------------------------------- */

enum {
    D_SAME, D_APART, D_CLASS_IN, D_CLASS_OUT, D_SRV_HI, D_SRV_LO, D_PFX_GE, D_PFX_LE
};

typedef struct decision {
    int kind;
    int a, b;               /* items; or item and class; or type and count */
} decision;

struct pool;

typedef struct bp_node {
    decision *d;
    int nd;
    double lb;              /* the parent's bound: valid for this node */
    struct pool *seed;      /* columns to start its master with (shared) */
    cg *master;             /* its master solved by strong branching (owned), or NULL */
} bp_node;

/* ---- the node's instance ------------------------------------------------- */

typedef struct node_inst {
    pk_inst q;              /* items are groups of root items */
    int *group;             /* [n0] root item -> group */
    int *gsize;             /* [ng] members */
    int *gstart, *gmem;     /* members of group g: gmem[gstart[g] .. gstart[g+1]) */
    int *slo, *shi;
    int *pfx_lo, *pfx_hi;   /* [n0 + 1] bounds on N_q */
    int infeasible;
} node_inst;

static int uf_find(int *par, int i)
{
    while (par[i] != i) {
        par[i] = par[par[i]];
        i = par[i];
    }
    return i;
}

/* Groups from the "same" decisions, numbered by their lowest member. */
static int make_groups(const pk_inst *p, const bp_node *nd, int *group)
{
    int *par = xmalloc((size_t)p->n * sizeof *par);
    for (int i = 0; i < p->n; i++)
        par[i] = i;
    for (int k = 0; k < nd->nd; k++)
        if (nd->d[k].kind == D_SAME) {
            int x = uf_find(par, nd->d[k].a), y = uf_find(par, nd->d[k].b);
            if (x != y)
                par[x > y ? x : y] = x < y ? x : y;     /* root = lowest member */
        }
    int ng = 0;
    for (int i = 0; i < p->n; i++) {
        int r = uf_find(par, i);
        group[i] = r == i ? ng++ : group[r];
    }
    free(par);
    return ng;
}

static int class_banned(const bp_node *nd, int i, int t)
{
    for (int k = 0; k < nd->nd; k++) {
        const decision *d = &nd->d[k];
        if (d->kind == D_CLASS_OUT && d->a == i && d->b == t)
            return 1;
        if (d->kind == D_CLASS_IN && d->a == i && d->b != t)
            return 1;
    }
    return 0;
}

static void node_conflicts(const pk_inst *p, const bp_node *nd, node_inst *ni, int ng)
{
    size_t w0 = (size_t)p->words;
    uint64_t *row = xcalloc((size_t)ng * w0, sizeof *row);    /* root items a group clashes with */
    for (int i = 0; i < p->n; i++)
        for (size_t x = 0; x < w0; x++)
            row[(size_t)ni->group[i] * w0 + x] |= p->conf[(size_t)i * w0 + x];
    for (int k = 0; k < nd->nd; k++) {
        int a = nd->d[k].a, b = nd->d[k].b;
        if (nd->d[k].kind == D_APART) {
            row[(size_t)ni->group[a] * w0 + (size_t)(b >> 6)] |= 1ULL << (b & 63);
            row[(size_t)ni->group[b] * w0 + (size_t)(a >> 6)] |= 1ULL << (a & 63);
        }
    }
    for (int i = 0; i < p->n; i++) {
        int gi = ni->group[i];
        for (int k = 0; k < p->n; k++) {
            if (!((row[(size_t)gi * w0 + (size_t)(k >> 6)] >> (k & 63)) & 1u))
                continue;
            int gk = ni->group[k];
            if (gk == gi)
                ni->infeasible = 1;     /* a group that clashes with itself */
            else if (!pk_conflict(&ni->q, gi, gk))
                pk_set_conflict(&ni->q, gi, gk);
        }
    }
    free(row);
}

/* Bounds on N_q: the root's prefix bounds and the branching decisions;
 * infeasible when a lower bound passes an upper bound at or after it. */
static void node_prefix(const pk_inst *p, const bp_node *nd, const int *root_lo, node_inst *ni)
{
    int n0 = p->n;
    ni->pfx_lo = xmalloc((size_t)(n0 + 1) * sizeof(int));
    ni->pfx_hi = xmalloc((size_t)(n0 + 1) * sizeof(int));
    for (int q = 0; q <= n0; q++) {
        ni->pfx_lo[q] = root_lo ? root_lo[q] : 0;
        ni->pfx_hi[q] = INT_MAX;
    }
    for (int k = 0; k < nd->nd; k++) {
        const decision *d = &nd->d[k];
        if (d->kind == D_PFX_GE && d->b > ni->pfx_lo[d->a])
            ni->pfx_lo[d->a] = d->b;
        if (d->kind == D_PFX_LE && d->b < ni->pfx_hi[d->a])
            ni->pfx_hi[d->a] = d->b;
    }
    int lo = 0;
    for (int q = 0; q <= n0; q++) {
        lo = ni->pfx_lo[q] > lo ? ni->pfx_lo[q] : lo;
        if (lo > ni->pfx_hi[q])
            ni->infeasible = 1;
    }
}

static void node_build(const pk_inst *p, const bp_node *nd, node_inst *ni)
{
    memset(ni, 0, sizeof *ni);
    ni->group = xmalloc((size_t)p->n * sizeof *ni->group);
    int ng = make_groups(p, nd, ni->group);
    pk_inst_init_like(&ni->q, p, ng, p->ntype);
    pk_inst *q = &ni->q;
    q->quantum = p->quantum;
    ni->gsize = xcalloc((size_t)(ng > 0 ? ng : 1), sizeof *ni->gsize);
    for (int i = 0; i < p->n; i++) {
        int g = ni->group[i];
        if (ni->gsize[g]++ == 0) {      /* the lowest member leads */
            q->rank[g] = p->rank[i];
            q->task[g] = i;
            for (int t = 0; t < p->nclass; t++)
                q->cls[t].lead_cost[g] = p->cls[t].lead_cost[i];
        }
        q->size[g] += p->size[i];
        if (p->size2)
            q->size2[g] += p->size2[i];
        for (int t = 0; t < p->nclass; t++)
            if (!pk_allowed(p, i, t) || class_banned(nd, i, t))
                q->cls[t].lead_cost[g] = HUGE_VAL;
    }
    for (int k = 0; k < p->ntype; k++) {
        q->type[k].cost = p->type[k].cost;
        q->type[k].count = p->type[k].count;
        memcpy(q->type[k].per_class, p->type[k].per_class, (size_t)p->nclass * sizeof(int));
    }
    ni->slo = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof(int));
    ni->shi = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof(int));
    for (int k = 0; k < p->ntype; k++)
        ni->shi[k] = p->type[k].count;
    for (int k = 0; k < nd->nd; k++) {
        const decision *d = &nd->d[k];
        if (d->kind == D_SRV_HI && d->b < ni->shi[d->a])
            ni->shi[d->a] = d->b;
        if (d->kind == D_SRV_LO && d->b > ni->slo[d->a])
            ni->slo[d->a] = d->b;
    }
    for (int k = 0; k < p->ntype; k++)
        if (ni->slo[k] > ni->shi[k])
            ni->infeasible = 1;
    ni->gstart = xcalloc((size_t)ng + 1, sizeof(int));
    ni->gmem = xmalloc((size_t)(p->n > 0 ? p->n : 1) * sizeof(int));
    for (int g = 0; g < ng; g++)
        ni->gstart[g + 1] = ni->gstart[g] + ni->gsize[g];
    int *fill = xcalloc((size_t)(ng > 0 ? ng : 1), sizeof(int));
    for (int i = 0; i < p->n; i++) {
        int g = ni->group[i];
        ni->gmem[ni->gstart[g] + fill[g]++] = i;
    }
    free(fill);
    node_conflicts(p, nd, ni, ng);
}

static void node_inst_free(node_inst *ni)
{
    pk_inst_free(&ni->q);
    free(ni->group);
    free(ni->gsize);
    free(ni->gstart);
    free(ni->gmem);
    free(ni->slo);
    free(ni->shi);
    free(ni->pfx_lo);
    free(ni->pfx_hi);
}

/* ---- the column pool (root item numbering) --------------------------------- */

typedef struct pool {
    int refs;               /* nodes sharing it */
    int n, cap;
    int *cls, *start, *len;
    int *items;
    size_t nitems, capitems;
    hashtab *seen;          /* hashes of the patterns in it */
} pool;

static void pool_add(pool *pl, int t, const int *items, int k)
{
    if (!pk_seen_add(pl->seen, t, items, k))
        return;
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? pl->cap * 2 : 1024;
        pl->cls = xrealloc(pl->cls, (size_t)pl->cap * sizeof(int));
        pl->start = xrealloc(pl->start, (size_t)pl->cap * sizeof(int));
        pl->len = xrealloc(pl->len, (size_t)pl->cap * sizeof(int));
    }
    grow_array((void **)&pl->items, &pl->capitems, pl->nitems + (size_t)k, sizeof(int));
    memcpy(pl->items + pl->nitems, items, (size_t)k * sizeof(int));
    pl->cls[pl->n] = t;
    pl->start[pl->n] = (int)pl->nitems;
    pl->len[pl->n] = k;
    pl->nitems += (size_t)k;
    pl->n++;
}

static pool *pool_new(void)
{
    pool *pl = xcalloc(1, sizeof *pl);
    pl->refs = 1;
    pl->seen = hashtab_new(NULL, NULL);
    return pl;
}

static void pool_release(pool *pl)
{
    if (!pl || --pl->refs > 0)
        return;
    free(pl->cls);
    free(pl->start);
    free(pl->len);
    free(pl->items);
    hashtab_free(pl->seen);
    free(pl);
}

/* A root pattern as a pattern of the node (its groups), or 0 when the
 * node's decisions forbid it: a group split, apart items together, a class
 * banned for a member. */
static int node_pattern(const node_inst *ni, int t, const int *items, int k, int *out,
                        int *cnt)
{
    int m = 0;
    for (int a = 0; a < k; a++) {
        int g = ni->group[items[a]];
        if (ni->q.cls[t].lead_cost[g] >= HUGE_VAL)
            return 0;
        if (cnt[g]++ == 0)
            out[m++] = g;
    }
    int ok = 1;
    for (int a = 0; a < m && ok; a++)
        ok = cnt[out[a]] == ni->gsize[out[a]];
    for (int a = 0; a < m && ok; a++)
        for (int b = a + 1; b < m && ok; b++)
            ok = !pk_conflict(&ni->q, out[a], out[b]);
    for (int a = 0; a < m; a++)
        cnt[out[a]] = 0;
    return ok ? m : 0;
}

/* Seeds the node's master with every valid pool column. */
static void seed_node(cg *g, const node_inst *ni, const pool *pl, int *buf, int *cnt)
{
    for (int c = 0; c < pl->n; c++) {
        int m = node_pattern(ni, pl->cls[c], pl->items + pl->start[c], pl->len[c], buf, cnt);
        if (m > 0)
            cg_add(g, pl->cls[c], buf, m);
    }
}

typedef struct rc_key {
    double rc;
    int c;
} rc_key;

static int cmp_rc(const void *a, const void *b)
{
    const rc_key *x = a, *y = b;
    if (x->rc != y->rc)
        return x->rc < y->rc ? -1 : 1;
    return x->c - y->c;
}

/* The columns a child starts from, in root numbering: the node's basic
 * columns, the keep of least reduced cost (3 per item for a child) and
 * best's bins.  Seeding only these keeps each node's master small; pricing
 * brings back the rest. */
static pool *child_seed(cg *g, const node_inst *ni, const pk_sol *best, const pk_inst *p,
                        int *buf, int keep)
{
    pool *pl = pool_new();
    glp_prob *P = cg_master(g);
    int nc = cg_ncols(g);
    rc_key *k = xmalloc((size_t)(nc > 0 ? nc : 1) * sizeof *k);
    for (int c = 0; c < nc; c++) {
        int col = cg_col_glp(g, c);
        k[c].rc = glp_get_col_stat(P, col) == GLP_BS ? -HUGE_VAL : glp_get_col_dual(P, col);
        k[c].c = c;
    }
    qsort(k, (size_t)nc, sizeof *k, cmp_rc);
    for (int a = 0; a < nc && (a < keep || k[a].rc == -HUGE_VAL); a++) {
        int t, len, m = 0;
        const int *gr = cg_col(g, k[a].c, &t, &len);
        for (int x = 0; x < len; x++)
            for (int q = ni->gstart[gr[x]]; q < ni->gstart[gr[x] + 1]; q++)
                buf[m++] = ni->gmem[q];
        pool_add(pl, t, buf, m);
    }
    free(k);
    if (isfinite(best->cost))
        for (int b = 0; b < best->nbins; b++) {
            int m = 0;
            for (int i = 0; i < p->n; i++)
                if (best->bin_of[i] == b)
                    buf[m++] = i;
            if (m)
                pool_add(pl, best->bin_class[b], buf, m);
        }
    return pl;
}

/* ---- primal side --------------------------------------------------------------- */

typedef struct col_order {
    double lam;
    int c;
} col_order;

static int cmp_lam(const void *a, const void *b)
{
    const col_order *x = a, *y = b;
    if (x->lam != y->lam)
        return x->lam > y->lam ? -1 : 1;
    return x->c - y->c;
}

/* The node's columns with a positive LP value, by decreasing value;
 * returns how many. */
static int cols_by_lambda(const cg *g, col_order **out)
{
    int nc = cg_ncols(g);
    col_order *o = xmalloc((size_t)(nc > 0 ? nc : 1) * sizeof *o);
    int m = 0;
    for (int c = 0; c < nc; c++) {
        double v = cg_value(g, c);
        if (v > LAM_EPS) {
            o[m].lam = v;
            o[m++].c = c;
        }
    }
    qsort(o, (size_t)m, sizeof *o, cmp_lam);
    *out = o;
    return m;
}

/* Completes s, a partial packing of the node's items, and keeps it in
 * *best (the whole instance's items) when cheaper. */
static void keep_rounded(const node_inst *ni, const pk_inst *p, pk_sol *s, pk_sol *best)
{
    if (pk_complete(&ni->q, s) == HUGE_VAL)
        return;
    pk_sol r;
    pk_sol_init(&r, p);
    r.nbins = s->nbins;
    memcpy(r.bin_class, s->bin_class, (size_t)s->nbins * sizeof(int));
    for (int i = 0; i < p->n; i++)
        r.bin_of[i] = s->bin_of[ni->group[i]];
    if (pk_eval(p, &r) < best->cost - SOLVE_EPS)
        pk_sol_copy(best, &r, p);
    pk_sol_free(&r);
}

/* Makes column gr (len items, class t) a bin of s, with its items not yet
 * placed; with whole set, only when none of them is placed yet. */
static void place_column(pk_sol *s, const int *gr, int len, int t, int whole)
{
    int free_n = 0;
    for (int b = 0; b < len; b++)
        free_n += s->bin_of[gr[b]] < 0;
    if (free_n == 0 || (whole && free_n < len))
        return;
    for (int b = 0; b < len; b++)
        if (s->bin_of[gr[b]] < 0)
            s->bin_of[gr[b]] = s->nbins;
    s->bin_class[s->nbins++] = t;
}

/* Rounds the node's LP into *best (when cheaper): columns by decreasing
 * lambda become bins (place_column), and first fit with the bin-emptying
 * search (pk_complete) places the rest.  Part way through column
 * generation most columns overlap, and keeping parts opens a bin for each
 * one's leftovers: on the pai-like 512-task root that stayed at 127-130
 * GPUs while the LP was already at 110-111, which whole columns avoid. */
static void round_lp(const cg *g, const node_inst *ni, const pk_inst *p, pk_sol *best,
                     int whole)
{
    const pk_inst *q = &ni->q;
    col_order *o;
    int m = cols_by_lambda(g, &o);
    pk_sol s;
    pk_sol_init(&s, q);
    for (int i = 0; i < q->n; i++)
        s.bin_of[i] = -1;
    for (int a = 0; a < m; a++) {
        int t, len;
        const int *gr = cg_col(g, o[a].c, &t, &len);
        place_column(&s, gr, len, t, whole);
    }
    keep_rounded(ni, p, &s, best);
    pk_sol_free(&s);
    free(o);
}

/* Price and branch at the root: the integer master over the generated
 * columns, for a share of the time left counted as work (GLPK's
 * iterations and nodes), so that its packing does not depend on load. */
static void integer_master(cg *g, sg_ctx *c, const pk_inst *p, pk_sol *best, double share)
{
    glp_prob *P = glp_create_prob();
    glp_copy_prob(P, cg_master(g), GLP_OFF);
    cg_relax_cuts(g, P);
    int ncol = glp_get_num_cols(P);
    for (int k = 1; k <= ncol; k++)
        glp_set_col_kind(P, k, GLP_IV);
    solve_opts o;
    sg_ctx sub;
    sg_stage(c, fmax(0.01, fmin(sg_remaining(c) * share, 0.2 + p->n / 256.0)), &o, &sub);
    sg_mip m = {0};
    m.known_lb = -HUGE_VAL;
    m.quantum = p->quantum;
    gp_err err = {{0}};
    int rc = sg_solve(&sub, P, &m, &err);
    c->work += sub.work;
    if (rc == 0 && m.has_solution) {
        pk_sol s;
        pk_sol_init(&s, p);
        for (int i = 0; i < p->n; i++)
            s.bin_of[i] = -1;
        for (int col = 0; col < cg_ncols(g); col++) {
            if (glp_mip_col_val(P, cg_col_glp(g, col)) < 0.5)
                continue;
            int t, len;
            const int *it = cg_col(g, col, &t, &len);
            place_column(&s, it, len, t, 0);
        }
        if (pk_complete(p, &s) < best->cost - SOLVE_EPS)
            pk_sol_copy(best, &s, p);
        pk_sol_free(&s);
    }
    glp_delete_prob(P);
}

/* A root item of node group g. */
static int member(const node_inst *ni, int g)
{
    return ni->gmem[ni->gstart[g]];
}

/* ---- branching ------------------------------------------------------------------- */

typedef struct branch {
    int kind;               /* D_SAME (pair), D_CLASS_IN (item, class), D_SRV_HI (type) */
    int a, b;
    double v;
} branch;

static int pick_server(const cg *g, const pk_inst *p, branch *br)
{
    for (int k = 0; k < p->ntype; k++) {
        double v = cg_servers(g, k);
        if (fabs(v - round(v)) > LAM_EPS) {
            br->kind = D_SRV_HI;
            br->a = k;
            br->v = v;
            return 1;
        }
    }
    return 0;
}

/* The pair of node items whose weight together is closest to 1/2. */
static int pick_pair(const cg *g, const node_inst *ni, branch *br)
{
    int n = ni->q.n;
    double *w = xcalloc((size_t)n * (size_t)n, sizeof *w);
    for (int c = 0; c < cg_ncols(g); c++) {
        double v = cg_value(g, c);
        if (v <= LAM_EPS)
            continue;
        int t, len;
        const int *gr = cg_col(g, c, &t, &len);
        for (int a = 0; a < len; a++)
            for (int b = a + 1; b < len; b++) {
                int x = gr[a] < gr[b] ? gr[a] : gr[b], y = gr[a] < gr[b] ? gr[b] : gr[a];
                w[(size_t)x * (size_t)n + (size_t)y] += v;
            }
    }
    double best = 1;
    int found = 0;
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++) {
            double v = w[(size_t)x * (size_t)n + (size_t)y];
            double d = fabs(v - 0.5);
            if (v > LAM_EPS && v < 1 - LAM_EPS && d < best) {
                best = d;
                br->kind = D_SAME;
                br->a = x;
                br->b = y;
                br->v = v;
                found = 1;
            }
        }
    free(w);
    return found;
}

/* 1 when bins of a class cost differently by leader (CATS), so that which
 * items lead is worth branching on. */
static int costs_vary(const pk_inst *q)
{
    for (int t = 0; t < q->nclass; t++) {
        double c0 = HUGE_VAL;
        for (int i = 0; i < q->n; i++) {
            double c = q->cls[t].lead_cost[i];
            if (c >= HUGE_VAL)
                continue;
            if (c0 < HUGE_VAL && fabs(c - c0) > SOLVE_EPS)
                return 1;
            c0 = c;
        }
    }
    return 0;
}

/* The LP mass of the columns led by each task, by the task's root index
 * ([n0 + 1], the caller frees it): a column is led by its lowest member. */
static double *lead_mass(const cg *g, const node_inst *ni, int n0)
{
    double *lead = xcalloc((size_t)n0 + 1, sizeof *lead);
    for (int c = 0; c < cg_ncols(g); c++) {
        double v = cg_value(g, c);
        if (v <= LAM_EPS)
            continue;
        int t, len;
        const int *gr = cg_col(g, c, &t, &len);
        int l = gr[0];
        for (int a = 1; a < len; a++)
            l = gr[a] < l ? gr[a] : l;
        lead[member(ni, l)] += v;
    }
    return lead;
}

/* The prefix q whose bin count N_q is most fractional. */
static int pick_prefix(const cg *g, const node_inst *ni, int n0, branch *br)
{
    const pk_inst *q = &ni->q;
    if (!costs_vary(q))
        return 0;
    double *lead = lead_mass(g, ni, n0);
    double cum = 0, best = 1;
    int found = 0;
    for (int k = 1; k <= n0; k++) {
        cum += lead[k - 1];             /* N_k: bins led below k */
        double f = cum - floor(cum);
        double d = fabs(f - 0.5);
        if (f > LAM_EPS && f < 1 - LAM_EPS && d < best - SOLVE_EPS) {
            best = d;
            br->kind = D_PFX_GE;
            br->a = k;
            br->v = cum;
            found = 1;
        }
    }
    free(lead);
    return found;
}

/* An item spread over bins of several classes. */
static int pick_class(const cg *g, const node_inst *ni, branch *br)
{
    const pk_inst *q = &ni->q;
    if (q->nclass < 2)
        return 0;
    double *mass = xcalloc((size_t)q->n * (size_t)q->nclass, sizeof *mass);
    for (int c = 0; c < cg_ncols(g); c++) {
        double v = cg_value(g, c);
        int t, len;
        const int *gr = cg_col(g, c, &t, &len);
        for (int a = 0; a < len && v > LAM_EPS; a++)
            mass[(size_t)gr[a] * (size_t)q->nclass + (size_t)t] += v;
    }
    int found = 0;
    for (int i = 0; i < q->n && !found; i++)
        for (int t = 0; t < q->nclass && !found; t++) {
            double v = mass[(size_t)i * (size_t)q->nclass + (size_t)t];
            if (v > LAM_EPS && v < 1 - LAM_EPS) {
                br->kind = D_CLASS_IN;
                br->a = i;
                br->b = t;
                br->v = v;
                found = 1;
            }
        }
    free(mass);
    return found;
}

/* ---- the tree ------------------------------------------------------------------------ */

typedef struct stack {
    bp_node *v;
    size_t n, cap;
} stack;

/* Pushes parent's decisions plus extra (none when extra is NULL); the new
 * node shares seed. */
static void push(stack *st, const bp_node *parent, const decision *extra, double lb, pool *seed)
{
    grow_array((void **)&st->v, &st->cap, st->n + 1, sizeof *st->v);
    bp_node *nd = &st->v[st->n++];
    nd->nd = (parent ? parent->nd : 0) + (extra != NULL);
    nd->d = xmalloc((size_t)(nd->nd > 0 ? nd->nd : 1) * sizeof *nd->d);
    if (parent && parent->nd)
        memcpy(nd->d, parent->d, (size_t)parent->nd * sizeof *nd->d);
    if (extra)
        nd->d[nd->nd - 1] = *extra;
    nd->lb = lb;
    nd->seed = seed;
    nd->master = NULL;
    seed->refs++;
}

/* The two children of a node on branch br (the second pushed is explored
 * first: "together", "at most floor", "in class"). */
static void push_children(stack *st, const bp_node *nd, const node_inst *ni, const branch *br,
                          double lb, pool *seed)
{
    decision d1, d2;
    if (br->kind == D_SRV_HI) {
        d1 = (decision){D_SRV_LO, br->a, (int)ceil(br->v)};
        d2 = (decision){D_SRV_HI, br->a, (int)floor(br->v)};
    } else if (br->kind == D_PFX_GE) {
        int lo = (int)floor(br->v);
        int up_first = br->v - lo >= 0.5;
        decision le = {D_PFX_LE, br->a, lo}, ge = {D_PFX_GE, br->a, lo + 1};
        d1 = up_first ? le : ge;
        d2 = up_first ? ge : le;
    } else if (br->kind == D_CLASS_IN) {
        int i = member(ni, br->a);
        d1 = (decision){D_CLASS_OUT, i, br->b};
        d2 = (decision){D_CLASS_IN, i, br->b};
    } else {
        int i = member(ni, br->a), k = member(ni, br->b);
        d1 = (decision){D_APART, i, k};
        d2 = (decision){D_SAME, i, k};
    }
    push(st, nd, &d1, lb, seed);
    push(st, nd, &d2, lb, seed);
}

typedef struct diver diver;

typedef struct bp {
    const pk_inst *p;
    sg_ctx *c;
    pk_sol *best;
    int *buf, *cnt;
    stack st;
    long nodes;
    double unresolved_lb;   /* least bound of nodes that could not be branched */
    double root_lb;
    int min_bins;           /* bins any solution needs (root bound, valid everywhere) */
    int *prefix_lb;         /* [n+1] bins the first q root items need */
    double *pc_sum[2];      /* [n+1] pseudo-costs of the prefix counts (pc_mean) */
    int *pc_cnt[2];
    double pc_all[2];
    int pc_nall[2];
    struct diver *diver;    /* a search for packings beside the tree, until its join_at */
    /* In a search beside the tree: where it shows the tree the cost of
     * its best packing as it finds it (NULL in the tree itself), so that
     * the tree can stop at --gap without waiting for the join. */
    _Atomic double *found;
    int stopped;
} bp;

/* Shows the tree the cost of b's best packing (see bp.found). */
static void publish(const bp *b)
{
    if (b->found)
        atomic_store(b->found, b->best->cost);
}

/* 1 when the best packing is as close to lb as the solve asks: proven,
 * or within --gap of it.  The searches for packings end there too. */
static int good_enough(const bp *b, double lb)
{
    return pk_gap_met(b->p, b->c, lb, b->best->cost);
}

/* The master LP of a node, with its prefix rows and the seed's columns. */
static cg *node_master(bp *b, const node_inst *ni, const pool *seed)
{
    int *root_of = xmalloc((size_t)(ni->q.n > 0 ? ni->q.n : 1) * sizeof *root_of);
    for (int k = 0; k < ni->q.n; k++)
        root_of[k] = member(ni, k);
    cg_cuts cuts = {b->min_bins, b->p->n, ni->pfx_lo, ni->pfx_hi, root_of};
    cg *g = cg_new(&ni->q, ni->slo, ni->shi, &cuts);
    free(root_of);     /* copied by cg_new */
    seed_node(g, ni, seed, b->buf, b->cnt);
    return g;
}

/* ---- diving ------------------------------------------------------------------ */

/* Appends "same" decisions that put the root items of column c of the
 * node's LP into one bin; 0 when the column holds a single group (fixing
 * it would decide nothing). */
static int fix_column(const cg *g, const node_inst *ni, int c, bp_node *cur, size_t *cap)
{
    int t, len;
    const int *gr = cg_col(g, c, &t, &len);
    if (len < 2)
        return 0;
    int first = member(ni, gr[0]);
    for (int x = 1; x < len; x++) {
        grow_array((void **)&cur->d, cap, (size_t)cur->nd + 1, sizeof *cur->d);
        cur->d[cur->nd++] = (decision){D_SAME, first, member(ni, gr[x])};
    }
    return 1;
}

/* The columns a dive step may fix, best first: those of largest lambda
 * holding at least two groups (at most max).  Returns how many. */
static int dive_candidates(const cg *g, int *out, int max)
{
    int nc = cg_ncols(g), m = 0;
    col_order *o = xmalloc((size_t)(nc > 0 ? nc : 1) * sizeof *o);
    for (int c = 0; c < nc; c++) {
        int t, len;
        cg_col(g, c, &t, &len);
        double v = cg_value(g, c);
        if (len >= 2 && v > LAM_EPS)
            o[m++] = (col_order){v, c};
    }
    qsort(o, (size_t)m, sizeof *o, cmp_lam);
    m = m < max ? m : max;
    for (int k = 0; k < m; k++)
        out[k] = o[k].c;
    free(o);
    return m;
}

typedef struct dive_state {
    double target;          /* the bound the dive tries to reach */
    double work_until;      /* end on the work clock (sg_ctx.work) */
    int fails;              /* children that closed or were infeasible */
} dive_state;

#define DIVE_WIDTH 3        /* columns tried per level */
#define DIVE_FAILS 12       /* failed children before the dive gives up */

/* One level of the dive below the node (cur, g, ni): fix a column the LP
 * likes (its tasks share a GPU), re-solve the LP of what is left by column
 * generation, round it, go deeper; when a child's bound closes, try the
 * next column (limited backtracking).  1 when the dive should end: it
 * reached a packing, the target, its time or its failures. */
static int dive_level(bp *b, const bp_node *cur, cg *g, const node_inst *ni, dive_state *ds)
{
    const pk_inst *p = b->p;
    int cand[DIVE_WIDTH];
    int nc = dive_candidates(g, cand, DIVE_WIDTH);
    if (nc == 0)
        return 1;       /* the LP is a packing: the dive has reached its end */
    for (int k = 0; k < nc; k++) {
        if (b->c->work >= ds->work_until || sg_should_stop(b->c) >= 0 || ds->fails > DIVE_FAILS)
            return 1;
        size_t cap = (size_t)cur->nd + 16;
        bp_node child = {xmalloc(cap * sizeof *child.d), cur->nd, cur->lb, NULL, NULL};
        if (cur->nd)
            memcpy(child.d, cur->d, (size_t)cur->nd * sizeof *child.d);
        fix_column(g, ni, cand[k], &child, &cap);
        pool *seed = child_seed(g, ni, b->best, p, b->buf, 3 * ni->q.n);
        node_inst next;
        node_build(p, &child, &next);
        node_prefix(p, &child, b->prefix_lb, &next);
        cg *ng = NULL;
        int go = !next.infeasible;
        if (go) {
            ng = node_master(b, &next, seed);
            double lb;
            int conv;
            go = cg_run(ng, b->c, b->best->cost, &lb, &conv) == 0 && !cg_uses_artificial(ng) &&
                 !pk_closes(p, lb, b->best->cost);
        }
        pool_release(seed);
        int end = 0;
        if (go) {
            round_lp(ng, &next, p, b->best, 0);
            publish(b);
            end = good_enough(b, ds->target) || dive_level(b, &child, ng, &next, ds);
        } else
            ds->fails++;
        if (ng)
            cg_free(ng);
        node_inst_free(&next);
        free(child.d);
        if (end)
            return 1;
    }
    return 0;
}

/* A primal dive from the root LP: branching on pairs reaches packings only
 * after many nodes, a dive needs about one LP per GPU of the answer.
 * Fixing only restricts, so what it rounds is feasible; its bounds prove
 * nothing and are dropped.  At most a share of the time left, counted as
 * work (simplex iterations) so that the same input dives the same way
 * whatever the machine's load. */
static void dive(bp *b, const bp_node *start, cg *g, const node_inst *ni, double lb,
                 double share)
{
    dive_state ds = {lb, b->c->work + share * sg_remaining(b->c) / SOLVE_WORK_S_PER_ITER, 0};
    dive_level(b, start, g, ni, &ds);
}

/* The root's search for packings after rounding its LP: the integer
 * master over the generated columns, a dive, and with costs set by the
 * leader, repacking a few GPUs at a time. */
static void root_packings(bp *b, const bp_node *nd, cg *g, const node_inst *ni, double lb)
{
    const pk_inst *p = b->p;
    if (!good_enough(b, lb))
        integer_master(g, b->c, p, b->best, 0.25);
    publish(b);
    /* With costs that vary by leader (CATS) the root bound is rarely
     * met exactly, so a dive cannot end the search and only moves the
     * tree: measured slower there, except when the root leaves the best
     * packing more than DIVE_MIN_GAP above the bound — the first 128
     * pai-like tasks with per-task kappa: 3,230.8 W without the dive,
     * 3,220.7 W with it, against a bound of 3,217.6 W after 30 s. */
    if (b->c->o->mip_gap > 0 && good_enough(b, lb))
        return;     /* within --gap already: nothing more to look for */
    if (p->quantum > 0 && !pk_closes(p, lb, b->best->cost))
        dive(b, nd, g, ni, lb, 0.5);
    else if (sg_gap(b->best->cost, lb) > DIVE_MIN_GAP)
        dive(b, nd, g, ni, lb, 0.1);
    publish(b);
    /* With costs set by the leader, repacking a few GPUs at a time
     * exactly (solve_lns.c), from what the root's dive found, is what
     * improves on it: the first 256 pai-like tasks with per-task kappa
     * kept the heuristic's 6,536.02 W through 60 s of rounding, dives
     * and the integer master. */
    if (p->quantum <= 0 && !good_enough(b, lb))
        pk_lns(p, b->c, b->best, lb,
               (b->c->o->work_limit_s > 0 ? LNS_SHARE_WORK : LNS_SHARE_TIME) *
                   sg_remaining(b->c), g);
    publish(b);
}

/* ---- beside the tree ------------------------------------------------------------ */

/* The root's search for packings (root_packings), or a dive below the
 * root, runs in a thread of its own on copies of the node's decisions,
 * its columns and the best packing while the tree goes on; neither moves
 * a bound.  The tree takes its packing at a fixed node (join_at), waiting
 * for it if need be, so that a work-limited solve grows the same tree in
 * every run.  The thread builds and solves the node's master again from
 * those columns: GLPK's problems belong to the thread that made them. */
struct diver {
    bp b;                   /* p, prefix_lb, min_bins: the tree's (read only); the rest own */
    sg_ctx c;               /* a copy of the tree's: its own work clock and log */
    pk_sol best;
    bp_node node;
    pool *seed;
    dive_state ds;
    atomic_int halt;        /* set by the join when the tree has proven its packing, or
                             * when the tree has met --gap */
    _Atomic double found;   /* its best packing's cost so far (bp.found) */
    double work0;
    int root;               /* root_packings, not a dive */
    long join_at;
    pthread_t th;
    int threaded;
};

static void diver_run(diver *d)
{
    const pk_inst *p = d->b.p;
    node_inst ni;
    node_build(p, &d->node, &ni);
    node_prefix(p, &d->node, d->b.prefix_lb, &ni);
    if (!ni.infeasible) {
        cg *g = node_master(&d->b, &ni, d->seed);
        double lb;
        int conv;
        if (cg_run(g, &d->c, d->best.cost, &lb, &conv) != 0 || cg_uses_artificial(g))
            ;   /* stopped, or GLPK failed: nothing to search from */
        else if (d->root)
            root_packings(&d->b, &d->node, g, &ni, d->ds.target);  /* the node's bound */
        else
            dive_level(&d->b, &d->node, g, &ni, &d->ds);
        cg_free(g);
    }
    node_inst_free(&ni);
}

static void *diver_main(void *arg)
{
    diver *d = arg;
    sg_attach(&d->c);
    diver_run(d);
    sg_detach();
    return NULL;
}

static diver *diver_start(bp *b, const bp_node *nd, cg *g, const node_inst *ni, double lb,
                          int root)
{
    const pk_inst *p = b->p;
    size_t n = (size_t)p->n + 1;
    diver *d = xcalloc(1, sizeof *d);
    d->c = *b->c;
    d->c.log = NULL;
    d->c.loglen = d->c.logcap = 0;
    d->work0 = b->c->work;
    pk_sol_init(&d->best, p);
    pk_sol_copy(&d->best, b->best, p);
    d->b.p = p;
    d->b.c = &d->c;
    d->b.best = &d->best;
    atomic_init(&d->found, d->best.cost);
    d->b.found = &d->found;
    d->b.prefix_lb = b->prefix_lb;
    d->b.min_bins = b->min_bins;
    d->b.buf = xmalloc(n * sizeof *d->b.buf);
    d->b.cnt = xcalloc(n, sizeof *d->b.cnt);
    d->node = (bp_node){xmemdup(nd->d, (size_t)nd->nd * sizeof *nd->d), nd->nd, nd->lb, NULL,
                        NULL};
    d->seed = child_seed(g, ni, b->best, p, b->buf, root ? INT_MAX : 3 * ni->q.n);
    d->root = root;
    atomic_init(&d->halt, 0);
    d->c.halt = &d->halt;
    d->c.pivot_slices = 1;
    double work_s = NODE_DIVE_SHARE * sg_remaining(b->c);
    d->ds = (dive_state){lb, b->c->work + work_s / SOLVE_WORK_S_PER_ITER, 0};
    d->join_at = root ? ROOT_JOIN_NODE : b->nodes + NODE_DIVE_EVERY - 1;
    d->threaded = pthread_create(&d->th, NULL, diver_main, d) == 0;
    if (!d->threaded)
        diver_run(d);
    return d;
}

/* The cost of the best packing known: the tree's, or the one its search
 * beside has shown. */
static double known_cost(const bp *b)
{
    double c = b->best->cost;
    if (b->diver) {
        double d = atomic_load(&b->diver->found);
        c = d < c ? d : c;
    }
    return c;
}

/* 1 when --gap is given and met by the packings known (the tree's and
 * the one beside it) and the bound lb.  When the search beside holds
 * the packing that meets it, the tree stops then rather than at the
 * join, so when a solve with --gap stops may depend on the threads'
 * timing; without --gap nothing does. */
static int gap_met_beside(const bp *b, double lb)
{
    return b->c->o->mip_gap > 0 && pk_gap_met(b->p, b->c, lb, known_cost(b));
}

/* Tells b's search beside the tree to stop where it is, keeping what it
 * found (the join takes it). */
static void diver_halt(bp *b)
{
    if (b->diver)
        atomic_store(&b->diver->halt, 1);
}

/* Waits for b's search beside the tree and keeps its packing when
 * cheaper, its work on the tree's clock — unless the tree has proven its
 * own packing, when the search is told to stop and only its log is kept. */
static void diver_join(bp *b, int proven)
{
    diver *d = b->diver;
    if (!d)
        return;
    if (proven)
        atomic_store(&d->halt, 1);
    if (d->threaded)
        pthread_join(d->th, NULL);
    if (!proven) {
        b->c->work += d->c.work - d->work0;
        if (d->best.cost < b->best->cost - SOLVE_EPS)
            pk_sol_copy(b->best, &d->best, b->p);
    }
    sg_log_append(b->c, d->c.log);
    free(d->c.log);
    free(d->node.d);
    pool_release(d->seed);
    free(d->b.buf);
    free(d->b.cnt);
    pk_sol_free(&d->best);
    free(d);
    b->diver = NULL;
}

/* ---- strong branching on the prefix counts ---------------------------------- */

/* Which fractional prefix to branch on decides the tree's size, and the
 * most fractional one depends on which optimal LP vertex GLPK returned.
 * Near the top of the tree the candidates are tried instead: each child's
 * master is re-solved over the columns it has, and the prefix whose weaker
 * child value is highest wins (the stronger breaks ties); the children
 * keep those masters.  What each trial gains per unit of N_k moved is
 * kept (pseudo-costs, as in reliability branching), ranks the candidates
 * of later nodes, and below STRONG_DEPTH chooses without trials.  On the
 * first 128 pai-like tasks with per-task kappa, trying the 4 most
 * fractional left a 0.010 % gap at 60 s; 16 ranked by pseudo-cost with a
 * lookahead of 4 prove the optimum in 27-29 s (three runs, load 2-3), and
 * with trials warm-started from the node's master (child_bound) that
 * same machine, busier (load 2.4-4.7), proves it in 25-37 s of CPU where
 * building each trial's master from scratch no longer did within 60 s. */
#define STRONG_CANDIDATES 16
#define STRONG_LOOKAHEAD 4
#define STRONG_DEPTH 10
/* A trial's dual simplex stops after this many pivots: its value only
 * rises towards the re-solved master's, and ranking needs no more.  On
 * the first 128 pai-like tasks with per-task kappa the trials took 129,000
 * pivots (210 a trial, 10 of 27 s of CPU); at most 50, 24,000 pivots in
 * 1.9 s, the tree 131 nodes instead of 201 and the proof 15-16 s of CPU
 * instead of 27 (load 5; at most 20 or 30 grew 229 and 303 nodes, 100
 * grew 317: the tree's size varies this much with the ranking). */
#define TRIAL_ITERS 50

/* What ranks nd's child with decision d (HUGE_VAL: empty; NAN: stopped by
 * the time limit or the cancel flag): the value of the parent's master
 * with the new prefix bound, re-solved by the dual simplex over the
 * columns it has (at most TRIAL_ITERS pivots), without pricing; no bound
 * of the child.  Pricing the trials to their bounds (until the value
 * tailed off) took 20 of 30 s of CPU on the first 128 pai-like tasks with
 * per-task kappa, 478 trials at 42 ms; re-solving only, 6 of 21 s, 591
 * trials at 10 ms, for a tree of 151 nodes instead of 195 (load 4-5).
 * *master keeps the child's master to go on from when the value is
 * finite. */
static double child_value(bp *b, const bp_node *nd, cg *parent, const decision *d,
                          cg **master)
{
    bp_node child;
    memset(&child, 0, sizeof child);
    child.nd = nd->nd + 1;
    child.d = xmalloc((size_t)child.nd * sizeof *child.d);
    if (nd->nd)
        memcpy(child.d, nd->d, (size_t)nd->nd * sizeof *nd->d);
    child.d[nd->nd] = *d;
    node_inst ni;
    node_build(b->p, &child, &ni);
    node_prefix(b->p, &child, b->prefix_lb, &ni);
    double z = HUGE_VAL;
    if (!ni.infeasible) {
        int up = d->kind == D_PFX_LE;
        cg *g = cg_branch_prefix(parent, &ni.q, d->a, d->b, up);
        if (cg_resolve(g, b->c, TRIAL_ITERS, &z) != 0)
            z = NAN;
        if (isfinite(z))
            *master = g;
        else
            cg_free(g);
    }
    node_inst_free(&ni);
    free(child.d);
    return z;
}

typedef struct prefix_cand {
    int k;
    double cum;             /* N_k */
    double rank;            /* higher first: pseudo-cost score, or nearness to 1/2 */
} prefix_cand;


static int cmp_cand(const void *a, const void *b)
{
    const prefix_cand *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? 1 : -1;
    return x->k - y->k;
}

/* Pseudo-costs of the prefix counts (dir 0: N_k <= floor, 1: N_k >=
 * floor + 1): the bound a child gained per unit N_k moved, averaged over
 * the strong-branching evaluations of k; of all prefixes when k has none
 * yet, 1 when there are none at all. */
static double pc_mean(const bp *b, int dir, int k)
{
    if (b->pc_cnt[dir][k] > 0)
        return b->pc_sum[dir][k] / b->pc_cnt[dir][k];
    return b->pc_nall[dir] > 0 ? b->pc_all[dir] / b->pc_nall[dir] : 1;
}

static void pc_update(bp *b, int dir, int k, double gain)
{
    if (!isfinite(gain))
        return;     /* an empty child says nothing about the rate */
    b->pc_sum[dir][k] += gain;
    b->pc_cnt[dir][k]++;
    b->pc_all[dir] += gain;
    b->pc_nall[dir]++;
}

/* The product score of a candidate at N_k = cum (SCIP's rule): both
 * children should gain. */
static double pc_score(const bp *b, int k, double cum)
{
    double f = cum - floor(cum);
    return fmax(f * pc_mean(b, 0, k), 1e-9) * fmax((1 - f) * pc_mean(b, 1, k), 1e-9);
}

/* The fractional prefixes of the node's LP, best first: by pseudo-cost
 * score once strong branching has measured some, before that by nearness
 * to one half.  Returns how many (cand has room for n0). */
static int prefix_candidates(const bp *b, const cg *g, const node_inst *ni, prefix_cand *cand)
{
    int n0 = b->p->n;
    double *lead = lead_mass(g, ni, n0);
    int nc = 0, measured = b->pc_nall[0] + b->pc_nall[1] > 0;
    double cum = 0;
    for (int k = 1; k <= n0; k++) {
        cum += lead[k - 1];
        double f = cum - floor(cum);
        if (f > LAM_EPS && f < 1 - LAM_EPS)
            cand[nc++] = (prefix_cand){k, cum, measured ? pc_score(b, k, cum) : -fabs(f - 0.5)};
    }
    free(lead);
    qsort(cand, (size_t)nc, sizeof *cand, cmp_cand);
    return nc;
}

/* Strong branching over the best-ranked prefixes (at most
 * STRONG_CANDIDATES, and no more once STRONG_LOOKAHEAD in a row have not
 * done better); fills br and the values of its two children (at most
 * floor first, then at least floor + 1; HUGE_VAL for an empty one), which
 * also teach the pseudo-costs.  Below STRONG_DEPTH the best-ranked prefix
 * is taken untried (both values lb) once pseudo-costs exist.  0 when no
 * prefix is fractional, none is known to rank, or the solve was stopped
 * meanwhile. */
static int pick_prefix_strong(bp *b, const bp_node *nd, cg *g, const node_inst *ni, double lb,
                              branch *br, double child_val[2], cg *child_cg[2])
{
    if (!costs_vary(&ni->q))
        return 0;
    prefix_cand *cand = xmalloc((size_t)(b->p->n + 1) * sizeof *cand);
    int nc = prefix_candidates(b, g, ni, cand);
    int found = 0;
    if (nd->nd > STRONG_DEPTH) {
        found = nc > 0 && b->pc_nall[0] + b->pc_nall[1] > 0;
        if (found) {
            *br = (branch){D_PFX_GE, cand[0].k, 0, cand[0].cum};
            child_val[0] = child_val[1] = lb;
        }
        free(cand);
        return found;
    }
    double best_lo = -HUGE_VAL, best_hi = -HUGE_VAL;
    for (int i = 0, since = 0; i < nc && i < STRONG_CANDIDATES && since < STRONG_LOOKAHEAD;
         i++, since++) {
        int lo = (int)floor(cand[i].cum);
        double f = cand[i].cum - lo;
        decision le = {D_PFX_LE, cand[i].k, lo}, ge = {D_PFX_GE, cand[i].k, lo + 1};
        decision side[2] = {le, ge};
        cg *m[2] = {NULL, NULL};
        double e[2] = {NAN, NAN}, moved[2] = {f, 1 - f};
        /* the side the pseudo-costs expect lower first: when it falls below
         * the best weaker value so far the candidate cannot win, and its
         * other side is not needed */
        int s0 = moved[0] * pc_mean(b, 0, cand[i].k) <= moved[1] * pc_mean(b, 1, cand[i].k) ? 0 : 1;
        e[s0] = child_value(b, nd, g, &side[s0], &m[s0]);
        int lost = found && e[s0] < best_lo - SOLVE_EPS;
        if (!isnan(e[s0]) && !lost)
            e[1 - s0] = child_value(b, nd, g, &side[1 - s0], &m[1 - s0]);
        if (isnan(e[s0]) || (!lost && isnan(e[1 - s0]))) {
            cg_free(m[0]);
            cg_free(m[1]);
            found = 0;      /* stopped: the plain rule branches, the loop ends */
            break;
        }
        for (int x = 0; x < 2; x++)
            if (!isnan(e[x]))
                pc_update(b, x, cand[i].k, e[x] < HUGE_VAL ? fmax(0, e[x] - lb) / moved[x] : NAN);
        if (lost) {
            cg_free(m[s0]);
            continue;
        }
        cg *ma = m[0], *mz = m[1];
        double weak = fmin(e[0], e[1]), strong = fmax(e[0], e[1]);
        if (weak > best_lo + SOLVE_EPS || (weak > best_lo - SOLVE_EPS && strong > best_hi)) {
            best_lo = weak;
            best_hi = strong;
            *br = (branch){D_PFX_GE, cand[i].k, 0, cand[i].cum};
            child_val[0] = e[0];
            child_val[1] = e[1];
            cg_free(child_cg[0]);
            cg_free(child_cg[1]);
            child_cg[0] = ma;
            child_cg[1] = mz;
            ma = mz = NULL;
            found = 1;
            since = -1;
        }
        cg_free(ma);
        cg_free(mz);
        if (weak >= HUGE_VAL)
            break;          /* both children empty: nothing better to find */
    }
    free(cand);
    if (!found) {
        cg_free(child_cg[0]);
        cg_free(child_cg[1]);
        child_cg[0] = child_cg[1] = NULL;
    }
    return found;
}

/* Pushes the children of a strong prefix branch with the node's bound,
 * leaving out empty ones; the lower value is explored first. */
static void push_strong(bp *b, const bp_node *nd, const branch *br, const double child_val[2],
                        cg *child_cg[2], double lb, pool *seed)
{
    int lo = (int)floor(br->v);
    decision d[2] = {{D_PFX_LE, br->a, lo}, {D_PFX_GE, br->a, lo + 1}};
    int first = child_val[0] >= child_val[1] ? 0 : 1;   /* the higher value, pushed first */
    for (int k = 0; k < 2; k++) {
        int c = k == 0 ? first : 1 - first;
        double clb = child_val[c] >= HUGE_VAL ? HUGE_VAL : lb;
        if (!pk_closes(b->p, clb, b->best->cost)) {
            push(&b->st, nd, &d[c], clb, seed);
            b->st.v[b->st.n - 1].master = child_cg[c];
        } else {
            b->nodes++;     /* empty, or pruned by lb */
            cg_free(child_cg[c]);
        }
        child_cg[c] = NULL;
    }
}

/* Subset-row cuts (cg_separate) at a node whose LP has converged: rounds
 * of them, each followed by column generation again.  CATS with costs
 * that vary by leader only (with every bin costing the same, bounds round
 * up to whole bins, which these cuts rarely change).  At the root or at
 * every node as solve_opts.cuts says; none by default, since neither
 * shrinks the trees of both the bench's random and pai-like instances
 * (bench/SOLVE.md has the figures of each). */
#define CUT_ROUNDS 2
#define CUT_MAX_NEW 0.25        /* cuts a round, a share of the node's items */
#define CUT_MIN_VIOL 0.05
static int node_cuts(bp *b, const pk_inst *q, cg *g, double *lb, int *conv)
{
    solve_cuts where = b->c->o->cuts;
    if (where == SOLVE_CUTS_OFF || (where == SOLVE_CUTS_ROOT && b->nodes > 1) || q->quantum > 0 ||
        !costs_vary(q))
        return 0;
    int rc = 0;
    for (int r = 0; r < CUT_ROUNDS && !pk_closes(q, *lb, b->best->cost); r++) {
        if (cg_separate(g, (int)(CUT_MAX_NEW * q->n) + 1, CUT_MIN_VIOL) == 0)
            break;
        double next;
        rc = cg_run(g, b->c, b->best->cost, &next, conv);
        *lb = fmax(*lb, next);      /* the cuts only remove fractional points */
        if (rc == 1 && sg_should_stop(b->c) < 0)
            rc = 0;     /* pricing gave up: the bound before stands, and any split is valid */
        if (rc != 0 || !*conv)
            break;
    }
    return rc;
}

/* What a node's rounding under --gap needs (cg_set_primal). */
typedef struct node_round {
    bp *b;
    const node_inst *ni;
} node_round;

static double node_round_lp(void *ctx, cg *g)
{
    node_round *nr = ctx;
    round_lp(g, nr->ni, nr->b->p, nr->b->best, 0);
    round_lp(g, nr->ni, nr->b->p, nr->b->best, 1);
    return nr->b->best->cost;
}

/* Solves one node; pushes its children when it needs branching. */
static void process(bp *b, bp_node *nd)
{
    const pk_inst *p = b->p;
    node_inst ni;
    node_build(p, nd, &ni);
    node_prefix(p, nd, b->prefix_lb, &ni);
    b->nodes++;
    if (ni.infeasible || pk_closes(p, nd->lb, b->best->cost)) {
        node_inst_free(&ni);
        return;
    }
    cg *g = nd->master ? nd->master : node_master(b, &ni, nd->seed);
    nd->master = NULL;
    cg_rebind(g, &ni.q);
    node_round nr = {b, &ni};
    cg_set_primal(g, node_round_lp, &nr, nd->lb);
    double lb;
    int conv, rc = cg_run(g, b->c, b->best->cost, &lb, &conv);
    cg_set_primal(g, NULL, NULL, -HUGE_VAL);
    lb = fmax(lb, nd->lb);
    if (rc == 0 && conv && !cg_uses_artificial(g))
        rc = node_cuts(b, &ni.q, g, &lb, &conv);
    if (rc < 0) {
        /* GLPK failed on this node's LP (or on it with cuts): the bounds
         * found before are all that is known, and the tree cannot be
         * called complete */
        b->unresolved_lb = fmin(b->unresolved_lb, lb);
        cg_free(g);
        node_inst_free(&ni);
        return;
    }
    if (rc != 0) {
        b->stopped = 1;
        push(&b->st, nd, NULL, lb, nd->seed);   /* back on the stack: still open */
        cg_free(g);
        node_inst_free(&ni);
        return;
    }
    if (conv && cg_uses_artificial(g)) {
        /* The LP needs an artificial column: no cover exists here. */
        cg_free(g);
        node_inst_free(&ni);
        return;
    }
    if (!pk_closes(p, lb, b->best->cost) && !cg_uses_artificial(g) &&
        !(b->c->o->mip_gap > 0 && good_enough(b, lb))) {
        round_lp(g, &ni, p, b->best, 0);
        if (b->nodes == 1 && p->quantum <= 0 && b->c->o->threads >= 2)
            b->diver = diver_start(b, nd, g, &ni, lb, 1);
        else if (b->nodes == 1)
            root_packings(b, nd, g, &ni, lb);
        /* Below the root, with costs set by the leader, a dive every few
         * nodes: the prefix decisions taken on the way down lead it to
         * packings the root's dive misses — the first 128 pai-like tasks
         * with per-task kappa: 3,220.7 W from the root's dive, 3,218.2 W
         * after 34 s of these, where the tree alone had 3,218.4 W only
         * after 92 s.  Beside the tree when there is a thread for it and
         * the root's own search has ended. */
        else if (b->nodes % NODE_DIVE_EVERY == 0 && p->quantum <= 0 && nd->nd > 0) {
            if (b->c->o->threads < 2)
                dive(b, nd, g, &ni, lb, NODE_DIVE_SHARE);
            else if (!b->diver)
                b->diver = diver_start(b, nd, g, &ni, lb, 0);
        }
    }
    if (b->nodes == 1)
        b->root_lb = lb;
    /* Any split of the node is a valid partition, so branching does not
     * need the LP to have converged (pricing stops early once the rounded
     * bound cannot rise). */
    if (!pk_closes(p, lb, b->best->cost)) {
        branch br = {0, 0, 0, 0};
        double child_val[2];
        cg *child_cg[2] = {NULL, NULL};
        pool *seed = child_seed(g, &ni, b->best, p, b->buf, 3 * ni.q.n);
        if (pick_server(g, p, &br)) {
            push_children(&b->st, nd, &ni, &br, lb, seed);
        } else if (pick_prefix_strong(b, nd, g, &ni, lb, &br, child_val, child_cg)) {
            push_strong(b, nd, &br, child_val, child_cg, lb, seed);
        } else if (pick_prefix(g, &ni, p->n, &br) || pick_pair(g, &ni, &br) ||
                   pick_class(g, &ni, &br)) {
            push_children(&b->st, nd, &ni, &br, lb, seed);
        } else {    /* an integral LP that rounding did not match: keep its bound */
            b->unresolved_lb = fmin(b->unresolved_lb, lb);
        }
        pool_release(seed);
    }
    cg_free(g);
    node_inst_free(&ni);
}

static double open_bound(const bp *b)
{
    double lb = b->unresolved_lb;
    for (size_t k = 0; k < b->st.n; k++)
        lb = fmin(lb, b->st.v[k].lb);
    return lb;
}

double pk_bnp(const pk_inst *p, sg_ctx *c, pk_sol *best, long *nodes, int *complete,
              double *root_lb)
{
    bp b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.c = c;
    b.best = best;
    b.unresolved_lb = HUGE_VAL;
    b.root_lb = -HUGE_VAL;
    b.min_bins = pk_count_bound(p);
    b.prefix_lb = xcalloc((size_t)p->n + 1, sizeof *b.prefix_lb);
    {
        int *clique = xmalloc((size_t)(p->n > 0 ? p->n : 1) * sizeof *clique);
        int k = pk_clique(p, clique);
        for (int q = 1; q <= p->n; q++)
            b.prefix_lb[q] = pk_count_lb(p, q, clique, k);
        free(clique);
    }
    for (int dir = 0; dir < 2; dir++) {
        b.pc_sum[dir] = xcalloc((size_t)p->n + 1, sizeof *b.pc_sum[dir]);
        b.pc_cnt[dir] = xcalloc((size_t)p->n + 1, sizeof *b.pc_cnt[dir]);
    }
    b.buf = xmalloc((size_t)(p->n + 1) * sizeof *b.buf);
    b.cnt = xcalloc((size_t)(p->n + 1), sizeof *b.cnt);
    pool *root = pool_new();
    if (isfinite(best->cost))
        for (int k = 0; k < best->nbins; k++) {
            int m = 0;
            for (int i = 0; i < p->n; i++)
                if (best->bin_of[i] == k)
                    b.buf[m++] = i;
            if (m)
                pool_add(root, best->bin_class[k], b.buf, m);
        }
    push(&b.st, NULL, NULL, pk_lower_bound(p), root);   /* valid everywhere */
    pool_release(root);
    int plunge = 0;
    while (b.st.n > 0 && !b.stopped) {
        size_t before = b.st.n;
        if (plunge == 0 || plunge > PLUNGE_DEPTH) {
            /* best bound first, so the proven bound rises ... */
            size_t k = 0;
            for (size_t q = 1; q < b.st.n; q++)
                if (b.st.v[q].lb < b.st.v[k].lb - 1e-12)
                    k = q;
            bp_node tmp = b.st.v[k];
            b.st.v[k] = b.st.v[b.st.n - 1];
            b.st.v[b.st.n - 1] = tmp;
            plunge = 0;
        }
        bp_node nd = b.st.v[--b.st.n];
        process(&b, &nd);
        if (b.diver && b.nodes >= b.diver->join_at) {
            if (gap_met_beside(&b, open_bound(&b)))
                diver_halt(&b);
            diver_join(&b, 0);
        }
        free(nd.d);
        pool_release(nd.seed);
        cg_free(nd.master);     /* left when the node was pruned unsolved */
        /* ... and a plunge into the children after it finds packings */
        plunge = b.st.n >= before + 1 ? plunge + 1 : 0;
        if (b.st.n > 0 && (sg_should_stop(c) >= 0 || gap_met_beside(&b, open_bound(&b))))
            b.stopped = 1;     /* open nodes stay open: the bound is theirs */
    }
    /* Open nodes and unbranchable ones bound what is left; with none left
     * the best packing is optimal (or, with none found, there is none). */
    *complete = b.st.n == 0 && b.unresolved_lb == HUGE_VAL;
    if (!*complete && gap_met_beside(&b, open_bound(&b)))
        diver_halt(&b);     /* what it has is good enough: no need to wait */
    diver_join(&b, *complete);
    double lb = open_bound(&b);
    if (*complete)
        lb = isfinite(best->cost) ? best->cost : HUGE_VAL;
    *root_lb = b.root_lb;
    for (size_t k = 0; k < b.st.n; k++) {
        free(b.st.v[k].d);
        pool_release(b.st.v[k].seed);
        cg_free(b.st.v[k].master);
    }
    free(b.st.v);
    free(b.buf);
    free(b.cnt);
    free(b.prefix_lb);
    for (int dir = 0; dir < 2; dir++) {
        free(b.pc_sum[dir]);
        free(b.pc_cnt[dir]);
    }
    *nodes = b.nodes;
    return lb;
}
