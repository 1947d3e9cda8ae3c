/*
 * test_import_pai.c — the PAI 2020 importer on the headerless fixture in
 * tests/fixtures/pai (every mapped field against hand-computed values), on
 * headered and reordered files, on name clashes, and on a table of
 * malformed files, each of which must fail with file:line:col and leave the
 * store as it was.
 *
 * The fixture (job table submissions / task rows / instances / sensors):
 *   job A (submit 1000)  worker: 100% GPU V100, 2 instances with sensors
 *                        ps: CPU-only (plan_gpu empty), sensor without GPU
 *   job B (submit 1100)  tensorflow: 50% of a T4
 *   job C (submit 1200)  PyTorchWorker: 8 GPUs V100M32, Failed, no sensor row
 *   job D (submit 1300)  worker: Waiting, no times (never started)
 *   job E (submit 1050)  worker: 25% P100, task times 0/empty, filled from its
 *                        two instances (1060..1560)
 *   job F (no job row)   evaluator: Running, no end (unfinished)
 *   job G (no job row)   worker: 150% MISC (two GPUs), starts 1300
 */
#include "testutil.h"

#include "io/import.h"

#define FIX "tests/fixtures/pai/"
#define JOB_A "4b3f04b66a525d2df903eb16"
#define JOB_B "a9449d475665e3bf0512520b"
#define JOB_C "af724763f4f5d0beef445849"
#define JOB_E "6c1d2e3f4a5b6c7d8e9f0a1b"
#define JOB_G "9f8e7d6c5b4a39281706f5e4"

extern const importer import_pai;

static int run_import(store *st, const char *const *paths, size_t n, const char *name,
                      int replace, import_result *res, gp_err *err)
{
    import_opts o = {0};
    o.name = name;
    o.replace = replace;
    return tu_import(st, &import_pai, paths, n, &o, res, err);
}

static gp_trace *import_and_load(store *st, const char *const *paths, size_t n,
                                 const char *name, import_result *res)
{
    gp_err err = {{0}};
    if (run_import(st, paths, n, name, 0, res, &err))
        fail_msg("%s", err.msg);
    gp_trace *t = tu_trace(st, name);
    return t;
}

typedef struct want_task {
    const char *name;
    double arrival, duration;
    int num_gpu, gpu_milli;
    int64_t cpu_milli, ram_mib;
    const char *spec;           /* NULL = any */
    const char *qos;
    double util, gpu_mem;
} want_task;

static void assert_task(const task *k, const want_task *w)
{
    assert_string_equal(k->name, w->name);
    assert_double_equal(k->arrival_s, w->arrival, 1e-9);
    assert_double_equal(k->duration_s, w->duration, 1e-9);
    assert_int_equal(k->num_gpu, w->num_gpu);
    assert_int_equal(k->gpu_milli, w->gpu_milli);
    assert_int_equal(k->cpu_milli, w->cpu_milli);
    assert_int_equal(k->ram_mib, w->ram_mib);
    if (w->spec)
        assert_string_equal(k->gpu_spec, w->spec);
    else
        assert_null(k->gpu_spec);
    assert_string_equal(k->qos, w->qos);
    assert_double_equal(k->util_mean, w->util, 1e-9);
    assert_double_equal(k->util_peak, w->util, 1e-9);   /* no series in PAI */
    assert_double_equal(k->util_first, w->util, 1e-9);
    assert_int_equal(k->util.len, 0);
    assert_double_equal(k->gpu_mem_gib, w->gpu_mem, 1e-9);
    assert_double_equal(k->kappa, GP_DEFAULT_KAPPA, 0);
}

/* Arrivals are job submissions minus job A's 1000 s.  util: A/worker
 * (60+80)/2; E one reading (the other is empty); B keeps 16.0625% of the whole
 * T4; G 150 over 2 GPUs.  gpu_mem: the max of the instances' max_gpu_wrk_mem,
 * per GPU (G: 20 GB / 2).  ram_mib = plan_mem x 1024 (29.296875 GB = 30000). */
static const want_task fixture_tasks[] = {
    {JOB_A "/worker", 0, 900, 1, 1000, 6000, 30000, "V100|V100M16|V100M32", "Terminated",
     70, 12.25},
    {JOB_A "/ps", 0, 945, 0, 0, 4000, 8192, NULL, "Terminated", 0, 0},
    {JOB_E "/worker", 50, 500, 1, 250, 2000, 2048, "P100", "Terminated", 20, 4},
    {JOB_B "/tensorflow", 100, 700, 1, 500, 8000, 16384, "T4", "Terminated", 16.0625,
     2.3994140625},
    {JOB_C "/PyTorchWorker", 200, 80, 8, 1000, 12000, 65536, "V100M32|V100", "Failed", 0, 0},
    {JOB_G "/worker", 300, 100, 2, 1000, 1000, 4096, NULL, "Terminated", 75, 10},
};

