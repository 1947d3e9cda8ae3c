/*
 * app.c — what every screen shares besides drawing: status messages,
 * screen switching, key-table dispatch, lists of stored entities, the
 * modals (prompt, confirmation, menu) and their line editor, and the long
 * action done in slices (ui_job).
 */
#include "app.h"

#include <assert.h>
#include <curses.h>

#include "core/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_msg(app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->status, sizeof a->status, fmt, ap);
    va_end(ap);
    a->status_err = 0;
}

void app_err(app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->status, sizeof a->status, fmt, ap);
    va_end(ap);
    a->status_err = 1;
}

void app_goto(app *a, scr_id id)
{
    if (id == a->scr || id >= SCR_COUNT)
        return;
    /* Help returns to the screen it describes; other screens remember
     * where they came from. */
    if (a->scr != SCR_HELP)
        a->back = a->scr;
    a->scr = id;
    const ui_screen *s = ui_screen_of(id);
    if (s->enter)
        s->enter(a);
}

/* --- a long action in slices ------------------------------------------- */

int app_job_running(const app *a)
{
    return a->job.what[0] != '\0';
}

/* The job finished or was cancelled: keys typed meanwhile are dropped. */
static void job_over(app *a, int finished)
{
    ui_job j = a->job;
    memset(&a->job, 0, sizeof a->job);
    flushinp();
    if (finished && j.done)
        j.done(a, now_seconds() - j.t0);
}

void app_job_start(app *a, const ui_job *job)
{
    a->job = *job;
    a->job.t0 = now_seconds();
    if (a->job.slice(a, UI_JOB_SLICE_S)) {
        /* over within a frame: nothing looked frozen, typing ahead stays */
        ui_job j = a->job;
        memset(&a->job, 0, sizeof a->job);
        if (j.done)
            j.done(a, now_seconds() - j.t0);
    }
}

int app_job_tick(app *a)
{
    if (!app_job_running(a))
        return 0;
    if (a->job.slice(a, UI_JOB_SLICE_S))
        job_over(a, 1);
    return 1;
}

int app_job_key(app *a, int key)
{
    if (!app_job_running(a))
        return 0;
    if (key != KEY_ESC) {
        app_msg(a, "%s: Esc cancels", a->job.what);
        return 1;
    }
    char what[sizeof a->job.what];
    snprintf(what, sizeof what, "%s", a->job.what);
    double f = a->job.progress ? a->job.progress(a) : 0;
    if (a->job.cancel)
        a->job.cancel(a);
    job_over(a, 0);
    if (!a->status[0])
        app_msg(a, "%s: cancelled at %.0f %%", what, 100 * f);
    return 1;
}

ui_rc ui_dispatch(app *a, const ui_key *keys, int key)
{
    for (const ui_key *k = keys; k && k->fn; k++)
        for (int i = 0; i < 5 && k->keys[i]; i++)
            if (k->keys[i] == key) {
                ui_rc rc = k->fn(a, key);
                if (rc != UI_PASS)
                    return rc;
            }
    return UI_PASS;
}

const char *const ui_list_sort_names[UI_LIST_SORT_COLS] = {
    "name", "count", "second count", "detail", "date",
};

/* The text of item i's cell col, for ordering (tablesort.h). */
static const char *item_cell(const void *ctx, size_t i, int col, char *buf, size_t len)
{
    const store_item *it = &((const ui_list *)ctx)->items[i];
    switch (col) {
    case 0: return it->name;
    case 1: snprintf(buf, len, "%lld", (long long)it->count); return buf;
    case 2: snprintf(buf, len, "%lld", (long long)it->count2); return buf;
    case 3: return it->detail;
    default: return it->created;
    }
}

void ui_list_sort(ui_list *l)
{
    size_t n = l->lv.count;
    if (n < 2)
        return;
    size_t *order = xmalloc(n * sizeof *order);
    tablesort_order(n, l->sort, item_cell, l, order);
    store_item *sorted = xmalloc(n * sizeof *sorted);
    size_t cursor = 0;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = l->items[order[i]];
        if (order[i] == l->lv.cursor)
            cursor = i;
    }
    free(l->items);
    l->items = sorted;
    free(order);
    l->lv.cursor = cursor;
    if (l->lv.first > cursor)
        l->lv.first = cursor;
}

/* Puts l's cursor back on the item it was on, by name (its id too, where
 * names repeat, as saved runs' may), when the list still holds it: another
 * program may have added or removed items above it. */
static void keep_cursor(ui_list *l, int64_t id, const char *name)
{
    size_t at = l->lv.count;
    for (size_t i = 0; name[0] && i < l->lv.count; i++) {
        if (strcmp(l->items[i].name, name) != 0)
            continue;
        if (at == l->lv.count || l->items[i].id == id)
            at = i;
        if (l->items[i].id == id)
            break;
    }
    if (at == l->lv.count)
        return;
    l->lv.cursor = at;
    if (l->lv.first > at)
        l->lv.first = at;
}

