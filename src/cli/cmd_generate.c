/*
 * cmd_generate.c — `gpuplan generate trace|cluster`: a Gavel-style job
 * trace over a stored throughput table, or a cluster of given GPU models
 * and counts, stored for run, plan and the dashboard (gen_trace.h).
 *
 * Not here: the generators (src/samples/gen_trace.c).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_progress.h"
#include "io/export.h"
#include "io/export_file.h"
#include "io/export_set.h"
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
    .usage = "--tput NAME [--jobs N] [--rate R] [--series MIN-MAX] [--out DIR] [OPTIONS]",
    .summary = "Draw jobs over a throughput table as Gavel's simulator does and store them",
    .notes = "Job types uniform among the table's scale-1 types measured on every "
             "accelerator; durations 10^x minutes on a V100, x ~ U[1.5, 3] for 80 % of jobs "
             "and U[3, 4] for the rest; Poisson arrivals.  GPU memory per job is assumed "
             "per model family and batch size (the table has none).  --series attaches "
             "to each job a utilization series (a warm-up, a steady level, a periodic dip, "
             "noise; our assumption) whose samples span its run; --out writes the trace as "
             "a native CSV set for `gpuplan import` instead of storing it.  Jobs are "
             "written as they are drawn, so a million with series needs little memory.",
};

static const cli_cmd cmd_generate_cluster = {
    .name = "generate cluster",
    .usage = "--gpus MODEL:COUNT[,MODEL:COUNT...] --name NAME [OPTIONS]",
    .summary = "Store a cluster of servers of the given GPU models and counts",
};

/* Stores a generated cluster. */
static int store_cluster(cli_ctx *ctx, cluster *cl, int replace)
{
    store *st = cli_store(ctx);
    gp_err err = {{0}};
    if (!st)
        return EXIT_RUNTIME;
    return store_put_cluster(st, cl, replace, &err) ? cli_fail(&err) : EXIT_OK;
}

/* --series "MIN-MAX" (or "N" for one length) into gen_series_params. */
static int parse_series(void *value, const char *arg, gp_err *err)
{
    gen_series_params *sp = value;
    char *end;
    long lo = strtol(arg, &end, 10), hi = lo;
    if (*end == '-' && end != arg)
        hi = strtol(end + 1, &end, 10);
    if (*end || end == arg || lo < 1 || hi < lo || hi > GEN_SERIES_MAX)
        return gp_error(err, "expected MIN-MAX sample counts, 1 <= MIN <= MAX <= %d, got '%s'",
                        GEN_SERIES_MAX, arg);
    sp->min_len = (size_t)lo;
    sp->max_len = (size_t)hi;
    return 0;
}

/* Where generated jobs go, one at a time: the store (a trace writer) or a
 * native CSV set (tasks.csv, util.csv) in a directory, replaced as a set
 * (export_set.h). */
typedef struct job_sink {
    store_trace_writer *w;
    const char *dir;
    export_set *set;
    FILE *tasks, *util;
} job_sink;

static int sink_open(job_sink *k, store *st, const char *name, int replace, int series,
                     gp_err *err)
{
    if (!k->dir)
        return store_trace_writer_new(st, name, NULL, replace, &k->w, err);
    if (!(k->set = export_set_begin(k->dir, "trace", err)) ||
        !(k->tasks = export_set_open(k->set, "tasks.csv", err)))
        return -1;
    export_tasks_header(k->tasks);
    if (series) {
        if (!(k->util = export_set_open(k->set, "util.csv", err)))
            return -1;
        export_util_header(k->util);
    }
    return 0;
}

static int sink_put(job_sink *k, const task *tk, gp_err *err)
{
    if (k->w)
        return store_trace_writer_add(k->w, tk, err);
    export_task_row(k->tasks, tk);
    if (k->util)
        export_util_rows(k->util, tk);
    return 0;
}

/* Closes the sink, keeping what it got when rc is 0 (files are renamed
 * into place only then); returns 0 or -1. */
static int sink_close(job_sink *k, int rc, gp_err *err)
{
    if (!k->dir)
        return k->w ? store_trace_writer_end(k->w, rc, err) : -1;
    static const char *const names[] = {"tasks.csv", "util.csv"};
    FILE *files[] = {k->tasks, k->util};
    for (int i = 0; i < 2; i++) {
        if (!files[i])
            continue;
        if (rc) {
            char *path = xasprintf("%s/%s", k->dir, names[i]);
            out_file_discard(files[i], path);
            free(path);
        } else if (export_set_close(k->set, files[i], names[i], err)) {
            rc = -1;
        }
    }
    if (k->set)
        rc = export_set_end(k->set, rc, err);
    return rc ? -1 : 0;
}

/* Draws every job into the sink; *last_arrival for the summary line. */
static int generate_jobs(gen_gavel *g, job_sink *k, size_t jobs, double *last_arrival,
                         gp_err *err)
{
    cli_progress bar;
    cli_progress_init(&bar, "generate");
    task tk;
    int rc = 0;
    for (size_t i = 0; rc == 0 && gen_gavel_next(g, &tk); i++) {
        *last_arrival = tk.arrival_s;
        rc = sink_put(k, &tk, err);
        task_release(&tk);
        cli_progress_show(&bar, (double)(i + 1) / (double)jobs);
    }
    cli_progress_done(&bar);
    return rc;
}

static int gen_trace_exec(cli_ctx *ctx, int argc, char **argv)
{
    gen_gavel_params p;
    gen_gavel_params_default(&p);
    gen_series_params sp = {0, 0};
    const char *tput = NULL, *name = NULL;
    job_sink sink = {0};
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
        OPT_CALLBACK("series", 0, "MIN-MAX", &sp, parse_series,
                     "attach a training-like utilization series of MIN to MAX samples to "
                     "each job, spanning its run", .def = "none"),
        OPT_STRING("out", 'o', "DIR", &sink.dir, "write the trace as a native CSV set "
                   "(tasks.csv, util.csv) into DIR instead of storing it"),
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
    if (!name)
        name = def;
    gen_gavel *g = gen_gavel_new(tp, &p, &sp, &err);
    tput_catalog_free(tp);
    if (!g)
        return cli_fail(&err);
    double last = 0;
    int rc = sink_open(&sink, st, name, replace, sp.max_len > 0, &err);
    if (rc == 0)
        rc = generate_jobs(g, &sink, p.jobs, &last, &err);
    rc = sink_close(&sink, rc, &err);
    gen_gavel_free(g);
    if (rc)
        return cli_fail(&err);
    fprintf(ctx->out, "generated trace '%s': %zu jobs over table '%s', the last arriving "
            "at %.1f h", name, p.jobs, tput, last / 3600);
    if (sp.max_len)
        fprintf(ctx->out, ", series of %zu to %zu samples", sp.min_len, sp.max_len);
    if (sink.dir)
        fprintf(ctx->out, ", written to %s", sink.dir);
    fputc('\n', ctx->out);
    return EXIT_OK;
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
    int rc = store_cluster(ctx, cl, replace);
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
