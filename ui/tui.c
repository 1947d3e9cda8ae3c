/*
 * tui.c — the dashboard's main loop: terminal setup and teardown (also on
 * error paths), the global key table, screen switching, KEY_RESIZE (handled
 * here and nowhere else), modals, and the timer that drives playback and
 * planner sweeps.  Every turn redraws the whole screen from the app state;
 * curses sends only what changed.
 *
 * The mouse is turned into keys here (a click on a list row: the keys that
 * move the cursor there; see listview.h's hits), the settings the
 * dashboard remembers (settings.h) are applied at start and written after
 * any key that changed them, and q asks before throwing unsaved work away.
 *
 * The terminal is reached through its own file descriptor: while the
 * dashboard runs, file descriptors 1 and 2 point at /dev/null (or at
 * $GPUPLAN_TUI_LOG), so no library can scribble over the screen; errors
 * reach the user as gp_err messages on the status line.
 *
 * The terminal is given back on every way out: term_close() on quitting,
 * an atexit() handler when something calls exit(), termguard.h's handler
 * when something aborts (xmalloc on out-of-memory), and curses' own
 * handler on SIGTERM.  Ctrl-C is a key here (ctrl_c_as_key), not SIGINT.
 */
#include "tui.h"
#include "app.h"
#include "draw.h"
#include "engine.h"
#include "export.h"
#include "pathcomp.h"
#include "settings.h"
#include "termguard.h"

#include <assert.h>
#include <curses.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* --- screens ------------------------------------------------------------- */

const ui_screen *ui_screen_of(scr_id id)
{
    static const ui_screen *const all[SCR_COUNT] = {
        &scr_compare, &scr_step, &scr_cluster, &scr_planner, &scr_data, &scr_help,
    };
    return id < SCR_COUNT ? all[id] : all[0];
}

static void quit_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    (void)choice;
    a->quit = ok;
}

/* Ctrl-C confirmed: the work is thrown away and the exit status says the
 * dashboard was interrupted (128 + SIGINT, as a shell reports it). */
static void interrupt_done(app *a, int ok, const char *text, int choice)
{
    quit_done(a, ok, text, choice);
    if (ok)
        a->exit_status = EXIT_INTERRUPTED;
}

/* What quitting would throw away: unsaved runs, a sweep's results (the
 * Planner keeps them only on screen).  "" when nothing. */
static void unsaved_work(const app *a, char *what, size_t len)
{
    int runs = runset_unsaved(&a->rs);
    int sweep = a->pl.sw.state == PLAN_DONE || a->pl.sw.state == PLAN_RUNNING;
    what[0] = '\0';
    if (runs)
        snprintf(what, len, "%d unsaved run%s (S in Compare saves finished ones)", runs,
                 runs == 1 ? "" : "s");
    if (sweep) {
        size_t l = strlen(what);
        snprintf(what + l, len - l, "%sthe Planner's %s sweep", l ? " and " : "",
                 a->pl.sw.state == PLAN_DONE ? "finished" : "running");
    }
}

/* q and Ctrl-C ask the same question; a quit that loses nothing exits 0. */
static ui_rc key_quit(app *a, int key)
{
    char what[160], q[200];
    unsaved_work(a, what, sizeof what);
    if (!what[0])
        return UI_QUIT;
    snprintf(q, sizeof q, "Quit and throw away %s?", what);
    modal_confirm(a, q, key == KEY_CTRL_C ? interrupt_done : quit_done);
    return UI_DONE;
}

static ui_rc key_help(app *a, int key)
{
    (void)key;
    if (a->scr == SCR_HELP)
        app_goto(a, a->back);
    else
        app_goto(a, SCR_HELP);
    return UI_DONE;
}

static ui_rc key_screen(app *a, int key)
{
    for (int i = 0; i < SCR_COUNT; i++) {
        const ui_screen *s = ui_screen_of((scr_id)i);
        if (key == s->hotkey || key == KEY_F(s->fkey)) {
            app_goto(a, (scr_id)i);
            return UI_DONE;
        }
    }
    return UI_PASS;
}

static ui_rc key_back(app *a, int key)
{
    (void)key;
    if (a->scr == a->back)
        return UI_DONE;
    app_goto(a, a->back);
    return UI_DONE;
}

static ui_rc key_redraw(app *a, int key)
{
    (void)a;
    (void)key;
    clearok(curscr, TRUE);
    return UI_DONE;
}

