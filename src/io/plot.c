/*
 * plot.c — the chart model of plot.h and its drawing with cairo: a title
 * and a note, axes with "nice" ticks and units (a time axis in the one unit
 * that suits its span), the series in a palette that stays apart for
 * colour-blind readers (Okabe and Ito), reference lines, labelled markers
 * and a legend under the axes.  SVG through cairo's SVG surface, PNG
 * through an image surface.
 *
 * Not here: what a chart shows (plot_run.c, plan/plan_chart.c).
 */
#include "plot.h"
#include "core/strbuf.h"

#include <assert.h>
#include <cairo.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- the model ------------------------------------------------------------ */

plot_chart *plot_new(const char *title)
{
    plot_chart *c = xcalloc(1, sizeof *c);
    strlcpy0(c->title, title ? title : "", sizeof c->title);
    return c;
}

void plot_free(plot_chart *c)
{
    if (!c)
        return;
    if (c->heat) {
        free(c->heat->cell);
        free(c->heat->row_name);
        free(c->heat);
    }
    for (int i = 0; i < c->nseries; i++) {
        free(c->series[i].x);
        free(c->series[i].y);
    }
    free(c);
}

void plot_axes(plot_chart *c, const char *xlabel, const char *xunit, const char *ylabel,
               const char *yunit)
{
    strlcpy0(c->x.label, xlabel ? xlabel : "", sizeof c->x.label);
    strlcpy0(c->x.unit, xunit ? xunit : "", sizeof c->x.unit);
    strlcpy0(c->y.label, ylabel ? ylabel : "", sizeof c->y.label);
    strlcpy0(c->y.unit, yunit ? yunit : "", sizeof c->y.unit);
}

int plot_series_add(plot_chart *c, const char *name)
{
    if (c->nseries == PLOT_MAX_SERIES)
        return -1;
    plot_series *s = &c->series[c->nseries];
    memset(s, 0, sizeof *s);
    strlcpy0(s->name, name ? name : "", sizeof s->name);
    return c->nseries++;
}

void plot_point(plot_chart *c, int series, double x, double y)
{
    if (series < 0 || series >= c->nseries || !isfinite(x))
        return;
    plot_series *s = &c->series[series];
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->x = xrealloc(s->x, s->cap * sizeof *s->x);
        s->y = xrealloc(s->y, s->cap * sizeof *s->y);
    }
    s->x[s->n] = x;
    s->y[s->n++] = y;
}

void plot_hline_add(plot_chart *c, double y, const char *label)
{
    if (c->nhlines == (int)(sizeof c->hlines / sizeof *c->hlines) || !isfinite(y))
        return;
    plot_hline *h = &c->hlines[c->nhlines++];
    h->y = y;
    strlcpy0(h->label, label ? label : "", sizeof h->label);
}

void plot_marker_add(plot_chart *c, int series, double x, double y, const char *label)
{
    if (c->nmarkers == (int)(sizeof c->markers / sizeof *c->markers) || !isfinite(x) ||
        !isfinite(y))
        return;
    plot_marker *m = &c->markers[c->nmarkers++];
    m->series = series;
    m->x = x;
    m->y = y;
    strlcpy0(m->label, label ? label : "", sizeof m->label);
}

plot_heat *plot_heat_new(plot_chart *c, int rows, int cols)
{
    assert(!c->heat && rows > 0 && cols > 0);
    plot_heat *h = xcalloc(1, sizeof *h);
    h->rows = rows;
    h->cols = cols;
    h->cell = xmalloc((size_t)rows * (size_t)cols);
    memset(h->cell, PLOT_HEAT_NOCELL, (size_t)rows * (size_t)cols);
    h->row_name = xcalloc((size_t)rows, sizeof *h->row_name);
    c->heat = h;
    return h;
}

size_t plot_npoints(const plot_chart *c)
{
    if (c->heat)
        return (size_t)c->heat->rows * (size_t)c->heat->cols;
    size_t n = 0;
    for (int i = 0; i < c->nseries; i++)
        n += c->series[i].n;
    return n;
}

