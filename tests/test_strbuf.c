/*
 * test_strbuf.c — the growable string (strbuf.h): appends past any initial
 * size, separators, taking the text, and copies into fixed fields that cut
 * at a UTF-8 boundary.
 */
#include "testutil.h"

#include "core/strbuf.h"

static void test_append_grows(void **state)
{
    (void)state;
    strbuf b = STRBUF_INIT;
    assert_string_equal(strbuf_str(&b), "");
    for (int i = 0; i < 1000; i++)
        strbuf_printf(&b, "%d,", i % 10);
    assert_int_equal(b.len, 2000);
    assert_int_equal(strlen(strbuf_str(&b)), 2000);
    assert_memory_equal(strbuf_str(&b), "0,1,2,", 6);
    strbuf_reset(&b);
    assert_string_equal(strbuf_str(&b), "");
    strbuf_puts(&b, "x");
    assert_string_equal(strbuf_str(&b), "x");
    strbuf_free(&b);
    strbuf_free(&b);                    /* twice is harmless */
}

static void test_sep_and_take(void **state)
{
    (void)state;
    strbuf b = STRBUF_INIT;
    static const char *const names[] = {"cats", "corrgpu", "first"};
    for (size_t i = 0; i < 3; i++) {
        strbuf_sep(&b, ", ");
        strbuf_puts(&b, names[i]);
    }
    char *s = strbuf_take(&b);
    assert_string_equal(s, "cats, corrgpu, first");
    assert_int_equal(b.len, 0);
    assert_null(b.s);
    free(s);
    s = strbuf_take(&b);                /* empty: "" rather than NULL */
    assert_string_equal(s, "");
    free(s);
}

typedef struct copy_case {
    const char *text;
    size_t n;
    const char *want;
} copy_case;

static void test_copy_to(void **state)
{
    (void)state;
    /* "é" is two bytes (c3 a9), "€" three (e2 82 ac). */
    static const copy_case cases[] = {
        {"abcdef", 10, "abcdef"},
        {"abcdef", 4, "abc"},
        {"abcdef", 1, ""},
        {"ab\xc3\xa9" "cd", 4, "ab"},         /* would cut é after its lead byte */
        {"ab\xc3\xa9" "cd", 5, "ab\xc3\xa9"},
        {"\xe2\x82\xac\xe2\x82\xac", 6, "\xe2\x82\xac"},
        {"", 4, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        strbuf b = STRBUF_INIT;
        strbuf_puts(&b, cases[i].text);
        char dst[16];
        memset(dst, 'Z', sizeof dst);
        strbuf_copy_to(&b, dst, cases[i].n);
        assert_string_equal(dst, cases[i].want);
        strbuf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_grows),
        cmocka_unit_test(test_sep_and_take),
        cmocka_unit_test(test_copy_to),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
