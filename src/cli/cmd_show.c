/*
 * cmd_show.c — `gpuplan show KIND NAME`: one entity in detail (a profile's
 * values, a cluster's nodes, a trace's tasks, a catalog's entries, a
 * snapshot's placements, a run's metrics, a PEACE set's workloads).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_whatif.h"
#include "io/export.h"
#include "core/strbuf.h"
#include "peace/peace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int show_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_show = {
    .name = "show",
    .usage = "KIND NAME|ID",
    .summary = "Show one profile, cluster, trace, catalog, snapshot, run or PEACE set",
    .notes = "KIND is gpu, cpu, cluster, trace, tput, snapshot, run or peace; runs are named "
             "by id (see 'gpuplan list runs'). A PEACE set shows each workload's class, "
             "memory, throughput sensitivity at each profiled clock (items/s per % of the "
             "SMs) and the co-location rows it takes part in.",
    .exec = show_exec,
};

static table *show_gpu(const catalog *cat, const char *name, gp_err *err)
{
    const gpu_profile *g = catalog_gpu(cat, name);
    if (!g) {
        char hint[300];
        gp_error(err, "no GPU profile named '%s'%s", name,
                 catalog_gpu_hint(cat, name, hint, sizeof hint));
        return NULL;
    }
    table *t = table_new();
    const char *cols[] = {"name", "mem_gib", "idle_w", "max_w", "sleep_w", "f_min_mhz",
                          "f_max_mhz", "alpha_w_per_mhz", "beta", "price_usd", "tput_class"};
    for (int i = 0; i < 11; i++)
        table_col(t, cols[i], i > 0 && i < 10);
    table_row(t);
    table_cell(t, "%s", g->name);
    const double v[] = {g->mem_gib, g->idle_w, g->max_w, g->sleep_w, g->f_min_mhz,
                        g->f_max_mhz, g->alpha_w_per_mhz, g->beta};
    for (int i = 0; i < 8; i++)
        table_cell(t, "%g", v[i]);
    if (gpu_price_known(g))
        table_cell(t, "%g", g->price_usd);
    else
        table_cell(t, "%s", "unknown");
    table_cell(t, "%s", g->tput_class);
    return t;
}

static table *show_cpu(const catalog *cat, const char *name, gp_err *err)
{
    const cpu_profile *p = catalog_cpu(cat, name);
    if (!p) {
        char hint[300];
        gp_error(err, "no CPU profile named '%s'%s", name,
                 catalog_cpu_hint(cat, name, hint, sizeof hint));
        return NULL;
    }
    table *t = table_new();
    table_col(t, "name", 0);
    table_col(t, "cores", 1);
    table_col(t, "idle_w", 1);
    table_col(t, "max_w", 1);
    table_row(t);
    table_cell(t, "%s", p->name);
    table_cell(t, "%d", p->cores);
    table_cell(t, "%g", p->idle_w);
    table_cell(t, "%g", p->max_w);
    return t;
}

static table *show_cluster(store *st, const char *name, gp_err *err)
{
    cluster *c;
    if (store_get_cluster(st, name, &c, err))
        return NULL;
    table *t = table_new();
    const char *cols[] = {"node", "gpu_model", "gpus", "cpu_milli", "ram_mib", "cpu_model",
                          "static_w", "other_w"};
    for (int i = 0; i < 8; i++)
        table_col(t, cols[i], i == 2 || i == 3 || i == 4 || i >= 6);
    for (size_t i = 0; i < c->nnodes; i++) {
        const node *n = &c->nodes[i];
        table_row(t);
        table_cell(t, "%s", n->name);
        table_cell(t, "%s", n->gpu_model);
        table_cell(t, "%d", n->gpu_count);
        table_cell(t, "%lld", (long long)n->cpu_milli);
        table_cell(t, "%lld", (long long)n->ram_mib);
        table_cell(t, "%s", n->cpu_model);
        table_cell(t, "%g", n->static_w);
        table_cell(t, "%g", n->other_w);
    }
    cluster_free(c);
    return t;
}

static table *tasks_table(const gp_trace *tr)
{
    table *t = table_new();
    const char *cols[] = {"task", "arrival_s", "duration_s", "num_gpu", "gpu_milli",
                          "gpu_mem_gib", "cpu_milli", "gpu_spec", "util_mean", "util_peak",
                          "util_first", "samples"};
    for (int i = 0; i < 12; i++)
        table_col(t, cols[i], i != 0 && i != 7);
    for (size_t i = 0; i < tr->ntasks; i++) {
        const task *k = &tr->tasks[i];
        table_row(t);
        table_cell(t, "%s", k->name);
        table_cell(t, "%g", k->arrival_s);
        table_cell(t, "%g", k->duration_s);
        table_cell(t, "%d", k->num_gpu);
        table_cell(t, "%d", k->gpu_milli);
        table_cell(t, "%g", k->gpu_mem_gib);
        table_cell(t, "%lld", (long long)k->cpu_milli);
        table_cell(t, "%s", k->gpu_spec ? k->gpu_spec : "");
        table_cell(t, "%.2f", k->util_mean);
        table_cell(t, "%.2f", k->util_peak);
        table_cell(t, "%.2f", k->util_first);
        table_cell(t, "%zu", k->util.len);
    }
    return t;
}

static table *show_trace(store *st, const char *name, gp_err *err)
{
    gp_trace *tr;
    if (store_get_trace(st, name, &tr, err))
        return NULL;
    table *t = tasks_table(tr);
    trace_free(tr);
    return t;
}

static table *show_tput(store *st, const char *name, gp_err *err)
{
    tput_catalog *c;
    if (store_get_tput_catalog(st, name, &c, err))
        return NULL;
    table *t = table_new();
    const char *cols[] = {"accel", "model", "batch", "scale", "co_model", "co_batch",
                          "co_scale", "tput", "co_tput"};
    for (int i = 0; i < 9; i++)
        table_col(t, cols[i], i != 0 && i != 1 && i != 4);
    for (size_t i = 0; i < c->nentries; i++) {
        const tput_entry *e = &c->entries[i];
        table_row(t);
        table_cell(t, "%s", e->accel);
        table_cell(t, "%s", e->model);
        table_cell(t, "%d", e->batch_size);
        table_cell(t, "%d", e->scale);
        table_cell(t, "%s", e->co_model);
        if (e->co_model[0]) {
            table_cell(t, "%d", e->co_batch_size);
            table_cell(t, "%d", e->co_scale);
        } else {
            table_cell(t, "%s", "");
            table_cell(t, "%s", "");
        }
        table_cell(t, "%.6g", e->tput);
        table_cell(t, "%.6g", e->co_tput);
    }
    tput_catalog_free(c);
    return t;
}

static table *snapshot_placements(const cli_snapview *v)
{
    const snapshot *sn = v->sn;
    const cluster *cl = v->cl;
    table *t = table_new();
    table_col(t, "task", 0);
    table_col(t, "node", 1);
    table_col(t, "node_name", 0);
    table_col(t, "gpu", 1);
    table_col(t, "gpu_milli", 1);
    for (size_t i = 0; i < sn->nrows; i++) {
        const placement_row *r = &sn->rows[i];
        table_row(t);
        table_cell(t, "%s", r->task >= 0 && (size_t)r->task < sn->tasks->ntasks
                                ? sn->tasks->tasks[r->task].name : "?");
        table_cell(t, "%d", r->node);
        table_cell(t, "%s", r->node >= 0 && (size_t)r->node < cl->nnodes
                                ? cl->nodes[r->node].name : "?");
        table_cell(t, "%d", r->gpu);
        table_cell(t, "%d", r->gpu_milli);
    }
    return t;
}

/* A reading's cell: empty where the monitor did not say. */
static void reading_cell(table *t, const char *fmt, double v)
{
    if (isnan(v))
        table_cell(t, "%s", "");
    else
        table_cell(t, fmt, v);
}