int plot_format_of(const char *path, const char *fmt, plot_format *out, gp_err *err)
{
    const char *ext = fmt;
    if (!ext) {
        const char *dot = path ? strrchr(path, '.') : NULL;
        ext = dot && !strchr(dot, '/') ? dot + 1 : "";
    }
    if (strcasecmp(ext, "svg") == 0)
        *out = PLOT_SVG;
    else if (strcasecmp(ext, "png") == 0)
        *out = PLOT_PNG;
    else if (fmt)
        return gp_error(err, "expected svg or png, got '%s'", fmt);
    else
        return gp_error(err, "%s: cannot tell the image format (name it .svg or .png, or "
                        "give --format svg|png)", path ? path : "");
    return 0;
}

const char *plot_format_name(plot_format f)
{
    return f == PLOT_PNG ? "png" : "svg";
}

/* --- scales ---------------------------------------------------------------- */

/* An axis as drawn: its range, its tick step, and the divisor its values
 * are shown in (a time axis in minutes divides seconds by 60). */
typedef struct scale {
    double lo, hi, step;
    double div;
    char unit[16];
} scale;

/* 1, 2 or 5 times a power of ten, cutting span into about n steps. */
static double nice_step(double span, int n)
{
    if (!(span > 0) || !isfinite(span))
        return 1;
    double raw = span / n, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* Seconds shown in the unit that suits a span: s, min, h or d. */
static void time_unit(double span_s, scale *s)
{
    static const struct { double lim, div; const char *name; } units[] = {
        {120, 1, "s"}, {7200, 60, "min"}, {172800, 3600, "h"}, {INFINITY, 86400, "d"},
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (span_s < units[i].lim || i + 1 == sizeof units / sizeof *units) {
            s->div = units[i].div;
            strlcpy0(s->unit, units[i].name, sizeof s->unit);
            return;
        }
}

/* Makes [lo, hi] (data units) a scale with nice ends. */
static void scale_fit(scale *s, double lo, double hi, const plot_axis *ax, int ticks)
{
    s->div = 1;
    strlcpy0(s->unit, ax->unit, sizeof s->unit);
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    if (strcmp(ax->unit, "s") == 0)
        time_unit(hi - lo, s);
    lo /= s->div;
    hi /= s->div;
    if (hi == lo) {
        double pad = lo == 0 ? 1 : fabs(lo) / 2;
        lo -= pad;
        hi += pad;
    }
    s->step = nice_step(hi - lo, ticks);
    if (ax->integer && s->step < 1)
        s->step = 1;
    s->lo = floor(lo / s->step + 1e-9) * s->step;
    s->hi = ceil(hi / s->step - 1e-9) * s->step;
    /* Counts (GPUs swept from 2 to 8) end where the data does: an axis
     * running on to 10 reads as counts that were swept. */
    if (ax->integer && s->div == 1) {
        s->lo = lo;
        s->hi = hi;
    }
}

/* The first tick of scale s: its low end, or the first multiple of the
 * step above it (an integer axis ends at the data). */
static double first_tick(const scale *s)
{
    return ceil(s->lo / s->step - 1e-9) * s->step;
}

/* The data's extent on each axis, references and markers included. */
static void extent(const plot_chart *c, double *x0, double *x1, double *y0, double *y1)
{
    *x0 = *y0 = INFINITY;
    *x1 = *y1 = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (size_t k = 0; k < c->series[i].n; k++) {
            double x = c->series[i].x[k], y = c->series[i].y[k];
            *x0 = fmin(*x0, x);
            *x1 = fmax(*x1, x);
            if (isfinite(y)) {
                *y0 = fmin(*y0, y);
                *y1 = fmax(*y1, y);
            }
        }
    for (int i = 0; i < c->nhlines; i++) {
        *y0 = fmin(*y0, c->hlines[i].y);
        *y1 = fmax(*y1, c->hlines[i].y);
    }
    if (c->y_from_zero && *y0 <= *y1) {
        *y0 = fmin(*y0, 0);
        *y1 = fmax(*y1, 0);
    }
}

/* A tick label of scale s: as many decimals as the step needs; thousands
 * as k or M on every tick of an axis that reaches 10,000, so one axis
 * reads in one unit. */
static void tick_label(double v, const scale *s, char *buf, size_t len)
{
    double step = s->step, big = fmax(fabs(s->lo), fabs(s->hi));
    if (fabs(v) < step * 1e-9)
        v = 0;
    if (big >= 1e7 && fmod(step, 1e5) == 0)
        snprintf(buf, len, "%gM", v / 1e6);
    else if (big >= 1e4 && fmod(step, 1e2) == 0)
        snprintf(buf, len, "%gk", v / 1e3);
    else {
        int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
        snprintf(buf, len, "%.*f", dec, v);
    }
}

/* --- drawing ------------------------------------------------------------- */

typedef struct frame {
    double left, top, right, bottom;    /* the plot area, pixels */
    scale sx, sy;
} frame;

static const double palette[][3] = {
    {0.000, 0.447, 0.698}, {0.835, 0.369, 0.000}, {0.000, 0.620, 0.451},
    {0.800, 0.475, 0.655}, {0.902, 0.624, 0.000}, {0.337, 0.706, 0.914},
    {0.000, 0.000, 0.000}, {0.600, 0.600, 0.600},
};
#define NPALETTE (sizeof palette / sizeof *palette)

static void set_series_colour(cairo_t *cr, int i)
{
    const double *p = palette[(size_t)(i < 0 ? 0 : i) % NPALETTE];
    cairo_set_source_rgb(cr, p[0], p[1], p[2]);
}

static double px_x(const frame *f, double x)
{
    return f->left + (x / f->sx.div - f->sx.lo) / (f->sx.hi - f->sx.lo) * (f->right - f->left);
}

static double px_y(const frame *f, double y)
{
    return f->bottom - (y / f->sy.div - f->sy.lo) / (f->sy.hi - f->sy.lo) * (f->bottom - f->top);
}

static double text_w(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

static void font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static void text_at(cairo_t *cr, double x, double y, const char *s)
{
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* 1 when word stands in text as a whole word. */
static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); n && p; p = strstr(p + 1, word))
        if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

/* "label (unit)", or the label alone when it names its unit already
 * ("active GPUs", not "active GPUs (GPUs)"). */
static void axis_title(const plot_axis *ax, const scale *s, char *buf, size_t len)
{
    if (s->unit[0] && !has_word(ax->label, s->unit))
        snprintf(buf, len, "%s (%s)", ax->label, s->unit);
    else
        snprintf(buf, len, "%s", ax->label);
}

/* Rows the legend needs across width w. */
static int legend_rows(cairo_t *cr, const plot_chart *c, double w)
{
    int rows = c->nseries > 0;
    double x = 0;
    font(cr, 12, 0);
    for (int i = 0; i < c->nseries; i++) {
        double ew = 28 + text_w(cr, c->series[i].name) + 18;
        if (x > 0 && x + ew > w) {
            rows++;
            x = 0;
        }
        x += ew;
    }
    return rows;
}

static void draw_legend(cairo_t *cr, const plot_chart *c, double left, double y, double w)
{
    double x = 0;
    font(cr, 12, 0);
    for (int i = 0; i < c->nseries; i++) {
        double ew = 28 + text_w(cr, c->series[i].name) + 18;
        if (x > 0 && x + ew > w) {
            y += 18;
            x = 0;
        }
        set_series_colour(cr, i);
        cairo_set_line_width(cr, 2.5);
        if (c->style == PLOT_POINTS) {
            cairo_arc(cr, left + x + 11, y - 4, 4, 0, 2 * M_PI);
            cairo_fill(cr);
        } else {
            cairo_move_to(cr, left + x, y - 4);
            cairo_line_to(cr, left + x + 22, y - 4);
            cairo_stroke(cr);
        }
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, left + x + 28, y, c->series[i].name);
        x += ew;
    }
}

/* The plot area left after the title, the tick labels, the axis titles and
 * the legend. */
static void layout(cairo_t *cr, const plot_chart *c, int width, int height, frame *f)
{
    double x0, x1, y0, y1;
    extent(c, &x0, &x1, &y0, &y1);
    scale_fit(&f->sx, x0, x1, &c->x, 8);
    scale_fit(&f->sy, y0, y1, &c->y, 6);
    font(cr, 12, 0);
    double label_w = 0;
    for (double v = f->sy.lo; v <= f->sy.hi + f->sy.step / 2; v += f->sy.step) {
        char buf[32];
        tick_label(v, &f->sy, buf, sizeof buf);
        label_w = fmax(label_w, text_w(cr, buf));
    }
    f->left = 34 + label_w + 8;
    f->right = width - 24;
    f->top = c->note[0] ? 64 : 46;
    int rows = legend_rows(cr, c, f->right - f->left);
    f->bottom = height - 48 - 18 * rows;
}

static void draw_titles(cairo_t *cr, const plot_chart *c, const frame *f)
{
    char buf[96];
    cairo_set_source_rgb(cr, 0, 0, 0);
    font(cr, 17, 1);
    text_at(cr, f->left, 26, c->title);
    if (c->note[0]) {
        font(cr, 13, 0);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        text_at(cr, f->left, 46, c->note);
    }
    font(cr, 13, 0);
    cairo_set_source_rgb(cr, 0, 0, 0);
    axis_title(&c->x, &f->sx, buf, sizeof buf);
    text_at(cr, (f->left + f->right - text_w(cr, buf)) / 2, f->bottom + 38, buf);
    axis_title(&c->y, &f->sy, buf, sizeof buf);
    cairo_save(cr);
    cairo_move_to(cr, 18, (f->top + f->bottom + text_w(cr, buf)) / 2);
    cairo_rotate(cr, -M_PI / 2);
    cairo_show_text(cr, buf);
    cairo_restore(cr);
}

/* Grid lines, ticks and their labels, and the frame. */
static void draw_axes(cairo_t *cr, const frame *f)
{
    char buf[32];
    font(cr, 12, 0);
    cairo_set_line_width(cr, 1);
    for (double v = f->sy.lo; v <= f->sy.hi + f->sy.step / 2; v += f->sy.step) {
        double y = px_y(f, v * f->sy.div);
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, f->left, y);
        cairo_line_to(cr, f->right, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        tick_label(v, &f->sy, buf, sizeof buf);
        text_at(cr, f->left - 8 - text_w(cr, buf), y + 4, buf);
    }
    for (double v = first_tick(&f->sx); v <= f->sx.hi + 1e-9 * f->sx.step; v += f->sx.step) {
        double x = px_x(f, v * f->sx.div);
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, x, f->top);
        cairo_line_to(cr, x, f->bottom);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_move_to(cr, x, f->bottom);
        cairo_line_to(cr, x, f->bottom + 5);
        cairo_stroke(cr);
        tick_label(v, &f->sx, buf, sizeof buf);
        text_at(cr, x - text_w(cr, buf) / 2, f->bottom + 18, buf);
    }
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_rectangle(cr, f->left, f->top, f->right - f->left, f->bottom - f->top);
    cairo_stroke(cr);
}

