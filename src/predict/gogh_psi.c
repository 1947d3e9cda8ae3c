/*
 * gogh_psi.c — the attribute vector Psi of a job type (GOGH §2.2: model
 * family, batch size, scale) and the history GOGH's networks read (§2.3):
 * the known job types, their Psi and reference throughputs, and the most
 * similar known job of a new one.
 *
 * Similarity is Euclidean distance between Psi vectors.  A family differs
 * by sqrt(2) in the one-hot part, more than batch and scale can (each in
 * [0, 1]), so the nearest job is of the same family whenever one is known;
 * ties go to the earlier type in the table's order.
 *
 * Not here: what the networks do with them (gogh_rows.c).
 */
#include "gogh_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gogh_family_of(const char *model, char *out, size_t n)
{
    const char *tail = strstr(model, " (batch size ");
    size_t len = tail ? (size_t)(tail - model) : strlen(model);
    if (len >= n)
        len = n - 1;
    memcpy(out, model, len);
    out[len] = '\0';
}

static int family_index(const gogh_psi_enc *e, const char *model)
{
    char fam[GP_NAME_MAX];
    gogh_family_of(model, fam, sizeof fam);
    for (int f = 0; f < e->nfam; f++)
        if (strcmp(e->fam[f], fam) == 0)
            return f;
    return -1;
}

void gogh_psi(const gogh_psi_enc *e, const gogh_jobtype *t, double *out)
{
    int dim = gogh_psi_dim(e);
    memset(out, 0, (size_t)dim * sizeof *out);
    if (!t)
        return;                 /* j0 (§2.3): Psi = 0 */
    int f = family_index(e, t->model);
    if (f >= 0)
        out[f] = 1;             /* a family the table lacks: no one-hot bit */
    if (t->batch_size > 0) {
        double span = e->log_batch_hi - e->log_batch_lo;
        out[e->nfam] = span > 0 ? (log2(t->batch_size) - e->log_batch_lo) / span : 1;
    }
    if (t->scale > 1 && e->log_scale_hi > 0)
        out[e->nfam + 1] = log2(t->scale) / e->log_scale_hi;
}

/* ---- the history ------------------------------------------------------------- */

int gogh_nets_accel(const gogh_nets *n, const char *name)
{
    for (int a = 0; a < n->naccel; a++)
        if (strcmp(n->accel[a], name) == 0)
            return a;
    return -1;
}

static int same_type(const gogh_jobtype *a, const gogh_jobtype *b)
{
    return a->batch_size == b->batch_size && a->scale == b->scale &&
           strcmp(a->model, b->model) == 0;
}

int gogh_nets_type(const gogh_nets *n, const gogh_jobtype *t)
{
    for (size_t i = 0; i < n->ntypes; i++)
        if (same_type(&n->types[i], t))
            return (int)i;
    return -1;
}

double gogh_best_solo(const gogh_hist *h, const gogh_jobtype *t)
{
    double best = 0;
    for (int a = 0; a < h->nets->naccel; a++) {
        double v = tput_solo(h->ix, h->nets->accel[a], t);
        if (v > best)
            best = v;
    }
    return best;
}

gogh_hist *gogh_hist_new(const gogh_nets *n, const tput_catalog *tp)
{
    assert(n && tp);
    gogh_hist *h = xcalloc(1, sizeof *h);
    h->nets = n;
    h->tp = tp;
    h->ix = tput_index_new(tp);
    int dim = gogh_psi_dim(&n->psi);
    h->train = xmalloc((n->ntypes + 1) * sizeof *h->train);
    h->psi = xmalloc((n->ntypes * (size_t)dim + 1) * sizeof *h->psi);
    h->ref = xmalloc((n->ntypes + 1) * sizeof *h->ref);
    for (size_t i = 0; i < n->ntypes; i++) {
        gogh_psi(&n->psi, &n->types[i], h->psi + i * (size_t)dim);
        double best = gogh_best_solo(h, &n->types[i]);
        /* A type another table lacks is 0 everywhere: any scale will do
         * (gogh_job_known() says the same). */
        h->ref[i] = best > 0 ? best : 1;
        if (n->split[i] == 0)
            h->train[h->ntrain++] = (int)i;
    }
    return h;
}

void gogh_hist_free(gogh_hist *h)
{
    if (!h)
        return;
    tput_index_free(h->ix);
    free(h->train);
    free(h->psi);
    free(h->ref);
    free(h);
}

static double dist2(const double *a, const double *b, int dim)
{
    double s = 0;
    for (int i = 0; i < dim; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

void gogh_job_new(const gogh_hist *h, const gogh_jobtype *t, gogh_job *j)
{
    assert(h->ntrain > 0 && t);
    int dim = gogh_psi_dim(&h->nets->psi);
    j->t = t;
    gogh_psi(&h->nets->psi, t, j->psi);
    j->near = -1;
    double best = INFINITY;
    for (size_t i = 0; i < h->ntrain; i++) {
        int k = h->train[i];
        if (same_type(&h->nets->types[k], t))
            continue;           /* "most similar known job": another one */
        double d = dist2(j->psi, h->psi + (size_t)k * (size_t)dim, dim);
        if (d < best) {
            best = d;
            j->near = k;
        }
    }
    /* Training keeps at least two known types, so one is always left. */
    assert(j->near >= 0);
    j->ref = h->ref[j->near];
}

void gogh_job_known(const gogh_hist *h, const gogh_jobtype *t, gogh_job *j)
{
    j->t = t;
    gogh_psi(&h->nets->psi, t, j->psi);
    double best = gogh_best_solo(h, t);
    j->ref = best > 0 ? best : 1;
    j->near = gogh_nets_type(h->nets, t);
}

int gogh_hist_check(const gogh_hist *h, gp_err *err)
{
    for (size_t i = 0; i < h->ntrain; i++)
        if (gogh_best_solo(h, &h->nets->types[h->train[i]]) > 0)
            return 0;
    return gp_error(err, "throughput table '%s' has none of the job types the nets were "
                    "trained on (on their accelerator classes)", h->tp->name);
}

void gogh_job_empty(gogh_job *j)
{
    memset(j, 0, sizeof *j);
    j->ref = 1;
    j->near = -1;
}