/* What nvidia-smi or DCGM read on each GPU (none for a simulated instant). */
static table *snapshot_readings(const cli_snapview *v)
{
    table *t = table_new();
    const char *cols[] = {"node_name", "gpu", "model", "util_pct", "power_w", "clock_mhz",
                          "mem_used_mib", "mem_total_mib"};
    for (int i = 0; i < 8; i++)
        table_col(t, cols[i], i == 1 || i > 2);
    for (size_t i = 0; i < v->sn->nreadings; i++) {
        const gpu_reading *r = &v->sn->readings[i];
        if (r->node < 0 || (size_t)r->node >= v->cl->nnodes)
            continue;
        const node *n = &v->cl->nodes[r->node];
        table_row(t);
        table_cell(t, "%s", n->name);
        table_cell(t, "%d", r->gpu);
        table_cell(t, "%s", n->gpu_model);
        reading_cell(t, "%.0f", r->util_pct);
        reading_cell(t, "%.1f", r->power_w);
        reading_cell(t, "%.0f", r->clock_mhz);
        reading_cell(t, "%.0f", r->mem_used_mib);
        table_cell(t, "%.0f", export_gpu_mem_total_mib(n, r->gpu, v->cat));
    }
    return t;
}

/* "snapshot 'lab' of cluster 'lab' at t = 0 s: 4 task(s) on 4 of 5 GPUs
 * (2.2 GPUs idle, FGD fragmentation 1.1 GPUs for tasks like its own)": FGD
 * measures it against the snapshot's own tasks as the workload to come. */