static void draw_series(cairo_t *cr, const plot_chart *c, const frame *f)
{
    cairo_save(cr);
    cairo_rectangle(cr, f->left, f->top, f->right - f->left, f->bottom - f->top);
    cairo_clip(cr);
    cairo_set_line_width(cr, 2);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int i = 0; i < c->nseries; i++) {
        const plot_series *s = &c->series[i];
        set_series_colour(cr, i);
        int pen = 0;
        for (size_t k = 0; k < s->n; k++) {
            if (!isfinite(s->y[k])) {
                pen = 0;
                continue;
            }
            double x = px_x(f, s->x[k]), y = px_y(f, s->y[k]);
            if (c->style == PLOT_POINTS || s->n == 1) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, x, y, 3.5, 0, 2 * M_PI);
                cairo_fill(cr);
            } else if (pen) {
                cairo_line_to(cr, x, y);
            } else {
                cairo_move_to(cr, x, y);
                pen = 1;
            }
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* Reference lines dashed across the plot, their labels at the right end. */
static void draw_hlines(cairo_t *cr, const plot_chart *c, const frame *f)
{
    static const double dash[] = {6, 4};
    font(cr, 12, 0);
    for (int i = 0; i < c->nhlines; i++) {
        double y = px_y(f, c->hlines[i].y);
        cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
        cairo_set_line_width(cr, 1.5);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, f->left, y);
        cairo_line_to(cr, f->right, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        const char *l = c->hlines[i].label;
        text_at(cr, f->right - 6 - text_w(cr, l), y - 5, l);
    }
}

