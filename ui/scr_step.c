/*
 * scr_step.c — the Step screen: the focused policy's latest placement
 * decision, explained.  The incoming task (memory, GPUs requested, its
 * utilization sparkline), every candidate the policy considered with each
 * of its score terms (rho, delta_mu, score for CATS; rho and mean for
 * CorrGPU; sums against q for the baselines — whatever the policy's
 * explain() names), the chosen one highlighted, and the GPUs of the chosen
 * node after the decision.  → / ← move one decision at a time.
 */
#include "app.h"
#include "draw.h"
#include "engine.h"
#include "gpuinfo.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct step_view {
    sim *s;
    const explain *ex;
    const run *rec;
    const run_decision *dec;    /* the latest decision, NULL before the first */
    const cstate *cs;
    const gp_trace *tr;
} step_view;

static int view_of(const app *a, step_view *v)
{
    memset(v, 0, sizeof *v);
    v->s = runset_focus_sim(&a->rs);
    if (!v->s)
        return -1;
    v->ex = sim_last_explain(v->s);
    v->rec = sim_run_record(v->s);
    v->cs = sim_cstate(v->s);
    v->tr = sim_trace(v->s);
    if (v->rec->ndecisions)
        v->dec = &v->rec->decisions[v->rec->ndecisions - 1];
    return 0;
}

static void cand_name(const cstate *cs, const explain_cand *c, char *buf, size_t len)
{
    const char *nname = c->node >= 0 && (size_t)c->node < cs->nnodes ? cs->nodes[c->node].name
                                                                    : "?";
    if (c->gpu >= 0 && (size_t)c->gpu < cs->ngpus)
        snprintf(buf, len, "%s/%d", nname, cs->gpus[c->gpu].dev);
    else
        snprintf(buf, len, "%s (node)", nname);
}

/* Display order of the candidates: as considered, or by the last term
 * (the score for CATS) ascending, eligible ones first.  A merge sort with
 * the explanation passed along (qsort has no context argument in C11). */
static int cand_before(const explain *ex, size_t x, size_t y)
{
    const explain_cand *a = &ex->cands[x], *b = &ex->cands[y];
    int t = ex->nterms - 1;
    if (a->eligible != b->eligible)
        return a->eligible > b->eligible;
    return t >= 0 && a->term[t] < b->term[t];
}

static void sort_cands(const explain *ex, size_t *v, size_t n)
{
    size_t *tmp = xmalloc(n * sizeof *tmp);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cand_before(ex, v[j], v[i]) ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    free(tmp);
}

static void build_order(app *a, const explain *ex)
{
    step_ui *st = &a->step;
    if (st->order_cap < ex->ncands) {
        st->order_cap = ex->ncands;
        st->order = xrealloc(st->order, st->order_cap * sizeof *st->order);
    }
    for (size_t i = 0; i < ex->ncands; i++)
        st->order[i] = i;
    if (st->sort && ex->ncands > 1)
        sort_cands(ex, st->order, ex->ncands);
}