static void test_fixture(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "pai_task_table.csv", FIX "pai_sensor_table.csv",
                           FIX "pai_job_table.csv", FIX "pai_instance_table.csv"};
    import_result res;
    gp_trace *t = import_and_load(st, paths, 4, "pai", &res);
    assert_int_equal(res.traces, 1);
    assert_int_equal(res.tasks, 6);
    assert_int_equal(res.samples, 0);
    tu_assert_contains(res.names, "trace 'pai' (skipped: 1 never started, 1 unfinished)");
    assert_int_equal(t->ntasks, 6);
    for (size_t i = 0; i < 6; i++)
        assert_task(&t->tasks[i], &fixture_tasks[i]);
    trace_free(t);
    tu_store_free(st, dir);
}

/* Without the other tables: arrivals are task starts (earliest: A/ps at
 * 1005), E never started (no instances to fill its times), nothing is
 * measured. */
static void test_task_table_only(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX "pai_task_table.csv"};
    import_result res;
    gp_trace *t = import_and_load(st, paths, 1, "tasks", &res);
    tu_assert_contains(res.names, "(skipped: 2 never started, 1 unfinished)");
    static const char *const names[] = {JOB_A "/ps", JOB_A "/worker", JOB_B "/tensorflow",
                                        JOB_C "/PyTorchWorker", JOB_G "/worker"};
    static const double arrivals[] = {0, 5, 145, 205, 295};
    assert_int_equal(t->ntasks, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(t->tasks[i].name, names[i]);
        assert_double_equal(t->tasks[i].arrival_s, arrivals[i], 0);
        assert_double_equal(t->tasks[i].util_mean, 0, 0);
        assert_double_equal(t->tasks[i].gpu_mem_gib, 0, 0);
    }
    trace_free(t);
    tu_store_free(st, dir);
}

static void test_directory_and_detect(void **state)
{
    (void)state;
    const char *dirp[] = {FIX};
    const char *taskp[] = {FIX "pai_task_table.csv"};
    const char *sensorp[] = {FIX "pai_sensor_table.csv"};
    assert_ptr_equal(importer_detect(dirp, 1), &import_pai);
    assert_ptr_equal(importer_detect(taskp, 1), &import_pai);
    assert_int_equal(import_pai.detect(taskp, 1), 95);
    assert_int_equal(import_pai.detect(sensorp, 1), 60);
    const char *philly[] = {"tests/fixtures/philly/cluster_job_log"};
    assert_int_equal(import_pai.detect(philly, 1), 0);
    const char *native[] = {"tests/fixtures/native/lab"};
    assert_int_equal(import_pai.detect(native, 1), 0);

    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, dirp, 1, NULL, 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.tasks, 6);
    tu_assert_contains(res.names, "trace 'pai'");         /* the directory's name */
    tu_store_free(st, dir);
}

/* The released tables have no header: a byte-order mark in front of each
 * must not become part of the first job name (it broke the joins: a task's
 * utilization read 0 and its arrival moved). */
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
    if (run_import(st, plain, 1, "plain", 0, &res, &err) ||
        run_import(st, marked, 1, "bom", 0, &res, &err))
        fail_msg("%s", err.msg);
    tu_assert_same_trace(st, "plain", "bom");
    free(bom);
    tu_store_free(st, dir);
}

/* A file of the input directory that is there but cannot be read is an
 * error naming it, whether the set could do without it (the sensor, instance and job tables) or not
 * (the task table): before, an unreadable optional file was skipped and the
 * import succeeded without it. */
static void test_unreadable_files(void **state)
{
    (void)state;
    static const char *const files[] = {"pai_sensor_table.csv", "pai_task_table.csv", "pai_job_table.csv"};
    char *dir;
    store *st = tu_store_new(&dir);
    tu_check_unreadable_files(st, dir, FIX, &import_pai, files, sizeof files / sizeof *files);
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    tu_store_free(st, dir);
}

/* A headered file (with a byte-order mark, columns in another order) under
 * another name is found by its header and read by column name. */
