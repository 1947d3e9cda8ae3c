/*
 * scr_compare.c — the Compare screen, the home screen.  Two modes:
 *   setup  pick a trace, a cluster and 1–6 policies (2–6 to compare);
 *   run    the policies side by side (runset.h): live charts of active
 *          GPUs, power, fragmentation and queue length or mean JCT, one
 *          series per policy, and the run table; play/pause, step one
 *          placement of the focused policy forward/back, speed, restart.
 * Saved runs reopened from Data show here too, from their stored
 * timelines.
 */
#include "app.h"
#include "draw.h"
#include "engine.h"
#include "textfit.h"
#include "core/fit.h"
#include "core/runsum.h"

#include <assert.h>
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- policies list (registry + custom specs) ---------------------------- */

static size_t registry_count(void)
{
    size_t n = 0;
    while (policy_nth(n))
        n++;
    return n;
}

static size_t pol_count(const app *a)
{
    return registry_count() + (size_t)a->cmp.ncustom;
}

static const char *pol_label(const app *a, size_t i)
{
    size_t r = registry_count();
    if (i < r)
        return policy_nth(i)->name;
    return a->cmp.custom[i - r];
}

static int picked_index(const app *a, const char *label)
{
    for (int i = 0; i < a->cmp.npicked; i++)
        if (strcmp(a->cmp.picked[i], label) == 0)
            return i;
    return -1;
}

static void pick_toggle(app *a, const char *label)
{
    compare_ui *c = &a->cmp;
    int i = picked_index(a, label);
    if (i >= 0) {
        memmove(c->picked[i], c->picked[i + 1], (size_t)(c->npicked - i - 1) * sizeof c->picked[0]);
        c->npicked--;
        return;
    }
    if (c->npicked >= RS_MAX) {
        app_err(a, "at most %d policies side by side", RS_MAX);
        return;
    }
    strlcpy0(c->picked[c->npicked++], label, GP_NAME_MAX);
}

static void default_picks(app *a)
{
    static const char *const prefer[] = {"cats", "corrgpu", "first"};
    for (size_t i = 0; i < 3; i++)
        if (policy_find(prefer[i]))
            pick_toggle(a, prefer[i]);
    for (size_t i = 0; a->cmp.npicked < 2 && policy_nth(i); i++)
        if (picked_index(a, policy_nth(i)->name) < 0)
            pick_toggle(a, policy_nth(i)->name);
}

/* The power model the next runs are measured with: each policy's own (as
 * `gpuplan run` without --power), or one for every row (--power). */
static int picked_model(const app *a, int i)
{
    policy_spec sp;
    gp_err ignore;
    char name[GP_NAME_MAX];
    const peace_policy *part;
    if (a->cmp.power_choice > 0)
        return a->cmp.power_choice - 1;
    snprintf(name, sizeof name, "%s", a->cmp.picked[i]);
    name[strcspn(name, " ")] = '\0';
    char base[GP_NAME_MAX];
    if (peace_split_spec(name, base, sizeof base, &part, &ignore) ||
        policy_spec_parse(base, &sp, &ignore))
        return -1;
    return (int)sp.ops->power;
}

/* 1 when the picked policies would be measured with different models. */
static int picks_mixed_power(const app *a)
{
    for (int i = 1; i < a->cmp.npicked; i++)
        if (picked_model(a, i) != picked_model(a, 0))
            return 1;
    return 0;
}

static const char *pol_name(const void *a, size_t i)
{
    return pol_label(a, i);
}