static void snapshot_header(const cli_snapview *v, FILE *out)
{
    char *name = text_printable(v->sn->name), *cl = text_printable(v->cl->name);
    fprintf(out, "snapshot '%s' of cluster '%s' at t = %g s: %zu task(s)", name, cl,
            v->sn->time_s, v->sn->tasks->ntasks);
    if (isnan(v->look.frag_milli))
        fputs(" (fragmentation not measured: the cluster lacks a profile)\n", out);
    else
        fprintf(out, " on %d of %d GPUs (%.1f GPUs idle, FGD fragmentation %.1f GPUs for "
                "tasks like its own)\n",
                v->look.busy_gpus, v->look.gpus, v->look.idle_milli / 1000.0,
                v->look.frag_milli / 1000.0);
    free(name);
    free(cl);
}

/* The placements and, when monitors read the GPUs, their readings: in
 * text under a header line with the state's fragmentation, in CSV as a
 * second table after an empty line, in JSON as export's document. */
static int show_snapshot(const cli_ctx *ctx, store *st, const char *name, gp_err *err)
{
    cli_snapview v;
    if (cli_snapview_load(st, name, &v, err))
        return -1;
    int rc = 0;
    if (ctx->format == FMT_JSON) {
        rc = export_snapshot_json(v.sn, v.cl, v.cat, v.look.frag_milli, ctx->out, err);
    } else {
        table *pl = snapshot_placements(&v), *rd = snapshot_readings(&v);
        if (ctx->format == FMT_TABLE)
            snapshot_header(&v, ctx->out);
        table_print(pl, ctx->format, ctx->out, "(no task running)");
        if (table_rows(rd)) {
            fputs(ctx->format == FMT_TABLE ? "\nGPU readings:\n" : "\n", ctx->out);
            table_print(rd, ctx->format, ctx->out, NULL);
        }
        table_free(pl);
        table_free(rd);
    }
    cli_snapview_free(&v);
    return rc;
}

static table *show_run(store *st, const char *id_text, gp_err *err)
{
    int64_t id;
    run *r;
    if (parse_int64(id_text, &id)) {
        gp_error(err, "runs are named by id; '%s' is not a number", id_text);
        return NULL;
    }
    if (store_get_run(st, id, &r, err))
        return NULL;
    table *t = table_new();
    table_col(t, "key", 0);
    table_col(t, "value", 0);
    const char *hdr[][2] = {{"policy", r->policy}, {"trace", r->trace_name},
                            {"cluster", r->cluster_name}, {"options", r->options},
                            {"power_model", r->power_model},
                            {"engine_version", r->engine_version}, {"created", r->created}};
    for (size_t i = 0; i < sizeof hdr / sizeof *hdr; i++) {
        table_row(t);
        table_cell(t, "%s", hdr[i][0]);
        table_cell(t, "%s", hdr[i][1] ? hdr[i][1] : "");
    }
    table_row(t);
    table_cell(t, "seed");
    table_cell(t, "%llu", (unsigned long long)r->seed);
    for (size_t i = 0; i < r->nmetrics; i++) {
        table_row(t);
        table_cell(t, "%s", r->metrics[i].key);
        table_cell(t, "%.10g", r->metrics[i].value);
    }
    run_free(r);
    return t;
}

/* The co-location rows each workload of ps takes part in, by group size:
 * rows[(n - 2) * nwl + w]. */
static size_t *rows_per_workload(const peace_set *ps)
{
    size_t *rows = xcalloc(2 * ps->nwl, sizeof *rows);
    for (size_t i = 0; i < ps->nco; i++) {
        const peace_coloc *c = &ps->co[i];
        for (int k = 0; k < c->n; k++) {
            int again = 0;
            for (int j = 0; j < k; j++)
                again |= c->workload[j] == c->workload[k];
            if (!again)
                rows[(size_t)(c->n - 2) * ps->nwl + (size_t)c->workload[k]]++;
        }
    }
    return rows;
}

