/*
 * gogh_est.c — training GOGH's two estimation networks (gogh_est.h) on a
 * throughput table and measuring them: the table's checks, the encoding
 * of its accelerators and job types, the split by job type, P1 then P2,
 * and the loss and MAE of each on every split.
 *
 * The split: the table's scale-1 job types that run somewhere (GOGH §3.1
 * fixes the replication factor at 1) are shuffled by the seed; the first
 * round(test_frac · n) go to test, the next round(val_frac · n) to
 * validation (at least one each when the fraction is not 0), the rest to
 * training.  Rows follow their j1's split (gogh_rows.c), so a validation
 * or test type is never in a training row, not even as a co-located job.
 *
 * Streams of the seed: 0 the split, 1 and 2 P1's weights and row order, 3
 * and 4 P2's.
 *
 * Not here: the byte format (gogh_bytes.c), the online estimator
 * (gogh_catalog.c).
 */
#include "gogh_int.h"
#include "gogh_est_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STREAM_SPLIT, STREAM_P1_INIT, STREAM_P1_ORDER, STREAM_P2_INIT, STREAM_P2_ORDER };

static const char *const split_names[3] = {"train", "validation", "test"};

void gogh_train_params_default(gogh_train_params *p)
{
    memset(p, 0, sizeof *p);
    p->val_frac = 0.15;
    p->test_frac = 0.15;
    p->hidden = 32;
    p->layers = 2;
    p->epochs = 500;
    p->learning_rate = 0.01;
    p->seed = 42;
}

int gogh_train_params_check(const gogh_train_params *p, gp_err *err)
{
    if (!(p->val_frac >= 0 && p->test_frac >= 0 && p->val_frac + p->test_frac < 1))
        return gp_error(err, "validation and test fractions must be >= 0 and leave some job "
                        "types to train on (got %g and %g)", p->val_frac, p->test_frac);
    if (p->hidden < 1 || p->hidden > GOGH_MAX_HIDDEN || p->layers < 1 ||
        p->layers > GOGH_MAX_LAYERS)
        return gp_error(err, "a network has 1 to %d hidden layers of 1 to %d neurons (got %d "
                        "of %d)", GOGH_MAX_LAYERS, GOGH_MAX_HIDDEN, p->layers, p->hidden);
    if (p->epochs < 0 || p->epochs > GOGH_MAX_EPOCHS)
        return gp_error(err, "epochs must be 0 to %d (got %d)", GOGH_MAX_EPOCHS, p->epochs);
    if (!(p->learning_rate > 0 && p->learning_rate <= 10))
        return gp_error(err, "the learning rate must be in (0, 10] (got %g)",
                        p->learning_rate);
    return 0;
}

const char *gogh_split_name(int s)
{
    assert(s >= 0 && s < 3);
    return split_names[s];
}

/* ---- the table --------------------------------------------------------------------- */

/* Every throughput finite and not negative (the importers refuse others,
 * but a table may come from elsewhere). */
static int check_table(const tput_catalog *tp, gp_err *err)
{
    for (size_t i = 0; i < tp->nentries; i++) {
        const tput_entry *e = &tp->entries[i];
        if (!isfinite(e->tput) || e->tput < 0 || !isfinite(e->co_tput) || e->co_tput < 0)
            return gp_error(err, "throughput table '%s': entry %zu (%s, %s batch %d) has "
                            "throughputs %g and %g; expected finite numbers >= 0", tp->name,
                            i + 1, e->accel, e->model, e->batch_size, e->tput, e->co_tput);
    }
    return 0;
}

static int encode_accels(gogh_nets *n, const tput_catalog *tp, const tput_index *ix,
                         gp_err *err)
{
    size_t na = tput_catalog_accels(tp);
    if (na < 2 || na > GOGH_MAX_ACCELS)
        return gp_error(err, "throughput table '%s' has %zu accelerator class%s; GOGH's "
                        "estimation needs 2 to %d (P2 refines one from another)", tp->name,
                        na, na == 1 ? "" : "es", GOGH_MAX_ACCELS);
    const char *names[GOGH_MAX_ACCELS];
    n->naccel = (int)tput_accels(ix, names, GOGH_MAX_ACCELS);
    for (int a = 0; a < n->naccel; a++)
        strlcpy0(n->accel[a], names[a], sizeof n->accel[a]);
    return 0;
}

/* Families, the log2 batch range and the largest log2 scale over every
 * type of the table. */
