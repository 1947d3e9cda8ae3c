/*
 * cmd_run.c — `gpuplan run`: simulate one or more policies on the same
 * trace and cluster (SPEC §6, §7.2) and print one comparison row per
 * policy; optionally the placement log with reasons (--explain) and the
 * timelines as CSV (--timeline).  Each run is saved in the store (unless
 * --no-save) and can be reopened with `gpuplan show run ID`.
 *
 * The simulation itself is sim.h's; this file only parses options, loads
 * the inputs, and formats results.
 */
#include "cli.h"
#include "policy/corr_place.h"
#include "sim/sim.h"
#include "solve/optimal.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_POLICIES "cats,corrgpu,first,hotcloud,harmony"
#define MAX_POLICIES 16

static int run_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_run = {
    .name = "run",
    .usage = "--trace NAME --cluster NAME [--policy LIST] [OPTIONS]",
    .summary = "Simulate policies side by side on one trace and cluster",
    .help =
        "  --trace NAME        trace to replay (required)\n"
        "  --cluster NAME      cluster to run it on (required)\n"
        "  --policy LIST       comma-separated policies, each NAME or NAME:VALUE (VALUE\n"
        "                      sets its first option); default " DEFAULT_POLICIES "\n"
        "  --set P.KEY=VALUE   a policy option, e.g. cats.lambda1=2 (repeatable)\n"
        "  --power MODEL       cats (CATS eq. 1-4) or eopc (PWR eq. 1-3); default: the\n"
        "                      policy's (cats for the correlation family)\n"
        "  --queue | --fail    when nothing fits: wait in a FIFO queue (default) or fail\n"
        "  --unbounded         open a new server when nothing fits (CorrGPU's CapEx pool)\n"
        "  --sleep on|off      CATS Alg. 3 periodic sleep; default on for the correlation\n"
        "                      family (CATS §6: for all the solutions), off otherwise\n"
        "  --dfs on|off        CATS Alg. 4 frequency adaptation; default on for cats only\n"
        "  --tau S             power-manager period (default 0.1, CATS §3.5)\n"
        "  --delta-f MHZ       DFS step (default 15)\n"
        "  --kappa K           SLA factor for every task (default: each task's, 1.2)\n"
        "  --seed N            random seed (default 42)\n"
        "  --sample S          timeline period in s, 0 = every event (default: adaptive,\n"
        "                      about 2000 points)\n"
        "  --timeline FILE     write every policy's timeline as CSV (policy column)\n"
        "  --explain           print the placement log with each decision's reason\n"
        "  --optimal MODE      add CATS's optimum as a row (the papers' Optimal bar):\n"
        "                      auto (default: when the trace has at most 256 GPU tasks\n"
        "                      and the power model is cats; 30 s), on (any size, 600 s)\n"
        "                      or off\n"
        "  --no-save           do not store the runs\n",
    .exec = run_exec,
};

typedef struct run_opts {
    const char *trace, *cluster, *policies, *timeline;
    const char *sets[64];
    size_t nsets;
    sim_config cfg;
    int explain, no_save;
    int optimal;                /* -1 auto, 0 off, 1 on */
} run_opts;

/* ---- options ------------------------------------------------------------------ */

static void print_policy(const policy_ops *p)
{
    printf("  %-10s %s\n", p->name, p->title);
    for (int k = 0; p->options && p->options[k].key; k++)
        printf("      %s.%s=%g\n          %s\n", p->name, p->options[k].key, p->options[k].def,
               p->options[k].help);
}

static void print_help(void)
{
    cli_usage(&cmd_run, stdout);
    printf("\nPolicies and their options (defaults are the papers'):\n");
    const policy_ops *p;
    for (int f = 0; f < FAMILY_COUNT; f++)
        for (size_t i = 0; (p = policy_family_nth((policy_family)f, i)); i++)
            print_policy(p);
}

static int parse_onoff(const char *s, int *out)
{
    if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0)
        *out = 1;
    else if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
        *out = 0;
    else if (strcmp(s, "default") == 0)
        *out = -1;
    else
        return -1;
    return 0;
}

