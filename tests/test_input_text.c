/*
 * test_input_text.c — the checks every input text passes in core/
 * (core/util.h): a number is decimal (no hex float), a name is UTF-8 text
 * with something besides spaces and no control character, and a text in
 * another Unicode form is named by its encoding.  Layer: core.
 */
#include "testutil.h"

#include "core/util.h"

static void test_parse_double(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int ok;
        double want;
    } cases[] = {
        {"6.5", 1, 6.5}, {"-1e3", 1, -1000}, {"0", 1, 0}, {"16", 1, 16},
        {"0x10", 0, 0}, {"0X10", 0, 0}, {"0x1p4", 0, 0}, {"-0x8", 0, 0},
        {"6,5", 0, 0}, {"inf", 0, 0}, {"nan", 0, 0}, {"", 0, 0}, {"1e999", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double v = -42;
        int rc = parse_double(cases[i].text, &v);
        if (cases[i].ok) {
            assert_int_equal(rc, 0);
            assert_true(v == cases[i].want);
        } else if (rc == 0) {
            fail_msg("'%s' read as %g", cases[i].text, v);
        }
    }
}

static void test_name_check(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int ok;
    } cases[] = {
        {"a100", 1}, {"my cluster", 1}, {"\xe6\x9c\xba\xe6\x88\xbf", 1}, {" x ", 1},
        {"", 0}, {" ", 0}, {"   ", 0}, {"a\nb", 0}, {"a\tb", 0}, {"a\rb", 0},
        {"a\x7f", 0}, {"a\xff", 0}, {"\xc3", 0}, {"\xed\xa0\x80", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gp_err err = {{0}};
        int rc = name_check(cases[i].name, &err);
        if (cases[i].ok && rc)
            fail_msg("name %zu refused: %s", i, err.msg);
        if (!cases[i].ok && rc == 0)
            fail_msg("name %zu accepted", i);
        if (!cases[i].ok)
            assert_true(strstr(err.msg, "name") != NULL);
    }
}

static void test_other_encoding(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t len;
        const char *want;
    } cases[] = {
        {"\xff\xfe{\0", 4, "UTF-16LE"}, {"\xfe\xff\0{", 4, "UTF-16BE"},
        {"{\0\"\0", 4, "UTF-16LE"}, {"\0{\0\"", 4, "UTF-16BE"},
        {"\xff\xfe\0\0{\0\0\0", 8, "UTF-32LE"}, {"\0\0\xfe\xff\0\0\0{", 8, "UTF-32BE"},
        {"{\"a\": 1}", 8, NULL}, {"\xef\xbb\xbf{}", 5, NULL}, {"", 0, NULL}, {"x", 1, NULL},
        {"\xe6\x9c\xba", 3, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = utf_other_encoding(cases[i].text, cases[i].len);
        if (!cases[i].want)
            assert_null(got);
        else
            assert_string_equal(got ? got : "(none)", cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_double),
        cmocka_unit_test(test_name_check),
        cmocka_unit_test(test_other_encoding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
