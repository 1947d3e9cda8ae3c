/*
 * test_textfit.c — fitting text into columns (ui/textfit.c): names cut in
 * the middle keep what tells them apart, prose cut at the end, widths of
 * UTF-8 text, numbers recognised and never cut (made compact instead).
 */
#include "testutil.h"

#include <locale.h>

#include "ui/textfit.h"
#include "ui/textfit_int.h"

static void test_fits_unchanged(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(textfit("cats", 10, TEXTFIT_MIDDLE, "…", out, sizeof out), 4);
    assert_string_equal(out, "cats");
    assert_int_equal(textfit("", 0, TEXTFIT_END, "…", out, sizeof out), 0);
    assert_string_equal(out, "");
}

static void test_cuts(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int w;
        textfit_mode mode;
        const char *ell, *want;
    } cases[] = {
        /* Two runs of one policy stay apart: their ends survive. */
        {"openb-like-fgd-run-12", 12, TEXTFIT_MIDDLE, "…", "openb-…un-12"},
        {"openb-like-fgd-run-13", 12, TEXTFIT_MIDDLE, "…", "openb-…un-13"},
        {"openb-like-fgd-run-12", 12, TEXTFIT_END, "…", "openb-like-…"},
        {"openb-like-fgd-run-12", 12, TEXTFIT_MIDDLE, "...", "openb...n-12"},
        {"abcdef", 5, TEXTFIT_MIDDLE, "…", "ab…ef"},
        {"abcdef", 1, TEXTFIT_MIDDLE, "…", "a"},
        {"abcdef", 0, TEXTFIT_END, "…", ""},
        {"nœud-α-numéro-douze", 9, TEXTFIT_MIDDLE, "…", "nœud…ouze"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int cols = textfit(cases[i].s, cases[i].w, cases[i].mode, cases[i].ell, out, sizeof out);
        if (strcmp(out, cases[i].want) != 0)
            fail_msg("textfit('%s', %d) = '%s', wanted '%s'", cases[i].s, cases[i].w, out,
                     cases[i].want);
        assert_true(cols <= cases[i].w);
        assert_int_equal(cols, textfit_width(out));
    }
}

static void test_width(void **state)
{
    (void)state;
    assert_int_equal(textfit_width("abc"), 3);
    assert_int_equal(textfit_width("…"), 1);
    assert_int_equal(textfit_width("■ cats"), 6);
    assert_int_equal(textfit_width("\xff""a"), 2);     /* a stray byte is one column */
}

