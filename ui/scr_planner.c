/*
 * scr_planner.c — the Planner screen (v1): "how many GPUs must I buy?".
 * Left, the parameters: trace, GPU profile, sweep range or unbounded pool,
 * and the sliders — price, correlation threshold, utilization threshold,
 * kappa, SLA target; then a second GPU model with its count range and
 * price, and an electricity price.  Right, the sweep's progress, a chart of
 * GPU count against the chosen metric (one line per policy) and the table
 * of every (count, policy) result with SLA violations, mean JCT, average
 * power and CapEx; the smallest count meeting the SLA target is
 * highlighted per policy.  Above the chart, the one-line answer (the
 * cheapest policy meeting the SLA target, "CorrGPU: 1 × A100-40GB, 2,500
 * USD") and the legend; on the SLA chart the target is a line and each
 * policy's fewest GPUs meeting it a marker.  `d` puts a parameter back to
 * its default.  With a second model the sweep is a grid of
 * mixed clusters: the chart shows each policy's frontier (the metric
 * against cost), the table marks frontier points and the cheapest point
 * meeting the SLA target.  The sweep runs a slice at a time from the main loop (src/plan/plan.h),
 * so the screen stays live and Esc cancels it.
 *
 * "From snapshot" starts every run from a stored snapshot (an imported
 * cluster's, or a run's instant), as `gpuplan plan --from-snapshot` does:
 * its tasks in place on its cluster, the trace (its pending pods when
 * stored, else none) arriving, the counts swept the GPUs added to it.
 *
 * The parameters are set up from Compare's trace and policies when the
 * screen is first entered (planner_ensure), not while drawing.
 *
 * Results belong to the parameters they were swept with: once a parameter
 * that changes the simulations differs (plan_params_same_sweep), they are
 * marked stale on every line that shows them and `X` refuses to export
 * them beside a command for other parameters.  Values typed are checked
 * against the same ranges as the CLI's options and refused with a
 * message, never clamped; `r` refuses what `gpuplan plan` refuses
 * (plan_params_check) and keeps the previous results.
 */
#include "app.h"
#include "draw.h"
#include "export.h"
#include "planner_cost.h"
#include "core/runsum.h"
#include "plan/plan_chart.h"
#include "plan/plan_site.h"
#include "plan/plan_table.h"
#include "policy/corr_place.h"
#include "power/power_cap.h"

#include <assert.h>
#include <ctype.h>
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    P_TRACE, P_GPU, P_MODE, P_LO, P_HI, P_STEP, P_PER, P_PRICE, P_CORR, P_UTIL, P_KAPPA,
    P_SLA, P_POLICIES, P_GPU2, P_LO2, P_HI2, P_STEP2, P_PRICE2,
    P_KWH, P_CARBON, P_PUE, P_YEARS, P_KW_MONTH,        /* planner_cost.h's rows, in order */
    P_SITE, P_HOST, P_CAP, P_WINDOW, P_SNAP, P_NPARAMS
};

/* The pricing row (planner_cost.h) of a parameter, or -1. */
static int cost_row(int param)
{
    return param >= P_KWH && param <= P_KW_MONTH ? param - P_KWH : -1;
}

static const char *const param_names[P_NPARAMS] = {
    "Trace", "GPU profile", "Mode", "GPUs from", "GPUs to", "Step", "GPUs/server",
    "Price $/GPU", "Corr. threshold", "Util. threshold", "Kappa (SLA)", "SLA target",
    "Policies", "2nd GPU", "2nd GPUs from", "2nd GPUs to", "2nd step", "2nd price $/GPU",
    "Energy $/kWh", "Carbon g/kWh", "PUE", "Years (TCO)", "Facility $/kW-mo", "Site kW",
    "Host W/server", "GPU power cap", "Util. window",
    "From snapshot",
};

/* A grid over two models is asked for (the sweep run may differ). */
static int grid_asked(const app *a)
{
    return a->pl.p.gpu2[0] && !a->pl.p.unbounded;
}

/* The results on screen were swept with other parameters than those set
 * now (the live sliders aside): they no longer answer the question. */
static int results_stale(const app *a)
{
    const plan *sw = &a->pl.sw;
    return sw->njobs > 0 && sw->state != PLAN_IDLE &&
           !plan_params_same_sweep(&a->pl.p, &sw->p);
}

/* --- defaults ---------------------------------------------------------------- */

/* The range up to the tasks' peak demand (plan_peak_demand); from a
 * snapshot, GPUs added to its cluster, from none. */
static void set_range_from_trace(app *a)
{
    plan_params *p = &a->pl.p;
    gp_err err;
    int peak;
    if ((!p->trace[0] && !p->snapshot[0]) || plan_peak_demand(a->st, p, &peak, &err))
        return;
    p->hi = peak > 0 ? peak : 1;
    if (p->snapshot[0])
        p->lo = 0;
    else
        p->lo = p->hi / 4 > 1 ? p->hi / 4 : 1;
    p->step = (p->hi - p->lo) / 12 > 1 ? (p->hi - p->lo) / 12 : 1;
}

/* The GPU profile the trace's same-named cluster uses, else the first. */
static void default_gpu(app *a)
{
    const ui_list *gl = &a->data.lists[STORE_GPU], *cl = &a->data.lists[STORE_CLUSTER];
    plan_params *p = &a->pl.p;
    for (size_t i = 0; i < cl->lv.count; i++)
        if (strcmp(cl->items[i].name, p->trace) == 0) {
            sscanf(cl->items[i].detail, "%63s", p->gpu);
            return;
        }
    if (gl->lv.count)
        snprintf(p->gpu, sizeof p->gpu, "%s", gl->items[0].name);
}

static void default_policies(app *a);

static void planner_ensure(app *a)
{
    planner_ui *pl = &a->pl;
    planner_cost_ensure(a);
    /* Set up once: a snapshot alone (no trace arriving) counts as set up. */
    if (pl->p.trace[0] || pl->p.snapshot[0] || !a->cmp.traces.lv.count)
        return;
    plan_params_default(&pl->p);
    planner_cost_ensure(a);
    snprintf(pl->p.trace, sizeof pl->p.trace, "%s",
             a->cmp.traces.items[a->cmp.traces.lv.cursor].name);
    default_gpu(a);
    set_range_from_trace(a);
    default_policies(a);
}

void planner_free(planner_ui *p)
{
    plan_free(&p->sw);
    if (p->cost_ready)
        plan_pricing_free(&p->cost);
}

/* The parameter under the cursor (a P_ value). */
static int cur_param(const app *a)
{
    return (int)a->pl.params.cursor;
}

/* --- geometry (drawing and keys both ask) ----------------------------------------- */

typedef struct planner_geom {
    rect params, progress, answer, best, chart, results;
} planner_geom;

static int answer_lines(const app *a, int w);

static planner_geom planner_layout(const app *a)
{
    planner_geom g;
    rect body = layout_body(a->rows, a->cols), right;
    layout_split(body, 42, 38, &g.params, &right);
    g.progress = layout_take_top(&right, 1);
    g.answer = layout_take_top(&right, answer_lines(a, right.w - 1));
    g.best = layout_take_top(&right, 1);
    g.chart = layout_take_top(&right, right.h / 2 > 8 ? right.h / 2 : 8);
    g.results = right;
    return g;
}

static int params_rows(const app *a)
{
    int h = layout_inner(planner_layout(a).params).h;
    return h < P_NPARAMS ? h : P_NPARAMS;
}

/* Result rows below the table's header. */
static int results_rows(const app *a)
{
    int h = layout_inner(planner_layout(a).results).h - 1;
    return h > 0 ? h : 0;
}

/* --- drawing -------------------------------------------------------------------- */

