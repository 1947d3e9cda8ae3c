/*
 * scr_cluster.c — the Cluster screen: a heatmap of servers × GPUs of the
 * focused run at its current time, or of an imported snapshot, coloured by
 * allocation, utilization, power state (asleep/idle/active), frequency or
 * memory (v cycles the view).  The detail pane shows the selected GPU:
 * its state, clock, watts, its tasks, and the aggregate utilization series
 * ahead; Enter drills into its task list.
 *
 * An imported snapshot (kubectl, nvidia-smi, DCGM) also shows what the
 * monitors read on each GPU: utilization, power, SM clock and memory used
 * (the frequency view and the clock are the measured ones), and c starts a
 * Compare run from that state: the snapshot's tasks in place, its pending
 * pods (the trace "<snapshot>-pending", when there is one) arriving, under
 * the policies picked in Compare (else cats, fgd, first).
 *
 * What is not known is not shown as 0: a GPU whose tasks no monitor read
 * is '?' in the utilization view and "no reading" in its pane, and every
 * watt figure says whether it is measured or the power model's.
 *
 * Only the visible lines of the heatmap are drawn, so a 10,000-GPU cluster
 * costs what fits on the screen (bench/bench_tui_frame.c measures it).
 * Drawing derives the selected GPU and the heatmap's first line from the
 * state (shown_gpu, heat_top) without storing them; the keys store them.
 */
#include "app.h"
#include "draw.h"
#include "engine.h"
#include "gpuinfo.h"

#include <assert.h>
#include "core/frag.h"
#include "core/gpuname.h"
#include "core/strbuf.h"
#include "sim/whatif.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cl_src {
    const sim *sim;             /* the focused run's, NULL for a snapshot */
    const snapshot *snap;       /* the snapshot shown, NULL for a run */
    const cstate *cs;
    const gp_trace *tr;
    const double *progress;
    int eopc;
    char title[128];
} cl_src;

static int source_run(const app *a, cl_src *s)
{
    sim *f = runset_focus_sim(&a->rs);
    if (!f)
        return -1;
    s->sim = f;
    s->cs = sim_cstate(f);
    s->tr = sim_trace(f);
    s->progress = sim_progress(f);
    const run *r = sim_run_record(f);
    s->eopc = power_model_parse(r->power_model) == POWER_EOPC;
    char t[24];
    chart_fmt_time(sim_now(f), t, sizeof t);
    snprintf(s->title, sizeof s->title, "run %s on %s at t=%s",
             a->rs.slot[a->rs.focus].spec.label, a->rs.cluster_name, t);
    return 0;
}

static int source_snap(const app *a, cl_src *s)
{
    const cluster_ui *c = &a->cl;
    if (!c->snap_cs || c->snap_loading)
        return -1;
    s->cs = c->snap_cs;
    s->snap = c->snap;
    s->tr = c->snap->tasks;
    s->progress = NULL;
    s->eopc = 0;
    char t[24];
    chart_fmt_time(c->snap->time_s, t, sizeof t);
    snprintf(s->title, sizeof s->title, "snapshot %s of %s at t=%s", c->snap_name,
             c->snap->cluster_name, t);
    return 0;
}

/* The state shown: the one asked for, else whichever exists. */
static int source_of(const app *a, cl_src *s)
{
    memset(s, 0, sizeof *s);
    if (a->cl.from_snapshot)
        return source_snap(a, s) == 0 || source_run(a, s) == 0 ? 0 : -1;
    return source_run(a, s) == 0 || source_snap(a, s) == 0 ? 0 : -1;
}

/* --- snapshots -------------------------------------------------------------- */

void cluster_free_snapshot(cluster_ui *c)
{
    cstate_free(c->snap_cs);
    frag_workload_free(c->snap_fw);
    snapshot_free(c->snap);
    cluster_free(c->snap_cl);
    catalog_free(c->snap_cat);
    c->snap_cs = NULL;
    c->snap = NULL;
    c->snap_cl = NULL;
    c->snap_cat = NULL;
    c->snap_fw = NULL;
    c->snap_loading = 0;
}

/* Places the snapshot's tasks (its rows sorted by task, one task's rows
 * together) from row c->load_row on, until the wall clock reaches
 * deadline; 1 once every row is placed. */
static int snap_place_slice(cluster_ui *c, double deadline, gp_err *err)
{
    snapshot *sn = c->snap;
    for (size_t i = c->load_row; i < sn->nrows; i = c->load_row) {
        if (now_seconds() >= deadline)
            return 0;
        size_t j = i;
        int gpus[GP_NODE_MAX_GPUS], ng = 0;
        const placement_row *r = &sn->rows[i];
        if (r->task < 0 || (size_t)r->task >= sn->tasks->ntasks || r->node < 0 ||
            (size_t)r->node >= c->snap_cs->nnodes)
            return gp_error(err, "snapshot row %zu names a task or node that does not exist", i);
        const cs_node *n = &c->snap_cs->nodes[r->node];
        for (; j < sn->nrows && sn->rows[j].task == r->task; j++)
            if (sn->rows[j].gpu >= 0 && sn->rows[j].gpu < n->ngpus && ng < GP_NODE_MAX_GPUS)
                gpus[ng++] = n->gpu0 + sn->rows[j].gpu;
        cstate_alloc(c->snap_cs, &sn->tasks->tasks[r->task], r->task, r->node, gpus, ng);
        c->load_row = j;
    }
    return 1;
}

/* A snapshot has no power manager: GPUs with work are active, at the
 * clock a monitor read when it read one. */
static void snap_power(cluster_ui *c)
{
    for (size_t g = 0; g < c->snap_cs->ngpus; g++) {
        cs_gpu *cg = &c->snap_cs->gpus[g];
        cg->power = cg->ntasks ? GPU_ACTIVE : GPU_IDLE;
        c->snap_idle_milli += cs_gpu_idle_milli(cg);
        const gpu_reading *r = snapshot_reading(c->snap, cg->node, cg->dev);
        if (r && !isnan(r->clock_mhz))
            cg->freq_mhz = r->clock_mhz;
    }
}

