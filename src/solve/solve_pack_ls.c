/*
 * solve_pack_ls.c — one bin fewer for the unit-cost packing core (CorrGPU:
 * one class, every bin costs the same, no servers), by a search over
 * partial packings.
 *
 * From a packing into k + 1 bins, the lightest bin is emptied and its items
 * set aside; the search then keeps k bins, each one feasible (memory and
 * conflicts) at every step, and moves an item set aside into a bin, pushing
 * out of that bin what stops it from fitting: the items it conflicts with,
 * and the cheapest set of others whose removal frees its memory.  The bin
 * is the one whose pushed-out items weigh least.  When nothing is left
 * aside the k bins hold every item, the packing is kept, and the search
 * goes on for k - 1.  This is the partial-solution scheme of the graph
 * colouring (PartialCol, Blöchliger & Zufferey 2008) and bin packing with
 * conflicts literature, with two choices that matter here:
 *
 *   - an item's weight grows by one at every step it spends set aside, so
 *     the items that are hard to place become expensive to push out and
 *     the search stops cycling through the same few (on the pai-like
 *     512-task instance, 30 s from the heuristics' 144 GPUs: 125 with the
 *     weights, 137 with a plain count of items set aside);
 *   - a tabu list of (item, bin): an item pushed out of a bin may not come
 *     back into it for a few steps (a random 0..9 plus 0.6 x the items set
 *     aside, the tenure PartialCol uses; 0..39 + 2x and 0..2 + 0.3x both
 *     ended at 126).
 *
 * Tried on the same instance and left out, none better than 125 in 30-40
 * s: halving the weights every 20 000 steps (127), taking the heaviest
 * item set aside instead of a random one (132), every item set aside
 * tried each step (125, later), a tenth of the steps spent moving an item
 * to a bin where it fits as it is (126), starting a level again from
 * another bin every 200 000 steps (126).
 *
 * Every packing it returns has been checked by pk_eval.
 */
#include "solve_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

/* Bins of this many items or fewer choose what to push out exactly (all
 * subsets); larger ones greedily. */
#define LS_EXACT_ITEMS 10

/* The clock and the limits are looked at every LS_CHECK_STEPS steps (a
 * power of two).  A step costs about 1e-5 s at 600 items (110 000 steps a
 * second on the pai-like 512-task instance), a thirtieth of the work
 * clock's unit (SOLVE_WORK_S_PER_ITER). */
#define LS_CHECK_STEPS 1024
#define LS_WORK_PER_STEP (1.0 / 30)

/* The search keeps an (item, bin) table; past this many cells (24 MiB) it
 * is not tried. */
#define LS_MAX_CELLS (1L << 21)

/* After a bin is removed, the search may run until this many times the
 * steps it has taken so far, even past the caller's max_steps: each bin
 * fewer took about four times the steps of the one before on the pai-like
 * 512-task instance (126 GPUs after 679,000 steps, 125 after 2,523,000,
 * where 1,500 steps an item stopped it at 927,000), while a search that
 * stalls early (one GPU above the LP's optimum on 64-256 pai-like tasks)
 * still ends at max_steps. */
#define LS_PROGRESS_FACTOR 4

typedef struct ls_state {
    const pk_inst *p;
    int k;                  /* bins */
    int *bin_of;            /* [n], -1 = set aside */
    int *first, *len;       /* bin b's items: item[first[b] .. first[b] + len[b]) */
    int *item;              /* [k * n] */
    int *aside, naside;     /* items set aside */
    int *aside_pos;         /* [n] position in aside, -1 = in a bin */
    double *weight;         /* [n] */
    long *tabu;             /* [n * k] step until which item may not enter bin */
    rng r;
} ls_state;

static void ls_init(ls_state *st, const pk_inst *p, int k, uint64_t seed)
{
    size_t n = (size_t)p->n, kk = (size_t)(k > 0 ? k : 1);
    st->p = p;
    st->k = k;
    st->bin_of = xmalloc(n * sizeof *st->bin_of);
    st->first = xmalloc(kk * sizeof *st->first);
    st->len = xcalloc(kk, sizeof *st->len);
    st->item = xmalloc(kk * n * sizeof *st->item);
    st->aside = xmalloc(n * sizeof *st->aside);
    st->aside_pos = xmalloc(n * sizeof *st->aside_pos);
    st->weight = xmalloc(n * sizeof *st->weight);
    st->tabu = xcalloc(n * kk, sizeof *st->tabu);
    st->naside = 0;
    for (size_t b = 0; b < kk; b++)
        st->first[b] = (int)(b * n);
    for (size_t i = 0; i < n; i++) {
        st->bin_of[i] = -1;
        st->aside_pos[i] = -1;
        st->weight[i] = 1;
    }
    rng_seed(&st->r, seed);
}

