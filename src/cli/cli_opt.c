/*
 * cli_opt.c — a command's option table (cli_opt.h) turned into a
 * getopt_long parse and into its --help text, so both always agree.
 *
 * Every usage message names the command and the option as the user typed
 * it ("gpuplan run: --tau: expected a number >= 1e-06, got 'x'"); getopt's
 * own messages are silenced because they name neither.
 *
 * Not here: the tables themselves (each cmd_*.c) and the dispatch to a
 * command (cli.c).
 */
#include "cli_opt.h"
#include "core/strbuf.h"
#include "predict/util_predict.h"
#include "policy/corr_place.h"

#include <assert.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 79           /* the help fits an 80-column terminal */
#define HELP_MAX_COL 30         /* option help starts at most this far in */
#define VAL_BY_INDEX 256        /* getopt_long value of option i: 256 + i,
                                 * above any short option's character */
#define N_COMMON 3

/* ---- the table -------------------------------------------------------------------- */

/* The options every command takes; ctx NULL when they are only listed. */
static void common_opts(cli_opt out[N_COMMON], cli_ctx *ctx)
{
    const cli_opt common[N_COMMON] = {
        OPT_CALLBACK("db", 0, "PATH", ctx ? &ctx->db_path : NULL, cli_parse_db,
                     "database file", .def = "$GPUPLAN_DB, else "
                     "$XDG_DATA_HOME/gpuplan/gpuplan.db"),
        OPT_CALLBACK("format", 0, "FMT", ctx ? &ctx->format : NULL, cli_parse_format,
                     "output: table, csv or json", .def = "table"),
        {.kind = CLI_OPT_HELP, .long_name = "help", .short_name = 'h', .help = "this help"},
    };
    memcpy(out, common, sizeof common);
}

/* What a table must hold for the parser to be right (a programming error
 * otherwise, so asserted rather than reported). */
static void check_opt(const cli_opt *o)
{
    (void)o;
    assert(o->long_name && o->help);
    assert(o->kind != CLI_OPT_CALLBACK || o->parse);
    assert(o->kind == CLI_OPT_CALLBACK ||
           !o->arg_name == (o->kind == CLI_OPT_FLAG || o->kind == CLI_OPT_HELP));
    assert(o->kind != CLI_OPT_INT || (o->min >= INT_MIN && o->max <= INT_MAX));
}

/* The command's options then the common ones, in a new array of *n. */
static cli_opt *merge_opts(const cli_opt *opts, cli_ctx *ctx, size_t *n)
{
    size_t own = 0;
    while (opts && opts[own].kind != CLI_OPT_END)
        own++;
    cli_opt *all = xmalloc((own + N_COMMON) * sizeof *all);
    if (own)
        memcpy(all, opts, own * sizeof *all);
    cli_opt common[N_COMMON];
    common_opts(common, ctx);
    *n = own;
    /* A command may give a common option a meaning of its own (plot's
     * --format svg|png); its own then stands alone in parsing and help. */
    for (size_t c = 0; c < N_COMMON; c++) {
        size_t k = 0;
        while (k < own && strcmp(all[k].long_name, common[c].long_name) != 0)
            k++;
        if (k == own)
            all[(*n)++] = common[c];
    }
    for (size_t i = 0; i < *n; i++)
        check_opt(&all[i]);
    return all;
}

