/*
 * policy.h — the placement-policy interface (SPEC §5) and its registry.
 *
 * A policy is one file (policy_<name>.c) exporting one const policy_ops,
 * declared in policy_table.h and listed once in policy.c's table.  Besides its place() function a policy
 * declares what it is — its family, its paper's power model, whether the
 * CATS power manager (Alg. 3 sleep, Alg. 4 DFS) runs with it by default,
 * and the role of each option — so that the simulator, the planner and the
 * front ends never recognise a policy or an option by its name.
 *
 * Policies are pure: given the cluster state, the trace and the incoming
 * task they return a placement or "none fits", and optionally explain the
 * decision (every candidate with its score terms and the choice) for the
 * Step view and the placement log.  Anything a policy wants to precompute
 * from the trace or cluster (FGD's typical tasks) is made once per run by
 * policy_prepare(); randomness comes from the run's rng in the context.
 * That keeps a run reproducible and lets the simulator rewind by copying
 * its state.
 *
 * The allocation family (GOGH and its baselines) does not place tasks as
 * they arrive: every round the simulator hands it every active task and it
 * returns where each runs until the next round (allocate()), moving or
 * pausing running ones; its options of roles OPT_ROUND_S and OPT_RESTART_S
 * tell the simulator how often rounds come and what a move costs.
 *
 * One placement contract serves every caller: placement_check() says
 * whether a placement is one the cluster state can take under the policy
 * family's sharing model (the time simulator and the inflation experiment
 * both apply it before committing a placement).
 */
#ifndef GP_POLICY_H
#define GP_POLICY_H

#include <stddef.h>

#include "core/cstate.h"
#include "core/model.h"
#include "core/util.h"
#include "power/power.h"

struct rng;
struct gogh_nets;

#define POLICY_MAX_OPTS 12
#define EXPLAIN_MAX_TERMS 6

/* The families of SPEC §5.  A family fixes how its tasks hold a GPU. */
typedef enum policy_family {
    FAMILY_CORRELATION,         /* CATS, CorrGPU and their baselines (§5.1) */
    FAMILY_FRAGMENTATION,       /* FGD, PWR and their baselines (§5.3) */
    FAMILY_ALLOCATION,          /* GOGH's round-based allocation (§5.4) */
    FAMILY_COUNT
} policy_family;

/* How the tasks of a family share a GPU, i.e. what a valid placement is. */
typedef enum gpu_sharing {
    /* Tasks time-share a GPU (MPS, CATS §3.3, CorrGPU §II): a GPU admits a
     * task when its free memory holds the task's; shares, vCPU and RAM are
     * not constraints for GPU tasks. */
    SHARE_TIME,
    /* Tasks hold a partition (FGD_NOTES §4): a GPU's idle share must hold
     * the task's share, the node's CPU and RAM left its request. */
    SHARE_PARTITION,
    /* Two tasks at most time-share a GPU (GOGH's capacity theta_a = 2,
     * Gavel's measured pairs): its free memory holds the task's and fewer
     * than two tasks run there. */
    SHARE_PAIR,
} gpu_sharing;

typedef struct policy_family_info {
    const char *name;           /* "correlation", ... (listings, help) */
    gpu_sharing sharing;
    /* The policy the family's papers measure savings against (the PWR
     * paper's tables are relative to FGD); NULL when none. */
    const struct policy_ops *reference;
} policy_family_info;

const policy_family_info *policy_family_get(policy_family f);

/* What an option means outside its policy: the planner's threshold
 * sliders set the options of those roles, whatever they are called. */
typedef enum option_role {
    OPT_TUNING,                 /* the policy's own; nobody else sets it */
    OPT_CORR_THRESHOLD,         /* correlation threshold, rho in [-1, 1] */
    OPT_UTIL_THRESHOLD,         /* utilization threshold, percent */
    /* The correlation family's admission window (corr_place.h): 0 = the
     * remaining window, 1 = whole series.  A comparison sets it for every
     * policy at once, so that all of them know the same. */
    OPT_UTIL_WINDOW,
    OPT_WEIGHT,                 /* weight of a score term */
    OPT_SWITCH,                 /* 0/1 mode switch */
    OPT_ROUND_S,                /* allocation family: seconds between rounds */
    OPT_RESTART_S,              /* allocation family: seconds a moved or
                                 * resumed task holds its GPUs before it
                                 * progresses again (checkpoint/restore) */
    /* The correlation family's grid (corr_place.h CORR_GRID_*): 0 =
     * aggregates resampled per decision, 1 = kept on an absolute time
     * grid.  Set for every policy of a comparison at once. */
    OPT_CORR_GRID,
} option_role;

