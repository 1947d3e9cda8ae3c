/*
 * solve_bounds.c — both sides of the optimum of the packing core
 * (solve_int.h) before any LP is solved:
 *
 *   upper: first-fit / best-fit packings in several orders (the paper
 *          orders: by leader cost as CATS' DFS needs, by size as FFD, by
 *          conflict degree as DSatur), randomised restarts, and a local
 *          search that empties the lightest bins into the others;
 *   lower: memory (L1 and Martello–Toth L2), the largest clique of the
 *          conflict graph (tasks that pairwise may not share a GPU, by
 *          correlation or because their memory does not fit together),
 *          clique + memory, and for costed bins the leader-cost bound and
 *          the class-cover bound (integer GPU counts per class).
 *
 * Not here: anything that needs an LP (solve_colgen.c, solve_pack.c).
 */
#include "solve_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"


/* ---- bins under construction ----------------------------------------- */

typedef struct pk_bins {
    int n;                  /* bins open */
    int *cls;
    double *used, *used2;
    uint64_t *conf;         /* union of the members' conflict rows */
    int *avail;             /* per class: GPUs of it that can still be opened */
} pk_bins;

static void bins_init(pk_bins *b, const pk_inst *p)
{
    size_t n = (size_t)p->n;
    b->n = 0;
    b->cls = xcalloc(n, sizeof *b->cls);
    b->used = xcalloc(n, sizeof *b->used);
    b->used2 = xcalloc(n, sizeof *b->used2);
    b->conf = xcalloc(n * (size_t)p->words, sizeof *b->conf);
    b->avail = xcalloc((size_t)p->nclass, sizeof *b->avail);
}

static void bins_reset(pk_bins *b, const pk_inst *p)
{
    b->n = 0;
    memset(b->conf, 0, (size_t)p->n * (size_t)p->words * sizeof *b->conf);
    for (int t = 0; t < p->nclass; t++) {
        long a = 0;
        for (int k = 0; k < p->ntype; k++)
            a += (long)p->type[k].per_class[t] * p->type[k].count;
        b->avail[t] = p->ntype == 0 || a > p->n ? p->n : (int)a;
    }
}

static void bins_free(pk_bins *b)
{
    free(b->cls);
    free(b->used);
    free(b->used2);
    free(b->conf);
    free(b->avail);
}

static int bin_fits(const pk_inst *p, const pk_bins *b, int k, int i)
{
    const pk_class *c = &p->cls[b->cls[k]];
    if (c->lead_cost[i] >= HUGE_VAL)
        return 0;
    if (b->used[k] + p->size[i] > c->cap + SOLVE_EPS)
        return 0;
    if (p->size2 && c->cap2 > 0 && b->used2[k] + p->size2[i] > c->cap2 + SOLVE_EPS)
        return 0;
    return !((b->conf[(size_t)k * (size_t)p->words + (size_t)(i >> 6)] >> (i & 63)) & 1u);
}

static void bin_add(const pk_inst *p, pk_bins *b, int k, int i, pk_sol *s)
{
    b->used[k] += p->size[i];
    if (p->size2)
        b->used2[k] += p->size2[i];
    uint64_t *dst = &b->conf[(size_t)k * (size_t)p->words];
    const uint64_t *src = &p->conf[(size_t)i * (size_t)p->words];
    for (int w = 0; w < p->words; w++)
        dst[w] |= src[w];
    s->bin_of[i] = k;
}

/* The class a new bin for item i gets: the cheapest (its lead cost plus
 * its share of a server) that holds the item and is still available. */
static int new_bin_class(const pk_inst *p, const pk_bins *b, int i)
{
    int best = -1;
    double best_cost = HUGE_VAL;
    for (int t = 0; t < p->nclass; t++) {
        const pk_class *c = &p->cls[t];
        if (b->avail[t] <= 0 || c->lead_cost[i] >= HUGE_VAL || p->size[i] > c->cap + SOLVE_EPS)
            continue;
        if (p->size2 && c->cap2 > 0 && p->size2[i] > c->cap2 + SOLVE_EPS)
            continue;
        double share = HUGE_VAL;
        for (int k = 0; k < p->ntype; k++)
            if (p->type[k].per_class[t] > 0)
                share = fmin(share, p->type[k].cost / p->type[k].per_class[t]);
        double cost = c->lead_cost[i] + (p->ntype ? share : 0) - c->cap * 1e-9;
        if (cost < best_cost) {
            best_cost = cost;
            best = t;
        }
    }
    return best;
}