/* Adds FGD's fragmentation of the servers from c->load_node on (FGD_NOTES
 * §3, against the snapshot's own tasks as the typical ones) until
 * deadline; 1 once every server is counted.  Once, as the snapshot loads:
 * a frame only reads the sum. */
static int snap_frag_slice(cluster_ui *c, double deadline)
{
    if (!c->snap_fw)
        c->snap_fw = frag_workload_new(c->snap->tasks);
    for (; c->load_node < c->snap_cs->nnodes; c->load_node++) {
        if (now_seconds() >= deadline)
            return 0;
        c->snap_frag += frag_node(c->snap_fw, c->snap_cs, (int)c->load_node);
    }
    return 1;
}

static int cmp_row_task(const void *x, const void *y)
{
    const placement_row *a = x, *b = y;
    return a->task != b->task ? (a->task < b->task ? -1 : 1) : 0;
}

/* The snapshot read from the store and its cluster's empty state; the
 * tasks are placed in slices after (snap_load_slice). */
static int snap_read(app *a, const char *name, gp_err *err)
{
    cluster_ui *c = &a->cl;
    if (store_get_snapshot(a->st, name, &c->snap, err) ||
        store_get_cluster(a->st, c->snap->cluster_name, &c->snap_cl, err) ||
        store_load_catalog(a->st, &c->snap_cat, err) ||
        !(c->snap_cs = cstate_new(c->snap_cl, c->snap_cat, err)))
        return -1;
    qsort(c->snap->rows, c->snap->nrows, sizeof *c->snap->rows, cmp_row_task);
    return 0;
}

static int snap_load_slice(app *a, double budget_s)
{
    cluster_ui *c = &a->cl;
    double deadline = now_seconds() + budget_s;
    gp_err err;
    if (c->load_row < c->snap->nrows || c->snap->nrows == 0) {
        int rc = snap_place_slice(c, deadline, &err);
        if (rc < 0) {
            app_err(a, "snapshot %s: %s", c->snap_name, err.msg);
            cluster_free_snapshot(c);
            return 1;
        }
        if (rc == 0)
            return 0;
        if (c->load_node == 0 && !c->snap_fw)
            snap_power(c);
    }
    if (!snap_frag_slice(c, deadline))
        return 0;
    c->snap_loading = 0;
    return 1;
}

/* Rows placed and servers counted, out of both. */
static double snap_load_progress(const app *a)
{
    const cluster_ui *c = &a->cl;
    double total = (double)c->snap->nrows + (double)c->snap_cs->nnodes;
    return total > 0 ? ((double)c->load_row + (double)c->load_node) / total : 1;
}

static void snap_load_cancel(app *a)
{
    app_msg(a, "snapshot %s not opened", a->cl.snap_name);
    cluster_free_snapshot(&a->cl);
}

static void snap_load_done(app *a, double elapsed_s)
{
    cluster_ui *c = &a->cl;
    if (!c->snap)
        return;                 /* refused: the error is on the status line */
    c->from_snapshot = 1;
    c->sel_gpu = 0;
    c->top_line = 0;
    c->drill = 0;
    lv_reset(&c->tasks, 0);
    app_goto(a, SCR_CLUSTER);
    if (elapsed_s >= 0.5)
        app_msg(a, "snapshot %s loaded in %.1f s", c->snap_name, elapsed_s);
}

void cluster_open_snapshot(app *a, const char *name)
{
    cluster_ui *c = &a->cl;
    gp_err err;
    cluster_free_snapshot(c);
    snprintf(c->snap_name, sizeof c->snap_name, "%s", name);
    c->load_row = c->load_node = 0;
    c->snap_frag = c->snap_idle_milli = 0;
    if (snap_read(a, name, &err)) {
        app_err(a, "snapshot %s: %s", name, err.msg);
        cluster_free_snapshot(c);
        return;
    }
    c->snap_loading = 1;
    ui_job job = {.slice = snap_load_slice, .progress = snap_load_progress,
                  .cancel = snap_load_cancel, .done = snap_load_done};
    snprintf(job.what, sizeof job.what, "Loading snapshot %s", name);
    app_job_start(a, &job);
}

/* --- geometry (drawing and keys both ask) -------------------------------------- */

static void geom_of(const app *a, const cstate *cs, rect *grid, heat_geom *g)
{
    cluster_layout L = layout_cluster(a->rows, a->cols);
    rect in = layout_inner(L.heat);
    layout_take_top(&in, 1);            /* the legend */
    *grid = in;
    int max_gpus = 1, max_name = 1;
    for (size_t i = 0; i < cs->nnodes; i++) {
        if (cs->nodes[i].ngpus > max_gpus)
            max_gpus = cs->nodes[i].ngpus;
        int l = (int)strlen(cs->nodes[i].name);
        if (l > max_name)
            max_name = l;
    }
    layout_heat(in.w, in.h, cs->nnodes, max_gpus, max_name, g);
}

/* The GPU the cursor is on: the one selected, or the first when the
 * selection is not in the state shown (another cluster). */
static int shown_gpu(const app *a, const cl_src *s)
{
    int gpu = a->cl.sel_gpu;
    return gpu >= 0 && (size_t)gpu < s->cs->ngpus ? gpu : 0;
}

/* The first heatmap line shown: the stored one, moved as little as it
 * takes to show the selected GPU's line.  The state has GPUs. */
static int heat_top(const app *a, const cl_src *s, const heat_geom *g, rect grid)
{
    int sel_line = s->cs->gpus[shown_gpu(a, s)].node / g->per_line;
    return (int)layout_scroll((size_t)a->cl.top_line, (size_t)sel_line, (size_t)g->lines,
                              grid.h);
}

/* Selects gpu, scrolling the heatmap from the lines on screen; the task
 * list starts again at the top. */
