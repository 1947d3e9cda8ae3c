/*
 * store_snapshot.c — snapshots: a cluster with the tasks running on it and
 * their placements.  The running tasks are kept as a trace named
 * "snapshot:<name>" so they load and export like any trace.
 */
#include "store_int.h"

#include <stdio.h>
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

static int insert_rows(store *s, const snapshot *sn, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO snapshot_placement(snapshot_id, task_idx, node_idx,"
                      " gpu_idx, gpu_milli) VALUES (?1,?2,?3,?4,?5)", &st, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < sn->nrows && rc == 0; i++) {
        const placement_row *r = &sn->rows[i];
        sqlite3_bind_int64(st, 1, sn->id);
        sqlite3_bind_int(st, 2, r->task);
        sqlite3_bind_int(st, 3, r->node);
        sqlite3_bind_int(st, 4, r->gpu);
        sqlite3_bind_int(st, 5, r->gpu_milli);
        rc = store_step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_snapshot(store *s, snapshot *sn, int replace, gp_err *err)
{
    int64_t old, cid;
    if (store_lookup_id(s, "SELECT id FROM snapshot WHERE name = ?1", sn->name, &old, err) ||
        store_lookup_id(s, "SELECT id FROM cluster WHERE name = ?1", sn->cluster_name,
                        &cid, err))
        return -1;
    if (old && !replace)
        return gp_error(err, "a snapshot named '%s' already exists", sn->name);
    if (strlen(sn->name) > SNAP_NAME_MAX)
        return gp_error(err, "snapshot name '%s' is longer than %d characters", sn->name,
                        SNAP_NAME_MAX);
    if (!cid)
        return gp_error(err, "snapshot '%s': no cluster named '%s'", sn->name,
                        sn->cluster_name);
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
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        sn->id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return store_sql_error(s, err, "inserting snapshot");
    return insert_rows(s, sn, err);
}

int store_put_snapshot(store *s, snapshot *sn, int replace, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_snapshot(s, sn, replace, err), err);
}

static int load_rows(store *s, snapshot *sn, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT task_idx, node_idx, gpu_idx, gpu_milli FROM"
                      " snapshot_placement WHERE snapshot_id = ?1 ORDER BY rowid", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, sn->id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        placement_row r = {sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
                           sqlite3_column_int(st, 2), sqlite3_column_int(st, 3)};
        snapshot_add_row(sn, &r);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading placements");
}

int store_get_snapshot(store *s, const char *name, snapshot **out, gp_err *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    if (store_prepare(s, "SELECT s.id, s.time_s, c.name, s.trace_id FROM snapshot s"
                      " JOIN cluster c ON c.id = s.cluster_id WHERE s.name = ?1", &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE)
            return gp_error(err, "no snapshot named '%s'", name);
        return store_sql_error(s, err, "reading snapshot");
    }
    snapshot *sn = snapshot_new(name);
    sn->id = sqlite3_column_int64(st, 0);
    sn->time_s = sqlite3_column_double(st, 1);
    strlcpy0(sn->cluster_name, store_col_text(st, 2), sizeof sn->cluster_name);
    int64_t tid = sqlite3_column_int64(st, 3);
    sqlite3_finalize(st);
    snapshot_trace_name(name, sn->tasks->name, sizeof sn->tasks->name);
    sn->tasks->id = tid;
    if (store_load_tasks(s, tid, sn->tasks, err) || load_rows(s, sn, err)) {
        snapshot_free(sn);
        return -1;
    }
    *out = sn;
    return 0;
}

/* Deleting the snapshot's trace cascades to the snapshot row itself. */
int store_delete_snapshot(store *s, const char *name, gp_err *err)
{
    char tname[GP_NAME_MAX + 16];
    int64_t id;
    if (store_lookup_id(s, "SELECT id FROM snapshot WHERE name = ?1", name, &id, err))
        return -1;
    if (!id)
        return gp_error(err, "no snapshot named '%s'", name);
    snapshot_trace_name(name, tname, sizeof tname);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, store_delete_named(s, "DELETE FROM trace WHERE name = ?1",
                                               "snapshot trace", tname, err), err);
}
