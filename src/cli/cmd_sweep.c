/*
 * cmd_sweep.c — `gpuplan sweep inflation ...`: the FGD/PWR papers'
 * workload-inflation experiment (SPEC §5.3, FGD_NOTES §1, §7) for several
 * policies over several seeds, as a comparison table on stdout, the mean
 * curves with their spread in a file (--out, CSV or JSON), the per-event
 * log (--events) and one saved run per policy and seed.
 *
 * Not here: the experiment itself (sim/inflation.c), the policies, the
 * files' formats (io/inflation_read.c reads the order and ranks,
 * io/sweep_curves.c and io/sweep_events.c write the curves and events).
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "io/export_file.h"
#include "io/inflation_read.h"
#include "io/sweep_curves.h"
#include "io/sweep_events.h"
#include "core/strbuf.h"
#include "db/store_merge.h"
#include "plan/par.h"
#include "plan/shard.h"
#include "sim/inflation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sweep_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_sweep = {
    .name = "sweep",
    .usage = "inflation --trace NAME --cluster NAME [OPTIONS]",
    .summary = "Run the workload-inflation experiment for several policies and seeds",
    .notes = "Tasks of the trace, shuffled with each seed and inflated with random clones to "
             "--ratio times the cluster's GPU capacity, are placed one by one; the "
             "allocation, fragmentation, EOPC power and GRAR curves are averaged over the "
             "seeds (FGD and PWR papers).",
    .exec = sweep_exec,
};

#define MAX_POLICIES 32
#define MAX_SEEDS 10000

typedef struct sweep_opts {
    const char *trace, *cluster, *order_file, *rank_file, *out, *events;
    const char *policies, *rng;
    uint64_t *seeds;
    size_t nseeds;
    double ratio;
    int explain, placements, save, quiet, trace_order;
    int jobs;                   /* simulations at once (-j) */
    shard shard;                /* --shard I/N; {0, 1} = every job */
} sweep_opts;

/* The loaded inputs and one accumulator per policy. */
typedef struct sweep {
    cli_inputs in;
    int *order, *rank;
    size_t norder;
    policy_spec pol[MAX_POLICIES];
    size_t npol;
    infl_agg *agg;              /* npol */
    FILE *events;               /* --events, put in place by close_events() */
    const char *events_path;
    char what[256];             /* the sweep described, for store_sweep */
    store_sweep id;             /* its fingerprint and work list */
} sweep;

/* --- arguments ---------------------------------------------------------------- */

/* Seeds from "42-51,60" into o->seeds (a --seeds callback; value is the
 * sweep_opts). */
static int parse_seeds(void *value, const char *text, gp_err *err)
{
    sweep_opts *o = value;
    char *copy = xstrdup(text), *save = NULL;
    int rc = 0;
    o->nseeds = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        int64_t a, b;
        char *dash = strchr(tok + 1, '-');
        if (dash)
            *dash = '\0';
        if (parse_int64(tok, &a) || (dash && parse_int64(dash + 1, &b)) || a < 0)
            rc = -1;
        else {
            if (!dash)
                b = a;
            if (b < a || (uint64_t)(b - a) >= MAX_SEEDS - o->nseeds)
                rc = -1;
            for (int64_t s = a; rc == 0 && s <= b; s++)
                o->seeds[o->nseeds++] = (uint64_t)s;
        }
    }
    free(copy);
    if (rc == 0 && o->nseeds > 0)
        return 0;
    return gp_error(err, "expected e.g. 42-51 or 1,5,9 (at most %d seeds), got '%s'", MAX_SEEDS,
                    text);
}

/* The one sweep there is, named by the first argument. */
static int check_kind(const cli_args *rest)
{
    if (rest->argc == 0)
        return cli_usage_error(&cmd_sweep, "expected a sweep kind (inflation)");
    if (strcmp(rest->argv[0], "inflation") != 0)
        return cli_usage_error(&cmd_sweep, "unknown sweep '%s' (expected inflation)",
                               rest->argv[0]);
    if (rest->argc > 1)
        return cli_usage_error(&cmd_sweep, "unexpected argument '%s'", rest->argv[1]);
    return EXIT_OK;
}