/* 1 when the comma-separated device list names dev. */
static int gpus_has(const char *list, int dev)
{
    for (const char *p = list; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p)
            break;
        if (v == dev)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* --- drawing ---------------------------------------------------------------- */

static void draw_task(const app *a, const step_view *v, rect box)
{
    char title[128];
    snprintf(title, sizeof title, "Decision %zu of %s", v->rec->ndecisions,
             a->rs.slot[a->rs.focus].spec.label);
    draw_box(box, title, 0);
    rect in = layout_inner(box);
    if (!v->dec) {
        draw_text(in.y, in.x + 1, in.w - 1, A_NORMAL,
                  "No placement yet: press Right (or l) to make the first one.");
        return;
    }
    const task *tk = &v->tr->tasks[v->dec->task];
    char t[24], dur[24];
    chart_fmt_time(v->dec->t_s, t, sizeof t);
    chart_fmt_time(tk->duration_s, dur, sizeof dur);
    draw_textf(in.y, in.x + 1, in.w - 1, A_BOLD, "Task %s (#%d) at t=%s", tk->name,
               v->dec->task, t);
    char gpus[48];
    if (tk->num_gpu == 0)
        snprintf(gpus, sizeof gpus, "none (CPU only)");
    else if (tk->gpu_milli < 1000)
        snprintf(gpus, sizeof gpus, "%d milli of one", tk->gpu_milli);
    else
        snprintf(gpus, sizeof gpus, "%d", tk->num_gpu);
    char arr[24];
    chart_fmt_time(tk->arrival_s, arr, sizeof arr);
    draw_textf(in.y + 1, in.x + 1, in.w - 1, A_NORMAL,
               "memory %.1f GiB  GPUs %s  runs %s alone  kappa %.2g  arrived at %s",
               tk->gpu_mem_gib, gpus, dur, tk->kappa, arr);
    int x = in.x + 1 + draw_text(in.y + 2, in.x + 1, in.w - 1, A_NORMAL, "util ");
    int sw = in.w - 45 > 10 ? in.w - 45 : 10;
    if (tk->util.len)
        draw_spark(in.y + 2, x, sw, tk->util.pct, tk->util.len, 0, 100, ui_attr(C_SERIES2));
    else
        draw_text(in.y + 2, x, sw, ui_attr(C_DIM), "(no series: summary values only)");
    draw_textf(in.y + 2, x + sw + 1, in.x + in.w - x - sw - 1, A_NORMAL,
               "mean %.1f%%  peak %.1f%%  first %.1f%%", tk->util_mean, tk->util_peak,
               tk->util_first);
    if (v->dec->node < 0)
        draw_text(in.y + 3, in.x + 1, in.w - 1, ui_attr(C_BAD), "nothing fit: the task waits");
    else
        draw_textf(in.y + 3, in.x + 1, in.w - 1, ui_attr(C_GOOD) | A_BOLD,
                   "%s placed on %s %s%s", sym(SYM_POINTER), v->cs->nodes[v->dec->node].name,
                   v->dec->gpus[0] ? "GPU " : "(no GPU)", v->dec->gpus);
    if (v->ex && in.h > 4)
        draw_text(in.y + 4, in.x + 1, in.w - 1, A_NORMAL, v->ex->summary);
}

static void draw_cands(app *a, const step_view *v, rect box)
{
    const explain *ex = v->ex;
    char title[96];
    snprintf(title, sizeof title, "Candidates (%zu)%s", ex ? ex->ncands : 0,
             a->step.sort ? " by score" : "");
    draw_box(box, title, a->step.pane == 0);
    rect in = layout_inner(box);
    if (!ex || ex->ncands == 0) {
        draw_text(in.y, in.x + 1, in.w - 1, ui_attr(C_DIM),
                  v->dec ? "this policy gives no explanation of its decisions"
                         : "(no decision yet)");
        return;
    }
    build_order(a, ex);
    if (a->step.seen != v->rec->ndecisions) {
        /* A new decision: the cursor starts on the chosen candidate. */
        a->step.seen = v->rec->ndecisions;
        a->step.pane = 0;
        for (size_t i = 0; i < ex->ncands; i++)
            if ((int)a->step.order[i] == ex->chosen)
                a->step.sel = i;
    }
    ui_col cols[EXPLAIN_MAX_TERMS + 3];
    int nc = 0;
    cols[nc++] = (ui_col){"GPU", 18, 0};
    for (int t = 0; t < ex->nterms; t++)
        cols[nc++] = (ui_col){ex->term_name[t] ? ex->term_name[t] : "?", 10, 1};
    cols[nc++] = (ui_col){"", 4, 0};
    cols[nc++] = (ui_col){"note", 30, 0};
    draw_header(in.y, in.x + 2, in.w - 2, cols, nc);
    int vis = in.h - 1;
    a->step.top = layout_scroll(a->step.top, a->step.sel, ex->ncands, vis);
    for (int r = 0; r < vis && a->step.top + (size_t)r < ex->ncands; r++) {
        size_t pos = a->step.top + (size_t)r, ci = a->step.order[pos];
        const explain_cand *c = &ex->cands[ci];
        char v0[64], vt[EXPLAIN_MAX_TERMS][24];
        const char *cells[EXPLAIN_MAX_TERMS + 3];
        cand_name(v->cs, c, v0, sizeof v0);
        cells[0] = v0;
        for (int t = 0; t < ex->nterms; t++) {
            /* Four significant digits, without exponents for big totals. */
            snprintf(vt[t], sizeof vt[t], fabs(c->term[t]) >= 1e4 && fabs(c->term[t]) < 1e12
                     ? "%.0f" : "%.4g", c->term[t]);
            cells[1 + t] = vt[t];
        }
        int chosen = (int)ci == ex->chosen;
        cells[1 + ex->nterms] = chosen ? "WIN" : c->eligible ? "" : "no";
        cells[2 + ex->nterms] = c->note;
        attr_t at = pos == a->step.sel && a->step.pane == 0 ? ui_attr(C_SEL)
                  : chosen ? ui_attr(C_CHOSEN) : c->eligible ? A_NORMAL : ui_attr(C_DIM);
        draw_row(in.y + 1 + r, in.x + 2, in.w - 2, cols, nc, cells, at);
        if (chosen)
            draw_text(in.y + 1 + r, in.x, 2, ui_attr(C_GOOD) | A_BOLD, sym(SYM_POINTER));
    }
}

/* The node the lower pane shows: the selected candidate's, else the chosen. */
static int shown_node(const app *a, const step_view *v)
{
    const explain *ex = v->ex;
    if (a->step.pane == 0 && ex && ex->ncands && a->step.sel < ex->ncands && a->step.order)
        return ex->cands[a->step.order[a->step.sel]].node;
    return v->dec ? v->dec->node : -1;
}

static void draw_after(app *a, const step_view *v, rect box)
{
    int nd = shown_node(a, v);
    char title[160], now[24];
    /* While the runs play, the state shown is the current one. */
    int later = v->dec && sim_now(v->s) > v->dec->t_s + 1e-9;
    chart_fmt_time(sim_now(v->s), now, sizeof now);
    snprintf(title, sizeof title, "%s%s%s", later ? "Cluster now (t=" : "Cluster after the decision",
             later ? now : "", later ? ")" : "");
    if (nd >= 0) {
        size_t l = strlen(title);
        snprintf(title + l, sizeof title - l, ": node %s", v->cs->nodes[nd].name);
    }
    draw_box(box, title, a->step.pane == 1);
    rect in = layout_inner(box);
    if (nd < 0 || (size_t)nd >= v->cs->nnodes)
        return;
    static const ui_col cols[] = {
        {"GPU", 4, 1}, {"state", 7, 0}, {"memory GiB", 11, 1}, {"share", 6, 1}, {"tasks", 5, 1},
        {"util%", 6, 1}, {"W", 6, 1}, {"aggregate utilization ahead", 40, 0},
    };
    draw_header(in.y, in.x + 1, in.w - 1, cols, 8);
    const cs_node *n = &v->cs->nodes[nd];
    const double *prog = sim_progress(v->s);
    for (int d = 0; d < n->ngpus && d + 1 < in.h; d++) {
        int g = n->gpu0 + d;
        const cs_gpu *cg = &v->cs->gpus[g];
        char c[7][24];
        snprintf(c[0], 24, "%d", d);
        snprintf(c[1], 24, "%s", cg->power == GPU_ASLEEP ? "asleep"
                 : cg->power == GPU_IDLE ? "idle" : "active");
        snprintf(c[2], 24, "%.1f/%.0f", cg->mem_used_gib, cg->mem_gib);
        snprintf(c[3], 24, "%d", cg->alloc_milli);
        snprintf(c[4], 24, "%d", cg->ntasks);
        snprintf(c[5], 24, "%.0f", gpu_util_now(v->cs, v->tr, prog, g));
        snprintf(c[6], 24, "%.0f", gpu_watts(v->cs, g, 0));
        const char *cells[8] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], ""};
        int picked = v->dec && v->dec->node == nd && gpus_has(v->dec->gpus, d);
        attr_t at = a->step.pane == 1 && a->step.sel == (size_t)d ? ui_attr(C_SEL)
                  : picked ? A_BOLD : A_NORMAL;
        draw_row(in.y + 1 + d, in.x + 1, in.w - 1, cols, 8, cells, at);
        /* The spark column starts after the seven fixed columns. */
        int x = in.x + 1 + 4 + 7 + 11 + 6 + 5 + 6 + 6 + 7, room = in.x + in.w - x - 1;
        float agg[256];
        size_t m = room > 4 ? gpu_agg_series(v->cs, v->tr, prog, g, agg,
                                             (size_t)(room < 256 ? room : 256)) : 0;
        if (m)
            draw_spark(in.y + 1 + d, x, room, agg, m, 0, 100, ui_attr(C_SERIES2));
    }
}

