/*
 * cmd_plan.c — `gpuplan plan`: the capacity planner headless (the TUI's
 * Planner screen runs the same src/plan/plan.c).  For a trace and a GPU
 * profile, simulate each policy on clusters of a range of GPU counts (or
 * once in an unbounded pool) and report SLA violations, JCT, power and
 * CapEx per count, marking the fewest GPUs that meet the SLA target.  With
 * --gpu2, a grid over the counts of two models: cost (CapEx, and energy
 * with --usd-per-kwh) against service per point, the frontier marked, and
 * the cheapest point meeting the SLA target.
 *
 * With --shard I/N it simulates only its share of the jobs and saves them
 * (plan_saved.h); `gpuplan merge` puts the shards' databases together and
 * the same command on the merged database prints the whole plan.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_whatif.h"
#include "cli_cap.h"
#include "cli_cost.h"
#include "plan/par.h"
#include "plan/plan.h"
#include "plan/plan_cost.h"
#include "plan/plan_saved.h"
#include "plan/plan_site.h"
#include "plan/plan_table.h"
#include "core/runsum.h"
#include "core/speed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_POLICIES "cats,corrgpu,first,hotcloud,harmony"

static int plan_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_plan = {
    .name = "plan",
    .usage = "--trace NAME --gpu PROFILE [--from N] [--to N] [--step N] [--unbounded] "
             "[--gpu2 PROFILE [--from2 N] [--to2 N] [--step2 N]] [OPTIONS]\n"
             "       --from-snapshot NAME [--trace NAME] --gpu PROFILE [OPTIONS]: GPUs to "
             "add to a snapshot's cluster",
    .summary = "How many GPUs does this workload need? (CapEx what-if)",
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

/* Default range: lo .. the peak demand (what the tasks would use unshared). */
static int default_range(cli_ctx *ctx, plan_params *p, gp_err *err)
{
    int peak;
    if (plan_peak_demand(cli_store(ctx), p, &peak, err))
        return -1;
    p->hi = peak > p->lo ? peak : p->lo;
    return 0;
}

/* A figure in USD: "unknown" when it would be 0 for GPUs without a price,
 * "N+?" when it leaves some out. */
/* The stable answer beside the first crossing, and which curves are not
 * monotonic (the first crossing is then not the count to buy). */
static void print_stable(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    fprintf(ctx->out, "stable (every larger count swept meets it):");
    for (int j = 0; j < p->npolicies; j++) {
        int c = plan_stable(pl, j, p);
        if (c < 0)
            fprintf(ctx->out, "  %s none", p->policies[j]);
        else
            fprintf(ctx->out, "  %s %d", p->policies[j], plan_result_at(pl, c, j)->gpus);
    }
    fputc('\n', ctx->out);
    for (int j = 0; j < p->npolicies; j++) {
        if (!plan_nonmonotonic(pl, j, p))
            continue;
        int b = plan_best(pl, j, p), s = plan_stable(pl, j, p);
        fprintf(ctx->out, "warning: %s: the curve is not monotonic: %d GPUs meet the target "
                "but a larger count swept does not; ", p->policies[j],
                plan_result_at(pl, b, j)->gpus);
        if (s >= 0)
            fprintf(ctx->out, "from %d GPUs every count does\n", plan_result_at(pl, s, j)->gpus);
        else
            fprintf(ctx->out, "the largest count swept does not\n");
    }
}

/* The most GPUs of one model the envelope holds, and which budget stops
 * more. */
static void print_capacity(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    const gpu_profile *g = &pl->prof;
    site_capacity c, *cap = &c;
    plan_site_capacity(pl, p, cap);
    fprintf(ctx->out, "site: %g kW at PUE %g holds at most %d %s (%d server%s of up to %d at %.0f W "
            "peak IT each)", p->site.site_kw, p->site.pue, cap->gpus, g->name, cap->servers,
            cap->servers == 1 ? "" : "s", p->per_server, cap->server_peak_w);
    if (cap->limit == SITE_LIMIT_RACK)
        fprintf(ctx->out, "; the racks bind: %d racks of %g kW hold %d servers each, the site "
                "alone %d servers\n", cap->racks, p->site.rack_kw, cap->per_rack,
                cap->site_servers);
    else
        fprintf(ctx->out, "; the site budget binds\n");
}

