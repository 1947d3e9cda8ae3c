/*
 * gogh_int.h — what the files of GOGH's estimation share and nobody else
 * sees (gogh_est.h is the public side):
 *
 *   gogh_psi.c     the attribute vector Psi (§2.2) and the history the
 *                  networks read: which job types are known, each one's
 *                  reference throughput, the most similar known job (§2.3);
 *   gogh_net.c     one FANN network: seeded weights, training, running,
 *                  its weights as numbers for the byte format;
 *   gogh_rows.c    the inputs and targets of P1 (eq. 1) and P2 (eq. 3), and
 *                  the rows a split of job types gives;
 *   gogh_est.c     training both networks, evaluating them, the byte format;
 *   gogh_catalog.c the online estimator (the paper's Catalog, §2.1).
 *
 * Normalisation (one rule, here): every throughput of a job is divided by
 * its reference throughput, and the networks see and give only such
 * ratios.  A known job's reference is its best solo throughput in the
 * table (over accelerator classes); a job treated as new has no
 * measurement, so its reference is that of its most similar known job j2,
 * the only scale the Catalog has for it (the network learns how far j1
 * sits from j2).  Errors are reported on the paper's scale instead: each
 * job's throughput over its own best solo throughput in the table, so a
 * truth lies in [0, 1] and the figures compare with §3.2's.
 *
 * Precision: the Makefile links -lfann, which Debian builds from
 * floatfann.c, so fann_type is float here (doublefann.h would declare
 * double against a float library).  Everything outside gogh_net.c is
 * double; the byte format stores weights as f64 either way.
 */
#ifndef GP_GOGH_INT_H
#define GP_GOGH_INT_H

#include <stddef.h>

#include "gogh_est.h"
#include "core/rng.h"

#define GOGH_MAX_ACCELS 16
#define GOGH_MAX_FAMILIES 48
#define GOGH_MAX_PSI (GOGH_MAX_FAMILIES + 2)
#define GOGH_MAX_TYPES 4096     /* scale-1 job types a table may give the nets */
#define GOGH_MAX_HIDDEN 1024
#define GOGH_MAX_LAYERS 8
#define GOGH_MAX_EPOCHS 1000000
#define GOGH_NOUT 2             /* both networks give two throughputs */

/* Parameters within the bounds above (gogh_est.c); 0 or -1 with a message. */
int gogh_train_params_check(const gogh_train_params *p, gp_err *err);

/* ---- Psi (gogh_psi.c) ------------------------------------------------------ */

/* How Psi is made for one table: the model families it holds (one-hot),
 * the range of log2 batch size and the largest log2 scale, both mapped to
 * [0, 1].  A batch size of 0 ("none": A3C, CycleGAN) gives 0. */
typedef struct gogh_psi_enc {
    int nfam;
    char fam[GOGH_MAX_FAMILIES][GP_NAME_MAX];
    double log_batch_lo, log_batch_hi;
    double log_scale_hi;
} gogh_psi_enc;

static inline int gogh_psi_dim(const gogh_psi_enc *e)
{
    return e->nfam + 2;
}

/* The family of a model name: the name without a " (batch size N)" tail. */
void gogh_family_of(const char *model, char *out, size_t n);
/* Psi of job type t (NULL: the empty job j0, all zeros) into out[dim]. */
void gogh_psi(const gogh_psi_enc *e, const gogh_jobtype *t, double *out);

/* ---- the nets --------------------------------------------------------------- */

typedef struct gogh_net gogh_net;

/* What a trained pair of networks holds: their inputs' encoding, the job
 * types of the table they were trained on with each one's split, and the
 * networks. */
struct gogh_nets {
    gogh_train_params params;
    gogh_psi_enc psi;
    int naccel;
    char accel[GOGH_MAX_ACCELS][32];
    size_t ntypes;
    gogh_jobtype *types;        /* scale-1 types, in the table's order */
    unsigned char *split;       /* 0 train, 1 validation, 2 test */
    gogh_net *p1, *p2;
};

static inline int gogh_p1_inputs(const gogh_nets *n)
{
    return 3 * gogh_psi_dim(&n->psi) + n->naccel + 2;
}

static inline int gogh_p2_inputs(const gogh_nets *n)
{
    return 2 * gogh_psi_dim(&n->psi) + 2 * n->naccel + 6;
}

/* The index of accelerator class name among the nets', -1 when absent. */
int gogh_nets_accel(const gogh_nets *n, const char *name);
/* The index of t among the nets' types, -1 when absent. */
int gogh_nets_type(const gogh_nets *n, const gogh_jobtype *t);

/* ---- the history the networks read (gogh_psi.c) ------------------------ */

/* The nets over a table: the training types (the Catalog's known jobs),
 * their Psi and reference throughputs. */
typedef struct gogh_hist {
    const gogh_nets *nets;
    const tput_catalog *tp;
    tput_index *ix;
    size_t ntrain;
    int *train;                 /* indices into nets->types */
    double *psi;                /* per nets type, dim each */
    double *ref;                /* per nets type: best solo in tp (1 when none) */
} gogh_hist;

/* A job as a network sees it. */
typedef struct gogh_job {
    const gogh_jobtype *t;      /* NULL: the empty job j0 */
    double psi[GOGH_MAX_PSI];
    double ref;                 /* what its throughputs are divided by */
    int near;                   /* new: its most similar known job (a nets type);
                                 * known: its own nets index or -1; j0: -1 */
} gogh_job;