static int open_bin(const pk_inst *p, pk_bins *b, int i, pk_sol *s)
{
    int t = new_bin_class(p, b, i);
    if (t < 0)
        return -1;
    int k = b->n++;
    b->cls[k] = t;
    b->used[k] = b->used2[k] = 0;
    memset(&b->conf[(size_t)k * (size_t)p->words], 0, (size_t)p->words * sizeof *b->conf);
    b->avail[t]--;
    s->bin_class[k] = t;
    bin_add(p, b, k, i, s);
    return k;
}

/* Packs the items in `order`: into the first bin that fits (best == 0) or
 * the fullest one (best == 1), else a new bin.  0, or -1 when an item fits
 * nowhere. */
static int pack_order(const pk_inst *p, const int *order, int best, pk_bins *b, pk_sol *s)
{
    bins_reset(b, p);
    for (int r = 0; r < p->n; r++) {
        int i = order[r], chosen = -1;
        double room = HUGE_VAL;
        for (int k = 0; k < b->n; k++) {
            if (!bin_fits(p, b, k, i))
                continue;
            if (!best) {
                chosen = k;
                break;
            }
            double left = p->cls[b->cls[k]].cap - b->used[k] - p->size[i];
            if (left < room) {
                room = left;
                chosen = k;
            }
        }
        if (chosen >= 0)
            bin_add(p, b, chosen, i, s);
        else if (open_bin(p, b, i, s) < 0)
            return -1;
    }
    s->nbins = b->n;
    return 0;
}

typedef struct keyed {
    double key;
    int i;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->i - y->i;
}

/* ---- local search: empty the lightest bins ---------------------------- */

/* Rebuilds the bin state of a solution. */
static void bins_from_sol(const pk_inst *p, pk_bins *b, pk_sol *s)
{
    bins_reset(b, p);
    b->n = s->nbins;
    for (int k = 0; k < s->nbins; k++) {
        b->cls[k] = s->bin_class[k];
        b->used[k] = b->used2[k] = 0;
        b->avail[s->bin_class[k]]--;
    }
    for (int i = 0; i < p->n; i++)
        bin_add(p, b, s->bin_of[i], i, s);
}

/* Tries to move every item of bin k into other bins (first fit, largest
 * first); on success the bin disappears and 1 is returned, else s is left
 * as it was. */
static int try_empty(const pk_inst *p, pk_bins *b, pk_sol *s, int k, int *members,
                     int *saved)
{
    int m = 0;
    for (int i = 0; i < p->n; i++)
        if (s->bin_of[i] == k)
            members[m++] = i;
    memcpy(saved, s->bin_of, (size_t)p->n * sizeof *saved);
    /* largest first */
    for (int a = 1; a < m; a++)
        for (int c = a; c > 0 && p->size[members[c]] > p->size[members[c - 1]]; c--) {
            int t = members[c];
            members[c] = members[c - 1];
            members[c - 1] = t;
        }
    for (int a = 0; a < m; a++) {
        int i = members[a], put = -1;
        for (int q = 0; q < s->nbins && put < 0; q++)
            if (q != k && bin_fits(p, b, q, i))
                put = q;
        if (put < 0) {
            memcpy(s->bin_of, saved, (size_t)p->n * sizeof *saved);
            bins_from_sol(p, b, s);
            return 0;
        }
        bin_add(p, b, put, i, s);
    }
    /* Renumber: the last bin takes k's number. */
    int last = s->nbins - 1;
    for (int i = 0; i < p->n; i++)
        if (s->bin_of[i] == last)
            s->bin_of[i] = k;
    s->bin_class[k] = s->bin_class[last];
    s->nbins--;
    bins_from_sol(p, b, s);
    return 1;
}

