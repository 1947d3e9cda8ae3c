/*
 * solve_lns.c — "repack k GPUs": a large neighbourhood search (Shaw 1998)
 * on the best packing of the packing core (solve_int.h).  The items of a
 * few bins are freed and packed again exactly, as a packing problem of
 * their own solved by branch and price (solve_bnp.c), every other bin held
 * as the best packing has it.  A repacking is checked against the whole
 * instance (pk_eval: capacities, conflicts, classes, servers) and kept only
 * when it is cheaper, so nothing proven changes: bounds are the tree's.
 *
 * Why: with a cost per bin set by its leader (CATS eq. 13-14: the clock of
 * a GPU is its most demanding task's), the root LP of the first 256
 * pai-like tasks with per-task kappa is 0.3 % below the first-fit
 * packing, and neither rounding the LP, nor diving from it, nor the integer
 * master over the generated columns found anything better in 60 s: a dive
 * needs one column generation per GPU of the answer (about a hundred), and
 * the generated columns are those of a fractional LP that mixes GPUs no
 * packing uses together.  A small problem over the tasks of a few GPUs is
 * solved exactly in milliseconds, and what it gains (a task moved under a
 * leader whose clock is already high, a GPU emptied) is what the LP says
 * is there.
 *
 * Neighbourhoods of k bins, k growing from 3 to LNS_MAX_BINS (and half the
 * packing's bins) while a pass over all of them finds nothing: the bins
 * that hold the tasks of a column the root LP uses fractionally (tasks the
 * LP would put on one GPU and the packing keeps apart), filled up with
 * their neighbours in leader order; windows of k consecutive bins by
 * leader (leaders of similar clock trade tasks); k bins spread evenly over
 * that order (a demanding leader takes a lax bin's tasks).  On the first
 * 256 pai-like tasks the windows alone reached 6,522.98 W, with the LP's
 * columns first 6,520.56 W in the same work.  Servers are the whole
 * packing's: inside a neighbourhood a bin costs its leader's watts plus
 * its class's share of the cheapest server that holds it, and pk_eval then
 * prices the servers exactly.
 *
 * Every budget is work (simplex iterations and nodes on the solve's work
 * clock, sg_ctx.work), not wall time, so the same input gives the same
 * packings on any machine and load.
 *
 * Not here: the tree and its bounds (solve_bnp.c), first-fit heuristics
 * (solve_bounds.c).
 */
#include "solve_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LNS_MIN_BINS 3
#define LNS_MAX_BINS 12
#define LNS_STEP_WORK_S 0.5     /* nominal seconds of work per neighbourhood, at most */
/* The search ends after this much work without a cheaper packing (some
 * 100,000 iterations, 3-5 s here): on the first 128 pai-like tasks the
 * last gain came at 126,000 iterations and the next 170,000 found
 * nothing; on 256, 40,000 stopped it at 6,527 W where it went on to
 * 6,521 W. */
#define LNS_STALL_WORK_S 30.0

/* The cheapest share of server watts a bin of class t brings: a server
 * type's cost over its GPUs (0 when servers are free or absent). */
static double class_surcharge(const pk_inst *p, int t)
{
    double best = HUGE_VAL;
    for (int k = 0; k < p->ntype; k++) {
        int gpus = 0;
        for (int u = 0; u < p->nclass; u++)
            gpus += p->type[k].per_class[u];
        if (p->type[k].per_class[t] > 0 && gpus > 0)
            best = fmin(best, p->type[k].cost / gpus);
    }
    return isfinite(best) ? best : 0;
}

/* The sub-instance of items it[0..m-1] (increasing, so the leader order
 * holds): the root's sizes, conflicts and classes; no server types. */
static void sub_build(const pk_inst *p, const int *it, int m, pk_inst *q)
{
    pk_inst_init_like(q, p, m, 0);
    for (int t = 0; t < p->nclass; t++) {
        double extra = class_surcharge(p, t);
        for (int a = 0; a < m; a++) {
            double c = p->cls[t].lead_cost[it[a]];
            q->cls[t].lead_cost[a] = c >= HUGE_VAL ? HUGE_VAL : c + extra;
        }
    }
    for (int a = 0; a < m; a++) {
        q->size[a] = p->size[it[a]];
        if (p->size2)
            q->size2[a] = p->size2[it[a]];
        q->rank[a] = p->rank[it[a]];
        q->task[a] = p->task[it[a]];
        for (int b = 0; b < a; b++)
            if (pk_conflict(p, it[a], it[b]))
                pk_set_conflict(q, a, b);
    }
    q->quantum = 0;
}

