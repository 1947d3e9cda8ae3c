/*
 * cmd_solve.c — `gpuplan solve cats|corrgpu|gogh|fleet`: the exact models
 * of SPEC §5.2 on a trace and a cluster from the store, printed with the
 * heuristics' values on the same input; and the cheapest fleet of GPUs to
 * buy for a trace (GOGH Problem 1 with purchases), next to the cheapest
 * fleets of one model.
 *
 * The heuristics' rows (CATS, CorrGPU, First, HotCloud, Harmony on the
 * same instance, scored as the model scores) come from plan/heuristics.h;
 * the best feasible one is the solver's warm start.
 *
 * Ctrl-C stops the solve, which then reports its best solution so far; the
 * flag the handler sets is this file's only global state (a signal handler
 * can reach nothing else).
 */
#include "cli.h"
#include "cli_progress.h"
#include "cmd_table.h"
#include "cli_opt.h"
#include "cli_cap.h"
#include "cli_whatif.h"
#include "cli_cost.h"
#include "core/speed.h"
#include "core/strbuf.h"
#include "io/export_file.h"
#include "plan/heuristics.h"
#include "predict/util_predict.h"
#include "solve/solve.h"
#include "solve/solve_cap.h"

#include <assert.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int solve_exec(cli_ctx *ctx, int argc, char **argv);
static void print_models(FILE *out);

const cli_cmd cmd_solve = {
    .name = "solve",
    .usage = "MODEL --trace NAME (--cluster NAME | --gpus LIST) [OPTIONS]\n"
             "       MODEL --from-snapshot NAME [--trace NAME] [OPTIONS]: the snapshot's "
             "tasks (and the trace's) placed anew on its cluster",
    .summary = "Exact optimum (GLPK) of CATS, CorrGPU or GOGH next to the heuristics, or "
               "the cheapest fleet",
    .exec = solve_exec,
    .help_epilogue = print_models,
};

static volatile sig_atomic_t solve_cancelled;

static void on_sigint(int sig)
{
    (void)sig;
    solve_cancelled = 1;
}

typedef struct solve_args {
    const struct solver *model;
    const char *trace, *cluster, *tput;
    const char *objective;  /* gogh: "power" or "throughput" */
    const char *cuts;       /* --cuts: "off", "root" or "nodes" */
    const char *gpus;       /* fleet: NAME[:MAX][@USD],... */
    cli_cost cost;          /* fleet: --usd-per-kwh, --carbon, --pue */
    double hours;
    int ntasks;             /* --tasks, 0 = every task */
    double at;              /* --at, NAN = whole trace */
    double alpha, gpu_mem, util_cap, min_frac;
    int theta, no_heur, placements, log;
    upred_spec predict;     /* what the heuristics know of utilization */
    solve_opts o;
    cli_whatif wi;          /* --from-snapshot */
    power_caps caps;        /* --gpu-cap: cats, gogh and fleet model it */
    fleet_envelope env;     /* fleet: --site-kw, --host-w, --per-server */
} solve_args;

/* An exact model: its name on the command line, what it optimizes, how it
 * is solved, and how its result reads. */
typedef struct solver {
    const char *name, *title;
    const char *headline;   /* what the optimum is */
    const char *unit;       /* its column in the comparison */
    int integral;           /* the values are counts */
    int on_cluster;         /* placements are on the cluster's GPUs (node, clock) */
    int needs_tput;         /* solves against a throughput table (--tput) */
    int no_cluster;         /* buys its GPUs: no --cluster */
    int (*run)(cli_ctx *ctx, solve_args *a, const cli_inputs *in);
} solver;

/* ---- inputs ------------------------------------------------------------------------ */

/* The table for gogh: --tput, else the trace's name, else the only one. */
static int load_tput(store *st, const solve_args *a, cli_inputs *in, gp_err *err)
{
    if (a->tput)
        return store_get_tput_catalog(st, a->tput, &in->tp, err);
    gp_err ignore = {{0}};
    if (a->trace && store_get_tput_catalog(st, a->trace, &in->tp, &ignore) == 0)
        return 0;
    store_item *items;
    size_t n;
    if (store_list(st, STORE_TPUT, &items, &n, err))
        return -1;
    int rc = n == 1 ? store_get_tput_catalog(st, items[0].name, &in->tp, err)
                    : gp_error(err, "gogh needs a throughput table: give --tput NAME (%zu "
                                    "stored)", n);
    free(items);
    return rc;
}

/* The fleet's table: the one named (--tput NAME; "none" for none), else,
 * only when the trace's tasks name job types, the trace's own or the only
 * one; tasks without a job type run at the profiles' speeds (in->tp
 * stays NULL). */
static int load_fleet_tput(store *st, const solve_args *a, cli_inputs *in, gp_err *err)
{
    if (a->tput && strcmp(a->tput, "none") == 0)
        return 0;
    if (a->tput)
        return store_get_tput_catalog(st, a->tput, &in->tp, err);
    const task *typed = NULL;
    for (size_t i = 0; i < in->tr->ntasks && !typed; i++)
        if (in->tr->tasks[i].model[0] && in->tr->tasks[i].num_gpu > 0)
            typed = &in->tr->tasks[i];
    if (!typed)
        return 0;
    if (load_tput(st, a, in, err) == 0)
        return 0;
    return gp_error(err, "task %s names job type '%s', which needs a throughput table: give "
                    "one (gpuplan solve fleet --trace %s --gpus ... --tput NAME), or run every "
                    "task at the profiles' speeds (--tput none)", typed->name, typed->model,
                    in->tr->name);
}

/* The tasks of tr running at time t: arrived, and not past kappa * e_min
 * (CATS eq. 5 at the clock the SLA allows). */
static gp_trace *running_at(const gp_trace *tr, double t)
{
    char name[GP_NAME_MAX];
    snprintf(name, sizeof name, "%s@%g", tr->name, t);
    gp_trace *out = trace_new(name);
    for (size_t i = 0; i < tr->ntasks; i++) {
        const task *tk = &tr->tasks[i];
        double kappa = tk->kappa > 0 ? tk->kappa : GP_DEFAULT_KAPPA;
        if (tk->arrival_s <= t && t < tk->arrival_s + kappa * tk->duration_s)
            trace_add_task(out, tk);
    }
    return out;
}

/* The arrival at which the most tasks run at once (running_at's reading);
 * *most gets their count. */
static double busiest_instant(const gp_trace *tr, size_t *most)
{
    double best_t = 0;
    *most = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        double t = tr->tasks[i].arrival_s;
        size_t n = 0;
        for (size_t k = 0; k < tr->ntasks; k++) {
            const task *tk = &tr->tasks[k];
            double kappa = tk->kappa > 0 ? tk->kappa : GP_DEFAULT_KAPPA;
            n += tk->num_gpu > 0 && tk->arrival_s <= t && t < tk->arrival_s + kappa * tk->duration_s;
        }
        if (n > *most) {
            *most = n;
            best_t = t;
        }
    }
    return best_t;
}

