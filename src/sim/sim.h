/*
 * sim.h — the discrete-time simulator (SPEC §3.3, §6): tasks arrive in
 * time order, a policy places them, they run at a rate set by their GPUs'
 * clock and contention, complete, and free their GPUs; a power-state
 * manager (CATS Alg. 3–4) sleeps idle GPUs and servers and scales clocks.
 * It records the timeline, per-task outcomes and every decision into a run.
 *
 * A simulation advances one placement decision at a time (sim_step), to a
 * simulated time (sim_advance_until) or to the end (sim_run), and can go
 * back to any earlier decision (sim_rewind) — the TUI's Step view uses both.
 * Deterministic for a given configuration and seed.
 *
 * Ownership: the sim borrows cluster, catalog and trace (they must outlive
 * it) and owns its state and run record.
 */
#ifndef GP_SIM_H
#define GP_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/cstate.h"
#include "policy/policy.h"
#include "power/power.h"
#include "power/power_cap.h"
#include "predict/util_predict.h"
#include "core/run.h"

typedef enum sim_full_mode {
    SIM_QUEUE,                  /* FIFO queue when nothing fits (default) */
    SIM_FAIL,                   /* the task fails (inflation experiments) */
} sim_full_mode;

struct peace_index;
struct peace_models;
struct peace_policy;
struct peace_ctrl_params;

/* PEACE in the simulator (SPEC §5.5): every GPU under a power cap, its SMs
 * split among co-located tasks by a partition policy.  A GPU is held this
 * way while it runs one to three single-GPU tasks that all name workloads
 * of the PEACE set in their `model` (and, for two or three, a group the
 * set measured); its tasks then progress at their ground-truth throughput
 * under the split at the clock the controller settles at, relative to the
 * workload alone on the largest profiled share at the top clock, and the
 * GPU draws what the controller holds it at.  Other GPUs run as before. */
typedef struct sim_peace {
    double cap_w;                       /* per GPU; 0 = off */
    const struct peace_index *ix;       /* borrowed */
    const struct peace_models *models;  /* borrowed; the "peace" partition's */
    const struct peace_policy *partition;
    /* The controller; NULL = its defaults for each GPU's clocks. */
    const struct peace_ctrl_params *ctrl;
} sim_peace;

/* A task that starts in place at t = 0 rather than arriving (a snapshot's
 * what-if, sim/whatif.h): its node (an index into the cluster; -1 = it
 * arrives as usual) and the devices it holds there. */
typedef struct sim_pin {
    int node;
    int ngpus;
    int dev[GP_NODE_MAX_GPUS];
} sim_pin;

typedef struct sim_config {
    int power_model;            /* POWER_CATS / POWER_EOPC, -1 = the policy's */
    sim_full_mode full;
    int unbounded;              /* open a new server when nothing fits (CapEx) */
    int sleep;                  /* CATS Alg. 3: 1 on, 0 off, -1 = the policy's
                                 * default (policy_ops.sleep) */
    int dfs;                    /* CATS Alg. 4: 1 on, 0 off, -1 = the policy's
                                 * default (policy_ops.dfs) */
    double tau_s;               /* power-manager period (CATS: 0.1 s) */
    double delta_f_mhz;         /* DFS step */
    double kappa;               /* SLA factor override, 0 = each task's own */
    double sample_s;            /* timeline sampling period, 0 = every event,
                                 * < 0 = adaptive (about 2000 points) */
    uint64_t seed;
    int keep_explain;           /* store explanations in the placement log */
    /* Keep every candidate of a decision for sim_last_explain() (the Step
     * screen); off, a decision keeps its one-line summary only, and the
     * policies skip the candidates' notes (keep_explain implies it). */
    int explain_candidates;
    size_t checkpoint_every;    /* decisions between rewind checkpoints;
                                 * 0 = only the initial one (rewinds replay
                                 * from the start); SIM_NO_REWIND = none */
    /* GPU power caps (sim_cap.c): each capped GPU's clock is held at or
     * below the ceiling its profile's curve gives the cap (power_cap.h);
     * on the PEACE set's GPU model PEACE holds what it can (peace.cap_w is
     * that model's cap).  Needs the cats power model. */
    power_caps caps;
    sim_peace peace;            /* off unless cap_w > 0 */
    /* Heterogeneous GPUs (sim_tput.c): a throughput table (borrowed; NULL =
     * none) times tasks that name its job types by their measured
     * throughputs; every other task runs by Amdahl's law (core/speed.h) at
     * its GPU's speed over the reference's: ref_speed when positive, else
     * the speed of the profile named ref_gpu (borrowed; NULL or "" = the
     * trace's ref_gpu, else a V100).  Never the cluster's own GPUs. */
    const tput_catalog *tput;
    double ref_speed;
    const char *ref_gpu;
    /* GOGH's estimation networks for the allocation family (borrowed;
     * NULL = none: only oracle estimates). */
    const struct gogh_nets *nets;
    /* Tasks in place at the start: pins[i] for trace task i (borrowed,
     * as long as the trace; NULL = none).  A pinned task starts where it
     * is pinned, before any policy decides, whatever its arrival. */
    const sim_pin *pins;
    /* What the policy knows of the tasks' utilization (util_predict.h):
     * it places by the predicted series, the simulator runs the true ones.
     * Zeroed = oracle. */
    upred_spec predict;
} sim_config;

