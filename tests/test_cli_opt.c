/*
 * test_cli_opt.c — the option tables of the command line (cli/cli_opt.h):
 * every kind parses, bounds hold with their exact message, unknown options,
 * missing arguments and bad values are usage errors naming the command,
 * lists collect every value, flags and callbacks set what they point to,
 * and --help is made from the table (each option, its default, common
 * options last, the epilogue).
 *
 * The parse cases are a table (args in, values or message out), as jq's
 * tests are: a new case is one line.
 */
#include "testutil.h"

#include "cli/cli.h"
#include "cli/cli_opt.h"
#include "core/strbuf.h"

/* ---- a command to parse for ------------------------------------------------------ */

/* What the demo command's options set. */
typedef struct demo {
    int verbose, speed, small, onoff, volume;
    const char *name, *note;
    int64_t count;
    double ratio, tau, low;
    uint64_t seed;
    cli_list tags;
} demo;

static void demo_init(demo *d)
{
    memset(d, 0, sizeof *d);
    d->count = 5;
    d->ratio = 0.5;
    d->tau = 0.1;
    d->onoff = -1;
    d->seed = 7;
}

static int parse_onoff(void *value, const char *arg, gp_err *err)
{
    int *v = value;
    if (strcmp(arg, "on") == 0)
        *v = 1;
    else if (strcmp(arg, "off") == 0)
        *v = 0;
    else if (strcmp(arg, "default") == 0)
        *v = -1;
    else
        return gp_error(err, "expected on, off or default, got '%s'", arg);
    return 0;
}

/* A callback without an argument: each --louder adds one. */
static int louder(void *value, const char *arg, gp_err *err)
{
    (void)err;
    assert_null(arg);
    ++*(int *)value;
    return 0;
}

static void demo_epilogue(FILE *out)
{
    fprintf(out, "Things:\n");
    cli_help_row(out, "thing", "what the epilogue lists", 12);
}

static const cli_cmd cmd_demo = {
    .name = "demo",
    .usage = "[OPTIONS] [ARG...]",
    .summary = "Exercise the option parser",
    .notes = "A paragraph that the help shows before the options.",
    .help_epilogue = demo_epilogue,
};

#define DEMO_NOPTS 15

/* The demo's table, pointing into d (built the way commands build theirs). */
static void demo_opts(demo *d, cli_opt out[DEMO_NOPTS])
{
    const cli_opt opts[DEMO_NOPTS] = {
        OPT_FLAG("verbose", 'v', &d->verbose, "say more"),
        OPT_SET_INT("fast", 0, &d->speed, 2, "go fast"),
        OPT_SET_INT("slow", 0, &d->speed, 1, "go slow", .def = "neither"),
        OPT_STRING("name", 'n', "NAME", &d->name, "what to call it", .def = "the file's"),
        OPT_INT64("count", 'c', "N", &d->count, 1, 100, "how many", .def = "5"),
        OPT_INT("small", 0, "K", &d->small, 0, 10, "a small whole number"),
        OPT_DOUBLE("ratio", 0, "R", &d->ratio, 0, 1, "a share", .min_open = 1, .def = "0.5"),
        OPT_DOUBLE("tau", 0, "S", &d->tau, 1e-6, INFINITY, "a period", .def = "0.1"),
        OPT_DOUBLE("low", 0, "X", &d->low, -INFINITY, 3, "at most three"),
        OPT_LIST("tag", 't', "TAG", &d->tags, "a tag"),
        OPT_CALLBACK("switch", 0, "on|off", &d->onoff, parse_onoff, "a three-way switch",
                     .def = "default"),
        OPT_CALLBACK("seed", 0, "N", &d->seed, cli_parse_seed, "random seed", .def = "7"),
        OPT_CALLBACK("louder", 0, NULL, &d->volume, louder, "one step louder"),
        OPT_STRING("note", 0, "TEXT", &d->note, "a help text long enough that it cannot fit "
                   "on one line of an eighty-column terminal, so it wraps onto continuation "
                   "lines under the help column"),
        OPT_END(),
    };
    memcpy(out, opts, sizeof opts);
}

/* ---- running a parse ----------------------------------------------------------------- */

static char *slurp(FILE *f)
{
    assert_non_null(f);
    fflush(f);
    long n = ftell(f);
    char *s = xcalloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(f);
    if (n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n)
        fail_msg("could not read back a captured stream");
    return s;
}