/* The fleet at the profiles' speeds serves the tasks that run at once: a
 * trace of arrivals is not one set of jobs placed together, so unless
 * --tasks or --at says otherwise, the busiest instant's (a fleet that
 * serves it serves every other instant's set, which the same GPUs then
 * hold at most as many of). */
static void fleet_busiest(FILE *out, const solve_args *a, cli_inputs *in)
{
    if (in->tp || a->ntasks || !isnan(a->at))
        return;
    size_t n;
    double t = busiest_instant(in->tr, &n);
    gp_trace *sub = running_at(in->tr, t);
    strlcpy0(sub->ref_gpu, in->tr->ref_gpu, sizeof sub->ref_gpu);
    if (out)
        fprintf(out, "the %zu tasks running at t=%g s, the trace's busiest instant (--at T or "
                "--tasks N for others)\n", sub->ntasks, t);
    trace_free(in->tr);
    in->tr = sub;
}

/* A snapshot's tasks and the trace's on the snapshot's cluster, all to
 * be placed at once (the exact models have no tasks in place: they say
 * how the snapshot would be packed anew); the state it starts from is
 * described first. */
static int load_snapshot(FILE *out, store *st, const solve_args *a, cli_inputs *in,
                         gp_err *err)
{
    whatif w;
    if (cli_whatif_load(st, &a->wi, a->cluster, a->trace, in, &w, err) ||
        (out && cli_whatif_describe(out, &a->wi, in, &w, err))) {
        cli_whatif_free(in, &w);
        return -1;
    }
    w.tr = NULL;                /* in owns the trace from here */
    whatif_free(&w);
    return 0;
}

/* The inputs, the trace cut to the tasks running at --at if given. */
static int load_inputs(FILE *out, store *st, const solve_args *a, cli_inputs *in, gp_err *err)
{
    if (a->wi.snapshot) {
        if (load_snapshot(out, st, a, in, err))
            return -1;
    } else if (a->model->no_cluster) {
        memset(in, 0, sizeof *in);
        if (store_load_catalog(st, &in->cat, err) || store_get_trace(st, a->trace, &in->tr, err))
            return -1;
    } else if (cli_inputs_load(st, a->cluster, a->trace, in, err)) {
        return -1;
    }
    if (!isnan(a->at)) {
        gp_trace *sub = running_at(in->tr, a->at);
        strlcpy0(sub->ref_gpu, in->tr->ref_gpu, sizeof sub->ref_gpu);
        trace_free(in->tr);
        in->tr = sub;
    }
    return 0;
}

/* CorrGPU's c: --gpu-mem, else the memory every GPU of the cluster has. */
static int cluster_gpu_mem(const cli_inputs *in, double *mem, gp_err *err)
{
    *mem = 0;
    for (size_t i = 0; i < in->cl->nnodes; i++) {
        const node *nd = &in->cl->nodes[i];
        const gpu_profile *p = nd->gpu_count > 0 ? catalog_gpu(in->cat, nd->gpu_model) : NULL;
        for (int d = 0; p && d < nd->gpu_count; d++) {
            double m = d < GP_NODE_MAX_GPUS && nd->gpu_mem_gib[d] > 0 ? nd->gpu_mem_gib[d]
                                                                      : p->mem_gib;
            if (*mem > 0 && fabs(m - *mem) > GP_MEM_EPS_GIB)
                return gp_error(err, "cluster %s mixes GPUs of %g and %g GiB; CorrGPU assumes "
                                     "one size: give --gpu-mem", in->cl->name, *mem, m);
            *mem = m;
        }
    }
    if (*mem <= 0)
        return gp_error(err, "cluster %s has no GPUs", in->cl->name);
    return 0;
}

/* ---- output ------------------------------------------------------------------------- */

static const char *fmt_value(char *buf, size_t len, double v, int integral)
{
    if (!isfinite(v))
        return "";
    snprintf(buf, len, integral ? "%.0f" : "%.3f", v);
    return buf;
}

/* The optimum's note: how it was closed, and for an infeasible instance
 * why, naming the task that fits nowhere.  Returns buf. */
static const char *optimum_note(char *buf, size_t len, const solve_result *r,
                                const cli_inputs *in, const int *src)
{
    if (r->status != SOLVE_INFEASIBLE || !r->why[0])
        snprintf(buf, len, "%s", r->method);
    else if (r->why_task >= 0)
        snprintf(buf, len, "%s; task %s fits nowhere: %s", r->method,
                 in->tr->tasks[src[r->why_task]].name, r->why);
    else
        snprintf(buf, len, "%s; %s", r->method, r->why);
    return buf;
}

static void comparison(cli_ctx *ctx, const solve_result *r, const heuristic_row *h, size_t nh,
                       const char *unit, int integral, const char *note, const int *over_cap)
{
    table *t = table_new();
    const char *cols[] = {"solution", "status", unit, "bound", "gap_pct", "time_s", "gpus",
                          "servers", "note"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 2 && c <= 7);
    char b1[32], b2[32];
    table_row(t);
    table_cell(t, "%s", "optimal");
    table_cell(t, "%s", solve_status_name(r->status));
    table_cell(t, "%s", r->has_solution ? fmt_value(b1, sizeof b1, r->objective, integral) : "");
    /* infeasible: nothing to bound (the paper's loop leaves its last LP value) */
    table_cell(t, "%s", r->status == SOLVE_INFEASIBLE ? "" : fmt_value(b2, sizeof b2, r->bound,
                                                                       integral));
    table_cell(t, "%s", r->has_solution && isfinite(r->gap) ? fmt_value(b1, sizeof b1, 100 * r->gap, 0) : "");
    table_cell(t, "%.3f", r->time_s);
    table_cell(t, "%d", r->gpus_used);
    if (r->servers_used > 0 || r->gpus_used == 0)
        table_cell(t, "%d", r->servers_used);
    else
        table_cell(t, "%s", "");   /* CorrGPU's GPUs are not on servers */
    table_cell(t, "%s", note);
    for (size_t k = 0; k < nh; k++) {
        table_row(t);
        table_cell(t, "%s", h[k].name);
        table_cell(t, "%s", over_cap && over_cap[k] ? "over cap"
                            : h[k].placed_all ? "heuristic" : "incomplete");
        table_cell(t, "%s", fmt_value(b1, sizeof b1, h[k].value, integral));
        table_cell(t, "%s", "");
        table_cell(t, "%s", "");
        table_cell(t, "%s", "");
        if (h[k].nplace > 0) {
            table_cell(t, "%d", h[k].gpus);
            table_cell(t, "%d", h[k].servers);
        } else {
            table_cell(t, "%s", "");
            table_cell(t, "%s", "");
        }
        if (over_cap && over_cap[k])
            table_cell(t, "%d placements on a GPU whose capped clock is below the SLA clock",
                       over_cap[k]);
        else if (h[k].unplaced)
            table_cell(t, "%d tasks did not fit", h[k].unplaced);
        else if (h[k].conflicts)
            table_cell(t, "%d pairs with rho > alpha", h[k].conflicts);
        else
            table_cell(t, "%s", "");
    }
    table_print(t, ctx->format, ctx->out, "(nothing)");
    table_free(t);
}