static void select_gpu(app *a, const cl_src *s, int gpu)
{
    lv_reset(&a->cl.tasks, 0);
    if (s->cs->ngpus == 0) {
        a->cl.sel_gpu = gpu;
        return;
    }
    rect grid;
    heat_geom g;
    geom_of(a, s->cs, &grid, &g);
    a->cl.top_line = heat_top(a, s, &g, grid);
    a->cl.sel_gpu = gpu;
    a->cl.top_line = heat_top(a, s, &g, grid);
}

void cluster_select_gpu(app *a, int gpu)
{
    cl_src s;
    a->cl.drill = 0;
    if (source_of(a, &s) == 0)
        select_gpu(a, &s, gpu);
    else
        a->cl.sel_gpu = gpu;
}

/* The detail pane's lines: the GPU's four lines of figures, its series
 * when there is room, the task list's title and rows, and in drill mode
 * the task's whole series on the last two lines. */
typedef struct detail_geom {
    rect in;
    int series_y;               /* -1: no room for the GPU's series */
    int tasks_y;                /* the task list's title; -1: no room */
    rect tasks;                 /* the task rows */
} detail_geom;

/* 1 when Cluster shows a run with a GPU power cap. */
static int run_capped(const app *a)
{
    return !a->cl.from_snapshot && power_caps_any(&a->rs.caps);
}

static detail_geom detail_layout(const app *a)
{
    detail_geom d;
    d.in = layout_inner(layout_cluster(a->rows, a->cols).detail);
    d.in.x += 1;
    d.in.w -= 1;
    /* a run under a GPU cap gives each GPU a line on what the cap does */
    int y = d.in.y + 4 + run_capped(a), end = d.in.y + d.in.h;
    d.series_y = y + 1 < end ? y : -1;
    if (d.series_y >= 0)
        y += 2;
    d.tasks_y = y < end ? y : -1;
    int bottom = end - (a->cl.drill ? 2 : 0);
    d.tasks = (rect){y + 1, d.in.x, bottom > y + 1 ? bottom - y - 1 : 0, d.in.w};
    return d;
}

/* --- drawing --------------------------------------------------------------------- */

static const char *const view_names[HEAT_NVIEWS] = {
    "allocation (tasks per GPU)", "utilization now", "power state", "frequency", "memory used",
};

/* A GPU whose tasks no monitor read, in the utilization view. */
#define UTIL_UNREAD_GLYPH '?'

static uint32_t level_glyph(int level, int utf8)
{
    static const uint32_t u[5] = {0xB7, 0x2591, 0x2592, 0x2593, 0x2588};
    static const char asc[5] = {'.', ':', '+', '#', '@'};
    if (level < 0)
        return 'z';
    if (level > 4)
        level = 4;
    return utf8 ? u[level] : (uint32_t)(unsigned char)asc[level];
}

static void cell_look(const app *a, const cl_src *s, int gpu, uint32_t *glyph, attr_t *at)
{
    const cs_gpu *g = &s->cs->gpus[gpu];
    heat_view v = a->cl.view;
    int lv = gpu_heat_level(s->cs, s->tr, s->progress, gpu, (int)v);
    /* an imported snapshot's GPUs are as the monitors read them */
    const gpu_reading *rd = s->snap ? snapshot_reading(s->snap, g->node, g->dev) : NULL;
    if (rd && v == HEAT_UTIL && !isnan(rd->util_pct))
        lv = gpu_level_of(rd->util_pct / 100);
    else if (v == HEAT_UTIL && gpu_util_unread(s->cs, s->tr, gpu) > 0) {
        /* Unknown is not idle: its own glyph, the same in ASCII. */
        *glyph = UTIL_UNREAD_GLYPH;
        *at = ui_attr(C_DIM) | A_BOLD;
        return;
    }
    else if (rd && v == HEAT_MEM && !isnan(rd->mem_used_mib) && g->mem_gib > 0)
        lv = gpu_level_of(rd->mem_used_mib / 1024 / g->mem_gib);
    if (v == HEAT_POWER) {
        *glyph = lv < 0 ? 'z' : lv == 0 ? (a->caps.utf8 ? 0x25CBu : 'o')
                                        : (a->caps.utf8 ? 0x25CFu : '#');
        *at = ui_attr(lv < 0 ? C_ASLEEP : lv == 0 ? C_IDLE : C_ACTIVE);
        return;
    }
    if (v == HEAT_ALLOC && g->ntasks > 0)
        *glyph = g->ntasks < 10 ? (uint32_t)('0' + g->ntasks) : '+';
    else
        *glyph = level_glyph(lv, a->caps.utf8);
    *at = lv < 0 ? ui_attr(C_ASLEEP) : ui_attr((ui_color)(C_HEAT0 + lv));
}

static void draw_node_cells(const app *a, const cl_src *s, const heat_geom *g, int sel, int nd,
                            int y, int x)
{
    const cs_node *n = &s->cs->nodes[nd];
    for (int d = 0; d < n->ngpus; d++) {
        int gpu = n->gpu0 + d;
        uint32_t glyph;
        attr_t at;
        cell_look(a, s, gpu, &glyph, &at);
        if (gpu == sel)
            at |= A_REVERSE | A_BOLD;
        int cx = x + d * g->cell_w;
        draw_glyph(y, cx, glyph, at);
        /* Wide cells repeat shade glyphs (a bar) and pad digits; their last
         * column stays blank to separate the GPUs. */
        int digit = glyph >= '0' && glyph <= '9';
        for (int k = 1; k < g->cell_w - 1; k++)
            draw_glyph(y, cx + k, digit ? ' ' : glyph, at);
    }
}

/* Heatmap line `line`, `top` being the first one shown and sel the
 * selected GPU. */