static ui_rc key_style(app *a, int key)
{
    (void)key;
    const ui_caps *c = &a->caps;
    chart_style st = c->style;
    do
        st = (chart_style)((st + 1) % CHART_NSTYLES);
    while (!chart_style_allowed(st, c->term, c->utf8, c->color));
    a->caps.style = st;
    app_msg(a, "chart style: %s%s", chart_style_name(st),
            chart_style_for(c->term, c->utf8, c->color) == CHART_ASCII
                ? " (the only one this terminal shows)" : "");
    return UI_DONE;
}

static const ui_key global_keys[] = {
    {{'?', KEY_F(1)}, "? F1", "help for the current screen (again: back)", key_help},
    {{'1', KEY_F(2)}, "1 F2", "Compare: policies side by side", key_screen},
    {{'2', KEY_F(3)}, "2 F3", "Step: the current placement decision", key_screen},
    {{'3', KEY_F(4)}, "3 F4", "Cluster: heatmap of servers x GPUs", key_screen},
    {{'4', KEY_F(5)}, "4 F5", "Planner: how many GPUs to buy", key_screen},
    {{'5', KEY_F(6)}, "5 F6", "Data: traces, clusters, profiles, runs", key_screen},
    {{KEY_ESC}, "Esc", "back to the previous screen", key_back},
    {{12}, "^L", "redraw the terminal", key_redraw},
    {{'G'}, "G", "chart style: braille / blocks / ascii", key_style},
    {{'X'}, "X", "export what the screen shows: tables as CSV, charts as SVG and PNG; "
     "or show the gpuplan command for the same", export_key},
    {{'q', 'Q', KEY_F(10)}, "q F10", "quit (asks first when unsaved runs or a sweep would be lost)",
     key_quit},
    {{KEY_CTRL_C}, "^C", "quit as q does; confirmed over unsaved work, exits with status 130; "
     "in a prompt, question or menu it cancels, as Esc does",
     key_quit},
    {{0}, NULL, NULL, NULL},
};

const ui_key *ui_global_keys(void)
{
    return global_keys;
}

/* --- modals -------------------------------------------------------------- */

/* Lines of a prompt's or question's title in a box w wide: it wraps
 * rather than being cut (an import prompt names the formats it reads). */
static int modal_title_lines(const modal *m, int w)
{
    return w > 4 ? text_wrap_lines(w - 2, 4, m->title) : 1;
}

/* Where the modal box goes: a menu as tall as its items, else its title's
 * lines and four more, centred (drawing and the menu's keys both ask). */
static rect modal_rect(const app *a)
{
    const modal *m = &a->m;
    int w = a->cols - 8 < 76 ? a->cols - 8 : 76;
    int h = m->kind == MODAL_MENU ? m->nitems + 4 : 4 + modal_title_lines(m, w);
    if (h > a->rows - 4)
        h = a->rows - 4;
    rect r = {(a->rows - h) / 2, (a->cols - w) / 2, h, w};
    return r;
}

/* The menu's item rows: the box's inside but for the hint line. */
static rect menu_rows(const app *a)
{
    rect in = layout_inner(modal_rect(a));
    layout_take_bottom(&in, 1);
    return in;
}

static void modal_close(app *a, int ok, int choice)
{
    modal m = a->m;
    a->m.kind = MODAL_NONE;
    if (m.done)
        m.done(a, ok, m.text, choice);
}

/* Tab in a prompt for paths: completes the word before the cursor; when
 * several names match, the status line lists them. */
static void complete_prompt(app *a)
{
    modal *m = &a->m;
    char shown[200];
    int n = path_complete(m->text, sizeof m->text, &m->cursor, shown, sizeof shown);
    if (n == 0)
        app_err(a, "no file matches");
    else if (n > 1)
        app_msg(a, "%d match: %s", n, shown);
}

static void modal_key(app *a, int key)
{
    modal *m = &a->m;
    /* Ctrl-C in a prompt, question or menu cancels it, as in a shell's
     * line editor: only a second Ctrl-C, with no modal open, quits. */
    if (key == KEY_ESC || key == KEY_CTRL_C) {
        modal_close(a, 0, -1);
        return;
    }
    switch (m->kind) {
    case MODAL_PROMPT:
        if (key == '\n' || key == '\r' || key == KEY_ENTER)
            modal_close(a, 1, -1);
        else if (key == '\t' && m->complete_paths)
            complete_prompt(a);
        else
            lineedit_key(m->text, sizeof m->text, &m->cursor, key);
        break;
    case MODAL_CONFIRM:
        if (key == 'y' || key == 'Y')
            modal_close(a, 1, -1);
        else if (key == 'n' || key == 'N')
            modal_close(a, 0, -1);
        break;
    case MODAL_MENU:
        if (key == '\n' || key == '\r' || key == KEY_ENTER)
            modal_close(a, 1, (int)m->menu.cursor);
        else
            lv_key(&m->menu, key, menu_rows(a).h);
        break;
    default:
        break;
    }
}

