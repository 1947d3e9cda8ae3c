/*
 * inflation.c — the workload-inflation experiment (inflation.h): arrival
 * order and node ranks, the placement loop over a cluster state with
 * per-event metrics, the FGD and PWR papers' curves, and their mean and
 * spread over seeds.
 *
 * The curves reproduce the published analysis pipelines, quirks included
 * (FGD_NOTES §7, §9): per-event values are rounded as the simulator's log
 * prints them ("%.2f") and as its Python scripts round them (round half to
 * even on the exact binary value), bucket means sum in numpy's pairwise
 * order and are rounded by np.round, and the PWR curves interpolate by row
 * position as pandas' interpolate(method='linear') does.
 *
 * The seeded orders and ranks come from Go's math/rand (rng_go.h) unless
 * the setup asks for the project's own streams.
 *
 * Not here: output formats, the command line, the store, the order and rank
 * files (io/inflation_read.c).
 */
#include "inflation.h"
#include "inflation_int.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cstate.h"
#include "core/frag.h"
#include "power/power.h"
#include "core/rng.h"
#include "core/rng_go.h"
#include "sim_place.h"

const char *const infl_pct_names[INFL_NPM] = {
    "alloc_pct", "frag_pct", "frag_ratio_pct", "eopc_w", "eopc_cpu_w", "eopc_gpu_w",
    "grar", "failed",
};
const char *const infl_grid_names[INFL_NGM] = {
    "eopc_w", "eopc_cpu_w", "eopc_gpu_w", "grar", "frag_ratio_pct", "failed", "used_milli",
    "arrived_milli",
};

enum { STREAM_SHUFFLE, STREAM_CLONES, STREAM_RANKS, STREAM_POLICY };

int infl_rng_parse(const char *name, infl_rng *out)
{
    if (strcmp(name, "go") == 0)
        *out = INFL_RNG_GO;
    else if (strcmp(name, "xoshiro") == 0)
        *out = INFL_RNG_XOSHIRO;
    else
        return -1;
    return 0;
}

const char *infl_rng_name(infl_rng k)
{
    return k == INFL_RNG_XOSHIRO ? "xoshiro" : "go";
}


/* --- arrival order and ranks (FGD_NOTES §1) ------------------------------- */

/* The inflation's uniform draws, from either stream: Go's Intn (which the
 * published simulator calls) or the project's rng_below. */
typedef struct below_src {
    rng *x;
    rng_go *go;
} below_src;

static size_t draw_below(const below_src *b, size_t n)
{
    return b->go ? (size_t)rng_go_intn(b->go, (int)n) : (size_t)rng_below(b->x, n);
}

/* tuneUpPods: clones of uniformly drawn original tasks until the first
 * draw whose per-GPU share would pass the target. */
static int *inflate_up(const gp_trace *tr, const name_idx *orig, int *list, size_t *n,
                       size_t *cap, int64_t total, double target, const below_src *r)
{
    int any_gpu = 0;
    for (size_t i = 0; i < tr->ntasks && !any_gpu; i++)
        any_gpu = task_gpu_milli(&tr->tasks[i]) > 0;
    /* A trace without GPU tasks could never reach the target. */
    while (any_gpu) {
        const task *tk = &tr->tasks[orig[draw_below(r, tr->ntasks)].idx];
        if ((double)(total + task_gpu_share(tk)) > target)
            break;
        grow_array((void **)&list, cap, *n + 1, sizeof *list);
        list[(*n)++] = (int)(tk - tr->tasks);
        total += task_gpu_milli(tk);
    }
    return list;
}

/* tuneDownPods: random tasks leave until the target is met (with the Go
 * stream one Intn over the remaining list per removal: the published
 * experiments never take this branch, so it is not checked against them). */
static void inflate_down(const gp_trace *tr, int *list, size_t *n, int64_t total,
                         double target, const below_src *r)
{
    while ((double)total > target && *n > 0) {
        size_t i = draw_below(r, *n);
        total -= task_gpu_milli(&tr->tasks[list[i]]);
        memmove(&list[i], &list[i + 1], (*n - i - 1) * sizeof *list);
        (*n)--;
    }
}