static void test_headered_reordered(void **state)
{
    (void)state;
    char *tmp = tu_tmpdir();
    tu_write(tmp, "tasks.csv",
             "\xEF\xBB\xBFjob_name,task_name,inst_num,gpu_type,plan_gpu,plan_mem,plan_cpu,"
             "end_time,start_time,status\n"
             "j1,worker,1.0,T4,30.0,1.5,250.0,1100.0,1000.0,Terminated\n"
             "j2,worker,1.0,,,,,1300.0,1200.0,Failed\n");
    tu_write(tmp, "sensors.csv",
             "job_name,task_name,worker_name,inst_id,machine,gpu_name,cpu_usage,"
             "gpu_wrk_util,avg_mem,max_mem,avg_gpu_wrk_mem,max_gpu_wrk_mem,read,write,"
             "read_count,write_count\n"
             "j1,worker,w,i,m,/dev/nvidia0,10,12.5,1,1,1,3.5,0,0,0,0\n");
    char *tp = xasprintf("%s/tasks.csv", tmp), *sp = xasprintf("%s/sensors.csv", tmp);
    const char *paths[] = {sp, tp};
    assert_int_equal(import_pai.detect(paths, 2), 95);
    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_trace *t = import_and_load(st, paths, 2, "h", &res);
    const want_task w[] = {
        {"j1/worker", 0, 100, 1, 300, 2500, 1536, "T4", "Terminated", 12.5, 3.5},
        {"j2/worker", 200, 100, 0, 0, 0, 0, NULL, "Failed", 0, 0},
    };
    assert_int_equal(t->ntasks, 2);
    assert_task(&t->tasks[0], &w[0]);
    assert_task(&t->tasks[1], &w[1]);
    trace_free(t);
    free(tp);
    free(sp);
    tu_rmrf(tmp);
    free(tmp);
    tu_store_free(st, dir);
}

/* Repeated (job, task) rows and names longer than a task name may be get
 * unique names of at most 253 bytes, cut between UTF-8 characters. */
static void test_names_unique_and_cut(void **state)
{
    (void)state;
    char long_task[300];
    memset(long_task, 'x', 250);
    strcpy(long_task + 250, "\xC3\xA9tail");        /* "é" straddles byte 253 */
    char *rows = xasprintf("j,t,1,Terminated,1,2,0,0,0,\n"
                           "j,t,1,Terminated,1,3,0,0,0,\n"
                           "j,%s,1,Terminated,1,4,0,0,0,\n"
                           "j,%sother,1,Terminated,1,5,0,0,0,\n",
                           long_task, long_task);
    char *tmp = tu_tmpdir();
    tu_write(tmp, "pai_task_table.csv", rows);
    char *p = xasprintf("%s/pai_task_table.csv", tmp);
    const char *paths[] = {p};
    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_trace *t = import_and_load(st, paths, 1, "names", &res);
    assert_int_equal(t->ntasks, 4);
    assert_string_equal(t->tasks[0].name, "j/t");
    assert_string_equal(t->tasks[1].name, "j/t#2");
    /* "j/" + 250 x = 252 bytes; the 2-byte "é" would end at byte 254: cut */
    char cut[254] = "j/";
    memset(cut + 2, 'x', 250);
    cut[252] = '\0';
    assert_string_equal(t->tasks[2].name, cut);
    /* the same 252 bytes again: cut to 251 to make room for "#3" (#2 went to j/t) */
    assert_int_equal(strlen(t->tasks[3].name), 253);
    assert_memory_equal(t->tasks[3].name, cut, 251);
    assert_string_equal(t->tasks[3].name + 251, "#3");
    for (size_t i = 0; i < t->ntasks; i++) {
        size_t bad;
        assert_true(utf8_valid(t->tasks[i].name, strlen(t->tasks[i].name), &bad));
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(t->tasks[i].name, t->tasks[j].name);
    }
    trace_free(t);
    free(p);
    free(rows);
    tu_rmrf(tmp);
    free(tmp);
    tu_store_free(st, dir);
}

/* ---- malformed input ------------------------------------------------------ */

#define TASK_OK "j,t,1.0,Terminated,1010.0,1910.0,600.0,29.3,100.0,V100\n"
#define TASK_HEADER \
    "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu," \
    "gpu_type\n"
#define SENSOR_OK_START "j,t,w,i,m,/dev/nvidia0,10.0,"

/* A pai_task_table.csv is imported alone; another table with a good task
 * table. */
