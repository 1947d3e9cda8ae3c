/*
 * store_plan.c — store_plan.h: a plan's finished jobs, one row each, and
 * reading them back by the plan's fingerprint.
 *
 * Every task's JCT travels as one little-endian float64 BLOB (a plan of
 * 64 counts × 6 policies over a large trace would otherwise be a row per
 * task per job).  A JCT is kept at full precision because the SLA test
 * compares it with κ × the task's duration when the plan is read.
 */
#include "store_int.h"
#include "store_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *jct_to_blob(const double *v, size_t n)
{
    unsigned char *b = xmalloc(n ? n * 8 : 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], 8);
        for (int k = 0; k < 8; k++)
            b[i * 8 + (size_t)k] = (unsigned char)(u >> (8 * k));
    }
    return b;
}

static double *blob_to_jct(const unsigned char *b, size_t n)
{
    double *v = xmalloc(n ? n * sizeof *v : 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t u = 0;
        for (int k = 0; k < 8; k++)
            u |= (uint64_t)b[i * 8 + (size_t)k] << (8 * k);
        memcpy(&v[i], &u, 8);
    }
    return v;
}

static int insert_point(store *s, const char *fingerprint, const store_plan_point *pt,
                        gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT OR REPLACE INTO plan_point(fingerprint, job, gpus, gpus2, ran,"
                      " ntasks, jct_mean, jct_p95, avg_w, span_s, jct)"
                      " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)", &st, err))
        return -1;
    store_bind_text(st, 1, fingerprint);
    sqlite3_bind_int64(st, 2, pt->job);
    sqlite3_bind_int(st, 3, pt->gpus);
    sqlite3_bind_int(st, 4, pt->gpus2);
    sqlite3_bind_int64(st, 5, pt->ran);
    sqlite3_bind_int64(st, 6, (int64_t)pt->ntasks);
    store_bind_real(st, 7, pt->jct_mean);
    store_bind_real(st, 8, pt->jct_p95);
    sqlite3_bind_double(st, 9, pt->avg_w);
    sqlite3_bind_double(st, 10, pt->span_s);
    sqlite3_bind_blob(st, 11, jct_to_blob(pt->jct, pt->ntasks), (int)(pt->ntasks * 8), free);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

int store_put_plan_point(store *s, const store_sweep *sw, const store_plan_point *pt,
                         gp_err *err)
{
    if (pt->ntasks > (size_t)INT32_MAX / 8)
        return gp_error(err, "a plan point of %zu tasks is too large to save", pt->ntasks);
    if (store_savepoint(s, err))
        return -1;
    int rc = store_put_sweep(s, sw, err) || insert_point(s, sw->fingerprint, pt, err);
    return store_release(s, rc ? -1 : 0, err);
}

/* 1 when the database has the plan_point table, 0 when not, -1 on error. */
static int has_points(store *s, gp_err *err)
{
    int64_t n;
    if (store_lookup_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                         " AND name = ?1", "plan_point", &n, err))
        return -1;
    return n > 0;
}

/* Row st into *pt; -1 with a message when its BLOB has the wrong size. */
static int read_point(sqlite3_stmt *st, store_plan_point *pt, gp_err *err)
{
    memset(pt, 0, sizeof *pt);
    pt->job = sqlite3_column_int64(st, 0);
    pt->gpus = sqlite3_column_int(st, 1);
    pt->gpus2 = sqlite3_column_int(st, 2);
    pt->ran = sqlite3_column_int64(st, 3);
    int64_t n = sqlite3_column_int64(st, 4);
    pt->jct_mean = store_col_real(st, 5);
    pt->jct_p95 = store_col_real(st, 6);
    pt->avg_w = sqlite3_column_double(st, 7);
    pt->span_s = sqlite3_column_double(st, 8);
    const unsigned char *b = sqlite3_column_blob(st, 9);
    int bytes = sqlite3_column_bytes(st, 9);
    if (n < 0 || (int64_t)bytes != n * 8 || (n > 0 && !b))
        return gp_error(err, "plan point %lld: %d bytes of JCTs for %lld tasks",
                        (long long)pt->job, bytes, (long long)n);
    pt->ntasks = (size_t)n;
    pt->jct = blob_to_jct(b, pt->ntasks);
    return 0;
}

int store_get_plan_points(store *s, const char *fingerprint,
                          int (*each)(void *ctx, store_plan_point *pt, gp_err *err), void *ctx,
                          gp_err *err)
{
    int have = has_points(s, err);
    if (have <= 0)
        return have;
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT job, gpus, gpus2, ran, ntasks, jct_mean, jct_p95, avg_w,"
                      " span_s, jct FROM plan_point WHERE fingerprint = ?1 ORDER BY job",
                      &st, err))
        return -1;
    store_bind_text(st, 1, fingerprint);
    int rc, failed = 0;
    while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_plan_point pt;
        if (read_point(st, &pt, err))
            failed = 1;
        else if (each(ctx, &pt, err))
            failed = 1;
    }
    sqlite3_finalize(st);
    if (failed)
        return -1;
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading the plan's saved points");
}
