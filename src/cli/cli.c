/*
 * cli.c — argument dispatch for `gpuplan [global options] [command ...]`,
 * the command table, and what every command shares: opening the database
 * (with first-use seeding) and loading a run's inputs from it, usage
 * messages.  Options are parsed in cli_opt.c.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "core/suggest.h"
#include "io/export_file.h"
#include "io/table.h"
#include "predict/gogh_est.h"
#include "samples/seed.h"

#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const cli_cmd *const cli_commands[] = {
    &cmd_import,
    &cmd_list,
    &cmd_show,
    &cmd_export,
    &cmd_delete,
    &cmd_profile,
    &cmd_cluster,
    &cmd_run,
    &cmd_sweep,
    &cmd_plan,
    &cmd_jobs,
    &cmd_merge,
    &cmd_plot,
    &cmd_solve,
    &cmd_peace,
    &cmd_estimate,
    &cmd_snapshot,
    &cmd_calibrate,
    &cmd_generate,
    &cmd_samples,
    &cmd_reproduce,
    NULL,
};

static const cli_cmd *find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

static void main_usage(FILE *out);

/* A near miss names the command meant; anything else gets the usage. */
static void unknown_command(const char *name)
{
    suggest sg;
    suggest_init(&sg, name);
    for (size_t i = 0; cli_commands[i]; i++)
        suggest_offer(&sg, cli_commands[i]->name);
    char hint[300];
    fprintf(stderr, "gpuplan: unknown command '%s'%s\n", name,
            suggest_hint(&sg, hint, sizeof hint));
    if (suggest_best(&sg))
        fprintf(stderr, "(see 'gpuplan --help')\n");
    else
        main_usage(stderr);
}

static void main_usage(FILE *out)
{
    fprintf(out,
            "usage: gpuplan [--db PATH] [--format table|csv|json] [COMMAND [ARGS]]\n"
            "       gpuplan --version | --help\n\n"
            "With no command, opens the interactive dashboard.\n\nCommands:\n");
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(out, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(out, "\n'gpuplan COMMAND --help' describes a command; see also gpuplan(1).\n"
                 "Database: --db PATH, else $GPUPLAN_DB, else "
                 "$XDG_DATA_HOME/gpuplan/gpuplan.db.\n");
}

int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    /* Without a command: "gpuplan: ...", never "gpuplan : ...". */
    const char *name = cmd ? cmd->name : "", *sep = cmd ? " " : "";
    char msg[2048];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *shown = text_printable(msg);
    fprintf(stderr, "gpuplan%s%s: %s\n(see 'gpuplan%s%s --help')\n", sep, name, shown, sep,
            name);
    free(shown);
    return EXIT_USAGE;
}

int cli_kind_arg(const cli_cmd *cmd, const char *arg, int *kind)
{
    if ((*kind = store_kind_parse(arg)) < 0)
        return cli_usage_error(cmd, "unknown kind '%s'", arg);
    return 0;
}

/* Messages quote names and text read from files: printed escaped, so they
 * cannot drive the terminal (io/table.h). */
int cli_fail(const gp_err *err)
{
    char *shown = text_printable(err->msg);
    fprintf(stderr, "gpuplan: %s\n", shown);
    free(shown);
    return EXIT_RUNTIME;
}

int cli_inputs_load(store *st, const char *cluster_name, const char *trace_name,
                    cli_inputs *in, gp_err *err)
{
    memset(in, 0, sizeof *in);
    if (store_load_catalog(st, &in->cat, err) ||
        store_get_cluster(st, cluster_name, &in->cl, err) ||
        store_get_trace(st, trace_name, &in->tr, err))
        return -1;
    return 0;
}

int cli_warn_unpriced_model(const gpu_profile *g, const char *what)
{
    if (!g || gpu_price_known(g))
        return 0;
    fprintf(stderr, "gpuplan: warning: %s has no known price: %s leaves its GPUs out (set "
            "one: gpuplan profile gpu %s price_usd=USD)\n", g->name, what, g->name);
    return 1;
}

int cli_warn_unpriced(const cluster *cl, const catalog *cat, const char *what)
{
    int n = 0;
    for (size_t i = 0; cl && i < cl->nnodes; i++)
        if (cluster_model_first(cl, i))
            n += cli_warn_unpriced_model(catalog_gpu(cat, cl->nodes[i].gpu_model), what);
    return n;
}

void cli_inputs_free(cli_inputs *in)
{
    catalog_free(in->cat);
    cluster_free(in->cl);
    trace_free(in->tr);
    tput_catalog_free(in->tp);
    gogh_nets_free(in->nets);
}

/* A write waiting for another program's says so, once, rather than
 * failing. */
static void tell_waiting(const char *path, void *unused)
{
    (void)unused;
    fprintf(stderr, "gpuplan: waiting for the database: another program is writing to %s "
            "(up to %d s)\n", path, STORE_WAIT_S);
}

/* A new database is filled in the transaction that creates its schema. */
static int seed_new(store *st, void *unused, gp_err *err)
{
    (void)unused;
    return seed_default(st, err);
}