static void price_value(const app *a, const char *gpu, double price, char *buf, size_t len)
{
    if (price < 0) {
        const gpu_profile *g = a->data.cat && gpu[0] ? catalog_gpu(a->data.cat, gpu) : NULL;
        if (g && gpu_price_known(g))
            snprintf(buf, len, "profile's ($%.0f)", g->price_usd);
        else
            snprintf(buf, len, "profile's (unknown)");
    } else {
        snprintf(buf, len, "%.0f", price);
    }
}

/* The GPU power cap ("none", "200 W", "V100=150,...") and the
 * correlation window, as plan's --gpu-cap and --util-window take them. */
static void power_param_value(const plan_params *p, int i, char *buf, size_t len)
{
    if (i == P_WINDOW) {
        snprintf(buf, len, "%s", p->util_window < 0 ? "policy default"
                                 : p->util_window == CORR_WIN_WHOLE ? "whole" : "remaining");
        return;
    }
    char caps[256];
    power_caps_format(&p->caps, caps, sizeof caps);
    snprintf(buf, len, "%s%s", caps, p->caps.all_w > 0 ? " W" : "");
}

/* The envelope's parameters as shown, and their arrow-key steps. */
static void site_param_value(const plan_params *p, int param, char *buf, size_t len)
{
    if (param == P_SITE && !site_has_budget(&p->site))
        snprintf(buf, len, "none");
    else if (param == P_SITE)
        snprintf(buf, len, "%g", p->site.site_kw);
    else
        snprintf(buf, len, "%g", p->site.host_w);
}

static void site_param_step(plan_params *p, int param, int dir)
{
    site_envelope *e = &p->site;
    if (param == P_SITE)
        e->site_kw = fmax(0, e->site_kw + 10 * dir);
    else
        e->host_w = fmax(0, e->host_w + 100 * dir);
}

static void param_value(const app *a, int i, char *buf, size_t len)
{
    const plan_params *p = &a->pl.p;
    switch (i) {
    case P_TRACE:
        snprintf(buf, len, "%s", p->trace[0] ? p->trace : "none (the snapshot's tasks)");
        break;
    case P_GPU: snprintf(buf, len, "%s", p->gpu); break;
    case P_MODE: snprintf(buf, len, "%s", p->unbounded ? "unbounded pool" : "sweep"); break;
    case P_LO: snprintf(buf, len, "%d", p->lo); break;
    case P_HI: snprintf(buf, len, "%d", p->hi); break;
    case P_STEP: snprintf(buf, len, "%d", p->step); break;
    case P_PER: snprintf(buf, len, "%d", p->per_server); break;
    case P_PRICE: price_value(a, p->gpu, p->price, buf, len); break;
    case P_GPU2: snprintf(buf, len, "%s", p->gpu2[0] ? p->gpu2 : "none (one model)"); break;
    case P_LO2: snprintf(buf, len, "%d", p->lo2); break;
    case P_HI2: snprintf(buf, len, "%d", p->hi2); break;
    case P_STEP2: snprintf(buf, len, "%d", p->step2); break;
    case P_PRICE2: price_value(a, p->gpu2, p->price2, buf, len); break;
    case P_SNAP: snprintf(buf, len, "%s", p->snapshot[0] ? p->snapshot : "none"); break;
    case P_CAP: case P_WINDOW: power_param_value(p, i, buf, len); break;
    case P_SITE: case P_HOST: site_param_value(p, i, buf, len); break;
    case P_KWH: case P_CARBON: case P_PUE: case P_YEARS: case P_KW_MONTH:
        planner_cost_value(a, cost_row(i), buf, len);
        break;
    case P_CORR:
        if (isnan(p->corr_threshold))
            snprintf(buf, len, "policy default");
        else
            snprintf(buf, len, "%.2f", p->corr_threshold);
        break;
    case P_UTIL:
        if (isnan(p->util_threshold))
            snprintf(buf, len, "policy default");
        else
            snprintf(buf, len, "%.0f%%", p->util_threshold);
        break;
    case P_KAPPA:
        if (p->kappa <= 0)
            snprintf(buf, len, "each task's");
        else
            snprintf(buf, len, "%.2f", p->kappa);
        break;
    case P_SLA: snprintf(buf, len, "<= %.1f%% violations", p->sla_target_pct); break;
    case P_POLICIES: {
        buf[0] = '\0';
        for (int k = 0; k < p->npolicies; k++) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s", k ? "," : "", p->policies[k]);
        }
        break;
    }
    default: buf[0] = '\0';
    }
}

static void param_row(const void *ctx, size_t row, rect r, lv_hl hl)
{
    const app *a = ctx;
    assert(row < P_NPARAMS);
    int i = (int)row;
    char v[160], line[200];
    param_value(a, i, v, sizeof v);
    snprintf(line, sizeof line, " %-16s %s", param_names[i], v);
    int second = i == P_LO2 || i == P_HI2 || i == P_STEP2 || i == P_PRICE2;
    int dim = (a->pl.p.unbounded && (i == P_LO || i == P_HI || i == P_STEP || i == P_GPU2)) ||
              (second && !grid_asked(a));
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, dim ? ui_attr(C_DIM) : A_NORMAL), line);
}

static void draw_params(const app *a, rect box)
{
    draw_box(box, "What if", 1);
    rect in = layout_inner(box);
    rect rows = {in.y, in.x, in.h < P_NPARAMS ? in.h : P_NPARAMS, in.w};
    listview v = lv_shown(&a->pl.params, P_NPARAMS, rows.h);
    lv_draw(&v, rows, LV_HL_FOCUSED, param_row, a);
    int y = in.y + P_NPARAMS + 1;
    static const char *const help[] = {
        "Left/Right or -/+ adjust", "Enter type a value / choose", "r run the sweep",
        "Esc cancel a running sweep", "m chart metric", "d back to the default",
        "X export CSV, SVG, PNG",
    };
    for (size_t k = 0; k < sizeof help / sizeof *help && y < in.y + in.h; k++)
        draw_text(y++, in.x + 1, in.w - 1, ui_attr(C_DIM), help[k]);
}

static void draw_progress_line(const app *a, rect r)
{
    const plan *sw = &a->pl.sw;
    char label[160];
    switch (sw->state) {
    case PLAN_RUNNING: {
        const plan_result *res = &sw->res[plan_current_job(sw)];
        char gpus[48];
        if (sw->grid)
            snprintf(gpus, sizeof gpus, "%d+%d", res->gpus, res->gpus2);
        else
            snprintf(gpus, sizeof gpus, "%d", res->gpus);
        snprintf(label, sizeof label, "Esc cancels  run %d/%d: %s on %s GPUs  %.1fs",
                 sw->job + 1, sw->npending, sw->p.policies[res->policy], gpus, sw->elapsed);
        draw_progress(r.y, r.x + 1, r.w - 1, plan_progress(sw), label);
        return;
    }
    case PLAN_DONE:
        if (results_stale(a)) {
            snprintf(label, sizeof label, "STALE: parameters changed; r re-runs");
            draw_text(r.y, r.x + 1, r.w - 1, ui_attr(C_BAD) | A_BOLD, label);
            return;
        }
        snprintf(label, sizeof label, "sweep done: %d runs in %.1fs%s", sw->npending, sw->elapsed,
                 sw->nloaded ? " (the rest read from the database)" : "");
        break;
    case PLAN_CANCELLED:
        snprintf(label, sizeof label, "%ssweep cancelled after %d of %d runs",
                 results_stale(a) ? "STALE: " : "", sw->job, sw->npending);
        break;
    case PLAN_FAILED:
        snprintf(label, sizeof label, "sweep failed: %s", sw->err);
        break;
    default:
        if (a->pl.p.snapshot[0] && !a->pl.p.unbounded && !grid_asked(a)) {
            snprintf(label, sizeof label, "press r to sweep the GPUs added to snapshot %s",
                     a->pl.p.snapshot);
            break;
        }
        snprintf(label, sizeof label, "press r to sweep %s", a->pl.p.unbounded
                 ? "in unbounded-pool mode" : grid_asked(a) ? "the grid of two models"
                                                            : "the GPU count");
    }
    draw_text(r.y, r.x + 1, r.w - 1, sw->state == PLAN_FAILED ? ui_attr(C_BAD) : A_BOLD, label);
}

