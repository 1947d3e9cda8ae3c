/*
 * cmd_profile.c — `gpuplan profile gpu|cpu NAME [--from BASE] KEY=VALUE...`:
 * add a profile or edit one in place (clusters using it see the change).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int profile_exec(cli_ctx *ctx, int argc, char **argv);
static void print_keys(FILE *out);

const cli_cmd cmd_profile = {
    .name = "profile",
    .usage = "gpu|cpu NAME [--from BASE] [KEY=VALUE...]",
    .summary = "Add or edit a GPU or CPU profile",
    .notes = "With no KEY=VALUE the profile is shown. A new profile needs every value that "
             "has no default (or --from).",
    .exec = profile_exec,
    .help_epilogue = print_keys,
};

/* The keys, from the profiles' field tables. */
static void print_keys(FILE *out)
{
    fprintf(out, "GPU keys:\n");
    for (const profile_field *f = gpu_profile_fields; f->key; f++)
        cli_help_row(out, f->key, f->help, 20);
    fprintf(out, "\nCPU keys (per package):\n");
    for (const profile_field *f = cpu_profile_fields; f->key; f++)
        cli_help_row(out, f->key, f->help, 20);
}

/* 1 when the KEY=VALUE pairs name key. */
static int pairs_name(int argc, char **argv, const char *key)
{
    size_t n = strlen(key);
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
            return 1;
    return 0;
}

/* What the edit changed, old -> new, so a derived value's change shows. */
static void print_changes(cli_ctx *ctx, const void *old, const void *base, const void *p,
                          const char *name, const profile_field *fields)
{
    char buf[1024] = "";
    if (base)
        profile_changes(base, p, fields, buf, sizeof buf);
    if (!old)
        fprintf(ctx->out, "%s: added%s%s\n", name, buf[0] ? "; " : "", buf);
    else
        fprintf(ctx->out, "%s: %s\n", name, buf[0] ? buf : "unchanged");
}

static int apply_pairs(void *p, const profile_field *fields, int argc, char **argv,
                       gp_err *err)
{
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            return gp_error(err, "expected KEY=VALUE, got '%s'", argv[i]);
        *eq = '\0';
        int rc = profile_set(p, fields, argv[i], eq + 1, err);
        *eq = '=';
        if (rc)
            return -1;
    }
    return 0;
}

static void print_profile(cli_ctx *ctx, const void *p, const char *name,
                          const profile_field *fields)
{
    table *t = table_new();
    table_col(t, "field", 0);
    table_col(t, "value", 0);
    table_col(t, "meaning", 0);
    table_row(t);
    table_cell(t, "name");
    table_cell(t, "%s", name);
    table_cell(t, "profile name");
    for (const profile_field *f = fields; f->key; f++) {
        char buf[64];
        profile_get(p, f, buf, sizeof buf);
        table_row(t);
        table_cell(t, "%s", f->key);
        table_cell(t, "%s", buf);
        table_cell(t, "%s", f->help);
    }
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
}

static int edit_gpu(cli_ctx *ctx, store *st, const catalog *cat, const char *name,
                    const char *from, int argc, char **argv, gp_err *err)
{
    const gpu_profile *old = catalog_gpu(cat, name), *base = from ? catalog_gpu(cat, from) : old;
    if (from && !base) {
        char hint[300];
        return gp_error(err, "no GPU profile named '%s'%s", from,
                        catalog_gpu_hint(cat, from, hint, sizeof hint));
    }
    gpu_profile g = {0};
    g.beta = 0.91;
    g.price_usd = NAN;          /* a new profile's price is unknown until set */
    if (base)
        g = *base;
    strlcpy0(g.name, name, sizeof g.name);
    if (argc == 0 && old) {
        print_profile(ctx, &g, g.name, gpu_profile_fields);
        return 0;
    }
    if (apply_pairs(&g, gpu_profile_fields, argc, argv, err) || gpu_profile_check(&g, err))
        return -1;
    /* Editing max_w must move CATS's slope with it (or say why not). */
    if (!pairs_name(argc, argv, "alpha_w_per_mhz") && gpu_profile_follow_slope(base, &g, err))
        return -1;
    if (store_put_gpu_profile(st, &g, err))
        return -1;
    if (ctx->format == FMT_TABLE)
        print_changes(ctx, old, base, &g, g.name, gpu_profile_fields);
    return 0;
}

static int edit_cpu(cli_ctx *ctx, store *st, const catalog *cat, const char *name,
                    const char *from, int argc, char **argv, gp_err *err)
{
    const cpu_profile *old = catalog_cpu(cat, name), *base = from ? catalog_cpu(cat, from) : old;
    if (from && !base) {
        char hint[300];
        return gp_error(err, "no CPU profile named '%s'%s", from,
                        catalog_cpu_hint(cat, from, hint, sizeof hint));
    }
    cpu_profile p = {0};
    if (base)
        p = *base;
    strlcpy0(p.name, name, sizeof p.name);
    if (argc == 0 && old) {
        print_profile(ctx, &p, p.name, cpu_profile_fields);
        return 0;
    }
    if (apply_pairs(&p, cpu_profile_fields, argc, argv, err) || cpu_profile_check(&p, err))
        return -1;
    if (store_put_cpu_profile(st, &p, err))
        return -1;
    if (ctx->format == FMT_TABLE)
        print_changes(ctx, old, base, &p, p.name, cpu_profile_fields);
    return 0;
}

static int profile_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *from = NULL;
    const cli_opt opts[] = {
        OPT_STRING("from", 'f', "BASE", &from, "start a new profile from BASE's values"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(2, -1, "gpu|cpu and NAME");
    int code;
    if (cli_parse(ctx, &cmd_profile, opts, argc, argv, &rest, &code))
        return code;
    const char *kind = rest.argv[0], *name = rest.argv[1];
    int is_gpu = strcmp(kind, "gpu") == 0;
    if (!is_gpu && strcmp(kind, "cpu") != 0)
        return cli_usage_error(&cmd_profile, "expected gpu or cpu, got '%s'", kind);
    if (strlen(name) >= GP_NAME_MAX)
        return cli_usage_error(&cmd_profile, "name longer than %d characters", GP_NAME_MAX - 1);
    gp_err why = {{0}};
    if (name_check(name, &why))
        return cli_usage_error(&cmd_profile, "%s", why.msg);
    store *st = cli_store(ctx);
    catalog *cat;
    gp_err err = {{0}};
    if (!st)
        return EXIT_RUNTIME;
    if (store_load_catalog(st, &cat, &err))
        return cli_fail(&err);
    int n = rest.argc - 2;
    char **pairs = rest.argv + 2;
    int rc = is_gpu ? edit_gpu(ctx, st, cat, name, from, n, pairs, &err)
                    : edit_cpu(ctx, st, cat, name, from, n, pairs, &err);
    catalog_free(cat);
    return rc ? cli_fail(&err) : EXIT_OK;
}
