/*
 * cmd_samples.c — `gpuplan samples [--seed N] [--set NAME] DIR`: regenerate
 * the sample sets (samplegen.h) as native CSV directories DIR/<set>/.  This
 * is how sample-data/ is made; it does not touch the database.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "samples/samplegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int samples_exec(cli_ctx *ctx, int argc, char **argv);
static void print_sets(FILE *out);

const cli_cmd cmd_samples = {
    .name = "samples",
    .usage = "[--seed N] [--set NAME]... DIR",
    .summary = "Write the generated sample sets as native CSV directories",
    .notes = "Each set is written to DIR/<set>/ (DIR is created if needed).",
    .exec = samples_exec,
    .help_epilogue = print_sets,
};

static void print_sets(FILE *out)
{
    fprintf(out, "Sets (--set):\n");
    for (size_t i = 0; i < samplegen_nsets; i++)
        cli_help_row(out, samplegen_sets[i].name, samplegen_sets[i].summary, 19);
}

static int list_sets(cli_ctx *ctx)
{
    table *t = table_new();
    table_col(t, "set", 0);
    table_col(t, "summary", 0);
    for (size_t i = 0; i < samplegen_nsets; i++) {
        table_row(t);
        table_cell(t, "%s", samplegen_sets[i].name);
        table_cell(t, "%s", samplegen_sets[i].summary);
    }
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
    return EXIT_OK;
}

/* Whether --set asked for this set (every set when none was given). */
static int wanted(const cli_list *only, const char *name)
{
    for (size_t k = 0; k < only->n; k++)
        if (strcmp(only->v[k], name) == 0)
            return 1;
    return only->n == 0;
}

static int check_sets(const cli_list *only)
{
    for (size_t k = 0; k < only->n; k++)
        if (!samplegen_known(only->v[k]))
            return cli_usage_error(&cmd_samples, "unknown set '%s' (see --list)", only->v[k]);
    return EXIT_OK;
}

static int write_sets(cli_ctx *ctx, const cli_list *only, uint64_t seed, const char *dir)
{
    int rc = EXIT_OK;
    for (size_t i = 0; i < samplegen_nsets && rc == EXIT_OK; i++) {
        const char *name = samplegen_sets[i].name;
        if (!wanted(only, name))
            continue;
        char *sub = xasprintf("%s/%s", dir, name);
        gp_err err = {{0}};
        double t0 = now_seconds();
        if (samplegen_write(name, sub, seed, &err))
            rc = cli_fail(&err);
        else
            fprintf(ctx->out, "wrote %s (seed %llu, %.2f s)\n", sub, (unsigned long long)seed,
                    now_seconds() - t0);
        free(sub);
    }
    return rc;
}

static int samples_exec(cli_ctx *ctx, int argc, char **argv)
{
    uint64_t seed = SAMPLEGEN_DEFAULT_SEED;
    cli_list only = {0};
    int list = 0, code;
    const cli_opt opts[] = {
        OPT_CALLBACK("seed", 0, "N", &seed, cli_parse_seed, "random seed",
                     .def = "2026, the seed of sample-data/"),
        OPT_LIST("set", 0, "NAME", &only, "only this set, one of those below"),
        OPT_FLAG("list", 0, &list, "list the sets and exit"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(0, -1, NULL);     /* DIR, unless --list */
    if (cli_parse(ctx, &cmd_samples, opts, argc, argv, &rest, &code) == 0 &&
        (code = check_sets(&only)) == EXIT_OK) {
        if (list)
            code = list_sets(ctx);
        else if (rest.argc != 1)
            code = cli_usage_error(&cmd_samples, rest.argc ? "expected one DIR"
                                                           : "expected the output DIR");
        else
            code = write_sets(ctx, &only, seed, rest.argv[0]);
    }
    cli_list_free(&only);
    return code;
}
