/*
 * sim_place.h — one placement step, the same for the simulator, the
 * inflation experiment and the heuristic rows of a solve: ask the policy;
 * when nothing fits and the pool is unbounded (CorrGPU's CapEx setting),
 * open a copy of the first server that could host the task and ask again;
 * check the answer against the policy family's placement contract; and
 * allocate it.
 *
 * What differs between the callers is data and two hooks: the policy's
 * context (the trace it sees, its random stream, node ranks, progress), the
 * state kept beside the cluster's (the simulator's per-GPU rates and power
 * manager, told of an opened server and doing its own allocation), and what
 * a refused answer means to them (a failed task, a failed run, an unplaced
 * row).
 *
 * Not here: queues, retries, failures and their records; the policies.
 *
 * Ownership: a placer borrows everything it points at; it owns nothing and
 * needs no freeing.
 */
#ifndef GP_SIM_PLACE_H
#define GP_SIM_PLACE_H

#include "core/cstate.h"
#include "core/model.h"
#include "policy/policy.h"

typedef struct sim_placer {
    const policy_spec *pol;
    cstate *cs;                 /* the state placed on (ctx.cs reads it) */
    policy_ctx ctx;             /* what the policy sees */
    const gp_trace *tr;         /* the true tasks: checked and allocated */
    const cluster *cl;          /* the servers an unbounded pool copies */
    const catalog *cat;
    gpu_sharing sharing;        /* the family's placement contract */
    int unbounded;              /* open a server when nothing fits */
    explain *ex;                /* reset and filled at every ask; NULL = none */
    /* Optional hooks for state kept beside the cluster's (NULL = none):
     * opened() after a server was opened (its node index and first GPU),
     * occupy() instead of cstate_alloc() to allocate a checked placement. */
    void (*opened)(void *owner, int node, size_t first_gpu);
    void (*occupy)(void *owner, int ti, const placement *pl);
    void *owner;
} sim_placer;

typedef enum sim_place_result {
    SIM_PLACE_NO_ROOM,          /* nothing fits, an opened server included */
    SIM_PLACE_PLACED,           /* allocated at *pl */
    SIM_PLACE_INVALID,          /* the policy's answer breaks the contract:
                                 * nothing allocated, the reason in err */
} sim_place_result;

/* A placer of pol on cs for the tasks of tr, the policy seeing tr with
 * workspace prep; bounded, no explanation, no hooks.  The caller sets the
 * rest (ctx.tr for a predicted view, ctx.rng, unbounded, ex, hooks). */
void sim_place_init(sim_placer *p, const policy_spec *pol, cstate *cs, const cluster *cl,
                    const catalog *cat, const gp_trace *tr, void *prep);

/* The first server of cl that, empty, could host tk at all (GPU count,
 * model, per-device memory of consecutive devices; vCPU and RAM for a
 * CPU-only task), or -1. */
int sim_place_host(const cluster *cl, const catalog *cat, const task *tk);

/* Places trace task ti (allocated under task id `id`, which is ti but for
 * a caller that submits a task more than once): the step above.  *pl holds
 * the policy's last answer. */
sim_place_result sim_place_task(sim_placer *p, int ti, int id, placement *pl, gp_err *err);

#endif
