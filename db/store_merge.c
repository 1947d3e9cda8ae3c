/*
 * store_merge.c — store_merge.h: tagging a sweep's runs, and copying the
 * tagged runs (or a plan's saved points, store_plan.h) of shard databases
 * into a target through ATTACH.
 *
 * ATTACH cannot run inside a transaction, so each shard is attached,
 * copied in its own transaction, and detached.  Runs are copied in job
 * order within a shard; their children with INSERT ... SELECT.
 */
#include "store_int.h"
#include "store_merge.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const sweep_tables_sql =
    "CREATE TABLE IF NOT EXISTS sweep ("
    "  fingerprint TEXT PRIMARY KEY,"
    "  kind        TEXT NOT NULL,"
    "  what        TEXT NOT NULL,"
    "  njobs       INTEGER NOT NULL CHECK (njobs >= 0)"
    ") WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS sweep_run ("
    "  run_id      INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,"
    "  fingerprint TEXT NOT NULL REFERENCES sweep(fingerprint),"
    "  job         INTEGER NOT NULL CHECK (job >= 0)"
    ");"
    "CREATE INDEX IF NOT EXISTS sweep_run_job ON sweep_run(fingerprint, job);"
    "CREATE TABLE IF NOT EXISTS plan_point ("
    "  fingerprint TEXT NOT NULL REFERENCES sweep(fingerprint),"
    "  job         INTEGER NOT NULL CHECK (job >= 0),"
    "  gpus        INTEGER NOT NULL,"
    "  gpus2       INTEGER NOT NULL,"
    "  ran         INTEGER NOT NULL CHECK (ran >= 0),"
    "  ntasks      INTEGER NOT NULL CHECK (ntasks >= 0),"
    "  jct_mean    REAL,"          /* NULL: nothing ran */
    "  jct_p95     REAL,"
    "  avg_w       REAL NOT NULL,"
    "  span_s      REAL NOT NULL,"
    "  jct         BLOB NOT NULL,"  /* ntasks little-endian float64, -1 = never ran */
    "  UNIQUE (fingerprint, job)"
    ");"
    /* The sweep or plan this database saved a job of last: a shard's own
     * (its other sweeps came with the copy it started from). */
    "CREATE TABLE IF NOT EXISTS sweep_last ("
    "  one         INTEGER PRIMARY KEY CHECK (one = 1),"
    "  fingerprint TEXT NOT NULL"
    ");";

int store_sweep_tables(store *s, gp_err *err)
{
    return store_exec(s, sweep_tables_sql, err);
}

/* ---- tagging ---- */

int store_put_sweep(store *s, const store_sweep *sw, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_sweep_tables(s, err) ||
        store_prepare(s, "INSERT OR IGNORE INTO sweep(fingerprint, kind, what, njobs)"
                      " VALUES (?1,?2,?3,?4)", &st, err))
        return -1;
    store_bind_text(st, 1, sw->fingerprint);
    store_bind_text(st, 2, sw->kind);
    store_bind_text(st, 3, sw->what);
    sqlite3_bind_int64(st, 4, sw->njobs);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    if (rc || store_prepare(s, "INSERT OR REPLACE INTO sweep_last(one, fingerprint)"
                            " VALUES (1, ?1)", &st, err))
        return -1;
    store_bind_text(st, 1, sw->fingerprint);
    rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