static size_t find_item(const ui_list *l, const char *name)
{
    for (size_t i = 0; i < l->lv.count; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return i;
    return l->lv.count;
}

static const char *sel_name(const ui_list *l)
{
    return l->lv.count ? l->items[l->lv.cursor].name : "";
}

/* --- setup geometry (drawing and keys both ask) ------------------------------ */

typedef struct setup_geom {
    rect info;
    rect panes[3];              /* traces, clusters, policies */
    rect about;
} setup_geom;

/* The setup's second line: what Enter runs.  The cap in short (its
 * message when typed says what it does) and the power model last. */
static void setup_run_line(const app *a, char *buf, size_t len)
{
    const compare_ui *c = &a->cmp;
    char picks[256] = "";
    for (int i = 0; i < c->npicked; i++) {
        size_t l = strlen(picks);
        snprintf(picks + l, sizeof picks - l, "%s%s", i ? ", " : "", c->picked[i]);
    }
    char cap[288] = "";
    if (power_caps_any(&c->caps)) {
        char caps[256];
        power_caps_format(&c->caps, caps, sizeof caps);
        snprintf(cap, sizeof cap, ", GPU cap %s%s", caps, c->caps.all_w > 0 ? " W" : "");
    }
    char power[96];
    if (c->power_choice > 0)
        snprintf(power, sizeof power, "; power: all %s",
                 power_model_name((power_model)(c->power_choice - 1)));
    else if (picks_mixed_power(a))
        snprintf(power, sizeof power, "; power: each policy's own, MIXED models (p: one)");
    else
        snprintf(power, sizeof power, "; power: each policy's own");
    snprintf(buf, len, "Run: %s on %s with %s%s%s", sel_name(&c->traces),
             sel_name(&c->clusters), c->npicked ? picks : "(no policy picked)", cap, power);
}

/* Lines the run line takes: it wraps onto a second rather than lose its
 * end (the power model) at 80 columns. */
static int setup_run_lines(const app *a)
{
    char run_line[1024];
    setup_run_line(a, run_line, sizeof run_line);
    return text_wrap_lines(a->cols - 2, 2, run_line);
}

static setup_geom setup_layout(const app *a)
{
    const compare_ui *c = &a->cmp;
    setup_geom g;
    rect body = layout_body(a->rows, a->cols), rest;
    g.info = layout_take_top(&body, 1 + setup_run_lines(a));
    /* The lists are as tall as the longest needs, leaving About room. */
    size_t longest = c->traces.lv.count > c->clusters.lv.count ? c->traces.lv.count
                                                               : c->clusters.lv.count;
    if (pol_count(a) > longest)
        longest = pol_count(a);
    int lists_h = (int)longest + 2 < body.h - 10 ? (int)longest + 2 : body.h - 10;
    if (lists_h < 5)
        lists_h = 5;
    rect lists = layout_take_top(&body, lists_h);
    layout_split(lists, lists.w * 27 / 100, 40, &g.panes[0], &rest);
    layout_split(rest, rest.w * 45 / 100, 24, &g.panes[1], &g.panes[2]);
    g.about = body;
    return g;
}

static int pane_rows(const app *a, int pane)
{
    return layout_inner(setup_layout(a).panes[pane]).h;
}

/* The policy under the cursor (the list grows with custom specs). */
static size_t pol_cursor(const app *a)
{
    return lv_shown(&a->cmp.pols, pol_count(a), 1).cursor;
}

/* (Re)loads the trace and cluster lists, selecting the given names, else
 * keeping the current selection, else cats-testbed.  A trace chosen alone
 * brings its same-named cluster (the sample sets pair them). */
void compare_set_input(app *a, const char *trace, const char *cluster_nm)
{
    compare_ui *c = &a->cmp;
    char cur_t[GP_NAME_MAX] = "cats-testbed", cur_c[GP_NAME_MAX] = "";
    if (c->traces.lv.count)
        snprintf(cur_t, sizeof cur_t, "%s", sel_name(&c->traces));
    if (c->clusters.lv.count)
        snprintf(cur_c, sizeof cur_c, "%s", sel_name(&c->clusters));
    app_load_list(a, &c->traces, STORE_TRACE);
    app_load_list(a, &c->clusters, STORE_CLUSTER);
    lv_set_count(&c->pols, pol_count(a));
    const char *t = trace ? trace : cur_t;
    size_t i = find_item(&c->traces, t);
    lv_select(&c->traces.lv, i < c->traces.lv.count ? i : 0, pane_rows(a, 0));
    const char *cl = cluster_nm ? cluster_nm : trace ? trace : cur_c[0] ? cur_c : t;
    i = find_item(&c->clusters, cl);
    if (i < c->clusters.lv.count)
        lv_select(&c->clusters.lv, i, pane_rows(a, 1));
    if (c->npicked == 0)
        default_picks(a);
    if (trace || cluster_nm) {
        c->mode = CMP_SETUP;
        c->pane = trace ? 0 : 1;
    }
}

/* After an action that held the screen long enough to look frozen, the
 * keys typed meanwhile are dropped, not replayed on what it shows; a quick
 * one keeps them (typing ahead). */
#define TYPEAHEAD_KEPT_S 1.0

static void drop_keys_typed_since(double t0)
{
    if (now_seconds() - t0 > TYPEAHEAD_KEPT_S)
        flushinp();
}

void compare_open_runs(app *a, const int64_t *ids, int n)
{
    gp_err err;
    double t0 = now_seconds();
    int rc = runset_open_saved(&a->rs, a->st, ids, n, &err);
    drop_keys_typed_since(t0);
    if (rc) {
        app_err(a, "%s", err.msg);
        return;
    }
    a->cmp.mode = CMP_RUN;
    lv_reset(&a->cmp.runs, (size_t)a->rs.n);
    app_goto(a, SCR_COMPARE);
    app_msg(a, "%d saved run%s reopened (timelines as saved; r re-simulates for stepping)",
            n, n == 1 ? "" : "s");
}

/* --- setup mode ------------------------------------------------------------- */

/* The traces or the clusters pane of the setup. */
typedef struct input_pane {
    const ui_list *l;
    int clusters;               /* rows count nodes and GPUs, not tasks */
} input_pane;

/* A row's figures, most words first: "1 node, 184 GPUs", "184 GPUs",
 * "12k GPUs", "12k"; "6212 tasks", "6212"; "12345 tasks", "12k tasks",
 * "12345", "12k".  forms[4][32]. */
static int input_forms(const input_pane *p, const store_item *it, char forms[4][32])
{
    char a[32], b[32];
    if (p->clusters) {
        textfit_count(it->count, "node", "nodes", 0, a, sizeof a);
        textfit_count(it->count2, "GPU", "GPUs", 0, b, sizeof b);
        snprintf(forms[0], 32, "%s, %s", a, b);
        snprintf(forms[1], 32, "%s", b);
        textfit_count(it->count2, "GPU", "GPUs", 1, forms[2], 32);
        textfit_count(it->count2, NULL, NULL, 1, forms[3], 32);
        return 4;
    }
    textfit_count(it->count, "task", "tasks", 0, forms[0], 32);
    textfit_count(it->count, "task", "tasks", 1, forms[1], 32);
    textfit_count(it->count, NULL, NULL, 0, forms[2], 32);
    textfit_count(it->count, NULL, NULL, 1, forms[3], 32);
    return 4;
}

/* The name beside its figures: the figures are never cut; they lose words
 * first (the node count, then "GPUs"), then the name gives way, cut in
 * its middle, which keeps the ends that tell names apart. */
static void input_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    const input_pane *p = ctx;
    assert(i < p->l->lv.count);
    const store_item *it = &p->l->items[i];
    int nw = r.w / 2 < 20 ? r.w / 2 : 20;
    char forms[4][32], line[GP_NAME_MAX * 2 + 64];
    int n = input_forms(p, it, forms);
    const char *fp[4] = {forms[0], forms[1], forms[2], forms[3]};
    line[0] = ' ';
    textfit_name_figures(it->name, nw, fp, n, r.w - 1, 8, sym(SYM_ELLIPSIS), line + 1,
                         sizeof line - 1);
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

/* text over as many lines of in as it needs (a store error is long and
 * its last words say what went wrong). */
static void draw_wrapped(rect in, int attr, const char *text)
{
    size_t len = strlen(text), w = in.w > 1 ? (size_t)in.w - 1 : 1;
    for (int y = 0; y < in.h && len; y++) {
        size_t n = len < w ? len : w;
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)n, text);
        draw_text(in.y + y, in.x + 1, in.w - 1, attr, line);
        text += n;
        len -= n;
    }
}

static void draw_list_box(rect r, const char *title, int focused, const ui_list *l,
                          int clusters)
{
    draw_box(r, title, focused);
    rect in = layout_inner(r);
    if (l->err[0])
        draw_wrapped(in, ui_attr(C_ERR) | A_BOLD, l->err);
    else if (l->lv.count == 0)
        draw_text(in.y, in.x + 1, in.w - 1, ui_attr(C_DIM), "(none in the database)");
    input_pane p = {l, clusters};
    lv_draw(&l->lv, in, focused ? LV_HL_FOCUSED : LV_HL_UNFOCUSED, input_row, &p);
}

static void policy_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    const app *a = ctx;
    assert(i < pol_count(a));
    const char *label = pol_label(a, i);
    int p = picked_index(a, label);
    char mark[8];
    if (p >= 0)
        snprintf(mark, sizeof mark, "[%d]", p + 1);
    else
        snprintf(mark, sizeof mark, "[ ]");
    const policy_ops *ops = i < registry_count() ? policy_nth(i) : NULL;
    char line[160];
    snprintf(line, sizeof line, " %s %-14s %s", mark, label, ops ? ops->title : "(custom)");
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, p >= 0 ? A_BOLD : A_NORMAL), line);
}

static void draw_policies_box(const app *a, rect r)
{
    const compare_ui *c = &a->cmp;
    draw_box(r, "Policies (space: pick 2-6)", c->pane == 2);
    rect in = layout_inner(r);
    size_t n = pol_count(a);
    listview v = lv_shown(&c->pols, n, in.h);
    lv_draw(&v, in, c->pane == 2 ? LV_HL_FOCUSED : LV_HL_UNFOCUSED, policy_row, a);
    if (n == 0)
        draw_text(in.y, in.x + 1, in.w - 1, ui_attr(C_DIM), "(no policies in this build)");
}

/* What the cursor is on, in more words: a trace's source, a cluster's GPU
 * models, a policy's paper, family and options with their defaults. */
static void draw_about(const app *a, rect box)
{
    const compare_ui *c = &a->cmp;
    draw_box(box, "About", 0);
    rect in = layout_inner(box);
    in.x++;
    in.w--;
    int y = in.y;
    if (c->pane < 2) {
        const ui_list *l = c->pane == 0 ? &c->traces : &c->clusters;
        if (!l->lv.count)
            return;
        const store_item *it = &l->items[l->lv.cursor];
        draw_textf(y++, in.x, in.w, A_BOLD, "%s %s", c->pane == 0 ? "trace" : "cluster", it->name);
        if (c->pane == 0)
            draw_textf(y++, in.x, in.w, A_NORMAL, "%lld tasks, %lld with a utilization series",
                       (long long)it->count, (long long)it->count2);
        else
            draw_textf(y++, in.x, in.w, A_NORMAL, "%lld servers, %lld GPUs", (long long)it->count,
                       (long long)it->count2);
        draw_textf(y++, in.x, in.w, A_NORMAL, "%s%s", c->pane == 0 ? "source: " : "GPU models: ",
                   it->detail);
        return;
    }
    size_t i = pol_cursor(a);
    const policy_ops *ops = i < registry_count() ? policy_nth(i) : NULL;
    if (!ops) {
        if (pol_count(a))
            draw_textf(y++, in.x, in.w, A_BOLD, "custom spec %s", pol_label(a, i));
        return;
    }
    draw_textf(y++, in.x, in.w, A_BOLD, "%s: %s", ops->name, ops->title);
    draw_textf(y++, in.x, in.w, A_NORMAL, "family %s, power model %s by default",
               policy_family_get(ops->family)->name, power_model_name(ops->power));
    for (int k = 0; ops->options && ops->options[k].key && y < in.y + in.h; k++)
        draw_textf(y++, in.x, in.w, A_NORMAL, "  %s=%g  %s", ops->options[k].key,
                   ops->options[k].def, ops->options[k].help);
}