static void test_numbers(void **state)
{
    (void)state;
    static const struct { const char *s; int num; } cases[] = {
        {"12", 1}, {"-3.5", 1}, {"1.2k", 1}, {"45%", 1}, {"2,500", 1}, {"1e+06", 1},
        {"0.25", 1}, {"12 GiB", 1}, {"-", 0}, {"cats", 0}, {"", 0}, {"v100-3", 0},
        {"3 nodes 6", 0}, {"yes", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (textfit_is_number(cases[i].s) != cases[i].num)
            fail_msg("textfit_is_number('%s') != %d", cases[i].s, cases[i].num);
    char out[32];
    textfit_number("123456", 5, out, sizeof out);
    assert_string_equal(out, "123k");
    textfit_number("12358.4", 6, out, sizeof out);
    assert_string_equal(out, "12k");
    textfit_number("92.59", 5, out, sizeof out);      /* fits: unchanged */
    assert_string_equal(out, "92.59");
    /* Tiny values: a shorter exponent, never a cut one. */
    textfit_number("1.9e-05", 6, out, sizeof out);
    assert_string_equal(out, "1.9e-5");
    textfit_number("1.9e-05", 5, out, sizeof out);
    assert_string_equal(out, "2e-5");
    textfit_number("0.00012345", 6, out, sizeof out);
    assert_string_equal(out, "1.2e-4");
    /* A clock too wide reads in its largest unit. */
    textfit_number("1d 02:15:00", 9, out, sizeof out);
    assert_string_equal(out, "26h");
    textfit_number("3d 02:15:00", 9, out, sizeof out);
    assert_string_equal(out, "3.1d");
    textfit_number("02:15:00", 6, out, sizeof out);
    assert_string_equal(out, "2.2h");
    textfit_number("02:15:00", 8, out, sizeof out);      /* fits: unchanged */
    assert_string_equal(out, "02:15:00");
    double v;
    assert_true(textfit_clock_seconds("1d 00:00:01", &v));
    assert_double_equal(v, 86401, 0);
    assert_false(textfit_clock_seconds("12:30", &v));
    /* Never cut: with a unit it cannot be rewritten, so it stays whole. */
    textfit_number("123456 W", 4, out, sizeof out);
    assert_string_equal(out, "123456 W");
}

/* Footer hints give way from the end, but X (export) and ? (help) last;
 * a screen lists its main action first, so a narrow footer keeps it:
 * Compare's setup at 80 columns keeps "Enter run" beside "X export". */
static void test_hints(void **state)
{
    (void)state;
    static const struct { const char *in; int room; const char *out; } cases[] = {
        {"a one  b two  X export  ? help", 40, "a one  b two  X export  ? help"},
        {"a one  b two  X export  ? help", 24, "a one  X export  ? help"},
        {"a one  b two  X export  ? help", 17, "X export  ? help"},
        {"a one  b two  X export  ? help", 10, "X export"},
        {"a one  b two  X export  ? help", 3, ""},
        {"j/k scroll  Esc back  q quit", 19, "j/k scroll"},
        {"Enter run  Tab pane  space pick  a add spec  c GPU cap  p power  X export  ? help",
         63, "Enter run  Tab pane  space pick  a add spec  X export  ? help"},
        {"r run  Esc cancel  Enter edit  j/k param  Left/Right adjust  d default  X export  "
         "? help", 40, "r run  Esc cancel  X export  ? help"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char h[128];
        snprintf(h, sizeof h, "%s", cases[i].in);
        textfit_hints(h, cases[i].room);
        assert_string_equal(h, cases[i].out);
    }
}

/* A name beside its figures: the figures lose words, then the name gives
 * way; no digit is ever cut (Compare's setup read "184 GP…", "1 nodes, …"). */
static void test_name_figures(void **state)
{
    (void)state;
    const char *cl[] = {"1 node, 184 GPUs", "184 GPUs", "184"};
    const char *tr[] = {"6212 tasks", "6212"};
    static const struct { int which, name_w, w; const char *out; } cases[] = {
        {0, 12, 40, "cats-testbed 1 node, 184 GPUs"},
        {0, 12, 24, "cats-testbed 184 GPUs"},
        {0, 12, 20, "cats-…stbed 184 GPUs"},
        {0, 12, 12, "cats…bed 184"},
        {0, 12, 3, "184"},
        {1, 10, 21, "pai-like   6212 tasks"},
        {1, 10, 16, "pai-like   6212"},
        {1, 10, 4, "6212"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[128];
        const char *name = cases[i].which ? "pai-like" : "cats-testbed";
        int cols = textfit_name_figures(name, cases[i].name_w, cases[i].which ? tr : cl,
                                        cases[i].which ? 2 : 3, cases[i].w, 8, "…", out,
                                        sizeof out);
        assert_string_equal(out, cases[i].out);
        assert_int_equal(cols, textfit_width(out));
    }
    char c[32];
    textfit_count(1, "node", "nodes", 0, c, sizeof c);
    assert_string_equal(c, "1 node");
    textfit_count(184, "GPU", "GPUs", 1, c, sizeof c);
    assert_string_equal(c, "184 GPUs");
    textfit_count(123456, "task", "tasks", 1, c, sizeof c);
    assert_string_equal(c, "123k tasks");
    textfit_count(123456, NULL, NULL, 0, c, sizeof c);
    assert_string_equal(c, "123456");
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_unchanged),
        cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_name_figures),
    };
    return cmocka_run_group_tests_name("textfit", tests, NULL, NULL);
}
