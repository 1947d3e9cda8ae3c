/*
 * gogh_round.c — one GOGH (or Gavel) round over the active jobs
 * (gogh_round.h): estimates, the solver's instance, admission, the mapping
 * onto GPUs, and the first-fit rest.
 */
#include "gogh_round.h"
#include "alloc_fit.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gogh_round {
    const cstate *cs;
    const gp_trace *tr;
    const policy_inputs *in;    /* copied: the inputs outlive the run */
    policy_inputs inputs;
    gogh_est_mode mode;
    gogh_estimator *est;
    size_t applied;             /* measurements given to est so far */
    int *type_of;               /* per trace task: its job type, -1 none */
    gogh_jobtype *types;
    size_t ntypes;
    /* Accelerator types: one per GPU profile with a throughput class. */
    gogh_accel_type *atypes;
    const gpu_profile **aprof;
    size_t natypes;
    int *atype_of_gpu;          /* per GPU: its accelerator type, -1 none */
    size_t ngpus;
};

/* ---- set-up ---------------------------------------------------------------------- */

static int find_type(const gogh_round *r, const gogh_jobtype *t)
{
    for (size_t i = 0; i < r->ntypes; i++)
        if (strcmp(r->types[i].model, t->model) == 0 && r->types[i].batch_size == t->batch_size &&
            r->types[i].scale == t->scale)
            return (int)i;
    return -1;
}

static void index_types(gogh_round *r)
{
    size_t n = r->tr->ntasks;
    r->type_of = xmalloc((n ? n : 1) * sizeof *r->type_of);
    r->types = xmalloc((n ? n : 1) * sizeof *r->types);
    for (size_t i = 0; i < n; i++) {
        gogh_jobtype t;
        r->type_of[i] = -1;
        if (!tput_jobtype_of(&r->tr->tasks[i], &t))
            continue;
        int k = find_type(r, &t);
        if (k < 0) {
            k = (int)r->ntypes;
            r->types[r->ntypes++] = t;
        }
        r->type_of[i] = k;
    }
}

/* The accelerator types of the GPUs there may be (the cluster's nodes,
 * and every node the state may open later has a spec among them). */
static void index_accels(gogh_round *r)
{
    const cstate *cs = r->cs;
    size_t nn = cs->nnodes ? cs->nnodes : 1;
    r->atypes = xcalloc(nn, sizeof *r->atypes);
    r->aprof = xcalloc(nn, sizeof *r->aprof);
    for (size_t n = 0; n < cs->nnodes; n++) {
        const gpu_profile *g = cs->nodes[n].gpu;
        if (!g || !g->tput_class[0])
            continue;
        size_t a = 0;
        while (a < r->natypes && r->aprof[a] != g)
            a++;
        if (a < r->natypes)
            continue;
        gogh_accel_type *t = &r->atypes[r->natypes];
        strlcpy0(t->name, g->name, sizeof t->name);
        strlcpy0(t->tput_class, g->tput_class, sizeof t->tput_class);
        t->theta = ALLOC_MAX_PER_GPU;
        t->idle_w = g->idle_w;
        t->max_w = g->max_w;
        t->price_usd = gpu_price_or0(g);
        r->aprof[r->natypes++] = g;
    }
}

gogh_round *gogh_round_new(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                           gogh_est_mode mode, gp_err *err)
{
    if (!in->tput)
        return gp_error(err, "GOGH needs a throughput table: the truth it is measured "
                        "against and the history its estimates start from (--tput NAME)"),
               NULL;
    if (mode != GOGH_EST_ORACLE && !in->nets)
        return gp_error(err, "GOGH's %s estimates need trained networks: gpuplan estimate "
                        "train --tput %s", gogh_est_mode_name(mode), in->tput->name),
               NULL;
    gogh_round *r = xcalloc(1, sizeof *r);
    r->cs = cs;
    r->tr = tr;
    r->inputs = *in;
    r->in = &r->inputs;
    r->mode = mode;
    if (!(r->est = gogh_estimator_new(mode, in->tput, in->nets, err))) {
        free(r);
        return NULL;
    }
    index_types(r);
    index_accels(r);
    return r;
}

void gogh_round_free(gogh_round *r)
{
    if (!r)
        return;
    gogh_estimator_free(r->est);
    free(r->type_of);
    free(r->types);
    free(r->atypes);
    free(r->aprof);
    free(r->atype_of_gpu);
    free(r);
}