static void setup_draw(const app *a)
{
    const compare_ui *c = &a->cmp;
    setup_geom g = setup_layout(a);
    rect info = g.info;
    draw_text(info.y, 1, a->cols - 2, A_BOLD,
              "Compare: choose a trace, a cluster and 2-6 policies, then press Enter.");
    char run_line[1024];
    setup_run_line(a, run_line, sizeof run_line);
    draw_wrap(info.y + 1, 1, a->cols - 2, info.h - 1,
              picks_mixed_power(a) ? ui_attr(C_WARN) : A_NORMAL, run_line);
    draw_list_box(g.panes[0], "Traces", c->pane == 0, &c->traces, 0);
    draw_list_box(g.panes[1], "Clusters", c->pane == 1, &c->clusters, 1);
    draw_policies_box(a, g.panes[2]);
    draw_about(a, g.about);
    draw_status(a, "Compare setup",
                "Enter run  Tab pane  space pick  a add spec  c GPU cap  p power  X export  "
                "? help");
}

/* The list of a setup pane, its count brought up to date. */
static listview *pane_list(app *a, int pane)
{
    compare_ui *c = &a->cmp;
    lv_set_count(&c->pols, pol_count(a));
    return pane == 0 ? &c->traces.lv : pane == 1 ? &c->clusters.lv : &c->pols;
}

/* A trace chosen in the Traces pane brings its same-named cluster along
 * when there is one (by keys or by search alike). */
static void follow_trace(app *a)
{
    compare_ui *c = &a->cmp;
    if (c->pane != 0 || !c->traces.lv.count)
        return;
    size_t i = find_item(&c->clusters, sel_name(&c->traces));
    if (i < c->clusters.lv.count)
        lv_select(&c->clusters.lv, i, pane_rows(a, 1));
}

static ui_rc setup_move(app *a, int key)
{
    compare_ui *c = &a->cmp;
    lv_key(pane_list(a, c->pane), key, pane_rows(a, c->pane));
    follow_trace(a);
    return UI_DONE;
}

static ui_rc setup_pane(app *a, int key)
{
    compare_ui *c = &a->cmp;
    if (key == '\t' || key == KEY_RIGHT || key == 'l')
        c->pane = (c->pane + 1) % 3;
    else
        c->pane = (c->pane + 2) % 3;
    return UI_DONE;
}

static ui_rc setup_pick(app *a, int key)
{
    (void)key;
    compare_ui *c = &a->cmp;
    if (c->pane != 2) {
        c->pane++;
        return UI_DONE;
    }
    if (pol_count(a))
        pick_toggle(a, pol_label(a, pol_cursor(a)));
    return UI_DONE;
}

static ui_rc setup_clear(app *a, int key)
{
    (void)key;
    a->cmp.npicked = 0;
    return UI_DONE;
}

static void add_spec_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok || !*text)
        return;
    policy_spec sp;
    gp_err err;
    char name[GP_NAME_MAX], word[GP_NAME_MAX];
    const peace_policy *part;
    snprintf(word, sizeof word, "%s", text);
    char *space = strchr(word, ' ');
    if (space)
        *space = '\0';
    if (peace_split_spec(word, name, sizeof name, &part, &err) ||
        policy_spec_parse(name, &sp, &err)) {
        app_err(a, "%s", err.msg);
        return;
    }
    if (space) {
        char rest[GP_NAME_MAX], *save = NULL;
        snprintf(rest, sizeof rest, "%s", text + (space - word) + 1);
        upred_spec pred;    /* "predict=NAME": the slot's predictor (runset.h) */
        for (char *tok = strtok_r(rest, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
            if (strncmp(tok, "predict=", 8) == 0 ? upred_parse(tok + 8, &pred, &err)
                                                 : policy_spec_set(&sp, tok, &err)) {
                app_err(a, "%s", err.msg);
                return;
            }
    }
    compare_ui *c = &a->cmp;
    if (c->ncustom >= CMP_MAX_CUSTOM) {
        app_err(a, "at most %d custom specs", CMP_MAX_CUSTOM);
        return;
    }
    strlcpy0(c->custom[c->ncustom++], text, GP_NAME_MAX);
    c->pane = 2;
    lv_set_count(&c->pols, pol_count(a));
    lv_select(&c->pols, pol_count(a) - 1, pane_rows(a, 2));
    if (picked_index(a, text) < 0)
        pick_toggle(a, text);
}

static ui_rc setup_add(app *a, int key)
{
    (void)key;
    modal_prompt(a, "Policy spec, e.g. corrgpu:0.2, cats lambda1=2 lambda2=1 or cats@nopart",
                 "", add_spec_done);
    return UI_DONE;
}

/* The cap typed at c: W for every GPU, MODEL=W,... per model, empty for
 * none; refused as run --gpu-cap refuses it. */
static void cap_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    power_caps caps;
    gp_err err;
    if (!ok)
        return;
    if (power_caps_parse(text, &caps, &err) ||
        (a->data.cat && power_caps_check_models(&caps, a->data.cat, &err))) {
        app_err(a, "GPU power cap: %s: not changed", err.msg);
        return;
    }
    a->cmp.caps = caps;
    char list[256];
    power_caps_format(&caps, list, sizeof list);
    /* short enough for 80 columns: ? and docs/power-cap.md say the rest */
    if (power_caps_any(&caps))
        app_msg(a, "GPU cap %s%s (each capped GPU clamped to its curve; w: runs without "
                "PEACE)", list, caps.all_w > 0 ? " W" : "");
    else
        app_msg(a, "no GPU power cap");
}

static ui_rc setup_cap(app *a, int key)
{
    (void)key;
    char v[256] = "";
    if (power_caps_any(&a->cmp.caps))
        power_caps_format(&a->cmp.caps, v, sizeof v);
    modal_prompt(a, "GPU power cap: W for every GPU, MODEL=W,... per model, empty for none "
                 "(the clock is clamped where the GPU's power curve meets it; PEACE splits "
                 "the SMs on a model with a PEACE set)", v, cap_typed);
    return UI_DONE;
}

/* p in the setup. */
static ui_rc setup_power(app *a, int key)
{
    (void)key;
    compare_ui *c = &a->cmp;
    c->power_choice = (c->power_choice + 1) % 3;
    if (c->power_choice == 0)
        app_msg(a, "power: each policy's own model (as gpuplan run without --power)");
    else
        app_msg(a, "power: every run measured with %s (as gpuplan run --power %s)",
                power_model_name((power_model)(c->power_choice - 1)),
                power_model_name((power_model)(c->power_choice - 1)));
    return UI_DONE;
}

/* With and without PEACE: each picked policy that names no partition gets
 * a twin under the same cap without one (name@nopart). */
