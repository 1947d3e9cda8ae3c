/*
 * scr_step.c — the Step screen: the focused policy's latest placement
 * decision, explained.  The incoming task (memory, GPUs requested, its
 * utilization sparkline), every candidate the policy considered with each
 * of its score terms (rho, delta_mu, score for CATS; rho and mean for
 * CorrGPU; sums against q for the baselines — whatever the policy's
 * explain() names), the chosen one highlighted, and the GPUs of the chosen
 * node after the decision.  → / ← move one decision at a time.
 *
 * When a new decision shows, the tick (not the drawing) puts the cursor on
 * the chosen candidate.
 */
#include "app.h"
#include "draw.h"
#include "engine.h"
#include "colname.h"
#include "gpuinfo.h"
#include "help_terms.h"
#include "core/gpuname.h"

#include <assert.h>
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
    gpu_name(buf, len, nname,
             c->gpu >= 0 && (size_t)c->gpu < cs->ngpus ? cs->gpus[c->gpu].dev : -1);
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

/* The candidates in display order (the caller frees it). */
static size_t *cand_order(const explain *ex, int sort)
{
    size_t *order = xmalloc((ex->ncands ? ex->ncands : 1) * sizeof *order);
    for (size_t i = 0; i < ex->ncands; i++)
        order[i] = i;
    if (sort && ex->ncands > 1)
        sort_cands(ex, order, ex->ncands);
    return order;
}

/* Where the chosen candidate stands in order; ncands when none was. */
static size_t chosen_pos(const explain *ex, const size_t *order)
{
    for (size_t i = 0; i < ex->ncands; i++)
        if ((int)order[i] == ex->chosen)
            return i;
    return ex->ncands;
}

/* --- geometry (drawing and keys both ask) ------------------------------------ */

typedef struct step_geom {
    rect task, cands, after;
} step_geom;

static step_geom step_layout(const app *a, const step_view *v)
{
    step_geom g;
    rect body = layout_body(a->rows, a->cols);
    /* A round's summary (objective, gap, moves) may take a second line. */
    int wrap = v->ex && (int)strlen(v->ex->summary) > a->cols - 4;
    g.task = layout_take_top(&body, 7 + wrap);
    const cs_node *n = v->dec && v->dec->node >= 0 ? &v->cs->nodes[v->dec->node] : NULL;
    int after_h = (n ? n->ngpus : 4) + 3;
    if (after_h > body.h / 2)
        after_h = body.h / 2;
    g.after = layout_take_bottom(&body, after_h);
    g.cands = body;
    return g;
}

/* Rows of a pane's table below its header. */
static int pane_rows(const app *a, const step_view *v, int pane)
{
    step_geom g = step_layout(a, v);
    int h = layout_inner(pane == 0 ? g.cands : g.after).h - 1;
    return h > 0 ? h : 0;
}