static void local_search(const pk_inst *p, pk_bins *b, pk_sol *s)
{
    int *members = xmalloc((size_t)p->n * sizeof *members);
    int *saved = xmalloc((size_t)p->n * sizeof *saved);
    keyed *load = xmalloc((size_t)p->n * sizeof *load);
    bins_from_sol(p, b, s);
    for (int improved = 1; improved;) {
        improved = 0;
        for (int q = 0; q < s->nbins; q++) {
            load[q].key = b->used[q] / p->cls[b->cls[q]].cap;
            load[q].i = q;
        }
        qsort(load, (size_t)s->nbins, sizeof *load, cmp_keyed);
        for (int q = 0; q < s->nbins && !improved; q++)
            improved = try_empty(p, b, s, load[q].i, members, saved);
    }
    free(load);
    free(members);
    free(saved);
}

/* ---- local search: cheaper leaders ---------------------------------------- */

/* The members of every bin, ascending (their first is the leader). */
typedef struct members {
    int *start, *item, *len;
    double *used, *used2;
} members;

static void members_build(const pk_inst *p, const pk_sol *s, members *m)
{
    int nb = s->nbins > 0 ? s->nbins : 1;
    m->start = xcalloc((size_t)nb + 1, sizeof *m->start);
    m->len = xcalloc((size_t)nb, sizeof *m->len);
    m->item = xmalloc((size_t)(p->n > 0 ? p->n : 1) * sizeof *m->item);
    m->used = xcalloc((size_t)nb, sizeof *m->used);
    m->used2 = xcalloc((size_t)nb, sizeof *m->used2);
    for (int i = 0; i < p->n; i++)
        m->len[s->bin_of[i]]++;
    for (int b = 0; b < s->nbins; b++)
        m->start[b + 1] = m->start[b] + m->len[b];
    int *fill = xcalloc((size_t)nb, sizeof *fill);
    for (int i = 0; i < p->n; i++) {
        int b = s->bin_of[i];
        m->item[m->start[b] + fill[b]++] = i;
        m->used[b] += p->size[i];
        if (p->size2)
            m->used2[b] += p->size2[i];
    }
    free(fill);
}

static void members_free(members *m)
{
    free(m->start);
    free(m->item);
    free(m->len);
    free(m->used);
    free(m->used2);
}

/* May item x join bin b (of s) once item out (or -1) has left it? */
static int fits_after(const pk_inst *p, const pk_sol *s, const members *m, int b, int x, int out)
{
    const pk_class *c = &p->cls[s->bin_class[b]];
    if (c->lead_cost[x] >= HUGE_VAL)
        return 0;
    double u = m->used[b] + p->size[x] - (out >= 0 ? p->size[out] : 0);
    if (u > c->cap + SOLVE_EPS)
        return 0;
    if (p->size2 && c->cap2 > 0 &&
        m->used2[b] + p->size2[x] - (out >= 0 ? p->size2[out] : 0) > c->cap2 + SOLVE_EPS)
        return 0;
    for (int q = m->start[b]; q < m->start[b] + m->len[b]; q++)
        if (m->item[q] != out && pk_conflict(p, x, m->item[q]))
            return 0;
    return 1;
}

/* The leader of bin b without item out and with item in (either may be -1). */
static int lead_without(const members *m, int b, int out, int in)
{
    int lead = in;
    for (int q = m->start[b]; q < m->start[b] + m->len[b]; q++)
        if (m->item[q] != out && (lead < 0 || m->item[q] < lead))
            lead = m->item[q];
    return lead;
}

static double bin_cost(const pk_inst *p, const pk_sol *s, int b, int lead)
{
    return lead < 0 ? 0 : p->cls[s->bin_class[b]].lead_cost[lead];
}

/* One improving move of bin b's leader L into a bin a led below L (a's cost
 * stays, b's falls to its next item's): alone, or swapped with a later
 * item x of a.  1 when s changed. */