static int tag_run(store *s, const char *fingerprint, int64_t job, int64_t run_id, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO sweep_run(run_id, fingerprint, job) VALUES (?1,?2,?3)",
                      &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    store_bind_text(st, 2, fingerprint);
    sqlite3_bind_int64(st, 3, job);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

int store_put_sweep_run(store *s, const store_sweep *sw, int64_t job, run *r, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    int rc = store_put_sweep(s, sw, err) || store_put_run(s, r, err) ||
             tag_run(s, sw->fingerprint, job, r->id, err);
    return store_release(s, rc ? -1 : 0, err);
}

/* ---- merging ---- */

/* One tagged run of the attached shard that the target lacks. */
typedef struct new_run {
    int64_t id, job;
} new_run;

static int attach(store *s, const char *path, gp_err *err)
{
    if (access(path, R_OK) != 0)
        return gp_error(err, "%s: cannot read it", path);
    sqlite3_stmt *st;
    if (store_prepare(s, "ATTACH DATABASE ?1 AS shard", &st, err))
        return -1;
    store_bind_text(st, 1, path);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

static void detach(store *s)
{
    sqlite3_exec(s->db, "DETACH DATABASE shard", NULL, NULL, NULL);
}

/* An integer from a fixed query; 0 when it has no row. */
static int query_int(store *s, const char *sql, int64_t *v, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    int rc = sqlite3_step(st);
    *v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading");
}

/* 1 when the attached shard has table `name`; -1 on error. */
static int shard_has(store *s, const char *name, gp_err *err)
{
    int64_t n;
    if (store_lookup_int(s, "SELECT count(*) FROM shard.sqlite_master WHERE type = 'table'"
                         " AND name = ?1", name, &n, err))
        return -1;
    return n > 0;
}

/* The shard is a gpuplan database of the target's schema holding tagged
 * runs whose traces and clusters the target has, or a plan's points;
 * *runs and *points say which tables it has. */
static int check_shard(store *s, int *runs, int *points, gp_err *err)
{
    int64_t mine, theirs, missing;
    if (query_int(s, "PRAGMA main.user_version", &mine, err) ||
        query_int(s, "PRAGMA shard.user_version", &theirs, err))
        return -1;
    if (mine != theirs)
        return gp_error(err, "schema version %lld, the target's is %lld (open both with this "
                        "gpuplan first)", (long long)theirs, (long long)mine);
    int sweeps = shard_has(s, "sweep", err);
    *runs = sweeps > 0 ? shard_has(s, "sweep_run", err) : 0;
    *points = sweeps > 0 ? shard_has(s, "plan_point", err) : 0;
    if (sweeps < 0 || *runs < 0 || *points < 0)
        return -1;
    if (!*runs && !*points)
        return gp_error(err, "holds no runs of a sweep or plan (not a shard's database)");
    if (!*runs)
        return 0;
    if (query_int(s, "SELECT count(*) FROM shard.sweep_run x JOIN shard.run r ON r.id = x.run_id"
                  " JOIN shard.trace t ON t.id = r.trace_id"
                  " JOIN shard.cluster c ON c.id = r.cluster_id"
                  " WHERE NOT EXISTS (SELECT 1 FROM main.trace WHERE name = t.name)"
                  " OR NOT EXISTS (SELECT 1 FROM main.cluster WHERE name = c.name)",
                  &missing, err))
        return -1;
    if (missing)
        return gp_error(err, "%lld run(s) name a trace or cluster the target lacks (import "
                        "them there, or make the shards from copies of the target)",
                        (long long)missing);
    return 0;
}

/* The fingerprint in the first row of a fixed query; "" when none. */
static int first_fingerprint(store *s, const char *sql, char fp[STORE_FINGERPRINT_LEN],
                             gp_err *err)
{
    sqlite3_stmt *st;
    fp[0] = '\0';
    if (store_prepare(s, sql, &st, err))
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        strlcpy0(fp, store_col_text(st, 0), STORE_FINGERPRINT_LEN);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
                                                 : store_sql_error(s, err, "reading the shard");
}

/* The shard's own sweep: the one it saved a job of last (a shard is a
 * copy of a database, perhaps holding older sweeps and plans, that then
 * ran one's share).  A sweep's shard written before that was recorded
 * names the sweep of its newest tagged run (a plan's always records it).
 * Every shard of a merge must name the same one. */
static int shard_sweep(store *s, int runs, store_merge_report *rep, gp_err *err)
{
    char fp[STORE_FINGERPRINT_LEN] = "";
    int last = shard_has(s, "sweep_last", err);
    if (last < 0 ||
        (last && first_fingerprint(s, "SELECT fingerprint FROM shard.sweep_last", fp, err)) ||
        (!fp[0] && runs &&
         first_fingerprint(s, "SELECT fingerprint FROM shard.sweep_run"
                           " ORDER BY run_id DESC LIMIT 1", fp, err)))
        return -1;
    if (!fp[0])
        return gp_error(err, "holds no runs of a sweep or plan (not a shard's database)");
    if (!rep->fingerprint[0])
        strlcpy0(rep->fingerprint, fp, sizeof rep->fingerprint);
    else if (strcmp(rep->fingerprint, fp) != 0)
        return gp_error(err, "holds a share of sweep %s, the shards before it of sweep %s: "
                        "shards of different sweeps", fp, rep->fingerprint);
    return 0;
}

/* The runs of the merge's sweep the shard has and the target lacks, in
 * job order; *present = those the target has. */
static int find_new(store *s, const char *fp, new_run **out, size_t *n, size_t *present,
                    gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT x.run_id, x.job, EXISTS (SELECT 1 FROM main.sweep_run m"
                      " WHERE m.fingerprint = x.fingerprint AND m.job = x.job)"
                      " FROM shard.sweep_run x WHERE x.fingerprint = ?1"
                      " ORDER BY x.job, x.run_id", &st, err))
        return -1;
    store_bind_text(st, 1, fp);
    size_t cap = 16;
    *out = xmalloc(cap * sizeof **out);
    *n = *present = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 2)) {
            ++*present;
            continue;
        }
        if (*n == cap)
            *out = xrealloc(*out, (cap *= 2) * sizeof **out);
        new_run *r = &(*out)[(*n)++];
        r->id = sqlite3_column_int64(st, 0);
        r->job = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading the shard's runs");
}

