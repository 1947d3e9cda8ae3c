/*
 * plot.h — charts people take away: a chart described as data (title,
 * axes with units, series, reference lines, labelled markers, a one-line
 * note) and drawn with cairo into an SVG or a PNG file.  Both front ends
 * use it: `gpuplan plot` and the dashboard's export key.
 *
 * Not here: what a chart shows.  The builders fill a chart from a run or
 * from saved inflation runs (plot_run.c) and from a planner sweep
 * (plan/plan_chart.c).  No curses.
 *
 * Ownership: plot_new() returns a chart the caller frees with plot_free();
 * text arguments are copied.
 */
#ifndef GP_PLOT_H
#define GP_PLOT_H

#include <stddef.h>

#include "core/util.h"

typedef enum plot_format { PLOT_SVG, PLOT_PNG } plot_format;

/* Pixel size of a written chart (PNG pixels; SVG points). */
#define PLOT_WIDTH 960
#define PLOT_HEIGHT 540
#define PLOT_MAX_SERIES 16

typedef enum plot_style { PLOT_LINES, PLOT_POINTS } plot_style;

typedef struct plot_series {
    char name[64];
    double *x, *y;              /* NAN y breaks a line */
    size_t n, cap;
} plot_series;

typedef struct plot_axis {
    char label[64];             /* "active GPUs" */
    char unit[16];              /* "W"; "s" on x makes a time axis read in s/min/h/d */
    int integer;                /* 1: ticks only at whole numbers (GPU counts) */
} plot_axis;

typedef struct plot_hline {
    double y;
    char label[64];
} plot_hline;

typedef struct plot_marker {
    int series;                 /* drawn in its colour */
    double x, y;
    char label[48];
} plot_marker;

/* A heatmap drawn in place of series (the Cluster screen's servers ×
 * GPUs): each cell a level, named in the legend. */
#define PLOT_HEAT_NOCELL (-2)   /* no GPU there (a server with fewer) */
#define PLOT_HEAT_LEVELS 6      /* levels -1 .. 4 */

typedef struct plot_heat {
    int rows, cols;
    signed char *cell;          /* rows * cols levels, -1 .. 4, or PLOT_HEAT_NOCELL */
    char (*row_name)[32];       /* rows */
    char level_name[PLOT_HEAT_LEVELS][24];  /* [level + 1]; "" = not in the legend */
} plot_heat;

typedef struct plot_chart {
    char title[160];
    char note[320];             /* one line under the title, "" = none */
    plot_axis x, y;
    plot_style style;
    int y_from_zero;            /* 1: the y range includes 0 */
    plot_series series[PLOT_MAX_SERIES];
    int nseries;
    plot_hline hlines[4];
    int nhlines;
    plot_marker markers[PLOT_MAX_SERIES * 2];
    int nmarkers;
    plot_heat *heat;            /* NULL, or a heatmap instead of series */
} plot_chart;

plot_chart *plot_new(const char *title);
void plot_free(plot_chart *c);
void plot_axes(plot_chart *c, const char *xlabel, const char *xunit, const char *ylabel,
               const char *yunit);
/* Adds a series; returns its index, or -1 when PLOT_MAX_SERIES are there. */
int plot_series_add(plot_chart *c, const char *name);
void plot_point(plot_chart *c, int series, double x, double y);
/* A horizontal reference line (an SLA target); ignored past four. */
void plot_hline_add(plot_chart *c, double y, const char *label);
/* A labelled point in a series' colour; ignored past the array. */
void plot_marker_add(plot_chart *c, int series, double x, double y, const char *label);
/* Where n markers' labels go so that none overprints another: label i,
 * w[i] wide and h tall, centred above its point (px[i], py[i]) when free,
 * else a line higher, else below the point; inside [left, right] and not
 * above top.  Out: tx[i], ty[i], the baseline's left end (pixels, y down). */
void plot_place_labels(int n, const double *px, const double *py, const double *w, double h,
                       double left, double right, double top, double *tx, double *ty);
/* Makes c a heatmap of rows × cols cells, all PLOT_HEAT_NOCELL, and
 * returns it (c owns it); the caller sets cells, row names and the names
 * of the levels used.  The axes' labels title the columns and rows. */
plot_heat *plot_heat_new(plot_chart *c, int rows, int cols);
/* Points of every series (for tests and "nothing to draw" messages). */
size_t plot_npoints(const plot_chart *c);

/* The format: fmt ("svg" or "png") when given, else path's extension.
 * 0, or -1 with a message naming what was expected. */
int plot_format_of(const char *path, const char *fmt, plot_format *out, gp_err *err);
const char *plot_format_name(plot_format f);

/* Draws the chart into path, width × height; 0, or -1 with a message. */
int plot_write(const plot_chart *c, const char *path, plot_format f, int width, int height,
               gp_err *err);

#endif
