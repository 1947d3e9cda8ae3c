/*
 * run.c — constructors and adders for saved runs (run.h).
 */
#include "run.h"
#include "util.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

run *run_new(const char *policy)
{
    run *r = xcalloc(1, sizeof *r);
    strlcpy0(r->policy, policy, sizeof r->policy);
    strlcpy0(r->name, policy, sizeof r->name);
    strlcpy0(r->engine_version, GP_VERSION, sizeof r->engine_version);
    return r;
}

void run_free(run *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ndecisions; i++)
        free(r->decisions[i].reason);
    free(r->decisions);
    free(r->points);
    free(r->outcomes);
    free(r->metrics);
    free(r->options);
    free(r);
}

void run_add_point(run *r, const run_point *p)
{
    grow_array((void **)&r->points, &r->points_cap, r->npoints + 1, sizeof *p);
    r->points[r->npoints++] = *p;
}

/* The extremes of power and active GPUs in p[lo, hi) into keep, in
 * increasing order without repeats; returns how many (1 to 4). */
static size_t bucket_extremes(const run_point *p, size_t lo, size_t hi, size_t *keep)
{
    size_t ix[4] = {lo, lo, lo, lo};    /* power min, max; GPUs min, max */
    for (size_t i = lo + 1; i < hi; i++) {
        if (p[i].power_w < p[ix[0]].power_w)
            ix[0] = i;
        if (p[i].power_w > p[ix[1]].power_w)
            ix[1] = i;
        if (p[i].active_gpus < p[ix[2]].active_gpus)
            ix[2] = i;
        if (p[i].active_gpus > p[ix[3]].active_gpus)
            ix[3] = i;
    }
    size_t n = 0;
    for (size_t i = lo; i < hi && n < 4; i++)
        if (i == ix[0] || i == ix[1] || i == ix[2] || i == ix[3])
            keep[n++] = i;
    return n;
}

size_t run_points_keep(const run_point *p, size_t n, size_t max, size_t *keep)
{
    assert(max >= 6);
    if (n <= max) {
        for (size_t i = 0; i < n; i++)
            keep[i] = i;
        return n;
    }
    size_t inner = n - 2, buckets = (max - 2) / 4, k = 0;
    keep[k++] = 0;
    for (size_t b = 0; b < buckets; b++) {
        size_t lo = 1 + b * inner / buckets, hi = 1 + (b + 1) * inner / buckets;
        if (hi > lo)
            k += bucket_extremes(p, lo, hi, keep + k);
    }
    keep[k++] = n - 1;
    return k;
}

void run_add_outcome(run *r, const run_outcome *o)
{
    grow_array((void **)&r->outcomes, &r->outcomes_cap, r->noutcomes + 1, sizeof *o);
    r->outcomes[r->noutcomes++] = *o;
}

int run_decision_number(const run_decision *d)
{
    return d->seq + 1;
}

void run_add_decision(run *r, const run_decision *d)
{
    grow_array((void **)&r->decisions, &r->decisions_cap, r->ndecisions + 1, sizeof *d);
    run_decision *c = &r->decisions[r->ndecisions++];
    *c = *d;
    c->reason = d->reason ? xstrdup(d->reason) : NULL;
}

void run_set_metric(run *r, const char *key, double value)
{
    for (size_t i = 0; i < r->nmetrics; i++) {
        if (strcmp(r->metrics[i].key, key) == 0) {
            r->metrics[i].value = value;
            return;
        }
    }
    grow_array((void **)&r->metrics, &r->metrics_cap, r->nmetrics + 1, sizeof *r->metrics);
    run_metric *m = &r->metrics[r->nmetrics++];
    strlcpy0(m->key, key, sizeof m->key);
    m->value = value;
}

double run_metric_get(const run *r, const char *key, double fallback)
{
    for (size_t i = 0; i < r->nmetrics; i++)
        if (strcmp(r->metrics[i].key, key) == 0)
            return r->metrics[i].value;
    return fallback;
}