static int parse_args(cli_ctx *ctx, int argc, char **argv, sweep_opts *o, int *code)
{
    const cli_opt opts[] = {
        OPT_STRING("trace", 0, "NAME", &o->trace,
                   "trace to replay, e.g. an imported openb pod list", .required = 1),
        OPT_STRING("cluster", 0, "NAME", &o->cluster, "cluster to place on", .required = 1),
        OPT_STRING("policy", 0, "LIST", &o->policies, "comma-separated policies, NAME or "
                   "NAME:VALUE, e.g. fgd,bestfit,pwr,pwr+fgd:0.1",
                   .def = "the whole fragmentation/power family"),
        OPT_CALLBACK("seeds", 0, "LIST", o, parse_seeds, "seeds, e.g. 42-51 or 1,5,9",
                     .def = "42"),
        OPT_DOUBLE("ratio", 0, "R", &o->ratio, 0, 100, "inflation target / GPU capacity",
                   .min_open = 1, .def = "1.3"),
        OPT_STRING("order", 0, "FILE", &o->order_file, "explicit arrival order: task names, "
                   "one per line, or a TSV/CSV with a trace_pod or pod column (replaces the "
                   "shuffle and the inflation)"),
        OPT_FLAG("trace-order", 0, &o->trace_order, "submit the trace's tasks in their "
                 "stored order (no shuffle, no inflation)"),
        OPT_STRING("rng", 0, "NAME", &o->rng, "random stream of the seeded orders and ranks: "
                   "go (the published simulator's Go math/rand: seed 42 replays its seed-42 "
                   "run) or xoshiro (the project's own)", .def = "go"),
        OPT_STRING("tiebreak", 0, "FILE", &o->rank_file, "explicit node ranks: a TSV/CSV with "
                   "node and tie_rank columns, or node names in rank order"),
        OPT_STRING("out", 0, "FILE", &o->out,
                   "the mean curves with their spread (.json: JSON, else CSV)"),
        OPT_STRING("events", 0, "FILE", &o->events, "every event of every run as TSV"),
        OPT_FLAG("explain", 0, &o->explain, "add each decision's explanation to --events and "
                 "to the placements saved with --placements"),
        OPT_FLAG("placements", 0, &o->placements,
                 "save each task's node and GPUs with the runs"),
        OPT_SET_INT("no-save", 0, &o->save, 0, "do not save the runs in the database"),
        OPT_FLAG("quiet", 'q', &o->quiet, "no progress on stderr"),
        OPT_INT("jobs", 'j', "N", &o->jobs, 1, PAR_MAX_THREADS, "runs simulated at once "
                "(results and their saving order are the same for any N)",
                .def = "the number of cores"),
        OPT_CALLBACK("shard", 0, "I/N", &o->shard, shard_parse_opt, "run only shard I of N: the jobs "
                     "(policy-major, then seed) numbered I, I+N, I+2N, ...; merge the shards' "
                     "databases with gpuplan merge", .def = "every job"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(0, -1, NULL);     /* the kind: check_kind() */
    if (cli_parse(ctx, &cmd_sweep, opts, argc, argv, &rest, code))
        return -1;
    if ((*code = check_kind(&rest)) != EXIT_OK)
        return -1;
    infl_rng k;
    if (o->rng && infl_rng_parse(o->rng, &k)) {
        *code = cli_usage_error(&cmd_sweep, "unknown --rng '%s' (expected go or xoshiro)",
                                o->rng);
        return -1;
    }
    if (o->trace_order && o->order_file) {
        *code = cli_usage_error(&cmd_sweep, "--order and --trace-order exclude each other");
        return -1;
    }
    return 0;
}

/* "fgd,bestfit,pwr+fgd:0.1" (or the whole family) into specs. */
static int parse_policies(const char *list, sweep *sw, gp_err *err)
{
    if (!list || strcmp(list, "all") == 0) {
        const policy_ops *p;
        for (size_t i = 0; (p = policy_family_nth(FAMILY_FRAGMENTATION, i)) && sw->npol < MAX_POLICIES;
             i++)
            if (policy_spec_parse(p->name, &sw->pol[sw->npol++], err))
                return -1;
        return 0;
    }
    char *copy = xstrdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        if (sw->npol == MAX_POLICIES)
            rc = gp_error(err, "at most %d policies", MAX_POLICIES);
        else
            rc = policy_spec_parse(tok, &sw->pol[sw->npol++], err);
    }
    free(copy);
    return rc;
}

/* --- inputs ----------------------------------------------------------------------- */

static int load_inputs(store *st, const sweep_opts *o, sweep *sw, gp_err *err)
{
    if (cli_inputs_load(st, o->cluster, o->trace, &sw->in, err))
        return -1;
    if (cluster_gpu_total(sw->in.cl) == 0)
        return gp_error(err, "cluster '%s' has no GPUs (the experiment inflates to a share of "
                        "its GPU capacity)", sw->in.cl->name);
    if (o->order_file && inflation_read_order(o->order_file, sw->in.tr, &sw->order, &sw->norder, err))
        return -1;
    if (o->trace_order) {
        sw->norder = sw->in.tr->ntasks;
        sw->order = xmalloc((sw->norder ? sw->norder : 1) * sizeof *sw->order);
        for (size_t i = 0; i < sw->norder; i++)
            sw->order[i] = (int)i;
    }
    if (o->rank_file) {
        sw->rank = xmalloc((sw->in.cl->nnodes ? sw->in.cl->nnodes : 1) * sizeof *sw->rank);
        if (inflation_read_ranks(o->rank_file, sw->in.cl, sw->rank, err))
            return -1;
    }
    return 0;
}

static void sweep_free(sweep *sw)
{
    cli_inputs_free(&sw->in);
    free(sw->order);
    free(sw->rank);
    free(sw->agg);
    if (sw->events)     /* a sweep that failed leaves no partial log */
        out_file_discard(sw->events, sw->events_path);
}

/* --- the sweep's identity ------------------------------------------------------------ */

static uint64_t fp_ints(uint64_t h, const char *what, const int *v, size_t n)
{
    char buf[32];
    h = fp_str(h, what);
    for (size_t i = 0; v && i < n; i++) {
        snprintf(buf, sizeof buf, "%d", v[i]);
        h = fp_str(h, buf);
    }
    return h;
}

/* Everything that decides the sweep's runs, hashed (plan/shard.h), and a
 * line describing it: what makes the databases of its shards mergeable. */
static void identify(const sweep_opts *o, sweep *sw)
{
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "inflation trace=%s(%zu tasks) cluster=%s(%zu nodes, %zu GPUs) "
                  "ratio=%.17g placements=%d explain=%d trace_order=%d rng=%s",
                  sw->in.tr->name, sw->in.tr->ntasks, sw->in.cl->name, sw->in.cl->nnodes,
                  (size_t)cluster_gpu_total(sw->in.cl), o->ratio, o->placements,
                  o->explain && (o->events || o->placements), o->trace_order,
                  o->rng ? o->rng : "go");
    uint64_t h = fp_str(FP_INIT, strbuf_str(&b));
    strbuf_puts(&b, " policies=");
    for (size_t p = 0; p < sw->npol; p++) {
        char opts[256];
        policy_spec_format(&sw->pol[p], opts, sizeof opts);
        h = fp_str(fp_str(fp_str(h, sw->pol[p].ops->name), sw->pol[p].label), opts);
        strbuf_printf(&b, "%s%s", p ? "," : "", sw->pol[p].label);
    }
    char seed[32];
    h = fp_str(h, "seeds");
    for (size_t k = 0; k < o->nseeds; k++) {
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seeds[k]);
        h = fp_str(h, seed);
    }
    strbuf_printf(&b, " seeds=%zu (%llu..)", o->nseeds, (unsigned long long)o->seeds[0]);
    h = fp_ints(h, "order", sw->order, sw->norder);
    h = fp_ints(h, "ranks", sw->rank, sw->rank ? sw->in.cl->nnodes : 0);
    strbuf_copy_to(&b, sw->what, sizeof sw->what);
    strbuf_free(&b);
    fp_hex(h, sw->id.fingerprint);
    sw->id.kind = "inflation";
    sw->id.what = sw->what;
    sw->id.njobs = (int64_t)(sw->npol * o->nseeds);
}

