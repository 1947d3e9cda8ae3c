/*
 * listview.h — the one list widget: every pane of the dashboard that shows
 * rows one under the other and scrolls (the Data screen's kinds, items and
 * profile form, the Compare pickers and run table, the Planner's parameters
 * and results, the Step candidates and GPUs, the Cluster task list, Help,
 * the modal menu) keeps its cursor and scroll position here and moves them
 * with these keys, so every list behaves the same.
 *
 * A list is three numbers: how many rows it has, the row the cursor is on
 * and the first row shown.  The functions that change them are given the
 * number of rows the pane shows (the screen computes it from its layout,
 * the same way its draw function does) and store what will be shown: the
 * cursor inside the list, the first row moved as little as it takes to
 * keep the cursor in view and no empty lines below the last row.
 *
 * Drawing changes nothing: lv_draw() takes a const list and derives the
 * view again with lv_shown(), so a list drawn in a pane that was resized,
 * or whose rows went away behind its back (tasks that finished), still
 * shows its cursor.  A callback draws each row into a one-line rectangle,
 * told whether the cursor is on it.
 *
 * Viewers (Help, the Planner's results) have no cursor of their own:
 * lv_scroll*() move the first row and keep the cursor on it, and they are
 * drawn without a highlight.
 *
 * Pure (no curses calls; the key codes only), so tests run it without a
 * terminal.  What a row shows, which pane has the focus and which keys a
 * screen binds are the screens' business.
 */
#ifndef GP_LISTVIEW_H
#define GP_LISTVIEW_H

#include <stddef.h>

#include "layout.h"

/* PgUp/PgDn move ten rows whatever the pane's height, as the lists always
 * have; the height only decides the scrolling. */
#define LV_PAGE 10

typedef struct listview {
    size_t count;               /* rows in the list */
    size_t cursor;              /* the selected row; 0 when the list is empty */
    size_t first;               /* the first row shown; never after the cursor */
} listview;

/* How the callback highlights a row: not at all, as the cursor of the
 * focused pane, or as the cursor of a pane that does not have the keys. */
typedef enum lv_hl { LV_HL_NONE, LV_HL_FOCUSED, LV_HL_UNFOCUSED } lv_hl;

/* Draws row i into r (one line high); ctx is the screen's. */
typedef void (*lv_row_fn)(const void *ctx, size_t i, rect r, lv_hl hl);
/* The name of row i, for searching. */
typedef const char *(*lv_name_fn)(const void *ctx, size_t i);

/* The list as shown in a pane of rows lines when it has count rows (pure:
 * what draw code calls). */
listview lv_shown(const listview *lv, size_t count, int rows);

/* count rows with the cursor on the first (a new list). */
void lv_reset(listview *lv, size_t count);
/* The list now has count rows: the cursor stays on its row if it still
 * exists, else goes to the last. */
void lv_set_count(listview *lv, size_t count);
/* Cursor to row i (the last when past the end), scrolled into view. */
void lv_select(listview *lv, size_t i, int rows);
/* Moves the cursor by a key: Up/k, Down/j, PgUp/PgDn (LV_PAGE rows),
 * Home, End.  Returns 1 when key is one of them, 0 (nothing changed)
 * otherwise. */
int lv_key(listview *lv, int key, int rows);

/* Viewers: the first row shown (and the cursor with it) moved by delta /
 * put at first, kept so that no empty lines show below the last row. */
void lv_scroll_to(listview *lv, long first, int rows);
/* lv_key's keys for a viewer: they scroll.  Returns 1 when key is one. */
int lv_scroll_key(listview *lv, int key, int rows);

/* The next row after start whose name contains text (ASCII letters in
 * either case), wrapping round to start itself; count when none does. */
size_t lv_find_next(size_t count, size_t start, const char *text, lv_name_fn name,
                    const void *ctx);
/* Moves the cursor to the next row matching text; 1 when one does, else 0
 * (the cursor stays). */
int lv_search(listview *lv, const char *text, lv_name_fn name, const void *ctx, int rows);

/* Where lists were drawn in the last frame, for the mouse: a click on a
 * row becomes the keys that move the list's cursor there. */
#define LV_HITS_MAX 24
typedef struct lv_hit {
    rect r;                     /* the rows' rectangle */
    size_t first, cursor, count;
    lv_hl hl;                   /* LV_HL_FOCUSED: the list has the keys */
} lv_hit;
typedef struct lv_hits {
    lv_hit hit[LV_HITS_MAX];
    int n;
} lv_hits;

/* From now on lv_draw() records every list it draws into *h (emptied
 * here); NULL stops recording.  The table belongs to the caller (the
 * dashboard's loop), which reads it between frames. */
void lv_hits_record(lv_hits *h);
/* The last-drawn list whose rows contain (y, x), or NULL. */
const lv_hit *lv_hit_at(const lv_hits *h, int y, int x);

/* Draws the rows shown in r (r.h of them at most) with row(); the cursor's
 * row gets hl, the others LV_HL_NONE. */
void lv_draw(const listview *lv, rect r, lv_hl hl, lv_row_fn row, const void *ctx);

#endif
