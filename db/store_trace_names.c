/*
 * store_trace_names.c — a set of names, each with the line it came from,
 * its position among its kind and a few flag bits, kept in a private
 * temporary SQLite database (store.h: store_names).  For an importer that
 * streams a trace too large to hold: its duplicate checks and lookups by
 * name then cost SQLite's page cache, not memory growing with the rows.
 *
 * The temporary database is a connection of its own (an empty file name:
 * SQLite deletes it on close), not a TEMP table of the store's, so that
 * its one long transaction never touches the store's locks: the importer
 * validates everything before it takes the store's write lock.
 */
#include "store_int.h"

#include <stdlib.h>

/* Pages held in memory, in KiB (SQLite's negative cache_size); the rest
 * spills to the temporary file. */
#define NAMES_CACHE_KIB 16384

struct store_names {
    sqlite3 *db;
    sqlite3_stmt *add, *find, *set_flags;
    int64_t count;
};

static int names_fail(store_names *n, gp_err *err, const char *what)
{
    return gp_error(err, "temporary name index: %s: %s", what, sqlite3_errmsg(n->db));
}

int store_names_new(store_names **out, gp_err *err)
{
    store_names *n = xcalloc(1, sizeof *n);
    *out = NULL;
    char pragmas[160];
    snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
             " PRAGMA cache_size = -%d; BEGIN", NAMES_CACHE_KIB);
    int rc = sqlite3_open_v2("", &n->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(n->db, pragmas, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(n->db, "CREATE TABLE name(name TEXT PRIMARY KEY, line INTEGER"
                          " NOT NULL, idx INTEGER NOT NULL, flags INTEGER NOT NULL)"
                          " WITHOUT ROWID", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(n->db, "INSERT INTO name(name, line, idx, flags) VALUES"
                                " (?1, ?2, ?3, ?4) ON CONFLICT(name) DO NOTHING",
                                -1, &n->add, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(n->db, "SELECT line, idx, flags FROM name WHERE name = ?1",
                                -1, &n->find, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(n->db, "UPDATE name SET flags = ?2 WHERE name = ?1", -1,
                                &n->set_flags, NULL);
    if (rc != SQLITE_OK) {
        names_fail(n, err, "opening");
        store_names_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

void store_names_free(store_names *n)
{
    if (!n)
        return;
    sqlite3_finalize(n->add);
    sqlite3_finalize(n->find);
    sqlite3_finalize(n->set_flags);
    sqlite3_close(n->db);
    free(n);
}

int64_t store_names_count(const store_names *n)
{
    return n->count;
}

int store_names_find(store_names *n, const char *name, store_name_info *out, gp_err *err)
{
    sqlite3_stmt *st = n->find;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->line = sqlite3_column_int64(st, 0);
        out->index = sqlite3_column_int64(st, 1);
        out->flags = sqlite3_column_int(st, 2);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : names_fail(n, err, "reading");
}

int store_names_add(store_names *n, const char *name, int64_t line, int flags,
                    store_name_info *first, gp_err *err)
{
    sqlite3_stmt *st = n->add;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, line);
    sqlite3_bind_int64(st, 3, n->count);
    sqlite3_bind_int(st, 4, flags);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return names_fail(n, err, "writing");
    if (sqlite3_changes(n->db) == 1) {
        n->count++;
        return 0;
    }
    return store_names_find(n, name, first, err) < 0 ? -1 : 1;
}

int store_names_set_flags(store_names *n, const char *name, int flags, gp_err *err)
{
    sqlite3_stmt *st = n->set_flags;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, flags);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : names_fail(n, err, "writing");
}
