/*
 * test_import_native.c — the native CSV set: a good set with every field
 * checked, every malformed class rejected with file:line:col and the store
 * left as it was, export → import giving identical data, and the streamed
 * trace import storing what the whole-set parse reads.
 */
#include "testutil.h"

#include "io/export.h"
#include "io/csvread.h"
#include "io/import.h"
#include "io/import_native_int.h"
#include "core/strbuf.h"

#include <sys/stat.h>

static const char *const good_dir = "tests/fixtures/native/lab";

static int import_dir(store *st, const char *dir, const char *name, int replace, gp_err *err)
{
    import_opts opts = {0};
    opts.name = name;
    opts.replace = replace;
    import_result res;
    const char *paths[1] = {dir};
    return tu_import(st, &import_native, paths, 1, &opts, &res, err);
}

static void test_good_set(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_opts opts = {0};
    import_result res;
    const char *paths[1] = {good_dir};
    tu_import_ok(st, &import_native, paths, 1, &opts, &res);
    assert_int_equal(res.nodes, 3);
    assert_int_equal(res.tasks, 4);
    assert_int_equal(res.samples, 5);
    assert_int_equal(res.tput_entries, 2);
    assert_int_equal(res.gpu_profiles, 1);
    tu_assert_contains(res.names, "trace 'lab'");

    catalog *cat;
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    const gpu_profile *g = catalog_gpu(cat, "LabGPU");
    assert_non_null(g);
    assert_double_equal(g->mem_gib, 24, 0);
    assert_double_equal(g->alpha_w_per_mhz, (250.0 - 20) / 1500, 1e-12);  /* derived */
    assert_double_equal(g->beta, 0.9, 0);
    assert_double_equal(g->price_usd, 1800, 0);
    assert_string_equal(g->tput_class, "v100");
    assert_int_equal(catalog_cpu(cat, "LabCPU")->cores, 8);
    catalog_free(cat);

    cluster *c = tu_cluster(st, "lab");
    assert_int_equal(c->nnodes, 3);
    assert_double_equal(c->nodes[0].gpu_mem_gib[1], 12, 0);
    assert_double_equal(c->nodes[1].gpu_mem_gib[0], 0, 0);
    assert_string_equal(c->nodes[2].name, "n,2");
    assert_int_equal(cluster_gpu_total(c), 6);
    cluster_free(c);

    gp_trace *t = tu_trace(st, "lab");
    assert_int_equal(t->ntasks, 4);
    assert_int_equal(t->tasks[0].util.len, 3);
    assert_double_equal(t->tasks[0].util_mean, (80 + 20.5 + 60) / 3.0, 1e-6);
    assert_double_equal(t->tasks[0].util_peak, 80, 0);
    assert_double_equal(t->tasks[1].util_first, 25, 0);
    assert_int_equal(t->tasks[1].gpu_milli, 500);
    assert_string_equal(t->tasks[1].gpu_spec, "LabGPU|V100");
    assert_double_equal(t->tasks[1].kappa, 1.5, 0);
    assert_int_equal(t->tasks[2].num_gpu, 0);
    assert_string_equal(t->tasks[3].model, "GPT, small");
    assert_int_equal(t->tasks[3].num_gpu, 2);
    trace_free(t);

    tput_catalog *tp;
    assert_int_equal(store_get_tput_catalog(st, "lab", &tp, &err), 0);
    assert_int_equal(tp->nentries, 2);
    assert_string_equal(tp->entries[1].co_model, "GPT");
    assert_double_equal(tp->entries[1].co_tput, 3, 0);
    tput_catalog_free(tp);

    /* Importing again without --replace fails and changes nothing. */
    assert_int_equal(import_dir(st, good_dir, NULL, 0, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    assert_int_equal(tu_count(st, STORE_CLUSTER), 1);
    assert_int_equal(import_dir(st, good_dir, NULL, 1, &err), 0);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_store_free(st, dir);
}

/* Malformed cases: the file of the good set to replace, its content, the
 * expected message. */
static const tu_bad_case bad_cases[] = {
    {"truncated row", "tasks.csv", "name,arrival_s,duration_s,num_gpu\nx,0,10\n",
     "tasks.csv:2:4: row has 3 fields, expected 4 (truncated row?)"},
    {"missing column", "tasks.csv", "name,arrival_s\nx,0\n",
     "tasks.csv:1:1: missing column 'duration_s'"},
    {"extra column", "tasks.csv", "name,arrival_s,duration_s\nx,0,10,7\n",
     "tasks.csv:2:4: row has 4 fields, expected 3 (extra column?)"},
    {"unknown column", "tasks.csv", "name,arrival_s,duration_s,colour\nx,0,10,red\n",
     "tasks.csv:1:4: unknown column 'colour'"},
    {"non-numeric", "tasks.csv", "name,arrival_s,duration_s\nx,soon,10\n",
     "tasks.csv:2:2: column 'arrival_s': expected a finite number, got 'soon'"},
    {"NaN", "tasks.csv", "name,arrival_s,duration_s\nx,0,nan\n",
     "tasks.csv:2:3: column 'duration_s': expected a finite number, got 'nan'"},
    {"inf", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\nn,V100,1,inf,1\n",
     "nodes.csv:2:4: column 'cpu_milli': expected an integer, got 'inf'"},
    {"negative", "tasks.csv", "name,arrival_s,duration_s\nx,-1,10\n",
     "tasks.csv:2:2: column 'arrival_s': -1 is out of range"},
    {"huge", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\nn,V100,1000,1,1\n",
     "nodes.csv:2:3: column 'gpu_count': 1000 is out of range [0, 16]"},
    {"huge integer", "nodes.csv",
     "name,gpu_model,gpu_count,cpu_milli,ram_mib\nn,V100,1,99999999999999999999999,1\n",
     "nodes.csv:2:4: column 'cpu_milli': expected an integer"},
    {"empty file", "tasks.csv", "", "tasks.csv:1:1: empty file (expected a header line)"},
    {"wrong encoding", "tasks.csv", "name,arrival_s,duration_s\nt\xe9st,0,10\n",
     "tasks.csv:2:2: invalid UTF-8 byte 0xe9"},
    {"unterminated quote", "tasks.csv", "name,arrival_s,duration_s\n\"x,0,10\n",
     "tasks.csv:2:1: unterminated quoted field"},
    {"unterminated quote, later field", "tasks.csv",
     "name,arrival_s,duration_s\nx,0,10\ny,\"0,10\nz,0,1\n",
     "tasks.csv:3:3: unterminated quoted field"},
    {"quote inside a field", "tasks.csv", "name,arrival_s,duration_s\nx,0,10\nx2,1\"0,10\n",
     "tasks.csv:3:4: malformed CSV field: a quote inside an unquoted field"},
    {"text after a closing quote", "tasks.csv", "name,arrival_s,duration_s\n\"x\" y,0,10\n",
     "tasks.csv:2:1: malformed CSV field: text after the field's closing quote"},
    {"row after a field of two lines", "tasks.csv",
     "name,arrival_s,duration_s\n\"a\nb\",soon,10\n",
     "tasks.csv:2:2: column 'arrival_s': expected a finite number, got 'soon'"},
    {"bad gpu share", "tasks.csv", "name,arrival_s,duration_s,num_gpu,gpu_milli\nx,0,1,2,500\n",
     "tasks.csv:2:5: gpu_milli 500 does not go with num_gpu 2"},
    {"unknown task in util", "util.csv", "task,sample,pct\nzz,0,5\n",
     "util.csv:2:1: column 'task': no task named 'zz'"},
    /* an empty name is a name like any other, not "no block yet" */
    {"empty task in util", "util.csv", "task,sample,pct\n,0,5\n",
     "util.csv:2:1: column 'task': no task named ''"},
    {"sample gap", "util.csv", "task,sample,pct\na,0,5\na,2,5\n",
     "util.csv:3:2: column 'sample': expected 1, got 2"},
    {"util over 100", "util.csv", "task,sample,pct\na,0,101\n",
     "util.csv:2:3: column 'pct': 101 is out of range [0, 100]"},
    {"unknown gpu model", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\nn,Z9,1,1,1\n",
     "unknown GPU model 'Z9'"},
    {"device memory count", "nodes.csv",
     "name,gpu_model,gpu_count,cpu_milli,ram_mib,gpu_mem_gib\nn,V100,2,1,1,16\n",
     "nodes.csv:2:6: column 'gpu_mem_gib': 1 sizes for 2 GPUs"},
    {"duplicate node", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\n"
     "n,V100,1,1,1\nm,V100,1,1,1\nn,V100,2,1,1\n",
     "nodes.csv:4:1: duplicate node name 'n' (first on line 2; expected unique names)"},
    {"duplicate GPU profile", "gpus.csv", "name,mem_gib,idle_w,max_w,f_min_mhz,f_max_mhz\n"
     "G,1,10,40,1,2\nG,2,10,40,1,2\n",
     "gpus.csv:3:1: duplicate GPU profile name 'G' (first on line 2"},
    {"duplicate CPU profile", "cpus.csv", "name,cores,idle_w,max_w\nC,8,10,50\nC,4,10,50\n",
     "cpus.csv:3:1: duplicate CPU profile name 'C' (first on line 2"},
    {"duplicate task", "tasks.csv", "name,arrival_s,duration_s\nx,0,10\ny,0,1\nx,5,10\n",
     "tasks.csv:4:1: duplicate task name 'x' (first on line 2"},
    {"header-only tasks", "tasks.csv", "name,arrival_s,duration_s\n",
     "tasks.csv:2:1: no rows (expected task rows after the header)"},
    {"header-only nodes", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\n",
     "nodes.csv:2:1: no rows (expected node rows after the header)"},
    {"empty node name", "nodes.csv", "name,gpu_model,gpu_count,cpu_milli,ram_mib\n,V100,1,1,1\n",
     "nodes.csv:2:1: column 'name': expected a node name"},
    /* the gpu_spec copy is released on this path too (make asan) */
    {"empty task name with a spec", "tasks.csv", "name,arrival_s,duration_s,gpu_spec\n,0,10,V100\n",
     "tasks.csv:2:1: column 'name': expected a task name"},
    /* messages quote the file's text with its control characters escaped */
    {"escape in a bad value", "tasks.csv", "name,arrival_s,duration_s\nx,\x1b[2J,10\n",
     "tasks.csv:2:2: column 'arrival_s': expected a finite number, got '\\x1b[2J'"},
    {"escape in a repeated name", "tasks.csv",
     "name,arrival_s,duration_s\n\"a\x1b]0;t\x07\",0,1\n\"a\x1b]0;t\x07\",0,1\n",
     "tasks.csv:3:1: duplicate task name 'a\\x1b]0;t\\x07'"},
    {"profile max below idle", "gpus.csv",
     "name,mem_gib,idle_w,max_w,f_min_mhz,f_max_mhz\nG,1,50,40,1,2\n",
     "gpus.csv:2:4: column 'max_w': 40 is out of range [50, 100000]"},
};

/* Copies the good set into the case's directory, replaces one file, imports. */
static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    char *set = xasprintf("%s/set", r->dir);
    char *cmd = xasprintf("cp -R '%s' '%s'", good_dir, set);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    tu_write(set, r->c->file, r->c->content);
    int rc = import_dir(st, set, "bad", 0, err);
    free(set);
    return rc;
}

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, bad_cases, import_bad, NULL);
}