/* The defaults above: queue, bounded, policy-default sleep/DFS, tau 0.1 s,
 * delta_f 15 MHz, each task's kappa, adaptive timeline, seed 42, short
 * reasons in the log, a checkpoint every 64 decisions, no throughput
 * table, the cluster's reference speed. */
void sim_config_default(sim_config *cfg);

/* The power model a sim of policy sp under cfg measures with: cfg's, else
 * the policy's own. */
power_model sim_power_model_of(const sim_config *cfg, const policy_spec *sp);

typedef struct sim sim;

/* checkpoint_every for a run nobody rewinds (the command line): no copy of
 * the state is kept, not even the initial one (on a million tasks, a copy
 * is a few hundred MB), and sim_rewind() refuses. */
#define SIM_NO_REWIND ((size_t)-1)

sim *sim_new(const sim_config *cfg, const cluster *cl, const catalog *cat,
             const gp_trace *tr, const policy_spec *pol, gp_err *err);
void sim_free(sim *s);

/* Advances through the next placement decision (and every event before
 * it).  Returns 1 when a decision was made, 0 when the run is over. */
int sim_step(sim *s);
/* Advances while simulated time <= t_s; returns 0 when the run is over. */
int sim_advance_until(sim *s, double t_s);
/* As sim_advance_until, but stops once max_decisions placements have been
 * made (a front end's frame budget: one instant can hold thousands of
 * arrivals); 1 when t_s was reached, 0 when stopped short at sim_now(). */
int sim_advance_bounded(sim *s, double t_s, size_t max_decisions);
/* Runs to the end; *cancel (may be NULL) is polled to stop early.
 * Returns 0, or -1 when cancelled. */
int sim_run(sim *s, volatile const int *cancel);
/* Returns to the state just after decision k (0 = before any); with
 * k beyond the decisions made so far it steps forward.  -1 with a message
 * when the run has fewer than k decisions. */
int sim_rewind(sim *s, size_t k, gp_err *err);

int sim_done(const sim *s);
double sim_now(const sim *s);
size_t sim_decisions(const sim *s);     /* decisions made so far */
const cstate *sim_cstate(const sim *s);
const gp_trace *sim_trace(const sim *s);
/* Standalone seconds each task has completed (indexed by task). */
const double *sim_progress(const sim *s);
/* The explanation of the last decision (NULL before the first). */
const explain *sim_last_explain(const sim *s);
/* A GPU held under the power cap by PEACE right now: the split (workload
 * indices of the PEACE set and shares), the clock and the draw.  1 with
 * *out filled, 0 when the GPU is not held so. */
typedef struct sim_peace_gpu {
    int n;
    int workload[3], share_pct[3];
    int task[3];                        /* trace index of each workload's task */
    double freq_mhz, power_w, cap_w;
} sim_peace_gpu;
int sim_gpu_peace(const sim *s, int g, sim_peace_gpu *out);
/* What the run's power cap does to GPU g (sim_cap.c): its cap, the
 * clock clamp's effect and ceiling on its profile (power_cap_clock, the
 * mechanism `gpuplan run` reports for the model: clamp, no effect, or no
 * clock holds it), and whether PEACE's split holds it now or could (its
 * model is the PEACE set's).  1 with *out filled, 0 when not capped. */
