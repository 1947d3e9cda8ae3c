/*
 * store_run.c — saved runs: header, summary metrics, timeline, per-task
 * outcomes and the placement log.  Runs go by id (their names repeat: one
 * per policy), so they are the one entity not found through store_named.c.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

static int bind_metric(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const run *r = obj;
    store_bind_text(st, 2, r->metrics[i].key);
    sqlite3_bind_double(st, 3, r->metrics[i].value);
    return 0;
}

/* The timeline points a saved run keeps (run_points_keep). */
typedef struct kept_points {
    const run_point *points;
    size_t *keep;
} kept_points;

static int bind_point(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const kept_points *kp = obj;
    const run_point *p = &kp->points[kp->keep[i]];
    const double v[] = {p->t_s, p->active_gpus, p->awake_gpus, p->active_servers,
                        p->power_w, p->gpu_w, p->cpu_w, p->static_w, p->frag,
                        p->alloc_ratio, p->queued, p->mean_freq_mhz};
    sqlite3_bind_int64(st, 2, (int64_t)i);
    for (int k = 0; k < 12; k++)
        sqlite3_bind_double(st, 3 + k, v[k]);
    return 0;
}

static int bind_outcome(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const run_outcome *o = &((const run *)obj)->outcomes[i];
    sqlite3_bind_int(st, 2, o->task);
    sqlite3_bind_double(st, 3, o->wait_s);
    sqlite3_bind_double(st, 4, o->start_s);
    sqlite3_bind_double(st, 5, o->end_s);
    sqlite3_bind_double(st, 6, o->jct_s);
    sqlite3_bind_double(st, 7, o->slowdown);
    sqlite3_bind_int(st, 8, o->sla_violated);
    sqlite3_bind_int(st, 9, o->node);
    store_bind_text(st, 10, o->gpus);
    return 0;
}

static int bind_decision(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const run_decision *d = &((const run *)obj)->decisions[i];
    sqlite3_bind_int(st, 2, d->seq);
    sqlite3_bind_double(st, 3, d->t_s);
    sqlite3_bind_int(st, 4, d->task);
    sqlite3_bind_int(st, 5, d->node);
    store_bind_text(st, 6, d->gpus);
    if (d->reason)
        store_bind_text(st, 7, d->reason);
    else
        sqlite3_bind_null(st, 7);
    return 0;
}

/* The timeline, downsampled to at most RUN_SAVED_POINTS_MAX points. */
static int insert_points(store *s, const run *r, gp_err *err)
{
    kept_points kp = {r->points, xmalloc((r->npoints ? r->npoints : 1) * sizeof *kp.keep)};
    size_t n = run_points_keep(r->points, r->npoints, RUN_SAVED_POINTS_MAX, kp.keep);
    int rc = store_write_rows(s, "INSERT INTO run_point(run_id, seq, t_s, active_gpus,"
                              " awake_gpus, active_servers, power_w, gpu_w, cpu_w, static_w,"
                              " frag, alloc_ratio, queued, mean_freq_mhz) VALUES (?1,?2,?3,"
                              "?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
                              r->id, &kp, n, bind_point, NULL, err);
    free(kp.keep);
    return rc;
}

static int insert_children(store *s, const run *r, gp_err *err)
{
    return store_write_rows(s, "INSERT INTO run_metric(run_id, key, value) VALUES (?1,?2,?3)",
                            r->id, r, r->nmetrics, bind_metric, NULL, err) ||
           insert_points(s, r, err) ||
           store_write_rows(s, "INSERT INTO run_outcome(run_id, task_idx, wait_s, start_s,"
                            " end_s, jct_s, slowdown, sla_violated, node_idx, gpus) VALUES"
                            " (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
                            r->id, r, r->noutcomes, bind_outcome, NULL, err) ||
           store_write_rows(s, "INSERT INTO run_decision(run_id, seq, t_s, task_idx, node_idx,"
                            " gpus, reason) VALUES (?1,?2,?3,?4,?5,?6,?7)",
                            r->id, r, r->ndecisions, bind_decision, NULL, err)
               ? -1 : 0;
}

static int insert_run(store *s, run *r, gp_err *err)
{
    int64_t tid, cid;
    if (store_need_id(s, STORE_TRACE, r->trace_name, &tid, err) ||
        store_need_id(s, STORE_CLUSTER, r->cluster_name, &cid, err)) {
        gp_error_prefix(err, "run");
        return -1;
    }
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO run(name, policy, options, trace_id, cluster_id, seed,"
                      " engine_version, power_model) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"
                      " RETURNING id, created", &st, err))
        return -1;
    store_bind_text(st, 1, r->name);
    store_bind_text(st, 2, r->policy);
    store_bind_text(st, 3, r->options);
    sqlite3_bind_int64(st, 4, tid);
    sqlite3_bind_int64(st, 5, cid);
    sqlite3_bind_int64(st, 6, (int64_t)r->seed);
    store_bind_text(st, 7, r->engine_version);
    store_bind_text(st, 8, r->power_model);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->id = sqlite3_column_int64(st, 0);
        strlcpy0(r->created, store_col_text(st, 1), sizeof r->created);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return store_sql_error(s, err, "inserting run");
    return insert_children(s, r, err);
}

int store_put_run(store *s, run *r, gp_err *err)
{
    assert(r);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_run(s, r, err), err);
}

