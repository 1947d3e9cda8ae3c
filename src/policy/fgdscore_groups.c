/*
 * fgdscore_groups.c — the nodes grouped by key, kept as nodes change
 * (fgdscore_groups.h).
 *
 * Each group keeps its members in a binary heap ordered by (rank, index),
 * pruned lazily: a node that leaves a group stays in its heap until it
 * reaches the top, where it is dropped because its group is no longer that
 * one.  So a move costs a hash lookup and a heap push, and the
 * representative is the top once the stale entries above it are gone.
 * Groups that empty stay in the table (a node often comes back to an
 * earlier state); when the dead groups or the stale heap entries outgrow
 * the live ones, everything is grouped again from the nodes.
 */
#include "fgdscore_groups.h"

#include <stdlib.h>
#include <string.h>

#include "core/hashtab.h"
#include "core/util.h"

/* Regroup from scratch when the kept structures hold this many more
 * entries than the live ones need (amortised over as many changes). */
#define SLACK 4096

/* Nodes per block of the index-order walk (fgd_groups_nth). */
#define BLOCK 64

/* The groups with a member among one block's nodes, and how many each. */
typedef struct block {
    int n;
    int gi[BLOCK], cnt[BLOCK];
} block;

typedef struct group {
    cs_key key;                 /* its members' key */
    int count;                  /* members */
    int live;                   /* index in fgd_groups.live; -1 when empty */
    int *heap;                  /* members and stale entries, see above */
    size_t nheap, heap_cap;
} group;

struct fgd_groups {
    /* The kept groups of state `state_id` after its first `seen` changes. */
    hashtab *tab;               /* key → index in grp */
    group *grp;
    size_t ngrp, grp_cap;
    int *live;                  /* the non-empty groups */
    size_t nlive, live_cap;
    int *node_group;            /* each node's group, -1 before it has one */
    size_t nnodes, node_cap;
    size_t heap_total;          /* entries in every heap */
    uint64_t state_id, seen;
    const int *rank;
    int kept;
    /* Whether `checked` (a rank array of nchecked nodes) has equal ranks. */
    const int *checked;
    size_t nchecked;
    int ties;
    /* The groups present in each block of BLOCK consecutive nodes, with
     * their members there (fgd_groups_filter / fgd_groups_nth). */
    block *blk;
    size_t nblk, blk_cap;
    unsigned char *pass;        /* [ngrp]: the group passed the last filter */
    size_t pass_cap;
    /* The one-pass grouping: the state grouped and the caller's rep[]. */
    hashtab *otab;
    const cstate *ocs;
    const int *orep;
};

fgd_groups *fgd_groups_new(void)
{
    return xcalloc(1, sizeof(fgd_groups));
}

void fgd_groups_free(fgd_groups *g)
{
    if (!g)
        return;
    hashtab_free(g->tab);
    hashtab_free(g->otab);
    for (size_t i = 0; i < g->grp_cap; i++)
        free(g->grp[i].heap);
    free(g->grp);
    free(g->live);
    free(g->node_group);
    free(g->blk);
    free(g->pass);
    free(g);
}

/* --- the members' heap -------------------------------------------------------- */

static int before(const fgd_groups *g, int a, int b)
{
    int ra = g->rank ? g->rank[a] : a, rb = g->rank ? g->rank[b] : b;
    return ra != rb ? ra < rb : a < b;
}

static void heap_push(fgd_groups *g, group *gr, int ni)
{
    if (gr->nheap == gr->heap_cap) {
        gr->heap_cap = gr->heap_cap ? 2 * gr->heap_cap : 4;
        gr->heap = xrealloc(gr->heap, gr->heap_cap * sizeof *gr->heap);
    }
    size_t i = gr->nheap++;
    while (i > 0 && before(g, ni, gr->heap[(i - 1) / 2])) {
        gr->heap[i] = gr->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    gr->heap[i] = ni;
    g->heap_total++;
}

static void heap_pop(fgd_groups *g, group *gr)
{
    int last = gr->heap[--gr->nheap];
    size_t n = gr->nheap, i = 0;
    g->heap_total--;
    if (n == 0)
        return;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(g, gr->heap[c + 1], gr->heap[c]))
            c++;
        if (!before(g, gr->heap[c], last))
            break;
        gr->heap[i] = gr->heap[c];
        i = c;
    }
    gr->heap[i] = last;
}