static const tu_bad_case bad_cases[] = {
    {"truncated row", "pai_task_table.csv", "j,t,1.0,Terminated,1010.0\n",
     "pai_task_table.csv:1:6: row has 5 fields, expected 10 (truncated row?)"},
    {"extra column", "pai_task_table.csv", TASK_OK "j,u,1.0,Terminated,1,2,3,4,5,V100,x\n",
     "pai_task_table.csv:2:11: row has 11 fields, expected 10 (extra column?)"},
    {"missing column (header)", "pai_task_table.csv",
     "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,gpu_type\n"
     "j,t,1.0,Terminated,1010.0,1910.0,600.0,29.3,V100\n",
     "pai_task_table.csv:1:1: missing column 'plan_gpu' in the header of pai_task_table"},
    {"unknown column (header)", "pai_task_table.csv",
     "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,"
     "gpu_type,foo\n",
     "pai_task_table.csv:1:11: unknown column 'foo'"},
    {"short row (header)", "pai_task_table.csv", TASK_HEADER "j,t,1.0\n",
     "pai_task_table.csv:2:4: row has 3 fields, expected 10 (truncated row?)"},
    {"non-numeric", "pai_task_table.csv",
     TASK_OK "j,u,1.0,Terminated,1010.0,1910.0,600.0,29.3,abc,V100\n",
     "pai_task_table.csv:2:9: column 'plan_gpu': expected a number or empty, got 'abc'"},
    {"NaN", "pai_task_table.csv", "j,t,1.0,Terminated,1010.0,1910.0,nan,29.3,100.0,V100\n",
     "pai_task_table.csv:1:7: column 'plan_cpu': expected a number or empty, got 'nan'"},
    {"inf", "pai_task_table.csv", "j,t,1.0,Terminated,1010.0,1910.0,600.0,inf,100.0,V100\n",
     "pai_task_table.csv:1:8: column 'plan_mem': expected a number or empty, got 'inf'"},
    {"negative", "pai_task_table.csv", "j,t,1.0,Terminated,-5,1910.0,600.0,29.3,100.0,V100\n",
     "pai_task_table.csv:1:5: column 'start_time': -5 is out of range [0, 1e+10]"},
    {"huge", "pai_task_table.csv", "j,t,1.0,Terminated,1010.0,1910.0,600.0,29.3,1e9,V100\n",
     "pai_task_table.csv:1:9: column 'plan_gpu': 1e+09 is out of range [0, 1600]"},
    {"overflow", "pai_task_table.csv", "j,t,1.0,Terminated,1e999,1910.0,6,2,1,V100\n",
     "pai_task_table.csv:1:5: column 'start_time': expected a number or empty, got '1e999'"},
    {"empty file", "pai_task_table.csv", "",
     "pai_task_table.csv:1:1: empty file (expected rows of pai_task_table: job_name,...)"},
    {"blank lines only", "pai_task_table.csv", "\n\n",
     "pai_task_table.csv:1:1: empty file"},
    {"header only", "pai_task_table.csv", TASK_HEADER,
     "pai_task_table.csv: no task to import (0 rows"},
    {"nothing ran", "pai_task_table.csv", "j,t,1.0,Waiting,,,600.0,29.3,100.0,V100\n",
     "no task to import (1 rows: 1 never started, 0 unfinished, 0 ended before starting)"},
    {"invalid UTF-8", "pai_task_table.csv", "j\xff,t,1.0,Terminated,1,2,3,4,5,V100\n",
     "pai_task_table.csv:1:2: invalid UTF-8 byte 0xff (expected UTF-8 text)"},
    {"unterminated quote", "pai_task_table.csv", TASK_OK "\"j,t,1.0\n",
     "pai_task_table.csv:2:1: unterminated quoted field"},
    /* headerless: the first record is on line 1, and a field's errors name
     * where the field starts */
    {"unterminated quote, first line", "pai_task_table.csv", "\"j,t,1.0\n",
     "pai_task_table.csv:1:1: unterminated quoted field"},
    {"unterminated quote, later field", "pai_task_table.csv",
     "j,t,1.0,Terminated,1010.0,1910.0,600.0,29.3,100.0,V100\nj,\"t,1.0\n",
     "pai_task_table.csv:2:3: unterminated quoted field"},
    {"quote inside a field", "pai_task_table.csv",
     "j,t,1.0,Terminated,1010.0,1910.0,600.0,2\"9,100.0,V100\n",
     "pai_task_table.csv:1:40: malformed CSV field: a quote inside an unquoted field"},
    {"text after a closing quote", "pai_task_table.csv",
     "j,\"t\"x,1.0,Terminated,1010.0,1910.0,600.0,29.3,100.0,V100\n",
     "pai_task_table.csv:1:3: malformed CSV field: text after the field's closing quote"},
    {"empty job_name", "pai_task_table.csv", ",t,1.0,Terminated,1,2,3,4,5,V100\n",
     "pai_task_table.csv:1:1: column 'job_name': expected a job name"},
    /* the other tables (a good task table comes along) */
    {"sensor non-numeric", "pai_sensor_table.csv",
     SENSOR_OK_START "x,1,1,1,1,0,0,0,0\n",
     "pai_sensor_table.csv:1:8: column 'gpu_wrk_util': expected a number or empty, got 'x'"},
    {"sensor truncated", "pai_sensor_table.csv", SENSOR_OK_START "50.0,1,1,1,1,0,0,0\n",
     "pai_sensor_table.csv:1:16: row has 15 fields, expected 16 (truncated row?)"},
    {"sensor huge memory", "pai_sensor_table.csv", SENSOR_OK_START "50.0,1,1,1,1e12,0,0,0,0\n",
     "pai_sensor_table.csv:1:12: column 'max_gpu_wrk_mem': 1e+12 is out of range [0, 10000]"},
    {"instance bad time", "pai_instance_table.csv", "j,t,i,w,id,Terminated,abc,2,m\n",
     "pai_instance_table.csv:1:7: column 'start_time': expected a number or empty, got 'abc'"},
    {"job negative end", "pai_job_table.csv", "j,id,u,Terminated,1,-1\n",
     "pai_job_table.csv:1:6: column 'end_time': -1 is out of range [0, 1e+10]"},
    {"job empty file", "pai_job_table.csv", "",
     "pai_job_table.csv:1:1: empty file (expected rows of pai_job_table"},
    {"not a PAI table", "other.csv", "a,b,c\n", "other.csv: not a PAI 2020 table"},
};