/* Rows in a pane: the candidates, or the GPUs of the decision's node. */
static size_t pane_len(const step_view *v, int pane)
{
    if (pane == 0)
        return v->ex ? v->ex->ncands : 0;
    int nd = v->dec ? v->dec->node : -1;
    return nd >= 0 ? (size_t)v->cs->nodes[nd].ngpus : 0;
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

/* text at (y, x) in w columns; when it is longer and `two` allows, the
 * rest goes on the next line, broken after the last "; " (else space)
 * that fits. */
static void draw_wrapped2(int y, int x, int w, int two, const char *text)
{
    int len = (int)strlen(text);
    if (len <= w || !two || w < 20) {
        draw_text(y, x, w, A_NORMAL, text);
        return;
    }
    int cut = w;
    for (int i = w - 1; i > w / 2; i--)
        if (text[i] == ';' && text[i + 1] == ' ') {
            cut = i + 1;
            break;
        }
    if (cut == w)
        for (int i = w - 1; i > w / 2; i--)
            if (text[i] == ' ') {
                cut = i;
                break;
            }
    char first[512];
    snprintf(first, sizeof first, "%.*s", cut, text);
    draw_text(y, x, w, A_NORMAL, first);
    while (text[cut] == ' ')
        cut++;
    draw_text(y + 1, x, w, A_NORMAL, text + cut);
}

static void draw_task(const app *a, const step_view *v, rect box)
{
    char title[128];
    snprintf(title, sizeof title, "Decision #%zu of %s", v->rec->ndecisions,
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
    draw_textf(in.y, in.x + 1, in.w - 1, A_BOLD, "Task %s at t=%s", tk->name, t);
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
    else {
        char where[GP_NAME_MAX + 64];
        gpus_name(where, sizeof where, v->cs->nodes[v->dec->node].name, v->dec->gpus);
        draw_textf(in.y + 3, in.x + 1, in.w - 1, ui_attr(C_GOOD) | A_BOLD, "%s placed on %s%s",
                   sym(SYM_POINTER), where, v->dec->gpus[0] ? "" : " (no GPU)");
    }
    if (v->ex && in.h > 4)
        draw_wrapped2(in.y + 4, in.x + 1, in.w - 1, in.h > 5, v->ex->summary);
}

/* What a candidate row needs: the screen, the decision and the columns. */
typedef struct cand_table {
    const step_view *v;
    const size_t *order;
    const ui_col *cols;
    int nc;
} cand_table;

static void cand_row(const void *ctx, size_t pos, rect r, lv_hl hl)
{
    const cand_table *t = ctx;
    const explain *ex = t->v->ex;
    assert(pos < ex->ncands);
    size_t ci = t->order[pos];
    const explain_cand *c = &ex->cands[ci];
    char v0[64], vt[EXPLAIN_MAX_TERMS][24];
    const char *cells[EXPLAIN_MAX_TERMS + 3];
    cand_name(t->v->cs, c, v0, sizeof v0);
    cells[0] = v0;
    for (int k = 0; k < ex->nterms; k++) {
        /* Four significant digits, without exponents for big totals. */
        snprintf(vt[k], sizeof vt[k], fabs(c->term[k]) >= 1e4 && fabs(c->term[k]) < 1e12
                 ? "%.0f" : "%.4g", c->term[k]);
        cells[1 + k] = vt[k];
    }
    int chosen = (int)ci == ex->chosen;
    cells[1 + ex->nterms] = chosen ? "WIN" : c->eligible ? "" : "no";
    cells[2 + ex->nterms] = c->note;
    attr_t plain = chosen ? ui_attr(C_CHOSEN) : c->eligible ? A_NORMAL : ui_attr(C_DIM);
    draw_row(r.y, r.x + 2, r.w - 2, t->cols, t->nc, cells, ui_hl_attr(hl, plain));
    if (chosen)
        draw_text(r.y, r.x, 2, ui_attr(C_GOOD) | A_BOLD, sym(SYM_POINTER));
}

/* The width of a score term's column. */
#define TERM_COL_W 10

/* The explanation's term names shortened to their columns (colname.h). */
static void term_heads(const explain *ex, char (*heads)[COLNAME_MAX])
{
    const char *names[EXPLAIN_MAX_TERMS];
    for (int t = 0; t < ex->nterms; t++)
        names[t] = ex->term_name[t] ? ex->term_name[t] : "?";
    colname_fit(names, (size_t)ex->nterms, TERM_COL_W, heads);
}

/* One line naming each column by what it is ("dmu util. gap"), as far as
 * it fits; Help (?) defines them in full. */
static void draw_legend(const explain *ex, char (*heads)[COLNAME_MAX], int y, int x, int w)
{
    char line[512] = "";
    size_t len = 0;
    for (int t = 0; t < ex->nterms && len < sizeof line; t++) {
        const help_term *ht = help_step_term(ex->term_name[t] ? ex->term_name[t] : "");
        if (ht && ht->gloss[0])
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%s: %s", len ? "  " : "",
                                    heads[t], ht->gloss);
    }
    if (len < sizeof line)
        snprintf(line + len, sizeof line - len, "%s? defines every column", len ? "  " : "");
    draw_text(y, x, w, ui_attr(C_DIM), line);
}

static void draw_cands(const app *a, const step_view *v, const size_t *order, rect box)
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
    ui_col cols[EXPLAIN_MAX_TERMS + 3];
    char heads[EXPLAIN_MAX_TERMS][COLNAME_MAX];
    term_heads(ex, heads);
    int nc = 0;
    cols[nc++] = (ui_col){"GPU", 18, 0};
    for (int t = 0; t < ex->nterms; t++)
        cols[nc++] = (ui_col){heads[t], TERM_COL_W, 1};
    cols[nc++] = (ui_col){"", 4, 0};
    cols[nc++] = (ui_col){"note", 30, 0};
    /* o orders by the last term (column nterms): the header marks it. */
    draw_header_sorted(in.y, in.x + 2, in.w - 2, cols, nc, a->step.sort ? ex->nterms : -1, 0);
    rect rows = {in.y + 1, in.x, in.h > 1 ? in.h - 1 : 0, in.w};
    /* The legend takes the last line when the candidates leave it free. */
    if (rows.h > (int)ex->ncands + 1) {
        draw_legend(ex, heads, in.y + in.h - 1, in.x + 2, in.w - 2);
        rows.h--;
    }
    listview lv = lv_shown(&a->step.cands, ex->ncands, rows.h);
    cand_table t = {v, order, cols, nc};
    lv_draw(&lv, rows, a->step.pane == 0 ? LV_HL_FOCUSED : LV_HL_NONE, cand_row, &t);
}

