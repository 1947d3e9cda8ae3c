/*
 * fgdscore_int.h — what fgdscore.c defines beyond fgdscore.h for the tests
 * and the benchmarks alone: the engine calls none of it, so it is not part
 * of fgdscore.h's interface.
 */
#ifndef GP_FGDSCORE_INT_H
#define GP_FGDSCORE_INT_H

#include "fgdscore.h"

void fgd_task_of(const task *tk, fgd_task *out);

/* need_workload: build FGD's typical tasks from the trace (FGD, PWR+FGD). */
fgd_prep *fgd_prep_new(const cstate *cs, const gp_trace *tr, int need_workload);
void fgd_prep_free(fgd_prep *p);
const frag_workload *fgd_prep_workload(const fgd_prep *p);

/* FGD_NOTES §4: CPU, memory, GPU type and GPU shares.  Returns 1 when the
 * node can take the task; else 0 with a short reason in why (may be NULL). */
int fgd_feasible(const cstate *cs, int node_idx, const fgd_task *t, const char **why);

/* Device choices on a node (FGD_NOTES §5).  Each fills out->gpus with
 * global GPU indices and out->ngpus; CPU-only tasks get none.
 * best fit: sharing → the smallest idle >= g (lowest index on ties);
 * whole GPUs → the first k fully free devices by index. */
void fgd_devices_bestfit(const cstate *cs, int node_idx, const fgd_task *t, placement *out);

/* Normalises raw[0..n) into out[0..n) (FGD_NOTES §5, integer arithmetic). */
void fgd_normalise(const int64_t *raw, size_t n, fgd_norm norm, int64_t *out);

/* Index in cand[0..n) of the highest total, ties to the lowest rank
 * (rank == NULL: the lowest node index). */
size_t fgd_pick(const int *cand, const int64_t *total, size_t n, const int *rank);

#endif