static void draw_heat_line(const app *a, const cl_src *s, const heat_geom *g, rect grid,
                           int top, int sel, int line)
{
    int y = grid.y + line - top;
    size_t first = (size_t)line * (size_t)g->per_line;
    int x = grid.x;
    if (g->prefix_w)
        x += draw_textf(y, x, g->prefix_w, ui_attr(C_DIM), "%*zu ", g->prefix_w - 1, first);
    for (int b = 0; b < g->per_line && first + (size_t)b < s->cs->nnodes; b++) {
        int nd = (int)first + b;
        int bx = x + b * g->block_w;
        if (g->label_w) {
            int sel_node = s->cs->gpus[sel].node == nd;
            draw_text(y, bx, g->label_w, sel_node ? A_BOLD : ui_attr(C_DIM),
                      s->cs->nodes[nd].name);
            bx += g->label_w + 1;
        }
        draw_node_cells(a, s, g, sel, nd, y, bx);
    }
}

static void draw_legend(const app *a, rect r)
{
    int x = r.x + 1;
    x += draw_textf(r.y, x, r.w, A_NORMAL, "view: %s  ", view_names[a->cl.view]);
    if (a->cl.view == HEAT_POWER) {
        static const char *const names[3] = {"asleep ", "idle ", "active "};
        static const int levels[3] = {-1, 0, 3};
        for (int i = 0; i < 3; i++) {
            int lv = levels[i];
            uint32_t gl = lv < 0 ? 'z' : lv == 0 ? (a->caps.utf8 ? 0x25CBu : 'o')
                                                 : (a->caps.utf8 ? 0x25CFu : '#');
            draw_glyph(r.y, x, gl, ui_attr(lv < 0 ? C_ASLEEP : lv == 0 ? C_IDLE : C_ACTIVE));
            x += 1 + draw_text(r.y, x + 1, r.x + r.w - x - 1, A_NORMAL, names[i]);
        }
        return;
    }
    if (a->cl.view == HEAT_FREQ) {
        /* gpu_heat_level's frequency levels, named by their thresholds. */
        char mid[32];
        snprintf(mid, sizeof mid, "<=%.0f%% of f range ", GPU_FREQ_HIGH_FRAC * 100);
        const char *const names[4] = {"asleep ", mid, "higher ", "f_max "};
        for (int lv = -1; lv <= 3; lv++) {
            if (lv == 0)
                continue;           /* an awake GPU is at least at f_min: level 1 */
            draw_glyph(r.y, x, level_glyph(lv, a->caps.utf8),
                       lv < 0 ? ui_attr(C_ASLEEP) : ui_attr((ui_color)(C_HEAT0 + lv)));
            x += 1 + draw_text(r.y, x + 1, r.x + r.w - x - 1, A_NORMAL, names[lv < 0 ? 0 : lv]);
        }
        return;
    }
    static const char *const lv_names[5] = {"0 ", "<1/3 ", "<2/3 ", "full ", "over "};
    for (int lv = 0; lv < 5; lv++) {
        draw_glyph(r.y, x, level_glyph(lv, a->caps.utf8), ui_attr((ui_color)(C_HEAT0 + lv)));
        x += 1 + draw_text(r.y, x + 1, r.x + r.w - x - 1, A_NORMAL, lv_names[lv]);
    }
    if (a->cl.view == HEAT_ALLOC)
        draw_text(r.y, x, r.x + r.w - x, ui_attr(C_DIM), " digit = tasks on the GPU");
    if (a->cl.view == HEAT_UTIL) {
        draw_glyph(r.y, x, UTIL_UNREAD_GLYPH, ui_attr(C_DIM) | A_BOLD);
        draw_text(r.y, x + 1, r.x + r.w - x - 1, A_NORMAL, "no reading");
    }
}

static void draw_heat(const app *a, const cl_src *s, rect box)
{
    char title[160];
    snprintf(title, sizeof title, "Servers x GPUs %s %s", sym(SYM_DASH), s->title);
    draw_box(box, title, !a->cl.drill);
    rect grid;
    heat_geom g;
    geom_of(a, s->cs, &grid, &g);
    draw_legend(a, (rect){grid.y - 1, grid.x, 1, grid.w});
    if (s->cs->ngpus == 0) {
        draw_text(grid.y, grid.x, grid.w, ui_attr(C_DIM), "(this cluster has no GPUs)");
        return;
    }
    int top = heat_top(a, s, &g, grid), sel = shown_gpu(a, s);
    int sel_line = s->cs->gpus[sel].node / g.per_line;
    assert(grid.h < 1 || (sel_line >= top && sel_line < top + grid.h));
    (void)sel_line;
    for (int l = top; l < g.lines && l < top + grid.h; l++)
        draw_heat_line(a, s, &g, grid, top, sel, l);
}

/* What a task row needs: the state shown, the GPU and the rows' order
 * (order[row] is the index into the GPU's tasks). */
typedef struct task_list {
    const cl_src *s;
    const cs_gpu *g;
    size_t *order;
} task_list;

static const char *const task_cols[] = {"name", "memory", "utilization", "time left"};
#define NTASK_COLS 4

/* The text of task row i's column col (tablesort.h): name, GiB, % now,
 * time left. */
static const char *task_cell(const void *ctx, size_t i, int col, char *buf, size_t len)
{
    const task_list *l = ctx;
    int t = l->g->tasks[i];
    const cl_src *s = l->s;
    if (!s->tr || t < 0 || (size_t)t >= s->tr->ntasks) {
        snprintf(buf, len, "-");
        return buf;
    }
    const task *tk = &s->tr->tasks[t];
    double done = s->progress ? s->progress[t] : 0;
    switch (col) {
    case 0: return tk->name;
    case 1: snprintf(buf, len, "%.1f", tk->gpu_mem_gib); break;
    case 2: snprintf(buf, len, "%.0f", task_util_at(tk, done)); break;
    default: chart_fmt_time(tk->duration_s - done, buf, len); break;
    }
    return buf;
}

/* The GPU's tasks in the order asked for (o, O); the caller frees it. */
static size_t *task_order(const app *a, const cl_src *s, const cs_gpu *g)
{
    size_t n = g->ntasks > 0 ? (size_t)g->ntasks : 1;
    size_t *order = xmalloc(n * sizeof *order);
    task_list l = {s, g, NULL};
    tablesort_order((size_t)g->ntasks, a->cl.tasks_sort, task_cell, &l, order);
    return order;
}

