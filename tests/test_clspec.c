/*
 * test_clspec.c — clusters from a few words (src/core/clspec.c): groups
 * started by --gpu, defaults, "--flag=value", the errors a user meets
 * (flag before --gpu, bad numbers, '/' in the name, unknown models), and
 * the servers built from a spec.
 */
#include "testutil.h"

#include "core/clspec.h"

static void test_parse_groups(void **state)
{
    (void)state;
    clspec s;
    gp_err err;
    assert_int_equal(clspec_parse_text("big --gpu H100 --servers 24 --per-server 8 "
                                       "--gpu A100-40GB --servers=3 --cpus 64 --ram-gib 512 "
                                       "--cpu Xeon", &s, &err), 0);
    assert_string_equal(s.name, "big");
    assert_int_equal(s.ngroups, 2);
    assert_string_equal(s.group[0].gpu, "H100");
    assert_int_equal(s.group[0].servers, 24);
    assert_int_equal(s.group[0].per_server, 8);
    assert_int_equal(s.group[0].cpus, 128);        /* defaults */
    assert_int_equal(s.group[0].ram_gib, 1024);
    assert_string_equal(s.group[1].gpu, "A100-40GB");
    assert_int_equal(s.group[1].servers, 3);
    assert_int_equal(s.group[1].per_server, 8);
    assert_int_equal(s.group[1].cpus, 64);
    assert_int_equal(s.group[1].ram_gib, 512);
    assert_string_equal(s.group[1].cpu, "Xeon");
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"", "expected the cluster's name first"},
        {"--gpu H100", "expected the cluster's name first"},
        {"c", "no servers"},
        {"c --servers 3", "--servers: give --gpu MODEL first"},
        {"c --gpu H100 --servers 0", "--servers: expected a whole number from 1"},
        {"c --gpu H100 --per-server 17", "--per-server: expected a whole number from 1 to 16"},
        {"c --gpu H100 --servers lots", "got 'lots'"},
        {"c --gpu", "--gpu: missing its value"},
        {"c --gpu H100 --colour red", "unknown option '--colour'"},
        {"c --gpu H100 extra", "unexpected argument 'extra'"},
        {"a/b --gpu H100", "cannot contain '/'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        clspec s;
        gp_err err = {{0}};
        assert_int_equal(clspec_parse_text(cases[i].text, &s, &err), -1);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("'%s': '%s' lacks '%s'", cases[i].text, err.msg, cases[i].msg);
    }
}

static void test_build(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    clspec s;
    gp_err err;
    assert_int_equal(clspec_parse_text("c --gpu H100 --servers 2 --per-server 4 --gpu V100 "
                                       "--servers 1", &s, &err), 0);
    cluster *cl = clspec_build(&s, cat, &err);
    assert_non_null(cl);
    assert_int_equal(cl->nnodes, 3);
    assert_int_equal(cluster_gpu_total(cl), 2 * 4 + 8);
    assert_string_equal(cl->nodes[0].name, "H100-00");
    assert_string_equal(cl->nodes[2].name, "V100-02");
    assert_string_equal(cl->nodes[2].gpu_model, "V100");
    assert_int_equal(cl->nodes[0].cpu_milli, 128000);
    assert_int_equal(cl->nodes[0].ram_mib, 1024 * 1024);
    cluster_free(cl);
    assert_int_equal(clspec_parse_text("c --gpu NoSuchGPU", &s, &err), 0);
    assert_null(clspec_build(&s, cat, &err));
    assert_non_null(strstr(err.msg, "no GPU profile named 'NoSuchGPU'"));
    assert_int_equal(clspec_parse_text("c --gpu H100 --cpu NoSuchCPU", &s, &err), 0);
    assert_null(clspec_build(&s, cat, &err));
    assert_non_null(strstr(err.msg, "no CPU profile named 'NoSuchCPU'"));
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_groups),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_build),
    };
    return cmocka_run_group_tests_name("clspec", tests, NULL, NULL);
}
