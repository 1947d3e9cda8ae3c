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
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_whatif.h"
#include "cli_cap.h"
#include "cli_cost.h"
#include "core/fit.h"
#include "core/runsum.h"
#include "core/speed.h"
#include "io/export_file.h"
#include "plan/par.h"
#include "policy/corr_place.h"
#include "sim/sim.h"
#include "peace/peace_load.h"
#include "predict/gogh_load.h"
#include "plan/optimal.h"
#include "cli_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_POLICIES "cats,corrgpu,first,hotcloud,harmony"
#define MAX_POLICIES 16

static int run_exec(cli_ctx *ctx, int argc, char **argv);
static void print_policies(FILE *out);

const cli_cmd cmd_run = {
    .name = "run",
    .usage = "--trace NAME --cluster NAME [--policy LIST] [OPTIONS]\n"
             "       --from-snapshot NAME [--trace NAME] [--more N] [--policy LIST] [OPTIONS]",
    .summary = "Simulate policies side by side on one trace and cluster",
    .exec = run_exec,
    .help_epilogue = print_policies,
};

typedef struct run_opts {
    const char *trace, *cluster, *policies, *timeline;
    cli_list sets;              /* --set P.KEY=VALUE */
    cli_list predict_for;       /* --predict-policy P=NAME */
    int util_window;            /* --util-window, -1 = the policies' own */
    int corr_grid;              /* --corr-grid, -1 = the policies' own */
    sim_config cfg;
    int full;                   /* --queue or --fail, into cfg.full */
    int explain, no_save;
    int optimal;                /* -1 auto, 0 off, 1 on */
    power_caps caps;            /* --gpu-cap */
    const char *peace_set, *peace_model;
    const char *tput;           /* --tput NAME|none, NULL = the trace's own */
    const char *nets;           /* --gogh-nets NAME|none, NULL = the table's */
    cli_whatif wi;              /* --from-snapshot and its options */
    int jobs;                   /* simulations at once (-j) */
    cli_cost cost;              /* energy prices, carbon, PUE, TCO horizon */
} run_opts;

/* The runs asked for: each a placement policy and, under a GPU cap, the
 * partition of its GPUs' SMs; and what PEACE needs from the store. */
typedef struct run_specs {
    policy_spec spec[MAX_POLICIES];
    upred_spec pred[MAX_POLICIES];      /* --predict-policy, where has_pred */
    int has_pred[MAX_POLICIES];
    const peace_policy *part[MAX_POLICIES];
    size_t n;
    peace_loaded peace;         /* loaded when a capped model has a PEACE set */
} run_specs;

/* ---- options ------------------------------------------------------------------ */

/* A policy, then each option as POLICY.KEY=DEFAULT with its help below. */
static void print_policy(FILE *out, const policy_ops *p)
{
    cli_help_row(out, p->name, p->title, 13);
    for (int k = 0; p->options && p->options[k].key; k++) {
        char *term = xasprintf("    %s.%s=%g", p->name, p->options[k].key, p->options[k].def);
        cli_help_row(out, term, p->options[k].help, 10);
        free(term);
    }
}

/* Every policy with its options, from the policies' own tables. */
static void print_policies(FILE *out)
{
    fprintf(out, "Policies and their options (defaults are the papers'):\n");
    const policy_ops *p;
    for (int f = 0; f < FAMILY_COUNT; f++)
        for (size_t i = 0; (p = policy_family_nth((policy_family)f, i)); i++)
            print_policy(out, p);
}

/* on/1, off/0 or default (-1, the policy's own). */
static int onoff_value(const char *s, int *out)
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

static int parse_onoff(void *value, const char *arg, gp_err *err)
{
    if (onoff_value(arg, value))
        return gp_error(err, "expected on, off or default, got '%s'", arg);
    return 0;
}

static int parse_optimal(void *value, const char *arg, gp_err *err)
{
    int v = -1;
    if (strcmp(arg, "auto") != 0 && (onoff_value(arg, &v) || v < 0))
        return gp_error(err, "expected auto, on or off, got '%s'", arg);
    *(int *)value = v;
    return 0;
}

static int parse_power(void *value, const char *arg, gp_err *err)
{
    int m = power_model_parse(arg);
    if (m < 0)
        return gp_error(err, "expected cats or eopc, got '%s'", arg);
    *(int *)value = m;
    return 0;
}