/* A tunable of a policy, with the paper's default. */
typedef struct policy_option {
    const char *key;
    option_role role;
    double def;
    double min, max;
    const char *help;
} policy_option;

/* What a policy sees when placing. */
typedef struct policy_ctx {
    const cstate *cs;
    const gp_trace *tr;
    const double *progress_s;   /* per task: standalone seconds done; NULL = none */
    double now_s;
    struct rng *rng;            /* the run's random stream (Random policy) */
    /* The policy's prepared workspace, or NULL.  place() may update the
     * caches and scratch arrays in it, never in a way that changes a later
     * decision (a rewound simulation keeps the workspace it has). */
    void *prep;
    /* Tie-break rank of each node (lower wins among equal scores; the
     * published FGD simulator's node order, FGD_NOTES §1.3); NULL = node
     * index order. */
    const int *node_rank;
} policy_ctx;

/* Where a task goes: one node and ngpus GPUs of it (global GPU indices). */
typedef struct placement {
    int node;
    int ngpus;
    int gpus[GP_NODE_MAX_GPUS];
} placement;

/* What a run gives its policy besides the cluster and the trace (all
 * borrowed; NULL = not given). */
typedef struct policy_inputs {
    const tput_catalog *tput;           /* the throughput table of the run */
    const struct gogh_nets *nets;       /* GOGH's estimation networks */
} policy_inputs;

/* ---- the allocation family's round ---- */

/* An active task at a round. */
typedef struct alloc_job {
    int task;                   /* trace index */
    int running;                /* holds GPUs now, at cur */
    placement cur;
    double progress_s;          /* standalone seconds done */
} alloc_job;

/* A measurement the simulator made at a round: a typed task's throughput
 * on its accelerator class, alone or next to another task. */
typedef struct alloc_obs {
    int task, partner;          /* trace indices; partner -1 = alone */
    char accel[16];
    double tput, partner_tput;  /* iterations/s */
    int round;
} alloc_obs;

typedef struct alloc_ctx {
    const cstate *cs;           /* with the running tasks where they run */
    const gp_trace *tr;
    const alloc_job *jobs;      /* running ones first, then waiting ones by
                                 * arrival */
    size_t njobs;
    /* Every measurement of the run so far, oldest first: what a policy
     * learns from is state of the run, so a rewound run learns again. */
    const alloc_obs *obs;
    size_t nobs;
    double now_s;
    int round;
    void *prep;
} alloc_ctx;

/* A round's answer: per job its placement (ngpus 0 = it waits; a running
 * job given its cur placement stays), the throughput the policy expects of
 * it there and the one it required (it/s, 0 = the policy does not
 * estimate, or required none). */
typedef struct alloc_out {
    placement *pl;              /* njobs, caller's */
    double *est;                /* njobs, caller's, zeroed */
    double *min;                /* njobs, caller's, zeroed */
    double objective;           /* the round's, in obj_unit; 0 when none */
    double gap;                 /* relative MIP gap of the round, 0 proven */
    char obj_unit[16];          /* "W", "norm. it/s", "" */
    char note[96];              /* one line: how the round was solved */
} alloc_out;

/* One candidate considered: a GPU (gpu >= 0) or a whole node (gpu < 0). */
typedef struct explain_cand {
    int node;
    int gpu;
    double term[EXPLAIN_MAX_TERMS];
    int eligible;               /* 0 = filtered out; note says why */
    char note[48];
} explain_cand;

/* A decision explained: the term names, every candidate, the choice. */
typedef struct explain {
    const char *term_name[EXPLAIN_MAX_TERMS];
    int nterms;
    explain_cand *cands;
    size_t ncands, cands_cap;
    int chosen;                 /* index into cands, -1 when nothing fit or none kept */
    char summary[256];          /* one line, kept in the run's placement log */
    /* Whether candidates are collected.  When 0, explain_add() returns NULL
     * and a policy writes only the summary: formatting every candidate's
     * note on every decision that nobody reads was a quarter of a large
     * run's time.  explain_init() sets it; the simulator keeps it only
     * when the candidates are read (sim_config.explain_candidates,
     * keep_explain).  explain_reset() leaves it. */
    int want_cands;
} explain;

