/*
 * solve_colgen.c — a much stronger lower bound for the packing core by
 * column generation (Gilmore–Gomory), and a price-and-branch solution.
 *
 * The master LP chooses whole bins ("patterns": a class t and a set S of
 * items that fit and pairwise do not conflict) instead of single
 * assignments:
 *
 *   min  sum_p cost_p l_p + sum_k server_cost_k s_k
 *        sum_{p contains i} l_p >= 1                  (pi_i >= 0)  every item
 *        sum_{p of class t} l_p <= sum_k per_class[k][t] s_k        every class
 *        0 <= s_k <= count_k,  l >= 0
 *
 * Branch and price adds the prefix counts N_q (bins led by root items
 * below q, CATS: what sets the GPUs' clocks) as a chain of bounded columns
 * y_q with one link row per leader, y_{j+1} - y_j = sum_{p led by j} l_p,
 * so a pattern has one entry for them and a branch on N_q is a bound; a
 * child's master starts as a copy of its parent's with that bound changed
 * (cg_branch_prefix), from the parent's optimal basis.
 *
 * cost_p is the cost of the pattern's leader (its lowest item).  Its LP
 * bound is at least as strong as that of the compact model (every LP point
 * of this master is a convex combination of integer bins) and, for bin
 * packing, usually equal to the optimum rounded up; the compact LP of the
 * representative formulation is far weaker on correlation-heavy instances.
 *
 * Pricing: for each class t and leader j, the most valuable set S of items
 * after j that fits beside j and conflicts with nothing in S: a knapsack
 * with conflicts, solved exactly by depth-first branch and bound over
 * bitsets with the fractional-knapsack bound (items in decreasing pi/size).
 * Every leader with a negative reduced cost gives a column.
 *
 * Bounds while iterating (valid for any duals, so the solve can stop early
 * on a time limit and still report a bound): the Lagrangian bound
 * sum pi + min over s of sum_k s_k (server_cost_k + sum_t per_class min(0,
 * r_t)), r_t the least reduced cost of class t without its supply dual;
 * with no servers and unit costs (CorrGPU) Farley's bound sum pi / (1 - r).
 *
 * Price-and-branch: the integer master over the generated columns (GLPK
 * MILP, a share of the time left) gives packings that the heuristics may
 * have missed; items covered twice are kept in their first bin.
 */
#include "solve_int.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RC_EPS 1e-6     /* above GLPK's reduced-cost tolerance (1e-7) */
#define PRICE_NODE_LIMIT 200000L

/* ---- pattern hashes ------------------------------------------------------ */

uint64_t pk_pattern_hash(int t, const int *items, int k)
{
    /* order-independent: a sum of mixed item ids, then the class */
    uint64_t h = 0;
    for (int a = 0; a < k; a++) {
        uint64_t x = (uint64_t)items[a] + 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        h += x ^ (x >> 31);
    }
    h ^= (uint64_t)(t + 1) * 0xff51afd7ed558ccdULL;
    return h ? h : 1;
}

int pk_seen_add(hashtab *seen, int t, const int *items, int k)
{
    return hashtab_put(seen, pk_pattern_hash(t, items, k), NULL, 0) == HASHTAB_NONE;
}

/* ---- column pool ------------------------------------------------------- */

struct cg {
    const pk_inst *p;
    sg_ctx *c;
    glp_prob *P;
    int supply_row0;        /* first supply row (rows 1..n cover the items) */
    int srv_col0;           /* first server column */
    /* columns of patterns: class, item list (in pool), GLPK column */
    int ncols, capcols;
    int *col_class, *col_start, *col_len, *col_glp;
    int *pool;
    size_t npool, cappool;
    /* pricing workspace, in "ratio position" space */
    int words;
    int *pos_item;          /* position -> item, decreasing pi/size */
    int *item_pos;
    /* size, second size (0 without one) and pi by position: the search
     * reads them in position order, so no detour through pos_item */
    double *pos_size, *pos_size2, *pos_pi;
    uint64_t *compat;       /* [n * words]: positions compatible with a position */
    uint64_t *later;        /* [n * words]: positions of items with a higher index */
    uint64_t *allow;        /* [nclass * words] */
    double *pi, *mu;
    double eta, zeta;       /* duals of the bin-count and server-capacity rows */
    int count_row, cap_row; /* 0 when absent */
    int min_bins;
    /* the prefix chain (none without cuts): N_q is column y_q, y_col0 + q - 1
     * (q = 1..ny); link row j (link_row0 + j) says that the bins led by
     * root item j are y_{j+1} - y_j, each with an artificial (artl_col0 + j) */
    int ny, y_col0, link_row0, artl_col0;
    double big;             /* an artificial's cost */
    double *sigma;          /* [ny] duals of the link rows */
    double *lead_adj;       /* [n] the link dual a bin led by item i earns */
    int *root_of;           /* [n] */
    /* subset-row cuts over three items (see cg_separate): cut s is row
     * sr_row[s], sum of lambda_p over patterns holding two or more of
     * sr_item[3s..3s+2] <= 1, with dual sr_dual[s] <= 0; an item's cuts are
     * sr_list[sr_first[i] .. sr_first[i + 1]); sr_cnt counts, per cut, the
     * items of the set being priced (all 0 between searches) */
    int nsr;
    int *sr_row, *sr_item, *sr_cnt, *sr_first, *sr_list;
    double *sr_dual;
    /* depth-first search stack */
    uint64_t *stack;        /* [(n + 1) * words] */
    int *chosen, *best_set;
    int best_k;
    long nodes;
    int inexact;
    int *slo, *shi;         /* server bounds of this node */
    int art_col0;           /* first artificial column */
    hashtab *seen;          /* patterns already columns */
    double z;               /* last master LP value */
    int dual_next;          /* the next master solve starts from a dual feasible basis */
    int it_cap;             /* simplex iterations the next master solve may take (0: any) */
    cg_primal_fn primal;    /* rounds the master LP into packings under --gap (or NULL) */
    void *primal_ctx;
    double known_lb;        /* the node's bound known before its LP (-inf: none) */
};

void cg_set_primal(cg *g, cg_primal_fn fn, void *ctx, double known_lb)
{
    g->primal = fn;
    g->primal_ctx = ctx;
    g->known_lb = known_lb;
}

/* Notes pattern (t, items[0..k)) as the master's column col: its class,
 * items and GLPK column (the caller made the column). */