static void task_row(const void *ctx, size_t row, rect r, lv_hl hl)
{
    const task_list *l = ctx;
    const cl_src *s = l->s;
    assert(row < (size_t)l->g->ntasks);
    int t = l->g->tasks[l->order[row]];
    const task *tk = s->tr && t >= 0 && (size_t)t < s->tr->ntasks ? &s->tr->tasks[t] : NULL;
    char line[160], left[16];
    int on = hl != LV_HL_NONE;
    if (tk) {
        double done = s->progress ? s->progress[t] : 0;
        chart_fmt_time(tk->duration_s - done, left, sizeof left);
        char u[16] = "   ?%";           /* no series and no mean: no reading */
        if (tk->util.len || tk->util_mean > 0)
            snprintf(u, sizeof u, "%4.0f%%", task_util_at(tk, done));
        snprintf(line, sizeof line, "%s%-10.10s %5.1f GiB %s  %s left", on ? ">" : " ",
                 tk->name, tk->gpu_mem_gib, u, left);
    } else {
        snprintf(line, sizeof line, "%stask #%d", on ? ">" : " ", t);
    }
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

static void draw_tasks(const app *a, const cl_src *s, const cs_gpu *g, const detail_geom *d)
{
    rect in = d->in;
    char by[48] = "";
    if (a->cl.tasks_sort.by > 0)
        snprintf(by, sizeof by, " by %s %s", task_cols[a->cl.tasks_sort.by - 1],
                 draw_sort_mark(a->cl.tasks_sort.desc));
    draw_textf(d->tasks_y, in.x, in.w, ui_attr(C_TITLE), "tasks (%d)%s%s", g->ntasks, by,
               a->cl.drill ? "" : "  Enter: drill in");
    listview v = lv_shown(&a->cl.tasks, (size_t)g->ntasks, d->tasks.h);
    task_list l = {s, g, task_order(a, s, g)};
    lv_draw(&v, d->tasks, a->cl.drill ? LV_HL_FOCUSED : LV_HL_NONE, task_row, &l);
    int t = a->cl.drill && g->ntasks ? g->tasks[l.order[v.cursor]] : -1;
    free(l.order);
    if (t >= 0) {
        if (s->tr && t >= 0 && (size_t)t < s->tr->ntasks) {
            const task *tk = &s->tr->tasks[t];
            draw_textf(in.y + in.h - 2, in.x, in.w, A_NORMAL, "%s: whole series", tk->name);
            draw_spark(in.y + in.h - 1, in.x, in.w, tk->util.pct, tk->util.len, 0, 100,
                       ui_attr(C_SERIES1));
        }
    }
}

/* "SM split (peace): Gemm_cuda 60%, ResNet50_inf 40%" of a GPU held under
 * the cap ("Gemm_cuda alone" for a lone task). */
static void draw_peace_split(const app *a, const sim_peace_gpu *pg, int y, rect in)
{
    const runset *rs = &a->rs;
    const peace_set *set = rs->peace.set;
    const peace_policy *part = rs->slot[rs->focus].part;
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "SM split (%s): ", part ? part->name : "-");
    for (int k = 0; k < pg->n && set; k++) {
        if (k)
            strbuf_puts(&b, ", ");
        if (pg->n == 1)
            strbuf_printf(&b, "%s alone", set->wl[pg->workload[k]].name);
        else
            strbuf_printf(&b, "%s %d%%", set->wl[pg->workload[k]].name, pg->share_pct[k]);
    }
    draw_text(y, in.x, in.w, A_NORMAL, strbuf_str(&b));
    strbuf_free(&b);
}

/* A number a monitor read, or "?" when it did not say. */
static void reading_fmt(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, fmt, v);
}

/* "measured: 97%  348.1 W  1410 MHz  30.5 GiB" (utilization, power, SM
 * clock, memory used) */
static void draw_reading(int y, rect in, const gpu_reading *r)
{
    char u[16], w[16], f[16], m[16];
    reading_fmt(r->util_pct, "%.0f%%", u, sizeof u);
    reading_fmt(r->power_w, "%.1f W", w, sizeof w);
    reading_fmt(r->clock_mhz, "%.0f MHz", f, sizeof f);
    reading_fmt(r->mem_used_mib / 1024, "%.1f GiB", m, sizeof m);
    draw_textf(y, in.x, in.w, ui_attr(C_TITLE), "measured: %s  %s  %s  %s", u, w, f, m);
}

/* "utilization now 40%", or what of it is unknown: a task no monitor
 * read adds not 0 % but "no reading". */
static void draw_util_now(const cl_src *s, int gi, const gpu_reading *rd, int y, rect in)
{
    int unread = gpu_util_unread(s->cs, s->tr, gi), n = s->cs->gpus[gi].ntasks;
    if (rd && !isnan(rd->util_pct))
        draw_textf(y, in.x, in.w, A_NORMAL, "utilization now %.0f%% (measured)",
                   rd->util_pct);
    else if (unread == n)
        draw_text(y, in.x, in.w, A_BOLD, "utilization now: no reading (?)");
    else if (unread)
        draw_textf(y, in.x, in.w, A_BOLD, "utilization now >= %.0f%%: %d of %d tasks no "
                   "reading (?)", gpu_util_now(s->cs, s->tr, s->progress, gi), unread, n);
    else
        draw_textf(y, in.x, in.w, A_NORMAL, "utilization now %.0f%%",
                   gpu_util_now(s->cs, s->tr, s->progress, gi));
}

/* What the run's cap does to GPU gi, as the simulator applies it
 * (sim_gpu_cap: the mechanism `gpuplan run` reports for the model):
 * "cap 100 W: clamped to 852 MHz", "cap 200 W: PEACE split", "cap 200 W:
 * no effect (max 144.8 W)", or "not capped" beside capped models. */
