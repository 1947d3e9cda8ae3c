/*
 * test_import_philly.c — the Philly importer on the fixture in
 * tests/fixtures/philly (every mapped field against hand-computed values)
 * and on a table of malformed job logs and utilization files, each of which
 * must fail with file:line:col and leave the store as it was.
 *
 * The fixture, in minutes after 2017-10-03 00:00 (util rows every minute):
 *   10001 Pass    submitted 0:30, one attempt 1..5 on m1 gpu0,gpu1
 *   10002 Killed  submitted 0:00, attempt 2..3 on m2 gpu0-3, attempt 4..6
 *                 on m1 gpu2 + m2 gpu4 (two machines)
 *   10003 Failed  no attempts (never started; submitted before all others)
 *   10004 Pass    end_time "None" (unfinished)
 *   10005 Pass    30 s, no GPUs (CPU-only)
 *   10006 Pass    24 GPUs on its last attempt (more than 16)
 */
#include "testutil.h"

#include "io/import.h"

#define FIX "tests/fixtures/philly/"

extern const importer import_philly;

static int run_import(store *st, const char *const *paths, size_t n, const char *name,
                      double period, int replace, import_result *res, gp_err *err)
{
    import_opts o = {0};
    o.name = name;
    o.period_s = period;
    o.replace = replace;
    return tu_import(st, &import_philly, paths, n, &o, res, err);
}

static void assert_series(const task *k, const float *want, size_t n, double period)
{
    assert_int_equal(k->util.len, n);
    assert_double_equal(k->util.period_s, period, 1e-9);
    for (size_t i = 0; i < n; i++)
        assert_double_equal(k->util.pct[i], want[i], 1e-4);
}

/* What every run on the fixture must give, util series aside. */
static void assert_fixture_tasks(const gp_trace *t)
{
    assert_int_equal(t->ntasks, 3);
    /* arrival order; 10003 was submitted first but skipped, so 10002 is 0 */
    const task *b = &t->tasks[0], *a = &t->tasks[1], *e = &t->tasks[2];
    assert_string_equal(b->name, "application_1506638472019_10002");
    assert_double_equal(b->arrival_s, 0, 0);
    assert_double_equal(b->duration_s, 240, 0);     /* 00:02 .. 00:06 */
    assert_int_equal(b->num_gpu, 2);                /* last attempt: m1 gpu2 + m2 gpu4 */
    assert_int_equal(b->gpu_milli, 1000);
    assert_string_equal(b->qos, "Killed");
    assert_string_equal(a->name, "application_1506638472019_10001");
    assert_double_equal(a->arrival_s, 30, 0);
    assert_double_equal(a->duration_s, 240, 0);
    assert_int_equal(a->num_gpu, 2);
    assert_int_equal(a->gpu_milli, 1000);
    assert_string_equal(a->qos, "Pass");
    assert_string_equal(e->name, "application_1506638472019_10005");
    assert_double_equal(e->arrival_s, 120, 0);
    assert_double_equal(e->duration_s, 30, 0);
    assert_int_equal(e->num_gpu, 0);
    assert_int_equal(e->gpu_milli, 0);
    for (size_t i = 0; i < 3; i++) {
        const task *k = &t->tasks[i];
        assert_null(k->gpu_spec);
        assert_double_equal(k->gpu_mem_gib, 0, 0);
        assert_int_equal(k->cpu_milli, 0);
        assert_int_equal(k->ram_mib, 0);
        assert_double_equal(k->kappa, GP_DEFAULT_KAPPA, 0);
    }
}