static int parse_number(const char *opt, const char *arg, double lo, double *out)
{
    if (parse_double(arg, out) || *out < lo) {
        cli_usage_error(&cmd_run, "%s: expected a number >= %g, got '%s'", opt, lo, arg);
        return -1;
    }
    return 0;
}

enum { O_TRACE = 256, O_CLUSTER, O_POLICY, O_SET, O_POWER, O_QUEUE, O_FAIL, O_UNBOUNDED,
       O_SLEEP, O_DFS, O_TAU, O_DELTA_F, O_KAPPA, O_SEED, O_SAMPLE, O_TIMELINE, O_EXPLAIN,
       O_NO_SAVE, O_OPTIMAL };

/* One option that is not common; -1 on a bad value (usage printed). */
static int handle_opt(run_opts *o, int c, const char *arg)
{
    sim_config *cfg = &o->cfg;
    int64_t seed;
    switch (c) {
    case O_TRACE: o->trace = arg; return 0;
    case O_CLUSTER: o->cluster = arg; return 0;
    case O_POLICY: o->policies = arg; return 0;
    case O_TIMELINE: o->timeline = arg; return 0;
    case O_EXPLAIN: o->explain = cfg->keep_explain = 1; return 0;
    case O_NO_SAVE: o->no_save = 1; return 0;
    case O_OPTIMAL:
        if (strcmp(arg, "auto") == 0)
            o->optimal = -1;
        else if (parse_onoff(arg, &o->optimal) || o->optimal < 0) {
            cli_usage_error(&cmd_run, "--optimal: expected auto, on or off, got '%s'", arg);
            return -1;
        }
        return 0;
    case O_QUEUE: cfg->full = SIM_QUEUE; return 0;
    case O_FAIL: cfg->full = SIM_FAIL; return 0;
    case O_UNBOUNDED: cfg->unbounded = 1; return 0;
    case O_SET:
        if (o->nsets == sizeof o->sets / sizeof *o->sets) {
            cli_usage_error(&cmd_run, "too many --set options");
            return -1;
        }
        o->sets[o->nsets++] = arg;
        return 0;
    case O_POWER:
        if ((cfg->power_model = power_model_parse(arg)) < 0) {
            cli_usage_error(&cmd_run, "--power: expected cats or eopc, got '%s'", arg);
            return -1;
        }
        return 0;
    case O_SLEEP:
    case O_DFS:
        if (parse_onoff(arg, c == O_SLEEP ? &cfg->sleep : &cfg->dfs)) {
            cli_usage_error(&cmd_run, "%s: expected on, off or default, got '%s'",
                            c == O_SLEEP ? "--sleep" : "--dfs", arg);
            return -1;
        }
        return 0;
    case O_TAU: return parse_number("--tau", arg, 1e-6, &cfg->tau_s);
    case O_DELTA_F: return parse_number("--delta-f", arg, 1e-6, &cfg->delta_f_mhz);
    case O_KAPPA: return parse_number("--kappa", arg, 1, &cfg->kappa);
    case O_SAMPLE: return parse_number("--sample", arg, 0, &cfg->sample_s);
    case O_SEED:
        if (parse_int64(arg, &seed) || seed < 0) {
            cli_usage_error(&cmd_run, "--seed: expected a non-negative integer, got '%s'",
                            arg);
            return -1;
        }
        cfg->seed = (uint64_t)seed;
        return 0;
    default:
        return -1;
    }
}

