/*
 * cmd_plot.c — `gpuplan plot run|sweep|plan ... --out FILE`: the charts of
 * the dashboard as SVG or PNG files for reports (io/plot.h draws them with
 * cairo).  A run's (or several runs') time series of a metric; the saved
 * runs of a workload-inflation sweep, averaged per policy; a planner sweep,
 * run with `gpuplan plan`'s own options.  The format follows the file's
 * extension, or --format.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_cost.h"
#include "io/plot_run.h"
#include "plan/plan_chart.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int plot_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_plot = {
    .name = "plot",
    .usage = "run ID... | sweep [ID...] [--trace NAME --cluster NAME] | plan PLAN-OPTIONS; "
             "--out FILE.svg|FILE.png [--metric M]",
    .summary = "Draw a run, an inflation sweep or a planner sweep as SVG or PNG",
    .notes = "run: the metric over time of one or more saved runs (several overlay, as in "
             "Compare). sweep: saved runs of `gpuplan sweep inflation` (the IDs given, or "
             "the latest run of each policy and seed on --trace and --cluster), averaged per "
             "policy against the arrived share. plan: runs `gpuplan plan` with the options "
             "that follow (see 'gpuplan plan --help') and draws the metric per GPU count, "
             "the SLA target and the fewest GPUs meeting it. Run metrics: "
             "gpus|power|frag|jct|queue|alloc|servers|freq, and cost|co2e: the running "
             "total of the energy's USD (with --usd-per-kwh) or kg CO2e (with --carbon), "
             "priced hour by hour as `gpuplan run` prices it; plan metrics: "
             "sla|jct|power|capex|cost|tco|co2e (tco: cost over --years; co2e needs "
             "--carbon).",
    .exec = plot_exec,
};

/* What every kind of plot takes. */
typedef struct plot_opts {
    const char *out, *format, *metric, *trace, *cluster, *policies;
    int width, height;
    plot_format fmt;            /* from --format or --out's name (image_format) */
    cli_cost *cost;             /* run: --usd-per-kwh, --carbon, --pue */
} plot_opts;

static int parse_format(void *value, const char *arg, gp_err *err)
{
    plot_format f;
    if (plot_format_of(NULL, arg, &f, err))
        return -1;
    *(const char **)value = arg;
    return 0;
}

/* Parses the plot's own options; rest gets what is not one. */
static int parse_plot_opts(cli_ctx *ctx, int argc, char **argv, plot_opts *o, cli_args *rest,
                           int *code)
{
    const cli_opt opts[] = {
        OPT_STRING("out", 'o', "FILE", &o->out, "the image to write: FILE.svg or FILE.png",
                   .required = 1),
        OPT_CALLBACK("format", 0, "svg|png", &o->format, parse_format,
                     "image format", .def = "the extension of --out"),
        OPT_STRING("metric", 0, "M", &o->metric, "what to draw (see above)",
                   .def = "gpus for runs, alloc for sweeps, sla for plans"),
        OPT_INT("width", 0, "PX", &o->width, 200, 8000, "image width", .def = "960"),
        OPT_INT("height", 0, "PX", &o->height, 150, 8000, "image height", .def = "540"),
        OPT_STRING("trace", 0, "NAME", &o->trace, "sweep: the trace of the saved runs"),
        OPT_STRING("cluster", 0, "NAME", &o->cluster, "sweep: the cluster of the saved runs"),
        OPT_STRING("policy", 0, "LIST", &o->policies, "sweep: only these policies "
                   "(comma-separated labels)", .def = "every policy swept"),
        CLI_COST_ENERGY_OPTS(o->cost),
        OPT_END(),
    };
    return cli_parse(ctx, &cmd_plot, opts, argc, argv, rest, code);
}

/* The image format, settled before any work (a plan may sweep for
 * minutes); EXIT_OK or the usage error. */
static int image_format(plot_opts *o)
{
    gp_err err = {{0}};
    if (plot_format_of(o->out, o->format, &o->fmt, &err))
        return cli_usage_error(&cmd_plot, "%s", err.msg);
    return EXIT_OK;
}

/* Draws c into o->out and says what was written. */
static int write_chart(cli_ctx *ctx, const plot_opts *o, const plot_chart *c)
{
    gp_err err = {{0}};
    plot_format f = o->fmt;
    if (plot_write(c, o->out, f, o->width, o->height, &err))
        return cli_fail(&err);
    struct stat sb;
    long long size = stat(o->out, &sb) == 0 ? (long long)sb.st_size : -1;
    fprintf(ctx->out, "%s: %s %dx%d, %d series, %zu points, %lld bytes\n", o->out,
            plot_format_name(f), o->width, o->height, c->nseries, plot_npoints(c), size);
    return EXIT_OK;
}