static ui_rc setup_twins(app *a, int key)
{
    (void)key;
    compare_ui *c = &a->cmp;
    if (!power_caps_any(&c->caps))
        c->caps.all_w = 100;
    int n = c->npicked, added = 0;
    for (int i = 0; i < n && c->npicked < RS_MAX && c->ncustom < CMP_MAX_CUSTOM; i++) {
        if (strchr(c->picked[i], '@'))
            continue;
        char twin[GP_NAME_MAX];
        snprintf(twin, sizeof twin, "%.40s@nopart", c->picked[i]);
        if (picked_index(a, twin) >= 0)
            continue;
        strlcpy0(c->custom[c->ncustom++], twin, GP_NAME_MAX);
        pick_toggle(a, twin);
        added++;
    }
    lv_set_count(&c->pols, pol_count(a));
    char caps[256];
    power_caps_format(&c->caps, caps, sizeof caps);
    app_msg(a, "%d run%s without PEACE added, GPU cap %s%s", added, added == 1 ? "" : "s",
            caps, c->caps.all_w > 0 ? " W" : "");
    return UI_DONE;
}

static ui_rc setup_run(app *a, int key)
{
    (void)key;
    compare_ui *c = &a->cmp;
    if (!c->traces.lv.count || !c->clusters.lv.count) {
        app_err(a, "the database has no trace or no cluster: import one in Data (5)");
        return UI_DONE;
    }
    if (c->npicked == 0) {
        app_err(a, "pick at least one policy (space in the Policies pane)");
        return UI_DONE;
    }
    const char *labels[RS_MAX];
    for (int i = 0; i < c->npicked; i++)
        labels[i] = c->picked[i];
    gp_err err;
    double t0 = now_seconds();
    int rc = runset_start(&a->rs, a->st, sel_name(&c->traces), sel_name(&c->clusters), labels,
                          c->npicked, &c->caps, c->power_choice - 1, &err);
    drop_keys_typed_since(t0);
    if (rc) {
        app_err(a, "%s", err.msg);
        return UI_DONE;
    }
    c->mode = CMP_RUN;
    lv_reset(&c->runs, (size_t)a->rs.n);
    /* Tasks no server can take fail under every policy: said first, as
     * `gpuplan run` says it on stderr (core/fit.h). */
    fit_report fr;
    if (a->rs.tr && a->rs.cl && fit_trace_cluster(a->rs.tr, a->rs.cl, a->rs.cat, &fr)) {
        char text[512];
        fit_report_text(&fr, a->rs.tr, a->rs.cl, text, sizeof text);
        app_err(a, "warning: the trace does not fit: %s", text);
        return UI_DONE;
    }
    app_msg(a, "%d run%s ready at t=0: space plays, %s steps one placement", c->npicked,
            c->npicked == 1 ? "" : "s", sym(SYM_ARROW_R));
    return UI_DONE;
}

static void search_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok)
        return;
    snprintf(a->search, sizeof a->search, "%s", text);
    int pane = a->cmp.pane, rows = pane_rows(a, pane);
    listview *lv = pane_list(a, pane);
    const ui_list *l = pane == 0 ? &a->cmp.traces : &a->cmp.clusters;
    int found = pane == 2 ? lv_search(lv, a->search, pol_name, a, rows)
                          : lv_search(lv, a->search, ui_list_name, l, rows);
    if (!found)
        app_err(a, "no match for '%s'", a->search);
    follow_trace(a);
}

static ui_rc setup_search(app *a, int key)
{
    if (key == 'n' && a->search[0]) {
        search_done(a, 1, a->search, 0);
        return UI_DONE;
    }
    modal_prompt(a, "Search", "", search_done);
    return UI_DONE;
}

static ui_rc setup_back(app *a, int key)
{
    (void)key;
    if (a->rs.n == 0)
        return UI_PASS;
    a->cmp.mode = CMP_RUN;
    return UI_DONE;
}

static const ui_key setup_keys[] = {
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "move in the list", setup_move},
    {{KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END}, "PgUp PgDn", "move a page / to the ends",
     setup_move},
    {{'\t', KEY_RIGHT, 'l'}, "Tab Right l", "next pane", setup_pane},
    {{KEY_BTAB, KEY_LEFT, 'h'}, "S-Tab Left h", "previous pane", setup_pane},
    {{' '}, "space", "pick / unpick the policy (in order)", setup_pick},
    {{'a'}, "a", "add a policy spec with options (corrgpu:0.2)", setup_add},
    {{'x'}, "x", "clear the picked policies", setup_clear},
    {{'c'}, "c", "GPU power cap: W or MODEL=W,... typed (empty: none)", setup_cap},
    {{'w'}, "w", "with and without PEACE: add each picked policy's @nopart twin", setup_twins},
    {{'p'}, "p", "power model of every run: each policy's own, cats, eopc (--power)",
     setup_power},
    {{'E'}, "E", "energy: price, carbon, PUE and TCO years of $energy, CO2e and TCO$",
     compare_energy_key},
    {{'\n', '\r', KEY_ENTER}, "Enter", "run the picked policies side by side", setup_run},
    {{'/', 'n'}, "/ n", "search the pane / next match", setup_search},
    {{KEY_ESC}, "Esc", "back to the running comparison", setup_back},
    {{0}, NULL, NULL, NULL},
};

/* --- run mode: charts ------------------------------------------------------- */

/* Run i's mean JCT of the tasks finished so far, at each completion
 * (outcomes are recorded in completion order), into *xs and *ys, which
 * the caller frees. */
static ui_series jct_series(const app *a, int i, const run *r, double **xs, double **ys)
{
    double *x = *xs = xmalloc((r->noutcomes + 1) * sizeof *x);
    double *y = *ys = xmalloc((r->noutcomes + 1) * sizeof *y);
    size_t n = 0;
    double sum = 0;
    x[n] = 0;
    y[n++] = 0;
    for (size_t k = 0; k < r->noutcomes; k++) {
        const run_outcome *o = &r->outcomes[k];
        if (o->node < 0)
            continue;
        sum += o->jct_s;
        x[n] = o->end_s;
        y[n] = sum / (double)n;
        n++;
    }
    return (ui_series){x, y, n, sizeof(double), ui_series_color(i), 0, a->rs.t};
}

static void draw_charts(const app *a, const compare_layout *L)
{
    static const struct { const char *title; size_t off; } charts[4] = {
        {"Active GPUs", offsetof(run_point, active_gpus)},
        {"Power (W)", offsetof(run_point, power_w)},
        {"Fragmentation", offsetof(run_point, frag)},
        {"Queued tasks", offsetof(run_point, queued)},
    };
    /* The axis spans the whole trace while it plays, so time visibly
     * advances across it; it grows if the runs go on longer. */
    double xhi = a->rs.t > a->rs.t_end_hint ? a->rs.t : a->rs.t_end_hint;
    if (xhi <= 0)
        xhi = 1;
    double *jct_x[RS_MAX] = {0}, *jct_y[RS_MAX] = {0};
    for (int ch = 0; ch < 4; ch++) {
        ui_series s[RS_MAX];
        int ns = 0;
        for (int i = 0; i < a->rs.n; i++) {
            const run *r = runset_record(&a->rs, i);
            if (!r)
                continue;
            if (ch == 3 && a->cmp.queue_metric) {
                s[ns++] = jct_series(a, i, r, &jct_x[i], &jct_y[i]);
                continue;
            }
            const double *y = r->npoints ? (const double *)(const void *)
                              ((const char *)r->points + charts[ch].off) : NULL;
            s[ns++] = (ui_series){r->npoints ? &r->points[0].t_s : NULL, y, r->npoints,
                                  sizeof(run_point), ui_series_color(i), 0, a->rs.t};
        }
        const char *title = ch == 3 && a->cmp.queue_metric ? "Mean JCT of finished tasks"
                                                           : charts[ch].title;
        /* Every axis says its unit: time along x, these up y. */
        static const ui_axes units[4] = {{"GPUs", 0, NULL}, {"W", 0, NULL},
                                         {"mGPU", 0, NULL}, {"tasks", 0, NULL}};
        static const ui_axes jct_units = {NULL, 1, NULL};
        ui_axes ax = ch == 3 && a->cmp.queue_metric ? jct_units : units[ch];
        /* Inflation runs are sampled by the share of the tasks arrived. */
        if (a->rs.by_arrival)
            ax.x_unit = "% of tasks arrived";
        draw_chart_axes(&a->caps, L->charts[ch], title, s, ns, 0, xhi, !a->rs.by_arrival, &ax);
    }
    for (int i = 0; i < RS_MAX; i++) {
        free(jct_x[i]);
        free(jct_y[i]);
    }
}

