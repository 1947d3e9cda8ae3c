/*
 * plan_par.h — the planner's simulations on several threads (plan.h's
 * params.jobs > 1): a background thread runs par.h's pool over the
 * plan's jobs while plan_tick(), on the caller's thread, only moves the
 * finished results into the plan and returns within its budget, so the
 * dashboard keeps drawing and `gpuplan plan` waits.  Results are the
 * same as with one thread: each job builds its own cluster and sim from
 * the plan's read-only inputs.
 *
 * Not used when the plan has GOGH nets (shared by every sim, and FANN
 * writes each evaluation's activations into the net): those plans step in
 * plan_tick() as before.
 *
 * Also the two job functions of plan.c that both paths share.
 */
#ifndef GP_PLAN_PAR_H
#define GP_PLAN_PAR_H

#include "plan.h"

/* Job i's cluster (into *cl, the caller frees it after the sim) and sim;
 * NULL with a message naming the policy. */
struct sim *plan_job_sim(const plan *sw, int i, cluster **cl, gp_err *err);
/* Finishes sim s and fills r (done = 1) from its run record. */
void plan_job_result(const plan *sw, struct sim *s, plan_result *r);

/* Starts the background run when the plan asks for several threads and
 * can use them (sw->par set); otherwise leaves sw->par NULL. */
void plan_par_start(plan *sw);
/* plan_tick() for a plan with sw->par: moves finished results in, waits
 * up to budget_s; returns 1 while work remains. */
int plan_par_tick(plan *sw, double budget_s);
/* Cancels and joins the background run, if any; sw->par NULL after. */
void plan_par_stop(plan *sw);

#endif
