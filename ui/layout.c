/*
 * layout.c — pane rectangles for each screen (layout.h).  Pure arithmetic;
 * each function asserts that what it hands out lies inside what it was
 * given, so the sanitizer runs check the geometry of every frame.
 */
#include "layout.h"
#include "layout_int.h"

#include <assert.h>

int layout_within(rect r, rect outer)
{
    if (r.h < 0 || r.w < 0)
        return 0;
    if (r.h == 0 || r.w == 0)
        return 1;
    return r.y >= outer.y && r.x >= outer.x && r.y + r.h <= outer.y + outer.h &&
           r.x + r.w <= outer.x + outer.w;
}

int layout_too_small(int rows, int cols)
{
    return rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS;
}

rect layout_body(int rows, int cols)
{
    rect r = {1, 0, rows - 2, cols};
    if (r.h < 0)
        r.h = 0;
    if (r.w < 0)
        r.w = 0;
    return r;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Which side of a rectangle a cut takes its part from. */
typedef enum side { SIDE_TOP, SIDE_BOTTOM, SIDE_LEFT, SIDE_RIGHT } side;

/* Cuts n rows (top, bottom) or columns (left, right) off *r, at most all
 * of them; *r keeps the rest. */
static rect take(rect *r, int n, side from)
{
    rect whole = *r, part = *r;
    int vertical = from == SIDE_TOP || from == SIDE_BOTTOM;
    int *len = vertical ? &r->h : &r->w, *pos = vertical ? &r->y : &r->x;
    int *part_len = vertical ? &part.h : &part.w, *part_pos = vertical ? &part.y : &part.x;
    n = clampi(n, 0, *len);
    *part_len = n;
    *len -= n;
    if (from == SIDE_TOP || from == SIDE_LEFT)
        *pos += n;              /* the rest starts after the part */
    else
        *part_pos += *len;      /* the part starts after the rest */
    assert(layout_within(part, whole) && layout_within(*r, whole));
    (void)whole;                /* read by the assert only */
    return part;
}

rect layout_take_top(rect *r, int h)
{
    return take(r, h, SIDE_TOP);
}

rect layout_take_bottom(rect *r, int h)
{
    return take(r, h, SIDE_BOTTOM);
}

rect layout_take_left(rect *r, int w)
{
    return take(r, w, SIDE_LEFT);
}

rect layout_take_right(rect *r, int w)
{
    return take(r, w, SIDE_RIGHT);
}

rect layout_inner(rect r)
{
    rect in = {r.y + 1, r.x + 1, r.h - 2, r.w - 2};
    if (in.h < 0)
        in.h = 0;
    if (in.w < 0)
        in.w = 0;
    assert(layout_within(in, r));
    return in;
}

/* Start of part i of n parts of len, the remainder going to the first. */
static int part_start(int len, int n, int i)
{
    int base = len / n, extra = len % n;
    return i * base + (i < extra ? i : extra);
}

rect layout_grid(rect r, int nrows, int ncols, int i, int j)
{
    if (nrows < 1)
        nrows = 1;
    if (ncols < 1)
        ncols = 1;
    int y0 = part_start(r.h, nrows, i), y1 = part_start(r.h, nrows, i + 1);
    int x0 = part_start(r.w, ncols, j), x1 = part_start(r.w, ncols, j + 1);
    rect c = {r.y + y0, r.x + x0, y1 - y0, x1 - x0};
    assert(layout_within(c, r));
    return c;
}

chart_layout layout_chart(rect box)
{
    chart_layout c;
    c.box = box;
    rect in = layout_inner(box);
    c.xlab = layout_take_bottom(&in, 1);
    c.ylab = layout_take_left(&in, LAYOUT_YLAB_W);
    c.plot = in;
    c.xlab.x = c.plot.x;
    c.xlab.w = c.plot.w;
    assert(layout_within(c.plot, box) && layout_within(c.ylab, box) &&
           layout_within(c.xlab, box));
    return c;
}

compare_layout layout_compare(int rows, int cols, int npolicies)
{
    compare_layout L;
    rect body = layout_body(rows, cols);
    L.info = layout_take_top(&body, 1);
    L.legend = layout_take_top(&body, 1);
    /* The table (header + one row per policy, boxed) may take at most a
     * third of the body so the charts keep room on 24-row terminals. */
    int table_h = npolicies + 3;
    if (table_h > body.h / 3 + 1)
        table_h = body.h / 3 + 1;
    L.table = layout_take_bottom(&body, table_h);
    for (int i = 0; i < 4; i++)
        L.charts[i] = layout_grid(body, 2, 2, i / 2, i % 2);
    assert(layout_within(L.table, layout_body(rows, cols)));
    return L;
}

cluster_layout layout_cluster(int rows, int cols)
{
    cluster_layout L;
    rect body = layout_body(rows, cols);
    L.info = layout_take_top(&body, 1);
    L.detail_right = cols >= 110;
    if (L.detail_right)
        L.detail = layout_take_right(&body, cols >= 160 ? 56 : 46);
    else
        L.detail = layout_take_bottom(&body, body.h > 20 ? 10 : 8);
    L.heat = body;
    assert(layout_within(L.detail, layout_body(rows, cols)));
    return L;
}

static void heat_try(heat_geom *g, int w, size_t nnodes, int max_gpus, int label_w,
                     int cell_w)
{
    size_t digits = 1;
    for (size_t n = nnodes > 0 ? nnodes - 1 : 0; n >= 10; n /= 10)
        digits++;
    g->label_w = label_w;
    g->cell_w = cell_w;
    g->prefix_w = label_w ? 0 : (int)digits + 1;
    g->block_w = (label_w ? label_w + 1 : 0) + max_gpus * cell_w + 1;
    int avail = w - g->prefix_w + 1;   /* the last block needs no gap */
    g->per_line = avail / g->block_w;
    if (g->per_line < 1)
        g->per_line = 1;
    g->lines = (int)((nnodes + (size_t)g->per_line - 1) / (size_t)g->per_line);
}

void layout_heat(int w, int h, size_t nnodes, int max_gpus, int max_name, heat_geom *g)
{
    if (max_gpus < 1)
        max_gpus = 1;
    int label = max_name < 1 ? 1 : max_name > 16 ? 16 : max_name;
    static const struct { int named, cell; } tries[] = {
        {1, 4}, {1, 3}, {1, 2}, {1, 1}, {0, 1},
    };
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
        heat_try(g, w, nnodes, max_gpus, tries[i].named ? label : 0, tries[i].cell);
        if (g->lines <= h)
            break;
    }
    assert(g->per_line >= 1 && g->cell_w >= 1 && g->cell_w <= 4);
}

void layout_split(rect r, int left_w, int min_right, rect *left, rect *right)
{
    if (left_w > r.w - min_right)
        left_w = r.w - min_right;
    if (left_w < 0)
        left_w = 0;
    *left = layout_take_left(&r, left_w);
    *right = r;
}

size_t layout_scroll(size_t top, size_t sel, size_t n, int visible)
{
    if (visible < 1 || n == 0)
        return 0;
    if (sel >= n)
        sel = n - 1;
    if (sel < top)
        top = sel;
    if (sel >= top + (size_t)visible)
        top = sel - (size_t)visible + 1;
    if (top + (size_t)visible > n)
        top = n > (size_t)visible ? n - (size_t)visible : 0;
    assert(top <= sel && sel < top + (size_t)visible);
    return top;
}