/* The node the lower pane shows: the selected candidate's, else the chosen. */
static int shown_node(const app *a, const step_view *v, const size_t *order)
{
    const explain *ex = v->ex;
    if (a->step.pane == 0 && ex && ex->ncands && order)
        return ex->cands[order[lv_shown(&a->step.cands, ex->ncands, 1).cursor]].node;
    return v->dec ? v->dec->node : -1;
}

static const ui_col after_cols[] = {
    {"GPU", 4, 1}, {"state", 7, 0}, {"memory GiB", 11, 1}, {"share", 6, 1}, {"tasks", 5, 1},
    {"util%", 6, 1}, {"W", 6, 1}, {"aggregate utilization ahead", 40, 0},
};

/* What a GPU row of the lower pane needs. */
typedef struct after_table {
    const step_view *v;
    int node;
} after_table;

static void after_row(const void *ctx, size_t row, rect r, lv_hl hl)
{
    const after_table *t = ctx;
    const step_view *v = t->v;
    assert(row < (size_t)v->cs->nodes[t->node].ngpus);
    int d = (int)row, g = v->cs->nodes[t->node].gpu0 + d;
    const cs_gpu *cg = &v->cs->gpus[g];
    const double *prog = sim_progress(v->s);
    char c[7][24];
    snprintf(c[0], 24, "g%d", d);      /* node/gN: the node is in the title */
    snprintf(c[1], 24, "%s", cg->power == GPU_ASLEEP ? "asleep"
             : cg->power == GPU_IDLE ? "idle" : "active");
    snprintf(c[2], 24, "%.1f/%.0f", cg->mem_used_gib, cg->mem_gib);
    snprintf(c[3], 24, "%d", cg->alloc_milli);
    snprintf(c[4], 24, "%d", cg->ntasks);
    snprintf(c[5], 24, "%.0f", gpu_util_now(v->cs, v->tr, prog, g));
    snprintf(c[6], 24, "%.0f", gpu_watts(v->cs, g, 0));
    const char *cells[8] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], ""};
    int picked = v->dec && v->dec->node == t->node && gpus_has(v->dec->gpus, d);
    draw_row(r.y, r.x, r.w, after_cols, 8, cells, ui_hl_attr(hl, picked ? A_BOLD : A_NORMAL));
    /* The spark column starts after the seven fixed columns. */
    int x = r.x + 4 + 7 + 11 + 6 + 5 + 6 + 6 + 7, room = r.x + r.w - x - 1;
    float agg[256];
    size_t m = room > 4 ? gpu_agg_series(v->cs, v->tr, prog, g, agg,
                                         (size_t)(room < 256 ? room : 256)) : 0;
    if (m)
        draw_spark(r.y, x, room, agg, m, 0, 100, ui_attr(C_SERIES2));
}

