/*
 * store_trace.c — traces and their tasks, with utilization series stored as
 * one float32 little-endian BLOB per task (SPEC §4.1: compact, not a row per
 * sample).
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

/* The BLOB is defined little-endian so a database moves between machines. */
static void *series_to_blob(const util_series *u)
{
    assert(u->len > 0 && u->pct);
    unsigned char *b = xmalloc(u->len * 4);
    for (size_t i = 0; i < u->len; i++) {
        uint32_t v;
        memcpy(&v, &u->pct[i], 4);
        b[4 * i] = (unsigned char)v;
        b[4 * i + 1] = (unsigned char)(v >> 8);
        b[4 * i + 2] = (unsigned char)(v >> 16);
        b[4 * i + 3] = (unsigned char)(v >> 24);
    }
    return b;
}

static float *blob_to_series(const unsigned char *b, size_t n)
{
    assert(b && n > 0);
    float *f = xmalloc(n * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                     (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
        memcpy(&f[i], &v, 4);
    }
    return f;
}

/* Binds task k as row idx of the INSERT of TASK_INSERT_SQL (?1, the trace
 * id, is the caller's). */
static void bind_task_row(sqlite3_stmt *st, const task *k, size_t idx)
{
    sqlite3_bind_int64(st, 2, (int64_t)idx);
    store_bind_text(st, 3, k->name);
    sqlite3_bind_double(st, 4, k->arrival_s);
    sqlite3_bind_double(st, 5, k->duration_s);
    sqlite3_bind_int(st, 6, k->num_gpu);
    sqlite3_bind_int(st, 7, k->gpu_milli);
    sqlite3_bind_double(st, 8, k->gpu_mem_gib);
    sqlite3_bind_int64(st, 9, k->cpu_milli);
    sqlite3_bind_int64(st, 10, k->ram_mib);
    store_bind_text(st, 11, k->gpu_spec);
    store_bind_text(st, 12, k->qos);
    sqlite3_bind_double(st, 13, k->kappa);
    store_bind_text(st, 14, k->model);
    sqlite3_bind_int(st, 15, k->batch_size);
    sqlite3_bind_double(st, 16, k->min_tput);
    sqlite3_bind_double(st, 17, k->util_mean);
    sqlite3_bind_double(st, 18, k->util_peak);
    sqlite3_bind_double(st, 19, k->util_first);
    sqlite3_bind_double(st, 20, k->util.period_s);
    if (k->util.len)
        sqlite3_bind_blob(st, 21, series_to_blob(&k->util), (int)(k->util.len * 4), free);
    else
        sqlite3_bind_null(st, 21);
}

#define TASK_INSERT_SQL                                                                     \
    "INSERT INTO task(trace_id, idx, name, arrival_s, duration_s, num_gpu, gpu_milli,"     \
    " gpu_mem_gib, cpu_milli, ram_mib, gpu_spec, qos, kappa, model, batch_size, min_tput," \
    " util_mean, util_peak, util_first, util_period_s, util) VALUES (?1,?2,?3,?4,?5,?6,"   \
    "?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)"

static int bind_task(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    bind_task_row(st, &((const gp_trace *)obj)->tasks[i], i);
    return 0;
}

/* The GPU the trace was measured on ("" = not stated). */
static int set_ref_gpu(store *s, int64_t id, const char *ref_gpu, gp_err *err)
{
    if (!ref_gpu || !*ref_gpu)
        return 0;
    sqlite3_stmt *st;
    if (store_prepare(s, "UPDATE trace SET ref_gpu = ?2 WHERE id = ?1", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, id);
    store_bind_text(st, 2, ref_gpu);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

/* Inserts a trace row and its tasks; the caller holds a savepoint. */
int store_insert_trace(store *s, gp_trace *t, int replace, gp_err *err)
{
    assert(t);
    if (store_insert_named(s, STORE_TRACE, t->name, t->source, replace, &t->id, err) ||
        set_ref_gpu(s, t->id, t->ref_gpu, err))
        return -1;
    size_t failed;
    if (store_write_rows(s, TASK_INSERT_SQL, t->id, t, t->ntasks, bind_task, &failed, err)) {
        if (failed < t->ntasks)
            gp_error_prefix(err, "task '%s'", t->tasks[failed].name);
        return -1;
    }
    return 0;
}

/* ---- a trace written one task at a time ---- */

struct store_trace_writer {
    store *s;
    int64_t id;
    size_t ntasks;
    sqlite3_stmt *insert, *set_util;
};

int store_trace_writer_new(store *s, const char *name, const char *source, int replace,
                           store_trace_writer **out, gp_err *err)
{
    *out = NULL;
    if (store_savepoint(s, err))
        return -1;
    store_trace_writer *w = xcalloc(1, sizeof *w);
    w->s = s;
    if (store_insert_named(s, STORE_TRACE, name, source, replace, &w->id, err) ||
        store_prepare(s, TASK_INSERT_SQL, &w->insert, err) ||
        store_prepare(s, "UPDATE task SET util = ?3, util_mean = ?4, util_peak = ?5,"
                      " util_first = ?6 WHERE trace_id = ?1 AND idx = ?2", &w->set_util,
                      err)) {
        store_trace_writer_end(w, -1, NULL);
        return -1;
    }
    *out = w;
    return 0;
}

int store_trace_writer_set_ref_gpu(store_trace_writer *w, const char *ref_gpu, gp_err *err)
{
    return set_ref_gpu(w->s, w->id, ref_gpu, err);
}

size_t store_trace_writer_count(const store_trace_writer *w)
{
    return w->ntasks;
}

int store_trace_writer_add(store_trace_writer *w, const task *k, gp_err *err)
{
    sqlite3_bind_int64(w->insert, 1, w->id);
    bind_task_row(w->insert, k, w->ntasks);
    if (store_step_done(w->s, w->insert, err)) {
        gp_error_prefix(err, "task '%s'", k->name);
        return -1;
    }
    w->ntasks++;
    return 0;
}

int store_trace_writer_set_util(store_trace_writer *w, size_t idx, const task *k, gp_err *err)
{
    assert(idx < w->ntasks && k->util.len > 0);
    sqlite3_stmt *st = w->set_util;
    sqlite3_bind_int64(st, 1, w->id);
    sqlite3_bind_int64(st, 2, (int64_t)idx);
    sqlite3_bind_blob(st, 3, series_to_blob(&k->util), (int)(k->util.len * 4), free);
    sqlite3_bind_double(st, 4, k->util_mean);
    sqlite3_bind_double(st, 5, k->util_peak);
    sqlite3_bind_double(st, 6, k->util_first);
    if (store_step_done(w->s, st, err)) {
        gp_error_prefix(err, "task '%s'", k->name);
        return -1;
    }
    return 0;
}

int store_trace_writer_end(store_trace_writer *w, int rc, gp_err *err)
{
    if (!w)
        return rc ? -1 : 0;
    sqlite3_finalize(w->insert);
    sqlite3_finalize(w->set_util);
    if (rc == 0 && w->ntasks == 0)
        rc = gp_error(err, "a trace needs at least one task");
    rc = store_release(w->s, rc, err);
    free(w);
    return rc;
}

int store_put_trace(store *s, gp_trace *t, int replace, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, store_insert_trace(s, t, replace, err), err);
}

/* Appends the task of the current row to the trace (tasks moved in, not
 * copied). */
static void read_task(sqlite3_stmt *st, void *obj)
{
    gp_trace *t = obj;
    grow_array((void **)&t->tasks, &t->tasks_cap, t->ntasks + 1, sizeof *t->tasks);
    task *k = &t->tasks[t->ntasks++];
    task_init(k);
    strlcpy0(k->name, store_col_text(st, 0), sizeof k->name);
    k->arrival_s = sqlite3_column_double(st, 1);
    k->duration_s = sqlite3_column_double(st, 2);
    k->num_gpu = sqlite3_column_int(st, 3);
    k->gpu_milli = sqlite3_column_int(st, 4);
    k->gpu_mem_gib = sqlite3_column_double(st, 5);
    k->cpu_milli = sqlite3_column_int64(st, 6);
    k->ram_mib = sqlite3_column_int64(st, 7);
    const char *spec = store_col_text(st, 8);
    k->gpu_spec = *spec ? xstrdup(spec) : NULL;
    strlcpy0(k->qos, store_col_text(st, 9), sizeof k->qos);
    k->kappa = sqlite3_column_double(st, 10);
    strlcpy0(k->model, store_col_text(st, 11), sizeof k->model);
    k->batch_size = sqlite3_column_int(st, 12);
    k->min_tput = sqlite3_column_double(st, 13);
    k->util_mean = sqlite3_column_double(st, 14);
    k->util_peak = sqlite3_column_double(st, 15);
    k->util_first = sqlite3_column_double(st, 16);
    k->util.period_s = sqlite3_column_double(st, 17);
    size_t bytes = (size_t)sqlite3_column_bytes(st, 18);
    if (bytes >= 4) {
        k->util.len = bytes / 4;
        k->util.pct = blob_to_series(sqlite3_column_blob(st, 18), k->util.len);
    }
}

int store_load_tasks(store *s, gp_trace *t, gp_err *err)
{
    assert(t);
    return store_read_rows(s, "SELECT name, arrival_s, duration_s, num_gpu, gpu_milli,"
                           " gpu_mem_gib, cpu_milli, ram_mib, gpu_spec, qos, kappa, model,"
                           " batch_size, min_tput, util_mean, util_peak, util_first,"
                           " util_period_s, util FROM task WHERE trace_id = ?1 ORDER BY idx",
                           t->id, read_task, t, "reading tasks", err);
}

static int load_trace_tasks(store *s, void *t, gp_err *err)
{
    return store_load_tasks(s, t, err);
}

static void *trace_from_row(sqlite3_stmt *st, const char *name)
{
    gp_trace *t = trace_new(name);
    t->id = sqlite3_column_int64(st, 0);
    t->source = store_col_strdup(st, 1);
    strlcpy0(t->ref_gpu, store_col_text(st, 2), sizeof t->ref_gpu);
    return t;
}

static void free_trace(void *t)
{
    trace_free(t);
}

static const store_entity trace_entity = {
    .kind = STORE_TRACE,
    .sql = "SELECT id, source, ref_gpu FROM trace WHERE name = ?1",
    .from_row = trace_from_row,
    .load_children = load_trace_tasks,
    .free = free_trace,
};

int store_get_trace(store *s, const char *name, gp_trace **out, gp_err *err)
{
    void *t;
    int rc = store_load_named(s, &trace_entity, name, &t, err);
    *out = t;
    return rc;
}

int store_delete_trace(store *s, const char *name, gp_err *err)
{
    return store_delete_entity(s, STORE_TRACE, name, err);
}