static void record_pattern(cg *g, int t, const int *items, int k, int col)
{
    if (g->ncols == g->capcols) {
        g->capcols = g->capcols ? g->capcols * 2 : 256;
        g->col_class = xrealloc(g->col_class, (size_t)g->capcols * sizeof(int));
        g->col_start = xrealloc(g->col_start, (size_t)g->capcols * sizeof(int));
        g->col_len = xrealloc(g->col_len, (size_t)g->capcols * sizeof(int));
        g->col_glp = xrealloc(g->col_glp, (size_t)g->capcols * sizeof(int));
    }
    grow_array((void **)&g->pool, &g->cappool, g->npool + (size_t)k, sizeof(int));
    g->col_class[g->ncols] = t;
    g->col_start[g->ncols] = (int)g->npool;
    g->col_len[g->ncols] = k;
    g->col_glp[g->ncols] = col;
    memcpy(g->pool + g->npool, items, (size_t)k * sizeof(int));
    g->npool += (size_t)k;
    g->ncols++;
}

/* ---- subset-row cuts --------------------------------------------------------- */

/* 1 when items[0..k) holds two or more of the three items S: a subset-row
 * cut's coefficient in that pattern (floor(|S & p| / 2)). */
static int holds_two_of(const int *S, const int *items, int k)
{
    int in = 0;
    for (int a = 0; a < k; a++)
        in += items[a] == S[0] || items[a] == S[1] || items[a] == S[2];
    return in >= 2;
}

/* Cut s's coefficient in a pattern holding items[0..k). */
static int sr_coef(const cg *g, int s, const int *items, int k)
{
    return holds_two_of(&g->sr_item[3 * s], items, k);
}

/* Appends the cut rows of a pattern's column after ind/val[1..len]. */
static int sr_entries(const cg *g, const int *items, int k, int *ind, double *val, int len)
{
    for (int s = 0; s < g->nsr; s++)
        if (sr_coef(g, s, items, k)) {
            ind[++len] = g->sr_row[s];
            val[len] = 1;
        }
    return len;
}

/* The pricing search takes item i: the duals of the cuts it completes to
 * two items (<= 0), to add to the set's value. */
static double sr_enter(cg *g, int i)
{
    double pen = 0;
    for (int a = g->sr_first[i]; a < g->sr_first[i + 1]; a++) {
        int s = g->sr_list[a];
        if (++g->sr_cnt[s] == 2)
            pen += g->sr_dual[s];
    }
    return pen;
}

static void sr_leave(cg *g, int i)
{
    for (int a = g->sr_first[i]; a < g->sr_first[i + 1]; a++)
        g->sr_cnt[g->sr_list[a]]--;
}

/* sr_first / sr_list again after cuts were added. */
static void sr_index(cg *g)
{
    int n = g->p->n;
    free(g->sr_first);
    free(g->sr_list);
    g->sr_first = xcalloc((size_t)n + 2, sizeof(int));
    g->sr_list = xmalloc((size_t)(3 * g->nsr + 1) * sizeof(int));
    for (int a = 0; a < 3 * g->nsr; a++)
        g->sr_first[g->sr_item[a] + 2]++;
    for (int i = 0; i < n; i++)
        g->sr_first[i + 2] += g->sr_first[i + 1];
    for (int a = 0; a < 3 * g->nsr; a++)
        g->sr_list[g->sr_first[g->sr_item[a] + 1]++] = a / 3;
}

/* Adds a column unless the same pattern is one already; 1 when added. */
static int add_pattern(cg *g, int t, const int *items, int k)
{
    const pk_inst *p = g->p;
    if (!pk_seen_add(g->seen, t, items, k))
        return 0;
    int lead = items[0];
    for (int a = 1; a < k; a++)
        lead = items[a] < lead ? items[a] : lead;
    int col = glp_add_cols(g->P, 1);
    glp_set_col_bnds(g->P, col, GLP_LO, 0, 0);
    glp_set_obj_coef(g->P, col, p->cls[t].lead_cost[lead]);
    int *ind = xmalloc((size_t)(k + 4 + g->nsr) * sizeof *ind);
    double *val = xmalloc((size_t)(k + 4 + g->nsr) * sizeof *val);
    for (int a = 0; a < k; a++) {
        ind[a + 1] = items[a] + 1;
        val[a + 1] = 1;
    }
    int len = k;
    if (p->ntype > 0) {
        ind[++len] = g->supply_row0 + t;
        val[len] = 1;
    }
    if (g->count_row) {
        ind[++len] = g->count_row;
        val[len] = 1;
    }
    if (g->ny > 0) {
        ind[++len] = g->link_row0 + g->root_of[lead];
        val[len] = 1;
    }
    len = sr_entries(g, items, k, ind, val, len);
    glp_set_mat_col(g->P, col, len, ind, val);
    free(ind);
    free(val);
    record_pattern(g, t, items, k, col);
    return 1;
}

/* The prefix chain (CATS: a GPU's cost is set by its leader, so how many
 * GPUs the most demanding tasks lead is what branching decides): N_q as
 * columns y_q fed by one link row per root item, where rows N_q >= lo
 * would hold every column led below q.  Each pattern then has one entry
 * for the prefix counts instead of one per prefix row (the first 128
 * pai-like tasks: 26 entries a column), and a branch on N_q is a bound.
 * lo_q is the largest prefix_lo up to q (N_q never decreases); hi_q is at
 * most q (in a partition every bin has its own leader) and prefix_hi. */
static void add_prefix_chain(cg *g, const cg_cuts *cuts)
{
    const pk_inst *p = g->p;
    size_t n = (size_t)(p->n > 0 ? p->n : 1);
    g->root_of = xmalloc(n * sizeof(int));
    g->lead_adj = xcalloc(n, sizeof(double));
    for (int i = 0; i < p->n; i++)
        g->root_of[i] = cuts && cuts->root_of ? cuts->root_of[i] : i;
    if (!cuts || !cuts->prefix_lo || cuts->n0 < 1)
        return;
    int n0 = cuts->n0;
    g->ny = n0;
    g->sigma = xcalloc((size_t)n0, sizeof(double));
    g->link_row0 = glp_add_rows(g->P, n0);
    for (int j = 0; j < n0; j++)
        glp_set_row_bnds(g->P, g->link_row0 + j, GLP_FX, 0, 0);
    g->y_col0 = glp_add_cols(g->P, n0);
    int *hi = xmalloc((size_t)(n0 + 2) * sizeof *hi);
    hi[n0 + 1] = INT_MAX;
    for (int q = n0; q >= 1; q--) {     /* N_q <= N_q' for q < q' */
        int h = cuts->prefix_hi ? cuts->prefix_hi[q] : INT_MAX;
        hi[q] = h < hi[q + 1] ? h : hi[q + 1];
    }
    int lo = 0;
    for (int q = 1; q <= n0; q++) {
        lo = cuts->prefix_lo[q] > lo ? cuts->prefix_lo[q] : lo;
        int h = hi[q] < q ? hi[q] : q, l = lo < h ? lo : h;    /* lo > h: node_prefix's */
        int col = g->y_col0 + q - 1;
        glp_set_col_bnds(g->P, col, h > l ? GLP_DB : GLP_FX, l, h);
        int ind[3], len = 0;
        double val[3];
        ind[++len] = g->link_row0 + q - 1;      /* y_q - y_{q-1} = bins led by q - 1 */
        val[len] = -1;
        if (q < n0) {
            ind[++len] = g->link_row0 + q;
            val[len] = 1;
        }
        glp_set_mat_col(g->P, col, len, ind, val);
    }
    free(hi);
    g->artl_col0 = glp_add_cols(g->P, n0);
    for (int j = 0; j < n0; j++) {
        int ind[2] = {0, g->link_row0 + j};
        double val[2] = {0, 1};
        glp_set_col_bnds(g->P, g->artl_col0 + j, GLP_LO, 0, 0);
        glp_set_obj_coef(g->P, g->artl_col0 + j, g->big);
        glp_set_mat_col(g->P, g->artl_col0 + j, 1, ind, val);
    }
}