/* The runs of a sweep, one job per policy-seed (policy-major), for par.h:
 * workers compute, the calling thread adds, logs and saves in job order. */
typedef struct sweep_jobs {
    cli_ctx *ctx;
    const sweep_opts *o;
    sweep *sw;
    infl_setup s;
    int keep, progress;
    size_t done, total;
} sweep_jobs;

/* One run's result: the experiment and, when saved, its record. */
typedef struct sweep_result {
    infl_run r;
    run *rec;
} sweep_result;

static int sweep_work(void *ctx, size_t l, void **out, gp_err *err)
{
    sweep_jobs *j = ctx;
    size_t i = shard_job(j->o->shard, l), p = i / j->o->nseeds, k = i % j->o->nseeds;
    uint64_t seed = j->o->seeds[k];
    sweep_result *res = xcalloc(1, sizeof *res);
    if (infl_run_one(&j->s, &j->sw->pol[p], seed, j->keep, &res->r, err)) {
        gp_error_prefix(err, "%s, seed %llu", j->sw->pol[p].label, (unsigned long long)seed);
        free(res);
        return -1;
    }
    if (j->o->save)
        res->rec = infl_to_run(&j->s, &j->sw->pol[p], seed, &res->r, j->o->placements);
    *out = res;
    return 0;
}

