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

#include "cstate.h"
#include "policy.h"
#include "power.h"
#include "run.h"

typedef enum sim_full_mode {
    SIM_QUEUE,                  /* FIFO queue when nothing fits (default) */
    SIM_FAIL,                   /* the task fails (inflation experiments) */
} sim_full_mode;

typedef struct sim_config {
    int power_model;            /* POWER_CATS / POWER_EOPC, -1 = the policy's */
    sim_full_mode full;
    int unbounded;              /* open a new server when nothing fits (CapEx) */
    int sleep;                  /* CATS Alg. 3: 1 on, 0 off, -1 = on for CATS only */
    int dfs;                    /* CATS Alg. 4: same convention */
    double tau_s;               /* power-manager period (CATS: 0.1 s) */
    double delta_f_mhz;         /* DFS step */
    double kappa;               /* SLA factor override, 0 = each task's own */
    double sample_s;            /* timeline sampling period, 0 = every event */
    uint64_t seed;
    int keep_explain;           /* store explanations in the placement log */
} sim_config;

/* The defaults above: queue, bounded, policy-default sleep/DFS, tau 0.1 s,
 * delta_f 15 MHz, each task's kappa, timeline at every event, seed 42. */
void sim_config_default(sim_config *cfg);

typedef struct sim sim;

sim *sim_new(const sim_config *cfg, const cluster *cl, const catalog *cat,
             const gp_trace *tr, const policy_spec *pol, gp_err *err);
void sim_free(sim *s);

/* Advances through the next placement decision (and every event before
 * it).  Returns 1 when a decision was made, 0 when the run is over. */
int sim_step(sim *s);
/* Advances while simulated time <= t_s; returns 0 when the run is over. */
int sim_advance_until(sim *s, double t_s);
/* Runs to the end; *cancel (may be NULL) is polled to stop early.
 * Returns 0, or -1 when cancelled. */
int sim_run(sim *s, volatile const int *cancel);
/* Returns to the state just after decision k (0 = before any). */
int sim_rewind(sim *s, size_t k, gp_err *err);

int sim_done(const sim *s);
double sim_now(const sim *s);
size_t sim_decisions(const sim *s);     /* decisions made so far */
const cstate *sim_cstate(const sim *s);
const gp_trace *sim_trace(const sim *s);
const policy_spec *sim_policy(const sim *s);
/* Standalone seconds each task has completed (indexed by task). */
const double *sim_progress(const sim *s);
/* The explanation of the last decision (NULL before the first). */
const explain *sim_last_explain(const sim *s);
/* Power right now under the run's model. */
void sim_power(const sim *s, power_split *out);
/* The run record so far: timeline, outcomes of finished tasks, decisions.
 * Summary metrics are filled by sim_finish(). */
const run *sim_run_record(const sim *s);
/* Computes the summary metrics (SPEC §6) into the run record. */
void sim_finish(sim *s);
/* Hands the run record to the caller (who frees it with run_free); the sim
 * must not be used afterwards except to free it. */
run *sim_take_run(sim *s);

#endif
