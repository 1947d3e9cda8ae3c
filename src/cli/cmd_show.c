/*
 * cmd_show.c — `gpuplan show KIND NAME`: one entity in detail (a profile's
 * values, a cluster's nodes, a trace's tasks, a catalog's entries, a
 * snapshot's placements, a run's metrics).
 */
#include "cli.h"
#include "cli_opt.h"

#include <stdlib.h>
#include <string.h>

static int show_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_show = {
    .name = "show",
    .usage = "KIND NAME|ID",
    .summary = "Show one profile, cluster, trace, catalog, snapshot or run",
    .notes = "KIND is gpu, cpu, cluster, trace, tput, snapshot or run; runs are named by id "
             "(see 'gpuplan list runs').",
    .exec = show_exec,
};

static table *show_gpu(const catalog *cat, const char *name, gp_err *err)
{
    const gpu_profile *g = catalog_gpu(cat, name);
    if (!g) {
        gp_error(err, "no GPU profile named '%s'", name);
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
                        g->f_max_mhz, g->alpha_w_per_mhz, g->beta, g->price_usd};
    for (int i = 0; i < 9; i++)
        table_cell(t, "%g", v[i]);
    table_cell(t, "%s", g->tput_class);
    return t;
}

static table *show_cpu(const catalog *cat, const char *name, gp_err *err)
{
    const cpu_profile *p = catalog_cpu(cat, name);
    if (!p) {
        gp_error(err, "no CPU profile named '%s'", name);
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

static table *show_snapshot(store *st, const char *name, gp_err *err)
{
    snapshot *sn;
    if (store_get_snapshot(st, name, &sn, err))
        return NULL;
    table *t = table_new();
    table_col(t, "task", 0);
    table_col(t, "node", 1);
    table_col(t, "gpu", 1);
    table_col(t, "gpu_milli", 1);
    for (size_t i = 0; i < sn->nrows; i++) {
        const placement_row *r = &sn->rows[i];
        table_row(t);
        table_cell(t, "%s", r->task >= 0 && (size_t)r->task < sn->tasks->ntasks
                                ? sn->tasks->tasks[r->task].name : "?");
        table_cell(t, "%d", r->node);
        table_cell(t, "%d", r->gpu);
        table_cell(t, "%d", r->gpu_milli);
    }
    snapshot_free(sn);
    return t;
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
    case STORE_SNAPSHOT: t = show_snapshot(st, name, &err); break;
    case STORE_RUN: t = show_run(st, name, &err); break;
    case STORE_KIND_COUNT: break;
    }
    if (!t)
        return cli_fail(&err);
    table_print(t, ctx->format, ctx->out, "(empty)");
    table_free(t);
    return EXIT_OK;
}