static void test_fixture(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "cluster_job_log", FIX "cluster_gpu_util"};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, paths, 2, NULL, 0, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.traces, 1);
    assert_int_equal(res.tasks, 3);
    assert_int_equal(res.samples, 10);
    tu_assert_contains(res.names, "trace 'cluster_job_log'");
    tu_assert_contains(res.names, "1 never started, 1 unfinished, 1 on more than 16 GPUs");

    gp_trace *t = tu_trace(st, "cluster_job_log");
    assert_fixture_tasks(t);
    /* 10002: 00:02 m2 gpu0-3 (10+20+30+40)/4 = 25; 00:03 50; 00:04 m1 gpu2 80 and
     * m2 gpu4 60 -> 70; 00:05 m2 gpu4 NA -> 90 alone; 00:06 (40+20)/2 = 30 */
    const float b[] = {25, 50, 70, 90, 30};
    assert_series(&t->tasks[0], b, 5, 60);
    assert_double_equal(t->tasks[0].util_mean, 53, 1e-4);
    assert_double_equal(t->tasks[0].util_peak, 90, 1e-4);
    assert_double_equal(t->tasks[0].util_first, 25, 1e-4);
    /* 10001 on m1 gpu0,gpu1: 00:01 (10+20)/2; 00:02 30 (gpu1 NA); 00:03 all NA
     * repeats 30; 00:04 (50+70)/2; 00:05 (60+80)/2.  The 00:00 row is before it
     * started and the 00:06 row after it ended. */
    const float a[] = {15, 30, 30, 60, 70};
    assert_series(&t->tasks[1], a, 5, 60);
    assert_double_equal(t->tasks[1].util_mean, 41, 1e-4);
    assert_double_equal(t->tasks[1].util_peak, 70, 1e-4);
    assert_double_equal(t->tasks[1].util_first, 15, 1e-4);
    assert_int_equal(t->tasks[2].util.len, 0);      /* CPU-only: no GPU to read */
    assert_double_equal(t->tasks[2].util_mean, 0, 0);
    trace_free(t);
    tu_store_free(st, dir);
}

/* A byte-order mark in front of the JSON job log and of the utilization
 * CSV (as Windows editors save them) changes nothing; jansson alone
 * refuses one. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *bom = xasprintf("%s/bom", dir);
    tu_copy_with_bom(FIX, bom);
    const char *plain[] = {FIX}, *marked[] = {bom};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, plain, 1, "plain", 0, 0, &res, &err) ||
        run_import(st, marked, 1, "bom", 0, 0, &res, &err))
        fail_msg("%s", err.msg);
    tu_assert_same_trace(st, "plain", "bom");
    char *log = xasprintf("%s/cluster_job_log", bom), *other = xasprintf("%s/jobs.json", bom);
    assert_int_equal(rename(log, other), 0);
    const char *by_content[] = {other};
    assert_int_equal(import_philly.detect(by_content, 1), 90);     /* by its first bytes */
    free(log);
    free(other);
    free(bom);
    tu_store_free(st, dir);
}

/* A file of the input directory that is there but cannot be read is an
 * error naming it, whether the set could do without it (cluster_gpu_util) or not
 * (cluster_job_log): before, an unreadable optional file was skipped and the
 * import succeeded without it. */
static void test_unreadable_files(void **state)
{
    (void)state;
    static const char *const files[] = {"cluster_gpu_util", "cluster_job_log"};
    char *dir;
    store *st = tu_store_new(&dir);
    tu_check_unreadable_files(st, dir, FIX, &import_philly, files, sizeof files / sizeof *files);
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    tu_store_free(st, dir);
}

static void test_job_log_only(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "cluster_job_log"};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, paths, 1, "jobs", 0, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.samples, 0);
    gp_trace *t = tu_trace(st, "jobs");
    assert_fixture_tasks(t);
    for (size_t i = 0; i < t->ntasks; i++) {
        assert_int_equal(t->tasks[i].util.len, 0);
        assert_double_equal(t->tasks[i].util_mean, 0, 0);
    }
    trace_free(t);
    tu_store_free(st, dir);
}

/* --period 120 bins two minutes together: 10001 gets 00:01 alone (15),
 * 00:02+00:03 (30, the NA minute adds nothing), 00:04+00:05 (50+70+60+80)/4. */
static void test_period_override(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "cluster_gpu_util", FIX "cluster_job_log"};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, paths, 2, "p120", 120, 0, &res, &err))
        fail_msg("%s", err.msg);
    gp_trace *t = tu_trace(st, "p120");
    const float a[] = {15, 30, 65};
    assert_series(&t->tasks[1], a, 3, 120);
    trace_free(t);
    tu_store_free(st, dir);
}

static void test_directory_and_detect(void **state)
{
    (void)state;
    const char *dirp[] = {FIX};
    const char *logp[] = {FIX "cluster_job_log"};
    const char *both[] = {FIX "cluster_job_log", FIX "cluster_gpu_util"};
    assert_ptr_equal(importer_detect(dirp, 1), &import_philly);
    assert_ptr_equal(importer_detect(logp, 1), &import_philly);
    assert_ptr_equal(importer_detect(both, 2), &import_philly);
    assert_int_equal(import_philly.detect(logp, 1), 95);
    const char *native[] = {"tests/fixtures/native/lab"};
    assert_int_equal(import_philly.detect(native, 1), 0);
    const char *pai[] = {"tests/fixtures/pai/pai_task_table.csv"};
    assert_int_equal(import_philly.detect(pai, 1), 0);

    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, dirp, 1, NULL, 0, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.samples, 10);
    tu_assert_contains(res.names, "trace 'philly'");     /* the directory's name */
    tu_store_free(st, dir);
}