static void sweep_drop(void *ctx, size_t i, void *result)
{
    (void)ctx;
    (void)i;
    sweep_result *res = result;
    run_free(res->rec);
    infl_run_free(&res->r);
    free(res);
}

static int sweep_take(void *ctx, size_t l, void *result, gp_err *err)
{
    sweep_jobs *j = ctx;
    sweep_result *res = result;
    size_t i = shard_job(j->o->shard, l), p = i / j->o->nseeds, k = i % j->o->nseeds;
    infl_agg_add(&j->sw->agg[p], &res->r);
    if (j->sw->events)
        sweep_events_write(j->sw->events, j->sw->pol[p].label, j->o->seeds[k], j->sw->in.tr,
                           j->sw->in.cl, res->r.gpu_milli, res->r.ev, res->r.nev);
    int rc = res->rec ? store_put_sweep_run(cli_store(j->ctx), &j->sw->id, (int64_t)i,
                                            res->rec, err) : 0;
    sweep_drop(ctx, l, result);
    if (rc == 0 && j->progress)
        fprintf(stderr, "\rsweep: %zu/%zu runs (%s, seed %llu)   ", ++j->done, j->total,
                j->sw->pol[p].label, (unsigned long long)j->o->seeds[k]);
    return rc;
}

static int run_all(cli_ctx *ctx, const sweep_opts *o, sweep *sw, gp_err *err)
{
    sweep_jobs j = {
        .ctx = ctx, .o = o, .sw = sw,
        .s = {sw->in.cl, sw->in.cat, sw->in.tr, o->ratio, sw->order, sw->norder, sw->rank,
              o->explain && (o->events || o->placements), INFL_RNG_GO},
        .keep = o->events || o->placements,
        .progress = !o->quiet && isatty(STDERR_FILENO),
        .total = shard_count(o->shard, sw->npol * o->nseeds),
    };
    if (o->rng)
        infl_rng_parse(o->rng, &j.s.rng);
    par_job job = {sweep_work, sweep_take, sweep_drop, &j};
    int rc = par_run(&job, j.total, o->jobs, err);
    if (j.progress)
        fprintf(stderr, "\n");
    return rc;
}

/* --- the comparison ------------------------------------------------------------------- */

/* EOPC saving of policy p against plain FGD at grid point i, in percent. */
static double saving(const sweep *sw, size_t p, size_t fgd, int i)
{
    double e0 = infl_agg_grid(&sw->agg[fgd], INFL_G_EOPC, i).mean;
    double e1 = infl_agg_grid(&sw->agg[p], INFL_G_EOPC, i).mean;
    return e0 > 0 ? 100 * (e0 - e1) / e0 : NAN;
}

/* The family's reference policy among the swept ones (the PWR paper's
 * savings are against FGD), -1 when it was not swept. */
static long find_reference(const sweep *sw)
{
    const policy_ops *ref = policy_family_get(FAMILY_FRAGMENTATION)->reference;
    for (size_t p = 0; p < sw->npol; p++)
        if (ref && sw->pol[p].ops == ref)
            return (long)p;
    return -1;
}