/* 0 to go on, -1 with *code when the command is done (help, usage error). */
static int parse_args(cli_ctx *ctx, int argc, char **argv, run_opts *o, int *code)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        {"trace", required_argument, NULL, O_TRACE},
        {"cluster", required_argument, NULL, O_CLUSTER},
        {"policy", required_argument, NULL, O_POLICY},
        {"set", required_argument, NULL, O_SET},
        {"power", required_argument, NULL, O_POWER},
        {"queue", no_argument, NULL, O_QUEUE},
        {"fail", no_argument, NULL, O_FAIL},
        {"unbounded", no_argument, NULL, O_UNBOUNDED},
        {"sleep", required_argument, NULL, O_SLEEP},
        {"dfs", required_argument, NULL, O_DFS},
        {"tau", required_argument, NULL, O_TAU},
        {"delta-f", required_argument, NULL, O_DELTA_F},
        {"kappa", required_argument, NULL, O_KAPPA},
        {"seed", required_argument, NULL, O_SEED},
        {"sample", required_argument, NULL, O_SAMPLE},
        {"timeline", required_argument, NULL, O_TIMELINE},
        {"explain", no_argument, NULL, O_EXPLAIN},
        {"no-save", no_argument, NULL, O_NO_SAVE},
        {"optimal", required_argument, NULL, O_OPTIMAL},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (c == 'h') {
            print_help();
            *code = EXIT_OK;
            return -1;
        }
        int h = cli_common_opt(ctx, &cmd_run, c, optarg, code);
        if (h < 0)
            return -1;
        if (h == 0 && handle_opt(o, c, optarg) < 0) {
            *code = EXIT_USAGE;
            return -1;
        }
    }
    *code = EXIT_USAGE;
    if (optind < argc) {
        cli_usage_error(&cmd_run, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!o->trace || !o->cluster) {
        cli_usage_error(&cmd_run, "--trace and --cluster are required");
        return -1;
    }
    return 0;
}

/* Parses --policy and applies every --set; usage error printed on failure. */
static int build_specs(const run_opts *o, policy_spec *specs, size_t *n)
{
    char *list = xstrdup(o->policies ? o->policies : DEFAULT_POLICIES), *save = NULL;
    gp_err err = {{0}};
    *n = 0;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == MAX_POLICIES || policy_spec_parse(tok, &specs[*n], &err)) {
            cli_usage_error(&cmd_run, "%s", *n == MAX_POLICIES ? "too many policies" : err.msg);
            free(list);
            return -1;
        }
        (*n)++;
    }
    free(list);
    if (*n == 0) {
        cli_usage_error(&cmd_run, "--policy: no policy given");
        return -1;
    }
    for (size_t i = 0; i < o->nsets; i++) {
        const char *dot = strchr(o->sets[i], '.');
        size_t plen = dot ? (size_t)(dot - o->sets[i]) : 0, hits = 0;
        for (size_t k = 0; k < *n && dot; k++) {
            if (strlen(specs[k].ops->name) != plen ||
                strncmp(specs[k].ops->name, o->sets[i], plen) != 0)
                continue;
            if (policy_spec_set(&specs[k], dot + 1, &err)) {
                cli_usage_error(&cmd_run, "--set: %s", err.msg);
                return -1;
            }
            hits++;
        }
        if (!hits) {
            cli_usage_error(&cmd_run, "--set %s: expected POLICY.KEY=VALUE for a policy given "
                            "with --policy", o->sets[i]);
            return -1;
        }
    }
    return 0;
}

/* ---- running ------------------------------------------------------------------- */

typedef struct inputs {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} inputs;

static void inputs_free(inputs *in)
{
    catalog_free(in->cat);
    cluster_free(in->cl);
    trace_free(in->tr);
}

static int load_inputs(store *st, const run_opts *o, inputs *in, gp_err *err)
{
    memset(in, 0, sizeof *in);
    if (store_load_catalog(st, &in->cat, err) || store_get_cluster(st, o->cluster, &in->cl, err) ||
        store_get_trace(st, o->trace, &in->tr, err))
        return -1;
    return 0;
}

static run *simulate(const run_opts *o, const inputs *in, const policy_spec *sp, gp_err *err)
{
    sim_config cfg = o->cfg;
    cfg.checkpoint_every = 0;       /* headless: nobody rewinds */
    sim *s = sim_new(&cfg, in->cl, in->cat, in->tr, sp, err);
    if (!s)
        return NULL;
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    return r;
}

static void print_explain(FILE *out, run *const *runs, size_t n, const gp_trace *tr)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "== %s: placement log (%zu decisions)\n", runs[i]->name,
                runs[i]->ndecisions);
        for (size_t k = 0; k < runs[i]->ndecisions; k++) {
            const run_decision *d = &runs[i]->decisions[k];
            fprintf(out, "#%d t=%.3f %s: %s\n", d->seq, d->t_s, tr->tasks[d->task].name,
                    d->reason ? d->reason : "");
        }
    }
    fprintf(out, "\n");
}