/* A job log written under a name that is not the published one is still
 * recognised by its content. */
static void test_detect_by_content(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "jobs.json", "[\n  {\"status\": \"Pass\", \"jobid\": \"j\", \"attempts\": []}\n]\n");
    char *p = xasprintf("%s/jobs.json", dir);
    const char *paths[] = {p};
    assert_int_equal(import_philly.detect(paths, 1), 90);
    free(p);
    tu_rmrf(dir);
    free(dir);
}

/* ---- malformed input --------------------------------------------------- */

#define T0 "\"2017-10-03 00:00:00\""
#define T1 "\"2017-10-03 00:01:00\""
#define JOB_HEAD "{\"jobid\":\"a\",\"status\":\"Pass\",\"submitted_time\":" T0 ","
#define ATTEMPT(end, detail) \
    "\"attempts\":[{\"start_time\":" T0 ",\"end_time\":" end ",\"detail\":" detail "}]}"
#define GOOD_JOB JOB_HEAD ATTEMPT(T1, "[{\"ip\":\"m1\",\"gpus\":[\"gpu0\"]}]")
#define UTIL_HEAD "time,machineId,gpu0_util,gpu1_util\n"
#define ROW_T "2017-10-03 00:01:00 PDT"

/* A cluster_job_log is imported alone; a cluster_gpu_util with the
 * fixture's job log. */
/* 50 zeros: five make a job id past the longest name (253 bytes) */
#define Z50 "00000000000000000000000000000000000000000000000000"

