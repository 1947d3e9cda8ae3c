/*
 * test_export_set.c — a CSV set replaced as a set (io layer: export_set.c,
 * set_manifest.c and the native and peace importers' check):
 *   a trace without series exported over one with them leaves no util.csv;
 *   an export cut short by the file-size limit leaves the previous set
 *   byte for byte and no temporary file;
 *   import refuses a file that is not the one the manifest lists, a listed
 *   file that is missing, a file of a set beside it that the manifest does
 *   not list, two exports' files of one set, and a malformed manifest
 *   (file:line:col);
 *   a directory without a manifest, and one holding a cluster, a trace and
 *   a throughput table exported one after the other, import.
 */
#include "testutil.h"

#include "io/export.h"
#include "io/set_manifest.h"

#include <signal.h>
#include <sys/resource.h>

/* A trace of n tasks named t0.. (duration d), each with `samples` samples. */
static gp_trace *make_trace(const char *name, int n, double d, size_t samples)
{
    gp_trace *t = trace_new(name);
    float *pct = xcalloc(samples ? samples : 1, sizeof *pct);
    for (size_t j = 0; j < samples; j++)
        pct[j] = (float)(j % 100);
    for (int i = 0; i < n; i++) {
        task k;
        task_init(&k);
        snprintf(k.name, sizeof k.name, "t%d", i);
        k.duration_s = d;
        k.arrival_s = i;
        if (samples)
            task_set_util(&k, pct, samples, 60);
        trace_add_task(t, &k);
        task_release(&k);
    }
    free(pct);
    return t;
}

static char *slurp(const char *dir, const char *file)
{
    char *p = xasprintf("%s/%s", dir, file);
    size_t len;
    gp_err err = {{0}};
    char *text = read_file(p, &len, &err);
    free(p);
    return text;
}

static int exists(const char *dir, const char *file)
{
    char *p = xasprintf("%s/%s", dir, file);
    int there = access(p, F_OK) == 0;
    free(p);
    return there;
}

/* Imports dir as "in"; returns the importer's rc, err filled. */
static int import_dir(store *st, const char *dir, gp_err *err)
{
    import_opts opts = {0};
    opts.name = "in";
    opts.replace = 1;
    import_result res;
    const char *paths[] = {dir};
    return import_run(st, &import_native, paths, 1, &opts, &res, err);
}

static void test_stale_file_removed(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    gp_err err = {{0}};
    gp_trace *a = make_trace("a", 3, 100, 5), *b = make_trace("b", 2, 50, 0);
    assert_int_equal(export_trace_csv(a, dir, &err), 0);
    assert_true(exists(dir, "util.csv"));
    assert_int_equal(export_trace_csv(b, dir, &err), 0);
    assert_false(exists(dir, "util.csv"));
    char *st_dir;
    store *st = tu_store_new(&st_dir);
    if (import_dir(st, dir, &err))
        fail_msg("%s", err.msg);
    gp_trace *got;
    assert_int_equal(store_get_trace(st, "in", &got, &err), 0);
    assert_int_equal(got->ntasks, 2);
    assert_int_equal(got->tasks[0].util.len, 0);
    trace_free(got);
    tu_store_free(st, st_dir);
    trace_free(a);
    trace_free(b);
    tu_rmrf(dir);
    free(dir);
}

static void test_cut_short_leaves_old_set(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    gp_err err = {{0}};
    gp_trace *a = make_trace("a", 2, 100, 3), *b = make_trace("b", 2, 200, 2000);
    assert_int_equal(export_trace_csv(a, dir, &err), 0);
    char *tasks = slurp(dir, "tasks.csv"), *util = slurp(dir, "util.csv");
    char *manifest = slurp(dir, SET_MANIFEST);
    assert_non_null(manifest);
    /* tasks.csv of b fits under the limit, its util.csv does not. */
    struct rlimit old, lim = {4096, 4096};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim.rlim_max = old.rlim_max;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = export_trace_csv(b, dir, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.msg, "util.csv: writing failed"));
    char *tasks2 = slurp(dir, "tasks.csv"), *util2 = slurp(dir, "util.csv");
    char *manifest2 = slurp(dir, SET_MANIFEST);
    assert_string_equal(tasks, tasks2);
    assert_string_equal(util, util2);
    assert_string_equal(manifest, manifest2);
    char *cmd = xasprintf("ls -a '%s' | grep -q 'tmp$'", dir);
    assert_int_not_equal(system(cmd), 0);
    free(cmd);
    char *st_dir;
    store *st = tu_store_new(&st_dir);
    if (import_dir(st, dir, &err))
        fail_msg("%s", err.msg);
    tu_store_free(st, st_dir);
    free(tasks);
    free(util);
    free(manifest);
    free(tasks2);
    free(util2);
    free(manifest2);
    trace_free(a);
    trace_free(b);
    tu_rmrf(dir);
    free(dir);
}