static int cmp_place(const void *a, const void *b)
{
    const solve_place *x = a, *y = b;
    return x->task != y->task ? (x->task > y->task) - (x->task < y->task)
                              : (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

/* One row per task and GPU, in task order. */
static void print_places(cli_ctx *ctx, const solve_result *r, const cli_inputs *in, const int *src,
                         int has_gpus)
{
    solve_place *pl = xmemdup(r->place, r->nplace * sizeof *pl);
    qsort(pl, r->nplace, sizeof *pl, cmp_place);
    table *t = table_new();
    table_col(t, "task", 0);
    table_col(t, "gpu", 1);
    if (has_gpus) {
        table_col(t, "node", 0);
        table_col(t, "dev", 1);
        table_col(t, "freq_mhz", 1);
        table_col(t, "gpu_w", 1);
    }
    for (size_t k = 0; k < r->nplace; k++) {
        const solve_place *p = &pl[k];
        table_row(t);
        table_cell(t, "%s", in->tr->tasks[src[p->task]].name);
        table_cell(t, "%d", p->gpu);
        if (!has_gpus)
            continue;
        /* instance GPUs are in cluster node order */
        int g = p->gpu, node_i = 0;
        while (node_i < (int)in->cl->nnodes && g >= in->cl->nodes[node_i].gpu_count)
            g -= in->cl->nodes[node_i++].gpu_count;
        table_cell(t, "%s", node_i < (int)in->cl->nnodes ? in->cl->nodes[node_i].name : "?");
        table_cell(t, "%d", g);
        table_cell(t, "%.1f", r->gpu_freq_mhz ? r->gpu_freq_mhz[p->gpu] : 0);
        table_cell(t, "%.2f", r->gpu_watts ? r->gpu_watts[p->gpu] : 0);
    }
    table_print(t, ctx->format, ctx->out, "(no placements)");
    table_free(t);
    free(pl);
}

static void headline(cli_ctx *ctx, const char *what, const solve_args *a, const cli_inputs *in,
                     size_t n)
{
    if (ctx->format != FMT_TABLE)
        return;
    fprintf(ctx->out, "%s: trace %s (%zu tasks), cluster %s (%lld GPUs)%s\n", what, in->tr->name,
            n, in->cl->name, (long long)cluster_gpu_total(in->cl),
            a->o.paper_model ? ", the paper's formulation" : "");
    if (a->predict.kind != UPRED_ORACLE) {
        char p[48];
        upred_format(&a->predict, p, sizeof p);
        fprintf(ctx->out, "heuristics decide on %s predictions and are scored on the true "
                "series; the optimum knows the true series\n", p);
    }
}

static void footer(cli_ctx *ctx, const solve_args *a, const solve_result *r)
{
    if (ctx->format == FMT_TABLE) {
        if (r->rows > 0)
            fprintf(ctx->out, "model: %d rows x %d columns, %ld branch-and-bound nodes", r->rows,
                    r->cols, r->nodes);
        else    /* the bounds (or column generation's own tree) closed it */
            fprintf(ctx->out, "model: closed without the compact MILP (%s, %ld nodes)",
                    r->method, r->nodes);
        fprintf(ctx->out, "\n");
    }
    if (a->log && r->log)
        fputs(r->log, stderr);
}

/* ---- the three models ----------------------------------------------------------------- */

/* The best feasible heuristic placement as the solver's warm start. */
static void warm_start(const heuristics *h, int no_conflicts, solve_opts *o)
{
    int best = heuristics_best(h, no_conflicts);
    if (best >= 0 && !o->no_warm_start) {
        o->start = h->rows[best].place;
        o->nstart = h->rows[best].nplace;
    }
}

/* The result as the model reads: headline, the optimum next to the
 * heuristics, the placements when asked, the model's size. */
static void report(cli_ctx *ctx, const solve_args *a, const cli_inputs *in, size_t ntasks,
                   const solve_result *r, const heuristic_row *h, size_t nh, const int *src,
                   const int *over_cap)
{
    const solver *m = a->model;
    headline(ctx, m->headline, a, in, ntasks);
    char note[320];
    comparison(ctx, r, h, nh, m->unit, m->integral,
               optimum_note(note, sizeof note, r, in, src), over_cap);
    if (a->placements && r->has_solution)
        print_places(ctx, r, in, src, m->on_cluster);
    footer(ctx, a, r);
}

/* The heuristic rows of a model (an empty table with --no-heuristics). */
static heuristics_input heuristics_of(const solve_args *a, const cli_inputs *in)
{
    return (heuristics_input){in->cl, in->cat, in->tr, &a->predict};
}

/* ---- the GPU power cap (solve/solve_cap.h) -------------------------------------------- */

/* One line per capped profile of p[0..n) saying what the cap does to its
 * throughput and draw (table format), and run's notice on stderr for a
 * cap with no effect. */
static int cap_lines(cli_ctx *ctx, const power_caps *caps, const gpu_profile *const *p,
                     size_t n, gp_err *err)
{
    int shown = 0;
    for (size_t i = 0; i < n; i++) {
        solve_cap c;
        char line[320];
        if (solve_cap_of(p[i], caps, &c, err)) {
            gp_error_prefix(err, "--gpu-cap");
            return -1;
        }
        solve_cap_describe(&c, line, sizeof line);
        if (line[0] && ctx->format == FMT_TABLE)
            fprintf(ctx->out, "GPU power cap: %s\n", line);
        shown += line[0] != '\0';
    }
    if (!shown && ctx->format == FMT_TABLE)
        fprintf(ctx->out, "GPU power cap: none of these GPU models is capped\n");
    cli_caps_notes_profiles(stderr, caps, p, n);
    return 0;
}

/* CATS under the caps: a task whose SLA clock (eq. 14) is above a capped
 * model's clock ceiling may not use that model. */
static int cats_cap(cli_ctx *ctx, const solve_args *a, const cli_inputs *in, cats_inst *ci,
                    gp_err *err)
{
    int forbidden = 0;
    if (cli_caps_check(&a->caps, in->cl, in->cat, NULL, err) ||
        cats_inst_cap(ci, &a->caps, &forbidden, err))
        return -1;
    if (ctx->format == FMT_TABLE) {
        char what[1024];
        cli_caps_describe(&a->caps, in->cl, in->cat, NULL, what, sizeof what);
        fprintf(ctx->out, "GPU power cap: %s; a GPU's clock must reach its tasks' SLA clocks "
                "(eq. 14) and stay under the cap: %d (task, GPU model) pairs are forbidden\n",
                what, forbidden);
    }
    cli_caps_notes(stderr, &a->caps, in->cl, in->cat);
    return 0;
}

/* For each heuristic row, how many of its tasks sit on a GPU the cap
 * forbids them (such a row is no warm start and has no value); NULL
 * without a cap. */
static int *cats_rows_over_cap(const cats_inst *ci, heuristics *h)
{
    if (!ci->allow)
        return NULL;
    int *over = xcalloc(h->n + 1, sizeof *over);
    for (size_t k = 0; k < h->n; k++) {
        over[k] = cats_places_forbidden(ci, h->rows[k].place, h->rows[k].nplace);
        if (over[k]) {
            h->rows[k].placed_all = 0;
            h->rows[k].value = NAN;
        }
    }
    return over;
}

/* An infeasible CATS optimum blames the task's allowed models; when the
 * models it names (or every model) have GPUs in the cluster, the cap is
 * what left it none, and the note says so. */
static void cats_cap_why(const cats_inst *ci, const cli_inputs *in, solve_result *r)
{
    if (!ci->allow || r->status != SOLVE_INFEASIBLE || r->why_task < 0 ||
        (size_t)r->why_task >= ci->ntasks)
        return;
    const task *t = &in->tr->tasks[ci->tasks[r->why_task].src];
    for (size_t g = 0; g < ci->ngpus; g++)
        if (task_allows_model(t, in->cl->nodes[ci->gpus[g].node].gpu_model)) {
            snprintf(r->why, sizeof r->why, "--gpu-cap: its SLA clock is above the capped "
                     "clock of every GPU model it may use");
            return;
        }
}

/* GOGH Problem 1 under the caps: capped types at their rate and draw. */
static int gogh_cap(cli_ctx *ctx, const solve_args *a, const cli_inputs *in, gogh_inst *gi,
                    gp_err *err)
{
    assert(gi->objective != GOGH_MAX_THROUGHPUT);       /* cap_refused() */
    if (power_caps_check_models(&a->caps, in->cat, err))
        return -1;
    const gpu_profile **p = xcalloc(gi->ntypes + 1, sizeof *p);
    for (size_t t = 0; t < gi->ntypes; t++)
        p[t] = catalog_gpu(in->cat, gi->types[t].name);
    int rc = cap_lines(ctx, &a->caps, p, gi->ntypes, err) ? -1
             : gogh_inst_cap(gi, p, &a->caps, err);
    free(p);
    return rc;
}

static int do_cats(cli_ctx *ctx, solve_args *a, const cli_inputs *in)
{
    gp_err err = {{0}};
    cats_inst ci;
    if (cats_inst_from_model(in->cl, in->cat, in->tr, (size_t)a->ntasks, &ci, &err))
        return cli_fail(&err);
    ci.util_cap_pct = a->util_cap;
    if (power_caps_any(&a->caps) && cats_cap(ctx, a, in, &ci, &err)) {
        cats_inst_free(&ci);
        return cli_fail(&err);
    }
    int *src = xmalloc((ci.ntasks + 1) * sizeof *src);
    for (size_t l = 0; l < ci.ntasks; l++)
        src[l] = ci.tasks[l].src;
    heuristics_input hin = heuristics_of(a, in);
    heuristics *h = a->no_heur ? xcalloc(1, sizeof *h) : heuristics_cats_new(&hin, &ci);
    int *over = cats_rows_over_cap(&ci, h);
    warm_start(h, 0, &a->o);
    solve_result r;
    int rc = solve_cats(&ci, &a->o, &r, &err);
    if (rc == 0)
        cats_cap_why(&ci, in, &r);
    if (rc == 0)
        report(ctx, a, in, ci.ntasks, &r, h->rows, h->n, src, over);
    solve_result_free(&r);
    heuristics_free(h);
    free(over);
    free(src);
    cats_inst_free(&ci);
    return rc ? cli_fail(&err) : EXIT_OK;
}

static int do_corrgpu(cli_ctx *ctx, solve_args *a, const cli_inputs *in)
{
    gp_err err = {{0}};
    double mem = a->gpu_mem;
    if (mem <= 0 && cluster_gpu_mem(in, &mem, &err))
        return cli_fail(&err);
    corrgpu_inst ci;
    if (corrgpu_inst_from_trace(in->tr, (size_t)a->ntasks, mem, a->alpha, &ci, &err))
        return cli_fail(&err);
    heuristics_input hin = heuristics_of(a, in);
    heuristics *h = a->no_heur ? xcalloc(1, sizeof *h) : heuristics_corrgpu_new(&hin, &ci);
    warm_start(h, 1, &a->o);
    solve_result r;
    int rc = solve_corrgpu(&ci, &a->o, &r, &err);
    if (rc == 0)
        report(ctx, a, in, ci.ntasks, &r, h->rows, h->n, ci.src, NULL);
    solve_result_free(&r);
    heuristics_free(h);
    corrgpu_inst_free(&ci);
    return rc ? cli_fail(&err) : EXIT_OK;
}

static int do_gogh(cli_ctx *ctx, solve_args *a, const cli_inputs *in)
{
    gp_err err = {{0}};
    gogh_inst gi;
    if (gogh_inst_from_model(in->cl, in->cat, in->tr, in->tp, (size_t)a->ntasks, a->min_frac, &gi,
                             &err))
        return cli_fail(&err);
    for (size_t t = 0; t < gi.ntypes; t++)
        gi.types[t].theta = a->theta;
    gi.objective = strcmp(a->objective, "throughput") == 0 ? GOGH_MAX_THROUGHPUT : GOGH_MIN_POWER;
    if (power_caps_any(&a->caps) && gogh_cap(ctx, a, in, &gi, &err)) {
        gogh_inst_free(&gi);
        return cli_fail(&err);
    }
    int *src = xmalloc((gi.njobs + 1) * sizeof *src);
    for (size_t j = 0; j < gi.njobs; j++)
        src[j] = gi.jobs[j].src;
    solve_result r;
    int rc = solve_gogh(&gi, &a->o, &r, &err);
    if (rc == 0) {
        heuristic_row greedy = {.name = "greedy", .placed_all = isfinite(r.heur_objective),
                           .value = r.heur_objective};
        solver shown = *a->model;
        if (gi.objective == GOGH_MAX_THROUGHPUT) {
            shown.headline = "Gavel max-sum throughput (sum of throughput / best solo)";
            shown.unit = "norm_tput";
        }
        solve_args as_run = *a;
        as_run.model = &shown;
        report(ctx, &as_run, in, gi.njobs, &r, &greedy, 1, src, NULL);
    }
    solve_result_free(&r);
    free(src);
    gogh_inst_free(&gi);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- the cheapest fleet ------------------------------------------------------------- */

#define MAX_FLEET_GPUS 8

/* --gpus: NAME[:MAX][@USD],... against the catalog. */
static int parse_fleet(const char *list, const catalog *cat, fleet_candidate *cand, size_t *n,
                       gp_err *err)
{
    char *copy = xstrdup(list), *save = NULL;
    int rc = 0;
    *n = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        char *at = strchr(tok, '@'), *colon = strchr(tok, ':'), *end;
        fleet_candidate c = {NULL, 0, -1};
        if (at) {
            *at = 0;
            c.price_usd = strtod(at + 1, &end);
            if (end == at + 1 || *end || !(c.price_usd >= 0))
                rc = gp_error(err, "--gpus: '%s' is not a price in USD", at + 1);
        }
        if (colon && !rc) {
            *colon = 0;
            long v = strtol(colon + 1, &end, 10);
            if (end == colon + 1 || *end || v < 1 || v > 100000)
                rc = gp_error(err, "--gpus: '%s' is not a count from 1 to 100000", colon + 1);
            c.max_count = (int)v;
        }
        if (!rc && !(c.prof = catalog_gpu(cat, tok))) {
            char hint[300];
            rc = gp_error(err, "--gpus: no GPU profile named '%s'%s", tok,
                          catalog_gpu_hint(cat, tok, hint, sizeof hint));
        }
        if (!rc && *n == MAX_FLEET_GPUS)
            rc = gp_error(err, "--gpus: at most %d models", MAX_FLEET_GPUS);
        if (!rc)
            cand[(*n)++] = c;
    }
    free(copy);
    if (!rc && *n == 0)
        rc = gp_error(err, "--gpus: name at least one GPU profile");
    return rc;
}

/* The fleet's carbon over --hours, in tonnes, when a carbon intensity
 * was given. */
static void fleet_carbon_cell(table *t, const solve_args *a, double power_w)
{
    if (cli_cost_has_carbon(&a->cost) && isnan(power_w))
        table_cell(t, "%s", "");
    else if (cli_cost_has_carbon(&a->cost))
        table_cell(t, "%.2f", power_w / 1000 * a->hours *
                   energy_flat_g_per_kwh(&a->cost.pr, 0, a->hours) / 1e6);
}

/* The gpu_cap cell of csv and json: what the cap does to each capped
 * candidate of the row (the table format prints it as lines instead). */
static void fleet_cap_cell(table *t, const solve_args *a, const fleet_candidate *cand, size_t n)
{
    strbuf all = STRBUF_INIT;
    for (size_t k = 0; k < n; k++) {
        solve_cap c;
        char line[320];
        gp_err ignore;
        if (solve_cap_of(cand[k].prof, &a->caps, &c, &ignore))
            continue;   /* fleet_caps_check refused it: not reached */
        solve_cap_describe(&c, line, sizeof line);
        if (line[0]) {
            strbuf_sep(&all, "; ");
            strbuf_puts(&all, line);
        }
    }
    table_cell(t, "%s", strbuf_str(&all));
    strbuf_free(&all);
}

/* The cheapest fleet of the candidates: with --site-kw, the cheapest
 * within the envelope (*site says whether it binds); counts per
 * candidate. */
static int fleet_solve(const solve_args *a, const cli_inputs *in, const fleet_candidate *cand,
                       size_t n, fleet_result *fr, fleet_site *site, gp_err *err)
{
    /* the fleet draws its watts for --hours from hour 0 of the trace */
    double usd_per_kwh = energy_flat_usd_per_kwh(&a->cost.pr, 0, a->hours);
    fleet_params fp = {usd_per_kwh, a->hours, a->min_frac, (size_t)a->ntasks,
                       catalog_gpu(in->cat, in->tr->ref_gpu[0] ? in->tr->ref_gpu
                                                               : SPEED_DEFAULT_REF),
                       power_caps_any(&a->caps) ? &a->caps : NULL};
    memset(site, 0, sizeof *site);
    memset(fr, 0, sizeof *fr);
    solve_result_init(&fr->sol);
    int rc;
    if (a->env.site_kw > 0) {
        fleet_envelope env = a->env;
        env.pue = hourly_value_max(&a->cost.pr.pue);
        rc = solve_fleet_within(cand, n, in->tr, in->tp, &fp, &env, &a->o, fr, site, err);
    } else {
        gogh_inst gi;
        rc = fleet_inst_from_model(cand, n, in->tr, in->tp, &fp, &gi, err);
        if (rc == 0) {
            rc = solve_fleet(&gi, &a->o, fr, err);
            gogh_inst_free(&gi);
        }
    }
    if (rc && in->tp && strstr(err->msg, "throughput table has no model")) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof err->msg - l, " (table %s); give one that has it "
                 "(--tput NAME), or run the tasks at the profiles' speeds (--tput none)",
                 in->tp->name);
    }
    return rc;
}