/* The name-sorted task list (FGD_NOTES §1.1) before the shuffle, its GPU
 * milli in *total. */
static int *sorted_list(const gp_trace *tr, const name_idx *orig, size_t *cap, int64_t *total)
{
    *cap = tr->ntasks ? tr->ntasks : 1;
    int *list = xmalloc(*cap * sizeof *list);
    *total = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        list[i] = orig[i].idx;
        *total += task_gpu_milli(&tr->tasks[i]);
    }
    return list;
}

/* Clones or removals after the shuffle (FGD_NOTES §1.2). */
static int *inflate(const gp_trace *tr, const name_idx *orig, int *list, size_t *len,
                    size_t *cap, int64_t total, double target, const below_src *b)
{
    if (target > 0 && tr->ntasks > 0 && (double)total < target)
        list = inflate_up(tr, orig, list, len, cap, total, target, b);
    else if (target > 0 && (double)total > target)
        inflate_down(tr, list, len, total, target, b);
    return list;
}

int *infl_order(const gp_trace *tr, int64_t gpu_milli, double ratio, uint64_t seed, size_t *n,
                size_t *nclones)
{
    name_idx *orig = trace_names_sorted(tr);
    size_t cap, len = tr->ntasks;
    int64_t total;
    int *list = sorted_list(tr, orig, &cap, &total);
    rng r;
    rng_seed_stream(&r, seed, STREAM_SHUFFLE);
    rng_shuffle(&r, list, len, sizeof *list);
    rng_seed_stream(&r, seed, STREAM_CLONES);
    below_src b = {&r, NULL};
    list = inflate(tr, orig, list, &len, &cap, total, ratio * (double)gpu_milli, &b);
    *nclones = len > tr->ntasks ? len - tr->ntasks : 0;
    *n = len;
    free(orig);
    return list;
}

void infl_ranks(size_t n, uint64_t seed, int *rank)
{
    for (size_t i = 0; i < n; i++)
        rank[i] = (int)i;
    rng r;
    rng_seed_stream(&r, seed, STREAM_RANKS);
    rng_shuffle(&r, rank, n, sizeof *rank);
}

/* FGD_NOTES §9 step 5: node i of the name-sorted nodes gets rank perm[i]. */
static void go_ranks(const cluster *cl, rng_go *g, int *rank)
{
    size_t nn = cl->nnodes;
    name_idx *v = xmalloc((nn ? nn : 1) * sizeof *v);
    int *perm = xmalloc((nn ? nn : 1) * sizeof *perm);
    for (size_t i = 0; i < nn; i++)
        v[i] = (name_idx){cl->nodes[i].name, (int)i};
    name_idx_sort(v, nn);
    rng_go_perm(g, (int)nn, perm);
    for (size_t i = 0; i < nn; i++)
        rank[v[i].idx] = perm[i];
    free(perm);
    free(v);
}

int *infl_go_draws(const gp_trace *tr, const cluster *cl, double ratio, int64_t seed,
                   size_t *n, size_t *nclones, int *rank)
{
    rng_go *g = xmalloc(sizeof *g);
    rng_go_seed(g, seed);
    (void)rng_go_int63(g);                      /* §9.1: one Int() thrown away */
    name_idx *orig = trace_names_sorted(tr);
    size_t cap, len = tr->ntasks;
    int64_t total;
    int *list = sorted_list(tr, orig, &cap, &total);
    rng_go_shuffle(g, list, len, sizeof *list);
    below_src b = {NULL, g};
    double target = ratio * (double)((int64_t)cluster_gpu_total(cl) * 1000);
    list = inflate(tr, orig, list, &len, &cap, total, target, &b);
    for (int i = 0; i < 10; i++)                /* §9.4: the informers' draws */
        (void)rng_go_float64(g);
    go_ranks(cl, g, rank);
    *nclones = len > tr->ntasks ? len - tr->ntasks : 0;
    *n = len;
    free(orig);
    free(g);
    return list;
}

