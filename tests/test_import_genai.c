/*
 * test_import_genai.c — the Alibaba GenAI 2026 GPU series importer: a small
 * interleaved, unsorted file with a gap, a duplicate timestamp and values
 * just outside 0..100, with every field checked; the --period override;
 * detection; every malformed class rejected with file:line:col and the
 * store left as it was; and the real files when ../shared/data is there.
 */
#include "testutil.h"

#include "io/import.h"

/* Registered in import.c; import.h declares only the native importer. */
extern const importer import_genai;

#define FIX "tests/fixtures/genai/"
static const char *const duty_fix = FIX "pod_gpu_duty_cycle_lab.csv";
static const char *const mem_fix = FIX "pod_gpu_memory_used_bytes_lab.csv";

static int import_paths(store *st, const char *const *paths, size_t n, double period,
                        import_result *res, gp_err *err)
{
    import_opts opts = {0};
    opts.period_s = period;
    return tu_import(st, &import_genai, paths, n, &opts, res, err);
}

/* What the lab file must give (worked out by hand in the comments). */
typedef struct series_want {
    const char *name;
    double arrival, duration, mem_gib;
    size_t len;
    float pct[5];
} series_want;

static const series_want lab_tasks[] = {
    /* 1000..1240: 10, 20, (1120 missing: carried) 20, 30, -0.5 clamped to 0 */
    {"aaa", 0, 300, 3, 5, {10, 20, 20, 30, 0}},
    /* one sample at the earliest time; first seen after aaa; no memory rows */
    {"ccc", 0, 60, 0, 1, {5}},
    /* 1060..1300: 100.4 clamped to 100; 1300 twice (40, 60) averaged to 50 */
    {"bbb", 60, 300, 0.5, 5, {50, 70, 100, 90, 50}},
};

static void check_task(const task *k, const series_want *w, double period)
{
    assert_string_equal(k->name, w->name);
    assert_double_equal(k->arrival_s, w->arrival, 0);
    assert_double_equal(k->duration_s, w->duration, 0);
    assert_double_equal(k->gpu_mem_gib, w->mem_gib, 0);
    assert_int_equal(k->num_gpu, 1);
    assert_int_equal(k->gpu_milli, 1000);
    assert_double_equal(k->util.period_s, period, 0);
    assert_int_equal(k->util.len, w->len);
    double sum = 0, peak = 0;
    for (size_t i = 0; i < w->len; i++) {
        assert_double_equal(k->util.pct[i], w->pct[i], 1e-6);
        sum += w->pct[i];
        peak = w->pct[i] > peak ? w->pct[i] : peak;
    }
    assert_double_equal(k->util_mean, sum / (double)w->len, 1e-6);
    assert_double_equal(k->util_peak, peak, 1e-6);
    assert_double_equal(k->util_first, w->pct[0], 0);
}