static void draw_legend(const app *a, rect r)
{
    int x = r.x + 1;
    for (int i = 0; i < a->rs.n && x < r.x + r.w; i++) {
        char mark[8];
        ui_series_mark(&a->caps, i, mark, sizeof mark);
        int focus = i == a->rs.focus;
        x += draw_text(r.y, x, r.x + r.w - x, ui_attr(ui_series_color(i)) | A_BOLD, mark);
        char lab[96];
        snprintf(lab, sizeof lab, " %s%s   ", a->rs.slot[i].spec.label,
                 focus ? " (focus)" : "");
        x += draw_text(r.y, x, r.x + r.w - x, focus ? A_BOLD : A_NORMAL, lab);
    }
}

/* While End runs the policies to their ends: how far, and how to stop. */
static void draw_finishing(const app *a, rect r)
{
    draw_busy(r.y, r.x, r.w, "Running to the end", runset_progress(&a->rs),
                  now_seconds() - a->cmp.finish_t0);
}

static void draw_info(const app *a, rect r)
{
    const runset *rs = &a->rs;
    if (a->cmp.finishing) {
        draw_finishing(a, r);
        return;
    }
    char t[24], span[24], speed[24];
    chart_fmt_time(rs->t, t, sizeof t);
    /* The span is an estimate, in the same format as the time beside it. */
    chart_fmt_time_about(rs->t_end_hint, span, sizeof span);
    chart_fmt(rs->speed, speed, sizeof speed);  /* 717, 18k: never 1.85e+04 */
    if (rs->by_arrival) {
        snprintf(t, sizeof t, "%.0f%% arrived", rs->t);
        snprintf(span, sizeof span, "%.0f%%", rs->t_end_hint);
    }
    const char *state = !runset_live(rs) ? "saved runs" : runset_done(rs) ? "finished"
                      : rs->playing ? "playing" : "paused";
    char cap[288] = "", ref[96] = "";
    if (power_caps_any(&rs->caps)) {
        char caps[256];
        power_caps_format(&rs->caps, caps, sizeof caps);
        snprintf(cap, sizeof cap, " %s GPU cap %s%s", sym(SYM_DOT), caps,
                 rs->caps.all_w > 0 ? " W" : "");
    }
    if (rs->n && rs->slot[rs->focus].sim) {     /* last: the first thing a narrow line drops */
        char d[80];
        sim_ref_describe(rs->slot[rs->focus].sim, d, sizeof d);
        snprintf(ref, sizeof ref, " %s %s", sym(SYM_DOT), d);
    }
    /* The focused decision before the speed: a narrow line keeps it. */
    draw_textf(r.y, r.x + 1, r.w - 1, A_NORMAL,
               "%s on %s%s %s t=%s of ~%s %s %s %s %s focus %s, decision #%zu %s speed %s s/s%s",
               rs->trace_name, rs->cluster_name, cap, sym(SYM_DOT), t, span, sym(SYM_DOT),
               rs->playing ? sym(SYM_PLAY) : sym(SYM_PAUSE), state, sym(SYM_DOT),
               rs->n ? rs->slot[rs->focus].spec.label : "-", runset_decisions(rs, rs->focus),
               sym(SYM_DOT), speed, ref);
}

/* --- run mode: table --------------------------------------------------------- */

/* CapEx of a run: the price of every GPU it ever used (CorrGPU eq. 2);
 * a saved run's from its stored metrics.  *unpriced counts the GPUs
 * without a price, which the sum leaves out. */
static double live_capex(const runset *rs, int i, int *used, int *unpriced)
{
    *used = *unpriced = 0;
    if (!rs->slot[i].sim) {
        const run *r = rs->slot[i].saved;
        *used = r ? (int)run_metric_get(r, "unique_gpus", -1) : -1;
        *unpriced = r ? (int)run_metric_get(r, "unpriced_gpus", 0) : 0;
        return r && *used >= 0 ? run_metric_get(r, "capex_usd", NAN) : NAN;
    }
    const cstate *cs = sim_cstate(rs->slot[i].sim);
    double usd = 0;
    for (size_t g = 0; g < cs->ngpus; g++)
        if (cs->gpus[g].ever_used) {
            const gpu_profile *p = cs->nodes[cs->gpus[g].node].gpu;
            (*used)++;
            *unpriced += !gpu_price_known(p);
            usd += gpu_price_or0(p);
        }
    return usd;
}

/* CapEx of run i beside its summary s: a finished run's own figure. */
static double run_capex(const app *a, int i, const run_summary *s, int *used, int *unpriced)
{
    double capex = live_capex(&a->rs, i, used, unpriced);
    if (s->final) {
        capex = s->capex_usd;
        *used = isnan(s->unique_gpus) ? 0 : (int)s->unique_gpus;
    }
    return capex;
}

static void fmt_cell(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        chart_fmt(v, buf, len);
}

/* A duration's cell: 45s, 02:15:00, 1d 02:15:00; "-" for none. */
static void fmt_time_cell(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        chart_fmt_time(v, buf, len);
}

/* Keeps the outcome half of each run's summary up to date (the tick's
 * work: drawing only reads it). */
static void refresh_outcomes(app *a)
{
    compare_ui *c = &a->cmp;
    for (int i = 0; i < a->rs.n; i++) {
        const run *r = runset_record(&a->rs, i);
        if (!r || (c->outc_rec[i] == r && c->outc_n[i] == r->noutcomes))
            continue;
        memset(&c->outc[i], 0, sizeof c->outc[i]);
        run_summarize_outcomes(r, &c->outc[i]);
        c->outc_rec[i] = r;
        c->outc_n[i] = r->noutcomes;
    }
}

/* Run i's summary: a finished run's own figures (runsum.h: what `gpuplan
 * run` prints for it), else up to the lockstep time, the outcome half from
 * the tick's cache when it is current. */
static void summary_of(const app *a, int i, run_summary *s)
{
    const compare_ui *c = &a->cmp;
    assert(i >= 0 && i < a->rs.n && a->rs.n <= RS_MAX);
    const run *r = runset_record(&a->rs, i);
    if (!r || run_is_final(r)) {
        run_summarize(r, -1, s);
        return;
    }
    run_summarize(NULL, 0, s);
    snprintf(s->power_model, sizeof s->power_model, "%s", r->power_model);
    if (c->outc_rec[i] == r && c->outc_n[i] == r->noutcomes) {
        s->finished = c->outc[i].finished;
        s->violations = c->outc[i].violations;
        s->jct_mean = c->outc[i].jct_mean;
        s->jct_p50 = c->outc[i].jct_p50;
        s->jct_p95 = c->outc[i].jct_p95;
    } else {
        run_summarize_outcomes(r, s);
    }
    /* Its own clock: End advances the runs unevenly, and a run is never
     * averaged over time it has not been simulated to. */
    double t = runset_time(&a->rs, i);
    run_summarize_points(r, t < a->rs.t ? t : a->rs.t, s);
}