/* The set's summary line: clocks, groups and rows per group size, models. */
static void peace_summary(store *st, const peace_set *ps, const peace_index *ix, strbuf *note)
{
    char *name = text_printable(ps->name), *gpu = text_printable(ps->gpu);
    strbuf_printf(note, "PEACE set '%s' on %s, caps %g-%g W; %zu profile rows at", name, gpu,
                  ps->cap_min_w, ps->cap_max_w, ps->nprof);
    free(name);
    free(gpu);
    for (int fi = 0; fi < peace_nfreqs(ix); fi++)
        strbuf_printf(note, "%s %g", fi ? "," : "", peace_freq(ix, fi));
    strbuf_puts(note, " MHz; co-location rows:");
    for (int n = 2; n <= PEACE_MAX_COLOC; n++) {
        size_t rows = 0;
        for (size_t i = 0; i < ps->nco; i++)
            rows += ps->co[i].n == n;
        size_t groups = peace_groups(ix, n, NULL, 0);
        strbuf_printf(note, "%s %zu of %d workloads (%zu group%s)", n > 2 ? "," : "", rows, n,
                      groups, groups == 1 ? "" : "s");
    }
    store_peace_model *models;
    size_t nmodels;
    gp_err err = {{0}};
    if (store_list_peace_models(st, ps->name, &models, &nmodels, &err) == 0) {
        strbuf_printf(note, "; %zu trained model%s", nmodels, nmodels == 1 ? "" : "s");
        store_peace_models_free(models, nmodels);
    }
    strbuf_puts(note, "\n");
}

static table *show_peace(store *st, const char *name, strbuf *note, gp_err *err)
{
    peace_set *ps;
    if (store_get_peace_set(st, name, &ps, err))
        return NULL;
    peace_index *ix = peace_index_new(ps, err);
    if (!ix) {
        peace_set_free(ps);
        return NULL;
    }
    table *t = table_new();
    const char *cols[] = {"workload", "kind", "compute", "memory", "mem_gib"};
    for (int i = 0; i < 5; i++)
        table_col(t, cols[i], i == 4);
    for (int fi = 0; fi < peace_nfreqs(ix); fi++) {
        char col[40];
        snprintf(col, sizeof col, "sens_%g_mhz", peace_freq(ix, fi));
        table_col(t, col, 1);
    }
    table_col(t, "pair_rows", 1);
    table_col(t, "triple_rows", 1);
    size_t *rows = rows_per_workload(ps);
    for (size_t w = 0; w < ps->nwl; w++) {
        const peace_workload *wl = &ps->wl[w];
        table_row(t);
        table_cell(t, "%s", wl->name);
        table_cell(t, "%s", peace_kind_name(wl->kind));
        table_cell(t, "%s", wl->compute_hi ? "hi" : "lo");
        table_cell(t, "%s", wl->memory_hi ? "hi" : "lo");
        table_cell(t, "%g", wl->mem_gib);
        for (int fi = 0; fi < peace_nfreqs(ix); fi++)
            table_cell(t, "%.4g", peace_sensitivity(ix, (int)w, fi));
        table_cell(t, "%zu", rows[w]);
        table_cell(t, "%zu", rows[ps->nwl + w]);
    }
    peace_summary(st, ps, ix, note);
    free(rows);
    peace_index_free(ix);
    peace_set_free(ps);
    return t;
}

static int show_exec(cli_ctx *ctx, int argc, char **argv)
{
    cli_args rest = CLI_ARGS(2, 2, "KIND and NAME");
    int code, kind;
    if (cli_parse(ctx, &cmd_show, NULL, argc, argv, &rest, &code) ||
        (code = cli_kind_arg(&cmd_show, rest.argv[0], &kind)))
        return code;
    const char *name = rest.argv[1];
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    table *t = NULL;
    catalog *cat = NULL;
    strbuf note = STRBUF_INIT;      /* a line under the table (text format only) */
    switch ((store_kind)kind) {
    case STORE_GPU:
    case STORE_CPU:
        if (store_load_catalog(st, &cat, &err) == 0)
            t = kind == STORE_GPU ? show_gpu(cat, name, &err) : show_cpu(cat, name, &err);
        catalog_free(cat);
        break;
    case STORE_CLUSTER: t = show_cluster(st, name, &err); break;
    case STORE_TRACE: t = show_trace(st, name, &err); break;
    case STORE_TPUT: t = show_tput(st, name, &err); break;
    case STORE_SNAPSHOT:
        return show_snapshot(ctx, st, name, &err) ? cli_fail(&err) : EXIT_OK;
    case STORE_RUN: t = show_run(st, name, &err); break;
    case STORE_PEACE: t = show_peace(st, name, &note, &err); break;
    case STORE_KIND_COUNT: break;
    }
    if (!t) {
        strbuf_free(&note);
        return cli_fail(&err);
    }
    table_print(t, ctx->format, ctx->out, "(empty)");
    if (ctx->format == FMT_TABLE)
        fputs(strbuf_str(&note), ctx->out);
    strbuf_free(&note);
    table_free(t);
    return EXIT_OK;
}