static void draw_after(const app *a, const step_view *v, const size_t *order, rect box)
{
    int nd = shown_node(a, v, order);
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
    draw_header(in.y, in.x + 1, in.w - 1, after_cols, 8);
    rect rows = {in.y + 1, in.x + 1, in.h > 1 ? in.h - 1 : 0, in.w - 1};
    listview lv = lv_shown(&a->step.gpus, (size_t)v->cs->nodes[nd].ngpus, rows.h);
    after_table t = {v, nd};
    lv_draw(&lv, rows, a->step.pane == 1 ? LV_HL_FOCUSED : LV_HL_NONE, after_row, &t);
}

static void step_draw(const app *a)
{
    step_view v;
    if (view_of(a, &v)) {
        draw_empty_screen(a, "Step", a->rs.n ? "The focused run is a saved one: press r in "
                                               "Compare (1) to re-simulate it, then step here."
                                             : "No comparison is running: pick policies in "
                                               "Compare (1) and press Enter, then step here "
                                               "with Right / Left.",
                          "1 Compare  ? help  q quit");
        return;
    }
    step_geom g = step_layout(a, &v);
    size_t *order = v.ex ? cand_order(v.ex, a->step.sort) : NULL;
    draw_task(a, &v, g.task);
    draw_cands(a, &v, order, g.cands);
    draw_after(a, &v, order, g.after);
    free(order);
    char ctx[128];
    snprintf(ctx, sizeof ctx, "Step %s %s %s decision #%zu", sym(SYM_DOT),
             a->rs.slot[a->rs.focus].spec.label, sym(SYM_DOT), v.rec->ndecisions);
    draw_status(a, ctx, "Left/Right decision  j/k candidate  Enter GPU  o sort  X export  ? help");
}

/* --- jumps in slices --------------------------------------------------------- */

static int seek_slice(app *a, double budget_s)
{
    return runset_seek_slice(&a->rs, budget_s);
}

static double seek_progress(const app *a)
{
    return runset_seek_progress(&a->rs);
}

static void seek_cancel(app *a)
{
    runset_seek_stop(&a->rs);
    step_reset(a);
    sim *f = runset_focus_sim(&a->rs);
    app_msg(a, "stopped at decision #%zu", f ? sim_decisions(f) : (size_t)0);
}

static void seek_done(app *a, double elapsed_s)
{
    step_reset(a);
    if (elapsed_s >= 0.5) {
        sim *f = runset_focus_sim(&a->rs);
        app_msg(a, "at decision #%zu in %.1f s", f ? sim_decisions(f) : (size_t)0, elapsed_s);
    }
}

/* Goes on with the jump runset_seek_begin began: over at once when it is
 * short, else a frame at a time with its progress and Esc to stop it. */
static void seek_run(app *a, const char *what)
{
    ui_job job = {.slice = seek_slice, .progress = seek_progress, .cancel = seek_cancel,
                  .done = seek_done};
    snprintf(job.what, sizeof job.what, "%s", what);
    app_job_start(a, &job);
}

/* Entering Step shows the state right after the decision. */
static void step_enter(app *a)
{
    gp_err err;
    int rc = runset_settle(&a->rs, &err);
    if (rc < 0)
        app_err(a, "%s", err.msg);
    else if (rc > 0)
        seek_run(a, "Back to the decision");
}

void step_reset(app *a)
{
    lv_reset(&a->step.cands, 0);
    lv_reset(&a->step.gpus, 0);
}

/* Keeps the lists' counts with the decision shown; on a new decision the
 * cursor starts on the chosen candidate.  Only while Step is on screen:
 * the cursor is set for the decision the user gets to see. */
