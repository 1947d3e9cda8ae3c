/*
 * scr_help.c — the Help screen (? or F1): every key of the screen it was
 * opened from, generated from that screen's key table (in its current
 * mode) and the global table, so Help cannot disagree with the code.
 */
#include "app.h"
#include "draw.h"

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
    return n;
}

static void help_draw(app *a)
{
    rect body = layout_body(a->rows, a->cols);
    const ui_screen *s = ui_screen_of(a->back);
    char title[64];
    snprintf(title, sizeof title, "Help %s %s", sym(SYM_DASH), s->name);
    draw_box(body, title, 1);
    rect in = layout_inner(body);
    int about_h = draw_wrap(in.y, in.x + 1, in.w - 2, 2, A_NORMAL, about[a->back]);
    in.y += about_h - 1;
    in.h -= about_h - 1;
    help_line lines[96];
    char keys_title[64];
    int n = collect(a, lines, 96, keys_title, sizeof keys_title);
    a->help_lines = n;
    int vis = in.h - 2;
    if (a->help_top + (size_t)vis > (size_t)n)
        a->help_top = n > vis ? (size_t)(n - vis) : 0;
    for (int r = 0; r < vis && a->help_top + (size_t)r < (size_t)n; r++) {
        const help_line *l = &lines[a->help_top + (size_t)r];
        int y = in.y + 2 + r;
        if (!l->label) {
            draw_text(y, in.x + 1, in.w - 2, ui_attr(C_TITLE), l->text);
            continue;
        }
        draw_text(y, in.x + 3, 14, A_BOLD, l->label);
        draw_text(y, in.x + 18, in.w - 19, A_NORMAL, l->text);
    }
    draw_status(a, "Help", "j/k scroll  Esc or ? back  q quit");
}

static ui_rc help_scroll(app *a, int key)
{
    long d = key == KEY_DOWN || key == 'j' ? 1 : key == KEY_UP || key == 'k' ? -1
           : key == KEY_NPAGE || key == ' ' ? 10 : -10;
    long t = (long)a->help_top + d;
    a->help_top = t < 0 ? 0 : (size_t)t;
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

const ui_screen scr_help = {
    .name = "Help", .hotkey = '?', .fkey = 1, .draw = help_draw, .key = help_key,
    .keys = help_keytab, .tick = NULL,
};