/* ---- measurements ------------------------------------------------------------------ */

/* The estimator learns from every measurement of the run in order; a
 * rewound run has fewer than were applied, so it starts again. */
static int catch_up(gogh_round *r, const alloc_ctx *ctx, gp_err *err)
{
    if (ctx->nobs < r->applied) {
        gogh_estimator_free(r->est);
        if (!(r->est = gogh_estimator_new(r->mode, r->in->tput, r->in->nets, err)))
            return -1;
        r->applied = 0;
    }
    for (; r->applied < ctx->nobs; r->applied++) {
        const alloc_obs *o = &ctx->obs[r->applied];
        int tj = r->type_of[o->task];
        if (tj < 0)
            continue;
        if (o->partner < 0) {
            gogh_observe(r->est, o->accel, &r->types[tj], NULL, o->tput, 0);
            continue;
        }
        /* A pair is measured from each side; learn it once, from the side
         * named first in the table's convention (the lower task index). */
        int tk = r->type_of[o->partner];
        if (tk >= 0 && o->task < o->partner && o->partner_tput > 0)
            gogh_observe(r->est, o->accel, &r->types[tj], &r->types[tk], o->tput,
                         o->partner_tput);
    }
    return 0;
}

/* ---- the instance ---------------------------------------------------------------- */

/* Per GPU: its accelerator type (GPUs the state opened since are added). */
static void map_gpus(gogh_round *r)
{
    const cstate *cs = r->cs;
    if (r->ngpus != cs->ngpus) {
        free(r->atype_of_gpu);
        r->atype_of_gpu = xmalloc((cs->ngpus ? cs->ngpus : 1) * sizeof *r->atype_of_gpu);
        r->ngpus = cs->ngpus;
    }
    for (size_t g = 0; g < cs->ngpus; g++) {
        const gpu_profile *p = cs->nodes[cs->gpus[g].node].gpu;
        r->atype_of_gpu[g] = -1;
        for (size_t a = 0; a < r->natypes; a++)
            if (r->aprof[a] == p)
                r->atype_of_gpu[g] = (int)a;
    }
}

/* The round's estimates per (accelerator type, job type), each asked of
 * the estimator once, for the job types the round has. */
typedef struct est_cache {
    size_t nt, na;
    double *solo;               /* [a * nt + t] */
    double *pair;               /* [(a * nt + t) * nt + u]: t's next to u */
    unsigned char *have;        /* pair computed */
} est_cache;

static void cache_init(est_cache *c, const gogh_round *r, const alloc_ctx *ctx)
{
    c->nt = r->ntypes;
    c->na = r->natypes;
    size_t ns = c->nt * c->na != 0 ? c->nt * c->na : 1;
    c->solo = xcalloc(ns, sizeof *c->solo);
    c->pair = xcalloc(ns * (c->nt ? c->nt : 1), sizeof *c->pair);
    c->have = xcalloc(ns * (c->nt ? c->nt : 1), 1);
    unsigned char *asked = xcalloc(c->nt ? c->nt : 1, 1);
    for (size_t i = 0; i < ctx->njobs; i++) {
        int t = r->type_of[ctx->jobs[i].task];
        if (t < 0 || asked[t])
            continue;
        asked[t] = 1;
        for (size_t a = 0; a < c->na; a++)
            c->solo[a * c->nt + (size_t)t] =
                gogh_estimate(r->est, r->atypes[a].tput_class, &r->types[t], NULL, NULL);
    }
    free(asked);
}

static double cache_pair(est_cache *c, const gogh_round *r, size_t a, int t, int u)
{
    size_t i = (a * c->nt + (size_t)t) * c->nt + (size_t)u;
    if (!c->have[i]) {
        size_t back = (a * c->nt + (size_t)u) * c->nt + (size_t)t;
        double tu = 0;
        c->pair[i] = gogh_estimate(r->est, r->atypes[a].tput_class, &r->types[t],
                                   &r->types[u], &tu);
        c->have[i] = 1;
        if (t != u) {
            c->pair[back] = tu;
            c->have[back] = 1;
        }
    }
    return c->pair[i];
}

static void cache_free(est_cache *c)
{
    free(c->solo);
    free(c->pair);
    free(c->have);
}

/* Whether job i of ctx goes to the solver: one GPU, a job type, and an
 * estimate on some accelerator type. */