/* Packs the sub-instance exactly from start s (improved in place) on a
 * work budget of its own, counted on c's work clock. */
static void sub_solve(const pk_inst *q, sg_ctx *c, pk_sol *s, double work_s)
{
    solve_opts o;
    sg_ctx sub;
    sg_stage(c, work_s, &o, &sub);
    o.mip_gap = 0;
    sub.in_lns = 1;
    o.threads = 1;          /* its small trees stay in this thread */
    long nodes;
    int complete;
    double root;
    pk_bnp(q, &sub, s, &nodes, &complete, &root);
    c->work += sub.work;
}

typedef struct lns {
    const pk_inst *p;
    sg_ctx *c;
    pk_sol *best;
    double lb;              /* the root bound: stop once the best meets it */
    double work_end;        /* c->work at which the search ends */
    double work_gain;       /* c->work at the last cheaper packing */
    int *order;             /* [n] bins of best by leader */
    int nbins;
    int *items, *sub_of;    /* [n] scratch */
    const cg *guide;        /* the root LP (items numbered as in p), or NULL */
    int *pos;               /* [n] place of a bin in order */
} lns;

/* The non-empty bins of l->best by leader (their lowest item). */
static void sort_bins(lns *l)
{
    const pk_inst *p = l->p;
    int *seen = xcalloc((size_t)(l->best->nbins > 0 ? l->best->nbins : 1), sizeof *seen);
    l->nbins = 0;
    for (int i = 0; i < p->n; i++) {
        int k = l->best->bin_of[i];
        if (!seen[k]) {
            seen[k] = 1;
            l->pos[k] = l->nbins;
            l->order[l->nbins++] = k;
        }
    }
    free(seen);
}

/* Frees the bins sel[0..k-1] of the best packing and packs their items
 * again; 1 when the whole packing became cheaper (l->best replaced). */
static int repack(lns *l, const int *sel, int k)
{
    const pk_inst *p = l->p;
    pk_sol *best = l->best;
    int m = 0;
    for (int i = 0; i < p->n; i++) {
        l->sub_of[i] = -1;
        for (int a = 0; a < k; a++)
            if (best->bin_of[i] == sel[a]) {
                l->sub_of[i] = m;
                l->items[m++] = i;
                break;
            }
    }
    pk_inst q;
    sub_build(p, l->items, m, &q);
    pk_sol s;
    pk_sol_init(&s, &q);
    s.nbins = k;
    for (int a = 0; a < k; a++)
        s.bin_class[a] = best->bin_class[sel[a]];
    for (int a = 0; a < m; a++)
        for (int b = 0; b < k; b++)
            if (best->bin_of[l->items[a]] == sel[b])
                s.bin_of[a] = b;
    double before = pk_eval(&q, &s);
    int better = 0;
    double left = (l->work_end - l->c->work) * SOLVE_WORK_S_PER_ITER;
    if (isfinite(before) && left > 0)
        sub_solve(&q, l->c, &s, fmin(LNS_STEP_WORK_S, left));
    if (isfinite(before) && s.cost < before - SOLVE_EPS) {
        /* held bins keep their numbers; the neighbourhood's come after */
        pk_sol r;
        pk_sol_init(&r, p);
        int *renum = xmalloc((size_t)(best->nbins + q.n + 1) * sizeof *renum);
        for (int b = 0; b < best->nbins; b++)
            renum[b] = -1;
        for (int i = 0; i < p->n; i++) {
            int b = best->bin_of[i];
            if (l->sub_of[i] < 0 && renum[b] < 0) {
                renum[b] = r.nbins;
                r.bin_class[r.nbins++] = best->bin_class[b];
            }
            if (l->sub_of[i] < 0)
                r.bin_of[i] = renum[b];
        }
        for (int b = 0; b < s.nbins; b++)
            renum[b] = -1;
        for (int a = 0; a < m; a++) {
            int b = s.bin_of[a];
            if (renum[b] < 0) {
                renum[b] = r.nbins;
                r.bin_class[r.nbins++] = s.bin_class[b];
            }
            r.bin_of[l->items[a]] = renum[b];
        }
        if (pk_eval(p, &r) < best->cost - SOLVE_EPS) {
            pk_sol_copy(best, &r, p);
            l->work_gain = l->c->work;
            better = 1;
        }
        free(renum);
        pk_sol_free(&r);
    }
    pk_sol_free(&s);
    pk_inst_free(&q);
    return better;
}

/* 1 when the search should end: the best meets the bound (or is within
 * --gap of it), the work is spent or stalls, or the solve is stopped. */