/* The database's own default place (no $GPUPLAN_DB): the one path whose
 * directory is made when missing.  Caller frees. */
static char *xdg_default_path(void)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    if (xdg && *xdg)
        return xasprintf("%s/gpuplan/gpuplan.db", xdg);
    const char *home = getenv("HOME");
    return xasprintf("%s/.local/share/gpuplan/gpuplan.db", home && *home ? home : ".");
}

/* A path given by --db or $GPUPLAN_DB must be in a directory that exists:
 * a typo would otherwise make a fresh database, and the data would look
 * lost.  0, or -1 with err. */
static int check_db_dir(const char *path, gp_err *err)
{
    char *def = xdg_default_path();
    int is_default = strcmp(path, def) == 0;
    free(def);
    const char *slash = strrchr(path, '/');
    if (is_default || !slash || slash == path)
        return 0;
    char *dir = xstrndup(path, (size_t)(slash - path));
    struct stat sb;
    int rc = 0;
    if (stat(dir, &sb) != 0)
        rc = gp_error(err, "%s: no such directory %s (a database is made in an existing "
                      "directory; only the default one is created)", path, dir);
    else if (!S_ISDIR(sb.st_mode))
        rc = gp_error(err, "%s: %s is not a directory", path, dir);
    free(dir);
    return rc;
}

store *cli_store(cli_ctx *ctx)
{
    if (ctx->st)
        return ctx->st;
    gp_err err = {{0}};
    int created = 0;
    if (check_db_dir(ctx->db_path, &err)) {
        cli_fail(&err);
        return NULL;
    }
    const store_open_opts opts = {.init = seed_new, .on_wait = tell_waiting};
    double t0 = now_seconds();
    if (store_open_with(ctx->db_path, &opts, &ctx->st, &created, &err)) {
        cli_fail(&err);
        return NULL;
    }
    if (created)
        fprintf(stderr, "gpuplan: created %s from the sample data (%.2f s)\n", ctx->db_path,
                now_seconds() - t0);
    return ctx->st;
}

/* Global options come before the command word.  Returns 0 to go on, or -1
 * with *exit_code set when the program is done (--help, --version, error). */
static int parse_global(cli_ctx *ctx, int argc, char **argv, int *first, int *exit_code)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'D'},
        {"format", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    gp_err err = {{0}};
    int c;
    optind = 0;
    opterr = 0;                 /* the messages below name the program as every other does */
    while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'D':
            cli_parse_db(&ctx->db_path, optarg, &err);
            break;
        case 'F':
            if (cli_parse_format(&ctx->format, optarg, &err)) {
                *exit_code = cli_usage_error(NULL, "--format: %s", err.msg);
                return -1;
            }
            break;
        case 'h':
            opterr = 1;
            main_usage(stdout);
            *exit_code = EXIT_OK;
            return -1;
        case 'V':
            opterr = 1;
            printf("gpuplan %s (SQLite %s, schema %d)\n", GP_VERSION, store_sqlite_version(),
                   STORE_SCHEMA_VERSION);
            *exit_code = EXIT_OK;
            return -1;
        case ':':
            *exit_code = cli_usage_error(NULL, "%s: missing %s", argv[optind - 1],
                                         optopt == 'D' ? "PATH" : "FMT");
            return -1;
        default:
            *exit_code = cli_usage_error(NULL, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    opterr = 1;
    *first = optind;
    return 0;
}

int cli_main(int argc, char **argv, cli_tui_fn tui)
{
    /* Numbers are read and written in the C locale by every command and
     * the dashboard alike: strtod and printf follow LC_NUMERIC, and a
     * decimal comma (de_DE, fr_FR, ...) would write 6.5 as "6,5" -- two
     * CSV fields -- and refuse "0.9" in a valid file.  The caller's
     * setlocale(LC_ALL, "") still gives the terminal its character set
     * (LC_CTYPE) for names and line drawing.  Set before any thread. */
    setlocale(LC_NUMERIC, "C");
    cli_ctx ctx = {0};
    ctx.db_path = store_default_path();
    ctx.out = stdout;
    ctx.tui = tui;
    int first = 0, rc = EXIT_OK;
    if (parse_global(&ctx, argc, argv, &first, &rc) < 0) {
        /* rc set by parse_global */
    } else if (first >= argc) {
        rc = tui ? tui(&ctx) : EXIT_USAGE;
    } else {
        const cli_cmd *cmd = find_command(argv[first]);
        if (!cmd) {
            unknown_command(argv[first]);
            rc = EXIT_USAGE;
        } else {
            optind = 0;     /* 0 makes GNU getopt rescan a new argv from scratch */
            rc = cmd->exec(&ctx, argc - first, argv + first);
        }
    }
    /* Output that never arrived (a full disk behind stdout) is a failure. */
    gp_err err = {{0}};
    if (rc == EXIT_OK && out_stream_check(stdout, "stdout", &err))
        rc = cli_fail(&err);
    store_close(ctx.st);
    free(ctx.db_path);
    return rc;
}