static int solvable(const gogh_round *r, const est_cache *c, const alloc_ctx *ctx, size_t i)
{
    int ti = ctx->jobs[i].task, t = r->type_of[ti];
    if (t < 0 || task_gpus(&ctx->tr->tasks[ti]) != 1)
        return 0;
    if (ctx->jobs[i].running && r->atype_of_gpu[ctx->jobs[i].cur.gpus[0]] < 0)
        return 0;       /* runs where the solver cannot see: leave it */
    for (size_t a = 0; a < c->na; a++)
        if (c->solo[a * c->nt + (size_t)t] > 0)
            return 1;
    return 0;
}

static double best_solo(const est_cache *c, int t)
{
    double b = 0;
    for (size_t a = 0; a < c->na; a++)
        b = fmax(b, c->solo[a * c->nt + (size_t)t]);
    return b;
}

/* The throughput job type t (task tk) must reach: its own minimum when the
 * trace gives one, else min_frac of its best estimated solo throughput.  No
 * estimate may promise less than the job asks, but a minimum no GPU can
 * give would keep it out forever, so it is capped at the best. */
static double min_tput_of(const est_cache *c, const gogh_round_params *p, const task *tk, int t)
{
    double best = best_solo(c, t);
    return tk->min_tput > 0 ? fmin(tk->min_tput, best) : p->min_frac * best;
}

/* The instance over jobs sel[0..n) of ctx on the GPUs free for the solver
 * (accel[] lists them). */
static void build(gogh_round *r, est_cache *c, const alloc_ctx *ctx, const gogh_round_params *p,
                  const size_t *sel, size_t n, const int *gpus, size_t ngpus, gogh_inst *inst)
{
    memset(inst, 0, sizeof *inst);
    inst->objective = p->objective;
    inst->njobs = n;
    inst->jobs = xcalloc(n ? n : 1, sizeof *inst->jobs);
    inst->ntypes = r->natypes;
    inst->types = xmemdup(r->atypes, r->natypes * sizeof *inst->types);
    inst->naccels = ngpus;
    inst->accels = xcalloc(ngpus ? ngpus : 1, sizeof *inst->accels);
    for (size_t k = 0; k < ngpus; k++) {
        const cs_gpu *g = &r->cs->gpus[gpus[k]];
        inst->accels[k] = (gogh_accel){r->atype_of_gpu[gpus[k]], g->node, g->dev};
    }
    size_t na = r->natypes;
    /* Problem 1 knows throughputs, not memory: a job or pair that does not
     * fit the type's smallest GPU here gets throughput 0 there, which the
     * model reads as "cannot run". */
    double *room = xmalloc((na ? na : 1) * sizeof *room);
    for (size_t a = 0; a < na; a++)
        room[a] = INFINITY;
    for (size_t k = 0; k < ngpus; k++) {
        int a = r->atype_of_gpu[gpus[k]];
        room[a] = fmin(room[a], r->cs->gpus[gpus[k]].mem_gib);
    }
    inst->solo = xcalloc(na * n != 0 ? na * n : 1, sizeof *inst->solo);
    inst->pair = xcalloc(na * n * n != 0 ? na * n * n : 1, sizeof *inst->pair);
    for (size_t j = 0; j < n; j++) {
        const task *tk = &ctx->tr->tasks[ctx->jobs[sel[j]].task];
        int t = r->type_of[ctx->jobs[sel[j]].task];
        gogh_job *job = &inst->jobs[j];
        job->dmax = 1;
        job->src = ctx->jobs[sel[j]].task;
        job->util = tk->util_mean > 0 ? fmin(1, tk->util_mean / 100) : 1;
        job->min_tput = min_tput_of(c, p, tk, t);
        for (size_t a = 0; a < na; a++) {
            if (tk->gpu_mem_gib > room[a] + GP_ROUND_EPS)
                continue;
            inst->solo[a * n + j] = c->solo[a * c->nt + (size_t)t];
            for (size_t k = 0; k < n; k++) {
                const task *other = &ctx->tr->tasks[ctx->jobs[sel[k]].task];
                if (k == j || tk->gpu_mem_gib + other->gpu_mem_gib > room[a] + GP_ROUND_EPS)
                    continue;
                int u = r->type_of[ctx->jobs[sel[k]].task];
                inst->pair[(a * n + j) * n + k] = cache_pair(c, r, a, t, u);
            }
        }
    }
    free(room);
}

