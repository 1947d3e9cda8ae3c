/*
 * plan.h — the capacity planner's what-if sweep (SPEC §7.1 Planner, CorrGPU's
 * CapEx question): for one trace and one GPU profile, simulate each chosen
 * policy on clusters of lo, lo+step, ..., hi GPUs (servers of per_server
 * GPUs of that profile), or once in unbounded-pool mode (servers are opened
 * when nothing fits; CapEx counts the GPUs ever used), and collect SLA
 * violations, JCT, average power and CapEx.
 *
 * Long work that never blocks the UI: plan_tick() runs simulation steps
 * for a time budget and returns, so the main loop keeps drawing progress
 * and reading keys (Esc cancels).  No curses here.
 *
 * Price, kappa and the SLA target are applied when results are read
 * (plan_value), so moving those sliders updates the table at once; the
 * policies' thresholds change the simulation and mark the results stale.
 *
 * Ownership: a plan owns its trace, catalog, clusters, sims and results;
 * plan_free() releases them.
 */
#ifndef GP_PLAN_H
#define GP_PLAN_H

#include <stddef.h>

#include "db/store.h"
#include "policy/policy.h"

#define PLAN_MAX_POLICIES 6
#define PLAN_MAX_COUNTS 64

typedef enum plan_metric { PM_SLA, PM_JCT, PM_POWER, PM_CAPEX, PM_NMETRICS } plan_metric;

typedef struct plan_params {
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
    char policies[PLAN_MAX_POLICIES][GP_NAME_MAX];
    int npolicies;
} plan_params;

typedef struct plan_result {
    int policy;                 /* index into params.policies */
    int gpus;                   /* GPUs in the cluster (unbounded: ever used) */
    int done;
    size_t ntasks, ran;
    double jct_mean, jct_p95;   /* seconds, over tasks that ran */
    double avg_w;
    double *jct;                /* per task, -1 = never ran (kappa what-ifs) */
} plan_result;

enum { PLAN_IDLE, PLAN_RUNNING, PLAN_DONE, PLAN_CANCELLED, PLAN_FAILED };

struct sim;

typedef struct plan {
    int state;
    plan_params p;             /* as started */
    gp_trace *tr;
    catalog *cat;
    gpu_profile prof;
    policy_spec spec[PLAN_MAX_POLICIES];
    int counts[PLAN_MAX_COUNTS];
    int ncounts;
    plan_result *res;          /* [ncounts * npolicies], count-major */
    int njobs, job;
    cluster *cl;                /* the current job's */
    struct sim *sim;
    size_t steps;               /* decisions of the current job */
    char err[256];
    double t_start, elapsed;
} plan;

void plan_params_default(plan_params *p);
const char *plan_metric_name(plan_metric m);

/* The GPU counts lo..hi by step (at most PLAN_MAX_COUNTS, the step grown
 * to fit); returns how many. */
int plan_counts(const plan_params *p, int *out, int cap);

/* A cluster of `gpus` GPUs of profile prof in servers of per_server. */
cluster *plan_cluster(const gpu_profile *prof, int gpus, int per_server);

/* Applies the threshold sliders to a policy spec: its options of role
 * OPT_CORR_THRESHOLD get corr, those of OPT_UTIL_THRESHOLD util_pct
 * (clamped to their ranges); NAN leaves them at the spec's values. */
void plan_apply_thresholds(policy_spec *sp, double corr, double util_pct);

int plan_start(plan *sw, store *st, const plan_params *p, gp_err *err);
/* Runs for about budget_s seconds; returns 1 while work remains. */
int plan_tick(plan *sw, double budget_s);
void plan_cancel(plan *sw);
void plan_free(plan *sw);
/* Fraction done, 0..1. */
double plan_progress(const plan *sw);

/* A result's metric under the live sliders (price, kappa): SLA violations
 * in % of tasks, mean JCT s, average W, CapEx USD.  NAN when not run. */
double plan_value(const plan *sw, const plan_result *r, plan_metric m,
                   const plan_params *live);
/* The result of count index c and policy j. */
const plan_result *plan_result_at(const plan *sw, int c, int j);
/* 1 when SLA violations of sla_pct percent meet a target of target_pct
 * (both as plan_value computes them; the tolerance forgives rounding). */
int plan_meets_target(double sla_pct, double target_pct);
/* The smallest count index whose result meets the SLA target for policy j
 * under the live sliders, -1 when none does. */
int plan_best(const plan *sw, int j, const plan_params *live);

#endif
