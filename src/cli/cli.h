/*
 * cli.h — the command-line front end (SPEC §7.2): a table of subcommands,
 * one file each (cmd_<name>.c exporting one const cli_cmd, declared in
 * cmd_table.h), and the context they share (database, output format).
 *
 * Exit codes: 0 ok, 1 runtime error, 2 usage error.  Output goes to stdout,
 * diagnostics to stderr.
 */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdio.h>

#include "db/store.h"
#include "io/table.h"

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

typedef struct cli_ctx cli_ctx;

/* The front end that `gpuplan` with no subcommand opens (the TUI); given
 * by the program's main() so the engine never depends on the UI. */
typedef int (*cli_tui_fn)(cli_ctx *ctx);

struct cli_ctx {
    char *db_path;              /* owned; --db, else store_default_path() */
    out_format format;
    store *st;                  /* opened on first use by cli_store() */
    FILE *out;
    cli_tui_fn tui;
};

/* A subcommand, as tmux's cmd_entry: its options are not here but in the
 * table its exec function builds (cli_opt.h), from which --help is made. */
typedef struct cli_cmd {
    const char *name;
    const char *usage;          /* argument synopsis */
    const char *summary;        /* one line */
    const char *notes;          /* optional: a paragraph --help shows before the
                                 * options (what the arguments mean) */
    int (*exec)(cli_ctx *ctx, int argc, char **argv);
    /* Optional: what --help lists after the options (a command's policies,
     * formats or models, from their own tables). */
    void (*help_epilogue)(FILE *out);
} cli_cmd;

/* NULL-terminated; defined in cli.c. */
extern const cli_cmd *const cli_commands[];

int cli_main(int argc, char **argv, cli_tui_fn tui);

/* Opens the database (creating it from the sample data on first use).
 * Prints the error and returns NULL on failure. */
store *cli_store(cli_ctx *ctx);

/* Prints "gpuplan <cmd>: message" to stderr and returns EXIT_USAGE. */
int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A KIND argument (gpu, cpu, cluster, ... as store_kind_parse() reads
 * them) into *kind; 0, or EXIT_USAGE after the message. */
int cli_kind_arg(const cli_cmd *cmd, const char *arg, int *kind);
/* Prints "gpuplan: message" to stderr and returns EXIT_RUNTIME. */
int cli_fail(const gp_err *err);

/* What a simulation or a solve reads from the store: the profile catalog,
 * one cluster and one trace (and a throughput table and GOGH's nets for the
 * commands that load them, else NULL).  cli_inputs_free() frees whatever was loaded, also
 * after a failed load. */
typedef struct cli_inputs {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    tput_catalog *tp;
    struct gogh_nets *nets;     /* GOGH's estimation nets, or NULL */
} cli_inputs;

/* Loads the catalog, cluster cluster_name and trace trace_name; 0 or -1
 * with the store's message ("no trace named 'x'"). */
int cli_inputs_load(store *st, const char *cluster_name, const char *trace_name,
                    cli_inputs *in, gp_err *err);
void cli_inputs_free(cli_inputs *in);

/* A warning on stderr for each GPU model of cl (NULL: skipped) without a
 * price: `what` (a column, "cost") leaves them out.  Returns how many. */
int cli_warn_unpriced(const cluster *cl, const catalog *cat, const char *what);
/* The same for one model (NULL or priced: nothing); 1 when it warned. */
int cli_warn_unpriced_model(const gpu_profile *g, const char *what);

/* `gpuplan plan`'s options (cmd_plan.c), shared with `gpuplan plot plan`:
 * 0 to go on, -1 with *code set when the command is done.  *quiet: -q. */
struct plan_params;
int cmd_plan_parse(cli_ctx *ctx, int argc, char **argv, struct plan_params *out, int *quiet,
                   int *code);

#endif
