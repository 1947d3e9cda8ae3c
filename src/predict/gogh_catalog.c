/*
 * gogh_catalog.c — GOGH's Catalog (§2.1) as gogh_est.h's estimator: the
 * throughput of job j on accelerator class a, alone or next to job k, from
 * the table when the mode knows both jobs, else from P1 (eq. 1), refined by
 * P2 (eq. 3) as observations arrive, the refinements averaged (eq. 4).
 *
 * What a mode knows: the oracle every job type the table has; P1 and P1P2
 * the nets' training types.  Any other type is new: its history is that of
 * its nearest known job (gogh_psi.c), and as a co-located job in P1's
 * input it is represented by that job too.  Which network output answers
 * which job:
 *   j new, alone         P1(j1 = j, j3 = j0), j1's output
 *   j new, k known       P1(j1 = j, j3 = k): j1's output for j, j3's for k
 *   j known, k new       the same with the roles swapped
 *   both new             P1(j, k's stand-in) for j, P1(k, j's stand-in) for k
 * An entry keeps (new job, other job) in that order, whichever order the
 * caller names them in.
 *
 * Entries are made on first use and found by (accelerator, job, job) in a
 * hash table (core/hashtab.h); job types get small ids from a second one.
 * In P1P2 an observation on a1 becomes the answer there (the Catalog keeps
 * measurements) and adds one refinement to every other class's entry of
 * the same pair that was not measured; the answer is the mean of the
 * refinements, P1's estimate until there is one.
 *
 * Not here: training (gogh_est.c), the networks' inputs (gogh_rows.c).
 */
#include "gogh_int.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "gogh_est_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A job type the estimator has met.  Allocated one by one: its gogh_jobs
 * point at t. */
typedef struct est_type {
    gogh_jobtype t;
    int known;                  /* answered from the table in this mode */
    int in_table;               /* the table has it (alone somewhere) */
    gogh_job job;               /* as P1's j1 (new) or as itself (known) */
    gogh_job standin;           /* as P1's j3: itself or its nearest known job */
} est_type;

typedef struct est_entry {
    double p1[2];               /* P1's estimate: the entry's first job, second */
    double sum[2];              /* of P2's refinements */
    int nref;
    double meas[2];
    int measured;
} est_entry;

struct gogh_estimator {
    gogh_est_mode mode;
    const gogh_nets *nets;
    gogh_hist *h;               /* NULL without nets */
    tput_index *ix;             /* the truth */
    est_type **types;
    size_t ntypes, types_cap;
    hashtab *type_ix;           /* job type -> index in types */
    est_entry *entry;           /* in the order made */
    size_t nentries, entry_cap;
    hashtab *entry_ix;          /* entry_key -> index in entry */
    gogh_est_stats stats;
};

/* ---- job types ---------------------------------------------------------------------- */

static uint64_t hash_type(const gogh_jobtype *t)
{
    uint64_t h = core_str_hash(t->model);
    h = core_hash_word(h, (uint32_t)t->batch_size);
    return core_hash_word(h, (uint32_t)t->scale);
}

static int same_type(const void *key, size_t v, const void *ctx)
{
    const gogh_estimator *e = ctx;
    const gogh_jobtype *a = &e->types[v]->t, *b = key;
    return a->batch_size == b->batch_size && a->scale == b->scale &&
           strcmp(a->model, b->model) == 0;
}

/* How the mode and the nets see a type met for the first time. */
static void describe(const gogh_estimator *e, est_type *y)
{
    y->in_table = tput_known(e->ix, &y->t);
    y->known = e->mode == GOGH_EST_ORACLE ? y->in_table
                                          : gogh_nets_split_of(e->nets, &y->t) == 0;
    if (!e->h)
        return;
    if (y->known) {
        gogh_job_known(e->h, &y->t, &y->job);
        y->standin = y->job;
    } else {
        gogh_job_new(e->h, &y->t, &y->job);
        gogh_job_known(e->h, &e->nets->types[y->job.near], &y->standin);
    }
}