/* --- the placement loop ------------------------------------------------------ */

/* A run's moving parts. */
typedef struct loop_state {
    cstate *cs;
    frag_workload *w;
    void *prep;
    double *node_cpu_w, *node_gpu_w;
    double cpu_w, gpu_w;
    int64_t arrived, used;
    int failed;
} loop_state;

static void node_power(loop_state *ls, int ni)
{
    double c, g;
    power_eopc_node(ls->cs, ni, &c, &g);
    ls->cpu_w += c - ls->node_cpu_w[ni];
    ls->gpu_w += g - ls->node_gpu_w[ni];
    ls->node_cpu_w[ni] = c;
    ls->node_gpu_w[ni] = g;
}

static void record(const loop_state *ls, const placement *pl, int ok, int ti, infl_event *e)
{
    memset(e, 0, sizeof *e);
    e->task = ti;
    e->node = ok ? pl->node : -1;
    for (int i = 0; ok && i < pl->ngpus && i < GP_NODE_MAX_GPUS; i++)
        e->gpus[e->ngpus++] = ls->cs->gpus[pl->gpus[i]].dev;
    e->arrived = ls->arrived;
    e->used = ls->used;
    e->cpu_w = ls->cpu_w;
    e->gpu_w = ls->gpu_w;
    e->failed = ls->failed;
}

static int loop_init(loop_state *ls, const infl_setup *s, const policy_spec *pol, gp_err *err)
{
    memset(ls, 0, sizeof *ls);
    if (policy_places_tasks(pol->ops, err) || !(ls->cs = cstate_new(s->cl, s->cat, err)))
        return -1;
    ls->w = frag_workload_new(s->tr);
    size_t nn = ls->cs->nnodes ? ls->cs->nnodes : 1;
    ls->node_cpu_w = xcalloc(nn, sizeof *ls->node_cpu_w);
    ls->node_gpu_w = xcalloc(nn, sizeof *ls->node_gpu_w);
    for (size_t i = 0; i < ls->cs->nnodes; i++)
        node_power(ls, (int)i);
    frag_cluster(ls->w, ls->cs);
    return policy_prepare(pol, ls->cs, s->tr, &ls->prep, err);
}

static void loop_free(loop_state *ls, const policy_spec *pol)
{
    policy_release(pol, ls->prep);
    frag_workload_free(ls->w);
    free(ls->node_cpu_w);
    free(ls->node_gpu_w);
    cstate_free(ls->cs);
}

/* Submits the tasks of order[0..n) one by one (FGD_NOTES §1.4, §7).  A
 * task is allocated under its event index: clones repeat a trace index. */
static int place_all(loop_state *ls, const infl_setup *s, const policy_spec *pol,
                     const int *order, size_t n, const int *rank, uint64_t seed,
                     infl_event *ev, gp_err *err)
{
    rng pr;
    rng_seed_stream(&pr, seed, STREAM_POLICY);
    explain ex;
    explain_init(&ex, NULL, 0);
    sim_placer p;
    sim_place_init(&p, pol, ls->cs, s->cl, s->cat, s->tr, ls->prep);
    p.ctx.rng = &pr;
    p.ctx.node_rank = rank;
    p.ex = s->explain ? &ex : NULL;
    int rc = 0;
    for (size_t e = 0; e < n && rc == 0; e++) {
        const task *tk = &s->tr->tasks[order[e]];
        placement pl;
        ls->arrived += task_gpu_milli(tk);
        sim_place_result r = sim_place_task(&p, order[e], (int)e, &pl, err);
        if (r == SIM_PLACE_PLACED) {
            ls->used += task_gpu_milli(tk);
            node_power(ls, pl.node);
        } else if (r == SIM_PLACE_NO_ROOM) {
            ls->failed++;
        } else {
            rc = -1;            /* a policy bug: the run is not the experiment's */
        }
        record(ls, &pl, r != SIM_PLACE_NO_ROOM, order[e], &ev[e]);
        ev[e].frag = frag_cluster(ls->w, ls->cs);
        if (s->explain)
            ev[e].why = xstrdup(ex.summary);
    }
    explain_free(&ex);
    return rc;
}