/* Every file of the set with a byte-order mark imports as without. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *bom = xasprintf("%s/bom", dir);
    tu_copy_with_bom(good_dir, bom);
    gp_err err = {{0}};
    if (import_dir(st, good_dir, "plain", 0, &err) || import_dir(st, bom, "bom", 0, &err))
        fail_msg("%s", err.msg);
    tu_assert_same_trace(st, "plain", "bom");
    cluster *a, *b;
    a = tu_cluster(st, "plain");
    b = tu_cluster(st, "bom");
    assert_int_equal(a->nnodes, b->nnodes);
    assert_memory_equal(a->nodes, b->nodes, a->nnodes * sizeof *a->nodes);
    cluster_free(a);
    cluster_free(b);
    free(bom);
    tu_store_free(st, dir);
}

/* A field over CSV_FIELD_MAX is refused where it starts, before the
 * rest of it is read; one byte less gets as far as the column's own
 * check. */
static void test_field_limit(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    char *set = xasprintf("%s/set", dir);
    assert_int_equal(mkdir(set, 0755), 0);
    for (size_t len = CSV_FIELD_MAX; len <= CSV_FIELD_MAX + 1; len++) {
        char *field = xmalloc(len - 2 + 1);   /* quoted: the quotes count */
        memset(field, 'a', len - 2);
        field[len - 2] = '\0';
        char *content = xasprintf("name,arrival_s,duration_s\nx,0,1\ny,0,\"%s\"\n", field);
        tu_write(set, "tasks.csv", content);
        assert_int_equal(import_dir(st, set, "big", 0, &err), -1);
        tu_assert_contains(err.msg, len > CSV_FIELD_MAX
                           ? "tasks.csv:3:5: field longer than 1048576 bytes"
                           : "tasks.csv:3:3: column 'duration_s': expected a finite number");
        free(content);
        free(field);
    }
    free(set);
    tu_store_free(st, dir);
}