static const tu_bad_case bad_cases[] = {
    /* JSON syntax, reported by jansson with its line and column */
    {"syntax error", "cluster_job_log", "[{\"jobid\": \"a\",}]",
     "cluster_job_log:1:16: string or '}' expected near '}'"},
    {"truncated file", "cluster_job_log", "[" GOOD_JOB ",\n{\"jobid\":\"b\",\"sta",
     "cluster_job_log:2:17: premature end of input"},
    {"NaN literal", "cluster_job_log", "[{\"jobid\": NaN}]",
     "cluster_job_log:1:14: invalid token near 'NaN'"},
    {"empty file", "cluster_job_log", "",
     "cluster_job_log:1:1: empty file (expected a JSON array of jobs)"},
    {"blank file", "cluster_job_log", " \n\n",
     "cluster_job_log:1:1: empty file (expected a JSON array of jobs)"},
    {"invalid UTF-8", "cluster_job_log", "[{\"jobid\":\"a\xff\"}]",
     "cluster_job_log:1:12: unable to decode byte 0xff"},
    /* wrong shapes and types, located by walking the text */
    {"top level object", "cluster_job_log", "\n  {\"jobs\": []}",
     "cluster_job_log:2:3: expected a JSON array of jobs, got an object"},
    {"empty array", "cluster_job_log", "[]",
     "cluster_job_log:1:1: no jobs in the array (expected at least one job)"},
    {"job not an object", "cluster_job_log", "[" GOOD_JOB ", 5]",
     "job #2: expected a job object, got an integer"},
    {"status not a string", "cluster_job_log", "[{\"jobid\": \"a\", \"status\": 3}]",
     "cluster_job_log:1:27: job #1 (a), field 'status': expected a string, got an integer"},
    /* columns count characters, as jansson's do: "é" is one */
    {"non-ASCII before the value", "cluster_job_log", "[{\"jobid\": \"é\", \"status\": 3}]",
     "cluster_job_log:1:27: job #1 (é), field 'status': expected a string, got an integer"},
    {"attempts not an array", "cluster_job_log",
     "[" JOB_HEAD "\"attempts\":\"x\"}]",
     "cluster_job_log:1:81: job #1 (a), field 'attempts': expected an array, got a string"},
    {"gpus not an array", "cluster_job_log",
     "[" JOB_HEAD ATTEMPT(T1, "[{\"ip\":\"m1\",\"gpus\":\"gpu0\"}]") "]",
     "field 'attempts[0].detail[0].gpus': expected an array, got a string"},
    {"end_time a number", "cluster_job_log", "[" JOB_HEAD ATTEMPT("17", "[]") "]",
     "cluster_job_log:1:129: job #1 (a), field 'attempts[0].end_time': expected a time "
     "'YYYY-MM-DD HH:MM:SS' or null, got an integer"},
    /* missing fields point at the object that lacks them */
    {"missing submitted_time", "cluster_job_log",
     "[{\"jobid\":\"a\",\"status\":\"Pass\",\"attempts\":[]}]",
     "cluster_job_log:1:2: job #1 (a), field 'submitted_time': missing (expected a string)"},
    {"missing jobid", "cluster_job_log", "[" GOOD_JOB ",\n {\"status\":\"Pass\"}]",
     "cluster_job_log:2:2: job #2, field 'jobid': missing (expected a string)"},
    {"missing detail", "cluster_job_log",
     "[" JOB_HEAD "\"attempts\":[{\"start_time\":null}]}]",
     "cluster_job_log:1:82: job #1 (a), field 'attempts[0].detail': missing (expected an "
     "array)"},
    {"missing ip", "cluster_job_log", "[" JOB_HEAD ATTEMPT(T1, "[{\"gpus\":[]}]") "]",
     "field 'attempts[0].detail[0].ip': missing (expected a string)"},
    /* bad values */
    {"bad month", "cluster_job_log",
     "[\n  {\"jobid\": \"a\", \"status\": \"Pass\", \"submitted_time\": " T0 ",\n"
     "   \"attempts\": [{\"start_time\": " T0 ", \"end_time\": \"2017-13-03 00:00:00\", "
     "\"detail\": []}]}\n]\n",
     "cluster_job_log:3:67: job #1 (a), field 'attempts[0].end_time': expected a time "
     "'YYYY-MM-DD HH:MM:SS' (years 1970-2100), null or \"None\", got '2017-13-03 00:00:00'"},
    {"huge year", "cluster_job_log",
     "[{\"jobid\":\"a\",\"status\":\"Pass\",\"submitted_time\":\"99999-10-03 00:00:00\","
     "\"attempts\":[]}]",
     "cluster_job_log:1:48: job #1 (a), field 'submitted_time': expected a time"},
    {"negative time (before 1970)", "cluster_job_log",
     "[{\"jobid\":\"a\",\"status\":\"Pass\",\"submitted_time\":\"1969-12-31 23:59:59\","
     "\"attempts\":[]}]",
     "field 'submitted_time': expected a time 'YYYY-MM-DD HH:MM:SS' (years 1970-2100), "
     "got '1969-12-31 23:59:59'"},
    {"bad gpu name", "cluster_job_log",
     "[" JOB_HEAD ATTEMPT(T1, "[{\"ip\":\"m1\",\"gpus\":[\"gpu0\",\"gpuX\"]}]") "]",
     "field 'attempts[0].detail[0].gpus[1]': expected a GPU name 'gpu0'..'gpu15', got 'gpuX'"},
    {"gpu index too big", "cluster_job_log",
     "[" JOB_HEAD ATTEMPT(T1, "[{\"ip\":\"m1\",\"gpus\":[\"gpu16\"]}]") "]",
     "got 'gpu16'"},
    {"jobid too long", "cluster_job_log",
     "[{\"jobid\":\"application_0000000000000_" Z50 Z50 Z50 Z50 Z50 "\"}]",
     "cluster_job_log:1:11: job #1, field 'jobid': expected a job id of 1 to 253 bytes (it "
     "names the task), got 276 bytes"},
    {"duplicate jobid", "cluster_job_log", "[" GOOD_JOB ",\n " GOOD_JOB "]",
     "cluster_job_log:2:11: job #2 (a), field 'jobid': expected a unique job id ('a' is "
     "also job #1)"},
    {"nothing ran", "cluster_job_log", "[" JOB_HEAD ATTEMPT("null", "[]") "]",
     "cluster_job_log: no job to import (1 jobs: 0 never started, 1 unfinished"},
    /* cluster_gpu_util (the fixture's job log comes along) */
    {"util empty file", "cluster_gpu_util", "",
     "cluster_gpu_util:1:1: empty file (expected a header line)"},
    {"util missing column", "cluster_gpu_util", "time,gpu0_util\n",
     "cluster_gpu_util:1:1: missing column 'machineId' in the header"},
    {"util unknown column", "cluster_gpu_util", "time,machineId,gpu0_util,foo\n",
     "cluster_gpu_util:1:4: unknown column 'foo'"},
    {"util truncated row", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0\n",
     "cluster_gpu_util:2:4: row has 3 fields, expected 4 (truncated row?)"},
    {"util extra column", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0,1,2\n",
     "cluster_gpu_util:2:5: row has 5 fields, expected 4 (extra column?)"},
    {"util non-numeric", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0,1\n" ROW_T ",m2,abc,1\n",
     "cluster_gpu_util:3:3: column 'gpu0_util': expected a percentage 0..100 or NA, got 'abc'"},
    {"util NaN", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0,nan\n",
     "cluster_gpu_util:2:4: column 'gpu1_util': expected a percentage 0..100 or NA, got 'nan'"},
    {"util inf", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,inf,1\n",
     "cluster_gpu_util:2:3: column 'gpu0_util': expected a percentage 0..100 or NA, got 'inf'"},
    {"util negative", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0,-1\n",
     "cluster_gpu_util:2:4: column 'gpu1_util': -1 is out of range [0, 100]"},
    {"util huge", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,1e300,1\n",
     "cluster_gpu_util:2:3: column 'gpu0_util': 1e+300 is out of range [0, 100]"},
    {"util overflow", "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,1e999,1\n",
     "column 'gpu0_util': expected a percentage 0..100 or NA, got '1e999'"},
    {"util bad time", "cluster_gpu_util", UTIL_HEAD "2017-10-03 00:01:00 pdt,m1,10.0,1\n",
     "cluster_gpu_util:2:1: column 'time': expected 'YYYY-MM-DD HH:MM:SS' with an optional "
     "zone such as PST, got '2017-10-03 00:01:00 pdt'"},
    {"util invalid UTF-8", "cluster_gpu_util", UTIL_HEAD ROW_T ",m\xe9,10.0,1\n",
     "cluster_gpu_util:2:26: invalid UTF-8 byte 0xe9 (expected UTF-8 text)"},
    {"util unterminated quote", "cluster_gpu_util", UTIL_HEAD "\"" ROW_T ",m1,10.0,1\n",
     "cluster_gpu_util:2:1: unterminated quoted field"},
};