static int metric_arg(const plot_opts *o, const char *def, int *m)
{
    *m = plot_metric_parse(o->metric ? o->metric : def);
    if (*m < 0)
        return cli_usage_error(&cmd_plot, "--metric: expected %s (or cost|co2e of a run), "
                               "got '%s'", plot_metric_list(), o->metric);
    return EXIT_OK;
}

static void free_runs(run **runs, int n)
{
    for (int i = 0; i < n; i++)
        run_free(runs[i]);
    free(runs);
}

/* Loads the runs named by id in args[0..n). */
static int load_runs(store *st, char **args, int n, run ***out, gp_err *err)
{
    run **runs = xcalloc((size_t)(n ? n : 1), sizeof *runs);
    for (int i = 0; i < n; i++) {
        int64_t id;
        if (parse_int64(args[i], &id)) {
            free_runs(runs, i);
            return gp_error(err, "runs are named by id; '%s' is not a number", args[i]);
        }
        if (store_get_run(st, id, &runs[i], err)) {
            free_runs(runs, i);
            return -1;
        }
    }
    *out = runs;
    return 0;
}

/* Runs drawn together share an axis: all over time, or all inflation runs
 * over the arrived share, which have no JCT, servers or clock curves. */
static int check_axes(run *const *runs, int n, plot_metric m, gp_err *err)
{
    for (int i = 0; i < n; i++) {
        int infl = plot_run_is_inflation(runs[i]);
        if (infl != plot_run_is_inflation(runs[0]))
            return gp_error(err, "runs %lld and %lld cannot share a chart: one is an "
                            "inflation run, drawn against the arrived share, the other over "
                            "time", (long long)runs[0]->id, (long long)runs[i]->id);
        if (infl && !plot_metric_in_inflation(m))
            return gp_error(err, "run %lld is an inflation run: it has no %s curve (it has "
                            "gpus, alloc, frag, power and queue)", (long long)runs[i]->id,
                            plot_metric_name(m));
    }
    return 0;
}

/* --metric cost|co2e of runs: the running total of their energy's money
 * or carbon, refused without the price (carbon) it needs. */
static int plot_runs_money(cli_ctx *ctx, const plot_opts *o, run **runs, int n)
{
    const cli_cost *c = o->cost;
    int usd = strcmp(o->metric, "cost") == 0;
    if (usd && !c->price && !(c->pr.usd_per_kwh.constant > 0))
        return cli_usage_error(&cmd_plot, "plot run --metric cost: no electricity price: give "
                               "--usd-per-kwh X|FILE");
    if (!usd && !cli_cost_has_carbon(c))
        return cli_usage_error(&cmd_plot, "plot run --metric co2e: no carbon intensity: give "
                               "--carbon G|FILE");
    gp_err err = {{0}};
    for (int i = 0; i < n; i++)
        if (plot_run_is_inflation(runs[i])) {
            gp_error(&err, "run %lld is an inflation run: it has no time to price its energy "
                     "over", (long long)runs[i]->id);
            return cli_fail(&err);
        }
    plot_chart *ch = plot_runs_money_chart((const run *const *)runs, n,
                                           usd ? PLOT_MONEY_USD : PLOT_MONEY_CO2E, &c->pr);
    int code = write_chart(ctx, o, ch);
    plot_free(ch);
    return code;
}

/* cost and co2e are drawn from prices; the others from the timeline. */
static int money_metric(const plot_opts *o)
{
    return o->metric && (strcmp(o->metric, "cost") == 0 || strcmp(o->metric, "co2e") == 0);
}

static int plot_runs(cli_ctx *ctx, const plot_opts *o, const cli_args *rest)
{
    int m = 0, code;
    if (rest->argc < 2)
        return cli_usage_error(&cmd_plot, "plot run: expected one or more run IDs");
    if (o->trace || o->cluster || o->policies)
        return cli_usage_error(&cmd_plot, "plot run: --trace, --cluster and --policy choose "
                               "a sweep's runs; a run is named by its ID");
    if (rest->argc - 1 > PLOT_MAX_SERIES)
        return cli_usage_error(&cmd_plot, "plot run: at most %d runs", PLOT_MAX_SERIES);
    if (!money_metric(o) && (code = metric_arg(o, "gpus", &m)) != EXIT_OK)
        return code;
    if (!money_metric(o) && o->cost->asked)
        return cli_usage_error(&cmd_plot, "plot run: --usd-per-kwh, --carbon and --pue price "
                               "--metric cost or co2e");
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    run **runs;
    gp_err err = {{0}};
    if (load_runs(st, rest->argv + 1, rest->argc - 1, &runs, &err))
        return cli_fail(&err);
    if (money_metric(o)) {
        code = plot_runs_money(ctx, o, runs, rest->argc - 1);
        free_runs(runs, rest->argc - 1);
        return code;
    }
    if (check_axes(runs, rest->argc - 1, (plot_metric)m, &err)) {
        free_runs(runs, rest->argc - 1);
        return cli_fail(&err);
    }
    plot_chart *c = plot_runs_chart((const run *const *)runs, rest->argc - 1, (plot_metric)m);
    code = write_chart(ctx, o, c);
    plot_free(c);
    free_runs(runs, rest->argc - 1);
    return code;
}