static char *slurp_close(FILE *f)
{
    char *s = slurp(f);
    fclose(f);
    return s;
}

/* What one parse did: its return, exit code, output, and what it set. */
typedef struct parsed {
    int rc, code;
    char *out, *err;            /* stdout (ctx->out) and stderr */
    char *args;                 /* the split arguments, which values point into */
    char *argv[32];
    demo d;
    cli_ctx ctx;
    cli_args rest;
} parsed;

/* A fresh parse of the demo command: its values at their defaults, opts
 * pointing into them, any number of arguments taken. */
static void demo_new(parsed *p, cli_opt opts[DEMO_NOPTS])
{
    memset(p, 0, sizeof *p);
    demo_init(&p->d);
    demo_opts(&p->d, opts);
    p->rest = (cli_args)CLI_ARGS(0, -1, NULL);
}

/* Parses "demo ARGS" (split at spaces) against opts, positional arguments
 * into p->rest unless rest is NULL; stderr is captured by pointing file
 * descriptor 2 at a temporary file for the call. */
static void run_parse(const cli_opt *opts, const char *args, cli_args *rest, parsed *p)
{
    char *save = NULL;
    int argc = 0;
    p->args = xstrdup(args);
    p->argv[argc++] = "demo";
    for (char *tok = strtok_r(p->args, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        p->argv[argc++] = tok;
    p->ctx.db_path = xstrdup("start.db");
    p->ctx.out = tmpfile();
    FILE *err = tmpfile();
    assert_true(p->ctx.out && err);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(err), 2);
    p->code = -1;
    p->rc = cli_parse(&p->ctx, &cmd_demo, opts, argc, p->argv, rest, &p->code);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    p->out = slurp_close(p->ctx.out);
    p->err = slurp_close(err);
}

static void parsed_free(parsed *p)
{
    free(p->out);
    free(p->err);
    free(p->args);
    free(p->ctx.db_path);
    cli_list_free(&p->d.tags);
}

/* The values as " key=value " tokens, so a case can name the ones it checks. */
static char *render(const parsed *p)
{
    const demo *d = &p->d;
    strbuf b = STRBUF_INIT, tags = STRBUF_INIT;
    for (size_t i = 0; i < d->tags.n; i++) {
        strbuf_sep(&tags, ",");
        strbuf_puts(&tags, d->tags.v[i]);
    }
    strbuf_printf(&b, " verbose=%d speed=%d name=%s count=%lld small=%d ratio=%g tau=%g low=%g"
                  " switch=%d seed=%llu volume=%d tags=%s format=%d db=%s rest=%d ", d->verbose,
                  d->speed, d->name ? d->name : "-", (long long)d->count, d->small, d->ratio,
                  d->tau, d->low, d->onoff, (unsigned long long)d->seed, d->volume,
                  strbuf_str(&tags), (int)p->ctx.format, p->ctx.db_path, p->rest.argc);
    strbuf_free(&tags);
    return strbuf_take(&b);
}

/* ---- the cases ------------------------------------------------------------------- */

#define GO (-1)                 /* cli_parse returned 0: the command goes on */

typedef struct parse_case {
    const char *args;           /* after the command's name, split at spaces */
    int code;                   /* GO, or the exit code cli_parse set */
    /* GO: "key=value ..." each of which the parse leaves (see render());
     * EXIT_USAGE: stderr's first line, exactly; EXIT_OK: part of stdout. */
    const char *want;
} parse_case;

static const parse_case cases[] = {
    /* nothing given: the defaults stay */
    {"", GO, "verbose=0 speed=0 name=- count=5 ratio=0.5 tau=0.1 switch=-1 seed=7 tags="},
    /* flags */
    {"-v", GO, "verbose=1"},
    {"--verbose", GO, "verbose=1"},
    {"--fast", GO, "speed=2"},
    {"--fast --slow", GO, "speed=1"},
    {"--louder --louder", GO, "volume=2"},
    {"--verbose=1", EXIT_USAGE, "gpuplan demo: --verbose takes no value"},
    /* strings */
    {"--name x", GO, "name=x"},
    {"--name=y", GO, "name=y"},
    {"-n z", GO, "name=z"},
    {"--name", EXIT_USAGE, "gpuplan demo: --name: missing NAME"},
    {"-n", EXIT_USAGE, "gpuplan demo: --name: missing NAME"},
    /* whole numbers within bounds */
    {"--count 7", GO, "count=7"},
    {"-c 100", GO, "count=100"},
    {"--count 0", EXIT_USAGE,
     "gpuplan demo: --count: expected a whole number in [1, 100], got '0'"},
    {"--count 101", EXIT_USAGE,
     "gpuplan demo: --count: expected a whole number in [1, 100], got '101'"},
    {"--count 2.5", EXIT_USAGE,
     "gpuplan demo: --count: expected a whole number in [1, 100], got '2.5'"},
    {"--small 10", GO, "small=10"},
    {"--small -1", EXIT_USAGE,
     "gpuplan demo: --small: expected a whole number in [0, 10], got '-1'"},
    /* numbers within bounds, open and closed, one-sided */
    {"--ratio 1", GO, "ratio=1"},
    {"--ratio 0", EXIT_USAGE, "gpuplan demo: --ratio: expected a number in (0, 1], got '0'"},
    {"--tau 2.5", GO, "tau=2.5"},
    {"--tau x", EXIT_USAGE, "gpuplan demo: --tau: expected a number >= 1e-06, got 'x'"},
    {"--tau 0", EXIT_USAGE, "gpuplan demo: --tau: expected a number >= 1e-06, got '0'"},
    {"--tau nan", EXIT_USAGE, "gpuplan demo: --tau: expected a number >= 1e-06, got 'nan'"},
    {"--low -1e9", GO, "low=-1e+09"},
    {"--low 4", EXIT_USAGE, "gpuplan demo: --low: expected a number <= 3, got '4'"},
    /* a repeatable list keeps every value in order */
    {"--tag a --tag b -t c", GO, "tags=a,b,c"},
    {"--tag a --tag a", GO, "tags=a,a"},
    /* callbacks */
    {"--switch on", GO, "switch=1"},
    {"--switch off", GO, "switch=0"},
    {"--switch default", GO, "switch=-1"},
    {"--switch maybe", EXIT_USAGE,
     "gpuplan demo: --switch: expected on, off or default, got 'maybe'"},
    {"--seed 9", GO, "seed=9"},
    {"--seed -1", EXIT_USAGE, "gpuplan demo: --seed: expected a non-negative integer, got '-1'"},
    /* the common options */
    {"--format csv", GO, "format=1"},
    {"--db other.db", GO, "db=other.db"},
    {"--format yaml", EXIT_USAGE,
     "gpuplan demo: --format: expected table, csv or json, got 'yaml'"},
    /* what is not an option */
    {"--bogus", EXIT_USAGE, "gpuplan demo: unknown option '--bogus'"},
    {"-x", EXIT_USAGE, "gpuplan demo: unknown option '-x'"},
    {"--s 1", EXIT_USAGE,
     "gpuplan demo: ambiguous option '--s' (--slow, --small, --switch, --seed)"},
    {"--lou", GO, "volume=1"},
    {"a --count 2 b", GO, "count=2 rest=2"},
    {"-- --count", GO, "count=5 rest=1"},
    /* --help stops at once; an earlier error wins */
    {"--help", EXIT_OK, "usage: gpuplan demo [OPTIONS] [ARG...]"},
    {"-h --bogus", EXIT_OK, "Exercise the option parser."},
    {"--bogus --help", EXIT_USAGE, "gpuplan demo: unknown option '--bogus'"},
};

static void check_case(const parse_case *c, const parsed *p)
{
    if (c->code == GO) {
        if (p->rc != 0)
            fail_msg("'%s': stopped (exit %d): %s", c->args, p->code, p->err);
        char *got = render(p), *want = xstrdup(c->want), *save = NULL;
        for (char *tok = strtok_r(want, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            char *token = xasprintf(" %s ", tok);
            if (!strstr(got, token))
                fail_msg("'%s': expected %s in%s", c->args, tok, got);
            free(token);
        }
        free(want);
        free(got);
        return;
    }
    if (p->rc != -1 || p->code != c->code)
        fail_msg("'%s': returned %d with exit %d, expected exit %d", c->args, p->rc, p->code,
                 c->code);
    if (c->code == EXIT_OK) {
        tu_assert_contains(p->out, c->want);
        assert_string_equal(p->err, "");
        return;
    }
    size_t line = strcspn(p->err, "\n");
    if (strlen(c->want) != line || strncmp(p->err, c->want, line) != 0)
        fail_msg("'%s': expected \"%s\", got \"%s\"", c->args, c->want, p->err);
    tu_assert_contains(p->err, "(see 'gpuplan demo --help')");
}

static void test_parse_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        parsed p;
        cli_opt opts[DEMO_NOPTS];
        demo_new(&p, opts);
        run_parse(opts, cases[i].args, &p.rest, &p);
        check_case(&cases[i], &p);
        parsed_free(&p);
    }
}