/* ---- reading ---- */

static void read_metric(sqlite3_stmt *st, void *r)
{
    run_set_metric(r, store_col_text(st, 0), sqlite3_column_double(st, 1));
}

static void read_point(sqlite3_stmt *st, void *r)
{
    run_point p = {
        sqlite3_column_double(st, 0), sqlite3_column_double(st, 1),
        sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
        sqlite3_column_double(st, 4), sqlite3_column_double(st, 5),
        sqlite3_column_double(st, 6), sqlite3_column_double(st, 7),
        sqlite3_column_double(st, 8), sqlite3_column_double(st, 9),
        sqlite3_column_double(st, 10), sqlite3_column_double(st, 11),
    };
    run_add_point(r, &p);
}

static void read_outcome(sqlite3_stmt *st, void *r)
{
    run_outcome o;
    memset(&o, 0, sizeof o);
    o.task = sqlite3_column_int(st, 0);
    o.wait_s = sqlite3_column_double(st, 1);
    o.start_s = sqlite3_column_double(st, 2);
    o.end_s = sqlite3_column_double(st, 3);
    o.jct_s = sqlite3_column_double(st, 4);
    o.slowdown = sqlite3_column_double(st, 5);
    o.sla_violated = sqlite3_column_int(st, 6);
    o.node = sqlite3_column_int(st, 7);
    strlcpy0(o.gpus, store_col_text(st, 8), sizeof o.gpus);
    run_add_outcome(r, &o);
}

static void read_decision(sqlite3_stmt *st, void *r)
{
    run_decision d;
    memset(&d, 0, sizeof d);
    d.seq = sqlite3_column_int(st, 0);
    d.t_s = sqlite3_column_double(st, 1);
    d.task = sqlite3_column_int(st, 2);
    d.node = sqlite3_column_int(st, 3);
    strlcpy0(d.gpus, store_col_text(st, 4), sizeof d.gpus);
    d.reason = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL
                                                        : (char *)store_col_text(st, 5);
    run_add_decision(r, &d);   /* copies reason */
}

static int load_children(store *s, run *r, gp_err *err)
{
    return store_read_rows(s, "SELECT key, value FROM run_metric WHERE run_id = ?1"
                           " ORDER BY key", r->id, read_metric, r, "reading run metrics",
                           err) ||
           store_read_rows(s, "SELECT t_s, active_gpus, awake_gpus, active_servers, power_w,"
                           " gpu_w, cpu_w, static_w, frag, alloc_ratio, queued, mean_freq_mhz"
                           " FROM run_point WHERE run_id = ?1 ORDER BY seq", r->id, read_point,
                           r, "reading run timeline", err) ||
           store_read_rows(s, "SELECT task_idx, wait_s, start_s, end_s, jct_s, slowdown,"
                           " sla_violated, node_idx, gpus FROM run_outcome WHERE run_id = ?1"
                           " ORDER BY task_idx", r->id, read_outcome, r,
                           "reading run outcomes", err) ||
           store_read_rows(s, "SELECT seq, t_s, task_idx, node_idx, gpus, reason FROM"
                           " run_decision WHERE run_id = ?1 ORDER BY seq", r->id,
                           read_decision, r, "reading run decisions", err)
               ? -1 : 0;
}

/* The id comes from the user (`gpuplan show run 12`): any value is asked
 * for, and a missing one is a message, not an assertion. */
int store_get_run(store *s, int64_t id, run **out, gp_err *err)
{
    assert(out);
    sqlite3_stmt *st;
    *out = NULL;
    if (store_prepare(s, "SELECT r.name, r.policy, r.options, t.name, c.name, r.seed,"
                      " r.engine_version, r.power_model, r.created FROM run r"
                      " JOIN trace t ON t.id = r.trace_id JOIN cluster c ON c.id = r.cluster_id"
                      " WHERE r.id = ?1", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE)
            return gp_error(err, "no run with id %lld", (long long)id);
        return store_sql_error(s, err, "reading run");
    }
    run *r = run_new(store_col_text(st, 1));
    r->id = id;
    strlcpy0(r->name, store_col_text(st, 0), sizeof r->name);
    r->options = xstrdup(store_col_text(st, 2));
    strlcpy0(r->trace_name, store_col_text(st, 3), sizeof r->trace_name);
    strlcpy0(r->cluster_name, store_col_text(st, 4), sizeof r->cluster_name);
    r->seed = (uint64_t)sqlite3_column_int64(st, 5);
    strlcpy0(r->engine_version, store_col_text(st, 6), sizeof r->engine_version);
    strlcpy0(r->power_model, store_col_text(st, 7), sizeof r->power_model);
    strlcpy0(r->created, store_col_text(st, 8), sizeof r->created);
    sqlite3_finalize(st);
    if (load_children(s, r, err)) {
        run_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

int store_delete_run(store *s, int64_t id, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_savepoint(s, err))
        return -1;
    int rc = store_prepare(s, "DELETE FROM run WHERE id = ?1", &st, err);
    if (rc == 0) {
        sqlite3_bind_int64(st, 1, id);
        rc = store_step_done(s, st, err);
        sqlite3_finalize(st);
        if (rc == 0 && sqlite3_changes(s->db) == 0)
            rc = gp_error(err, "no run with id %lld", (long long)id);
    }
    return store_release(s, rc, err);
}