static void ls_free(ls_state *st)
{
    free(st->bin_of);
    free(st->first);
    free(st->len);
    free(st->item);
    free(st->aside);
    free(st->aside_pos);
    free(st->weight);
    free(st->tabu);
}

static void put_aside(ls_state *st, int i)
{
    st->bin_of[i] = -1;
    st->aside_pos[i] = st->naside;
    st->aside[st->naside++] = i;
}

static void take_from_aside(ls_state *st, int i)
{
    int at = st->aside_pos[i], last = st->aside[--st->naside];
    st->aside[at] = last;
    st->aside_pos[last] = at;
    st->aside_pos[i] = -1;
}

static void bin_insert(ls_state *st, int b, int i)
{
    st->item[st->first[b] + st->len[b]++] = i;
    st->bin_of[i] = b;
}

/* Removes the items of bin b marked in out (by position in the bin) and
 * sets them aside. */
static void bin_eject(ls_state *st, int b, const char *out)
{
    int *it = st->item + st->first[b], w = 0;
    for (int q = 0; q < st->len[b]; q++) {
        if (out[q])
            put_aside(st, it[q]);
        else
            it[w++] = it[q];
    }
    st->len[b] = w;
}

/* What item i costs to bring into bin b: the weight of the items pushed
 * out (marked in out[0 .. len[b])), or HUGE_VAL when i cannot enter even
 * an empty bin. */
static double entry_cost(const ls_state *st, int b, int i, char *out)
{
    const pk_inst *p = st->p;
    const int *it = st->item + st->first[b];
    int m = st->len[b], free_idx[LS_EXACT_ITEMS], nf = 0;
    double cap = p->cls[0].cap, cost = 0, keep = p->size[i];
    for (int q = 0; q < m; q++) {
        out[q] = (char)pk_conflict(p, i, it[q]);
        if (out[q])
            cost += st->weight[it[q]];
        else
            keep += p->size[it[q]];
    }
    if (keep <= cap + SOLVE_EPS)
        return cost;
    if (p->size[i] > cap + SOLVE_EPS)
        return HUGE_VAL;
    for (int q = 0; q < m; q++)
        if (!out[q] && nf++ < LS_EXACT_ITEMS)
            free_idx[nf - 1] = q;
    if (nf <= LS_EXACT_ITEMS) {
        /* the lightest subset to push out that frees enough memory */
        double excess = keep - cap - SOLVE_EPS, best = HUGE_VAL;
        unsigned best_mask = 0;
        for (unsigned mask = 1; mask < 1u << nf; mask++) {
            double sz = 0, w = 0;
            for (int a = 0; a < nf; a++)
                if (mask >> a & 1) {
                    sz += p->size[it[free_idx[a]]];
                    w += st->weight[it[free_idx[a]]];
                }
            if (sz >= excess && w < best) {
                best = w;
                best_mask = mask;
            }
        }
        for (int a = 0; a < nf; a++)
            if (best_mask >> a & 1)
                out[free_idx[a]] = 1;
        return cost + best;
    }
    /* greedy: push out the least weight per GiB first */
    while (keep > cap + SOLVE_EPS) {
        int pick = -1;
        double ratio = HUGE_VAL;
        for (int q = 0; q < m; q++)
            if (!out[q] && p->size[it[q]] > 0) {
                double r = st->weight[it[q]] / p->size[it[q]];
                if (r < ratio) {
                    ratio = r;
                    pick = q;
                }
            }
        out[pick] = 1;
        keep -= p->size[it[pick]];
        cost += st->weight[it[pick]];
    }
    return cost;
}

/* One step: an item set aside enters the bin where it pushes out the least
 * weight (not tabu, unless it pushes out nothing). */
