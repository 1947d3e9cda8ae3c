/*
 * runsum_int.h — what runsum.c defines beyond runsum.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * runsum.h's interface.
 */
#ifndef GP_RUNSUM_INT_H
#define GP_RUNSUM_INT_H

#include "runsum.h"

/* SLA violations of r's finished tasks against their trace for SLA factor
 * kappa (JCT > kappa * e_min; kappa <= 0 uses each task's own kappa). */
size_t run_violations(const run *r, const gp_trace *tr, double kappa);

#endif
