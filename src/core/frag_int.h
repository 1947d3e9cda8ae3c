/*
 * frag_int.h — what frag.c defines beyond frag.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * frag.h's interface.
 */
#ifndef GP_FRAG_INT_H
#define GP_FRAG_INT_H

#include "frag.h"

/* F_n(M) of a node given explicitly (hypothetical states while scoring):
 * n supplies the GPU type and device count, idle_milli[0..n->ngpus) the
 * idle share of each device. */
double frag_node_raw(const frag_workload *w, const cs_node *n, const int *idle_milli,
                     int64_t cpu_left);

#endif
