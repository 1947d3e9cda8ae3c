/*
 * store_rows.c — the two loops over an entity's child rows (the nodes of a
 * cluster, the tasks of a trace, the timeline of a run...): write a list
 * of rows with one prepared statement, read the rows of a query back.
 *
 * The entity files keep what differs — the SQL, which field goes to which
 * column — as small bind/read functions; the statement's life cycle and the
 * error handling are written once here.
 */
#include "store_int.h"

int store_read_rows(store *s, const char *sql, int64_t parent_id, store_read_fn read,
                    void *obj, const char *what, gp_err *err)
{
    assert(read && obj && what);
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    /* Child queries name their parent as ?1; whole-table ones (profiles)
     * take no parameter. */
    if (sqlite3_bind_parameter_count(st) > 0) {
        assert(parent_id > 0);
        sqlite3_bind_int64(st, 1, parent_id);
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        read(st, obj);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, what);
}

int store_write_rows(store *s, const char *sql, int64_t parent_id, const void *obj,
                     size_t n, store_bind_fn bind, size_t *failed, gp_err *err)
{
    assert(parent_id > 0 && obj && bind);
    assert(s->write_depth > 0);     /* the rows go with their parent or not at all */
    if (failed)
        *failed = n;
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    int rc = 0;
    size_t i;
    for (i = 0; i < n && rc == 0; i++) {
        sqlite3_bind_int64(st, 1, parent_id);
        rc = bind(s, st, obj, i, err);
        if (rc == 0)
            rc = store_step_done(s, st, err);
    }
    sqlite3_finalize(st);
    if (rc && failed)
        *failed = i - 1;
    return rc;
}
