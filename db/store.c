/*
 * store.c — opening, migrating and transaction handling of the SQLite store,
 * plus the small statement helpers the entity files (store_*.c) share.
 * Entities found by name are store_named.c's, loops over child rows
 * store_rows.c's.
 *
 * The schema text comes from db/schema.sql (compiled in by the Makefile as
 * store_schema_sql); migrations from one version to the next are listed in
 * `migrations` below and run in order inside one transaction.
 */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char store_schema_sql[];

/* Forward migrations: migrations[i] takes a database from version i + 1 to
 * version i + 2.  Version 1 is schema.sql itself. */
static const char *const migrations[] = {
    /* 1 -> 2: PEACE sets (SPEC §5.5, peace/peace.h).  A set names the GPU
     * profile it was measured on and the power caps that GPU accepts; its
     * workloads, profile rows (one workload alone on a share of the SMs at
     * one clock) and co-location rows (2 or 3 workloads with an SM split,
     * all shares 100 for no partition, at one clock) are children kept in
     * the set's order (idx, seq).  A co-location row's workloads are
     * indices into the set's workloads; w3, share3 and tput3 are NULL for
     * a pair.  Trained models are BLOBs of the set, named uniquely within
     * it; deleting a set deletes them. */
    "CREATE TABLE peace_set ("
    "  id             INTEGER PRIMARY KEY,"
    "  name           TEXT NOT NULL UNIQUE,"
    "  gpu_profile_id INTEGER NOT NULL REFERENCES gpu_profile(id),"
    "  cap_min_w      REAL NOT NULL CHECK (cap_min_w >= 0),"
    "  cap_max_w      REAL NOT NULL CHECK (cap_max_w > cap_min_w),"
    "  source         TEXT,"
    "  created        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"
    ");"
    "CREATE INDEX peace_set_gpu_profile ON peace_set(gpu_profile_id);"
    "CREATE TABLE peace_workload ("
    "  set_id     INTEGER NOT NULL REFERENCES peace_set(id) ON DELETE CASCADE,"
    "  idx        INTEGER NOT NULL,"
    "  name       TEXT NOT NULL,"
    "  kind       TEXT NOT NULL CHECK (kind IN ('train', 'inf', 'cuda')),"
    "  compute_hi INTEGER NOT NULL CHECK (compute_hi IN (0, 1)),"
    "  memory_hi  INTEGER NOT NULL CHECK (memory_hi IN (0, 1)),"
    "  mem_gib    REAL NOT NULL CHECK (mem_gib >= 0),"
    "  PRIMARY KEY (set_id, idx),"
    "  UNIQUE (set_id, name)"
    ") WITHOUT ROWID;"
    "CREATE TABLE peace_profile ("
    "  set_id           INTEGER NOT NULL REFERENCES peace_set(id) ON DELETE CASCADE,"
    "  seq              INTEGER NOT NULL,"
    "  workload_idx     INTEGER NOT NULL,"
    "  share_pct        INTEGER NOT NULL CHECK (share_pct BETWEEN 10 AND 90),"
    "  freq_mhz         REAL NOT NULL CHECK (freq_mhz > 0),"
    "  tput             REAL NOT NULL CHECK (tput >= 0),"
    "  power_w          REAL NOT NULL CHECK (power_w >= 0),"
    "  sm_active_pct    REAL NOT NULL,"
    "  sm_occupancy_pct REAL NOT NULL,"
    "  fp32_active_pct  REAL NOT NULL,"
    "  mem_bw_gbps      REAL NOT NULL,"
    "  mem_busy_pct     REAL NOT NULL,"
    "  pcie_tx_mbps     REAL NOT NULL,"
    "  pcie_rx_mbps     REAL NOT NULL,"
    "  PRIMARY KEY (set_id, seq)"
    ") WITHOUT ROWID;"
    "CREATE TABLE peace_coloc ("
    "  set_id   INTEGER NOT NULL REFERENCES peace_set(id) ON DELETE CASCADE,"
    "  seq      INTEGER NOT NULL,"
    "  n        INTEGER NOT NULL CHECK (n BETWEEN 2 AND 3),"
    "  w1       INTEGER NOT NULL,"
    "  w2       INTEGER NOT NULL,"
    "  w3       INTEGER,"
    "  share1   INTEGER NOT NULL,"
    "  share2   INTEGER NOT NULL,"
    "  share3   INTEGER,"
    "  freq_mhz REAL NOT NULL CHECK (freq_mhz > 0),"
    "  tput1    REAL NOT NULL,"
    "  tput2    REAL NOT NULL,"
    "  tput3    REAL,"
    "  power_w  REAL NOT NULL CHECK (power_w >= 0),"
    "  PRIMARY KEY (set_id, seq)"
    ") WITHOUT ROWID;"
    "CREATE TABLE peace_model ("
    "  id      INTEGER PRIMARY KEY,"
    "  set_id  INTEGER NOT NULL REFERENCES peace_set(id) ON DELETE CASCADE,"
    "  name    TEXT NOT NULL,"
    "  params  TEXT NOT NULL DEFAULT '',"
    "  model   BLOB NOT NULL,"
    "  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
    "  UNIQUE (set_id, name)"
    ");",
    /* 2 -> 3: a GPU profile's relative speed against a V100, for tasks
     * without a throughput-table job type on mixed clusters. */
    "ALTER TABLE gpu_profile ADD COLUMN speed REAL NOT NULL DEFAULT 1 CHECK (speed > 0);"
    /* The built-in profiles' speeds (core/model.c) and the K80 of the
     * gavel-like samples, for databases seeded before profiles had one. */
    "UPDATE gpu_profile SET speed = CASE name WHEN 'P100' THEN 0.94 WHEN 'T4' THEN 0.5"
    " WHEN 'A10' THEN 1.1 WHEN 'G2' THEN 1.1 WHEN 'G3' THEN 2.0 WHEN 'A100-40GB' THEN 2.0"
    " WHEN 'H100' THEN 4.0 WHEN 'K80' THEN 0.30 ELSE speed END;",
    /* 3 -> 4: GOGH's trained estimation nets (predict/gogh_est.h), by a
     * name unique in the store, with the throughput catalog they were
     * trained on (deleting it deletes them: they describe that table and
     * no other), a text of their parameters, how many job types each split
     * had, the training times, the nets as a BLOB, and one row per network
     * and split of the training report (loss and MAE NULL for a split
     * without rows). */
    "CREATE TABLE gogh_nets ("
    "  id          INTEGER PRIMARY KEY,"
    "  name        TEXT NOT NULL UNIQUE,"
    "  catalog_id  INTEGER NOT NULL REFERENCES tput_catalog(id) ON DELETE CASCADE,"
    "  params      TEXT NOT NULL DEFAULT '',"
    "  types_train INTEGER NOT NULL CHECK (types_train >= 0),"
    "  types_val   INTEGER NOT NULL CHECK (types_val >= 0),"
    "  types_test  INTEGER NOT NULL CHECK (types_test >= 0),"
    "  p1_s        REAL NOT NULL CHECK (p1_s >= 0),"
    "  p2_s        REAL NOT NULL CHECK (p2_s >= 0),"
    "  nets        BLOB NOT NULL,"
    "  created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))"
    ");"
    "CREATE INDEX gogh_nets_catalog ON gogh_nets(catalog_id);"
    "CREATE TABLE gogh_nets_error ("
    "  nets_id INTEGER NOT NULL REFERENCES gogh_nets(id) ON DELETE CASCADE,"
    "  net     TEXT NOT NULL CHECK (net IN ('p1', 'p2')),"
    "  split   TEXT NOT NULL CHECK (split IN ('train', 'validation', 'test')),"
    "  loss    REAL CHECK (loss >= 0),"
    "  mae     REAL CHECK (mae >= 0),"
    "  rows    INTEGER NOT NULL CHECK (rows >= 0),"
    "  PRIMARY KEY (nets_id, net, split)"
    ") WITHOUT ROWID;",
    /* 4 -> 5: what a monitor read on each GPU of an imported snapshot
     * (nvidia-smi, DCGM): utilization, power, SM clock, memory used; NULL
     * where the source did not say. */
    "CREATE TABLE snapshot_gpu ("
    "  snapshot_id  INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,"
    "  node_idx     INTEGER NOT NULL,"
    "  gpu_idx      INTEGER NOT NULL,"
    "  util_pct     REAL,"
    "  power_w      REAL,"
    "  clock_mhz    REAL,"
    "  mem_used_mib REAL,"
    "  PRIMARY KEY (snapshot_id, node_idx, gpu_idx)"
    ") WITHOUT ROWID;",
    NULL,
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof *migrations) - 1)

