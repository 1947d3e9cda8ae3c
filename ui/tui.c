/*
 * tui.c — the dashboard's main loop: terminal setup and teardown, the
 * current screen, key dispatch and redraw from state.
 *
 * This first screen lists what the database holds (profiles, clusters,
 * traces, catalogs, snapshots, runs) with scrolling; the Compare, Step,
 * Cluster and Planner screens build on the same loop.
 */
#include "tui.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

typedef struct tui_state {
    store_item *items[STORE_KIND_COUNT];
    size_t nitems[STORE_KIND_COUNT];
    int kind;                   /* selected kind (left pane) */
    size_t sel;                 /* selected item (right pane) */
    size_t top;                 /* first visible item */
    int focus_items;            /* 0 = kinds pane, 1 = items pane */
    char status[256];
    const char *db_path;
} tui_state;

static const char *const kind_titles[STORE_KIND_COUNT] = {
    "GPU profiles", "CPU profiles", "Clusters", "Traces", "Throughput tables",
    "Snapshots", "Runs",
};

static int load_state(tui_state *s, store *st)
{
    for (int k = 0; k < STORE_KIND_COUNT; k++) {
        gp_err err = {{0}};
        free(s->items[k]);
        s->items[k] = NULL;
        s->nitems[k] = 0;
        if (store_list(st, (store_kind)k, &s->items[k], &s->nitems[k], &err)) {
            snprintf(s->status, sizeof s->status, "%s", err.msg);
            return -1;
        }
    }
    return 0;
}

static void free_state(tui_state *s)
{
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        free(s->items[k]);
}

static void draw_kinds(const tui_state *s, int h)
{
    mvprintw(1, 1, "%-22s", "Data");
    for (int k = 0; k < STORE_KIND_COUNT && k + 3 < h - 1; k++) {
        if (k == s->kind)
            attron(s->focus_items ? A_BOLD : A_REVERSE);
        mvprintw(k + 3, 1, "%-18s %3zu", kind_titles[k], s->nitems[k]);
        attroff(A_REVERSE | A_BOLD);
    }
}

static void draw_items(tui_state *s, int h, int w)
{
    const int x = 26, rows = h - 5;
    size_t n = s->nitems[s->kind];
    const store_item *it = s->items[s->kind];
    if (s->sel >= n)
        s->sel = n ? n - 1 : 0;
    if (s->sel < s->top)
        s->top = s->sel;
    if (rows > 0 && s->sel >= s->top + (size_t)rows)
        s->top = s->sel - (size_t)rows + 1;
    attron(A_BOLD);
    mvprintw(1, x, "%-*.*s", w - x - 1, w - x - 1, kind_titles[s->kind]);
    attroff(A_BOLD);
    if (n == 0)
        mvprintw(3, x, "(none)");
    for (int r = 0; r < rows && s->top + (size_t)r < n; r++) {
        size_t i = s->top + (size_t)r;
        char line[512];
        if (s->kind == STORE_RUN)
            snprintf(line, sizeof line, "#%-4lld %-16s %s", (long long)it[i].id, it[i].name,
                     it[i].detail);
        else if (s->kind >= STORE_CLUSTER && s->kind <= STORE_SNAPSHOT)
            snprintf(line, sizeof line, "%-20s %7lld %s", it[i].name, (long long)it[i].count,
                     it[i].detail);
        else
            snprintf(line, sizeof line, "%-16s %s", it[i].name, it[i].detail);
        if (i == s->sel && s->focus_items)
            attron(A_REVERSE);
        mvprintw(3 + r, x, "%-*.*s", w - x - 1, w - x - 1, line);
        attroff(A_REVERSE);
    }
}

static void draw(tui_state *s)
{
    int h, w;
    getmaxyx(stdscr, h, w);
    erase();
    if (h < 24 || w < 80) {
        mvprintw(0, 0, "gpuplan needs at least 80x24 (this terminal is %dx%d)", w, h);
        refresh();
        return;
    }
    attron(A_REVERSE);
    mvprintw(0, 0, "%-*.*s", w, w, " gpuplan — GPU datacenter planner");
    mvprintw(h - 1, 0, "%-*.*s", w, w, s->status[0] ? s->status
             : " q quit  Tab pane  arrows/hjkl move  r reload");
    attroff(A_REVERSE);
    draw_kinds(s, h);
    draw_items(s, h, w);
    mvprintw(h - 2, 1, "%.*s", w - 2, s->db_path);
    refresh();
}

/* Returns 0 to keep going, 1 to quit. */
static int handle_key(tui_state *s, store *st, int ch)
{
    size_t n = s->nitems[s->kind];
    s->status[0] = '\0';
    switch (ch) {
    case 'q':
        return 1;
    case '\t':
    case KEY_RIGHT:
    case 'l':
        s->focus_items = ch == '\t' ? !s->focus_items : 1;
        break;
    case KEY_LEFT:
    case 'h':
    case 27:
        s->focus_items = 0;
        break;
    case KEY_DOWN:
    case 'j':
        if (!s->focus_items && s->kind + 1 < STORE_KIND_COUNT)
            s->kind++, s->sel = s->top = 0;
        else if (s->focus_items && s->sel + 1 < n)
            s->sel++;
        break;
    case KEY_UP:
    case 'k':
        if (!s->focus_items && s->kind > 0)
            s->kind--, s->sel = s->top = 0;
        else if (s->focus_items && s->sel > 0)
            s->sel--;
        break;
    case 'r':
        load_state(s, st);
        break;
    default:
        break;
    }
    return 0;
}

int tui_main(cli_ctx *ctx)
{
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    tui_state s;
    memset(&s, 0, sizeof s);
    s.db_path = store_path(st);
    load_state(&s, st);
    if (!initscr())
        return EXIT_RUNTIME;
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    for (;;) {
        draw(&s);
        int ch = getch();
        if (ch == KEY_RESIZE)
            continue;
        if (handle_key(&s, st, ch))
            break;
    }
    endwin();
    free_state(&s);
    return EXIT_OK;
}