static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    const char *paths[2] = {r->path, FIX "cluster_job_log"};
    size_t n = strcmp(r->c->file, "cluster_gpu_util") == 0 ? 2 : 1;
    import_result res;
    return run_import(st, paths, n, "bad", 0, 0, &res, err);
}

/* Against a store that already holds trace 'kept' (3 tasks), which every
 * case must leave as it is. */
static void test_bad_inputs(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "cluster_job_log"};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, paths, 1, "kept", 0, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_assert_trace_tasks(st, "kept", 3);
    tu_run_bad_cases(st, bad_cases, import_bad, NULL);
    tu_assert_trace_tasks(st, "kept", 3);
    tu_store_free(st, dir);
}

/* A failed --replace keeps the trace it would have replaced. */
static void test_failed_replace_keeps_old(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *good[] = {FIX "cluster_job_log"};
    import_result res;
    gp_err err = {{0}};
    assert_int_equal(run_import(st, good, 1, "x", 0, 0, &res, &err), 0);
    assert_int_equal(run_import(st, good, 1, "x", 0, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    char *tmp = tu_tmpdir();
    tu_write(tmp, "cluster_gpu_util", UTIL_HEAD ROW_T ",m1,10.0,abc\n");
    char *p = xasprintf("%s/cluster_gpu_util", tmp);
    const char *bad[] = {FIX "cluster_job_log", p};
    assert_int_equal(run_import(st, bad, 2, "x", 0, 1, &res, &err), -1);
    gp_trace *t = tu_trace(st, "x");
    assert_int_equal(t->ntasks, 3);
    assert_int_equal(t->tasks[0].util.len, 0);       /* still the version without util */
    trace_free(t);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    free(p);
    tu_rmrf(tmp);
    free(tmp);
    tu_store_free(st, dir);
}

static void test_bad_paths(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_err err = {{0}};
    const char *only_util[] = {FIX "cluster_gpu_util"};
    assert_int_equal(run_import(st, only_util, 1, NULL, 0, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "expected cluster_job_log");
    const char *two_logs[] = {FIX "cluster_job_log", FIX "cluster_job_log"};
    assert_int_equal(run_import(st, two_logs, 2, NULL, 0, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "a second job log");
    const char *missing[] = {"tests/fixtures/philly/no-such-file"};
    assert_int_equal(run_import(st, missing, 1, NULL, 0, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "no-such-file: cannot open");
    const char *log[] = {FIX "cluster_job_log"};
    assert_int_equal(run_import(st, log, 1, NULL, 0.5, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "--period 0.5 s is below 1 s");
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_job_log_only),
        cmocka_unit_test(test_period_override),
        cmocka_unit_test(test_directory_and_detect),
        cmocka_unit_test(test_detect_by_content),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_failed_replace_keeps_old),
        cmocka_unit_test(test_bad_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