/* The group's first member by (rank, index), dropping the stale entries
 * above it (the group is not empty, so a member is there). */
static int group_rep(fgd_groups *g, int gi)
{
    group *gr = &g->grp[gi];
    while (g->node_group[gr->heap[0]] != gi)
        heap_pop(g, gr);
    return gr->heap[0];
}

/* --- kept groups ---------------------------------------------------------------- */

static int kept_eq(const void *key, size_t v, const void *ctx)
{
    const fgd_groups *g = ctx;
    return cs_key_equal(&g->grp[v].key, key);
}

static int group_of_key(fgd_groups *g, const cs_key *k)
{
    size_t gi = hashtab_find(g->tab, k->hash, k);
    if (gi != HASHTAB_NONE)
        return (int)gi;
    if (g->ngrp == g->grp_cap) {
        size_t cap = g->grp_cap ? 2 * g->grp_cap : 64;
        g->grp = xrealloc(g->grp, cap * sizeof *g->grp);
        memset(g->grp + g->grp_cap, 0, (cap - g->grp_cap) * sizeof *g->grp);
        g->grp_cap = cap;
    }
    group *gr = &g->grp[g->ngrp];
    gr->key = *k;
    gr->count = 0;
    gr->live = -1;
    gr->nheap = 0;
    hashtab_put(g->tab, k->hash, k, g->ngrp);
    return (int)g->ngrp++;
}

static void group_leave(fgd_groups *g, int gi)
{
    group *gr = &g->grp[gi];
    if (--gr->count > 0)
        return;
    int last = g->live[--g->nlive];
    g->live[gr->live] = last;
    g->grp[last].live = gr->live;
    gr->live = -1;
    g->heap_total -= gr->nheap;
    gr->nheap = 0;
}

static void group_join(fgd_groups *g, int gi, int ni)
{
    group *gr = &g->grp[gi];
    g->node_group[ni] = gi;
    if (gr->count++ == 0) {
        grow_array((void **)&g->live, &g->live_cap, g->nlive + 1, sizeof *g->live);
        gr->live = (int)g->nlive;
        g->live[g->nlive++] = gi;
    }
    heap_push(g, gr, ni);
}

/* Adds d (1 or -1) to group gi's members in block b. */
static void block_add(fgd_groups *g, size_t b, int gi, int d)
{
    block *bl = &g->blk[b];
    int j = 0;
    while (j < bl->n && bl->gi[j] != gi)
        j++;
    if (j == bl->n) {
        bl->gi[j] = gi;
        bl->cnt[j] = 0;
        bl->n++;
    }
    if ((bl->cnt[j] += d) == 0) {
        bl->n--;
        bl->gi[j] = bl->gi[bl->n];
        bl->cnt[j] = bl->cnt[bl->n];
    }
}

/* Puts node ni in the group of its key now. */
static void node_move(fgd_groups *g, const cstate *cs, int ni)
{
    int gi = group_of_key(g, &cs->keys[ni]), old = g->node_group[ni];
    if (old == gi)
        return;
    if (old >= 0) {
        group_leave(g, old);
        block_add(g, (size_t)ni / BLOCK, old, -1);
    }
    group_join(g, gi, ni);
    block_add(g, (size_t)ni / BLOCK, gi, 1);
}

static void fit_nodes(fgd_groups *g, size_t nnodes)
{
    grow_array((void **)&g->node_group, &g->node_cap, nnodes ? nnodes : 1,
               sizeof *g->node_group);
    for (size_t i = g->nnodes; i < nnodes; i++)
        g->node_group[i] = -1;
    size_t nblk = (nnodes + BLOCK - 1) / BLOCK;
    grow_array((void **)&g->blk, &g->blk_cap, nblk ? nblk : 1, sizeof *g->blk);
    for (size_t b = g->nblk; b < nblk; b++)
        g->blk[b].n = 0;
    g->nblk = nblk;
    g->nnodes = nnodes;
}

static void regroup(fgd_groups *g, const cstate *cs, const int *rank)
{
    if (!g->tab)
        g->tab = hashtab_new(kept_eq, g);
    hashtab_clear(g->tab);
    g->ngrp = g->nlive = g->heap_total = g->nnodes = g->nblk = 0;
    g->rank = rank;
    fit_nodes(g, cs->nnodes);
    for (size_t i = 0; i < cs->nnodes; i++)
        node_move(g, cs, (int)i);
    g->state_id = cs->id;
    g->seen = cs->nchanges;
    g->kept = 1;
}

