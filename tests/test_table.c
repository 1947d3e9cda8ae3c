/*
 * test_table.c — text_printable(), the one escape every name printed in the
 * text format goes through: a table of inputs and what a terminal is shown;
 * and the text format's columns lined up on terminal columns (layer: io).
 */
#include "testutil.h"

#include "io/table.h"

static void test_printable(void **state)
{
    (void)state;
    static const struct {
        const char *in, *shown;
    } cases[] = {
        {"plain name", "plain name"},
        {"caf\xC3\xA9 \xE2\x9C\x93", "caf\xC3\xA9 \xE2\x9C\x93"},     /* UTF-8 kept */
        {"\x1b[2J", "\\x1b[2J"},                                   /* clear screen */
        {"\x1b]0;title\x07", "\\x1b]0;title\\x07"},                 /* OSC title, BEL */
        {"a\rb\nc\td", "a\\rb\\nc\\td"},
        {"del\x7f", "del\\x7f"},
        {"c1 \xC2\x9B" "31m", "c1 \\u009b31m"},                     /* 8-bit CSI */
        {"\xC2\xA0nbsp", "\xC2\xA0nbsp"},                          /* U+00A0 is text */
        {"bad \xff\xC3", "bad \\xff\\xc3"},                         /* not UTF-8 */
        {"back\\slash", "back\\slash"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *s = text_printable(cases[i].in);
        if (strcmp(s, cases[i].shown) != 0)
            fail_msg("case %zu: '%s', expected '%s'", i, s, cases[i].shown);
        free(s);
    }
}

/* The text format of a table escapes every cell and aligns on what is
 * shown; CSV keeps the bytes. */
static void test_table_text(void **state)
{
    (void)state;
    table *t = table_new();
    table_col(t, "name", 0);
    table_col(t, "n", 1);
    table_row(t);
    table_cell(t, "%s", "x\x1b[2J");
    table_cell(t, "%d", 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    table_print(t, FMT_TABLE, f, NULL);
    table_print(t, FMT_CSV, f, NULL);
    fclose(f);
    assert_string_equal(buf, "name      n\n"
                             "x\\x1b[2J  1\n"
                             "name,n\n"
                             "x\x1b[2J,1\n");
    free(buf);
    table_free(t);
}

/* Names wider than their characters (CJK, emoji: two columns each) or
 * narrower (a combining mark: none) pad to the same terminal column. */
static void test_table_wide(void **state)
{
    (void)state;
    table *t = table_new();
    table_col(t, "name", 0);
    table_col(t, "gpus", 1);
    table_col(t, "model", 0);
    static const char *const names[] = {
        "\xE8\xA8\x88\xE7\xAE\x97\xE6\xA9\x9F",       /* 計算機: 6 columns */
        "x\xF0\x9F\x98\x80",                          /* x😀: 3 */
        "noe\xCC\x81ud",                               /* noéud, e + U+0301: 5 */
        "a\x1b",                                      /* escaped: a\x1b, 5 */
    };
    for (int i = 0; i < 4; i++) {
        table_row(t);
        table_cell(t, "%s", names[i]);
        table_cell(t, "%d", i + 1);
        table_cell(t, "%s", "V100");
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    table_print(t, FMT_TABLE, f, NULL);
    fclose(f);
    assert_string_equal(buf, "name    gpus  model\n"
                             "\xE8\xA8\x88\xE7\xAE\x97\xE6\xA9\x9F     1  V100\n"
                             "x\xF0\x9F\x98\x80        2  V100\n"
                             "noe\xCC\x81ud      3  V100\n"
                             "a\\x1b      4  V100\n");
    free(buf);
    table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printable),
        cmocka_unit_test(test_table_text),
        cmocka_unit_test(test_table_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
