/*
 * optimal.h — the papers' "Optimal" row of a policy comparison (CATS
 * Fig. 7a): CATS's optimum over a whole trace (solve_cats_for_run), shown
 * next to the simulated policies by `gpuplan run` and the Compare screen.
 *
 * The row only means something when the policies are measured with the
 * power model the optimum minimises (CATS eq. 1-4) and it is cheap enough
 * to compute on the spot, so the automatic mode asks for both.
 *
 * Not here: the solve itself (solve/solve_cats.c), any output.
 */
#ifndef GP_OPTIMAL_H
#define GP_OPTIMAL_H

#include <stddef.h>

#include "policy/policy.h"
#include "sim/sim.h"
#include "solve/solve.h"

/* The most GPU tasks a trace may have for the automatic row. */
#define OPTIMAL_AUTO_TASKS 256

/* 1 when the automatic mode adds the row: the trace has 1..256 GPU tasks,
 * every policy is measured with CATS's power model, and every task runs
 * as fast on every GPU (no throughput table, one speed across the cluster:
 * CATS eq. 6-14 know no GPU types). */
int optimal_row_wanted(const sim_config *cfg, const cluster *cl, const catalog *cat,
                       const gp_trace *tr, const policy_spec *specs,
                       size_t n);

/* The row for tr on cl, with cfg's kappa override applied to every task;
 * all interval solves share time_limit_s.  0, or -1 with a message. */
int optimal_row_compute(const sim_config *cfg, const cluster *cl, const catalog *cat,
                        const gp_trace *tr, double time_limit_s, solve_run_row *row,
                        gp_err *err);

#endif