/* The seed's order and ranks for what the setup does not give explicitly
 * (*order, *rank allocated, or NULL when given).  The Go stream is drawn
 * whole even when only the ranks are needed: they come after the order's
 * draws in the published simulator. */
static void seeded_draws(const infl_setup *s, uint64_t seed, int64_t gpu_milli, int **order,
                         size_t *n, size_t *nclones, int **rank)
{
    size_t nn = s->cl->nnodes ? s->cl->nnodes : 1, len = 0, clones = 0;
    *order = NULL;
    *rank = NULL;
    if (s->order && s->node_rank)
        return;
    int *rk = xmalloc(nn * sizeof *rk), *ord = NULL;
    if (s->rng == INFL_RNG_GO) {
        ord = infl_go_draws(s->tr, s->cl, s->ratio, (int64_t)seed, &len, &clones, rk);
    } else {
        if (!s->order)
            ord = infl_order(s->tr, gpu_milli, s->ratio, seed, &len, &clones);
        infl_ranks(s->cl->nnodes, seed, rk);
    }
    if (s->order) {
        free(ord);
        ord = NULL;
    } else {
        *n = len;
        *nclones = clones;
    }
    if (s->node_rank) {
        free(rk);
        rk = NULL;
    }
    *order = ord;
    *rank = rk;
}

int infl_run_one(const infl_setup *s, const policy_spec *pol, uint64_t seed, int keep_events,
                 infl_run *r, gp_err *err)
{
    memset(r, 0, sizeof *r);
    r->ngpus = (int)cluster_gpu_total(s->cl);
    r->gpu_milli = (int64_t)r->ngpus * 1000;
    loop_state ls;
    if (loop_init(&ls, s, pol, err)) {
        loop_free(&ls, pol);
        return -1;
    }
    size_t n = s->norder;
    int *own_order = NULL, *own_rank = NULL;
    const int *order = s->order, *rank = s->node_rank;
    seeded_draws(s, seed, r->gpu_milli, &own_order, &n, &r->nclones, &own_rank);
    if (order)
        r->nclones = n > s->tr->ntasks ? n - s->tr->ntasks : 0;
    else
        order = own_order;
    if (!rank)
        rank = own_rank;
    r->ev = xcalloc(n ? n : 1, sizeof *r->ev);
    r->nev = r->ntasks = n;
    double t0 = now_seconds();
    int rc = place_all(&ls, s, pol, order, n, rank, seed, r->ev, err);
    r->wall_s = now_seconds() - t0;
    r->failed = (size_t)ls.failed;
    if (rc == 0)
        infl_curves_of(r->ev, r->nev, r->ngpus, &r->cv);
    loop_free(&ls, pol);
    free(own_order);
    free(own_rank);
    if (!keep_events || rc) {
        for (size_t i = 0; i < r->nev; i++)
            free(r->ev[i].why);
        free(r->ev);
        r->ev = NULL;
        r->nev = 0;
    }
    return rc;
}

void infl_run_free(infl_run *r)
{
    for (size_t i = 0; i < r->nev; i++)
        free(r->ev[i].why);
    free(r->ev);
    r->ev = NULL;
    r->nev = 0;
}

/* --- the FGD paper's per-percent curves -------------------------------------- */

/* Python's round(x, nd): round half to even on the exact binary value,
 * which is what glibc's printf does; the simulator's "%.2f" log values are
 * the same numbers. */
static double py_round(double x, int nd)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", nd, x);
    return strtod(buf, NULL);
}

