/*
 * frag.h — FGD's fragmentation measure (SPEC §3.4, FGD_NOTES §2–3): the
 * target workload ("typical tasks") of a trace, node fragmentation F_n(M)
 * with the published simulator's summation order, and cluster
 * fragmentation kept incrementally (only changed nodes are recomputed, via
 * cs_node.frag_cache / frag_valid).
 *
 * Also the pieces the FGD score needs to evaluate hypothetical node states
 * fast: per-class access flags and sufficient statistics, from which
 * F_n is accumulated exactly as frag_node_raw() does it (same float
 * operations in the same order), so a score computed through the fast path
 * is bit-identical to one computed from scratch.
 *
 * Ownership: frag_workload_new() returns an allocated workload (its class
 * array and type strings included); frag_workload_free() releases it.
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
    char gpu_type[GP_NAME_MAX]; /* "" = any (for display; may be truncated) */
    int count;
    double p;
    char *spec;                 /* owned: the full allowed-type list, NULL = any */
} frag_class;

typedef struct frag_workload {
    frag_class *cls;
    size_t n;
    int total;                  /* tasks covered by the classes */
    int ntasks;                 /* tasks the workload was built from */
} frag_workload;

/* The seven amount buckets of the published simulator (FGD_NOTES §3), in
 * its index order. */
enum { FRAG_Q1, FRAG_Q2, FRAG_Q3, FRAG_Q4, FRAG_XL, FRAG_XR, FRAG_NA, FRAG_NBUCKETS };

/* The typical tasks of FGD_NOTES §2, from the trace's tasks in order.
 * An empty trace gives an empty workload (every F_n is then 0). */
frag_workload *frag_workload_new(const gp_trace *tr);
void frag_workload_free(frag_workload *w);

/* F_n(M) of one node in the state (FGD_NOTES §3), in milli-GPU. */
double frag_node(const frag_workload *w, const cstate *cs, int node_idx);
/* Σ_n F_n over the cluster, refreshing only nodes whose cache is stale. */
double frag_cluster(const frag_workload *w, cstate *cs);

/* --- the fast path used by the FGD score --------------------------------- */

/* access[m] = 1 when class m may use a GPU of type `model` ("" or NULL for a
 * node without GPUs); w->n entries. */
void frag_access(const frag_workload *w, const char *model, unsigned char *access);

/* Per class m: cnt_ge[m] = devices with idle >= m.g, sum_lt[m] = Σ idle over
 * devices with idle < m.g (w->n entries each). */
void frag_stats(const frag_workload *w, const int *idle_milli, int ngpus, int *cnt_ge,
                int *sum_lt);

/* F_n from the statistics above, the node's total idle and CPU left; the
 * seven buckets are written to buckets[] when it is non-NULL. */
double frag_from_stats(const frag_workload *w, const unsigned char *access,
                       const int *cnt_ge, const int *sum_lt, int64_t total_idle,
                       int64_t cpu_left, double *buckets);

#endif