/* 0 to go on, -1 with *code when the command is done (help, usage error). */
static int parse_args(cli_ctx *ctx, int argc, char **argv, run_opts *o, int *code)
{
    sim_config *cfg = &o->cfg;
    const cli_opt opts[] = {
        OPT_STRING("trace", 0, "NAME", &o->trace, "trace to replay (required but with "
                   "--from-snapshot)"),
        OPT_STRING("cluster", 0, "NAME", &o->cluster, "cluster to run it on (required but "
                   "with --from-snapshot, which runs on the snapshot's)"),
        CLI_WHATIF_OPTS(&o->wi),
        OPT_STRING("policy", 0, "LIST", &o->policies, "comma-separated policies, each NAME or "
                   "NAME:VALUE (VALUE sets its first option)", .def = DEFAULT_POLICIES),
        OPT_LIST("set", 0, "P.KEY=VALUE", &o->sets, "a policy option, e.g. cats.lambda1=2"),
        OPT_CALLBACK("power", 0, "MODEL", &cfg->power_model, parse_power,
                     "cats (CATS eq. 1-4) or eopc (PWR eq. 1-3)",
                     .def = "the policy's, cats for the correlation family"),
        OPT_SET_INT("queue", 0, &o->full, SIM_QUEUE,
                    "when nothing fits, wait in a FIFO queue (the default)"),
        OPT_SET_INT("fail", 0, &o->full, SIM_FAIL, "when nothing fits, fail the task"),
        OPT_FLAG("unbounded", 0, &cfg->unbounded,
                 "open a new server when nothing fits (CorrGPU's CapEx pool)"),
        OPT_CALLBACK("sleep", 0, "on|off", &cfg->sleep, parse_onoff,
                     "CATS Alg. 3 periodic sleep", .def = "on for the correlation family, as "
                     "CATS §6 runs all the solutions, off otherwise"),
        OPT_CALLBACK("dfs", 0, "on|off", &cfg->dfs, parse_onoff,
                     "CATS Alg. 4 frequency adaptation", .def = "on for cats only"),
        OPT_DOUBLE("tau", 0, "S", &cfg->tau_s, 1e-6, INFINITY,
                   "power-manager period, CATS §3.5", .def = "0.1"),
        OPT_DOUBLE("delta-f", 0, "MHZ", &cfg->delta_f_mhz, 1e-6, INFINITY, "DFS step",
                   .def = "15"),
        OPT_DOUBLE("kappa", 0, "K", &cfg->kappa, 1, INFINITY, "SLA factor for every task",
                   .def = "each task's, 1.2"),
        OPT_CALLBACK("seed", 0, "N", &cfg->seed, cli_parse_seed, "random seed", .def = "42"),
        OPT_CALLBACK("predict", 0, "NAME", &cfg->predict, cli_parse_predict, "what the "
                     "correlation policies know of future utilization: oracle, profile:S, "
                     "profile:S:mean, history, noisy:RMSLE, bias:PERCENT or requested",
                     .def = "oracle"),
        OPT_LIST("predict-policy", 0, "P=NAME", &o->predict_for, "one policy's own predictor "
                 "instead of --predict, e.g. hotcloud=bias:+20 (the papers' setting: the "
                 "policies then no longer know the same)"),
        OPT_CALLBACK("util-window", 0, "WINDOW", &o->util_window, cli_parse_util_window,
                     "the admission window of every correlation policy: remaining (means "
                     "from each running task's progress) or whole (whole-series means)",
                     .def = "remaining"),
        OPT_CALLBACK("corr-grid", 0, "GRID", &o->corr_grid, cli_parse_corr_grid,
                     "what every correlation policy computes rho and the means on: resampled "
                     "(each busy GPU's aggregate rebuilt per decision on the task's own "
                     "period) or absolute (aggregates kept on one time grid)",
                     .def = "resampled"),
        OPT_DOUBLE("sample", 0, "S", &cfg->sample_s, 0, INFINITY,
                   "timeline period in s, 0 = every event",
                   .def = "adaptive, about 2000 points"),
        OPT_STRING("timeline", 0, "FILE", &o->timeline,
                   "write every policy's timeline as CSV (policy column)"),
        OPT_FLAG("explain", 0, &o->explain,
                 "print the placement log with each decision's reason"),
        OPT_CALLBACK("optimal", 0, "MODE", &o->optimal, parse_optimal,
                     "add CATS's optimum as a row (the papers' Optimal bar): auto when the "
                     "trace has at most 256 GPU tasks and the power model is cats (30 s), on "
                     "at any size (600 s), or off", .def = "auto"),
        OPT_FLAG("no-save", 0, &o->no_save, "do not store the runs"),
        CLI_COST_OPTS(&o->cost),
        CLI_SITE_BUDGET_OPT(&o->cost),
        OPT_CALLBACK("gpu-cap", 0, "W|MODEL=W,...", &o->caps, cli_parse_caps,
                     CLI_CAP_HELP "; on a model with a PEACE set PEACE's controller holds "
                     "the GPUs it can, and a policy written NAME@PARTITION (cats@nopart) "
                     "splits their SMs with that partition policy (peace, oracle, equal, "
                     "nopart, mudi, muxflow, gslice)", .def = "none; partition peace"),
        OPT_STRING("peace", 0, "SET", &o->peace_set, "the PEACE set of the cap's workloads",
                   .def = "the one measured on the cluster's GPU"),
        OPT_STRING("peace-model", 0, "NAME", &o->peace_model, "PEACE's stored models",
                   .def = "default"),
        OPT_STRING("tput", 0, "NAME", &o->tput, "throughput table timing the tasks that name "
                   "its job types (Gavel's measured solo and pair throughputs); none for no "
                   "table", .def = "the one named like the trace, if any"),
        OPT_STRING("gogh-nets", 0, "NAME", &o->nets, "GOGH's trained estimation nets "
                   "(gpuplan estimate train); none for none",
                   .def = "those trained on the throughput table"),
        OPT_STRING("ref-gpu", 0, "MODEL", &cfg->ref_gpu, "GPU profile the durations and "
                   "utilizations of tasks without a job type were measured on",
                   .def = "the trace's, else V100"),
        OPT_DOUBLE("ref-speed", 0, "X", &cfg->ref_speed, 1e-3, 1e3,
                   "relative GPU speed they were measured at instead (a V100 = 1; see "
                   "`gpuplan list gpus`)", .def = "--ref-gpu's"),
        OPT_INT("jobs", 'j', "N", &o->jobs, 1, PAR_MAX_THREADS, "policies simulated at once "
                "(the runs are the same for any N; runs that use GOGH's nets or PEACE's "
                "models run one at a time)",
                .def = "the number of cores"),
        OPT_END(),
    };
    if (cli_parse(ctx, &cmd_run, opts, argc, argv, NULL, code))
        return -1;
    if (!o->wi.snapshot && (!o->trace || !o->cluster)) {
        *code = cli_usage_error(&cmd_run, "--%s is required (or --from-snapshot)",
                                o->trace ? "cluster" : "trace");
        return -1;
    }
    cfg->full = (sim_full_mode)o->full;
    cfg->keep_explain = o->explain;
    return 0;
}

