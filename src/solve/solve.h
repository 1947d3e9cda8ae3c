/*
 * solve.h — the exact solvers of SPEC §5.2 (issue 5), built on GLPK:
 *
 *   CATS optimal     CATS eq. 6–14: place tasks on GPUs of a cluster, pick
 *                    each active GPU's clock, minimise server + GPU power
 *                    under every task's SLA (solve_cats.c).
 *   CorrGPU optimal  CorrGPU eq. 3–7: the fewest GPUs G* that hold every
 *                    task, with no two correlated tasks (rho > alpha) on one
 *                    GPU (solve_corrgpu.c).
 *   GOGH allocation  GOGH Problem 1 (eq. 2a–2g): job combinations of size 1
 *                    or 2 on accelerators, minimum throughput, minimum power
 *                    (solve_gogh.c).
 *
 * Every solver bounds the optimum from both sides before (and while) GLPK
 * searches: heuristics give a feasible solution that is handed to GLPK as
 * its first incumbent, combinatorial and LP bounds give a lower bound, and
 * the solve stops as soon as the two meet.  A solve honours a time limit and
 * a cancel flag, and reports whether its answer is proven optimal or only
 * the best found, with the bound and the relative gap between them.  GLPK's
 * terminal output is captured (result.log), never written to the terminal,
 * so a solve can run under the TUI.  The model can be written as CPLEX LP or
 * free MPS for other solvers.
 *
 * Not here: running the heuristic policies (cmd_solve.c does that with the
 * policy table), the store, any output formatting.
 *
 * Ownership: instances own their arrays (*_inst_free); a solve_result owns
 * its placements and log (solve_result_free).  Functions return 0 or -1
 * with a message in *err; an infeasible or timed-out solve is not an error,
 * it is a status.
 *
 * GLPK is not re-entrant across threads unless built thread-local; one
 * thread at a time may solve.
 */
#ifndef GP_SOLVE_H
#define GP_SOLVE_H

#include <stddef.h>

#include "core/model.h"
#include "core/util.h"

typedef enum solve_status {
    SOLVE_OPTIMAL,          /* proven optimal */
    SOLVE_FEASIBLE,         /* best found when the time limit or gap stopped it */
    SOLVE_INFEASIBLE,       /* proven: nothing satisfies the constraints */
    SOLVE_TIMEOUT,          /* time limit before any solution was found */
    SOLVE_CANCELLED,        /* *cancel was set; has_solution tells if one is kept */
} solve_status;

const char *solve_status_name(solve_status s);

/* One task placed on one GPU (a task with v GPUs has v of these). */
typedef struct solve_place {
    int task;               /* index into the instance's tasks */
    int gpu;                /* CATS/GOGH: GPU index of the instance;
                             * CorrGPU: GPU number 0..G*-1 */
} solve_place;

/* Where branch and price adds subset-row cuts (CATS with per-task costs):
 * nowhere, by default; at the root; or at every node (on random instances
 * the trees shrink, on the pai-like ones they grow: bench/SOLVE.md). */
typedef enum solve_cuts { SOLVE_CUTS_OFF = 0, SOLVE_CUTS_ROOT, SOLVE_CUTS_NODES } solve_cuts;

typedef struct solve_opts {
    double time_limit_s;    /* whole solve, bounds and heuristics included; 0 = none */
    /* A limit on the solver's work instead of its time, in nominal seconds:
     * simplex iterations and branch-and-bound nodes counted at fixed rates
     * (SOLVE_WORK_S_PER_ITER, SOLVE_WORK_ITERS_PER_NODE), so a solve gives
     * the same answer on any machine under any load (the simulator's
     * rounds replay).  When > 0 it replaces time_limit_s. */
    double work_limit_s;
    volatile const int *cancel;     /* polled; nonzero stops the solve (may be NULL) */
    const char *write_lp;   /* write the MILP in CPLEX LP format there (NULL = no) */
    const char *write_mps;  /* the same in free MPS format */
    double mip_gap;         /* stop at this relative gap; 0 = prove optimality */
    int no_warm_start;      /* 1: do not give the heuristics' solution to GLPK */
    int no_bounds;          /* 1: skip the combinatorial/column-generation bounds
                             * and early exits (to measure the plain MILP) */
    int paper_model;        /* 1: the paper's formulation as published (CATS eq.
                             * 6–14 with big-M; CorrGPU's G = 1, 2, ... loop) */
    int keep_log;           /* 1: GLPK's progress messages into result.log */
    solve_cuts cuts;        /* branch and price's subset-row cuts */
    /* Threads the solve may run at once: 2 runs branch and price's
     * searches for packings (the root's integer master, dive and
     * repacking; the dives below the root) beside the tree (taken at
     * fixed nodes, so a work-limited solve still gives the same answer in
     * every run); 0 or 1 keeps everything in the caller's thread, as a
     * solve inside a simulator's worker should. */
    int threads;
    /* An outside solution to start from (the best heuristic policy's
     * placement), in the instance's task/GPU numbering; NULL = none. */
    const solve_place *start;
    size_t nstart;
} solve_opts;

