/*
 * cmd_plan.c — `gpuplan plan`: the capacity planner headless (the TUI's
 * Planner screen runs the same src/plan/plan.c).  For a trace and a GPU
 * profile, simulate each policy on clusters of a range of GPU counts (or
 * once in an unbounded pool) and report SLA violations, JCT, power and
 * CapEx per count, marking the fewest GPUs that meet the SLA target.
 */
#include "cli.h"
#include "plan/plan.h"
#include "core/runsum.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int plan_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_plan = {
    .name = "plan",
    .usage = "--trace NAME --gpu PROFILE [--from N] [--to N] [--step N] [--unbounded] "
             "[OPTIONS]",
    .summary = "How many GPUs does this workload need? (CapEx what-if)",
    .help = "  --trace NAME          trace to plan for (required)\n"
            "  --gpu PROFILE         GPU profile the clusters are built of (required)\n"
            "  --from N --to N       GPU counts to try (default 1 to the trace's peak demand)\n"
            "  --step N              count step (grown so at most 64 counts run)\n"
            "  --unbounded           one run per policy in an unbounded pool instead:\n"
            "                        servers open when nothing fits (CorrGPU's CapEx)\n"
            "  --per-server N        GPUs per server (default 8)\n"
            "  --policy LIST         up to 6 policies (default cats,corrgpu,first,hotcloud,harmony)\n"
            "  --price USD           price per GPU (default: the profile's)\n"
            "  --kappa K             SLA factor for every task (default: each task's)\n"
            "  --sla-target PCT      violations allowed, % of tasks (default 0)\n"
            "  --corr-threshold X    CATS/CorrGPU correlation threshold (default: the papers')\n"
            "  --util-threshold PCT  utilization threshold q (default: the papers', 100)\n",
    .exec = plan_exec,
};

static int add_policies(plan_params *p, const char *list, gp_err *err)
{
    char *copy = xstrdup(list), *save = NULL;
    p->npolicies = 0;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        policy_spec sp;
        if (p->npolicies == PLAN_MAX_POLICIES)
            rc = gp_error(err, "at most %d policies", PLAN_MAX_POLICIES);
        else if (policy_spec_parse(tok, &sp, err) == 0)
            strlcpy0(p->policies[p->npolicies++], tok, sizeof p->policies[0]);
        else
            rc = -1;
    }
    free(copy);
    return rc;
}

/* Options that take a number: the long name, where it goes, its bounds. */
typedef struct num_opt {
    int code;
    const char *name;
    double min, max;
    int integer;
} num_opt;

static const num_opt num_opts[] = {
    {'f', "from", 1, 1e6, 1}, {'t', "to", 1, 1e6, 1}, {'s', "step", 1, 1e6, 1},
    {'S', "per-server", 1, GP_NODE_MAX_GPUS, 1}, {'P', "price", 0, 1e9, 0},
    {'k', "kappa", 1, 100, 0}, {'l', "sla-target", 0, 100, 0},
    {'c', "corr-threshold", -1, 1, 0}, {'u', "util-threshold", 0, 1000, 0},
};

/* Stores a validated value into the parameter its option names. */
static void store_number(plan_params *p, int code, double v)
{
    switch (code) {
    case 'f': p->lo = (int)v; break;
    case 't': p->hi = (int)v; break;
    case 's': p->step = (int)v; break;
    case 'S': p->per_server = (int)v; break;
    case 'P': p->price = v; break;
    case 'k': p->kappa = v; break;
    case 'l': p->sla_target_pct = v; break;
    case 'c': p->corr_threshold = v; break;
    case 'u': p->util_threshold = v; break;
    }
}

/* Parses a numeric option; 0, or EXIT_USAGE after a message. */
static int set_number(plan_params *p, int code, const char *arg)
{
    for (size_t i = 0; i < sizeof num_opts / sizeof *num_opts; i++) {
        const num_opt *o = &num_opts[i];
        if (o->code != code)
            continue;
        double v;
        if (parse_double(arg, &v) || v < o->min || v > o->max || (o->integer && v != (int)v))
            return cli_usage_error(&cmd_plan, "--%s: expected %s in [%g, %g], got '%s'",
                                   o->name, o->integer ? "a whole number" : "a number",
                                   o->min, o->max, arg);
        store_number(p, code, v);
        return 0;
    }
    return EXIT_USAGE;
}

/* Default range: 1 .. the trace's peak demand (what it would use unshared). */
static int default_range(cli_ctx *ctx, plan_params *p, gp_err *err)
{
    gp_trace *tr;
    if (store_get_trace(cli_store(ctx), p->trace, &tr, err))
        return -1;
    int peak = summary_peak_demand(tr);
    trace_free(tr);
    p->hi = peak > p->lo ? peak : p->lo;
    return 0;
}

