/*
 * cmd_import.c — `gpuplan import`: read files of any supported format into
 * the store, all or nothing.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_progress.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "io/filetype.h"
#include "io/import.h"
#include "io/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int import_exec(cli_ctx *ctx, int argc, char **argv);
static void print_formats(FILE *out);

const cli_cmd cmd_import = {
    .name = "import",
    .usage = "[--type FORMAT] [--name NAME] [--replace] [--node-of FILE=NODE] PATH...",
    .summary = "Import a trace, cluster, throughput table, snapshot or PEACE set",
    .exec = import_exec,
    .help_epilogue = print_formats,
};

/* "imported trace 'x' (native) in 0.02 s: 14 tasks, 4200 samples": the
 * counts that are not zero (a PEACE set's are in its name part). */
static void print_line(FILE *out, const importer *imp, const import_result *r, double secs)
{
    static const char *const what[] = {"nodes", "tasks", "samples", "throughput entries"};
    const size_t n[] = {r->nodes, r->tasks, r->samples, r->tput_entries};
    strbuf counts = STRBUF_INIT;
    for (size_t i = 0; i < sizeof n / sizeof *n; i++)
        if (n[i]) {
            strbuf_sep(&counts, ", ");
            strbuf_printf(&counts, "%zu %s", n[i], what[i]);
        }
    fprintf(out, "imported %s (%s) in %.2f s%s%s\n", r->names, imp->format, secs,
            counts.len ? ": " : "", strbuf_str(&counts));
    strbuf_free(&counts);
}

/* The importers' table as help: what --type accepts. */
static void print_formats(FILE *out)
{
    fprintf(out, "Formats (--type):\n");
    for (size_t i = 0; importers[i]; i++) {
        char *text = xasprintf("%s. Input: %s", importers[i]->summary, importers[i]->inputs);
        cli_help_row(out, importers[i]->format, text, 12);
        free(text);
    }
}

/* A FIFO with no writer yet: say so rather than hang without a word. */
static void say_waiting(void *ctx, const char *path)
{
    (void)ctx;
    char *shown = text_printable(path);
    fprintf(stderr, "gpuplan import: waiting for %s to give data (a pipe or FIFO with no "
            "writer yet?)\n", shown);
    free(shown);
}

/* --type names no format: the nearest one, and where the list is. */
static int unknown_type(const char *type)
{
    suggest sg;
    suggest_init(&sg, type);
    for (size_t i = 0; importers[i]; i++)
        suggest_offer(&sg, importers[i]->format);
    char hint[300];
    return cli_usage_error(&cmd_import, "unknown format '%s'%s", type,
                           suggest_hint(&sg, hint, sizeof hint));
}

/* No importer reads the files: one line saying what the file is when its
 * first bytes tell (a PNG, an archive), else that its format is not
 * known; the formats themselves are in --help, not repeated here. */
static void unknown_file(const char *const *paths, size_t npaths)
{
    for (size_t i = 0; i < npaths; i++) {
        const char *what = filetype_sniff(paths[i]);
        if (what) {
            fprintf(stderr, "gpuplan import: %s is %s, not a format gpuplan imports "
                    "(see 'gpuplan import --help')\n", paths[i], what);
            return;
        }
    }
    fprintf(stderr, "gpuplan import: cannot tell the format of %s; give --type (see "
            "'gpuplan import --help' for the formats)\n", paths[0]);
}

static int import_paths(cli_ctx *ctx, import_opts *io_opts, const char *type,
                        const char *const *paths, size_t npaths);

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
        print_line(ctx->out, imp, r, secs);
    else
        table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
}

static int import_with(cli_ctx *ctx, import_opts *io_in, const char *type, cli_args *args);

static int import_exec(cli_ctx *ctx, int argc, char **argv)
{
    import_opts io = {0};
    const char *type = NULL;
    cli_list node_of = {0};
    const cli_opt opts[] = {
        OPT_STRING("type", 't', "FORMAT", &type, "input format, one of the formats below",
                   .def = "detected from names and headers"),
        OPT_NAME("name", 'n', "NAME", &io.name, "name of what is imported",
                 .def = "from the file name"),
        OPT_STRING("cluster", 0, "NAME", &io.cluster, "cluster a snapshot refers to"),
        OPT_FLAG("replace", 'r', &io.replace, "replace an existing entity of the same name"),
        OPT_DOUBLE("period", 0, "S", &io.period_s, 0, INFINITY,
                   "sample period of utilization series, seconds", .min_open = 1,
                   .def = "the format's"),
        OPT_LIST("node-of", 0, "FILE=NODE", &node_of,
                 "k8s: the node an nvidia-smi or DCGM file is of",
                 .def = "its host column or label, else the node its file name names"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, -1, "at least one PATH");
    int code;
    if (cli_parse(ctx, &cmd_import, opts, argc, argv, &rest, &code)) {
        cli_list_free(&node_of);
        return code;
    }
    io.node_of = node_of.v;
    io.nnode_of = node_of.n;
    code = import_with(ctx, &io, type, &rest);
    cli_list_free(&node_of);
    return code;
}

static int import_with(cli_ctx *ctx, import_opts *io_in, const char *type, cli_args *args)
{
    import_opts io = *io_in;
    cli_args rest = *args;
    const char *const *paths = (const char *const *)rest.argv;
    size_t npaths = (size_t)rest.argc;
    if (io.name && strchr(io.name, '/'))
        return cli_usage_error(&cmd_import, "--name: a name cannot contain '/': '%s'", io.name);
    /* A missing file is the user's typo, not an unknown format. */
    for (size_t i = 0; i < npaths; i++)
        if (access(paths[i], F_OK) != 0) {
            /* access() follows links: a loop of them is not a missing file. */
            int e = errno;
            fprintf(stderr, "gpuplan import: %s: %s\n", paths[i],
                    e == ELOOP ? "a loop of symbolic links (too many levels of them)"
                    : e == ENOENT ? "no such file or directory" : strerror(e));
            return EXIT_RUNTIME;
        }
    gp_err err = {{0}};
    /* pipes and process substitution can be read once: read them whole
     * before the format is detected */
    if (input_preload(paths, npaths, say_waiting, NULL, &err)) {
        fprintf(stderr, "gpuplan import: %s\n(nothing was imported)\n", err.msg);
        return EXIT_RUNTIME;
    }
    int code2 = import_paths(ctx, &io, type, paths, npaths);
    input_release();
    return code2;
}

static int import_paths(cli_ctx *ctx, import_opts *io_opts, const char *type,
                        const char *const *paths, size_t npaths)
{
    import_opts io = *io_opts;
    const importer *imp = type ? importer_find(type) : importer_detect(paths, npaths);
    if (!imp) {
        if (type)
            return unknown_type(type);
        unknown_file(paths, npaths);
        return EXIT_USAGE;
    }
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    import_result res;
    cli_progress bar;
    cli_progress_init(&bar, "import");
    io.progress = cli_progress_cb;
    io.progress_ctx = &bar;
    double t0 = now_seconds();
    int rc = import_run(st, imp, paths, npaths, &io, &res, &err);
    cli_progress_done(&bar);
    if (rc) {
        fprintf(stderr, "gpuplan import: %s\n(nothing was imported)\n", err.msg);
        return EXIT_RUNTIME;
    }
    report(ctx, imp, &res, now_seconds() - t0);
    return EXIT_OK;
}