/* Writes the timelines into f (opened before simulating, so a bad path
 * fails fast) and closes it. */
static int write_timeline(FILE *f, const char *path, run *const *runs, size_t n, gp_err *err)
{
    fprintf(f, "policy,t_s,active_gpus,awake_gpus,active_servers,power_w,gpu_w,cpu_w,"
               "static_w,frag,alloc_ratio,queued,mean_freq_mhz\n");
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < runs[i]->npoints; k++) {
            const run_point *p = &runs[i]->points[k];
            csv_put(f, runs[i]->name);
            fprintf(f, ",%.10g,%g,%g,%g,%.10g,%.10g,%.10g,%.10g,%.10g,%.6g,%g,%.6g\n", p->t_s,
                    p->active_gpus, p->awake_gpus, p->active_servers, p->power_w, p->gpu_w,
                    p->cpu_w, p->static_w, p->frag, p->alloc_ratio, p->queued,
                    p->mean_freq_mhz);
        }
    }
    if (fclose(f) != 0)
        return gp_error(err, "%s: write failed", path);
    return 0;
}

/* ---- the comparison table --------------------------------------------------------- */

static double metric(const run *r, const char *key)
{
    return run_metric_get(r, key, 0);
}

/* ---- the Optimal row ------------------------------------------------------------ */

/* CATS's optimum over the trace when --optimal asks for it: 1 with *row
 * filled, 0 when skipped, -1 on an error of --optimal on.  In auto mode a
 * failed solve is a note on stderr, not an error: the row is a bonus. */
static int optimal_row(const run_opts *o, const inputs *in, const policy_spec *specs, size_t n,
                       solve_run_row *row, gp_err *err)
{
    if (o->optimal == 0 || (o->optimal < 0 && !optimal_row_wanted(&o->cfg, in->tr, specs, n)))
        return 0;
    if (optimal_row_compute(&o->cfg, in->cl, in->cat, in->tr, o->optimal > 0 ? 600 : 30, row,
                            err) == 0)
        return 1;
    if (o->optimal > 0)
        return -1;
    fprintf(stderr, "gpuplan: no optimal row: %s\n", err->msg);
    return 0;
}

static void print_optimal(table *t, const solve_run_row *row, double best, double kappa)
{
    double rel = best > 0 && isfinite(best) ? row->jct_mean_s / best : 0;
    table_row(t);
    table_cell(t, "%s", row->proven ? "optimal" : "optimal~");
    table_cell(t, "%.2f", row->mean_gpus);
    table_cell(t, "%.0f", row->peak_gpus);
    table_cell(t, "%s", "");
    table_cell(t, "%s", "");
    table_cell(t, "%s", "");
    table_cell(t, "%.1f", row->mean_power_w);
    table_cell(t, "%.3f", row->energy_j / 3.6e6);
    table_cell(t, "%s", "");
    table_cell(t, "%.1f", row->jct_mean_s);
    table_cell(t, "%s", "");
    table_cell(t, "%.3f", rel);
    table_cell(t, "%s", rel <= kappa + 1e-12 ? "yes" : "no");
    for (int k = 0; k < 4; k++)
        table_cell(t, "%s", "");
}