/* The longest run of grid points with a saving above 10 %, as "x1-x2". */
static void saving_range(const sweep *sw, size_t p, size_t fgd, char *buf, size_t len)
{
    int best_a = -1, best_b = -1, a = -1;
    for (int i = 0; i <= INFL_NGRID; i++) {
        int above = i < INFL_NGRID && saving(sw, p, fgd, i) > 10;
        if (above && a < 0)
            a = i;
        if (!above && a >= 0) {
            if (best_a < 0 || i - 1 - a > best_b - best_a) {
                best_a = a;
                best_b = i - 1;
            }
            a = -1;
        }
    }
    if (best_a < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3f-%.3f", infl_grid_x(best_a), infl_grid_x(best_b));
}

/* A numeric cell; empty (JSON null) when the runs have no value. */
static void num_cell(table *t, const char *fmt, double v)
{
    if (isnan(v))
        table_cell(t, "%s", "");
    else
        table_cell(t, fmt, v);
}

static void print_table(cli_ctx *ctx, const sweep *sw)
{
    static const char *const cols[] = {
        "policy", "seeds", "alloc_pct_100", "alloc_sd", "frag_ratio_100", "eopc_kw_50",
        "saving_pct_50", "saving_gt10_x", "grar_100", "failed", "clones", "s_per_seed",
    };
    table *t = table_new();
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        table_col(t, cols[i], i >= 1 && i != 7);
    long fgd = find_reference(sw);
    for (size_t p = 0; p < sw->npol; p++) {
        const infl_agg *a = &sw->agg[p];
        if (a->nruns == 0)      /* a shard may hold no run of a policy */
            continue;
        infl_stat al = infl_agg_pct(a, INFL_P_ALLOC, 100);
        table_row(t);
        table_cell(t, "%s", sw->pol[p].label);
        table_cell(t, "%d", a->nruns);     /* a shard runs some seeds */
        num_cell(t, "%.3f", al.mean);
        num_cell(t, "%.3f", al.sd);
        num_cell(t, "%.2f", infl_agg_pct(a, INFL_P_FRAG_RATIO, 100).mean);
        num_cell(t, "%.1f", infl_agg_grid(a, INFL_G_EOPC, 100).mean / 1000);
        char range[32] = "-";
        num_cell(t, "%.2f", fgd >= 0 ? saving(sw, p, (size_t)fgd, 100) : NAN);
        if (fgd >= 0)
            saving_range(sw, p, (size_t)fgd, range, sizeof range);
        table_cell(t, "%s", range);
        num_cell(t, "%.4f", infl_agg_grid(a, INFL_G_GRAR, INFL_NGRID - 1).mean);
        table_cell(t, "%.1f", a->failed_sum / a->nruns);
        table_cell(t, "%.1f", a->clones_sum / a->nruns);
        table_cell(t, "%.3f", a->wall_sum / a->nruns);
    }
    table_print(t, ctx->format, ctx->out, "(no runs)");
    table_free(t);
}

/* --- curve files ----------------------------------------------------------------------- */

/* The curves of every policy as the writers of io/sweep_curves.h read
 * them; what they point at is owned here (curves_free). */
typedef struct curve_rows {
    double percent_x[INFL_NPCT], grid_x[INFL_NGRID];
    sweep_policy_curves *pol;
    sweep_curve *curve;         /* every policy's, one block each */
    sweep_point *pt;            /* every curve's, one block each */
    sweep_curves c;
} curve_rows;

/* One curve of policy p: the statistic of each point (metric m of the
 * percent curves when !grid, of the grid's otherwise; m < 0: the EOPC
 * saving against the reference). */
static void fill_curve(const sweep *sw, size_t p, long fgd, int grid, int m, sweep_point *pt,
                       sweep_curve *cv)
{
    int n = grid ? INFL_NGRID : INFL_NPCT;
    for (int i = 0; i < n; i++) {
        infl_stat s = m < 0 ? (infl_stat){saving(sw, p, (size_t)fgd, i), NAN, NAN, NAN,
                                          sw->agg[p].nruns}
                    : grid ? infl_agg_grid(&sw->agg[p], m, i)
                           : infl_agg_pct(&sw->agg[p], m, i);
        pt[i] = (sweep_point){grid ? infl_grid_x(i) : i, s.mean, s.sd, s.min, s.max, s.n};
    }
    *cv = (sweep_curve){grid ? "grid" : "percent",
                        m < 0 ? "eopc_saving_pct" : grid ? infl_grid_names[m] : infl_pct_names[m],
                        pt, (size_t)n, m < 0};
}

static void curves_of(const sweep *sw, const sweep_opts *o, curve_rows *r)
{
    long fgd = find_reference(sw);
    size_t per = INFL_NPM + INFL_NGM + (fgd >= 0), npol = sw->npol ? sw->npol : 1;
    r->pol = xcalloc(npol, sizeof *r->pol);
    r->curve = xcalloc(npol * per, sizeof *r->curve);
    r->pt = xcalloc(npol * per * INFL_NGRID, sizeof *r->pt);
    for (int i = 0; i < INFL_NPCT; i++)
        r->percent_x[i] = i;
    for (int i = 0; i < INFL_NGRID; i++)
        r->grid_x[i] = infl_grid_x(i);
    for (size_t p = 0; p < sw->npol; p++) {
        sweep_curve *cv = &r->curve[p * per];
        sweep_point *pt = &r->pt[p * per * INFL_NGRID];
        size_t k = 0;
        for (int m = 0; m < INFL_NPM; m++, k++)
            fill_curve(sw, p, fgd, 0, m, &pt[k * INFL_NGRID], &cv[k]);
        for (int m = 0; m < INFL_NGM; m++, k++)
            fill_curve(sw, p, fgd, 1, m, &pt[k * INFL_NGRID], &cv[k]);
        if (fgd >= 0)
            fill_curve(sw, p, fgd, 1, -1, &pt[k * INFL_NGRID], &cv[k]);
        r->pol[p] = (sweep_policy_curves){sw->pol[p].label, sw->agg[p].nruns, cv, per};
    }
    r->c = (sweep_curves){sw->in.tr->name, sw->in.cl->name, o->ratio, o->seeds, o->nseeds,
                          r->percent_x, INFL_NPCT, r->grid_x, INFL_NGRID, r->pol, sw->npol};
}

static void curves_free(curve_rows *r)
{
    free(r->pol);
    free(r->curve);
    free(r->pt);
}

static int write_curves(const char *path, const sweep *sw, const sweep_opts *o, gp_err *err)
{
    FILE *f = out_file_open(path, err);
    if (!f)
        return -1;
    curve_rows rows;
    curves_of(sw, o, &rows);
    size_t l = strlen(path);
    int rc = 0;
    if (l > 5 && strcmp(path + l - 5, ".json") == 0)
        rc = sweep_curves_write_json(f, &rows.c, err);
    else
        sweep_curves_write_csv(f, &rows.c);
    curves_free(&rows);
    if (rc) {
        out_file_discard(f, path);
        return -1;
    }
    return out_file_close(f, path, err);
}

/* --- the command ------------------------------------------------------------------------ */

static int open_events(sweep *sw, const char *path, int with_why, gp_err *err)
{
    if (!(sw->events = out_file_open(path, err)))
        return -1;
    sw->events_path = path;
    sweep_events_header(sw->events, with_why);
    return 0;
}

static int close_events(sweep *sw, gp_err *err)
{
    FILE *f = sw->events;
    sw->events = NULL;
    return out_file_close(f, sw->events_path, err);
}

static int sweep_run(cli_ctx *ctx, const sweep_opts *o, sweep *sw)
{
    gp_err err = {{0}};
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    if ((o->save && store_check_writable(st, &err)) || load_inputs(st, o, sw, &err) ||
        parse_policies(o->policies, sw, &err) ||
        (o->events && open_events(sw, o->events, o->explain, &err)))
        return cli_fail(&err);
    identify(o, sw);
    sw->agg = xmalloc(sw->npol * sizeof *sw->agg);
    for (size_t p = 0; p < sw->npol; p++)
        infl_agg_init(&sw->agg[p]);
    /* Each run is committed as it is saved: a sweep holding the write lock
     * for all its runs kept every other writer waiting that long. */
    if (run_all(ctx, o, sw, &err) || (sw->events && close_events(sw, &err)) ||
        (o->out && write_curves(o->out, sw, o, &err)))
        return cli_fail(&err);
    print_table(ctx, sw);
    return EXIT_OK;
}

static int sweep_exec(cli_ctx *ctx, int argc, char **argv)
{
    sweep_opts o;
    memset(&o, 0, sizeof o);
    o.ratio = INFL_DEFAULT_RATIO;
    o.save = 1;
    o.jobs = par_default_threads();
    o.shard.n = 1;
    o.seeds = xmalloc(MAX_SEEDS * sizeof *o.seeds);
    o.seeds[0] = 42;
    o.nseeds = 1;
    int code = EXIT_OK;
    if (parse_args(ctx, argc, argv, &o, &code) == 0) {
        sweep *sw = xcalloc(1, sizeof *sw);
        code = sweep_run(ctx, &o, sw);
        sweep_free(sw);
        free(sw);
    }
    free(o.seeds);
    return code;
}
