/*
 * store_int.h — what the store's own files share and nobody else sees: the
 * store struct, statement helpers (store.c), entities found by name
 * (store_named.c) and the loops over child rows (store_rows.c).
 *
 * Conventions of these helpers, as of store.h: 0 on success, -1 with a
 * message in *err.  SQL given to them is always a fixed string of the
 * caller; values travel as bound parameters.  Preconditions (an open store,
 * a statement, a positive parent id) are assert()ed: breaking one is a bug
 * of the store, not a user error.
 */
#ifndef GP_STORE_INT_H
#define GP_STORE_INT_H

#include <assert.h>
#include <sqlite3.h>

#include "store.h"

struct store {
    sqlite3 *db;
    char *path;
    int txn_depth;              /* store_begin()s not yet committed or rolled back */
    int write_depth;            /* store_savepoint()s not yet released */
    /* A write transaction (BEGIN IMMEDIATE) is open.  store_begin() only
     * asks for one; the first write takes the lock (store_write_lock()),
     * so whatever a caller reads and parses before writing runs unlocked. */
    int txn_open;
    int txn_own;                /* the open one is a lone write's, committed by
                                 * its store_release() */
    /* Why the database cannot be written (a read-only file or directory),
     * or NULL when it can. */
    char *readonly_why;
    store_wait_fn on_wait;      /* told once when a write has to wait */
    void *wait_ctx;
    int wait_told;
    double wait_since;          /* when the current wait began */
    double wait_limit;          /* seconds a write waits at most */
};

/* ---- statements (store.c) ---- */

int store_sql_error(store *s, gp_err *err, const char *what);
int store_exec(store *s, const char *sql, gp_err *err);
int store_prepare(store *s, const char *sql, sqlite3_stmt **st, gp_err *err);
/* Steps a write statement and resets it for the next row. */
int store_step_done(store *s, sqlite3_stmt *st, gp_err *err);
void store_bind_text(sqlite3_stmt *st, int i, const char *v);
const char *store_col_text(sqlite3_stmt *st, int i);
/* A real that may be unknown: SQLite keeps a NaN as NULL, so NaN binds
 * as NULL and NULL reads back as NaN. */
void store_bind_real(sqlite3_stmt *st, int i, double v);
double store_col_real(sqlite3_stmt *st, int i);
/* A copy of a text column; NULL when the column is NULL. */
char *store_col_strdup(sqlite3_stmt *st, int i);
/* Steps an "INSERT ... RETURNING id" once, sets *id and finalizes it; the
 * error says "inserting <what>". */
int store_step_insert(store *s, sqlite3_stmt *st, int64_t *id, const char *what,
                      gp_err *err);
/* Runs a one-parameter "SELECT <integer> ..." query (?1 = name); *value = 0
 * when no row. */
int store_lookup_int(store *s, const char *sql, const char *name, int64_t *value,
                     gp_err *err);
/* Opens the write transaction (BEGIN IMMEDIATE, waiting for another
 * program's to end) unless one is open; refuses a read-only database with
 * why. */
int store_write_lock(store *s, gp_err *err);
/* store_savepoint() opens a nested transaction for one write function;
 * store_release(s, rc, err) commits it when rc == 0, else rolls it back,
 * and returns 0 or -1.  Every savepoint is released exactly once. */
int store_savepoint(store *s, gp_err *err);
int store_release(store *s, int rc, gp_err *err);

/* ---- entities found by name (store_named.c) ----
 *
 * Profiles, clusters, traces, throughput catalogs and snapshots have a
 * unique name.  The lookups below are the only place their messages are
 * worded: "no <noun> named '<name>'", "a <noun> named '<name>' already
 * exists...". */

/* The noun of a kind in messages: "GPU profile", "throughput catalog". */
const char *store_noun(store_kind kind);

/* "no <noun> named '<name>'", with the closest stored name when one is
 * near (core/suggest.h); returns -1. */
int store_no_such(store *s, store_kind kind, const char *name, gp_err *err);
/* " (did you mean 'x'?)" naming the kind's stored name closest to name,
 * or "" when none is near. */