/* 1 when the boxes [x, x+w] x [y-h, y] of labels a and b meet. */
static int labels_meet(double ax, double ay, double aw, double bx, double by, double bw,
                       double h)
{
    return ax < bx + bw && bx < ax + aw && ay - h < by && by - h < ay;
}

void plot_place_labels(int n, const double *px, const double *py, const double *w, double h,
                       double left, double right, double top, double *tx, double *ty)
{
    enum { TRIES = 8 };
    for (int i = 0; i < n; i++) {
        tx[i] = fmin(fmax(px[i] - w[i] / 2, left + 2), right - w[i] - 2);
        /* Above the point, a line higher each try, then below it. */
        double first = NAN;
        for (int k = 0; k < 2 * TRIES; k++) {
            double y = k < TRIES ? py[i] - 12 - (h + 3) * k : py[i] + 24 + (h + 3) * (k - TRIES);
            if (k < TRIES && y - h < top)
                continue;
            if (isnan(first))
                first = y;
            int free = 1;
            for (int j = 0; j < i && free; j++)
                free = !labels_meet(tx[i], y, w[i], tx[j], ty[j], w[j], h);
            if (free) {
                first = y;
                break;
            }
        }
        ty[i] = first;
    }
}

/* Markers: a ring in the series' colour and the label above it, moved up
 * (or below) where another label is (the fewest GPUs of two policies at
 * neighbouring counts). */