/* One --policy entry, NAME[:VALUE][@PARTITION], into rs. */
static int add_spec(const run_opts *o, const char *text, run_specs *rs, gp_err *err)
{
    char name[GP_NAME_MAX];
    const peace_policy *part;
    if (rs->n == MAX_POLICIES)
        return gp_error(err, "too many policies");
    if (strlen(text) >= sizeof rs->spec[rs->n].label)
        return gp_error(err, "'%.24s...': a policy as written is at most %zu bytes "
                        "(it names the run)", text, sizeof rs->spec[rs->n].label - 1);
    if (peace_split_spec(text, name, sizeof name, &part, err) ||
        policy_spec_parse(name, &rs->spec[rs->n], err))
        return -1;
    int capped = power_caps_any(&o->caps);
    if (part && !capped)
        return gp_error(err, "'%s': a partition needs --gpu-cap", text);
    strlcpy0(rs->spec[rs->n].label, text, sizeof rs->spec[rs->n].label);
    rs->part[rs->n++] = part || !capped ? part : peace_policy_with_role(PEACE_ROLE_METHOD);
    return 0;
}

/* --predict-policy P=NAME: policy P's own predictor; usage error printed
 * on failure. */
static int predict_for(const run_opts *o, run_specs *rs)
{
    for (size_t i = 0; i < o->predict_for.n; i++) {
        const char *arg = o->predict_for.v[i], *eq = strchr(arg, '=');
        size_t plen = eq ? (size_t)(eq - arg) : 0, hits = 0;
        gp_err err = {{0}};
        for (size_t k = 0; k < rs->n && eq; k++) {
            if (strlen(rs->spec[k].ops->name) != plen ||
                strncmp(rs->spec[k].ops->name, arg, plen) != 0)
                continue;
            if (upred_parse(eq + 1, &rs->pred[k], &err)) {
                cli_usage_error(&cmd_run, "--predict-policy: %s", err.msg);
                return -1;
            }
            rs->has_pred[k] = 1;
            hits++;
        }
        if (!hits) {
            cli_usage_error(&cmd_run, "--predict-policy %s: expected POLICY=PREDICTOR for a "
                            "policy given with --policy", arg);
            return -1;
        }
    }
    return 0;
}