void cli_list_free(cli_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static void list_add(cli_list *l, const char *s)
{
    grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = s;
}

/* ---- values ----------------------------------------------------------------------- */

/* " in [1, 2]", " >= 0", " in (0, 100]" or "" for the usage message. */
static void describe_bounds(const cli_opt *o, char *buf, size_t len)
{
    int lo = isfinite(o->min), hi = isfinite(o->max);
    if (lo && hi)
        snprintf(buf, len, " in %c%g, %g]", o->min_open ? '(' : '[', o->min, o->max);
    else if (lo)
        snprintf(buf, len, " %s %g", o->min_open ? ">" : ">=", o->min);
    else if (hi)
        snprintf(buf, len, " <= %g", o->max);
    else
        buf[0] = '\0';
}

static int set_number(const cli_opt *o, const char *arg, gp_err *err)
{
    int whole = o->kind != CLI_OPT_DOUBLE;
    int64_t i = 0;
    double v = 0;
    int bad = whole ? parse_int64(arg, &i) : parse_double(arg, &v);
    if (whole)
        v = (double)i;
    if (bad || v < o->min || v > o->max || (o->min_open && v <= o->min)) {
        char range[80];
        describe_bounds(o, range, sizeof range);
        return gp_error(err, "--%s: expected %s%s, got '%s'", o->long_name,
                        whole ? "a whole number" : "a number", range, arg);
    }
    if (o->kind == CLI_OPT_DOUBLE)
        *(double *)o->value = v;
    else if (o->kind == CLI_OPT_INT64)
        *(int64_t *)o->value = i;
    else
        *(int *)o->value = (int)i;
    return 0;
}

/* Stores one option's value; 0, or -1 with the message. */
static int apply(const cli_opt *o, const char *arg, gp_err *err)
{
    switch (o->kind) {
    case CLI_OPT_FLAG: *(int *)o->value = o->set_to; return 0;
    case CLI_OPT_STRING:
        if (o->max_len && strlen(arg) > o->max_len)
            return gp_error(err, "--%s: at most %zu bytes, got %zu", o->long_name, o->max_len,
                            strlen(arg));
        if (o->is_name && name_check(arg, err)) {
            gp_err why = *err;
            return gp_error(err, "--%s: %s", o->long_name, why.msg);
        }
        *(const char **)o->value = arg;
        return 0;
    case CLI_OPT_LIST: list_add(o->value, arg); return 0;
    case CLI_OPT_INT:
    case CLI_OPT_INT64:
    case CLI_OPT_DOUBLE: return set_number(o, arg, err);
    case CLI_OPT_CALLBACK:
        if (o->parse(o->value, arg, err) == 0)
            return 0;
        gp_error_prefix(err, "--%s", o->long_name);
        return -1;
    case CLI_OPT_HELP:
    case CLI_OPT_END: break;
    }
    return 0;
}

int cli_parse_seed(void *value, const char *arg, gp_err *err)
{
    int64_t v;
    if (parse_int64(arg, &v) || v < 0)
        return gp_error(err, "expected a non-negative integer, got '%s'", arg);
    *(uint64_t *)value = (uint64_t)v;
    return 0;
}

int cli_parse_predict(void *value, const char *arg, gp_err *err)
{
    return upred_parse(arg, value, err);
}

int cli_parse_util_window(void *value, const char *arg, gp_err *err)
{
    if (strcmp(arg, "remaining") == 0)
        *(int *)value = CORR_WIN_REMAINING;
    else if (strcmp(arg, "whole") == 0)
        *(int *)value = CORR_WIN_WHOLE;
    else
        return gp_error(err, "expected remaining or whole, got '%s'", arg);
    return 0;
}

int cli_parse_corr_grid(void *value, const char *arg, gp_err *err)
{
    if (strcmp(arg, "resampled") == 0)
        *(int *)value = CORR_GRID_RESAMPLED;
    else if (strcmp(arg, "absolute") == 0)
        *(int *)value = CORR_GRID_ABSOLUTE;
    else
        return gp_error(err, "expected resampled or absolute, got '%s'", arg);
    return 0;
}

int cli_parse_format(void *value, const char *arg, gp_err *err)
{
    int f = out_format_parse(arg);
    if (f < 0)
        return gp_error(err, "expected table, csv or json, got '%s'", arg);
    *(out_format *)value = (out_format)f;
    return 0;
}

int cli_parse_db(void *value, const char *arg, gp_err *err)
{
    (void)err;
    char **path = value;
    free(*path);
    *path = xstrdup(arg);
    return 0;
}

/* ---- parsing ---------------------------------------------------------------------- */

typedef struct parser {
    cli_opt *all;               /* the command's options, then the common ones */
    size_t n;
    struct option *longopts;    /* n + 1, the last zeroed */
    char *shortopts;
    unsigned char *seen;        /* per option: given on the command line */
} parser;

static void parser_init(parser *p, const cli_opt *opts, cli_ctx *ctx)
{
    p->all = merge_opts(opts, ctx, &p->n);
    p->longopts = xcalloc(p->n + 1, sizeof *p->longopts);
    p->seen = xcalloc(p->n, 1);
    strbuf s = STRBUF_INIT;
    strbuf_puts(&s, ":");       /* tells a missing argument from an unknown option */
    for (size_t i = 0; i < p->n; i++) {
        const cli_opt *o = &p->all[i];
        p->longopts[i] = (struct option){o->long_name, o->arg_name ? required_argument
                                                                   : no_argument,
                                         NULL, VAL_BY_INDEX + (int)i};
        if (o->short_name)
            strbuf_printf(&s, "%c%s", o->short_name, o->arg_name ? ":" : "");
    }
    p->shortopts = strbuf_take(&s);
}

static void parser_free(parser *p)
{
    free(p->all);
    free(p->longopts);
    free(p->shortopts);
    free(p->seen);
}

/* The option getopt_long's value c stands for, -1 for none. */
static long opt_index(const parser *p, int c)
{
    for (size_t i = 0; i < p->n; i++)
        if (c == VAL_BY_INDEX + (int)i || (c > 0 && c == p->all[i].short_name))
            return (long)i;
    return -1;
}

/* An unknown "--name[=value]", or one that abbreviates several options
 * (getopt_long takes unambiguous abbreviations): say which. */
static int unknown_long(const parser *p, const char *arg, gp_err *err)
{
    const char *name = arg + strspn(arg, "-");
    size_t len = strcspn(name, "=");
    strbuf could_be = STRBUF_INIT;
    for (size_t i = 0; i < p->n && len; i++) {
        if (strncmp(p->all[i].long_name, name, len) == 0) {
            strbuf_sep(&could_be, ", ");
            strbuf_printf(&could_be, "--%s", p->all[i].long_name);
        }
    }
    if (could_be.len)
        gp_error(err, "ambiguous option '--%.*s' (%s)", (int)len, name, strbuf_str(&could_be));
    else
        gp_error(err, "unknown option '%s'", arg);
    strbuf_free(&could_be);
    return -1;
}

/* The message for getopt_long's '?' or ':'. */
static int getopt_error(const parser *p, int c, char **argv, gp_err *err)
{
    long i = opt_index(p, optopt);
    if (c == ':' && i >= 0)
        return gp_error(err, "--%s: missing %s", p->all[i].long_name, p->all[i].arg_name);
    if (i >= 0)                 /* --flag=VALUE */
        return gp_error(err, "--%s takes no value", p->all[i].long_name);
    if (optopt)
        return gp_error(err, "unknown option '-%c'", optopt);
    return unknown_long(p, argv[optind - 1], err);
}

/* Takes every option of argv; 0 when done, 1 at --help, -1 with err. */
static int take_options(parser *p, int argc, char **argv, gp_err *err)
{
    int c, rc = 0, saved_opterr = opterr;
    opterr = 0;
    optind = 0;                 /* 0 makes GNU getopt start afresh on a new argv */
    while (rc == 0 && (c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL)) != -1) {
        long i = c == '?' || c == ':' ? -1 : opt_index(p, c);
        if (i < 0)
            rc = getopt_error(p, c, argv, err);
        else if (p->all[i].kind == CLI_OPT_HELP)
            rc = 1;
        else {
            p->seen[i] = 1;
            rc = apply(&p->all[i], optarg, err);
        }
    }
    opterr = saved_opterr;
    return rc;
}