static void master_init(cg *g, const int *slo, const int *shi, const cg_cuts *cuts)
{
    int min_bins = cuts ? cuts->min_bins : 0;
    const pk_inst *p = g->p;
    glp_add_rows(g->P, p->n);
    for (int i = 1; i <= p->n; i++)
        glp_set_row_bnds(g->P, i, GLP_LO, 1, 0);
    /* Valid rows from the count bound: at least min_bins bins, and servers
     * with room for them (a fractional LP would otherwise pay for 3/8 of a
     * server to run 3 GPUs). */
    g->min_bins = min_bins;
    if (min_bins > 0) {
        g->count_row = glp_add_rows(g->P, 1);
        glp_set_row_bnds(g->P, g->count_row, GLP_LO, min_bins, 0);
    }
    if (p->ntype > 0) {
        g->supply_row0 = glp_add_rows(g->P, p->nclass);
        for (int t = 0; t < p->nclass; t++)
            glp_set_row_bnds(g->P, g->supply_row0 + t, GLP_UP, 0, 0);
        if (min_bins > 0) {
            g->cap_row = glp_add_rows(g->P, 1);
            glp_set_row_bnds(g->P, g->cap_row, GLP_LO, min_bins, 0);
        }
        g->srv_col0 = glp_add_cols(g->P, p->ntype);
        for (int k = 0; k < p->ntype; k++) {
            int col = g->srv_col0 + k;
            int lo = slo ? slo[k] : 0, hi = shi ? shi[k] : p->type[k].count;
            int gk = 0;
            for (int t = 0; t < p->nclass; t++)
                gk += p->type[k].per_class[t];
            if (p->ntype == 1 && gk > 0 && min_bins > 0) {
                int need = (min_bins + gk - 1) / gk;    /* servers, rounded up */
                lo = need > lo ? need : lo;
            }
            glp_set_col_bnds(g->P, col, hi > lo ? GLP_DB : GLP_FX, lo, hi);
            g->slo[k] = lo;
            g->shi[k] = hi;
            glp_set_obj_coef(g->P, col, p->type[k].cost);
            int len = 0;
            int *ci = xmalloc((size_t)(p->nclass + 2) * sizeof *ci);
            double *cv = xmalloc((size_t)(p->nclass + 2) * sizeof *cv);
            for (int t = 0; t < p->nclass; t++)
                if (p->type[k].per_class[t] > 0) {
                    ci[++len] = g->supply_row0 + t;
                    cv[len] = -p->type[k].per_class[t];
                }
            if (g->cap_row && gk > 0) {
                ci[++len] = g->cap_row;
                cv[len] = gk;
            }
            glp_set_mat_col(g->P, col, len, ci, cv);
            free(ci);
            free(cv);
        }
    }
    /* An artificial costs more than any whole packing, so a feasible LP
     * does not use one at its optimum.  Not more than that: GLPK's dual
     * tolerance scales with the largest cost, and a huge one lets the
     * simplex stop with columns of clearly negative reduced cost. */
    double total = 1;
    for (int i = 0; i < p->n; i++) {
        double m = 0;
        for (int t = 0; t < p->nclass; t++)
            if (p->cls[t].lead_cost[i] < HUGE_VAL)
                m = fmax(m, p->cls[t].lead_cost[i]);
        total += m;
    }
    for (int k = 0; k < p->ntype; k++)
        total += p->type[k].cost * p->type[k].count;
    double big = 10 * total;
    g->big = big;
    int first = glp_add_cols(g->P, p->n + 1);
    g->art_col0 = first;
    {
        /* the last artificial covers the count rows */
        int *ind = xmalloc(3 * sizeof *ind), len = 0;
        double *val = xmalloc(3 * sizeof *val);
        if (g->count_row)
            ind[++len] = g->count_row;
        if (g->cap_row)
            ind[++len] = g->cap_row;
        for (int k = 1; k <= len; k++)
            val[k] = 1;
        int col = first + p->n;
        glp_set_col_bnds(g->P, col, GLP_LO, 0, 0);
        glp_set_obj_coef(g->P, col, big);
        glp_set_mat_col(g->P, col, len, ind, val);
        free(ind);
        free(val);
    }
    for (int i = 0; i < p->n; i++) {
        int ind[2] = {0, i + 1};
        double val[2] = {0, 1};
        glp_set_col_bnds(g->P, first + i, GLP_LO, 0, 0);
        glp_set_obj_coef(g->P, first + i, big);
        glp_set_mat_col(g->P, first + i, 1, ind, val);
    }
    add_prefix_chain(g, cuts);
}

/* ---- pricing --------------------------------------------------------------- */

typedef struct ratio_key {
    double r;
    int i;
} ratio_key;

static int cmp_ratio(const void *a, const void *b)
{
    const ratio_key *x = a, *y = b;
    if (x->r != y->r)
        return x->r > y->r ? -1 : 1;
    return x->i - y->i;
}

static inline void set_bit(uint64_t *s, int k)
{
    s[k >> 6] |= 1ULL << (k & 63);
}