static void draw_cap_readout(const cl_src *s, int gi, int y, rect in)
{
    sim_cap_gpu c;
    if (!s->sim || !sim_gpu_cap(s->sim, gi, &c)) {
        draw_text(y, in.x, in.w, ui_attr(C_DIM), "not capped");
        return;
    }
    const gpu_profile *p = s->cs->nodes[s->cs->gpus[gi].node].gpu;
    if (c.peace_held)
        draw_textf(y, in.x, in.w, A_NORMAL, "cap %g W: PEACE split", c.cap_w);
    else if (c.effect == CAP_NO_EFFECT)
        draw_textf(y, in.x, in.w, A_NORMAL, "cap %g W: no effect (max %g W)", c.cap_w,
                   p ? p->max_w : 0);
    else if (c.effect == CAP_CLAMP)
        draw_textf(y, in.x, in.w, A_NORMAL, "cap %g W: clamped to %.0f MHz%s", c.cap_w,
                   c.clock_mhz, c.peace_model ? " (no PEACE split)" : "");
    else
        draw_textf(y, in.x, in.w, A_NORMAL, "cap %g W: at the lowest clock, %.0f MHz%s",
                   c.cap_w, c.clock_mhz, c.peace_model ? " (no PEACE split)" : "");
}

static void draw_detail(const app *a, const cl_src *s, rect box)
{
    draw_box(box, "GPU", a->cl.drill);
    detail_geom d = detail_layout(a);
    rect in = d.in;
    if (s->cs->ngpus == 0 || in.h < 4)
        return;
    int gi = shown_gpu(a, s);
    const cs_gpu *g = &s->cs->gpus[gi];
    const cs_node *n = &s->cs->nodes[g->node];
    int y = in.y;
    char who[GP_NAME_MAX + 16];
    gpu_name(who, sizeof who, n->name, g->dev);
    draw_textf(y++, in.x, in.w, A_BOLD, "%s  %s", who, n->gpu ? n->gpu->name : "");
    const char *st = g->power == GPU_ASLEEP ? "asleep" : g->power == GPU_IDLE ? "idle" : "active";
    sim_peace_gpu pg;
    int held = s->sim && sim_gpu_peace(s->sim, gi, &pg);
    char cap[32] = "";
    if (held)
        snprintf(cap, sizeof cap, " (cap %g W)", pg.cap_w);
    /* the model's figure, named so beside a monitor's (the next line) */
    draw_textf(y++, in.x, in.w, A_NORMAL, "%s %.0f MHz  model %.1f W%s", st, g->freq_mhz,
               gpu_watts(s->cs, gi, s->eopc), cap);
    draw_textf(y++, in.x, in.w, A_NORMAL, "memory %.1f / %.1f GiB  share %d milli",
               g->mem_used_gib, g->mem_gib, g->alloc_milli);
    if (run_capped(a))
        draw_cap_readout(s, gi, y++, in);
    const gpu_reading *rd = s->snap ? snapshot_reading(s->snap, g->node, g->dev) : NULL;
    if (rd)
        draw_reading(y++, in, rd);
    if (held)
        draw_peace_split(a, &pg, y++, in);
    else if (s->sim && a->rs.peace.ix && g->ntasks > 0 &&
             s->cs->nodes[g->node].gpu &&
             strcmp(s->cs->nodes[g->node].gpu->name, a->rs.peace.set->gpu) == 0)
        draw_text(y++, in.x, in.w, ui_attr(C_DIM),
                  "clock clamp only: PEACE cannot hold this group of tasks");
    else
        draw_util_now(s, gi, rd, y++, in);
    if (d.series_y >= 0) {
        float agg[256];
        size_t m = gpu_agg_series(s->cs, s->tr, s->progress, gi, agg, 256);
        draw_text(d.series_y, in.x, in.w, ui_attr(C_TITLE), "aggregate utilization ahead");
        if (m)
            draw_spark(d.series_y + 1, in.x, in.w, agg, m, 0, 100, ui_attr(C_SERIES2));
        else
            draw_text(d.series_y + 1, in.x, in.w, ui_attr(C_DIM), "(no series)");
    }
    if (d.tasks_y >= 0)
        draw_tasks(a, s, g, &d);
}

/* Whole watts with thousands separated, "1,995 W": a total is compared
 * with a budget or a bill, so it is not rounded to "2k". */
static void watts_fmt(double w, char *buf, size_t len)
{
    char d[32];
    snprintf(d, sizeof d, "%.0f", w < 0 ? 0 : w);
    size_t n = strlen(d), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    snprintf(buf + o, len - o, " W");
}

/* "GPU power 1,995 W model", or with a monitor's readings "GPU power
 * 1,830 W measured on 8 of 16 GPUs, 2,400 W model": which figure is read
 * and which is the power model's is always said. */
static void power_text(const cl_src *s, char *buf, size_t len)
{
    double w = 0, read_w = 0;
    size_t nread = 0;
    for (size_t g = 0; g < s->cs->ngpus; g++)
        w += gpu_watts(s->cs, (int)g, s->eopc);
    for (size_t i = 0; s->snap && i < s->snap->nreadings; i++)
        if (!isnan(s->snap->readings[i].power_w)) {
            read_w += s->snap->readings[i].power_w;
            nread++;
        }
    char ws[40], rs[40];
    watts_fmt(w, ws, sizeof ws);
    if (!nread) {
        snprintf(buf, len, "GPU power %s model", ws);
        return;
    }
    watts_fmt(read_w, rs, sizeof rs);
    if (nread == s->cs->ngpus)
        snprintf(buf, len, "GPU power %s measured, %s model", rs, ws);
    else
        snprintf(buf, len, "GPU power %s measured on %zu of %zu GPUs, %s model", rs, nread,
                 s->cs->ngpus, ws);
}

