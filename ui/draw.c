/*
 * draw.c — shared drawing helpers (draw.h).
 *
 * The terminal's capabilities are part of the app's top-level state; this
 * file keeps a pointer to them (set once by draw_init) so helpers called
 * from everywhere need not pass them along.
 */
#include "draw.h"
#include "textfit.h"
#include "core/textwidth.h"

#include <assert.h>
#include <langinfo.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static const ui_caps *caps;

/* Foreground/background of each role (-1 = the terminal's default). */
static const short pair_fg[C_NCOLORS] = {
    [C_NORMAL] = -1, [C_BAR] = COLOR_BLACK, [C_TAB] = COLOR_BLACK, [C_TAB_ON] = COLOR_BLACK,
    [C_ERR] = COLOR_WHITE, [C_SEL] = COLOR_BLACK, [C_SEL_OFF] = COLOR_BLACK, [C_DIM] = -1,
    [C_TITLE] = COLOR_CYAN, [C_GOOD] = COLOR_GREEN, [C_BAD] = COLOR_RED,
    [C_WARN] = COLOR_YELLOW, [C_CHOSEN] = COLOR_BLACK, [C_SERIES0] = COLOR_GREEN,
    [C_SERIES1] = COLOR_YELLOW, [C_SERIES2] = COLOR_CYAN, [C_SERIES3] = COLOR_MAGENTA,
    [C_SERIES4] = COLOR_RED, [C_SERIES5] = COLOR_BLUE, [C_HEAT0] = -1,
    [C_HEAT1] = COLOR_GREEN, [C_HEAT2] = COLOR_YELLOW, [C_HEAT3] = COLOR_RED,
    [C_HEAT4] = COLOR_MAGENTA, [C_ASLEEP] = COLOR_BLUE, [C_IDLE] = COLOR_YELLOW,
    [C_ACTIVE] = COLOR_GREEN,
};
static const short pair_bg[C_NCOLORS] = {
    [C_NORMAL] = -1, [C_BAR] = COLOR_CYAN, [C_TAB] = COLOR_WHITE, [C_TAB_ON] = COLOR_CYAN,
    [C_ERR] = COLOR_RED, [C_SEL] = COLOR_CYAN, [C_SEL_OFF] = COLOR_WHITE, [C_DIM] = -1,
    [C_TITLE] = -1, [C_GOOD] = -1, [C_BAD] = -1, [C_WARN] = -1, [C_CHOSEN] = COLOR_GREEN,
    [C_SERIES0] = -1, [C_SERIES1] = -1, [C_SERIES2] = -1, [C_SERIES3] = -1,
    [C_SERIES4] = -1, [C_SERIES5] = -1, [C_HEAT0] = -1, [C_HEAT1] = -1, [C_HEAT2] = -1,
    [C_HEAT3] = -1, [C_HEAT4] = -1, [C_ASLEEP] = -1, [C_IDLE] = -1, [C_ACTIVE] = -1,
};
/* Attributes added in colour, and the whole look in monochrome. */
static const attr_t color_extra[C_NCOLORS] = {
    [C_TAB_ON] = A_BOLD, [C_ERR] = A_BOLD, [C_TITLE] = A_BOLD, [C_DIM] = A_DIM,
    [C_HEAT0] = A_DIM, [C_CHOSEN] = A_BOLD, [C_BAD] = A_BOLD,
};
static const attr_t mono[C_NCOLORS] = {
    [C_BAR] = A_REVERSE, [C_TAB] = A_REVERSE, [C_TAB_ON] = A_BOLD, [C_ERR] = A_REVERSE | A_BOLD,
    [C_SEL] = A_REVERSE, [C_SEL_OFF] = A_UNDERLINE, [C_DIM] = A_DIM, [C_TITLE] = A_BOLD,
    [C_BAD] = A_BOLD, [C_WARN] = A_BOLD, [C_CHOSEN] = A_REVERSE | A_BOLD, [C_HEAT0] = A_DIM,
    [C_HEAT3] = A_BOLD, [C_HEAT4] = A_BOLD | A_UNDERLINE, [C_ASLEEP] = A_DIM,
    [C_ACTIVE] = A_BOLD,
};