typedef struct sim_cap_gpu {
    double cap_w;
    power_cap_effect effect;
    double clock_mhz;           /* the ceiling the simulator holds it under */
    int peace_held, peace_model;
} sim_cap_gpu;
int sim_gpu_cap(const sim *s, int g, sim_cap_gpu *out);
/* Tasks that name a job type the attached throughput table lacks (they run
 * at their GPUs' relative speed); *first is the first such task, -1 none. */
size_t sim_tput_unknown(const sim *s, int *first);
/* The reference speeds are relative to: its GPU's name ("" when a number
 * was given) and speed. */
const char *sim_ref_gpu(const sim *s);
double sim_ref_speed(const sim *s);
/* "speeds relative to V100 (speed 1)" or "... to speed 2": for outputs. */
void sim_ref_describe(const sim *s, char *buf, size_t len);

/* Sets the placement metric place_gpus of r, a finished run of pol under
 * cfg on cl, cat and tr: its avg_gpus when DFS was off, else the avg_gpus
 * of the same run simulated with DFS off (sim_placement.c says why).
 * 0, or -1 with a message. */
int sim_placement_gpus(const sim_config *cfg, const cluster *cl, const catalog *cat,
                       const gp_trace *tr, const policy_spec *pol, run *r, gp_err *err);
/* sim_finish, then the same metric on the record s keeps (a twin with
 * s's own configuration, cluster, catalog, trace and policy), once per
 * finish (a rewind clears it).  0, or -1 with a message. */
int sim_finish_placement(sim *s, gp_err *err);

/* Power right now under the run's model. */
/* The run record so far: timeline, outcomes of finished tasks, decisions.
 * Summary metrics are filled by sim_finish(). */
const run *sim_run_record(const sim *s);
/* Computes the summary metrics (SPEC §6) into the run record.  Keys (stable:
 * the TUI, the CLI and docs/run-and-compare.md use them); times in s, power in W,
 * energy in J, averages over [first arrival, last completion]:
 *   tasks completed failed_tasks decisions makespan_s
 *   avg_gpus peak_gpus avg_awake_gpus avg_servers peak_servers
 *     (GPUs running a task; servers running a task)
 *   gpu_hours (GPU-hours of GPUs running a task) fluid_gpus (the fluid
 *     lower bound on avg_gpus: sum over completed tasks of mean
 *     utilization x duration x GPUs, over the span) dfs (1 when CATS
 *     Alg. 4 ran)
 *   place_gpus (avg_gpus of the same run with DFS off: the placement
 *     alone; set by sim_placement_gpus' callers, absent otherwise)
 *   avg_power_w avg_gpu_power_w peak_power_w
 *   energy_j energy_gpu_j energy_cpu_j energy_static_j (exact integrals)
 *   unique_gpus capex_usd (GPUs ever used, times their profile price;
 *     CorrGPU eq. 2) opened_servers (unbounded pool)
 *   mean_freq_mhz (time-average over active GPUs) avg_queued
 *   wakeups server_wakeups (CATS Alg. 3 wake-ups on placement)
 *   ctd_s (sum of JCTs, CorrGPU's CTD) jct_mean_s jct_p50_s jct_p95_s
 *   jct_p99_s wait_mean_s slowdown_mean (mean of JCT/e_min)
 *   norm_jct (sum of JCTs / sum of e_min: the run's JCT relative to every
 *     task running alone at f_max; the CLI adds the ratio to the best
 *     policy of a comparison, as the papers normalise)
 *   sla_violations sla_violation_pct (JCT > kappa e_min, completed tasks)
 *   uncapped_gpu_pct (under a GPU cap only: the share of busy GPU time on
 *     GPUs PEACE could not hold — a group its set did not measure, a task
 *     of no PEACE workload — which ran uncapped)
 *   rounds moves (allocation family only: rounds held, and running tasks
 *     a round moved or paused)
 * avg_queued counts tasks waiting in the FIFO queue or for a round.
 * Idempotent; a rewind clears them. */
void sim_finish(sim *s);
/* Hands the run record to the caller (who frees it with run_free); the sim
 * must not be used afterwards except to free it. */
run *sim_take_run(sim *s);

#endif
