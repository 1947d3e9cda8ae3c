/*
 * plan.h — the capacity planner's what-if sweep (SPEC §7.1 Planner, CorrGPU's
 * CapEx question): for one trace and one GPU profile, simulate each chosen
 * policy on clusters of lo, lo+step, ..., hi GPUs (servers of per_server
 * GPUs of that profile), or once in unbounded-pool mode (servers are opened
 * when nothing fits; CapEx counts the GPUs ever used), and collect SLA
 * violations, JCT, average power and CapEx.
 *
 * With a second GPU profile the sweep is a grid: every (n1, n2) of the two
 * count ranges is a mixed cluster (servers of the first model, then of the
 * second).  Each point costs CapEx at the profiles' prices plus, with an
 * electricity price, the energy of its average power over a horizon; per
 * policy, the frontier is the set of points no other point beats on both
 * cost and service (SLA violations, then mean JCT), and the answer is the
 * cheapest point meeting the SLA target.
 *
 * Long work that never blocks the UI: plan_tick() runs simulation steps
 * for a time budget and returns, so the main loop keeps drawing progress
 * and reading keys (Esc cancels).  No curses here.
 *
 * Price, kappa and the SLA target are applied when results are read
 * (plan_value), so moving those sliders updates the table at once; the
 * policies' thresholds change the simulation and mark the results stale.
 *
 * Results already in the database under the plan's fingerprint are read,
 * not simulated again (plan_saved.h): a plan run in shards and merged is
 * read back whole.
 *
 * Ownership: a plan owns its trace, catalog, clusters, sims and results;
 * plan_free() releases them.
 */
#ifndef GP_PLAN_H
#define GP_PLAN_H

#include <stddef.h>

#include "db/store.h"
#include "policy/policy.h"
#include "power/power_cap.h"
#include "sim/whatif.h"
#include "predict/util_predict.h"
#include "power/site_envelope.h"
#include "shard.h"

#define PLAN_MAX_POLICIES 6
#define PLAN_MAX_COUNTS 64      /* counts of one model */
#define PLAN_MAX_AXIS 16        /* counts of each model in a grid */
#define PLAN_MAX_POINTS (PLAN_MAX_AXIS * PLAN_MAX_AXIS)
#define PLAN_SRC_MAX 256        /* a price's text: a number or a series' path */

typedef enum plan_metric {
    PM_SLA, PM_JCT, PM_POWER, PM_CAPEX,
    PM_COST,                    /* CapEx + energy cost (+ facility): the TCO with years */
    PM_CO2E,                    /* tonnes CO2e of the energy over the horizon */
    PM_NMETRICS
} plan_metric;

typedef struct plan_params {
    char trace[GP_NAME_MAX];
    char gpu[GP_NAME_MAX];      /* GPU profile the clusters are made of */
    char gpu2[GP_NAME_MAX];     /* a second one: the grid; "" = one model */
    int unbounded;
    int lo, hi, step;           /* GPU counts swept (grid: of the first model) */
    int lo2, hi2, step2;        /* grid: counts of the second model */
    int per_server;
    double price;               /* USD per GPU; < 0 = the profile's */
    double price2;              /* the same for the second model */
    double usd_per_kwh;         /* energy price; 0 = cost is CapEx alone */
    double hours;               /* energy horizon; 0 = the simulated span */
    double g_co2e_per_kwh;      /* carbon per IT kWh, PUE included; 0 = none */
    double usd_per_kw_month;    /* facility cost of provisioned power; 0 = none */
    double years;               /* TCO horizon the hours come from; 0 = none */
    /* The price, carbon and PUE as given (plan_cost.h's kinds, in order):
     * a number or a series' path, "" = not given; what the command line
     * that sweeps the same says (plan_cli_options). */
    char cost_src[3][PLAN_SRC_MAX];
    site_envelope site;         /* the facility's power envelope; site_kw 0 = none */
    double corr_threshold;      /* CATS/CorrGPU correlation threshold */
    double util_threshold;      /* percent; the baselines' q, CATS's cap */
    double kappa;               /* SLA factor; 0 = each task's own */
    double sla_target_pct;      /* violations allowed, % of tasks */
    char policies[PLAN_MAX_POLICIES][GP_NAME_MAX];
    int npolicies;
    /* Throughput table and GOGH nets ("" = the trace's own table and its
     * nets, if stored; "none" = none): what the allocation family and
     * typed tasks on mixed clusters need. */
    char tput[GP_NAME_MAX];
    char nets[GP_NAME_MAX];
    /* A snapshot to start from ("" = none; sim/whatif.h): its tasks in
     * place on its cluster, the counts swept are GPUs added to it (0 =
     * as it is), and the trace (may then be "") arrives. */
    char snapshot[GP_NAME_MAX];
    whatif_opts whatif;
    upred_spec predict;         /* what the policies know of utilization */
    /* The GPU (or speed) the trace was measured on, when the user names
     * it: "" and 0 = the trace's, else a V100 (core/speed.h). */
    char ref_gpu[GP_NAME_MAX];
    double ref_speed;
    int jobs;                   /* simulations at once (plan_par.h); 1 = in plan_tick */
    /* Simulate only the jobs j with j mod n = i ({0, 1} = all), to save
     * them for a merge (plan_saved.h). */
    shard shard;
    /* GPU power caps (power/power_cap.h): each capped GPU's clock held
     * where its profile's curve meets the cap; none by default. */
    power_caps caps;
    /* The correlation family's window (policy/corr_place.h CORR_WIN_*);
     * -1 = each policy's own. */
    int util_window;
} plan_params;

