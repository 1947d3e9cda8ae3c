/*
 * test_layout.c — the TUI's pane geometry (ui/layout.c) at the sizes the
 * dashboard must handle: 80×24 (the minimum), 120×40, 200×60 and odd ones.
 * Every pane must lie inside the screen, between the tab bar and the status
 * line, without overlapping its neighbours, and keep a usable size.
 */
#include "testutil.h"

#include "ui/layout.h"
#include "ui/layout_int.h"

static const struct { int rows, cols; } sizes[] = {
    {24, 80}, {40, 120}, {60, 200}, {25, 81}, {33, 100}, {24, 109}, {24, 110}, {100, 300},
};
#define NSIZES (sizeof sizes / sizeof *sizes)

static int inside(rect r, int rows, int cols)
{
    return r.h >= 0 && r.w >= 0 && r.y >= 1 && r.x >= 0 && r.y + r.h <= rows - 1 &&
           r.x + r.w <= cols;
}

static int overlap(rect a, rect b)
{
    if (a.h == 0 || a.w == 0 || b.h == 0 || b.w == 0)
        return 0;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static void assert_disjoint(const rect *r, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (overlap(r[i], r[j]))
                fail_msg("panes %d {%d,%d,%d,%d} and %d {%d,%d,%d,%d} overlap", i, r[i].y,
                         r[i].x, r[i].h, r[i].w, j, r[j].y, r[j].x, r[j].h, r[j].w);
}

static void test_too_small(void **state)
{
    (void)state;
    assert_true(layout_too_small(23, 80));
    assert_true(layout_too_small(24, 79));
    assert_true(layout_too_small(0, 0));
    assert_false(layout_too_small(24, 80));
    assert_false(layout_too_small(60, 200));
}

static void test_body(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSIZES; i++) {
        rect b = layout_body(sizes[i].rows, sizes[i].cols);
        assert_int_equal(b.y, 1);
        assert_int_equal(b.h, sizes[i].rows - 2);
        assert_int_equal(b.w, sizes[i].cols);
    }
    rect tiny = layout_body(1, 5);
    assert_int_equal(tiny.h, 0);
}

static void test_take_and_split(void **state)
{
    (void)state;
    rect r = {1, 0, 20, 80};
    rect t = layout_take_top(&r, 3), b = layout_take_bottom(&r, 4);
    rect l = layout_take_left(&r, 10), rt = layout_take_right(&r, 12);
    assert_int_equal(t.y, 1);
    assert_int_equal(t.h, 3);
    assert_int_equal(b.y, 17);
    assert_int_equal(r.y, 4);
    assert_int_equal(r.h, 13);
    assert_int_equal(l.w, 10);
    assert_int_equal(rt.x, 68);
    assert_int_equal(r.x, 10);
    assert_int_equal(r.w, 58);
    rect all[] = {t, b, l, rt, r};
    assert_disjoint(all, 5);
    rect over = layout_take_top(&r, 999);       /* asking too much: all of it */
    assert_int_equal(over.h, 13);
    assert_int_equal(r.h, 0);
    rect in = layout_inner((rect){0, 0, 1, 1});
    assert_int_equal(in.h, 0);
    assert_int_equal(in.w, 0);
    rect left, right;
    layout_split((rect){1, 0, 10, 80}, 70, 20, &left, &right);
    assert_int_equal(left.w, 60);               /* the right pane keeps 20 */
    assert_int_equal(right.w, 20);
    assert_int_equal(right.x, 60);
}

static void test_grid_partition(void **state)
{
    (void)state;
    rect r = {3, 2, 23, 79};
    int area = 0;
    rect cells[12];
    int n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            rect c = layout_grid(r, 3, 4, i, j);
            area += c.h * c.w;
            cells[n++] = c;
            assert_true(c.h >= 7 && c.h <= 8 && c.w >= 19 && c.w <= 20);
        }
    assert_int_equal(area, r.h * r.w);          /* the parts tile the rectangle */
    assert_disjoint(cells, n);
}