static void draw_markers(cairo_t *cr, const plot_chart *c, const frame *f)
{
    enum { N = sizeof c->markers / sizeof *c->markers };
    double px[N], py[N], w[N], tx[N], ty[N];
    font(cr, 12, 1);
    for (int i = 0; i < c->nmarkers; i++) {
        px[i] = px_x(f, c->markers[i].x);
        py[i] = px_y(f, c->markers[i].y);
        w[i] = text_w(cr, c->markers[i].label);
    }
    plot_place_labels(c->nmarkers, px, py, w, 12, f->left, f->right, f->top, tx, ty);
    for (int i = 0; i < c->nmarkers; i++) {
        set_series_colour(cr, c->markers[i].series);
        cairo_set_line_width(cr, 2.5);
        cairo_new_sub_path(cr);
        cairo_arc(cr, px[i], py[i], 7, 0, 2 * M_PI);
        cairo_stroke(cr);
        text_at(cr, tx[i], ty[i], c->markers[i].label);
    }
}

/* --- heatmaps ------------------------------------------------------------- */

/* Level -1 (asleep) grey, 0 (empty, idle) pale, 1-3 light to dark blue,
 * 4 (oversubscribed) red. */
static void set_level_colour(cairo_t *cr, int level)
{
    static const double rgb[PLOT_HEAT_LEVELS][3] = {
        {0.62, 0.62, 0.62}, {0.95, 0.95, 0.95}, {0.776, 0.859, 0.937},
        {0.420, 0.682, 0.839}, {0.129, 0.443, 0.710}, {0.796, 0.094, 0.114},
    };
    int i = level < -1 ? 0 : level > 4 ? 5 : level + 1;
    cairo_set_source_rgb(cr, rgb[i][0], rgb[i][1], rgb[i][2]);
}

/* Labels every k-th of n slots of size px, so labels of 12 px never touch. */
static int label_every(double px)
{
    return px >= 13 ? 1 : (int)ceil(13 / (px > 0 ? px : 1));
}

