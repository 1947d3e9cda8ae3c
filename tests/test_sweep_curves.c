/*
 * test_sweep_curves.c — the io layer's writers of an inflation sweep's
 * curves (io/sweep_curves.h): the CSV rows, byte for byte, with NaN empty
 * and numbers in their shortest exact form; the JSON document read back
 * with jansson: every double the same, NaN as null, whole numbers as
 * integers, a label with quotes and a control character escaped, and the
 * CSV-only curve left out.
 */
#include "testutil.h"

#include <jansson.h>

#include "io/sweep_curves.h"

static const sweep_point pct_pts[2] = {
    {0, 0.1 + 0.2, 0, 0.3, 0.30000000000000004, 3},
    {1, NAN, NAN, NAN, NAN, 0},
};
static const sweep_point grid_pts[2] = {
    {0, 130, 1e-300, -2.5, 1e17, 2},
    {0.005, 1.0 / 3, 2.0 / 3, 0, 1, 2},
};
static const sweep_point saving_pts[1] = {{0, 12.5, NAN, NAN, NAN, 2}};

static const sweep_curve curves[3] = {
    {"percent", "alloc_pct", pct_pts, 2, 0},
    {"grid", "eopc_w", grid_pts, 2, 0},
    {"grid", "eopc_saving_pct", saving_pts, 1, 1},
};
static const sweep_policy_curves pols[1] = {{"pwr+fgd:\"0.1\"\t", 2, curves, 3}};
static const uint64_t seeds[2] = {42, 43};
static const double px[2] = {0, 1}, gx[2] = {0, 0.005};

static const sweep_curves set = {"tr", "cl", 1.3, seeds, 2, px, 2, gx, 2, pols, 1};

/* What f holds, rewound and read whole (caller frees). */
static char *slurp(FILE *f)
{
    long n = ftell(f);
    rewind(f);
    char *s = xmalloc((size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    return s;
}

static void test_csv(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    sweep_curves_write_csv(f, &set);
    char *got = slurp(f);
    assert_string_equal(got,
        "policy,curve,metric,x,mean,sd,min,max,n\n"
        "\"pwr+fgd:\"\"0.1\"\"\t\",percent,alloc_pct,0,0.30000000000000004,0,0.3,"
        "0.30000000000000004,3\n"
        "\"pwr+fgd:\"\"0.1\"\"\t\",percent,alloc_pct,1,,,,,0\n"
        "\"pwr+fgd:\"\"0.1\"\"\t\",grid,eopc_w,0,130,1e-300,-2.5,1e+17,2\n"
        "\"pwr+fgd:\"\"0.1\"\"\t\",grid,eopc_w,0.005,0.3333333333333333,"
        "0.6666666666666666,0,1,2\n"
        "\"pwr+fgd:\"\"0.1\"\"\t\",grid,eopc_saving_pct,0,12.5,,,,2\n");
    free(got);
    fclose(f);
}

static double num_at(const json_t *a, size_t i)
{
    const json_t *v = json_array_get(a, i);
    assert_true(json_is_number(v));
    return json_number_value(v);
}

static void test_json(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    gp_err err = {{0}};
    assert_int_equal(sweep_curves_write_json(f, &set, &err), 0);
    char *text = slurp(f);
    json_error_t je;
    json_t *doc = json_loads(text, 0, &je);
    if (!doc)
        fail_msg("%s: %s", je.text, text);
    assert_string_equal(json_string_value(json_object_get(doc, "trace")), "tr");
    assert_true(json_number_value(json_object_get(doc, "ratio")) == 1.3);
    const json_t *pol = json_array_get(json_object_get(doc, "policies"), 0);
    assert_string_equal(json_string_value(json_object_get(pol, "policy")), "pwr+fgd:\"0.1\"\t");
    assert_int_equal(json_integer_value(json_object_get(pol, "runs")), 2);
    const json_t *alloc = json_object_get(json_object_get(pol, "percent"), "alloc_pct");
    const json_t *mean = json_object_get(alloc, "mean");
    assert_true(num_at(mean, 0) == 0.1 + 0.2);
    assert_true(json_is_null(json_array_get(mean, 1)));
    assert_true(json_is_integer(json_array_get(json_object_get(alloc, "sd"), 0)));
    const json_t *grid = json_object_get(pol, "grid");
    const json_t *eopc = json_object_get(grid, "eopc_w");
    assert_true(json_is_integer(json_array_get(json_object_get(eopc, "mean"), 0)));
    assert_true(num_at(json_object_get(eopc, "sd"), 0) == 1e-300);
    assert_true(num_at(json_object_get(eopc, "mean"), 1) == 1.0 / 3);
    assert_true(num_at(json_object_get(eopc, "sd"), 1) == 2.0 / 3);
    assert_true(num_at(json_object_get(doc, "grid_x"), 1) == 0.005);
    assert_null(json_object_get(grid, "eopc_saving_pct"));
    json_decref(doc);
    free(text);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