/* A money figure of r: never a bare 0 for GPUs without a known price
 * ("unknown", or the known part and "+?"). */
static void money_fmt(const plan *sw, const plan_result *r, plan_metric m,
                      const plan_params *live, char *buf, size_t len)
{
    double v = plan_value(sw, r, m, live);
    chart_fmt(v, buf, len);
    if (!plan_price_unknown(sw, r, live))
        return;
    if (v > 0)
        snprintf(buf + strlen(buf), len - strlen(buf), "+?");
    else
        snprintf(buf, len, "unknown");
}

/* One policy's legend entry: its name and its best point. */
static void legend_entry(const app *a, int j, char *t, size_t len)
{
    const plan *sw = &a->pl.sw;
    int c = plan_best(sw, j, &a->pl.p);
    const plan_result *best = c >= 0 ? plan_result_at(sw, c, j) : NULL;
    if (best && sw->grid) {
        char usd[32];
        money_fmt(sw, best, PM_COST, &a->pl.p, usd, sizeof usd);
        snprintf(t, len, "%s %d+%d $%s  ", sw->p.policies[j], best->gpus, best->gpus2,
                 strcmp(usd, "unknown") ? usd : "?");    /* short: the legend is one line */
    }
    else if (best && plan_nonmonotonic(sw, j, &a->pl.p)) {
        int s = plan_stable(sw, j, &a->pl.p);
        if (s >= 0)
            snprintf(t, len, "%s %d, stable %d  ", sw->p.policies[j], best->gpus,
                     plan_result_at(sw, s, j)->gpus);
        else
            snprintf(t, len, "%s %d, stable none  ", sw->p.policies[j], best->gpus);
    } else if (best)
        snprintf(t, len, "%s %d  ", sw->p.policies[j], best->gpus);
    else
        snprintf(t, len, "%s none  ", sw->p.policies[j]);
}

/* The legend: each policy in its colour with its fewest GPUs (grid: its
 * cheapest point) meeting the SLA; the heading only when all fits. */
static void draw_best(const app *a, rect r)
{
    const plan *sw = &a->pl.sw;
    char t[PLAN_MAX_POLICIES][96], head[64];
    int need = 0;
    for (int j = 0; j < sw->p.npolicies; j++) {
        legend_entry(a, j, t[j], sizeof t[j]);
        need += 2 + text_width(t[j]);
    }
    snprintf(head, sizeof head, "%s meeting SLA <= %.1f%%: ",
             sw->grid ? "cheapest" : "fewest GPUs", a->pl.p.sla_target_pct);
    int x = r.x + 1;
    if (need + text_width(head) < r.w)
        x += draw_text(r.y, x, r.w - 1, A_NORMAL, head);
    for (int j = 0; j < sw->p.npolicies && x < r.x + r.w; j++) {
        attr_t at = ui_attr(ui_series_color(j)) | A_BOLD;
        char mark[8];
        x += draw_text(r.y, x, r.x + r.w - x, at, ui_series_mark(&a->caps, j, mark, sizeof mark));
        x += draw_text(r.y, x, r.x + r.w - x, at, " ");
        x += draw_text(r.y, x, r.x + r.w - x, at, t[j]);
    }
}

/* The answer's text ("" before a sweep ends): which policy meets the SLA
 * target cheapest, marked when the results are stale. */
static void answer_text(const app *a, char *buf, size_t len)
{
    const plan *sw = &a->pl.sw;
    buf[0] = '\0';
    if (sw->state != PLAN_DONE && sw->state != PLAN_CANCELLED)
        return;
    char line[224], ref[96], site[320];
    plan_answer(sw, &a->pl.p, a->caps.utf8, line, sizeof line);
    if (sw->ref_name[0])   /* short: the answer should fit one line */
        snprintf(ref, sizeof ref, "speeds vs %s", sw->ref_name);
    else
        snprintf(ref, sizeof ref, "speeds vs speed %g", sw->ref_speed);
    plan_site_answer(sw, &a->pl.p, site, sizeof site);
    snprintf(buf, len, "%s %s; %s%s%s", results_stale(a) ? "Stale answer (earlier parameters):"
                                                          : "Answer:", line, ref,
             site[0] ? "; " : "", site);
}

/* The answer wraps onto a second line rather than being cut: a cut GPU
 * name can read as another ("A10" of "A100-40GB"). */
static int answer_lines(const app *a, int w)
{
    char t[640];
    answer_text(a, t, sizeof t);
    return t[0] && w > 0 ? text_wrap_lines(w, 4, t) : 1;
}

static void draw_answer(const app *a, rect r)
{
    char t[640];
    answer_text(a, t, sizeof t);
    if (t[0])
        draw_wrap(r.y, r.x + 1, r.w - 1, r.h, results_stale(a) ? ui_attr(C_DIM) : A_BOLD, t);
}

/* Unbounded pool: one number per policy (the GPUs it ended up using), so
 * bars say it better than a curve. */
static void draw_bars(const app *a, rect box)
{
    const plan *sw = &a->pl.sw;
    draw_box(box, "GPUs used with an unbounded pool (CapEx)", 0);
    rect in = layout_inner(box);
    int most = 1;
    for (int j = 0; j < sw->p.npolicies; j++) {
        const plan_result *r = plan_result_at(sw, 0, j);
        if (r && r->done && r->gpus > most)
            most = r->gpus;
    }
    for (int j = 0; j < sw->p.npolicies && 2 * j < in.h; j++) {
        const plan_result *r = plan_result_at(sw, 0, j);
        int y = in.y + 2 * j;
        draw_text(y, in.x + 1, 14, A_BOLD, sw->p.policies[j]);
        if (!r || !r->done) {
            draw_text(y, in.x + 16, in.w - 17, ui_attr(C_DIM), "...");
            continue;
        }
        int room = in.w - 16 - 28, len = room > 0 ? room * r->gpus / most : 0;
        for (int k = 0; k < len; k++)
            draw_glyph(y, in.x + 16 + k, a->caps.utf8 ? 0x2588u : '#', ui_attr(ui_series_color(j)));
        char cap[24];
        chart_fmt(plan_value(sw, r, PM_CAPEX, &a->pl.p), cap, sizeof cap);
        draw_textf(y, in.x + 17 + len, in.w - 17 - len, A_NORMAL, "%d GPUs  $%s  SLA %.1f%%",
                   r->gpus, cap, plan_value(sw, r, PM_SLA, &a->pl.p));
    }
}

typedef struct cost_point {
    double cost, v;
} cost_point;

static int cmp_cost(const void *x, const void *y)
{
    double a = ((const cost_point *)x)->cost, b = ((const cost_point *)y)->cost;
    return (a > b) - (a < b);
}

/* Grid: each policy's frontier, the chart metric against cost. */
static void draw_frontier(const app *a, rect box)
{
    const plan *sw = &a->pl.sw;
    const planner_ui *pl = &a->pl;
    static const size_t stride = sizeof(cost_point);
    cost_point pts[PLAN_MAX_POLICIES][PLAN_MAX_POINTS];
    ui_series s[PLAN_MAX_POLICIES];
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int j = 0; j < sw->p.npolicies; j++) {
        size_t n = 0;
        for (int c = 0; c < sw->ncounts; c++) {
            const plan_result *r = plan_result_at(sw, c, j);
            if (!plan_on_frontier(sw, c, j, &pl->p))
                continue;
            pts[j][n++] = (cost_point){plan_value(sw, r, PM_COST, &pl->p),
                                       plan_value(sw, r, (plan_metric)pl->chart_metric, &pl->p)};
        }
        qsort(pts[j], n, sizeof pts[j][0], cmp_cost);
        for (size_t k = 0; k < n; k++) {
            lo = fmin(lo, pts[j][k].cost);
            hi = fmax(hi, pts[j][k].cost);
        }
        s[j] = (ui_series){&pts[j][0].cost, &pts[j][0].v, n, stride, ui_series_color(j), 1, 0};
    }
    char title[96];
    snprintf(title, sizeof title, "frontier: %s vs cost $ (m: metric)",
             plan_metric_name((plan_metric)pl->chart_metric));
    if (!(lo < hi)) {
        lo = isfinite(lo) ? lo : 0;
        hi = lo + 1;
    }
    /* Units on both axes: the metric's (JCT as durations) against dollars. */
    static const char *const y_units[PM_NMETRICS] = {"%", NULL, "W", "$", "$", "t"};
    ui_axes ax = {y_units[pl->chart_metric], pl->chart_metric == PM_JCT, "USD"};
    draw_chart_axes(&a->caps, box, title, s, sw->p.npolicies, lo, hi, 0, &ax);
}