static int move_leader(const pk_inst *p, pk_sol *s, const members *m, int b)
{
    if (m->len[b] == 0)
        return 0;
    int L = m->item[m->start[b]];
    double now = bin_cost(p, s, b, L);
    for (int a = 0; a < s->nbins; a++) {
        if (a == b || m->len[a] == 0 || m->item[m->start[a]] > L)
            continue;
        if (fits_after(p, s, m, a, L, -1) &&
            bin_cost(p, s, b, lead_without(m, b, L, -1)) < now - SOLVE_EPS) {
            s->bin_of[L] = a;
            return 1;
        }
        for (int q = m->start[a] + 1; q < m->start[a] + m->len[a]; q++) {
            int x = m->item[q];
            if (x < L || !fits_after(p, s, m, a, L, x) || !fits_after(p, s, m, b, x, L))
                continue;
            if (bin_cost(p, s, b, lead_without(m, b, L, x)) < now - SOLVE_EPS) {
                s->bin_of[L] = a;
                s->bin_of[x] = b;
                return 1;
            }
        }
    }
    return 0;
}

/* Repeats improving leader moves (bins with the dearest leaders first)
 * until none is left or `rounds` are done; empty bins are dropped. */
static void improve_leaders(const pk_inst *p, pk_sol *s, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        members m;
        members_build(p, s, &m);
        int changed = 0;
        for (int b = 0; b < s->nbins && !changed; b++)
            changed = move_leader(p, s, &m, b);
        members_free(&m);
        if (!changed)
            break;
        /* renumber bins that became empty away */
        int *map = xmalloc((size_t)s->nbins * sizeof *map), *cnt = xcalloc((size_t)s->nbins, sizeof *cnt), nb = 0;
        for (int i = 0; i < p->n; i++)
            cnt[s->bin_of[i]]++;
        for (int b = 0; b < s->nbins; b++) {
            map[b] = cnt[b] ? nb : -1;
            if (cnt[b])
                s->bin_class[nb++] = s->bin_class[b];
        }
        for (int i = 0; i < p->n; i++)
            s->bin_of[i] = map[s->bin_of[i]];
        s->nbins = nb;
        free(map);
        free(cnt);
    }
}

/* ---- orders ------------------------------------------------------------ */

static void order_by(const pk_inst *p, const double *key, int *order)
{
    keyed *k = xmalloc((size_t)p->n * sizeof *k);
    for (int i = 0; i < p->n; i++) {
        k[i].key = key[i];
        k[i].i = i;
    }
    qsort(k, (size_t)p->n, sizeof *k, cmp_keyed);
    for (int i = 0; i < p->n; i++)
        order[i] = k[i].i;
    free(k);
}

static int degree(const pk_inst *p, int i)
{
    int d = 0;
    for (int w = 0; w < p->words; w++)
        d += __builtin_popcountll(p->conf[(size_t)i * (size_t)p->words + (size_t)w]);
    return d;
}

/* Keeps s if it is cheaper than *best. */
static void keep_best(const pk_inst *p, pk_sol *s, pk_sol *best, double *best_cost)
{
    double c = pk_eval(p, s);
    if (c < *best_cost - SOLVE_EPS) {
        *best_cost = c;
        pk_sol_copy(best, s, p);
    }
}

