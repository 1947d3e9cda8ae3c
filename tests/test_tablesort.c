/*
 * test_tablesort.c — ordering table rows by a column (ui/tablesort.c):
 * cells compared as shown (k/M suffixes, clock times, text), empty cells
 * last both ways, a stable order, and the column key's cycle.
 */
#include "testutil.h"

#include "ui/tablesort.h"
#include "ui/tablesort_int.h"

static const char *const rows[][3] = {
    {"cats", "1.2k", "1d 02:15:00"},
    {"corrgpu", "950", "00:40:00"},
    {"first", "-", "45s"},
    {"bestfit", "12k", "-"},
    {"fgd", "950", "02:00:00"},
};
#define NROWS (sizeof rows / sizeof *rows)

static const char *cell(const void *ctx, size_t row, int col, char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return rows[row][col];
}

static void check(table_sort s, const size_t *want)
{
    size_t order[NROWS];
    tablesort_order(NROWS, s, cell, NULL, order);
    for (size_t i = 0; i < NROWS; i++)
        if (order[i] != want[i])
            fail_msg("by %d desc %d: row %zu is %zu, wanted %zu", s.by, s.desc, i, order[i],
                     want[i]);
}

static void test_order(void **state)
{
    (void)state;
    check((table_sort){0, 0}, (const size_t[]){0, 1, 2, 3, 4});
    check((table_sort){1, 0}, (const size_t[]){3, 0, 1, 4, 2});
    /* 950 < 1.2k < 12k; the two 950s keep their order; "-" last. */
    check((table_sort){2, 0}, (const size_t[]){1, 4, 0, 3, 2});
    check((table_sort){2, 1}, (const size_t[]){3, 0, 1, 4, 2});
    /* 45s < 40 min < 2 h < 1 day; "-" last reversed too. */
    check((table_sort){3, 0}, (const size_t[]){2, 1, 4, 0, 3});
    check((table_sort){3, 1}, (const size_t[]){0, 4, 1, 2, 3});
}

static void test_values(void **state)
{
    (void)state;
    double v;
    assert_true(tablesort_value("1.5M", &v));
    assert_double_equal(v, 1.5e6, 1e-6);
    assert_true(tablesort_value("2,500", &v));
    assert_double_equal(v, 2500, 0);
    assert_true(tablesort_value("1d 00:00:01", &v));
    assert_double_equal(v, 86401, 0);
    assert_false(tablesort_value("cats", &v));
    assert_true(tablesort_cmp("9", "10") < 0);       /* by value, not by text */
    assert_true(tablesort_cmp("10", "abc") < 0);     /* numbers before text */
}

static void test_next(void **state)
{
    (void)state;
    table_sort s = {0, 0};
    tablesort_next(&s, 3, 1);           /* nothing to reverse yet */
    assert_int_equal(s.by, 0);
    assert_int_equal(s.desc, 0);
    tablesort_next(&s, 3, 0);
    assert_int_equal(s.by, 1);
    tablesort_next(&s, 3, 1);
    assert_int_equal(s.desc, 1);
    tablesort_next(&s, 3, 0);           /* the next column starts ascending */
    assert_int_equal(s.by, 2);
    assert_int_equal(s.desc, 0);
    tablesort_next(&s, 3, 0);
    tablesort_next(&s, 3, 0);           /* after the last: the table's own order */
    assert_int_equal(s.by, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_next),
    };
    return cmocka_run_group_tests_name("tablesort", tests, NULL, NULL);
}