/* Per policy: the fewest GPUs meeting the SLA against the most the
 * envelope holds, and which limit binds. */
static void print_envelope(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    char line[1024];
    if (!site_has_budget(&p->site) || (pl->grid && pl->base))
        return;
    if (pl->grid) {
        plan_site_line(pl, p, line, sizeof line);
        fprintf(ctx->out, "site: %g kW at PUE %g", p->site.site_kw, p->site.pue);
        if (p->site.rack_kw > 0)
            fprintf(ctx->out, " in racks of %g kW", p->site.rack_kw);
        fprintf(ctx->out, "; %s\n", line);
    } else {
        print_capacity(ctx, pl);
    }
    plan_site_answer(pl, p, line, sizeof line);
    fprintf(ctx->out, "%s\n", line);
}

static void print_results(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    table *t = table_new();
    plan_results_table(pl, p, t);
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
    if (ctx->format != FMT_TABLE)
        return;
    if (p->snapshot[0])
        fprintf(ctx->out, "gpus: %s added to snapshot '%s''s cluster '%s' (%lld GPUs)\n",
                pl->prof.name, p->snapshot, pl->base->name,
                (long long)cluster_gpu_total(pl->base));
    fprintf(ctx->out, "fewest GPUs %smeeting SLA <= %g%% violations:",
            p->snapshot[0] ? "to add " : "", p->sla_target_pct);
    for (int j = 0; j < p->npolicies; j++) {
        int c = plan_best(pl, j, p);
        if (c < 0)
            fprintf(ctx->out, "  %s none", p->policies[j]);
        else
            fprintf(ctx->out, "  %s %d", p->policies[j], plan_result_at(pl, c, j)->gpus);
    }
    fputc('\n', ctx->out);
    print_stable(ctx, pl);
    print_envelope(ctx, pl);
}

/* Per policy, the frontier's points by cost, and the cheapest meeting
 * the SLA target. */
static void grid_summary(cli_ctx *ctx, const plan *pl)
{
    const plan_params *p = &pl->p;
    for (int j = 0; j < p->npolicies; j++) {
        fprintf(ctx->out, "%s frontier (%s+%s: cost USD, SLA violations):", p->policies[j],
                pl->prof.name, pl->prof2.name);
        for (int c = 0; c < pl->ncounts; c++)
            if (plan_on_frontier(pl, c, j, p)) {
                const plan_result *r = plan_result_at(pl, c, j);
                fprintf(ctx->out, "  %d+%d: %.0f, %.1f%%", r->gpus, r->gpus2,
                        plan_value(pl, r, PM_COST, p), plan_value(pl, r, PM_SLA, p));
            }
        fputc('\n', ctx->out);
    }
    fprintf(ctx->out, "cheapest meeting SLA <= %g%% violations:", p->sla_target_pct);
    for (int j = 0; j < p->npolicies; j++) {
        int c = plan_best(pl, j, p);
        const plan_result *r = c >= 0 ? plan_result_at(pl, c, j) : NULL;
        if (r && plan_price_unknown(pl, r, p))
            fprintf(ctx->out, "  %s %d %s + %d %s (price unknown)", p->policies[j], r->gpus,
                    pl->prof.name, r->gpus2, pl->prof2.name);
        else if (r)
            fprintf(ctx->out, "  %s %d %s + %d %s ($%.0f)", p->policies[j], r->gpus,
                    pl->prof.name, r->gpus2, pl->prof2.name, plan_value(pl, r, PM_COST, p));
        else
            fprintf(ctx->out, "  %s none", p->policies[j]);
    }
    fputc('\n', ctx->out);
}

static void print_grid(cli_ctx *ctx, const plan *pl)
{
    table *t = table_new();
    plan_results_table(pl, &pl->p, t);
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
    if (ctx->format == FMT_TABLE) {
        grid_summary(ctx, pl);
        print_envelope(ctx, pl);
    }
}

/* A shard's report: what it simulated and saved, and what comes next. */
static void print_shard(cli_ctx *ctx, const plan *pl, int saved)
{
    const shard *sh = &pl->p.shard;
    fprintf(ctx->out, "plan %s, shard %d/%d: %d of %d jobs simulated, %d saved to %s",
            pl->fingerprint, sh->i, sh->n, pl->npending, pl->njobs, saved, ctx->db_path);
    if (pl->nloaded)
        fprintf(ctx->out, " (%d already there)", pl->nloaded);
    fprintf(ctx->out, "\nmerge the shards with gpuplan merge, then run this plan without "
            "--shard on the merged database for the answer\n");
}