static void print_results(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    table *t = table_new();
    const char *cols[] = {"gpus", "policy", "ran", "sla_viol_pct", "jct_mean_s", "jct_p95_s",
                          "avg_power_w", "capex_usd", "meets_sla", "fewest"};
    for (int i = 0; i < 10; i++)
        table_col(t, cols[i], i != 1 && i != 8);
    for (int c = 0; c < pl->ncounts; c++) {
        for (int j = 0; j < p->npolicies; j++) {
            const plan_result *r = plan_result_at(pl, c, j);
            double sla = plan_value(pl, r, PM_SLA, p);
            table_row(t);
            table_cell(t, "%d", r->gpus);
            table_cell(t, "%s", p->policies[j]);
            table_cell(t, "%zu", r->ran);
            table_cell(t, "%.2f", sla);
            table_cell(t, "%.1f", plan_value(pl, r, PM_JCT, p));
            table_cell(t, "%.1f", r->jct_p95);
            table_cell(t, "%.1f", plan_value(pl, r, PM_POWER, p));
            table_cell(t, "%.0f", plan_value(pl, r, PM_CAPEX, p));
            table_cell(t, "%s", sla <= p->sla_target_pct + 1e-9 ? "yes" : "no");
            table_cell(t, "%d", plan_best(pl, j, p) == c);
        }
    }
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
    if (ctx->format != FMT_TABLE)
        return;
    fprintf(ctx->out, "fewest GPUs meeting SLA <= %g%% violations:", p->sla_target_pct);
    for (int j = 0; j < p->npolicies; j++) {
        int c = plan_best(pl, j, p);
        if (c < 0)
            fprintf(ctx->out, "  %s none", p->policies[j]);
        else
            fprintf(ctx->out, "  %s %d", p->policies[j], plan_result_at(pl, c, j)->gpus);
    }
    fputc('\n', ctx->out);
}

static int run_plan(cli_ctx *ctx, const plan_params *p)
{
    plan pl;
    memset(&pl, 0, sizeof pl);
    gp_err err = {{0}};
    if (plan_start(&pl, cli_store(ctx), p, &err)) {
        plan_free(&pl);
        return cli_fail(&err);
    }
    while (plan_tick(&pl, 0.5))
        fprintf(stderr, "\rgpuplan plan: %3.0f%%", 100 * plan_progress(&pl));
    fprintf(stderr, "\r");
    int rc = EXIT_OK;
    if (pl.state == PLAN_FAILED) {
        gp_error(&err, "%s", pl.err);
        rc = cli_fail(&err);
    } else {
        print_results(ctx, &pl);
    }
    plan_free(&pl);
    return rc;
}

static int plan_exec(cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"trace", required_argument, NULL, 'T'}, {"gpu", required_argument, NULL, 'G'},
        {"from", required_argument, NULL, 'f'}, {"to", required_argument, NULL, 't'},
        {"step", required_argument, NULL, 's'}, {"unbounded", no_argument, NULL, 'U'},
        {"per-server", required_argument, NULL, 'S'},
        {"policy", required_argument, NULL, 'p'}, {"price", required_argument, NULL, 'P'},
        {"kappa", required_argument, NULL, 'k'}, {"sla-target", required_argument, NULL, 'l'},
        {"corr-threshold", required_argument, NULL, 'c'},
        {"util-threshold", required_argument, NULL, 'u'},
        CLI_COMMON_LONGOPTS, {NULL, 0, NULL, 0},
    };
    plan_params p;
    plan_params_default(&p);
    const char *policies = "cats,corrgpu,first,hotcloud,harmony";
    int to_set = 0, c;
    gp_err err = {{0}};
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int code, h = cli_common_opt(ctx, &cmd_plan, c, optarg, &code);
        if (h < 0)
            return code;
        if (h)
            continue;
        switch (c) {
        case 'T': strlcpy0(p.trace, optarg, sizeof p.trace); break;
        case 'G': strlcpy0(p.gpu, optarg, sizeof p.gpu); break;
        case 'U': p.unbounded = 1; break;
        case 'p': policies = optarg; break;
        default:
            if (set_number(&p, c, optarg))
                return EXIT_USAGE;
            to_set |= c == 't';
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd_plan, "unexpected argument '%s'", argv[optind]);
    if (!p.trace[0] || !p.gpu[0])
        return cli_usage_error(&cmd_plan, "--trace and --gpu are required");
    if (add_policies(&p, policies, &err))
        return cli_usage_error(&cmd_plan, "%s", err.msg);
    if (!cli_store(ctx))
        return EXIT_RUNTIME;
    if (!p.unbounded && !to_set && default_range(ctx, &p, &err))
        return cli_fail(&err);
    if (p.hi < p.lo)
        return cli_usage_error(&cmd_plan, "--to must not be below --from");
    return run_plan(ctx, &p);
}