/* The envelope's cells: the answer's provisioned peak (facility kW), and
 * whether the budget changed the answer. */
static void fleet_site_cells(table *t, const solve_args *a, const fleet_result *fr,
                             const fleet_site *site)
{
    if (!(a->env.site_kw > 0))
        return;
    double pue = hourly_value_max(&a->cost.pr.pue);
    if (fr->sol.has_solution)
        table_cell(t, "%.2f", site->peak_it_w * pue / 1000);
    else
        table_cell(t, "%s", "");
    table_cell(t, "%s", !site->found ? "" : site->binds ? "yes" : "no");
}

/* One fleet solved: the candidates given (all, or one for the single-model
 * comparison); cap_col adds the gpu_cap cell. */
static int fleet_row(table *t, const solve_args *a, const cli_inputs *in,
                     const fleet_candidate *cand, size_t n, const char *label, int cap_col,
                     gp_err *err)
{
    fleet_result fr;
    fleet_site site;
    int rc = fleet_solve(a, in, cand, n, &fr, &site, err);
    if (rc == 0) {
        strbuf buys = STRBUF_INIT;
        int gpus = 0;
        for (size_t k = 0; fr.sol.has_solution && k < fr.ntypes; k++) {
            gpus += fr.count[k];
            if (fr.count[k]) {
                strbuf_sep(&buys, " + ");
                strbuf_printf(&buys, "%d %s", fr.count[k], cand[k].prof->name);
            }
        }
        int have = fr.sol.has_solution;
        table_row(t);
        table_cell(t, "%s", label);
        table_cell(t, "%s", solve_status_name(fr.sol.status));
        table_cell(t, "%s", have ? strbuf_str(&buys) : "");
        if (have) {
            table_cell(t, "%d", gpus);
            table_cell(t, "%.2f", fr.sol.objective);
            table_cell(t, "%.2f", fr.capex_usd);
            table_cell(t, "%.2f", fr.energy_usd);
            table_cell(t, "%.1f", fr.power_w);
            table_cell(t, "%.3f", 100 * fr.sol.gap);
        } else {
            for (int k = 0; k < 6; k++)
                table_cell(t, "%s", "");
        }
        table_cell(t, "%.3f", fr.sol.time_s);
        fleet_carbon_cell(t, a, have ? fr.power_w : NAN);
        fleet_site_cells(t, a, &fr, &site);
        if (cap_col)
            fleet_cap_cell(t, a, cand, n);
        strbuf_free(&buys);
    }
    fleet_result_free(&fr);
    return rc;
}

