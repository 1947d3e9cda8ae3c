/*
 * export_screens.c — what Compare (its setup or its runs), Step, Cluster
 * and Data show, as an export_view (export.h): the same state the screens
 * draw from, put in tables and charts (Cluster's heatmap at the levels of
 * ui/gpuinfo.c), and the `gpuplan` command that gives the same from the
 * shell.  Reading only: nothing here changes the app.
 */
#include "export.h"
#include "engine.h"
#include "gpuinfo.h"
#include "io/plot_run.h"
#include "core/gpuname.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* --- Compare ------------------------------------------------------------------ */

static void compare_table(const app *a, table *t)
{
    static const char *const cols[] = {
        "policy", "run_id", "t_s", "avg_gpus", "peak_gpus", "avg_power_w", "peak_power_w",
        "energy_kwh", "avg_frag", "finished", "sla_violations", "jct_mean_s", "jct_p50_s",
        "jct_p95_s",
    };
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c > 0);
    for (int i = 0; i < a->rs.n; i++) {
        const run *r = runset_record(&a->rs, i);
        if (!r)
            continue;
        run_summary s;
        run_summarize(r, a->rs.t, &s);
        table_row(t);
        table_cell(t, "%s", a->rs.slot[i].spec.label);
        table_cell(t, "%lld", (long long)r->id);
        table_cell(t, "%.3f", s.t_end);
        table_cell(t, "%.3f", s.avg_gpus);
        table_cell(t, "%.0f", s.peak_gpus);
        table_cell(t, "%.1f", s.avg_w);
        table_cell(t, "%.1f", s.peak_w);
        table_cell(t, "%.4f", s.energy_kwh);
        table_cell(t, "%.3f", s.avg_frag);
        table_cell(t, "%zu", s.finished);
        table_cell(t, "%zu", s.violations);
        table_cell(t, "%.1f", s.jct_mean);
        table_cell(t, "%.1f", s.jct_p50);
        table_cell(t, "%.1f", s.jct_p95);
    }
}

/* The command: the saved runs plotted, else the runs made first. */
static void compare_cli(const app *a, const run *const *runs, int n, char *buf, size_t len)
{
    strbuf b = STRBUF_INIT;
    int saved = n > 0;
    for (int i = 0; i < n; i++)
        saved = saved && runs[i]->id > 0;
    if (!saved) {
        strbuf_printf(&b, "gpuplan run --trace %s --cluster %s --policy ", a->rs.trace_name,
                      a->rs.cluster_name);
        for (int i = 0; i < a->rs.n; i++)
            strbuf_printf(&b, "%s%s", i ? "," : "", a->rs.slot[i].spec.label);
        strbuf_puts(&b, "; gpuplan plot run ID... --metric gpus --out compare.svg (the IDs "
                    "it saved)");
    } else {
        strbuf_puts(&b, "gpuplan plot run");
        for (int i = 0; i < n; i++)
            strbuf_printf(&b, " %lld", (long long)runs[i]->id);
        strbuf_puts(&b, " --metric gpus --out compare.svg");
    }
    strbuf_copy_to(&b, buf, len);
    strbuf_free(&b);
}

/* The rows of a list of stored entities, as `gpuplan list --format csv`. */
static void items_table(const ui_list *l, table *t)
{
    static const char *const cols[] = {"id", "name", "count", "count2", "detail", "created"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c == 0 || c == 2 || c == 3);
    for (size_t i = 0; i < l->lv.count; i++) {
        const store_item *it = &l->items[i];
        table_row(t);
        table_cell(t, "%lld", (long long)it->id);
        table_cell(t, "%s", it->name);
        table_cell(t, "%lld", (long long)it->count);
        table_cell(t, "%lld", (long long)it->count2);
        table_cell(t, "%s", it->detail);
        table_cell(t, "%s", it->created);
    }
}

/* The setup, before any run: the traces, the clusters and the policies
 * picked. */
static void setup_export(const app *a, export_view *v)
{
    items_table(&a->cmp.traces, export_add_table(v, "traces"));
    items_table(&a->cmp.clusters, export_add_table(v, "clusters"));
    table *t = export_add_table(v, "policies");
    table_col(t, "policy", 0);
    table_col(t, "title", 0);
    for (int i = 0; i < a->cmp.npicked; i++) {
        policy_spec sp;
        gp_err err;
        table_row(t);
        table_cell(t, "%s", a->cmp.picked[i]);
        table_cell(t, "%s", policy_spec_parse(a->cmp.picked[i], &sp, &err) == 0 && sp.ops->title
                   ? sp.ops->title : "");
    }
    snprintf(v->cli, sizeof v->cli, "gpuplan list traces clusters --format csv");
}