static void draw_info(const app *a, const cl_src *s, rect r)
{
    size_t active = 0, asleep = 0;
    for (size_t g = 0; g < s->cs->ngpus; g++) {
        active += s->cs->gpus[g].power == GPU_ACTIVE;
        asleep += s->cs->gpus[g].power == GPU_ASLEEP;
    }
    char pw[160], frag[64] = "";
    power_text(s, pw, sizeof pw);
    if (s->snap) {
        /* computed once as the snapshot loaded (snap_frag_slice) */
        const cluster_ui *c = &a->cl;
        char f[16];
        chart_fmt(c->snap_frag, f, sizeof f);
        snprintf(frag, sizeof frag, "  FGD frag %s milli-GPU (%.0f%% of idle)", f,
                 c->snap_idle_milli > 0 ? 100 * c->snap_frag / c->snap_idle_milli : 0);
    }
    draw_textf(r.y, r.x + 1, r.w - 1, A_NORMAL,
               "%zu servers  %zu GPUs  %zu active  %zu asleep  %s%s  %s%s",
               s->cs->nnodes, s->cs->ngpus, active, asleep, pw, frag,
               s->snap ? "c: compare from here  " : "",
               a->cl.snap_cs && runset_focus_sim(&a->rs) ? "(o: run/snapshot)" : "");
}

static void cluster_draw(const app *a)
{
    cl_src s;
    if (source_of(a, &s)) {
        draw_empty_screen(a, "Cluster", "Nothing to show: start a comparison in Compare (1), "
                                        "or open a snapshot from Data (5).",
                          "1 Compare  5 Data  ? help  q quit");
        return;
    }
    cluster_layout L = layout_cluster(a->rows, a->cols);
    draw_info(a, &s, L.info);
    draw_heat(a, &s, L.heat);
    draw_detail(a, &s, L.detail);
    char ctx[160];
    snprintf(ctx, sizeof ctx, "Cluster %s %s", sym(SYM_DOT), s.title);
    draw_status(a, ctx, a->cl.drill ? "j/k task  o sort  Esc back  X export  ? help"
                                    : "arrows move  v view  Enter drill  / find  X export  "
                                      "? help");
}

/* --- keys -------------------------------------------------------------------------- */

static ui_rc cl_move(app *a, int key)
{
    cl_src s;
    if (source_of(a, &s) || s.cs->ngpus == 0)
        return UI_DONE;
    rect grid;
    heat_geom g;
    geom_of(a, s.cs, &grid, &g);
    int gpu = shown_gpu(a, &s), n = (int)s.cs->ngpus;
    const cs_gpu *cg = &s.cs->gpus[gpu];
    int nd = cg->node, lines = 0;
    switch (key) {
    case KEY_LEFT: case 'h': gpu = gpu > 0 ? gpu - 1 : 0; break;
    case KEY_RIGHT: case 'l': gpu = gpu + 1 < n ? gpu + 1 : gpu; break;
    case KEY_UP: case 'k': lines = -1; break;
    case KEY_DOWN: case 'j': lines = 1; break;
    case KEY_PPAGE: lines = -grid.h; break;
    case KEY_NPAGE: lines = grid.h; break;
    case KEY_HOME: gpu = 0; break;
    case KEY_END: gpu = n - 1; break;
    default: break;
    }
    if (lines) {
        long t = (long)nd + (long)lines * g.per_line;
        if (t < 0)
            t = nd % g.per_line;
        if (t >= (long)s.cs->nnodes)
            t = (long)s.cs->nnodes - 1;
        const cs_node *tn = &s.cs->nodes[t];
        int dev = cg->dev < tn->ngpus ? cg->dev : tn->ngpus - 1;
        if (dev >= 0)
            gpu = tn->gpu0 + dev;
    }
    select_gpu(a, &s, gpu);
    return UI_DONE;
}

static ui_rc cl_view(app *a, int key)
{
    static const int direct[] = {'a', 'u', 'p', 'f', 'm'};
    for (int i = 0; i < HEAT_NVIEWS; i++)
        if (key == direct[i]) {
            a->cl.view = (heat_view)i;
            return UI_DONE;
        }
    a->cl.view = (heat_view)((a->cl.view + 1) % HEAT_NVIEWS);
    return UI_DONE;
}

static ui_rc cl_drill(app *a, int key)
{
    (void)key;
    cl_src s;
    if (source_of(a, &s) || s.cs->ngpus == 0)
        return UI_DONE;
    a->cl.sel_gpu = shown_gpu(a, &s);
    if (s.cs->gpus[a->cl.sel_gpu].ntasks == 0) {
        app_msg(a, "no tasks on this GPU");
        return UI_DONE;
    }
    a->cl.drill = 1;
    lv_reset(&a->cl.tasks, (size_t)s.cs->gpus[a->cl.sel_gpu].ntasks);
    return UI_DONE;
}

static ui_rc cl_source(app *a, int key)
{
    (void)key;
    if (!a->cl.snap_cs) {
        app_msg(a, "no snapshot open: Enter on one in Data (5)");
        return UI_DONE;
    }
    a->cl.from_snapshot = !a->cl.from_snapshot;
    a->cl.sel_gpu = 0;
    a->cl.top_line = 0;
    return UI_DONE;
}

/* The policies of a Compare from the snapshot: those picked in Compare,
 * else three of different families. */
static int compare_labels(const app *a, const char **labels)
{
    static const char *const fallback[] = {"cats", "fgd", "first"};
    if (a->cmp.npicked > 0) {
        for (int i = 0; i < a->cmp.npicked; i++)
            labels[i] = a->cmp.picked[i];
        return a->cmp.npicked;
    }
    for (int i = 0; i < 3; i++)
        labels[i] = fallback[i];
    return 3;
}

/* Starts the runs on the snapshot's trace, then gives them the what-if's
 * trace (the tasks in place, the pending ones arriving) and its pins and
 * starts them again from there. */