static void test_good_series(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[2] = {mem_fix, duty_fix};     /* any order */
    if (import_paths(st, paths, 2, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.traces, 1);
    assert_int_equal(res.tasks, 3);
    assert_int_equal(res.samples, 11);
    assert_string_equal(res.names, "trace 'pod_gpu_duty_cycle_lab' (1 samples carried over "
                        "gaps, 1 memory-only containers ignored)");
    gp_trace *t = tu_trace(st, "pod_gpu_duty_cycle_lab");
    assert_int_equal(t->ntasks, 3);
    for (size_t i = 0; i < 3; i++)
        check_task(&t->tasks[i], &lab_tasks[i], 60);
    tu_assert_contains(t->source, "pod_gpu_duty_cycle_lab.csv + ");
    trace_free(t);
    tu_store_free(st, dir);
}

/* --period 120: slots of 120 s hold the mean of their rows. */
/* Both series files with a byte-order mark import as without. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *bom = xasprintf("%s/bom", dir);
    tu_copy_with_bom(FIX, bom);
    char *duty = xasprintf("%s/pod_gpu_duty_cycle_lab.csv", bom);
    char *mem = xasprintf("%s/pod_gpu_memory_used_bytes_lab.csv", bom);
    const char *plain[] = {duty_fix, mem_fix}, *marked[] = {duty, mem};
    assert_int_equal(import_genai.detect(marked, 2), 95);
    import_result res;
    import_opts o = {.name = "plain"};
    tu_import_ok(st, &import_genai, plain, 2, &o, &res);
    o.name = "bom";
    tu_import_ok(st, &import_genai, marked, 2, &o, &res);
    tu_assert_same_trace(st, "plain", "bom");
    free(duty);
    free(mem);
    free(bom);
    tu_store_free(st, dir);
}

static void test_period_override(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[1] = {duty_fix};
    if (import_paths(st, paths, 1, 120, &res, &err))
        fail_msg("%s", err.msg);
    gp_trace *t = tu_trace(st, "pod_gpu_duty_cycle_lab");
    const series_want aaa = {"aaa", 0, 360, 0, 3, {15, 30, 0}};
    const series_want bbb = {"bbb", 60, 360, 0, 3, {60, 95, 50}};
    check_task(&t->tasks[0], &aaa, 120);
    check_task(&t->tasks[2], &bbb, 120);
    trace_free(t);
    tu_store_free(st, dir);
}

static void test_detect(void **state)
{
    (void)state;
    const char *both[2] = {duty_fix, mem_fix};
    const char *other[1] = {"tests/fixtures/native/lab/tasks.csv"};
    assert_ptr_equal(importer_detect(both, 2), &import_genai);
    assert_int_equal(import_genai.detect(both, 2), 95);
    assert_int_equal(import_genai.detect(other, 1), 0);
    assert_true(strlen(import_genai.summary) > 0 && strlen(import_genai.inputs) > 0);
}

#define DUTY_HDR "value,timestamp_anon,container_ip\n"
#define MEM_HDR "timestamp_anon,value,container_ip\n"
#define GOOD_DUTY DUTY_HDR "1,1000,a\n2,1060,a\n"

/* Malformed cases: duty.csv (or mem.csv) written at run time and imported
 * alone. */
/* 260 bytes: past the longest name (253) */
#define LONG26 "01234567890123456789012345"
#define LONG260 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26

static const tu_bad_case bad_alone[] = {
    {"truncated row", "duty.csv", DUTY_HDR "1,1000,a\n1,1060\n",
     "duty.csv:3:3: row has 2 fields, expected 3 (truncated row?)"},
    {"missing column", "duty.csv", "value,container_ip\n1,a\n",
     "duty.csv:1:1: missing column 'timestamp_anon' in the header"},
    {"extra column", "duty.csv", DUTY_HDR "1,1000,a,x\n",
     "duty.csv:2:4: row has 4 fields, expected 3 (extra column?)"},
    {"unknown header column", "duty.csv", "value,timestamp_anon,container_ip,gpu\n1,1000,a,0\n",
     "duty.csv:1:4: unknown column 'gpu'"},
    {"non-numeric", "duty.csv", DUTY_HDR "busy,1000,a\n",
     "duty.csv:2:1: column 'value': expected a finite number, got 'busy'"},
    {"NaN", "duty.csv", DUTY_HDR "1,1000,a\nnan,1060,a\n",
     "duty.csv:3:1: column 'value': expected a finite number, got 'nan'"},
    {"inf", "duty.csv", DUTY_HDR "1,inf,a\n",
     "duty.csv:2:2: column 'timestamp_anon': expected a finite number, got 'inf'"},
    {"negative value", "duty.csv", DUTY_HDR "-5,1000,a\n",
     "duty.csv:2:1: column 'value': -5 is not a utilization percentage (expected 0..100)"},
    {"value over 100", "duty.csv", DUTY_HDR "101.5,1000,a\n",
     "duty.csv:2:1: column 'value': 101.5 is not a utilization percentage (expected 0..100)"},
    {"negative timestamp", "duty.csv", DUTY_HDR "1,-1000,a\n",
     "duty.csv:2:2: column 'timestamp_anon': -1000 is out of range [0, 1e+12]"},
    {"huge number", "duty.csv", DUTY_HDR "1e400,1000,a\n",
     "duty.csv:2:1: column 'value': expected a finite number, got '1e400'"},
    {"huge span", "duty.csv", DUTY_HDR "1,1000,a\n1,1060,a\n1,900000000000,a\n",
     "duty.csv:4:2: container 'a' spans 14999999984 samples of 60 s (expected at most "
     "1048576"},
    {"empty file", "duty.csv", "", "duty.csv:1:1: empty file (expected a header line)"},
    {"header only", "duty.csv", DUTY_HDR, "duty.csv:2:1: no rows (expected"},
    {"wrong encoding", "duty.csv", DUTY_HDR "1,1000,a\xff\n",
     "duty.csv:2:9: invalid UTF-8 byte 0xff (expected UTF-8 text)"},
    {"empty container", "duty.csv", DUTY_HDR "1,1000,\n",
     "duty.csv:2:3: column 'container_ip': expected a container id"},
    {"long container", "duty.csv", DUTY_HDR "1,1000," LONG260 "\n",
     "duty.csv:2:3: column 'container_ip': text longer than 253 characters"},
    {"no period", "duty.csv", DUTY_HDR "1,1000,a\n2,1000,b\n",
     "duty.csv: cannot tell the sample period"},
    {"memory alone", "mem.csv", MEM_HDR "1000,5,a\n",
     "is a memory file; the duty-cycle file (value,timestamp_anon,container_ip) is required"},
};

/* Malformed memory files, imported after a good duty.csv. */
static const tu_bad_case bad_with_duty[] = {
    {"memory truncated row", "mem.csv", MEM_HDR "1000,5\n",
     "mem.csv:2:3: row has 2 fields, expected 3 (truncated row?)"},
    {"memory negative", "mem.csv", MEM_HDR "1000,-1,a\n",
     "mem.csv:2:2: column 'value': -1 is out of range [0, 1e+15]"},
    {"memory NaN", "mem.csv", MEM_HDR "1000,NaN,a\n",
     "mem.csv:2:2: column 'value': expected a finite number, got 'NaN'"},
    {"memory huge", "mem.csv", MEM_HDR "1000,1e20,a\n",
     "mem.csv:2:2: column 'value': 1e+20 is out of range [0, 1e+15]"},
    {"memory wrong encoding", "mem.csv", MEM_HDR "1000,\xc3\x28,a\n",
     "mem.csv:2:6: invalid UTF-8 byte 0xc3"},
    {"memory empty", "mem.csv", "", "mem.csv:1:1: empty file (expected a header line)"},
};

/* The case's file, after a duty.csv holding arg when arg is given. */
static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    const char *paths[2] = {r->path, NULL};
    char *duty = NULL;
    if (r->arg) {
        tu_write(r->dir, "duty.csv", r->arg);
        duty = xasprintf("%s/duty.csv", r->dir);
        paths[0] = duty;
        paths[1] = r->path;
    }
    import_result res;
    int rc = import_paths(st, paths, r->arg ? 2 : 1, 0, &res, err);
    free(duty);
    return rc;
}

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, bad_alone, import_bad, NULL);
    tu_run_bad_cases(NULL, bad_with_duty, import_bad, GOOD_DUTY);
}

