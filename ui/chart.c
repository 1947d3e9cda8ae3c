/*
 * chart.c — axis scaling, number formatting, series → cell-grid mapping
 * and sparkline levels (chart.h).  Pure: no curses, no I/O.
 */
#include "chart.h"
#include "chart_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int chart_sub_x(chart_style s)
{
    return s == CHART_BRAILLE ? 2 : 1;
}

int chart_sub_y(chart_style s)
{
    return s == CHART_BRAILLE ? 4 : s == CHART_BLOCK ? 2 : 1;
}

const char *chart_style_name(chart_style s)
{
    static const char *const names[] = {"braille", "blocks", "ascii"};
    return s < CHART_NSTYLES ? names[s] : "?";
}

/* The Linux console and other VT fonts: 256 or 512 glyphs, blocks but no
 * braille. */
static int term_is_console(const char *term)
{
    if (!term)
        return 0;
    return strncmp(term, "linux", 5) == 0 || strncmp(term, "con", 3) == 0 ||
           strncmp(term, "vt", 2) == 0;
}

int chart_style_allowed(chart_style s, const char *term, int utf8, int color)
{
    switch (s) {
    case CHART_ASCII:
        return 1;
    case CHART_BLOCK:
        return utf8 && color;
    case CHART_BRAILLE:
        return utf8 && color && !term_is_console(term);
    default:
        return 0;
    }
}

chart_style chart_style_for(const char *term, int utf8, int color)
{
    for (int st = 0; st < CHART_NSTYLES; st++)
        if (chart_style_allowed((chart_style)st, term, utf8, color))
            return (chart_style)st;
    return CHART_ASCII;
}

/* --- scaling ------------------------------------------------------------ */

double chart_nice_step(double lo, double hi, int max_ticks)
{
    double range = hi - lo;
    if (!(range > 0) || max_ticks < 1 || !isfinite(range))
        return 1;
    double raw = range / max_ticks;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    /* Slightly above 1/2/5 still rounds down: floating noise in range/n
     * must not double the step. */
    double mult = norm <= 1.000001 ? 1 : norm <= 2.000001 ? 2 : norm <= 5.000001 ? 5 : 10;
    return mult * mag;
}

void chart_nice_range(double *lo, double *hi, int max_ticks)
{
    if (!isfinite(*lo))
        *lo = 0;
    if (!isfinite(*hi))
        *hi = *lo;
    if (*hi <= *lo)
        *hi = *lo + (*lo != 0 ? fabs(*lo) : 1);
    double step = chart_nice_step(*lo, *hi, max_ticks);
    *lo = floor_tol(*lo / step) * step;
    *hi = ceil_tol(*hi / step) * step;
}

int chart_ticks(double lo, double hi, int max_ticks, double *ticks, int cap)
{
    if (cap < 1 || !(hi > lo))
        return 0;
    double step = chart_nice_step(lo, hi, max_ticks);
    double first = ceil_tol(lo / step) * step;
    int n = 0;
    for (double v = first; v <= hi + step * GP_ROUND_EPS && n < cap; v = first + step * n) {
        /* -0 prints as "-0"; snap values that are zero within rounding. */
        ticks[n++] = fabs(v) < step * GP_ROUND_EPS ? 0 : v;
    }
    return n;
}

int chart_scale(double v, double lo, double hi, int n)
{
    if (n <= 1 || !(hi > lo) || !isfinite(v))
        return 0;
    double f = (v - lo) / (hi - lo) * (n - 1);
    long p = lround(f);
    if (p < 0)
        return 0;
    if (p > n - 1)
        return n - 1;
    return (int)p;
}

/* Drops trailing zeros of a fixed-point number ("2.50" → "2.5", "3.0" → "3"). */
static void strip_zeros(char *s)
{
    char *dot = strchr(s, '.');
    if (!dot)
        return;
    char *e = s + strlen(s);
    while (e > dot + 1 && e[-1] == '0')
        *--e = '\0';
    if (e == dot + 1)
        *dot = '\0';
}

