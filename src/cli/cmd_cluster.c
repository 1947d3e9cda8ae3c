/*
 * cmd_cluster.c — `gpuplan cluster create NAME --gpu H100 --servers 24
 * --per-server 8 ...`: a cluster made from a few words (core/clspec.h)
 * instead of a hand-written CSV set.  Not here: the words' meaning
 * (clspec.c, shared with the dashboard's Data screen) and storing (db/).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/clspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cluster_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_cluster = {
    .name = "cluster",
    .usage = "create " CLSPEC_USAGE " [--replace]",
    .summary = "Make a cluster of identical servers, one group per --gpu",
    .notes = "Each --gpu MODEL starts a group of servers; --servers (default 1), --per-server "
             "(GPUs per server, default 8, at most 16), --cpus (vCPUs, default 128), --ram-gib "
             "(default 1024) and --cpu (a CPU profile) after it describe that group's "
             "servers. Servers are named MODEL-NN. The same words make a cluster from the "
             "dashboard (Data, c).",
    .exec = cluster_exec,
};

/* The options as --help lists them (the parsing is clspec's: options
 * belong to the --gpu before them, which a flat option table cannot say). */
static void help(FILE *out)
{
    const char *s = NULL;
    int i = 0, flag = 0;
    const cli_opt opts[] = {
        OPT_STRING("gpu", 0, "MODEL", &s, "starts a group of servers with GPUs of this profile"),
        OPT_INT("servers", 0, "N", &i, 1, CLSPEC_MAX_SERVERS, "servers in the group",
                .def = "1"),
        OPT_INT("per-server", 0, "N", &i, 1, GP_NODE_MAX_GPUS, "GPUs per server", .def = "8"),
        OPT_INT("cpus", 0, "N", &i, 1, 1 << 20, "vCPUs per server", .def = "128"),
        OPT_INT("ram-gib", 0, "N", &i, 1, 1 << 24, "RAM per server in GiB", .def = "1024"),
        OPT_STRING("cpu", 0, "MODEL", &s, "CPU profile of the group's servers", .def = "none"),
        OPT_FLAG("replace", 0, &flag, "replace a cluster of that name"),
        OPT_END(),
    };
    cli_help(&cmd_cluster, opts, out);
}

/* Takes the common options (--db, --format, --help) and --replace out of
 * argv, leaving the spec's words in words[]; 1 after --help, -1 on error. */
static int take_common(cli_ctx *ctx, int argc, char **argv, char **words, int *nwords,
                       int *replace)
{
    gp_err err = {{0}};
    *nwords = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int is_db = strcmp(a, "--db") == 0, is_fmt = strcmp(a, "--format") == 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return 1;
        if (strcmp(a, "--replace") == 0) {
            *replace = 1;
        } else if (is_db || is_fmt || !strncmp(a, "--db=", 5) || !strncmp(a, "--format=", 9)) {
            const char *v = strchr(a, '=') ? strchr(a, '=') + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v)
                return cli_usage_error(&cmd_cluster, "%s: missing its value", a), -1;
            if ((a[2] == 'd' ? cli_parse_db(&ctx->db_path, v, &err)
                             : cli_parse_format(&ctx->format, v, &err)))
                return cli_usage_error(&cmd_cluster, "%.8s: %s", a, err.msg), -1;
        } else {
            words[(*nwords)++] = argv[i];
        }
    }
    return 0;
}

static int create(cli_ctx *ctx, const clspec *sp, int replace)
{
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    catalog *cat = NULL;
    cluster *cl = NULL;
    int rc = EXIT_RUNTIME;
    if (store_load_catalog(st, &cat, &err) || !(cl = clspec_build(sp, cat, &err)))
        goto out;
    cl->source = xstrdup("gpuplan cluster create");
    if (store_put_cluster(st, cl, replace, &err))
        goto out;
    fprintf(ctx->out, "cluster '%s': %zu servers, %lld GPUs\n", cl->name, cl->nnodes,
            (long long)cluster_gpu_total(cl));
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        cli_fail(&err);
    cluster_free(cl);
    catalog_free(cat);
    return rc;
}

static int cluster_exec(cli_ctx *ctx, int argc, char **argv)
{
    char **words = xcalloc((size_t)argc + 1, sizeof *words);
    int nwords = 0, replace = 0, rc;
    int t = take_common(ctx, argc - 1, argv + 1, words, &nwords, &replace);
    if (t != 0) {
        if (t > 0)
            help(stdout);
        free(words);
        return t > 0 ? EXIT_OK : EXIT_USAGE;
    }
    clspec sp;
    gp_err err = {{0}};
    if (nwords == 0 || strcmp(words[0], "create") != 0)
        rc = cli_usage_error(&cmd_cluster, nwords ? "unknown action '%s' (expected create)"
                                                  : "expected: create NAME --gpu MODEL ...%s",
                             nwords ? words[0] : "");
    else if (clspec_parse(nwords - 1, words + 1, &sp, &err))
        rc = cli_usage_error(&cmd_cluster, "%s", err.msg);
    else
        rc = create(ctx, &sp, replace);
    free(words);
    return rc;
}
