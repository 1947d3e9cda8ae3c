/*
 * tput.c — a throughput table's lookups (tput.h): the entries sorted by
 * (accelerator, job type, co-located job type) and found by binary search.
 */
#include "tput.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct tput_index {
    const tput_catalog *c;
    const tput_entry **sorted;  /* every entry, by key */
    size_t n;
};

int tput_jobtype_of(const task *tk, gogh_jobtype *out)
{
    memset(out, 0, sizeof *out);
    if (!tk->model[0])
        return 0;
    strlcpy0(out->model, tk->model, sizeof out->model);
    out->batch_size = tk->batch_size;
    out->scale = tk->num_gpu > 1 ? tk->num_gpu : 1;
    return 1;
}

/* The key of an entry, or of a query (co_model "" = alone). */
typedef struct key {
    const char *accel, *model, *co_model;
    int batch, scale, co_batch, co_scale;
} key;

static key key_of(const tput_entry *e)
{
    return (key){e->accel, e->model, e->co_model, e->batch_size, e->scale, e->co_batch_size,
                 e->co_scale};
}

static int cmp_key(const key *a, const key *b)
{
    int c = strcmp(a->accel, b->accel);
    if (!c)
        c = strcmp(a->model, b->model);
    if (!c)
        c = (a->batch > b->batch) - (a->batch < b->batch);
    if (!c)
        c = (a->scale > b->scale) - (a->scale < b->scale);
    if (!c)
        c = strcmp(a->co_model, b->co_model);
    if (!c && a->co_model[0]) {
        c = (a->co_batch > b->co_batch) - (a->co_batch < b->co_batch);
        if (!c)
            c = (a->co_scale > b->co_scale) - (a->co_scale < b->co_scale);
    }
    return c;
}

static int cmp_entries(const void *pa, const void *pb)
{
    key a = key_of(*(const tput_entry *const *)pa), b = key_of(*(const tput_entry *const *)pb);
    return cmp_key(&a, &b);
}

tput_index *tput_index_new(const tput_catalog *c)
{
    tput_index *ix = xcalloc(1, sizeof *ix);
    ix->c = c;
    ix->n = c ? c->nentries : 0;
    ix->sorted = xmalloc((ix->n ? ix->n : 1) * sizeof *ix->sorted);
    for (size_t i = 0; i < ix->n; i++)
        ix->sorted[i] = &c->entries[i];
    qsort(ix->sorted, ix->n, sizeof *ix->sorted, cmp_entries);
    return ix;
}

void tput_index_free(tput_index *ix)
{
    if (!ix)
        return;
    free(ix->sorted);
    free(ix);
}

static const tput_entry *find(const tput_index *ix, const key *q)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        key k = key_of(ix->sorted[mid]);
        int c = cmp_key(&k, q);
        if (c == 0)
            return ix->sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

double tput_solo(const tput_index *ix, const char *accel, const gogh_jobtype *j)
{
    key q = {accel, j->model, "", j->batch_size, j->scale, 0, 0};
    const tput_entry *e = find(ix, &q);
    return e ? e->tput : 0;
}

double tput_pair(const tput_index *ix, const char *accel, const gogh_jobtype *j,
                 const gogh_jobtype *k, double *tk)
{
    key q = {accel, j->model, k->model, j->batch_size, j->scale, k->batch_size, k->scale};
    const tput_entry *e = find(ix, &q);
    double tj = 0, other = 0;
    if (e) {
        tj = e->tput;
        other = e->co_tput;
    } else {
        /* Stored the other way round: (k with j). */
        key r = {accel, k->model, j->model, k->batch_size, k->scale, j->batch_size, j->scale};
        if ((e = find(ix, &r))) {
            tj = e->co_tput;
            other = e->tput;
        }
    }
    if (tk)
        *tk = other;
    return tj;
}

int tput_known(const tput_index *ix, const gogh_jobtype *j)
{
    const char *accel[32];
    size_t na = tput_accels(ix, accel, 32);
    for (size_t a = 0; a < na; a++)
        if (tput_solo(ix, accel[a], j) > 0)
            return 1;
    return 0;
}

size_t tput_accels(const tput_index *ix, const char **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; ix->c && i < ix->c->nentries; i++) {
        const char *a = ix->c->entries[i].accel;
        size_t k = 0;
        while (k < n && strcmp(out[k], a) != 0)
            k++;
        if (k == n && n < cap)
            out[n++] = a;
    }
    return n;
}

size_t tput_jobtypes(const tput_index *ix, gogh_jobtype *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; ix->c && i < ix->c->nentries; i++) {
        const tput_entry *e = &ix->c->entries[i];
        size_t k = 0;
        while (k < n && !(out[k].batch_size == e->batch_size && out[k].scale == e->scale &&
                          strcmp(out[k].model, e->model) == 0))
            k++;
        if (k == n && n < cap) {
            memset(&out[n], 0, sizeof out[n]);
            strlcpy0(out[n].model, e->model, sizeof out[n].model);
            out[n].batch_size = e->batch_size;
            out[n].scale = e->scale;
            n++;
        }
    }
    return n;
}