/* ---- positional arguments and required options ------------------------------------ */

static void test_rest_handed_back(void **state)
{
    (void)state;
    parsed p;
    cli_opt opts[DEMO_NOPTS];
    demo_new(&p, opts);
    run_parse(opts, "KIND -v NAME", &p.rest, &p);
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.d.verbose, 1);
    assert_int_equal(p.rest.argc, 2);
    assert_string_equal(p.rest.argv[0], "KIND");
    assert_string_equal(p.rest.argv[1], "NAME");
    parsed_free(&p);
}

typedef struct count_case {
    cli_args rest;              /* what the command takes */
    const char *args;
    const char *err;            /* stderr's first line; NULL: parsing goes on */
} count_case;

static void test_argument_count(void **state)
{
    (void)state;
    static const count_case counts[] = {
        {CLI_ARGS(2, 2, "KIND and NAME"), "a b", NULL},
        {CLI_ARGS(2, 2, "KIND and NAME"), "a", "gpuplan demo: expected KIND and NAME"},
        {CLI_ARGS(2, 2, "KIND and NAME"), "a b c", "gpuplan demo: expected KIND and NAME"},
        {CLI_ARGS(1, -1, "at least one PATH"), "", "gpuplan demo: expected at least one PATH"},
        {CLI_ARGS(1, -1, "at least one PATH"), "a b c", NULL},
        {CLI_ARGS(0, 1, NULL), "a b", "gpuplan demo: unexpected argument 'b'"},
        {CLI_ARGS(0, -1, NULL), "a b c", NULL},
    };
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        parsed p;
        cli_opt opts[DEMO_NOPTS];
        demo_new(&p, opts);
        p.rest = counts[i].rest;
        run_parse(opts, counts[i].args, &p.rest, &p);
        if (!counts[i].err)
            assert_int_equal(p.rc, 0);
        else if (p.code != EXIT_USAGE || strncmp(p.err, counts[i].err, strlen(counts[i].err)))
            fail_msg("'%s': expected \"%s\", got \"%s\"", counts[i].args, counts[i].err, p.err);
        parsed_free(&p);
    }
    /* a command that takes none passes no cli_args */
    parsed p;
    cli_opt opts[DEMO_NOPTS];
    demo_new(&p, opts);
    run_parse(opts, "-v stray", NULL, &p);
    assert_int_equal(p.code, EXIT_USAGE);
    tu_assert_contains(p.err, "gpuplan demo: unexpected argument 'stray'");
    parsed_free(&p);
}

