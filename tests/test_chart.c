/*
 * test_chart.c — the pure chart code of the TUI (ui/chart.c): nice axis
 * steps and ticks, value → pixel scaling, number and time formatting,
 * the braille dot numbering, series → cell mapping in braille, block and
 * ASCII styles, step lines and polylines, sparkline levels, UTF-8.
 * No terminal involved.
 */
#include "testutil.h"

#include "ui/chart.h"
#include "ui/chart_int.h"

/* --- the style a terminal gets ------------------------------------------------ */

/* Braille only where the font has it and colour tells series apart; the
 * Linux console gets blocks, no colour (NO_COLOR) or no UTF-8 ASCII. */
static void test_style_for_terminal(void **state)
{
    (void)state;
    static const struct { const char *term; int utf8, color; chart_style want; } cases[] = {
        {"xterm-256color", 1, 1, CHART_BRAILLE}, {"tmux-256color", 1, 1, CHART_BRAILLE},
        {"screen", 1, 1, CHART_BRAILLE},         {NULL, 1, 1, CHART_BRAILLE},
        {"linux", 1, 1, CHART_BLOCK},            {"linux-16color", 1, 1, CHART_BLOCK},
        {"vt220", 1, 1, CHART_BLOCK},            {"linux", 0, 1, CHART_ASCII},
        {"linux", 1, 0, CHART_ASCII},            {"xterm-256color", 1, 0, CHART_ASCII},
        {"xterm-256color", 0, 1, CHART_ASCII},   {"dumb", 0, 0, CHART_ASCII},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        chart_style got = chart_style_for(cases[i].term, cases[i].utf8, cases[i].color);
        if (got != cases[i].want)
            fail_msg("case %zu (%s utf8=%d color=%d): %s, want %s", i,
                     cases[i].term ? cases[i].term : "(null)", cases[i].utf8, cases[i].color,
                     chart_style_name(got), chart_style_name(cases[i].want));
    }
    /* G cycles only through what the terminal shows. */
    assert_false(chart_style_allowed(CHART_BRAILLE, "linux", 1, 1));
    assert_true(chart_style_allowed(CHART_BLOCK, "linux", 1, 1));
    assert_true(chart_style_allowed(CHART_ASCII, "linux", 0, 0));
    assert_false(chart_style_allowed(CHART_BLOCK, "xterm", 1, 0));
}

/* An estimate reads in the format of the time it is compared with:
 * "t=02:00:00 of ~01:00:00", not "of ~60m" (nor "157d of ~294d"). */
