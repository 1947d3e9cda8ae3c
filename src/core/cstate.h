/*
 * cstate.h — the mutable state of a cluster while tasks are placed on it:
 * per node the CPU and RAM left, per GPU the allocated share, memory used,
 * running tasks, power state and clock.  Both the time-based simulator and
 * the placement-only inflation experiment mutate one of these; policies
 * only read it.
 *
 * Ownership: a cstate borrows its cluster and catalog (they must outlive
 * it) and owns everything else.  cstate_clone() makes an independent deep
 * copy (the simulator's rewind checkpoints).
 */
#ifndef GP_CSTATE_H
#define GP_CSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "util.h"

typedef enum gpu_power { GPU_ASLEEP = 0, GPU_IDLE = 1, GPU_ACTIVE = 2 } gpu_power;

/* GpuClustering's task tags (FGD_NOTES §5). */
enum { CS_TAG_NONE, CS_TAG_SHARE, CS_TAG_1, CS_TAG_2, CS_TAG_4, CS_TAG_8, CS_TAG_OTHER,
       CS_NTAGS };

typedef struct cs_gpu {
    int node;                   /* index into cstate.nodes */
    int dev;                    /* device index within the node */
    int alloc_milli;            /* sum of allocated shares; the correlation
                                 * family time-shares, so it may pass 1000 */
    double mem_gib;             /* capacity */
    double mem_used_gib;
    int *tasks;                 /* running task ids */
    int ntasks, tasks_cap;
    gpu_power power;
    double freq_mhz;
    /* > 0 while a power-cap controller holds this GPU (PEACE in the
     * simulator): its draw, W, in place of the cats model's P_gs + alpha f */
    double capped_w;
    int ever_used;              /* ran a task at some point (CapEx) */
} cs_gpu;

typedef struct cs_node {
    int spec;                   /* index of its description in the cluster */
    char name[GP_NAME_MAX];
    int gpu0, ngpus;            /* its GPUs: cstate.gpus[gpu0 .. gpu0+ngpus) */
    int64_t cpu_cap, cpu_left;  /* milli-cores */
    int64_t ram_cap, ram_left;  /* MiB */
    int ntasks;                 /* running tasks, CPU-only ones included */
    int asleep;
    int tag_count[CS_NTAGS];    /* running tasks per GpuClustering tag */
    const gpu_profile *gpu;     /* NULL for a CPU-only node */
    const cpu_profile *cpu;     /* may be NULL */
    double frag_cache;          /* a policy's cached per-node value ... */
    int frag_valid;             /* ... invalidated on every change */
} cs_node;

/* What a node is and has free, in one small record per node kept next to
 * the nodes: nodes with equal keys are interchangeable to every scoring
 * policy of the fragmentation/power family (their filter, scores, device
 * choice and power read nothing else), so a policy can evaluate one node
 * per key (policy/fgdscore.c).  Kept by cstate_alloc/release, so it is
 * always the state's own (clones and rewinds included).  Compare with
 * cs_key_equal(); unused bytes are zero. */
typedef struct cs_key {
    uint64_t hash;              /* of the fields below */
    const gpu_profile *gpu;
    const cpu_profile *cpu;
    int64_t cpu_cap, cpu_left, ram_left;
    uint16_t idle[GP_NODE_MAX_GPUS];    /* idle share per device, milli */
    uint16_t ngpus;
    uint16_t tags;              /* bit i: a running task of GpuClustering tag i */
    double mem_free[GP_NODE_MAX_GPUS];  /* free memory per device, GiB */
} cs_key;

/* How many of the latest key changes a state remembers (cstate.changed). */
#define CS_CHANGES_RING 1024

/* A set of GPU (or node) indices searched in index order: a bit per index
 * and a bit per word of them, so that the lowest member at or after an
 * index costs a few word reads (cs_idxset_next) and adding or removing one
 * is O(1). */
typedef struct cs_idxset {
    uint64_t *bits;             /* [nwords] */
    uint64_t *words;            /* [nwords / 64 + 1]: bit w set when bits[w] != 0 */
    size_t nwords, cap;         /* cap: words allocated in bits */
} cs_idxset;

/* The fresh-GPU classes of the correlation family (corr_fresh), each the
 * set of GPUs running no task that: */
enum {
    CS_FRESH_AWAKE,             /* are awake on an awake server */
    CS_FRESH_SERVER_AWAKE,      /* are on an awake server (awake or not) */
    CS_FRESH_SERVER_ASLEEP,     /* are on a sleeping server */
    CS_FRESH_N
};

