/*
 * inflation_int.h — what inflation.c defines beyond inflation.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of inflation.h's interface.
 */
#ifndef GP_INFLATION_INT_H
#define GP_INFLATION_INT_H

#include "inflation.h"

/* FGD_NOTES §1.1–1.2: the trace's task indices sorted by name, shuffled
 * with the seed, then random clones appended while the requested GPU milli
 * stays within ratio × capacity (the first draw whose per-GPU share would
 * pass it stops the inflation — the simulator's quirk); a trace already
 * above the target loses random tasks instead.  Returns an allocated array
 * of *n trace indices; *nclones = tasks added. */
int *infl_order(const gp_trace *tr, int64_t gpu_milli, double ratio, uint64_t seed, size_t *n,
                size_t *nclones);

/* FGD_NOTES §1.3: rank[i] of each of n nodes, a random permutation. */
void infl_ranks(size_t n, uint64_t seed, int *rank);

/* FGD_NOTES §9: the order (as infl_order(), allocated) and the rank of each
 * of the cluster's nodes, drawn from one Go math/rand stream seeded with
 * seed exactly as the published simulator draws them: one Int() thrown
 * away, Shuffle of the name-sorted tasks, one Intn per clone candidate over
 * the name-sorted originals, ten Float64() thrown away, then Perm over the
 * name-sorted nodes. */
int *infl_go_draws(const gp_trace *tr, const cluster *cl, double ratio, int64_t seed,
                   size_t *n, size_t *nclones, int *rank);

/* The two kinds of curves from a run's events (FGD_NOTES §7). */
void infl_curves_of(const infl_event *ev, size_t n, int ngpus, infl_curves *cv);

#endif