/* Orders items by pi/size and builds the bitsets the search runs on. */
static void pricing_prepare(cg *g)
{
    const pk_inst *p = g->p;
    int n = p->n, w = g->words;
    ratio_key *key = xmalloc((size_t)n * sizeof *key);
    for (int i = 0; i < n; i++) {
        key[i].r = g->pi[i] <= SOLVE_EPS ? -1 : g->pi[i] / fmax(p->size[i], 1e-6);
        key[i].i = i;
    }
    qsort(key, (size_t)n, sizeof *key, cmp_ratio);
    for (int q = 0; q < n; q++) {
        int i = key[q].i;
        g->pos_item[q] = i;
        g->item_pos[i] = q;
        g->pos_size[q] = p->size[i];
        g->pos_size2[q] = p->size2 ? p->size2[i] : 0;
        g->pos_pi[q] = g->pi[i];
    }
    free(key);
    memset(g->compat, 0, (size_t)n * (size_t)w * sizeof(uint64_t));
    for (int a = 0; a < n; a++) {
        int i = g->pos_item[a];
        for (int b = 0; b < n; b++) {
            int k = g->pos_item[b];
            if (b != a && g->pi[k] > SOLVE_EPS && !pk_conflict(p, i, k))
                set_bit(&g->compat[(size_t)a * (size_t)w], b);
        }
    }
    /* later[j]: positions of items j+1 .. n-1 */
    memset(g->later, 0, (size_t)n * (size_t)w * sizeof(uint64_t));
    for (int j = n - 2; j >= 0; j--) {
        memcpy(&g->later[(size_t)j * (size_t)w], &g->later[(size_t)(j + 1) * (size_t)w],
               (size_t)w * sizeof(uint64_t));
        set_bit(&g->later[(size_t)j * (size_t)w], g->item_pos[j + 1]);
    }
    memset(g->allow, 0, (size_t)p->nclass * (size_t)w * sizeof(uint64_t));
    for (int t = 0; t < p->nclass; t++)
        for (int i = 0; i < n; i++)
            if (pk_allowed(p, i, t))
                set_bit(&g->allow[(size_t)t * (size_t)w], g->item_pos[i]);
}

typedef struct knap {
    double cap, cap2;
    const pk_class *cls;
} knap;

/* Fractional-knapsack bound of the candidates in R with room left, those
 * of word x taken from m (R[x] less the bits already passed), so the
 * search can start the walk where its own scan stands. */
static double frac_bound(const cg *g, const uint64_t *R, int x, uint64_t m, double room)
{
    double v = 0;
    for (;;) {
        while (m) {
            int b = x * 64 + __builtin_ctzll(m);
            m &= m - 1;
            double s = g->pos_size[b];
            if (s <= room) {
                v += g->pos_pi[b];
                room -= s;
            } else {
                return v + g->pos_pi[b] * (room / s);
            }
        }
        if (++x >= g->words)
            return v;
        m = R[x];
    }
}

/* R2: the positions after b in R compatible with b, where the search's
 * scan stands at word x with bits m (b's bit and those before it dropped;
 * R's words before x hold only dropped bits). */
static void child_set(const cg *g, uint64_t *R2, const uint64_t *R, int x, uint64_t m, int b)
{
    int w = g->words;
    const uint64_t *cb = &g->compat[(size_t)b * (size_t)w];
    for (int y = 0; y < x; y++)
        R2[y] = 0;
    R2[x] = m & cb[x];
    for (int y = x + 1; y < w; y++)
        R2[y] = R[y] & cb[y];
}

/* Depth-first search for the set of largest pi value in R (depth d on the
 * stack) that fits; improves g->best_* when above *best. */
static void knap_dfs(cg *g, const knap *kn, int d, double used, double used2, double value,
                     double *best)
{
    int w = g->words;
    const uint64_t *R = &g->stack[(size_t)d * (size_t)w];
    if (value > *best + SOLVE_EPS) {
        *best = value;
        g->best_k = d;
        memcpy(g->best_set, g->chosen, (size_t)d * sizeof(int));
    }
    if (++g->nodes > PRICE_NODE_LIMIT) {
        g->inexact = 1;
        return;
    }
    const double *size = g->pos_size, *size2 = g->pos_size2, *pi = g->pos_pi;
    double room = kn->cap - used;
    int check2 = g->p->size2 && kn->cap2 > 0;
    /* Each step takes R's first bit b and goes on without it (the exclude
     * branch), so the scan keeps its place (word x, and m: that word's bits
     * not yet taken) instead of looking for the first bit again, and R
     * itself is left as it came. */
    int x = 0;
    uint64_t m = R[0];
    for (;; m &= m - 1) {
        while (!m) {
            if (++x >= w)
                return;
            m = R[x];
        }
        int b = x * 64 + __builtin_ctzll(m);
        double s = size[b];
        /* & not &&: both tests are cheap, a branch on each is not */
        int fits = !(used + s > kn->cap + SOLVE_EPS) &
                   !(check2 & (used2 + size2[b] > kn->cap2 + SOLVE_EPS));
        if (s > room) {
            /* Most steps: b alone overflows the room, so the bound is its
             * fraction (what frac_bound returns then) and mostly neither
             * prunes nor fits; one branch for both leaves the mispredicted
             * one to the step that ends such a run. */
            int prune = value + pi[b] * (room / s) <= *best + SOLVE_EPS;
            if (!(prune | fits))
                continue;
            if (prune)
                return;
        } else if (value + frac_bound(g, R, x, m, room) <= *best + SOLVE_EPS) {
            return;
        }
        if (!fits)
            continue;
        child_set(g, &g->stack[(size_t)(d + 1) * (size_t)w], R, x, m & (m - 1), b);
        int i = g->pos_item[b];
        g->chosen[d] = i;
        /* the cuts' duals only lower a set's value, so the bounds above,
         * which leave them out, stay bounds */
        double v = value + pi[b] + (g->nsr ? sr_enter(g, i) : 0);
        knap_dfs(g, kn, d + 1, used + s, used2 + size2[b], v, best);
        if (g->nsr)
            sr_leave(g, i);
        if (g->inexact)
            return;
    }
}

/* Best pattern of class t led by item j: returns its reduced cost (without
 * the supply dual) and leaves the items in g->best_set[0..best_k). */
static double price_leader(cg *g, int t, int j, double rc_best)
{
    const pk_inst *p = g->p;
    const pk_class *cls = &p->cls[t];
    int w = g->words;
    /* the count row pays eta per bin, the leader's link row its dual */
    double cost = cls->lead_cost[j] - g->eta - g->lead_adj[j];
    /* Prune: even taking every later item fractionally cannot beat rc_best. */
    uint64_t *R = g->stack;
    int pj = g->item_pos[j];
    for (int x = 0; x < w; x++)
        R[x] = g->compat[(size_t)pj * (size_t)w + (size_t)x] &
               g->later[(size_t)j * (size_t)w + (size_t)x] &
               g->allow[(size_t)t * (size_t)w + (size_t)x];
    knap kn = {cls->cap - p->size[j], cls->cap2 > 0 ? cls->cap2 - (p->size2 ? p->size2[j] : 0) : 0,
               cls};
    double need = cost - g->pi[j] - rc_best;   /* value that would tie rc_best */
    if (frac_bound(g, R, 0, R[0], kn.cap) <= need + SOLVE_EPS)
        return HUGE_VAL;
    double best = need;
    g->best_k = -1;
    g->chosen[0] = j;
    g->nodes = 0;
    /* search in the stack from depth 1 (depth 0 holds j) */
    memcpy(&g->stack[(size_t)w], R, (size_t)w * sizeof(uint64_t));
    if (g->nsr)
        sr_enter(g, j);     /* one item completes no cut */
    knap_dfs(g, &kn, 1, 0, 0, g->pi[j], &best);   /* kn holds the room beside j */
    if (g->nsr)
        sr_leave(g, j);
    if (g->best_k < 0)
        return HUGE_VAL;
    return cost - best;
}

