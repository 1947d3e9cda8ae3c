/*
 * sim_int.h — the simulator's internal state, shared by its files:
 *   sim.c             public API (sim.h), arrivals, placement, queue
 *   sim_events.c      event heap, task rates (SPEC §3.3), completions
 *   sim_power_mgr.c   CATS Alg. 3 (periodic sleep) and Alg. 4 (DFS)
 *   sim_metrics.c     counters, exact energy, timeline, outcomes, summary
 *   sim_checkpoint.c  deep copies of the state and rewind
 *   sim_peace.c       GPUs held under a power cap by PEACE's split
 *   sim_tput.c        a task's rate on a GPU of its accelerator and speed
 *   sim_round.c       the allocation family's rounds: allocate, move, start
 *   sim_place.c       the placement step (also the inflation experiment's
 *                     and the solve heuristics'; its own header)
 * Not for use outside the simulator.
 *
 * Everything that changes while a run advances lives in sim_state, so a
 * checkpoint is one deep copy of it (plus the run record's lengths) and a
 * rewind is a copy back followed by a deterministic replay.
 */
#ifndef GP_SIM_INT_H
#define GP_SIM_INT_H

#include "core/frag.h"
#include "core/frag_tally.h"
#include "core/rng.h"
#include "core/tput.h"
#include "sim.h"

enum sim_task_status { ST_PENDING, ST_QUEUED, ST_RUNNING, ST_DONE, ST_FAILED };

/* A task's dynamic state.  Progress is kept as (prog at prog_t, rate):
 * readers compute prog + rate (t - prog_t), so how a caller slices time
 * never changes the arithmetic of the run. */
typedef struct sim_task {
    unsigned char status;
    unsigned char lone;         /* alone on its GPUs: no demand events
                                 * (sim_events.c), its next event its end */
    placement pl;
    double prog, prog_t;        /* standalone seconds done at time prog_t */
    double rate;                /* standalone seconds per second */
    double demand;              /* current demand, fraction of a GPU */
    long sample;                /* index of the current series sample */
    long next_sample;           /* sample after the next demand change */
    double target;              /* progress of the next own event */
    double peace_rate;          /* on a PEACE GPU: its throughput there over
                                 * its exclusive one */
    double stall_until;         /* no progress before this time: a restart
                                 * after a move (allocation family) */
    uint32_t ver;               /* heap entries of older versions are stale */
    double start_t, end_t;      /* start_t: its first start */
    int starts;                 /* times started (> 1: moved or resumed) */
    int run_pos;                /* index in sim_state.running */
} sim_task;

typedef struct sim_ev {
    double t;
    int task;
    uint32_t ver;
} sim_ev;

/* Per GPU: summed demand U_g and the rate it gives, (f/f_max)^beta min(1, 1/U).
 * A GPU held by PEACE has rate 1: its tasks' own peace_rate carry the
 * split and the clock. */
typedef struct sim_gpu {
    double demand;
    double clock;               /* (f/f_max)^beta */
    double top_mhz;             /* highest clock: f_max, or a cap's ceiling */
    double rate;
    unsigned char pm_pending;   /* in sim_state.pm_gpus */
    unsigned char peace_on;     /* held under the cap by PEACE */
    unsigned char peace_miss;   /* busy under a cap PEACE cannot model here */
    uint64_t peace_key;         /* the task set the decision was made for */
    int peace_n;
    int peace_w[3], peace_share[3], peace_task[3];
} sim_gpu;

/* Running totals kept exact between events (SPEC §6). */
typedef struct sim_acc {
    size_t active_gpus, awake_gpus, active_nodes, awake_nodes;
    double freq_sum;            /* over active GPUs, MHz */
    double t0, t_end;           /* first arrival, last completion */
    double gpu_s, awake_gpu_s, node_s, freq_s, queued_s;
    double energy_j, energy_gpu_j, energy_cpu_j, energy_static_j;
    double peak_gpus, peak_nodes, peak_power_w;
    size_t wakeups, server_wakeups, completed, failed, violations;
    size_t uncapped_gpus;       /* busy GPUs a cap is set for but PEACE cannot hold */
    double uncapped_s;
} sim_acc;

