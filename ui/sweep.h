/*
 * sweep.h — the Planner's what-if sweep (SPEC §7.1 Planner, CorrGPU's
 * CapEx question): for one trace and one GPU profile, simulate each chosen
 * policy on clusters of lo, lo+step, ..., hi GPUs (servers of per_server
 * GPUs of that profile), or once in unbounded-pool mode (servers are opened
 * when nothing fits; CapEx counts the GPUs ever used), and collect SLA
 * violations, JCT, average power and CapEx.
 *
 * Long work that never blocks the UI: sweep_tick() runs simulation steps
 * for a time budget and returns, so the main loop keeps drawing progress
 * and reading keys (Esc cancels).  No curses here.
 *
 * Price, kappa and the SLA target are applied when results are read
 * (sweep_value), so moving those sliders updates the table at once; the
 * policies' thresholds change the simulation and mark the results stale.
 *
 * Ownership: a sweep owns its trace, catalog, clusters, sims and results;
 * sweep_free() releases them.
 */
#ifndef GP_SWEEP_H
#define GP_SWEEP_H

#include <stddef.h>

#include "../db/store.h"
#include "../src/policy.h"

#define SWEEP_MAX_POLICIES 6
#define SWEEP_MAX_COUNTS 64

typedef enum sweep_metric { SM_SLA, SM_JCT, SM_POWER, SM_CAPEX, SM_NMETRICS } sweep_metric;

typedef struct sweep_params {
    char trace[GP_NAME_MAX];
    char gpu[GP_NAME_MAX];      /* GPU profile the clusters are made of */
    int unbounded;
    int lo, hi, step;           /* GPU counts swept */
    int per_server;
    double price;               /* USD per GPU; < 0 = the profile's */
    double corr_threshold;      /* CATS/CorrGPU correlation threshold */
    double util_threshold;      /* percent; the baselines' q, CATS's cap */
    double kappa;               /* SLA factor; 0 = each task's own */
    double sla_target_pct;      /* violations allowed, % of tasks */
    char policies[SWEEP_MAX_POLICIES][GP_NAME_MAX];
    int npolicies;
} sweep_params;

typedef struct sweep_result {
    int policy;                 /* index into params.policies */
    int gpus;                   /* GPUs in the cluster (unbounded: ever used) */
    int done;
    size_t ntasks, ran;
    double jct_mean, jct_p95;   /* seconds, over tasks that ran */
    double avg_w;
    double *jct;                /* per task, -1 = never ran (kappa what-ifs) */
} sweep_result;

enum { SW_IDLE, SW_RUNNING, SW_DONE, SW_CANCELLED, SW_FAILED };

struct sim;

typedef struct sweep {
    int state;
    sweep_params p;             /* as started */
    gp_trace *tr;
    catalog *cat;
    gpu_profile prof;
    policy_spec spec[SWEEP_MAX_POLICIES];
    int counts[SWEEP_MAX_COUNTS];
    int ncounts;
    sweep_result *res;          /* [ncounts * npolicies], count-major */
    int njobs, job;
    cluster *cl;                /* the current job's */
    struct sim *sim;
    size_t steps;               /* decisions of the current job */
    char err[256];
    double t_start, elapsed;
} sweep;

void sweep_params_default(sweep_params *p);
const char *sweep_metric_name(sweep_metric m);

/* The GPU counts lo..hi by step (at most SWEEP_MAX_COUNTS, the step grown
 * to fit); returns how many. */
int sweep_counts(const sweep_params *p, int *out, int cap);

/* A cluster of `gpus` GPUs of profile prof in servers of per_server. */
cluster *sweep_cluster(const gpu_profile *prof, int gpus, int per_server);

/* Applies the threshold sliders to a policy spec: options named like the
 * correlation threshold / utilization threshold, in the unit (fraction or
 * percent) their range implies; correlation-family policies only. */
void sweep_apply_thresholds(policy_spec *sp, double corr, double util_pct);

int sweep_start(sweep *sw, store *st, const sweep_params *p, gp_err *err);
/* Runs for about budget_s seconds; returns 1 while work remains. */
int sweep_tick(sweep *sw, double budget_s);
void sweep_cancel(sweep *sw);
void sweep_free(sweep *sw);
/* Fraction done, 0..1. */
double sweep_progress(const sweep *sw);

/* A result's metric under the live sliders (price, kappa): SLA violations
 * in % of tasks, mean JCT s, average W, CapEx USD.  NAN when not run. */
double sweep_value(const sweep *sw, const sweep_result *r, sweep_metric m,
                   const sweep_params *live);
/* The result of count index c and policy j. */
const sweep_result *sweep_result_at(const sweep *sw, int c, int j);
/* The smallest count index whose result meets the SLA target for policy j
 * under the live sliders, -1 when none does. */
int sweep_best(const sweep *sw, int j, const sweep_params *live);

#endif