typedef struct required_case {
    const char *args;
    const char *err;            /* NULL: parsing goes on */
} required_case;

static void test_required(void **state)
{
    (void)state;
    static const required_case rcases[] = {
        {"", "gpuplan demo: --trace and --cluster are required"},
        {"--trace t", "gpuplan demo: --cluster is required"},
        {"--cluster c", "gpuplan demo: --trace is required"},
        {"--cluster c --trace t", NULL},
        {"--help", NULL},           /* help needs nothing else */
    };
    for (size_t i = 0; i < sizeof rcases / sizeof *rcases; i++) {
        const char *trace_name = NULL, *cluster_name = NULL;
        const cli_opt opts[] = {
            OPT_STRING("trace", 0, "NAME", &trace_name, "trace", .required = 1),
            OPT_STRING("cluster", 0, "NAME", &cluster_name, "cluster", .required = 1),
            OPT_END(),
        };
        parsed p;
        memset(&p, 0, sizeof p);
        run_parse(opts, rcases[i].args, NULL, &p);
        if (rcases[i].err) {
            assert_int_equal(p.code, EXIT_USAGE);
            tu_assert_contains(p.err, rcases[i].err);
        } else {
            assert_string_equal(p.err, "");
        }
        parsed_free(&p);
    }
}

/* ---- the help ----------------------------------------------------------------------- */