/* numpy's np.round(x, nd) (FGD_NOTES §9): scaled by 10^nd in float64,
 * rounded half to even, scaled back.  The scaling rounds first, so this
 * differs from py_round by one unit in the last place now and then; the
 * analysis scripts round each bucket's mean this way. */
static double np_round(double x, int nd)
{
    double scale = pow(10, nd);
    return rint(x * scale) / scale;
}

/* numpy's pairwise summation of doubles (what pandas' mean sums with):
 * below 8 values a plain loop, up to 128 eight interleaved partial sums,
 * above that halves split at a multiple of 8. */
static double pairwise_sum(const double *a, size_t n)
{
    if (n < 8) {
        double s = 0.;
        for (size_t i = 0; i < n; i++)
            s += a[i];
        return s;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        size_t i;
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            s += a[i];
        return s;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

/* pandas' nanmean: NaN counted out, summed as zero. */
static double nan_mean(double *a, size_t n)
{
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(a[i]))
            a[i] = 0;
        else
            cnt++;
    }
    return cnt ? pairwise_sum(a, n) / (double)cnt : NAN;
}

/* Per-event values as the analysis scripts see them. */
typedef struct event_view {
    double arrive;              /* round(A / ngpus / 10, 0) */
    double alloc;               /* round(U / ngpus / 10, 2) */
    double frag_milli;          /* the log's "%.2f" of F */
    double frag_ratio;          /* the log's "%.2f" of 100 F / idle */
} event_view;

static void view_events(const infl_event *ev, size_t n, int ngpus, event_view *v)
{
    for (size_t e = 0; e < n; e++) {
        /* Python's round(x, 0) is round half to even, as rint() is. */
        v[e].arrive = rint((double)ev[e].arrived / ngpus / 10);
        v[e].alloc = py_round((double)ev[e].used / ngpus / 10, 2);
        v[e].frag_milli = py_round(ev[e].frag, 2);
        double idle = (double)((int64_t)ngpus * 1000 - ev[e].used);
        v[e].frag_ratio = idle > 0 ? py_round(100 * ev[e].frag / idle, 2) : NAN;
    }
}

/* The events of percent p (contiguous, arrived only grows), or those
 * within ±1 when none: [*lo, *hi).  0 when there are none either. */
static int bucket(const event_view *v, size_t n, int p, size_t *lo, size_t *hi)
{
    for (int widen = 0; widen <= 1; widen++) {
        size_t a = 0;
        while (a < n && v[a].arrive < p - widen)
            a++;
        size_t b = a;
        while (b < n && v[b].arrive <= p + widen)
            b++;
        if (b > a) {
            *lo = a;
            *hi = b;
            return 1;
        }
    }
    return 0;
}

static void pct_curves(const infl_event *ev, const event_view *v, size_t n, int ngpus,
                       double *tmp, infl_curves *cv)
{
    for (int p = 0; p < INFL_NPCT; p++) {
        size_t lo, hi;
        if (!bucket(v, n, p, &lo, &hi)) {
            for (int m = 0; m < INFL_NPM; m++)
                cv->pct[m][p] = NAN;
            continue;
        }
        size_t k = hi - lo;
        for (size_t i = 0; i < k; i++)
            tmp[i] = v[lo + i].alloc;
        cv->pct[INFL_P_ALLOC][p] = np_round(nan_mean(tmp, k), 2);
        for (size_t i = 0; i < k; i++)
            tmp[i] = v[lo + i].frag_milli;
        cv->pct[INFL_P_FRAG][p] = np_round(100 * nan_mean(tmp, k) / 1000 / ngpus, 2);
        for (size_t i = 0; i < k; i++)
            tmp[i] = v[lo + i].frag_ratio;
        cv->pct[INFL_P_FRAG_RATIO][p] = nan_mean(tmp, k);
        double c = 0, g = 0, grar = 0;
        for (size_t i = lo; i < hi; i++) {
            c += ev[i].cpu_w;
            g += ev[i].gpu_w;
            grar += ev[i].arrived > 0 ? (double)ev[i].used / (double)ev[i].arrived : 1.0;
        }
        cv->pct[INFL_P_EOPC][p] = (c + g) / (double)k;
        cv->pct[INFL_P_EOPC_CPU][p] = c / (double)k;
        cv->pct[INFL_P_EOPC_GPU][p] = g / (double)k;
        cv->pct[INFL_P_GRAR][p] = grar / (double)k;
        cv->pct[INFL_P_FAILED][p] = ev[hi - 1].failed;
    }
}

