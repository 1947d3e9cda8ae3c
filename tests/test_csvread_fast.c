/*
 * test_csvread_fast.c — the CSV reader's fast paths (io layer): numbers
 * read without strtod give the very bits strtod gives and refuse what
 * parse_double refuses; fields kept in the reader's reused storage come
 * out whole across read chunks, including a record still being assembled
 * when the storage is reused; and a file of plain lines with one quoted
 * line still names errors at the right line and column.
 */
#include "testutil.h"

#include "io/csvread.h"
#include "core/strbuf.h"

/* csv_parse_real against parse_double (strtod): the same verdict and, when
 * both read it, the same bits. */
static void assert_real_same(const char *s)
{
    double fast = 12345, slow = 54321;
    int rf = csv_parse_real(s, &fast), rs = parse_double(s, &slow);
    if (rf != rs)
        fail_msg("'%s': fast path says %d, parse_double %d", s, rf, rs);
    if (rf == 0 && memcmp(&fast, &slow, sizeof fast) != 0)
        fail_msg("'%s': fast path reads %.17g, strtod %.17g", s, fast, slow);
}

static void assert_int_same(const char *s)
{
    int64_t fast = 12345, slow = 54321;
    int rf = csv_parse_int(s, &fast), rs = parse_int64(s, &slow);
    if (rf != rs)
        fail_msg("'%s': fast path says %d, parse_int64 %d", s, rf, rs);
    if (rf == 0 && fast != slow)
        fail_msg("'%s': fast path reads %lld, strtoll %lld", s, (long long)fast,
                 (long long)slow);
}

static const char *const edge_numbers[] = {
    "0", "-0", "0.0", "-0.0", "00", "1", "-1", "0.1", "0.2", "0.3", "0.7", "99.9", "100",
    "5.", ".5", "-.5", ".", "-", "-.", "", " 1", "1 ", "+1", "+0.5", "1e5", "1E-3", "1.5e3",
    "0x10", "0x1p4", "0X1P4", "inf", "-inf", "INF", "nan", "NaN", "infinity", "1..2",
    "1.2.3", "--1", "1-", "1,5", "١", "12345678901234.5", "123456789012345",
    "999999999999999", "9999999999999999", "1234567890123456", "9007199254740993",
    "9007199254740992", "0.0000000000000000000001", "0.000000000000000000001",
    "1.000000000000000000000", "0.1234567890123456789012", "0.123456789012345",
    "0.000000000000001", "0.0000000000000000000000001", "123.456", "1e400", "-1e400",
    "4.9e-324", "1e-400", "2.5", "0.5", "1.05", "33.3", "66.7", "0.05", "1e10",
    "10000000000", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "123456789012345678", "1234567890123456789", "-123456789012345678", "07", "0010",
};

static void test_edge_numbers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof edge_numbers / sizeof *edge_numbers; i++) {
        assert_real_same(edge_numbers[i]);
        assert_int_same(edge_numbers[i]);
    }
}

/* Random fixed-point decimals of every length around the fast path's
 * limits (15 digits, 22 after the point), and integers of up to 20
 * digits: each read as strtod and strtoll read it. */
static void test_random_numbers(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    char s[64];
    for (int n = 0; n < 200000; n++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int ip = (int)(x % 17), fp = (int)((x >> 8) % 25), k = 0;
        if ((x >> 16) & 1)
            s[k++] = '-';
        for (int i = 0; i < ip; i++)
            s[k++] = (char)('0' + (x >> (20 + i * 2)) % 10 * (i > 0 || (x >> 40) % 4));
        if ((x >> 18) % 8 != 0) {
            s[k++] = '.';
            uint64_t y = x * 0xD1B54A32D192ED03ull;
            for (int i = 0; i < fp; i++, y = y * 6364136223846793005ull + 1442695040888963407ull)
                s[k++] = (char)('0' + (y >> 33) % 10);
        }
        s[k] = '\0';
        assert_real_same(s);
        assert_int_same(s);
    }
}

/* A temporary file holding text. */
static char *write_tmp(const char *text, size_t len)
{
    char *path = xstrdup("/tmp/gp_csvfast_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    fclose(fp);
    return path;
}

/* 30,000 records of mixed lengths (well over a read chunk), one with a
 * quoted field spanning lines every 997: each field read back whole, on
 * its line. */
static void test_fields_across_chunks(void **state)
{
    (void)state;
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "name,pad,val\n");
    long line = 2;
    for (int i = 0; i < 30000; i++) {
        if (i % 997 == 0) {
            strbuf_printf(&b, "t%d,\"a,\nb\"\"c\",%d.%d\n", i, i, i % 10);
            line += 2;
        } else {
            strbuf_printf(&b, "t%d,%.*s,%d.%d\n", i, i % 37, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                      i, i % 10);
            line++;
        }
    }
    char *path = write_tmp(b.s, b.len);
    gp_err err = {{0}};
    csv_reader *r = csv_open(path, 1, &err);
    assert_non_null(r);
    csv_row row;
    long at = 2;
    char want[64];
    for (int i = 0; i < 30000; i++) {
        assert_int_equal(csv_next(r, &row, &err), 1);
        assert_int_equal(row.n, 3);
        assert_int_equal(row.line, at);
        snprintf(want, sizeof want, "t%d", i);
        assert_string_equal(row.field[0], want);
        if (i % 997 == 0) {
            assert_string_equal(row.field[1], "a,\nb\"c");
            at += 2;
        } else {
            assert_int_equal(row.len[1], (size_t)(i % 37));
            at++;
        }
        double v;
        assert_int_equal(csv_real(r, &row, 2, 0, 1e9, &v, &err), 0);
        assert_true(v == i + (i % 10) / 10.0);
    }
    assert_int_equal(csv_next(r, &row, &err), 0);
    assert_int_equal(at, line);
    assert_string_equal(csv_header(r)->field[2], "val");
    csv_close(r);
    unlink(path);
    free(path);
    strbuf_free(&b);
}

/* Errors after plain lines, after a quoted field spanning lines and in
 * the file's last line without a newline: named where the byte-by-byte
 * tracker names them. */
static void test_error_positions(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"a,b\n1,2\n3,x\"y\n", ":3:3: malformed CSV field: a quote inside an unquoted field"},
        {"a,b\n1,\"2\n2\"\n3,\"y\"z\n", ":4:3: malformed CSV field: text after the field's "
                                         "closing quote"},
        {"a,b\n1,2\n3,\"open\n", ":3:3: unterminated quoted field"},
        {"a,b\n1,2\n3,\xff\n", ":3:3: invalid UTF-8 byte 0xff"},
        {"a,b\n1,2\n\"x\ny\",\xc3\n", ":4:4: invalid UTF-8 byte 0xc3"},
        {"a,b\n1,2\n3,4\n5,\"6\"\"\n", ":4:3: unterminated quoted field"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *path = write_tmp(cases[i].text, strlen(cases[i].text));
        gp_err err = {{0}};
        csv_reader *r = csv_open(path, 1, &err);
        assert_non_null(r);
        csv_row row;
        int rc;
        while ((rc = csv_next(r, &row, &err)) == 1)
            ;
        assert_int_equal(rc, -1);
        tu_assert_contains(err.msg, cases[i].want);
        csv_close(r);
        unlink(path);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_numbers),
        cmocka_unit_test(test_random_numbers),
        cmocka_unit_test(test_fields_across_chunks),
        cmocka_unit_test(test_error_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