/* Each policy's fewest GPUs meeting the target, and its stable answer
 * when that differs, marked on the chart.  The
 * y range is worked out as draw_chart_axes() does (0 to the nice top of the
 * largest value shown), so the marks land on the curves. */
static void draw_fewest_marks(const app *a, rect box, const ui_series *s, int ns, double xlo,
                              double xhi)
{
    const plan *sw = &a->pl.sw;
    chart_layout L = layout_chart(box);
    if (L.plot.h < 1 || L.plot.w < 2)
        return;
    double ylo = 0, yhi = 0;
    for (int i = 0; i < ns; i++)
        for (size_t k = 0; k < s[i].n; k++) {
            double v = *(const double *)(const void *)((const char *)s[i].y + k * s[i].stride);
            if (isfinite(v) && v > yhi)
                yhi = v;
        }
    chart_nice_range(&ylo, &yhi, L.plot.h > 6 ? 4 : 2);
    for (int j = 0; j < sw->p.npolicies; j++) {
        /* The first crossing a diamond; a stable answer apart from it (a
         * curve that is not monotonic) a square. */
        int marks[2] = {plan_best(sw, j, &a->pl.p),
                        plan_nonmonotonic(sw, j, &a->pl.p) ? plan_stable(sw, j, &a->pl.p) : -1};
        for (int k = 0; k < 2; k++) {
            if (marks[k] < 0)
                continue;
            const plan_result *r = plan_result_at(sw, marks[k], j);
            double v = plan_value(sw, r, (plan_metric)a->pl.chart_metric, &a->pl.p);
            int col = L.plot.x + chart_scale(r->gpus, xlo, xhi, L.plot.w);
            int row = L.plot.y + L.plot.h - 1 - chart_scale(v, ylo, yhi, L.plot.h);
            uint32_t glyph = a->caps.utf8 ? (k ? 0x25A0u : 0x25C6u) : (k ? '#' : '@');
            draw_glyph(row, col, glyph, ui_attr(ui_series_color(j)) | A_BOLD);
        }
    }
}

/* Before any sweep: an empty chart saying how to fill it.  A flat line
 * at 0 (the SLA target's, or curves of no points) would read as a policy
 * at 0 %. */
static int draw_no_sweep(const app *a, rect box)
{
    const plan *sw = &a->pl.sw;
    if (sw->njobs > 0 && sw->state != PLAN_IDLE)
        return 0;
    draw_box(box, "chart (m: metric)", 0);
    rect in = layout_inner(box);
    if (in.h > 0)
        draw_wrap(in.y + in.h / 2, in.x + 1, in.w - 2, in.h - in.h / 2, ui_attr(C_DIM),
                  "No sweep yet: r runs one.");
    return 1;
}

static void draw_curve(const app *a, rect box)
{
    const plan *sw = &a->pl.sw;
    if (draw_no_sweep(a, box))
        return;
    if (sw->p.unbounded && sw->njobs) {
        draw_bars(a, box);
        return;
    }
    if (sw->grid) {
        draw_frontier(a, box);
        return;
    }
    const planner_ui *pl = &a->pl;
    double curve_x[PLAN_MAX_POLICIES][PLAN_MAX_COUNTS];
    double curve_y[PLAN_MAX_POLICIES][PLAN_MAX_COUNTS];
    ui_series s[PLAN_MAX_POLICIES + 1];
    int ns = 0;
    for (int j = 0; j < sw->p.npolicies; j++) {
        size_t n = 0;
        for (int c = 0; c < sw->ncounts; c++) {
            const plan_result *r = plan_result_at(sw, c, j);
            double v = plan_value(sw, r, (plan_metric)pl->chart_metric, &pl->p);
            if (isnan(v))
                continue;
            curve_x[j][n] = r->gpus;
            curve_y[j][n++] = v;
        }
        s[ns++] = (ui_series){curve_x[j], curve_y[j], n, sizeof(double), ui_series_color(j), 1,
                              0};
    }
    char title[96];
    snprintf(title, sizeof title, "%s vs GPUs (m: metric)",
             plan_metric_name((plan_metric)pl->chart_metric));
    double xlo = sw->ncounts ? sw->counts[0] : 0, xhi = sw->ncounts ? sw->counts[sw->ncounts - 1] : 1;
    xhi = xhi > xlo ? xhi : xlo + 1;
    /* The SLA target is one more series, a flat line, so the chart's own
     * scaling makes room for it. */
    double sla_x[2] = {xlo, xhi}, sla_y[2] = {pl->p.sla_target_pct, pl->p.sla_target_pct};
    if (pl->chart_metric == PM_SLA && ns < PLAN_MAX_POLICIES + 1)
        s[ns++] = (ui_series){sla_x, sla_y, 2, sizeof(double), C_BAD, 1, 0};
    static const char *const y_units[PM_NMETRICS] = {"%", NULL, "W", "$", "$", "t"};
    ui_axes ax = {y_units[pl->chart_metric], pl->chart_metric == PM_JCT, "GPUs"};
    draw_chart_axes(&a->caps, box, title, s, ns, xlo, xhi, 0, &ax);
    draw_fewest_marks(a, box, s, ns, xlo, xhi);
}

/* Energy is priced: the money column is plan's cost_usd (CapEx, energy
 * and facility over the horizon: the TCO with years), not CapEx alone. */
static int energy_priced(const plan_params *p)
{
    return p->usd_per_kwh > 0 || p->usd_per_kw_month > 0;
}

static void result_cells(const app *a, const plan_result *r, int best, char v[8][24])
{
    const plan *sw = &a->pl.sw;
    snprintf(v[0], 24, "%d", r->gpus);
    snprintf(v[1], 24, "%s", sw->p.policies[r->policy]);
    if (!r->done) {
        for (int k = 2; k < 8; k++)
            snprintf(v[k], 24, "%s", k == 2 ? "..." : "");
        return;
    }
    double sla = plan_value(sw, r, PM_SLA, &a->pl.p);
    summary_fmt_pct(sla, a->pl.p.sla_target_pct, 1, v[2], 24);  /* never contradicts "meets" */
    chart_fmt_time(plan_value(sw, r, PM_JCT, &a->pl.p), v[3], 24);
    chart_fmt(plan_value(sw, r, PM_POWER, &a->pl.p), v[4], 24);
    money_fmt(sw, r, energy_priced(&a->pl.p) ? PM_COST : PM_CAPEX, &a->pl.p, v[5], 24);
    chart_fmt(plan_value(sw, r, PM_CO2E, &a->pl.p), v[6], 24);
    int stable = plan_nonmonotonic(sw, r->policy, &a->pl.p) &&
                 plan_result_at(sw, plan_stable(sw, r->policy, &a->pl.p), r->policy) == r;
    snprintf(v[7], 24, "%s", best ? "<< fewest" : stable ? "<< stable"
                             : plan_meets_target(sla, a->pl.p.sla_target_pct) ? "meets" : "");
    if (!plan_fits_site(sw, r, &a->pl.p))   /* over the site's power envelope */
        snprintf(v[7] + strlen(v[7]), 24 - strlen(v[7]), "%sover site", v[7][0] ? " " : "");
}