/* One pricing round: adds every leader's column with negative reduced
 * cost; *rmin[t] receives the least reduced cost of class t (without the
 * supply dual).  Returns the number of columns added. */
static int pricing_round(cg *g, double *rmin)
{
    const pk_inst *p = g->p;
    pricing_prepare(g);
    int added = 0;
    g->inexact = 0;
    int *items = xmalloc((size_t)(p->n + 1) * sizeof *items);
    for (int t = 0; t < p->nclass; t++) {
        rmin[t] = 0;
        double mu = p->ntype > 0 ? g->mu[t] : 0;
        for (int j = 0; j < p->n; j++) {
            /* Every item may lead, even one with pi = 0: the count rows pay
             * a bin by its leader's position, so dropping such a leader can
             * make the pattern dearer. */
            if (!pk_allowed(p, j, t))
                continue;
            /* rc with the supply dual: cost - pi(S) - mu_t (mu_t <= 0). */
            /* Searching below the larger of the two keeps rmin exact (for
             * the bound) and finds every column worth adding. */
            double rc = price_leader(g, t, j, fmax(rmin[t], mu - RC_EPS));
            if (rc >= HUGE_VAL)
                continue;
            if (rc < rmin[t])
                rmin[t] = rc;
            if (rc - mu < -RC_EPS) {
                /* a pattern GLPK already has means its reduced cost is
                 * within GLPK's tolerance: not a new column */
                memcpy(items, g->best_set, (size_t)g->best_k * sizeof *items);
                int ad = add_pattern(g, t, items, g->best_k);
                /* GLPK already has it: its reduced cost should be >= 0; if
                 * clearly not, GLPK stopped early and no bound is claimed */
                if (!ad && rc - mu < -1e-4)
                    g->inexact = 1;
                added += ad;
            }
        }
    }
    free(items);
    return added;
}

/* ---- bounds from the duals ------------------------------------------------ */

/* The prefix chain's share of the Lagrangian bound: each y_q at the end of
 * its bounds its reduced cost sigma_{q-1} - sigma_q prefers; -HUGE_VAL when
 * a link artificial has a negative reduced cost (unbounded below). */
static double chain_term(const cg *g)
{
    double v = 0;
    for (int q = 1; q <= g->ny; q++) {
        if (g->sigma[q - 1] > g->big)
            return -HUGE_VAL;
        double d = g->sigma[q - 1] - (q < g->ny ? g->sigma[q] : 0);
        int col = g->y_col0 + q - 1;
        v += d * (d >= 0 ? glp_get_col_lb(g->P, col) : glp_get_col_ub(g->P, col));
    }
    return v;
}

/* rmin[t]: least reduced cost of class t including the count dual eta,
 * without the supply dual. */
static double lagrange_bound(const cg *g, const double *rmin)
{
    const pk_inst *p = g->p;
    double sum_pi = 0;
    for (int i = 0; i < p->n; i++)
        sum_pi += g->pi[i];
    double fixed = sum_pi + (g->eta + g->zeta) * g->min_bins;
    fixed += chain_term(g);
    for (int s = 0; s < g->nsr; s++)
        fixed += g->sr_dual[s];     /* each cut's right-hand side is 1 */
    if (p->ntype == 0) {
        /* Farley: with every bin costing q, (pi, eta) / (1 - r/q) is dual
         * feasible. */
        double r = 0;
        for (int t = 0; t < p->nclass; t++)
            r = fmin(r, rmin[t]);
        if (p->quantum <= 0)
            return r >= -RC_EPS ? fixed : -HUGE_VAL;
        return fixed / (1 - r / p->quantum);
    }
    double lb = fixed;
    for (int k = 0; k < p->ntype; k++) {
        double coef = p->type[k].cost;
        for (int t = 0; t < p->nclass; t++) {
            coef += p->type[k].per_class[t] * fmin(0, rmin[t]);
            coef -= g->zeta * p->type[k].per_class[t];
        }
        lb += coef * (coef < 0 ? g->shi[k] : g->slo[k]);
    }
    return lb;
}

/* ---- the node LP -------------------------------------------------------------- */

void cg_free(cg *g)
{
    if (!g)
        return;
    if (g->P)
        glp_delete_prob(g->P);
    free(g->col_class);
    free(g->col_start);
    free(g->col_len);
    free(g->col_glp);
    free(g->pool);
    free(g->pos_item);
    free(g->item_pos);
    free(g->pos_size);
    free(g->pos_size2);
    free(g->pos_pi);
    free(g->compat);
    free(g->later);
    free(g->allow);
    free(g->pi);
    free(g->mu);
    free(g->stack);
    free(g->chosen);
    free(g->best_set);
    free(g->slo);
    free(g->shi);
    free(g->sigma);
    free(g->lead_adj);
    free(g->root_of);
    free(g->sr_row);
    free(g->sr_item);
    free(g->sr_cnt);
    free(g->sr_first);
    free(g->sr_list);
    free(g->sr_dual);
    hashtab_free(g->seen);
    free(g);
}

/* The pricing workspace and an empty minimising master. */
static cg *cg_new_empty(const pk_inst *p)
{
    cg *g = xcalloc(1, sizeof *g);
    g->seen = hashtab_new(NULL, NULL);
    g->p = p;
    g->words = (p->n + 63) / 64 > 0 ? (p->n + 63) / 64 : 1;
    size_t n = (size_t)(p->n > 0 ? p->n : 1), nw = n * (size_t)g->words;
    g->pos_item = xmalloc(n * sizeof(int));
    g->item_pos = xmalloc(n * sizeof(int));
    g->pos_size = xmalloc(n * sizeof(double));
    g->pos_size2 = xmalloc(n * sizeof(double));
    g->pos_pi = xmalloc(n * sizeof(double));
    g->compat = xmalloc(nw * sizeof(uint64_t));
    g->later = xmalloc(nw * sizeof(uint64_t));
    g->allow = xmalloc((size_t)p->nclass * (size_t)g->words * sizeof(uint64_t));
    g->pi = xcalloc(n, sizeof(double));
    g->mu = xcalloc((size_t)p->nclass, sizeof(double));
    g->stack = xmalloc((nw + 2 * (size_t)g->words) * sizeof(uint64_t));
    g->chosen = xmalloc((n + 1) * sizeof(int));
    g->best_set = xmalloc((n + 1) * sizeof(int));
    g->slo = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof(int));
    g->shi = xcalloc((size_t)(p->ntype > 0 ? p->ntype : 1), sizeof(int));
    g->P = glp_create_prob();
    glp_set_obj_dir(g->P, GLP_MIN);
    return g;
}