/* What the fleet was solved for: the trace, the table or the speeds'
 * reference, the energy price. */
static void fleet_heading(cli_ctx *ctx, const solve_args *a, const cli_inputs *in)
{
    char by[160];
    if (in->tp) {
        snprintf(by, sizeof by, "with table %s", in->tp->name);
    } else {
        char name[GP_NAME_MAX], line[128];
        double speed;
        gp_err e;
        if (speed_ref_resolve(in->cat, in->tr, NULL, 0, name, sizeof name, &speed, &e))
            snprintf(line, sizeof line, "speeds relative to a V100");
        else
            speed_ref_describe(name, speed, line, sizeof line);
        snprintf(by, sizeof by, "at the profiles' speeds (%s), each task needing %g of its "
                 "reference rate", line, a->min_frac);
    }
    fprintf(ctx->out, "Cheapest fleet for trace %s %s: price + energy at %g USD/kWh over %g "
            "h%s\n", in->tr->name, by, energy_flat_usd_per_kwh(&a->cost.pr, 0, a->hours),
            a->hours, a->cost.price || a->cost.pue ? " (the series' mean of price x PUE over "
            "those hours from hour 0)" : a->cost.pr.pue.constant != 1 ? " (price x PUE)" : "");
}

/* The caps name known models, and every capped candidate can hold its
 * cap (run's errors), before any solve. */