int app_load_list(app *a, ui_list *l, store_kind kind)
{
    gp_err err;
    size_t n = 0;
    char was[GP_NAME_MAX] = "";
    int64_t was_id = 0;
    if (l->lv.count && l->items) {
        snprintf(was, sizeof was, "%s", l->items[l->lv.cursor].name);
        was_id = l->items[l->lv.cursor].id;
    }
    free(l->items);
    l->items = NULL;
    int rc = store_list(a->st, kind, &l->items, &n, &err);
    lv_set_count(&l->lv, rc ? 0 : n);
    l->err[0] = '\0';
    if (!rc && l->sort.by > 0) {
        /* the store lists by name: the order asked for again */
        ui_list_sort(l);
    }
    if (!rc)
        keep_cursor(l, was_id, was);
    if (rc) {
        snprintf(l->err, sizeof l->err, "%s", err.msg);
        app_err(a, "%s", err.msg);
        return -1;
    }
    return 0;
}

const char *ui_list_name(const void *list, size_t i)
{
    const ui_list *l = list;
    assert(i < l->lv.count);
    return l->items[i].name;
}

/* --- modals --------------------------------------------------------------- */

void modal_prompt(app *a, const char *title, const char *initial, modal_done_fn done)
{
    modal *m = &a->m;
    memset(m, 0, sizeof *m);
    m->kind = MODAL_PROMPT;
    snprintf(m->title, sizeof m->title, "%s", title);
    snprintf(m->text, sizeof m->text, "%s", initial ? initial : "");
    m->cursor = strlen(m->text);
    m->done = done;
}

void modal_confirm(app *a, const char *question, modal_done_fn done)
{
    modal *m = &a->m;
    memset(m, 0, sizeof *m);
    m->kind = MODAL_CONFIRM;
    snprintf(m->title, sizeof m->title, "%s", question);
    m->done = done;
}

void modal_menu(app *a, const char *title, const char *const *items, int n, int sel,
                modal_done_fn done)
{
    modal *m = &a->m;
    memset(m, 0, sizeof *m);
    m->kind = MODAL_MENU;
    snprintf(m->title, sizeof m->title, "%s", title);
    if (n > MODAL_MENU_MAX)
        n = MODAL_MENU_MAX;
    for (int i = 0; i < n; i++)
        snprintf(m->items[i], sizeof m->items[i], "%s", items[i]);
    m->nitems = n;
    lv_reset(&m->menu, (size_t)n);
    /* The menu's height is the modal's (tui.c): scrolled from the top, the
     * first frame brings sel into view. */
    if (sel > 0 && sel < n)
        lv_select(&m->menu, (size_t)sel, 0);
    m->done = done;
}

static int is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

static void erase_range(char *text, size_t from, size_t to)
{
    memmove(text + from, text + to, strlen(text + to) + 1);
}

/* Moves one UTF-8 character left/right of *cur. */
static size_t char_left(const char *t, size_t cur)
{
    while (cur > 0 && is_cont((unsigned char)t[--cur]))
        ;
    return cur;
}

static size_t char_right(const char *t, size_t cur)
{
    if (!t[cur])
        return cur;
    cur++;
    while (t[cur] && is_cont((unsigned char)t[cur]))
        cur++;
    return cur;
}

static void kill_word(char *text, size_t *cur)
{
    size_t c = *cur;
    while (c > 0 && text[c - 1] == ' ')
        c--;
    while (c > 0 && text[c - 1] != ' ')
        c--;
    erase_range(text, c, *cur);
    *cur = c;
}

void lineedit_key(char *text, size_t cap, size_t *cur, int key)
{
    size_t len = strlen(text);
    if (*cur > len)
        *cur = len;
    switch (key) {
    case KEY_BACKSPACE: case 127: case 8:
        if (*cur > 0) {
            size_t p = char_left(text, *cur);
            erase_range(text, p, *cur);
            *cur = p;
        }
        return;
    case KEY_DC: case 4:
        erase_range(text, *cur, char_right(text, *cur));
        return;
    case KEY_LEFT: case 2:
        *cur = char_left(text, *cur);
        return;
    case KEY_RIGHT: case 6:
        *cur = char_right(text, *cur);
        return;
    case KEY_HOME: case 1:
        *cur = 0;
        return;
    case KEY_END: case 5:
        *cur = len;
        return;
    case 21:            /* ^U: to the start */
        erase_range(text, 0, *cur);
        *cur = 0;
        return;
    case 11:            /* ^K: to the end */
        text[*cur] = '\0';
        return;
    case 23:            /* ^W: the word before */
        kill_word(text, cur);
        return;
    default:
        break;
    }
    /* Printable ASCII and the bytes of UTF-8 sequences, as getch gives them. */
    if (key < 32 || key > 255 || key == 127 || len + 1 >= cap)
        return;
    memmove(text + *cur + 1, text + *cur, len - *cur + 1);
    text[(*cur)++] = (char)key;
}
