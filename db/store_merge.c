/*
 * store_merge.c — store_merge.h: tagging a sweep's runs, and copying the
 * tagged runs of shard databases into a target through ATTACH.
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
    "CREATE INDEX IF NOT EXISTS sweep_run_job ON sweep_run(fingerprint, job);";

/* ---- tagging ---- */

static int put_sweep(store *s, const store_sweep *sw, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_exec(s, sweep_tables_sql, err) ||
        store_prepare(s, "INSERT OR IGNORE INTO sweep(fingerprint, kind, what, njobs)"
                      " VALUES (?1,?2,?3,?4)", &st, err))
        return -1;
    store_bind_text(st, 1, sw->fingerprint);
    store_bind_text(st, 2, sw->kind);
    store_bind_text(st, 3, sw->what);
    sqlite3_bind_int64(st, 4, sw->njobs);
    int rc = store_step_done(s, st, err);
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
    int rc = put_sweep(s, sw, err) || store_put_run(s, r, err) ||
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

/* The shard is a gpuplan database of the target's schema holding tagged
 * runs whose traces and clusters the target has. */
static int check_shard(store *s, gp_err *err)
{
    int64_t mine, theirs, tables, missing;
    if (query_int(s, "PRAGMA main.user_version", &mine, err) ||
        query_int(s, "PRAGMA shard.user_version", &theirs, err))
        return -1;
    if (mine != theirs)
        return gp_error(err, "schema version %lld, the target's is %lld (open both with this "
                        "gpuplan first)", (long long)theirs, (long long)mine);
    if (query_int(s, "SELECT count(*) FROM shard.sqlite_master WHERE type = 'table'"
                  " AND name IN ('sweep', 'sweep_run')", &tables, err))
        return -1;
    if (tables != 2)
        return gp_error(err, "holds no runs of a sweep (not a shard's database)");
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

/* The shard's own sweep: that of its latest tagged run (a shard is a copy
 * of a database, perhaps holding older sweeps, that then ran one sweep's
 * share).  Every shard of a merge must name the same one. */
static int shard_sweep(store *s, store_merge_report *rep, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT fingerprint FROM shard.sweep_run ORDER BY run_id DESC LIMIT 1",
                      &st, err))
        return -1;
    int rc = sqlite3_step(st);
    char fp[STORE_FINGERPRINT_LEN] = "";
    if (rc == SQLITE_ROW)
        strlcpy0(fp, store_col_text(st, 0), sizeof fp);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sql_error(s, err, "reading the shard's sweep");
    if (!fp[0])
        return gp_error(err, "holds no runs of a sweep (not a shard's database)");
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

/* Copies the new runs of the attached shard in one transaction. */
static int merge_attached(store *s, store_merge_report *rep, gp_err *err)
{
    new_run *runs = NULL;
    size_t n = 0, present = 0;
    int rc = check_shard(s, err) || shard_sweep(s, rep, err) ||
             find_new(s, rep->fingerprint, &runs, &n, &present, err) ? -1 : 0;
    if (rc == 0 && n > 0) {
        rc = store_begin(s, err);
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = copy_run(s, &runs[i], err);
        if (rc == 0)
            rc = store_commit(s, err);
        else if (s->txn_depth > 0)
            store_rollback(s);
    }
    if (rc == 0) {
        rep->added += n;
        rep->present += present;
    }
    free(runs);
    return rc;
}

/* The merged sweep's description and how many of its jobs the target has. */
static int report_sweep(store *s, store_merge_report *rep, gp_err *err)
{
    if (!rep->fingerprint[0])
        return 0;
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT what, njobs, (SELECT count(DISTINCT job) FROM main.sweep_run"
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