static void print_table(cli_ctx *ctx, run *const *runs, size_t n, const solve_run_row *opt,
                        double kappa)
{
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (metric(runs[i], "completed") > 0)
            best = fmin(best, metric(runs[i], "jct_mean_s"));
    table *t = table_new();
    static const char *const cols[] = {
        "policy", "avg_gpus", "peak_gpus", "unique_gpus", "capex_usd", "avg_servers",
        "avg_power_w", "energy_kwh", "mean_mhz", "jct_mean_s", "jct_p95_s", "jct_vs_best",
        "within_sla", "sla_viol", "failed", "wakeups", "run"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c != 0 && c != 12);
    for (size_t i = 0; i < n; i++) {
        const run *r = runs[i];
        double rel = best > 0 && isfinite(best) ? metric(r, "jct_mean_s") / best : 0;
        table_row(t);
        table_cell(t, "%s", r->name);
        table_cell(t, "%.2f", metric(r, "avg_gpus"));
        table_cell(t, "%.0f", metric(r, "peak_gpus"));
        table_cell(t, "%.0f", metric(r, "unique_gpus"));
        table_cell(t, "%.0f", metric(r, "capex_usd"));
        table_cell(t, "%.2f", metric(r, "avg_servers"));
        table_cell(t, "%.1f", metric(r, "avg_power_w"));
        table_cell(t, "%.3f", metric(r, "energy_j") / 3.6e6);
        table_cell(t, "%.0f", metric(r, "mean_freq_mhz"));
        table_cell(t, "%.1f", metric(r, "jct_mean_s"));
        table_cell(t, "%.1f", metric(r, "jct_p95_s"));
        table_cell(t, "%.3f", rel);
        /* The papers' SLA on normalised JCT: within kappa of the fastest
         * policy (CATS §6: 1.2 x HotCloud's). */
        table_cell(t, "%s", rel <= kappa + 1e-12 ? "yes" : "no");
        table_cell(t, "%.0f", metric(r, "sla_violations"));
        table_cell(t, "%.0f", metric(r, "failed_tasks"));
        table_cell(t, "%.0f", metric(r, "wakeups"));
        table_cell(t, "%lld", (long long)r->id);
    }
    if (opt)
        print_optimal(t, opt, best, kappa);
    table_print(t, ctx->format, ctx->out, "(no runs)");
    table_free(t);
}

/* ---- the command -------------------------------------------------------------------- */

static int save_runs(store *st, run *const *runs, size_t n, gp_err *err)
{
    if (store_begin(st, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (store_put_run(st, runs[i], err)) {
            store_rollback(st);
            return -1;
        }
    }
    return store_commit(st, err);
}

static int run_policies(cli_ctx *ctx, store *st, const run_opts *o, const inputs *in,
                        const policy_spec *specs, size_t n)
{
    run *runs[MAX_POLICIES] = {0};
    gp_err err = {{0}};
    FILE *tl = NULL;
    if (o->timeline && !(tl = fopen(o->timeline, "w"))) {
        gp_error(&err, "%s: cannot write (%s)", o->timeline, strerror(errno));
        return cli_fail(&err);
    }
    int rc = EXIT_OK;
    size_t done = 0;
    for (; done < n; done++)
        if (!(runs[done] = simulate(o, in, &specs[done], &err)))
            break;
    if (done < n)
        rc = cli_fail(&err);
    else if (tl && write_timeline(tl, o->timeline, runs, n, &err))
        rc = cli_fail(&err);
    else if (!o->no_save && save_runs(st, runs, n, &err))
        rc = cli_fail(&err);
    if (tl && done < n)
        fclose(tl);
    tl = NULL;
    solve_run_row opt;
    int has_opt = 0;
    if (rc == EXIT_OK && (has_opt = optimal_row(o, in, specs, n, &opt, &err)) < 0)
        rc = cli_fail(&err);
    if (rc == EXIT_OK) {
        if (o->explain)
            print_explain(ctx->out, runs, n, in->tr);
        print_table(ctx, runs, n, has_opt ? &opt : NULL,
                    o->cfg.kappa > 0 ? o->cfg.kappa : GP_DEFAULT_KAPPA);
        if (has_opt && ctx->format == FMT_TABLE)
            fprintf(ctx->out, "optimal: CATS eq. 6-14 re-solved at each of %d task sets, each "
                    "task for kappa x its duration%s\n", opt.intervals,
                    opt.proven ? "" : " (optimal~: not every set proven)");
    }
    for (size_t i = 0; i < n; i++)
        run_free(runs[i]);
    return rc;
}

static int run_exec(cli_ctx *ctx, int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.optimal = -1;
    sim_config_default(&o.cfg);
    int code;
    if (parse_args(ctx, argc, argv, &o, &code))
        return code;
    policy_spec specs[MAX_POLICIES];
    size_t n;
    if (build_specs(&o, specs, &n))
        return EXIT_USAGE;
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    inputs in;
    gp_err err = {{0}};
    if (load_inputs(st, &o, &in, &err)) {
        inputs_free(&in);
        return cli_fail(&err);
    }
    int rc = run_policies(ctx, st, &o, &in, specs, n);
    inputs_free(&in);
    return rc;
}
