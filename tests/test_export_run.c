/*
 * test_export_run.c — a run exported (io layer: export_run_csv and
 * export_run_json): each placement's node is written by its name, empty
 * or null when nothing fit; with no cluster (it was deleted), or one too
 * small for the run's node numbers (replaced since), by number under
 * node_index.
 */
#include "testutil.h"

#include "io/export.h"

#include <jansson.h>

static run *make_run(void)
{
    run *r = run_new("first");
    strlcpy0(r->cluster_name, "c", sizeof r->cluster_name);
    run_outcome o = {.task = 0, .node = 1, .gpus = "0"};
    run_add_outcome(r, &o);
    o.task = 1;
    o.node = -1;
    o.gpus[0] = '\0';
    run_add_outcome(r, &o);
    run_decision d = {.seq = 0, .task = 0, .node = 1, .gpus = "0"};
    run_add_decision(r, &d);
    return r;
}

static char *slurp(const char *dir, const char *file)
{
    char *p = xasprintf("%s/%s", dir, file);
    size_t len;
    gp_err err = {{0}};
    char *s = read_file(p, &len, &err);
    free(p);
    assert_non_null(s);
    return s;
}

/* The CSV files of r exported with cluster c hold the lines `want`. */
static void check_csv(const run *r, const cluster *c, const char *const want[4])
{
    char *dir = tu_tmpdir();
    gp_err err = {{0}};
    if (export_run_csv(r, c, dir, &err))
        fail_msg("%s", err.msg);
    char *outcomes = slurp(dir, "outcomes.csv"), *decisions = slurp(dir, "decisions.csv");
    for (int i = 0; i < 4; i++)
        if (!strstr(i < 3 ? outcomes : decisions, want[i]))
            fail_msg("no '%s' in:\n%s%s", want[i], outcomes, decisions);
    free(outcomes);
    free(decisions);
    tu_rmrf(dir);
    free(dir);
}

static void test_csv_names_nodes(void **state)
{
    (void)state;
    run *r = make_run();
    cluster *c = cluster_new("c"), *small = cluster_new("c");
    tu_add_node(c, "rack1-a", "V100", 4);
    tu_add_node(c, "rack1-b", "V100", 4);
    tu_add_node(small, "only", "V100", 4);
    static const char *const named[] = {"sla_violated,node,gpus\n", ",0,rack1-b,0\n",
                                        ",0,,\n", ",0,rack1-b,0,"};
    static const char *const numbered[] = {"sla_violated,node_index,gpus\n", ",0,1,0\n",
                                           ",0,-1,\n", ",0,1,0,"};
    check_csv(r, c, named);
    check_csv(r, NULL, numbered);
    check_csv(r, small, numbered);
    cluster_free(c);
    cluster_free(small);
    run_free(r);
}

static json_t *run_doc(const run *r, const cluster *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gp_err err = {{0}};
    if (export_run_json(r, c, f, &err))
        fail_msg("%s", err.msg);
    fclose(f);
    json_t *doc = json_loads(buf, 0, NULL);
    free(buf);
    assert_non_null(doc);
    return doc;
}

static void test_json_names_nodes(void **state)
{
    (void)state;
    run *r = make_run();
    cluster *c = cluster_new("c");
    tu_add_node(c, "rack1-a", "V100", 4);
    tu_add_node(c, "rack1-b", "V100", 4);
    json_t *doc = run_doc(r, c);
    json_t *out = json_object_get(doc, "outcomes");
    assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0), "node")),
                        "rack1-b");
    assert_true(json_is_null(json_object_get(json_array_get(out, 1), "node")));
    json_t *dec = json_array_get(json_object_get(doc, "decisions"), 0);
    assert_string_equal(json_string_value(json_object_get(dec, "node")), "rack1-b");
    json_decref(doc);
    doc = run_doc(r, NULL);
    out = json_array_get(json_object_get(doc, "outcomes"), 0);
    assert_null(json_object_get(out, "node"));
    assert_int_equal(json_integer_value(json_object_get(out, "node_index")), 1);
    json_decref(doc);
    cluster_free(c);
    run_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_names_nodes),
        cmocka_unit_test(test_json_names_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
