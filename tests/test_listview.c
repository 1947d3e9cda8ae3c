/*
 * test_listview.c — the list widget's pure logic (ui/listview.c): which row
 * the cursor and the first shown row end on after a key, for lists longer
 * and shorter than their pane and for an empty one; what a list keeps when
 * its rows shrink; viewers that only scroll; search by name; and which rows
 * drawing hands to the row callback.  Tables of cases; no terminal.
 */
#include "testutil.h"

#include <curses.h>

#include "ui/listview.h"
#include "ui/listview_int.h"

/* --- keys ---------------------------------------------------------------- */

typedef struct key_case {
    const char *what;
    size_t count, cursor, first;
    int rows, key;
    int handled;
    size_t want_cursor, want_first;
} key_case;

static const key_case key_cases[] = {
    {"down inside the pane", 20, 3, 0, 5, KEY_DOWN, 1, 4, 0},
    {"j is down", 20, 3, 0, 5, 'j', 1, 4, 0},
    {"down off the bottom scrolls one", 20, 4, 0, 5, KEY_DOWN, 1, 5, 1},
    {"up inside the pane", 20, 7, 5, 5, KEY_UP, 1, 6, 5},
    {"k off the top scrolls one", 20, 5, 5, 5, 'k', 1, 4, 4},
    {"up at the first row stays", 20, 0, 0, 5, KEY_UP, 1, 0, 0},
    {"down at the last row stays", 20, 19, 15, 5, KEY_DOWN, 1, 19, 15},
    {"PgDn moves ten", 20, 0, 0, 5, KEY_NPAGE, 1, 10, 6},
    {"PgDn stops at the last row", 20, 15, 11, 5, KEY_NPAGE, 1, 19, 15},
    {"PgUp moves ten", 20, 12, 10, 5, KEY_PPAGE, 1, 2, 2},
    {"PgUp stops at the first row", 20, 4, 2, 5, KEY_PPAGE, 1, 0, 0},
    {"Home", 20, 12, 10, 5, KEY_HOME, 1, 0, 0},
    {"End", 20, 2, 0, 5, KEY_END, 1, 19, 15},
    {"page taller than the list: End", 5, 0, 0, 20, KEY_END, 1, 4, 0},
    {"page taller than the list: PgDn", 5, 1, 0, 20, KEY_NPAGE, 1, 4, 0},
    {"page taller than the list: stale first row", 5, 4, 3, 20, KEY_UP, 1, 3, 0},
    {"pane grown since: no empty lines below", 20, 18, 16, 10, KEY_DOWN, 1, 19, 10},
    {"pane shrunk since: the cursor in view", 20, 9, 0, 3, KEY_UP, 1, 8, 7},
    {"a pane of no rows", 20, 9, 4, 0, KEY_DOWN, 1, 10, 0},
    {"empty list: down", 0, 0, 0, 5, KEY_DOWN, 1, 0, 0},
    {"empty list: End", 0, 0, 0, 5, KEY_END, 1, 0, 0},
    {"empty list: PgUp", 0, 0, 0, 5, KEY_PPAGE, 1, 0, 0},
    {"not a list key", 20, 3, 1, 5, 'x', 0, 3, 1},
    {"Enter is not a list key", 20, 3, 1, 5, '\n', 0, 3, 1},
};

static void check(const char *what, const listview *lv, size_t cursor, size_t first)
{
    if (lv->cursor != cursor || lv->first != first)
        fail_msg("%s: cursor %zu first %zu, wanted %zu and %zu", what, lv->cursor, lv->first,
                 cursor, first);
    if (!lv_valid(lv))
        fail_msg("%s: count %zu cursor %zu first %zu do not agree", what, lv->count,
                 lv->cursor, lv->first);
}

static void test_keys(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof key_cases / sizeof *key_cases; i++) {
        const key_case *c = &key_cases[i];
        listview lv = {c->count, c->cursor, c->first};
        int handled = lv_key(&lv, c->key, c->rows);
        if (handled != c->handled)
            fail_msg("%s: handled %d, wanted %d", c->what, handled, c->handled);
        check(c->what, &lv, c->want_cursor, c->want_first);
        assert_int_equal(lv.count, c->count);
    }
}

/* --- the rows change under the list ------------------------------------- */

typedef struct count_case {
    const char *what;
    size_t count, cursor, first, new_count;
    size_t want_cursor, want_first;
    int rows;                   /* then shown in this many rows */
    size_t shown_first;
} count_case;