/* --- the PWR paper's 201-point curves ---------------------------------------- */

double infl_grid_x(int i)
{
    return 0 + i * 0.005;
}

static double grid_value(const infl_event *e, const event_view *v, int m)
{
    switch (m) {
    case INFL_G_EOPC: return e->cpu_w + e->gpu_w;
    case INFL_G_EOPC_CPU: return e->cpu_w;
    case INFL_G_EOPC_GPU: return e->gpu_w;
    case INFL_G_FRAG_RATIO: return v->frag_ratio;
    case INFL_G_FAILED: return e->failed;
    case INFL_G_USED: return (double)e->used;
    case INFL_G_ARRIVED: return (double)e->arrived;
    default: return NAN;
    }
}

/* The union of the events' x (first event of each x) and the grid, as
 * rows: row_ev[r] is the event of row r or -1 for a grid-only row;
 * grid_row[i] the row of grid point i.  Returns the row count. */
static size_t union_rows(const infl_event *ev, size_t n, double cap, int *row_ev, int *grid_row)
{
    size_t rows = 0, e = 0;
    int i = 0;
    double last = -1;
    while (e < n || i < INFL_NGRID) {
        double xe = e < n ? (double)ev[e].arrived / cap : INFINITY;
        if (e < n && xe == last) {
            e++;                /* duplicated index: keep the first */
            continue;
        }
        double xg = i < INFL_NGRID ? infl_grid_x(i) : INFINITY;
        if (xe <= xg) {
            row_ev[rows] = (int)e;
            if (xe == xg)
                grid_row[i++] = (int)rows;
            last = xe;
            e++;
        } else {
            row_ev[rows] = -1;
            grid_row[i++] = (int)rows;
        }
        rows++;
    }
    return rows;
}

/* pandas interpolate(method='linear') ignores the index: a missing row
 * between valid rows a and b gets v_a + (v_b − v_a)(r − a)/(b − a); then
 * ffill() and bfill() take care of the ends. */
static double interp_row(const double *val, size_t rows, size_t r)
{
    if (!isnan(val[r]))
        return val[r];
    long a = (long)r - 1, b = (long)r + 1;
    while (a >= 0 && isnan(val[a]))
        a--;
    while ((size_t)b < rows && isnan(val[b]))
        b++;
    if (a < 0 && (size_t)b >= rows)
        return NAN;
    if (a < 0)
        return val[b];
    if ((size_t)b >= rows)
        return val[a];
    double slope = (val[b] - val[a]) / (double)(b - a);
    return slope * (double)((long)r - a) + val[a];
}

static void grid_curves(const infl_event *ev, const event_view *v, size_t n, int ngpus,
                        infl_curves *cv)
{
    size_t cap_rows = n + INFL_NGRID;
    int *row_ev = xmalloc(cap_rows * sizeof *row_ev);
    int grid_row[INFL_NGRID];
    double *val = xmalloc(cap_rows * sizeof *val);
    size_t rows = union_rows(ev, n, (double)ngpus * 1000, row_ev, grid_row);
    for (int m = 0; m < INFL_NGM; m++) {
        if (m == INFL_G_GRAR)
            continue;
        for (size_t r = 0; r < rows; r++)
            val[r] = row_ev[r] >= 0 ? grid_value(&ev[row_ev[r]], &v[row_ev[r]], m) : NAN;
        for (int i = 0; i < INFL_NGRID; i++)
            cv->grid[m][i] = interp_row(val, rows, (size_t)grid_row[i]);
    }
    /* GRAR = allocated / arrived at the grid point; 1 before any arrival. */
    for (int i = 0; i < INFL_NGRID; i++) {
        double a = cv->grid[INFL_G_ARRIVED][i], u = cv->grid[INFL_G_USED][i];
        cv->grid[INFL_G_GRAR][i] = a > 0 ? u / a : 1.0;
    }
    free(row_ev);
    free(val);
}