static int encode_psi(gogh_psi_enc *e, const tput_catalog *tp, const gogh_jobtype *all,
                      size_t nt, gp_err *err)
{
    e->log_batch_lo = INFINITY;
    e->log_batch_hi = -INFINITY;
    for (size_t i = 0; i < nt; i++) {
        char fam[GP_NAME_MAX];
        gogh_family_of(all[i].model, fam, sizeof fam);
        int f = 0;
        while (f < e->nfam && strcmp(e->fam[f], fam) != 0)
            f++;
        if (f == e->nfam) {
            if (e->nfam == GOGH_MAX_FAMILIES)
                return gp_error(err, "throughput table '%s' has more than %d model families",
                                tp->name, GOGH_MAX_FAMILIES);
            strlcpy0(e->fam[e->nfam++], fam, sizeof e->fam[0]);
        }
        if (all[i].batch_size > 0) {
            e->log_batch_lo = fmin(e->log_batch_lo, log2(all[i].batch_size));
            e->log_batch_hi = fmax(e->log_batch_hi, log2(all[i].batch_size));
        }
        e->log_scale_hi = fmax(e->log_scale_hi, log2(all[i].scale > 1 ? all[i].scale : 1));
    }
    if (e->log_batch_lo > e->log_batch_hi)
        e->log_batch_lo = e->log_batch_hi = 0;      /* no batch sizes at all */
    return 0;
}

/* The scale-1 types that run alone on some accelerator (the others give no
 * scale to normalise by). */
static void usable_types(gogh_nets *n, const tput_index *ix, const gogh_jobtype *all, size_t nt)
{
    n->types = xmalloc((nt + 1) * sizeof *n->types);
    n->split = xcalloc(nt + 1, sizeof *n->split);
    for (size_t i = 0; i < nt; i++) {
        int runs = 0;
        for (int a = 0; a < n->naccel && !runs; a++)
            runs = tput_solo(ix, n->accel[a], &all[i]) > 0;
        if (all[i].scale == 1 && runs)
            n->types[n->ntypes++] = all[i];
    }
}

/* How many of n types a fraction takes: at least one unless it is 0. */
static size_t share_of(double frac, size_t n)
{
    if (frac <= 0)
        return 0;
    size_t k = (size_t)llround(frac * (double)n);
    return k ? k : 1;
}

static int split_types(gogh_nets *n, const tput_catalog *tp, const gogh_train_params *p,
                       gp_err *err)
{
    size_t nt = n->ntypes, ntest = share_of(p->test_frac, nt), nval = share_of(p->val_frac, nt);
    if (nt < ntest + nval + 2)
        return gp_error(err, "throughput table '%s' has %zu job types of scale 1 that run "
                        "somewhere: too few to split into training (at least 2), validation "
                        "(%zu) and test (%zu)", tp->name, nt, nval, ntest);
    size_t *order = xmalloc(nt * sizeof *order);
    for (size_t i = 0; i < nt; i++)
        order[i] = i;
    rng r;
    rng_seed_stream(&r, p->seed, STREAM_SPLIT);
    rng_shuffle(&r, order, nt, sizeof *order);
    for (size_t i = 0; i < nt; i++)
        n->split[order[i]] = i < ntest ? 2 : i < ntest + nval ? 1 : 0;
    free(order);
    return 0;
}

/* The nets' encoding and split for table tp, without networks yet. */
static gogh_nets *nets_for_table(const tput_catalog *tp, const gogh_train_params *p,
                                 gp_err *err)
{
    gogh_nets *n = xcalloc(1, sizeof *n);
    n->params = *p;
    tput_index *ix = tput_index_new(tp);
    size_t nt = tput_catalog_job_types(tp);
    gogh_jobtype *all = xmalloc((nt + 1) * sizeof *all);
    nt = tput_jobtypes(ix, all, nt);
    int rc = encode_accels(n, tp, ix, err);
    if (rc == 0)
        rc = encode_psi(&n->psi, tp, all, nt, err);
    if (rc == 0) {
        usable_types(n, ix, all, nt);
        rc = split_types(n, tp, p, err);
    }
    free(all);
    tput_index_free(ix);
    if (rc) {
        gogh_nets_free(n);
        return NULL;
    }
    return n;
}

/* ---- training and measuring ----------------------------------------------------------- */

/* Rows of P1 (net 1) or P2 (net 2) for each split. */
static void split_rows(const gogh_hist *h, int net, gogh_rows rows[3], size_t types[3])
{
    for (int s = 0; s < 3; s++) {
        size_t n;
        gogh_jobtype *ts = gogh_split_types(h, s, &n);
        gogh_rows_init(&rows[s], net == 1 ? gogh_p1_inputs(h->nets) : gogh_p2_inputs(h->nets));
        (net == 1 ? gogh_rows_p1 : gogh_rows_p2)(h, ts, n, &rows[s]);
        if (types)
            types[s] = n;
        free(ts);
    }
}

static void rows_free3(gogh_rows rows[3])
{
    for (int s = 0; s < 3; s++)
        gogh_rows_free(&rows[s]);
}