/* A narrow table (35 columns at 80) keeps the count, the policy and the
 * figures a buyer weighs (JCT, W, CapEx): the SLA mark goes first (the
 * answer's row is highlighted anyway), then the violation share (the SLA
 * chart above shows it). */
static const ui_col result_cols[] = {
    {"GPUs", 4, 1}, {"policy", 14, 0}, {"SLA viol %", 10, 1}, {"mean JCT", 8, 1},
    {"avg W", 5, 1}, {"CapEx $", 7, 1}, {"CO2e t", 7, 1}, {"SLA", 10, 0},
};
static const int result_drop[] = {0, 0, 1, 0, 0, 0, 3, 2};

/* The one-model columns for a row of width w: the money column says
 * what it holds, CO2e only with a carbon intensity (dropped first). */
static void result_cols_fit(const app *a, int w, ui_col out[8])
{
    ui_col cols[8];
    memcpy(cols, result_cols, sizeof cols);
    if (energy_priced(&a->pl.p))
        cols[5] = (ui_col){"Cost $", 8, 1};
    if (!(a->pl.p.g_co2e_per_kwh > 0))
        cols[6].w = -1;
    ui_cols_fit(cols, result_drop, 8, w, out);
}

/* Grid: the second model's count and cost instead of CapEx; the mark
 * says cheapest meeting the SLA, on the frontier, or meets. */
static const ui_col grid_cols[] = {
    {"GPUs", 5, 1}, {"2nd", 4, 1}, {"policy", 12, 0}, {"SLA viol %", 10, 1},
    {"mean JCT", 9, 1}, {"avg W", 7, 1}, {"Cost $", 8, 1}, {"", 12, 0},
};

/* A grid row's cells; 1 when it is its policy's cheapest point meeting
 * the SLA. */
static int grid_cells(const app *a, const plan_result *res, int c, char v[8][24])
{
    const plan *sw = &a->pl.sw;
    snprintf(v[0], 24, "%d", res->gpus);
    snprintf(v[1], 24, "%d", res->gpus2);
    snprintf(v[2], 24, "%s", sw->p.policies[res->policy]);
    for (int k = 3; k < 8; k++)
        snprintf(v[k], 24, "%s", k == 3 ? "..." : "");
    int cheapest = 0;
    if (res->done) {
        double sla = plan_value(sw, res, PM_SLA, &a->pl.p);
        cheapest = plan_best(sw, res->policy, &a->pl.p) == c;
        summary_fmt_pct(sla, a->pl.p.sla_target_pct, 1, v[3], 24);
        chart_fmt_time(plan_value(sw, res, PM_JCT, &a->pl.p), v[4], 24);
        chart_fmt(plan_value(sw, res, PM_POWER, &a->pl.p), v[5], 24);
        money_fmt(sw, res, PM_COST, &a->pl.p, v[6], 24);
        snprintf(v[7], 24, "%s", cheapest ? "<< cheapest"
                                 : plan_on_frontier(sw, c, res->policy, &a->pl.p) ? "frontier"
                                 : plan_meets_target(sla, a->pl.p.sla_target_pct) ? "meets" : "");
        if (!plan_fits_site(sw, res, &a->pl.p))   /* over the capacity line */
            snprintf(v[7] + strlen(v[7]), 24 - strlen(v[7]), "%sover site",
                     v[7][0] ? " " : "");
    }
    return cheapest;
}

static void grid_row(const app *a, const plan_result *res, int c, rect r)
{
    char v[8][24];
    int cheapest = grid_cells(a, res, c, v);
    const char *cells[8] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    draw_row(r.y, r.x, r.w, grid_cols, 8, cells, cheapest ? ui_attr(C_CHOSEN) : A_NORMAL);
}

/* Result i's cells, as the table shows them (tablesort.h orders by them). */
static const char *result_cell(const void *ctx, size_t i, int col, char *buf, size_t len)
{
    const app *a = ctx;
    const plan *sw = &a->pl.sw;
    const plan_result *res = &sw->res[i];
    char v[8][24];
    if (sw->grid) {
        grid_cells(a, res, (int)i / sw->p.npolicies, v);
    } else {
        int best = res->done && plan_best(sw, res->policy, &a->pl.p) == (int)i / sw->p.npolicies;
        result_cells(a, res, best, v);
    }
    snprintf(buf, len, "%s", v[col]);
    return buf;
}

/* The results in the table's order: order[row] is the result shown there. */
typedef struct results_view {
    const app *a;
    size_t *order;
} results_view;

static void result_row(const void *ctx, size_t row, rect r, lv_hl hl)
{
    (void)hl;
    const results_view *t = ctx;
    const app *a = t->a;
    const plan *sw = &a->pl.sw;
    assert(row < (size_t)sw->njobs);
    size_t i = t->order[row];
    const plan_result *res = &sw->res[i];
    if (sw->grid) {
        grid_row(a, res, (int)i / sw->p.npolicies, r);
        return;
    }
    int best = res->done && plan_best(sw, res->policy, &a->pl.p) == (int)i / sw->p.npolicies;
    char v[8][24];
    result_cells(a, res, best, v);
    const char *cells[8] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    ui_col cols[8];
    result_cols_fit(a, r.w, cols);
    draw_row(r.y, r.x, r.w, cols, 8, cells, best ? ui_attr(C_CHOSEN) : A_NORMAL);
}

/* The one-model results' header, its columns as a row of in's width keeps
 * them (result_drop). */
static void draw_result_header(const app *a, rect in, const table_sort *ts)
{
    ui_col cols[8];
    result_cols_fit(a, in.w - 1, cols);
    draw_header_sorted(in.y, in.x + 1, in.w - 1, cols, 8, ts->by - 1, ts->desc);
}

static void draw_results(const app *a, rect box)
{
    draw_box(box, results_stale(a) ? "Results: STALE, for earlier parameters (r re-runs)"
                                   : "Results (PgUp/PgDn scroll)", 0);
    rect in = layout_inner(box);
    if (in.h < 2)
        return;
    const table_sort *ts = &a->pl.results_sort;
    if (a->pl.sw.grid)
        draw_header_sorted(in.y, in.x + 1, in.w - 1, grid_cols, 8, ts->by - 1, ts->desc);
    else
        draw_result_header(a, in, ts);
    rect rows = {in.y + 1, in.x + 1, in.h - 1, in.w - 1};
    size_t n = (size_t)a->pl.sw.njobs;
    results_view t = {a, xmalloc((n ? n : 1) * sizeof *t.order)};
    tablesort_order(n, *ts, result_cell, a, t.order);
    listview v = lv_shown(&a->pl.results, n, rows.h);
    lv_draw(&v, rows, LV_HL_NONE, result_row, &t);
    free(t.order);
}

static void planner_draw(const app *a)
{
    planner_geom g = planner_layout(a);
    draw_params(a, g.params);
    draw_progress_line(a, g.progress);
    draw_answer(a, g.answer);
    draw_best(a, g.best);
    draw_curve(a, g.chart);
    draw_results(a, g.results);
    /* Groups in their priority order (the last dropped first in a narrow
     * footer): running and cancelling the sweep stay. */
    draw_status(a, "Planner", "r run  Esc cancel  Enter edit  j/k param  Left/Right adjust  "
                "d default  X export  ? help");
}

/* --- keys ----------------------------------------------------------------------- */

static ui_rc pl_select(app *a, int key)
{
    lv_set_count(&a->pl.params, P_NPARAMS);
    lv_key(&a->pl.params, key, params_rows(a));
    return UI_DONE;
}