void infl_curves_of(const infl_event *ev, size_t n, int ngpus, infl_curves *cv)
{
    event_view *v = xmalloc((n ? n : 1) * sizeof *v);
    double *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
    view_events(ev, n, ngpus > 0 ? ngpus : 1, v);
    pct_curves(ev, v, n, ngpus > 0 ? ngpus : 1, tmp, cv);
    grid_curves(ev, v, n, ngpus > 0 ? ngpus : 1, cv);
    free(v);
    free(tmp);
}

/* --- mean and spread over seeds ---------------------------------------------- */

void infl_agg_init(infl_agg *a)
{
    memset(a, 0, sizeof *a);
    for (int m = 0; m < INFL_NPM + INFL_NGM; m++)
        for (int i = 0; i < INFL_NGRID; i++) {
            a->min[m][i] = INFINITY;
            a->max[m][i] = -INFINITY;
        }
}

static void acc(infl_agg *a, int m, int i, double x)
{
    if (isnan(x))
        return;
    a->sum[m][i] += x;
    a->sumsq[m][i] += x * x;
    a->min[m][i] = x < a->min[m][i] ? x : a->min[m][i];
    a->max[m][i] = x > a->max[m][i] ? x : a->max[m][i];
    a->n[m][i]++;
}

void infl_agg_add(infl_agg *a, const infl_run *r)
{
    a->nruns++;
    a->failed_sum += (double)r->failed;
    a->clones_sum += (double)r->nclones;
    a->wall_sum += r->wall_s;
    for (int m = 0; m < INFL_NPM; m++)
        for (int p = 0; p < INFL_NPCT; p++)
            acc(a, m, p, r->cv.pct[m][p]);
    for (int m = 0; m < INFL_NGM; m++)
        for (int i = 0; i < INFL_NGRID; i++)
            acc(a, INFL_NPM + m, i, r->cv.grid[m][i]);
}

static infl_stat stat_of(const infl_agg *a, int m, int i)
{
    infl_stat s = {NAN, NAN, NAN, NAN, a->n[m][i]};
    if (s.n == 0)
        return s;
    s.mean = a->sum[m][i] / s.n;
    s.min = a->min[m][i];
    s.max = a->max[m][i];
    double var = s.n > 1 ? (a->sumsq[m][i] - s.n * s.mean * s.mean) / (s.n - 1) : 0;
    s.sd = var > 0 ? sqrt(var) : 0;
    return s;
}

infl_stat infl_agg_pct(const infl_agg *a, int metric, int pct)
{
    return stat_of(a, metric, pct);
}

infl_stat infl_agg_grid(const infl_agg *a, int metric, int point)
{
    infl_stat s = stat_of(a, INFL_NPM + metric, point);
    if (metric == INFL_G_GRAR) {
        infl_stat u = stat_of(a, INFL_NPM + INFL_G_USED, point);
        infl_stat v = stat_of(a, INFL_NPM + INFL_G_ARRIVED, point);
        if (v.n > 0 && v.mean > 0)
            s.mean = u.mean / v.mean;
    }
    return s;
}

/* --- the run record ------------------------------------------------------------ */

/* Sets a metric when the run has a value for it (a small cluster may have
 * no event at exactly 100 %, and the store keeps no NaN). */
static void set_metric(run *rec, const char *key, double v)
{
    if (!isnan(v))
        run_set_metric(rec, key, v);
}