/* ---- solving and mapping -------------------------------------------------------- */

/* The running jobs of sel[0..n) where they are, as a start for the solver. */
static solve_place *current(const alloc_ctx *ctx, const size_t *sel, size_t n, const int *gpus,
                            size_t ngpus, size_t *nstart)
{
    solve_place *st = xmalloc((n ? n : 1) * sizeof *st);
    *nstart = 0;
    for (size_t j = 0; j < n; j++) {
        const alloc_job *job = &ctx->jobs[sel[j]];
        if (!job->running)
            continue;
        for (size_t k = 0; k < ngpus; k++)
            if (gpus[k] == job->cur.gpus[0])
                st[(*nstart)++] = (solve_place){(int)j, (int)k};
    }
    return st;
}

static int solve_once(const gogh_inst *inst, const alloc_ctx *ctx, const size_t *sel,
                      const int *gpus, const gogh_round_params *p, solve_result *res,
                      gp_err *err)
{
    solve_opts o;
    solve_opts_default(&o);
    o.work_limit_s = p->time_limit_s;   /* the work clock: rounds replay exactly */
    o.mip_gap = p->mip_gap;
    o.start = current(ctx, sel, inst->njobs, gpus, inst->naccels, &o.nstart);
    solve_result_init(res);
    int rc = solve_gogh(inst, &o, res, err);
    free((void *)o.start);
    return rc;
}

/* Puts the solver's GPU groups on real GPUs: a group stays on the GPU one
 * of its jobs runs on when that GPU is of the group's type, the others
 * take the type's remaining GPUs in order.  gpu_of[j] = the GPU of job j
 * of the instance (-1: it waits). */
static void map_solution(const gogh_inst *inst, const solve_result *res, const alloc_ctx *ctx,
                         const size_t *sel, const int *gpus, int *gpu_of)
{
    size_t n = inst->njobs, na = inst->naccels;
    int *group = xmalloc((na ? na : 1) * sizeof *group);     /* solver accel -> real GPU */
    unsigned char *taken = xcalloc(na ? na : 1, 1);
    int *first = xmalloc((na ? na : 1) * sizeof *first);     /* a job on each accel */
    for (size_t k = 0; k < na; k++) {
        group[k] = -1;
        first[k] = -1;
    }
    for (size_t i = 0; i < res->nplace; i++) {
        size_t k = (size_t)res->place[i].gpu;
        gpu_of[res->place[i].task] = (int)k;        /* solver numbering for now */
        if (first[k] < 0)
            first[k] = res->place[i].task;
    }
    /* Pass 1: groups with a running job on a GPU of the group's type keep it. */
    for (size_t k = 0; k < na; k++) {
        for (size_t j = 0; j < n && group[k] < 0; j++) {
            const alloc_job *job = &ctx->jobs[sel[j]];
            if (gpu_of[j] != (int)k || !job->running)
                continue;
            for (size_t m = 0; m < na; m++)
                if (!taken[m] && gpus[m] == job->cur.gpus[0] &&
                    inst->accels[m].type == inst->accels[k].type) {
                    taken[m] = 1;
                    group[k] = (int)m;
                }
        }
    }
    /* Pass 2: the rest in order. */
    for (size_t k = 0; k < na; k++) {
        if (first[k] < 0 || group[k] >= 0)
            continue;
        for (size_t m = 0; m < na && group[k] < 0; m++)
            if (!taken[m] && inst->accels[m].type == inst->accels[k].type) {
                taken[m] = 1;
                group[k] = (int)m;
            }
    }
    for (size_t j = 0; j < n; j++)
        gpu_of[j] = gpu_of[j] >= 0 && group[gpu_of[j]] >= 0 ? gpus[group[gpu_of[j]]] : -1;
    free(group);
    free(taken);
    free(first);
}

/* ---- the round --------------------------------------------------------------------- */

typedef struct round_work {
    size_t *sel;                /* ctx jobs the solver takes, in priority order */
    size_t nsel, nrunning;      /* running ones first */
    int *gpus;                  /* GPUs the solver may use */
    size_t ngpus;
    alloc_fit *fit;
} round_work;

/* The solver's jobs (running, then waiting by arrival) and its GPUs: those
 * with an accelerator type that no job outside the solver keeps. */