void chart_fmt(double v, char *buf, size_t len)
{
    static const char units[] = "kMGT";
    double a = fabs(v);
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "-" : v > 0 ? "inf" : "-inf");
        return;
    }
    if (a < 1e-9) {
        snprintf(buf, len, "0");
        return;
    }
    if (a >= 1e3) {
        int u = 0;
        while (a >= 999.5 && u < 4) {
            a /= 1e3;
            v /= 1e3;
            u++;
        }
        snprintf(buf, len, a < 9.95 ? "%.1f" : "%.0f", v);
        strip_zeros(buf);
        size_t l = strlen(buf);
        if (l + 1 < len) {
            buf[l] = units[u - 1];
            buf[l + 1] = '\0';
        }
        return;
    }
    if (a >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (a >= 10)
        snprintf(buf, len, "%.1f", v);
    else if (a >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.2g", v);
    if (a >= 1 || !strchr(buf, 'e'))
        strip_zeros(buf);
    /* 4e-5, not 4e-05: the exponent's padding would push a table's small
     * values (kWh after a few seconds) past their 6 columns, and cells of
     * one column would read 4e-05 next to 3.9e-5. */
    char *e = strstr(buf, "e-0");
    if (e)
        memmove(e + 2, e + 3, strlen(e + 3) + 1);
}

static const struct { double div; char unit; } time_units[] = {
    {1, 's'}, {60, 'm'}, {3600, 'h'}, {86400, 'd'},
};

static void fmt_in_unit(double s, int k, char *buf, size_t len)
{
    double v = s / time_units[k].div;
    snprintf(buf, len, fabs(v) < 10 ? "%.1f" : "%.0f", v);
    strip_zeros(buf);
    size_t l = strlen(buf);
    if (l + 1 < len) {
        buf[l] = time_units[k].unit;
        buf[l + 1] = '\0';
    }
}

static int unit_of_span(double span)
{
    return span < 120 ? 0 : span < 7200 ? 1 : span < 172800 ? 2 : 3;
}

void chart_fmt_time_in(double s, double span, char *buf, size_t len)
{
    fmt_in_unit(s, unit_of_span(span), buf, len);
}

void chart_fmt_time_about(double s, char *buf, size_t len)
{
    if (!isfinite(s) || fabs(s) < 59.5) {
        chart_fmt_time(s, buf, len);
        return;
    }
    /* An estimate's seconds (and over a day its minutes) are noise. */
    double step = fabs(s) >= 86400 ? 3600 : 60;
    chart_fmt_time(round(s / step) * step, buf, len);
}

double chart_time_unit(double span)
{
    return time_units[unit_of_span(span)].div;
}

void chart_fmt_time(double s, char *buf, size_t len)
{
    if (!isfinite(s)) {
        snprintf(buf, len, "-");
        return;
    }
    /* Under a minute a clock would read 00:00:00 for sub-second times. */
    if (fabs(s) < 59.5) {
        fmt_in_unit(s, 0, buf, len);
        return;
    }
    /* Whole seconds: 1d 02:15:00 reads at a glance, 3e+06 s does not. */
    double r = floor(fabs(s) + 0.5);
    long long days = (long long)(r / 86400);
    long rest = (long)(r - (double)days * 86400);
    const char *sign = s < 0 ? "-" : "";
    if (days > 0)
        snprintf(buf, len, "%s%lldd %02ld:%02ld:%02ld", sign, days, rest / 3600, rest / 60 % 60,
                 rest % 60);
    else
        snprintf(buf, len, "%s%02ld:%02ld:%02ld", sign, rest / 3600, rest / 60 % 60, rest % 60);
}

/* --- the cell grid -------------------------------------------------------- */

chart_grid *chart_grid_new(int w, int h, chart_style style)
{
    chart_grid *g = xcalloc(1, sizeof *g);
    return chart_grid_resize(g, w, h, style);
}

void chart_grid_free(chart_grid *g)
{
    if (!g)
        return;
    free(g->bits);
    free(g->owner);
    free(g);
}

chart_grid *chart_grid_resize(chart_grid *g, int w, int h, chart_style style)
{
    if (w < 0)
        w = 0;
    if (h < 0)
        h = 0;
    size_t n = (size_t)w * (size_t)h;
    if ((size_t)g->w * (size_t)g->h < n || !g->bits) {
        free(g->bits);
        free(g->owner);
        g->bits = xcalloc(n ? n : 1, 1);
        g->owner = xcalloc(n ? n : 1, 1);
    }
    g->w = w;
    g->h = h;
    g->style = style;
    chart_grid_clear(g);
    return g;
}

void chart_grid_clear(chart_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    memset(g->bits, 0, n);
    memset(g->owner, 0, n);
}

uint8_t chart_braille_bit(int dx, int dy)
{
    static const uint8_t bit[4][2] = {
        {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80},
    };
    if (dx < 0 || dx > 1 || dy < 0 || dy > 3)
        return 0;
    return bit[dy][dx];
}

void chart_plot_point(chart_grid *g, int px, int py, int s)
{
    int sx = chart_sub_x(g->style), sy = chart_sub_y(g->style);
    if (px < 0 || py < 0 || px >= g->w * sx || py >= g->h * sy)
        return;
    int cx = px / sx;
    int top = g->h * sy - 1 - py;       /* sub-row counted from the top */
    int cy = top / sy, dy = top % sy;
    size_t i = (size_t)cy * (size_t)g->w + (size_t)cx;
    if (g->style == CHART_BRAILLE)
        g->bits[i] |= chart_braille_bit(px % sx, dy);
    else if (g->style == CHART_BLOCK)
        g->bits[i] |= (uint8_t)(dy == 0 ? 1 : 2);
    else
        g->bits[i] = 1;
    g->owner[i] = (uint8_t)(s + 1);
}

void chart_plot_line(chart_grid *g, int x0, int y0, int x1, int y1, int s)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int e = dx + dy;
    for (;;) {
        chart_plot_point(g, x0, y0, s);
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * e;
        if (e2 >= dy) {
            e += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            e += dx;
            y0 += sy;
        }
    }
}

