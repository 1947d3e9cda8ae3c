/*
 * cstate_int.h — what cstate.c defines beyond cstate.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * cstate.h's interface.
 */
#ifndef GP_CSTATE_INT_H
#define GP_CSTATE_INT_H

#include "cstate.h"

/* Recomputes node node_idx's key, and the totals and indexes of every GPU,
 * after fields were set directly instead of through alloc/release and the
 * setters below (states built by hand in tests). */
void cstate_touch(cstate *cs, int node_idx);

/* Totals used by metrics. */
size_t cstate_active_gpus(const cstate *cs);   /* GPUs running a task; O(1) */

#endif