static void cycle_name(const ui_list *l, char *name, size_t len, int dir)
{
    size_t n = l->lv.count;
    if (!n)
        return;
    size_t i = 0;
    while (i < n && strcmp(l->items[i].name, name) != 0)
        i++;
    i = i == n ? 0 : (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
    snprintf(name, len, "%s", l->items[i].name);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* A grid may start either model at 0, and GPUs added to a snapshot's
 * cluster may be none; one model alone needs a GPU. */
static int least_count(const app *a)
{
    return grid_asked(a) || a->pl.p.snapshot[0] ? 0 : 1;
}

/* An optional name (the second model, the snapshot): none, then every
 * name of the list, round and round. */
static void cycle_optional(const ui_list *l, char *name, size_t len, int dir)
{
    size_t n = l->lv.count, i = 0;
    while (i < n && strcmp(l->items[i].name, name) != 0)
        i++;
    /* positions 0..n-1 are the list's, n is none */
    size_t pos = name[0] && i < n ? i : n;
    pos = (pos + (dir > 0 ? 1 : n)) % (n + 1);
    snprintf(name, len, "%s", pos == n ? "" : l->items[pos].name);
}

/* After the snapshot changed: its pending pods arrive when an import
 * stored them ("NAME-pending"), else nothing does; without a snapshot,
 * Compare's trace again.  The range follows. */
static void snapshot_chosen(app *a)
{
    plan_params *p = &a->pl.p;
    const ui_list *tl = &a->cmp.traces;
    if (p->snapshot[0]) {
        char pending[GP_NAME_MAX + 16];
        snprintf(pending, sizeof pending, "%s-pending", p->snapshot);
        p->trace[0] = '\0';
        for (size_t i = 0; i < tl->lv.count; i++)
            if (strcmp(tl->items[i].name, pending) == 0)
                snprintf(p->trace, sizeof p->trace, "%s", pending);
    } else if (tl->lv.count) {
        snprintf(p->trace, sizeof p->trace, "%s", tl->items[tl->lv.cursor].name);
    }
    set_range_from_trace(a);
}

/* A price slider: 10 % a step from the set price, else the profile's. */
static double step_price(const app *a, const char *gpu, double price, int dir)
{
    const gpu_profile *g = a->data.cat && gpu[0] ? catalog_gpu(a->data.cat, gpu) : NULL;
    double base = price >= 0 ? price : g && g->price_usd > 0 ? g->price_usd : 10000;
    return base * (dir > 0 ? 1.1 : 1 / 1.1);
}

static void adjust(app *a, int param, int dir)
{
    plan_params *p = &a->pl.p;
    switch (param) {
    case P_TRACE:
        cycle_name(&a->cmp.traces, p->trace, sizeof p->trace, dir);
        set_range_from_trace(a);
        break;
    case P_GPU: cycle_name(&a->data.lists[STORE_GPU], p->gpu, sizeof p->gpu, dir); break;
    case P_MODE: p->unbounded = !p->unbounded; break;
    case P_LO: p->lo = clampi(p->lo + dir, least_count(a), 100000); break;
    case P_HI: p->hi = clampi(p->hi + dir, 1, 100000); break;
    case P_STEP: p->step = clampi(p->step + dir, 1, 10000); break;
    case P_PER: p->per_server = clampi(p->per_server + dir, 1, GP_NODE_MAX_GPUS); break;
    case P_PRICE: p->price = step_price(a, p->gpu, p->price, dir); break;
    case P_GPU2: cycle_optional(&a->data.lists[STORE_GPU], p->gpu2, sizeof p->gpu2, dir); break;
    case P_SNAP:
        cycle_optional(&a->data.lists[STORE_SNAPSHOT], p->snapshot, sizeof p->snapshot, dir);
        snapshot_chosen(a);
        break;
    case P_LO2: p->lo2 = clampi(p->lo2 + dir, 0, 100000); break;
    case P_HI2: p->hi2 = clampi(p->hi2 + dir, 0, 100000); break;
    case P_STEP2: p->step2 = clampi(p->step2 + dir, 1, 10000); break;
    case P_PRICE2: p->price2 = step_price(a, p->gpu2, p->price2, dir); break;
    case P_WINDOW: p->util_window = (p->util_window + 4 + dir) % 3 - 1; break;
    case P_KWH: case P_CARBON: case P_PUE: case P_YEARS: case P_KW_MONTH:
        planner_cost_step(a, cost_row(param), dir);
        break;
    case P_SITE: case P_HOST: site_param_step(p, param, dir); break;
    case P_CORR: {
        double c = isnan(p->corr_threshold) ? 0 : p->corr_threshold + 0.05 * dir;
        p->corr_threshold = c < -1 ? -1 : c > 1 ? 1 : c;
        break;
    }
    case P_UTIL: {
        double u = isnan(p->util_threshold) ? 100 : p->util_threshold + 5 * dir;
        p->util_threshold = u < 0 ? 0 : u > 400 ? 400 : u;
        break;
    }
    case P_KAPPA: {
        double k = p->kappa <= 0 ? 1.2 : p->kappa + 0.1 * dir;
        p->kappa = k < 1 ? 1 : k;
        break;
    }
    case P_SLA: {
        double s = p->sla_target_pct + dir;
        p->sla_target_pct = s < 0 ? 0 : s > 100 ? 100 : s;
        break;
    }
    default: break;
    }
    if ((param == P_CORR || param == P_UTIL) && a->pl.sw.state == PLAN_DONE)
        app_msg(a, "thresholds changed: r re-runs the sweep with them");
}

static ui_rc pl_adjust(app *a, int key)
{
    int dir = key == KEY_RIGHT || key == 'l' || key == '+' || key == '=' ? 1 : -1;
    adjust(a, cur_param(a), dir);
    return UI_DONE;
}

static void menu_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    if (!ok || choice < 0)
        return;
    plan_params *p = &a->pl.p;
    if (cur_param(a) == P_TRACE) {
        snprintf(p->trace, sizeof p->trace, "%s", a->cmp.traces.items[choice].name);
        set_range_from_trace(a);
    } else if (cur_param(a) == P_GPU2) {
        /* item 0 is "none" */
        snprintf(p->gpu2, sizeof p->gpu2, "%s",
                 choice == 0 ? "" : a->data.lists[STORE_GPU].items[choice - 1].name);
    } else if (cur_param(a) == P_SNAP) {
        snprintf(p->snapshot, sizeof p->snapshot, "%s",
                 choice == 0 ? "" : a->data.lists[STORE_SNAPSHOT].items[choice - 1].name);
        snapshot_chosen(a);
    } else {
        snprintf(p->gpu, sizeof p->gpu, "%s", a->data.lists[STORE_GPU].items[choice].name);
    }
}

static int set_policies(app *a, const char *text)
{
    plan_params *p = &a->pl.p;
    plan_params q = *p;
    char buf[MODAL_TEXT_MAX], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text);
    q.npolicies = 0;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        policy_spec sp;
        gp_err err;
        if (policy_spec_parse(t, &sp, &err)) {
            app_err(a, "%s", err.msg);
            return -1;
        }
        if (q.npolicies == PLAN_MAX_POLICIES) {
            app_err(a, "at most %d policies", PLAN_MAX_POLICIES);
            return -1;
        }
        snprintf(q.policies[q.npolicies++], GP_NAME_MAX, "%s", t);
    }
    *p = q;
    return 0;
}

/* What a typed value may be: the range of the CLI option that sets the
 * same parameter (cmd_plan.c), so the two front ends refuse alike. */
typedef struct value_range {
    double lo, hi;
    int integer;
    const char *opt;
} value_range;