static void test_fmt_time_about(void **state)
{
    (void)state;
    static const struct { double s; const char *want; } cases[] = {
        {3600, "01:00:00"}, {3629, "01:00:00"}, {3631, "01:01:00"}, {45, "45s"},
        {294 * 86400.0 + 1800, "294d 01:00:00"}, {86400 + 7199, "1d 02:00:00"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char b[32], t[32];
        chart_fmt_time_about(cases[i].s, b, sizeof b);
        assert_string_equal(b, cases[i].want);
        chart_fmt_time(cases[i].s, t, sizeof t);
        /* the same shape as the exact time: a clock with the same fields */
        assert_int_equal(strchr(b, ':') != NULL, strchr(t, ':') != NULL);
        assert_int_equal(strchr(b, 'd') != NULL, strchr(t, 'd') != NULL);
    }
}

/* --- scaling --------------------------------------------------------------- */

static void test_nice_step(void **state)
{
    (void)state;
    static const struct { double lo, hi; int n; double want; } cases[] = {
        {0, 10, 5, 2},   {0, 10, 10, 1},   {0, 1, 4, 0.5},   {0, 7, 4, 2},
        {0, 1000, 4, 500}, {0, 3, 3, 1},   {0, 0.07, 4, 0.02}, {5, 5, 4, 1},
        {0, 10, 0, 1},   {0, 95, 4, 50},   {-1, 1, 4, 0.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_double_equal(chart_nice_step(cases[i].lo, cases[i].hi, cases[i].n),
                            cases[i].want, 1e-12);
}

static void test_nice_range(void **state)
{
    (void)state;
    double lo = 0, hi = 7.3;
    chart_nice_range(&lo, &hi, 4);
    assert_double_equal(lo, 0, 0);
    assert_double_equal(hi, 8, 1e-12);
    lo = 0, hi = 0;                     /* an all-zero series still gets an axis */
    chart_nice_range(&lo, &hi, 4);
    assert_double_equal(lo, 0, 0);
    assert_double_equal(hi, 1, 1e-12);
    lo = 42, hi = 42;
    chart_nice_range(&lo, &hi, 4);
    assert_true(lo <= 42 && hi > 42);
    lo = 0, hi = NAN;
    chart_nice_range(&lo, &hi, 4);
    assert_true(isfinite(hi) && hi > lo);
}

static void test_ticks(void **state)
{
    (void)state;
    double t[16];
    int n = chart_ticks(0, 8, 4, t, 16);
    assert_int_equal(n, 5);
    for (int i = 0; i < n; i++)
        assert_double_equal(t[i], 2.0 * i, 1e-12);
    n = chart_ticks(0.3, 0.9, 3, t, 16);    /* step 0.2: 0.4 0.6 0.8 */
    assert_int_equal(n, 3);
    assert_double_equal(t[0], 0.4, 1e-12);
    assert_double_equal(t[2], 0.8, 1e-12);
    n = chart_ticks(-1, 1, 2, t, 16);       /* zero prints as 0, not -0 */
    assert_int_equal(n, 3);
    assert_true(t[1] == 0 && !signbit(t[1]));
    assert_int_equal(chart_ticks(1, 1, 4, t, 16), 0);
    assert_int_equal(chart_ticks(0, 100, 50, t, 3), 3);     /* cap respected */
}

static void test_scale(void **state)
{
    (void)state;
    static const struct { double v, lo, hi; int n, want; } cases[] = {
        {0, 0, 10, 11, 0},  {10, 0, 10, 11, 10}, {5, 0, 10, 11, 5},  {-3, 0, 10, 11, 0},
        {99, 0, 10, 11, 10}, {5, 5, 5, 10, 0},   {0.5, 0, 1, 4, 2},  {1, 0, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(chart_scale(cases[i].v, cases[i].lo, cases[i].hi, cases[i].n),
                         cases[i].want);
    assert_int_equal(chart_scale(NAN, 0, 1, 10), 0);
}

static void test_fmt(void **state)
{
    (void)state;
    static const struct { double v; const char *want; } cases[] = {
        {0, "0"}, {1e-12, "0"}, {950, "950"}, {1000, "1k"}, {1234, "1.2k"}, {35000, "35k"},
        {4.1e6, "4.1M"}, {2.5, "2.5"}, {3, "3"}, {12.25, "12.2"}, {0.25, "0.25"},
        {-1500, "-1.5k"}, {999999, "1M"}, {NAN, "-"}, {3.9e-5, "3.9e-5"}, {4e-5, "4e-5"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        chart_fmt(cases[i].v, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("chart_fmt(%g) = '%s', wanted '%s'", cases[i].v, buf, cases[i].want);
        assert_true(strlen(buf) <= 6);
    }
}

static void test_fmt_time(void **state)
{
    (void)state;
    static const struct { double s; const char *want; } cases[] = {
        {0, "0s"}, {45, "45s"}, {2.5, "2.5s"}, {90, "00:01:30"}, {720, "00:12:00"},
        {5400, "01:30:00"}, {3 * 86400, "3d 00:00:00"}, {86400 + 2 * 3600 + 15 * 60, "1d 02:15:00"},
        {3e6, "34d 17:20:00"}, {59.7, "00:01:00"}, {-90, "-00:01:30"}, {NAN, "-"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        chart_fmt_time(cases[i].s, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("chart_fmt_time(%g) = '%s', wanted '%s'", cases[i].s, buf, cases[i].want);
    }
    /* One unit per axis: on a 15-minute axis, 50 s reads in minutes. */
    chart_fmt_time_in(50, 900, buf, sizeof buf);
    assert_string_equal(buf, "0.8m");
    chart_fmt_time_in(0, 900, buf, sizeof buf);
    assert_string_equal(buf, "0m");
    chart_fmt_time_in(30, 60, buf, sizeof buf);
    assert_string_equal(buf, "30s");
    assert_double_equal(chart_time_unit(60), 1, 0);
    assert_double_equal(chart_time_unit(900), 60, 0);
    assert_double_equal(chart_time_unit(6 * 3600), 3600, 0);
    assert_double_equal(chart_time_unit(6.4 * 86400), 86400, 0);
}

/* --- cell mapping ------------------------------------------------------------ */

static void test_braille_bits(void **state)
{
    (void)state;
    /* Unicode braille: dots 1 2 3 7 down the left column, 4 5 6 8 down the
     * right; dot n is bit n-1. */
    static const uint8_t want[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    uint8_t all = 0;
    for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 2; dx++) {
            assert_int_equal(chart_braille_bit(dx, dy), want[dy][dx]);
            all |= chart_braille_bit(dx, dy);
        }
    assert_int_equal(all, 0xFF);
    assert_int_equal(chart_braille_bit(2, 0), 0);
    assert_int_equal(chart_braille_bit(0, 4), 0);
}

static void test_braille_grid(void **state)
{
    (void)state;
    chart_grid *g = chart_grid_new(2, 2, CHART_BRAILLE);
    assert_int_equal(chart_sub_x(CHART_BRAILLE), 2);
    assert_int_equal(chart_sub_y(CHART_BRAILLE), 4);
    /* Pixel (0, 0) is the bottom-left dot: dot 7 of the bottom-left cell. */
    chart_plot_point(g, 0, 0, 0);
    assert_int_equal(chart_cell_char(g, 0, 1), 0x2800 + 0x40);
    assert_int_equal(chart_cell_owner(g, 0, 1), 1);
    /* The top-right pixel (3, 7): dot 4 of the top-right cell. */
    chart_plot_point(g, 3, 7, 1);
    assert_int_equal(chart_cell_char(g, 1, 0), 0x2800 + 0x08);
    assert_int_equal(chart_cell_owner(g, 1, 0), 2);
    assert_int_equal(chart_cell_char(g, 1, 1), ' ');
    /* Outside the grid: ignored. */
    chart_plot_point(g, 4, 0, 0);
    chart_plot_point(g, -1, 0, 0);
    chart_plot_point(g, 0, 8, 0);
    assert_int_equal(chart_cell_char(g, 0, 0), ' ');
    /* A full row of the bottom cell row at py = 3 (its top dots). */
    chart_plot_line(g, 0, 3, 3, 3, 0);
    assert_int_equal(chart_cell_char(g, 0, 1), 0x2800 + (0x40 | 0x01 | 0x08));
    assert_int_equal(chart_cell_char(g, 1, 1), 0x2800 + (0x01 | 0x08));
    chart_grid_free(g);
}

static void test_block_and_ascii(void **state)
{
    (void)state;
    chart_grid *g = chart_grid_new(3, 1, CHART_BLOCK);
    chart_plot_point(g, 0, 1, 0);           /* upper half */
    chart_plot_point(g, 1, 0, 0);           /* lower half */
    chart_plot_point(g, 2, 0, 0);
    chart_plot_point(g, 2, 1, 0);           /* both */
    assert_int_equal(chart_cell_char(g, 0, 0), 0x2580);
    assert_int_equal(chart_cell_char(g, 1, 0), 0x2584);
    assert_int_equal(chart_cell_char(g, 2, 0), 0x2588);
    chart_grid_resize(g, 3, 2, CHART_ASCII);
    chart_plot_point(g, 0, 0, 0);
    chart_plot_point(g, 1, 1, 1);
    chart_plot_point(g, 2, 1, 2);
    assert_int_equal(chart_cell_char(g, 0, 1), (uint32_t)chart_marker(0));
    assert_int_equal(chart_cell_char(g, 1, 0), (uint32_t)chart_marker(1));
    assert_int_equal(chart_cell_char(g, 2, 0), (uint32_t)chart_marker(2));
    assert_int_equal(chart_cell_char(g, 0, 0), ' ');
    /* Every series has its own marker. */
    for (int i = 0; i < CHART_MAX_SERIES; i++)
        for (int j = i + 1; j < CHART_MAX_SERIES; j++)
            assert_true(chart_marker(i) != chart_marker(j));
    chart_grid_free(g);
}

typedef struct pt {
    double t, v, other;
} pt;

static void test_plot_steps(void **state)
{
    (void)state;
    /* A step series on a 10 × 1 ASCII grid over x in [0, 9], y in [0, 1]:
     * 0 until x = 5, then 1; the last value is held to the right edge. */
    pt p[] = {{0, 0, 7}, {5, 1, 7}};
    chart_grid *g = chart_grid_new(10, 2, CHART_ASCII);
    size_t used = chart_plot_steps(g, &p[0].t, &p[0].v, 2, sizeof(pt), 0, 9, 0, 1, 0, 0);
    assert_int_equal(used, 2);
    for (int x = 0; x < 10; x++) {
        int low = x <= 5, high = x >= 5;
        assert_int_equal(chart_cell_char(g, x, 1) != ' ', low);
        assert_int_equal(chart_cell_char(g, x, 0) != ' ', high);
    }
    /* Points past the window are skipped. */
    chart_grid_clear(g);
    pt q[] = {{-5, 1, 0}, {20, 1, 0}};
    used = chart_plot_steps(g, &q[0].t, &q[0].v, 2, sizeof(pt), 0, 9, 0, 1, 0, 1);
    assert_int_equal(used, 1);
    assert_int_equal(chart_cell_owner(g, 9, 0), 2);
    chart_grid_free(g);
}

static void test_plot_steps_dense_and_hold(void **state)
{
    (void)state;
    /* Many samples in one pixel column: the column covers their whole
     * vertical span, and the last value continues to the next sample. */
    pt p[] = {{0, 0, 0}, {0.1, 3, 0}, {0.2, 1, 0}, {5, 1, 0}};
    chart_grid *g = chart_grid_new(10, 4, CHART_ASCII);
    chart_plot_steps(g, &p[0].t, &p[0].v, 4, sizeof(pt), 0, 9, 0, 3, 0, 0);
    for (int cy = 0; cy < 4; cy++)
        assert_int_equal(chart_cell_owner(g, 0, cy), 1);   /* 0..3 in column 0 */
    for (int cx = 1; cx < 10; cx++)
        assert_int_equal(chart_cell_owner(g, cx, 2), 1);   /* y = 1 held */
    /* A live run at t = 6 of a 9-wide axis: the line stops at "now". */
    chart_grid_clear(g);
    chart_plot_steps(g, &p[0].t, &p[0].v, 4, sizeof(pt), 0, 9, 0, 3, 6, 0);
    assert_int_equal(chart_cell_owner(g, 6, 2), 1);
    for (int cx = 7; cx < 10; cx++)
        assert_int_equal(chart_cell_owner(g, cx, 2), 0);
    chart_grid_free(g);
}

static void test_plot_poly(void **state)
{
    (void)state;
    double x[] = {0, 3, 6}, y[] = {0, 3, 0};
    chart_grid *g = chart_grid_new(7, 4, CHART_ASCII);
    assert_int_equal(chart_plot_poly(g, x, y, 3, sizeof(double), 0, 6, 0, 3, 0), 3);
    /* A tent: (0,0) → (3,3) → (6,0), every column touched once. */
    for (int cx = 0; cx < 7; cx++) {
        int h = cx <= 3 ? cx : 6 - cx;
        assert_int_equal(chart_cell_owner(g, cx, 3 - h), 1);
    }
    double bad[] = {NAN, 1};
    assert_int_equal(chart_plot_poly(g, bad, y, 2, sizeof(double), 0, 6, 0, 3, 0), 1);
    chart_grid_free(g);
}

static void test_many_points_fast_and_bounded(void **state)
{
    (void)state;
    enum { N = 200000 };
    pt *p = xmalloc(N * sizeof *p);
    for (int i = 0; i < N; i++)
        p[i] = (pt){i, (i * 7919) % 1000, 0};
    chart_grid *g = chart_grid_new(100, 20, CHART_BRAILLE);
    double t0 = now_seconds();
    chart_plot_steps(g, &p[0].t, &p[0].v, N, sizeof(pt), 0, N, 0, 1000, 0, 3);
    double dt = now_seconds() - t0;
    /* Every pixel stays inside the grid (no crash, owners in range). */
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            assert_true(chart_cell_owner(g, x, y) == 0 || chart_cell_owner(g, x, y) == 4);
    assert_true(dt < 1.0);
    free(p);
    chart_grid_free(g);
}

/* --- sparklines and UTF-8 ----------------------------------------------------- */

static void test_spark_levels(void **state)
{
    (void)state;
    float v[] = {0, 100, 50, 25};
    int lv[8];
    assert_int_equal(chart_spark_levels(v, 4, 0, 100, 6, lv), 4);
    assert_int_equal(lv[0], 0);
    assert_int_equal(lv[1], 7);
    assert_int_equal(lv[2], 4);         /* 3.5 rounds away from zero */
    assert_int_equal(lv[3], 2);
    assert_int_equal(lv[4], -1);
    assert_int_equal(lv[5], -1);
    /* More values than columns: each column is a bucket mean. */
    float w[8] = {0, 0, 100, 100, 0, 100, 200, 200};
    assert_int_equal(chart_spark_levels(w, 8, 0, 100, 4, lv), 4);
    assert_int_equal(lv[0], 0);
    assert_int_equal(lv[1], 7);
    assert_int_equal(lv[2], 4);
    assert_int_equal(lv[3], 7);         /* clamped */
    assert_int_equal(chart_spark_levels(v, 0, 0, 100, 3, lv), 0);
    assert_int_equal(chart_spark_char(0, 1), 0x2581);
    assert_int_equal(chart_spark_char(7, 1), 0x2588);
    assert_int_equal(chart_spark_char(7, 0), '#');
    assert_int_equal(chart_spark_char(-1, 1), ' ');
}

static void test_utf8(void **state)
{
    (void)state;
    char b[5];
    assert_int_equal(chart_utf8('A', b), 1);
    assert_string_equal(b, "A");
    assert_int_equal(chart_utf8(0xB7, b), 2);
    assert_string_equal(b, "\xC2\xB7");
    assert_int_equal(chart_utf8(0x2800 + 0xFF, b), 3);
    assert_string_equal(b, "\xE2\xA3\xBF");     /* ⣿ */
    assert_int_equal(chart_utf8(0x1F600, b), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_style_for_terminal),
        cmocka_unit_test(test_fmt_time_about),
        cmocka_unit_test(test_nice_step),
        cmocka_unit_test(test_nice_range),
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_fmt),
        cmocka_unit_test(test_fmt_time),
        cmocka_unit_test(test_braille_bits),
        cmocka_unit_test(test_braille_grid),
        cmocka_unit_test(test_block_and_ascii),
        cmocka_unit_test(test_plot_steps),
        cmocka_unit_test(test_plot_steps_dense_and_hold),
        cmocka_unit_test(test_plot_poly),
        cmocka_unit_test(test_many_points_fast_and_bounded),
        cmocka_unit_test(test_spark_levels),
        cmocka_unit_test(test_utf8),
    };
    return cmocka_run_group_tests_name("chart", tests, NULL, NULL);
}
