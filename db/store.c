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
#include "core/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const char store_schema_sql[];

/* Forward migrations: migrations[i] takes a database from version i + 1 to
 * version i + 2.  Version 1 is schema.sql itself. */
static const char *const migrations[] = {
    /* 1 -> 2: PEACE sets (SPEC §5.5, core/peaceset.h).  A set names the GPU
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
    /* 5 -> 6: prices that are known or visibly not, and the GPU a trace
     * was measured on.  price_usd becomes NULL-able (NULL = unknown, where
     * 0 used to mean it) with the price's source and date beside it, so
     * the table is rebuilt (SQLite cannot drop a NOT NULL); foreign keys
     * are off while a migration runs (store.c's migrate()), and the ids,
     * which nodes and PEACE sets point to, are kept.  The built-in models
     * still at 0 get the catalog's price (core/model.c), every other 0
     * becomes unknown; a price a user set is kept.  trace.ref_gpu names
     * the GPU a trace's durations and utilizations were measured on (''
     * = not stated: the default reference, a V100; core/speed.h); the
     * sample traces state theirs. */
    "CREATE TABLE gpu_profile_v6 ("
    "  id              INTEGER PRIMARY KEY,"
    "  name            TEXT NOT NULL UNIQUE,"
    "  mem_gib         REAL NOT NULL CHECK (mem_gib > 0),"
    "  idle_w          REAL NOT NULL CHECK (idle_w >= 0),"
    "  max_w           REAL NOT NULL CHECK (max_w >= idle_w),"
    "  sleep_w         REAL NOT NULL DEFAULT 0 CHECK (sleep_w >= 0),"
    "  f_min_mhz       REAL NOT NULL CHECK (f_min_mhz > 0),"
    "  f_max_mhz       REAL NOT NULL CHECK (f_max_mhz >= f_min_mhz),"
    "  alpha_w_per_mhz REAL NOT NULL CHECK (alpha_w_per_mhz >= 0),"
    "  beta            REAL NOT NULL CHECK (beta > 0),"
    "  price_usd       REAL CHECK (price_usd >= 0),"
    "  tput_class      TEXT NOT NULL DEFAULT '',"
    "  speed           REAL NOT NULL DEFAULT 1 CHECK (speed > 0),"
    "  price_source    TEXT NOT NULL DEFAULT ''"
    ");"
    "INSERT INTO gpu_profile_v6(id, name, mem_gib, idle_w, max_w, sleep_w, f_min_mhz,"
    " f_max_mhz, alpha_w_per_mhz, beta, price_usd, tput_class, speed)"
    " SELECT id, name, mem_gib, idle_w, max_w, sleep_w, f_min_mhz, f_max_mhz,"
    " alpha_w_per_mhz, beta, NULLIF(price_usd, 0), tput_class, speed FROM gpu_profile;"
    "DROP TABLE gpu_profile;"
    "ALTER TABLE gpu_profile_v6 RENAME TO gpu_profile;"
    "UPDATE gpu_profile SET price_source = CASE name"
    " WHEN 'A100-40GB' THEN 'CorrGPU sec. III-B: the paper''s assumed price (its ref. 35), not a list price'"
    " WHEN 'K80' THEN 'half the K80 board''s launch list price (USD 5,000, NVIDIA, 17 Nov 2014)'"
    " ELSE price_source END WHERE price_usd = CASE name WHEN 'A100-40GB' THEN 2500"
    " WHEN 'K80' THEN 2500 END;"
    "ALTER TABLE trace ADD COLUMN ref_gpu TEXT NOT NULL DEFAULT '';"
    "UPDATE trace SET ref_gpu = CASE name WHEN 'corrgpu-example' THEN 'A100-40GB' ELSE 'V100'"
    " END WHERE name IN ('pai-like', 'openb-like', 'gavel-like', 'cats-testbed',"
    " 'corrgpu-example', 'peace-mix');",
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
    int code = sqlite3_errcode(s->db);
    if (code == SQLITE_BUSY)
        return gp_error(err, "%s: %s: another program has been writing to the database for "
                        "more than %g s; try again when it is done", s->path, what,
                        s->wait_limit);
    if (code == SQLITE_READONLY && s->readonly_why)
        return gp_error(err, "%s: %s: cannot write: %s", s->path, what, s->readonly_why);
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

void store_bind_real(sqlite3_stmt *st, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, v);
}

