/*
 * cmd_import.c — `gpuplan import`: read files of any supported format into
 * the store, all or nothing.
 */
#include "cli.h"
#include "io/import.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int import_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_import = {
    .name = "import",
    .usage = "[--type FORMAT] [--name NAME] [--replace] PATH...",
    .summary = "Import a trace, cluster, throughput table or snapshot",
    .help = "  -t, --type FORMAT  input format (detected from names and headers when "
            "omitted):\n"
            "                     native, openb, genai, gavel, philly, pai\n"
            "  -n, --name NAME    name of what is imported (default: from the file name)\n"
            "      --cluster NAME cluster a snapshot refers to\n"
            "  -r, --replace      replace an existing entity of the same name\n"
            "      --period S     sample period of utilization series, seconds\n",
    .exec = import_exec,
};

static void print_formats(FILE *out)
{
    fprintf(out, "formats:\n");
    for (size_t i = 0; importers[i]; i++)
        fprintf(out, "  %-8s %s\n           input: %s\n", importers[i]->format,
                importers[i]->summary, importers[i]->inputs);
}

static void report(cli_ctx *ctx, const importer *imp, const import_result *r, double secs)
{
    table *t = table_new();
    const char *cols[] = {"format", "imported", "clusters", "nodes", "traces", "tasks",
                          "samples", "gpu_profiles", "cpu_profiles", "tput_entries",
                          "snapshots", "seconds"};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        table_col(t, cols[i], i >= 2);
    table_row(t);
    table_cell(t, "%s", imp->format);
    table_cell(t, "%s", r->names);
    const size_t v[] = {r->clusters, r->nodes, r->traces, r->tasks, r->samples,
                        r->gpu_profiles, r->cpu_profiles, r->tput_entries, r->snapshots};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        table_cell(t, "%zu", v[i]);
    table_cell(t, "%.3f", secs);
    if (ctx->format == FMT_TABLE)
        fprintf(ctx->out, "imported %s (%s) in %.2f s: %zu nodes, %zu tasks, %zu samples, "
                "%zu throughput entries\n", r->names, imp->format, secs, r->nodes, r->tasks,
                r->samples, r->tput_entries);
    else
        table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
}

static int import_exec(cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"type", required_argument, NULL, 't'},
        {"name", required_argument, NULL, 'n'},
        {"cluster", required_argument, NULL, 'c'},
        {"replace", no_argument, NULL, 'r'},
        {"period", required_argument, NULL, 'p'},
        CLI_COMMON_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    import_opts opts = {0};
    const char *type = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "t:n:rh", longopts, NULL)) != -1) {
        int code, h = cli_common_opt(ctx, &cmd_import, c, optarg, &code);
        if (h < 0) {
            if (c == 'h')
                print_formats(stdout);
            return code;
        }
        if (h)
            continue;
        switch (c) {
        case 't': type = optarg; break;
        case 'n': opts.name = optarg; break;
        case 'c': opts.cluster = optarg; break;
        case 'r': opts.replace = 1; break;
        case 'p':
            if (parse_double(optarg, &opts.period_s) || opts.period_s <= 0)
                return cli_usage_error(&cmd_import, "--period: expected seconds > 0");
            break;
        }
    }
    if (optind >= argc)
        return cli_usage_error(&cmd_import, "expected at least one PATH");
    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(argc - optind);
    const importer *imp = type ? importer_find(type) : importer_detect(paths, npaths);
    if (!imp) {
        if (type)
            return cli_usage_error(&cmd_import, "unknown format '%s'", type);
        fprintf(stderr, "gpuplan import: cannot tell the format of %s; give --type\n",
                paths[0]);
        print_formats(stderr);
        return EXIT_USAGE;
    }
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    import_result res;
    double t0 = now_seconds();
    if (import_run(st, imp, paths, npaths, &opts, &res, &err)) {
        fprintf(stderr, "gpuplan import: %s\n(nothing was imported)\n", err.msg);
        return EXIT_RUNTIME;
    }
    report(ctx, imp, &res, now_seconds() - t0);
    return EXIT_OK;
}
