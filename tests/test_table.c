/*
 * test_table.c — text_printable(), the one escape every name printed in the
 * text format goes through: a table of inputs and what a terminal is shown.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printable),
        cmocka_unit_test(test_table_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