cg *cg_new(const pk_inst *p, const int *slo, const int *shi, const cg_cuts *cuts)
{
    cg *g = cg_new_empty(p);
    master_init(g, slo, shi, cuts);
    return g;
}

void cg_add(cg *g, int t, const int *items, int k)
{
    (void)add_pattern(g, t, items, k);
}

static void read_duals(cg *g)
{
    const pk_inst *p = g->p;
    for (int i = 0; i < p->n; i++)
        g->pi[i] = fmax(0, glp_get_row_dual(g->P, i + 1));
    for (int t = 0; t < p->nclass && p->ntype > 0; t++)
        g->mu[t] = fmin(0, glp_get_row_dual(g->P, g->supply_row0 + t));
    g->eta = g->count_row ? fmax(0, glp_get_row_dual(g->P, g->count_row)) : 0;
    for (int j = 0; j < g->ny; j++)
        g->sigma[j] = glp_get_row_dual(g->P, g->link_row0 + j);
    for (int i = 0; i < p->n; i++)
        g->lead_adj[i] = g->ny > 0 ? g->sigma[g->root_of[i]] : 0;
    g->zeta = g->cap_row ? fmax(0, glp_get_row_dual(g->P, g->cap_row)) : 0;
    for (int s = 0; s < g->nsr; s++)
        g->sr_dual[s] = fmin(0, glp_get_row_dual(g->P, g->sr_row[s]));
}

static int solve_master(cg *g, sg_ctx *c)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_ERR;
    if (g->dual_next)
        sp.meth = GLP_DUALP;    /* a parent's optimal basis with a new bound: dual feasible */
    if (g->it_cap > 0)
        sp.it_lim = g->it_cap;
    g->dual_next = 0;
    g->it_cap = 0;
    int rc = sg_simplex(c, g->P, &sp);     /* in slices: the cancel flag is read */
    if (rc == GLP_ETMLIM || rc == GLP_EITLIM)
        return 2;
    if (rc != 0)
        return -1;
    if (glp_get_status(g->P) == GLP_NOFEAS)
        return 1;       /* GLPK found no feasible point: see cg_run */
    return glp_get_status(g->P) == GLP_OPT ? 0 : -1;
}

/* After GLPK called the master infeasible, which it never is (see
 * cg_run): the next solve starts scaled, from a fresh basis. */
static void master_fresh_basis(cg *g)
{
    glp_scale_prob(g->P, GLP_SF_AUTO);
    glp_adv_basis(g->P, 0);
}

int cg_run(cg *g, sg_ctx *c, double ub, double *lb_out, int *converged)
{
    const pk_inst *p = g->p;
    double lb = -HUGE_VAL, z = HUGE_VAL;
    double *rmin = xcalloc((size_t)p->nclass, sizeof *rmin);
    int rc = 0, restarted = 0;
    *converged = 0;
    for (int iter = 0;; iter++) {
        if (sg_should_stop(c) >= 0) {
            rc = 1;
            break;
        }
        int ms = solve_master(g, c);
        if (ms == 1 && !restarted) {
            /* The master cannot be infeasible: an artificial column meets
             * every row that asks for something (the branching rows that
             * could contradict each other are caught by node_prefix and
             * node_build before).  GLPK said so anyway — on the first 256
             * pai-like tasks with per-task kappa, at the root, which then
             * counted as pruned and made a packing 0.3 % above the bound
             * "optimal".  Once more, scaled, from a fresh basis ... */
            master_fresh_basis(g);
            restarted = 1;
            continue;
        }
        if (ms == 1) {
            rc = -1;            /* ... and no bound when it says so again */
            break;
        }
        if (ms != 0) {
            rc = ms == 2 ? 1 : -1;
            break;
        }
        z = glp_get_obj_val(g->P);
        read_duals(g);
        /* Under --gap the packing side must move too: a root whose
         * pricing runs for minutes would otherwise compare a rising bound
         * with the heuristic's packing only, and meet the gap only when
         * the LP is rounded at its end. */
        if (g->primal && c->o->mip_gap > 0 && iter % CG_PRIMAL_EVERY == 0)
            ub = fmin(ub, g->primal(g->primal_ctx, g));
        int added = pricing_round(g, rmin);
        if (!g->inexact) {
            lb = fmax(lb, lagrange_bound(g, rmin));
            if (added == 0) {
                lb = fmax(lb, z);
                *converged = 1;
                break;
            }
        }
        /* the node's bound from before counts: with inexact pricing
         * (large roots) the LP gives none until it converges */
        if (pk_gap_met(p, c, g->primal && c->o->mip_gap > 0 ? fmax(lb, g->known_lb) : lb, ub))
            break;
        if (p->quantum > 0 && solve_quanta(lb, p->quantum) >= solve_quanta(z, p->quantum))
            break;              /* the rounded bound cannot rise further */
        if (added == 0) {
            rc = 1;             /* pricing gave up: no proof from this LP */
            break;
        }
    }
    free(rmin);
    *lb_out = lb;
    g->z = z;
    return rc;
}

double cg_value(const cg *g, int col)
{
    return glp_get_col_prim(g->P, g->col_glp[col]);
}

double cg_servers(const cg *g, int k)
{
    return glp_get_col_prim(g->P, g->srv_col0 + k);
}

int cg_ncols(const cg *g)
{
    return g->ncols;
}

const int *cg_col(const cg *g, int col, int *cls, int *len)
{
    *cls = g->col_class[col];
    *len = g->col_len[col];
    return g->pool + g->col_start[col];
}

/* Artificial columns in the LP solution: the node has no feasible cover. */
int cg_uses_artificial(const cg *g)
{
    for (int i = 0; i <= g->p->n; i++)
        if (glp_get_col_prim(g->P, g->art_col0 + i) > SOLVE_LP_EPS)
            return 1;
    for (int j = 0; j < g->ny; j++)
        if (glp_get_col_prim(g->P, g->artl_col0 + j) > SOLVE_LP_EPS)
            return 1;
    return 0;
}

glp_prob *cg_master(cg *g)
{
    return g->P;
}

int cg_col_glp(const cg *g, int col)
{
    return g->col_glp[col];
}

/* ---- a child's master from its parent's ------------------------------------ */

typedef struct col_rc {
    double rc;
    int c;
} col_rc;

