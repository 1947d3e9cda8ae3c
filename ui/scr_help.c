/*
 * scr_help.c — the Help screen (? or F1): every key of the screen it was
 * opened from, generated from that screen's key table (in its current
 * mode) and the global table, so Help cannot disagree with the code.
 */
#include "app.h"
#include "draw.h"
#include "repro/repro.h"

#include <curses.h>
#include <stdio.h>

static const char *const about[SCR_COUNT] = {
    [SCR_COMPARE] = "Run 2-6 policies side by side on one trace and cluster; live charts of "
                    "active GPUs, power, fragmentation and queue/JCT, and the run table.",
    [SCR_STEP] = "The focused policy's current placement decision: the incoming task, every "
                 "candidate GPU with its score terms, the choice, the cluster after it.",
    [SCR_CLUSTER] = "Servers x GPUs of the focused run (or of a snapshot), coloured by "
                    "allocation, utilization, power state, frequency or memory.",
    [SCR_PLANNER] = "How many GPUs to buy: sweep the GPU count for a trace and a GPU profile "
                    "and compare SLA violations, JCT, power and CapEx per policy.",
    [SCR_DATA] = "What the database holds: traces, clusters, profiles, snapshots, saved "
                 "runs. Import files, edit profiles, delete, reopen runs.",
    [SCR_HELP] = "",
};

/* Help lines: a section title (label NULL) or a key with its text. */
typedef struct help_line {
    const char *label, *text;
} help_line;

static int collect(const app *a, help_line *out, int cap, char *title, size_t tlen)
{
    int n = 0;
    const ui_screen *s = ui_screen_of(a->back);
    snprintf(title, tlen, "Keys of %s", s->name);
    out[n++] = (help_line){NULL, title};
    for (const ui_key *k = s->keys(a); k && k->fn && n < cap; k++)
        out[n++] = (help_line){k->label, k->help};
    if (n < cap)
        out[n++] = (help_line){NULL, "Everywhere"};
    for (const ui_key *k = ui_global_keys(); k->fn && n < cap; k++)
        out[n++] = (help_line){k->label, k->help};
    /* What no key table holds: the mouse and what is remembered. */
    static const help_line more[] = {
        {"mouse", "click a tab to open it, a row to put the cursor there (its pane takes "
                  "the keys); double click: Enter; wheel: up / down"},
        {"settings", "the chart style and the last trace, cluster and policies are kept in "
                     "$XDG_CONFIG_HOME/gpuplan/settings (else ~/.config/gpuplan/settings)"},
    };
    for (size_t i = 0; i < sizeof more / sizeof *more && n < cap; i++)
        out[n++] = more[i];
    /* The papers' experiments: `gpuplan reproduce NAME --save` stores their
     * runs, which Data reopens in Compare. */
    if (n < cap)
        out[n++] = (help_line){NULL, "Papers (gpuplan reproduce NAME --save; open the runs "
                                     "from Data in Compare)"};
    const repro_paper *p;
    for (size_t i = 0; (p = repro_paper_nth(i)) && n < cap; i++)
        out[n++] = (help_line){p->name, p->experiments};
    return n;
}

/* Where the key lines go: below the screen's summary (at most two lines)
 * and a blank line. */
static rect help_rows(const app *a)
{
    rect in = layout_inner(layout_body(a->rows, a->cols));
    int about_h = text_wrap_lines(in.w - 2, 2, about[a->back]);
    int h = in.h - about_h - 1;
    return (rect){in.y + about_h + 1, in.x, h > 0 ? h : 0, in.w};
}

static void help_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    (void)hl;
    const help_line *l = &((const help_line *)ctx)[i];
    if (!l->label) {
        draw_text(r.y, r.x + 1, r.w - 2, ui_attr(C_TITLE), l->text);
        return;
    }
    draw_text(r.y, r.x + 3, 14, A_BOLD, l->label);
    draw_text(r.y, r.x + 18, r.w - 19, A_NORMAL, l->text);
}

static void help_draw(const app *a)
{
    rect body = layout_body(a->rows, a->cols);
    const ui_screen *s = ui_screen_of(a->back);
    char title[64];
    snprintf(title, sizeof title, "Help %s %s", sym(SYM_DASH), s->name);
    draw_box(body, title, 1);
    rect in = layout_inner(body);
    draw_wrap(in.y, in.x + 1, in.w - 2, 2, A_NORMAL, about[a->back]);
    help_line lines[96];
    char keys_title[64];
    int n = collect(a, lines, 96, keys_title, sizeof keys_title);
    rect rows = help_rows(a);
    listview v = lv_shown(&a->help, (size_t)n, rows.h);
    lv_draw(&v, rows, LV_HL_NONE, help_row, lines);
    draw_status(a, "Help", "j/k scroll  Esc or ? back  q quit");
}

static ui_rc help_scroll(app *a, int key)
{
    help_line lines[96];
    char keys_title[64];
    lv_set_count(&a->help, (size_t)collect(a, lines, 96, keys_title, sizeof keys_title));
    lv_scroll_key(&a->help, key == ' ' ? KEY_NPAGE : key, help_rows(a).h);
    return UI_DONE;
}

static const ui_key help_keys[] = {
    {{KEY_DOWN, 'j', KEY_UP, 'k'}, "j k", "scroll one line", help_scroll},
    {{KEY_NPAGE, KEY_PPAGE, ' '}, "PgDn PgUp", "scroll one page", help_scroll},
    {{0}, NULL, NULL, NULL},
};

static const ui_key *help_keytab(const app *a)
{
    (void)a;
    return help_keys;
}

static ui_rc help_key(app *a, int key)
{
    return ui_dispatch(a, help_keys, key);
}

/* Help opens at its top, for whichever screen it describes. */
static void help_enter(app *a)
{
    lv_reset(&a->help, 0);
}

const ui_screen scr_help = {
    .name = "Help", .hotkey = '?', .fkey = 1, .draw = help_draw, .key = help_key,
    .keys = help_keytab, .tick = NULL, .enter = help_enter,
};