void draw_init(ui_caps *c)
{
    caps = c;
    const char *ascii = getenv("GPUPLAN_ASCII");
    c->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 && !(ascii && *ascii);
    const char *nc = getenv("NO_COLOR");
    c->color = has_colors() && !(nc && *nc);
    c->term = getenv("TERM");
    c->style = chart_style_for(c->term, c->utf8, c->color);
    if (!c->color)
        return;
    start_color();
    use_default_colors();
    for (int i = 1; i < C_NCOLORS; i++)
        init_pair((short)i, pair_fg[i], pair_bg[i]);
}

attr_t ui_attr(ui_color c)
{
    if (c <= C_NORMAL || c >= C_NCOLORS)
        return A_NORMAL;
    if (caps && caps->color)
        return COLOR_PAIR(c) | color_extra[c];
    return mono[c];
}

attr_t ui_hl_attr(lv_hl hl, attr_t plain)
{
    return hl == LV_HL_FOCUSED ? ui_attr(C_SEL) : hl == LV_HL_UNFOCUSED ? ui_attr(C_SEL_OFF)
                                                                       : plain;
}

ui_color ui_series_color(int i)
{
    return (ui_color)(C_SERIES0 + (i % 6));
}

const char *ui_series_mark(const ui_caps *c, int i, char *buf, size_t len)
{
    if (c->style == CHART_ASCII)
        snprintf(buf, len, "%c", chart_marker(i));
    else
        snprintf(buf, len, "%s", c->utf8 ? "■" : "#");
    return buf;
}

const char *sym(ui_sym s)
{
    static const char *const u[SYM_NSYMS] = {"▶", "‖", "×", "►", "—", "·", "→", "←", "…"};
    static const char *const a[SYM_NSYMS] = {">", "||", "x", ">", "-", ".", "->", "<-", "..."};
    if (s >= SYM_NSYMS)
        return "?";
    return caps && caps->utf8 ? u[s] : a[s];
}

/* Decodes UTF-8 into wide characters, replacing what does not decode (or
 * anything non-ASCII on a non-UTF-8 terminal) with '?'. */
static size_t widen(const char *s, wchar_t *out, size_t cap)
{
    size_t n = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    while (*s && n + 1 < cap) {
        if ((unsigned char)*s < 0x80) {
            out[n++] = (wchar_t)*s++;
            continue;
        }
        wchar_t wc;
        size_t k = caps && caps->utf8 ? mbrtowc(&wc, s, MB_CUR_MAX, &st) : (size_t)-1;
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            out[n++] = L'?';
            s++;
            while (((unsigned char)*s & 0xC0) == 0x80)
                s++;
            continue;
        }
        out[n++] = wc;
        s += k;
    }
    out[n] = 0;
    return n;
}

int text_width(const char *s)
{
    wchar_t w[1024];
    size_t n = widen(s, w, sizeof w / sizeof *w);
    int cols = 0;
    for (size_t i = 0; i < n; i++)
        cols += textwidth_char((uint32_t)w[i]);
    return cols;
}

int draw_text(int y, int x, int w, attr_t a, const char *s)
{
    if (w <= 0 || y < 0 || x < 0)
        return 0;
    wchar_t buf[1024];
    size_t n = widen(s, buf, sizeof buf / sizeof *buf);
    int cols = 0;
    size_t k = 0;
    for (; k < n; k++) {
        int cw = textwidth_char((uint32_t)buf[k]);
        if (wcwidth(buf[k]) < 0)            /* curses would not draw it */
            buf[k] = L'?';
        if (cols + cw > w)
            break;
        cols += cw;
    }
    attr_t old;
    short pair;
    attr_get(&old, &pair, NULL);
    attrset(a);
    mvaddnwstr(y, x, buf, (int)k);
    attr_set(old, pair, NULL);
    return cols;
}

int draw_textf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_text(y, x, w, a, buf);
}