char *store_default_path(void)
{
    const char *env = getenv("GPUPLAN_DB");
    if (env && *env)
        return xstrdup(env);
    const char *xdg = getenv("XDG_DATA_HOME");
    if (xdg && *xdg)
        return xasprintf("%s/gpuplan/gpuplan.db", xdg);
    const char *home = getenv("HOME");
    return xasprintf("%s/.local/share/gpuplan/gpuplan.db", home && *home ? home : ".");
}

int store_sql_error(store *s, gp_err *err, const char *what)
{
    assert(s && s->db && what);
    return gp_error(err, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

int store_exec(store *s, const char *sql, gp_err *err)
{
    assert(s && s->db && sql);
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        gp_error(err, "%s: %s", s->path, msg ? msg : "SQL error");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int store_prepare(store *s, const char *sql, sqlite3_stmt **st, gp_err *err)
{
    assert(s && s->db && sql && st);
    if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
        return store_sql_error(s, err, "prepare");
    return 0;
}

int store_step_done(store *s, sqlite3_stmt *st, gp_err *err)
{
    assert(s && st);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sql_error(s, err, "write");
    return 0;
}

void store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
    assert(st && i >= 1);
    sqlite3_bind_text(st, i, v ? v : "", -1, SQLITE_TRANSIENT);
}

const char *store_col_text(sqlite3_stmt *st, int i)
{
    assert(st && i >= 0);
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

char *store_col_strdup(sqlite3_stmt *st, int i)
{
    assert(st && i >= 0);
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : xstrdup(store_col_text(st, i));
}

int store_step_insert(store *s, sqlite3_stmt *st, int64_t *id, const char *what,
                      gp_err *err)
{
    assert(s && st && id && what);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        char msg[64];
        snprintf(msg, sizeof msg, "inserting %s", what);
        return store_sql_error(s, err, msg);
    }
    assert(*id > 0);
    return 0;
}

int store_lookup_int(store *s, const char *sql, const char *name, int64_t *value,
                     gp_err *err)
{
    assert(name && value);
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = sqlite3_step(st);
    *value = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sql_error(s, err, "lookup");
    return 0;
}

int store_begin(store *s, gp_err *err)
{
    if (store_exec(s, "SAVEPOINT gp", err))
        return -1;
    s->txn_depth++;
    return 0;
}

/* A failed RELEASE leaves the transaction open, so the depth stays for the
 * caller's store_rollback(). */
int store_commit(store *s, gp_err *err)
{
    assert(s && s->txn_depth > 0);
    if (store_exec(s, "RELEASE gp", err))
        return -1;
    s->txn_depth--;
    return 0;
}

void store_rollback(store *s)
{
    assert(s && s->txn_depth > 0);
    sqlite3_exec(s->db, "ROLLBACK TO gp; RELEASE gp", NULL, NULL, NULL);
    s->txn_depth--;
}

int store_schema_version(store *s)
{
    assert(s && s->db);
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    return v;
}

static int set_version(store *s, int v, gp_err *err)
{
    /* PRAGMA takes no bound parameters; v is an integer we produce. */
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
    return store_exec(s, sql, err);
}

/* Brings the schema to STORE_SCHEMA_VERSION in one transaction. */
static int migrate(store *s, int *created, gp_err *err)
{
    int v = store_schema_version(s);
    if (v < 0)
        return store_sql_error(s, err, "not a gpuplan database");
    if (v > STORE_SCHEMA_VERSION)
        return gp_error(err, "%s: schema version %d is newer than this gpuplan "
                        "understands (%d); upgrade gpuplan", s->path, v,
                        STORE_SCHEMA_VERSION);
    *created = (v == 0);
    if (v == STORE_SCHEMA_VERSION)
        return 0;
    if (store_exec(s, "BEGIN IMMEDIATE", err))
        return -1;
    if (v == 0 && (store_exec(s, store_schema_sql, err) || set_version(s, 1, err)))
        goto fail;
    for (int from = v ? v : 1; from < STORE_SCHEMA_VERSION; from++) {
        if (from - 1 >= NMIGRATIONS || store_exec(s, migrations[from - 1], err) ||
            set_version(s, from + 1, err))
            goto fail;
    }
    return store_exec(s, "COMMIT", err);
fail:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    gp_error_prefix(err, "migrating to schema version %d", STORE_SCHEMA_VERSION);
    return -1;
}

int store_open(const char *path, store **out, int *created, gp_err *err)
{
    assert(path && out);
    int dummy;
    if (!created)
        created = &dummy;
    *out = NULL;
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char *dir = xstrndup(path, (size_t)(slash - path));
        int rc = mkdir_p(dir, err);
        free(dir);
        if (rc)
            return -1;
    }
    store *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        gp_error(err, "%s: cannot open database: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return -1;
    }
    sqlite3_busy_timeout(s->db, 5000);
    /* WAL lets the TUI read while a CLI import writes; foreign keys keep
     * nodes, tasks and runs from outliving their parents. */
    if (store_exec(s, "PRAGMA foreign_keys = ON", err) ||
        store_exec(s, "PRAGMA journal_mode = WAL", err) ||
        store_exec(s, "PRAGMA synchronous = NORMAL", err) ||
        migrate(s, created, err)) {
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void store_close(store *s)
{
    if (!s)
        return;
    /* Write functions release their savepoints before they return. */
    assert(s->write_depth == 0);
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

const char *store_sqlite_version(void)
{
    return sqlite3_libversion();
}

const char *store_path(const store *s)
{
    assert(s);
    return s->path;
}

/* Wraps one write function in a savepoint of its own. */
int store_savepoint(store *s, gp_err *err)
{
    if (store_exec(s, "SAVEPOINT w", err))
        return -1;
    s->write_depth++;
    return 0;
}

/* The write function is over either way, so its savepoint is counted as
 * released even when RELEASE fails: the error goes up and nothing retries. */
int store_release(store *s, int rc, gp_err *err)
{
    assert(s && s->write_depth > 0);
    s->write_depth--;
    if (rc == 0)
        return store_exec(s, "RELEASE w", err);
    sqlite3_exec(s->db, "ROLLBACK TO w; RELEASE w", NULL, NULL, NULL);
    return -1;
}