static void menu_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    const modal *m = ctx;
    assert(i < (size_t)m->nitems);
    char line[112];
    snprintf(line, sizeof line, "%s%s", hl != LV_HL_NONE ? "> " : "  ", m->items[i]);
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

static void modal_draw(const app *a)
{
    const modal *m = &a->m;
    rect r = modal_rect(a);
    draw_fill(r, A_NORMAL);
    draw_box(r, m->kind == MODAL_MENU ? m->title : NULL, 1);
    rect in = layout_inner(r);
    if (m->kind == MODAL_MENU) {
        lv_draw(&m->menu, menu_rows(a), LV_HL_FOCUSED, menu_row, m);
        draw_text(in.y + in.h - 1, in.x, in.w, ui_attr(C_DIM), "Enter choose  Esc cancel");
        return;
    }
    in.y += draw_wrap(in.y, in.x, in.w, modal_title_lines(m, r.w), A_BOLD, m->title) - 1;
    if (m->kind == MODAL_CONFIRM) {
        draw_text(in.y + 2, in.x, in.w, A_NORMAL, "y yes    n / Esc no");
        return;
    }
    /* The line scrolls so the cursor stays visible. */
    int field = in.w - 2;
    char before[MODAL_TEXT_MAX];
    snprintf(before, sizeof before, "%.*s", (int)m->cursor, m->text);
    int cw = text_width(before);
    int skip = cw > field - 1 ? cw - (field - 1) : 0;
    const char *s = m->text;
    for (int c = 0; c < skip && *s; c++) {
        s++;
        while ((*s & 0xC0) == 0x80)
            s++;
    }
    draw_line(in.y + 1, in.x, in.w, A_UNDERLINE, s);
    draw_text(in.y + 2, in.x, in.w, ui_attr(C_DIM), "Enter accept  Esc cancel  ^U clear");
    move(in.y + 1, in.x + cw - skip);
}

/* --- frame and keys -------------------------------------------------------- */

static void draw_too_small(const app *a)
{
    char msg[160];
    snprintf(msg, sizeof msg, "gpuplan needs a terminal of at least %dx%d; this one is %dx%d.",
             LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, a->cols, a->rows);
    /* Wrapped, never cut: the sizes are the point of the message. */
    const char *hint = "Enlarge the window, or press q to quit.";
    int n = text_wrap_lines(a->cols, a->rows, msg);
    int y = (a->rows - n - 1) / 2;
    y = y > 0 ? y : 0;
    y += draw_wrap(y, 0, a->cols, a->rows - y, A_BOLD, msg);
    draw_wrap(y, 0, a->cols, a->rows - y, A_NORMAL, hint);
}

/* Paints the frame into curses' buffer, recording where lists went;
 * draw_frame() then sends it to the terminal. */
static void compose_frame(const app *a, lv_hits *hits)
{
    lv_hits_record(hits);
    /* Every layout is computed from the size the loop just read. */
    assert(a->rows == getmaxy(stdscr) && a->cols == getmaxx(stdscr));
    erase();
    curs_set(0);
    if (layout_too_small(a->rows, a->cols)) {
        draw_too_small(a);
    } else {
        draw_tabs(a);
        ui_screen_of(a->scr)->draw(a);
        if (a->m.kind != MODAL_NONE) {
            modal_draw(a);
            if (a->m.kind == MODAL_PROMPT)
                curs_set(1);
        }
    }
    lv_hits_record(NULL);
}

static void draw_frame(const app *a, lv_hits *hits)
{
    compose_frame(a, hits);
    refresh();
}