static void draw_heat_cells(cairo_t *cr, const plot_heat *h, const frame *f)
{
    double cw = (f->right - f->left) / h->cols, ch = (f->bottom - f->top) / h->rows;
    double gap = cw >= 6 && ch >= 6 ? 1 : 0;
    for (int r = 0; r < h->rows; r++)
        for (int k = 0; k < h->cols; k++) {
            int lv = h->cell[(size_t)r * (size_t)h->cols + (size_t)k];
            if (lv == PLOT_HEAT_NOCELL)
                continue;
            set_level_colour(cr, lv);
            cairo_rectangle(cr, f->left + k * cw + gap / 2, f->top + r * ch + gap / 2, cw - gap,
                            ch - gap);
            cairo_fill(cr);
        }
    char buf[32];
    font(cr, 12, 0);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    for (int r = 0, e = label_every(ch); r < h->rows; r += e)
        text_at(cr, f->left - 6 - text_w(cr, h->row_name[r]), f->top + (r + 0.5) * ch + 4,
                h->row_name[r]);
    for (int k = 0, e = label_every(cw / 2); k < h->cols; k += e) {
        snprintf(buf, sizeof buf, "%d", k);
        text_at(cr, f->left + (k + 0.5) * cw - text_w(cr, buf) / 2, f->bottom + 16, buf);
    }
}

/* The levels named, as swatches in a row under the axes. */
static void draw_heat_legend(cairo_t *cr, const plot_heat *h, double left, double y)
{
    font(cr, 12, 0);
    for (int i = 0; i < PLOT_HEAT_LEVELS; i++) {
        if (!h->level_name[i][0])
            continue;
        set_level_colour(cr, i - 1);
        cairo_rectangle(cr, left, y - 10, 14, 12);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, left + 20, y, h->level_name[i]);
        left += 20 + text_w(cr, h->level_name[i]) + 18;
    }
}

static void draw_heat_chart(cairo_t *cr, const plot_chart *c, int width, int height)
{
    const plot_heat *h = c->heat;
    frame f;
    memset(&f, 0, sizeof f);
    f.sx.div = f.sy.div = 1;
    font(cr, 12, 0);
    double name_w = 0;
    for (int r = 0; r < h->rows; r++)
        name_w = fmax(name_w, text_w(cr, h->row_name[r]));
    f.left = 34 + fmin(name_w, width / 3.0) + 8;
    f.right = width - 24;
    f.top = c->note[0] ? 64 : 46;
    f.bottom = height - 66;
    /* Cells at most 90 x 36 px, so a small cluster reads as a grid. */
    f.right = f.left + h->cols * fmin((f.right - f.left) / h->cols, 90);
    f.bottom = f.top + h->rows * fmin((f.bottom - f.top) / h->rows, 36);
    draw_heat_cells(cr, h, &f);
    draw_titles(cr, c, &f);
    draw_heat_legend(cr, h, f.left, f.bottom + 62);
}

static void draw_chart(cairo_t *cr, const plot_chart *c, int width, int height)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (c->heat) {
        draw_heat_chart(cr, c, width, height);
        return;
    }
    frame f;
    layout(cr, c, width, height, &f);
    draw_axes(cr, &f);
    draw_series(cr, c, &f);
    draw_hlines(cr, c, &f);
    draw_markers(cr, c, &f);
    draw_titles(cr, c, &f);
    draw_legend(cr, c, f.left, f.bottom + 62, f.right - f.left);
    if (plot_npoints(c) == 0) {
        font(cr, 16, 0);
        cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
        const char *s = "(no data)";
        text_at(cr, (f.left + f.right - text_w(cr, s)) / 2, (f.top + f.bottom) / 2, s);
    }
}

/* --- files ---------------------------------------------------------------- */

static cairo_status_t to_strbuf(void *closure, const unsigned char *data, unsigned int len)
{
    strbuf_printf(closure, "%.*s", (int)len, (const char *)data);
    return CAIRO_STATUS_SUCCESS;
}