double pk_heuristic(const pk_inst *p, double seconds, pk_sol *out)
{
    double t0 = now_seconds(), best_cost = HUGE_VAL;
    int *order = xmalloc((size_t)p->n * sizeof *order);
    double *key = xmalloc((size_t)p->n * sizeof *key);
    pk_bins b;
    bins_init(&b, p);
    pk_sol s, best;
    pk_sol_init(&s, p);
    pk_sol_init(&best, p);
    /* 1: index order (leader cost first; CATS' frequency grouping). */
    for (int i = 0; i < p->n; i++)
        order[i] = i;
    for (int bf = 0; bf < 2; bf++)
        if (pack_order(p, order, bf, &b, &s) == 0)
            keep_best(p, &s, &best, &best_cost);
    /* 2: size decreasing (FFD/BFD). */
    for (int i = 0; i < p->n; i++)
        key[i] = -p->size[i];
    order_by(p, key, order);
    for (int bf = 0; bf < 2; bf++)
        if (pack_order(p, order, bf, &b, &s) == 0)
            keep_best(p, &s, &best, &best_cost);
    /* 3: conflict degree then size (DSatur-like). */
    for (int i = 0; i < p->n; i++)
        key[i] = -(degree(p, i) + p->size[i] / (p->cls[0].cap + 1));
    order_by(p, key, order);
    if (pack_order(p, order, 0, &b, &s) == 0)
        keep_best(p, &s, &best, &best_cost);
    /* 4: randomised sizes and ranks until the time is up. */
    rng r;
    rng_seed(&r, 0x5eedULL + (uint64_t)p->n);
    int rounds = 0;
    while (now_seconds() - t0 < seconds && rounds < 2000) {
        for (int i = 0; i < p->n; i++)
            key[i] = -(p->size[i] * rng_range(&r, 0.7, 1.3) +
                       (rounds & 1 ? degree(p, i) * rng_range(&r, 0, 0.5) : 0)) +
                     (rounds & 2 ? p->rank[i] * 1e3 : 0);
        order_by(p, key, order);
        if (pack_order(p, order, (int)(rng_u64(&r) & 1), &b, &s) == 0) {
            if (rounds % 8 == 0)
                local_search(p, &b, &s);
            keep_best(p, &s, &best, &best_cost);
        }
        rounds++;
    }
    if (best_cost < HUGE_VAL) {
        local_search(p, &b, &best);
        improve_leaders(p, &best, 4 * p->n);
        best_cost = pk_eval(p, &best);
        pk_sol_copy(out, &best, p);
    }
    pk_sol_free(&s);
    pk_sol_free(&best);
    bins_free(&b);
    free(order);
    free(key);
    return best_cost;
}

/* ---- lower bounds ------------------------------------------------------ */

static double max_cap(const pk_inst *p)
{
    double c = 0;
    for (int t = 0; t < p->nclass; t++)
        c = fmax(c, p->cls[t].cap);
    return c;
}

/* The conflict graph for bounds: the given conflicts plus pairs whose
 * memory (or second resource) cannot share even the largest bin. */
static uint64_t *bound_graph(const pk_inst *p)
{
    size_t w = (size_t)p->words;
    uint64_t *g = xmalloc((size_t)p->n * w * sizeof *g);
    memcpy(g, p->conf, (size_t)p->n * w * sizeof *g);
    double cap = max_cap(p), cap2 = 0;
    for (int t = 0; t < p->nclass; t++)
        cap2 = fmax(cap2, p->cls[t].cap2);
    for (int i = 0; i < p->n; i++)
        for (int k = i + 1; k < p->n; k++) {
            int clash = p->size[i] + p->size[k] > cap + SOLVE_EPS;
            if (p->size2 && cap2 > 0 && p->size2[i] + p->size2[k] > cap2 + SOLVE_EPS)
                clash = 1;
            if (clash) {
                g[(size_t)i * w + (size_t)(k >> 6)] |= 1ULL << (k & 63);
                g[(size_t)k * w + (size_t)(i >> 6)] |= 1ULL << (i & 63);
            }
        }
    return g;
}

static int popcount_and(const uint64_t *a, const uint64_t *b, int words)
{
    int c = 0;
    for (int w = 0; w < words; w++)
        c += __builtin_popcountll(a[w] & b[w]);
    return c;
}

/* Greedy clique from vertex v: repeatedly add the candidate with the most
 * neighbours among the remaining candidates (ties: larger size). */