double store_col_real(sqlite3_stmt *st, int i)
{
    assert(st && i >= 0);
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
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

int store_write_lock(store *s, gp_err *err)
{
    assert(s && s->db);
    if (s->txn_open)
        return 0;
    if (store_check_writable(s, err))
        return -1;
    /* IMMEDIATE takes the write lock now, through the busy handler; a
     * deferred transaction would read first and then be refused at once
     * when another program wrote meanwhile. */
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return store_sql_error(s, err, "starting a write");
    s->txn_open = 1;
    return 0;
}

int store_check_writable(store *s, gp_err *err)
{
    assert(s);
    if (s->readonly_why)
        return gp_error(err, "%s: cannot write: %s", s->path, s->readonly_why);
    return 0;
}

/* The outermost level only asks for a transaction (the first write opens
 * it); a nested level is a savepoint inside the open one. */
int store_begin(store *s, gp_err *err)
{
    assert(s);
    if (s->txn_depth > 0 && (store_write_lock(s, err) || store_exec(s, "SAVEPOINT gp", err)))
        return -1;
    s->txn_depth++;
    return 0;
}

/* A failed COMMIT or RELEASE leaves the transaction open, so the depth
 * stays for the caller's store_rollback(). */
int store_commit(store *s, gp_err *err)
{
    assert(s && s->txn_depth > 0 && s->write_depth == 0);
    if (s->txn_depth > 1) {
        if (store_exec(s, "RELEASE gp", err))
            return -1;
    } else if (s->txn_open) {
        if (store_exec(s, "COMMIT", err))
            return -1;
        s->txn_open = 0;
    }
    s->txn_depth--;
    return 0;
}

void store_rollback(store *s)
{
    assert(s && s->txn_depth > 0);
    if (s->txn_depth > 1) {
        sqlite3_exec(s->db, "ROLLBACK TO gp; RELEASE gp", NULL, NULL, NULL);
    } else if (s->txn_open) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        s->txn_open = 0;
    }
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

/* The file's schema version into *v; an error (not an SQLite file, say)
 * apart from any value, since another program may store a negative one. */
static int read_version(store *s, int *v, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "PRAGMA user_version", &st, err))
        return -1;
    int rc = sqlite3_step(st);
    *v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "reading the schema version");
}

static int check_version(store *s, int v, gp_err *err)
{
    if (v < 0)
        return gp_error(err, "%s: not a gpuplan database: its schema version is %d, which "
                        "gpuplan never writes", s->path, v);
    if (v > STORE_SCHEMA_VERSION)
        return gp_error(err, "%s: schema version %d is newer than this gpuplan "
                        "understands (%d); upgrade gpuplan", s->path, v,
                        STORE_SCHEMA_VERSION);
    return 0;
}

/* A file without a schema version is new to gpuplan, but only an empty
 * one is ours to fill: another program's tables are refused rather than
 * joined by gpuplan's schema and sample data. */
static int refuse_foreign(store *s, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                      " ORDER BY rowid LIMIT 1", &st, err))
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        gp_error(err, "%s: not a gpuplan database: it holds another program's data (table "
                 "'%s') and no gpuplan schema version; give gpuplan a file of its own "
                 "(--db PATH)", s->path, store_col_text(st, 0));
    else if (rc != SQLITE_DONE)
        store_sql_error(s, err, "reading the schema");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int set_version(store *s, int v, gp_err *err)
{
    /* PRAGMA takes no bound parameters; v is an integer we produce. */
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
    return store_exec(s, sql, err);
}

/* Version v to STORE_SCHEMA_VERSION: schema.sql for an empty file, then
 * each migration; the caller holds the write transaction. */
static int upgrade(store *s, int v, gp_err *err)
{
    if (v == 0 && (store_exec(s, store_schema_sql, err) || set_version(s, 1, err)))
        return -1;
    for (int from = v ? v : 1; from < STORE_SCHEMA_VERSION; from++) {
        if (from - 1 >= NMIGRATIONS || store_exec(s, migrations[from - 1], err) ||
            set_version(s, from + 1, err))
            return -1;
    }
    return 0;
}

/* Before anything changes the file (its journal mode first): is it ours,
 * or empty?  migrate() asks again under the write lock.  The version and
 * the tables are read in one read transaction: another program creating
 * the database may commit between two reads, and tables without a
 * version would look like another program's data. */
static int check_ours(store *s, gp_err *err)
{
    int v;
    if (store_exec(s, "BEGIN", err))
        return -1;
    int rc = read_version(s, &v, err) || check_version(s, v, err) ||
             (v == 0 && refuse_foreign(s, err)) ? -1 : 0;
    sqlite3_exec(s->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
    return rc;
}

static int migrate_locked(store *s, const store_open_opts *o, int *created, gp_err *err);

/* Brings the schema to STORE_SCHEMA_VERSION, and fills a new database
 * (o->init), in one transaction. */
static int migrate(store *s, const store_open_opts *o, int *created, gp_err *err)
{
    int v;
    *created = 0;
    if (read_version(s, &v, err) || check_version(s, v, err))
        return -1;
    if (v == STORE_SCHEMA_VERSION)
        return 0;
    if (s->readonly_why)
        return gp_error(err, "%s: %s, and it cannot be written: %s", s->path,
                        v ? "its schema needs upgrading" : "it has no gpuplan schema yet",
                        s->readonly_why);
    /* A migration may rebuild a table others point to (SQLite's way of
     * changing a column): foreign keys are off while it runs, the only
     * place SQLite lets them be switched off (outside a transaction), and
     * checked whole before the commit. */
    if (store_exec(s, "PRAGMA foreign_keys = OFF", err))
        return -1;
    int rc = migrate_locked(s, o, created, err);
    if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK &&
        rc == 0)
        rc = store_sql_error(s, err, "turning foreign keys back on");
    return rc;
}