static void xml_escaped(strbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': strbuf_puts(b, "&lt;"); break;
        case '>': strbuf_puts(b, "&gt;"); break;
        case '&': strbuf_puts(b, "&amp;"); break;
        case '"': strbuf_puts(b, "&quot;"); break;
        default: strbuf_printf(b, "%c", *s); break;
        }
    }
}

/* cairo draws text as glyph outlines, so a reader searching the file, or
 * reading it aloud, would find no words: the title, the note and the
 * series' names go in as <title> and <desc> as well. */
static char *svg_with_words(const plot_chart *c, const char *svg)
{
    const char *open = strstr(svg, "<svg");
    const char *end = open ? strchr(open, '>') : NULL;
    strbuf b = STRBUF_INIT;
    if (!end) {
        strbuf_puts(&b, svg);
        return strbuf_take(&b);
    }
    strbuf_printf(&b, "%.*s\n<title>", (int)(end + 1 - svg), svg);
    xml_escaped(&b, c->title);
    strbuf_puts(&b, "</title>\n<desc>");
    xml_escaped(&b, c->note);
    for (int i = 0; i < c->nseries; i++) {
        strbuf_puts(&b, i ? "; " : c->note[0] ? " | series: " : "series: ");
        xml_escaped(&b, c->series[i].name);
    }
    for (int i = 0, k = 0; c->heat && i < PLOT_HEAT_LEVELS; i++)
        if (c->heat->level_name[i][0]) {
            strbuf_puts(&b, k++ ? "; " : c->note[0] ? " | levels: " : "levels: ");
            xml_escaped(&b, c->heat->level_name[i]);
        }
    strbuf_puts(&b, "</desc>");
    strbuf_puts(&b, end + 1);
    return strbuf_take(&b);
}

static int write_svg(const plot_chart *c, const char *path, int w, int h, gp_err *err)
{
    strbuf raw = STRBUF_INIT;
    cairo_surface_t *sf = cairo_svg_surface_create_for_stream(to_strbuf, &raw, w, h);
    cairo_t *cr = cairo_create(sf);
    draw_chart(cr, c, w, h);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS) {
        strbuf_free(&raw);
        return gp_error(err, "%s: cannot draw the chart (%s)", path, cairo_status_to_string(st));
    }
    char *svg = svg_with_words(c, strbuf_str(&raw));
    strbuf_free(&raw);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f)
        rc = gp_error(err, "%s: cannot write (%s)", path, strerror(errno));
    else {
        size_t len = strlen(svg);
        int bad = fwrite(svg, 1, len, f) != len;
        if (fclose(f) != 0 || bad)
            rc = gp_error(err, "%s: write error", path);
    }
    free(svg);
    return rc;
}

static int write_png(const plot_chart *c, const char *path, int w, int h, gp_err *err)
{
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(sf);
    draw_chart(cr, c, w, h);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png(sf, path);
    cairo_surface_destroy(sf);
    if (st == CAIRO_STATUS_WRITE_ERROR)
        return gp_error(err, "%s: cannot write (%s)", path, strerror(errno ? errno : EIO));
    if (st != CAIRO_STATUS_SUCCESS)
        return gp_error(err, "%s: cannot draw the chart (%s)", path, cairo_status_to_string(st));
    return 0;
}

int plot_write(const plot_chart *c, const char *path, plot_format f, int width, int height,
               gp_err *err)
{
    if (width < 200 || height < 150 || width > 8000 || height > 8000)
        return gp_error(err, "a chart is 200x150 to 8000x8000 pixels, not %dx%d", width,
                        height);
    errno = 0;
    int rc = f == PLOT_PNG ? write_png(c, path, width, height, err)
                           : write_svg(c, path, width, height, err);
    /* cairo and fontconfig keep font caches for the life of the process,
     * which the leak checker of `make asan` reports; a chart is written
     * seldom, so they are released each time (loading them again costs about
     * 13 ms a chart: 16 ms to 29 ms for 2,000 points at 960x540). */
    cairo_debug_reset_static_data();
    FcFini();
    return rc;
}