/* Trains one network on its training rows (validation choosing the epoch)
 * and measures it on every split; returns the training time. */
static double train_net(gogh_net *net, gogh_rows rows[3], const gogh_train_params *p,
                        int order_stream, const gogh_net_progress *np, gogh_split_err err3[3])
{
    rng r;
    rng_seed_stream(&r, p->seed, (uint64_t)order_stream);
    double t0 = now_seconds();
    gogh_net_train(net, &rows[0], &rows[1], p, &r, np);
    double secs = now_seconds() - t0;
    for (int s = 0; s < 3; s++)
        gogh_rows_error(net, &rows[s], &err3[s]);
    return secs;
}

static gogh_net *new_net(int nin, const gogh_train_params *p, int init_stream)
{
    rng r;
    rng_seed_stream(&r, p->seed, (uint64_t)init_stream);
    return gogh_net_new(nin, p->hidden, p->layers, &r);
}

gogh_nets *gogh_nets_train(const tput_catalog *tp, const gogh_train_params *p,
                           gogh_train_report *rep, gp_err *err)
{
    return gogh_nets_train_shown(tp, p, NULL, rep, err);
}

gogh_nets *gogh_nets_train_shown(const tput_catalog *tp, const gogh_train_params *p,
                                 const gogh_progress *prog, gogh_train_report *rep,
                                 gp_err *err)
{
    assert(tp && p && rep);
    memset(rep, 0, sizeof *rep);
    if (gogh_train_params_check(p, err) || check_table(tp, err))
        return NULL;
    gogh_nets *n = nets_for_table(tp, p, err);
    if (!n)
        return NULL;
    gogh_hist *h = gogh_hist_new(n, tp);
    gogh_rows rows[3];
    /* P2 learns from P1's estimates, so P1 is trained first. */
    n->p1 = new_net(gogh_p1_inputs(n), p, STREAM_P1_INIT);
    split_rows(h, 1, rows, rep->types);
    /* each net has the same epochs over about as many rows: half each */
    gogh_net_progress np1 = {prog, 0, 0.5}, np2 = {prog, 0.5, 0.5};
    rep->p1_s = train_net(n->p1, rows, p, STREAM_P1_ORDER, &np1, rep->p1);
    rows_free3(rows);
    n->p2 = new_net(gogh_p2_inputs(n), p, STREAM_P2_INIT);
    double t0 = now_seconds();
    split_rows(h, 2, rows, NULL);
    double rows_s = now_seconds() - t0;
    rep->p2_s = rows_s + train_net(n->p2, rows, p, STREAM_P2_ORDER, &np2, rep->p2);
    rows_free3(rows);
    gogh_hist_free(h);
    return n;
}

int gogh_nets_eval(const gogh_nets *n, const tput_catalog *tp, gogh_train_report *rep,
                   gp_err *err)
{
    assert(n && tp && rep);
    memset(rep, 0, sizeof *rep);
    if (check_table(tp, err))
        return -1;
    gogh_hist *h = gogh_hist_new(n, tp);
    if (gogh_hist_check(h, err)) {
        gogh_hist_free(h);
        return -1;
    }
    gogh_rows rows[3];
    split_rows(h, 1, rows, rep->types);
    for (int s = 0; s < 3; s++)
        gogh_rows_error(n->p1, &rows[s], &rep->p1[s]);
    rows_free3(rows);
    split_rows(h, 2, rows, NULL);
    for (int s = 0; s < 3; s++)
        gogh_rows_error(n->p2, &rows[s], &rep->p2[s]);
    rows_free3(rows);
    gogh_hist_free(h);
    return 0;
}

void gogh_nets_free(gogh_nets *n)
{
    if (!n)
        return;
    gogh_net_free(n->p1);
    gogh_net_free(n->p2);
    free(n->types);
    free(n->split);
    free(n);
}

int gogh_nets_split_of(const gogh_nets *n, const gogh_jobtype *t)
{
    int i = gogh_nets_type(n, t);
    return i < 0 ? -1 : n->split[i];
}

/* ---- modes ---------------------------------------------------------------------------- */

static const char *const mode_names[] = {
    [GOGH_EST_ORACLE] = "oracle",
    [GOGH_EST_P1] = "p1",
    [GOGH_EST_P1P2] = "p1p2",
};

const char *gogh_est_mode_name(gogh_est_mode m)
{
    assert(m >= GOGH_EST_ORACLE && m <= GOGH_EST_P1P2);
    return mode_names[m];
}

int gogh_est_mode_parse(const char *s)
{
    for (int m = GOGH_EST_ORACLE; m <= GOGH_EST_P1P2; m++)
        if (strcmp(mode_names[m], s) == 0)
            return m;
    return -1;
}
