/*
 * cmd_samples.c — `gpuplan samples [--seed N] [--set NAME] DIR`: regenerate
 * the sample sets (samplegen.h) as native CSV directories DIR/<set>/.  This
 * is how sample-data/ is made; it does not touch the database.
 */
#include "cli.h"
#include "samples/samplegen.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int samples_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_samples = {
    .name = "samples",
    .usage = "[--seed N] [--set NAME]... DIR",
    .summary = "Write the generated sample sets as native CSV directories",
    .help = "  DIR                where DIR/<set>/ is written (created if needed)\n"
            "  --seed N           random seed (default 2026, the seed of sample-data/)\n"
            "  --set NAME         only this set (repeatable): cats-testbed,\n"
            "                     corrgpu-example, pai-like, openb-like, gavel-like\n"
            "  --list             list the sets and exit\n",
    .exec = samples_exec,
};

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

static int samples_exec(cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        {"seed", required_argument, NULL, 's'},
        {"set", required_argument, NULL, 'S'},
        {"list", no_argument, NULL, 'l'},
        {NULL, 0, NULL, 0},
    };
    uint64_t seed = SAMPLEGEN_DEFAULT_SEED;
    const char **only = xcalloc(samplegen_nsets, sizeof *only);
    size_t nonly = 0;
    int list = 0, c, rc = EXIT_OK;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int code, h = cli_common_opt(ctx, &cmd_samples, c, optarg, &code);
        if (h < 0) {
            free(only);
            return code;
        }
        if (h > 0)
            continue;
        if (c == 's') {
            int64_t v;
            if (parse_int64(optarg, &v) || v < 0) {
                free(only);
                return cli_usage_error(&cmd_samples, "--seed: expected a non-negative "
                                       "integer, got '%s'", optarg);
            }
            seed = (uint64_t)v;
        } else if (c == 'S') {
            if (!samplegen_known(optarg)) {
                free(only);
                return cli_usage_error(&cmd_samples, "unknown set '%s' (see --list)",
                                       optarg);
            }
            size_t k = 0;
            while (k < nonly && strcmp(only[k], optarg) != 0)
                k++;
            if (k == nonly)
                only[nonly++] = optarg;
        } else if (c == 'l') {
            list = 1;
        }
    }
    if (list) {
        free(only);
        return list_sets(ctx);
    }
    if (optind != argc - 1) {
        free(only);
        return cli_usage_error(&cmd_samples, optind >= argc ? "expected the output DIR"
                                                            : "expected one DIR");
    }
    const char *dir = argv[optind];
    for (size_t i = 0; i < samplegen_nsets && rc == EXIT_OK; i++) {
        const char *name = samplegen_sets[i].name;
        int wanted = nonly == 0;
        for (size_t k = 0; k < nonly; k++)
            wanted |= strcmp(only[k], name) == 0;
        if (!wanted)
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
    free(only);
    return rc;
}