/* draw_wrap, drawing only when draw is 1 (text_wrap_lines counts). */
static int wrap(int y, int x, int w, int max_lines, attr_t a, const char *s, int draw)
{
    int lines = 0;
    while (*s && lines < max_lines && w > 0) {
        /* Take as many whole words as fit in w columns (ASCII text). */
        size_t len = strlen(s), cut = len;
        if ((int)len > w) {
            cut = (size_t)w;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = (size_t)w;
        }
        if (draw) {
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)cut, s);
            draw_text(y + lines, x, w, a, line);
        }
        lines++;
        s += cut;
        while (*s == ' ')
            s++;
    }
    return lines;
}

int draw_wrap(int y, int x, int w, int max_lines, attr_t a, const char *s)
{
    return wrap(y, x, w, max_lines, a, s, 1);
}

int text_wrap_lines(int w, int max_lines, const char *s)
{
    return wrap(0, 0, w, max_lines, A_NORMAL, s, 0);
}

void draw_line(int y, int x, int w, attr_t a, const char *s)
{
    /* A row too long for its pane says so with an ellipsis. */
    char fit[1024];
    if (w > 0 && text_width(s) > w) {
        textfit(s, w, TEXTFIT_END, sym(SYM_ELLIPSIS), fit, sizeof fit);
        s = fit;
    }
    int used = draw_text(y, x, w, a, s);
    if (used < w) {
        attr_t old;
        short pair;
        attr_get(&old, &pair, NULL);
        attrset(a);
        mvhline(y, x + used, ' ', w - used);
        attr_set(old, pair, NULL);
    }
}

/* 1 when r lies on the screen (layout.h's promise to every pane). */
static inline int on_screen(rect r)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    return layout_within(r, (rect){0, 0, rows, cols});
}

void draw_fill(rect r, attr_t a)
{
    assert(on_screen(r));
    attrset(a);
    for (int i = 0; i < r.h; i++)
        mvhline(r.y + i, r.x, ' ', r.w);
    attrset(A_NORMAL);
}

void draw_box(rect r, const char *title, int focused)
{
    assert(on_screen(r));
    if (r.h < 2 || r.w < 2)
        return;
    attr_t a = focused ? ui_attr(C_TITLE) : ui_attr(C_DIM);
    attrset(focused ? A_BOLD : A_NORMAL);
    mvaddch(r.y, r.x, ACS_ULCORNER);
    mvhline(r.y, r.x + 1, ACS_HLINE, r.w - 2);
    mvaddch(r.y, r.x + r.w - 1, ACS_URCORNER);
    mvvline(r.y + 1, r.x, ACS_VLINE, r.h - 2);
    mvvline(r.y + 1, r.x + r.w - 1, ACS_VLINE, r.h - 2);
    mvaddch(r.y + r.h - 1, r.x, ACS_LLCORNER);
    mvhline(r.y + r.h - 1, r.x + 1, ACS_HLINE, r.w - 2);
    mvaddch(r.y + r.h - 1, r.x + r.w - 1, ACS_LRCORNER);
    attrset(A_NORMAL);
    if (title && *title && r.w > 6) {
        char t[256];
        snprintf(t, sizeof t, " %s ", title);
        draw_text(r.y, r.x + 2, r.w - 4, a | (focused ? A_BOLD : 0), t);
    }
}