/* A record of more fields than CSV_RECORD_MAX_FIELDS is refused on its
 * line, with or without a newline after it (a line of empty fields would
 * otherwise be held field by field). */
static void test_record_width_limit(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    char *set = xasprintf("%s/set", dir);
    assert_int_equal(mkdir(set, 0755), 0);
    for (int newline = 0; newline <= 1; newline++) {
        strbuf b = STRBUF_INIT;
        strbuf_puts(&b, "name,arrival_s,duration_s\nx,0,1\n");
        for (int i = 0; i < 3 * CSV_RECORD_MAX_FIELDS; i++)
            strbuf_puts(&b, ",");
        strbuf_puts(&b, newline ? "\n" : "");
        tu_write(set, "tasks.csv", strbuf_str(&b));
        assert_int_equal(import_dir(st, set, "wide", 0, &err), -1);
        tu_assert_contains(err.msg, "tasks.csv:3:1: record of more than 1024 fields");
        strbuf_free(&b);
    }
    free(set);
    tu_store_free(st, dir);
}

/* The reader takes the file in 64 KiB pieces: a UTF-8 character cut by
 * the edge of one is still one character. */
static void test_character_across_chunks(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    char *set = xasprintf("%s/set", dir);
    assert_int_equal(mkdir(set, 0755), 0);
    strbuf b = STRBUF_INIT;
    strbuf_puts(&b, "name,arrival_s,duration_s,model\n");
    for (int i = 0; b.len < 65536 - 60; i++)
        strbuf_printf(&b, "t%d,0,1,m\n", i);
    size_t pad = 65535 - (b.len + strlen("last,0,1,"));     /* "é" at byte 65535 */
    strbuf_puts(&b, "last,0,1,");
    for (size_t i = 0; i < pad; i++)
        strbuf_puts(&b, "x");
    strbuf_puts(&b, "\xC3\xA9\n");
    assert_int_equal(memcmp(strbuf_str(&b) + 65535, "\xC3\xA9", 2), 0);
    tu_write(set, "tasks.csv", strbuf_str(&b));
    if (import_dir(st, set, "edge", 0, &err))
        fail_msg("%s", err.msg);
    gp_trace *t = tu_trace(st, "edge");
    const char *model = t->tasks[t->ntasks - 1].model;
    assert_string_equal(model + strlen(model) - 2, "\xC3\xA9");
    trace_free(t);
    strbuf_free(&b);
    free(set);
    tu_store_free(st, dir);
}