void compare_export(const app *a, export_view *v)
{
    const run *runs[RS_MAX];
    int n = 0;
    for (int i = 0; i < a->rs.n; i++)
        if (runset_record(&a->rs, i))
            runs[n++] = runset_record(&a->rs, i);
    if (n == 0) {
        setup_export(a, v);
        return;
    }
    compare_table(a, export_add_table(v, "runs"));
    static const struct { const char *name; plot_metric m; } charts[] = {
        {"gpus", PLOT_M_GPUS}, {"power", PLOT_M_POWER}, {"frag", PLOT_M_FRAG},
        {"queue", PLOT_M_QUEUE},
    };
    for (size_t c = 0; c < sizeof charts / sizeof *charts; c++) {
        plot_metric m = c == 3 && a->cmp.queue_metric ? PLOT_M_JCT : charts[c].m;
        export_add_chart(v, m == PLOT_M_JCT ? "jct" : charts[c].name,
                         plot_runs_chart(runs, n, m));
    }
    compare_cli(a, runs, n, v->cli, sizeof v->cli);
}

/* --- Step ------------------------------------------------------------------------ */

static void cand_table(const explain *ex, const cstate *cs, table *t)
{
    table_col(t, "candidate", 0);
    for (int k = 0; k < ex->nterms; k++)
        table_col(t, ex->term_name[k] ? ex->term_name[k] : "term", 1);
    table_col(t, "eligible", 0);
    table_col(t, "chosen", 0);
    table_col(t, "note", 0);
    for (size_t i = 0; i < ex->ncands; i++) {
        const explain_cand *c = &ex->cands[i];
        table_row(t);
        const char *nname = c->node >= 0 && (size_t)c->node < cs->nnodes
                            ? cs->nodes[c->node].name : "?";
        char who[GP_NAME_MAX + 16];
        gpu_name(who, sizeof who, nname,
                 c->gpu >= 0 && (size_t)c->gpu < cs->ngpus ? cs->gpus[c->gpu].dev : -1);
        table_cell(t, "%s", who);
        for (int k = 0; k < ex->nterms; k++)
            table_cell(t, "%.17g", c->term[k]);
        table_cell(t, "%s", c->eligible ? "yes" : "no");
        table_cell(t, "%s", (int)i == ex->chosen ? "yes" : "no");
        table_cell(t, "%s", c->note);
    }
}

static void decision_table(const run *r, const gp_trace *tr, const cstate *cs, table *t)
{
    static const char *const cols[] = {"decision", "t_s", "task", "node", "gpus", "reason"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c < 2);
    for (size_t i = 0; i < r->ndecisions; i++) {
        const run_decision *d = &r->decisions[i];
        table_row(t);
        table_cell(t, "%d", run_decision_number(d));
        table_cell(t, "%.3f", d->t_s);
        table_cell(t, "%s", d->task >= 0 && (size_t)d->task < tr->ntasks
                   ? tr->tasks[d->task].name : "?");
        const char *nname = d->node >= 0 && (size_t)d->node < cs->nnodes
                            ? cs->nodes[d->node].name : "";
        char where[GP_NAME_MAX + 64] = "";
        if (nname[0])
            gpus_name(where, sizeof where, nname, d->gpus);
        table_cell(t, "%s", nname);
        table_cell(t, "%s", where);
        table_cell(t, "%s", d->reason ? d->reason : "");
    }
}

/* The incoming task's utilization series (Step's sparkline), when it
 * has one. */
static void task_util_chart(const gp_trace *tr, int ti, export_view *v)
{
    if (ti < 0 || (size_t)ti >= tr->ntasks || tr->tasks[ti].util.len == 0)
        return;
    const task *tk = &tr->tasks[ti];
    char title[160];
    snprintf(title, sizeof title, "GPU utilization of task %s (%s)", tk->name, tr->name);
    plot_chart *c = plot_new(title);
    plot_axes(c, "time since the task started", "s", "GPU utilization", "%");
    c->y_from_zero = 1;
    int s = plot_series_add(c, tk->name);
    for (size_t k = 0; k < tk->util.len; k++)
        plot_point(c, s, (double)k * tk->util.period_s, tk->util.pct[k]);
    export_add_chart(v, "util", c);
}

void step_export(const app *a, export_view *v)
{
    const sim *s = runset_focus_sim(&a->rs);
    if (!s) {
        snprintf(v->empty, sizeof v->empty, "no live run to step: start one on Compare");
        return;
    }
    const explain *ex = sim_last_explain(s);
    if (ex && ex->ncands)
        cand_table(ex, sim_cstate(s), export_add_table(v, "candidates"));
    const run *rec = sim_run_record(s);
    decision_table(rec, sim_trace(s), sim_cstate(s), export_add_table(v, "decisions"));
    if (rec->ndecisions)
        task_util_chart(sim_trace(s), rec->decisions[rec->ndecisions - 1].task, v);
    snprintf(v->cli, sizeof v->cli, "gpuplan run --trace %s --cluster %s --policy %s "
             "--explain; then gpuplan export run ID --out DIR (decisions.csv)",
             a->rs.trace_name, a->rs.cluster_name, a->rs.slot[a->rs.focus].spec.label);
}

/* --- Cluster ------------------------------------------------------------------------ */