static void step_draw(app *a)
{
    rect body = layout_body(a->rows, a->cols);
    step_view v;
    if (view_of(a, &v)) {
        draw_box(body, "Step", 0);
        draw_text(body.y + 2, 2, a->cols - 4, A_NORMAL,
                  a->rs.n ? "The focused run is a saved one: press r in Compare (1) to "
                            "re-simulate it, then step here."
                          : "No comparison is running: pick policies in Compare (1) and "
                            "press Enter, then step here with Right / Left.");
        draw_status(a, "Step", "1 Compare  ? help  q quit");
        return;
    }
    rect tbox = layout_take_top(&body, 7);
    const cs_node *n = v.dec && v.dec->node >= 0 ? &v.cs->nodes[v.dec->node] : NULL;
    int after_h = (n ? n->ngpus : 4) + 3;
    if (after_h > body.h / 2)
        after_h = body.h / 2;
    rect after = layout_take_bottom(&body, after_h);
    draw_task(a, &v, tbox);
    draw_cands(a, &v, body);
    draw_after(a, &v, after);
    char ctx[128];
    snprintf(ctx, sizeof ctx, "Step %s %s %s decision %zu", sym(SYM_DOT),
             a->rs.slot[a->rs.focus].spec.label, sym(SYM_DOT), v.rec->ndecisions);
    draw_status(a, ctx, "Left/Right decision  j/k candidate  Enter GPU  o sort  ? help");
}

