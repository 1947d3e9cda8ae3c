/*
 * cmd_merge.c — `gpuplan merge SHARD.db... --into DB`: puts the runs of a
 * sweep run in shards (`gpuplan sweep --shard I/N`, see `gpuplan jobs`),
 * or the points of a plan run so (`gpuplan plan --shard I/N`), back into
 * one database.  Runs the target already has are skipped, so a
 * merge repeated, or of a shard merged before, changes nothing; shards of
 * different sweeps are refused.
 *
 * Not here: the SQL (db/store_merge.c).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "db/store_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int merge_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_merge = {
    .name = "merge",
    .usage = "SHARD.db... [--into DB]",
    .summary = "Combine the databases of a sweep's or a plan's shards into one",
    .notes = "Copies every run of a sweep (or point of a plan) that a shard holds and the "
             "target lacks; the target must hold the traces and clusters the runs name (shards "
             "made from copies of it do). Merging again changes nothing. After a plan's merge, "
             "the same `gpuplan plan` command on the target prints the whole plan without "
             "simulating again.",
    .exec = merge_exec,
};

static void print_report(cli_ctx *ctx, const store_merge_report *rep, size_t nshards)
{
    int plan = strcmp(rep->kind, "plan") == 0;
    fprintf(ctx->out, "merged %zu %s from %zu shard(s) into %s (%zu already there)\n",
            rep->added, plan ? "plan point(s)" : "run(s)", nshards, ctx->db_path, rep->present);
    if (!rep->fingerprint[0])
        return;
    fprintf(ctx->out, "%s %s: %s\n", plan ? "plan" : "sweep", rep->fingerprint, rep->what);
    fprintf(ctx->out, "jobs held: %lld of %lld%s\n", (long long)rep->jobs_held,
            (long long)rep->njobs, rep->jobs_held < rep->njobs ? " (shards missing)" : "");
}

static int merge_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *into = NULL;
    const cli_opt opts[] = {
        OPT_STRING("into", 0, "DB", &into, "the database to merge into",
                   .def = "the global --db"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, -1, "the shards' databases");
    int code;
    if (cli_parse(ctx, &cmd_merge, opts, argc, argv, &rest, &code))
        return code;
    if (into) {
        free(ctx->db_path);
        ctx->db_path = xstrdup(into);
    }
    for (int i = 0; i < rest.argc; i++)
        if (strcmp(rest.argv[i], ctx->db_path) == 0)
            return cli_usage_error(&cmd_merge, "'%s' is the target itself", rest.argv[i]);
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    store_merge_report rep;
    gp_err err = {{0}};
    if (store_merge(st, (const char *const *)rest.argv, (size_t)rest.argc, &rep, &err))
        return cli_fail(&err);
    print_report(ctx, &rep, (size_t)rest.argc);
    return EXIT_OK;
}
