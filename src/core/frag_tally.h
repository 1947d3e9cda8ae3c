/*
 * frag_tally.h — the cluster's fragmentation Σ_n F_n kept as a running
 * total, for a reader that asks for it again and again as the state
 * changes (the simulator's timeline, one point per sample).
 *
 * frag_cluster() adds every node's F_n at each call: on 100,000 idle GPUs
 * that walk dominates a run's timeline.  A tally reads only the nodes
 * whose key changed since it last looked (cstate.changed) and keeps the
 * sum exact, in fixed point, so it is the same whatever the order in
 * which nodes change: the exact sum of the nodes' F_n, rounded to a double
 * once when read.
 *
 * Ownership: frag_tally_new()/frag_tally_free(); a tally borrows nothing
 * between calls and follows whichever state it is given (a different
 * state, a clone included, starts it over).
 */
#ifndef GP_FRAG_TALLY_H
#define GP_FRAG_TALLY_H

#include "cstate.h"
#include "frag.h"

typedef struct frag_tally frag_tally;

frag_tally *frag_tally_new(void);
void frag_tally_free(frag_tally *t);

/* Σ_n F_n(M) over the nodes of cs for workload w: the exact sum rounded
 * once, or, when some node's F_n is outside what the fixed point holds
 * exactly, the sum in node order (frag_cluster's). */
double frag_tally_total(frag_tally *t, const frag_workload *w, cstate *cs);

#endif
