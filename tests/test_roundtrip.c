/*
 * test_roundtrip.c — every format gpuplan both reads and writes round-trips
 * (io layer: the native, openb, gavel and peace importers against the CSV
 * exporters): each fixture of tests/fixtures/ in those formats, and each
 * sample set of sample-data/, imported, exported and imported again, is
 * what the first import stored, field by field (ops_roundtrip.h).  A
 * fixture an importer refuses is listed as refused, so a fixture that
 * stops importing fails here too.  The operators' formats are checked the
 * same way in test_ops_whole.c.
 */
#include "testutil.h"
#include "ops_roundtrip.h"

extern const importer import_openb;
extern const importer import_gavel;
extern const importer import_peace;

#define FX "tests/fixtures/"

typedef struct rt_case {
    const importer *imp;        /* NULL: the importer format detection picks */
    const char *paths[3];       /* NULL-terminated */
    int refused;                /* the fixture is a malformed one */
} rt_case;

static const rt_case cases[] = {
    {&import_native, {FX "native/lab"}, 0},
    {&import_native, {FX "gogh/few-types"}, 0},
    {&import_native, {FX "gogh/foreign"}, 0},
    {&import_native, {FX "gogh/nan"}, 1},
    {&import_native, {FX "gogh/negative"}, 1},
    {&import_native, {FX "gogh/one-accel"}, 0},
    {&import_openb, {FX "openb/openb_node_list_lab.csv", FX "openb/openb_pod_list_lab.csv"}, 0},
    {&import_openb, {FX "openb/openb_node_list_lab.csv"}, 0},
    {&import_openb, {FX "openb/openb_pod_list_short.csv"}, 0},
    {&import_gavel, {FX "gavel/lab_throughputs.json"}, 0},
    {&import_gavel, {FX "gogh/negative.json"}, 1},
    {&import_peace, {FX "peace/lab"}, 0},
    {NULL, {"sample-data/cats-testbed"}, 0},
    {NULL, {"sample-data/corrgpu-example"}, 0},
    {NULL, {"sample-data/gavel-like"}, 0},
    {NULL, {"sample-data/openb-like"}, 0},
    {NULL, {"sample-data/pai-like"}, 0},
    {NULL, {"sample-data/peace-mix"}, 0},
    {NULL, {"sample-data/peace-v100"}, 0},
};

static size_t npaths(const rt_case *c)
{
    size_t n = 0;
    while (n < 3 && c->paths[n])
        n++;
    return n;
}

/* Imports the case as "rt" and checks its round trip; returns 0, or -1
 * with why (an import refused is said so in why). */
static int round_trip(store *st, const char *tmp, const rt_case *c, char *why, size_t len)
{
    size_t n = npaths(c);
    const importer *imp = c->imp ? c->imp : importer_detect(c->paths, n);
    assert_non_null(imp);
    import_opts opts = {0};
    opts.name = "rt";
    import_result res;
    gp_err err = {{0}};
    if (import_run(st, imp, c->paths, n, &opts, &res, &err)) {
        snprintf(why, len, "refused: %s", err.msg);
        return -1;
    }
    if (imp == &import_peace)
        return ops_rt_peace_result(st, tmp, "rt", why, len);
    return ops_rt_import_result(st, tmp, "rt", &res, why, len);
}

static void test_fixtures_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *dir;
        store *st = tu_store_new(&dir);
        char why[1200] = "";
        int rc = round_trip(st, dir, &cases[i], why, sizeof why);
        if (cases[i].refused) {
            if (rc == 0 || strncmp(why, "refused: ", 9) != 0)
                fail_msg("%s: expected a refusal, got %s", cases[i].paths[0],
                         rc ? why : "an import that round-trips");
        } else if (rc) {
            fail_msg("%s: %s", cases[i].paths[0], why);
        }
        tu_store_free(st, dir);
    }
}

/* The check can fail: a copy that differs in one field of one task is
 * found (so the table above is not passing by comparing nothing). */
static void test_difference_found(void **state)
{
    (void)state;
    gp_trace *a = trace_new("a"), *b = trace_new("b");
    task k;
    task_init(&k);
    strlcpy0(k.name, "t", sizeof k.name);
    trace_add_task(a, &k);
    k.kappa = 1.5;
    trace_add_task(b, &k);
    char why[200];
    assert_int_equal(ops_rt_tasks(a, b, why, sizeof why), -1);
    assert_non_null(strstr(why, "SLA"));
    trace_free(a);
    trace_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_round_trip),
        cmocka_unit_test(test_difference_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
