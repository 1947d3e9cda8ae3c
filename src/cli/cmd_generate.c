/*
 * cmd_generate.c — `gpuplan generate trace|cluster`: a Gavel-style job
 * trace over a stored throughput table, or a cluster of given GPU models
 * and counts, stored for run, plan and the dashboard (gen_trace.h).
 *
 * Not here: the generators (src/samples/gen_trace.c).
 */
#include "cli.h"
#include "cli_opt.h"
#include "samples/gen_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int generate_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_generate = {
    .name = "generate",
    .usage = "trace|cluster [OPTIONS]",
    .summary = "Generate a Gavel-style trace over a throughput table, or a cluster",
    .notes = "'gpuplan generate trace --help' and 'gpuplan generate cluster --help' "
             "describe each.",
    .exec = generate_exec,
};

static const cli_cmd cmd_generate_trace = {
    .name = "generate trace",
    .usage = "--tput NAME [--jobs N] [--rate R] [OPTIONS]",
    .summary = "Draw jobs over a throughput table as Gavel's simulator does and store them",
    .notes = "Job types uniform among the table's scale-1 types measured on every "
             "accelerator; durations 10^x minutes on a V100, x ~ U[1.5, 3] for 80 % of jobs "
             "and U[3, 4] for the rest; Poisson arrivals.  GPU memory per job is assumed "
             "per model family and batch size (the table has none).",
};

static const cli_cmd cmd_generate_cluster = {
    .name = "generate cluster",
    .usage = "--gpus MODEL:COUNT[,MODEL:COUNT...] --name NAME [OPTIONS]",
    .summary = "Store a cluster of servers of the given GPU models and counts",
};

/* Stores what was generated (the store takes a cluster or a trace). */
static int store_it(cli_ctx *ctx, cluster *cl, gp_trace *tr, int replace)
{
    store *st = cli_store(ctx);
    gp_err err = {{0}};
    if (!st)
        return EXIT_RUNTIME;
    int rc = cl ? store_put_cluster(st, cl, replace, &err)
                : store_put_trace(st, tr, replace, &err);
    return rc ? cli_fail(&err) : EXIT_OK;
}

static int gen_trace_exec(cli_ctx *ctx, int argc, char **argv)
{
    gen_gavel_params p;
    gen_gavel_params_default(&p);
    const char *tput = NULL, *name = NULL;
    int jobs = (int)p.jobs, replace = 0, code;
    const cli_opt opts[] = {
        OPT_STRING("tput", 0, "NAME", &tput, "throughput table to draw job types from",
                   .required = 1),
        OPT_INT("jobs", 0, "N", &jobs, 1, 1000000, "jobs", .def = "60"),
        OPT_DOUBLE("rate", 0, "R", &p.jobs_per_hour, 0, 1e6,
                   "arrivals per hour (Poisson); 0 = all at once", .def = "1"),
        OPT_DOUBLE("min-frac", 0, "F", &p.min_frac, 0, 1,
                   "each job's minimum throughput: this share of its best solo one in the "
                   "table", .def = "none (the policy's)"),
        OPT_CALLBACK("seed", 0, "N", &p.seed, cli_parse_seed, "random seed", .def = "42"),
        OPT_NAME("name", 'n', "NAME", &name, "name of the trace",
                 .def = "TABLE-JOBS, e.g. gavel-60"),
        OPT_FLAG("replace", 'r', &replace, "replace a trace of that name"),
        OPT_END(),
    };
    if (cli_parse(ctx, &cmd_generate_trace, opts, argc, argv, NULL, &code))
        return code;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    tput_catalog *tp = NULL;
    if (store_get_tput_catalog(st, tput, &tp, &err))
        return cli_fail(&err);
    p.jobs = (size_t)jobs;
    char def[GP_NAME_MAX];
    snprintf(def, sizeof def, "%s-%d", tput, jobs);
    gp_trace *tr = gen_gavel_trace(name ? name : def, tp, &p, &err);
    tput_catalog_free(tp);
    if (!tr)
        return cli_fail(&err);
    int rc = store_it(ctx, NULL, tr, replace);
    if (rc == EXIT_OK)
        fprintf(ctx->out, "generated trace '%s': %zu jobs over table '%s', the last arriving "
                "at %.1f h\n", tr->name, tr->ntasks, tput,
                tr->ntasks ? tr->tasks[tr->ntasks - 1].arrival_s / 3600 : 0);
    trace_free(tr);
    return rc;
}

static int gen_cluster_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *gpus = NULL, *name = NULL;
    int per_node = 4, replace = 0, code;
    const cli_opt opts[] = {
        OPT_STRING("gpus", 0, "LIST", &gpus, "GPU models and counts, e.g. K80:4,V100M16:8",
                   .required = 1),
        OPT_NAME("name", 'n', "NAME", &name, "name of the cluster", .required = 1),
        OPT_INT("per-node", 0, "N", &per_node, 1, GP_NODE_MAX_GPUS, "GPUs per server",
                .def = "4"),
        OPT_FLAG("replace", 'r', &replace, "replace a cluster of that name"),
        OPT_END(),
    };
    if (cli_parse(ctx, &cmd_generate_cluster, opts, argc, argv, NULL, &code))
        return code;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    catalog *cat = NULL;
    if (store_load_catalog(st, &cat, &err))
        return cli_fail(&err);
    cluster *cl = gen_cluster(name, gpus, per_node, cat, &err);
    catalog_free(cat);
    if (!cl)
        return cli_usage_error(&cmd_generate_cluster, "--gpus: %s", err.msg);
    int rc = store_it(ctx, cl, NULL, replace);
    if (rc == EXIT_OK)
        fprintf(ctx->out, "generated cluster '%s': %zu servers, %lld GPUs\n", cl->name,
                cl->nnodes, (long long)cluster_gpu_total(cl));
    cluster_free(cl);
    return rc;
}

static int generate_exec(cli_ctx *ctx, int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "trace") == 0)
        return gen_trace_exec(ctx, argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "cluster") == 0)
        return gen_cluster_exec(ctx, argc - 1, argv + 1);
    const cli_opt opts[] = {OPT_END()};
    cli_args rest = CLI_ARGS(0, -1, NULL);
    int code;
    if (cli_parse(ctx, &cmd_generate, opts, argc, argv, &rest, &code))
        return code;
    if (rest.argc == 0)
        return cli_usage_error(&cmd_generate, "expected a subcommand: trace or cluster");
    return cli_usage_error(&cmd_generate, "unknown subcommand '%s' (expected trace or "
                           "cluster)", rest.argv[0]);
}