void step_enter(app *a)
{
    gp_err err;
    if (runset_settle(&a->rs, &err))
        app_err(a, "%s", err.msg);
}

/* --- keys ------------------------------------------------------------------- */

static ui_rc step_move(app *a, int key)
{
    gp_err err;
    int rc = key == KEY_LEFT || key == 'h' ? runset_back(&a->rs, &err)
                                           : runset_step(&a->rs, &err);
    if (rc)
        app_err(a, "%s", err.msg);
    a->step.sel = a->step.top = 0;
    return UI_DONE;
}

static size_t pane_len(const app *a)
{
    step_view v;
    if (view_of(a, &v))
        return 0;
    if (a->step.pane == 0)
        return v.ex ? v.ex->ncands : 0;
    int nd = v.dec ? v.dec->node : -1;
    return nd >= 0 ? (size_t)v.cs->nodes[nd].ngpus : 0;
}

static ui_rc step_cursor(app *a, int key)
{
    long d = key == KEY_DOWN || key == 'j' ? 1 : key == KEY_UP || key == 'k' ? -1
           : key == KEY_NPAGE ? 10 : key == KEY_PPAGE ? -10 : key == KEY_HOME ? -1000000
           : 1000000;
    list_move(&a->step.sel, pane_len(a), d);
    return UI_DONE;
}

