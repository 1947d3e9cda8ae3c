/*
 * chart_int.h — what chart.c defines beyond chart.h for the tests and the
 * benchmarks alone: the dashboard calls none of it, so it is not part of
 * chart.h's interface.
 */
#ifndef GP_CHART_INT_H
#define GP_CHART_INT_H

#include "chart.h"

/* Sub-cell resolution of a style. */
int chart_sub_x(chart_style s);
int chart_sub_y(chart_style s);

/* The "nice" step (1, 2 or 5 times a power of ten) that cuts [lo, hi] into
 * at most max_ticks intervals; 1 when the range is empty or max_ticks < 1. */
double chart_nice_step(double lo, double hi, int max_ticks);

void chart_grid_clear(chart_grid *g);
/* Resizes (contents are cleared); returns g. */
chart_grid *chart_grid_resize(chart_grid *g, int w, int h, chart_style style);

/* The braille dot bit of sub-pixel (dx 0..1, dy 0..3 counted from the top
 * of the cell), per the Unicode braille pattern numbering:
 *   dots 1 2 3 7 down the left column, 4 5 6 8 down the right. */
uint8_t chart_braille_bit(int dx, int dy);

/* Sets pixel (px, py) for series s; py = 0 is the bottom row.  Pixels
 * outside the grid are ignored. */
void chart_plot_point(chart_grid *g, int px, int py, int s);
/* A straight line of pixels (Bresenham), both ends included. */
void chart_plot_line(chart_grid *g, int x0, int y0, int x1, int y1, int s);

/* Encodes code point cp as UTF-8 into out (at least 5 bytes, NUL-ended);
 * returns the byte count. */
int chart_utf8(uint32_t cp, char *out);

#endif