/* The cache key of run r priced up to its summary s's horizon. */
static void energy_key_of(const run *r, const run_summary *s, unsigned gen, cmp_energy_key *k)
{
    memset(k, 0, sizeof *k);    /* compared as bytes: no stray padding */
    k->rec = r;
    k->npoints = r->npoints;
    k->t_end = s->t_end;
    k->gen = gen;
}

/* Keeps each run's priced energy up to date (the tick's work, like the
 * outcomes: drawing and ordering the table only read it). */
static void refresh_energy(app *a)
{
    compare_ui *c = &a->cmp;
    if (!(cmp_energy_priced(&c->energy) || cmp_energy_has_carbon(&c->energy)))
        return;
    for (int i = 0; i < a->rs.n; i++) {
        const run *r = runset_record(&a->rs, i);
        if (!r)
            continue;
        run_summary s;
        summary_of(a, i, &s);
        cmp_energy_key k;
        energy_key_of(r, &s, c->energy.gen, &k);
        if (memcmp(&k, &c->energy_key[i], sizeof k) == 0)
            continue;
        int used, unpriced;
        double capex = run_capex(a, i, &s, &used, &unpriced);
        cmp_energy_of_run(&c->energy, r, &s, isnan(capex) ? 0 : capex, &c->energy_ec[i]);
        memcpy(&c->energy_key[i], &k, sizeof k);
    }
}

/* Cells of a run-table row (the columns of run_cols). */
#define NCOLS_MAX 23

/* The run table as a row of w columns shows it: col[k] is the column
 * shown k-th, index[k] its place in run_cols (and in run_cells' cells). */
typedef struct run_view {
    ui_col col[NCOLS_MAX];
    int index[NCOLS_MAX];
} run_view;

/* The cells of run i (or the Optimal row's) in the view's order. */
static void view_cells(const run_view *v, char cells[NCOLS_MAX][24], const char **out)
{
    for (int k = 0; k < NCOLS_MAX; k++)
        out[k] = cells[v->index[k]];
}

/* The papers' Optimal bar: CATS's optimum over the whole trace (not at
 * the lockstep time, hence the "*"), only the columns it has. */
static void draw_optimal_row(const solve_run_row *o, int y, int x, int w, const run_view *view)
{
    char v[NCOLS_MAX][24];
    for (int k = 0; k < NCOLS_MAX; k++)
        snprintf(v[k], sizeof v[k], "-");
    snprintf(v[0], sizeof v[0], "%s", o->proven ? "optimal*" : "optimal~*");
    chart_fmt(o->mean_gpus, v[5], sizeof v[5]);
    chart_fmt(o->peak_gpus, v[6], sizeof v[6]);
    chart_fmt(o->mean_power_w, v[8], sizeof v[8]);
    chart_fmt(o->energy_j / 3.6e6, v[9], sizeof v[9]);
    snprintf(v[16], sizeof v[16], "cats");
    chart_fmt(o->mean_gpus, v[17], sizeof v[17]);
    const char *cells[NCOLS_MAX];
    view_cells(view, v, cells);
    draw_row(y, x, w, view->col, NCOLS_MAX, cells, A_DIM);
}

/* Viol counts the tasks over their own SLA (kappa x e_min), the CLI's
 * sla_viol; Power names the model the row's watts come from; place is
 * the placement metric (average busy GPUs with DFS off: a finished run
 * with DFS on gets it from a twin simulated with DFS off, as `gpuplan
 * run` does; "-" until the run finishes),
 * fluid the fluid lower bound on avgGPU, GPUh the busy GPU-hours; $energy
 * and CO2e what its energy cost and emitted, and TCO$ its cost of
 * ownership over years, as `gpuplan run` prices them (scr_compare_energy.c
 * sets the prices). */
static const ui_col run_cols[] = {
    {"Policy", 14, 0}, {"Dec", 5, 1}, {"Done", 5, 1}, {"Queue", 5, 1}, {"GPUs", 5, 1},
    {"avgGPU", 6, 1}, {"peak", 5, 1}, {"W now", 6, 1}, {"avg W", 6, 1},
    {"kWh", 6, 1}, {"Frag", 6, 1}, {"JCTp50", 11, 1}, {"JCTp95", 11, 1}, {"Viol", 4, 1},
    {"Used", 4, 1}, {"CapEx$", 7, 1}, {"Power", 5, 0}, {"place", 6, 1}, {"fluid", 6, 1},
    {"GPUh", 7, 1}, {"$energy", 7, 1}, {"CO2e", 6, 1}, {"TCO$", 9, 1},
};
#define COL_KWH 9
#define COL_ENERGY 20           /* $energy, CO2e, then TCO$ (cmp_energy.h) */
#define NRUN_COLS ((int)(sizeof run_cols / sizeof *run_cols))
_Static_assert(NRUN_COLS == NCOLS_MAX, "a cell for every column");

/* Run i's $energy, CO2e and TCO$ cells: "-" while no price (no carbon
 * intensity, no TCO horizon) is set, never a 0 that would read as free
 * (clean).  A TCO whose GPUs' price is not all known ends in +?, the
 * known part first, as run's tco_usd. */
static void energy_cells(const app *a, int i, const run_summary *s, char *usd, char *co2e,
                         char *tco)
{
    const cmp_energy *e = &a->cmp.energy;
    snprintf(usd, 24, "-");
    snprintf(co2e, 24, "-");
    snprintf(tco, 24, "-");
    const run *r = runset_record(&a->rs, i);
    if (!r || !(cmp_energy_priced(e) || cmp_energy_has_carbon(e)))
        return;
    int used, unpriced;
    double capex = run_capex(a, i, s, &used, &unpriced);
    energy_cost ec;
    cmp_energy_key k;
    energy_key_of(r, s, e->gen, &k);
    if (memcmp(&k, &a->cmp.energy_key[i], sizeof k) == 0)
        ec = a->cmp.energy_ec[i];      /* the tick priced it */
    else
        cmp_energy_of_run(e, r, s, isnan(capex) ? 0 : capex, &ec);
    if (cmp_energy_priced(e))
        snprintf(usd, 24, "%.2f", ec.usd);
    if (cmp_energy_has_carbon(e))
        snprintf(co2e, 24, "%.2f", ec.co2e_kg);
    if (cmp_energy_has_tco(e))
        snprintf(tco, 24, "%.0f%s", ec.tco_usd, isnan(capex) || unpriced > 0 ? "+?" : "");
}

static void run_cells(const app *a, int i, char v[NCOLS_MAX][24])
{
    run_summary s;
    summary_of(a, i, &s);
    int used, unpriced;
    double capex = run_capex(a, i, &s, &used, &unpriced);
    snprintf(v[0], 24, "%s", a->rs.slot[i].spec.label);
    snprintf(v[1], 24, "%zu", runset_decisions(&a->rs, i));
    snprintf(v[2], 24, "%zu", s.finished);
    const double nums[] = {s.now_queued, s.now_gpus, s.avg_gpus, s.peak_gpus, s.now_w,
                           s.avg_w, s.energy_kwh, s.now_frag};
    for (int k = 0; k < 8; k++)
        fmt_cell(v[3 + k], 24, nums[k]);
    /* JCTs as durations, wide enough for a day's: 1d 02:15:00 */
    fmt_time_cell(v[11], 24, s.jct_p50);
    fmt_time_cell(v[12], 24, s.jct_p95);
    snprintf(v[13], 24, "%zu", s.violations);
    if (isnan(capex)) {
        snprintf(v[14], 24, "-");
        snprintf(v[15], 24, "-");
    } else {
        snprintf(v[14], 24, "%d", used);
        chart_fmt(capex, v[15], 24);
        /* GPUs without a price: never a bare 0 (or a sum that hides them) */
        if (unpriced > 0 && capex == 0)
            snprintf(v[15], 24, "unknown");
        else if (unpriced > 0)
            snprintf(v[15] + strlen(v[15]), 24 - strlen(v[15]), "+?");
    }
    snprintf(v[16], 24, "%s", s.power_model);
    fmt_cell(v[17], 24, s.place_gpus);
    fmt_cell(v[18], 24, s.fluid_gpus);
    fmt_cell(v[19], 24, s.gpu_hours);
    energy_cells(a, i, &s, v[COL_ENERGY], v[COL_ENERGY + 1], v[COL_ENERGY + 2]);
}

