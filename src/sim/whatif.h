/*
 * whatif.h — what-ifs that start from a snapshot (SPEC §7, operators): the
 * snapshot's tasks in place on its cluster at t = 0, each with its
 * remaining work, then the arrivals — a trace (the pending pods of an
 * imported cluster, next quarter's jobs) and/or N more tasks like the
 * snapshot's.  "Can the pending pods fit if we consolidate with CATS?",
 * "what would FGD have done from today's fragmentation?"
 *
 * Builds one trace (the tasks in place first, then the arrivals in their
 * order) and the pins the simulator starts them with (sim_config.pins);
 * the simulator, the planner and the solvers take them like any trace.
 *
 * Ownership: a whatif owns its trace and pins; whatif_free() frees them.
 * The snapshot, cluster and arrivals are only read.
 */
#ifndef GP_WHATIF_H
#define GP_WHATIF_H

#include "core/model.h"
#include "sim.h"

typedef struct whatif_opts {
    /* Seconds each task in place has left alone on the GPUs it holds
     * (converted to the reference GPU's by Amdahl's law, core/speed.h, as
     * sim_tput.c times untyped tasks); 0 = its duration as stored (an
     * imported pod's is the importer's stated default). */
    double remaining_s;
    /* Copies of the snapshot's tasks that arrive too, one every more_gap_s
     * seconds from t = 0, the snapshot's tasks in turn. */
    int more;
    double more_gap_s;
    /* The speed durations are measured at (sim_config.ref_speed); 0 = a
     * V100's (1), the snapshot's tasks stating no GPU of their own. */
    double ref_speed;
} whatif_opts;

typedef struct whatif {
    gp_trace *tr;               /* in place, then arrivals */
    sim_pin *pins;              /* one per task of tr */
    size_t nplaced;             /* tr->tasks[0 .. nplaced) start in place */
} whatif;

/* The what-if of snapshot sn (on cluster cl, its own) with the tasks of
 * arrivals (may be NULL) arriving.  0, or -1 with a message when a
 * placement names what cl lacks. */
int whatif_build(const snapshot *sn, const cluster *cl, const catalog *cat,
                 const gp_trace *arrivals, const whatif_opts *o, whatif *out, gp_err *err);
void whatif_free(whatif *w);

/* The cluster state the snapshot stands for (its tasks placed), for
 * measuring it: the caller frees it with cstate_free.  NULL with a
 * message when cl lacks a profile. */
cstate *whatif_state(const whatif *w, const cluster *cl, const catalog *cat, gp_err *err);

/* What the snapshot's state looks like (whatif_state): GPUs, GPUs holding
 * a task, idle GPU share in milli-GPUs, and FGD's fragmentation of it
 * (FGD_NOTES §3, Σ_n F_n, milli-GPUs) against the what-if's tasks as the
 * target workload. */
typedef struct whatif_look {
    int gpus, busy_gpus;
    int64_t idle_milli;
    double frag_milli;
} whatif_look;
int whatif_look_at(const whatif *w, const cluster *cl, const catalog *cat, whatif_look *out,
                   gp_err *err);

/* The reference speed a what-if times tasks at: o's, else a V100's (1),
 * never the cluster's — what a simulation of it must use too
 * (sim_config.ref_speed), also on a cluster grown by the planner. */
double whatif_ref_speed(const whatif_opts *o, const cluster *cl, const catalog *cat);

/* A copy of cl with the servers of extra appended (renamed "new-<name>"
 * so they never clash): a snapshot's cluster grown for the planner. */
cluster *whatif_cluster_plus(const cluster *cl, const cluster *extra);

#endif