static int start_from_snapshot(app *a, gp_err *err)
{
    const cluster_ui *c = &a->cl;
    const char *labels[RS_MAX];
    int n = compare_labels(a, labels);
    char tname[GP_NAME_MAX + 16];
    snprintf(tname, sizeof tname, "snapshot:%s", c->snap_name);
    if (runset_start(&a->rs, a->st, tname, c->snap->cluster_name, labels, n, 0,
                     a->cmp.power_choice - 1, err))
        return -1;
    char pname[GP_NAME_MAX + 16];
    snprintf(pname, sizeof pname, "%s-pending", c->snap_name);
    gp_trace *pending = NULL;
    gp_err none;
    if (store_get_trace(a->st, pname, &pending, &none))
        pending = NULL;
    whatif w;
    whatif_opts o = {0};
    int rc = whatif_build(c->snap, a->rs.cl, a->rs.cat, pending, &o, &w, err);
    trace_free(pending);
    if (rc) {
        runset_clear(&a->rs);
        return -1;
    }
    trace_free(a->rs.tr);
    a->rs.tr = w.tr;
    a->rs.pins = w.pins;
    a->rs.t_end_hint = runset_trace_span(a->rs.tr);
    a->rs.has_opt = 0;          /* the optimum was of the tasks alone */
    if (runset_restart(&a->rs, a->st, err)) {
        runset_clear(&a->rs);
        return -1;
    }
    return 0;
}

static ui_rc cl_compare(app *a, int key)
{
    (void)key;
    cl_src s;
    if (source_of(a, &s) || !s.snap) {
        app_msg(a, "c compares from a snapshot: open one from Data (5)");
        return UI_DONE;
    }
    gp_err err;
    if (start_from_snapshot(a, &err)) {
        app_err(a, "compare from %s: %s", a->cl.snap_name, err.msg);
        return UI_DONE;
    }
    a->cmp.mode = CMP_RUN;
    lv_reset(&a->cmp.runs, (size_t)a->rs.n);
    app_goto(a, SCR_COMPARE);
    app_msg(a, "%d run%s from snapshot %s ready at t=0: space plays", a->rs.n,
            a->rs.n == 1 ? "" : "s", a->cl.snap_name);
    return UI_DONE;
}

static const char *node_name(const void *cs, size_t i)
{
    return ((const cstate *)cs)->nodes[i].name;
}

static void find_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    cl_src s;
    if (!ok || source_of(a, &s) || s.cs->nnodes == 0)
        return;
    snprintf(a->search, sizeof a->search, "%s", text);
    size_t n = s.cs->nnodes;
    size_t start = s.cs->ngpus ? (size_t)s.cs->gpus[shown_gpu(a, &s)].node : 0;
    size_t i = lv_find_next(n, start, a->search, node_name, s.cs);
    if (i == n || s.cs->nodes[i].ngpus == 0)
        app_err(a, "no server matching '%s' with GPUs", a->search);
    else
        select_gpu(a, &s, s.cs->nodes[i].gpu0);
}

static ui_rc cl_find(app *a, int key)
{
    if (key == 'n' && a->search[0])
        find_done(a, 1, a->search, 0);
    else
        modal_prompt(a, "Find server by name", "", find_done);
    return UI_DONE;
}

static const ui_key grid_keys[] = {
    {{KEY_LEFT, 'h', KEY_RIGHT, 'l'}, "Left Right h l", "previous / next GPU", cl_move},
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "the GPU a line above / below", cl_move},
    {{KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END}, "PgUp PgDn", "a page up / down, first / last",
     cl_move},
    {{'v'}, "v", "cycle the view: allocation, utilization, power, frequency, memory", cl_view},
    {{'a', 'u', 'p', 'f', 'm'}, "a u p f m", "view allocation / util / power / freq / memory",
     cl_view},
    {{'\n', '\r', KEY_ENTER}, "Enter", "drill into the GPU's tasks", cl_drill},
    {{'o'}, "o", "show the focused run / the open snapshot", cl_source},
    {{'c'}, "c", "compare policies from the snapshot's state (its pending pods arriving)",
     cl_compare},
    {{'/', 'n'}, "/ n", "find a server by name / next match", cl_find},
    {{0}, NULL, NULL, NULL},
};

static ui_rc drill_move(app *a, int key)
{
    cl_src s;
    if (source_of(a, &s) || s.cs->ngpus == 0)
        return UI_DONE;
    lv_set_count(&a->cl.tasks, (size_t)s.cs->gpus[shown_gpu(a, &s)].ntasks);
    lv_key(&a->cl.tasks, key, detail_layout(a).tasks.h);
    return UI_DONE;
}

/* o: the task list by the next column (name, memory, utilization, time
 * left); O: reversed. */
static ui_rc drill_sort(app *a, int key)
{
    tablesort_next(&a->cl.tasks_sort, NTASK_COLS, key == 'O');
    lv_reset(&a->cl.tasks, a->cl.tasks.count);
    if (a->cl.tasks_sort.by > 0)
        app_msg(a, "tasks by %s, %s", task_cols[a->cl.tasks_sort.by - 1],
                a->cl.tasks_sort.desc ? "largest first" : "smallest first");
    else
        app_msg(a, "tasks in the order they were placed");
    return UI_DONE;
}

static ui_rc drill_back(app *a, int key)
{
    (void)key;
    a->cl.drill = 0;
    return UI_DONE;
}

static const ui_key drill_keys[] = {
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "previous / next task", drill_move},
    {{'o', 'O'}, "o O", "order the tasks by name, memory, utilization, time left / reverse",
     drill_sort},
    {{KEY_ESC, KEY_LEFT, 'h', '\t'}, "Esc Left h", "back to the heatmap", drill_back},
    {{0}, NULL, NULL, NULL},
};

static const ui_key *cluster_keytab(const app *a)
{
    return a->cl.drill ? drill_keys : grid_keys;
}

static ui_rc cluster_key(app *a, int key)
{
    return ui_dispatch(a, cluster_keytab(a), key);
}

const ui_screen scr_cluster = {
    .name = "Cluster", .hotkey = '3', .fkey = 4, .draw = cluster_draw, .key = cluster_key,
    .keys = cluster_keytab, .tick = NULL,
};
