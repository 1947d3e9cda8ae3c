/*
 * plan_saved.h — a plan's results kept in the database, so that a plan
 * can run in shards on several machines (`gpuplan plan --shard I/N`) and
 * be put back together (`gpuplan merge`).
 *
 * A plan is identified by a fingerprint of everything that decides its
 * simulations: the engine's version, the trace (every task's fields and
 * series), the snapshot and what-if, the GPU profiles, the counts swept,
 * servers' size, the unbounded pool, the policies with their options
 * (the threshold sliders applied), the predictor, the throughput table
 * and nets.  Prices, κ and the SLA target are applied when results are
 * read, so a plan read back under other values needs no new simulation.
 *
 * plan_start() (plan.h) reads the saved points of its fingerprint, so a
 * plan whose jobs are all in the database (merged shards) prints at once;
 * only a plan with --shard saves what it simulates.
 */
#ifndef GP_PLAN_SAVED_H
#define GP_PLAN_SAVED_H

#include "plan.h"

/* Sets sw->fingerprint and sw->what from the loaded plan. */
void plan_identify(plan *sw);
/* Fills the results of the jobs saved under the plan's fingerprint and
 * marks them stored; how many in *n.  0, or -1 with a message. */
int plan_saved_load(plan *sw, store *st, int *n, gp_err *err);
/* Saves every finished job not yet stored, each in its own transaction
 * (a shard interrupted keeps what it finished); how many in *n. */
int plan_saved_put(plan *sw, store *st, int *n, gp_err *err);

#endif