/* Parses --policy and applies every --set; usage error printed on failure. */
static int build_specs(const run_opts *o, run_specs *rs)
{
    char *list = xstrdup(o->policies ? o->policies : DEFAULT_POLICIES), *save = NULL;
    gp_err err = {{0}};
    policy_spec *specs = rs->spec;
    size_t *n = &rs->n;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (add_spec(o, tok, rs, &err)) {
            cli_usage_error(&cmd_run, "%s", err.msg);
            free(list);
            return -1;
        }
    }
    free(list);
    if (*n == 0) {
        cli_usage_error(&cmd_run, "--policy: no policy given");
        return -1;
    }
    /* One admission window for every policy, before --set (which may then
     * change one policy's on purpose). */
    for (size_t k = 0; k < *n && o->util_window >= 0; k++)
        policy_spec_set_role(&specs[k], OPT_UTIL_WINDOW, o->util_window);
    for (size_t k = 0; k < *n && o->corr_grid >= 0; k++)
        policy_spec_set_role(&specs[k], OPT_CORR_GRID, o->corr_grid);
    if (predict_for(o, rs))
        return -1;
    for (size_t i = 0; i < o->sets.n; i++) {
        const char *set = o->sets.v[i], *dot = strchr(set, '.');
        size_t plen = dot ? (size_t)(dot - set) : 0, hits = 0;
        for (size_t k = 0; k < *n && dot; k++) {
            if (strlen(specs[k].ops->name) != plen ||
                strncmp(specs[k].ops->name, set, plen) != 0)
                continue;
            if (policy_spec_set(&specs[k], dot + 1, &err)) {
                cli_usage_error(&cmd_run, "--set: %s", err.msg);
                return -1;
            }
            hits++;
        }
        if (!hits) {
            cli_usage_error(&cmd_run, "--set %s: expected POLICY.KEY=VALUE for a policy given "
                            "with --policy", set);
            return -1;
        }
    }
    return 0;
}

/* ---- running ------------------------------------------------------------------- */

static run *simulate(const run_opts *o, const cli_inputs *in, const run_specs *rs, size_t i,
                     gp_err *err)
{
    sim_config cfg = o->cfg;
    cfg.checkpoint_every = SIM_NO_REWIND;   /* headless: nobody rewinds */
    if (rs->has_pred[i])
        cfg.predict = rs->pred[i];
    cfg.caps = o->caps;
    if (rs->peace.ix) {
        cfg.peace.cap_w = power_caps_for(&o->caps, rs->peace.set->gpu);
        cfg.peace.ix = rs->peace.ix;
        cfg.peace.models = rs->peace.has_models ? &rs->peace.models : NULL;
        cfg.peace.partition = rs->part[i];
    }
    cfg.tput = in->tp;
    cfg.nets = in->nets;
    sim *s = sim_new(&cfg, in->cl, in->cat, in->tr, &rs->spec[i], err);
    if (!s)
        return NULL;
    int first;
    size_t unknown = sim_tput_unknown(s, &first);
    if (i == 0 && unknown)
        fprintf(stderr, "gpuplan: note: %zu task(s) name a job type table '%s' lacks (first: "
                "%s, %s batch %d); they run at their GPUs' relative speed\n", unknown,
                in->tp->name, in->tr->tasks[first].name, in->tr->tasks[first].model,
                in->tr->tasks[first].batch_size);
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    if (sim_placement_gpus(&cfg, in->cl, in->cat, in->tr, &rs->spec[i], r, err)) {
        run_free(r);
        return NULL;
    }
    return r;
}

static void print_explain(FILE *out, run *const *runs, size_t n, const gp_trace *tr)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "== %s: placement log (%zu decisions)\n", runs[i]->name,
                runs[i]->ndecisions);
        for (size_t k = 0; k < runs[i]->ndecisions; k++) {
            const run_decision *d = &runs[i]->decisions[k];
            fprintf(out, "#%d t=%.3f %s: %s\n", run_decision_number(d), d->t_s,
                    tr->tasks[d->task].name,
                    d->reason ? d->reason : "");
        }
    }
    fprintf(out, "\n");
}

