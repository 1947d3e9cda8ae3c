/*
 * test_textwidth.c — core/textwidth.h (layer: core only): terminal columns
 * of UTF-8 text, wide (CJK, emoji), zero-width (combining marks) and bytes
 * that are not UTF-8, the same whatever the locale the program runs in.
 */
#include "testutil.h"

#include <locale.h>

#include "core/textwidth.h"

static const struct {
    const char *s;
    size_t cols;
} cases[] = {
    {"", 0},
    {"plain", 5},
    {"caf\xC3\xA9", 4},                             /* é precomposed */
    {"cafe\xCC\x81", 4},                            /* e + U+0301 combining */
    {"\xE8\xA8\x88\xE7\xAE\x97", 4},                /* 計算: CJK, 2 each */
    {"\xEF\xBC\xA1", 2},                            /* Ａ fullwidth */
    {"\xF0\x9F\x98\x80!", 3},                       /* 😀 emoji, 2 */
    {"\xE2\x80\xA6", 1},                            /* … */
    {"a\xE2\x80\x8B" "b", 2},                       /* zero-width space */
    {"\xff" "a", 2},                                /* a stray byte: 1 */
    {"\xE8\xA8" "a", 2},                            /* cut short: 1, then a */
    {"\xC0\xAF", 1},                                /* overlong '/': one bad */
    {"\xED\xA0\x80", 1},                            /* a surrogate: one bad */
    {"\x1b" "x", 2},                                /* a control: 1 */
};

static void check_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (textwidth(cases[i].s) != cases[i].cols)
            fail_msg("case %zu: %zu columns, expected %zu", i, textwidth(cases[i].s),
                     cases[i].cols);
}

static void test_widths_c_locale(void **state)
{
    (void)state;
    setlocale(LC_ALL, "C");
    check_cases();
}

static void test_widths_utf8_locale(void **state)
{
    (void)state;
    if (!setlocale(LC_ALL, "C.UTF-8"))
        skip();
    check_cases();
    setlocale(LC_ALL, "C");
}

static void test_next(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t len;
        uint32_t cp;
    } dec[] = {
        {"a", 1, 'a'},
        {"\xC3\xA9", 2, 0xE9},
        {"\xE8\xA8\x88", 3, 0x8A08},
        {"\xF0\x9F\x98\x80", 4, 0x1F600},
        {"\x80\x80x", 2, TEXTWIDTH_BAD},                /* stray continuations */
        {"\xE8\xA8", 2, TEXTWIDTH_BAD},                 /* cut by the NUL */
        {"\xF8\x88\x80\x80\x80", 5, TEXTWIDTH_BAD},     /* 5-byte form */
        {"\xF4\x90\x80\x80", 4, TEXTWIDTH_BAD},         /* above U+10FFFF */
    };
    for (size_t i = 0; i < sizeof dec / sizeof *dec; i++) {
        uint32_t cp = 0;
        assert_int_equal(textwidth_next(dec[i].s, &cp), dec[i].len);
        assert_int_equal(cp, dec[i].cp);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths_c_locale),
        cmocka_unit_test(test_widths_utf8_locale),
        cmocka_unit_test(test_next),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