static double at(const double *base, size_t i, size_t stride)
{
    return *(const double *)(const void *)((const char *)base + i * stride);
}

static void vline(chart_grid *g, int x, int y0, int y1, int s)
{
    for (int y = y0 < y1 ? y0 : y1, e = y0 < y1 ? y1 : y0; y <= e; y++)
        chart_plot_point(g, x, y, s);
}

static void hline(chart_grid *g, int x0, int x1, int y, int s)
{
    for (int x = x0; x <= x1; x++)
        chart_plot_point(g, x, y, s);
}

/* Thousands of samples share each pixel column of a long timeline, so the
 * series is drawn column by column: the vertical span a column's samples
 * cover (from the value entering it to every value inside it) once, then
 * the held value across to the next column.  The work is O(points +
 * columns), whatever the zoom. */
size_t chart_plot_steps(chart_grid *g, const double *x, const double *y, size_t n,
                        size_t stride, double xlo, double xhi, double ylo, double yhi,
                        double hold_to, int s)
{
    if (!(hold_to > xlo) || hold_to > xhi)
        hold_to = xhi;
    int pw = g->w * chart_sub_x(g->style), ph = g->h * chart_sub_y(g->style);
    size_t used = 0;
    int col = -1, lo = 0, hi = 0, cur = -1;
    for (size_t i = 0; i < n; i++) {
        double xi = at(x, i, stride);
        double xn = i + 1 < n ? at(x, i + 1, stride) : hold_to;
        if (xn < xlo || xi > xhi)
            continue;
        int px = chart_scale(xi < xlo ? xlo : xi, xlo, xhi, pw);
        int py = chart_scale(at(y, i, stride), ylo, yhi, ph);
        if (px != col) {
            if (col >= 0) {
                vline(g, col, lo, hi, s);
                hline(g, col, px, cur, s);
            }
            col = px;
            lo = hi = cur >= 0 ? cur : py;
        }
        if (py < lo)
            lo = py;
        if (py > hi)
            hi = py;
        cur = py;
        used++;
    }
    if (col >= 0) {
        /* The last value holds until hold_to ("now"), or the right edge. */
        int end = chart_scale(hold_to, xlo, xhi, pw);
        vline(g, col, lo, hi, s);
        hline(g, col, end > col ? end : col, cur, s);
    }
    return used;
}

