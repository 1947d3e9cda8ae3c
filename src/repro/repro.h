/*
 * repro.h — `gpuplan reproduce`: each paper's headline experiments run on
 * the data at hand and set side by side with the paper's figures, each
 * with a verdict and, when they differ, the reason.
 *
 * A paper is one file (repro_<paper>.c) exporting one const repro_paper,
 * declared in repro_table.h and listed once in repro.c's table; its run() appends rows.  A row is one
 * compared quantity: the paper's figure as the paper prints it, ours (a
 * number, NaN when the experiment could not run), a verdict and a reason.
 *
 * Verdicts (repro_judge, the one place they are decided):
 *   holds     direction and size agree: ours is within the row's stated
 *             tolerance of the paper's figure, on the same side of the
 *             neutral value (0 for a change, 1 for a ratio); or ours meets
 *             the paper's bound
 *   direction only the sign agrees (ours is on the paper's side of the
 *             neutral value, further from its figure than the tolerance)
 *   differs   neither; the reason gives what was measured about why
 *   measured  a figure of the paper's machine (a time, a wattage) that
 *             ours can only be set beside
 *   not run   the data is missing (the reason says how to import it)
 *
 * A reason is measured, never a fixed sentence about why a result should
 * come out one way: counts of what each filter rejected, the fluid lower
 * bound of the trace, the information each policy read (repro_reason.h).
 *
 * Ownership: rows live in a repro_out the caller owns (repro_out_free());
 * the experiments load their inputs from the store and free them; with
 * save they store the runs they simulate, so they can be opened in the
 * dashboard's Compare.
 */
#ifndef GP_REPRO_H
#define GP_REPRO_H

#include <stddef.h>

#include "core/model.h"
#include "core/run.h"
#include "core/util.h"
#include "db/store.h"
#include "repro/repro_reason.h"
#include "sim/sim.h"

typedef struct repro_row {
    const char *paper;          /* the repro_paper's name */
    char experiment[64];
    char quantity[96];
    char theirs[48];            /* the paper's figure, as printed */
    char tolerance[24];         /* how close counts as the same size ("+-10") */
    double ours;                /* NaN when not run */
    char ours_text[48];
    const char *verdict;
    char reason[512];
} repro_row;

typedef struct repro_out {
    repro_row *rows;
    size_t n, cap;
    store *st;                  /* where inputs come from and runs go */
    int save;                   /* store the simulated runs */
} repro_out;

typedef struct repro_paper {
    const char *name;           /* "corrgpu", the command's argument */
    const char *title;          /* the paper, for headings */
    const char *experiments;    /* one line: what run() compares */
    void (*run)(repro_out *out);
} repro_paper;

extern const char *const REPRO_HOLDS, *const REPRO_DIRECTION, *const REPRO_DIFFERS,
    *const REPRO_MEASURED, *const REPRO_NOT_RUN;

/* What the paper claims about one quantity and how close ours must come.
 *   REPRO_FIGURE    the paper prints `paper`; ours holds within ±tol of it
 *                   on the same side of `zero` (the neutral value: 0 for a
 *                   change in %, 1 for a ratio); on that side but further
 *                   is `direction`.  zero = NaN: the figure has no
 *                   direction (a count, an error), so within ±tol holds
 *                   and anything else differs.
 *   REPRO_AT_MOST   the paper claims ours <= paper ("within the SLA")
 *   REPRO_AT_LEAST  the paper claims ours >= paper ("saves more than 13 %")
 * tol is in the row's own unit and is printed with the row. */
typedef enum { REPRO_FIGURE, REPRO_AT_MOST, REPRO_AT_LEAST } repro_claim_kind;

typedef struct repro_claim {
    repro_claim_kind kind;
    double paper;
    double zero;
    double tol;
} repro_claim;

/* The verdict of ours against claim c: REPRO_HOLDS, REPRO_DIRECTION or
 * REPRO_DIFFERS (NaN ours: REPRO_DIFFERS). */
const char *repro_judge(const repro_claim *c, double ours);

/* The claim's tolerance as printed ("+-10", "<= 1.2", "exact"). */
void repro_claim_text(const repro_claim *c, char *buf, size_t len);

const repro_paper *repro_paper_nth(size_t i);
const repro_paper *repro_paper_find(const char *name);

void repro_out_init(repro_out *o, store *st, int save);
void repro_out_free(repro_out *o);

/* Appends a row: ours printed with ours_fmt (a printf format of one
 * double), the reason with reason_fmt (may be NULL). */
repro_row *repro_add(repro_out *o, const char *paper, const char *experiment,
                     const char *quantity, const char *theirs, double ours,
                     const char *ours_fmt, const char *verdict, const char *reason_fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* Appends a row judged against claim c (repro_judge), its tolerance
 * printed from c; otherwise as repro_add. */
repro_row *repro_add_claim(repro_out *o, const char *paper, const char *experiment,
                           const char *quantity, const char *theirs, const repro_claim *c,
                           double ours, const char *ours_fmt, const char *reason_fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* A row for an experiment that could not run, with why. */
void repro_not_run(repro_out *o, const char *paper, const char *experiment, const char *why);

/* What an experiment runs on. */
typedef struct repro_inputs {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} repro_inputs;

/* Loads the catalog, the cluster and the trace; 0, or -1 with the store's
 * message. */
int repro_load(store *st, const char *trace, const char *cluster_name, repro_inputs *in,
               gp_err *err);
void repro_inputs_free(repro_inputs *in);

/* Simulates one policy ("cats", "corrgpu:0.1", "cats corr_thr=1 util_thr=1e4")
 * under cfg and returns its finished run record (caller frees), stored
 * when o->save; NULL with a message. */
run *repro_simulate(repro_out *o, const repro_inputs *in, const char *policy,
                    const sim_config *cfg, gp_err *err);
/* The same, tallying every decision's explanation into *tally (zeroed
 * here; repro_reason.h). */
run *repro_simulate_tally(repro_out *o, const repro_inputs *in, const char *policy,
                          const sim_config *cfg, repro_tally *tally, gp_err *err);

#endif