/* "--trace and --cluster are required" when they were not given. */
static int check_required(const parser *p, gp_err *err)
{
    size_t missing = 0, k = 0;
    for (size_t i = 0; i < p->n; i++)
        missing += p->all[i].required && !p->seen[i];
    if (!missing)
        return 0;
    strbuf names = STRBUF_INIT;
    for (size_t i = 0; i < p->n; i++) {
        if (!p->all[i].required || p->seen[i])
            continue;
        strbuf_sep(&names, ++k == missing ? " and " : ", ");
        strbuf_printf(&names, "--%s", p->all[i].long_name);
    }
    gp_error(err, "%s %s required", strbuf_str(&names), missing > 1 ? "are" : "is");
    strbuf_free(&names);
    return -1;
}

/* The arguments after the options into *rest, if as many as it takes. */
static int hand_back(int argc, char **argv, cli_args *rest, gp_err *err)
{
    int n = argc - optind, max = rest ? rest->max : 0;
    if (rest && rest->expect && (n < rest->min || (max >= 0 && n > max)))
        return gp_error(err, "expected %s", rest->expect);
    if (max >= 0 && n > max)
        return gp_error(err, "unexpected argument '%s'", argv[optind + max]);
    if (rest) {
        rest->argc = n;
        rest->argv = argv + optind;
    }
    return 0;
}

