/*
 * test_import_gavel.c — the Gavel throughput JSON importer: a small table
 * with every entry checked (solo and pair entries, models without a batch
 * size, file order), detection, every malformed class rejected with
 * file:line:col, the JSON path and the expectation while the store stays as
 * it was, the key locator on repeated and escaped keys, and the real file
 * when ../shared/data is there.
 */
#include "testutil.h"

#include "io/import.h"

/* Registered in import.c; import.h declares only the native importer. */
extern const importer import_gavel;

static const char *const good_json = "tests/fixtures/gavel/lab_throughputs.json";

static int import_path(store *st, const char *path, const char *name, import_result *res,
                       gp_err *err)
{
    import_opts opts = {0};
    opts.name = name;
    const char *paths[1] = {path};
    return tu_import(st, &import_gavel, paths, 1, &opts, res, err);
}

static const tput_entry lab_entries[] = {
    /* accel, model, batch, scale, co_model, co_batch, co_scale, tput, co_tput */
    {"k80", "ResNet-18", 16, 1, "", 0, 0, 4.5, 0},
    {"k80", "ResNet-18", 16, 1, "A3C", 0, 1, 2.0, 1.5},
    {"k80", "ResNet-18", 16, 1, "ResNet-18", 16, 1, 2.25, 2.25},
    /* "null" after a pair in the file: solo still comes first */
    {"k80", "A3C", 0, 1, "", 0, 0, 3, 0},
    {"k80", "A3C", 0, 1, "ResNet-18", 16, 1, 1.5, 2},
    {"v100_unconsolidated", "Transformer", 128, 4, "", 0, 0, 12.75, 0},
};