/* A start the current round has still to make (sim_round.c). */
typedef struct sim_start {
    int task;
    placement pl;
    placement from;             /* where it ran before this round (ngpus 0:
                                 * it was waiting) */
    double est, truth;          /* it/s: the policy's estimate, the table's
                                 * figure (0 = none) */
    double min;                 /* it/s the policy required of it (0 = none) */
} sim_start;

/* What the last round decided, for its decisions' explanations. */
typedef struct sim_round_info {
    int round;                  /* 1-based; 0 before the first */
    double t;
    size_t jobs, placed, moved, paused, waiting;
    double objective, gap;
    char obj_unit[16];
    char note[128];
} sim_round_info;

typedef struct sim_state {
    cstate *cs;
    sim_task *tasks;            /* one per trace task */
    size_t ntasks;
    sim_gpu *gpus;              /* one per cstate GPU */
    size_t gpus_cap;
    unsigned char *node_pending;
    size_t nodes_cap;
    sim_ev *heap;
    size_t nheap, heap_cap;
    int *queue;                 /* FIFO: queue[qhead .. qtail) */
    size_t qhead, qtail, qcap;
    int *running;
    size_t nrunning, running_cap;
    int *pm_gpus, *pm_nodes;    /* power manager's pending GPUs and servers */
    size_t npm_gpus, pm_gpus_cap, npm_nodes, pm_nodes_cap;
    size_t next_arrival;        /* index into sim.order */
    int retry;                  /* resources were freed: try the queue head */
    double t;                   /* time of the last processed event */
    int64_t tick_k;             /* the next power-manager tick is >= tick_k tau */
    size_t decisions;
    rng rng;
    sim_acc acc;
    power_split power;
    int power_dirty;
    double next_sample_t;
    int changed;                /* since the last every-event timeline point */
    /* The allocation family's rounds (sim_round.c). */
    int *waiting;               /* arrived, not running: by (arrival, index) */
    size_t nwaiting, waiting_cap;
    sim_start *starts;          /* the last round's starts, made one per event */
    size_t nstarts, start_pos, starts_cap;
    alloc_obs *obs;             /* every distinct measurement so far */
    size_t nobs, obs_cap;
    int round_due;              /* something changed since the last round */
    double next_round_t, last_round_t;
    sim_round_info round;
    size_t moves;               /* tasks moved or paused by rounds */
} sim_state;

typedef struct sim_ckpt {
    sim_state st;
    size_t npoints, noutcomes, ndecisions;
} sim_ckpt;

/* A task's job type in the throughput table (sim_tput.c). */
typedef struct sim_tput_task {
    gogh_jobtype jt;            /* model "" when the task names none */
    double ref;                 /* its reference throughput, it/s; 0 = the
                                 * table lacks it (it runs by speed) */
} sim_tput_task;

struct sim {
    sim_config cfg;
    const cluster *cl;
    const catalog *cat;
    const gp_trace *tr;
    gp_trace *pred_tr;          /* the policy's view under cfg.predict, NULL = tr */
    policy_spec pol;
    void *prep;                 /* the policy's workspace (policy_prepare) */
    gpu_sharing sharing;        /* the policy family's placement contract */
    power_model pmodel;
    int sleep_on, dfs_on;
    double sample_s;            /* resolved timeline period, 0 = every event */
    int *order;                 /* trace indices by (arrival, index) */
    frag_workload *fw;
    frag_tally *ftally;         /* the timeline's Σ F_n, kept as nodes change */
    sim_state st;
    run *rec;
    explain ex_work, ex_last;
    int has_last;
    int *peace_wl;              /* per trace task: its PEACE workload, -1 none */
    int rounds;                 /* the policy allocates in rounds */
    double round_s, restart_s;  /* its OPT_ROUND_S, OPT_RESTART_S */
    tput_index *tix;            /* over cfg.tput; NULL when none is attached */
    sim_tput_task *tt;          /* per trace task, with tix */
    double ref_speed;           /* the speed untyped durations were measured at */
    char ref_name[GP_NAME_MAX]; /* the GPU of that speed ("" = a number given) */
    double *gfrac;              /* per trace task: its GPU fraction (core/speed.h) */
    double *view;               /* progress at view_t, for readers */
    double view_t;
    sim_ckpt *ckpts;
    size_t nckpts, ckpts_cap;
    size_t ckpt_every;
    int finished;
};