gogh_hist *gogh_hist_new(const gogh_nets *n, const tput_catalog *tp);
void gogh_hist_free(gogh_hist *h);
/* -1 with a message when the table has none of the nets' training types
 * (another table's nets would read zeros for every history). */
int gogh_hist_check(const gogh_hist *h, gp_err *err);
/* t's best solo throughput in the table over the nets' accelerators; 0
 * when it never runs alone there. */
double gogh_best_solo(const gogh_hist *h, const gogh_jobtype *t);
/* t treated as new: its nearest known job (by Psi, never t itself) and
 * that job's reference.  t is borrowed. */
void gogh_job_new(const gogh_hist *h, const gogh_jobtype *t, gogh_job *j);
/* t as itself (a known job, or a co-located job the table has); near is
 * its nets index or -1.  t is borrowed. */
void gogh_job_known(const gogh_hist *h, const gogh_jobtype *t, gogh_job *j);
void gogh_job_empty(gogh_job *j);

/* ---- one network (gogh_net.c) ------------------------------------------------- */

/* A fully connected network of nin inputs, `layers` hidden layers of
 * `hidden` symmetric sigmoids and GOGH_NOUT linear outputs, its weights
 * drawn from r (Glorot-uniform), never from FANN's rand(). */
gogh_net *gogh_net_new(int nin, int hidden, int layers, rng *r);
void gogh_net_free(gogh_net *net);
int gogh_net_inputs(const gogh_net *net);
/* Runs the network on in[nin]; out[GOGH_NOUT]. */
void gogh_net_run(gogh_net *net, const double *in, double *out);
size_t gogh_net_nweights(const gogh_net *net);
/* The weights in FANN's connection order; w has nweights slots. */
void gogh_net_get_weights(const gogh_net *net, double *w);
void gogh_net_set_weights(gogh_net *net, const double *w);
/* How many weights gogh_net_new(nin, hidden, layers) makes (bias included). */
size_t gogh_net_count_weights(int nin, int hidden, int layers);

/* ---- rows (gogh_rows.c) ------------------------------------------------------- */

/* Rows of one network: inputs x[n × nin] and targets y[n × 2] in the
 * training scale, and w[n × 2], the factor from that scale to the report
 * scale (gogh_int.h's top). */
typedef struct gogh_rows {
    int nin;
    size_t n, cap;              /* rows */
    double *x, *y, *w;
} gogh_rows;

void gogh_rows_init(gogh_rows *r, int nin);
void gogh_rows_free(gogh_rows *r);

/* P1's input (eq. 1) for j1 next to j3 on accelerator a: j1's nearest
 * known job j2 measured with j3 (j3 known or the empty job). */
void gogh_p1_input(const gogh_hist *h, int a, const gogh_job *j1, const gogh_job *j3,
                   double *in);
/* P1's answer in iterations/s, never negative: out[0] for j1, out[1] for j3. */
void gogh_p1_estimate(const gogh_hist *h, int a, const gogh_job *j1, const gogh_job *j3,
                      double *out);
/* P2's input (eq. 3) for j1 with k: on a1 the estimates before and the
 * measurements, on a2 the estimates before (pairs: j1's, k's; iterations/s). */
void gogh_p2_input(const gogh_hist *h, int a1, int a2, const gogh_job *j1, const gogh_job *k,
                   const double *est1, const double *meas1, const double *est2, double *in);
/* P2's refined estimates on a2 in iterations/s, never negative. */
void gogh_p2_estimate(const gogh_hist *h, int a1, int a2, const gogh_job *j1,
                      const gogh_job *k, const double *est1, const double *meas1,
                      const double *est2, double *out);

/* The job types of one split as the rows see them: nets types of split s,
 * and for the test split (s == 2) also the table's scale-1 types the nets
 * never saw; only those the table has alone somewhere (a scale to report
 * on).  Returns an allocated array of *n types. */
gogh_jobtype *gogh_split_types(const gogh_hist *h, int s, size_t *n);
/* Appends P1's rows for every type of ts (each treated as new) next to
 * every known job and the empty one, on every accelerator. */
void gogh_rows_p1(const gogh_hist *h, const gogh_jobtype *ts, size_t n, gogh_rows *r);
/* Appends P2's rows: for every type of ts, co-located job and ordered pair
 * of accelerators (a1 != a2), P1's estimates as the "before" values and
 * the table as the measurements (nets->p1 must be trained). */
void gogh_rows_p2(const gogh_hist *h, const gogh_jobtype *ts, size_t n, gogh_rows *r);

/* Loss (MSE) and MAE of net on rows, on the report scale, predictions
 * clamped at 0 as the estimator answers (gogh_net.c). */
void gogh_rows_error(gogh_net *net, const gogh_rows *r, gogh_split_err *e);

/* (gogh_net.c) Trains net on train for p->epochs epochs of per-row steps (rows in an
 * order drawn from r each epoch), keeping the weights of the epoch with the
 * lowest validation loss when val has rows.  After each epoch prog (or
 * NULL) hears base + span * (epochs done / p->epochs). */
typedef struct gogh_net_progress {
    const gogh_progress *prog;
    double base, span;
} gogh_net_progress;

void gogh_net_train(gogh_net *net, const gogh_rows *train, const gogh_rows *val,
                    const gogh_train_params *p, rng *r, const gogh_net_progress *np);

#endif