void draw_glyph(int y, int x, uint32_t cp, attr_t a)
{
    if (cp < 0x80) {
        mvaddch(y, x, (chtype)cp | a);
        return;
    }
    cchar_t cc;
    wchar_t w[2] = {(wchar_t)cp, 0};
    setcchar(&cc, w, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
    mvadd_wch(y, x, &cc);
}

/* The width each column gets in a row of w columns: as declared, but the
 * last column takes the rest of the row (a note or reason reads whole on
 * a wide terminal), and when it would be left too narrow the first column
 * (a name, cut in the middle) gives up columns to it.  Columns that do not
 * fit at all get 0. */
void ui_cols_fit(const ui_col *cols, const int *drop, int ncols, int w, ui_col *out)
{
    int need = -1, name = -1;
    for (int i = 0; i < ncols; i++) {
        out[i] = cols[i];
        need += cols[i].w + 1;
        if (name < 0 && !cols[i].right && i < ncols - 1)
            name = i;
    }
    if (need > w && name >= 0 && out[name].w > UI_COL_NAME_MIN) {
        int give = need - w < out[name].w - UI_COL_NAME_MIN ? need - w
                                                              : out[name].w - UI_COL_NAME_MIN;
        out[name].w -= give;
        need -= give;
    }
    while (need > w) {
        int worst = -1;
        for (int i = 0; i < ncols; i++)
            if (out[i].w >= 0 && drop[i] > 0 && (worst < 0 || drop[i] > drop[worst]))
                worst = i;
        if (worst < 0)
            break;
        need -= out[worst].w + 1;
        out[worst].w = -1;
    }
}

static void cell_widths(int w, const ui_col *cols, int ncols, int *cw)
{
    int used = 0;
    for (int i = 0; i < ncols; i++) {
        int room = w - used;
        cw[i] = cols[i].w >= 0 && cols[i].w <= room ? cols[i].w : 0;
        if (i == ncols - 1 && !cols[i].right && room > 0 && cols[i].w >= 0)
            cw[i] = room;
        used += cw[i] ? cw[i] + 1 : 0;
    }
    int last = ncols - 1, want = last > 0 ? cols[last].w < 30 ? cols[last].w : 30 : 0;
    if (last > 0 && !cols[last].right && !cols[0].right && cw[last] < want && cw[0] > 10) {
        int give = want - cw[last] < cw[0] - 10 ? want - cw[last] : cw[0] - 10;
        cw[0] -= give;
        cw[last] += give;
    }
}

const char *draw_sort_mark(int desc)
{
    return desc ? (caps && caps->utf8 ? "▼" : "v") : (caps && caps->utf8 ? "▲" : "^");
}

static void draw_cells(int y, int x, int w, const ui_col *cols, int ncols,
                       const char *const *cells, attr_t a, int sort_col, int sort_desc)
{
    int cw[32];
    if (ncols > 32)
        ncols = 32;
    cell_widths(w, cols, ncols, cw);
    int cx = x, prev_end = x;   /* just after the text drawn last */
    for (int i = 0; i < ncols; i++) {
        if (cw[i] <= 0)
            continue;
        const char *s = cells[i] ? cells[i] : "";
        char fit[512], cell[512];
        if (i == sort_col) {
            /* The column the rows are ordered by, marked in the header. */
            snprintf(cell, sizeof cell, "%s%s", s, draw_sort_mark(sort_desc));
            s = cell;
        }
        /* Numbers (and the durations of right-aligned columns) are never
         * cut; names lose their middle, the last column (prose) its end. */
        if (cols[i].right)
            textfit_number(s, cw[i], fit, sizeof fit);
        else
            textfit(s, cw[i], i == ncols - 1 ? TEXTFIT_END : TEXTFIT_MIDDLE, sym(SYM_ELLIPSIS),
                    fit, sizeof fit);
        int tw = text_width(fit);
        int pad = cols[i].right && tw < cw[i] ? cw[i] - tw : 0;
        /* A number wider than its column even when compact is shown
         * whole, reaching left into the gap and whatever the cell before
         * it left blank (never over that cell's text). */
        int nx = cx + pad - (tw > cw[i] ? tw - cw[i] : 0);
        int leftmost = prev_end > x ? prev_end + 1 : x;  /* one blank after it */
        if (nx < leftmost)
            nx = leftmost < cx ? leftmost : cx;
        int room = cx + cw[i] - nx;
        draw_text(y, nx, tw > cw[i] ? room : cw[i] - pad, a, fit);
        prev_end = nx + (tw < room ? tw : room);
        cx += cw[i] + 1;
    }
}

void draw_row(int y, int x, int w, const ui_col *cols, int ncols, const char *const *cells,
              attr_t a)
{
    if (a != A_NORMAL)
        draw_line(y, x, w, a, "");
    draw_cells(y, x, w, cols, ncols, cells, a, -1, 0);
}

void draw_header_sorted(int y, int x, int w, const ui_col *cols, int ncols, int sort_col,
                        int sort_desc)
{
    const char *heads[32];
    for (int i = 0; i < ncols && i < 32; i++)
        heads[i] = cols[i].head;
    draw_cells(y, x, w, cols, ncols < 32 ? ncols : 32, heads, A_BOLD | A_UNDERLINE, sort_col,
               sort_desc);
}

void draw_header(int y, int x, int w, const ui_col *cols, int ncols)
{
    draw_header_sorted(y, x, w, cols, ncols, -1, 0);
}

void draw_spark(int y, int x, int w, const float *v, size_t n, double lo, double hi,
                attr_t a)
{
    int lv[512];
    if (w > 512)
        w = 512;
    if (w <= 0)
        return;
    chart_spark_levels(v, n, lo, hi, w, lv);
    for (int i = 0; i < w; i++)
        draw_glyph(y, x + i, chart_spark_char(lv[i], caps && caps->utf8), a);
}

void draw_progress(int y, int x, int w, double frac, const char *label)
{
    if (frac < 0)
        frac = 0;
    if (frac > 1)
        frac = 1;
    int bar = w / 3 < 10 ? 10 : w / 3;
    if (bar > w - 8)
        bar = w - 8;
    if (bar < 3)
        return;
    int fill = (int)(frac * bar + 0.5);
    mvaddch(y, x, '[');
    for (int i = 0; i < bar; i++)
        draw_glyph(y, x + 1 + i, i < fill ? (caps && caps->utf8 ? 0x2588u : '#') : ' ',
                   i < fill ? ui_attr(C_GOOD) : A_NORMAL);
    mvaddch(y, x + bar + 1, ']');
    draw_textf(y, x + bar + 3, w - bar - 3, A_NORMAL, "%3.0f%%  %s", frac * 100, label);
}

/* --- charts --------------------------------------------------------------- */

static double series_max(const ui_series *s, int ns, double xhi)
{
    double m = 0;
    for (int i = 0; i < ns; i++)
        for (size_t k = 0; k < s[i].n; k++) {
            const char *base = (const char *)s[i].x + k * s[i].stride;
            if (*(const double *)(const void *)base > xhi)
                break;
            double v = *(const double *)(const void *)((const char *)s[i].y + k * s[i].stride);
            if (isfinite(v) && v > m)
                m = v;
        }
    return m;
}

/* Tick labels of a value axis: numbers, or durations in one unit. */
static void fmt_tick(double v, double span, int time, char *buf, size_t len)
{
    if (time)
        chart_fmt_time_in(v, span, buf, len);
    else
        chart_fmt(v, buf, len);
}

static void chart_axes(const chart_layout *L, double xlo, double xhi, double ylo, double yhi,
                       int time_axis, const ui_axes *ax)
{
    double t[16];
    int y_time = ax && ax->y_time;
    double yunit = y_time ? chart_time_unit(yhi - ylo) : 1;
    int n = chart_ticks(ylo / yunit, yhi / yunit, L->plot.h > 6 ? 4 : 2, t, 16);
    for (int i = 0; i < n; i++) {
        t[i] *= yunit;
        int row = L->plot.y + L->plot.h - 1 - chart_scale(t[i], ylo, yhi, L->plot.h);
        char buf[16];
        fmt_tick(t[i], yhi - ylo, y_time, buf, sizeof buf);
        int tw = (int)strlen(buf);
        draw_text(row, L->ylab.x + (tw < L->ylab.w - 1 ? L->ylab.w - 1 - tw : 0),
                  L->ylab.w - 1, ui_attr(C_DIM), buf);
    }
    /* The y axis's unit under its labels, where the x labels' row starts. */
    if (ax && ax->y_unit && L->xlab.h > 0)
        draw_text(L->xlab.y, L->ylab.x, L->ylab.w - 1, ui_attr(C_DIM) | A_BOLD, ax->y_unit);
    double unit = time_axis ? chart_time_unit(xhi - xlo) : 1;
    n = chart_ticks(xlo / unit, xhi / unit, L->plot.w / 10 > 1 ? L->plot.w / 10 : 1, t, 16);
    for (int i = 0; i < n; i++)
        t[i] *= unit;
    int next_free = L->xlab.x;
    for (int i = 0; i < n; i++) {
        int col = L->xlab.x + chart_scale(t[i], xlo, xhi, L->plot.w);
        char buf[16];
        fmt_tick(t[i], xhi - xlo, time_axis, buf, sizeof buf);
        int tw = (int)strlen(buf);
        if (col + tw > L->xlab.x + L->xlab.w)
            col = L->xlab.x + L->xlab.w - tw;
        if (col < next_free)
            continue;
        draw_text(L->xlab.y, col, tw, ui_attr(C_DIM), buf);
        next_free = col + tw + 1;
    }
    /* The x axis's unit on the box's bottom border, right (a time axis's
     * ticks carry theirs). */
    const char *xu = ax && ax->x_unit ? ax->x_unit : NULL;
    if (xu && L->box.w > 12) {
        char lab[32];
        snprintf(lab, sizeof lab, " %s ", xu);
        int w = text_width(lab);
        draw_text(L->box.y + L->box.h - 1, L->box.x + L->box.w - 2 - w, w, ui_attr(C_DIM), lab);
    }
}

void draw_chart_axes(const ui_caps *c, rect box, const char *title, const ui_series *s, int ns,
                     double xlo, double xhi, int time_axis, const ui_axes *ax)
{
    draw_box(box, title, 0);
    chart_layout L = layout_chart(box);
    if (L.plot.h < 1 || L.plot.w < 2)
        return;
    double ylo = 0, yhi = series_max(s, ns, xhi);
    if (ax && ax->y_time) {
        /* Nice steps in the unit the ticks read in (10h 20h, not 7.2h). */
        double u = chart_time_unit(yhi);
        yhi /= u;
        chart_nice_range(&ylo, &yhi, L.plot.h > 6 ? 4 : 2);
        yhi *= u;
    } else {
        chart_nice_range(&ylo, &yhi, L.plot.h > 6 ? 4 : 2);
    }
    if (!(xhi > xlo))
        xhi = xlo + 1;
    chart_grid *g = chart_grid_new(L.plot.w, L.plot.h, c->style);
    for (int i = 0; i < ns; i++) {
        if (s[i].poly)
            chart_plot_poly(g, s[i].x, s[i].y, s[i].n, s[i].stride, xlo, xhi, ylo, yhi, i);
        else
            chart_plot_steps(g, s[i].x, s[i].y, s[i].n, s[i].stride, xlo, xhi, ylo, yhi,
                             s[i].hold_to, i);
    }
    for (int cy = 0; cy < g->h; cy++)
        for (int cx = 0; cx < g->w; cx++) {
            int own = chart_cell_owner(g, cx, cy);
            if (own)
                draw_glyph(L.plot.y + cy, L.plot.x + cx, chart_cell_char(g, cx, cy),
                           ui_attr(s[own - 1].color));
        }
    chart_grid_free(g);
    chart_axes(&L, xlo, xhi, ylo, yhi, time_axis, ax);
}

/* --- frame ------------------------------------------------------------- */

/* The tab bar's pieces: " gpuplan " then " 1 Compare " ...; tab_start
 * gives where tab i begins (i = SCR_COUNT: where the tabs end), so the
 * drawing and a mouse click agree. */
static void tab_title(int i, char *t, size_t len)
{
    const ui_screen *s = ui_screen_of((scr_id)i);
    snprintf(t, len, " %c %s ", s->hotkey, s->name);
}

static int tab_start(int i)
{
    int x = text_width(" gpuplan ") + 1;
    for (int k = 0; k < i; k++) {
        char t[32];
        tab_title(k, t, sizeof t);
        x += text_width(t);
    }
    return x;
}

int draw_tab_at(const app *a, int x)
{
    for (int i = 0; i < SCR_COUNT; i++)
        if (x >= tab_start(i) && x < tab_start(i + 1) && tab_start(i + 1) <= a->cols)
            return i;
    return -1;
}

void draw_tabs(const app *a)
{
    draw_line(0, 0, a->cols, ui_attr(C_BAR), "");
    draw_text(0, 0, a->cols, ui_attr(C_BAR) | A_BOLD, " gpuplan ");
    int x = tab_start(0);
    for (int i = 0; i < SCR_COUNT; i++) {
        char t[32];
        tab_title(i, t, sizeof t);
        int on = (scr_id)i == a->scr;
        x += draw_text(0, x, a->cols - x, ui_attr(on ? C_TAB_ON : C_BAR) | (on ? A_BOLD : 0), t);
    }
    const char *db = a->st ? store_path(a->st) : "";
    const char *base = strrchr(db, '/');
    base = base ? base + 1 : db;
    int bw = text_width(base);
    if (x + bw + 6 < a->cols)
        draw_textf(0, a->cols - bw - 5, bw + 5, ui_attr(C_BAR), "db: %s", base);
}

void draw_empty_screen(const app *a, const char *name, const char *message, const char *hints)
{
    rect body = layout_body(a->rows, a->cols);
    draw_box(body, name, 0);
    draw_text(body.y + 2, 2, a->cols - 4, A_NORMAL, message);
    draw_status(a, name, hints);
}

void draw_busy(int y, int x, int w, const char *head, double f, double elapsed_s)
{
    char h[160];
    snprintf(h, sizeof h, " %s %3.0f %% ", head, 100 * f);
    int end = x + w;
    x += 1 + draw_text(y, x + 1, w - 1, A_BOLD, h);
    int barw = end - x - 28;
    if (barw > 60)
        barw = 60;
    if (barw > 4) {
        int fill = (int)(f * barw + 0.5);
        draw_glyph(y, x++, '[', A_NORMAL);
        for (int k = 0; k < barw; k++)
            draw_glyph(y, x++, k < fill ? '#' : '.', k < fill ? ui_attr(C_GOOD) : A_DIM);
        draw_glyph(y, x++, ']', A_NORMAL);
    }
    char t[24];
    chart_fmt_time(elapsed_s, t, sizeof t);
    draw_textf(y, x, end - x, A_NORMAL, "  %s  Esc cancels", t);
}

void draw_status(const app *a, const char *context, const char *hints)
{
    int y = a->rows - 1;
    if (app_job_running(a)) {
        /* a long action: what, how far, how to stop it */
        draw_line(y, 0, a->cols, ui_attr(C_BAR), "");
        draw_busy(y, 0, a->cols, a->job.what, a->job.progress ? a->job.progress(a) : 0,
                      now_seconds() - a->job.t0);
        return;
    }
    if (a->status[0]) {
        draw_line(y, 0, a->cols, ui_attr(a->status_err ? C_ERR : C_BAR), "");
        draw_textf(y, 0, a->cols, ui_attr(a->status_err ? C_ERR : C_BAR), " %s", a->status);
        return;
    }
    draw_line(y, 0, a->cols, ui_attr(C_BAR), "");
    char h[256];
    snprintf(h, sizeof h, "%s", hints);
    /* The context keeps at least 24 columns; key hints give way first. */
    int ctx_w = text_width(context) + 2;
    textfit_hints(h, a->cols - (ctx_w < 24 ? ctx_w : 24) - 2);
    int hw = text_width(h);
    /* A long context (a database path) keeps both its ends. */
    char ctx[512];
    textfit(context, a->cols - hw - 3, TEXTFIT_MIDDLE, sym(SYM_ELLIPSIS), ctx, sizeof ctx);
    draw_textf(y, 0, a->cols - hw - 2, ui_attr(C_BAR), " %s", ctx);
    if (hw)
        draw_text(y, a->cols - hw - 1, hw, ui_attr(C_BAR), h);
}