#define SIM_INF 1e300
/* Timeline points the adaptive sampling aims at over a trace's span. */
#define SIM_TIMELINE_POINTS 2000
/* Checkpoints kept before thinning (sim_checkpoint.c). */
#define SIM_MAX_CKPTS 64

/* sim_events.c */
void sim_heap_push(sim_state *st, double t, int ti, uint32_t ver);
/* The earliest valid task event (stale entries dropped), NULL when none. */
const sim_ev *sim_heap_top(sim_state *st);
void sim_heap_pop(sim_state *st);
/* Sets GPU g's clock factor from its frequency. */
void sim_gpu_set_clock(sim *s, int g);
/* Recomputes the rates of GPUs whose demand or clock changed and re-times
 * the tasks on them. */
void sim_gpus_changed(sim *s, const int *gpus, int n);
/* Starts task ti on its placement (resources already allocated). */
void sim_task_start(sim *s, int ti);
/* Starts again a task stopped by sim_task_stop(), from the progress it
 * had, idle for stall_s first (resources already allocated). */
void sim_task_resume(sim *s, int ti, double stall_s);
/* Stops a running task keeping its progress and frees its resources; it
 * is then ST_QUEUED. */
void sim_task_stop(sim *s, int ti);
/* Handles the task's own event (a demand change or its completion). */
void sim_task_event(sim *s, int ti);
double sim_task_progress(const sim_state *st, int ti, double t);

/* sim_power_mgr.c */
int sim_pm_pending(const sim *s);
double sim_pm_next_tick(const sim *s);
void sim_pm_tick(sim *s);
void sim_pm_mark_gpu(sim *s, int g);
void sim_pm_mark_node(sim *s, int n);
/* Wakes the GPUs and server of a placement before allocation (counts). */
void sim_pm_wake(sim *s, const placement *pl);
/* The state every GPU and server starts in (all asleep when sleep is on). */
void sim_pm_init(sim *s);
void sim_pm_init_node(sim *s, int n);

/* sim_metrics.c */
void sim_gpu_leave(sim *s, int g);
void sim_gpu_enter(sim *s, int g);
void sim_node_leave(sim *s, int n);
void sim_node_enter(sim *s, int n);
void sim_counters_init(sim *s);
/* Integrates energy and counters up to t and emits due timeline points. */
void sim_advance_clock(sim *s, double t);
void sim_outcome(sim *s, int ti);
void sim_metrics_finish(sim *s);
double sim_resolve_sample(const sim *s);

/* sim_cap.c */
/* Checks the caps against the cluster's GPU models; 0 or -1 with a message. */
int sim_cap_check(const sim_config *cfg, const cluster *cl, const catalog *cat,
                  power_model pm, gp_err *err);
/* Sets GPU g's clock ceiling from its cap and lowers its clock to it. */
void sim_cap_init_gpu(sim *s, int g);
/* GPU g's highest clock: its profile's f_max, or its cap's ceiling. */
double sim_gpu_top_mhz(const sim *s, int g);