static ui_rc handle_key(app *a, int key)
{
    if (layout_too_small(a->rows, a->cols))
        return key == 'q' || key == 'Q' || key == KEY_CTRL_C ? UI_QUIT : UI_DONE;
    a->status[0] = '\0';
    /* Ctrl-C during a long action stops it, as Esc does. */
    if (key == KEY_CTRL_C && app_job_running(a))
        key = KEY_ESC;
    if (app_job_key(a, key))
        return UI_DONE;
    if (a->m.kind != MODAL_NONE) {
        modal_key(a, key);
        return UI_DONE;
    }
    ui_rc rc = ui_screen_of(a->scr)->key(a, key);
    if (rc == UI_PASS)
        rc = ui_dispatch(a, global_keys, key);
    return rc;
}

/* --- mouse ------------------------------------------------------------------ */

/* A click on a list row becomes the keys that do it by keyboard: Tab until
 * the list's pane has the keys (when another pane has them), then Up or
 * Down to the row; a double click adds Enter. */
static void click_row(app *a, lv_hits *hits, int y, int x, int twice)
{
    const lv_hit *h = lv_hit_at(hits, y, x);
    if (!h)
        return;
    /* A modal takes the keys: only its own menu (drawn last) is clickable. */
    if (a->m.kind != MODAL_NONE && (a->m.kind != MODAL_MENU || h != &hits->hit[hits->n - 1]))
        return;
    for (int tries = 0; h && h->hl != LV_HL_FOCUSED && tries < 3; tries++) {
        int other_focused = 0;
        for (int i = 0; i < hits->n; i++)
            other_focused |= hits->hit[i].hl == LV_HL_FOCUSED;
        if (!other_focused || handle_key(a, '\t') == UI_QUIT)
            return;
        compose_frame(a, hits);
        h = lv_hit_at(hits, y, x);
    }
    if (!h || h->hl != LV_HL_FOCUSED)
        return;
    size_t row = h->first + (size_t)(y - h->r.y);
    if (row >= h->count)
        return;
    long steps = (long)row - (long)h->cursor;
    for (long i = 0; i < labs(steps); i++)
        handle_key(a, steps > 0 ? KEY_DOWN : KEY_UP);
    if (twice)
        handle_key(a, '\n');
}

/* The last press, to tell a double click: a second press on the same cell
 * soon after (curses' own double clicks ignore where they land). */
typedef struct mouse_state {
    int y, x;
    double t;
} mouse_state;

#define DOUBLE_CLICK_S 0.4

static void mouse_event(app *a, lv_hits *hits, mouse_state *last)
{
    MEVENT ev;
    if (getmouse(&ev) != OK || layout_too_small(a->rows, a->cols))
        return;
    int wheel = ev.bstate & BUTTON4_PRESSED ? KEY_UP
              : ev.bstate & BUTTON5_PRESSED ? KEY_DOWN : 0;
    if (wheel) {
        for (int i = 0; i < 3; i++)
            handle_key(a, wheel);
        return;
    }
    if (app_job_running(a))
        return;                 /* a long action takes only Esc */
    if (!(ev.bstate & BUTTON1_PRESSED))
        return;
    double now = now_seconds();
    int twice = ev.y == last->y && ev.x == last->x && now - last->t < DOUBLE_CLICK_S;
    *last = twice ? (mouse_state){-1, -1, 0} : (mouse_state){ev.y, ev.x, now};
    if (ev.y == 0 && a->m.kind == MODAL_NONE) {
        int tab = draw_tab_at(a, ev.x);
        if (tab >= 0)
            app_goto(a, (scr_id)tab);
        return;
    }
    a->status[0] = '\0';
    click_row(a, hits, ev.y, ev.x, twice);
}

/* Playback and sweeps go on whichever screen is showing, but not behind
 * a dialog: what the question is about must not change while it is asked
 * (the quit dialog's unsaved runs, a prompt's current time). */
static int tick_all(app *a, double dt)
{
    int busy = app_job_tick(a);
    if (a->m.kind != MODAL_NONE)
        return busy;
    for (int i = 0; i < SCR_COUNT; i++) {
        const ui_screen *s = ui_screen_of((scr_id)i);
        if (s->tick && s->tick(a, dt))
            busy = 1;
    }
    return busy;
}

/* Another program's writes (a cluster made with the CLI, an import) show
 * within a tick: when the store's data_version moved, the lists are read
 * again, each cursor kept on its item.  Own writes do not move it; the
 * screens that make them reload already. */
static void notice_writes(app *a, int64_t *seen)
{
    int64_t v;
    gp_err err;
    if (store_data_version(a->st, &v, &err) || v == *seen)
        return;
    *seen = v;
    data_reload(a);
    compare_set_input(a, NULL, NULL);
}

/* --- terminal -------------------------------------------------------------- */