typedef struct plan_result {
    int policy;                 /* index into params.policies */
    int gpus;                   /* GPUs in the cluster (unbounded: ever used) */
    int gpus2;                  /* grid: GPUs of the second model */
    int done;
    size_t ntasks, ran;
    double jct_mean, jct_p95;   /* seconds, over tasks that ran */
    double avg_w;
    double span_s;              /* simulated time, first event to last */
    double *jct;                /* per task, -1 = never ran (kappa what-ifs) */
} plan_result;

enum { PLAN_IDLE, PLAN_RUNNING, PLAN_DONE, PLAN_CANCELLED, PLAN_FAILED };

struct sim;

typedef struct plan {
    int state;
    plan_params p;             /* as started */
    gp_trace *tr;
    catalog *cat;
    tput_catalog *tp;           /* may be NULL */
    struct gogh_nets *nets;     /* may be NULL */
    gpu_profile prof;
    gpu_profile prof2;          /* grid only */
    int grid;
    char ref_name[GP_NAME_MAX]; /* the reference speeds are relative to */
    double ref_speed;           /* and its speed (core/speed.h) */
    policy_spec spec[PLAN_MAX_POLICIES];
    int counts[PLAN_MAX_POINTS];    /* GPUs of the first model at each point */
    int counts2[PLAN_MAX_POINTS];   /* of the second (grid; else 0) */
    int ncounts;                    /* points */
    plan_result *res;          /* [ncounts * npolicies], point-major */
    int njobs;
    /* The jobs to simulate, ascending: the shard's, less those read from
     * the database; job counts the finished ones. */
    int *pending;
    int npending, job;
    int nloaded;                /* results read from the database (plan_saved.h) */
    unsigned char *stored;      /* [njobs]: 1 = in the database */
    char fingerprint[17];       /* the plan's identity (plan_saved.h) */
    char what[256];             /* and its description */
    cluster *cl;                /* the current job's */
    cluster *base;              /* the snapshot's cluster, NULL without one */
    sim_pin *pins;              /* its tasks' places, with base */
    struct sim *sim;
    size_t steps;               /* decisions of the current job */
    char err[256];
    double t_start, elapsed;
    struct plan_par *par;       /* the simulations on threads, or NULL (plan_par.h) */
} plan;

void plan_params_default(plan_params *p);
const char *plan_metric_name(plan_metric m);

/* The GPUs the trace's tasks would use unshared at their peak — with a
 * snapshot, its tasks' (and the --more copies') on top of the trace's:
 * the top of the default range.  0 or -1 with a message. */
int plan_peak_demand(store *st, const plan_params *p, int *peak, gp_err *err);

/* The grid's points: every (n1, n2) of the two ranges, lo..hi by step each
 * (at most PLAN_MAX_AXIS per model, steps grown to fit; 0 allowed), but
 * not (0, 0); returns how many. */
int plan_grid(const plan_params *p, int *n1, int *n2, int cap);
/* n1 GPUs of p1 then n2 of p2, in servers of per_server. */
cluster *plan_cluster_mixed(const gpu_profile *p1, int n1, const gpu_profile *p2, int n2,
                            int per_server);