/* 1 when column col is shown right after kWh rather than in its place. */
static int moved_after_kwh(int col, int energy, int tco)
{
    return energy && col >= COL_ENERGY && (col < COL_ENERGY + 2 || tco);
}

/* With an energy price or carbon intensity set, $energy and CO2e (and
 * TCO$ with a TCO horizon) follow kWh and a narrow row hides W now, peak,
 * Queue and Dec, in that order, to keep them (at 80 columns the row shows
 * them); without, they come last and the table reads as it always did. */
static run_view run_view_of(const app *a, int w)
{
    static const int hide_first[] = {7, 6, 3, 1};
    const cmp_energy *e = &a->cmp.energy;
    int energy = cmp_energy_priced(e) || cmp_energy_has_carbon(e), n = 0, need = -1;
    int tco = cmp_energy_has_tco(e);
    run_view v;
    for (int c = 0; c < NRUN_COLS; c++) {
        if (moved_after_kwh(c, energy, tco))
            continue;
        v.index[n++] = c;
        for (int m = COL_ENERGY; c == COL_KWH && m < NRUN_COLS; m++)
            if (moved_after_kwh(m, energy, tco))
                v.index[n++] = m;
    }
    assert(n == NRUN_COLS);
    for (int k = 0; k < n; k++) {
        v.col[k] = run_cols[v.index[k]];
        if (k <= COL_KWH + 2 + tco)
            need += v.col[k].w + 1;
    }
    for (size_t h = 0; energy && need > w && h < sizeof hide_first / sizeof *hide_first; h++) {
        need -= v.col[hide_first[h]].w + 1;     /* all before kWh: the same place */
        v.col[hide_first[h]].w = -1;
    }
    return v;
}

/* Where the view shows column index (the sort mark's place). */
static int view_place(const run_view *v, int index)
{
    for (int k = 0; k < NCOLS_MAX; k++)
        if (v->index[k] == index)
            return k;
    return -1;
}

/* The text of run i's cell col (tablesort.h), for ordering the table. */
static const char *run_cell(const void *ctx, size_t i, int col, char *buf, size_t len)
{
    char v[NCOLS_MAX][24];
    run_cells(ctx, (int)i, v);
    snprintf(buf, len, "%s", v[col]);
    return buf;
}

/* The runs in the table's order: order[row] is the slot shown there. */
static void run_order(const app *a, size_t *order)
{
    tablesort_order((size_t)a->rs.n, a->cmp.runs_sort, run_cell, a, order);
}

/* The table row showing slot i. */
static size_t row_of_run(const app *a, int i)
{
    size_t order[RS_MAX], row = 0;
    run_order(a, order);
    while (row + 1 < (size_t)a->rs.n && order[row] != (size_t)i)
        row++;
    return row;
}

typedef struct run_table {
    const app *a;
    size_t order[RS_MAX];
    run_view view;
} run_table;

/* One run's row: the focus marker and series mark, then the figures. */
static void run_row_draw(const void *ctx, size_t row, rect r, lv_hl hl)
{
    const run_table *t = ctx;
    const app *a = t->a;
    assert(row < (size_t)a->rs.n);
    int i = (int)t->order[row];
    char v[NCOLS_MAX][24];
    run_cells(a, i, v);
    const char *cells[NCOLS_MAX];
    view_cells(&t->view, v, cells);
    draw_row(r.y, r.x + 2, r.w - 2, t->view.col, NCOLS_MAX, cells, ui_hl_attr(hl, A_NORMAL));
    draw_glyph(r.y, r.x, i == a->rs.focus ? (uint32_t)'>' : ' ',
               ui_attr(ui_series_color(i)) | A_BOLD);
    if (a->caps.style == CHART_ASCII)
        draw_glyph(r.y, r.x + 1, (uint32_t)chart_marker(i), ui_attr(ui_series_color(i)));
    else
        draw_text(r.y, r.x + 1, 1, ui_attr(ui_series_color(i)), a->caps.utf8 ? "■" : "#");
}

/* Rows of the run table below its header. */
static int run_table_rows(const app *a)
{
    compare_layout L = layout_compare(a->rows, a->cols, a->rs.n + a->rs.has_opt);
    int h = layout_inner(L.table).h - 1;
    return h > 0 ? h : 0;
}

static void draw_table(const app *a, rect box)
{
    int mixed = runset_mixed_power(&a->rs);
    draw_box(box, mixed ? "Runs: WATTS FROM DIFFERENT POWER MODELS (column Power), not comparable: "
                          "s, p picks one for all"
                        : "Runs (Enter focuses the policy under the cursor)", 0);
    if (mixed)
        draw_text(box.y, box.x + 3, box.w - 6, ui_attr(C_WARN) | A_BOLD,
                  "Runs: WATTS FROM DIFFERENT POWER MODELS (column Power), not comparable: "
                  "s, p picks one for all");
    rect in = layout_inner(box);
    if (in.h < 1)
        return;
    run_table t = {a, {0}, run_view_of(a, in.w - 2)};
    int by = a->cmp.runs_sort.by - 1;
    draw_header_sorted(in.y, in.x + 2, in.w - 2, t.view.col, NRUN_COLS,
                       by >= 0 ? view_place(&t.view, by) : -1, a->cmp.runs_sort.desc);
    rect rows = {in.y + 1, in.x, in.h - 1, in.w};
    listview v = lv_shown(&a->cmp.runs, (size_t)a->rs.n, rows.h);
    run_order(a, t.order);
    lv_draw(&v, rows, LV_HL_FOCUSED, run_row_draw, &t);
    if (a->rs.has_opt && a->rs.n + 1 < in.h)
        draw_optimal_row(&a->rs.opt, in.y + 1 + a->rs.n, in.x + 2, in.w - 2, &t.view);
}

static void run_draw(const app *a)
{
    compare_layout L = layout_compare(a->rows, a->cols, a->rs.n + a->rs.has_opt);
    draw_info(a, L.info);
    draw_legend(a, L.legend);
    draw_charts(a, &L);
    draw_table(a, L.table);
    char ctx[128];
    snprintf(ctx, sizeof ctx, "Compare %s %s", sym(SYM_DOT), a->rs.trace_name);
    draw_status(a, ctx, "space play  Left/Right step  +/- speed  r restart  s setup  X export  "
                "? help");
}

/* --- run mode: keys ------------------------------------------------------------ */

static ui_rc run_play(app *a, int key)
{
    (void)key;
    runset *rs = &a->rs;
    if (!runset_live(rs)) {
        app_err(a, "saved runs do not play: press r to re-simulate them");
        return UI_DONE;
    }
    if (runset_done(rs)) {
        app_msg(a, "the runs are finished: r restarts them");
        return UI_DONE;
    }
    rs->playing = !rs->playing;
    return UI_DONE;
}

static ui_rc run_step(app *a, int key)
{
    step_decision(a, key == KEY_LEFT || key == 'h');
    return UI_DONE;
}

