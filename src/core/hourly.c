/*
 * hourly.c — hourly series and their repetition over a run's clock
 * (hourly.h).  Pure.
 */
#include "hourly.h"

#include <assert.h>
#include <stdlib.h>

#include "util.h"

hourly *hourly_new(size_t n)
{
    hourly *s = xcalloc(1, sizeof *s);
    s->v = xcalloc(n ? n : 1, sizeof *s->v);
    s->n = n;
    return s;
}

void hourly_free(hourly *s)
{
    if (!s)
        return;
    free(s->v);
    free(s);
}

double hourly_at(const hourly *s, long h)
{
    assert(s && s->n > 0);
    long n = (long)s->n;
    long i = h % n;
    return s->v[i < 0 ? i + n : i];
}

double hourly_max(const hourly *s)
{
    double m = 0;
    for (size_t i = 0; s && i < s->n; i++)
        if (i == 0 || s->v[i] > m)
            m = s->v[i];
    return m;
}

double hourly_value_at(const hourly_value *v, long h)
{
    return v->series ? hourly_at(v->series, h) : v->constant;
}

double hourly_value_max(const hourly_value *v)
{
    return v->series ? hourly_max(v->series) : v->constant;
}
