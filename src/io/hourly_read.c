/*
 * hourly_read.c — an hourly series from CSV (hourly_read.h), read with the
 * shared libcsv reader (csvread.h) so errors name file, line and column as
 * every importer's do.
 */
#include "hourly_read.h"
#include "csvread.h"

#include <stdlib.h>

const hourly_kind HOURLY_PRICE = {"usd_per_kwh", 0, 1e6};
const hourly_kind HOURLY_CARBON = {"g_co2e_per_kwh", 0, 1e5};
/* PUE is facility energy over IT energy: below 1 the facility would give
 * back energy its IT used, so such a value is refused, not clamped. */
const hourly_kind HOURLY_PUE = {"pue", 1, 10};

typedef struct hourly_acc {
    const hourly_kind *kind;
    double *v;
    size_t n, cap;
} hourly_acc;

/* One row: its hour must be the next one, its value in the kind's range. */
static int hourly_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                      const int *o, gp_err *err)
{
    (void)o;
    hourly_acc *a = ctx;
    int64_t hour;
    double v;
    if (csv_int(r, row, c[0], 0, HOURLY_MAX_ROWS - 1, &hour, err))
        return -1;
    if (hour != (int64_t)a->n)
        return csv_fail(r, row, c[0], err,
                        "column 'hour': expected hour %zu (one row per hour from 0, no gap "
                        "or repeat), got %lld", a->n, (long long)hour);
    if (csv_real(r, row, c[1], a->kind->min, a->kind->max, &v, err))
        return -1;
    grow_array((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v);
    a->v[a->n++] = v;
    return 0;
}

int hourly_read(const char *path, const hourly_kind *kind, hourly **out, gp_err *err)
{
    const char *req[] = {"hour", kind->column, NULL};
    hourly_acc a = {kind, NULL, 0, 0};
    if (csv_each(path, req, NULL, hourly_row, &a, err)) {
        free(a.v);
        return -1;
    }
    if (a.n == 0) {
        free(a.v);
        return gp_error(err, "%s:2:1: no hours (expected one row per hour from hour 0, "
                        "e.g. 24 for a day)", path);
    }
    hourly *s = hourly_new(0);
    free(s->v);
    s->v = a.v;
    s->n = a.n;
    *out = s;
    return 0;
}