/* A directory holding trace a's export, changed by `how` (a shell command
 * run in it, with $B the directory of trace b's export), is refused
 * with a message holding `says`. */
typedef struct mixed_case {
    const char *how;
    const char *says;
} mixed_case;

static const mixed_case mixed[] = {
    {"cp \"$B/util.csv\" util.csv", "util.csv: not the file the export listed in"},
    /* Same size, other bytes: found by the digest taken while reading,
     * whether the rows are still good or not. */
    {"sed -i 's/^t1,2,2$/t1,2,5/' util.csv", "util.csv: not the file the export listed in"},
    {"sed -i 's/^t0,0,0$/t0,9,0/' util.csv", "util.csv: not the file the export listed in"},
    {"sed -i 's/^t1,1,/t1,3,/' tasks.csv", "tasks.csv: not the file the export listed in"},
    {"sed -i 's/^t1,1,/t1,x,/' tasks.csv", "tasks.csv: not the file the export listed in"},
    {"rm util.csv", "lists util.csv, which is missing"},
    {"cp \"$B/util.csv\" util.csv && grep -v '^util.csv,' manifest.csv >m && mv m manifest.csv",
     "util.csv is not listed beside"},
    {"cp \"$B/util.csv\" util.csv && grep -v '^util.csv,' manifest.csv >m && "
     "grep '^util.csv,' \"$B/manifest.csv\" >>m && mv m manifest.csv",
     "come from two exports"},
    {"printf 'file,set,bytes,fnv1a\\ntasks.csv,12,1,0000000000000000\\n' >manifest.csv",
     "manifest.csv:2:2: column 'set': expected 16 hex digits"},
    {"printf 'file,set,bytes,fnv1a\\n../x,0000000000000000,1,0000000000000000\\n' "
     ">manifest.csv", "manifest.csv:2:1: column 'file'"},
};

static void test_mixed_sets_refused(void **state)
{
    (void)state;
    gp_trace *a = make_trace("a", 2, 100, 3), *b = make_trace("b", 2, 200, 4);
    for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++) {
        char *da = tu_tmpdir(), *db = tu_tmpdir();
        gp_err err = {{0}};
        assert_int_equal(export_trace_csv(a, da, &err), 0);
        assert_int_equal(export_trace_csv(b, db, &err), 0);
        char *cmd = xasprintf("cd '%s' && B='%s' && %s", da, db, mixed[i].how);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        char *st_dir;
        store *st = tu_store_new(&st_dir);
        if (import_dir(st, da, &err) == 0)
            fail_msg("case %zu (%s): imported", i, mixed[i].how);
        if (!strstr(err.msg, mixed[i].says))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, mixed[i].says);
        tu_store_free(st, st_dir);
        tu_rmrf(da);
        tu_rmrf(db);
        free(da);
        free(db);
    }
    trace_free(a);
    trace_free(b);
}

static void test_sets_share_a_directory(void **state)
{
    (void)state;
    char *st_dir;
    store *st = tu_store_new(&st_dir);
    gp_err err = {{0}};
    const char *paths[] = {"tests/fixtures/native/lab"};
    import_opts opts = {0};
    opts.name = "lab";
    import_result res;
    if (import_run(st, &import_native, paths, 1, &opts, &res, &err))
        fail_msg("%s", err.msg);
    cluster *cl;
    gp_trace *tr;
    tput_catalog *tp;
    catalog *cat;
    assert_int_equal(store_get_cluster(st, "lab", &cl, &err) ||
                     store_get_trace(st, "lab", &tr, &err) ||
                     store_get_tput_catalog(st, "lab", &tp, &err) ||
                     store_load_catalog(st, &cat, &err), 0);
    char *dir = tu_tmpdir();
    assert_int_equal(export_cluster_csv(cl, cat, dir, &err), 0);
    assert_int_equal(export_trace_csv(tr, dir, &err), 0);
    assert_int_equal(export_tput_csv(tp, dir, &err), 0);
    if (import_dir(st, dir, &err))
        fail_msg("%s", err.msg);
    /* Without its manifest, as written before there was one. */
    char *m = xasprintf("%s/%s", dir, SET_MANIFEST);
    assert_int_equal(unlink(m), 0);
    free(m);
    if (import_dir(st, dir, &err))
        fail_msg("%s", err.msg);
    cluster_free(cl);
    trace_free(tr);
    tput_catalog_free(tp);
    catalog_free(cat);
    tu_rmrf(dir);
    free(dir);
    tu_store_free(st, st_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stale_file_removed),
        cmocka_unit_test(test_cut_short_leaves_old_set),
        cmocka_unit_test(test_mixed_sets_refused),
        cmocka_unit_test(test_sets_share_a_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