static const count_case count_cases[] = {
    {"shrinks below the cursor: the last row", 20, 15, 12, 10, 9, 9, 5, 5},
    {"shrinks, the cursor still inside", 20, 5, 3, 10, 5, 3, 5, 3},
    {"shrinks under the pane's height", 20, 15, 12, 4, 3, 3, 10, 0},
    {"grows: nothing moves", 5, 4, 2, 50, 4, 2, 3, 2},
    {"empties", 20, 15, 12, 0, 0, 0, 5, 0},
    {"fills from empty", 0, 0, 0, 7, 0, 0, 5, 0},
};

static void test_count_changes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof count_cases / sizeof *count_cases; i++) {
        const count_case *c = &count_cases[i];
        listview lv = {c->count, c->cursor, c->first};
        lv_set_count(&lv, c->new_count);
        assert_int_equal(lv.count, c->new_count);
        check(c->what, &lv, c->want_cursor, c->want_first);
        listview v = lv_shown(&lv, lv.count, c->rows);
        check(c->what, &v, c->want_cursor, c->shown_first);
    }
}

static void test_shown_is_pure(void **state)
{
    (void)state;
    /* Drawing a list whose data shrank behind it: the view clamps, the
     * stored list does not change. */
    const listview lv = {30, 25, 22};
    listview v = lv_shown(&lv, 10, 4);
    check("shown with fewer rows", &v, 9, 6);
    assert_int_equal(v.count, 10);
    assert_int_equal(lv.cursor, 25);
    /* Showing what is shown changes nothing (a frame drawn twice). */
    listview w = lv_shown(&v, v.count, 4);
    check("shown again", &w, v.cursor, v.first);
    listview empty = lv_shown(&lv, 0, 4);
    check("shown empty", &empty, 0, 0);
}

static void test_select_and_reset(void **state)
{
    (void)state;
    listview lv = {0, 0, 0};
    lv_reset(&lv, 40);
    check("reset", &lv, 0, 0);
    lv_select(&lv, 30, 8);
    check("select below the pane", &lv, 30, 23);
    lv_select(&lv, 25, 8);
    check("select inside the pane: no scroll", &lv, 25, 23);
    lv_select(&lv, 1000, 8);
    check("select past the end", &lv, 39, 32);
    lv_select(&lv, 3, 8);
    check("select above the pane", &lv, 3, 3);
}

/* --- viewers ------------------------------------------------------------- */

typedef struct scroll_case {
    const char *what;
    size_t count, first;
    int rows;
    long delta;
    size_t want_first;
} scroll_case;

static const scroll_case scroll_cases[] = {
    {"one line down", 30, 0, 10, 1, 1},
    {"one line up", 30, 5, 10, -1, 4},
    {"down stops with the last line at the bottom", 30, 15, 10, 100, 20},
    {"up stops at the top", 30, 5, 10, -100, 0},
    {"page taller than the text", 5, 0, 10, 3, 0},
    {"a first row past the end comes back", 30, 28, 10, 0, 20},
    {"empty", 0, 0, 10, 1, 0},
};

static void test_scroll(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof scroll_cases / sizeof *scroll_cases; i++) {
        const scroll_case *c = &scroll_cases[i];
        listview lv = {c->count, c->first, c->first};     /* a viewer: cursor on first */
        lv_scroll(&lv, c->delta, c->rows);
        check(c->what, &lv, c->want_first, c->want_first);
    }
    listview lv = {30, 0, 0};
    lv_scroll_to(&lv, 25, 10);
    check("scroll to past the end", &lv, 20, 20);
    lv_scroll_to(&lv, -4, 10);
    check("scroll to before the start", &lv, 0, 0);
    assert_int_equal(lv_scroll_key(&lv, KEY_NPAGE, 10), 1);
    check("PgDn scrolls ten", &lv, 10, 10);
    assert_int_equal(lv_scroll_key(&lv, 'j', 10), 1);
    check("j scrolls one", &lv, 11, 11);
    assert_int_equal(lv_scroll_key(&lv, KEY_END, 10), 1);
    check("End shows the last page", &lv, 20, 20);
    assert_int_equal(lv_scroll_key(&lv, 'q', 10), 0);
    check("not a scroll key", &lv, 20, 20);
}

/* --- search --------------------------------------------------------------- */

static const char *const names[] = {"cats-testbed", "corrgpu-example", "pai-like", "openb-like"};

static const char *name_of(const void *ctx, size_t i)
{
    return ((const char *const *)ctx)[i];
}

