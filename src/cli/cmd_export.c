/*
 * cmd_export.c — `gpuplan export KIND NAME`: a cluster, trace, throughput
 * catalog, snapshot or run as the native CSV set (a directory), a PEACE set
 * as its own CSV set (import_peace.c), or either as JSON.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_whatif.h"
#include "io/export.h"
#include "io/export_file.h"
#include "peace/peace.h"

#include <stdlib.h>
#include <string.h>

static int export_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_export = {
    .name = "export",
    .usage = "cluster|trace|tput|snapshot|run|peace NAME|ID [--out PATH] [--format csv|json]",
    .summary = "Export a cluster, trace, throughput table, snapshot, run or PEACE set",
    .notes = "KIND is cluster, trace, tput (a throughput table), snapshot, run (by id) or "
             "peace (a PEACE set). With --format table (the default) the export is csv when --out is given and "
             "json on stdout otherwise.",
    .exec = export_exec,
};

/* Exports one entity; json goes to out, csv into dir. */
/* The cluster run r ran on, when it is still in the database (*out NULL
 * when it was deleted since). */
static int run_cluster_load(store *st, const run *r, cluster **out, gp_err *err)
{
    store_item *items;
    size_t n;
    *out = NULL;
    if (store_list(st, STORE_CLUSTER, &items, &n, err))
        return -1;
    int there = 0;
    for (size_t i = 0; i < n && !there; i++)
        there = strcmp(items[i].name, r->cluster_name) == 0;
    free(items);
    return there ? store_get_cluster(st, r->cluster_name, out, err) : 0;
}

static int export_one(store *st, int kind, const char *name, int json, FILE *out,
                      const char *dir, gp_err *err)
{
    int rc = -1;
    if (kind == STORE_CLUSTER) {
        cluster *c;
        catalog *cat;
        if (store_get_cluster(st, name, &c, err))
            return -1;
        if (store_load_catalog(st, &cat, err) == 0) {
            rc = json ? export_cluster_json(c, cat, out, err)
                      : export_cluster_csv(c, cat, dir, err);
            catalog_free(cat);
        }
        cluster_free(c);
    } else if (kind == STORE_TRACE) {
        gp_trace *t;
        if (store_get_trace(st, name, &t, err))
            return -1;
        rc = json ? export_trace_json(t, out, err) : export_trace_csv(t, dir, err);
        trace_free(t);
    } else if (kind == STORE_TPUT) {
        tput_catalog *c;
        if (store_get_tput_catalog(st, name, &c, err))
            return -1;
        rc = json ? export_tput_json(c, out, err) : export_tput_csv(c, dir, err);
        tput_catalog_free(c);
    } else if (kind == STORE_SNAPSHOT) {
        cli_snapview v;
        if (cli_snapview_load(st, name, &v, err))
            return -1;
        rc = json ? export_snapshot_json(v.sn, v.cl, v.cat, v.look.frag_milli, out, err)
                  : export_snapshot_csv(v.sn, v.cl, v.cat, dir, err);
        cli_snapview_free(&v);
    } else if (kind == STORE_RUN) {
        int64_t id;
        run *r;
        if (parse_int64(name, &id))
            return gp_error(err, "runs are named by id; '%s' is not a number", name);
        if (store_get_run(st, id, &r, err))
            return -1;
        cluster *c = NULL;
        if (run_cluster_load(st, r, &c, err)) {
            run_free(r);
            return -1;
        }
        rc = json ? export_run_json(r, c, out, err) : export_run_csv(r, c, dir, err);
        if (rc == 0 && !c)
            fprintf(stderr, "gpuplan: cluster '%s' of run %lld is no longer in the database: "
                    "nodes are written by number (node_index)\n", r->cluster_name,
                    (long long)r->id);
        cluster_free(c);
        run_free(r);
    } else if (kind == STORE_PEACE) {
        peace_set *ps;
        catalog *cat;
        if (store_get_peace_set(st, name, &ps, err))
            return -1;
        if (store_load_catalog(st, &cat, err) == 0) {
            rc = json ? export_peace_json(ps, out, err) : export_peace_csv(ps, cat, dir, err);
            catalog_free(cat);
        }
        peace_set_free(ps);
    } else {
        rc = gp_error(err, "profiles are exported with their clusters "
                      "(gpuplan export cluster NAME)");
    }
    return rc;
}

static int export_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *outp = NULL;
    const cli_opt opts[] = {
        OPT_STRING("out", 'o', "PATH", &outp, "csv: the directory to write the native CSV "
                   "set into (needed); json: the file", .def = "stdout, for json"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(2, 2, "KIND and NAME");
    int code, kind;
    if (cli_parse(ctx, &cmd_export, opts, argc, argv, &rest, &code) ||
        (code = cli_kind_arg(&cmd_export, rest.argv[0], &kind)))
        return code;
    int json = ctx->format == FMT_JSON || (ctx->format == FMT_TABLE && !outp);
    if (!json && !outp)
        return cli_usage_error(&cmd_export, "csv export needs --out DIR");
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    FILE *out = ctx->out;
    if (json && outp && !(out = out_file_open(outp, &err)))
        return cli_fail(&err);
    int rc = export_one(st, kind, rest.argv[1], json, out, outp, &err);
    if (json && outp) {
        if (rc)
            out_file_discard(out, outp);
        else
            rc = out_file_close(out, outp, &err);
    } else if (json && rc == 0) {
        rc = out_stream_check(out, "stdout", &err);
    }
    return rc ? cli_fail(&err) : EXIT_OK;
}
