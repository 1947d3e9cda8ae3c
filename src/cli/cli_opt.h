/*
 * cli_opt.h — a command's options declared once, in a table, from which
 * both the parsing (getopt_long) and the --help text are made, as git's
 * parse-options and tmux's command templates do.  The same option is thus
 * never described twice (a help string, a getopt array, a switch) to drift.
 *
 * A command builds its table inside its exec function, each entry pointing
 * into that command's local options (git style), then parses:
 *
 *     const cli_opt opts[] = {
 *         OPT_STRING("trace", 0, "NAME", &o.trace, "trace to replay", .required = 1),
 *         OPT_DOUBLE("tau", 0, "S", &o.tau_s, 1e-6, INFINITY, "power-manager period",
 *                    .def = "0.1"),
 *         OPT_END(),
 *     };
 *     int code;
 *     if (cli_parse(ctx, &cmd_run, opts, argc, argv, NULL, &code))
 *         return code;
 *
 * The common options (--db, --format, --help) are added by cli_parse() and
 * listed last by the help.  Each OPT_ macro takes the help text last,
 * optionally followed by designated fields: .def = "shown default",
 * .required = 1, .min_open = 1.
 *
 * Ownership: a string option points into argv; a list option's array is
 * the list's own, freed with cli_list_free() by the command, whatever
 * cli_parse() returned.
 *
 * Not here: checks across options and what the values mean (each command
 * makes those after parsing).
 */
#ifndef GP_CLI_OPT_H
#define GP_CLI_OPT_H

#include "cli.h"

#include <math.h>
#include <stdint.h>

typedef enum cli_opt_kind {
    CLI_OPT_END = 0,            /* closes a table */
    CLI_OPT_FLAG,               /* int = set_to */
    CLI_OPT_STRING,             /* const char * = the argument */
    CLI_OPT_INT,                /* int within [min, max] */
    CLI_OPT_INT64,              /* int64_t within [min, max] */
    CLI_OPT_DOUBLE,             /* double within [min, max] */
    CLI_OPT_LIST,               /* cli_list: every value given, in order */
    CLI_OPT_CALLBACK,           /* parse(value, argument or NULL for a flag) */
    CLI_OPT_HELP,               /* prints the help; the common --help */
} cli_opt_kind;

/* Parses arg into value; 0, or -1 with a message that the option's name
 * will prefix ("expected on or off, got 'x'"). */
typedef int (*cli_opt_parse_fn)(void *value, const char *arg, gp_err *err);

typedef struct cli_opt {
    cli_opt_kind kind;
    const char *long_name;
    int short_name;             /* 0 = none */
    const char *arg_name;       /* shown in the help; NULL = takes no argument */
    const char *help;           /* one sentence, wrapped by the help */
    const char *def;            /* shown as "(default: X)"; NULL = none */
    int required;               /* a usage error when not given */
    void *value;                /* what the option sets, of the kind's type */
    int set_to;                 /* CLI_OPT_FLAG: the value stored */
    double min, max;            /* numbers: bounds, +-INFINITY = none */
    int min_open;               /* numbers: min itself is refused */
    size_t max_len;             /* strings: the most bytes accepted; 0 = any */
    int is_name;                /* strings: must pass name_check (core/util.h) */
    cli_opt_parse_fn parse;     /* CLI_OPT_CALLBACK */
} cli_opt;

/* Every value of a repeatable option; the strings point into argv. */
typedef struct cli_list {
    const char **v;
    size_t n, cap;
} cli_list;

void cli_list_free(cli_list *l);

/* The arguments that are not options.  The command says how many it
 * takes and what they are (CLI_ARGS); cli_parse() checks the count and
 * fills argc and argv, in argv order. */
typedef struct cli_args {
    int min, max;               /* how many; max < 0 = no limit */
    const char *expect;         /* for "expected KIND and NAME"; NULL: the
                                 * command checks the count itself */
    int argc;
    char **argv;
} cli_args;

#define CLI_ARGS(lo, hi, what) {.min = (lo), .max = (hi), .expect = (what)}

/* A pointer of the type the kind stores, checked at compile time: a
 * conditional of two unlike pointer types is a diagnostic. */