const char *store_name_hint(store *s, store_kind kind, const char *name, char *buf, size_t len);
/* *id = the id of the kind's row named name, 0 when there is none. */
int store_find_id(store *s, store_kind kind, const char *name, int64_t *id, gp_err *err);
/* The same, but no such row is an error "no <noun> named '<name>'". */
int store_need_id(store *s, store_kind kind, const char *name, int64_t *id, gp_err *err);
/* Before writing an entity named name: *old = the id of the one already
 * there (0 when none), which is an error unless replace is set. */
int store_check_new(store *s, store_kind kind, const char *name, int replace, int64_t *old,
                    gp_err *err);
/* Writes the header row (name, source) of a new cluster, trace or
 * throughput catalog, deleting an old one first when replace is set (see
 * store_check_new); sets *id.  The caller holds a savepoint. */
int store_insert_named(store *s, store_kind kind, const char *name, const char *source,
                       int replace, int64_t *id, gp_err *err);
/* Deletes the kind's row named name (its children go by ON DELETE
 * CASCADE); "no <noun> named '<name>'" when there is none.  The caller
 * holds a savepoint; store_delete_entity() takes its own. */
int store_delete_named(store *s, store_kind kind, const char *name, gp_err *err);
int store_delete_entity(store *s, store_kind kind, const char *name, gp_err *err);

/* How store_load_named() builds one kind of entity: the one reader of
 * every "get by name" of store.h. */
typedef struct store_entity {
    store_kind kind;
    /* The header row: a fixed "SELECT ... WHERE <name> = ?1". */
    const char *sql;
    /* Builds the object from the header row the statement is on. */
    void *(*from_row)(sqlite3_stmt *st, const char *name);
    /* Loads its children (nodes, tasks, entries, placements). */
    int (*load_children)(store *s, void *obj, gp_err *err);
    void (*free)(void *obj);
} store_entity;

/* Finds the row of e->sql for name ("no <noun> named '<name>'" when there
 * is none), builds the object and loads its children.  *out is owned by
 * the caller; NULL on failure. */
int store_load_named(store *s, const store_entity *e, const char *name, void **out,
                     gp_err *err);

/* ---- child rows (store_rows.c) ---- */

/* Hands one result row to the object being loaded. */
typedef void (*store_read_fn)(sqlite3_stmt *st, void *obj);
/* Reads every row of the fixed query sql, ?1 bound to parent_id when the
 * query has a parameter; "reading <what>" on an SQL error. */
int store_read_rows(store *s, const char *sql, int64_t parent_id, store_read_fn read,
                    void *obj, const char *what, gp_err *err);

/* Binds parameters ?2... of row i of obj (?1 is the parent id); may refuse
 * the row with a message. */
typedef int (*store_bind_fn)(store *s, sqlite3_stmt *st, const void *obj, size_t i,
                             gp_err *err);
/* Writes n child rows of parent_id with the fixed statement sql.  Stops at
 * the first failure; *failed (when failed is not NULL) is then the index of
 * the row that failed, for a message naming it, or n when no row did. */
int store_write_rows(store *s, const char *sql, int64_t parent_id, const void *obj,
                     size_t n, store_bind_fn bind, size_t *failed, gp_err *err);

/* ---- traces inside the store (store_trace.c) ----
 *
 * Snapshots keep their running tasks as a trace; the caller holds a
 * savepoint. */
int store_insert_trace(store *s, gp_trace *t, int replace, gp_err *err);
/* Loads the tasks of trace t->id into t. */
int store_load_tasks(store *s, gp_trace *t, gp_err *err);

/* ---- sweeps (store_merge.c), shared with plans' points (store_plan.c) ---- */

struct store_sweep;
/* Creates the sweep, sweep_run and plan_point tables when missing. */
int store_sweep_tables(store *s, gp_err *err);
/* Records the sweep (once; a second put of its fingerprint changes nothing). */
int store_put_sweep(store *s, const struct store_sweep *sw, gp_err *err);

/* ---- reached only by the tests (and the benchmarks) ---- */

/* store_open_with() with the default options. */
int store_open(const char *path, store **out, int *created, gp_err *err);
int store_schema_version(store *s);

size_t store_trace_writer_count(const store_trace_writer *w);

#endif