static int fleet_caps_check(const solve_args *a, const cli_inputs *in,
                            const fleet_candidate *cand, size_t n, gp_err *err)
{
    if (power_caps_check_models(&a->caps, in->cat, err))
        return -1;
    for (size_t k = 0; k < n; k++) {
        solve_cap c;
        if (solve_cap_of(cand[k].prof, &a->caps, &c, err)) {
            gp_error_prefix(err, "--gpu-cap");
            return -1;
        }
    }
    return 0;
}

/* What the cap does to each candidate, under the heading. */
static int fleet_cap_lines(cli_ctx *ctx, const solve_args *a, const fleet_candidate *cand,
                           size_t n, gp_err *err)
{
    const gpu_profile *p[MAX_FLEET_GPUS];
    for (size_t k = 0; k < n; k++)
        p[k] = cand[k].prof;
    return cap_lines(ctx, &a->caps, p, n, err);
}

static int do_fleet(cli_ctx *ctx, solve_args *a, const cli_inputs *in)
{
    gp_err err = {{0}};
    fleet_candidate cand[MAX_FLEET_GPUS];
    size_t n;
    if (!a->gpus)
        return cli_usage_error(&cmd_solve, "fleet needs --gpus NAME[:MAX][@USD],...");
    if (parse_fleet(a->gpus, in->cat, cand, &n, &err))
        return cli_usage_error(&cmd_solve, "%s", err.msg);
    if (power_caps_any(&a->caps) && fleet_caps_check(a, in, cand, n, &err))
        return cli_fail(&err);
    table *t = table_new();
    const char *cols[] = {"fleet", "status", "buy", "gpus", "cost_usd", "capex_usd",
                          "energy_usd", "power_w", "gap_pct", "time_s"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 3);
    if (cli_cost_has_carbon(&a->cost))
        table_col(t, "co2e_t", 1);
    if (a->env.site_kw > 0) {
        table_col(t, "peak_kw", 1);
        table_col(t, "site_binds", 0);
    }
    int cap_col = power_caps_any(&a->caps) && ctx->format != FMT_TABLE;
    if (cap_col)
        table_col(t, "gpu_cap", 0);
    /* The mix, then each model alone: one solve each, some take seconds,
     * so a terminal sees how many are done. */
    cli_progress bar;
    cli_progress_init(&bar, "solve fleet");
    size_t solves = n > 1 ? n + 1 : 1;
    cli_progress_show(&bar, 0);
    int rc = fleet_row(t, a, in, cand, n, "cheapest", cap_col, &err);
    for (size_t k = 0; k < n && rc == 0 && n > 1; k++) {
        char label[GP_NAME_MAX + 8];
        cli_progress_show(&bar, (double)(k + 1) / (double)solves);
        snprintf(label, sizeof label, "only %s", cand[k].prof->name);
        rc = fleet_row(t, a, in, &cand[k], 1, label, cap_col, &err);
    }
    cli_progress_done(&bar);
    /* Output only with an answer: the heading, then the rows. */
    if (rc == 0 && ctx->format == FMT_TABLE)
        fleet_heading(ctx, a, in);
    if (rc == 0 && power_caps_any(&a->caps))
        rc = fleet_cap_lines(ctx, a, cand, n, &err);
    if (rc == 0)
        table_print(t, ctx->format, ctx->out, "(nothing)");
    for (size_t k = 0; k < n && rc == 0; k++)
        if (cand[k].price_usd < 0 &&
            cli_warn_unpriced_model(cand[k].prof, "capex_usd and cost_usd") )
            fprintf(stderr, "gpuplan: give %s a price as %s@USD in --gpus\n",
                    cand[k].prof->name, cand[k].prof->name);
    table_free(t);
    return rc ? cli_fail(&err) : EXIT_OK;
}

/* ---- the command ----------------------------------------------------------------------- */

static const solver solvers[] = {
    {.name = "cats", .title = "CATS eq. 6-14: least power (W) of the tasks on the cluster",
     .headline = "CATS optimal power (W)", .unit = "power_w", .on_cluster = 1, .run = do_cats},
    {.name = "corrgpu",
     .title = "CorrGPU eq. 3-7: fewest GPUs G*, no two tasks with rho > alpha on one GPU",
     .headline = "CorrGPU optimal GPU count G*", .unit = "gpus_needed", .integral = 1,
     .run = do_corrgpu},
    {.name = "gogh", .title = "GOGH Problem 1: least power meeting minimum throughputs",
     .headline = "GOGH Problem 1 power (W)", .unit = "power_w", .needs_tput = 1,
     .run = do_gogh},
    {.name = "fleet",
     .title = "the cheapest mix of GPUs to buy so every job meets its minimum throughput "
              "(GOGH Problem 1 with purchases: price + energy)",
     .needs_tput = 1, .no_cluster = 1, .run = do_fleet},
};

#define NSOLVERS (sizeof solvers / sizeof *solvers)

static void print_models(FILE *out)
{
    fprintf(out, "Models (MODEL):\n");
    for (size_t i = 0; i < NSOLVERS; i++)
        cli_help_row(out, solvers[i].name, solvers[i].title, 13);
}