static int grow_clique(const pk_inst *p, const uint64_t *g, int v, uint64_t *cand, int *out)
{
    size_t w = (size_t)p->words;
    int k = 0;
    out[k++] = v;
    memcpy(cand, &g[(size_t)v * w], w * sizeof *cand);
    for (;;) {
        int pick = -1, pick_deg = -1;
        for (int u = 0; u < p->n; u++) {
            if (!((cand[u >> 6] >> (u & 63)) & 1u))
                continue;
            int d = popcount_and(&g[(size_t)u * w], cand, p->words);
            if (d > pick_deg || (d == pick_deg && p->size[u] > p->size[pick])) {
                pick_deg = d;
                pick = u;
            }
        }
        if (pick < 0)
            break;
        out[k++] = pick;
        for (size_t q = 0; q < w; q++)
            cand[q] &= g[(size_t)pick * w + q];
    }
    return k;
}

int pk_clique(const pk_inst *p, int *out)
{
    if (p->n == 0)
        return 0;
    uint64_t *g = bound_graph(p);
    uint64_t *cand = xmalloc((size_t)p->words * sizeof *cand);
    int *cur = xmalloc((size_t)p->n * sizeof *cur);
    int best = 0;
    /* Every start for small instances, the highest-degree ones otherwise. */
    int starts = p->n <= 256 ? p->n : 256;
    double *key = xmalloc((size_t)p->n * sizeof *key);
    int *order = xmalloc((size_t)p->n * sizeof *order);
    for (int i = 0; i < p->n; i++)
        key[i] = -(double)popcount_and(&g[(size_t)i * (size_t)p->words],
                                       &g[(size_t)i * (size_t)p->words], p->words);
    order_by(p, key, order);
    for (int s = 0; s < starts; s++) {
        int k = grow_clique(p, g, order[s], cand, cur);
        if (k > best) {
            best = k;
            memcpy(out, cur, (size_t)k * sizeof *out);
        }
    }
    free(key);
    free(order);
    free(cur);
    free(cand);
    free(g);
    return best;
}

int pk_count_lb(const pk_inst *p, int m, const int *clique, int nclique)
{
    double sum = 0, cap = max_cap(p);
    for (int i = 0; i < m; i++)
        sum += p->size[i];
    int lb = (int)ceil(sum / cap - SOLVE_EPS);
    int in = 0;
    for (int q = 0; q < nclique; q++)
        in += clique[q] < m;
    return lb > in ? lb : in;
}

/* Martello–Toth L2 for one capacity: for each threshold K <= cap/2, items
 * above cap - K need a bin each, so do items in (cap/2, cap - K], and the
 * items in [K, cap/2] must fit in what those leave plus new bins. */
static int l2_bound(const pk_inst *p, double cap)
{
    int best = 0;
    for (int a = 0; a <= p->n; a++) {
        double K = a == p->n ? 0 : p->size[a];
        if (K > cap / 2 + SOLVE_EPS)
            continue;
        int n1 = 0, n2 = 0;
        double s2 = 0, s3 = 0;
        for (int i = 0; i < p->n; i++) {
            double d = p->size[i];
            if (d > cap - K + SOLVE_EPS)
                n1++;
            else if (d > cap / 2 + SOLVE_EPS) {
                n2++;
                s2 += d;
            } else if (d >= K - SOLVE_EPS)
                s3 += d;
        }
        double extra = ceil((s3 - ((double)n2 * cap - s2)) / cap - SOLVE_EPS);
        int lb = n1 + n2 + (extra > 0 ? (int)extra : 0);
        if (lb > best)
            best = lb;
    }
    return best;
}

/* Clique + memory: the clique's items need a bin each, and what the others
 * need beyond the room those bins have left needs more bins. */
static int clique_mem_bound(const pk_inst *p, const int *clique, int k, double cap)
{
    double rest = 0, room = 0;
    unsigned char *in = xcalloc((size_t)p->n, 1);
    for (int q = 0; q < k; q++) {
        in[clique[q]] = 1;
        room += cap - p->size[clique[q]];
    }
    for (int i = 0; i < p->n; i++)
        if (!in[i])
            rest += p->size[i];
    free(in);
    double extra = ceil((rest - room) / cap - SOLVE_EPS);
    return k + (extra > 0 ? (int)extra : 0);
}

