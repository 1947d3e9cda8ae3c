/*
 * cmd_delete.c — `gpuplan delete KIND NAME|ID`: remove an entity (and, by
 * the schema's cascades, what belongs to it: a cluster's nodes and runs, a
 * trace's tasks and runs).
 */
#include "cli.h"

#include <getopt.h>

static int delete_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_delete = {
    .name = "delete",
    .usage = "KIND NAME|ID...",
    .summary = "Delete profiles, clusters, traces, catalogs, snapshots or runs",
    .help = "  Deleting a cluster or trace also deletes the runs made on it.  A profile\n"
            "  still used by a node is not deleted.\n",
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
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int code, h = cli_common_opt(ctx, &cmd_delete, c, optarg, &code);
        if (h < 0)
            return code;
    }
    if (argc - optind < 2)
        return cli_usage_error(&cmd_delete, "expected KIND and at least one NAME");
    int kind = store_kind_parse(argv[optind]);
    if (kind < 0)
        return cli_usage_error(&cmd_delete, "unknown kind '%s'", argv[optind]);
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    /* All named entities go, or none. */
    if (store_begin(st, &err))
        return cli_fail(&err);
    for (int i = optind + 1; i < argc; i++) {
        if (delete_one(st, kind, argv[i], &err)) {
            store_rollback(st);
            return cli_fail(&err);
        }
    }
    if (store_commit(st, &err))
        return cli_fail(&err);
    return EXIT_OK;
}