static ui_rc run_speed(app *a, int key)
{
    double f = key == '+' || key == '=' ? 2 : 0.5;
    double s = a->rs.speed * f;
    if (s < 1e-3)
        s = 1e-3;
    if (s > 1e7)
        s = 1e7;
    a->rs.speed = s;
    char per[24];
    chart_fmt_time(s, per, sizeof per);
    app_msg(a, "speed: %s of simulated time per second", per);
    return UI_DONE;
}

static ui_rc run_restart(app *a, int key)
{
    (void)key;
    gp_err err;
    double t0 = now_seconds();
    int rc = runset_restart(&a->rs, a->st, &err);
    drop_keys_typed_since(t0);
    if (rc)
        app_err(a, "%s", err.msg);
    else
        app_msg(a, "restarted at t=0");
    return UI_DONE;
}

static ui_rc run_row(app *a, int key)
{
    lv_set_count(&a->cmp.runs, (size_t)a->rs.n);
    lv_key(&a->cmp.runs, key, run_table_rows(a));
    return UI_DONE;
}

void compare_focus(app *a, int i)
{
    a->rs.focus = i;
    lv_set_count(&a->cmp.runs, (size_t)a->rs.n);
    lv_select(&a->cmp.runs, row_of_run(a, i), run_table_rows(a));
    step_reset(a);
    /* Another run's decision is shown: Step's tick puts the cursor on its
     * chosen candidate again even when both runs have made as many
     * decisions (the lower pane follows the cursor). */
    a->step.seen = (size_t)-1;
}

static ui_rc run_focus(app *a, int key)
{
    if (a->rs.n == 0)
        return UI_DONE;
    size_t row = lv_shown(&a->cmp.runs, (size_t)a->rs.n, 1).cursor;
    if (key == '\t')
        row = (row + 1) % (size_t)a->rs.n;
    size_t order[RS_MAX];
    run_order(a, order);
    compare_focus(a, (int)order[row]);
    app_msg(a, "focus: %s (Step and Cluster show it)", a->rs.slot[a->rs.focus].spec.label);
    return UI_DONE;
}

/* End: the runs go on to their ends in slices the tick makes, so the
 * dashboard keeps drawing and Esc can stop them. */
static ui_rc run_end(app *a, int key)
{
    (void)key;
    if (!runset_live(&a->rs) || runset_done(&a->rs))
        return UI_DONE;
    a->cmp.finishing = 1;
    a->cmp.finish_t0 = now_seconds();
    a->rs.playing = 0;
    return UI_DONE;
}

/* Keys typed while End runs are dropped, not replayed once it is over. */
static void finishing_over(app *a)
{
    a->cmp.finishing = 0;
    flushinp();
}

/* Esc stops End where the runs are (paused there, steppable); every other
 * key is swallowed so nothing typed meanwhile acts later. */
static ui_rc finishing_key(app *a, int key)
{
    if (key != KEY_ESC) {
        app_msg(a, "running to the end: Esc cancels");
        return UI_DONE;
    }
    finishing_over(a);
    app_msg(a, "stopped at %.0f %% (space plays on, End runs to the end)",
            100 * runset_progress(&a->rs));
    return UI_DONE;
}

/* Wall time per frame End spends simulating: long enough that little of
 * the loop's time goes to waiting, short enough for Esc to answer at once. */
#define FINISH_SLICE_S 0.15

static void finishing_tick(app *a)
{
    if (!runset_finish_slice(&a->rs, FINISH_SLICE_S))
        return;
    finishing_over(a);
    app_msg(a, "ran to the end in %.2f s", now_seconds() - a->cmp.finish_t0);
}

static ui_rc run_save(app *a, int key)
{
    (void)key;
    gp_err err;
    int n;
    if (runset_save(&a->rs, a->st, &n, &err))
        app_err(a, "%s", err.msg);
    else {
        app_msg(a, "saved %d run%s (Data, 5, lists them)", n, n == 1 ? "" : "s");
        data_reload(a);
    }
    return UI_DONE;
}

static ui_rc run_setup(app *a, int key)
{
    (void)key;
    a->cmp.mode = CMP_SETUP;
    return UI_DONE;
}

static ui_rc run_jct(app *a, int key)
{
    (void)key;
    a->cmp.queue_metric = !a->cmp.queue_metric;
    return UI_DONE;
}

/* o: order the run table by the next column; O: reverse it.  The cursor
 * stays on the run it was on. */
static ui_rc run_sort(app *a, int key)
{
    size_t order[RS_MAX];
    run_order(a, order);
    int at = a->rs.n ? (int)order[lv_shown(&a->cmp.runs, (size_t)a->rs.n, 1).cursor] : 0;
    tablesort_next(&a->cmp.runs_sort, NRUN_COLS, key == 'O');
    lv_set_count(&a->cmp.runs, (size_t)a->rs.n);
    if (a->rs.n)
        lv_select(&a->cmp.runs, row_of_run(a, at), run_table_rows(a));
    if (a->cmp.runs_sort.by > 0)
        app_msg(a, "runs by %s, %s", run_cols[a->cmp.runs_sort.by - 1].head,
                a->cmp.runs_sort.desc ? "largest first" : "smallest first");
    else
        app_msg(a, "runs in the order they were picked");
    return UI_DONE;
}

static const ui_key run_keys[] = {
    {{' '}, "space", "play / pause (simulated time advances at the speed)", run_play},
    {{KEY_RIGHT, 'l'}, "Right l", "one placement forward (focused policy; others follow)",
     run_step},
    {{KEY_LEFT, 'h'}, "Left h", "one placement back", run_step},
    {{'+', '=', '-', '_'}, "+ -", "faster / slower (x2)", run_speed},
    {{'r'}, "r", "restart from t=0 (re-simulates saved runs)", run_restart},
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "move in the run table", run_row},
    {{'\n', '\r', KEY_ENTER, '\t'}, "Enter Tab", "focus the policy under the cursor / the next",
     run_focus},
    {{KEY_END, 'e'}, "End e", "run every policy to the end", run_end},
    {{'S'}, "S", "save the finished runs to the database", run_save},
    {{'J'}, "J", "fourth chart: queued tasks / mean JCT", run_jct},
    {{'o', 'O'}, "o O", "order the run table by the next column / reverse it", run_sort},
    {{'E'}, "E", "energy: price, carbon, PUE and TCO years of $energy, CO2e and TCO$",
     compare_energy_key},
    {{'s'}, "s", "back to the setup (trace, cluster, policies)", run_setup},
    {{0}, NULL, NULL, NULL},
};

/* --- screen -------------------------------------------------------------------- */

static void compare_draw(const app *a)
{
    if (a->cmp.mode == CMP_RUN && a->rs.n)
        run_draw(a);
    else
        setup_draw(a);
}

static const ui_key *compare_keytab(const app *a)
{
    return a->cmp.mode == CMP_RUN && a->rs.n ? run_keys : setup_keys;
}

static ui_rc compare_key(app *a, int key)
{
    if (a->cmp.finishing)
        return finishing_key(a, key);
    return ui_dispatch(a, compare_keytab(a), key);
}

static int compare_tick(app *a, double dt)
{
    if (a->cmp.finishing) {
        finishing_tick(a);
        refresh_outcomes(a);
        refresh_energy(a);
        return 1;
    }
    runset_tick(&a->rs, dt);
    refresh_outcomes(a);
    refresh_energy(a);
    lv_set_count(&a->cmp.runs, (size_t)a->rs.n);
    return a->rs.playing;
}

const ui_screen scr_compare = {
    .name = "Compare", .hotkey = '1', .fkey = 2, .draw = compare_draw, .key = compare_key,
    .keys = compare_keytab, .tick = compare_tick,
};