/* 0 when p describes a sweep that can run, else -1 with a message
 * naming the field (the CLI's option in brackets): no policy, a range
 * running backwards (128 to 32), one model from fewer than 1 GPU, a grid
 * in an unbounded pool.  plan_start() checks it before anything else, so
 * a refused start leaves the previous results as they were. */
int plan_params_check(const plan_params *p, gp_err *err);
/* 1 when sweeps of a and b simulate the same runs: they differ at most in
 * what is applied when results are read (prices, energy price and hours,
 * kappa, the SLA target) or in how the work is spread (jobs, shard).
 * Results of one are then current for the other; else they are stale. */
int plan_params_same_sweep(const plan_params *a, const plan_params *b);

int plan_start(plan *sw, store *st, const plan_params *p, gp_err *err);
/* Runs for about budget_s seconds; returns 1 while work remains. */
int plan_tick(plan *sw, double budget_s);
void plan_cancel(plan *sw);
void plan_free(plan *sw);
/* Fraction done, 0..1. */
double plan_progress(const plan *sw);
/* The job (index into res) being simulated, or the last one when none is:
 * what progress shows; -1 when the plan simulates nothing. */
int plan_current_job(const plan *sw);

/* A result's metric under the live sliders (prices, kappa, energy price):
 * SLA violations in % of tasks, mean JCT s, average W, CapEx USD, CapEx +
 * energy USD (energy = average W over `hours`, else the simulated span),
 * tonnes CO2e of that energy (0 without a carbon intensity).
 * NAN when not run.  GPUs of unknown price count 0 in CapEx and cost. */
double plan_value(const plan *sw, const plan_result *r, plan_metric m,
                   const plan_params *live);
/* 1 when the point holds GPUs whose price neither the live slider nor the
 * profile knows: its CapEx and cost leave them out. */
int plan_price_unknown(const plan *sw, const plan_result *r, const plan_params *live);

/* A point's provisioned peak IT watts (power/site_envelope.h): every GPU
 * at its profile's max_w and every server's host at live->site.host_w,
 * the snapshot's cluster included. */
double plan_point_peak_w(const plan *sw, const plan_result *r, const plan_params *live);
/* 1 when the point fits the envelope: its peak x PUE within the site
 * budget and its servers within the racks the site feeds (1 without a
 * site budget).  A grid's point (without a snapshot) fits when its second
 * model's GPUs are within the capacity line at its first model's count
 * (power/site_envelope.h site_capacity_mix: each model's own peak, a
 * rack holding servers of one model). */
int plan_fits_site(const plan *sw, const plan_result *r, const plan_params *live);
/* The hours energy is counted over at a point (the horizon, else its
 * simulated span). */
double plan_hours(const plan_result *r, const plan_params *live);
/* The result of count index c and policy j. */
const plan_result *plan_result_at(const plan *sw, int c, int j);
/* 1 when SLA violations of sla_pct percent meet a target of target_pct
 * (both as plan_value computes them; the tolerance forgives rounding). */
int plan_meets_target(double sla_pct, double target_pct);
/* The point that meets the SLA target for policy j under the live
 * sliders: the smallest count (one model), the cheapest (grid; ties to the
 * lower index); -1 when none does. */
int plan_best(const plan *sw, int j, const plan_params *live);
/* One model: the stable answer for policy j, the fewest GPUs from which
 * every larger count swept meets the SLA target (a count not yet run
 * counts as not meeting it); -1 when the largest count does not, and in
 * a grid (no order of points).  A noisy curve can meet the target at a
 * count and miss it at a larger one: the first crossing (plan_best) is
 * then fragile, and this is the count to buy. */
int plan_stable(const plan *sw, int j, const plan_params *live);
/* 1 when policy j's curve is not monotonic where it matters: a count
 * meets the target and a larger count swept does not (plan_best differs
 * from plan_stable). */
int plan_nonmonotonic(const plan *sw, int j, const plan_params *live);
/* 1 when point c is on policy j's frontier: done, and no other point of
 * the policy is as cheap and serves as well (SLA violations, then mean
 * JCT), one of the two strictly. */
int plan_on_frontier(const plan *sw, int c, int j, const plan_params *live);

#endif
