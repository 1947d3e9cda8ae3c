/*
 * chart.h — the pure half of the TUI's charts: axis scaling with "nice"
 * tick values, number formatting for axes, and the mapping of data series
 * onto a grid of terminal cells at sub-cell resolution:
 *
 *   CHART_BRAILLE  2×4 dots per cell, U+2800 + dot bits (UTF-8 terminals)
 *   CHART_BLOCK    1×2 per cell: ▀ ▄ █ (UTF-8 without braille fonts)
 *   CHART_ASCII    1×1 per cell: one marker character per series
 *
 * and sparklines (values → 8 levels, drawn as ▁..█ or an ASCII ramp).
 * No curses here: tests link this without a terminal; draw.c turns a grid
 * into screen cells.
 *
 * Ownership: chart_grid_new() returns a grid the caller frees with
 * chart_grid_free(); series arrays are borrowed for the call only.
 */
#ifndef GP_CHART_H
#define GP_CHART_H

#include <stddef.h>
#include <stdint.h>

typedef enum chart_style { CHART_BRAILLE, CHART_BLOCK, CHART_ASCII, CHART_NSTYLES } chart_style;

#define CHART_MAX_SERIES 8

/* A style's name. */
const char *chart_style_name(chart_style s);

/* Whether a terminal can show style s, as htop and btop decide it: braille
 * and blocks need UTF-8 and colour (their cells carry no per-series
 * marker, so without colour every series looks alike), braille also a
 * font that has it, which the Linux console's VT font has not (TERM
 * linux, con*, vt*).  ASCII, one marker per series, always.  term may be
 * NULL. */
int chart_style_allowed(chart_style s, const char *term, int utf8, int color);
/* The best style allowed there: braille, else blocks, else ASCII. */
chart_style chart_style_for(const char *term, int utf8, int color);

/* --- scaling ------------------------------------------------------------ */

/* Widens [*lo, *hi] outwards to multiples of the nice step; an empty range
 * [lo, lo] first becomes [lo, lo + |lo|] ([0, 1] at zero), and non-finite
 * bounds become 0. */
void chart_nice_range(double *lo, double *hi, int max_ticks);

/* Tick values of [lo, hi] at the nice step, ascending, into ticks[cap];
 * returns how many. */
int chart_ticks(double lo, double hi, int max_ticks, double *ticks, int cap);

/* Maps v in [lo, hi] onto pixel 0..n-1 (clamped); lo → 0, hi → n-1.
 * An empty range maps everything to 0. */
int chart_scale(double v, double lo, double hi, int n);

/* Compact number for an axis label or a table: 950, 1.2k, 35k, 4.1M,
 * 0.25; at most 6 characters for |v| < 1e15. */
void chart_fmt(double v, char *buf, size_t len);

/* Seconds as a duration people read: 45s and 2.5s under a minute, then a
 * clock, 02:15:00, with whole days before it, 1d 02:15:00. */
void chart_fmt_time(double s, char *buf, size_t len);
/* The same in the one unit that suits an axis spanning `span` seconds
 * (s below 2 min, m below 2 h, h below 2 d, else d), so every tick of an
 * axis reads in the same unit: 0m 10m 20m, not 0s 50s 1.7m. */
void chart_fmt_time_in(double s, double span, char *buf, size_t len);
/* An estimate in chart_fmt_time's format, so it reads beside a time it is
 * compared with ("t=02:00:00 of ~01:00:00"), rounded to whole minutes,
 * over a day to whole hours ("~294d 03:00:00"). */
void chart_fmt_time_about(double s, char *buf, size_t len);
/* Seconds in that unit (1, 60, 3600 or 86400): time axes take their nice
 * ticks in it, so a 6-day axis ticks every day, not every 2.3 days. */
double chart_time_unit(double span);

/* --- the cell grid -------------------------------------------------------- */

typedef struct chart_grid {
    int w, h;                   /* cells */
    chart_style style;
    uint8_t *bits;              /* per cell: braille dot bits / block halves / set */
    uint8_t *owner;             /* per cell: 1 + the series drawn last, 0 = empty */
} chart_grid;

chart_grid *chart_grid_new(int w, int h, chart_style style);
void chart_grid_free(chart_grid *g);

/* Plots a series as a step line (a metric holds its value until the next
 * sample, as the simulator's timeline does): x and y are read at
 * x[i*stride], y[i*stride] (stride in bytes, so fields of an array of
 * structs plot without copying).  Points with x outside [xlo, xhi] are
 * skipped; the last value is held until hold_to (a live run's "now"; the
 * right edge when hold_to is outside (xlo, xhi]).  Returns the number of
 * points used. */
size_t chart_plot_steps(chart_grid *g, const double *x, const double *y, size_t n,
                        size_t stride, double xlo, double xhi, double ylo, double yhi,
                        double hold_to, int s);

/* Plots a series as straight segments between its points (a sweep's
 * curve), with the same reading of x, y and stride.  Returns points used. */
size_t chart_plot_poly(chart_grid *g, const double *x, const double *y, size_t n,
                       size_t stride, double xlo, double xhi, double ylo, double yhi, int s);

/* The character of cell (cx, cy) (cy = 0 is the top row) as a Unicode code
 * point: U+2800 + bits for braille, ▀/▄/█ for blocks, the series marker
 * for ASCII; ' ' for an empty cell. */
uint32_t chart_cell_char(const chart_grid *g, int cx, int cy);
/* 1 + the series owning cell (cx, cy), 0 when empty. */
int chart_cell_owner(const chart_grid *g, int cx, int cy);

/* The marker of series s in ASCII charts and monochrome legends. */
char chart_marker(int s);

/* --- sparklines ----------------------------------------------------------- */

/* Resamples v[0..n) into w buckets (the mean of each bucket; when n < w,
 * one bucket per value and the rest -1) and maps each onto a level 0..7 of
 * [lo, hi]; out[w].  Returns the number of buckets filled. */
int chart_spark_levels(const float *v, size_t n, double lo, double hi, int w, int *out);
/* The character of level 0..7: ▁▂▃▄▅▆▇█ (utf8) or " .:-=+*#" (ASCII). */
uint32_t chart_spark_char(int level, int utf8);

#endif
