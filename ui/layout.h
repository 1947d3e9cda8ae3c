/*
 * layout.h — pane rectangles for a terminal size (pure: no curses), so the
 * geometry of every screen is computed in one place and tested at 80×24,
 * 120×40 and 200×60 without a terminal.
 *
 * Every screen has the same frame: the tab bar on row 0, the status line on
 * the last row, and the body between them.  Rectangles never overlap and
 * never leave the screen; a pane that does not fit gets h or w of 0 and the
 * screen skips it.
 */
#ifndef GP_LAYOUT_H
#define GP_LAYOUT_H

#include <stddef.h>

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

typedef struct rect {
    int y, x, h, w;
} rect;

/* 1 when r has no negative size and, unless it is empty, lies inside
 * outer (the invariant every function here asserts of what it returns). */
int layout_within(rect r, rect outer);

/* 1 when a terminal of rows × cols is too small for the dashboard. */
int layout_too_small(int rows, int cols);

/* The body between the tab bar and the status line. */
rect layout_body(int rows, int cols);

/* Cuts h rows off the top (or bottom) of *r and returns them; *r shrinks.
 * Asking for more than there is returns all of it. */
rect layout_take_top(rect *r, int h);
rect layout_take_bottom(rect *r, int h);
/* The inside of a box drawn on r (one cell of border all round). */
rect layout_inner(rect r);

/* A chart box: the plot area, the y-axis labels to its left and the x-axis
 * labels below it, all inside the box border. */
typedef struct chart_layout {
    rect box, plot, ylab, xlab;
} chart_layout;
#define LAYOUT_YLAB_W 6
chart_layout layout_chart(rect box);

/* Compare: info line, legend line, four charts (2 × 2) and the summary
 * table with a header row and one row per policy. */
typedef struct compare_layout {
    rect info, legend, charts[4], table;
} compare_layout;
compare_layout layout_compare(int rows, int cols, int npolicies);

/* Cluster: the heatmap and the detail pane of the selected GPU (to the
 * right on wide terminals, below on narrow ones). */
typedef struct cluster_layout {
    rect info, heat, detail;
    int detail_right;
} cluster_layout;
cluster_layout layout_cluster(int rows, int cols);

/* How a heatmap of nodes × GPUs is laid out in a w × h area: each node is a
 * block of its GPUs (cell_w characters each), optionally preceded by its
 * name (label_w characters); blocks flow left to right, per_line to a line,
 * and lines start with a prefix (the first node's index) when names are
 * not shown. */
typedef struct heat_geom {
    int label_w;                /* 0 = names hidden */
    int cell_w;                 /* 1..4 */
    int prefix_w;               /* line prefix (node index), 0 with names */
    int block_w;                /* one node including its trailing gap */
    int per_line;
    int lines;                  /* lines for every node */
} heat_geom;
/* Picks the most readable geometry whose lines fit in h (else the most
 * compact one, which scrolls).  max_gpus = GPUs of the largest node,
 * max_name = longest node name. */
void layout_heat(int w, int h, size_t nnodes, int max_gpus, int max_name, heat_geom *g);

/* Two panes side by side: the left one left_w wide (clamped so the right
 * one keeps at least min_right columns). */
void layout_split(rect r, int left_w, int min_right, rect *left, rect *right);

/* Lines that scroll: the first visible index that keeps sel inside a
 * window of `visible` lines, given the previous top. */
size_t layout_scroll(size_t top, size_t sel, size_t n, int visible);

#endif