/* 1 when label is in the comma-separated list (or there is no list). */
static int listed(const char *list, const char *label)
{
    if (!list)
        return 1;
    size_t n = strlen(label);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, label, n) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Whether run b repeats the policy and seed of a run already kept. */
static int repeats(run *const *kept, int n, const run *b)
{
    for (int i = 0; i < n; i++)
        if (strcmp(kept[i]->policy, b->policy) == 0 && kept[i]->seed == b->seed)
            return 1;
    return 0;
}

/* The saved inflation runs on trace and cluster, newest first, one per
 * policy and seed (a sweep run again replaces the older runs). */
static int find_sweep_runs(store *st, const plot_opts *o, run ***out, int *nout, gp_err *err)
{
    store_item *items;
    size_t n;
    if (store_list(st, STORE_RUN, &items, &n, err))
        return -1;
    run **runs = NULL;
    size_t cap = 0;
    int k = 0, rc = 0;
    for (size_t i = n; i-- > 0 && rc == 0;) {
        if (strncmp(items[i].name, "inflation ", 10) != 0)
            continue;
        run *r;
        if ((rc = store_get_run(st, items[i].id, &r, err)) != 0)
            break;
        if (strcmp(r->trace_name, o->trace) != 0 || strcmp(r->cluster_name, o->cluster) != 0 ||
            !listed(o->policies, r->policy) || repeats(runs, k, r)) {
            run_free(r);
            continue;
        }
        grow_array((void **)&runs, &cap, (size_t)k + 1, sizeof *runs);
        runs[k++] = r;
    }
    free(items);
    if (rc == 0 && k == 0)
        rc = gp_error(err, "no saved inflation runs of trace '%s' on cluster '%s' (run "
                      "'gpuplan sweep inflation --trace %s --cluster %s' first)", o->trace,
                      o->cluster, o->trace, o->cluster);
    if (rc) {
        free_runs(runs, k);
        return -1;
    }
    /* Oldest first, so policies are drawn in the order they were swept. */
    for (int a = 0, b = k - 1; a < b; a++, b--) {
        run *t = runs[a];
        runs[a] = runs[b];
        runs[b] = t;
    }
    *out = runs;
    *nout = k;
    return 0;
}

static int plot_sweep(cli_ctx *ctx, const plot_opts *o, const cli_args *rest)
{
    int m, code, n = rest->argc - 1;
    if ((code = metric_arg(o, "alloc", &m)) != EXIT_OK)
        return code;
    if (!plot_metric_in_inflation((plot_metric)m))
        return cli_usage_error(&cmd_plot, "plot sweep: --metric %s has no inflation curve "
                               "(expected gpus, alloc, frag, power or queue)", o->metric);
    if (n == 0 && (!o->trace || !o->cluster))
        return cli_usage_error(&cmd_plot, "plot sweep: give run IDs, or --trace and --cluster "
                               "of the saved sweep");
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    run **runs;
    gp_err err = {{0}};
    if (n > 0 ? load_runs(st, rest->argv + 1, n, &runs, &err)
              : find_sweep_runs(st, o, &runs, &n, &err))
        return cli_fail(&err);
    for (int i = 0; i < n; i++)
        if (!plot_run_is_inflation(runs[i])) {
            gp_error(&err, "run %lld is not an inflation run (plot it with 'gpuplan plot run')",
                     (long long)runs[i]->id);
            free_runs(runs, n);
            return cli_fail(&err);
        }
    plot_chart *c = plot_sweep_chart((const run *const *)runs, n, (plot_metric)m);
    code = write_chart(ctx, o, c);
    plot_free(c);
    free_runs(runs, n);
    return code;
}

/* --- plan: the plot's options taken out, the rest is `gpuplan plan`'s ----- */

/* 1 when arg is one of plot's own options (its help among them, so `plot
 * plan --help` describes plot). */
static int plot_option(const char *arg, int *takes_value)
{
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        *takes_value = 0;
        return 1;
    }
    static const char *const own[] = {"--out", "-o", "--format", "--metric", "--width",
                                      "--height"};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        size_t n = strlen(own[i]);
        if (strncmp(arg, own[i], n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
            *takes_value = arg[n] == '\0';
            return 1;
        }
    }
    return 0;
}