/* Steps the plan to its end; a shard saves each finished job as it goes,
 * so an interrupted shard keeps what it finished. */
static int step_plan(cli_ctx *ctx, plan *pl, int save, int quiet, int *saved, gp_err *err)
{
    /* The percentage rewrites itself with \r: only a terminal shows that
     * as progress; in a log or a pipe it is noise. */
    int tty = !quiet && isatty(STDERR_FILENO);
    int more = 1, n;
    *saved = 0;
    while (more) {
        more = plan_tick(pl, 0.5);
        if (save && plan_saved_put(pl, cli_store(ctx), &n, err))
            return -1;
        *saved += save ? n : 0;
        if (tty && more)
            fprintf(stderr, "\rgpuplan plan: %3.0f%%", 100 * plan_progress(pl));
    }
    if (tty)
        fprintf(stderr, "\r                  \r");
    if (pl->state == PLAN_FAILED)
        return gp_error(err, "%s", pl->err);
    return 0;
}

/* Under the table, what a power cap does to each model swept; on stderr,
 * the models it leaves alone. */
static void print_caps(cli_ctx *ctx, const plan *pl)
{
    const gpu_profile *prof[2] = {&pl->prof, pl->grid ? &pl->prof2 : NULL};
    char line[512];
    if (!power_caps_any(&pl->p.caps))
        return;
    cli_caps_describe_profiles(&pl->p.caps, prof, 2, line, sizeof line);
    if (ctx->format == FMT_TABLE)
        fprintf(ctx->out, "gpu cap: %s\n", line);
    cli_caps_notes_profiles(stderr, &pl->p.caps, prof, 2);
}

/* Under the table: the GPU the speeds are relative to; on stderr, each
 * model whose price is unknown (its CapEx is left out). */
static void print_reference_and_prices(cli_ctx *ctx, const plan *pl)
{
    if (ctx->format == FMT_TABLE) {
        char line[128];
        speed_ref_describe(pl->ref_name, pl->ref_speed, line, sizeof line);
        fprintf(ctx->out, "%s\n", line);
    }
    print_caps(ctx, pl);
    if (pl->p.price < 0)
        cli_warn_unpriced_model(&pl->prof, "capex_usd");
    if (pl->grid && pl->p.price2 < 0)
        cli_warn_unpriced_model(&pl->prof2, "capex_usd");
}

static int run_plan(cli_ctx *ctx, const plan_params *p, int quiet)
{
    plan pl;
    memset(&pl, 0, sizeof pl);
    gp_err err = {{0}};
    int save = p->shard.n > 1, saved = 0;
    if ((save && store_check_writable(cli_store(ctx), &err)) ||
        plan_start(&pl, cli_store(ctx), p, &err) ||
        step_plan(ctx, &pl, save, quiet, &saved, &err)) {
        plan_free(&pl);
        return cli_fail(&err);
    }
    if (pl.nloaded && !save && !quiet)
        fprintf(stderr, "gpuplan plan: %d of %d results read from the database (plan %s)\n",
                pl.nloaded, pl.njobs, pl.fingerprint);
    if (save)
        print_shard(ctx, &pl, saved);
    else if (pl.grid)
        print_grid(ctx, &pl);
    else
        print_results(ctx, &pl);
    if (!save)
        print_reference_and_prices(ctx, &pl);
    plan_free(&pl);
    return EXIT_OK;
}

/* What the pricing options set of a plan: the Planner's call too
 * (plan/plan_cost.h), so the two price a point alike. */
static void plan_priced(const cli_cost *c, plan_params *p)
{
    plan_params_priced(&c->pr, p->hours, p);
}

/* The command is done (help, usage or runtime error) with exit code c. */
static int stop(int *code, int c)
{
    *code = c;
    return -1;
}

/* `gpuplan plan`'s options into *out (`gpuplan plot plan` takes them too);
 * 0 to go on, -1 with *code when the command is done. */