/* Brings the kept groups to cs's present state. */
static void sync(fgd_groups *g, const cstate *cs, const int *rank)
{
    if (!g->kept || g->state_id != cs->id || g->rank != rank || cs->nnodes < g->nnodes ||
        cs->nchanges - g->seen > CS_CHANGES_RING ||
        g->heap_total > 4 * g->nnodes + SLACK || g->ngrp > 2 * g->nlive + SLACK) {
        regroup(g, cs, rank);
        return;
    }
    fit_nodes(g, cs->nnodes);
    for (uint64_t c = g->seen; c < cs->nchanges; c++)
        node_move(g, cs, cs->changed[c % CS_CHANGES_RING]);
    g->seen = cs->nchanges;
}

/* --- one pass --------------------------------------------------------------------- */

static int once_eq(const void *key, size_t v, const void *ctx)
{
    const fgd_groups *g = ctx;
    return cs_key_equal(&g->ocs->keys[g->orep[v]], key);
}

/* Every node in index order; groups in the order of their first node. */
static size_t group_once(fgd_groups *g, const cstate *cs, const int *rank, int *rep, int *count)
{
    if (!g->otab)
        g->otab = hashtab_new(once_eq, g);
    hashtab_clear(g->otab);
    g->ocs = cs;
    g->orep = rep;
    size_t n = 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        const cs_key *k = &cs->keys[i];
        size_t had = hashtab_put(g->otab, k->hash, k, n);
        if (had == HASHTAB_NONE) {
            rep[n] = (int)i;
            count[n++] = 1;
        } else {
            count[had]++;
            if (rank && rank[i] < rank[rep[had]])
                rep[had] = (int)i;
        }
    }
    return n;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Whether two nodes share a rank (checked once per rank array). */
static int rank_ties(fgd_groups *g, const int *rank, size_t n)
{
    if (!rank)
        return 0;
    if (rank == g->checked && n == g->nchecked)
        return g->ties;
    int *s = xmemdup(rank, (n ? n : 1) * sizeof *s);
    qsort(s, n, sizeof *s, cmp_int);
    g->ties = 0;
    for (size_t i = 1; i < n && !g->ties; i++)
        g->ties = s[i] == s[i - 1];
    free(s);
    g->checked = rank;
    g->nchecked = n;
    return g->ties;
}

size_t fgd_groups_list(fgd_groups *g, const cstate *cs, const int *rank, int ordered, int *rep,
                       int *count)
{
    if (ordered || rank_ties(g, rank, cs->nnodes))
        return group_once(g, cs, rank, rep, count);
    sync(g, cs, rank);
    for (size_t i = 0; i < g->nlive; i++) {
        int gi = g->live[i];
        rep[i] = group_rep(g, gi);
        count[i] = g->grp[gi].count;
    }
    return g->nlive;
}

/* --- the k-th node that passes, in index order ------------------------------- */

size_t fgd_groups_filter(fgd_groups *g, const cstate *cs,
                         int (*pass)(const cstate *cs, int ni, const void *arg), const void *arg)
{
    sync(g, cs, NULL);
    grow_array((void **)&g->pass, &g->pass_cap, g->ngrp ? g->ngrp : 1, sizeof *g->pass);
    memset(g->pass, 0, g->ngrp);
    size_t n = 0;
    for (size_t i = 0; i < g->nlive; i++) {
        int gi = g->live[i];
        if ((g->pass[gi] = (unsigned char)(pass(cs, group_rep(g, gi), arg) != 0)))
            n += (size_t)g->grp[gi].count;
    }
    return n;
}

int fgd_groups_nth(const fgd_groups *g, size_t k)
{
    for (size_t b = 0; b < g->nblk; b++) {
        const block *bl = &g->blk[b];
        size_t here = 0;
        for (int j = 0; j < bl->n; j++)
            here += g->pass[bl->gi[j]] ? (size_t)bl->cnt[j] : 0;
        if (k >= here) {
            k -= here;
            continue;
        }
        size_t end = (b + 1) * BLOCK < g->nnodes ? (b + 1) * BLOCK : g->nnodes;
        for (size_t i = b * BLOCK; i < end; i++)
            if (g->pass[g->node_group[i]] && k-- == 0)
                return (int)i;
    }
    return -1;
}