static int plan_metric_of(const char *name, plan_metric *m)
{
    /* tco: the cost over the horizon, which with --years is the TCO */
    if (name && strcmp(name, "tco") == 0) {
        *m = PM_COST;
        return 0;
    }
    for (int i = 0; i < PM_NMETRICS; i++)
        if (strcmp(plan_metric_word((plan_metric)i), name ? name : "sla") == 0) {
            *m = (plan_metric)i;
            return 0;
        }
    return -1;
}

static int draw_plan(cli_ctx *ctx, const plot_opts *o, const plan_params *p)
{
    plan_metric m;
    if (plan_metric_of(o->metric, &m))
        return cli_usage_error(&cmd_plot, "--metric: expected sla|jct|power|capex|cost|tco|co2e "
                               "for a plan, got '%s'", o->metric);
    if (m == PM_CO2E && !(p->g_co2e_per_kwh > 0))
        return cli_usage_error(&cmd_plot, "--metric co2e: no carbon intensity: give --carbon "
                               "G|FILE");
    plan pl;
    memset(&pl, 0, sizeof pl);
    gp_err err = {{0}};
    int code = EXIT_OK;
    if (plan_start(&pl, cli_store(ctx), p, &err) == 0) {
        while (plan_tick(&pl, 0.5))
            ;
        if (pl.state == PLAN_FAILED)
            gp_error(&err, "%s", pl.err);
    }
    if (err.msg[0])
        code = cli_fail(&err);
    else {
        plot_chart *c = plan_chart(&pl, m, &pl.p);
        code = write_chart(ctx, o, c);
        char answer[224];
        plan_answer(&pl, &pl.p, 1, answer, sizeof answer);
        if (code == EXIT_OK)
            fprintf(ctx->out, "%s\n", answer);
        plot_free(c);
    }
    plan_free(&pl);
    return code;
}

static int plot_plan(cli_ctx *ctx, int argc, char **argv)
{
    char **mine = xcalloc((size_t)argc + 1, sizeof *mine);
    char **theirs = xcalloc((size_t)argc + 1, sizeof *theirs);
    int nm = 1, nt = 1, code = EXIT_OK;
    mine[0] = argv[0];
    theirs[0] = argv[1];        /* "plan": its help and messages name it */
    for (int i = 2; i < argc; i++) {
        int takes;
        if (plot_option(argv[i], &takes)) {
            mine[nm++] = argv[i];
            if (takes && i + 1 < argc)
                mine[nm++] = argv[++i];
        } else
            theirs[nt++] = argv[i];
    }
    cli_cost cost;              /* plan's prices are plan's options, not these */
    cli_cost_init(&cost);
    plot_opts o = {.width = PLOT_WIDTH, .height = PLOT_HEIGHT, .cost = &cost};
    plan_params p;
    cli_args none = CLI_ARGS(0, 0, NULL);
    int quiet = 0;
    if (parse_plot_opts(ctx, nm, mine, &o, &none, &code) == 0 &&
        (code = image_format(&o)) == EXIT_OK &&
        cmd_plan_parse(ctx, nt, theirs, &p, &quiet, &code) == 0) {
        if (p.shard.n > 1)
            code = cli_usage_error(&cmd_plot, "a plot draws the whole plan: no --shard (merge "
                                   "the shards, then plot on the merged database)");
        else
            code = draw_plan(ctx, &o, &p);
    }
    free(mine);
    free(theirs);
    cli_cost_free(&cost);
    return code;
}

/* A run's or a sweep's plot, once its options are read. */
static int plot_saved(cli_ctx *ctx, const plot_opts *o, const cli_args *rest)
{
    if (rest->argc == 0)
        return cli_usage_error(&cmd_plot, "expected what to plot: run, sweep or plan");
    if (strcmp(rest->argv[0], "run") == 0)
        return plot_runs(ctx, o, rest);
    if (strcmp(rest->argv[0], "sweep") == 0 && o->cost->asked)
        return cli_usage_error(&cmd_plot, "plot sweep: --usd-per-kwh, --carbon and --pue "
                               "price a run's energy (plot run --metric cost|co2e)");
    if (strcmp(rest->argv[0], "sweep") == 0)
        return plot_sweep(ctx, o, rest);
    return cli_usage_error(&cmd_plot, "unknown plot '%s' (expected run, sweep or plan)",
                           rest->argv[0]);
}

static int plot_exec(cli_ctx *ctx, int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "plan") == 0)
        return plot_plan(ctx, argc, argv);
    cli_cost cost;
    cli_cost_init(&cost);
    plot_opts o = {.width = PLOT_WIDTH, .height = PLOT_HEIGHT, .cost = &cost};
    cli_args rest = CLI_ARGS(0, -1, NULL);
    int code;
    if (parse_plot_opts(ctx, argc, argv, &o, &rest, &code) == 0 &&
        (code = image_format(&o)) == EXIT_OK)
        code = plot_saved(ctx, &o, &rest);
    cli_cost_free(&cost);
    return code;
}
