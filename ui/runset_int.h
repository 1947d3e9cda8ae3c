/*
 * runset_int.h — what runset.c defines beyond runset.h for the tests and the
 * benchmarks alone: the dashboard calls none of it, so it is not part of
 * runset.h's interface.
 */
#ifndef GP_RUNSET_INT_H
#define GP_RUNSET_INT_H

#include "runset.h"

/* Jumps the focused sim to just after decision k (others follow). */
int runset_goto(runset *rs, size_t k, gp_err *err);
/* Runs every live sim to its end. */
void runset_finish_all(runset *rs);

#endif