/* A file of the input directory that is there but cannot be read is an
 * error naming it, whether the set could do without it (util.csv, gpus.csv) or not
 * (tasks.csv, which util.csv needs): before, an unreadable optional file was skipped and the
 * import succeeded without it. */
static void test_unreadable_files(void **state)
{
    (void)state;
    static const char *const files[] = {"util.csv", "gpus.csv", "tasks.csv"};
    char *dir;
    store *st = tu_store_new(&dir);
    tu_check_unreadable_files(st, dir, good_dir, &import_native, files, sizeof files / sizeof *files);
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    tu_store_free(st, dir);
}

static void test_not_a_set(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    assert_int_equal(import_dir(st, dir, "x", 0, &err), -1);
    tu_assert_contains(err.msg, "no native files");
    tu_store_free(st, dir);
}

/* Two traces task by task: every field, the series exactly. */
static void assert_same_trace(const gp_trace *x, const gp_trace *y)
{
    assert_int_equal(x->ntasks, y->ntasks);
    for (size_t i = 0; i < x->ntasks; i++) {
        task a = x->tasks[i], b = y->tasks[i];
        assert_string_equal(a.gpu_spec ? a.gpu_spec : "", b.gpu_spec ? b.gpu_spec : "");
        assert_int_equal(a.util.len, b.util.len);
        if (a.util.len)
            assert_memory_equal(a.util.pct, b.util.pct, a.util.len * sizeof(float));
        a.gpu_spec = b.gpu_spec = NULL;
        a.util.pct = b.util.pct = NULL;
        assert_memory_equal(&a, &b, sizeof a);
    }
}

