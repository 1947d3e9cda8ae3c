/*
 * scr_help.c — the Help screen (? or F1): what every column and term of
 * the screen it was opened from means (help_terms.h), then every key of
 * that screen, generated from its key table (in its current mode) and the
 * global table, so Help cannot disagree with the code.  A definition
 * longer than the screen is wide wraps onto more lines.
 */
#include "app.h"
#include "draw.h"
#include "help_terms.h"
#include "repro/repro.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

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

/* The most lines Help holds: the terms wrapped at 80 columns and the keys. */
#define HELP_LINES_MAX 320
/* The columns of a line's label. */
#define HELP_LABEL_W 14

/* Help lines: a section title (label NULL) or a key with its text; a
 * definition's lines after its first have the label "" and their own
 * piece of its text (len bytes of text; 0: all of it). */
typedef struct help_line {
    const char *label, *text;
    int len;
} help_line;

/* The room for a line's text beside its label (help_row). */
static int text_room(const app *a)
{
    int w = layout_inner(layout_body(a->rows, a->cols)).w - 19;
    return w > 20 ? w : 20;
}

/* Adds text under label, broken at spaces into lines of at most w bytes. */
static int add_wrapped(help_line *out, int n, int cap, const char *label, const char *text,
                       int w)
{
    const char *p = text;
    for (int first = 1; *p && n < cap; first = 0) {
        int len = (int)strlen(p);
        if (len > w) {
            len = w;
            while (len > w / 2 && p[len] != ' ')
                len--;
            if (p[len] != ' ')
                len = w;
        }
        out[n++] = (help_line){first ? label : "", p, len};
        p += len;
        while (*p == ' ')
            p++;
    }
    return n;
}

static int collect(const app *a, help_line *out, int cap, char *title, size_t tlen)
{
    int n = 0;
    const ui_screen *s = ui_screen_of(a->back);
    size_t nterms;
    const help_term *terms = help_terms(a->back, &nterms);
    if (nterms && n < cap)
        out[n++] = (help_line){NULL, "Columns and terms", 0};
    for (size_t i = 0; i < nterms; i++) {
        /* A name wider than the label column gets a line of its own. */
        int own_line = (int)strlen(terms[i].name) > HELP_LABEL_W;
        if (own_line && n < cap)
            out[n++] = (help_line){terms[i].name, "", 0};
        n = add_wrapped(out, n, cap, own_line ? "" : terms[i].name, terms[i].text,
                        text_room(a));
    }
    snprintf(title, tlen, "Keys of %s", s->name);
    if (n < cap)
        out[n++] = (help_line){NULL, title, 0};
    for (const ui_key *k = s->keys(a); k && k->fn && n < cap; k++)
        out[n++] = (help_line){k->label, k->help, 0};
    if (n < cap)
        out[n++] = (help_line){NULL, "Everywhere", 0};
    for (const ui_key *k = ui_global_keys(); k->fn && n < cap; k++)
        out[n++] = (help_line){k->label, k->help, 0};
    /* What no key table holds: the mouse and what is remembered. */
    static const help_line more[] = {
        {"mouse", "click a tab to open it, a row to put the cursor there (its pane takes "
                  "the keys); double click: Enter; wheel: up / down", 0},
        {"settings", "the chart style, the last trace, cluster and policies and Compare's "
                     "energy setting (E) are kept in $XDG_CONFIG_HOME/gpuplan/settings (else "
                     "~/.config/gpuplan/settings)", 0},
    };
    for (size_t i = 0; i < sizeof more / sizeof *more && n < cap; i++)
        out[n++] = more[i];
    /* The papers' experiments: `gpuplan reproduce NAME --save` stores their
     * runs, which Data reopens in Compare. */
    if (n < cap)
        out[n++] = (help_line){NULL, "Papers (gpuplan reproduce NAME --save; open the runs "
                                     "from Data in Compare)", 0};
    const repro_paper *p;
    for (size_t i = 0; (p = repro_paper_nth(i)) && n < cap; i++)
        out[n++] = (help_line){p->name, p->experiments, 0};
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
    /* A term wider than its column has the line to itself (collect). */
    draw_text(r.y, r.x + 3, (int)strlen(l->label) > HELP_LABEL_W ? r.w - 4 : HELP_LABEL_W,
              A_BOLD, l->label);
    if (l->len)
        draw_textf(r.y, r.x + 18, r.w - 19, A_NORMAL, "%.*s", l->len, l->text);
    else
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
    help_line lines[HELP_LINES_MAX];
    char keys_title[64];
    int n = collect(a, lines, HELP_LINES_MAX, keys_title, sizeof keys_title);
    rect rows = help_rows(a);
    listview v = lv_shown(&a->help, (size_t)n, rows.h);
    lv_draw(&v, rows, LV_HL_NONE, help_row, lines);
    draw_status(a, "Help", "j/k scroll  Esc or ? back  q quit");
}

static ui_rc help_scroll(app *a, int key)
{
    help_line lines[HELP_LINES_MAX];
    char keys_title[64];
    int n = collect(a, lines, HELP_LINES_MAX, keys_title, sizeof keys_title);
    lv_set_count(&a->help, (size_t)n);
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
