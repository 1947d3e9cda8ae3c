/*
 * cmd_reproduce.c — `gpuplan reproduce PAPER|all`: runs each paper's
 * headline experiments (repro.h) and prints, per paper, the paper's
 * figure, ours and a verdict with the reason when they differ.
 *
 * Not here: the experiments (src/repro/).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "repro/repro.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int reproduce_exec(cli_ctx *ctx, int argc, char **argv);
static void print_papers(FILE *out);

const cli_cmd cmd_reproduce = {
    .name = "reproduce",
    .usage = "PAPER|all [--save]",
    .summary = "Run a paper's headline experiments and set them beside its figures",
    .notes = "Each row is one figure of the paper, the tolerance within which ours counts "
             "as the same size, ours on the data at hand, and a verdict (holds: direction and "
             "size agree; direction: only the sign agrees; differs; measured: a figure of the "
             "paper's own machine; not run: data missing) with the measured reason.",
    .exec = reproduce_exec,
    .help_epilogue = print_papers,
};

static void print_papers(FILE *out)
{
    fprintf(out, "\nPapers:\n");
    const repro_paper *p;
    for (size_t i = 0; (p = repro_paper_nth(i)); i++)
        cli_help_row(out, p->name, p->experiments, 18);
}

/* Columns of every format; the paper column only where one table holds
 * several papers. */
static table *new_table(int with_paper)
{
    table *t = table_new();
    if (with_paper)
        table_col(t, "paper", 0);
    static const char *const cols[] = {"experiment", "quantity", "paper_figure", "tolerance",
                                       "ours", "verdict", "reason"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], 0);
    return t;
}

static void add_row(table *t, const repro_row *r, int with_paper)
{
    table_row(t);
    if (with_paper)
        table_cell(t, "%s", r->paper);
    table_cell(t, "%s", r->experiment);
    table_cell(t, "%s", r->quantity);
    table_cell(t, "%s", r->theirs);
    table_cell(t, "%s", r->tolerance);
    table_cell(t, "%s", r->ours_text);
    table_cell(t, "%s", r->verdict);
    table_cell(t, "%s", r->reason);
}

/* Table format: a heading and a table per paper, then the verdict count. */
static void print_by_paper(cli_ctx *ctx, const repro_out *o, const repro_paper *const *chosen,
                           size_t nrun)
{
    for (size_t p = 0; p < nrun; p++) {
        fprintf(ctx->out, "%s== %s (%s)\n", p ? "\n" : "", chosen[p]->name, chosen[p]->title);
        table *t = new_table(0);
        size_t held = 0, direction = 0, differs = 0, rows = 0;
        for (size_t i = 0; i < o->n; i++) {
            if (strcmp(o->rows[i].paper, chosen[p]->name) != 0)
                continue;
            add_row(t, &o->rows[i], 0);
            rows++;
            held += o->rows[i].verdict == REPRO_HOLDS;
            direction += o->rows[i].verdict == REPRO_DIRECTION;
            differs += o->rows[i].verdict == REPRO_DIFFERS;
        }
        table_print(t, FMT_TABLE, ctx->out, "(no rows)");
        table_free(t);
        fprintf(ctx->out, "%zu of %zu rows hold, %zu agree in direction only, %zu differ\n",
                held, rows, direction, differs);
    }
}

static int reproduce_exec(cli_ctx *ctx, int argc, char **argv)
{
    int save = 0, code;
    const cli_opt opts[] = {
        OPT_FLAG("save", 0, &save, "store the simulated runs, to open them in the "
                 "dashboard's Compare"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(1, 1, "a paper (corrgpu, cats, fgd, gogh, peace) or all");
    if (cli_parse(ctx, &cmd_reproduce, opts, argc, argv, &rest, &code))
        return code;
    const repro_paper *chosen[16];
    size_t nrun = 0;
    if (strcmp(rest.argv[0], "all") == 0) {
        const repro_paper *p;
        for (size_t i = 0; (p = repro_paper_nth(i)) && nrun < 16; i++)
            chosen[nrun++] = p;
    } else if ((chosen[0] = repro_paper_find(rest.argv[0]))) {
        nrun = 1;
    } else {
        return cli_usage_error(&cmd_reproduce, "unknown paper '%s' (expected corrgpu, cats, "
                               "fgd, gogh, peace or all)", rest.argv[0]);
    }
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    repro_out o;
    repro_out_init(&o, st, save);
    int progress = isatty(STDERR_FILENO);
    for (size_t p = 0; p < nrun; p++) {
        if (progress)
            fprintf(stderr, "reproduce: %s...\n", chosen[p]->name);
        chosen[p]->run(&o);
    }
    if (ctx->format == FMT_TABLE) {
        print_by_paper(ctx, &o, chosen, nrun);
    } else {
        table *t = new_table(1);
        for (size_t i = 0; i < o.n; i++)
            add_row(t, &o.rows[i], 1);
        table_print(t, ctx->format, ctx->out, "(no rows)");
        table_free(t);
    }
    repro_out_free(&o);
    return EXIT_OK;
}