static void gpu_table(const cstate *cs, table *t)
{
    static const char *const cols[] = {"node", "gpu", "model", "alloc_milli", "tasks",
                                       "mem_used_gib", "mem_gib", "state", "freq_mhz"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c == 1 || (c >= 3 && c != 7));
    for (size_t g = 0; g < cs->ngpus; g++) {
        const cs_gpu *u = &cs->gpus[g];
        const cs_node *n = &cs->nodes[u->node];
        table_row(t);
        table_cell(t, "%s", n->name);
        table_cell(t, "%d", u->dev);
        table_cell(t, "%s", n->gpu ? n->gpu->name : "");
        table_cell(t, "%d", u->alloc_milli);
        table_cell(t, "%d", u->ntasks);
        table_cell(t, "%.2f", u->mem_used_gib);
        table_cell(t, "%.2f", u->mem_gib);
        table_cell(t, "%s", u->power == GPU_ASLEEP ? "asleep"
                            : u->power == GPU_IDLE ? "idle" : "active");
        table_cell(t, "%.0f", u->freq_mhz);
    }
}

/* The heatmap as the screen shows it: a row per server, a cell per GPU,
 * at the level of the current view (ui/gpuinfo.c), the legend's names. */
static plot_chart *heat_chart(const app *a, const cstate *cs, const gp_trace *tr,
                              const double *progress, const char *what)
{
    static const char *const views[HEAT_NVIEWS] = {
        [HEAT_ALLOC] = "allocation", [HEAT_UTIL] = "utilization", [HEAT_POWER] = "power state",
        [HEAT_FREQ] = "frequency", [HEAT_MEM] = "memory",
    };
    heat_view view = a->cl.view < HEAT_NVIEWS ? a->cl.view : HEAT_ALLOC;
    char title[160];
    snprintf(title, sizeof title, "GPU %s by server: %s", views[view], what);
    plot_chart *c = plot_new(title);
    plot_axes(c, "GPU on the server", "", "server", "");
    int cols = 1;
    for (size_t n = 0; n < cs->nnodes; n++)
        cols = cs->nodes[n].ngpus > cols ? cs->nodes[n].ngpus : cols;
    plot_heat *h = plot_heat_new(c, cs->nnodes ? (int)cs->nnodes : 1, cols);
    for (size_t n = 0; n < cs->nnodes; n++) {
        snprintf(h->row_name[n], sizeof h->row_name[n], "%s", cs->nodes[n].name);
        for (int k = 0; k < cs->nodes[n].ngpus; k++)
            h->cell[n * (size_t)cols + (size_t)k] = (signed char)gpu_heat_level(
                cs, tr, progress, cs->nodes[n].gpu0 + k, (int)view);
    }
    static const char *const fill[PLOT_HEAT_LEVELS] = {"", "0", "up to 1/3", "up to 2/3",
                                                       "full", "over"};
    static const char *const power[PLOT_HEAT_LEVELS] = {"asleep", "idle", "", "", "active", ""};
    static const char *const freq[PLOT_HEAT_LEVELS] = {"asleep", "", "at most half",
                                                       "above half", "full clock", ""};
    const char *const *names = view == HEAT_POWER ? power : view == HEAT_FREQ ? freq : fill;
    for (int i = 0; i < PLOT_HEAT_LEVELS; i++)
        snprintf(h->level_name[i], sizeof h->level_name[i], "%s", names[i]);
    return c;
}

void cluster_export(const app *a, export_view *v)
{
    const sim *s = runset_focus_sim(&a->rs);
    int snap = a->cl.snap_cs && (a->cl.from_snapshot || !s);
    if (snap) {
        gpu_table(a->cl.snap_cs, export_add_table(v, "gpus"));
        char what[96];
        snprintf(what, sizeof what, "snapshot %s", a->cl.snap_name);
        export_add_chart(v, "heat", heat_chart(a, a->cl.snap_cs, a->cl.snap->tasks, NULL,
                                               what));
        snprintf(v->cli, sizeof v->cli, "gpuplan show snapshot %s; gpuplan export snapshot %s "
                 "--out DIR", a->cl.snap_name, a->cl.snap_name);
    } else if (s) {
        gpu_table(sim_cstate(s), export_add_table(v, "gpus"));
        char what[96];
        char t[24];
        chart_fmt_time(sim_now(s), t, sizeof t);
        snprintf(what, sizeof what, "%s on %s at t=%s", a->rs.slot[a->rs.focus].spec.label,
                 a->rs.cluster_name, t);
        export_add_chart(v, "heat", heat_chart(a, sim_cstate(s), sim_trace(s),
                                               sim_progress(s), what));
        snprintf(v->cli, sizeof v->cli, "gpuplan snapshot --run ID --at %.0f --name NAME; "
                 "then gpuplan export snapshot NAME --out DIR", sim_now(s));
    } else {
        snprintf(v->empty, sizeof v->empty, "no run or snapshot on Cluster to export");
    }
}

/* --- Data ----------------------------------------------------------------------------- */

void data_export(const app *a, export_view *v)
{
    store_kind k = (store_kind)a->data.kinds.cursor;
    if (k >= STORE_KIND_COUNT)
        return;
    items_table(&a->data.lists[k], export_add_table(v, store_kind_name(k)));
    snprintf(v->cli, sizeof v->cli, "gpuplan list %ss --format csv", store_kind_name(k));
}