static ui_rc step_pane(app *a, int key)
{
    (void)key;
    a->step.pane = !a->step.pane;
    a->step.sel = a->step.top = 0;
    return UI_DONE;
}

static ui_rc step_sort(app *a, int key)
{
    (void)key;
    a->step.sort = !a->step.sort;
    a->step.sel = a->step.top = 0;
    return UI_DONE;
}

static ui_rc step_chosen(app *a, int key)
{
    (void)key;
    step_view v;
    if (view_of(a, &v) || !v.ex || v.ex->chosen < 0)
        return UI_DONE;
    build_order(a, v.ex);
    for (size_t i = 0; i < v.ex->ncands; i++)
        if ((int)a->step.order[i] == v.ex->chosen)
            a->step.sel = i;
    a->step.pane = 0;
    return UI_DONE;
}

static ui_rc step_open(app *a, int key)
{
    (void)key;
    step_view v;
    if (view_of(a, &v))
        return UI_DONE;
    int gpu = -1;
    if (a->step.pane == 0 && v.ex && a->step.sel < v.ex->ncands) {
        build_order(a, v.ex);
        const explain_cand *c = &v.ex->cands[a->step.order[a->step.sel]];
        gpu = c->gpu >= 0 ? c->gpu : v.cs->nodes[c->node].gpu0;
    } else if (a->step.pane == 1 && v.dec && v.dec->node >= 0) {
        gpu = v.cs->nodes[v.dec->node].gpu0 + (int)a->step.sel;
    }
    if (gpu < 0)
        return UI_DONE;
    a->cl.from_snapshot = 0;
    cluster_select_gpu(a, gpu);
    app_goto(a, SCR_CLUSTER);
    return UI_DONE;
}

static ui_rc step_focus(app *a, int key)
{
    (void)key;
    if (a->rs.n == 0)
        return UI_DONE;
    a->rs.focus = (a->rs.focus + 1) % a->rs.n;
    a->cmp.row = (size_t)a->rs.focus;
    a->step.sel = a->step.top = 0;
    app_msg(a, "focus: %s", a->rs.slot[a->rs.focus].spec.label);
    return UI_DONE;
}

static void goto_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    int64_t k;
    if (!ok)
        return;
    if (parse_int64(text, &k) || k < 0) {
        app_err(a, "expected a decision number, got '%s'", text);
        return;
    }
    gp_err err;
    if (runset_goto(&a->rs, (size_t)k, &err))
        app_err(a, "%s", err.msg);
    a->step.sel = a->step.top = 0;
}

static ui_rc step_goto(app *a, int key)
{
    (void)key;
    modal_prompt(a, "Go to decision number", "", goto_done);
    return UI_DONE;
}

static const ui_key step_keys[] = {
    {{KEY_RIGHT, 'l'}, "Right l", "next decision (the other policies follow in time)",
     step_move},
    {{KEY_LEFT, 'h'}, "Left h", "previous decision", step_move},
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "move the cursor in the pane", step_cursor},
    {{KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END}, "PgUp PgDn", "move a page / to the ends",
     step_cursor},
    {{'\t'}, "Tab", "candidates / cluster-after pane", step_pane},
    {{'\n', '\r', KEY_ENTER}, "Enter", "open the GPU under the cursor in Cluster", step_open},
    {{'o'}, "o", "order candidates as considered / by score", step_sort},
    {{'c'}, "c", "cursor to the chosen candidate", step_chosen},
    {{'f'}, "f", "focus the next policy", step_focus},
    {{'g'}, "g", "go to decision number ...", step_goto},
    {{0}, NULL, NULL, NULL},
};

static const ui_key *step_keytab(const app *a)
{
    (void)a;
    return step_keys;
}

static ui_rc step_key(app *a, int key)
{
    return ui_dispatch(a, step_keys, key);
}

const ui_screen scr_step = {
    .name = "Step", .hotkey = '2', .fkey = 3, .draw = step_draw, .key = step_key,
    .keys = step_keytab, .tick = NULL,
};