/* Writes the timelines into f (opened by out_file_open() before
 * simulating, so a bad path fails fast) and puts the file in place. */
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
    return out_file_close(f, path, err);
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
static int optimal_row(const run_opts *o, const cli_inputs *in, const policy_spec *specs, size_t n,
                       solve_run_row *row, gp_err *err)
{
    /* CATS eq. 6-14 know no power cap: next to capped runs the row would
     * compare unlike things. */
    int capped = power_caps_any(&o->caps);
    if (o->optimal > 0 && capped)
        return gp_error(err, "--optimal on: CATS's optimum does not model a GPU power cap");
    sim_config cfg = o->cfg;
    cfg.tput = in->tp;
    if (o->optimal == 0 || capped ||
        (o->optimal < 0 && !optimal_row_wanted(&cfg, in->cl, in->cat, in->tr, specs, n)))
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
    int comparable = best > 0 && isfinite(best);
    double rel = comparable ? row->jct_mean_s / best : NAN;
    table_row(t);
    table_cell(t, "%s", row->proven ? "optimal" : "optimal~");
    table_cell(t, "%.2f", row->mean_gpus);
    table_cell(t, "%.2f", row->mean_gpus);
    table_cell(t, "%s", "");
    table_cell(t, "%s", "");
    table_cell(t, "%.0f", row->peak_gpus);
    table_cell(t, "%s", "");
    table_cell(t, "%s", "");
    table_cell(t, "%s", "");
    table_cell(t, "%.1f", row->mean_power_w);
    table_cell(t, "%.3f", row->energy_j / 3.6e6);
    table_cell(t, "%s", "");
    table_cell(t, "%.1f", row->jct_mean_s);
    table_cell(t, "%s", "");
    if (comparable)
        table_cell(t, "%.3f", rel);
    else
        table_cell(t, "%s", "-");
    table_cell(t, "%s", comparable && run_jct_within(rel, kappa) ? "yes" : "no");
    for (int k = 0; k < 3; k++)
        table_cell(t, "%s", "");
    table_cell(t, "%s", "cats");
    table_cell(t, "%s", "");
}

/* One row of the comparison from the run's summary (runsum.h), the same
 * figures the dashboard shows for it. */
static void print_run_row(table *t, const run *r, double best, double kappa,
                          const char *cap)
{
    run_summary s;
    run_summarize(r, -1, &s);
    /* A run that failed tasks is measured only on those it kept: no ratio,
     * and never within the SLA (its failed column says how many). */
    int comparable = run_can_be_best(r) && best > 0 && isfinite(best);
    double rel = comparable ? s.jct_mean / best : NAN;
    table_row(t);
    table_cell(t, "%s", r->name);
    table_cell(t, "%.2f", s.avg_gpus);
    table_cell(t, "%.2f", s.place_gpus);
    table_cell(t, "%.2f", s.fluid_gpus);
    table_cell(t, "%.1f", s.gpu_hours);
    table_cell(t, "%.0f", s.peak_gpus);
    table_cell(t, "%.0f", s.unique_gpus);
    char capex[32];
    run_capex_format(r, capex, sizeof capex);
    table_cell(t, "%s", capex);
    table_cell(t, "%.2f", s.avg_servers);
    table_cell(t, "%.1f", s.avg_w);
    table_cell(t, "%.3f", s.energy_kwh);
    table_cell(t, "%.0f", s.mean_mhz);
    table_cell(t, "%.1f", s.jct_mean);
    table_cell(t, "%.1f", s.jct_p95);
    if (comparable)
        table_cell(t, "%.3f", rel);
    else
        table_cell(t, "%s", "-");
    table_cell(t, "%s", comparable && run_jct_within(rel, kappa) ? "yes" : "no");
    table_cell(t, "%zu", s.violations);
    table_cell(t, "%.0f", s.failed);
    table_cell(t, "%.0f", s.wakeups);
    table_cell(t, "%s", s.power_model);
    table_cell(t, "%lld", (long long)r->id);
    if (cap)
        table_cell(t, "%s", cap);
}

/* 1 when the runs' watts come from more than one power model. */
static int mixed_power(run *const *runs, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(runs[i]->power_model, runs[0]->power_model) != 0)
            return 1;
    return 0;
}

/* Says on stderr which runs failed tasks and so are left out of "best". */
static void warn_failed(run *const *runs, size_t n, double best)
{
    for (size_t i = 0; i < n; i++) {
        double failed = metric(runs[i], "failed_tasks");
        if (!(failed > 0))
            continue;
        double done = metric(runs[i], "completed");
        fprintf(stderr, "gpuplan: warning: %s: %.0f of %.0f tasks never ran; its JCT figures "
                "cover the %.0f that did, so it is not compared in jct_vs_best\n",
                runs[i]->name, failed, failed + done, done);
    }
    if (n > 0 && !isfinite(best))
        fprintf(stderr, "gpuplan: warning: no policy ran every task: jct_vs_best has no "
                "best to compare with\n");
}

/* cap: what the GPU caps did, a column in csv and json (NULL = none);
 * cost: the energy price, carbon and TCO columns (cli_cost.h);
 * the text table says it on a line of its own (print_caps). */
