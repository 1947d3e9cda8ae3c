/*
 * run.c — constructors and adders for saved runs (run.h).
 */
#include "run.h"
#include "util.h"

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

void run_add_outcome(run *r, const run_outcome *o)
{
    grow_array((void **)&r->outcomes, &r->outcomes_cap, r->noutcomes + 1, sizeof *o);
    r->outcomes[r->noutcomes++] = *o;
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