static const value_range *range_of(const app *a, int param)
{
    static const value_range one_model_lo = {1, 1e6, 1, "--from, one GPU model"};
    static const value_range ranges[P_NPARAMS] = {
        [P_LO] = {0, 1e6, 1, "--from"},
        [P_HI] = {1, 1e6, 1, "--to"},
        [P_STEP] = {1, 1e6, 1, "--step"},
        [P_PER] = {1, GP_NODE_MAX_GPUS, 1, "--per-server"},
        [P_PRICE] = {0, 1e9, 0, "--price; d: the profile's"},
        [P_CORR] = {-1, 1, 0, "--corr-threshold"},
        [P_UTIL] = {0, 1000, 0, "--util-threshold"},
        [P_KAPPA] = {1, 100, 0, "--kappa; d: each task's"},
        [P_SLA] = {0, 100, 0, "--sla-target"},
        [P_LO2] = {0, 1e6, 1, "--from2"},
        [P_HI2] = {0, 1e6, 1, "--to2"},
        [P_STEP2] = {1, 1e6, 1, "--step2"},
        [P_PRICE2] = {0, 1e9, 0, "--price2; d: the profile's"},
        [P_SITE] = {0, 1e9, 0, "--site-kw; 0: none"},
        [P_HOST] = {0, 1e6, 0, "--host-w"},
    };
    if (param == P_LO && least_count(a) > 0)
        return &one_model_lo;
    return param >= 0 && param < P_NPARAMS && ranges[param].opt ? &ranges[param] : NULL;
}

/* Sets parameter param to v, already checked against range_of. */
static void set_value(plan_params *p, int param, double v)
{
    switch (param) {
    case P_LO: p->lo = (int)v; break;
    case P_LO2: p->lo2 = (int)v; break;
    case P_HI2: p->hi2 = (int)v; break;
    case P_STEP2: p->step2 = (int)v; break;
    case P_PRICE2: p->price2 = v; break;
    case P_SITE: p->site.site_kw = v; break;
    case P_HOST: p->site.host_w = v; break;
    case P_HI: p->hi = (int)v; break;
    case P_STEP: p->step = (int)v; break;
    case P_PER: p->per_server = (int)v; break;
    case P_PRICE: p->price = v; break;
    case P_CORR: p->corr_threshold = v; break;
    case P_UTIL: p->util_threshold = v; break;
    case P_KAPPA: p->kappa = v; break;
    case P_SLA: p->sla_target_pct = v; break;
    default: break;
    }
}

/* The cap typed: W for every GPU, MODEL=W,... per model, empty for none;
 * refused as plan --gpu-cap refuses it. */
static void set_caps(app *a, const char *text)
{
    power_caps c;
    gp_err err;
    if (power_caps_parse(text, &c, &err) ||
        (a->data.cat && power_caps_check_models(&c, a->data.cat, &err))) {
        app_err(a, "GPU power cap: %s: not changed", err.msg);
        return;
    }
    a->pl.p.caps = c;
}

static void prompt_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok)
        return;
    plan_params *p = &a->pl.p;
    if (cur_param(a) == P_POLICIES) {
        set_policies(a, text);
        return;
    }
    if (cur_param(a) == P_CAP) {
        set_caps(a, text);
        return;
    }
    if (cost_row(cur_param(a)) >= 0) {
        planner_cost_typed(a, cost_row(cur_param(a)), text);
        return;
    }
    double v;
    if (parse_double(text, &v)) {
        app_err(a, "expected a number, got '%s'", text);
        return;
    }
    int i = cur_param(a);
    const value_range *vr = range_of(a, i);
    if (vr && (v < vr->lo || v > vr->hi)) {
        app_err(a, "%s must be %g to %g (%s), not %s: not changed", param_names[i], vr->lo,
                vr->hi, vr->opt, text);
        return;
    }
    if (vr && vr->integer && v != floor(v)) {
        app_err(a, "%s must be a whole number, not %s: not changed", param_names[i], text);
        return;
    }
    set_value(p, i, v);
}

/* A menu of the list's names; with none_item, "none" comes first. */
static void list_menu(app *a, const char *title, const ui_list *l, const char *current,
                      const char *none_item)
{
    const char *items[MODAL_MENU_MAX];
    int n = 0, sel = 0;
    if (none_item)
        items[n++] = none_item;
    for (size_t i = 0; i < l->lv.count && n < MODAL_MENU_MAX; i++) {
        if (strcmp(l->items[i].name, current) == 0)
            sel = n;
        items[n++] = l->items[i].name;
    }
    modal_menu(a, title, items, n, sel, menu_done);
}

static ui_rc pl_edit(app *a, int key)
{
    (void)key;
    char v[256];
    switch (cur_param(a)) {
    case P_TRACE: list_menu(a, "Trace", &a->cmp.traces, a->pl.p.trace, NULL); break;
    case P_GPU: list_menu(a, "GPU profile", &a->data.lists[STORE_GPU], a->pl.p.gpu, NULL); break;
    case P_GPU2:
        list_menu(a, "Second GPU profile (a grid of mixed clusters)", &a->data.lists[STORE_GPU],
                  a->pl.p.gpu2, "none (one model)");
        break;
    case P_SNAP:
        list_menu(a, "Start from a snapshot (GPUs added to its cluster)",
                  &a->data.lists[STORE_SNAPSHOT], a->pl.p.snapshot, "none");
        break;
    case P_MODE: adjust(a, P_MODE, 1); break;
    case P_WINDOW: adjust(a, P_WINDOW, 1); break;
    case P_CAP:
        power_caps_format(&a->pl.p.caps, v, sizeof v);
        modal_prompt(a, "GPU power cap: W for every GPU, MODEL=W,... per model, empty for none",
                     power_caps_any(&a->pl.p.caps) ? v : "", prompt_done);
        break;
    case P_KWH: case P_CARBON: case P_PUE: case P_YEARS: case P_KW_MONTH:
        planner_cost_prompt(a, cost_row(cur_param(a)), prompt_done);
        break;
    case P_POLICIES:
        param_value(a, P_POLICIES, v, sizeof v);
        modal_prompt(a, "Policies, comma-separated (corrgpu:0.2 sets the first option)", v,
                     prompt_done);
        break;
    default:
        param_value(a, cur_param(a), v, sizeof v);
        modal_prompt(a, param_names[cur_param(a)], isdigit((unsigned char)v[0]) ? v : "",
                     prompt_done);
    }
    return UI_DONE;
}

static ui_rc pl_run(app *a, int key)
{
    (void)key;
    planner_ensure(a);
    gp_err err;
    /* Refused before plan_start, so the previous results stay (stale). */
    if (plan_params_check(&a->pl.p, &err)) {
        app_err(a, "not run: %s", err.msg);
        return UI_DONE;
    }
    if (plan_start(&a->pl.sw, a->st, &a->pl.p, &err))
        app_err(a, "%s", err.msg);
    lv_reset(&a->pl.results, (size_t)a->pl.sw.njobs);
    /* A new sweep's table may have other columns (one model or a grid). */
    a->pl.results_sort = (table_sort){0, 0};
    return UI_DONE;
}

static ui_rc pl_cancel(app *a, int key)
{
    (void)key;
    if (a->pl.sw.state != PLAN_RUNNING)
        return UI_PASS;
    plan_cancel(&a->pl.sw);
    app_msg(a, "sweep cancelled");
    return UI_DONE;
}

static ui_rc pl_scroll(app *a, int key)
{
    lv_set_count(&a->pl.results, (size_t)a->pl.sw.njobs);
    lv_scroll_key(&a->pl.results, key, results_rows(a));
    return UI_DONE;
}

static ui_rc pl_metric(app *a, int key)
{
    (void)key;
    a->pl.chart_metric = (a->pl.chart_metric + 1) % PM_NMETRICS;
    return UI_DONE;
}

/* The policies picked on Compare, as the Planner starts with. */
static void default_policies(app *a)
{
    plan_params *p = &a->pl.p;
    p->npolicies = 0;
    for (int i = 0; i < a->cmp.npicked && i < PLAN_MAX_POLICIES; i++)
        snprintf(p->policies[p->npolicies++], GP_NAME_MAX, "%s", a->cmp.picked[i]);
}

/* Puts parameter param back where a new Planner starts it: the sliders at
 * each policy's (or profile's, or task's) own value, the range from the
 * trace. */