static void test_good_table(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    if (import_path(st, good_json, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.tput_entries, 6);
    assert_string_equal(res.names, "throughput catalog 'lab_throughputs'");
    tput_catalog *c;
    assert_int_equal(store_get_tput_catalog(st, "lab_throughputs", &c, &err), 0);
    assert_int_equal(c->nentries, sizeof lab_entries / sizeof *lab_entries);
    for (size_t i = 0; i < c->nentries; i++) {
        const tput_entry *e = &c->entries[i], *w = &lab_entries[i];
        assert_string_equal(e->accel, w->accel);
        assert_string_equal(e->model, w->model);
        assert_int_equal(e->batch_size, w->batch_size);
        assert_int_equal(e->scale, w->scale);
        assert_string_equal(e->co_model, w->co_model);
        assert_int_equal(e->co_batch_size, w->co_batch_size);
        assert_int_equal(e->co_scale, w->co_scale);
        assert_double_equal(e->tput, w->tput, 0);
        assert_double_equal(e->co_tput, w->co_tput, 0);
    }
    assert_int_equal(tput_catalog_accels(c), 2);
    assert_int_equal(tput_catalog_job_types(c), 3);
    assert_string_equal(c->source, good_json);
    tput_catalog_free(c);
    /* --name, and the same name again without --replace changes nothing */
    assert_int_equal(import_path(st, good_json, "lab", &res, &err), 0);
    assert_int_equal(import_path(st, good_json, "lab", &res, &err), -1);
    tu_assert_contains(err.msg, "a throughput catalog named 'lab' already exists");
    assert_int_equal(tu_count(st, STORE_TPUT), 2);
    tu_store_free(st, dir);
}

/* A byte-order mark in front of the JSON (as Windows editors save it)
 * changes nothing; jansson alone refuses one. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *bom = xasprintf("%s/bom.json", dir);
    tu_copy_with_bom(good_json, bom);
    const char *paths[1] = {bom};
    assert_int_equal(import_gavel.detect(paths, 1), 95);
    import_result res;
    gp_err err = {{0}};
    if (import_path(st, bom, "bom", &res, &err))
        fail_msg("%s", err.msg);
    tput_catalog *c;
    assert_int_equal(store_get_tput_catalog(st, "bom", &c, &err), 0);
    size_t n = sizeof lab_entries / sizeof *lab_entries;
    assert_int_equal(c->nentries, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(c->entries[i].accel, lab_entries[i].accel);
        assert_string_equal(c->entries[i].model, lab_entries[i].model);
        assert_double_equal(c->entries[i].tput, lab_entries[i].tput, 0);
    }
    tput_catalog_free(c);
    free(bom);
    tu_store_free(st, dir);
}

static void test_detect(void **state)
{
    (void)state;
    const char *one[1] = {good_json};
    const char *other[1] = {"tests/fixtures/native/lab/tasks.csv"};
    const char *two[2] = {good_json, good_json};
    assert_ptr_equal(importer_detect(one, 1), &import_gavel);
    assert_int_equal(import_gavel.detect(one, 1), 95);
    assert_int_equal(import_gavel.detect(other, 1), 0);
    assert_int_equal(import_gavel.detect(two, 2), 0);
    assert_true(strlen(import_gavel.summary) > 0 && strlen(import_gavel.inputs) > 0);
}

/* The documents of the malformed cases: one job type whose solo value and
 * pair value vary.  Line 4 holds "null" (key at column 4), line 5 the pair
 * (key at column 4, '[' at column 32). */
#define DOC(solo, pair) \
    "{\n \"k80\": {\n  \"('LM (batch size 5)', 1)\": {\n   \"null\": " solo ",\n" \
    "   \"('LM (batch size 5)', 1)\": " pair "\n  }\n }\n}\n"
#define DOC_KEY(key) \
    "{\n \"k80\": {\n  \"" key "\": {\n   \"null\": 1\n  }\n }\n}\n"
#define JOB "$[\"k80\"][\"('LM (batch size 5)', 1)\"]"
#define PAIR JOB "[\"('LM (batch size 5)', 1)\"]"
#define KEY_EXPECT "expected a job type \"('<model> (batch size N)', scale)\" or " \
                   "\"('<model>', scale)\""

#define G "g.json"                /* the file every case writes */

static const tu_bad_case bad_cases[] = {
    {"truncated", G, "{\n \"k80\": {\n  \"('LM (batch size 5)', 1)\": {\n   \"null\": 1,\n",
     "g.json:5:1: string or '}' expected near end of file (expected valid JSON)"},
    {"missing null", G,
     "{\n \"k80\": {\n  \"('LM (batch size 5)', 1)\": {\n   \"('LM (batch size 5)', 1)\": "
     "[1, 2]\n  }\n }\n}\n",
     "g.json:3:3: " JOB ": missing key \"null\" (expected the solo throughput)"},
    {"extra element", G, DOC("1", "[1, 2, 3]"),
     "g.json:5:4: " PAIR ": expected [own, other] throughputs (an array of 2 numbers), got "
     "an array of more"},
    {"missing element", G, DOC("1", "[1]"),
     "g.json:5:4: " PAIR ": expected [own, other] throughputs (an array of 2 numbers), got "
     "an array of fewer"},
    {"non-numeric", G, DOC("\"fast\"", "[1, 2]"),
     "g.json:4:4: " JOB "[\"null\"]: expected a throughput (a number >= 0), got a string"},
    {"JSON null", G, DOC("null", "[1, 2]"),
     "g.json:4:4: " JOB "[\"null\"]: expected a throughput (a number >= 0), got null"},
    {"pair not an array", G, DOC("1", "{\"own\": 1}"),
     "g.json:5:4: " PAIR ": expected [own, other] throughputs (an array of 2 numbers), got "
     "an object"},
    {"NaN", G, DOC("NaN", "[1, 2]"),
     "g.json:4:14: invalid token near 'NaN' (expected valid JSON)"},
    {"inf", G, DOC("1", "[1, Infinity]"),
     "g.json:5:43: invalid token near 'Infinity' (expected valid JSON)"},
    {"negative", G, DOC("1", "[1, -2]"),
     "g.json:5:36: " PAIR "[1]: expected a throughput in [0, 1e+09] iterations/s, got -2"},
    {"huge", G, DOC("1e300", "[1, 2]"),
     "g.json:4:4: " JOB "[\"null\"]: expected a throughput in [0, 1e+09] iterations/s, got "
     "1e+300"},
    {"overflowing real", G, DOC("1e400", "[1, 2]"),
     "g.json:4:16: real number overflow near '1e400' (expected valid JSON)"},
    {"huge integer", G, DOC("1", "[123456789012345678901234567890, 2]"),
     "g.json:5:62: too big integer (expected valid JSON)"},
    {"empty file", G, "", "g.json:1:1: empty file (expected a JSON object of accelerator types)"},
    {"blank file", G, " \n\n", "g.json:1:1: empty file"},
    {"wrong encoding", G, "{\n \"k\xe9\": {}\n}\n",
     "g.json:2:4: invalid UTF-8 byte 0xe9 (expected UTF-8 text)"},
    {"duplicate key", G, "{\n \"k80\": {},\n \"k80\": {}\n}\n",
     "g.json:3:6: duplicate object key near '\"k80\"' (expected valid JSON)"},
    {"trailing garbage", G, "{\"k80\": {\"('A3C', 1)\": {\"null\": 1}}} x",
     "g.json:1:38: end of file expected near 'x' (expected valid JSON)"},
    {"root not an object", G, "[1, 2]\n",
     "g.json:1:1: $: expected a non-empty object of accelerator types (k80, p100, v100, "
     "...), got an array"},
    {"root empty", G, "{}\n", "g.json:1:1: $: expected a non-empty object of accelerator types"},
    {"accelerator not an object", G, "{\n \"k80\": [1]\n}\n",
     "g.json:2:2: $[\"k80\"]: expected a non-empty object of job types, got an array"},
    {"bad accelerator name", G, "{\n \"k 80\": {\"('A3C', 1)\": {\"null\": 1}}\n}\n",
     "g.json:2:2: $[\"k 80\"]: expected an accelerator name (1..31 letters, digits, '_', "
     "'-' or '.')"},
    {"job not an object", G, "{\n \"k80\": {\n  \"('A3C', 1)\": 7\n }\n}\n",
     "g.json:3:3: $[\"k80\"][\"('A3C', 1)\"]: expected an object of \"null\" and co-located "
     "job types, got an integer"},
    {"bad batch size", G, DOC_KEY("('LM (batch size five)', 1)"),
     "g.json:3:3: $[\"k80\"][\"('LM (batch size five)', 1)\"]: " KEY_EXPECT},
    {"zero batch size", G, DOC_KEY("('LM (batch size 0)', 1)"), "g.json:3:3: "},
    {"bad scale", G, DOC_KEY("('LM', x)"), "g.json:3:3: $[\"k80\"][\"('LM', x)\"]: " KEY_EXPECT},
    {"huge scale", G, DOC_KEY("('LM', 99999)"), "g.json:3:3: "},
    {"unquoted model", G, DOC_KEY("(LM, 1)"), "g.json:3:3: $[\"k80\"][\"(LM, 1)\"]: " KEY_EXPECT},
    {"unclosed tuple", G, DOC_KEY("('LM (batch size 5)', 1"), "g.json:3:3: "},
    {"empty model", G, DOC_KEY("('', 1)"), "g.json:3:3: "},
    {"bad pair key", G, DOC("1", "[1, 2],\n   \"('LM' 1)\": [1, 2]"),
     "g.json:6:4: " JOB "[\"('LM' 1)\"]: " KEY_EXPECT},
};

static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    import_result res;
    return import_path(st, r->path, NULL, &res, err);
}

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, bad_cases, import_bad, NULL);
}