/* The model named by the one argument; NULL after the usage message. */
static const solver *find_solver(const cli_args *rest)
{
    strbuf names = STRBUF_INIT;
    for (size_t i = 0; i < NSOLVERS; i++) {
        if (rest->argc == 1 && strcmp(rest->argv[0], solvers[i].name) == 0) {
            strbuf_free(&names);
            return &solvers[i];
        }
        strbuf_sep(&names, i + 1 == NSOLVERS ? " or " : ", ");
        strbuf_puts(&names, solvers[i].name);
    }
    if (rest->argc == 1)
        cli_usage_error(&cmd_solve, "unknown model '%s' (%s)", rest->argv[0],
                        strbuf_str(&names));
    else
        cli_usage_error(&cmd_solve, "expected one model: %s", strbuf_str(&names));
    strbuf_free(&names);
    return NULL;
}

/* Why the model asked for refuses a GPU power cap (rather than ignore
 * one), or NULL when it models the cap. */
static const char *cap_refused(const solve_args *a)
{
    if (strcmp(a->model->name, "gogh") == 0 && strcmp(a->objective, "throughput") == 0)
        return "Gavel's max-sum throughput divides each job's throughput by its best solo "
               "throughput, which the cap scales too, so the objective would not see it; "
               "solve the cap with --objective power, or simulate it: gpuplan run --gpu-cap W";
    if (strcmp(a->model->name, "corrgpu") == 0)
        return "CorrGPU eq. 3-7 pack by GPU memory and by the correlation of the tasks' "
               "measured utilization series, and a clock clamp changes neither, so G* is the "
               "same as without the cap (solve it without --gpu-cap); what the cap does to "
               "the utilization the heuristics pack by and to the tasks' durations is "
               "simulated: gpuplan run --gpu-cap W, or gpuplan plan --gpu-cap W";
    return NULL;
}

static int parse_args(cli_ctx *ctx, int argc, char **argv, solve_args *a, int *code)
{
    const cli_opt opts[] = {
        OPT_STRING("trace", 0, "NAME", &a->trace, "tasks (required but with "
                   "--from-snapshot)"),
        CLI_WHATIF_OPTS(&a->wi),
        OPT_STRING("cluster", 0, "NAME", &a->cluster, "cluster (all but fleet); corrgpu uses "
                   "its GPU memory"),
        OPT_INT("tasks", 0, "N", &a->ntasks, 1, 1e6, "only the first N GPU tasks of the trace"),
        OPT_DOUBLE("at", 0, "T", &a->at, -1e12, 1e12, "only the tasks running at time T s "
                   "(arrived, and within kappa * duration of their arrival: the snapshot the "
                   "paper solves per stage)"),
        OPT_DOUBLE("time-limit", 0, "S", &a->o.time_limit_s, 0, 1e7,
                   "seconds for the whole solve, 0 = none", .def = "60"),
        OPT_DOUBLE("gap", 0, "G", &a->o.mip_gap, 0, 1, "stop at relative gap G",
                   .def = "0, prove optimality"),
        OPT_INT("threads", 0, "N", &a->o.threads, 1, 2, "1: all in one thread; 2: branch and "
                "price repacks and dives beside its tree", .def = "2"),
        OPT_STRING("write-lp", 0, "FILE", &a->o.write_lp,
                   "write the model in CPLEX LP format (glpsol --lp FILE)"),
        OPT_STRING("write-mps", 0, "FILE", &a->o.write_mps,
                   "write the model in free MPS format"),
        OPT_DOUBLE("alpha", 0, "A", &a->alpha, -1, 1, "corrgpu: correlation threshold",
                   .def = "0"),
        OPT_DOUBLE("gpu-mem", 0, "GIB", &a->gpu_mem, 1e-9, 1e6, "corrgpu: GPU memory c; the "
                   "heuristics still place on the cluster's GPUs", .def = "the cluster's"),
        OPT_DOUBLE("util-cap", 0, "PCT", &a->util_cap, 0, 1e6, "cats: also cap the sum of "
                   "mean utilizations per GPU, CATS §4's threshold, which eq. 6-14 leave out",
                   .def = "off"),
        OPT_STRING("tput", 0, "NAME", &a->tput, "gogh: throughput table",
                   .def = "the one named like the trace, else the only one"),
        OPT_DOUBLE("min-tput", 0, "F", &a->min_frac, 0, 1e6, "gogh: a job without its own "
                   "minimum needs F times its best solo throughput", .def = "0.5"),
        OPT_INT("theta", 0, "N", &a->theta, 1, 2, "gogh: jobs per accelerator, 1 or 2",
                .def = "2"),
        OPT_STRING("objective", 0, "power|throughput", &a->objective, "gogh: least power "
                   "meeting every minimum (Problem 1), or Gavel's max-sum throughput (sum of "
                   "throughput / best solo, jobs may wait, no minimums)", .def = "power"),
        OPT_STRING("gpus", 0, "NAME[:MAX][@USD],...", &a->gpus, "fleet: the GPU models to "
                   "choose from, each at most MAX (default: what the jobs could use) at USD "
                   "apiece (default: the profile's price)"),
        CLI_COST_ENERGY_OPTS(&a->cost),
        OPT_DOUBLE("hours", 0, "H", &a->hours, 0, 1e7, "fleet: how long the jobs run on the "
                   "fleet (energy = watts x H)", .def = "26280, three years"),
        OPT_DOUBLE("site-kw", 0, "KW", &a->env.site_kw, 0, 1e9, "fleet: the site's power "
                   "budget in kW of facility power: the fleet's provisioned peak (each GPU "
                   "at its maximum or capped draw, each server's host) x PUE stays within it",
                   .min_open = 1, .def = "none"),
        OPT_DOUBLE("host-w", 0, "W", &a->env.host_w, 0, 1e6, "fleet, with --site-kw: a "
                   "server's peak watts beside its GPUs", .def = "0"),
        OPT_INT("per-server", 0, "N", &a->env.per_server, 1, GP_NODE_MAX_GPUS, "fleet, with "
                "--site-kw: GPUs of one model per server (one host each)", .def = "8"),
        OPT_FLAG("paper", 0, &a->o.paper_model, "solve the paper's formulation as published "
                 "(big-M, the G = 1, 2, ... loop) instead of ours, for comparison"),
        OPT_FLAG("no-warm-start", 0, &a->o.no_warm_start,
                 "do not start from the best heuristic"),
        OPT_FLAG("no-bounds", 0, &a->o.no_bounds, "hand GLPK the compact MILP alone: no "
                 "combinatorial or column-generation bounds (to measure what they bring)"),
        OPT_STRING("cuts", 0, "off|root|nodes", &a->cuts, "cats: where branch and price adds "
                   "subset-row cuts", .def = "off"),
        OPT_FLAG("no-heuristics", 0, &a->no_heur, "do not run the heuristic policies"),
        OPT_CALLBACK("predict", 0, "NAME", &a->predict, cli_parse_predict, "cats, corrgpu: "
                     "what the heuristics know of future utilization: oracle, profile:S, "
                     "profile:S:mean, history or noisy:RMSLE", .def = "oracle"),
        OPT_CALLBACK("gpu-cap", 0, "W|MODEL=W,...", &a->caps, cli_parse_caps, "cats, gogh, "
                     "fleet: a power cap per GPU, or per GPU model, as run's: a capped GPU's "
                     "clock stays under the cap on its profile's power curve (cats: tasks "
                     "whose SLA clock is above it may not use it; gogh, fleet: its "
                     "throughput x the clock's rate, its draw the capped one); corrgpu "
                     "refuses it, saying why"),
        OPT_FLAG("placements", 0, &a->placements, "print every task's GPU"),
        OPT_FLAG("log", 0, &a->log, "print GLPK's messages to stderr afterwards"),
        OPT_END(),
    };
    cli_args rest = CLI_ARGS(0, -1, NULL);     /* the model: find_solver() */
    memset(a, 0, sizeof *a);
    solve_opts_default(&a->o);
    a->o.time_limit_s = 60;
    a->o.threads = 2;
    a->at = NAN;
    a->min_frac = 0.5;
    a->theta = 2;
    a->objective = "power";
    a->cuts = "off";
    a->hours = 26280;
    a->env.per_server = 8;
    cli_cost_init(&a->cost);
    if (cli_parse(ctx, &cmd_solve, opts, argc, argv, &rest, code))
        return -1;
    int cuts = solve_cuts_parse(a->cuts);
    if (cuts < 0) {
        *code = cli_usage_error(&cmd_solve, "--cuts: expected off, root or nodes, got '%s'",
                                a->cuts);
        return -1;
    }
    a->o.cuts = (solve_cuts)cuts;
    if (strcmp(a->objective, "power") != 0 && strcmp(a->objective, "throughput") != 0) {
        *code = cli_usage_error(&cmd_solve, "--objective: expected power or throughput, got "
                                            "'%s'", a->objective);
        return -1;
    }
    a->o.keep_log = a->log;
    if (!(a->model = find_solver(&rest))) {
        *code = EXIT_USAGE;
        return -1;
    }
    if (!a->trace && !a->wi.snapshot) {
        *code = cli_usage_error(&cmd_solve, "--trace is required (or --from-snapshot)");
        return -1;
    }
    if (!a->cluster && !a->model->no_cluster && !a->wi.snapshot) {
        *code = cli_usage_error(&cmd_solve, "%s needs --cluster NAME", a->model->name);
        return -1;
    }
    if (power_caps_any(&a->caps) && cap_refused(a)) {
        *code = cli_usage_error(&cmd_solve, "--gpu-cap: %s", cap_refused(a));
        return -1;
    }
    return 0;
}

