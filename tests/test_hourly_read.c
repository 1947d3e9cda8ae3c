/*
 * test_hourly_read.c — the io layer's reader of hourly series
 * (io/hourly_read.h), table-driven: good files give their values; a gap in
 * the hours, a non-number, a negative price, a PUE below 1, fewer or more
 * fields, an unknown or missing column and a file of no rows fail with a
 * message naming file:line:col, and leave the output untouched.
 */
#include "testutil.h"

#include "io/hourly_read.h"

typedef struct series_case {
    const char *what;
    const hourly_kind *kind;
    const char *content;
    int n;                      /* values wanted; -1: an error */
    double want[3];
    const char *where;          /* the error's ":line:col:" */
    const char *says;           /* and a word of its message */
} series_case;

static void test_series(void **state)
{
    (void)state;
    static const series_case cases[] = {
        {"price", &HOURLY_PRICE, "hour,usd_per_kwh\n0,0.1\n1,0.3\n", 2, {0.1, 0.3}, NULL, NULL},
        {"columns swapped, CRLF", &HOURLY_CARBON, "g_co2e_per_kwh,hour\r\n400,0\r\n200,1\r\n",
         2, {400, 200}, NULL, NULL},
        {"pue", &HOURLY_PUE, "hour,pue\n0,1.2\n1,1.5\n2,1\n", 3, {1.2, 1.5, 1}, NULL, NULL},
        {"gap", &HOURLY_PRICE, "hour,usd_per_kwh\n0,0.1\n2,0.3\n", -1, {0}, ":3:1:",
         "expected hour 1"},
        {"not from 0", &HOURLY_PRICE, "hour,usd_per_kwh\n1,0.1\n", -1, {0}, ":2:1:",
         "expected hour 0"},
        {"non-number", &HOURLY_PRICE, "hour,usd_per_kwh\n0,0.1\n1,cheap\n", -1, {0}, ":3:2:",
         "finite number"},
        {"negative price", &HOURLY_PRICE, "hour,usd_per_kwh\n0,-0.1\n", -1, {0}, ":2:2:",
         "out of range"},
        {"pue below 1", &HOURLY_PUE, "hour,pue\n0,0.9\n", -1, {0}, ":2:2:", "out of range"},
        {"negative pue", &HOURLY_PUE, "hour,pue\n0,-1.2\n", -1, {0}, ":2:2:", "out of range"},
        {"fewer fields", &HOURLY_PRICE, "hour,usd_per_kwh\n0\n", -1, {0}, ":2:2:", "fields"},
        {"more fields", &HOURLY_PRICE, "hour,usd_per_kwh\n0,0.1,9\n", -1, {0}, ":2:3:",
         "fields"},
        {"wrong column", &HOURLY_PRICE, "hour,price\n0,0.1\n", -1, {0}, ":1:1:",
         "usd_per_kwh"},
        {"header only", &HOURLY_PRICE, "hour,usd_per_kwh\n", -1, {0}, ":2:1:", "no hours"},
        {"empty", &HOURLY_PRICE, "", -1, {0}, NULL, "empty"},
    };
    char *dir = tu_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const series_case *c = &cases[i];
        print_message("case %s\n", c->what);
        tu_write(dir, "s.csv", c->content);
        char *path = xasprintf("%s/s.csv", dir);
        hourly *s = NULL;
        gp_err err = {{0}};
        int rc = hourly_read(path, c->kind, &s, &err);
        if (c->n < 0) {
            assert_int_equal(rc, -1);
            assert_null(s);
            if (c->where)
                assert_non_null(strstr(err.msg, c->where));
            assert_non_null(strstr(err.msg, c->says));
            assert_non_null(strstr(err.msg, path));
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(s->n, c->n);
            for (int k = 0; k < c->n; k++)
                assert_float_equal(s->v[k], c->want[k], 1e-12);
        }
        hourly_free(s);
        free(path);
    }
    tu_rmrf(dir);
    free(dir);
}

/* A series repeats over the clock: hour 25 of a day's series is its row 1. */
static void test_repeat(void **state)
{
    (void)state;
    hourly *s = hourly_new(24);
    for (int h = 0; h < 24; h++)
        s->v[h] = h;
    assert_float_equal(hourly_at(s, 25), 1, 0);
    assert_float_equal(hourly_at(s, 8759), 23, 0);
    assert_float_equal(hourly_at(s, -1), 23, 0);
    hourly_value v = {0.2, NULL};
    assert_float_equal(hourly_value_at(&v, 1000), 0.2, 0);
    hourly_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series),
        cmocka_unit_test(test_repeat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
