/*
 * store_plan.h — the saved points of a capacity plan (`gpuplan plan`), so
 * that a plan run in shards (`--shard I/N`) can be merged and read back.
 *
 * A plan is a sweep (store_merge.h) of kind "plan": its fingerprint covers
 * everything that decides its simulations, its work list is one job per
 * (GPU count, policy), and each finished job is one plan_point row holding
 * what the planner keeps of a simulation: the GPUs it had (or, unbounded,
 * used), tasks run, mean and 95th-percentile JCT, average power, the
 * simulated span and every task's JCT (the SLA factor, prices and target
 * are applied when a plan is read, so they are not part of it).
 *
 * The table is created on first use (IF NOT EXISTS), like the sweep's.
 */
#ifndef GP_STORE_PLAN_H
#define GP_STORE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_merge.h"

typedef struct store_plan_point {
    int64_t job;
    int gpus, gpus2;
    int64_t ran;                /* tasks that ran */
    double jct_mean, jct_p95;   /* seconds; NAN when nothing ran */
    double avg_w, span_s;
    size_t ntasks;
    double *jct;                /* [ntasks] seconds, -1 = never ran */
} store_plan_point;

/* Saves job pt->job of plan sw (and sw itself, once), in one savepoint;
 * a job already saved is replaced.  0, or -1 with a message. */
int store_put_plan_point(store *s, const store_sweep *sw, const store_plan_point *pt,
                         gp_err *err);

/* Calls each(ctx, pt) for every saved point of the plan with this
 * fingerprint, in job order; pt->jct is the callee's to keep (or free).
 * A database without saved plans has none.  0, or -1 with a message
 * (each's own, when it returns -1). */
int store_get_plan_points(store *s, const char *fingerprint,
                          int (*each)(void *ctx, store_plan_point *pt, gp_err *err), void *ctx,
                          gp_err *err);

#endif
