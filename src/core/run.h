/*
 * run.h — a saved simulation run (SPEC §3.1, §6): what was run (policy,
 * options, trace, cluster, seed, engine version), its timeline, per-task
 * outcomes, placement log and summary metrics.  Plain data: the engine fills
 * it, the store saves and loads it, the front ends show it.
 *
 * Ownership: a run owns its arrays and strings; run_free() releases them.
 */
#ifndef GP_RUN_H
#define GP_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* One timeline sample (SPEC §6). */
typedef struct run_point {
    double t_s;
    double active_gpus;
    double awake_gpus;
    double active_servers;
    double power_w;             /* total = gpu + cpu + static */
    double gpu_w;
    double cpu_w;
    double static_w;
    double frag;                /* fragmentation (FGD milli-GPU or ratio) */
    double alloc_ratio;         /* allocated / total GPU capacity */
    double queued;
    double mean_freq_mhz;
} run_point;

/* One task's outcome.  node/gpus are -1/"" when the task never ran. */
typedef struct run_outcome {
    int task;                   /* index into the gp_trace */
    double wait_s, start_s, end_s, jct_s, slowdown;
    int sla_violated;
    int node;
    char gpus[64];              /* device indices, "0,3" */
} run_outcome;

/* One placement decision, with the policy's explanation. */
typedef struct run_decision {
    int seq;
    double t_s;
    int task;
    int node;                   /* -1 when nothing fit */
    char gpus[64];
    char *reason;               /* owned, may be NULL */
} run_decision;

typedef struct run_metric {
    char key[32];
    double value;
} run_metric;

typedef struct run {
    int64_t id;
    char name[GP_NAME_MAX];
    char policy[GP_NAME_MAX];
    char *options;              /* owned, "key=value ..." as given */
    char trace_name[GP_NAME_MAX];
    char cluster_name[GP_NAME_MAX];
    uint64_t seed;
    char engine_version[16];
    char power_model[16];
    char created[32];           /* UTC, ISO 8601; set by the store */
    run_point *points;
    size_t npoints, points_cap;
    run_outcome *outcomes;
    size_t noutcomes, outcomes_cap;
    run_decision *decisions;
    size_t ndecisions, decisions_cap;
    run_metric *metrics;
    size_t nmetrics, metrics_cap;
} run;

run *run_new(const char *policy);
void run_free(run *r);
void run_add_point(run *r, const run_point *p);
void run_add_outcome(run *r, const run_outcome *o);
/* Copies d, including its reason string. */
void run_add_decision(run *r, const run_decision *d);
/* The number a decision is shown by: from 1, as the dashboard's Step
 * counts them, in `run --explain` (#N) and in exports.  seq stays the
 * stored count of decisions made before it (from 0). */
int run_decision_number(const run_decision *d);
/* The most timeline points a saved run keeps (run_points_keep). */
#define RUN_SAVED_POINTS_MAX 4000

/* Which of a timeline's n points a saved run keeps, at most max (>= 6):
 * all of them when n <= max; else the first and the last, and of the
 * points between, cut into (max - 2) / 4 buckets of consecutive points,
 * each bucket's lowest and highest power and lowest and highest active
 * GPUs (the earliest point on a tie; a point counted once), so a chart
 * keeps every peak and trough at its time.  The run's figures do not
 * come from the saved points: the simulator computes them over the whole
 * timeline (runsum.h), and the last point, kept, gives the final state.
 * Writes the indices kept, increasing, into keep (room for
 * min(n, max)); returns how many. */
size_t run_points_keep(const run_point *p, size_t n, size_t max, size_t *keep);

/* Sets (or replaces) a named summary metric. */
void run_set_metric(run *r, const char *key, double value);
/* The metric's value, or `fallback` when absent. */
double run_metric_get(const run *r, const char *key, double fallback);

#endif