/* -1 with a message when a foreign key points nowhere, or on an error
 * reading them; else 0. */
static int dangling_keys(store *s, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "PRAGMA foreign_key_check", &st, err))
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        gp_error(err, "table %s points to a missing row of %s", store_col_text(st, 0),
                 store_col_text(st, 2));
    else if (rc != SQLITE_DONE)
        store_sql_error(s, err, "checking foreign keys");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int migrate_locked(store *s, const store_open_opts *o, int *created, gp_err *err)
{
    int v;
    if (store_begin(s, err))
        return -1;
    /* Another program may have created or upgraded it while we waited. */
    if (store_write_lock(s, err) || read_version(s, &v, err) || check_version(s, v, err) ||
        (v == 0 && refuse_foreign(s, err)))
        goto fail;
    if (v < STORE_SCHEMA_VERSION && (upgrade(s, v, err) || dangling_keys(s, err))) {
        gp_error_prefix(err, "migrating to schema version %d", STORE_SCHEMA_VERSION);
        goto fail;
    }
    *created = (v == 0);
    if (*created && o && o->init && o->init(s, o->init_ctx, err))
        goto fail;
    if (store_commit(s, err) == 0)
        return 0;
fail:
    store_rollback(s);
    *created = 0;
    return -1;
}

/* SQLite tells a waiting write here (sqlite3_busy_handler): it waits up
 * to s->wait_limit, telling the user once after STORE_WAIT_NOTICE_S. */
static int wait_for_writer(void *arg, int count)
{
    store *s = arg;
    double now = now_seconds();
    if (count == 0)
        s->wait_since = now;
    double waited = now - s->wait_since;
    if (waited >= s->wait_limit)
        return 0;
    if (waited >= STORE_WAIT_NOTICE_S && !s->wait_told && s->on_wait) {
        s->wait_told = 1;
        s->on_wait(s->path, s->wait_ctx);
    }
    sqlite3_sleep(count < 20 ? 5 : 50);
    return 1;
}

/* The directory of path ("." for a bare name). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* "file:" URI of path opened read-only and immutable (no locks, no
 * journal), its bytes percent-encoded where a URI could misread them. */
static char *immutable_uri(const char *path)
{
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("/-._~", *p))
            strbuf_printf(&b, "%c", *p);
        else
            strbuf_printf(&b, "%%%02X", *p);
    }
    strbuf_printf(&b, "?immutable=1");
    return strbuf_take(&b);
}

/* SQLite keeps a database's journal (-wal, -shm) beside it: in a directory
 * it cannot write to, an existing database is opened for reading only and
 * s->readonly_why says so; a new one cannot be made (-1 with a message;
 * else SQLite's code).  Without a -wal file
 * left there, SQLite cannot even read a WAL database it may not journal,
 * but then every page is in the file, which nobody can change without
 * making a -wal file in that directory: it is read as immutable. */
static int open_readonly_dir(store *s, const char *dir, gp_err *err)
{
    if (access(s->path, F_OK) != 0)
        return gp_error(err, "%s: cannot create the database: directory %s cannot be "
                        "written (%s)", s->path, dir, strerror(errno));
    s->readonly_why = xasprintf("its directory %s cannot be written (SQLite keeps the "
                                "database's journal there)", dir);
    char *wal = xasprintf("%s-wal", s->path);
    int has_wal = access(wal, F_OK) == 0;
    free(wal);
    char *uri = has_wal ? NULL : immutable_uri(s->path);
    int rc = sqlite3_open_v2(uri ? uri : s->path, &s->db,
                             SQLITE_OPEN_READONLY | (uri ? SQLITE_OPEN_URI : 0), NULL);
    free(uri);
    return rc;
}