static void select_work(gogh_round *r, const est_cache *c, const alloc_ctx *ctx, round_work *w)
{
    w->sel = xmalloc((ctx->njobs ? ctx->njobs : 1) * sizeof *w->sel);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ctx->njobs; i++)
            if (ctx->jobs[i].running == !pass && solvable(r, c, ctx, i)) {
                w->sel[w->nsel++] = i;
                w->nrunning += ctx->jobs[i].running;
            }
    w->fit = alloc_fit_new(ctx->cs, ctx->tr, ctx->jobs, ctx->njobs);
    unsigned char *kept = xcalloc(ctx->cs->ngpus ? ctx->cs->ngpus : 1, 1);
    for (size_t i = 0; i < ctx->njobs; i++)
        if (ctx->jobs[i].running && !solvable(r, c, ctx, i))
            for (int k = 0; k < ctx->jobs[i].cur.ngpus; k++)
                kept[ctx->jobs[i].cur.gpus[k]] = 1;
    w->gpus = xmalloc((ctx->cs->ngpus ? ctx->cs->ngpus : 1) * sizeof *w->gpus);
    for (size_t g = 0; g < ctx->cs->ngpus; g++)
        if (r->atype_of_gpu[g] >= 0 && !kept[g] && alloc_fit_count(w->fit, (int)g) == 0)
            w->gpus[w->ngpus++] = (int)g;
    free(kept);
}

/* Solves over the first n selected jobs; 1 when a solution came back. */
static int try_solve(gogh_round *r, est_cache *c, const alloc_ctx *ctx,
                     const gogh_round_params *p, const round_work *w, size_t n, int *gpu_of,
                     solve_result *res, double *est_of, gp_err *err)
{
    gogh_inst inst;
    build(r, c, ctx, p, w->sel, n, w->gpus, w->ngpus, &inst);
    int ok = solve_once(&inst, ctx, w->sel, w->gpus, p, res, err) == 0 && res->has_solution;
    if (ok) {
        for (size_t j = 0; j < n; j++)
            gpu_of[j] = -1;
        map_solution(&inst, res, ctx, w->sel, w->gpus, gpu_of);
        /* Each job's estimate where it goes: alone, or next to the other. */
        for (size_t j = 0; j < n; j++) {
            est_of[j] = 0;
            if (gpu_of[j] < 0)
                continue;
            int a = r->atype_of_gpu[gpu_of[j]], partner = -1;
            for (size_t k = 0; k < n; k++)
                if (k != j && gpu_of[k] == gpu_of[j])
                    partner = (int)k;
            est_of[j] = partner < 0 ? inst.solo[(size_t)a * n + j]
                                    : inst.pair[((size_t)a * n + j) * n + (size_t)partner];
        }
    }
    gogh_inst_free(&inst);
    return ok;
}

/* Problem 1 places every job it is given: admit the running ones and as
 * many waiting ones as it can satisfy, halving the waiting part on
 * failure (Gavel's objective lets jobs wait: one solve).  Returns how many
 * of the selected jobs the solution covers, or -1 when even the running
 * ones found none (they then stay where they are). */
static long admit_and_solve(gogh_round *r, est_cache *c, const alloc_ctx *ctx,
                            const gogh_round_params *p, const round_work *w, int *gpu_of,
                            double *est_of, solve_result *res, int *solves, gp_err *err)
{
    size_t cap = w->ngpus * ALLOC_MAX_PER_GPU;
    size_t n = w->nsel < cap ? w->nsel : cap;
    if (n < w->nrunning)
        n = w->nrunning;
    for (;;) {
        if (n == 0)
            return 0;
        (*solves)++;
        solve_result_free(res);
        solve_result_init(res);
        if (try_solve(r, c, ctx, p, w, n, gpu_of, res, est_of, err))
            return (long)n;
        if (p->objective != GOGH_MIN_POWER || n == w->nrunning)
            return -1;
        n = w->nrunning + (n - w->nrunning) / 2;
    }
}

/* Jobs nothing decided yet: running ones stay (all of them first, so
 * first fit sees their GPUs taken), waiting ones go first fit. */