/* The fewest bins any solution uses. */
int pk_count_bound(const pk_inst *p)
{
    int *clique = xmalloc((size_t)(p->n ? p->n : 1) * sizeof *clique);
    int k = pk_clique(p, clique);
    double cap = max_cap(p);
    int lb = pk_count_lb(p, p->n, clique, k);
    if (p->nclass == 1) {
        int l2 = l2_bound(p, cap);
        lb = l2 > lb ? l2 : lb;
    }
    int cm = clique_mem_bound(p, clique, k, cap);
    free(clique);
    return cm > lb ? cm : lb;
}

/*
 * Leader-cost bound.  Items 0..q-1 need at least LB(q) = ceil(sum of their
 * sizes / largest capacity) bins, all led by items below q (a leader is
 * its bin's lowest item).  So the k-th leader (k = 1, 2, ...) is at most
 * the first q with LB(q+1) >= k, and since costs do not increase along the
 * order, its bin costs at least the cheapest class cost of any item up to
 * there.  Servers: the bins need GPUs, each at least the cheapest server
 * watts per GPU.
 */
static double leader_bound(const pk_inst *p, int nbins)
{
    double cap = max_cap(p), cum = 0, lb = 0, pm = HUGE_VAL;
    int k = 1;
    for (int q = 0; q < p->n && k <= nbins; q++) {
        double c = HUGE_VAL;
        for (int t = 0; t < p->nclass; t++)
            c = fmin(c, p->cls[t].lead_cost[q]);
        pm = fmin(pm, c);
        cum += p->size[q];
        while (k <= nbins && (cum > (k - 1) * cap + SOLVE_EPS || q == p->n - 1)) {
            lb += pm;
            k++;
        }
    }
    double per_gpu = HUGE_VAL;
    for (int s = 0; s < p->ntype; s++) {
        int g = 0;
        for (int t = 0; t < p->nclass; t++)
            g += p->type[s].per_class[t];
        if (g > 0)
            per_gpu = fmin(per_gpu, p->type[s].cost / g);
    }
    if (p->ntype > 0 && per_gpu < HUGE_VAL)
        lb += per_gpu * nbins;
    return lb;
}

/*
 * Class-cover bound.  Whatever the packing, the n_t GPUs of class t it uses
 * hold all the memory (sum cap_t n_t >= sum of sizes), there are at least
 * nbins of them, and each costs at least the cheapest leader of its class
 * plus the cheapest server watts per GPU of the servers that hold it.  The
 * least such cost over integer n_t is a lower bound.  It matters on mixed
 * clusters, where the LP fills the cheapest watts per GiB fractionally and
 * the integer count of GPUs decides (gavel-like: 10 K80 + 2 P100 instead of
 * 12 K80 and a fraction of a P100).  Solved exactly by depth-first search
 * over the classes in order of watts per GiB, pruned by the fractional
 * cover; it gives up (and keeps that fractional bound) after a fixed
 * number of steps.
 */
typedef struct cover_class {
    double cap, cost;
    int avail;
} cover_class;

typedef struct cover_search {
    const cover_class *c;
    int nc, nbins;
    double best;
    long steps;
} cover_search;

#define COVER_STEPS 200000

static int cmp_cover(const void *a, const void *b)
{
    const cover_class *x = a, *y = b;
    double rx = x->cost / x->cap, ry = y->cost / y->cap;
    return rx < ry ? -1 : rx > ry;
}

/* The cheapest fractional cover of need from classes i.. (HUGE_VAL if
 * they cannot hold it). */
static double cover_frac(const cover_search *cs, int i, double need)
{
    double cost = 0;
    for (; i < cs->nc && need > SOLVE_EPS; i++) {
        double take = fmin(need, cs->c[i].avail * cs->c[i].cap);
        cost += take / cs->c[i].cap * cs->c[i].cost;
        need -= take;
    }
    return need > SOLVE_EPS ? HUGE_VAL : cost;
}

