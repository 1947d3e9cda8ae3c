/*
 * gogh_est.h — GOGH's throughput estimation (GOGH §2.3, §2.5): what a job
 * will do on each accelerator type, alone or next to another job, when the
 * scheduler has never seen it run.
 *
 *   P1  (§2.3, eq. 1) for a new job j1: take the most similar known job j2
 *       by attribute vector Psi (model family, log batch size, scale) and a
 *       feed-forward network maps (Psi_j2, Psi_j3, a, T_{a,j2}^{j2,j3},
 *       T_{a,j3}^{j2,j3}, Psi_j1) to j1's and j3's throughput when j1 runs
 *       with j3 on a (j3 = the empty job j0 for "alone").
 *   P2  (§2.5, eq. 3) once j1 has run with j2 on a1 and was measured: a
 *       second network maps (Psi_j1, Psi_j2, a1, a2, the estimates and the
 *       measurements on a1, the estimates on a2) to refined estimates on
 *       every other type a2; the estimate used is the mean of every
 *       refinement so far (eq. 4).
 *
 * The networks are FANN feed-forward networks (Debian libfann), trained on
 * a throughput table (Gavel's shape, model/tput_entry) split by job type
 * so that validation and test hold job types never seen in training;
 * attributes are scaled to [0, 1] and throughputs are divided by the job's
 * best solo throughput in the table (a new job has none, so its
 * throughputs are divided by its most similar known job's); loss and MAE
 * are reported on each job's own scale, where a throughput lies in [0, 1],
 * as the paper's figures are.  Weights are initialised from the project's
 * seeded rng, so training is reproducible.
 *
 * The online side is the paper's Catalog (§2.1): a gogh_estimator answers
 * "throughput of j on a with k" from the table for job types it knows, from
 * P1 for new ones, and learns from observations (P2) as a run proceeds.
 * Its mode picks what a run is allowed to know: the truth (oracle), P1
 * only, or P1 refined by P2.
 *
 * Ownership: gogh_nets_train() and gogh_nets_load() return nets freed with
 * gogh_nets_free(); an estimator borrows its table and nets (they must
 * outlive it) and is freed with gogh_estimator_free().
 */
#ifndef GP_GOGH_EST_H
#define GP_GOGH_EST_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/tput.h"
#include "core/util.h"

/* ---- training ------------------------------------------------------------ */

typedef struct gogh_train_params {
    double val_frac, test_frac;         /* of the job types (0.15 each) */
    int hidden;                         /* neurons per hidden layer (32) */
    int layers;                         /* hidden layers (2) */
    int epochs;                         /* (500) */
    double learning_rate;               /* (0.01) */
    uint64_t seed;                      /* split and initial weights (42) */
} gogh_train_params;

void gogh_train_params_default(gogh_train_params *p);

/* Loss (mean squared error) and MAE, on normalised throughputs, per split. */
typedef struct gogh_split_err {
    double loss, mae;
    size_t rows;
} gogh_split_err;

typedef struct gogh_train_report {
    gogh_split_err p1[3], p2[3];        /* train, validation, test */
    size_t types[3];                    /* job types in each split */
    double p1_s, p2_s;                  /* training time */
} gogh_train_report;

typedef struct gogh_nets gogh_nets;

/* Trains P1 and P2 on table tp (scale-1 entries).  NULL with a message
 * when the table has too few job types or accelerators to split. */
gogh_nets *gogh_nets_train(const tput_catalog *tp, const gogh_train_params *p,
                           gogh_train_report *rep, gp_err *err);

/* How far a training is (0 to 1), told after every epoch. */
typedef struct gogh_progress {
    void (*fn)(void *ctx, double frac);
    void *ctx;
} gogh_progress;

/* gogh_nets_train() telling its progress to prog (NULL: to no one). */
gogh_nets *gogh_nets_train_shown(const tput_catalog *tp, const gogh_train_params *p,
                                 const gogh_progress *prog, gogh_train_report *rep,
                                 gp_err *err);
void gogh_nets_free(gogh_nets *n);
/* Measures trained nets again on table tp (the one they were trained on,
 * or another with their accelerator classes): the same rows per split as
 * training, the table's scale-1 types the nets never saw counted as test;
 * the report's times are 0.  -1 with a message when the table has none of
 * the nets' training types. */
int gogh_nets_eval(const gogh_nets *n, const tput_catalog *tp, gogh_train_report *rep,
                   gp_err *err);
/* "train", "validation", "test" for split 0, 1, 2. */
const char *gogh_split_name(int s);
/* The job types the nets were trained on (the estimator's "known" jobs
 * come from here), and the split each type fell in (0 train, 1 val, 2 test);
 * -1 for a type the table did not have. */
int gogh_nets_split_of(const gogh_nets *n, const gogh_jobtype *t);

/* One byte buffer (versioned) for the store; the caller frees it. */
unsigned char *gogh_nets_save(const gogh_nets *n, size_t *len);
gogh_nets *gogh_nets_load(const void *buf, size_t len, gp_err *err);

/* ---- the online Catalog ----------------------------------------------------- */

typedef enum gogh_est_mode {
    GOGH_EST_ORACLE,                    /* the table's measurements */
    GOGH_EST_P1,                        /* known types measured, new ones P1 */
    GOGH_EST_P1P2,                      /* P1, refined by P2 from observations */
} gogh_est_mode;

const char *gogh_est_mode_name(gogh_est_mode m);   /* "oracle", "p1", "p1p2" */

typedef struct gogh_estimator gogh_estimator;

/* An estimator over table tp (the truth, and the history of known jobs:
 * the types nets trained on) in mode m; nets may be NULL only for the
 * oracle. */
gogh_estimator *gogh_estimator_new(gogh_est_mode m, const tput_catalog *tp,
                                   const gogh_nets *nets, gp_err *err);
void gogh_estimator_free(gogh_estimator *e);

/* The current estimate of job j's throughput on accelerator class accel
 * ("k80", "p100", "v100", ...) when it runs alone (k == NULL) or with job
 * k; *tk (may be NULL) receives k's.  0 when j cannot run there. */
double gogh_estimate(gogh_estimator *e, const char *accel, const gogh_jobtype *j,
                     const gogh_jobtype *k, double *tk);
/* A measurement: j (with k, or alone) on accel ran at tj (and tk).  In
 * P1P2 mode P2 refines j's (and k's) estimates on every other accelerator
 * class; the other modes ignore it. */
void gogh_observe(gogh_estimator *e, const char *accel, const gogh_jobtype *j,
                  const gogh_jobtype *k, double tj, double tk);

/* Where the answers came from so far, so a run can say how much it knew. */
typedef struct gogh_est_stats {
    size_t from_table;          /* answers the table gave */
    size_t from_p1;             /* P1's initial estimates */
    size_t refined;             /* means of P2's refinements (eq. 4) */
    size_t measured;            /* observations given back (P1P2) */
    size_t unanswerable;        /* 0 for want of nets or of the accelerator class */
    size_t unknown_types;       /* distinct job types asked about that the table
                                 * does not have at all (estimated by P1) */
    size_t observations, refinements;
} gogh_est_stats;

void gogh_estimator_stats(const gogh_estimator *e, gogh_est_stats *out);

#endif