static int cmp_col_rc(const void *a, const void *b)
{
    const col_rc *x = a, *y = b;
    if (x->rc != y->rc)
        return x->rc < y->rc ? -1 : 1;
    return x->c - y->c;
}

/* The parent's pattern columns a child keeps (g->P a copy of the parent's
 * master): the basic ones and the KEEP_PER_ITEM x n of least reduced cost.
 * Dropping nonbasic columns leaves the basis optimal, keeps each simplex
 * pivot cheap (a master grows by up to n columns a pricing round) and
 * pricing brings back any the child needs: they leave the seen set too. */
#define KEEP_PER_ITEM 12
static void keep_columns(cg *g, const cg *parent)
{
    int nc = parent->ncols, keep = KEEP_PER_ITEM * parent->p->n, m = 0;
    col_rc *o = xmalloc((size_t)(nc > 0 ? nc : 1) * sizeof *o);
    char *kept = xcalloc((size_t)(nc > 0 ? nc : 1), 1);
    for (int c = 0; c < nc; c++) {
        int col = parent->col_glp[c];
        if (glp_get_col_stat(parent->P, col) == GLP_BS)
            kept[c] = 1;
        else
            o[m++] = (col_rc){glp_get_col_dual(parent->P, col), c};
    }
    qsort(o, (size_t)m, sizeof *o, cmp_col_rc);
    for (int a = 0; a < m && a < keep; a++)
        kept[o[a].c] = 1;
    int *del = xmalloc((size_t)(nc + 1) * sizeof *del), ndel = 0;
    for (int c = 0; c < nc; c++)
        if (!kept[c])
            del[++ndel] = parent->col_glp[c];
    if (ndel > 0)
        glp_del_cols(g->P, ndel, del);  /* later columns move down, in order */
    int base = nc > 0 ? parent->col_glp[0] : 0, next = base;
    for (int c = 0; c < nc; c++) {
        if (!kept[c])
            continue;
        int k = parent->col_len[c], t = parent->col_class[c];
        const int *it = parent->pool + parent->col_start[c];
        pk_seen_add(g->seen, t, it, k);
        record_pattern(g, t, it, k, next++);
    }
    free(del);
    free(kept);
    free(o);
}

/* The parent's cuts a child keeps (g->P a copy of the parent's master):
 * those binding at the parent's optimum.  A slack cut's row is basic, so
 * deleting it leaves the basis optimal; pricing pays for every cut kept,
 * and cuts added node after node would otherwise pile up down the tree. */
static void keep_cuts(cg *g, const cg *parent)
{
    if (parent->nsr == 0)
        return;
    int *del = xmalloc((size_t)(parent->nsr + 1) * sizeof *del), ndel = 0;
    g->sr_row = xmalloc((size_t)parent->nsr * sizeof(int));
    g->sr_item = xmalloc((size_t)(3 * parent->nsr) * sizeof(int));
    for (int s = 0; s < parent->nsr; s++) {
        int row = parent->sr_row[s];
        if (glp_get_row_stat(parent->P, row) == GLP_BS) {
            del[++ndel] = row;
            continue;
        }
        g->sr_row[g->nsr] = row - ndel;     /* cut rows are the last, in order */
        memcpy(&g->sr_item[3 * g->nsr], &parent->sr_item[3 * s], 3 * sizeof(int));
        g->nsr++;
    }
    if (ndel > 0)
        glp_del_rows(g->P, ndel, del);
    g->sr_cnt = xcalloc((size_t)(g->nsr > 0 ? g->nsr : 1), sizeof(int));
    g->sr_dual = xcalloc((size_t)(g->nsr > 0 ? g->nsr : 1), sizeof(double));
    sr_index(g);
    free(del);
}

cg *cg_branch_prefix(cg *parent, const pk_inst *p, int q, int bound, int up)
{
    assert(p->n == parent->p->n);
    cg *g = cg_new_empty(p);
    glp_copy_prob(g->P, parent->P, GLP_OFF);     /* the basis statuses come along */
    size_t n = (size_t)(p->n > 0 ? p->n : 1);
    keep_columns(g, parent);
    g->supply_row0 = parent->supply_row0;
    g->srv_col0 = parent->srv_col0;
    g->art_col0 = parent->art_col0;
    g->count_row = parent->count_row;
    g->cap_row = parent->cap_row;
    g->min_bins = parent->min_bins;
    memcpy(g->slo, parent->slo, (size_t)(p->ntype > 0 ? p->ntype : 1) * sizeof(int));
    memcpy(g->shi, parent->shi, (size_t)(p->ntype > 0 ? p->ntype : 1) * sizeof(int));
    g->root_of = xmemdup(parent->root_of, n * sizeof(int));
    g->lead_adj = xcalloc(n, sizeof(double));
    g->ny = parent->ny;
    g->y_col0 = parent->y_col0;
    g->link_row0 = parent->link_row0;
    g->artl_col0 = parent->artl_col0;
    g->big = parent->big;
    g->sigma = xcalloc((size_t)(g->ny > 0 ? g->ny : 1), sizeof(double));
    keep_cuts(g, parent);
    assert(q >= 1 && q <= g->ny);
    int col = g->y_col0 + q - 1;
    double lo = glp_get_col_lb(g->P, col), hi = glp_get_col_ub(g->P, col);
    if (up)
        hi = fmin(hi, bound);
    else
        lo = fmax(lo, bound);
    lo = fmin(lo, hi);      /* lo > hi: node_prefix calls the node infeasible */
    glp_set_col_bnds(g->P, col, hi > lo ? GLP_DB : GLP_FX, lo, hi);
    g->dual_next = 1;
    return g;
}

int cg_resolve(cg *g, sg_ctx *c, int max_iters, double *z)
{
    if (sg_should_stop(c) >= 0)
        return 1;
    int dual = g->dual_next;
    g->it_cap = max_iters;
    int ms = solve_master(g, c);
    if (ms == 1) {
        master_fresh_basis(g);
        ms = solve_master(g, c);
    }
    if (ms == 2 && dual && sg_should_stop(c) < 0 && glp_get_dual_stat(g->P) == GLP_FEAS) {
        /* stopped at max_iters: the dual simplex's value only rises to the
         * optimum, and the next solve goes on from this basis */
        g->dual_next = 1;
        ms = 0;
    }
    if (ms != 0)
        return ms == 2 ? 1 : -1;
    g->z = *z = glp_get_obj_val(g->P);
    return 0;
}

void cg_rebind(cg *g, const pk_inst *p)
{
    g->p = p;       /* the old copy may be gone: nothing of it is read */
}

/* ---- separating subset-row cuts --------------------------------------------- */

typedef struct sr_cand {
    double viol;
    int a, b, c;
} sr_cand;

