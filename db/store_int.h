/*
 * store_int.h — what the store's own files share and nobody else sees: the
 * store struct and statement helpers.
 */
#ifndef GP_STORE_INT_H
#define GP_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

struct store {
    sqlite3 *db;
    char *path;
};

int store_sql_error(store *s, gp_err *err, const char *what);
int store_exec(store *s, const char *sql, gp_err *err);
int store_prepare(store *s, const char *sql, sqlite3_stmt **st, gp_err *err);
/* Steps a write statement and resets it for the next row. */
int store_step_done(store *s, sqlite3_stmt *st, gp_err *err);
void store_bind_text(sqlite3_stmt *st, int i, const char *v);
const char *store_col_text(sqlite3_stmt *st, int i);
/* Runs a one-parameter "SELECT id ..." query; *id = 0 when no row. */
int store_lookup_id(store *s, const char *sql, const char *name, int64_t *id, gp_err *err);
/* store_savepoint() opens a nested transaction for one write function;
 * store_release(s, rc, err) commits it when rc == 0, else rolls it back,
 * and returns 0 or -1. */
int store_savepoint(store *s, gp_err *err);
int store_release(store *s, int rc, gp_err *err);

/* Runs a fixed "DELETE FROM <table> WHERE name = ?1"; an error naming `what`
 * when no row matched. */
int store_delete_named(store *s, const char *sql, const char *what, const char *name,
                       gp_err *err);

/* Trace rows for store_trace.c's callers inside the store (snapshots keep
 * their running tasks as a trace); the caller holds a savepoint. */
int store_insert_trace(store *s, gp_trace *t, int replace, gp_err *err);
int store_load_tasks(store *s, int64_t trace_id, gp_trace *t, gp_err *err);

#endif