int cli_parse(cli_ctx *ctx, const cli_cmd *cmd, const cli_opt *opts, int argc, char **argv,
              cli_args *rest, int *code)
{
    parser p;
    gp_err err = {{0}};
    parser_init(&p, opts, ctx);
    int rc = take_options(&p, argc, argv, &err);
    if (rc == 0)
        rc = check_required(&p, &err);
    if (rc == 0)
        rc = hand_back(argc, argv, rest, &err);
    parser_free(&p);
    if (rc > 0) {
        cli_help(cmd, opts, ctx->out);
        *code = EXIT_OK;
    } else if (rc < 0) {
        *code = cli_usage_error(cmd, "%s", err.msg);
    }
    return rc ? -1 : 0;
}

/* ---- help ------------------------------------------------------------------------- */

/* Terminal columns of the n bytes at s (UTF-8: continuation bytes take none). */
static size_t columns(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* Writes text word by word from column col (where the cursor is), going on
 * at column indent on a new line before a word would pass HELP_WIDTH or
 * after a '\n' in text; ends the last line. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent)
{
    int fresh = 1, brk = 0;     /* nothing on this line yet; a '\n' was met */
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " \n");
        if (n) {
            size_t w = columns(p, n);
            if (!fresh && (brk || col + 1 + w > HELP_WIDTH)) {
                fprintf(out, "\n%*s", (int)indent, "");
                col = indent;
                fresh = 1;
            }
            if (!fresh) {
                fputc(' ', out);
                col++;
            }
            fwrite(p, 1, n, out);
            col += w;
            fresh = brk = 0;
        }
        p += n;
        if (*p)
            brk |= *p++ == '\n';
    }
    fputc('\n', out);
}

void cli_help_row(FILE *out, const char *term, const char *text, size_t col)
{
    size_t used = 2 + columns(term, strlen(term));
    fprintf(out, "  %s", term);
    if (used + 2 > col) {       /* the term fills the column: text below it */
        fputc('\n', out);
        used = 0;
    }
    fprintf(out, "%*s", (int)(col - used), "");
    wrap(out, text, col, col);
}

/* "-t, --type FORMAT", or "    --trace NAME" lined up under it. */
static void option_term(strbuf *b, const cli_opt *o)
{
    if (o->short_name)
        strbuf_printf(b, "-%c, ", o->short_name);
    else
        strbuf_puts(b, "    ");
    strbuf_printf(b, "--%s", o->long_name);
    if (o->arg_name)
        strbuf_printf(b, " %s", o->arg_name);
}

/* Where the help of options starts: after the widest term, within bounds. */
static size_t help_column(const cli_opt *all, size_t n)
{
    size_t col = 0;
    strbuf term = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        strbuf_reset(&term);
        option_term(&term, &all[i]);
        size_t w = 2 + columns(strbuf_str(&term), term.len) + 2;
        if (w > col)
            col = w;
    }
    strbuf_free(&term);
    return col < HELP_MAX_COL ? col : HELP_MAX_COL;
}

static void help_option(FILE *out, const cli_opt *o, size_t col)
{
    strbuf term = STRBUF_INIT, text = STRBUF_INIT;
    option_term(&term, o);
    strbuf_puts(&text, o->help);
    if (o->kind == CLI_OPT_LIST)
        strbuf_puts(&text, " (repeatable)");
    if (o->max_len)
        strbuf_printf(&text, " (at most %zu bytes)", o->max_len);
    if (o->required)
        strbuf_puts(&text, " (required)");
    if (o->def)
        strbuf_printf(&text, " (default: %s)", o->def);
    cli_help_row(out, strbuf_str(&term), strbuf_str(&text), col);
    strbuf_free(&term);
    strbuf_free(&text);
}

void cli_help(const cli_cmd *cmd, const cli_opt *opts, FILE *out)
{
    size_t n;
    cli_opt *all = merge_opts(opts, NULL, &n);
    fprintf(out, "usage: gpuplan %s %s\n\n%s.\n", cmd->name, cmd->usage, cmd->summary);
    if (cmd->notes) {
        fputc('\n', out);
        wrap(out, cmd->notes, 0, 0);
    }
    fprintf(out, "\nOptions:\n");
    size_t col = help_column(all, n);
    for (size_t i = 0; i < n; i++)
        help_option(out, &all[i], col);
    free(all);
    if (cmd->help_epilogue) {
        fputc('\n', out);
        cmd->help_epilogue(out);
    }
}
