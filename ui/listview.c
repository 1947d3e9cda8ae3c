/*
 * listview.c — the list widget (listview.h): cursor and scroll arithmetic,
 * the list keys, search by name, and the row loop of drawing.
 *
 * Every change first takes the list as it is shown (lv_shown), then moves,
 * then stores what will be shown: so a key scrolls from the rows the user
 * sees, exactly as when the scroll position was recomputed on every frame.
 */
#include "listview.h"
#include "listview_int.h"

#include <assert.h>
#include <curses.h>
#include <strings.h>
#include <string.h>

int lv_valid(const listview *lv)
{
    if (lv->count == 0)
        return lv->cursor == 0 && lv->first == 0;
    return lv->cursor < lv->count && lv->first <= lv->cursor;
}

listview lv_shown(const listview *lv, size_t count, int rows)
{
    listview v = {count, 0, 0};
    if (count == 0)
        return v;
    v.cursor = lv->cursor < count ? lv->cursor : count - 1;
    v.first = layout_scroll(lv->first, v.cursor, count, rows);
    assert(lv_valid(&v));
    return v;
}

void lv_reset(listview *lv, size_t count)
{
    lv->count = count;
    lv->cursor = lv->first = 0;
}

void lv_set_count(listview *lv, size_t count)
{
    assert(lv_valid(lv));
    lv->count = count;
    if (count == 0) {
        lv->cursor = lv->first = 0;
        return;
    }
    if (lv->cursor >= count)
        lv->cursor = count - 1;
    if (lv->first > lv->cursor)
        lv->first = lv->cursor;
    assert(lv_valid(lv));
}

void lv_select(listview *lv, size_t i, int rows)
{
    assert(lv_valid(lv));
    listview v = lv_shown(lv, lv->count, rows);
    v.cursor = i;
    *lv = lv_shown(&v, v.count, rows);
}

/* Where a key moves a position (a cursor, or a viewer's first row) that is
 * at `at` in a list of count rows: 1 with *to set, 0 when it is not a list
 * key.  *to may fall outside the list; the caller clamps. */
static int key_target(int key, size_t at, size_t count, long *to)
{
    long here = (long)at;
    switch (key) {
    case KEY_UP: case 'k': *to = here - 1; return 1;
    case KEY_DOWN: case 'j': *to = here + 1; return 1;
    case KEY_PPAGE: *to = here - LV_PAGE; return 1;
    case KEY_NPAGE: *to = here + LV_PAGE; return 1;
    case KEY_HOME: *to = 0; return 1;
    case KEY_END: *to = count ? (long)count - 1 : 0; return 1;
    default: return 0;
    }
}

int lv_key(listview *lv, int key, int rows)
{
    long to;
    if (!key_target(key, lv->cursor, lv->count, &to))
        return 0;
    lv_select(lv, to < 0 ? 0 : (size_t)to, rows);
    return 1;
}

/* The last first row that leaves no empty lines below the list. */
static size_t max_first(size_t count, int rows)
{
    return rows > 0 && count > (size_t)rows ? count - (size_t)rows : 0;
}

void lv_scroll_to(listview *lv, long first, int rows)
{
    assert(lv_valid(lv));
    size_t most = max_first(lv->count, rows);
    size_t f = first < 0 ? 0 : (size_t)first > most ? most : (size_t)first;
    lv->first = lv->cursor = f;
    assert(lv_valid(lv));
}

void lv_scroll(listview *lv, long delta, int rows)
{
    listview v = lv_shown(lv, lv->count, rows);
    lv_scroll_to(lv, (long)v.first + delta, rows);
}

int lv_scroll_key(listview *lv, int key, int rows)
{
    listview v = lv_shown(lv, lv->count, rows);
    long to;
    if (!key_target(key, v.first, v.count, &to))
        return 0;
    lv_scroll_to(lv, to, rows);
    return 1;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, nl) == 0)
            return 1;
    return nl == 0;
}

size_t lv_find_next(size_t count, size_t start, const char *text, lv_name_fn name,
                    const void *ctx)
{
    for (size_t k = 1; k <= count; k++) {
        size_t i = (start + k) % count;
        if (contains_ci(name(ctx, i), text))
            return i;
    }
    return count;
}

int lv_search(listview *lv, const char *text, lv_name_fn name, const void *ctx, int rows)
{
    size_t i = lv_find_next(lv->count, lv->cursor, text, name, ctx);
    if (i == lv->count)
        return 0;
    lv_select(lv, i, rows);
    return 1;
}

/* The table lv_hits_record() named: it lives in the dashboard's loop (the
 * top-level state); this is only where drawing finds it. */
static lv_hits *recording;

void lv_hits_record(lv_hits *h)
{
    recording = h;
    if (h)
        h->n = 0;
}

const lv_hit *lv_hit_at(const lv_hits *h, int y, int x)
{
    /* Drawn later is on top (a modal's menu over the screen). */
    for (int i = h->n - 1; i >= 0; i--) {
        rect r = h->hit[i].r;
        if (y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w)
            return &h->hit[i];
    }
    return NULL;
}

void lv_draw(const listview *lv, rect r, lv_hl hl, lv_row_fn row, const void *ctx)
{
    assert(r.h >= 0 && r.w >= 0);
    listview v = lv_shown(lv, lv->count, r.h);
    if (recording && recording->n < LV_HITS_MAX && r.h > 0 && r.w > 0)
        recording->hit[recording->n++] = (lv_hit){r, v.first, v.cursor, v.count, hl};
    for (int k = 0; k < r.h && v.first + (size_t)k < v.count; k++) {
        size_t i = v.first + (size_t)k;
        rect line = {r.y + k, r.x, 1, r.w};
        row(ctx, i, line, i == v.cursor ? hl : LV_HL_NONE);
    }
}