static int step_tick(app *a, double dt)
{
    (void)dt;
    step_view v;
    if (a->scr != SCR_STEP || view_of(a, &v))
        return 0;
    step_ui *st = &a->step;
    lv_set_count(&st->gpus, pane_len(&v, 1));
    if (!v.ex || v.ex->ncands == 0)
        return 0;
    lv_set_count(&st->cands, v.ex->ncands);
    if (st->seen == v.rec->ndecisions)
        return 0;
    st->seen = v.rec->ndecisions;
    st->pane = 0;
    size_t *order = cand_order(v.ex, st->sort);
    size_t pos = chosen_pos(v.ex, order);
    free(order);
    if (pos < v.ex->ncands)
        lv_select(&st->cands, pos, pane_rows(a, &v, 0));
    return 0;
}

/* --- keys ------------------------------------------------------------------- */

void step_decision(app *a, int back)
{
    gp_err err;
    sim *f = runset_focus_sim(&a->rs);
    size_t k = f ? sim_decisions(f) : 0;
    int rc = !back ? runset_seek_next(&a->rs, &err)
           : f && k == 0 ? gp_error(&err, "already before the first placement")
           : runset_seek_begin(&a->rs, k ? k - 1 : 0, 0, &err);
    step_reset(a);
    if (rc)
        app_err(a, "%s", err.msg);
    else
        seek_run(a, back ? "One placement back" : "One placement forward");
}

static ui_rc step_move(app *a, int key)
{
    step_decision(a, key == KEY_LEFT || key == 'h');
    return UI_DONE;
}

static ui_rc step_cursor(app *a, int key)
{
    step_view v;
    if (view_of(a, &v))
        return UI_DONE;
    listview *lv = a->step.pane == 0 ? &a->step.cands : &a->step.gpus;
    lv_set_count(lv, pane_len(&v, a->step.pane));
    lv_key(lv, key, pane_rows(a, &v, a->step.pane));
    return UI_DONE;
}

static ui_rc step_pane(app *a, int key)
{
    (void)key;
    a->step.pane = !a->step.pane;
    step_reset(a);
    return UI_DONE;
}

static ui_rc step_sort(app *a, int key)
{
    (void)key;
    a->step.sort = !a->step.sort;
    step_reset(a);
    return UI_DONE;
}

static ui_rc step_chosen(app *a, int key)
{
    (void)key;
    step_view v;
    if (view_of(a, &v) || !v.ex || v.ex->chosen < 0)
        return UI_DONE;
    size_t *order = cand_order(v.ex, a->step.sort);
    size_t pos = chosen_pos(v.ex, order);
    free(order);
    if (pos < v.ex->ncands) {
        lv_set_count(&a->step.cands, v.ex->ncands);
        lv_select(&a->step.cands, pos, pane_rows(a, &v, 0));
    }
    a->step.pane = 0;
    return UI_DONE;
}

/* The GPU under the cursor: a candidate's (its node's first GPU when the
 * candidate is a node), or one of the node after the decision; -1 none. */
static int cursor_gpu(const app *a, const step_view *v)
{
    if (a->step.pane == 0 && v->ex && v->ex->ncands) {
        size_t *order = cand_order(v->ex, a->step.sort);
        const explain_cand *c =
            &v->ex->cands[order[lv_shown(&a->step.cands, v->ex->ncands, 1).cursor]];
        free(order);
        return c->gpu >= 0 ? c->gpu : v->cs->nodes[c->node].gpu0;
    }
    if (a->step.pane == 1 && pane_len(v, 1))
        return v->cs->nodes[v->dec->node].gpu0 +
               (int)lv_shown(&a->step.gpus, pane_len(v, 1), 1).cursor;
    return -1;
}

static ui_rc step_open(app *a, int key)
{
    (void)key;
    step_view v;
    int gpu = view_of(a, &v) ? -1 : cursor_gpu(a, &v);
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
    compare_focus(a, (a->rs.focus + 1) % a->rs.n);
    step_enter(a);          /* its state just after its latest decision */
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
    step_reset(a);
    if (runset_seek_begin(&a->rs, (size_t)k, 0, &err)) {
        app_err(a, "%s", err.msg);
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "Going to decision #%lld", (long long)k);
    seek_run(a, what);
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
    .keys = step_keytab, .tick = step_tick, .enter = step_enter,
};