static void ls_step(ls_state *st, long step, char *out, char *best_out)
{
    int i = st->aside[rng_below(&st->r, (uint64_t)st->naside)];
    int best_b = -1, ties = 0, m = 0;
    double best = HUGE_VAL;
    for (int b = 0; b < st->k; b++) {
        double c = entry_cost(st, b, i, out);
        if (c > 0 && st->tabu[(size_t)i * (size_t)st->k + (size_t)b] > step)
            continue;
        if (c < best - SOLVE_EPS) {
            best = c;
            ties = 1;
        } else if (!(c <= best + SOLVE_EPS && rng_below(&st->r, (uint64_t)++ties) == 0))
            continue;
        best_b = b;
        memcpy(best_out, out, (size_t)st->len[b]);
        m = st->len[b];
    }
    if (best_b < 0)
        return;
    int *it = st->item + st->first[best_b];
    long tenure = (long)rng_below(&st->r, 10) + (long)(0.6 * st->naside) + 1;
    for (int q = 0; q < m; q++)
        if (best_out[q])
            st->tabu[(size_t)it[q] * (size_t)st->k + (size_t)best_b] = step + tenure;
    take_from_aside(st, i);
    bin_eject(st, best_b, best_out);
    bin_insert(st, best_b, i);
    for (int a = 0; a < st->naside; a++)
        st->weight[st->aside[a]] += 1;
}

/* Loads s's packing (k + 1 bins) into the fresh state st of k bins: the
 * items of s's lightest bin are set aside, the other bins keep theirs. */
static void ls_load(ls_state *st, const pk_sol *s)
{
    const pk_inst *p = st->p;
    double *load = xcalloc((size_t)s->nbins, sizeof *load);
    for (int i = 0; i < p->n; i++)
        load[s->bin_of[i]] += p->size[i];
    int drop = 0;
    for (int b = 1; b < s->nbins; b++)
        if (load[b] < load[drop])
            drop = b;
    free(load);
    for (int i = 0; i < p->n; i++) {
        int b = s->bin_of[i];
        if (b == drop || b < 0) {
            put_aside(st, i);
            continue;
        }
        bin_insert(st, b > drop ? b - 1 : b, i);
    }
}

/* The k bins as a solution of p, checked; 0 when pk_eval accepts it. */
static int ls_store(const ls_state *st, pk_sol *s)
{
    const pk_inst *p = st->p;
    int nb = 0;
    int *map = xmalloc((size_t)(st->k > 0 ? st->k : 1) * sizeof *map);
    for (int b = 0; b < st->k; b++)
        map[b] = st->len[b] > 0 ? nb++ : -1;
    for (int i = 0; i < p->n; i++)
        s->bin_of[i] = map[st->bin_of[i]];
    for (int b = 0; b < nb; b++)
        s->bin_class[b] = 0;
    s->nbins = nb;
    free(map);
    return pk_eval(p, s) < HUGE_VAL ? 0 : -1;
}

int pk_fewer_bins(const pk_inst *p, sg_ctx *c, pk_sol *s, int target, double work_s,
                  long max_steps, uint64_t seed)
{
    if (p->nclass != 1 || p->ntype != 0 || p->n == 0 || s->nbins <= 1 ||
        s->nbins <= target || (long)p->n * s->nbins > LS_MAX_CELLS)
        return 0;
    double start = sg_elapsed(c);
    int found = 0;
    pk_sol cur;
    pk_sol_init(&cur, p);
    pk_sol_copy(&cur, s, p);
    char *out = xmalloc((size_t)p->n), *best_out = xmalloc((size_t)p->n);
    long steps = 0, stop = 0, budget = max_steps;
    while (cur.nbins > target && cur.nbins > 1 && !stop) {
        ls_state st;
        ls_init(&st, p, cur.nbins - 1, seed + (uint64_t)cur.nbins);
        ls_load(&st, &cur);
        for (; st.naside > 0 && !stop; steps++) {
            if ((steps & (LS_CHECK_STEPS - 1)) == 0 && steps > 0) {
                c->work += LS_CHECK_STEPS * LS_WORK_PER_STEP;
                stop = steps >= budget || sg_elapsed(c) - start > work_s ||
                       sg_should_stop(c) >= 0;
            }
            if (!stop)
                ls_step(&st, steps, out, best_out);
        }
        int ok = st.naside == 0 && ls_store(&st, &cur) == 0;
        ls_free(&st);
        if (!ok)
            break;
        pk_sol_copy(s, &cur, p);
        found++;
        if (budget < LS_PROGRESS_FACTOR * steps)
            budget = LS_PROGRESS_FACTOR * steps;
    }
    free(out);
    free(best_out);
    pk_sol_free(&cur);
    return found;
}