typedef struct term_io {
    SCREEN *scr;
    FILE *out;
    int saved_out, saved_err;
} term_io;

/* Ctrl-C reaches the dashboard as a key, so it asks what q asks instead
 * of killing it: the terminal's interrupt character is off while curses
 * runs (endwin gives the terminal back its own modes, the character with
 * them).  Ctrl-Z still suspends. */
static void ctrl_c_as_key(void)
{
    struct termios t;
    if (tcgetattr(STDIN_FILENO, &t) != 0)
        return;
    t.c_cc[VINTR] = _POSIX_VDISABLE;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
        def_prog_mode();        /* kept when curses sets its modes again (after ^Z) */
}

/* Gives curses its own descriptor for the terminal and points 1 and 2 at
 * the log (or /dev/null). */
static int term_open(term_io *io)
{
    memset(io, 0, sizeof *io);
    io->saved_out = io->saved_err = -1;
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || !(io->out = fdopen(fd, "w"))) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int tty_ok = termguard_save(fd) == 0;
    io->scr = newterm(NULL, io->out, stdin);
    if (!io->scr) {
        fclose(io->out);
        return -1;
    }
    const char *log = getenv("GPUPLAN_TUI_LOG");
    int sink = open(log && *log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (sink >= 0) {
        fflush(stdout);
        fflush(stderr);
        io->saved_out = dup(STDOUT_FILENO);
        io->saved_err = dup(STDERR_FILENO);
        dup2(sink, STDOUT_FILENO);
        dup2(sink, STDERR_FILENO);
        close(sink);
    }
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    /* Clicks and the wheel (the terminal's own selection is Shift+drag
     * meanwhile). */
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);           /* presses at once; double clicks are told apart here */
    curs_set(0);
    ctrl_c_as_key();
    if (tty_ok)
        termguard_arm(io->saved_out, io->saved_err);
    return 0;
}

static void term_close(term_io *io)
{
    if (!io->scr)
        return;
    termguard_disarm();
    endwin();
    fflush(stdout);
    fflush(stderr);
    if (io->saved_out >= 0) {
        dup2(io->saved_out, STDOUT_FILENO);
        close(io->saved_out);
    }
    if (io->saved_err >= 0) {
        dup2(io->saved_err, STDERR_FILENO);
        close(io->saved_err);
    }
    delscreen(io->scr);
    fclose(io->out);
    io->scr = NULL;
}

/* --- the app ---------------------------------------------------------------- */

static void app_free(app *a)
{
    runset_clear(&a->rs);
    cmp_energy_free(&a->cmp.energy);
    free(a->cmp.traces.items);
    free(a->cmp.clusters.items);
    cluster_free_snapshot(&a->cl);
    planner_free(&a->pl);
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        free(a->data.lists[k].items);
    catalog_free(a->data.cat);
    free(a);
}

/* --- remembered settings --------------------------------------------------- */

/* What the app shows now, as settings. */
static void settings_of(const app *a, ui_settings *s)
{
    const compare_ui *c = &a->cmp;
    memset(s, 0, sizeof *s);
    strlcpy0(s->chart_style, chart_style_name(a->caps.style), sizeof s->chart_style);
    if (c->traces.lv.count)
        strlcpy0(s->trace, c->traces.items[c->traces.lv.cursor].name, sizeof s->trace);
    if (c->clusters.lv.count)
        strlcpy0(s->cluster, c->clusters.items[c->clusters.lv.cursor].name, sizeof s->cluster);
    for (int i = 0; i < c->npicked && i < SETTINGS_MAX_POLICIES; i++)
        strlcpy0(s->policies[s->npolicies++], c->picked[i], GP_NAME_MAX);
    compare_energy_settings(a, s);
}

/* 1 when label reads as a policy spec: its first word a policy with its
 * options, perhaps with a PEACE partition (as Compare's `a` checks). */
static int custom_spec_ok(const char *label)
{
    char word[GP_NAME_MAX], name[GP_NAME_MAX];
    const peace_policy *part;
    policy_spec sp;
    gp_err err;
    snprintf(word, sizeof word, "%s", label);
    word[strcspn(word, " ")] = '\0';
    return peace_split_spec(word, name, sizeof name, &part, &err) == 0 &&
           policy_spec_parse(name, &sp, &err) == 0;
}

/* Starts from the remembered settings: what no longer exists (a deleted
 * trace, a policy not in this build) is left at its default. */