static int lns_done(const lns *l)
{
    return pk_gap_met(l->p, l->c, l->lb, l->best->cost) || l->c->work >= l->work_end ||
           l->c->work - l->work_gain >= LNS_STALL_WORK_S / SOLVE_WORK_S_PER_ITER ||
           sg_should_stop(l->c) >= 0;
}

/* The bins of best that hold the items of root LP column col, then their
 * neighbours in leader order, k in all; 0 when the column is a bin of best
 * already or spans more than k bins. */
static int guided(lns *l, int col, int k, int *sel)
{
    int t, len, m = 0;
    const int *it = cg_col(l->guide, col, &t, &len);
    for (int a = 0; a < len; a++) {
        int b = l->best->bin_of[it[a]], dup = 0;
        for (int x = 0; x < m; x++)
            dup |= sel[x] == b;
        if (!dup) {
            if (m == k)
                return 0;
            sel[m++] = b;
        }
    }
    if (m < 2)
        return 0;
    for (int d = 1; m < k && d < l->nbins; d++)
        for (int x = 0, m0 = m; x < m0 && m < k; x++)
            for (int sgn = -1; sgn <= 1 && m < k; sgn += 2) {
                int q = l->pos[sel[x]] + sgn * d, dup = 0;
                if (q < 0 || q >= l->nbins)
                    continue;
                for (int y = 0; y < m; y++)
                    dup |= sel[y] == l->order[q];
                if (!dup)
                    sel[m++] = l->order[q];
            }
    return m;
}

/* Neighbourhoods the root LP points at: each fractional column of it
 * whose items the best packing keeps apart.  1 when any improved. */
static int guided_pass(lns *l, int k)
{
    int improved = 0, sel[LNS_MAX_BINS];
    if (!l->guide)
        return 0;
    sort_bins(l);
    for (int col = 0; col < cg_ncols(l->guide) && !lns_done(l); col++) {
        double v = cg_value(l->guide, col);
        if (v < 1e-6 || v > 1 - 1e-6)
            continue;
        int m = guided(l, col, k, sel);
        if (m >= 2 && repack(l, sel, m)) {
            improved = 1;
            sort_bins(l);       /* bin numbers changed */
        }
    }
    return improved;
}

/* One pass over the neighbourhoods of k bins; 1 when any improved. */
static int lns_pass(lns *l, int k)
{
    int improved = 0, sel[LNS_MAX_BINS];
    for (int family = 0; family < 2 && !lns_done(l); family++) {
        sort_bins(l);
        if (l->nbins <= k) {    /* the whole packing is one neighbourhood */
            memcpy(sel, l->order, (size_t)l->nbins * sizeof *sel);
            return repack(l, sel, l->nbins);
        }
        int step = family == 0 ? (k + 1) / 2 : 1;
        int stride = l->nbins / k;
        int starts = family == 0 ? l->nbins - k + 1 : stride;
        for (int s0 = 0; s0 < starts && !lns_done(l); s0 += step) {
            for (int a = 0; a < k; a++)
                sel[a] = l->order[family == 0 ? s0 + a : s0 + a * stride];
            if (repack(l, sel, k)) {
                improved = 1;
                sort_bins(l);   /* bin numbers changed */
                if (l->nbins <= k)
                    return improved;
                stride = l->nbins / k;
                starts = family == 0 ? l->nbins - k + 1 : stride;
            }
        }
    }
    return improved;
}

void pk_lns(const pk_inst *p, sg_ctx *c, pk_sol *best, double lb, double work_s,
            const cg *guide)
{
    if (!isfinite(best->cost) || c->in_lns)
        return;
    lns l = {p, c, best, lb, c->work + work_s / SOLVE_WORK_S_PER_ITER, c->work, NULL, 0, NULL,
             NULL, guide, NULL};
    size_t n = (size_t)(p->n > 0 ? p->n : 1);
    l.order = xmalloc(n * sizeof *l.order);
    l.items = xmalloc(n * sizeof *l.items);
    l.sub_of = xmalloc(n * sizeof *l.sub_of);
    l.pos = xmalloc(n * sizeof *l.pos);
    for (int k = LNS_MIN_BINS; k <= LNS_MAX_BINS && !lns_done(&l);) {
        int better = guided_pass(&l, k);
        if (lns_pass(&l, k) || better)
            continue;
        /* Repacking more than half the GPUs at once is most of the tree's
         * own work over again: on the first 32 pai-like tasks with per-task
         * kappa it took 1.6 of the solve's 1.9 s. */
        if (2 * (k + 1) > l.nbins)
            break;
        k++;
    }
    free(l.order);
    free(l.items);
    free(l.sub_of);
    free(l.pos);
}