static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    int is_task = strcmp(r->c->file, "pai_task_table.csv") == 0;
    if (!is_task)
        tu_write(r->dir, "pai_task_table.csv", TASK_OK);
    char *tp = xasprintf("%s/pai_task_table.csv", r->dir);
    const char *paths[2] = {r->path, tp};
    import_result res;
    int rc = run_import(st, paths, is_task ? 1 : 2, "bad", 0, &res, err);
    free(tp);
    return rc;
}

/* Against a store that already holds trace 'kept' (6 tasks), which every
 * case must leave as it is. */
static void test_bad_inputs(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    const char *paths[] = {FIX};
    import_result res;
    gp_err err = {{0}};
    if (run_import(st, paths, 1, "kept", 0, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_assert_trace_tasks(st, "kept", 6);
    tu_run_bad_cases(st, bad_cases, import_bad, NULL);
    tu_assert_trace_tasks(st, "kept", 6);
    tu_store_free(st, dir);
}

static void test_bad_paths_and_replace(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_result res;
    gp_err err = {{0}};
    const char *no_tasks[] = {FIX "pai_job_table.csv", FIX "pai_sensor_table.csv"};
    assert_int_equal(run_import(st, no_tasks, 2, NULL, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "expected pai_task_table.csv among the inputs");
    const char *twice[] = {FIX "pai_task_table.csv", FIX};
    assert_int_equal(run_import(st, twice, 2, NULL, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "a second pai_task_table");
    const char *missing[] = {FIX "pai_task_table.csv", "tests/fixtures/pai/nosuch.csv"};
    assert_int_equal(run_import(st, missing, 2, NULL, 0, &res, &err), -1);
    tu_assert_contains(err.msg, "nosuch.csv: cannot open");
    assert_int_equal(tu_count(st, STORE_TRACE), 0);

    const char *good[] = {FIX};
    assert_int_equal(run_import(st, good, 1, "x", 0, &res, &err), 0);
    assert_int_equal(run_import(st, good, 1, "x", 0, &res, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    char *tmp = tu_tmpdir();
    tu_write(tmp, "pai_task_table.csv", TASK_OK "j,u,1,Terminated,1,2,3,4,x,V100\n");
    char *p = xasprintf("%s/pai_task_table.csv", tmp);
    const char *bad[] = {p};
    assert_int_equal(run_import(st, bad, 1, "x", 1, &res, &err), -1);
    gp_trace *t = tu_trace(st, "x");
    assert_int_equal(t->ntasks, 6);                  /* the replace was rolled back */
    trace_free(t);
    free(p);
    tu_rmrf(tmp);
    free(tmp);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_task_table_only),
        cmocka_unit_test(test_directory_and_detect),
        cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_headered_reordered),
        cmocka_unit_test(test_names_unique_and_cut),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_bad_paths_and_replace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
