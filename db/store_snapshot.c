/*
 * store_snapshot.c — snapshots: a cluster with the tasks running on it and
 * their placements.  The running tasks are kept as a trace named
 * "snapshot:<name>" so they load and export like any trace.
 */
#include "store_int.h"

#include <math.h>
#include <string.h>

/* Snapshot names are limited (insert_snapshot checks) so this never cuts. */
#define SNAP_PREFIX "snapshot:"
#define SNAP_NAME_MAX (GP_NAME_MAX - (int)sizeof SNAP_PREFIX)

static void snapshot_trace_name(const char *snap, char *buf, size_t len)
{
    strlcpy0(buf, SNAP_PREFIX, len);
    size_t n = strlen(buf);
    strlcpy0(buf + n, snap, len - n);
}

static int bind_row(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const placement_row *r = &((const snapshot *)obj)->rows[i];
    sqlite3_bind_int(st, 2, r->task);
    sqlite3_bind_int(st, 3, r->node);
    sqlite3_bind_int(st, 4, r->gpu);
    sqlite3_bind_int(st, 5, r->gpu_milli);
    return 0;
}

static int bind_reading(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const gpu_reading *r = &((const snapshot *)obj)->readings[i];
    sqlite3_bind_int(st, 2, r->node);
    sqlite3_bind_int(st, 3, r->gpu);
    store_bind_real(st, 4, r->util_pct);
    store_bind_real(st, 5, r->power_w);
    store_bind_real(st, 6, r->clock_mhz);
    store_bind_real(st, 7, r->mem_used_mib);
    return 0;
}

static int insert_snapshot(store *s, snapshot *sn, int replace, gp_err *err)
{
    int64_t old, cid;
    if (store_check_new(s, STORE_SNAPSHOT, sn->name, replace, &old, err))
        return -1;
    if (strlen(sn->name) > SNAP_NAME_MAX)
        return gp_error(err, "snapshot name '%s' is longer than %d characters", sn->name,
                        SNAP_NAME_MAX);
    if (store_need_id(s, STORE_CLUSTER, sn->cluster_name, &cid, err)) {
        gp_error_prefix(err, "snapshot '%s'", sn->name);
        return -1;
    }
    if (old && store_delete_snapshot(s, sn->name, err))
        return -1;
    snapshot_trace_name(sn->name, sn->tasks->name, sizeof sn->tasks->name);
    if (store_insert_trace(s, sn->tasks, 1, err))
        return -1;
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO snapshot(name, cluster_id, trace_id, time_s)"
                      " VALUES (?1,?2,?3,?4) RETURNING id", &st, err))
        return -1;
    store_bind_text(st, 1, sn->name);
    sqlite3_bind_int64(st, 2, cid);
    sqlite3_bind_int64(st, 3, sn->tasks->id);
    sqlite3_bind_double(st, 4, sn->time_s);
    if (store_step_insert(s, st, &sn->id, "snapshot", err))
        return -1;
    if (store_write_rows(s, "INSERT INTO snapshot_placement(snapshot_id, task_idx,"
                         " node_idx, gpu_idx, gpu_milli) VALUES (?1,?2,?3,?4,?5)",
                         sn->id, sn, sn->nrows, bind_row, NULL, err))
        return -1;
    return store_write_rows(s, "INSERT INTO snapshot_gpu(snapshot_id, node_idx, gpu_idx,"
                            " util_pct, power_w, clock_mhz, mem_used_mib)"
                            " VALUES (?1,?2,?3,?4,?5,?6,?7)",
                            sn->id, sn, sn->nreadings, bind_reading, NULL, err);
}

int store_put_snapshot(store *s, snapshot *sn, int replace, gp_err *err)
{
    assert(sn && sn->tasks);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_snapshot(s, sn, replace, err), err);
}

static void read_row(sqlite3_stmt *st, void *obj)
{
    placement_row r = {sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
                       sqlite3_column_int(st, 2), sqlite3_column_int(st, 3)};
    snapshot_add_row(obj, &r);
}

static void read_reading(sqlite3_stmt *st, void *obj)
{
    gpu_reading r = {sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
                     store_col_real(st, 2), store_col_real(st, 3), store_col_real(st, 4),
                     store_col_real(st, 5)};
    snapshot_add_reading(obj, &r);
}

/* The running tasks, their placements, then the GPUs' readings. */
static int load_children(store *s, void *obj, gp_err *err)
{
    snapshot *sn = obj;
    if (store_load_tasks(s, sn->tasks, err))
        return -1;
    if (store_read_rows(s, "SELECT task_idx, node_idx, gpu_idx, gpu_milli FROM"
                        " snapshot_placement WHERE snapshot_id = ?1 ORDER BY rowid",
                        sn->id, read_row, sn, "reading placements", err))
        return -1;
    return store_read_rows(s, "SELECT node_idx, gpu_idx, util_pct, power_w, clock_mhz,"
                           " mem_used_mib FROM snapshot_gpu WHERE snapshot_id = ?1"
                           " ORDER BY node_idx, gpu_idx",
                           sn->id, read_reading, sn, "reading GPU readings", err);
}

static void *snapshot_from_row(sqlite3_stmt *st, const char *name)
{
    snapshot *sn = snapshot_new(name);
    sn->id = sqlite3_column_int64(st, 0);
    sn->time_s = sqlite3_column_double(st, 1);
    strlcpy0(sn->cluster_name, store_col_text(st, 2), sizeof sn->cluster_name);
    snapshot_trace_name(name, sn->tasks->name, sizeof sn->tasks->name);
    sn->tasks->id = sqlite3_column_int64(st, 3);
    return sn;
}

static void free_snapshot(void *sn)
{
    snapshot_free(sn);
}

static const store_entity snapshot_entity = {
    .kind = STORE_SNAPSHOT,
    .sql = "SELECT s.id, s.time_s, c.name, s.trace_id FROM snapshot s"
           " JOIN cluster c ON c.id = s.cluster_id WHERE s.name = ?1",
    .from_row = snapshot_from_row,
    .load_children = load_children,
    .free = free_snapshot,
};

int store_get_snapshot(store *s, const char *name, snapshot **out, gp_err *err)
{
    void *sn;
    int rc = store_load_named(s, &snapshot_entity, name, &sn, err);
    *out = sn;
    return rc;
}

/* Deleting the snapshot's trace cascades to the snapshot row itself. */
int store_delete_snapshot(store *s, const char *name, gp_err *err)
{
    char tname[GP_NAME_MAX + 16];
    int64_t id;
    if (store_need_id(s, STORE_SNAPSHOT, name, &id, err))
        return -1;
    snapshot_trace_name(name, tname, sizeof tname);
    return store_delete_entity(s, STORE_TRACE, tname, err);
}
