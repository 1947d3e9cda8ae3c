/*
 * gogh_round.h — one round of an allocation policy that solves GOGH's
 * Problem 1 (GOGH §2.4, eq. 2a-2g: fewest watts such that every job
 * reaches its minimum throughput) or Gavel's max-sum throughput over the
 * round's jobs, with throughputs from a GOGH estimator (oracle, P1, or
 * P1 refined by P2 from the run's measurements).  Shared by
 * policy_gogh.c and policy_gavel.c.
 *
 * A round: the estimator catches up with the run's measurements; the
 * jobs that name a job type and need one GPU go to the solver — those
 * already running first, then waiting ones by arrival, as many as
 * Problem 1 can satisfy (fewer waiting ones until it is feasible); the
 * solution is mapped onto GPUs so that a job stays on its GPU when the
 * solution keeps it on that accelerator type (the solver does not tell
 * equal GPUs apart, so a naive mapping would move jobs for nothing); jobs
 * the solver does not take (no job type, several GPUs, no estimate) stay
 * where they run or go first-fit.
 *
 * Ownership: gogh_round_new() / gogh_round_free(); borrows the table and
 * nets of its inputs.
 */
#ifndef GP_GOGH_ROUND_H
#define GP_GOGH_ROUND_H

#include "policy.h"
#include "predict/gogh_est.h"
#include "solve/solve.h"

typedef struct gogh_round_params {
    gogh_objective objective;   /* GOGH_MIN_POWER or GOGH_MAX_THROUGHPUT */
    gogh_est_mode mode;
    /* A job's minimum throughput when its task gives none: this share of
     * its best estimated solo throughput. */
    double min_frac;
    double time_limit_s;        /* per solve */
    double mip_gap;             /* stop at this relative gap */
} gogh_round_params;

typedef struct gogh_round gogh_round;

/* The workspace of a run on cs and tr: needs in->tput, and in->nets for the
 * P1 and P1+P2 modes.  NULL with a message. */
gogh_round *gogh_round_new(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                           gogh_est_mode mode, gp_err *err);
void gogh_round_free(gogh_round *r);

/* Decides the round of ctx into out (policy.h, allocate()). */
int gogh_round_allocate(gogh_round *r, const alloc_ctx *ctx, const gogh_round_params *p,
                        alloc_out *out, gp_err *err);

#endif