/* Runs one copying statement with ?1 = the shard's run id, ?2 = the new. */
static int copy_rows(store *s, const char *sql, int64_t from, int64_t to, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, from);
    sqlite3_bind_int64(st, 2, to);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

static int copy_run(store *s, const new_run *r, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO main.run(name, policy, options, trace_id, cluster_id,"
                      " seed, engine_version, power_model, created)"
                      " SELECT r.name, r.policy, r.options,"
                      " (SELECT id FROM main.trace WHERE name = t.name),"
                      " (SELECT id FROM main.cluster WHERE name = c.name),"
                      " r.seed, r.engine_version, r.power_model, r.created"
                      " FROM shard.run r JOIN shard.trace t ON t.id = r.trace_id"
                      " JOIN shard.cluster c ON c.id = r.cluster_id WHERE r.id = ?1"
                      " RETURNING id", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, r->id);
    int64_t id;
    if (store_step_insert(s, st, &id, "run", err))
        return -1;
    return copy_rows(s, "INSERT INTO main.run_metric(run_id, key, value)"
                     " SELECT ?2, key, value FROM shard.run_metric WHERE run_id = ?1",
                     r->id, id, err) ||
           copy_rows(s, "INSERT INTO main.run_point(run_id, seq, t_s, active_gpus, awake_gpus,"
                     " active_servers, power_w, gpu_w, cpu_w, static_w, frag, alloc_ratio,"
                     " queued, mean_freq_mhz) SELECT ?2, seq, t_s, active_gpus, awake_gpus,"
                     " active_servers, power_w, gpu_w, cpu_w, static_w, frag, alloc_ratio,"
                     " queued, mean_freq_mhz FROM shard.run_point WHERE run_id = ?1",
                     r->id, id, err) ||
           copy_rows(s, "INSERT INTO main.run_outcome(run_id, task_idx, wait_s, start_s, end_s,"
                     " jct_s, slowdown, sla_violated, node_idx, gpus) SELECT ?2, task_idx,"
                     " wait_s, start_s, end_s, jct_s, slowdown, sla_violated, node_idx, gpus"
                     " FROM shard.run_outcome WHERE run_id = ?1", r->id, id, err) ||
           copy_rows(s, "INSERT INTO main.run_decision(run_id, seq, t_s, task_idx, node_idx,"
                     " gpus, reason) SELECT ?2, seq, t_s, task_idx, node_idx, gpus, reason"
                     " FROM shard.run_decision WHERE run_id = ?1", r->id, id, err) ||
           copy_rows(s, "INSERT OR IGNORE INTO main.sweep(fingerprint, kind, what, njobs)"
                     " SELECT fingerprint, kind, what, njobs FROM shard.sweep WHERE"
                     " fingerprint = (SELECT fingerprint FROM shard.sweep_run"
                     " WHERE run_id = ?1)", r->id, id, err) ||
           copy_rows(s, "INSERT INTO main.sweep_run(run_id, fingerprint, job)"
                     " SELECT ?2, fingerprint, job FROM shard.sweep_run WHERE run_id = ?1",
                     r->id, id, err)
               ? -1 : 0;
}

/* Copies the new runs of the attached shard in one transaction.  The
 * copying statements go straight to SQLite, so the write lock is taken
 * here, before the runs the target lacks are read: without it every
 * INSERT committed alone, and a merge killed between a run and its sweep
 * tag left a run that the next merge, not finding the tag, copied again. */