void solve_opts_default(solve_opts *o);
/* "off", "root" or "nodes"; -1 for anything else. */
int solve_cuts_parse(const char *s);

typedef struct solve_result {
    solve_status status;
    int has_solution;
    double objective;       /* of the best solution (W for CATS/GOGH, GPUs for CorrGPU) */
    double bound;           /* proven lower bound on the optimum */
    double gap;             /* (objective - bound) / objective, 0 when proven */
    double time_s;
    double heur_objective;  /* best heuristic (warm start), +inf when none */
    double lp_bound;        /* LP relaxation bound (column generation when used) */
    char method[48];        /* how it was closed: "bounds", "colgen", "milp", ... */
    long nodes;             /* branch-and-bound nodes GLPK explored */
    int rows, cols;         /* size of the MILP handed to GLPK (0 when none) */
    solve_place *place;     /* the best solution's placements */
    size_t nplace;
    int gpus_used;
    int servers_used;
    double *gpu_freq_mhz;   /* CATS: clock of each instance GPU, 0 = asleep */
    double *gpu_watts;      /* CATS/GOGH: draw of each instance GPU */
    size_t ngpus;
    char *log;              /* GLPK's output (owned, may be NULL) */
    /* When infeasible: why, in words (solve_why.c), and the instance index
     * of the task that fits nowhere (-1 = none alone; they clash together). */
    char why[160];
    int why_task;
} solve_result;

void solve_result_init(solve_result *r);
void solve_result_free(solve_result *r);

/* ---- CorrGPU (CorrGPU §II) ------------------------------------------- */

typedef struct corrgpu_inst {
    size_t ntasks;
    double *mem_gib;        /* m_i (eq. 4) */
    int *v;                 /* GPUs per task (eq. 6), >= 1 */
    unsigned char *conflict;    /* ntasks^2, 1 when rho > alpha (eq. 5) */
    double gpu_mem_gib;     /* c, the same for every GPU (eq. 4) */
    int *src;               /* trace index of each task */
} corrgpu_inst;

/* The first ntasks GPU tasks of tr (0 = all; CPU-only tasks are skipped)
 * with their Pearson correlations (stats_pearson on the utilization
 * series); a pair conflicts when rho > alpha.  v = num_gpu (1 for shares). */
int corrgpu_inst_from_trace(const gp_trace *tr, size_t ntasks, double gpu_mem_gib,
                            double alpha, corrgpu_inst *out, gp_err *err);
void corrgpu_inst_free(corrgpu_inst *in);

/* Minimum GPU count G* (objective), placements on GPUs 0..G*-1. */
int solve_corrgpu(const corrgpu_inst *in, const solve_opts *o, solve_result *res,
                  gp_err *err);

/* ---- CATS (CATS §2.2) ------------------------------------------------ */

typedef struct cats_gpu {
    int node;               /* index into the instance's nodes */
    int dev;                /* device index within the node */
    double mem_gib;         /* c_ij^mem (eq. 8) */
    const gpu_profile *prof;    /* borrowed from the catalog */
} cats_gpu;

typedef struct cats_node {
    double static_w;        /* P_i^static (eq. 4) */
    double other_w;         /* P_other */
    int gpu0, ngpus;        /* its GPUs in the instance's GPU array */
} cats_node;