static void print_table(cli_ctx *ctx, run *const *runs, size_t n, const solve_run_row *opt,
                        double kappa, const char *cap, const cli_cost *cost)
{
    if (ctx->format == FMT_TABLE)
        cap = NULL;
    double best = run_best_jct(runs, n);
    table *t = table_new();
    /* jct_vs_best_within_kappa: the papers' SLA on the mean JCT over the
     * best policy's (<= kappa); sla_viol counts the tasks over their own
     * kappa x e_min, which a run meeting the former can still have.  The
     * best is the fastest run that failed no task (runsum.h). */
    static const char *const cols[] = {
        "policy", "avg_gpus", "place_gpus", "fluid_gpus", "gpu_hours", "peak_gpus",
        "unique_gpus", "capex_usd", "avg_servers", "avg_power_w", "energy_kwh", "mean_mhz",
        "jct_mean_s", "jct_p95_s", "jct_vs_best", "jct_vs_best_within_kappa", "sla_viol", "failed",
        "wakeups", "power", "run"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c != 0 && c != 15 && c != 19);
    if (cap)
        table_col(t, "gpu_cap", 0);
    cli_cost_cols(cost, t);
    for (size_t i = 0; i < n; i++) {
        print_run_row(t, runs[i], best, kappa, cap);
        cli_cost_cells(cost, t, runs[i]);
    }
    if (opt) {
        print_optimal(t, opt, best, kappa);
        cli_cost_cells(cost, t, NULL);
    }
    table_print(t, ctx->format, ctx->out, "(no runs)");
    table_free(t);
    warn_failed(runs, n, best);
    if (mixed_power(runs, n))
        fprintf(stderr, "gpuplan: warning: the rows' watts come from different power models "
                "(column power): they do not compare; --power cats or --power eopc measures "
                "every policy with one\n");
}

/* The GPU the speeds are relative to, under the table. */
static void print_reference(cli_ctx *ctx, const run_opts *o, const cli_inputs *in)
{
    char name[GP_NAME_MAX], line[128];
    double speed;
    gp_err e;
    if (ctx->format != FMT_TABLE ||
        speed_ref_resolve(in->cat, in->tr, o->cfg.ref_gpu, o->cfg.ref_speed, name,
                          sizeof name, &speed, &e))
        return;
    speed_ref_describe(name, speed, line, sizeof line);
    fprintf(ctx->out, "%s\n", line);
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

/* The policies' simulations for par.h: each its own sim, taken in order. */
typedef struct run_jobs {
    const run_opts *o;
    const cli_inputs *in;
    const run_specs *rs;
    run **runs;
    size_t done;
} run_jobs;

static int run_work(void *ctx, size_t i, void **out, gp_err *err)
{
    run_jobs *j = ctx;
    return (*out = simulate(j->o, j->in, j->rs, i, err)) ? 0 : -1;
}

static int run_take(void *ctx, size_t i, void *result, gp_err *err)
{
    (void)err;
    run_jobs *j = ctx;
    j->runs[i] = result;
    j->done = i + 1;
    return 0;
}

static void run_drop(void *ctx, size_t i, void *result)
{
    (void)ctx;
    (void)i;
    run_free(result);
}

/* Threads for these runs: GOGH's nets (FANN keeps each evaluation's
 * activations in the net; typed tasks on mixed clusters use them too) and
 * PEACE's models are shared by the runs, so runs that may use them go one
 * at a time. */
static int run_threads(const run_opts *o, const cli_inputs *in, const run_specs *rs)
{
    if (rs->peace.ix || in->nets)
        return 1;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->spec[i].ops->family == FAMILY_ALLOCATION)
            return 1;
    return o->jobs;
}

/* Simulates every policy into runs[]; returns how many succeeded in a row
 * from the first (n when all did; err says why the next one failed). */
static size_t simulate_all(const run_opts *o, const cli_inputs *in, const run_specs *rs,
                           run **runs, gp_err *err)
{
    run_jobs j = {o, in, rs, runs, 0};
    par_job job = {run_work, run_take, run_drop, &j};
    par_run(&job, rs->n, run_threads(o, in, rs), err);
    return j.done;
}

/* Says on stderr which tasks no server of the cluster can take: every
 * policy fails them (fit.h), so the comparison is of the rest. */
static void warn_misfits(const cli_inputs *in)
{
    fit_report fr;
    if (!in->tr || !in->cl || !fit_trace_cluster(in->tr, in->cl, in->cat, &fr))
        return;
    char text[512];
    fit_report_text(&fr, in->tr, in->cl, text, sizeof text);
    fprintf(stderr, "gpuplan: warning: trace %s does not fit cluster %s: %s\n", in->tr->name,
            in->cl->name, text);
}