static void cover_dfs(cover_search *cs, int i, double need, int count, double cost)
{
    if (++cs->steps > COVER_STEPS)
        return;
    if (need <= SOLVE_EPS && count >= cs->nbins) {
        cs->best = fmin(cs->best, cost);
        return;
    }
    if (i == cs->nc || cost + cover_frac(cs, i, fmax(need, 0)) >= cs->best - SOLVE_EPS)
        return;
    const cover_class *c = &cs->c[i];
    int most = c->avail;
    int enough = (int)ceil(fmax(need, 0) / c->cap - SOLVE_EPS);
    if (count + enough < cs->nbins)
        enough = cs->nbins - count;
    most = most < enough ? most : enough;
    for (int k = most; k >= 0 && cs->steps <= COVER_STEPS; k--)
        cover_dfs(cs, i + 1, need - k * c->cap, count + k, cost + k * c->cost);
}

static double class_cover_bound(const pk_inst *p, int nbins)
{
    cover_class *c = xcalloc((size_t)p->nclass, sizeof *c);
    int nc = 0;
    double mem = 0;
    for (int i = 0; i < p->n; i++)
        mem += p->size[i];
    for (int t = 0; t < p->nclass; t++) {
        double lead = HUGE_VAL, srv = p->ntype > 0 ? HUGE_VAL : 0;
        for (int i = 0; i < p->n; i++)
            lead = fmin(lead, p->cls[t].lead_cost[i]);
        int avail = p->ntype > 0 ? 0 : p->n;
        for (int k = 0; k < p->ntype; k++) {
            int g = 0;
            for (int u = 0; u < p->nclass; u++)
                g += p->type[k].per_class[u];
            if (p->type[k].per_class[t] > 0) {
                avail += p->type[k].per_class[t] * p->type[k].count;
                srv = fmin(srv, p->type[k].cost / g);
            }
        }
        if (lead < HUGE_VAL && srv < HUGE_VAL && avail > 0 && p->cls[t].cap > 0)
            c[nc++] = (cover_class){p->cls[t].cap, lead + srv, avail};
    }
    qsort(c, (size_t)nc, sizeof *c, cmp_cover);
    cover_search cs = {c, nc, nbins, HUGE_VAL, 0};
    double frac = cover_frac(&cs, 0, mem);
    cover_dfs(&cs, 0, mem, 0, 0);
    free(c);
    if (cs.steps > COVER_STEPS || cs.best >= HUGE_VAL)
        return frac < HUGE_VAL ? frac : -HUGE_VAL;
    return cs.best;
}

double pk_lower_bound(const pk_inst *p)
{
    if (p->n == 0)
        return 0;
    int nb = pk_count_bound(p);
    return fmax(leader_bound(p, nb), class_cover_bound(p, nb));
}

/* ---- completing a partial packing ---------------------------------------- */

double pk_complete(const pk_inst *p, pk_sol *s)
{
    pk_bins b;
    bins_init(&b, p);
    bins_reset(&b, p);
    b.n = s->nbins;
    for (int k = 0; k < s->nbins; k++) {
        b.cls[k] = s->bin_class[k];
        b.avail[s->bin_class[k]]--;
    }
    for (int i = 0; i < p->n; i++)
        if (s->bin_of[i] >= 0)
            bin_add(p, &b, s->bin_of[i], i, s);
    double cost = 0;
    for (int i = 0; i < p->n && cost == 0; i++) {
        if (s->bin_of[i] >= 0)
            continue;
        int put = -1;
        for (int k = 0; k < b.n && put < 0; k++)
            if (bin_fits(p, &b, k, i))
                put = k;
        if (put >= 0)
            bin_add(p, &b, put, i, s);
        else if (open_bin(p, &b, i, s) < 0)
            cost = HUGE_VAL;
    }
    s->nbins = b.n;
    if (cost == 0) {
        local_search(p, &b, s);
        improve_leaders(p, s, 2 * p->n);
        cost = pk_eval(p, s);
    }
    bins_free(&b);
    return cost;
}

double pk_first_fit(const pk_inst *p, pk_sol *s)
{
    s->nbins = 0;
    for (int i = 0; i < p->n; i++)
        s->bin_of[i] = -1;
    return pk_complete(p, s);
}