#define CLI_TYPED(type, p) (1 ? (p) : (type)0)

#define OPT_END() {.kind = CLI_OPT_END}
#define OPT_SET_INT(l, s, var, val, ...) \
    {.kind = CLI_OPT_FLAG, .long_name = (l), .short_name = (s), \
     .value = CLI_TYPED(int *, var), .set_to = (val), .help = __VA_ARGS__}
#define OPT_FLAG(l, s, var, ...) OPT_SET_INT(l, s, var, 1, __VA_ARGS__)
#define OPT_STRING(l, s, arg, var, ...) \
    {.kind = CLI_OPT_STRING, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = CLI_TYPED(const char **, var), .help = __VA_ARGS__}
#define OPT_INT(l, s, arg, var, lo, hi, ...) \
    {.kind = CLI_OPT_INT, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = CLI_TYPED(int *, var), .min = (lo), .max = (hi), .help = __VA_ARGS__}
#define OPT_INT64(l, s, arg, var, lo, hi, ...) \
    {.kind = CLI_OPT_INT64, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = CLI_TYPED(int64_t *, var), .min = (lo), .max = (hi), .help = __VA_ARGS__}
#define OPT_DOUBLE(l, s, arg, var, lo, hi, ...) \
    {.kind = CLI_OPT_DOUBLE, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = CLI_TYPED(double *, var), .min = (lo), .max = (hi), .help = __VA_ARGS__}
/* The name of something the command stores: refused, not cut, when longer
 * than the store keeps (GP_NAME_MAX - 1 bytes). */
#define OPT_NAME(l, s, arg, var, ...) \
    OPT_STRING(l, s, arg, var, __VA_ARGS__, .max_len = GP_NAME_MAX - 1, .is_name = 1)
#define OPT_LIST(l, s, arg, var, ...) \
    {.kind = CLI_OPT_LIST, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = CLI_TYPED(cli_list *, var), .help = __VA_ARGS__}
/* arg NULL makes a flag whose callback gets a NULL argument. */
#define OPT_CALLBACK(l, s, arg, var, fn, ...) \
    {.kind = CLI_OPT_CALLBACK, .long_name = (l), .short_name = (s), .arg_name = (arg), \
     .value = (var), .parse = (fn), .help = __VA_ARGS__}

/* Parses argv (argv[0] the command's name) against opts and the common
 * options.  Returns 0 to go on, or -1 with *code set when the command is
 * done: EXIT_OK after --help, EXIT_USAGE after a usage error printed as
 * "gpuplan CMD: --tau: expected a number >= 1e-06, got 'x'".  What is not
 * an option is handed back in *rest (a usage error when rest is NULL, or
 * when there are fewer than rest->min or more than rest->max of them). */
int cli_parse(cli_ctx *ctx, const cli_cmd *cmd, const cli_opt *opts, int argc, char **argv,
              cli_args *rest, int *code);

/* Writes the command's --help: usage, summary, notes, the options made from
 * opts (common ones last), then the command's epilogue. */
void cli_help(const cli_cmd *cmd, const cli_opt *opts, FILE *out);

/* One help row: "  term" then text wrapped from column col, continuation
 * lines indented to col (the term's own line when it is wider).  For
 * epilogues that list things the way the options are listed. */
void cli_help_row(FILE *out, const char *term, const char *text, size_t col);

/* Callbacks more than one command uses. */
int cli_parse_seed(void *value /* uint64_t */, const char *arg, gp_err *err);
int cli_parse_format(void *value /* out_format */, const char *arg, gp_err *err);
int cli_parse_db(void *value /* char *, owned */, const char *arg, gp_err *err);
int cli_parse_predict(void *value /* upred_spec */, const char *arg, gp_err *err);
/* --util-window: remaining or whole (policy/corr_place.h CORR_WIN_*). */
int cli_parse_util_window(void *value /* int */, const char *arg, gp_err *err);

/* --corr-grid: resampled or absolute (policy/corr_place.h CORR_GRID_*). */
int cli_parse_corr_grid(void *value /* int */, const char *arg, gp_err *err);

#endif