typedef struct cats_task {
    double mem_gib;         /* d_l */
    int v;                  /* GPUs (eq. 7) */
    double kappa;           /* SLA factor (eq. 14) */
    double util_pct;        /* mean utilization (only for util_cap_pct) */
    int src;                /* trace index */
} cats_task;

typedef struct cats_inst {
    cats_task *tasks;
    size_t ntasks;
    cats_gpu *gpus;
    size_t ngpus;
    cats_node *nodes;
    size_t nnodes;
    unsigned char *allow;   /* ntasks x ngpus, 1 = the task may run there
                             * (its allowed GPU models); NULL = everywhere */
    /* Optional, off (0) by default because CATS eq. 6–14 have no such
     * constraint: the sum of mean utilizations on a GPU may not pass this
     * percentage (the utilization threshold of CATS §4). */
    double util_cap_pct;
} cats_inst;

/* The first ntasks GPU tasks of tr (0 = all) on the GPUs of cl; profiles
 * come from cat.  Fails when a node names an unknown GPU model. */
int cats_inst_from_model(const cluster *cl, const catalog *cat, const gp_trace *tr,
                         size_t ntasks, cats_inst *out, gp_err *err);
void cats_inst_free(cats_inst *in);

/* The frequency a task needs to meet its SLA on a GPU: CATS eq. 5 solved
 * for e_l(f) = kappa * e_min gives f = f_max * kappa^(-1/beta) (the
 * right-hand side of eq. 14), clamped below at f_min. */
double cats_freq_req(const gpu_profile *p, double kappa);

/* CATS power (eq. 2-4) of placements pl[0..n) of the instance: awake
 * servers, active GPUs at the clock their tasks' SLAs need, sleeping GPUs
 * of awake servers.  Fills each GPU's clock and watts (arrays of ngpus)
 * and the counts of active GPUs and awake servers when not NULL. */
double cats_power_of(const cats_inst *in, const solve_place *pl, size_t n, double *freq,
                     double *watts, int *gpus, int *servers);

/* Minimum power (W, eq. 6), placements, per-GPU clocks and watts. */
int solve_cats(const cats_inst *in, const solve_opts *o, solve_result *res, gp_err *err);

/* The "Optimal" row of the engine's comparison (CATS Fig. 7a): the tasks
 * of the trace, each running from its arrival for kappa * e_min (the
 * longest its SLA allows, at the clock the optimum gives it), re-packed
 * optimally at every arrival and completion.  Time-weighted means over
 * [first arrival, last completion] — a lower bound on what any placement
 * policy reaches on the trace, since it may move tasks at every event. */
typedef struct solve_run_row {
    double mean_power_w, peak_power_w;
    double mean_gpus, peak_gpus;
    double energy_j;
    double span_s;
    double jct_mean_s;      /* mean of kappa * duration: each task's JCT here */
    int intervals;          /* distinct task sets solved */
    int proven;             /* 1 when every interval was proven optimal */
    double worst_gap;       /* largest gap of an unproven interval */
} solve_run_row;

/* Returns -1 with a message when an interval is infeasible or the total
 * time limit (o->time_limit_s, shared by all intervals) leaves one unsolved;
 * max_tasks bounds the size of the largest interval (0 = 128). */
int solve_cats_for_run(const cluster *cl, const catalog *cat, const gp_trace *tr,
                       size_t max_tasks, const solve_opts *o, solve_run_row *out,
                       gp_err *err);

/* ---- GOGH (GOGH §2.4) ------------------------------------------------ */

/* One accelerator type per GPU profile: power is the profile's, while
 * throughputs are looked up by class, which several profiles may share
 * (V100 and V100M16 are both "v100" but draw 144.8 and 300 W at most). */
typedef struct gogh_accel_type {
    char name[32];          /* GPU profile, e.g. "V100M16" */
    char tput_class[16];    /* throughput class of the table, e.g. "v100" */
    int theta;              /* job capacity theta_a (eq. 2d): 1 or 2 */
    double idle_w, max_w;   /* gamma_a(load) = idle + (max - idle) * load */
    double price_usd;       /* one accelerator's purchase (GOGH_MIN_COST) */
} gogh_accel_type;

typedef struct gogh_accel {
    int type;               /* index into types */
    int node;               /* server s */
    int dev;
} gogh_accel;