/* The locator walks the structure: a job-type key that also appears earlier
 * as a pair key inside another job, and a key written with escapes, are
 * still found where they are. */
static const tu_bad_case locate_cases[] = {
    {"repeated key", G,
     "{\n \"k80\": {\n  \"('LM (batch size 5)', 1)\": {\n   \"null\": 1,\n"
     "   \"('LM (batch size 10)', 1)\": [1, 2]\n  },\n"
     "  \"('LM (batch size 10)', 1)\": {\n   \"null\": -1\n  }\n }\n}\n",
     "g.json:8:4: $[\"k80\"][\"('LM (batch size 10)', 1)\"][\"null\"]: expected a "
     "throughput in [0, 1e+09] iterations/s, got -1"},
    {"escaped key", G,
     "{\"p100\": {\"('A3C', 1)\": {\"null\": 1}},\n \"k\\u0038\\u0030\": {\n"
     "  \"('A3C', 1)\": {\"null\": 2, \"('A3C', 1)\": [1, \"x\"]}}}\n",
     "g.json:3:47: $[\"k80\"][\"('A3C', 1)\"][\"('A3C', 1)\"][1]: expected a throughput "
     "(a number >= 0), got a string"},
    {"non-ASCII before the value", G,
     "{\"k80\": {\"('Ré', 1)\": {\"null\": -3}}}\n",
     "g.json:1:24: $[\"k80\"][\"('Ré', 1)\"][\"null\"]: expected a throughput"},
};