size_t chart_plot_poly(chart_grid *g, const double *x, const double *y, size_t n,
                       size_t stride, double xlo, double xhi, double ylo, double yhi, int s)
{
    int pw = g->w * chart_sub_x(g->style), ph = g->h * chart_sub_y(g->style);
    size_t used = 0;
    int px0 = 0, py0 = 0;
    for (size_t i = 0; i < n; i++) {
        double xi = at(x, i, stride), yi = at(y, i, stride);
        if (!isfinite(xi) || !isfinite(yi) || xi < xlo || xi > xhi)
            continue;
        int px = chart_scale(xi, xlo, xhi, pw), py = chart_scale(yi, ylo, yhi, ph);
        if (used)
            chart_plot_line(g, px0, py0, px, py, s);
        else
            chart_plot_point(g, px, py, s);
        px0 = px;
        py0 = py;
        used++;
    }
    return used;
}

uint32_t chart_cell_char(const chart_grid *g, int cx, int cy)
{
    if (cx < 0 || cy < 0 || cx >= g->w || cy >= g->h)
        return ' ';
    size_t i = (size_t)cy * (size_t)g->w + (size_t)cx;
    uint8_t b = g->bits[i];
    if (!b)
        return ' ';
    switch (g->style) {
    case CHART_BRAILLE:
        return 0x2800u + b;
    case CHART_BLOCK:
        return b == 1 ? 0x2580u : b == 2 ? 0x2584u : 0x2588u;
    default:
        return (uint32_t)(unsigned char)chart_marker(g->owner[i] - 1);
    }
}

int chart_cell_owner(const chart_grid *g, int cx, int cy)
{
    if (cx < 0 || cy < 0 || cx >= g->w || cy >= g->h)
        return 0;
    return g->owner[(size_t)cy * (size_t)g->w + (size_t)cx];
}

char chart_marker(int s)
{
    static const char m[] = "*+ox#@%&";
    return s >= 0 && s < CHART_MAX_SERIES ? m[s] : '?';
}

/* --- sparklines ----------------------------------------------------------- */

int chart_spark_levels(const float *v, size_t n, double lo, double hi, int w, int *out)
{
    if (w <= 0)
        return 0;
    int filled = 0;
    for (int b = 0; b < w; b++) {
        size_t a, e;
        if (n >= (size_t)w) {
            a = (size_t)b * n / (size_t)w;
            e = (size_t)(b + 1) * n / (size_t)w;
        } else {
            a = (size_t)b;
            e = a + 1;
        }
        if (a >= n || e <= a) {
            out[b] = -1;
            continue;
        }
        double sum = 0;
        for (size_t i = a; i < e; i++)
            sum += v[i];
        double m = sum / (double)(e - a);
        out[b] = chart_scale(m, lo, hi, 8);
        filled++;
    }
    return filled;
}

uint32_t chart_spark_char(int level, int utf8)
{
    static const char ascii[] = "_.:-=+*#";
    if (level < 0)
        return ' ';
    if (level > 7)
        level = 7;
    return utf8 ? 0x2581u + (uint32_t)level : (uint32_t)(unsigned char)ascii[level];
}

int chart_utf8(uint32_t cp, char *out)
{
    int n;
    if (cp < 0x80) {
        out[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    out[n] = '\0';
    return n;
}
