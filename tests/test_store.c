/*
 * test_store.c — store round trips for every entity, migrations from an
 * empty file, refusal of databases from the future, atomicity of failed
 * writes, and the exact messages of names that are missing or taken.
 */
#include "testutil.h"
#include "db/store_int.h"

#include <sqlite3.h>

#include "core/run.h"

static void test_open_creates_schema(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
    assert_int_equal(tu_count(st, STORE_GPU), 15);
    assert_int_equal(tu_count(st, STORE_CPU), 1);
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    /* Reopening finds the schema and creates nothing. */
    char *path = xstrdup(store_path(st));
    store_close(st);
    gp_err err = {{0}};
    int created = 1;
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    assert_int_equal(created, 0);
    free(path);
    tu_store_free(st, dir);
}

/* A new database has 16 KiB pages (series spill onto overflow pages on
 * SQLite's 4 KiB); one made by another program keeps its own. */
static int page_size_of(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void test_new_database_page_size(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/p.db", dir);
    store *st;
    gp_err err = {{0}};
    assert_int_equal(store_open(path, &st, NULL, &err), 0);
    store_close(st);
    assert_int_equal(page_size_of(path), 16384);
    /* an existing file keeps its pages */
    char *old = xasprintf("%s/old.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(old, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA page_size = 4096; CREATE TABLE x(a); DROP TABLE x",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(store_open(old, &st, NULL, &err), 0);
    store_close(st);
    assert_int_equal(page_size_of(old), 4096);
    free(old);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_future_version_refused(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/f.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store *st;
    gp_err err = {{0}};
    assert_int_equal(store_open(path, &st, NULL, &err), -1);
    tu_assert_contains(err.msg, "newer");
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* A file of the given SQL made by "another program". */
static char *foreign_db(const char *dir, const char *sql)
{
    char *path = xasprintf("%s/other.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    return path;
}

/* How many tables and indexes the file at path has. */
static int schema_objects(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st,
                                        NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void test_negative_version_refused(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = foreign_db(dir, "PRAGMA user_version = -5");
    store *st;
    gp_err err = {{0}};
    assert_int_equal(store_open(path, &st, NULL, &err), -1);
    tu_assert_contains(err.msg, "not a gpuplan database: its schema version is -5");
    assert_null(strstr(err.msg, "not an error"));
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* Version 0 with tables of its own: refused, and left as it was (no
 * gpuplan schema added to it). */
static void test_foreign_database_refused(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = foreign_db(dir, "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT);"
                                 "INSERT INTO notes(text) VALUES ('keep me')");
    store *st;
    gp_err err = {{0}};
    int created = 1;
    assert_int_equal(store_open(path, &st, &created, &err), -1);
    assert_int_equal(created, 0);
    tu_assert_contains(err.msg, "not a gpuplan database");
    tu_assert_contains(err.msg, "table 'notes'");
    assert_int_equal(schema_objects(path), 1);
    /* Not even its journal mode was changed. */
    sqlite3 *db;
    sqlite3_stmt *st2;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st2, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st2), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st2, 0), "delete");
    sqlite3_finalize(st2);
    sqlite3_close(db);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* An empty file is new to gpuplan, not foreign. */
static void test_empty_file_gets_schema(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "empty.db", "");
    char *path = xasprintf("%s/empty.db", dir);
    store *st;
    gp_err err = {{0}};
    int created = 0;
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    assert_int_equal(created, 1);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static int count_init(store *st, void *calls, gp_err *err)
{
    (*(int *)calls)++;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    int rc = store_put_gpu_profile(st, &cat->gpus[0], err);
    catalog_free(cat);
    return rc;
}

static int failing_init(store *st, void *unused, gp_err *err)
{
    (void)unused;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    store_put_gpu_profile(st, &cat->gpus[0], err);
    catalog_free(cat);
    return gp_error(err, "no samples");
}

/* A new database is filled in the transaction that creates its schema: a
 * failed fill leaves no schema behind (the next open starts over), and a
 * database with a schema is never filled again. */
static void test_init_in_creating_transaction(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/new.db", dir);
    store *st;
    gp_err err = {{0}};
    int calls = 0, created = 0;
    store_open_opts bad = {.init = failing_init};
    assert_int_equal(store_open_with(path, &bad, &st, &created, &err), -1);
    tu_assert_contains(err.msg, "no samples");
    assert_int_equal(schema_objects(path), 0);
    store_open_opts good = {.init = count_init, .init_ctx = &calls};
    assert_int_equal(store_open_with(path, &good, &st, &created, &err), 0);
    assert_int_equal(created, 1);
    assert_int_equal(calls, 1);
    assert_int_equal(tu_count(st, STORE_GPU), 1);
    store_close(st);
    assert_int_equal(store_open_with(path, &good, &st, &created, &err), 0);
    assert_int_equal(created, 0);
    assert_int_equal(calls, 1);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_garbage_file_refused(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "bad.db", "this is not a database, just some text that is long enough "
                            "to fill the header of an SQLite file and then some more");
    char *path = xasprintf("%s/bad.db", dir);
    store *st;
    gp_err err = {{0}};
    assert_int_equal(store_open(path, &st, NULL, &err), -1);
    assert_true(strlen(err.msg) > 0);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_truncated_db_refused(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *path = xstrdup(store_path(st));
    store_close(st);
    /* Keep only the first 1000 bytes: the header survives, the pages not. */
    assert_int_equal(truncate(path, 1000), 0);
    char *wal = xasprintf("%s-wal", path);
    remove(wal);
    free(wal);
    gp_err err = {{0}};
    int rc = store_open(path, &st, NULL, &err);
    if (rc == 0) {
        /* Opening may succeed lazily; reading must then fail cleanly. */
        catalog *cat = NULL;
        assert_int_equal(store_load_catalog(st, &cat, &err), -1);
        store_close(st);
    }
    assert_true(strlen(err.msg) > 0);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

static void test_profile_upsert_and_delete(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    catalog *cat;
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    gpu_profile g = *catalog_gpu(cat, "A100-40GB");
    catalog_free(cat);
    assert_double_equal(g.price_usd, 2500, 1e-9);
    g.price_usd = 2600;
    assert_int_equal(store_put_gpu_profile(st, &g, &err), 0);
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    assert_double_equal(catalog_gpu(cat, "A100-40GB")->price_usd, 2600, 1e-9);
    assert_int_equal(cat->ngpus, 15);
    catalog_free(cat);
    assert_int_equal(store_delete_gpu_profile(st, "A100-40GB", &err), 0);
    assert_int_equal(tu_count(st, STORE_GPU), 14);
    assert_int_equal(store_delete_gpu_profile(st, "nope", &err), -1);
    tu_assert_contains(err.msg, "no GPU profile named 'nope'");
    /* A value the schema refuses names the profile. */
    g.mem_gib = 0;
    assert_int_equal(store_put_gpu_profile(st, &g, &err), -1);
    tu_assert_contains(err.msg, "GPU profile 'A100-40GB': CHECK constraint failed");
    cpu_profile p = {0};
    strcpy(p.name, "none");
    assert_int_equal(store_put_cpu_profile(st, &p, &err), -1);
    tu_assert_contains(err.msg, "CPU profile 'none': CHECK constraint failed");
    tu_store_free(st, dir);
}

static cluster *make_cluster(const char *name)
{
    cluster *c = cluster_new(name);
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "server-0");
    strcpy(n.gpu_model, "V100");
    strcpy(n.cpu_model, "Xeon-E5-2682v4");
    n.gpu_count = 6;
    n.cpu_milli = 64000;
    n.ram_mib = 262144;
    n.static_w = 120.5;
    n.other_w = 30;
    const double mem[6] = {16, 16, 32, 32, 16, 32};
    memcpy(n.gpu_mem_gib, mem, sizeof mem);
    cluster_add_node(c, &n);
    memset(&n, 0, sizeof n);
    strcpy(n.name, "cpu-only");
    n.cpu_milli = 32000;
    n.ram_mib = 1024;
    cluster_add_node(c, &n);
    return c;
}

static void test_cluster_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("lab");
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    assert_int_equal(store_put_cluster(st, c, 0, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    cluster *back;
    assert_int_equal(store_get_cluster(st, "lab", &back, &err), 0);
    assert_int_equal(back->nnodes, 2);
    assert_string_equal(back->nodes[0].gpu_model, "V100");
    assert_string_equal(back->nodes[0].cpu_model, "Xeon-E5-2682v4");
    assert_int_equal(back->nodes[0].gpu_count, 6);
    assert_int_equal(back->nodes[0].cpu_milli, 64000);
    assert_double_equal(back->nodes[0].static_w, 120.5, 0);
    assert_double_equal(back->nodes[0].gpu_mem_gib[2], 32, 0);
    assert_double_equal(back->nodes[0].gpu_mem_gib[4], 16, 0);
    assert_string_equal(back->nodes[1].gpu_model, "");
    assert_int_equal(cluster_gpu_total(back), 6);
    cluster_free(back);
    /* A node naming an unknown model is refused and nothing is left. */
    strcpy(c->name, "bad");
    strcpy(c->nodes[1].gpu_model, "Z9000");
    c->nodes[1].gpu_count = 1;
    assert_int_equal(store_put_cluster(st, c, 0, &err), -1);
    tu_assert_contains(err.msg, "unknown GPU model 'Z9000'");
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    /* The profile in use cannot be deleted. */
    assert_int_equal(store_delete_gpu_profile(st, "V100", &err), -1);
    tu_assert_contains(err.msg, "used by 1 node");
    cluster_free(c);
    assert_int_equal(store_delete_cluster(st, "lab", &err), 0);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 0);
    tu_store_free(st, dir);
}

static gp_trace *make_trace(const char *name)
{
    gp_trace *t = trace_new(name);
    task k;
    task_init(&k);
    strcpy(k.name, "t1");
    k.arrival_s = 1.5;
    k.duration_s = 300;
    k.gpu_mem_gib = 6.28;
    k.cpu_milli = 4000;
    k.gpu_spec = xstrdup("V100|A10");
    strcpy(k.qos, "LS");
    strcpy(k.model, "ResNet-50");
    k.batch_size = 64;
    const float u[5] = {45.84f, 0.1f, 100, 0, 33.333333f};
    task_set_util(&k, u, 5, 1.0);
    trace_add_task(t, &k);
    task_release(&k);
    task_init(&k);
    strcpy(k.name, "cpu");
    k.num_gpu = 0;
    k.gpu_milli = 0;
    k.util_mean = 12;
    trace_add_task(t, &k);
    return t;
}

static void test_trace_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    gp_trace *t = make_trace("tr");
    assert_int_equal(store_put_trace(st, t, 0, &err), 0);
    gp_trace *back;
    assert_int_equal(store_get_trace(st, "tr", &back, &err), 0);
    assert_int_equal(back->ntasks, 2);
    const task *a = &back->tasks[0], *b = &back->tasks[1];
    assert_string_equal(a->name, "t1");
    assert_double_equal(a->arrival_s, 1.5, 0);
    assert_string_equal(a->gpu_spec, "V100|A10");
    assert_string_equal(a->model, "ResNet-50");
    assert_int_equal(a->batch_size, 64);
    assert_int_equal(a->util.len, 5);
    assert_true(a->util.pct[4] == 33.333333f);
    assert_true(a->util.pct[0] == 45.84f);
    assert_double_equal(a->util.period_s, 1.0, 0);
    assert_double_equal(a->util_peak, 100, 1e-6);
    assert_double_equal(a->util_first, 45.84, 1e-5);
    assert_int_equal(b->num_gpu, 0);
    assert_null(b->gpu_spec);
    assert_int_equal(b->util.len, 0);
    assert_double_equal(b->util_mean, 12, 0);
    assert_true(task_allows_model(a, "A10"));
    assert_false(task_allows_model(a, "A100"));
    assert_true(task_allows_model(b, "anything"));
    trace_free(back);
    /* replace = 1 swaps the content */
    t->ntasks = 1;
    task_release(&t->tasks[1]);
    assert_int_equal(store_put_trace(st, t, 1, &err), 0);
    assert_int_equal(store_get_trace(st, "tr", &back, &err), 0);
    assert_int_equal(back->ntasks, 1);
    trace_free(back);
    trace_free(t);
    assert_int_equal(store_get_trace(st, "missing", &back, &err), -1);
    tu_assert_contains(err.msg, "no trace named 'missing'");
    tu_store_free(st, dir);
}

static void test_tput_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    tput_catalog *c = tput_catalog_new("g");
    tput_entry e;
    memset(&e, 0, sizeof e);
    strcpy(e.accel, "v100");
    strcpy(e.model, "ResNet-18");
    e.batch_size = 16;
    e.scale = 1;
    e.tput = 4.795294551566172;
    tput_catalog_add(c, &e);
    strcpy(e.co_model, "ResNet-50");
    e.co_batch_size = 32;
    e.co_scale = 1;
    e.tput = 2.5;
    e.co_tput = 3.1;
    tput_catalog_add(c, &e);
    strcpy(e.accel, "k80");
    tput_catalog_add(c, &e);
    assert_int_equal(store_put_tput_catalog(st, c, 0, &err), 0);
    tput_catalog *back;
    assert_int_equal(store_get_tput_catalog(st, "g", &back, &err), 0);
    assert_int_equal(back->nentries, 3);
    assert_double_equal(back->entries[0].tput, 4.795294551566172, 0);
    assert_string_equal(back->entries[1].co_model, "ResNet-50");
    assert_int_equal(tput_catalog_accels(back), 2);
    assert_int_equal(tput_catalog_job_types(back), 1);
    tput_catalog_free(back);
    tput_catalog_free(c);
    assert_int_equal(store_delete_tput_catalog(st, "g", &err), 0);
    assert_int_equal(tu_count(st, STORE_TPUT), 0);
    tu_store_free(st, dir);
}

static void test_snapshot_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("lab");
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    snapshot *sn = snapshot_new("noon");
    strcpy(sn->cluster_name, "lab");
    sn->time_s = 43200;
    gp_trace *t = make_trace("x");
    trace_free(sn->tasks);
    sn->tasks = t;
    placement_row r = {0, 0, 3, 1000};
    snapshot_add_row(sn, &r);
    assert_int_equal(store_put_snapshot(st, sn, 0, &err), 0);
    snapshot *back;
    assert_int_equal(store_get_snapshot(st, "noon", &back, &err), 0);
    assert_string_equal(back->cluster_name, "lab");
    assert_double_equal(back->time_s, 43200, 0);
    assert_int_equal(back->tasks->ntasks, 2);
    assert_int_equal(back->nrows, 1);
    assert_int_equal(back->rows[0].gpu, 3);
    snapshot_free(back);
    /* Snapshot tasks are not listed as a trace of their own. */
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    assert_int_equal(tu_count(st, STORE_SNAPSHOT), 1);
    assert_int_equal(store_delete_snapshot(st, "noon", &err), 0);
    assert_int_equal(tu_count(st, STORE_SNAPSHOT), 0);
    snapshot_free(sn);
    cluster_free(c);
    tu_store_free(st, dir);
}

static void test_run_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("lab");
    gp_trace *t = make_trace("tr");
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    assert_int_equal(store_put_trace(st, t, 0, &err), 0);
    run *r = run_new("cats");
    strcpy(r->trace_name, "tr");
    strcpy(r->cluster_name, "lab");
    r->options = xstrdup("lambda1=1 lambda2=1");
    r->seed = 42;
    strcpy(r->power_model, "cats");
    run_set_metric(r, "energy_j", 123456.5);
    run_set_metric(r, "peak_gpus", 3);
    run_set_metric(r, "peak_gpus", 4);
    run_point p = {0};
    p.t_s = 10;
    p.power_w = 300;
    run_add_point(r, &p);
    p.t_s = 20;
    run_add_point(r, &p);
    run_outcome o = {0, 1, 2, 302, 300.5, 1.001, 0, 0, "2"};
    run_add_outcome(r, &o);
    run_decision d = {0, 1.5, 0, 0, "2", (char *)"rho=-0.8 score=-0.9"};
    run_add_decision(r, &d);
    if (store_put_run(st, r, &err))
        fail_msg("%s", err.msg);
    assert_true(r->id > 0);
    assert_true(strlen(r->created) > 0);
    run *back;
    assert_int_equal(store_get_run(st, r->id, &back, &err), 0);
    assert_string_equal(back->policy, "cats");
    assert_string_equal(back->options, "lambda1=1 lambda2=1");
    assert_int_equal(back->seed, 42);
    assert_int_equal(back->nmetrics, 2);
    assert_double_equal(run_metric_get(back, "peak_gpus", 0), 4, 0);
    assert_double_equal(run_metric_get(back, "energy_j", 0), 123456.5, 0);
    assert_int_equal(back->npoints, 2);
    assert_double_equal(back->points[1].t_s, 20, 0);
    assert_int_equal(back->noutcomes, 1);
    assert_double_equal(back->outcomes[0].jct_s, 300.5, 0);
    assert_string_equal(back->outcomes[0].gpus, "2");
    assert_int_equal(back->ndecisions, 1);
    assert_string_equal(back->decisions[0].reason, "rho=-0.8 score=-0.9");
    run_free(back);
    /* Deleting the trace deletes its runs (cascade). */
    assert_int_equal(tu_count(st, STORE_RUN), 1);
    assert_int_equal(store_delete_trace(st, "tr", &err), 0);
    assert_int_equal(tu_count(st, STORE_RUN), 0);
    assert_int_equal(store_get_run(st, r->id, &back, &err), -1);
    run_free(r);
    trace_free(t);
    cluster_free(c);
    tu_store_free(st, dir);
}

static void test_transaction_rolls_back(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("a");
    assert_int_equal(store_begin(st, &err), 0);
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    gp_trace *t = make_trace("t");
    assert_int_equal(store_put_trace(st, t, 0, &err), 0);
    store_rollback(st);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 0);
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    /* A failing write inside a transaction leaves the earlier ones to the
     * caller's decision; committing keeps them. */
    assert_int_equal(store_begin(st, &err), 0);
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    assert_int_equal(store_put_cluster(st, c, 0, &err), -1);
    assert_int_equal(store_commit(st, &err), 0);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    trace_free(t);
    cluster_free(c);
    tu_store_free(st, dir);
}

/* A transaction that reads before it writes, while another program
 * commits in between, still writes: the write lock is taken at the first
 * write, not by upgrading the read (which SQLite refuses at once). */
static void test_write_after_other_commit(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    catalog *cat;
    assert_int_equal(store_begin(st, &err), 0);
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(store_path(st), &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "INSERT INTO cpu_profile(name, cores, idle_w, max_w)"
                                         " VALUES ('other', 8, 10, 100)", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(other);
    cluster *c = make_cluster("after");
    if (store_put_cluster(st, c, 0, &err))
        fail_msg("store_put_cluster: %s", err.msg);
    assert_int_equal(store_commit(st, &err), 0);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    assert_int_equal(tu_count(st, STORE_CPU), 2);
    cluster_free(c);
    catalog_free(cat);
    tu_store_free(st, dir);
}

static void count_waits(const char *path, void *calls)
{
    (void)path;
    (*(int *)calls)++;
}

/* Another program holds the write lock: a write waits, tells the front end
 * once, and gives up after the limit with a message saying why (not
 * "database is locked"); nothing is half written, and once the lock is
 * free the same write goes through. */
static void test_write_waits_then_gives_up(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/w.db", dir);
    int waits = 0;
    store_open_opts o = {.on_wait = count_waits, .wait_ctx = &waits};
    store *st;
    gp_err err = {{0}};
    assert_int_equal(store_open_with(path, &o, &st, NULL, &err), 0);
    store_set_wait_limit(st, 0.5);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    assert_int_equal(store_put_gpu_profile(st, &cat->gpus[0], &err), -1);
    tu_assert_contains(err.msg, "another program has been writing to the database for more "
                                "than 0.5 s");
    assert_int_equal(waits, 1);
    assert_int_equal(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    assert_int_equal(tu_count(st, STORE_GPU), 0);
    assert_int_equal(store_put_gpu_profile(st, &cat->gpus[0], &err), 0);
    assert_int_equal(tu_count(st, STORE_GPU), 1);
    assert_int_equal(waits, 1);
    catalog_free(cat);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* ---- the messages of entities found by name ------------------------------
 *
 * Every reader, writer and deleter words a missing or taken name the same
 * way (store_named.c); these are the exact texts users and scripts see. */

/* A store with cluster "lab", trace "tr", catalog "g" and snapshot "noon". */
static store *named_store_new(char **dir)
{
    store *st = tu_store_new(dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("lab");
    gp_trace *t = make_trace("tr");
    tput_catalog *tp = tput_catalog_new("g");
    snapshot *sn = snapshot_new("noon");
    strcpy(sn->cluster_name, "lab");
    if (store_put_cluster(st, c, 0, &err) || store_put_trace(st, t, 0, &err) ||
        store_put_tput_catalog(st, tp, 0, &err) || store_put_snapshot(st, sn, 0, &err))
        fail_msg("%s", err.msg);
    snapshot_free(sn);
    tput_catalog_free(tp);
    trace_free(t);
    cluster_free(c);
    return st;
}

/* Gets an entity of kind named "nope"; *out must stay NULL. */
static int get_nope(store *st, store_kind kind, gp_err *err)
{
    cluster *c = NULL;
    gp_trace *t = NULL;
    tput_catalog *tp = NULL;
    snapshot *sn = NULL;
    int rc = kind == STORE_CLUSTER ? store_get_cluster(st, "nope", &c, err)
             : kind == STORE_TRACE ? store_get_trace(st, "nope", &t, err)
             : kind == STORE_TPUT  ? store_get_tput_catalog(st, "nope", &tp, err)
                                   : store_get_snapshot(st, "nope", &sn, err);
    assert_true(!c && !t && !tp && !sn);
    return rc;
}

static int delete_nope(store *st, store_kind kind, gp_err *err)
{
    switch (kind) {
    case STORE_GPU: return store_delete_gpu_profile(st, "nope", err);
    case STORE_CPU: return store_delete_cpu_profile(st, "nope", err);
    case STORE_CLUSTER: return store_delete_cluster(st, "nope", err);
    case STORE_TRACE: return store_delete_trace(st, "nope", err);
    case STORE_TPUT: return store_delete_tput_catalog(st, "nope", err);
    default: return store_delete_snapshot(st, "nope", err);
    }
}

/* A name near the one named_store_new() gave the kind: the message names
 * the stored one (core/suggest.h). */
static int get_near(store *st, store_kind kind, gp_err *err)
{
    cluster *c = NULL;
    gp_trace *t = NULL;
    tput_catalog *tp = NULL;
    int rc = kind == STORE_CLUSTER ? store_get_cluster(st, "Lab", &c, err)
             : kind == STORE_TRACE ? store_get_trace(st, "tx", &t, err)
                                   : store_get_tput_catalog(st, "G", &tp, err);
    assert_true(!c && !t && !tp);
    return rc;
}

static int delete_near(store *st, store_kind kind, gp_err *err)
{
    return kind == STORE_SNAPSHOT ? store_delete_snapshot(st, "nono", err)
                                  : store_delete_cluster(st, "lbx", err);
}

/* Puts a second entity of kind under the name named_store_new() gave it. */
static int put_again(store *st, store_kind kind, gp_err *err)
{
    cluster *c = kind == STORE_CLUSTER ? make_cluster("lab") : NULL;
    gp_trace *t = kind == STORE_TRACE ? make_trace("tr") : NULL;
    tput_catalog *tp = kind == STORE_TPUT ? tput_catalog_new("g") : NULL;
    snapshot *sn = kind == STORE_SNAPSHOT ? snapshot_new("noon") : NULL;
    if (sn)
        strcpy(sn->cluster_name, "lab");
    int rc = c ? store_put_cluster(st, c, 0, err)
             : t ? store_put_trace(st, t, 0, err)
             : tp ? store_put_tput_catalog(st, tp, 0, err)
                  : store_put_snapshot(st, sn, 0, err);
    cluster_free(c);
    trace_free(t);
    tput_catalog_free(tp);
    snapshot_free(sn);
    return rc;
}

static int delete_cpu_in_use(store *st, store_kind kind, gp_err *err)
{
    (void)kind;
    return store_delete_cpu_profile(st, "Xeon-E5-2682v4", err);
}

static int put_snapshot(store *st, const char *name, const char *cluster_name, gp_err *err)
{
    snapshot *sn = snapshot_new(name);
    strcpy(sn->cluster_name, cluster_name);
    int rc = store_put_snapshot(st, sn, 0, err);
    snapshot_free(sn);
    return rc;
}

static int put_snapshot_no_cluster(store *st, store_kind kind, gp_err *err)
{
    (void)kind;
    return put_snapshot(st, "eve", "nope", err);
}

/* A run of trace "tr" on cluster "lab", one of them "nope" as kind says. */
static int put_run_missing(store *st, store_kind kind, gp_err *err)
{
    run *r = run_new("first");
    strcpy(r->trace_name, kind == STORE_TRACE ? "nope" : "tr");
    strcpy(r->cluster_name, kind == STORE_CLUSTER ? "nope" : "lab");
    int rc = store_put_run(st, r, err);
    run_free(r);
    return rc;
}

/* Cluster "lab2" with a CPU model nobody added (kind STORE_CPU) or GPUs
 * on its CPU-only node (kind STORE_GPU). */
static int put_bad_node(store *st, store_kind kind, gp_err *err)
{
    cluster *c = make_cluster("lab2");
    if (kind == STORE_CPU)
        strcpy(c->nodes[0].cpu_model, "Z1");
    else
        c->nodes[1].gpu_count = 2;
    int rc = store_put_cluster(st, c, 0, err);
    cluster_free(c);
    return rc;
}

static const struct {
    const char *what;
    int (*op)(store *st, store_kind kind, gp_err *err);
    store_kind kind;
    const char *msg;            /* the whole message */
} named_cases[] = {
    {"get missing cluster", get_nope, STORE_CLUSTER, "no cluster named 'nope'"},
    {"get missing trace", get_nope, STORE_TRACE, "no trace named 'nope'"},
    {"get missing catalog", get_nope, STORE_TPUT, "no throughput catalog named 'nope'"},
    {"get missing snapshot", get_nope, STORE_SNAPSHOT, "no snapshot named 'nope'"},
    {"delete missing GPU profile", delete_nope, STORE_GPU, "no GPU profile named 'nope'"},
    {"delete missing CPU profile", delete_nope, STORE_CPU, "no CPU profile named 'nope'"},
    {"delete missing cluster", delete_nope, STORE_CLUSTER, "no cluster named 'nope'"},
    {"delete missing trace", delete_nope, STORE_TRACE, "no trace named 'nope'"},
    {"delete missing catalog", delete_nope, STORE_TPUT, "no throughput catalog named 'nope'"},
    {"delete missing snapshot", delete_nope, STORE_SNAPSHOT, "no snapshot named 'nope'"},
    {"get a cluster by its name's case", get_near, STORE_CLUSTER,
     "no cluster named 'Lab' (did you mean 'lab'?)"},
    {"get a trace one typo away", get_near, STORE_TRACE,
     "no trace named 'tx' (did you mean 'tr'?)"},
    {"get a catalog by its name's case", get_near, STORE_TPUT,
     "no throughput catalog named 'G' (did you mean 'g'?)"},
    {"delete a snapshot one swap away", delete_near, STORE_SNAPSHOT,
     "no snapshot named 'nono' (did you mean 'noon'?)"},
    {"delete a cluster two typos away", delete_near, STORE_CLUSTER,
     "no cluster named 'lbx'"},
    {"delete CPU profile in use", delete_cpu_in_use, STORE_CPU,
     "CPU profile 'Xeon-E5-2682v4' is used by 1 node(s); delete or change those clusters first"},
    {"cluster name taken", put_again, STORE_CLUSTER,
     "a cluster named 'lab' already exists (delete it or import with --replace)"},
    {"trace name taken", put_again, STORE_TRACE,
     "a trace named 'tr' already exists (delete it or import with --replace)"},
    {"catalog name taken", put_again, STORE_TPUT,
     "a throughput catalog named 'g' already exists (delete it or import with --replace)"},
    {"snapshot name taken", put_again, STORE_SNAPSHOT, "a snapshot named 'noon' already exists"},
    {"snapshot of a missing cluster", put_snapshot_no_cluster, STORE_SNAPSHOT,
     "snapshot 'eve': no cluster named 'nope'"},
    {"run of a missing trace", put_run_missing, STORE_TRACE, "run: no trace named 'nope'"},
    {"run on a missing cluster", put_run_missing, STORE_CLUSTER, "run: no cluster named 'nope'"},
    {"node with an unknown CPU", put_bad_node, STORE_CPU,
     "node 'server-0': unknown CPU model 'Z1' (add the profile first)"},
    {"GPUs without a model", put_bad_node, STORE_GPU,
     "node 'cpu-only': has 2 GPUs but no GPU model"},
};

static void test_named_messages(void **state)
{
    (void)state;
    char *dir;
    store *st = named_store_new(&dir);
    for (size_t i = 0; i < sizeof named_cases / sizeof *named_cases; i++) {
        gp_err err = {{0}};
        if (named_cases[i].op(st, named_cases[i].kind, &err) != -1)
            fail_msg("%s: succeeded", named_cases[i].what);
        if (strcmp(err.msg, named_cases[i].msg) != 0)
            fail_msg("%s: \"%s\", expected \"%s\"", named_cases[i].what, err.msg,
                     named_cases[i].msg);
    }
    /* Nothing a failed write began is left behind. */
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    assert_int_equal(tu_count(st, STORE_SNAPSHOT), 1);
    assert_int_equal(tu_count(st, STORE_RUN), 0);
    tu_store_free(st, dir);
}

/* A task the schema refuses names itself, and its trace is not kept. */
static void test_bad_task_named(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    gp_trace *t = make_trace("tr");
    t->tasks[1].kappa = 0.5;    /* CHECK (kappa >= 1) */
    assert_int_equal(store_put_trace(st, t, 0, &err), -1);
    tu_assert_contains(err.msg, "task 'cpu': ");
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    trace_free(t);
    tu_store_free(st, dir);
}

/* replace = 1 swaps a cluster and its snapshot for new ones of the same
 * name; the old cluster's snapshot goes with it (ON DELETE CASCADE). */
static void test_replace_named(void **state)
{
    (void)state;
    char *dir;
    store *st = named_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("lab");
    c->nnodes = 1;
    assert_int_equal(store_put_cluster(st, c, 1, &err), 0);
    cluster *back;
    assert_int_equal(store_get_cluster(st, "lab", &back, &err), 0);
    assert_int_equal(back->nnodes, 1);
    assert_int_equal(back->id, c->id);
    cluster_free(back);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    assert_int_equal(tu_count(st, STORE_SNAPSHOT), 0);
    assert_int_equal(put_snapshot(st, "noon", "lab", &err), 0);
    snapshot *sn = snapshot_new("noon");
    strcpy(sn->cluster_name, "lab");
    sn->time_s = 7;
    assert_int_equal(store_put_snapshot(st, sn, 1, &err), 0);
    snapshot_free(sn);
    assert_int_equal(store_get_snapshot(st, "noon", &sn, &err), 0);
    assert_double_equal(sn->time_s, 7, 0);
    assert_string_equal(sn->tasks->name, "snapshot:noon");
    snapshot_free(sn);
    assert_int_equal(tu_count(st, STORE_SNAPSHOT), 1);
    cluster_free(c);
    tu_store_free(st, dir);
}

/* Per-device memory of a full node, each value printing as long as "%g"
 * makes it, is stored whole and read back in device order. */
static void test_device_memory_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    cluster *c = make_cluster("wide");
    node *n = &c->nodes[0];
    n->gpu_count = GP_NODE_MAX_GPUS;
    for (int i = 0; i < GP_NODE_MAX_GPUS; i++)
        n->gpu_mem_gib[i] = 1.23451e-05 + 1e-10 * i;
    assert_int_equal(store_put_cluster(st, c, 0, &err), 0);
    cluster *back;
    assert_int_equal(store_get_cluster(st, "wide", &back, &err), 0);
    for (int i = 0; i < GP_NODE_MAX_GPUS; i++)
        assert_double_equal(back->nodes[0].gpu_mem_gib[i], 1.23451e-05 + 1e-10 * i, 1e-16);
    cluster_free(back);
    cluster_free(c);
    tu_store_free(st, dir);
}

static void test_kind_parse(void **state)
{
    (void)state;
    assert_int_equal(store_kind_parse("traces"), STORE_TRACE);
    assert_int_equal(store_kind_parse("GPU"), STORE_GPU);
    assert_int_equal(store_kind_parse("runs"), STORE_RUN);
    assert_int_equal(store_kind_parse("bogus"), -1);
}

/* data_version moves when another connection commits, and only then: the
 * dashboard reads its lists again on that. */
static void test_data_version(void **state)
{
    (void)state;
    char *dir;
    store *a = tu_store_new(&dir), *b = NULL;
    char *path = xasprintf("%s/test.db", dir);
    gp_err err = {{0}};
    assert_int_equal(store_open(path, &b, NULL, &err), 0);
    int64_t v0, v1, v2;
    assert_int_equal(store_data_version(a, &v0, &err), 0);
    cluster *c = cluster_new("own");
    node n = {.name = "n0", .gpu_model = "V100", .gpu_count = 1, .cpu_milli = 1000,
              .ram_mib = 1024, .cpu_model = ""};
    cluster_add_node(c, &n);
    assert_int_equal(store_put_cluster(a, c, 0, &err), 0);
    assert_int_equal(store_data_version(a, &v1, &err), 0);
    assert_true(v1 == v0);              /* its own write */
    strlcpy0(c->name, "other", sizeof c->name);
    assert_int_equal(store_put_cluster(b, c, 0, &err), 0);
    assert_int_equal(store_data_version(a, &v2, &err), 0);
    assert_true(v2 != v1);              /* another program's */
    cluster_free(c);
    store_close(b);
    free(path);
    tu_store_free(a, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_creates_schema),
        cmocka_unit_test(test_new_database_page_size),
        cmocka_unit_test(test_future_version_refused),
        cmocka_unit_test(test_garbage_file_refused),
        cmocka_unit_test(test_negative_version_refused),
        cmocka_unit_test(test_foreign_database_refused),
        cmocka_unit_test(test_empty_file_gets_schema),
        cmocka_unit_test(test_init_in_creating_transaction),
        cmocka_unit_test(test_write_after_other_commit),
        cmocka_unit_test(test_write_waits_then_gives_up),
        cmocka_unit_test(test_truncated_db_refused),
        cmocka_unit_test(test_profile_upsert_and_delete),
        cmocka_unit_test(test_cluster_round_trip),
        cmocka_unit_test(test_trace_round_trip),
        cmocka_unit_test(test_tput_round_trip),
        cmocka_unit_test(test_snapshot_round_trip),
        cmocka_unit_test(test_run_round_trip),
        cmocka_unit_test(test_transaction_rolls_back),
        cmocka_unit_test(test_kind_parse),
        cmocka_unit_test(test_named_messages),
        cmocka_unit_test(test_bad_task_named),
        cmocka_unit_test(test_replace_named),
        cmocka_unit_test(test_device_memory_round_trip),
        cmocka_unit_test(test_data_version),
    };
    return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