/* --write-lp and --write-mps.  GLPK writes by name and ignores a failed
 * last write (its fclose), so it writes into memory and the files are
 * copied out with every write checked (export_file.h). */
typedef struct model_files {
    const char *path[2];        /* LP, MPS; NULL = not asked for */
    out_scratch scratch[2];
} model_files;

static const char *const model_file_kind[2] = {"LP", "MPS"};

/* Checks that the files can be written (before solving) and points GLPK
 * at the scratch files; 0 or -1. */
static int model_files_open(solve_args *a, model_files *m, gp_err *err)
{
    const char **opt[2] = {&a->o.write_lp, &a->o.write_mps};
    for (int i = 0; i < 2; i++) {
        m->path[i] = *opt[i];
        m->scratch[i].fd = -1;
    }
    for (int i = 0; i < 2; i++) {
        if (!m->path[i])
            continue;
        FILE *f = out_file_open(m->path[i], err);
        if (!f)
            return -1;
        out_file_discard(f, m->path[i]);
        if (out_scratch_open(&m->scratch[i], err))
            return -1;
        *opt[i] = m->scratch[i].name;
    }
    return 0;
}

/* Copies what GLPK wrote to the files asked for and says so; a model that
 * closed without GLPK writes nothing.  0 or -1. */
static int model_files_save(cli_ctx *ctx, const model_files *m, gp_err *err)
{
    for (int i = 0; i < 2; i++) {
        if (!m->path[i])
            continue;
        if (out_scratch_size(&m->scratch[i]) == 0) {
            fprintf(stderr, "gpuplan solve: no %s model was built (the bounds closed it); "
                    "nothing written to %s\n", model_file_kind[i], m->path[i]);
            continue;
        }
        if (out_scratch_save(&m->scratch[i], m->path[i], err))
            return -1;
        if (ctx->format == FMT_TABLE)
            fprintf(ctx->out, "%s written to %s\n", model_file_kind[i], m->path[i]);
    }
    return 0;
}

static void model_files_close(model_files *m)
{
    for (int i = 0; i < 2; i++)
        out_scratch_close(&m->scratch[i]);
}

static int solve_parsed(cli_ctx *ctx, solve_args *ap)
{
    solve_args a = *ap;
    /* From here on Ctrl-C stops the solve, not the program: one that comes
     * while the inputs load still ends with the heuristics' answer and a
     * "cancelled" status. */
    solve_cancelled = 0;
    a.o.cancel = &solve_cancelled;
    void (*old)(int) = signal(SIGINT, on_sigint);
    store *st = cli_store(ctx);
    if (!st) {
        signal(SIGINT, old == SIG_ERR ? SIG_DFL : old);
        return EXIT_RUNTIME;
    }
    cli_inputs in;
    memset(&in, 0, sizeof in);
    model_files files;
    gp_err err = {{0}};
    if (model_files_open(&a, &files, &err) ||
        load_inputs(ctx->format == FMT_TABLE ? ctx->out : NULL, st, &a, &in, &err) ||
        (a.model->run == do_fleet ? load_fleet_tput(st, &a, &in, &err)
                                  : a.model->needs_tput && load_tput(st, &a, &in, &err))) {
        cli_inputs_free(&in);
        model_files_close(&files);
        signal(SIGINT, old == SIG_ERR ? SIG_DFL : old);
        return cli_fail(&err);
    }
    if (a.model->run == do_fleet)
        fleet_busiest(ctx->format == FMT_TABLE ? ctx->out : NULL, &a, &in);
    int rc = a.model->run(ctx, &a, &in);
    signal(SIGINT, old == SIG_ERR ? SIG_DFL : old);
    if (rc == EXIT_OK && model_files_save(ctx, &files, &err))
        rc = cli_fail(&err);
    model_files_close(&files);
    cli_inputs_free(&in);
    solve_shutdown();
    return rc;
}

static int solve_exec(cli_ctx *ctx, int argc, char **argv)
{
    solve_args a;
    int code;
    if (parse_args(ctx, argc, argv, &a, &code) == 0)
        code = solve_parsed(ctx, &a);
    cli_cost_free(&a.cost);
    return code;
}