static int run_policies(cli_ctx *ctx, store *st, const run_opts *o, const cli_inputs *in,
                        const run_specs *rs)
{
    warn_misfits(in);
    const policy_spec *specs = rs->spec;
    size_t n = rs->n;
    run *runs[MAX_POLICIES] = {0};
    gp_err err = {{0}};
    FILE *tl = NULL;
    if (o->timeline && !(tl = out_file_open(o->timeline, &err)))
        return cli_fail(&err);
    int rc = EXIT_OK;
    size_t done = simulate_all(o, in, rs, runs, &err);
    FILE *to_write = done == n ? tl : NULL;   /* write_timeline() closes it */
    if (tl && !to_write)
        out_file_discard(tl, o->timeline);
    tl = NULL;
    if (done < n)
        rc = cli_fail(&err);
    else if (to_write && write_timeline(to_write, o->timeline, runs, n, &err))
        rc = cli_fail(&err);
    else if (!o->no_save && save_runs(st, runs, n, &err))
        rc = cli_fail(&err);
    solve_run_row opt;
    int has_opt = 0;
    if (rc == EXIT_OK && (has_opt = optimal_row(o, in, specs, n, &opt, &err)) < 0)
        rc = cli_fail(&err);
    if (rc == EXIT_OK) {
        if (o->explain)
            print_explain(ctx->out, runs, n, in->tr);
        char cap[512] = "";
        if (power_caps_any(&o->caps))
            cli_caps_describe(&o->caps, in->cl, in->cat, rs->peace.ix ? rs->peace.set->gpu : NULL,
                              cap, sizeof cap);
        print_table(ctx, runs, n, has_opt ? &opt : NULL,
                    o->cfg.kappa > 0 ? o->cfg.kappa : GP_DEFAULT_KAPPA, cap[0] ? cap : NULL,
                    &o->cost);
        if (cap[0] && ctx->format == FMT_TABLE)
            fprintf(ctx->out, "gpu cap: %s\n", cap);
        if (cap[0])
            cli_caps_notes(stderr, &o->caps, in->cl, in->cat);
        for (size_t i = 0; i < n && ctx->format == FMT_TABLE; i++) {
            double u = run_metric_get(runs[i], "uncapped_gpu_pct", 0);
            if (u > 0)
                fprintf(ctx->out, "note: %s: %.1f %% of busy GPU time of PEACE's model ran "
                        "under the clock clamp, on GPUs PEACE could not hold (more than three "
                        "tasks, or a group its set did not measure)\n", runs[i]->name, u);
        }
        if (has_opt && ctx->format == FMT_TABLE)
            fprintf(ctx->out, "optimal: CATS eq. 6-14 re-solved at each of %d task sets, each "
                    "task for kappa x its duration%s\n", opt.intervals,
                    opt.proven ? "" : " (optimal~: not every set proven)");
        print_reference(ctx, o, in);
        if (ctx->format == FMT_TABLE)
            cli_cost_note(&o->cost, ctx->out);
        cli_warn_unpriced(in->cl, in->cat, "capex_usd");
    }
    for (size_t i = 0; i < n; i++)
        run_free(runs[i]);
    return rc;
}

/* The capped GPU model of the cluster PEACE works on, into model: the
 * named set's, else the first capped one a set was measured on; 0 with
 * model "" when none, -1 on an error. */
static int peace_model_of(store *st, const run_opts *o, const cluster *cl, char *model,
                          size_t len, gp_err *err)
{
    model[0] = '\0';
    if (o->peace_set) {
        peace_set *s;
        if (store_get_peace_set(st, o->peace_set, &s, err))
            return -1;
        strlcpy0(model, s->gpu, len);
        peace_set_free(s);
        return 0;
    }
    return peace_capped_model(st, cl, &o->caps, model, len, err);
}

/* 1 when a policy names its partition (cats@nopart). */
static int partition_named(const run_opts *o)
{
    return o->policies && strchr(o->policies, '@') != NULL;
}

/* PEACE's set and models, when a capped GPU model has a set; then the
 * caps against the cluster's models. */
/* The run's GOGH nets; a table's first nets are trained here, with a
 * progress bar on a terminal. */
static int find_nets(store *st, const run_opts *o, cli_inputs *in, gp_err *err)
{
    cli_progress bar;
    cli_progress_init(&bar, "training GOGH's nets");
    gogh_progress prog = {cli_progress_cb, &bar};
    int rc = gogh_nets_find_shown(st, o->nets, in->tp, &prog, &in->nets, err);
    cli_progress_done(&bar);
    return rc;
}

