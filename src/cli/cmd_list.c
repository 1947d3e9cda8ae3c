/*
 * cmd_list.c — `gpuplan list [KIND...]`: what the database holds.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>

static int list_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_list = {
    .name = "list",
    .usage = "[KIND...]",
    .summary = "List what the database holds",
    .notes = "KIND is gpu, cpu, cluster, trace, tput, snapshot, run or peace (plurals work); "
             "with none, every kind is listed.",
    .exec = list_exec,
};

/* What the two counts mean for each kind, for the column headers. */
static const char *const count_names[STORE_KIND_COUNT][2] = {
    [STORE_GPU] = {"", ""}, [STORE_CPU] = {"", ""},
    [STORE_CLUSTER] = {"nodes", "gpus"}, [STORE_TRACE] = {"tasks", "series"},
    [STORE_TPUT] = {"entries", "accels"}, [STORE_SNAPSHOT] = {"tasks", ""},
    [STORE_RUN] = {"tasks", "decisions"}, [STORE_PEACE] = {"workloads", "profile rows"},
};

/* The detail column; in a text table the counts are spelled out in it. */
static void detail_cell(table *t, const store_item *it, const char *const *cn, int spell)
{
    if (!spell || !cn[0][0]) {
        table_cell(t, "%s", it->detail);
        return;
    }
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "%lld %s", (long long)it->count, cn[0]);
    if (cn[1][0])
        strbuf_printf(&b, ", %lld %s", (long long)it->count2, cn[1]);
    if (it->detail[0])
        strbuf_printf(&b, "; %s", it->detail);
    table_cell(t, "%s", strbuf_str(&b));
    strbuf_free(&b);
}

static int list_kinds(cli_ctx *ctx, store *st, const int *kinds, size_t nkinds)
{
    table *t = table_new();
    table_col(t, "kind", 0);
    table_col(t, "id", 1);
    table_col(t, "name", 0);
    table_col(t, "count", 1);
    table_col(t, "count2", 1);
    table_col(t, "detail", 0);
    table_col(t, "created", 0);
    for (size_t k = 0; k < nkinds; k++) {
        store_item *items;
        size_t n;
        gp_err err = {{0}};
        if (store_list(st, (store_kind)kinds[k], &items, &n, &err)) {
            table_free(t);
            return cli_fail(&err);
        }
        for (size_t i = 0; i < n; i++) {
            const char *const *cn = count_names[kinds[k]];
            table_row(t);
            table_cell(t, "%s", store_kind_name((store_kind)kinds[k]));
            table_cell(t, "%lld", (long long)items[i].id);
            table_cell(t, "%s", items[i].name);
            if (cn[0][0])
                table_cell(t, "%lld", (long long)items[i].count);
            else
                table_cell(t, "%s", "");
            if (cn[1][0])
                table_cell(t, "%lld", (long long)items[i].count2);
            else
                table_cell(t, "%s", "");
            detail_cell(t, &items[i], cn, ctx->format == FMT_TABLE);
            table_cell(t, "%s", items[i].created);
        }
        free(items);
    }
    table_print(t, ctx->format, ctx->out, "(nothing stored)");
    table_free(t);
    return EXIT_OK;
}

static int list_exec(cli_ctx *ctx, int argc, char **argv)
{
    cli_args rest = CLI_ARGS(0, -1, NULL);
    int code, kinds[STORE_KIND_COUNT];
    size_t n = 0;
    if (cli_parse(ctx, &cmd_list, NULL, argc, argv, &rest, &code))
        return code;
    for (int i = 0; i < rest.argc; i++) {
        int k;
        if (cli_kind_arg(&cmd_list, rest.argv[i], &k))
            return EXIT_USAGE;
        if (n < STORE_KIND_COUNT)
            kinds[n++] = k;
    }
    if (n == 0)
        for (int k = 0; k < STORE_KIND_COUNT; k++)
            kinds[n++] = k;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    return list_kinds(ctx, st, kinds, n);
}
