/*
 * cmd_delete.c — `gpuplan delete KIND NAME|ID`: remove an entity (and, by
 * the schema's cascades, what belongs to it: a cluster's nodes and runs, a
 * trace's tasks and runs, a PEACE set's rows and models).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"

static int delete_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_delete = {
    .name = "delete",
    .usage = "KIND NAME|ID...",
    .summary = "Delete profiles, clusters, traces, catalogs, snapshots, runs or PEACE sets",
    .notes = "Deleting a cluster or trace also deletes the runs made on it, a PEACE set its "
             "trained models. A profile still used by a node or a PEACE set is not deleted.",
    .exec = delete_exec,
};

static int delete_one(store *st, int kind, const char *name, gp_err *err)
{
    int64_t id;
    switch ((store_kind)kind) {
    case STORE_GPU: return store_delete_gpu_profile(st, name, err);
    case STORE_CPU: return store_delete_cpu_profile(st, name, err);
    case STORE_CLUSTER: return store_delete_cluster(st, name, err);
    case STORE_TRACE: return store_delete_trace(st, name, err);
    case STORE_TPUT: return store_delete_tput_catalog(st, name, err);
    case STORE_SNAPSHOT: return store_delete_snapshot(st, name, err);
    case STORE_PEACE: return store_delete_peace_set(st, name, err);
    case STORE_RUN:
        if (parse_int64(name, &id))
            return gp_error(err, "runs are named by id; '%s' is not a number", name);
        return store_delete_run(st, id, err);
    case STORE_KIND_COUNT: break;
    }
    return gp_error(err, "cannot delete that");
}

static int delete_exec(cli_ctx *ctx, int argc, char **argv)
{
    cli_args rest = CLI_ARGS(2, -1, "KIND and at least one NAME");
    int code, kind;
    if (cli_parse(ctx, &cmd_delete, NULL, argc, argv, &rest, &code) ||
        (code = cli_kind_arg(&cmd_delete, rest.argv[0], &kind)))
        return code;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    /* All named entities go, or none. */
    if (store_begin(st, &err))
        return cli_fail(&err);
    for (int i = 1; i < rest.argc; i++) {
        if (delete_one(st, kind, rest.argv[i], &err)) {
            store_rollback(st);
            return cli_fail(&err);
        }
    }
    if (store_commit(st, &err))
        return cli_fail(&err);
    return EXIT_OK;
}
