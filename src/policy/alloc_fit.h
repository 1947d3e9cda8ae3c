/*
 * alloc_fit.h — what each GPU holds while an allocation-family policy
 * decides a round (policy.h, allocate()): the round's placements must fit
 * together, and the cluster state the policy is given still shows the
 * running tasks where they were.  An alloc_fit starts from that state with
 * every active task of the round taken off, then takes each placement the
 * policy decides, under the SHARE_PAIR contract (memory, two tasks at most
 * per GPU, an allowed model).
 *
 * Ownership: alloc_fit_new() / alloc_fit_free(); borrows cs and tr.
 */
#ifndef GP_ALLOC_FIT_H
#define GP_ALLOC_FIT_H

#include "policy.h"

/* GOGH's theta_a: jobs an accelerator runs at once. */
#define ALLOC_MAX_PER_GPU 2

typedef struct alloc_fit alloc_fit;

alloc_fit *alloc_fit_new(const cstate *cs, const gp_trace *tr, const alloc_job *jobs,
                         size_t njobs);
void alloc_fit_free(alloc_fit *f);

/* Whether GPU g can take task ti now. */
int alloc_fit_gpu_ok(const alloc_fit *f, int ti, int g);
/* Tasks the round has put on GPU g so far. */
int alloc_fit_count(const alloc_fit *f, int g);
/* Takes placement pl for task ti (its GPUs must be ok). */
void alloc_fit_take(alloc_fit *f, int ti, const placement *pl);
/* The first GPUs (node order, then device order) that can take task ti:
 * 1 with *pl filled, 0 when none can.  empty_only: only GPUs the round
 * has left empty. */
int alloc_fit_first(const alloc_fit *f, int ti, int empty_only, placement *pl);

#endif