static void settings_apply(app *a, const ui_settings *s)
{
    for (int st = 0; st < CHART_NSTYLES; st++)
        if (strcmp(s->chart_style, chart_style_name((chart_style)st)) == 0 &&
            chart_style_allowed((chart_style)st, a->caps.term, a->caps.utf8, a->caps.color))
            a->caps.style = (chart_style)st;
    compare_ui *c = &a->cmp;
    for (int i = 0; i < s->npolicies && c->npicked < RS_MAX; i++) {
        const char *label = s->policies[i];
        if (!policy_find(label)) {
            /* A spec once added with `a` (corrgpu:0.2, cats@nopart) comes back. */
            if (!custom_spec_ok(label) || c->ncustom == CMP_MAX_CUSTOM)
                continue;
            strlcpy0(c->custom[c->ncustom++], label, GP_NAME_MAX);
        }
        strlcpy0(c->picked[c->npicked++], label, GP_NAME_MAX);
    }
    compare_set_input(a, s->trace[0] ? s->trace : NULL, s->cluster[0] ? s->cluster : NULL);
    compare_energy_apply(a, s);
    c->pane = 0;
}

typedef struct remembered {
    char *path;
    ui_settings last;           /* as last read or written */
} remembered;

/* Writes the settings when they differ from the last ones written. */
static void remember(app *a, remembered *r)
{
    ui_settings now;
    settings_of(a, &now);
    if (settings_equal(&now, &r->last))
        return;
    gp_err err;
    if (settings_save(r->path, &now, &err))
        app_err(a, "settings not kept: %s", err.msg);
    r->last = now;
}

/* How long the loop waits for a key when nothing moves, in ms. */
#define IDLE_TICK_MS 1000

/* --- the loop ------------------------------------------------------------------ */

static void loop(app *a, remembered *r)
{
    lv_hits hits;
    memset(&hits, 0, sizeof hits);
    mouse_state last_press = {-1, -1, 0};
    double last = now_seconds();
    int64_t seen = 0;
    gp_err err;
    if (store_data_version(a->st, &seen, &err))
        app_err(a, "%s", err.msg);
    for (;;) {
        notice_writes(a, &seen);
        /* Tick before drawing, so the frame shows what the tick did (a
         * sweep that just finished, the run's new time). */
        double now = now_seconds();
        double dt = now - last;
        last = now;
        int busy = tick_all(a, dt > 0.25 ? 0.25 : dt);
        getmaxyx(stdscr, a->rows, a->cols);
        draw_frame(a, &hits);
        /* Tick at ~25 frames/s while something moves, else once a second
         * (to notice other programs' writes). */
        timeout(busy ? 40 : IDLE_TICK_MS);
        int ch = getch();
        if (ch == ERR)
            continue;
        if (ch == KEY_RESIZE) {
            /* The one place a resize is handled: the next turn reads the
             * new size and every screen lays itself out again. */
            clearok(curscr, TRUE);
            continue;
        }
        if (ch == KEY_MOUSE)
            mouse_event(a, &hits, &last_press);
        else if (handle_key(a, ch) == UI_QUIT)
            break;
        if (a->quit)
            break;
        remember(a, r);
    }
}

/* Restores the terminal when something below calls exit() (xmalloc on
 * out-of-memory); harmless when curses is not active. */
static void restore_at_exit(void)
{
    if (!isendwin())
        endwin();
}

int tui_main(cli_ctx *ctx)
{
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    /* The screen must not freeze while another program writes: a save
     * waits a few seconds, then fails with a message saying why. */
    store_set_wait_limit(st, 5);
    app *a = xcalloc(1, sizeof *a);
    a->ctx = ctx;
    a->st = st;
    runset_init(&a->rs);
    cmp_energy_init(&a->cmp.energy);
    term_io io;
    if (term_open(&io)) {
        fprintf(stderr, "gpuplan: cannot open the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        app_free(a);
        return EXIT_RUNTIME;
    }
    atexit(restore_at_exit);
    draw_init(&a->caps);
    data_reload(a);
    remembered r;
    memset(&r, 0, sizeof r);
    r.path = settings_path();
    gp_err err;
    if (settings_load(r.path, &r.last, &err))
        app_err(a, "settings ignored: %s", err.msg);
    settings_apply(a, &r.last);
    /* Written only when something changes from here. */
    settings_of(a, &r.last);
    loop(a, &r);
    free(r.path);
    term_close(&io);
    int status = a->exit_status;
    app_free(a);
    return status;
}
