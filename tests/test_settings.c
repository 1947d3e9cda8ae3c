/*
 * test_settings.c — the dashboard's remembered settings (ui/settings.c):
 * parsing key = value text (comments, blanks, unknown keys, errors with
 * their line), the text written back, the path from the environment, and
 * a save/load round trip through a directory that does not exist yet.
 */
#include "testutil.h"

#include "ui/settings.h"
#include "ui/settings_int.h"

static void test_parse(void **state)
{
    (void)state;
    ui_settings s = {0};
    gp_err err;
    const char *text = "# comment\n\n  chart_style = blocks \ntrace=pai-like\n"
                       "cluster = pai-like\npolicies = cats, corrgpu:0.2 ,first\n"
                       "from_a_newer_version = 1\n";
    assert_int_equal(settings_parse(text, &s, &err), 0);
    assert_string_equal(s.chart_style, "blocks");
    assert_string_equal(s.trace, "pai-like");
    assert_string_equal(s.cluster, "pai-like");
    assert_int_equal(s.npolicies, 3);
    assert_string_equal(s.policies[1], "corrgpu:0.2");
    /* What the text does not set is kept. */
    assert_int_equal(settings_parse("trace = openb-like\n", &s, &err), 0);
    assert_string_equal(s.trace, "openb-like");
    assert_string_equal(s.cluster, "pai-like");
    /* An empty value clears. */
    assert_int_equal(settings_parse("policies =\n", &s, &err), 0);
    assert_int_equal(s.npolicies, 0);
}

/* 260 bytes: past the longest name (253) */
#define LONG26 "01234567890123456789012345"
#define LONG260 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26 LONG26

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"trace = a\n\nno equals sign\n", "line 3: expected key = value"},
        {"policies = a,b,c,d,e,f,g\n", "line 1: policies: at most 6"},
        {"trace = " LONG260 "\n", "line 1: trace: at most 253 characters"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ui_settings s = {0};
        gp_err err = {{0}};
        assert_int_equal(settings_parse(cases[i].text, &s, &err), -1);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
    }
}

static void test_format_round_trip(void **state)
{
    (void)state;
    ui_settings a = {"ascii", "cats-testbed", "cats-testbed", {"cats", "first"}, 2,
                     {"0.125", "", "1.3"}}, b = {0};
    char *text = settings_format(&a);
    gp_err err;
    assert_int_equal(settings_parse(text, &b, &err), 0);
    assert_true(settings_equal(&a, &b));
    b.npolicies = 1;
    assert_false(settings_equal(&a, &b));
    free(text);
}

static void test_path(void **state)
{
    (void)state;
    setenv("XDG_CONFIG_HOME", "/x/conf", 1);
    char *p = settings_path();
    assert_string_equal(p, "/x/conf/gpuplan/settings");
    free(p);
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/u", 1);
    p = settings_path();
    assert_string_equal(p, "/home/u/.config/gpuplan/settings");
    free(p);
}

static void test_save_load(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/not/yet/settings", dir);
    ui_settings a = {"blocks", "pai-like", "pai-like", {"cats", "corrgpu"}, 2,
                     {"price.csv", "400", ""}}, b = {0};
    gp_err err;
    assert_int_equal(settings_load(path, &b, &err), 0);    /* missing: no error */
    assert_int_equal(b.npolicies, 0);
    assert_int_equal(settings_save(path, &a, &err), 0);
    assert_int_equal(settings_load(path, &b, &err), 0);
    assert_true(settings_equal(&a, &b));
    free(path);
    tu_rmrf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_save_load),
    };
    return cmocka_run_group_tests_name("settings", tests, NULL, NULL);
}
