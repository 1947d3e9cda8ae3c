/*
 * textfit.h — fitting text into a number of terminal columns (pure: no
 * curses, so tests run it without a terminal).
 *
 * Names are cut with an ellipsis where it loses the least: in the middle,
 * so both the start and the end survive ("openb-like-fgd-…-run-12" and
 * "…-run-13" stay apart), or at the end for prose.  Numbers are never
 * cut: a number too wide for its column is written more compactly
 * (12345 → 12k) and, if it still does not fit, shown whole.
 *
 * Widths are display columns of UTF-8 text, measured by core/textwidth.h
 * (wcwidth under C.UTF-8; a character it does not know counts one column).
 */
#ifndef GP_TEXTFIT_H
#define GP_TEXTFIT_H

#include <stddef.h>

typedef enum textfit_mode { TEXTFIT_END, TEXTFIT_MIDDLE } textfit_mode;

/* s cut to at most w columns into out[len]: unchanged when it fits, else
 * with ell (the ellipsis, "…" or "...") at the end or in the middle.
 * When w is narrower than the ellipsis, s is simply cut at w columns.
 * Returns the columns of out. */
int textfit(const char *s, int w, textfit_mode mode, const char *ell, char *out, size_t len);

/* 1 when s reads as one number, possibly with a unit suffix or sign:
 * "12", "-3.5", "1.2k", "45%", "2,500", "1e+06". */
int textfit_is_number(const char *s);

/* A number cell for w columns: s itself when it fits; else the same value
 * in fewer characters (chart_fmt: "123456" → "123k"; a duration such as
 * "3d 02:15:00" → "3.1d"); else s unchanged (a number is shown whole
 * rather than cut).  out[len]. */
void textfit_number(const char *s, int w, char *out, size_t len);

/* The seconds of a duration written as chart_fmt_time writes clocks,
 * "1d 02:15:00" or "02:15:00"; 0 when s is not one. */
int textfit_clock_seconds(const char *s, double *v);

/* A footer's key hints ("key what" groups two spaces apart, written in
 * the order of their priority: a screen's main action first) cut to room
 * columns by dropping whole groups: the last one first, except that X
 * (export) and ? (help) go last, so every footer keeps them longest. */
void textfit_hints(char *h, int room);

/* A list row's name beside its figures in w columns, into out[len]: the
 * figures whole, in the first of forms[nforms] (most words first, fewest
 * last) that leaves the name min_name columns, else the last; the name in
 * name_w columns (padded, so figures line up) or what is left, cut in its
 * middle with ell.  Figures wider than w are shown whole without the name.
 * Returns the columns of out. */
int textfit_name_figures(const char *name, int name_w, const char *const *forms, int nforms,
                         int w, int min_name, const char *ell, char *out, size_t len);

/* "1 node" / "184 nodes" into out[len]: n with the word for one or many
 * (NULL: none); compact writes 10,000 and over shorter (12k, 1.2M). */
void textfit_count(long long n, const char *one, const char *many, int compact, char *out,
                   size_t len);

#endif
