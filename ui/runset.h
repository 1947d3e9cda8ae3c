/*
 * runset.h — the policies the Compare screen runs side by side: one
 * simulator per policy on the same trace and cluster, advanced in lockstep
 * by simulated time, with one of them "focused" (the one → / ← step and
 * the Step and Cluster screens show).  A slot holds either a live sim or a
 * saved run reopened from the store (its timeline is shown as saved, not
 * re-simulated, until the user restarts it, which re-runs it from its
 * recorded trace, cluster, policy, options and seed).
 *
 * This is the TUI's only user of the simulator (src/sim/sim.h); no curses here.
 *
 * Ownership: a runset owns its trace, cluster, catalog, throughput table,
 * sims and saved runs; runset_clear() frees them.  Pointers it hands out
 * (records, states) stay valid until the next call that changes the set.
 */
#ifndef GP_RUNSET_H
#define GP_RUNSET_H

#include <stddef.h>

#include "db/store.h"
#include "peace/peace_load.h"
#include "sim/sim.h"
#include "solve/solve.h"

#define RS_MAX 6

typedef struct rs_slot {
    policy_spec spec;
    const peace_policy *part;   /* its GPUs' SM partition under the cap, or NULL */
    upred_spec predict;         /* what it knows of utilization ("predict=" in its label) */
    sim *sim;                   /* live simulation, or NULL */
    run *saved;                 /* reopened saved run (owned), or NULL */
    int64_t stored_id;          /* the store's id of this sim's run once saved, else 0 */
    int power_model;            /* POWER_CATS / POWER_EOPC, -1 = the policy's own */
} rs_slot;

typedef struct runset {
    char trace_name[GP_NAME_MAX];
    char cluster_name[GP_NAME_MAX];
    gp_trace *tr;
    cluster *cl;
    catalog *cat;
    tput_catalog *tp;           /* the table named like the trace, or NULL */
    struct gogh_nets *nets;     /* GOGH's nets trained on tp, or NULL */
    sim_config cfg;
    power_caps caps;            /* GPU power caps (power/power_cap.h) */
    int power_model;            /* one model for every row, -1 = each policy's own */
    peace_loaded peace;         /* loaded when a capped model has a PEACE set */
    rs_slot slot[RS_MAX];
    int n;
    int focus;
    double t;                   /* the lockstep clock, simulated seconds */
    double t_end_hint;          /* last arrival + longest task: the x axis */
    double speed;               /* simulated seconds per wall-clock second */
    int by_arrival;             /* saved inflation runs: samples by % of the tasks arrived,
                                 * not by time (t and t_end_hint are percents) */
    int playing;
    /* CATS's optimum over the whole trace (the papers' Optimal bar), when
     * the trace is small and every policy is measured in CATS watts */
    solve_run_row opt;
    int has_opt;
    /* Tasks in place at the start (a snapshot's what-if; owned, one per
     * task of tr), NULL = none: every sim starts them there. */
    sim_pin *pins;
    /* A jump in slices (runset_seek_*): the focused sim's decisions wanted
     * and those it had when the jump began. */
    int seeking;
    size_t seek_target, seek_from;
} runset;

void runset_init(runset *rs);
void runset_clear(runset *rs);

/* Loads trace and cluster from the store and starts one sim per policy
 * label ("cats", "corrgpu:0.1", "cats@nopart", ...) at t = 0, paused.  Under
 * caps each capped GPU's clock is clamped where its profile's curve meets
 * its cap; on a capped model with a PEACE set, PEACE's controller holds
 * the GPUs it can, their SMs split by the label's partition (peace when it
 * names none; sim.h, sim_peace); caps NULL = none.  model (POWER_CATS, POWER_EOPC) measures every run
 * with that model, as `gpuplan run --power`; -1 leaves each policy its
 * own.  On failure the set is left empty and err says why. */
int runset_start(runset *rs, store *st, const char *trace, const char *cluster_nm,
                 const char *const *labels, int n, const power_caps *caps, int model,
                 gp_err *err);
/* Reopens saved runs (they must share one trace and cluster). */
int runset_open_saved(runset *rs, store *st, const int64_t *ids, int n, gp_err *err);
/* Starts every slot again from t = 0 (saved runs are re-simulated). */
int runset_restart(runset *rs, store *st, gp_err *err);

int runset_live(const runset *rs);     /* any slot has a sim */
int runset_done(const runset *rs);     /* every sim has finished */
/* Live runs that made a decision and are not in the store: what quitting
 * would throw away. */
int runset_unsaved(const runset *rs);

/* Advances the clock by wall_dt * speed and every live sim to it; stops
 * playing when all are done.  Returns 1 when anything changed. */
int runset_tick(runset *rs, double wall_dt);
/* Begins bringing the focused sim back to the instant just after its
 * latest decision when it has run past it (completions after the decision
 * change the cluster), the others following: a jump (runset_seek_slice
 * goes on with it); the Step screen shows that state.  1 when a jump
 * began, 0 when there was nothing to do (playing, finished, already
 * there), -1 with a message. */
int runset_settle(runset *rs, gp_err *err);
/* Jumps in slices, so a far one on a big trace never freezes the screen
 * (the dashboard calls runset_seek_slice once per frame until it returns
 * 1): the focused sim to just after decision k, the others following to
 * its time a little behind it in every slice.  Going back (or with rewind
 * 1, to the instant of decision k itself) restores the checkpoint before
 * k at once, which costs at most the checkpoints' spacing.  0, or -1 with
 * a message (no live focused run, a failed rewind). */
int runset_seek_begin(runset *rs, size_t k, int rewind, gp_err *err);
/* One placement of the focused sim at once, then the others follow in
 * slices; -1 with a message when it has no more. */
int runset_seek_next(runset *rs, gp_err *err);
/* About budget_s of wall time of the jump; 1 once it is over. */
int runset_seek_slice(runset *rs, double budget_s);
/* How far the jump is, 0 to 1. */
double runset_seek_progress(const runset *rs);
/* Stops the jump where it is: the focused sim at the decision it reached,
 * the others where they got to (at or behind its time). */
void runset_seek_stop(runset *rs);
/* Runs the live sims towards their ends for about budget_s of wall time
 * (the dashboard calls it once per frame, so a long run never freezes
 * it); 1 once every sim has finished, else 0.  The runs end exactly as
 * runset_finish_all would leave them. */
int runset_finish_slice(runset *rs, double budget_s);
/* How far the live sims are towards their ends, 0 to 1. */
double runset_progress(const runset *rs);
/* 1 when the slots' watts come from more than one power model. */
int runset_mixed_power(const runset *rs);
/* Saves a copy of every finished live run to the store (the sims go on,
 * so they can still be stepped); *saved counts them.  A run saved before
 * is not saved again: when every one was, it is an error naming them.
 * Runs from a snapshot (pins set) are refused: a run record cannot say
 * which tasks were in place. */
int runset_save(runset *rs, store *st, int *saved, gp_err *err);

/* The run record of slot i (live or saved); NULL when empty. */
const run *runset_record(const runset *rs, int i);
/* The focused slot's live sim, or NULL. */
sim *runset_focus_sim(const runset *rs);
/* Decisions made by slot i so far. */
size_t runset_decisions(const runset *rs, int i);
/* Simulated time at slot i: its sim's clock, or a saved run's last sample. */
double runset_time(const runset *rs, int i);
/* The trace's span: last arrival + longest standalone duration. */
double runset_trace_span(const gp_trace *tr);

#endif