/* The id of job type t, met now if not before. */
static int type_id(gogh_estimator *e, const gogh_jobtype *t)
{
    size_t had = hashtab_find(e->type_ix, hash_type(t), t);
    if (had != HASHTAB_NONE)
        return (int)had;
    est_type *y = xcalloc(1, sizeof *y);
    y->t = *t;
    describe(e, y);
    if (!y->in_table)
        e->stats.unknown_types++;
    grow_array((void **)&e->types, &e->types_cap, e->ntypes + 1, sizeof *e->types);
    hashtab_put(e->type_ix, hash_type(&y->t), &y->t, e->ntypes);
    e->types[e->ntypes++] = y;
    return (int)e->ntypes - 1;
}

/* ---- entries ------------------------------------------------------------------------ */

/* (accelerator, first job, second job or -1 for alone), never 0. */
static uint64_t entry_key(int a, int x, int y)
{
    return (uint64_t)(a + 1) << 56 | (uint64_t)x << 28 | (uint64_t)(y + 1);
}

/* The entry of (a, x, y), which must have been made. */
static est_entry *entry_at(const gogh_estimator *e, int a, int x, int y)
{
    size_t i = hashtab_find(e->entry_ix, entry_key(a, x, y), NULL);
    assert(i != HASHTAB_NONE);
    return &e->entry[i];
}

/* P1's estimate of the pair (x, y) on a: x new or both new (gogh_catalog.c's
 * top for which output answers which job). */
static void p1_pair(const gogh_estimator *e, int a, int x, int y, double *out)
{
    const est_type *X = e->types[x];
    gogh_job none;
    gogh_job_empty(&none);
    if (y < 0) {
        gogh_p1_estimate(e->h, a, &X->job, &none, out);
        return;
    }
    const est_type *Y = e->types[y];
    if (Y->known) {
        gogh_p1_estimate(e->h, a, &X->job, &Y->job, out);
        return;
    }
    double mine[2], theirs[2];
    gogh_p1_estimate(e->h, a, &X->job, &Y->standin, mine);
    gogh_p1_estimate(e->h, a, &Y->job, &X->standin, theirs);
    out[0] = mine[0];
    out[1] = theirs[0];
}

/* The entry of (a, x, y), made (with P1's estimate) when new.  The pointer
 * lasts until the next entry is made. */
static est_entry *entry_of(gogh_estimator *e, int a, int x, int y)
{
    /* The key is the hash: entry_key is one to one. */
    size_t had = hashtab_put(e->entry_ix, entry_key(a, x, y), NULL, e->nentries);
    if (had != HASHTAB_NONE)
        return &e->entry[had];
    grow_array((void **)&e->entry, &e->entry_cap, e->nentries + 1, sizeof *e->entry);
    est_entry *en = &e->entry[e->nentries++];
    memset(en, 0, sizeof *en);
    p1_pair(e, a, x, y, en->p1);
    return en;
}

/* The entry's current values, and which kind of answer they are. */
static void entry_now(const est_entry *en, double *v, size_t **counter, gogh_est_stats *st)
{
    const double *from = en->p1;
    double mean[2];
    *counter = &st->from_p1;
    if (en->measured) {
        from = en->meas;
        *counter = &st->measured;
    } else if (en->nref) {
        mean[0] = en->sum[0] / en->nref;                /* eq. 4 */
        mean[1] = en->sum[1] / en->nref;
        from = mean;
        *counter = &st->refined;
    }
    v[0] = from[0];
    v[1] = from[1];
}

/* ---- the estimator ------------------------------------------------------------------ */

gogh_estimator *gogh_estimator_new(gogh_est_mode m, const tput_catalog *tp,
                                   const gogh_nets *nets, gp_err *err)
{
    assert(tp);
    if (m != GOGH_EST_ORACLE && m != GOGH_EST_P1 && m != GOGH_EST_P1P2) {
        gp_error(err, "unknown estimation mode %d", (int)m);
        return NULL;
    }
    if (!nets && m != GOGH_EST_ORACLE) {
        gp_error(err, "the %s estimator needs trained nets (gpuplan estimate train)",
                 gogh_est_mode_name(m));
        return NULL;
    }
    gogh_estimator *e = xcalloc(1, sizeof *e);
    e->mode = m;
    e->nets = nets;
    if (nets) {
        e->h = gogh_hist_new(nets, tp);
        if (gogh_hist_check(e->h, err)) {
            gogh_estimator_free(e);
            return NULL;
        }
        e->ix = e->h->ix;
    } else {
        e->ix = tput_index_new(tp);
    }
    e->type_ix = hashtab_new(same_type, e);
    e->entry_ix = hashtab_new(NULL, NULL);
    return e;
}