static int cmp_sr_cand(const void *x, const void *y)
{
    const sr_cand *u = x, *v = y;
    if (u->viol != v->viol)
        return u->viol > v->viol ? -1 : 1;
    if (u->a != v->a)
        return u->a - v->a;
    return u->b != v->b ? u->b - v->b : u->c - v->c;
}

static int sr_known(const cg *g, int a, int b, int c)
{
    for (int s = 0; s < g->nsr; s++)
        if (g->sr_item[3 * s] == a && g->sr_item[3 * s + 1] == b && g->sr_item[3 * s + 2] == c)
            return 1;
    return 0;
}

/* The LP's value of cut {a, b, c} over its fractional patterns: lambda
 * of those holding two or more of the three.  Patterns at 1 are left out,
 * so a cut they help violate may be missed, never one added wrongly (the
 * cuts are valid whatever the LP). */
static double sr_lhs(const cg *g, const double *lam, const int *frac, int nfrac, int a, int b,
                     int c)
{
    double v = 0;
    int S[3] = {a, b, c};
    for (int f = 0; f < nfrac; f++) {
        int col = frac[f];
        if (holds_two_of(S, g->pool + g->col_start[col], g->col_len[col]))
            v += lam[col];
    }
    return v;
}

/* Adds the cut rows of cands[0..m) and the columns' entries in them. */
static void sr_add_rows(cg *g, const sr_cand *cands, int m)
{
    int old = g->nsr, nsr = old + m;
    g->sr_row = xrealloc(g->sr_row, (size_t)nsr * sizeof(int));
    g->sr_item = xrealloc(g->sr_item, (size_t)(3 * nsr) * sizeof(int));
    g->sr_dual = xrealloc(g->sr_dual, (size_t)nsr * sizeof(double));
    free(g->sr_cnt);
    g->sr_cnt = xcalloc((size_t)nsr, sizeof(int));
    int row0 = glp_add_rows(g->P, m);
    for (int k = 0; k < m; k++) {
        int s = old + k;
        g->sr_row[s] = row0 + k;
        g->sr_item[3 * s] = cands[k].a;
        g->sr_item[3 * s + 1] = cands[k].b;
        g->sr_item[3 * s + 2] = cands[k].c;
        g->sr_dual[s] = 0;
    }
    g->nsr = nsr;
    int *ind = xmalloc((size_t)(g->ncols + 1) * sizeof *ind);
    double *val = xmalloc((size_t)(g->ncols + 1) * sizeof *val);
    for (int k = 0; k < m; k++) {
        int s = old + k, len = 0;
        for (int col = 0; col < g->ncols; col++)
            if (sr_coef(g, s, g->pool + g->col_start[col], g->col_len[col])) {
                ind[++len] = g->col_glp[col];
                val[len] = 1;
            }
        glp_set_row_bnds(g->P, row0 + k, GLP_UP, 0, 1);
        glp_set_mat_row(g->P, row0 + k, len, ind, val);
    }
    free(ind);
    free(val);
    sr_index(g);
}

/*
 * Subset-row cuts (Jepsen, Petersen, Spoorendonk & Pisinger 2008) over
 * three items: in a partition at most one bin holds two or more of any
 * three items, so sum over such patterns of lambda_p <= 1.  Every covering
 * can be made a partition no dearer (an item dropped from a second bin
 * leaves that bin's leader or a later, no dearer one), so the cuts remove
 * no packing better than the best partition; they do remove the LP's
 * fractional mixes of bins that share items two by two, which on leader
 * costs (per-task kappa) leave the bound a few watts short.  Triples come
 * from pairs that fractional patterns share; at most max_new, the most
 * violated first, none violated by less than min_viol, an item in at most
 * two new cuts.  Returns the number added; the next cg_run goes on with
 * the dual simplex (the basis stays dual feasible).
 */
int cg_separate(cg *g, int max_new, double min_viol)
{
    const pk_inst *p = g->p;
    int n = p->n;
    if (n < 3 || max_new <= 0)
        return 0;
    double *lam = xcalloc((size_t)(g->ncols > 0 ? g->ncols : 1), sizeof *lam);
    int *frac = xmalloc((size_t)(g->ncols > 0 ? g->ncols : 1) * sizeof *frac), nfrac = 0;
    double *pair = xcalloc((size_t)n * (size_t)n, sizeof *pair);
    for (int col = 0; col < g->ncols; col++) {
        double v = glp_get_col_prim(g->P, g->col_glp[col]);
        if (v <= 1e-6 || v >= 1 - 1e-6)
            continue;
        lam[col] = v;
        frac[nfrac++] = col;
        const int *it = g->pool + g->col_start[col];
        for (int x = 0; x < g->col_len[col]; x++)
            for (int y = 0; y < g->col_len[col]; y++)
                if (x != y)
                    pair[(size_t)it[x] * (size_t)n + (size_t)it[y]] += v;
    }
    sr_cand *cand = NULL;
    size_t ncand = 0, capcand = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            double ab = pair[(size_t)a * (size_t)n + (size_t)b];
            if (ab <= 1e-6)
                continue;
            for (int c = b + 1; c < n; c++) {
                double ac = pair[(size_t)a * (size_t)n + (size_t)c];
                double bc = pair[(size_t)b * (size_t)n + (size_t)c];
                /* the pair masses bound the cut's value from above */
                if (ab + ac + bc <= 1 + min_viol)
                    continue;
                double v = sr_lhs(g, lam, frac, nfrac, a, b, c) - 1;
                if (v < min_viol || sr_known(g, a, b, c))
                    continue;
                grow_array((void **)&cand, &capcand, ncand + 1, sizeof *cand);
                cand[ncand++] = (sr_cand){v, a, b, c};
            }
        }
    if (ncand > 0)
        qsort(cand, ncand, sizeof *cand, cmp_sr_cand);
    int *uses = xcalloc((size_t)n, sizeof *uses), m = 0;
    for (size_t k = 0; k < ncand && m < max_new; k++) {
        sr_cand *c = &cand[k];
        if (uses[c->a] >= 2 || uses[c->b] >= 2 || uses[c->c] >= 2)
            continue;
        uses[c->a]++, uses[c->b]++, uses[c->c]++;
        cand[m++] = *c;
    }
    if (m > 0) {
        sr_add_rows(g, cand, m);
        g->dual_next = 1;
    }
    free(uses);
    free(cand);
    free(pair);
    free(frac);
    free(lam);
    return m;
}

void cg_relax_cuts(const cg *g, glp_prob *copy)
{
    for (int s = 0; s < g->nsr; s++)
        glp_set_row_bnds(copy, g->sr_row[s], GLP_FR, 0, 0);
}

int cg_ncuts(const cg *g)
{
    return g->nsr;
}

const int *cg_cut(const cg *g, int s)
{
    return &g->sr_item[3 * s];
}