static void test_find(void **state)
{
    (void)state;
    static const struct {
        size_t start;
        const char *text;
        size_t want;
    } cases[] = {
        {0, "LIKE", 2},         /* ASCII letters in either case */
        {2, "like", 3},         /* the next match */
        {3, "like", 2},         /* wraps round */
        {1, "corr", 1},         /* the row it starts from, last */
        {0, "nothing", 4},      /* none: the count */
        {0, "", 1},             /* empty text: the next row */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(lv_find_next(4, cases[i].start, cases[i].text, name_of, names),
                         cases[i].want);
    assert_int_equal(lv_find_next(0, 0, "x", name_of, names), 0);
    listview lv = {4, 0, 0};
    assert_int_equal(lv_search(&lv, "openb", name_of, names, 2), 1);
    check("search scrolls to the match", &lv, 3, 2);
    assert_int_equal(lv_search(&lv, "nothing", name_of, names, 2), 0);
    check("no match: the cursor stays", &lv, 3, 2);
}

/* --- drawing -------------------------------------------------------------- */

typedef struct drawn {
    size_t rows[16];
    int y[16];
    lv_hl hl[16];
    int n;
} drawn;

static void record_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    drawn *d = (drawn *)(uintptr_t)ctx;
    assert_int_equal(r.h, 1);
    assert_int_equal(r.w, 30);
    d->rows[d->n] = i;
    d->y[d->n] = r.y;
    d->hl[d->n++] = hl;
}

static void test_draw(void **state)
{
    (void)state;
    drawn d = {{0}, {0}, {0}, 0};
    const listview lv = {8, 6, 0};      /* first row stale: 6 is below a 4-row pane */
    lv_draw(&lv, (rect){3, 2, 4, 30}, LV_HL_FOCUSED, record_row, &d);
    assert_int_equal(d.n, 4);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(d.rows[k], 3 + (size_t)k);
        assert_int_equal(d.y[k], 3 + k);
        assert_int_equal(d.hl[k], d.rows[k] == 6 ? LV_HL_FOCUSED : LV_HL_NONE);
    }
    assert_int_equal(lv.first, 0);      /* drawing stored nothing */
    memset(&d, 0, sizeof d);
    const listview short_list = {3, 1, 0};
    lv_draw(&short_list, (rect){1, 0, 10, 30}, LV_HL_UNFOCUSED, record_row, &d);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.hl[1], LV_HL_UNFOCUSED);
    memset(&d, 0, sizeof d);
    const listview empty = {0, 0, 0};
    lv_draw(&empty, (rect){1, 0, 10, 30}, LV_HL_FOCUSED, record_row, &d);
    assert_int_equal(d.n, 0);
    lv_draw(&lv, (rect){1, 0, 0, 30}, LV_HL_FOCUSED, record_row, &d);
    assert_int_equal(d.n, 0);
}

/* Where lists were drawn, for the mouse: the view as shown (first row
 * recomputed), the topmost list at a point, nothing outside, nothing
 * recorded once recording stops. */
static void test_hits(void **state)
{
    (void)state;
    drawn d = {{0}, {0}, {0}, 0};
    lv_hits hits;
    lv_hits_record(&hits);
    const listview lv = {8, 6, 0};
    lv_draw(&lv, (rect){3, 2, 4, 30}, LV_HL_FOCUSED, record_row, &d);
    const listview menu = {3, 1, 0};
    lv_draw(&menu, (rect){4, 10, 3, 30}, LV_HL_UNFOCUSED, record_row, &d);
    lv_hits_record(NULL);
    lv_draw(&lv, (rect){20, 0, 4, 30}, LV_HL_FOCUSED, record_row, &d);
    assert_int_equal(hits.n, 2);
    const lv_hit *h = lv_hit_at(&hits, 3, 2);
    assert_non_null(h);
    assert_int_equal(h->first, 3);
    assert_int_equal(h->cursor, 6);
    assert_int_equal(h->count, 8);
    assert_int_equal(h->hl, LV_HL_FOCUSED);
    h = lv_hit_at(&hits, 5, 12);         /* the menu, drawn later, is on top */
    assert_non_null(h);
    assert_int_equal(h->hl, LV_HL_UNFOCUSED);
    assert_null(lv_hit_at(&hits, 7, 2));  /* below the list */
    assert_null(lv_hit_at(&hits, 3, 32)); /* right of it */
    assert_null(lv_hit_at(&hits, 5, 40)); /* right of both */
    assert_null(lv_hit_at(&hits, 20, 0)); /* drawn after recording stopped */
}

static void test_valid(void **state)
{
    (void)state;
    static const struct {
        listview lv;
        int valid;
    } cases[] = {
        {{0, 0, 0}, 1}, {{5, 4, 0}, 1}, {{5, 4, 4}, 1}, {{0, 1, 0}, 0}, {{0, 0, 1}, 0},
        {{5, 5, 0}, 0}, {{5, 2, 3}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(lv_valid(&cases[i].lv), cases[i].valid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_count_changes),
        cmocka_unit_test(test_shown_is_pure),
        cmocka_unit_test(test_select_and_reset),
        cmocka_unit_test(test_scroll),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_hits),
        cmocka_unit_test(test_valid),
    };
    return cmocka_run_group_tests_name("listview", tests, NULL, NULL);
}