static int merge_runs(store *s, store_merge_report *rep, gp_err *err)
{
    new_run *runs = NULL;
    size_t n = 0, present = 0;
    if (store_begin(s, err))
        return -1;
    int rc = store_write_lock(s, err) || find_new(s, rep->fingerprint, &runs, &n, &present, err)
                 ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = copy_run(s, &runs[i], err);
    if (rc == 0)
        rc = store_commit(s, err);
    else
        store_rollback(s);
    if (rc == 0) {
        rep->added += n;
        rep->present += present;
    }
    free(runs);
    return rc;
}

/* Runs a fixed write statement whose one parameter is a fingerprint. */
static int write_for(store *s, const char *sql, const char *fingerprint, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    store_bind_text(st, 1, fingerprint);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

/* Copies the plan points of the attached shard that the target lacks, in
 * one transaction. */
static int merge_points(store *s, store_merge_report *rep, gp_err *err)
{
    int64_t total;
    if (store_lookup_int(s, "SELECT count(*) FROM shard.plan_point WHERE fingerprint = ?1",
                         rep->fingerprint, &total, err) ||
        store_begin(s, err))
        return -1;
    /* Both statements in one transaction, as for runs (merge_runs). */
    int rc = store_write_lock(s, err) || write_for(s, "INSERT OR IGNORE INTO main.sweep(fingerprint, kind, what, njobs)"
                       " SELECT fingerprint, kind, what, njobs FROM shard.sweep"
                       " WHERE fingerprint = ?1", rep->fingerprint, err) ||
             write_for(s, "INSERT INTO main.plan_point(fingerprint, job, gpus, gpus2, ran,"
                       " ntasks, jct_mean, jct_p95, avg_w, span_s, jct)"
                       " SELECT fingerprint, job, gpus, gpus2, ran, ntasks, jct_mean,"
                       " jct_p95, avg_w, span_s, jct FROM shard.plan_point p"
                       " WHERE p.fingerprint = ?1 AND NOT EXISTS (SELECT 1 FROM"
                       " main.plan_point m WHERE m.fingerprint = p.fingerprint"
                       " AND m.job = p.job) ORDER BY job", rep->fingerprint, err)
                 ? -1 : 0;
    size_t added = rc ? 0 : (size_t)sqlite3_changes(s->db);
    if (rc == 0)
        rc = store_commit(s, err);
    else if (s->txn_depth > 0)
        store_rollback(s);
    if (rc)
        return -1;
    rep->added += added;
    rep->present += (size_t)total - added;
    return 0;
}

/* The kind of the merge's sweep in the shard: "plan" or a sweep's. */
static int shard_kind(store *s, store_merge_report *rep, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT kind FROM shard.sweep WHERE fingerprint = ?1", &st, err))
        return -1;
    store_bind_text(st, 1, rep->fingerprint);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        strlcpy0(rep->kind, store_col_text(st, 0), sizeof rep->kind);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? gp_error(err, "sweep %s is not described in it", rep->fingerprint)
                             : store_sql_error(s, err, "reading the shard's sweep");
}

static int merge_attached(store *s, store_merge_report *rep, gp_err *err)
{
    int runs = 0, points = 0;
    if (check_shard(s, &runs, &points, err) || shard_sweep(s, runs, rep, err) ||
        shard_kind(s, rep, err))
        return -1;
    return strcmp(rep->kind, "plan") == 0 ? merge_points(s, rep, err) : merge_runs(s, rep, err);
}

/* The merged sweep's description and how many of its jobs the target has. */
static int report_sweep(store *s, store_merge_report *rep, gp_err *err)
{
    if (!rep->fingerprint[0])
        return 0;
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT what, njobs, (SELECT count(DISTINCT job) FROM main.sweep_run"
                      " WHERE fingerprint = ?1) + (SELECT count(*) FROM main.plan_point"
                      " WHERE fingerprint = ?1) FROM main.sweep WHERE fingerprint = ?1",
                      &st, err))
        return -1;
    store_bind_text(st, 1, rep->fingerprint);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        strlcpy0(rep->what, store_col_text(st, 0), sizeof rep->what);
        rep->njobs = sqlite3_column_int64(st, 1);
        rep->jobs_held = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading");
}

int store_merge(store *s, const char *const *paths, size_t n, store_merge_report *rep,
                gp_err *err)
{
    memset(rep, 0, sizeof *rep);
    if (store_check_writable(s, err) || store_exec(s, sweep_tables_sql, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (attach(s, paths[i], err))
            return -1;
        int rc = merge_attached(s, rep, err);
        detach(s);
        if (rc) {
            gp_error_prefix(err, "%s", paths[i]);
            return -1;
        }
    }
    return report_sweep(s, rep, err);
}