static void test_compare_layout(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSIZES; s++)
        for (int np = 1; np <= 6; np++) {
            int rows = sizes[s].rows, cols = sizes[s].cols;
            compare_layout L = layout_compare(rows, cols, np);
            rect all[] = {L.info, L.legend, L.charts[0], L.charts[1], L.charts[2], L.charts[3],
                          L.table};
            for (int i = 0; i < 7; i++)
                if (!inside(all[i], rows, cols))
                    fail_msg("%dx%d, %d policies: pane %d outside", cols, rows, np, i);
            assert_disjoint(all, 7);
            /* Each chart keeps a plot area with at least 2 rows and 20
             * columns; the table shows every policy from 40 rows up. */
            for (int c = 0; c < 4; c++) {
                chart_layout cl = layout_chart(L.charts[c]);
                assert_true(cl.plot.h >= 2);
                assert_true(cl.plot.w >= 20);
                assert_int_equal(cl.xlab.y, cl.plot.y + cl.plot.h);
                assert_int_equal(cl.ylab.x + cl.ylab.w, cl.plot.x);
            }
            if (rows >= 40)
                assert_int_equal(L.table.h, np + 3);
            assert_int_equal(L.table.y + L.table.h, rows - 1);
        }
}

static void test_cluster_layout(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSIZES; s++) {
        int rows = sizes[s].rows, cols = sizes[s].cols;
        cluster_layout L = layout_cluster(rows, cols);
        rect all[] = {L.info, L.heat, L.detail};
        for (int i = 0; i < 3; i++)
            assert_true(inside(all[i], rows, cols));
        assert_disjoint(all, 3);
        assert_int_equal(L.detail_right, cols >= 110);
        assert_true(L.heat.h >= 8);
        assert_true(L.heat.w >= 40);
        assert_true(L.detail.h >= 8);
    }
}

static void test_heat_geometry(void **state)
{
    (void)state;
    heat_geom g;
    /* The CATS testbed: one server of 6 GPUs gets names and wide cells. */
    layout_heat(70, 30, 1, 6, 7, &g);
    assert_int_equal(g.label_w, 7);
    assert_int_equal(g.cell_w, 4);
    assert_int_equal(g.lines, 1);
    assert_int_equal(g.prefix_w, 0);
    /* 32 servers of 8 at 70 columns: named blocks, several per line. */
    layout_heat(70, 30, 32, 8, 10, &g);
    assert_true(g.label_w > 0);
    assert_true(g.lines <= 30);
    assert_true(g.per_line * g.block_w <= 70 + 1);
    /* 1,250 servers of 8 (10,000 GPUs) at 200×60: compact, prefixed, scrolls. */
    layout_heat(150, 55, 1250, 8, 12, &g);
    assert_int_equal(g.label_w, 0);
    assert_int_equal(g.cell_w, 1);
    assert_int_equal(g.prefix_w, 5);            /* "1249 " */
    assert_int_equal(g.block_w, 9);
    assert_int_equal(g.per_line, (150 - 5 + 1) / 9);
    assert_int_equal(g.lines, (1250 + g.per_line - 1) / g.per_line);
    assert_true(g.prefix_w + g.per_line * g.block_w - 1 <= 150);
    /* Degenerate: narrower than one block still gives one block a line. */
    layout_heat(3, 5, 4, 16, 8, &g);
    assert_int_equal(g.per_line, 1);
    assert_int_equal(g.lines, 4);
    layout_heat(80, 20, 0, 0, 0, &g);
    assert_int_equal(g.lines, 0);
}

static void test_scroll(void **state)
{
    (void)state;
    static const struct { size_t top, sel, n; int vis; size_t want; } cases[] = {
        {0, 0, 100, 10, 0},   {0, 9, 100, 10, 0},  {0, 10, 100, 10, 1},  {50, 20, 100, 10, 20},
        {95, 99, 100, 10, 90}, {0, 5, 3, 10, 0},   {7, 3, 10, 0, 0},     {0, 0, 0, 10, 0},
        {90, 95, 96, 10, 86},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(layout_scroll(cases[i].top, cases[i].sel, cases[i].n, cases[i].vis),
                         cases[i].want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_small),
        cmocka_unit_test(test_body),
        cmocka_unit_test(test_take_and_split),
        cmocka_unit_test(test_grid_partition),
        cmocka_unit_test(test_compare_layout),
        cmocka_unit_test(test_cluster_layout),
        cmocka_unit_test(test_heat_geometry),
        cmocka_unit_test(test_scroll),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