static void reset_param(app *a, int param)
{
    plan_params *p = &a->pl.p, d;
    plan_params_default(&d);
    switch (param) {
    case P_TRACE:
        if (a->cmp.traces.lv.count)
            snprintf(p->trace, sizeof p->trace, "%s",
                     a->cmp.traces.items[a->cmp.traces.lv.cursor].name);
        set_range_from_trace(a);
        break;
    case P_GPU: default_gpu(a); break;
    case P_MODE: p->unbounded = d.unbounded; break;
    case P_LO: case P_HI: case P_STEP: set_range_from_trace(a); break;
    case P_PER: p->per_server = d.per_server; break;
    case P_PRICE: p->price = d.price; break;
    case P_CORR: p->corr_threshold = d.corr_threshold; break;
    case P_UTIL: p->util_threshold = d.util_threshold; break;
    case P_KAPPA: p->kappa = d.kappa; break;
    case P_SLA: p->sla_target_pct = d.sla_target_pct; break;
    case P_POLICIES: default_policies(a); break;
    case P_GPU2: p->gpu2[0] = '\0'; break;
    case P_LO2: p->lo2 = d.lo2; break;
    case P_HI2: p->hi2 = d.hi2; break;
    case P_STEP2: p->step2 = d.step2; break;
    case P_PRICE2: p->price2 = d.price2; break;
    case P_KWH: case P_CARBON: case P_PUE: case P_YEARS: case P_KW_MONTH:
        planner_cost_reset(a, cost_row(param));
        break;
    case P_CAP: p->caps = d.caps; break;
    case P_WINDOW: p->util_window = d.util_window; break;
    case P_SITE: p->site.site_kw = d.site.site_kw; break;
    case P_HOST: p->site.host_w = d.site.host_w; break;
    case P_SNAP:
        p->snapshot[0] = '\0';
        snapshot_chosen(a);
        break;
    default: break;
    }
}

static ui_rc pl_default(app *a, int key)
{
    (void)key;
    planner_ensure(a);
    int i = cur_param(a);
    reset_param(a, i);
    char v[160];
    param_value(a, i, v, sizeof v);
    app_msg(a, "%s back to the default: %s", param_names[i], v);
    return UI_DONE;
}

/* o / O: the results ordered by the next column, or the same reversed. */
static ui_rc pl_sort(app *a, int key)
{
    ui_col one[8];
    result_cols_fit(a, 1000, one);
    const ui_col *cols = a->pl.sw.grid ? grid_cols : one;
    tablesort_next(&a->pl.results_sort, 8, key == 'O');
    /* A hidden column (CO2e without a carbon intensity) is passed over. */
    if (key != 'O' && a->pl.results_sort.by > 0 && cols[a->pl.results_sort.by - 1].w < 0)
        tablesort_next(&a->pl.results_sort, 8, 0);
    const table_sort *ts = &a->pl.results_sort;
    if (ts->by > 0)
        app_msg(a, "results by %s, %s", cols[ts->by - 1].head,
                ts->desc ? "largest first" : "smallest first");
    else
        app_msg(a, "results by GPU count and policy");
    return UI_DONE;
}

static const ui_key planner_keys[] = {
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "choose a parameter", pl_select},
    {{KEY_HOME, KEY_END}, "Home End", "first / last parameter", pl_select},
    {{KEY_LEFT, 'h', KEY_RIGHT, 'l'}, "Left Right h l", "adjust it (sliders: price, "
     "thresholds, kappa, SLA)", pl_adjust},
    {{'-', '_', '+', '='}, "- +", "adjust it", pl_adjust},
    {{'\n', '\r', KEY_ENTER}, "Enter", "type a value / choose from a list", pl_edit},
    {{'r'}, "r", "run the sweep (policies x GPU counts, or x the grid of two models)", pl_run},
    {{KEY_ESC}, "Esc", "cancel a running sweep", pl_cancel},
    {{'m'}, "m", "chart metric: SLA / JCT / power / CapEx / cost / CO2e", pl_metric},
    {{'d'}, "d", "this parameter back to its default (sliders: the policy's, profile's or "
     "task's own value)", pl_default},
    {{KEY_PPAGE, KEY_NPAGE}, "PgUp PgDn", "scroll the results", pl_scroll},
    {{'o', 'O'}, "o O", "order the results by the next column / reverse it", pl_sort},
    {{0}, NULL, NULL, NULL},
};

static const ui_key *planner_keytab(const app *a)
{
    (void)a;
    return planner_keys;
}

static ui_rc planner_key(app *a, int key)
{
    planner_ensure(a);
    return ui_dispatch(a, planner_keys, key);
}

/* The results scrolled so the answer's row is in the middle (the list
 * opens on the row that matters, not on the sweep's last job). */
static void results_show_answer(app *a)
{
    const plan *sw = &a->pl.sw;
    int ans = plan_answer_result(sw, &a->pl.p);
    size_t n = (size_t)sw->njobs;
    if (ans < 0 || (size_t)ans >= n)
        return;
    size_t *order = xmalloc(n * sizeof *order);
    tablesort_order(n, a->pl.results_sort, result_cell, a, order);
    int vis = results_rows(a);
    for (size_t row = 0; row < n; row++)
        if (order[row] == (size_t)ans)
            lv_scroll_to(&a->pl.results, (long)row - vis / 2, vis);
    free(order);
}

static int planner_tick(app *a, double dt)
{
    (void)dt;
    int was_running = a->pl.sw.state == PLAN_RUNNING;
    /* About half of each frame goes to the sweep, the rest to drawing. */
    plan_tick(&a->pl.sw, 0.03);
    const plan *sw = &a->pl.sw;
    lv_set_count(&a->pl.results, (size_t)sw->njobs);
    if (was_running && sw->state == PLAN_DONE)
        results_show_answer(a);
    /* While the sweep runs on screen, its running job stays in the middle
     * of the results; afterwards the user scrolls (PgUp/PgDn). */
    if (sw->state == PLAN_RUNNING && a->scr == SCR_PLANNER) {
        int vis = results_rows(a);
        lv_scroll_to(&a->pl.results, plan_current_job(sw) - vis / 2, vis);
    }
    return sw->state == PLAN_RUNNING;
}

const ui_screen scr_planner = {
    .name = "Planner", .hotkey = '4', .fkey = 5, .draw = planner_draw, .key = planner_key,
    .keys = planner_keytab, .tick = planner_tick, .enter = planner_ensure,
};

/* --- export --------------------------------------------------------------------- */

void planner_export(const app *a, export_view *v)
{
    const plan *sw = &a->pl.sw;
    strbuf b = STRBUF_INIT;
    strbuf_puts(&b, "gpuplan plot plan ");
    plan_cli_options(&a->pl.p, &b);
    strbuf_printf(&b, " --metric %s --out planner.svg",
                  plan_metric_word((plan_metric)a->pl.chart_metric));
    strbuf_copy_to(&b, v->cli, sizeof v->cli);
    strbuf_free(&b);
    if (sw->njobs == 0 || (sw->state != PLAN_DONE && sw->state != PLAN_CANCELLED)) {
        snprintf(v->empty, sizeof v->empty, "no finished sweep to export: press r to run one");
        return;
    }
    if (results_stale(a)) {
        snprintf(v->empty, sizeof v->empty, "the results are stale (swept with earlier "
                 "parameters than the command above): press r to sweep these first");
        return;
    }
    /* Read under the live sliders (price, kappa, SLA target, energy), as
     * the screen shows the results. */
    const plan_params *live = &a->pl.p;
    /* The columns `gpuplan plan --format csv` writes, by the same builder. */
    plan_results_table(sw, live, export_add_table(v, "results"));
    export_add_chart(v, plan_metric_word((plan_metric)a->pl.chart_metric),
                     plan_chart(sw, (plan_metric)a->pl.chart_metric, live));
}