int cmd_plan_parse(cli_ctx *ctx, int argc, char **argv, plan_params *out, int *quiet,
                   int *code)
{
    plan_params p;
    plan_params_default(&p);
    const char *trace = NULL, *gpu = NULL, *gpu2 = NULL, *policies = DEFAULT_POLICIES;
    const char *tput = NULL, *nets = NULL, *ref_gpu = NULL;
    int to = 0, to2 = 0;
    cli_whatif cw = {0};
    cli_cost cost;
    cli_cost_init(&cost);
    p.lo = p.lo2 = -1;      /* not given: 1, or 0 in a grid */
    const cli_opt opts[] = {
        OPT_STRING("trace", 0, "NAME", &trace, "trace to plan for (required but with "
                   "--from-snapshot)"),
        CLI_WHATIF_OPTS(&cw),
        OPT_STRING("gpu", 0, "PROFILE", &gpu, "GPU profile the clusters are built of",
                   .required = 1),
        OPT_INT("from", 0, "N", &p.lo, 0, 1e6, "fewest GPUs to try",
                .def = "1; 0 in a grid or added to a snapshot"),
        OPT_INT("to", 0, "N", &to, 1, 1e6, "most GPUs to try",
                .def = "the trace's peak demand"),
        OPT_INT("step", 0, "N", &p.step, 1, 1e6, "count step, grown so at most 64 counts run "
                "(16 per model in a grid)", .def = "1"),
        OPT_FLAG("unbounded", 0, &p.unbounded, "one run per policy in an unbounded pool "
                 "instead: servers open when nothing fits (CorrGPU's CapEx)"),
        OPT_STRING("gpu2", 0, "PROFILE", &gpu2, "a second GPU profile: sweep a grid of "
                   "mixed clusters (--from/--to of the first model, --from2/--to2 of this)"),
        OPT_INT("from2", 0, "N", &p.lo2, 0, 1e6, "grid: fewest GPUs of the second model",
                .def = "0"),
        OPT_INT("to2", 0, "N", &to2, 0, 1e6, "grid: most GPUs of the second model",
                .def = "--to"),
        OPT_INT("step2", 0, "N", &p.step2, 1, 1e6, "grid: count step of the second model",
                .def = "1"),
        OPT_INT("per-server", 0, "N", &p.per_server, 1, GP_NODE_MAX_GPUS, "GPUs per server",
                .def = "8"),
        OPT_STRING("policy", 0, "LIST", &policies, "up to 6 policies, comma-separated",
                   .def = DEFAULT_POLICIES),
        OPT_DOUBLE("price", 0, "USD", &p.price, 0, 1e9, "price per GPU",
                   .def = "the profile's"),
        OPT_DOUBLE("price2", 0, "USD", &p.price2, 0, 1e9, "grid: price per GPU of the second "
                   "model", .def = "the profile's"),
        CLI_COST_OPTS(&cost),
        CLI_SITE_OPTS(&p.site),
        OPT_DOUBLE("hours", 0, "H", &p.hours, 0, 1e7, "hours that energy is counted over",
                   .def = "the simulated span"),
        OPT_DOUBLE("kappa", 0, "K", &p.kappa, 1, 100, "SLA factor for every task",
                   .def = "each task's"),
        OPT_DOUBLE("sla-target", 0, "PCT", &p.sla_target_pct, 0, 100,
                   "violations allowed, % of tasks", .def = "0"),
        OPT_DOUBLE("corr-threshold", 0, "X", &p.corr_threshold, -1, 1,
                   "CATS/CorrGPU correlation threshold", .def = "the papers'"),
        OPT_DOUBLE("util-threshold", 0, "PCT", &p.util_threshold, 0, 1000,
                   "utilization threshold q", .def = "the papers', 100"),
        OPT_STRING("ref-gpu", 0, "MODEL", &ref_gpu, "GPU profile the trace's durations and "
                   "utilizations were measured on", .def = "the trace's, else V100"),
        OPT_DOUBLE("ref-speed", 0, "X", &p.ref_speed, 1e-3, 1e3, "relative GPU speed they "
                   "were measured at instead (a V100 = 1)", .def = "--ref-gpu's"),
        OPT_CALLBACK("gpu-cap", 0, "W|MODEL=W,...", &p.caps, cli_parse_caps, CLI_CAP_HELP,
                     .def = "none"),
        OPT_CALLBACK("util-window", 0, "WINDOW", &p.util_window, cli_parse_util_window,
                     "the correlation family's window, as run's: remaining (each running "
                     "task's series from now on) or whole (its whole series)",
                     .def = "each policy's own"),
        OPT_CALLBACK("predict", 0, "NAME", &p.predict, cli_parse_predict, "what the "
                     "correlation policies know of future utilization: oracle, profile:S, "
                     "profile:S:mean, history or noisy:RMSLE", .def = "oracle"),
        OPT_STRING("tput", 0, "NAME", &tput, "throughput table timing the tasks that name "
                   "its job types; none for no table",
                   .def = "the one named like the trace, if any"),
        OPT_STRING("gogh-nets", 0, "NAME", &nets, "GOGH's trained estimation nets; none for "
                   "none", .def = "those trained on the throughput table"),
        OPT_INT("jobs", 'j', "N", &p.jobs, 1, PAR_MAX_THREADS, "simulations at once (the "
                "results are the same for any N; a plan with GOGH nets runs one at a time)",
                .def = "the number of cores"),
        OPT_CALLBACK("shard", 0, "I/N", &p.shard, shard_parse_opt, "simulate only shard I of "
                     "N (the jobs, count-major then policy, numbered I, I+N, ...) and save "
                     "them; merge the shards' databases with gpuplan merge", .def = "every job"),
        OPT_FLAG("quiet", 'q', quiet, "no progress or notes on stderr"),
        OPT_END(),
    };
    gp_err err = {{0}};
    int parsed = cli_parse(ctx, &cmd_plan, opts, argc, argv, NULL, code);
    if (parsed == 0)
        plan_priced(&cost, &p);
    cli_cost_free(&cost);
    if (parsed)
        return -1;
    if (!trace && !cw.snapshot)
        return stop(code, cli_usage_error(&cmd_plan, "--trace is required (or --from-snapshot)"));
    if (trace)
        strlcpy0(p.trace, trace, sizeof p.trace);
    if (cw.snapshot) {
        if (strlen(cw.snapshot) >= sizeof p.snapshot)
            return stop(code, cli_usage_error(&cmd_plan, "--from-snapshot: at most %d bytes",
                                              GP_NAME_MAX - 1));
        strlcpy0(p.snapshot, cw.snapshot, sizeof p.snapshot);
        p.whatif = cw.o;
    }
    strlcpy0(p.gpu, gpu, sizeof p.gpu);
    if (tput)
        strlcpy0(p.tput, tput, sizeof p.tput);
    if (nets)
        strlcpy0(p.nets, nets, sizeof p.nets);
    if (ref_gpu)
        strlcpy0(p.ref_gpu, ref_gpu, sizeof p.ref_gpu);
    if (gpu2)
        strlcpy0(p.gpu2, gpu2, sizeof p.gpu2);
    if (p.lo < 0)
        p.lo = gpu2 || cw.snapshot ? 0 : 1;
    if (p.lo2 < 0)
        p.lo2 = 0;
    if (!gpu2 && !cw.snapshot && p.lo < 1)
        return stop(code, cli_usage_error(&cmd_plan, "--from must be at least 1 with one GPU "
                                          "model"));
    if (gpu2 && p.unbounded)
        return stop(code, cli_usage_error(&cmd_plan, "--unbounded is for one GPU model, not "
                                          "with --gpu2"));
    if (add_policies(&p, policies, &err))
        return stop(code, cli_usage_error(&cmd_plan, "%s", err.msg));
    if (!cli_store(ctx))
        return stop(code, EXIT_RUNTIME);
    if (to)
        p.hi = to;
    else if (!p.unbounded && default_range(ctx, &p, &err))
        return stop(code, cli_fail(&err));
    p.hi2 = gpu2 && !to2 && p.lo2 <= p.hi ? p.hi : to2;
    if (p.hi < p.lo || (gpu2 && p.hi2 < p.lo2))
        return stop(code, cli_usage_error(&cmd_plan, "--to must not be below --from"));
    *out = p;
    return 0;
}

static int plan_exec(cli_ctx *ctx, int argc, char **argv)
{
    plan_params p;
    int code, quiet = 0;
    if (cmd_plan_parse(ctx, argc, argv, &p, &quiet, &code))
        return code;
    return run_plan(ctx, &p, quiet);
}
