/*
 * frag_tally.c — the cluster's fragmentation as a running exact total
 * (frag_tally.h).
 *
 * Each node's term is the F_n it last contributed; a change replaces it
 * by the node's fresh F_n as a difference of fixed-point counts.  The
 * fixed point is a count of 2^-80 milli-GPU in an __int128: F_n is p ·
 * (an integer amount) summed over classes, so its lowest bit sits far
 * above 2^-80 unless F_n is below 2^-28, and 2^47 milli-GPU of total is
 * more idle share than any cluster has.  A term it cannot hold is counted
 * as inexact, and while one is, the total is summed in node order.
 */
#include "frag_tally.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

struct frag_tally {
    uint64_t state_id;          /* the state the terms are of (cstate.id) */
    const frag_workload *w;     /* and the workload */
    uint64_t seen;              /* cstate.nchanges when last read */
    double *term;               /* [nterms]: each node's F_n in the sum */
    size_t nterms, cap;
    __int128 sum;               /* Σ exact terms, 2^-80 milli-GPU */
    size_t inexact;             /* terms the sum leaves out */
};

#define FIXED_SHIFT 80

/* x as an exact count of 2^-80: 1 when it is one (0, or a magnitude below
 * 2^40 whose lowest mantissa bit is at least 2^-80), else 0. */
static int to_fixed(double x, __int128 *out)
{
    *out = 0;
    if (x == 0)
        return 1;
    if (!(fabs(x) < 0x1p40))
        return 0;
    double y = ldexp(x, FIXED_SHIFT);
    if (y != trunc(y))
        return 0;
    *out = (__int128)y;
    return 1;
}

frag_tally *frag_tally_new(void)
{
    return xcalloc(1, sizeof(frag_tally));
}

void frag_tally_free(frag_tally *t)
{
    if (!t)
        return;
    free(t->term);
    free(t);
}

/* Node ni's F_n, from the state's per-node cache when it is still valid. */
static double node_frag(const frag_workload *w, cstate *cs, size_t ni)
{
    cs_node *n = &cs->nodes[ni];
    if (!n->frag_valid) {
        n->frag_cache = frag_node(w, cs, (int)ni);
        n->frag_valid = 1;
    }
    return n->frag_cache;
}

/* Replaces node ni's term (0 for a node not yet in the tally) by x. */
static void set_term(frag_tally *t, size_t ni, double x)
{
    __int128 was, is;
    int was_ok = to_fixed(t->term[ni], &was), is_ok = to_fixed(x, &is);
    t->inexact += (size_t)!is_ok - (size_t)!was_ok;
    t->sum += is - was;
    t->term[ni] = x;
}

/* Makes room for the state's nodes; the new ones hold a term of 0. */
static void fit(frag_tally *t, const cstate *cs)
{
    if (cs->nnodes <= t->nterms)
        return;
    grow_array((void **)&t->term, &t->cap, cs->nnodes, sizeof *t->term);
    for (size_t i = t->nterms; i < cs->nnodes; i++)
        t->term[i] = 0;
}

static void start_over(frag_tally *t, const frag_workload *w, cstate *cs)
{
    t->state_id = cs->id;
    t->w = w;
    t->nterms = 0;
    t->sum = 0;
    t->inexact = 0;
    fit(t, cs);
    for (size_t i = 0; i < cs->nnodes; i++)
        set_term(t, i, node_frag(w, cs, i));
    t->nterms = cs->nnodes;
    t->seen = cs->nchanges;
}

/* The nodes whose key changed since the last read, and any node opened
 * since (its term starts at 0). */
static void catch_up(frag_tally *t, const frag_workload *w, cstate *cs)
{
    fit(t, cs);
    for (uint64_t c = t->seen; c < cs->nchanges; c++) {
        size_t ni = (size_t)cs->changed[c % CS_CHANGES_RING];
        if (ni < t->nterms)
            set_term(t, ni, node_frag(w, cs, ni));
    }
    for (size_t i = t->nterms; i < cs->nnodes; i++)
        set_term(t, i, node_frag(w, cs, i));
    t->nterms = cs->nnodes;
    t->seen = cs->nchanges;
}

double frag_tally_total(frag_tally *t, const frag_workload *w, cstate *cs)
{
    if (t->state_id != cs->id || t->w != w || cs->nchanges - t->seen > CS_CHANGES_RING)
        start_over(t, w, cs);
    else
        catch_up(t, w, cs);
    if (t->inexact > 0)
        return frag_cluster(w, cs);
    return ldexp((double)t->sum, -FIXED_SHIFT);
}