static int open_db(store *s, const store_open_opts *o, gp_err *err)
{
    char *dir = dir_of(s->path);
    /* -1: refused with a message; else SQLite's code. */
    int rc = mkdir_p(dir, err);
    if (rc == 0)
        rc = access(dir, W_OK) != 0
                 ? open_readonly_dir(s, dir, err)
                 : sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                   NULL);
    free(dir);
    if (rc < 0)
        return -1;
    if (rc != SQLITE_OK)
        return gp_error(err, "%s: cannot open database: %s", s->path,
                        s->db ? sqlite3_errmsg(s->db) : "out of memory");
    /* SQLite opens a file it may not write read-only without a word. */
    if (!s->readonly_why && sqlite3_db_readonly(s->db, "main") == 1)
        s->readonly_why = xstrdup("the file is read-only");
    if (o) {
        s->on_wait = o->on_wait;
        s->wait_ctx = o->wait_ctx;
    }
    sqlite3_busy_handler(s->db, wait_for_writer, s);
    return 0;
}

/* Pages of a new file: 16 KiB, not SQLite's 4 KiB.  A task row holds its
 * utilization series (0.4-2.4 KB), which on 4 KiB pages spills onto
 * overflow pages: a 123 MB native set with series took 77 MB of pages
 * and 1.51 s of CPU to import, against 37 MB and 1.14 s on 16 KiB pages
 * (docs/database.md).  It must be set before the first write (the switch
 * to WAL); on a file that has pages already SQLite ignores it. */
#define STORE_PAGE_SIZE 16384

static int set_page_size(store *s, gp_err *err)
{
    char sql[48];
    snprintf(sql, sizeof sql, "PRAGMA page_size = %d", STORE_PAGE_SIZE);
    return store_exec(s, sql, err);
}

/* Switches a new file to WAL.  The switch needs the file to itself, and
 * SQLite refuses it at once (no busy handler) while another program is
 * reading it, as two first uses of one new database do: try again, within
 * the wait limit. */
static int set_wal(store *s, gp_err *err)
{
    double t0 = now_seconds();
    for (;;) {
        int rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return 0;
        if (rc != SQLITE_BUSY || now_seconds() - t0 >= s->wait_limit)
            return store_sql_error(s, err, "switching to WAL");
        sqlite3_sleep(10);
    }
}

int store_open_with(const char *path, const store_open_opts *o, store **out, int *created,
                    gp_err *err)
{
    assert(path && out);
    int dummy;
    if (!created)
        created = &dummy;
    *out = NULL;
    *created = 0;
    store *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    s->wait_limit = STORE_WAIT_S;
    /* WAL lets the TUI read while a CLI import writes (a read-only store
     * reads in whatever mode the file is); foreign keys keep nodes, tasks
     * and runs from outliving their parents. */
    if (open_db(s, o, err) ||
        store_exec(s, "PRAGMA foreign_keys = ON", err) ||
        check_ours(s, err) ||
        (!s->readonly_why && set_page_size(s, err)) ||
        (!s->readonly_why && set_wal(s, err)) ||
        store_exec(s, "PRAGMA synchronous = NORMAL", err) ||
        migrate(s, o, created, err)) {
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void store_set_wait_limit(store *s, double seconds)
{
    assert(s && seconds >= 0);
    s->wait_limit = seconds;
}

int store_data_version(store *s, int64_t *version, gp_err *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA data_version", -1, &st, NULL) != SQLITE_OK)
        return store_sql_error(s, err, "data_version");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *version = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "data_version");
}

int store_open(const char *path, store **out, int *created, gp_err *err)
{
    return store_open_with(path, NULL, out, created, err);
}

void store_close(store *s)
{
    if (!s)
        return;
    /* Write functions release their savepoints before they return; a
     * transaction left open by a failed commit is rolled back by closing. */
    assert(s->write_depth == 0);
    sqlite3_close(s->db);
    free(s->readonly_why);
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

/* Wraps one write function in a savepoint of its own.  Outside any
 * transaction it is a write on its own: it takes the write lock and its
 * store_release() commits. */
int store_savepoint(store *s, gp_err *err)
{
    assert(s);
    int lone = s->write_depth == 0 && s->txn_depth == 0 && !s->txn_open;
    if (store_write_lock(s, err))
        return -1;
    if (store_exec(s, "SAVEPOINT w", err)) {
        if (lone) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            s->txn_open = 0;
        }
        return -1;
    }
    s->txn_own |= lone;
    s->write_depth++;
    return 0;
}

/* The write function is over either way, so its savepoint is counted as
 * released even when RELEASE fails: the error goes up and nothing retries. */
int store_release(store *s, int rc, gp_err *err)
{
    assert(s && s->write_depth > 0 && s->txn_open);
    s->write_depth--;
    if (rc == 0)
        rc = store_exec(s, "RELEASE w", err);
    else
        sqlite3_exec(s->db, "ROLLBACK TO w; RELEASE w", NULL, NULL, NULL);
    if (s->write_depth > 0 || !s->txn_own)
        return rc ? -1 : 0;
    s->txn_own = 0;
    s->txn_open = 0;
    if (rc == 0 && store_exec(s, "COMMIT", err) == 0)
        return 0;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