void gogh_estimator_free(gogh_estimator *e)
{
    if (!e)
        return;
    if (e->h)
        gogh_hist_free(e->h);
    else
        tput_index_free(e->ix);
    for (size_t i = 0; i < e->ntypes; i++)
        free(e->types[i]);
    free(e->types);
    hashtab_free(e->type_ix);
    free(e->entry);
    hashtab_free(e->entry_ix);
    free(e);
}

/* The entry order of (j, k): the new job first; *swap when that is k. */
static void orient(const gogh_estimator *e, int j, int k, int *x, int *y, int *swap)
{
    *swap = k >= 0 && e->types[j]->known && !e->types[k]->known;
    *x = *swap ? k : j;
    *y = *swap ? j : k;
}

double gogh_estimate(gogh_estimator *e, const char *accel, const gogh_jobtype *j,
                     const gogh_jobtype *k, double *tk)
{
    assert(e && accel && j);
    int jd = type_id(e, j), kd = k ? type_id(e, k) : -1;
    double v[2] = {0, 0};
    if (e->types[jd]->known && (kd < 0 || e->types[kd]->known)) {
        v[0] = k ? tput_pair(e->ix, accel, j, k, &v[1]) : tput_solo(e->ix, accel, j);
        e->stats.from_table++;
    } else {
        int a = e->h ? gogh_nets_accel(e->nets, accel) : -1;
        if (a < 0) {
            e->stats.unanswerable++;
        } else {
            int x, y, swap;
            size_t *counter;
            orient(e, jd, kd, &x, &y, &swap);
            entry_now(entry_of(e, a, x, y), v, &counter, &e->stats);
            (*counter)++;
            if (swap) {
                double t = v[0];
                v[0] = v[1];
                v[1] = t;
            }
        }
    }
    if (tk)
        *tk = v[1];
    return v[0];
}

/* P2 (eq. 3) from the measurement meas of pair (x, y) on a1: one
 * refinement on every other class not measured there. */
static void refine(gogh_estimator *e, int a1, int x, int y, const double *meas)
{
    int na = e->nets->naccel;
    for (int a = 0; a < na; a++)
        entry_of(e, a, x, y);   /* made first: making one may move the others */
    double before1[2], before2[2], out[2];
    size_t *counter;
    gogh_est_stats scratch;
    entry_now(entry_at(e, a1, x, y), before1, &counter, &scratch);
    gogh_job none;
    gogh_job_empty(&none);
    const gogh_job *j1 = &e->types[x]->job, *k = y < 0 ? &none : &e->types[y]->job;
    for (int a2 = 0; a2 < na; a2++) {
        est_entry *en = entry_at(e, a2, x, y);
        if (a2 == a1 || en->measured)
            continue;
        entry_now(en, before2, &counter, &scratch);
        gogh_p2_estimate(e->h, a1, a2, j1, k, before1, meas, before2, out);
        en->sum[0] += out[0];
        en->sum[1] += out[1];
        en->nref++;
        e->stats.refinements++;
    }
    est_entry *at = entry_at(e, a1, x, y);
    at->meas[0] = meas[0];
    at->meas[1] = meas[1];
    at->measured = 1;
}

void gogh_observe(gogh_estimator *e, const char *accel, const gogh_jobtype *j,
                  const gogh_jobtype *k, double tj, double tk)
{
    assert(e && accel && j);
    e->stats.observations++;
    if (e->mode != GOGH_EST_P1P2)
        return;
    int jd = type_id(e, j), kd = k ? type_id(e, k) : -1;
    int a1 = gogh_nets_accel(e->nets, accel);
    if (a1 < 0 || (e->types[jd]->known && (kd < 0 || e->types[kd]->known)))
        return;                 /* not estimated: the table answers it */
    int x, y, swap;
    orient(e, jd, kd, &x, &y, &swap);
    double meas[2] = {swap ? tk : tj, swap ? tj : (k ? tk : 0)};
    refine(e, a1, x, y, meas);
}

void gogh_estimator_stats(const gogh_estimator *e, gogh_est_stats *out)
{
    *out = e->stats;
}

int gogh_estimator_estimates(gogh_estimator *e, const gogh_jobtype *j)
{
    return !e->types[type_id(e, j)]->known;
}