typedef struct gogh_job {
    double min_tput;        /* T-bar_j (eq. 2e), 0 = none */
    int dmax;               /* D_j (eq. 2c) */
    double util;            /* mean utilization as a fraction, for the load */
    int src;                /* trace index */
} gogh_job;

/* What solve_gogh optimises.  Constraints are Problem 1's for the first and
 * last; Gavel's max-sum throughput keeps the capacities (eq. 2c, 2d, 2f)
 * and lets a job wait (no eq. 2b, 2e). */
typedef enum gogh_objective {
    GOGH_MIN_POWER,         /* eq. 2a: watts of the accelerators in use */
    GOGH_MAX_THROUGHPUT,    /* Gavel (OSDI'20) "max-sum throughput": the sum over
                             * jobs of throughput / the job's best solo
                             * throughput, maximised */
    GOGH_MIN_COST,          /* the fleet: price_usd of every accelerator in use
                             * plus usd_per_w times its watts (solve_fleet) */
} gogh_objective;

typedef struct gogh_inst {
    gogh_objective objective;   /* 0 = GOGH_MIN_POWER */
    double usd_per_w;           /* GOGH_MIN_COST: what a watt drawn costs */
    gogh_job *jobs;
    size_t njobs;
    gogh_accel_type *types;
    size_t ntypes;
    gogh_accel *accels;
    size_t naccels;
    /* Throughputs T_{a,j}^c: solo[a*njobs + j] for c = {j}, and
     * pair[(a*njobs + j)*njobs + k] for j's own throughput in c = {j, k};
     * 0 = that combination cannot run on a. */
    double *solo;
    double *pair;
} gogh_inst;

/* Jobs are the first ntasks GPU tasks of tr, accelerators the GPUs of cl
 * whose profile has a throughput class; throughputs come from tp by model
 * and batch size (scale 1).  Without a table (tp NULL) every GPU counts
 * and a job's throughput is its progress rate by the profiles' speeds
 * (core/speed.h: 1 on the trace's reference GPU), pairs sharing a GPU by
 * their mean demands, and min_tput is min_frac of the reference rate.  Jobs the table does not know take a solo
 * estimate from the most similar known job (same model, nearest batch
 * size), and pairs without a measurement are left out (0).  min_tput is
 * the task's, else min_frac of its best solo throughput. */
int gogh_inst_from_model(const cluster *cl, const catalog *cat, const gp_trace *tr,
                         const tput_catalog *tp, size_t ntasks, double min_frac,
                         gogh_inst *out, gp_err *err);
void gogh_inst_free(gogh_inst *in);

/* A random instance of n jobs drawn from r (solve_gogh_random.c): v100,
 * p100 and k80 accelerators, n/3 + 2 of each, four per server, two jobs
 * per accelerator at most; solo throughput 1..10 over the type's rank;
 * 70 % of pairs able to share at 30..100 % of their solo speeds; minimum
 * throughput 20..90 % of the v100 solo; D_j 1 or 2.  Free with
 * gogh_inst_free(). */
struct rng;

/* Minimum power (W, eq. 2a); placements list each job on each accelerator. */
int solve_gogh(const gogh_inst *in, const solve_opts *o, solve_result *res, gp_err *err);

/* ---- the cheapest fleet (GOGH Problem 1 with purchases) --------------- */

/* Which GPUs to buy, and how many of each, so that every job gets its
 * minimum throughput (eq. 2b–2f, one or two jobs per GPU) at the least
 * purchase price plus energy cost over a horizon.  Exact by reduction: a
 * GPU bought but idle only adds its price, so the cheapest fleet buys
 * exactly the GPUs its placement uses, and the problem is Problem 1 on
 * max_count GPUs of every candidate with GOGH_MIN_COST (each GPU in use
 * costs its price plus usd_per_w times its watts). */
typedef struct fleet_candidate {
    const gpu_profile *prof;    /* borrowed: power, price, throughput class */
    int max_count;              /* at most this many; 0 = as many as the jobs could use */
    double price_usd;           /* < 0 = the profile's */
} fleet_candidate;

struct power_caps;

