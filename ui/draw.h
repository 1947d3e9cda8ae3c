/*
 * draw.h — drawing helpers every screen shares: colour roles with
 * monochrome/NO_COLOR fallbacks, clipped UTF-8 text, boxes, table rows,
 * the tab bar and status line, sparklines, progress bars, and the
 * rendering of a chart grid (chart.h) with its axes into curses.
 *
 * Everything draws on stdscr inside the rectangle it is given and never
 * outside it.  Text is UTF-8; on a terminal without UTF-8 the symbols come
 * from sym() in their ASCII forms.
 */
#ifndef GP_DRAW_H
#define GP_DRAW_H

#include <curses.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "chart.h"
#include "layout.h"

/* Colour roles.  With colour each is a pair; without, an attribute. */
typedef enum ui_color {
    C_NORMAL, C_BAR, C_TAB, C_TAB_ON, C_ERR, C_SEL, C_SEL_OFF, C_DIM, C_TITLE, C_GOOD,
    C_BAD, C_WARN, C_CHOSEN, C_SERIES0, C_SERIES1, C_SERIES2, C_SERIES3, C_SERIES4,
    C_SERIES5, C_HEAT0, C_HEAT1, C_HEAT2, C_HEAT3, C_HEAT4, C_ASLEEP, C_IDLE, C_ACTIVE,
    C_NCOLORS
} ui_color;

/* Detects UTF-8 and colour (NO_COLOR set and non-empty, or a terminal
 * without colours, means monochrome) and sets up the pairs. */
void draw_init(ui_caps *caps);
attr_t ui_attr(ui_color c);
/* The look of a list row (listview.h): the cursor of the focused pane
 * (C_SEL), the cursor of another pane (C_SEL_OFF), else plain. */
attr_t ui_hl_attr(lv_hl hl, attr_t plain);
/* The colour role of series i (policy i). */
ui_color ui_series_color(int i);
/* The legend's mark of series i, buf[len]: the series' own marker in
 * ASCII charts (what tells series apart without colour), else a square
 * drawn in its colour. */
const char *ui_series_mark(const ui_caps *c, int i, char *buf, size_t len);

/* Symbols with ASCII fallbacks. */
typedef enum ui_sym {
    SYM_PLAY, SYM_PAUSE, SYM_TIMES, SYM_POINTER, SYM_DASH, SYM_DOT, SYM_ARROW_R,
    SYM_ARROW_L, SYM_ELLIPSIS, SYM_NSYMS
} ui_sym;
const char *sym(ui_sym s);

/* Text clipped to w display columns at (y, x); returns the columns used. */
int draw_text(int y, int x, int w, attr_t a, const char *s);
int draw_textf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Word-wrapped text in at most max_lines lines; returns the lines used. */
int draw_wrap(int y, int x, int w, int max_lines, attr_t a, const char *s);
/* The lines draw_wrap would use, without drawing (for layouts). */
int text_wrap_lines(int w, int max_lines, const char *s);
/* The same padded with spaces to exactly w columns (highlighted rows). */
void draw_line(int y, int x, int w, attr_t a, const char *s);
/* Display columns of a UTF-8 string as draw_text draws it: each character
 * as core/textwidth.h measures it, what the terminal cannot show (anything
 * not ASCII on a terminal that is not UTF-8, bytes that are not UTF-8) as
 * one '?'. */
int text_width(const char *s);
void draw_fill(rect r, attr_t a);
/* A box with a title on its top border; focused boxes are bold. */
void draw_box(rect r, const char *title, int focused);
/* One code point at (y, x). */
void draw_glyph(int y, int x, uint32_t cp, attr_t a);

/* Table columns: a header, a width and alignment (right = a number); a
 * row draws the columns that fit in w and skips the rest, except that the
 * last column takes what is left of the row.  Text too wide for its column
 * is cut with an ellipsis (names in the middle, the last column at its
 * end); numbers are never cut (textfit.h).  A column of width < 0 is
 * hidden (ui_cols_fit). */
typedef struct ui_col {
    const char *head;
    int w;
    int right;
} ui_col;
/* A table that chooses what a narrow row loses: into out[ncols], cols as
 * a row of w columns shows them: first the name column (the first
 * left-aligned one but the last) narrows to UI_COL_NAME_MIN, then the
 * column of the highest drop rank is hidden, then the next (drop[i] 0:
 * kept). */
#define UI_COL_NAME_MIN 7
void ui_cols_fit(const ui_col *cols, const int *drop, int ncols, int w, ui_col *out);
void draw_row(int y, int x, int w, const ui_col *cols, int ncols, const char *const *cells,
              attr_t a);
void draw_header(int y, int x, int w, const ui_col *cols, int ncols);
/* The header with column sort_col (-1: none) marked as the one the rows
 * are ordered by, ascending or descending. */
void draw_header_sorted(int y, int x, int w, const ui_col *cols, int ncols, int sort_col,
                        int sort_desc);

void draw_spark(int y, int x, int w, const float *v, size_t n, double lo, double hi,
                attr_t a);
/* "[#####     ] 45%  label" in w columns. */
void draw_progress(int y, int x, int w, double frac, const char *label);

/* A chart in box: title, y axis with nice ticks from 0 to the largest
 * value shown, x axis [xlo, xhi] (seconds when time_axis), one step line
 * (or polyline) per series, drawn in the app's chart style.  The cell grid
 * it plots into is its own, made and freed in the call. */
typedef struct ui_series {
    const double *x, *y;        /* read with stride bytes */
    size_t n, stride;
    ui_color color;
    int poly;                   /* straight segments instead of steps */
    double hold_to;             /* steps: hold the last value until here (0 = edge) */
} ui_series;
/* The units of a chart's axes: the y axis's under its labels ("W",
 * "GPUs"), or its values as durations (y_time: ticks such as 10h 20h);
 * the x axis's on the bottom border (a time axis's ticks carry theirs).
 * NULL = none (ax itself may be NULL). */
typedef struct ui_axes {
    const char *y_unit;
    int y_time;
    const char *x_unit;
} ui_axes;
void draw_chart_axes(const ui_caps *caps, rect box, const char *title, const ui_series *s,
                     int ns, double xlo, double xhi, int time_axis, const ui_axes *ax);

/* The tab bar (row 0) and the status line (last row). */
void draw_tabs(const app *a);
/* The screen whose tab is at column x of the tab bar, or -1. */
int draw_tab_at(const app *a, int x);
/* The status line shows the running job's progress (app.h, ui_job) in
 * place of messages and hints while there is one. */
void draw_status(const app *a, const char *context, const char *hints);
/* The mark of the column a table is ordered by: ▲ ascending, ▼ descending
 * (^ and v without UTF-8). */
const char *draw_sort_mark(int desc);
/* " head  42 % [#####.....]  00:01:05  Esc cancels" in w columns at y, x:
 * a long action's progress f (0 to 1) and the wall time it has taken. */
void draw_busy(int y, int x, int w, const char *head, double f, double elapsed_s);
/* A screen with nothing to show yet: its name on a box over the body, a
 * message saying where to go, and the status line. */
void draw_empty_screen(const app *a, const char *name, const char *message, const char *hints);

#endif