/* sim_peace.c */
/* Checks a configuration's PEACE part; 0 or -1 with a message. */
int sim_peace_check(const sim_config *cfg, power_model pm, gp_err *err);
/* The PEACE workload of every trace task (NULL when PEACE is off). */
int *sim_peace_workloads(const sim_config *cfg, const gp_trace *tr);
/* Decides again whether and how PEACE holds GPU g after its tasks changed. */
void sim_peace_update(sim *s, int g);

/* sim_tput.c */
/* Resolves the reference speed and indexes the throughput table. */
int sim_tput_init(sim *s, gp_err *err);
/* s of core/speed.h for task ti on GPU g (g < 0: none, 1). */
double sim_task_speedup(const sim *s, int ti, int g);
/* 1 when the throughput table times task ti (no Amdahl scaling). */
int sim_task_timed_by_table(const sim *s, int ti);
void sim_tput_free(sim *s);
/* Task ti's rate on GPU g (standalone seconds per second), clock included. */
double sim_task_gpu_rate(const sim *s, int ti, int g);
/* The table's throughput (it/s) of task ti on accelerator class accel next
 * to task partner (-1: alone); 0 when the table has no figure. */
double sim_tput_truth(const sim *s, int ti, const char *accel, int partner);
/* Task ti's throughput now (it/s) on its first GPU, with *partner the other
 * task there (-1 alone); 0 when it has no job type in the table or shares
 * its GPU with more than one task. */
double sim_tput_now(const sim *s, int ti, int *partner);

/* sim_round.c */
/* Whether a round is due (and when, in *t). */
int sim_round_pending(const sim *s, double *t);
/* Runs the round due now: measures, asks the policy, stops what moves,
 * and queues the starts. */
void sim_round_run(sim *s);
/* Makes the next queued start (a decision). */
void sim_round_start_next(sim *s);
/* A task arrived: it waits for the next round. */
void sim_round_arrive(sim *s, int ti);
/* Something changed at the current time: a round follows. */
void sim_round_touch(sim *s);
/* Fails the first waiting task when nothing can place it any more. */
void sim_round_drain(sim *s);

/* sim_checkpoint.c */
void sim_state_copy(sim_state *dst, const sim_state *src);
void sim_state_release(sim_state *st);
void sim_ckpt_take(sim *s);
void sim_ckpts_free(sim *s);

/* sim.c */
double sim_task_kappa(const sim *s, const task *tk);

/* The trace the policy decides on: the predicted one, else the truth. */
const gp_trace *sim_policy_trace(const sim *s);
/* Takes placement pl for task ti: wakes, allocates, counts. */
void sim_occupy(sim *s, int ti, const placement *pl);
/* Gives back task ti's placement (the task state is the caller's). */
void sim_vacate(sim *s, int ti);
/* Records a decision about ti (pl NULL: none placed); the explanation is
 * ex_work. */
void sim_record_decision(sim *s, int ti, const placement *pl, const char *prefix);
void sim_fail_task(sim *s, int ti, const char *why);
/* Ensures per-GPU and per-node arrays cover the cstate (unbounded pool). */
void sim_state_fit(sim_state *st);
/* Processes the next event; 1 when it made a decision, 0 when not, -1 when
 * the run is over. */
int sim_process_one(sim *s);
double sim_next_event_time(sim *s);
void sim_view_sync(sim *s);

/* ---- reached only by the tests (and the benchmarks) ---- */

/* CATS Alg. 4 for one GPU running n tasks: the frequency after one tick.
 * e_pred = e_min (f_max/f)^beta against e_max = kappa e_min per task: any
 * violation raises f by delta_f (at most f_max); all tasks with slack
 * (e_pred < 0.95 e_max) lower it by delta_f (at least f_min); else f holds. */
double sim_dfs_step(double f, double f_min, double f_max, double beta, double delta_f,
                    const double *e_min, const double *kappa, int n);

/* Power right now under the run's model. */
void sim_power(const sim *s, power_split *out);

#endif