typedef struct fleet_params {
    double usd_per_kwh;         /* electricity; 0 = CapEx alone */
    double hours;               /* how long the placement runs */
    double min_frac;            /* a job without a minimum needs this x its best solo */
    size_t ntasks;              /* the first N GPU tasks of the trace, 0 = all */
    /* Without a table: the profile the trace was measured on (borrowed;
     * NULL = a V100 of speed 1), for the candidates' relative speeds. */
    const gpu_profile *ref;
    /* A GPU power cap per model (power/power_cap.h; NULL = none): a
     * clamped candidate's throughputs are scaled by the clamp's rate and
     * its busy draw is the capped one (solve_cap.h). */
    const struct power_caps *caps;
} fleet_params;

/* The instance: jobs of tr with throughputs from tp (as
 * gogh_inst_from_model; tp NULL: from the profiles' speeds), one
 * accelerator type per candidate in order, with max_count accelerators
 * each, under fp->caps.  Fails on a candidate named twice, without a
 * throughput class when a table times the jobs, or capped where no clock
 * holds the cap. */
int fleet_inst_from_model(const fleet_candidate *cand, size_t ncand, const gp_trace *tr,
                          const tput_catalog *tp, const fleet_params *fp, gogh_inst *out,
                          gp_err *err);

typedef struct fleet_result {
    solve_result sol;           /* status, cost (USD), bound, gap, the placement */
    int *count;                 /* [ntypes] GPUs bought of each type */
    size_t ntypes;
    double capex_usd, energy_usd;
    double power_w;             /* the placement's draw */
} fleet_result;

void fleet_result_free(fleet_result *r);

/* Solves an instance with objective GOGH_MIN_COST (fleet_inst_from_model's,
 * or one built by hand); counts and the cost split come from the placement.
 * An infeasible instance is a status, not an error. */
int solve_fleet(const gogh_inst *in, const solve_opts *o, fleet_result *res, gp_err *err);

/* What the first ntasks GPU jobs of tr (0 = all) could use at the most:
 * the sum of their D_j, a candidate's count when it has no maximum. */
int fleet_could_use(const gp_trace *tr, size_t ntasks);

/* ---- the cheapest fleet within a site's power envelope ------------------ */

/* The envelope a fleet is provisioned in (power/site_envelope.h's
 * arithmetic): GPUs at their maximum draw (the capped draw under
 * fleet_params' caps), one host of host_w per server of per_server GPUs of
 * one model, and the PUE that turns that IT peak into facility power. */
typedef struct fleet_envelope {
    double site_kw;             /* facility budget, > 0 */
    double pue;                 /* >= 1 (the largest hour of a series) */
    double host_w;
    int per_server;
} fleet_envelope;

/* What the search found beside the answer. */
typedef struct fleet_site {
    int found;                  /* the cheapest fleet ignoring the budget exists */
    double cost_usd;            /* ... its cost */
    double peak_it_w;           /* its provisioned peak (IT); after the search:
                                 * the answer's */
    int binds;                  /* it is over the budget */
    long solves;                /* fleet solves the search made */
} fleet_site;

/* Each candidate's peak draw per GPU into w[0..ncand): max_w, or the
 * capped draw under fp->caps. */
int fleet_gpu_peak_w(const fleet_candidate *cand, size_t ncand, const fleet_params *fp,
                     double *w, gp_err *err);

/* Provisioned peak IT watts of n[k] GPUs of each candidate (gpu_w[k] each)
 * with their hosts. */
double fleet_peak_it_w(const double *gpu_w, const int *n, size_t ncand,
                       const fleet_envelope *env);

/* The cheapest fleet (as fleet_inst_from_model + solve_fleet) whose
 * provisioned peak x PUE stays within env's site budget: a search over the
 * candidates' maximum counts whose root is the unconstrained fleet (*info
 * says whether the budget binds).  res->count is per candidate; the
 * status is optimal when the search closed, feasible with the least open
 * bound when o's limits stopped it. */
int solve_fleet_within(const fleet_candidate *cand, size_t ncand, const gp_trace *tr,
                       const tput_catalog *tp, const fleet_params *fp,
                       const fleet_envelope *env, const solve_opts *o, fleet_result *res,
                       fleet_site *info, gp_err *err);

/* Frees GLPK's per-thread environment (call at program exit; tests do so
 * to keep leak checkers quiet). */
void solve_shutdown(void);

#endif