static void test_bad_paths(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *two_duty[2] = {duty_fix, duty_fix};
    assert_int_equal(import_paths(st, two_duty, 2, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "are both duty-cycle files");
    const char *three[3] = {duty_fix, mem_fix, duty_fix};
    assert_int_equal(import_paths(st, three, 3, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "got 3 paths");
    const char *d[1] = {dir};
    assert_int_equal(import_paths(st, d, 1, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "is a directory");
    /* An existing trace of that name is kept unless --replace. */
    const char *one[1] = {duty_fix};
    assert_int_equal(import_paths(st, one, 1, 0, &res, &err), 0);
    assert_int_equal(import_paths(st, one, 1, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_store_free(st, dir);
}

static void test_real_data(void **state)
{
    (void)state;
    const char *data = tu_shared_data("alibaba-genai-2026/pod_gpu_duty_cycle_anon.csv");
    if (!data)
        skip();
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    char *duty = xasprintf("%s/alibaba-genai-2026/pod_gpu_duty_cycle_anon.csv", data);
    char *mem = xasprintf("%s/alibaba-genai-2026/pod_gpu_memory_used_bytes_anon.csv", data);
    const char *paths[2] = {duty, mem};
    if (import_paths(st, paths, 2, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.tasks, 143);
    /* 157,417 rows plus the slots carried over gaps. */
    assert_int_equal(res.samples, 157417 + 4960);
    printf("genai: %zu containers, %zu samples; %s\n", res.tasks, res.samples, res.names);
    gp_trace *t = tu_trace(st, "pod_gpu_duty_cycle_anon");
    const task *k = &t->tasks[0];
    assert_string_equal(k->name, "23b8eba99c14e73d454503a55ae96989");
    assert_double_equal(k->util.period_s, 57, 0);
    assert_int_equal(k->util.len, 1441);
    assert_double_equal(k->duration_s, 1441 * 57.0, 0);
    assert_double_equal(k->util_mean, 12.223151, 1e-6);
    assert_double_equal(k->util_peak, 97.833336, 1e-5);
    assert_double_equal(k->gpu_mem_gib, 42.523438, 1e-6);
    for (size_t i = 1; i < t->ntasks; i++)
        assert_true(t->tasks[i].arrival_s >= t->tasks[i - 1].arrival_s);
    trace_free(t);
    /* The duty-cycle file alone: the same 143 tasks, no memory. */
    import_opts opts = {0};
    opts.name = "duty-only";
    const char *one[1] = {duty};
    tu_import_ok(st, &import_genai, one, 1, &opts, &res);
    assert_int_equal(res.tasks, 143);
    t = tu_trace(st, "duty-only");
    for (size_t i = 0; i < t->ntasks; i++)
        assert_double_equal(t->tasks[i].gpu_mem_gib, 0, 0);
    trace_free(t);
    free(duty);
    free(mem);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_series),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_period_override),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_real_data),
    };
    return cmocka_run_group_tests_name("import_genai", tests, NULL, NULL);
}
