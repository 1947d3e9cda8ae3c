/*
 * cmd_estimate.c — `gpuplan estimate train|eval|list|delete`: GOGH's
 * throughput estimation networks (SPEC §5.4, predict/gogh_est.h) on a
 * stored throughput table.
 *
 *   train   trains P1 and P2 on a table split by job type and stores them
 *           with the table; prints loss and MAE per network and split;
 *   eval    measures stored nets again (on their table or another);
 *   list    the stored nets with their test figures;
 *   delete  removes stored nets.
 *
 * Each subcommand is a cli_cmd of its own (its options a table, its exec
 * its own), chosen from the list at the end by the first argument.
 *
 * Not here: the networks and what their figures mean (src/predict/).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "predict/gogh_load.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int estimate_exec(cli_ctx *ctx, int argc, char **argv);
static int train_exec(cli_ctx *ctx, int argc, char **argv);
static int eval_exec(cli_ctx *ctx, int argc, char **argv);
static int list_exec(cli_ctx *ctx, int argc, char **argv);
static int delete_exec(cli_ctx *ctx, int argc, char **argv);
static void list_subcommands(FILE *out);

const cli_cmd cmd_estimate = {
    .name = "estimate",
    .usage = "train|eval|list|delete [OPTIONS]",
    .summary = "Train and measure GOGH's throughput estimators (P1, P2) on a Gavel table",
    .notes = "P1 estimates a new job type's throughput on each accelerator class, alone or "
             "next to another job, from its most similar known type; P2 refines those "
             "estimates from a measurement on another class (GOGH §2.3, §2.5).  Job types "
             "are split into training, validation and test, so the test figures are for "
             "types the networks never saw.  Loss (MSE) and MAE are on throughputs divided "
             "by each job's best solo throughput in the table.  'gpuplan estimate "
             "SUBCOMMAND --help' describes each.",
    .exec = estimate_exec,
    .help_epilogue = list_subcommands,
};

/* "" for NaN (a split without rows): a JSON null, an empty CSV field. */
static void cell_figure(table *t, double v)
{
    if (isnan(v))
        table_cell(t, "%s", "");
    else
        table_cell(t, "%.4f", v);
}

/* One row per network and split; with times when trained now. */
static void print_report(cli_ctx *ctx, const char *nets, const gogh_train_report *rep,
                         int with_time)
{
    table *t = table_new();
    static const char *const cols[] = {"nets", "net", "split", "types", "rows", "loss", "mae",
                                       "train_s"};
    size_t ncols = with_time ? 8 : 7;
    for (size_t c = 0; c < ncols; c++)
        table_col(t, cols[c], c >= 3);
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 3; s++) {
            const gogh_split_err *e = k == 0 ? &rep->p1[s] : &rep->p2[s];
            table_row(t);
            table_cell(t, "%s", nets);
            table_cell(t, "%s", k == 0 ? "p1" : "p2");
            table_cell(t, "%s", gogh_split_name(s));
            table_cell(t, "%zu", rep->types[s]);
            table_cell(t, "%zu", e->rows);
            cell_figure(t, e->loss);
            cell_figure(t, e->mae);
            if (with_time)
                table_cell(t, "%.2f", k == 0 ? rep->p1_s : rep->p2_s);
        }
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
}

/* The throughput table `name`, checked for what training needs. */
static int load_table(cli_ctx *ctx, const char *name, tput_catalog **tp, gp_err *err)
{
    *tp = NULL;
    store *st = cli_store(ctx);
    if (!st)
        return gp_error(err, "no database");
    return store_get_tput_catalog(st, name, tp, err);
}

/* ---- train -------------------------------------------------------------------------- */

static const cli_cmd cmd_estimate_train = {
    .name = "estimate train",
    .exec = train_exec,
    .usage = "--tput NAME [--name NETS] [OPTIONS]",
    .summary = "Train P1 and P2 on a throughput table and store them",
    .notes = "The table's scale-1 job types are shuffled by --seed into training, validation "
             "(--val) and test (--test).  Each network trains for --epochs epochs of per-row "
             "steps at --rate; the epoch with the lowest validation loss is kept.  P2 learns "
             "to refine P1's estimates, so it trains second.  Training again under the same "
             "name replaces the stored nets.",
};