static void add_metrics(run *rec, const infl_run *r)
{
    const infl_curves *cv = &r->cv;
    set_metric(rec, "alloc_pct_at_100", cv->pct[INFL_P_ALLOC][100]);
    set_metric(rec, "frag_pct_at_100", cv->pct[INFL_P_FRAG][100]);
    set_metric(rec, "frag_ratio_at_100", cv->pct[INFL_P_FRAG_RATIO][100]);
    set_metric(rec, "alloc_pct_at_130", cv->pct[INFL_P_ALLOC][130]);
    set_metric(rec, "eopc_w_at_50", cv->grid[INFL_G_EOPC][100]);
    set_metric(rec, "eopc_cpu_w_at_50", cv->grid[INFL_G_EOPC_CPU][100]);
    set_metric(rec, "eopc_gpu_w_at_50", cv->grid[INFL_G_EOPC_GPU][100]);
    set_metric(rec, "eopc_w_at_100", cv->grid[INFL_G_EOPC][200]);
    set_metric(rec, "grar_at_90", cv->grid[INFL_G_GRAR][180]);
    set_metric(rec, "grar_at_100", cv->grid[INFL_G_GRAR][200]);
    run_set_metric(rec, "failed_tasks", (double)r->failed);
    run_set_metric(rec, "tasks", (double)r->ntasks);
    run_set_metric(rec, "clones", (double)r->nclones);
    run_set_metric(rec, "wall_s", r->wall_s);
}

/* One decision per submitted task (event order; clones repeat a trace
 * index, so the per-task outcome table cannot hold them). */
static void add_decisions(run *rec, const infl_run *r)
{
    for (size_t e = 0; e < r->nev; e++) {
        const infl_event *ev = &r->ev[e];
        run_decision d;
        memset(&d, 0, sizeof d);
        d.seq = (int)e;
        d.t_s = (double)e;
        d.task = ev->task;
        d.node = ev->node;
        strbuf devs = STRBUF_INIT;
        for (int i = 0; i < ev->ngpus; i++) {
            strbuf_sep(&devs, ",");
            strbuf_printf(&devs, "%d", ev->gpus[i]);
        }
        strbuf_copy_to(&devs, d.gpus, sizeof d.gpus);
        strbuf_free(&devs);
        d.reason = ev->why;
        run_add_decision(rec, &d);
    }
}

run *infl_to_run(const infl_setup *s, const policy_spec *pol, uint64_t seed,
                 const infl_run *r, int placements)
{
    run *rec = run_new(pol->label);
    snprintf(rec->name, sizeof rec->name, "inflation %s", pol->label);
    char opts[256];
    policy_spec_format(pol, opts, sizeof opts);
    rec->options = xasprintf("%s%sinflation=%g order=%s ranks=%s rng=%s", opts,
                             opts[0] ? " " : "", s->ratio, s->order ? "file" : "seeded",
                             s->node_rank ? "file" : "seeded", infl_rng_name(s->rng));
    strlcpy0(rec->trace_name, s->tr->name, sizeof rec->trace_name);
    strlcpy0(rec->cluster_name, s->cl->name, sizeof rec->cluster_name);
    strlcpy0(rec->power_model, "eopc", sizeof rec->power_model);
    rec->seed = seed;
    for (int p = 0; p < INFL_NPCT; p++) {
        const infl_curves *cv = &r->cv;
        if (isnan(cv->pct[INFL_P_ALLOC][p]))
            continue;
        run_point pt;
        memset(&pt, 0, sizeof pt);
        pt.t_s = p;
        pt.alloc_ratio = cv->pct[INFL_P_ALLOC][p] / 100;
        pt.frag = cv->pct[INFL_P_FRAG_RATIO][p] / 100;
        pt.power_w = cv->pct[INFL_P_EOPC][p];
        pt.cpu_w = cv->pct[INFL_P_EOPC_CPU][p];
        pt.gpu_w = cv->pct[INFL_P_EOPC_GPU][p];
        pt.queued = cv->pct[INFL_P_FAILED][p];
        run_add_point(rec, &pt);
    }
    add_metrics(rec, r);
    if (placements)
        add_decisions(rec, r);
    return rec;
}