typedef struct cstate {
    const cluster *cl;          /* borrowed */
    const catalog *cat;         /* borrowed */
    cs_node *nodes;
    size_t nnodes, nodes_cap;
    cs_gpu *gpus;
    size_t ngpus, gpus_cap;
    size_t opened;              /* nodes opened beyond the cluster (unbounded pool) */
    cs_key *keys;               /* [nnodes], see cs_key */
    size_t keys_cap;
    /* Which nodes' keys changed, so that a reader that keeps something per
     * key (the scoring policies' node groups) updates only those: the
     * count of key changes ever made, and the node of each of the latest
     * CS_CHANGES_RING of them (change c at changed[c % CS_CHANGES_RING]).
     * A reader that saw count s reads changes s .. nchanges-1, or starts
     * over when more than the ring holds happened.  id is this state's
     * own (a clone gets a new one), so that a reader can tell states
     * apart even when one is freed and another lands at its address. */
    int *changed;
    uint64_t nchanges;
    uint64_t id;
    int64_t alloc_milli;        /* Σ min(alloc, 1000) over GPUs, kept on every change */
    /* The GPUs running a task, ascending: what the correlation family
     * scans instead of every GPU (the same GPUs in the same order). */
    int *active;
    size_t nactive, active_cap;
    /* The GPUs running nothing by wake-up class, kept by alloc, release and
     * the power-state setters below: opening a fresh GPU searches these in
     * index order instead of every GPU. */
    cs_idxset fresh[CS_FRESH_N];
    /* The awake servers: what the cats power model sums (a sleeping
     * server draws nothing), in index order so the sum is the same. */
    cs_idxset awake_nodes;
    /* Each GPU's and each server's draw under the run's power model, as
     * the simulator's power bookkeeping caches them after every change
     * (sim_metrics.c), so that a power sum reads a few contiguous doubles
     * per server instead of every record (power.h, power_eval_cached).
     * Sized and copied here; zero until filled. */
    double *gpu_draw_w;         /* [ngpus] */
    double *node_draw_w;        /* [2 nnodes]: a server's CPU and GPU parts (eopc) */
    size_t gpu_draw_cap, node_draw_cap;
    /* The sums of node_draw_w's CPU and GPU parts over every server, kept
     * by power_eopc_cache as parts change so that the eopc total costs
     * nothing per event: exact, in units of 2^-64 W, so the same whatever
     * the order of the changes (power_eopc.c).  node_draw_inexact counts
     * the parts such a sum cannot hold exactly (they are left out of it);
     * node_draw_unsummed is set when another model writes the parts. */
    __int128 node_draw_sum[2];
    size_t node_draw_inexact;
    int node_draw_unsummed;
} cstate;

/* Builds the empty state of cluster c; every GPU starts idle at f_max.
 * Fails when a node names a GPU/CPU model the catalog lacks. */
cstate *cstate_new(const cluster *c, const catalog *cat, gp_err *err);
void cstate_free(cstate *cs);
cstate *cstate_clone(const cstate *cs);

/* Appends a copy of node `spec` (an index into the cluster), named
 * "<name>+<n>": the unbounded-pool mode of CorrGPU's CapEx experiment.
 * Returns the new node's index. */
int cstate_open_node(cstate *cs, int spec);

/* The GpuClustering tag of a task. */
int cstate_task_tag(const task *tk);

/* Takes the task's resources: CPU and RAM on the node, its share and
 * memory on each listed GPU (global GPU indices), and records it as running
 * there.  No feasibility check: policies decide what fits. */
void cstate_alloc(cstate *cs, const task *tk, int task_id, int node_idx, const int *gpus, int ngpus);
/* Gives them back (the same arguments as the alloc). */
void cstate_release(cstate *cs, const task *tk, int task_id, int node_idx, const int *gpus,
                    int ngpus);

/* Power states, set through these so that the fresh-GPU index follows. */
void cstate_set_gpu_power(cstate *cs, int g, gpu_power p);
void cstate_set_node_asleep(cstate *cs, int node_idx, int asleep);

/* The lowest member of set s at or after index from, -1 when none:
 *     for (int i = cs_idxset_next(s, 0); i >= 0; i = cs_idxset_next(s, i + 1)) */
int cs_idxset_next(const cs_idxset *s, int from);
static inline int cs_idxset_has(const cs_idxset *s, int g)
{
    size_t w = (size_t)g >> 6;
    return w < s->nwords && (s->bits[w] >> (g & 63) & 1);
}

/* Idle share of a GPU in milli (FGD's L[i]), never negative. */
static inline int cs_gpu_idle_milli(const cs_gpu *g)
{
    return g->alloc_milli >= 1000 ? 0 : 1000 - g->alloc_milli;
}

/* Free memory of a GPU in GiB. */
static inline double cs_gpu_mem_free(const cs_gpu *g)
{
    return g->mem_gib - g->mem_used_gib;
}

static inline int cs_key_equal(const cs_key *a, const cs_key *b)
{
    return a->hash == b->hash && memcmp(a, b, sizeof *a) == 0;
}

/* Totals used by metrics. */
size_t cstate_used_gpus_ever(const cstate *cs);
int64_t cstate_alloc_milli(const cstate *cs);  /* sum of min(alloc, 1000); O(1) */

#endif