typedef struct policy_ops {
    const char *name;           /* the --policy word, e.g. "cats" */
    const char *title;          /* "CATS (correlation-aware, ICS'26)" */
    policy_family family;
    power_model power;          /* the paper's power model, the runs' default */
    /* CATS Alg. 3 periodic sleep on by default: every correlation-family
     * policy, as CATS §6 sleeps idle GPUs and servers "for all the
     * solutions"; off where the paper's power model has no sleep (eopc). */
    int sleep;
    /* CATS Alg. 4 frequency scaling on by default: CATS's own. */
    int dfs;
    /* Whether place() reads ctx->progress_s: the simulator brings every
     * running task's progress up to date before a decision only then (it
     * passes NULL otherwise), which is O(running tasks) a decision. */
    int reads_progress;
    const policy_option *options;   /* terminated by a NULL key; may be NULL */
    /* Optional: makes the run's workspace (ctx->prep) for cs and tr.
     * Returns 0 with *prep set (NULL = none), or -1 with a message.
     * Callers go through policy_prepare(). */
    int (*prepare)(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                   const double *params, void **prep, gp_err *err);
    void (*release)(void *prep);
    /* Places trace task `ti`: 1 with *out filled, 0 when nothing fits.
     * Fills *ex when ex is non-NULL.  NULL for the allocation family. */
    int (*place)(const policy_ctx *ctx, const double *params, int ti, placement *out,
                 explain *ex);
    /* The allocation family's round (NULL elsewhere): fills out for every
     * job of ctx; 0, or -1 with a message (the round then changes
     * nothing). */
    int (*allocate)(const alloc_ctx *ctx, const double *params, alloc_out *out, gp_err *err);
} policy_ops;

/* The i-th policy of the table (in table order), NULL past the end:
 *     for (size_t i = 0; (p = policy_nth(i)); i++) ... */
const policy_ops *policy_nth(size_t i);
/* The i-th policy of one family, in table order. */
const policy_ops *policy_family_nth(policy_family family, size_t i);

const policy_ops *policy_find(const char *name);

/* A policy with its option values, as named on the command line:
 * "cats", "corrgpu:0.1" (the first option's value after ':'), and
 * per-option overrides "cats.lambda1=2" applied with policy_spec_set(). */
typedef struct policy_spec {
    const policy_ops *ops;
    double params[POLICY_MAX_OPTS];
    char label[GP_NAME_MAX];    /* what the user wrote, for tables */
} policy_spec;

int policy_spec_parse(const char *text, policy_spec *out, gp_err *err);
/* Sets one option by key ("lambda1=2"); -1 with a message when unknown or
 * out of range. */
int policy_spec_set(policy_spec *sp, const char *assignment, gp_err *err);
/* Writes "key=value ..." of every option into buf (the run's options). */
void policy_spec_format(const policy_spec *sp, char *buf, size_t len);
/* Sets every option of that role to v, clamped to the option's range;
 * returns how many were set (0 when the policy has none of that role). */
int policy_spec_set_role(policy_spec *sp, option_role role, double v);
/* The value of the policy's first option of that role, def when none. */
double policy_spec_role(const policy_spec *sp, option_role role, double def);
/* Whether the policy places one task at a time (place()), as every caller
 * but the simulator's rounds needs; -1 with a message when not. */
int policy_places_tasks(const policy_ops *ops, gp_err *err);

/* The run's workspace of sp on cs and tr (see policy_ops.prepare); release
 * it with policy_release().  0, or -1 with a message.  policy_prepare()
 * gives no inputs. */
int policy_prepare(const policy_spec *sp, const cstate *cs, const gp_trace *tr, void **prep,
                   gp_err *err);
int policy_prepare_with(const policy_spec *sp, const cstate *cs, const gp_trace *tr,
                        const policy_inputs *in, void **prep, gp_err *err);
void policy_release(const policy_spec *sp, void *prep);

/* The placement contract: whether cs can take task tk at pl under the
 * sharing model — a node of cs; exactly task_gpus(tk) distinct
 * GPUs, all of that node and of a model the task allows; under SHARE_TIME
 * each GPU's free memory holds the task's (CPU-only tasks: the node's vCPU
 * and RAM); under SHARE_PAIR also fewer than two tasks on each GPU; under
 * SHARE_PARTITION each GPU's idle share holds the task's and the node's
 * vCPU and RAM left hold its request.  0, or -1 with a
 * message that names the task and what does not hold. */
int placement_check(const cstate *cs, const task *tk, const placement *pl, gpu_sharing sharing,
                    gp_err *err);

/* Writes the device indices of pl's GPUs within their node, "0,3", into
 * buf of len bytes ("" for a CPU-only placement). */
void placement_devices(const cstate *cs, const placement *pl, char *buf, size_t len);

/* Explanation helpers. */
void explain_init(explain *ex, const char *const *term_names, int nterms);
void explain_free(explain *ex);
void explain_reset(explain *ex);
/* Appends a candidate and returns it (terms zeroed, eligible = 1); NULL
 * when ex is NULL or does not want candidates (explain.want_cands). */
explain_cand *explain_add(explain *ex, int node, int gpu);
/* Whether ex collects candidates: what a policy asks before computing
 * what only a candidate shows. */
static inline int explain_wants(const explain *ex)
{
    return ex && ex->want_cands;
}

#endif
