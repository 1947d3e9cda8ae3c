/*
 * frag.h — FGD's fragmentation measure (SPEC §3.4, FGD_NOTES §2–3): the
 * target workload ("typical tasks") of a trace, node fragmentation F_n(M)
 * with the published simulator's summation order, and cluster
 * fragmentation kept incrementally (only changed nodes are recomputed, via
 * cs_node.frag_cache / frag_valid).
 */
#ifndef GP_FRAG_H
#define GP_FRAG_H

#include <stddef.h>
#include <stdint.h>

#include "cstate.h"
#include "model.h"

/* One task class of the target workload: (cpu, per-GPU share g, GPU count
 * k, allowed GPU type) with its popularity p = count / total. */
typedef struct frag_class {
    int64_t cpu_milli;
    int g;
    int k;
    char gpu_type[GP_NAME_MAX]; /* "" = any */
    int count;
    double p;
} frag_class;

typedef struct frag_workload {
    frag_class *cls;
    size_t n;
    int total;                  /* tasks covered by the classes */
} frag_workload;

/* The typical tasks of FGD_NOTES §2, from the trace's tasks in order. */
frag_workload *frag_workload_new(const gp_trace *tr);
void frag_workload_free(frag_workload *w);

/* F_n(M) of one node in the state (FGD_NOTES §3), in milli-GPU. */
double frag_node(const frag_workload *w, const cstate *cs, int node);
/* F_n(M) of a node given explicitly (hypothetical states while scoring). */
double frag_node_raw(const frag_workload *w, const cs_node *n, const int *idle_milli,
                     int64_t cpu_left);
/* Σ_n F_n over the cluster, refreshing only nodes whose cache is stale. */
double frag_cluster(const frag_workload *w, cstate *cs);

#endif