static int load_peace(store *st, const run_opts *o, const cli_inputs *in, run_specs *rs,
                      gp_err *err)
{
    if (!power_caps_any(&o->caps))
        return 0;
    char model[GP_NAME_MAX];
    if (peace_model_of(st, o, in->cl, model, sizeof model, err))
        return -1;
    if (!model[0] && partition_named(o))
        return gp_error(err, "a partition needs a PEACE set measured on a capped GPU model "
                        "of cluster %s (gpuplan list peace)", in->cl->name);
    if (model[0]) {
        int need = 0;
        for (size_t i = 0; i < rs->n; i++)
            need |= rs->part[i]->needs_models;
        if (peace_load(st, o->peace_set, model, need,
                       o->peace_model ? o->peace_model : "default", &rs->peace, err))
            return -1;
        const gpu_profile *g = catalog_gpu(in->cat, rs->peace.set->gpu);
        double cap = power_caps_for(&o->caps, rs->peace.set->gpu);
        if (cap > 0 && peace_check_cap(rs->peace.set, g ? g->idle_w : 0, cap, err))
            return -1;
    }
    return cli_caps_check(&o->caps, in->cl, in->cat, model[0] ? model : NULL, err);
}

/* A what-if from a snapshot: its tasks pinned in place, then the
 * arrivals; not saved (a saved run replays its trace without the pins). */
static int run_whatif(cli_ctx *ctx, store *st, const run_opts *o, run_specs *rs)
{
    cli_inputs in;
    whatif w;
    gp_err err = {{0}};
    run_opts wo = *o;
    int rc = EXIT_RUNTIME;
    wo.wi.o.ref_speed = o->cfg.ref_speed;
    if (cli_whatif_load(st, &wo.wi, o->cluster, o->trace, &in, &w, &err) ||
        store_find_tput_for(st, o->tput ? o->tput : "none", NULL, &in.tp, &err) ||
        find_nets(st, o, &in, &err) ||
        load_peace(st, o, &in, rs, &err) ||
        (ctx->format == FMT_TABLE && cli_whatif_describe(ctx->out, &o->wi, &in, &w, &err))) {
        rc = cli_fail(&err);
    } else {
        wo.cfg.pins = w.pins;
        wo.no_save = 1;
        wo.optimal = 0;
        rc = run_policies(ctx, st, &wo, &in, rs);
        if (rc == EXIT_OK && ctx->format == FMT_TABLE)
            fputs("not saved (run 0): a saved run would replay its trace without the "
                  "snapshot's tasks in place\n", ctx->out);
    }
    cli_whatif_free(&in, &w);
    return rc;
}

/* The command once its options are parsed. */
static int run_parsed(cli_ctx *ctx, const run_opts *o)
{
    run_specs *rs = xcalloc(1, sizeof *rs);
    if (build_specs(o, rs)) {
        free(rs);
        return EXIT_USAGE;
    }
    store *st = cli_store(ctx);
    cli_inputs in;
    gp_err err = {{0}};
    int rc = EXIT_RUNTIME;
    memset(&in, 0, sizeof in);
    /* A store that cannot take the runs is said before simulating them. */
    if (st && !o->no_save && !o->wi.snapshot && store_check_writable(st, &err))
        rc = cli_fail(&err);
    else if (st && o->wi.snapshot)
        rc = run_whatif(ctx, st, o, rs);
    else if (st && (cli_inputs_load(st, o->cluster, o->trace, &in, &err) ||
               store_find_tput_for(st, o->tput, o->trace, &in.tp, &err) ||
               find_nets(st, o, &in, &err) ||
               load_peace(st, o, &in, rs, &err)))
        rc = cli_fail(&err);
    else if (st)
        rc = run_policies(ctx, st, o, &in, rs);
    cli_inputs_free(&in);
    peace_loaded_free(&rs->peace);
    free(rs);
    return rc;
}

static int run_exec(cli_ctx *ctx, int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.optimal = -1;
    o.util_window = -1;
    o.corr_grid = -1;
    o.jobs = par_default_threads();
    sim_config_default(&o.cfg);
    o.full = (int)o.cfg.full;
    cli_cost_init(&o.cost);
    int code;
    if (parse_args(ctx, argc, argv, &o, &code) == 0)
        code = run_parsed(ctx, &o);
    cli_list_free(&o.sets);
    cli_list_free(&o.predict_for);
    cli_cost_free(&o.cost);
    return code;
}