static size_t place_rest(const alloc_ctx *ctx, alloc_fit *fit, const unsigned char *decided,
                         alloc_out *out)
{
    size_t placed = 0;
    for (size_t i = 0; i < ctx->njobs; i++) {
        if (!decided[i] && ctx->jobs[i].running) {
            out->pl[i] = ctx->jobs[i].cur;
            alloc_fit_take(fit, ctx->jobs[i].task, &out->pl[i]);
        }
    }
    for (size_t i = 0; i < ctx->njobs; i++) {
        int ti = ctx->jobs[i].task;
        if (decided[i] || ctx->jobs[i].running)
            continue;
        if (alloc_fit_first(fit, ti, 1, &out->pl[i]) || alloc_fit_first(fit, ti, 0, &out->pl[i])) {
            alloc_fit_take(fit, ti, &out->pl[i]);
            placed++;
        } else {
            out->pl[i].ngpus = 0;
        }
    }
    return placed;
}

static void describe(const gogh_round *r, const gogh_round_params *p, const round_work *w,
                     size_t admitted, size_t solved, size_t rest, int solves,
                     const solve_result *res, alloc_out *out)
{
    gogh_est_stats es;
    gogh_estimator_stats(r->est, &es);
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "%s: %zu of %zu jobs to the solver (%zu placed), %zu by first fit",
                  gogh_est_mode_name(p->mode), admitted, w->nsel, solved, rest);
    if (solves > 1)
        strbuf_printf(&b, ", %d solves", solves);
    /* No wall time here: the note is part of the run, which replays exactly. */
    if (res->has_solution)
        strbuf_printf(&b, ", %s", solve_status_name(res->status));
    if (es.unknown_types)
        strbuf_printf(&b, ", %zu types not in the table: estimated", es.unknown_types);
    strbuf_copy_to(&b, out->note, sizeof out->note);
    strbuf_free(&b);
    if (res->has_solution) {
        out->objective = res->objective;
        out->gap = res->gap;
        strlcpy0(out->obj_unit, p->objective == GOGH_MIN_POWER ? "W" : "norm. it/s",
                 sizeof out->obj_unit);
    }
}

int gogh_round_allocate(gogh_round *r, const alloc_ctx *ctx, const gogh_round_params *p,
                        alloc_out *out, gp_err *err)
{
    if (catch_up(r, ctx, err))
        return -1;
    map_gpus(r);
    est_cache c;
    cache_init(&c, r, ctx);
    round_work w;
    memset(&w, 0, sizeof w);
    select_work(r, &c, ctx, &w);
    int *gpu_of = xmalloc((w.nsel ? w.nsel : 1) * sizeof *gpu_of);
    double *est_of = xcalloc(w.nsel ? w.nsel : 1, sizeof *est_of);
    unsigned char *decided = xcalloc(ctx->njobs ? ctx->njobs : 1, 1);
    solve_result res;
    solve_result_init(&res);
    int solves = 0;
    gp_err serr = {{0}};
    long got = admit_and_solve(r, &c, ctx, p, &w, gpu_of, est_of, &res, &solves, &serr);
    size_t admitted = got > 0 ? (size_t)got : 0, solved = 0;
    for (size_t j = 0; j < admitted; j++) {
        size_t i = w.sel[j];
        decided[i] = 1;
        if (gpu_of[j] < 0)
            continue;
        const cs_gpu *g = &ctx->cs->gpus[gpu_of[j]];
        out->pl[i] = (placement){.node = g->node, .ngpus = 1, .gpus = {gpu_of[j]}};
        out->est[i] = est_of[j];
        if (p->objective == GOGH_MIN_POWER)
            out->min[i] = min_tput_of(&c, p, &ctx->tr->tasks[ctx->jobs[i].task],
                                      r->type_of[ctx->jobs[i].task]);
        alloc_fit_take(w.fit, ctx->jobs[i].task, &out->pl[i]);
        solved++;
    }
    /* Solver jobs it had no room for wait rather than take its GPUs by
     * first fit behind its back; when it found nothing at all, the running
     * ones stay where they are. */
    for (size_t j = admitted; j < w.nsel; j++)
        if (got >= 0 || !ctx->jobs[w.sel[j]].running)
            decided[w.sel[j]] = 1;
    size_t rest = place_rest(ctx, w.fit, decided, out);
    describe(r, p, &w, admitted, solved, rest, solves, &res, out);
    if (got < 0 && serr.msg[0])
        snprintf(out->note + strlen(out->note), sizeof out->note - strlen(out->note),
                 "; solver: %s", serr.msg);
    solve_result_free(&res);
    free(gpu_of);
    free(est_of);
    free(decided);
    free(w.sel);
    free(w.gpus);
    alloc_fit_free(w.fit);
    cache_free(&c);
    return 0;
}