/* The demo's --help, from the table put into opts. */
static char *demo_help(demo *d, cli_opt opts[DEMO_NOPTS])
{
    demo_init(d);
    demo_opts(d, opts);
    FILE *f = tmpfile();
    cli_help(&cmd_demo, opts, f);
    return slurp_close(f);
}

/* The line of text that holds needle, as a new string. */
static char *line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at)
        fail_msg("no \"%s\" in the help:\n%s", needle, text);
    while (at > text && at[-1] != '\n')
        at--;
    return xstrndup(at, strcspn(at, "\n"));
}

static void test_help_from_table(void **state)
{
    (void)state;
    demo d;
    cli_opt opts[DEMO_NOPTS];
    char *help = demo_help(&d, opts);
    const char *head = "usage: gpuplan demo [OPTIONS] [ARG...]\n\nExercise the option "
                       "parser.\n\nA paragraph that the help shows before the options.\n\n"
                       "Options:\n";
    assert_memory_equal(help, head, strlen(head));
    /* every option of the table, with its argument and default */
    for (const cli_opt *o = opts; o->kind != CLI_OPT_END; o++) {
        char *name = xasprintf("--%s%s%s", o->long_name, o->arg_name ? " " : "",
                               o->arg_name ? o->arg_name : "");
        char *line = line_of(help, name);
        if (o->short_name) {
            char *sh = xasprintf("  -%c, --%s", o->short_name, o->long_name);
            tu_assert_contains(line, sh);
            free(sh);
        }
        free(line);
        if (o->def) {
            char *def = xasprintf("(default: %s)", o->def);
            tu_assert_contains(help, def);
            free(def);
        }
        free(name);
    }
    char *tag = line_of(help, "--tag TAG");
    tu_assert_contains(tag, "a tag (repeatable)");
    free(tag);
    /* the common options come last, then the epilogue */
    const char *last_own = strstr(help, "--note TEXT"), *db = strstr(help, "--db PATH"),
               *fmt = strstr(help, "--format FMT"), *h = strstr(help, "  -h, --help"),
               *epi = strstr(help, "\nThings:\n  thing     what the epilogue lists\n");
    assert_true(last_own && db && fmt && h && epi);
    assert_true(last_own < db && db < fmt && fmt < h && h < epi);
    free(help);
}

static void test_help_wraps(void **state)
{
    (void)state;
    demo d;
    cli_opt opts[DEMO_NOPTS];
    char *help = demo_help(&d, opts);
    /* every option's help starts at one column; long ones wrap under it */
    char *verbose = line_of(help, "--verbose"), *note = line_of(help, "--note TEXT");
    size_t col = (size_t)(strstr(verbose, "say more") - verbose);
    assert_int_equal(strstr(note, "a help text") - note, col);
    free(verbose);
    free(note);
    char *next = line_of(help, "lines under the help column");
    assert_true(strspn(next, " ") == col);
    free(next);
    for (const char *l = help; *l;) {
        size_t n = strcspn(l, "\n");
        if (n > 79)
            fail_msg("line wider than 79 columns: %.*s", (int)n, l);
        l += n + (l[n] == '\n');
    }
    free(help);
}

/* cli_help_row(term, text, col) and what it writes. */
static const struct {
    const char *term, *text, *want;
    size_t col;
} rows[] = {
    {"cats", "least power", "  cats    least power\n", 10},
    /* a term too wide for the column puts the text below it */
    {"a-very-long-term", "text", "  a-very-long-term\n          text\n", 10},
    /* UTF-8 counts by characters: "§" is one column */
    {"§", "x", "  §   x\n", 6},
};

static void test_help_row(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        FILE *f = tmpfile();
        cli_help_row(f, rows[i].term, rows[i].text, rows[i].col);
        char *got = slurp_close(f);
        assert_string_equal(got, rows[i].want);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_cases),
        cmocka_unit_test(test_rest_handed_back),
        cmocka_unit_test(test_argument_count),
        cmocka_unit_test(test_required),
        cmocka_unit_test(test_help_from_table),
        cmocka_unit_test(test_help_wraps),
        cmocka_unit_test(test_help_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