/* export → import under another name gives the same data, field by field. */
static void test_export_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    assert_int_equal(import_dir(st, good_dir, NULL, 0, &err), 0);
    cluster *c;
    gp_trace *t;
    tput_catalog *tp;
    catalog *cat;
    c = tu_cluster(st, "lab");
    t = tu_trace(st, "lab");
    assert_int_equal(store_get_tput_catalog(st, "lab", &tp, &err), 0);
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    char *out = xasprintf("%s/out", dir);
    assert_int_equal(export_cluster_csv(c, cat, out, &err), 0);
    assert_int_equal(export_trace_csv(t, out, &err), 0);
    assert_int_equal(export_tput_csv(tp, out, &err), 0);
    if (import_dir(st, out, "copy", 0, &err))
        fail_msg("%s", err.msg);
    cluster *c2;
    gp_trace *t2;
    tput_catalog *tp2;
    c2 = tu_cluster(st, "copy");
    t2 = tu_trace(st, "copy");
    assert_int_equal(store_get_tput_catalog(st, "copy", &tp2, &err), 0);
    assert_int_equal(c2->nnodes, c->nnodes);
    assert_memory_equal(c2->nodes, c->nodes, c->nnodes * sizeof *c->nodes);
    assert_same_trace(t, t2);
    assert_int_equal(tp2->nentries, tp->nentries);
    assert_memory_equal(tp2->entries, tp->entries, tp->nentries * sizeof *tp->entries);
    cluster_free(c2);
    trace_free(t2);
    tput_catalog_free(tp2);
    cluster_free(c);
    trace_free(t);
    tput_catalog_free(tp);
    catalog_free(cat);
    free(out);
    tu_store_free(st, dir);
}

/* The streamed import stores what the whole-set parse reads, on the lab
 * fixture and every sample set with tasks. */
static void test_streamed_equals_parse(void **state)
{
    (void)state;
    static const char *const dirs[] = {
        "tests/fixtures/native/lab", "sample-data/cats-testbed", "sample-data/corrgpu-example",
        "sample-data/gavel-like", "sample-data/openb-like", "sample-data/pai-like",
        "sample-data/peace-mix",
    };
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        if (import_dir(st, dirs[i], "streamed", 1, &err))
            fail_msg("%s: %s", dirs[i], err.msg);
        gp_trace *stored, *parsed;
        stored = tu_trace(st, "streamed");
        if (native_parse_trace(dirs[i], "streamed", &parsed, &err))
            fail_msg("%s: %s", dirs[i], err.msg);
        assert_true(stored->ntasks > 0);
        assert_same_trace(stored, parsed);
        trace_free(stored);
        trace_free(parsed);
    }
    tu_store_free(st, dir);
}

/* util.csv's blocks in another order than tasks.csv's rows go to their
 * tasks; a series without a period is refused after the whole file is
 * checked, and nothing is stored. */
static void test_streamed_util_order(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    char *set = xasprintf("%s/set", dir);
    assert_int_equal(mkdir(set, 0755), 0);
    tu_write(set, "tasks.csv", "name,arrival_s,duration_s,util_period_s\n"
             "x,0,10,5\ny,1,10,5\nz,2,10,0\n");
    tu_write(set, "util.csv", "task,sample,pct\ny,0,10\ny,1,30\nx,0,50\nx,1,70\n");
    if (import_dir(st, set, "order", 0, &err))
        fail_msg("%s", err.msg);
    gp_trace *t = tu_trace(st, "order");
    assert_int_equal(t->ntasks, 3);
    assert_int_equal(t->tasks[0].util.len, 2);
    assert_double_equal(t->tasks[0].util_mean, 60, 1e-9);
    assert_double_equal(t->tasks[1].util_peak, 30, 1e-9);
    assert_double_equal(t->tasks[1].util.period_s, 5, 0);
    assert_int_equal(t->tasks[2].util.len, 0);
    trace_free(t);
    tu_write(set, "util.csv", "task,sample,pct\ny,0,10\nz,0,50\n");
    assert_int_equal(import_dir(st, set, "noperiod", 0, &err), -1);
    tu_assert_contains(err.msg, "util.csv:3:1: column 'task': 'z' has samples but no "
                       "util_period_s (tasks.csv line 4;");
    assert_int_equal(tu_count(st, STORE_TRACE), 1);     /* 'order' alone */
    free(set);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_set),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_field_limit),
        cmocka_unit_test(test_character_across_chunks),
        cmocka_unit_test(test_record_width_limit),
        cmocka_unit_test(test_not_a_set),
        cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_export_round_trip),
        cmocka_unit_test(test_streamed_equals_parse),
        cmocka_unit_test(test_streamed_util_order),
    };
    return cmocka_run_group_tests_name("import_native", tests, NULL, NULL);
}