static void test_locate(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, locate_cases, import_bad, NULL);
}

static void test_bad_paths(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    import_opts opts = {0};
    const char *two[2] = {good_json, good_json};
    assert_int_equal(import_run(st, &import_gavel, two, 2, &opts, &res, &err), -1);
    tu_assert_contains(err.msg, "gavel: expected one JSON file, got 2 paths");
    assert_int_equal(import_path(st, dir, NULL, &res, &err), -1);
    tu_assert_contains(err.msg, "is a directory");
    assert_int_equal(import_path(st, "tests/fixtures/gavel/nope.json", NULL, &res, &err), -1);
    tu_assert_contains(err.msg, "nope.json");
    assert_int_equal(tu_count(st, STORE_TPUT), 0);
    tu_store_free(st, dir);
}

static void test_real_data(void **state)
{
    (void)state;
    const char *data = tu_shared_data("gavel/simulation_throughputs.json");
    if (!data)
        skip();
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    char *path = xasprintf("%s/gavel/simulation_throughputs.json", data);
    if (import_path(st, path, NULL, &res, &err))
        fail_msg("%s", err.msg);
    tput_catalog *c;
    assert_int_equal(store_get_tput_catalog(st, "simulation_throughputs", &c, &err), 0);
    assert_int_equal(tput_catalog_accels(c), 6);
    assert_int_equal(tput_catalog_job_types(c), 83);
    /* 5 accelerators × 83 job types + k80_unconsolidated's 77, each with its
     * solo entry and pairs. */
    size_t solo = 0;
    for (size_t i = 0; i < c->nentries; i++)
        solo += c->entries[i].co_model[0] == '\0';
    assert_int_equal(solo, 5 * 83 + 77);
    assert_int_equal(c->nentries, 10830);
    const tput_entry *e = &c->entries[0];
    assert_string_equal(e->accel, "k80");
    assert_string_equal(e->model, "ResNet-18");
    assert_int_equal(e->batch_size, 16);
    assert_int_equal(e->scale, 1);
    assert_double_equal(e->tput, 4.795294551566172, 0);
    printf("gavel: %zu entries, %zu accelerators, %zu job types\n", c->nentries,
           tput_catalog_accels(c), tput_catalog_job_types(c));
    tput_catalog_free(c);
    free(path);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_table),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_locate),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_real_data),
    };
    return cmocka_run_group_tests_name("import_gavel", tests, NULL, NULL);
}