static int train_exec(cli_ctx *ctx, int argc, char **argv)
{
    gogh_train_params p;
    gogh_train_params_default(&p);
    const char *tput = NULL, *name = NULL;
    const cli_opt opts[] = {
        OPT_STRING("tput", 0, "NAME", &tput, "the throughput table to train on", .required = 1),
        OPT_NAME("name", 0, "NETS", &name, "name the nets are stored under",
                 .def = "the table's name"),
        OPT_INT("hidden", 0, "N", &p.hidden, 1, 1024, "neurons per hidden layer", .def = "32"),
        OPT_INT("layers", 0, "N", &p.layers, 1, 8, "hidden layers", .def = "2"),
        OPT_INT("epochs", 0, "N", &p.epochs, 0, 1000000, "passes over the training rows",
                .def = "500"),
        OPT_DOUBLE("rate", 0, "R", &p.learning_rate, 0, 10, "learning rate", .min_open = 1,
                   .def = "0.01"),
        OPT_DOUBLE("val", 0, "F", &p.val_frac, 0, 1, "share of job types for validation",
                   .def = "0.15"),
        OPT_DOUBLE("test", 0, "F", &p.test_frac, 0, 1, "share of job types for test",
                   .def = "0.15"),
        OPT_CALLBACK("seed", 0, "N", &p.seed, cli_parse_seed,
                     "seed of the split and the initial weights", .def = "42"),
        OPT_END(),
    };
    int code;
    if (cli_parse(ctx, &cmd_estimate_train, opts, argc, argv, NULL, &code))
        return code;
    if (p.val_frac + p.test_frac >= 1)
        return cli_usage_error(&cmd_estimate_train, "--val and --test must leave job types "
                               "to train on (got %g + %g)", p.val_frac, p.test_frac);
    tput_catalog *tp;
    gp_err err = {{0}};
    gogh_train_report rep;
    gogh_nets *n = NULL;
    int rc = load_table(ctx, tput, &tp, &err);
    /* A store that cannot keep the nets is said before training them. */
    if (rc == 0)
        rc = store_check_writable(cli_store(ctx), &err);
    if (rc == 0 && !(n = gogh_nets_train(tp, &p, &rep, &err)))
        rc = -1;
    if (rc == 0)
        rc = gogh_nets_store(cli_store(ctx), name ? name : tput, tput, n, &p, &rep, &err);
    if (rc == 0)
        print_report(ctx, name ? name : tput, &rep, 1);
    gogh_nets_free(n);
    tput_catalog_free(tp);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- eval --------------------------------------------------------------------------- */

static const cli_cmd cmd_estimate_eval = {
    .name = "estimate eval",
    .exec = eval_exec,
    .usage = "--nets NETS [--tput NAME]",
    .summary = "Measure stored nets again, per network and split",
    .notes = "On the table the nets were trained on unless --tput names another; that "
             "table's job types the nets never saw count as test.",
};

static int eval_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *nets = NULL, *tput = NULL;
    const cli_opt opts[] = {
        OPT_STRING("nets", 0, "NETS", &nets, "the stored nets", .required = 1),
        OPT_STRING("tput", 0, "NAME", &tput, "the throughput table to measure them on",
                   .def = "the one they were trained on"),
        OPT_END(),
    };
    int code;
    if (cli_parse(ctx, &cmd_estimate_eval, opts, argc, argv, NULL, &code))
        return code;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    store_gogh_nets *sn = NULL;
    tput_catalog *tp = NULL;
    gogh_nets *n = NULL;
    gogh_train_report rep;
    int rc = store_get_gogh_nets(st, nets, &sn, &err);
    if (rc == 0)
        rc = load_table(ctx, tput ? tput : sn->tput, &tp, &err);
    if (rc == 0 && !(n = gogh_nets_load(sn->blob, sn->len, &err)))
        rc = -1;
    if (rc == 0)
        rc = gogh_nets_eval(n, tp, &rep, &err);
    if (rc == 0)
        print_report(ctx, nets, &rep, 0);
    gogh_nets_free(n);
    tput_catalog_free(tp);
    store_gogh_nets_free(sn);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- list and delete ---------------------------------------------------------------- */

static const cli_cmd cmd_estimate_list = {
    .name = "estimate list",
    .exec = list_exec,
    .usage = "[--tput NAME]",
    .summary = "The stored nets, their split and test figures",
};

static void list_row(table *t, const store_gogh_nets *n)
{
    table_row(t);
    table_cell(t, "%s", n->name);
    table_cell(t, "%s", n->tput);
    table_cell(t, "%lld/%lld/%lld", (long long)n->types[0], (long long)n->types[1],
               (long long)n->types[2]);
    cell_figure(t, n->p1[2].mae);
    cell_figure(t, n->p2[2].mae);
    table_cell(t, "%zu", n->len);
    table_cell(t, "%s", n->params);
    table_cell(t, "%s", n->created);
}

static int list_exec(cli_ctx *ctx, int argc, char **argv)
{
    const char *tput = NULL;
    const cli_opt opts[] = {
        OPT_STRING("tput", 0, "NAME", &tput, "only the nets of this throughput table"),
        OPT_END(),
    };
    int code;
    if (cli_parse(ctx, &cmd_estimate_list, opts, argc, argv, NULL, &code))
        return code;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    store_gogh_nets *v;
    size_t n;
    gp_err err = {{0}};
    if (store_list_gogh_nets(st, tput, &v, &n, &err))
        return cli_fail(&err);
    table *t = table_new();
    static const char *const cols[] = {"nets", "tput", "types", "p1_test_mae", "p2_test_mae",
                                       "bytes", "params", "created"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 3 && c <= 5);
    for (size_t i = 0; i < n; i++)
        list_row(t, &v[i]);
    table_print(t, ctx->format, ctx->out, "no GOGH nets stored (gpuplan estimate train)");
    table_free(t);
    store_gogh_nets_list_free(v, n);
    return EXIT_OK;
}

static const cli_cmd cmd_estimate_delete = {
    .name = "estimate delete",
    .exec = delete_exec,
    .usage = "NETS",
    .summary = "Delete stored nets",
};

static int delete_exec(cli_ctx *ctx, int argc, char **argv)
{
    const cli_opt opts[] = {OPT_END()};
    cli_args rest = CLI_ARGS(1, 1, "NETS");
    int code;
    if (cli_parse(ctx, &cmd_estimate_delete, opts, argc, argv, &rest, &code))
        return code;
    store *st = cli_store(ctx);
    gp_err err = {{0}};
    if (!st)
        return EXIT_RUNTIME;
    return store_delete_gogh_nets(st, rest.argv[0], &err) ? cli_fail(&err) : EXIT_OK;
}

/* ---- the subcommands ---------------------------------------------------------------- */

static const cli_cmd *const subcommands[] = {
    &cmd_estimate_train, &cmd_estimate_eval, &cmd_estimate_list, &cmd_estimate_delete,
};
#define NSUB (sizeof subcommands / sizeof *subcommands)

/* A subcommand's word: its name after "estimate ". */
static const char *word(const cli_cmd *sub)
{
    return sub->name + strlen(cmd_estimate.name) + 1;
}

static void list_subcommands(FILE *out)
{
    fprintf(out, "Subcommands:\n");
    for (size_t i = 0; i < NSUB; i++)
        cli_help_row(out, word(subcommands[i]), subcommands[i]->summary, 12);
}

static int estimate_exec(cli_ctx *ctx, int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < NSUB; i++)
        if (strcmp(argv[1], word(subcommands[i])) == 0)
            return subcommands[i]->exec(ctx, argc - 1, argv + 1);
    const cli_opt opts[] = {OPT_END()};
    cli_args rest = CLI_ARGS(0, -1, NULL);
    int code;
    if (cli_parse(ctx, &cmd_estimate, opts, argc, argv, &rest, &code))
        return code;
    return cli_usage_error(&cmd_estimate, "%s%s%s: expected train, eval, list or delete",
                           rest.argc ? "unknown subcommand '" : "no subcommand",
                           rest.argc ? rest.argv[0] : "", rest.argc ? "'" : "");
}
