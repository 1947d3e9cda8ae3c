/*
 * solve_gogh.c — GOGH Problem 1 (GOGH §2.4, eq. 2a–2g): place combinations
 * of one or two jobs on accelerators so that every job runs on 1..D_j
 * accelerators with at least its minimum throughput, minimising power; with
 * the same constraints, the cheapest fleet (price of each accelerator in
 * use plus its energy, for solve_fleet.c); and Gavel's max-sum throughput
 * (capacities and D_j only, jobs may wait) for the simulator's baseline.
 * Not here: choosing which jobs a round solves (the simulator does), the
 * neighbourhood search (solve_gogh_nbhd.c), nor the objective's lattice
 * (solve_gogh_lattice.c).
 *
 * Interpretation of the paper:
 *   - x_{a,s}^c (eq. 2g) is read per accelerator: one GPU of type a on
 *     server s runs at most one combination (eq. 2f) of at most theta_a jobs
 *     (eq. 2d); theta_a is 2 (GOGH restricts C to sizes one and two);
 *   - a type is a GPU profile (its power); profiles of one throughput class
 *     share the table's throughputs;
 *   - eq. 2e sums, over the accelerators a job uses, its throughput T_{a,j}^c
 *     there (a distributed job adds up);
 *   - gamma_a(load) = idle_a + (max_a - idle_a) * load (SPEC §3.2), with
 *     the load of combination c on type a the utilization it keeps the GPU
 *     busy: sum over its jobs of u_j * T_{a,j}^c / T_{a,j}^{j} (a job's mean
 *     utilization, scaled by how much of its solo speed it gets next to the
 *     other), capped at 1; a job without a utilization series counts as 1;
 *   - an accelerator running nothing is not in eq. 2a's sum (0 W);
 *   - servers appear in the paper only as an index of x: no server power.
 *
 * Formulation: the servers and the individual GPUs of one type are
 * interchangeable in Problem 1, so the model counts them instead of naming
 * them — n[a,c] = how many GPUs of type a run combination c (integer,
 * at most the type's count and the D_j of its jobs) — which removes every
 * relabelling of identical GPUs from the search.  Jobs with D_j = 1 that
 * are identical in every number the model reads are counted the same way
 * (classes, below).  Strengthening, all valid for integer points:
 *   - eq. 2e's coefficients are capped at T-bar_j (one accelerator giving
 *     more than the minimum satisfies the row alone), which tightens its LP;
 *   - eq. 2b's right-hand side becomes ceil(T-bar_j / best throughput of j):
 *     the accelerators j needs at the least;
 *   - for a job with D_j = 1 combinations below its minimum are dropped,
 *     and for any job those no D_j GPUs can complete to it;
 *   - a job on several GPUs has one reaching T-bar or at least two that do
 *     not (the half row), and one giving at least T-bar / D_j;
 *   - odd-set cuts over three jobs (at least two combinations touch them),
 *     and throughput cuts for jobs on at most two GPUs (two partial
 *     combinations must add up to the minimum).
 *
 * Search (stopping as soon as the bound meets the gap asked for): a start
 * (the given assignment, e.g. the previous round's, completed greedily, or
 * the greedy alone); the LP bound by column generation (a few thousand of
 * the combinations as columns, the rest priced) with cuts; a dive from the
 * LP and exchanges between GPUs; branch and bound over the columns the LP
 * likes (price and branch); neighbourhoods of a few jobs re-solved
 * exactly, the rest held (large neighbourhood search, in its own file,
 * solve_gogh_nbhd.c); reduced-cost fixing; branch and bound over what is
 * left, from the best solution found, with an integer count of the
 * objective's peak-power steps to branch on.  Every bound is rounded up
 * to the objective's lattice when it has one (solve_gogh_lattice.c).  A
 * time limit returns the best solution with its proven gap; the stages
 * share it (a work limit too: each stage's work counts on the solve's
 * clock), so what a time-limited solve returns depends on the machine's
 * speed.  The types and functions
 * the neighbourhood search shares with this file are declared in
 * solve_gogh_int.h.
 */
#include "solve_gogh_int.h"
#include "core/speed.h"
#include "core/tput.h"
#include "core/util_series.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gogh_inst_free(gogh_inst *in)
{
    free(in->jobs);
    free(in->types);
    free(in->accels);
    free(in->solo);
    free(in->pair);
    memset(in, 0, sizeof *in);
}

/* ---- throughputs from the catalog --------------------------------------------- */

/* The batch size of the table's job type nearest to (model, batch), for any
 * accelerator: GOGH P1's "most similar known job", kept to the same model.
 * -1 when the table has no such model. */
static int nearest_batch(const gogh_jobtype *all, size_t n, const char *model, int batch)
{
    int best = -1;
    for (size_t e = 0; e < n; e++) {
        const gogh_jobtype *x = &all[e];
        if (x->scale != 1 || strcmp(x->model, model) != 0)
            continue;
        if (best < 0 || abs(x->batch_size - batch) < abs(best - batch) ||
            (abs(x->batch_size - batch) == abs(best - batch) && x->batch_size < best))
            best = x->batch_size;
    }
    return best;
}

/* One type per GPU profile (its power), named by the profile; profiles of
 * one throughput class share the class for the table's lookups. */
static int add_types(const cluster *cl, const catalog *cat, int by_speed, gogh_inst *out,
                     gp_err *err)
{
    size_t ng = (size_t)cluster_gpu_total(cl);
    out->types = xcalloc(cl->nnodes ? cl->nnodes : 1, sizeof *out->types);
    out->accels = xcalloc(ng ? ng : 1, sizeof *out->accels);
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *nd = &cl->nodes[i];
        if (nd->gpu_count <= 0)
            continue;
        const gpu_profile *p = catalog_gpu(cat, nd->gpu_model);
        if (!p)
            return gp_error(err, "node %s: unknown GPU model '%s'", nd->name, nd->gpu_model);
        if (!by_speed && !p->tput_class[0])
            continue;   /* no throughput class: the table cannot time it */
        size_t t = 0;
        while (t < out->ntypes && strcmp(out->types[t].name, p->name) != 0)
            t++;
        if (t == out->ntypes) {
            gogh_accel_type *ty = &out->types[out->ntypes++];
            strlcpy0(ty->name, p->name, sizeof ty->name);
            strlcpy0(ty->tput_class, p->tput_class, sizeof ty->tput_class);
            ty->theta = 2;
            ty->idle_w = p->idle_w;
            ty->max_w = p->max_w;
            ty->price_usd = gpu_price_or0(p);   /* unknown: free here; solve fleet warns */
        }
        for (int d = 0; d < nd->gpu_count; d++)
            out->accels[out->naccels++] = (gogh_accel){(int)t, (int)i, d};
    }
    if (out->naccels == 0)
        return gp_error(err, by_speed ? "cluster %s has no GPU"
                                      : "cluster %s: no GPU whose profile has a throughput "
                                        "class (k80, p100, v100)", cl->name);
    return 0;
}

/* Solo and pair throughputs of every type; a pair is asked once and each
 * job gets its own half (tput.h: a same-type pair's two throughputs differ). */
static void fill_tputs(const tput_index *ix, const gogh_jobtype *jt, gogh_inst *out)
{
    size_t J = out->njobs, A = out->ntypes;
    out->solo = xcalloc(A * J + 1, sizeof *out->solo);
    out->pair = xcalloc(A * J * J + 1, sizeof *out->pair);
    for (size_t a = 0; a < A; a++) {
        const char *cls = out->types[a].tput_class;
        for (size_t j = 0; j < J; j++) {
            out->solo[a * J + j] = tput_solo(ix, cls, &jt[j]);
            for (size_t k = j + 1; k < J; k++) {
                double tk;
                out->pair[(a * J + j) * J + k] = tput_pair(ix, cls, &jt[j], &jt[k], &tk);
                out->pair[(a * J + k) * J + j] = tk;
            }
        }
    }
}

static int add_jobs(const gp_trace *tr, const tput_catalog *tp, size_t ntasks, double min_frac,
                    gogh_inst *out, gp_err *err)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        n += tr->tasks[i].num_gpu > 0;
    if (ntasks && ntasks < n)
        n = ntasks;
    out->jobs = xcalloc(n ? n : 1, sizeof *out->jobs);
    gogh_jobtype *jt = xcalloc(n ? n : 1, sizeof *jt);
    tput_index *ix = tput_index_new(tp);
    size_t ntypes_cap = tp->nentries + 1;
    gogh_jobtype *known = xmalloc(ntypes_cap * sizeof *known);
    size_t nknown = tput_jobtypes(ix, known, ntypes_cap);
    int rc = 0;
    for (size_t i = 0; i < tr->ntasks && out->njobs < n && rc == 0; i++) {
        const task *t = &tr->tasks[i];
        if (t->num_gpu <= 0)
            continue;
        int b = nearest_batch(known, nknown, t->model, t->batch_size);
        if (b < 0) {
            rc = gp_error(err, "task %s: the throughput table has no model '%s'", t->name,
                          t->model);
            break;
        }
        gogh_jobtype *y = &jt[out->njobs];
        strlcpy0(y->model, t->model, sizeof y->model);
        y->batch_size = b;
        y->scale = 1;
        gogh_job *j = &out->jobs[out->njobs++];
        j->dmax = t->num_gpu;
        j->util = t->util_mean > 0 ? fmin(1, t->util_mean / 100) : 1;
        j->min_tput = t->min_tput;
        j->src = (int)i;
    }
    if (rc == 0) {
        fill_tputs(ix, jt, out);
        for (size_t j = 0; j < out->njobs; j++) {
            double best = 0;
            for (size_t a = 0; a < out->ntypes; a++)
                best = fmax(best, out->solo[a * out->njobs + j]);
            if (out->jobs[j].min_tput <= 0)
                out->jobs[j].min_tput = min_frac * best;
        }
    }
    tput_index_free(ix);
    free(known);
    free(jt);
    return rc;
}

/* ---- throughputs from the profiles' speeds ------------------------------------------- */

/* Without a table a job's throughput is its progress rate: reference
 * seconds of work a second, by Amdahl's law (core/speed.h), 1 on the GPU
 * its trace was measured on.  Two jobs on one GPU each keep their rate
 * while their scaled mean demands fit the GPU, and share it by demand
 * beyond (the simulator's contention model, SPEC §3.3). */
static int add_jobs_by_speed(const catalog *cat, const gp_trace *tr, size_t ntasks,
                             double min_frac, gogh_inst *out, gp_err *err)
{
    char ref_name[GP_NAME_MAX];
    double ref;
    if (speed_ref_resolve(cat, tr, NULL, 0, ref_name, sizeof ref_name, &ref, err))
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        n += tr->tasks[i].num_gpu > 0;
    if (ntasks && ntasks < n)
        n = ntasks;
    out->jobs = xcalloc(n ? n : 1, sizeof *out->jobs);
    double *pct = xcalloc(n ? n : 1, sizeof *pct);
    for (size_t i = 0; i < tr->ntasks && out->njobs < n; i++) {
        const task *t = &tr->tasks[i];
        if (t->num_gpu <= 0)
            continue;
        pct[out->njobs] = useries_summary(t, US_MEAN);
        gogh_job *j = &out->jobs[out->njobs++];
        j->dmax = t->num_gpu;
        j->util = speed_gpu_fraction(t);
        j->min_tput = t->min_tput > 0 ? t->min_tput : min_frac;  /* x its reference rate, 1 */
        j->src = (int)i;
    }
    size_t J = out->njobs, A = out->ntypes;
    out->solo = xcalloc(A * J + 1, sizeof *out->solo);
    out->pair = xcalloc(A * J * J + 1, sizeof *out->pair);
    double *d = xcalloc(J + 1, sizeof *d);
    for (size_t a = 0; a < A; a++) {
        const gpu_profile *g = catalog_gpu(cat, out->types[a].name);
        double s = gpu_speed(g) / ref;
        for (size_t j = 0; j < J; j++) {
            out->solo[a * J + j] = speed_rate(out->jobs[j].util, s);
            d[j] = speed_util(pct[j], out->jobs[j].util, s) / 100;
        }
        for (size_t j = 0; j < J; j++)
            for (size_t k = 0; k < J; k++) {
                double u = d[j] + d[k];
                if (k != j)
                    out->pair[(a * J + j) * J + k] = out->solo[a * J + j] * (u > 1 ? 1 / u : 1);
            }
    }
    free(d);
    free(pct);
    return 0;
}

int gogh_inst_from_model(const cluster *cl, const catalog *cat, const gp_trace *tr,
                         const tput_catalog *tp, size_t ntasks, double min_frac,
                         gogh_inst *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (add_types(cl, cat, !tp, out, err) ||
        (tp ? add_jobs(tr, tp, ntasks, min_frac, out, err)
            : add_jobs_by_speed(cat, tr, ntasks, min_frac, out, err))) {
        gogh_inst_free(out);
        return -1;
    }
    return 0;
}

/* ---- interchangeable jobs --------------------------------------------------------- */

/* The classes of interchangeable jobs (gclasses): solve_gogh_int.h. */
static double gogh_solo(const gogh_inst *in, int a, int j)
{
    return in->solo[(size_t)a * in->njobs + (size_t)j];
}

static double gogh_pair(const gogh_inst *in, int a, int j, int k)
{
    return in->pair[((size_t)a * in->njobs + (size_t)j) * in->njobs + (size_t)k];
}

/* Problem 1's minimum throughput rows exist for the power and cost
 * objectives; Gavel's max-sum throughput has none. */
static int has_minimum(const gogh_inst *in)
{
    return in->objective != GOGH_MAX_THROUGHPUT;
}

/* A combination a job with D_j = 1 would use alone must meet its minimum. */
static int useful(const gogh_inst *in, int j, double t)
{
    return !has_minimum(in) || in->jobs[j].dmax > 1 || t >= in->jobs[j].min_tput - SOLVE_EPS;
}

static int same_use(const gogh_inst *in, int j, int k, double tj, double tk)
{
    return tj == tk && useful(in, j, tj) == useful(in, k, tk);
}

static int interchangeable(const gogh_inst *in, int j, int k)
{
    const gogh_job *x = &in->jobs[j], *y = &in->jobs[k];
    if (x->dmax != 1 || y->dmax != 1 || x->util != y->util)
        return 0;
    int J = (int)in->njobs;
    for (int a = 0; a < (int)in->ntypes; a++) {
        if (!same_use(in, j, k, gogh_solo(in, a, j), gogh_solo(in, a, k)) ||
            !same_use(in, j, k, gogh_pair(in, a, j, k), gogh_pair(in, a, k, j)))
            return 0;
        for (int l = 0; l < J; l++) {
            if (l == j || l == k)
                continue;
            if (!same_use(in, j, k, gogh_pair(in, a, j, l), gogh_pair(in, a, k, l)) ||
                gogh_pair(in, a, l, j) != gogh_pair(in, a, l, k))
                return 0;
        }
    }
    return 1;
}

/* Cheap necessary condition first: the same solo row and utilization. */
static int same_solo(const gogh_inst *in, int j, int k)
{
    if (in->jobs[j].util != in->jobs[k].util || in->jobs[j].dmax != in->jobs[k].dmax)
        return 0;
    for (int a = 0; a < (int)in->ntypes; a++)
        if (gogh_solo(in, a, j) != gogh_solo(in, a, k))
            return 0;
    return 1;
}

static void gclasses_build(const gogh_inst *in, gclasses *g)
{
    int J = (int)in->njobs;
    size_t n1 = (size_t)(J ? J : 1);
    g->n = 0;
    g->of = xmalloc(n1 * sizeof *g->of);
    g->count = xcalloc(n1, sizeof *g->count);
    g->rep = xmalloc(n1 * sizeof *g->rep);
    g->members = xmalloc(n1 * sizeof *g->members);
    g->first = xcalloc(n1 + 1, sizeof *g->first);
    for (int j = 0; j < J; j++) {
        int c = 0;
        while (c < g->n && !(same_solo(in, g->rep[c], j) && interchangeable(in, g->rep[c], j)))
            c++;
        if (c == g->n)
            g->rep[g->n++] = j;
        g->of[j] = c;
        g->count[c]++;
    }
    for (int c = 0; c < g->n; c++)
        g->first[c + 1] = g->first[c] + g->count[c];
    int *fill = xcalloc(n1, sizeof *fill);
    for (int j = 0; j < J; j++)
        g->members[g->first[g->of[j]] + fill[g->of[j]]++] = j;
    free(fill);
}

static void gclasses_free(gclasses *g)
{
    free(g->of);
    free(g->count);
    free(g->rep);
    free(g->members);
    free(g->first);
}

/* ---- combinations ------------------------------------------------------------------ */

/* combo, gcut and gsolve, which the neighbourhood search reads too:
 * solve_gogh_int.h. */
/* gamma_a(load) (see the header comment). */
static double combo_watts(const gogh_inst *in, int a, int j, double tj, int k, double tk)
{
    const gogh_accel_type *ty = &in->types[a];
    double load = in->jobs[j].util * tj / gogh_solo(in, a, j);
    if (k >= 0)
        load += in->jobs[k].util * tk / gogh_solo(in, a, k);
    load = fmin(1, fmax(0, load));
    return ty->idle_w + (ty->max_w - ty->idle_w) * load;
}

/* What the objective charges for one accelerator running the combination. */
static double combo_cost(const gsolve *s, const combo *q)
{
    const gogh_inst *in = s->in;
    int j = s->g.rep[q->c1], k = q->c2 >= 0 ? s->g.rep[q->c2] : -1;
    switch (in->objective) {
    case GOGH_MAX_THROUGHPUT:   /* Gavel: sum of throughput / best solo, maximised */
        return -(q->t1 / s->best[j] + (k >= 0 ? q->t2 / s->best[k] : 0));
    case GOGH_MIN_COST:         /* buying the accelerator, and its energy */
        return in->types[q->a].price_usd + in->usd_per_w * q->watts;
    case GOGH_MIN_POWER:
    default:
        return q->watts;        /* eq. 2a */
    }
}

/* How many GPUs a class may use at most (D_j of each member). */
static int class_uses(const gsolve *s, int c)
{
    return s->g.count[c] * s->in->jobs[s->g.rep[c]].dmax;
}

static void add_combo(gsolve *s, size_t *cap, int a, int c1, int c2, double t1, double t2)
{
    const gogh_inst *in = s->in;
    int j = s->g.rep[c1];
    int k = c2 < 0 ? -1 : c2 == c1 ? s->g.members[s->g.first[c1] + 1] : s->g.rep[c2];
    int ub = s->cnt[a];
    if (c2 < 0)
        ub = imin(ub, class_uses(s, c1));
    else if (c2 == c1)
        ub = imin(ub, s->g.count[c1] / 2);
    else
        ub = imin(ub, imin(class_uses(s, c1), class_uses(s, c2)));
    grow_array((void **)&s->c, cap, s->nc + 1, sizeof *s->c);
    combo *q = &s->c[s->nc++];
    *q = (combo){a, c1, c2, t1, t2, combo_watts(in, a, j, t1, k, t2), 0, ub, 0};
    q->cost = combo_cost(s, q);
}

/* A combination can be part of job j's service: with its D_j - 1 other
 * GPUs at their best it reaches the minimum (a presolve: the rest are
 * dominated by never being usable). */
static int can_serve(const gsolve *s, int j, double t)
{
    const gogh_inst *in = s->in;
    if (!useful(in, j, t))
        return 0;
    return !has_minimum(in) ||
           t + (in->jobs[j].dmax - 1) * s->most[j] >= in->jobs[j].min_tput - SOLVE_EPS;
}

/* Every runnable combination, sorted by (a, c1, c2) with singles first. */
static void make_combos(gsolve *s)
{
    const gogh_inst *in = s->in;
    const gclasses *g = &s->g;
    size_t cap = 64;
    s->c = xmalloc(cap * sizeof *s->c);
    for (int a = 0; a < (int)in->ntypes; a++) {
        if (s->cnt[a] == 0)
            continue;
        for (int c1 = 0; c1 < g->n; c1++) {
            int j = g->rep[c1];
            double t = gogh_solo(in, a, j);
            if (t <= 0)
                continue;
            if (can_serve(s, j, t))
                add_combo(s, &cap, a, c1, -1, t, 0);
            if (in->types[a].theta < 2)
                continue;   /* eq. 2d */
            for (int c2 = c1; c2 < g->n; c2++) {
                if (c2 == c1 && g->count[c1] < 2)
                    continue;
                int k = c2 == c1 ? g->members[g->first[c1] + 1] : g->rep[c2];
                double tj = gogh_pair(in, a, j, k), tk = gogh_pair(in, a, k, j);
                if (tj <= 0 || tk <= 0 || gogh_solo(in, a, k) <= 0)
                    continue;
                if (can_serve(s, j, tj) && can_serve(s, k, tk))
                    add_combo(s, &cap, a, c1, c2, tj, tk);
            }
        }
    }
}

/* The column of combination (a, c1, c2), or -1 (binary search). */
static int find_combo(const gsolve *s, int a, int c1, int c2)
{
    if (c2 >= 0 && c2 < c1) {
        int t = c1;
        c1 = c2;
        c2 = t;
    }
    size_t lo = 0, hi = s->nc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const combo *q = &s->c[mid];
        int d = q->a != a ? (q->a > a) - (q->a < a)
                : q->c1 != c1 ? (q->c1 > c1) - (q->c1 < c1)
                              : (q->c2 > c2) - (q->c2 < c2);
        if (d == 0)
            return (int)mid;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ---- the model ----------------------------------------------------------------------- */

/* The rows are made first and a combination becomes a column only when
 * the search wants it (column generation below): with 256 jobs there are
 * some 30,000 combinations and the LP over all of them is slow, while the
 * LP over a few thousand, priced against the rest, has the same optimum. */

typedef struct ranked {
    double key;
    size_t q;
} ranked;

static void set_name(glp_prob *P, int col, const combo *c)
{
    char name[48];
    if (c->c2 < 0)
        snprintf(name, sizeof name, "n_%d_%d", c->a, c->c1);
    else
        snprintf(name, sizeof name, "n_%d_%d_%d", c->a, c->c1, c->c2);
    glp_set_col_name(P, col, name);
}

/* How many of class c combination q serves (two when it pairs the class). */
static int members_in(const combo *q, int c)
{
    return (q->c1 == c) + (q->c2 == c);
}

/* A member of class c's throughput in q (q serves c). */
static double tput_in(const combo *q, int c)
{
    return q->c1 == c ? q->t1 : q->t2;
}

/* The most a member of class c gets from one GPU, over every combination. */
static double best_tput(const gsolve *s, int c)
{
    double b = 0;
    for (size_t q = 0; q < s->nc; q++)
        if (members_in(&s->c[q], c))
            b = fmax(b, tput_in(&s->c[q], c));
    return b;
}

/* GPUs a member of class c needs from a combination giving it t, alone. */
static int need_for(const gogh_inst *in, int j, double t)
{
    double tbar = has_minimum(in) ? in->jobs[j].min_tput : 0;
    int need = tbar > 0 && t > 0 ? (int)ceil(tbar / t - SOLVE_EPS) : 1;
    return need < 1 ? 1 : need;
}

static int own_job(const gsolve *s, int c)
{
    return s->g.count[c] == 1;
}

/* The bounds of class c's rows: eq. 2b/2c (a class of interchangeable jobs
 * runs each member on exactly one GPU: the members count), and for a job
 * of its own that may use several GPUs, eq. 2e capped and the half row
 * (class_coefs). */
static void class_rows(gsolve *s, int c)
{
    const gogh_inst *in = s->in;
    int j = s->g.rep[c], dmax = in->jobs[j].dmax, m = s->g.count[c];
    int r = s->row_of[c] = glp_add_rows(s->P, 1);
    if (!has_minimum(in)) {
        glp_set_row_bnds(s->P, r, GLP_UP, 0, m * dmax);
    } else if (m > 1) {
        glp_set_row_bnds(s->P, r, GLP_FX, m, m);
    } else {
        double best = best_tput(s, c);
        int need = best > 0 ? need_for(in, j, best) : 1;
        glp_set_row_bnds(s->P, r, need >= dmax ? GLP_FX : GLP_DB, need, dmax);
    }
    double tbar = in->jobs[j].min_tput;
    if (!has_minimum(in) || m > 1 || dmax == 1 || tbar <= 0)
        return;     /* every combination left meets a D_j = 1 job's minimum */
    s->tput_row[c] = glp_add_rows(s->P, 1);
    glp_set_row_bnds(s->P, s->tput_row[c], GLP_LO, tbar, 0);
    s->half_row[c] = glp_add_rows(s->P, 1);
    glp_set_row_bnds(s->P, s->half_row[c], GLP_LO, 1, 0);
    s->share_row[c] = glp_add_rows(s->P, 1);
    glp_set_row_bnds(s->P, s->share_row[c], GLP_LO, 1, 0);
}

/* Class c's coefficients of q in its rows (q serves c); returns the new
 * length of ind/val. */
static int class_coefs(const gsolve *s, const combo *q, int c, int len, int *ind, double *val)
{
    double t = tput_in(q, c), tbar = s->in->jobs[s->g.rep[c]].min_tput;
    ind[++len] = s->row_of[c];
    val[len] = members_in(q, c);
    if (!s->tput_row[c])
        return len;
    ind[++len] = s->tput_row[c];                    /* eq. 2e, capped at T-bar */
    val[len] = fmin(t, tbar);
    /* Either one GPU reaching T-bar alone or at least two that do not:
     * counting the first 1 and the others 1/2 gives at least 1.  Valid for
     * integer points; the LP otherwise serves such a job on 1.2-1.5 GPUs
     * of combinations below its minimum, where whole GPUs need 2. */
    ind[++len] = s->half_row[c];
    val[len] = t >= tbar - SOLVE_EPS ? 1 : 0.5;
    /* On at most D_j GPUs, one of them gives at least T-bar / D_j. */
    if (t >= tbar / s->in->jobs[s->g.rep[c]].dmax - SOLVE_EPS) {
        ind[++len] = s->share_row[c];
        val[len] = 1;
    }
    return len;
}

static double cut_coef(const gsolve *s, const combo *q, int k);
static int in_cut(const gcut *t, int c);

/* Column q's coefficients in every row (type, classes, cuts); returns how
 * many (GLPK's 1-based ind/val). */
int gogh_column_coefs(const gsolve *s, const combo *q, int *ind, double *val)
{
    int len = 0;
    ind[++len] = q->a + 1;                          /* eq. 2f, per type */
    val[len] = 1;
    len = class_coefs(s, q, q->c1, len, ind, val);
    if (q->c2 >= 0 && q->c2 != q->c1)
        len = class_coefs(s, q, q->c2, len, ind, val);
    for (int e = 0; e < 2; e++) {
        int c = e ? q->c2 : q->c1;
        if (c < 0 || (e && c == q->c1))
            continue;
        for (int i = 0; i < s->ncuts_of[c]; i++) {
            int k = s->cuts_of[c][i];
            if (e && in_cut(&s->cuts[k], q->c1))
                continue;   /* listed under c1 as well */
            double v = cut_coef(s, q, k);
            if (v != 0) {
                ind[++len] = s->cuts[k].row;
                val[len] = v;
            }
        }
    }
    return len;
}

/* Makes combinations qs[0..n) columns of the LP (those not yet in it). */
static void add_columns(gsolve *s, const size_t *qs, size_t n)
{
    size_t fresh = 0;
    for (size_t k = 0; k < n; k++)
        fresh += s->c[qs[k]].col == 0;
    if (fresh == 0)
        return;
    int col = glp_add_cols(s->P, (int)fresh);
    int *ind = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *ind);
    double *val = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *val);
    for (size_t k = 0; k < n; k++) {
        combo *q = &s->c[qs[k]];
        if (q->col)
            continue;
        q->col = col++;
        glp_set_col_kind(s->P, q->col, GLP_IV);
        glp_set_col_bnds(s->P, q->col, q->ub > 0 ? GLP_DB : GLP_FX, 0, q->ub);
        glp_set_obj_coef(s->P, q->col, q->cost);    /* eq. 2a */
        if (s->names)
            set_name(s->P, q->col, q);
        glp_set_mat_col(s->P, q->col, gogh_column_coefs(s, q, ind, val), ind, val);
    }
    free(ind);
    free(val);
}

/* Makes every combination with x[q] > 0 a column. */
static void add_used(gsolve *s, const double *x)
{
    size_t *qs = xmalloc((s->nc + 1) * sizeof *qs), n = 0;
    for (size_t q = 0; q < s->nc; q++)
        if (x[q] > 0.5)
            qs[n++] = q;
    add_columns(s, qs, n);
    free(qs);
}

/* The whole model when it is small or is to be written out; else the
 * singles and, for every class, the few pairs cheapest per job served. */
#define FULL_MODEL_COLS 3000
#define PAIRS_PER_CLASS 6

static int cmp_ranked(const void *a, const void *b);

static void initial_columns(gsolve *s)
{
    size_t *qs = xmalloc((s->nc + 1) * sizeof *qs), n = 0;
    if (s->nc <= FULL_MODEL_COLS || s->names) {
        for (size_t q = 0; q < s->nc; q++)
            qs[n++] = q;
    } else {
        ranked *r = xmalloc((s->nc + 1) * sizeof *r);
        size_t np = 0;
        for (size_t q = 0; q < s->nc; q++) {
            if (s->c[q].c2 < 0)
                qs[n++] = q;
            else
                r[np++] = (ranked){s->c[q].cost / 2, q};
        }
        qsort(r, np, sizeof *r, cmp_ranked);
        int *taken = xcalloc((size_t)(s->g.n ? s->g.n : 1), sizeof *taken);
        for (size_t k = 0; k < np; k++) {
            const combo *cq = &s->c[r[k].q];
            if (taken[cq->c1] >= PAIRS_PER_CLASS && taken[cq->c2] >= PAIRS_PER_CLASS)
                continue;
            taken[cq->c1]++;
            taken[cq->c2]++;
            qs[n++] = r[k].q;
        }
        free(taken);
        free(r);
    }
    add_columns(s, qs, n);
    free(qs);
}

static void build_model(gsolve *s)
{
    glp_prob *P = s->P = glp_create_prob();
    glp_set_prob_name(P, "gogh_problem1");
    glp_set_obj_dir(P, GLP_MIN);
    int A = (int)s->in->ntypes;
    if (A > 0)
        glp_add_rows(P, A);
    for (int a = 0; a < A; a++)                     /* eq. 2f, per type */
        glp_set_row_bnds(P, a + 1, GLP_UP, 0, s->cnt[a]);
    size_t C = (size_t)(s->g.n ? s->g.n : 1);
    s->row_of = xcalloc(C, sizeof *s->row_of);
    s->tput_row = xcalloc(C, sizeof *s->tput_row);
    s->half_row = xcalloc(C, sizeof *s->half_row);
    s->share_row = xcalloc(C, sizeof *s->share_row);
    for (int c = 0; c < s->g.n; c++)
        class_rows(s, c);
    initial_columns(s);
}

/* 1 when x (a count per combination) is integral, within its bounds and
 * satisfies eq. 2b-2f (checked from the data, not the LP). */
static int satisfies(const gsolve *s, const double *x)
{
    const gogh_inst *in = s->in;
    int A = (int)in->ntypes, C = s->g.n, ok = 1;
    int *used = xcalloc((size_t)(A + 1), sizeof *used);
    int *runs = xcalloc((size_t)(C + 1), sizeof *runs);
    double *got = xcalloc((size_t)(C + 1), sizeof *got);
    for (size_t q = 0; q < s->nc && ok; q++) {
        const combo *cq = &s->c[q];
        double v = x[q];
        if (v < -SOLVE_EPS || v > cq->ub + SOLVE_EPS || fabs(v - round(v)) > SOLVE_EPS)
            ok = 0;
        int n = (int)lround(v);
        used[cq->a] += n;
        runs[cq->c1] += n * members_in(cq, cq->c1);
        got[cq->c1] += n * cq->t1;
        if (cq->c2 >= 0 && cq->c2 != cq->c1) {
            runs[cq->c2] += n;
            got[cq->c2] += n * cq->t2;
        }
    }
    for (int a = 0; a < A && ok; a++)
        ok = used[a] <= s->cnt[a];
    for (int c = 0; c < C && ok; c++) {
        const gogh_job *j = &in->jobs[s->g.rep[c]];
        int m = s->g.count[c];
        if (!has_minimum(in))
            ok = runs[c] <= m * j->dmax;
        else if (m > 1)
            ok = runs[c] == m;
        else
            ok = runs[c] >= 1 && runs[c] <= j->dmax && got[c] >= j->min_tput - 1e-7;
    }
    free(used);
    free(runs);
    free(got);
    return ok;
}

static double cost_of(const gsolve *s, const double *x)
{
    double z = 0;
    for (size_t q = 0; q < s->nc; q++)
        z += s->c[q].cost * x[q];
    return z;
}

/* ---- starting solutions -------------------------------------------------------------- */

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

/* What the greedy knows of a class: GPUs it may still take (D_j left, or
 * members left for interchangeable jobs) and, for a job of its own class
 * under a minimum, the throughput it still lacks. */
typedef struct gstate {
    int *room;
    double *lack;
    unsigned char *ran;     /* a job of its own class runs somewhere */
} gstate;

/* GPUs one copy of q needs for class c's sake (0 = c wants no more). */
static int gpus_for(const gsolve *s, const gstate *st, const combo *q, int c)
{
    if (!own_job(s, c) || !has_minimum(s->in))
        return 1;
    if (st->ran[c] && st->lack[c] <= SOLVE_EPS)
        return 0;
    double t = tput_in(q, c);
    int need = st->lack[c] > SOLVE_EPS ? (int)ceil(st->lack[c] / t - SOLVE_EPS) : 1;
    return imax(need, 1);
}

/* Room class c gives up for per GPUs of q. */
static int takes(const gsolve *s, const combo *q, int c, int per)
{
    return own_job(s, c) ? per : per * members_in(q, c);
}

static void take(const gsolve *s, gstate *st, const combo *q, int per, double *x)
{
    x[q - s->c] += per;
    for (int k = 0; k < 2; k++) {
        int c = k ? q->c2 : q->c1;
        if (c < 0 || (k && q->c2 == q->c1))
            continue;
        st->room[c] -= takes(s, q, c, per);
        st->lack[c] -= per * tput_in(q, c);
        st->ran[c] = 1;
    }
}

/* How many GPUs the next copy of q takes, 0 when it cannot run. */
static int copy_size(const gsolve *s, const gstate *st, const combo *q, const int *left,
                     const double *x)
{
    int per = gpus_for(s, st, q, q->c1);
    if (q->c2 >= 0 && q->c2 != q->c1) {
        int p2 = gpus_for(s, st, q, q->c2);
        per = per && p2 ? imax(per, p2) : 0;
    }
    if (per == 0 || left[q->a] < per || x[q - s->c] + per > q->ub + SOLVE_EPS)
        return 0;
    if (st->room[q->c1] < takes(s, q, q->c1, per))
        return 0;
    if (q->c2 >= 0 && q->c2 != q->c1 && st->room[q->c2] < takes(s, q, q->c2, per))
        return 0;
    return per;
}

/* Completes x greedily: combinations by cost per job served (pairs first
 * when cheaper per job; for the throughput objective, most value per GPU;
 * or by the given keys), each taken while its jobs still need it, on as
 * many GPUs as its neediest job requires (within D_j and what is left of
 * the type). */
static void greedy_fill(const gsolve *s, const double *key, double *x)
{
    const gogh_inst *in = s->in;
    int A = (int)in->ntypes, C = s->g.n;
    size_t c1 = (size_t)(C ? C : 1);
    gstate st = {xmalloc(c1 * sizeof *st.room), xcalloc(c1, sizeof *st.lack), xcalloc(c1, 1)};
    int *left = xmalloc((size_t)(A ? A : 1) * sizeof *left);
    ranked *r = xmalloc((s->nc ? s->nc : 1) * sizeof *r);
    for (int a = 0; a < A; a++)
        left[a] = s->cnt[a];
    for (int c = 0; c < C; c++) {
        int j = s->g.rep[c];
        st.room[c] = own_job(s, c) ? in->jobs[j].dmax : s->g.count[c];
        st.lack[c] = has_minimum(in) ? in->jobs[j].min_tput : 0;
    }
    for (size_t q = 0; q < s->nc; q++) {
        const combo *cq = &s->c[q];
        int v = (int)lround(x[q]);
        left[cq->a] -= v;
        x[q] = 0;
        if (v > 0)
            take(s, &st, cq, v, x);
        double k = key ? key[q] : cq->cost;
        int need = need_for(in, s->g.rep[cq->c1], cq->t1);
        if (cq->c2 >= 0)
            need = imax(need, need_for(in, s->g.rep[cq->c2], cq->t2));
        r[q] = (ranked){has_minimum(in) ? need * k / (cq->c2 >= 0 ? 2 : 1) : k, q};
    }
    qsort(r, s->nc, sizeof *r, cmp_ranked);
    for (size_t k = 0; k < s->nc; k++) {
        const combo *cq = &s->c[r[k].q];
        int per;
        while ((per = copy_size(s, &st, cq, left, x)) > 0) {
            take(s, &st, cq, per, x);
            left[cq->a] -= per;
        }
    }
    free(left);
    free(st.room);
    free(st.lack);
    free(st.ran);
    free(r);
}

/* The given assignment (o->start: jobs on accelerators, e.g. the previous
 * round's) as column values: each accelerator's one or two jobs name a
 * combination; entries out of range, accelerators with more than two jobs
 * and combinations the model does not have are left out. */
static void start_from_places(const gsolve *s, const solve_place *pl, size_t n, double *x)
{
    const gogh_inst *in = s->in;
    int *on = xmalloc(2 * (in->naccels ? in->naccels : 1) * sizeof *on);
    int *k = xcalloc(in->naccels ? in->naccels : 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        int g = pl[i].gpu, j = pl[i].task;
        if (g < 0 || (size_t)g >= in->naccels || j < 0 || (size_t)j >= in->njobs)
            continue;
        if ((k[g] >= 1 && on[2 * g] == j) || (k[g] >= 2 && on[2 * g + 1] == j))
            continue;   /* listed twice */
        if (k[g] < 2)
            on[2 * g + k[g]] = j;
        k[g]++;         /* three or more: not a combination */
    }
    for (size_t g = 0; g < in->naccels; g++) {
        if (k[g] < 1 || k[g] > 2)
            continue;
        int c1 = s->g.of[on[2 * g]], c2 = k[g] == 2 ? s->g.of[on[2 * g + 1]] : -1;
        int q = find_combo(s, in->accels[g].type, c2 >= 0 ? imin(c1, c2) : c1,
                           c2 >= 0 ? imax(c1, c2) : -1);
        if (q >= 0 && x[q] < s->c[q].ub)
            x[q] += 1;
    }
    free(on);
    free(k);
}

/* The best start: the given assignment completed greedily, else the greedy
 * alone; NULL when neither satisfies the model. */
static double *make_start(const gsolve *s, const solve_opts *o)
{
    double *x = xcalloc(s->nc + 1, sizeof *x);
    double *best = NULL;
    if (o->start && o->nstart) {
        start_from_places(s, o->start, o->nstart, x);
        greedy_fill(s, NULL, x);
        if (satisfies(s, x)) {
            best = x;
            x = xcalloc(s->nc + 1, sizeof *x);
        } else {
            memset(x, 0, (s->nc + 1) * sizeof *x);
        }
    }
    greedy_fill(s, NULL, x);
    if (satisfies(s, x) && (!best || cost_of(s, x) < cost_of(s, best) - SOLVE_EPS)) {
        free(best);
        return x;
    }
    free(x);
    return best;
}

/* ---- the LP: column generation and cuts ----------------------------------------------- */

/* Odd-set cuts.  Each job of its own class needs at least one combination
 * and a combination holds at most two jobs, so any odd set S of such jobs
 * is touched by at least (|S| + 1) / 2 combinations:
 *     sum of n_q over combinations q holding a job of S >= (|S| + 1) / 2,
 * which, for jobs with D_j = 1 (exactly one combination each), is the same
 * as x(pairs within S) <= (|S| - 1) / 2, the blossom inequality of the
 * matching polytope (the packing form used then).  The LP relaxation
 * otherwise pairs three jobs with weight 1/2 each (a fractional triangle:
 * 1.5 GPUs where 2 are needed).  Triangles are separated exactly, a few
 * hundred cuts a round; sets of five and seven grown greedily from each
 * job were tried and left out: violated now and then, they moved no root
 * LP at 64 or 128 random jobs (six instances) by a hundredth of a watt. */
#define CUT_ROUNDS 12
#define CUTS_PER_ROUND 400

static int in_cut(const gcut *t, int c)
{
    if (c < 0)
        return 0;
    for (int e = 0; e < t->n; e++)
        if (t->c[e] == c)
            return 1;
    return 0;
}

/* Throughput cuts, for a job of its own class on at most two GPUs (D_j =
 * 2) with minimum T-bar: it runs either one combination giving it at
 * least T-bar, or two giving t_q + t_r >= T-bar.  So for any shift d below
 * T-bar / 2, with a_q = 1 when t_q >= T-bar and otherwise
 *     a_q = (t_q - d) / (T-bar - 2 d), clamped to [0, 1],
 * every solution has sum of a_q n_q >= 1 (a pair's a_q + a_r is at least
 * (T-bar - 2 d) / (T-bar - 2 d) before clamping, which only raises a
 * negative one or caps a term at 1 on its own).  d = 0 is eq. 2e, d
 * towards T-bar / 2 the fair-share row, d towards minus infinity the half
 * row; in between the LP was found running such jobs on several partial
 * combinations that add up to T-bar only fractionally (64 random jobs:
 * 31 of the root's 32 fractional columns hold a D_j = 2 job, none in a
 * violated odd set).  They raise the root LP of 128 random jobs by 8.6,
 * 7.9 and 2.0 W (seeds 0-2; GLPK's own root cuts add some 90 W later);
 * proving 64 such jobs took a quarter to a third less CPU on seeds 0 and
 * 2 (6.4 -> 5.0 s, 9.6 -> 6.1 s), more on the easy seed 1 (0.6 -> 1.7
 * s).  T-bar is taken a hair smaller (TPUT_CUT_EPS
 * relative) so that a solution meeting it within satisfies()'s tolerance
 * stays. */
#define TPUT_CUT_EPS 1e-6

static double tput_cut_coef(double t, double tbar, double d)
{
    double tb = tbar * (1 - TPUT_CUT_EPS);
    if (t >= tb)
        return 1;
    double a = (t - d) / (tb - 2 * d);
    return a < 0 ? 0 : a > 1 ? 1 : a;
}

/* Combination q's coefficient in cut k. */
static double cut_coef(const gsolve *s, const combo *q, int k)
{
    const gcut *t = &s->cuts[k];
    if (t->n == 1)
        return members_in(q, t->c[0]) ? tput_cut_coef(tput_in(q, t->c[0]),
                                                        s->in->jobs[s->g.rep[t->c[0]]].min_tput,
                                                        t->shift)
                                      : 0;
    int inside = in_cut(t, q->c1) + (q->c2 != q->c1 && in_cut(t, q->c2));
    return t->packing ? inside == 2 : inside > 0;
}

static int cmp_cut(const void *a, const void *b)
{
    double x = ((const gcut *)a)->viol, y = ((const gcut *)b)->viol;
    return (x < y) - (x > y);
}

/* LP weight on pairs of jobs of their own classes (dense, C x C). */
static double *pair_weights(const gsolve *s)
{
    size_t C = (size_t)s->g.n;
    double *w = xcalloc(C * C + 1, sizeof *w);
    for (size_t q = 0; q < s->nc; q++) {
        const combo *c = &s->c[q];
        if (!c->col || c->c2 < 0 || !own_job(s, c->c1) || !own_job(s, c->c2))
            continue;
        double v = glp_get_col_prim(s->P, c->col);
        w[(size_t)c->c1 * C + (size_t)c->c2] += v;
        w[(size_t)c->c2 * C + (size_t)c->c1] += v;
    }
    return w;
}

/* Cut t as a row over the LP's columns (columns added later get their
 * coefficient from gogh_column_coefs). */
static void add_cut(gsolve *s, gcut t, int *ind, double *val)
{
    t.packing = t.n > 1;
    for (int e = 0; e < t.n; e++)
        t.packing &= s->in->jobs[s->g.rep[t.c[e]]].dmax == 1;
    t.row = glp_add_rows(s->P, 1);
    if (t.n == 1)
        glp_set_row_bnds(s->P, t.row, GLP_LO, 1, 0);
    else if (t.packing)
        glp_set_row_bnds(s->P, t.row, GLP_UP, 0, (t.n - 1) / 2);
    else
        glp_set_row_bnds(s->P, t.row, GLP_LO, (t.n + 1) / 2, 0);
    grow_array((void **)&s->cuts, &s->cuts_cap, (size_t)s->ncuts + 1, sizeof *s->cuts);
    s->cuts[s->ncuts++] = t;
    for (int e = 0; e < t.n; e++) {
        int c = t.c[e];
        grow_array((void **)&s->cuts_of[c], &s->cuts_of_cap[c], (size_t)s->ncuts_of[c] + 1,
                   sizeof **s->cuts_of);
        s->cuts_of[c][s->ncuts_of[c]++] = s->ncuts - 1;
    }
    int len = 0;
    for (size_t q = 0; q < s->nc; q++) {
        double v = s->c[q].col ? cut_coef(s, &s->c[q], s->ncuts - 1) : 0;
        if (v != 0) {
            ind[++len] = s->c[q].col;
            val[len] = v;
        }
    }
    glp_set_mat_row(s->P, t.row, len, ind, val);
}

/* The violated cuts found so far. */
typedef struct cutlist {
    gcut *t;
    size_t n, cap;
} cutlist;

/* Adds set S (n classes) to the list when its combinations touch it fewer
 * than (n + 1) / 2 times. */
static void offer_cut(cutlist *l, const int *S, int n, double touch)
{
    double viol = (n + 1) / 2 - touch;
    if (viol < 1e-4)
        return;
    gcut t = {{0}, n, viol, 0, 0, 0};
    memcpy(t.c, S, (size_t)n * sizeof *S);
    grow_array((void **)&l->t, &l->cap, l->n + 1, sizeof *l->t);
    l->t[l->n++] = t;
}

/* Every triangle of the LP's pairs: exact (C times the square of the
 * degree, a few milliseconds at 128 jobs). */
static void triangles(const double *w, const double *act, int C, int *adj, cutlist *l)
{
    for (int u = 0; u < C; u++) {
        int na = 0;
        for (int v = u + 1; v < C; v++)
            if (w[(size_t)u * (size_t)C + (size_t)v] > 1e-6)
                adj[na++] = v;
        for (int x = 0; x < na; x++)
            for (int y = x + 1; y < na; y++) {
                int S[3] = {u, adj[x], adj[y]};
                double within = w[(size_t)u * (size_t)C + (size_t)S[1]] +
                                w[(size_t)u * (size_t)C + (size_t)S[2]] +
                                w[(size_t)S[1] * (size_t)C + (size_t)S[2]];
                offer_cut(l, S, 3, act[u] + act[S[1]] + act[S[2]] - within);
            }
    }
}

/* The most violated throughput cut of class c at the LP solution, if
 * any: the sum over the shifts is piecewise monotone between the points
 * where a term reaches 0 or 1, so those are the shifts tried. */
static void tput_cut_of(const gsolve *s, int c, cutlist *l)
{
    double tbar = s->in->jobs[s->g.rep[c]].min_tput, tb = tbar * (1 - TPUT_CUT_EPS);
    size_t n = 0, cap = 16;
    double *t = xmalloc(cap * sizeof *t), *v = xmalloc(cap * sizeof *v);
    for (size_t q = 0; q < s->nc; q++) {
        const combo *cq = &s->c[q];
        double x = cq->col && members_in(cq, c) ? glp_get_col_prim(s->P, cq->col) : 0;
        if (x <= 1e-9)
            continue;
        if (n == cap) {
            cap *= 2;
            t = xrealloc(t, cap * sizeof *t);
            v = xrealloc(v, cap * sizeof *v);
        }
        t[n] = tput_in(cq, c);
        v[n++] = x;
    }
    double best = 1 - 1e-4, best_d = 0;
    for (size_t k = 0; k < 2 * n; k++) {
        double d = k < n ? t[k] : tb - t[k - n];
        if (d >= tb * 0.49)
            continue;
        double lhs = 0;
        for (size_t e = 0; e < n; e++)
            lhs += v[e] * tput_cut_coef(t[e], tbar, d);
        if (lhs < best) {
            best = lhs;
            best_d = d;
        }
    }
    if (best < 1 - 1e-4) {
        grow_array((void **)&l->t, &l->cap, l->n + 1, sizeof *l->t);
        l->t[l->n++] = (gcut){{c}, 1, 1 - best, 0, 0, best_d};
    }
    free(t);
    free(v);
}

/* One round: the most violated odd sets of the current LP solution become
 * rows; returns how many.  A set's combinations touch it sum of r_j over
 * its jobs less x(pairs within) times, r the jobs' row activities. */
static int separate(gsolve *s)
{
    int C = s->g.n;
    double *w = pair_weights(s);
    double *act = xcalloc((size_t)(C ? C : 1), sizeof *act);
    for (int c = 0; c < C; c++)
        act[c] = glp_get_row_prim(s->P, s->row_of[c]);
    int *adj = xmalloc((size_t)(C ? C : 1) * sizeof *adj);
    cutlist l = {NULL, 0, 0};
    triangles(w, act, C, adj, &l);
    for (int c = 0; c < C; c++)
        if (s->tput_row[c] && s->in->jobs[s->g.rep[c]].dmax == 2)
            tput_cut_of(s, c, &l);
    if (l.n)
        qsort(l.t, l.n, sizeof *l.t, cmp_cut);
    int add = (int)(l.n < CUTS_PER_ROUND ? l.n : CUTS_PER_ROUND);
    int *ind = xmalloc((s->nc + 2) * sizeof *ind);
    double *val = xmalloc((s->nc + 2) * sizeof *val);
    for (int k = 0; k < add; k++)
        add_cut(s, l.t[k], ind, val);
    free(ind);
    free(val);
    free(l.t);
    free(adj);
    free(act);
    free(w);
    return add;
}

/* One simplex run from the last basis: the primal after columns were
 * added, the dual after rows or bounds; 0 optimal, 1 infeasible, -1 time
 * or failure. */
static int simplex(const gsolve *s, sg_ctx *c, int dual)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.meth = dual ? GLP_DUALP : GLP_PRIMAL;
    if (sg_simplex(c, s->P, &sp) != 0)
        return -1;
    int st = glp_get_status(s->P);
    return st == GLP_OPT ? 0 : st == GLP_NOFEAS ? 1 : -1;
}

/* Reduced cost of every combination under the LP's row duals (GLPK's
 * d_j = c_j - sum_i a_ij pi_i), in the LP or not. */
static void price(const gsolve *s, double *rc)
{
    int *ind = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *ind);
    double *val = xmalloc((size_t)(10 + 2 * s->ncuts) * sizeof *val);
    int m = glp_get_num_rows(s->P);
    double *pi = xmalloc(((size_t)m + 1) * sizeof *pi);
    for (int i = 1; i <= m; i++)
        pi[i] = glp_get_row_dual(s->P, i);
    for (size_t q = 0; q < s->nc; q++) {
        int len = gogh_column_coefs(s, &s->c[q], ind, val);
        double d = s->c[q].cost;
        for (int k = 1; k <= len; k++)
            d -= val[k] * pi[ind[k]];
        rc[q] = d;
    }
    free(pi);
    free(ind);
    free(val);
}

/* The LP over every combination: solve over the columns, price the rest,
 * add the most negative (a few per class), repeat.  rc gets every
 * combination's reduced cost at the end.  0 optimal, 1 infeasible, -1 out
 * of time. */
static int priced_lp(gsolve *s, sg_ctx *c, int dual, double *rc)
{
    size_t *qs = xmalloc((s->nc + 1) * sizeof *qs);
    ranked *r = xmalloc((s->nc + 1) * sizeof *r);
    size_t most = (size_t)(2 * s->g.n + 50);
    int st;
    while ((st = simplex(s, c, dual)) >= 0) {
        if (st == 1) {
            /* infeasible over these columns: only all of them can tell */
            size_t n = 0;
            for (size_t q = 0; q < s->nc; q++)
                if (!s->c[q].col)
                    qs[n++] = q;
            if (n == 0)
                break;
            add_columns(s, qs, n);
            dual = 0;
            continue;
        }
        price(s, rc);
        size_t n = 0;
        for (size_t q = 0; q < s->nc; q++)
            if (!s->c[q].col && s->c[q].ub > 0 && rc[q] < -1e-7 * (1 + fabs(s->c[q].cost)))
                r[n++] = (ranked){rc[q], q};
        if (n == 0)
            break;
        qsort(r, n, sizeof *r, cmp_ranked);
        n = n < most ? n : most;
        for (size_t k = 0; k < n; k++)
            qs[k] = r[k].q;
        add_columns(s, qs, n);
        dual = 0;
    }
    free(qs);
    free(r);
    return st;
}

/* The LP relaxation over every combination, strengthened by rounds of
 * triangle cuts while they raise it and time allows; *lb gets its value
 * and rc every combination's reduced cost.  Returns 1 when the LP is
 * infeasible, -1 when it could not be solved (time), else 0. */
static int root_lp(gsolve *s, sg_ctx *c, double *lb, double *rc)
{
    int st = priced_lp(s, c, 0, rc);
    if (st != 0)
        return st;
    *lb = glp_get_obj_val(s->P);
    for (int round = 0; has_minimum(s->in) && round < CUT_ROUNDS && sg_should_stop(c) < 0;
         round++) {
        if (separate(s) == 0 || priced_lp(s, c, 1, rc) != 0)
            break;
        double v = glp_get_obj_val(s->P);
        int little = v - *lb < 1e-4 * fabs(v);
        *lb = fmax(*lb, v);
        if (little)
            break;
    }
    return priced_lp(s, c, 1, rc) == 0 ? 0 : -1;
}

/* ---- the cuts, for the tests --------------------------------------------------------- */

static void gsolve_init(gsolve *s, const gogh_inst *in, int names);
static void gsolve_free(gsolve *s);

/* The model of in with the root LP's cuts, for a test to check integer
 * points against them; NULL when the LP did not solve. */
gsolve *gogh_cuts_new(const gogh_inst *in)
{
    gsolve *s = xmalloc(sizeof *s);
    gsolve_init(s, in, 0);
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx sc;
    sg_begin(&sc, &o);
    double lb, *rc = xmalloc((s->nc + 1) * sizeof *rc);
    int r = s->nc ? root_lp(s, &sc, &lb, rc) : 1;
    free(rc);
    if (r != 0) {
        gogh_cuts_free(s);
        return NULL;
    }
    return s;
}

/* The least slack over the cuts of the assignment job1/job2 (per
 * accelerator: its jobs, -1 for none), negative when one cuts it off;
 * -HUGE_VAL when a GPU's jobs make no combination of the model. */
double gogh_cuts_slack(const gsolve *s, const int *job1, const int *job2)
{
    const gogh_inst *in = s->in;
    double least = HUGE_VAL;
    for (int k = 0; k < s->ncuts; k++) {
        const gcut *t = &s->cuts[k];
        double lhs = 0;
        for (size_t g = 0; g < in->naccels; g++) {
            if (job1[g] < 0)
                continue;
            int c1 = s->g.of[job1[g]], c2 = job2[g] < 0 ? -1 : s->g.of[job2[g]];
            int q = find_combo(s, in->accels[g].type, c1, c2);
            if (q < 0)
                return -HUGE_VAL;
            lhs += cut_coef(s, &s->c[q], k);
        }
        double slack = t->n == 1 ? lhs - 1
                     : t->packing ? (t->n - 1) / 2 - lhs : lhs - (t->n + 1) / 2;
        least = fmin(least, slack);
    }
    return least;
}

int gogh_cuts_count(const gsolve *s)
{
    return s->ncuts;
}

void gogh_cuts_free(gsolve *s)
{
    if (s) {
        gsolve_free(s);
        free(s);
    }
}

/* ---- the search ------------------------------------------------------------------------ */

/* The LP solution, per combination (0 off the LP). */
static double lp_value(const gsolve *s, size_t q)
{
    return s->c[q].col ? glp_get_col_prim(s->P, s->c[q].col) : 0;
}

static double *lp_values(const gsolve *s)
{
    double *v = xmalloc((s->nc + 1) * sizeof *v);
    for (size_t q = 0; q < s->nc; q++)
        v[q] = lp_value(s, q);
    return v;
}

/* Keeps y when it satisfies the model and beats *ub (takes y either way). */
void gogh_offer_solution(const gsolve *s, double *y, double **x, double *ub)
{
    if (satisfies(s, y) && (!isfinite(*ub) || cost_of(s, y) < *ub - SOLVE_EPS)) {
        free(*x);
        *x = y;
        *ub = cost_of(s, y);
    } else {
        free(y);
    }
}

/* The LP's whole parts completed greedily (a solution at once, if poor). */
static void round_down(const gsolve *s, double **x, double *ub)
{
    double *y = xcalloc(s->nc + 1, sizeof *y);
    for (size_t q = 0; q < s->nc; q++)
        y[q] = floor(lp_value(s, q) + 1e-6);
    greedy_fill(s, NULL, y);
    gogh_offer_solution(s, y, x, ub);
}

/* ---- local search: exchanges between GPUs ---- */

/* Jobs with D_j = 1 each run on exactly one GPU, and every combination
 * left for them meets their minimum, so the jobs of any two GPUs may be
 * re-paired, a pair split over two GPUs or two singles merged, and any
 * GPU's combination moved to another type, without touching a row but
 * the types' counts.  Takes every such exchange that lowers the cost,
 * until none does (the dive and the restricted MILP leave 1-3 % here). */
typedef struct xstate {
    gsolve *s;
    double *x;
    int *used;              /* [A] GPUs of each type in use */
} xstate;

static int single_gpu(const gsolve *s, int c)
{
    return c < 0 || s->in->jobs[s->g.rep[c]].dmax == 1;
}

/* The cheapest type for classes (c1, c2) (c2 < 0: alone) with a GPU free
 * once the GPUs of `freed` (two types, -1 = none) are given back; its
 * combination, or -1. */
static int cheapest_home(const xstate *st, int c1, int c2, const int *freed)
{
    const gsolve *s = st->s;
    int best = -1;
    for (int a = 0; a < (int)s->in->ntypes; a++) {
        int room = s->cnt[a] - st->used[a] + (freed[0] == a) + (freed[1] == a);
        if (room < 1)
            continue;
        int q = c2 >= 0 ? find_combo(s, a, imin(c1, c2), imax(c1, c2)) : find_combo(s, a, c1, -1);
        if (q >= 0 && s->c[q].ub > st->x[q] && (best < 0 || s->c[q].cost < s->c[best].cost))
            best = q;
    }
    return best;
}

/* Replaces GPUs running q1 and q2 (q2 < 0: only q1) by r1 and r2 (r2 < 0:
 * one GPU) when that is cheaper and the types have room; 1 when done. */
static int exchange(xstate *st, int q1, int q2, int c1, int c2, int d1, int d2)
{
    const gsolve *s = st->s;
    int freed[2] = {s->c[q1].a, q2 >= 0 ? s->c[q2].a : -1};
    int r1 = cheapest_home(st, c1, c2, freed);
    if (r1 < 0)
        return 0;
    int r2 = -1;
    if (d1 >= 0) {
        st->used[s->c[r1].a]++;     /* r2 must find room besides r1 */
        r2 = cheapest_home(st, d1, d2, freed);
        st->used[s->c[r1].a]--;
        if (r2 < 0)
            return 0;
    }
    double before = s->c[q1].cost + (q2 >= 0 ? s->c[q2].cost : 0);
    double after = s->c[r1].cost + (r2 >= 0 ? s->c[r2].cost : 0);
    if (after >= before - 1e-9 * (1 + fabs(before)))
        return 0;
    int out[2] = {q1, q2}, in_[2] = {r1, r2};
    for (int k = 0; k < 2; k++) {
        if (out[k] >= 0) {
            st->x[out[k]] -= 1;
            st->used[s->c[out[k]].a]--;
        }
        if (in_[k] >= 0) {
            st->x[in_[k]] += 1;
            st->used[s->c[in_[k]].a]++;
        }
    }
    return 1;
}

/* Every exchange between the GPUs of q1 and q2 (the same combination
 * twice when it runs on two GPUs); 1 when one was taken. */
static int improve_pair(xstate *st, int q1, int q2)
{
    const combo *a = &st->s->c[q1], *b = &st->s->c[q2];
    if (q1 == q2 && st->x[q1] < 1.5)
        return 0;
    int j = a->c1, k = a->c2, l = b->c1, m = b->c2;
    if (k >= 0 && m >= 0)                           /* re-pair the four jobs */
        return exchange(st, q1, q2, j, l, k, m) || exchange(st, q1, q2, j, m, k, l);
    if (k < 0 && m < 0)                             /* merge two singles */
        return exchange(st, q1, q2, j, l, -1, -1);
    if (k < 0)                                      /* a single joins a pair */
        return exchange(st, q1, q2, j, l, m, -1) || exchange(st, q1, q2, j, m, l, -1);
    return exchange(st, q1, q2, l, j, k, -1) || exchange(st, q1, q2, l, k, j, -1);
}

/* One GPU on its own: a cheaper type, or a pair split over two GPUs. */
static int improve_one(xstate *st, int q)
{
    const combo *a = &st->s->c[q];
    return exchange(st, q, -1, a->c1, a->c2, -1, -1) ||
           (a->c2 >= 0 && exchange(st, q, -1, a->c1, -1, a->c2, -1));
}

void gogh_local_search(gsolve *s, sg_ctx *c, double **x, double *ub)
{
    if (!*x || !has_minimum(s->in))
        return;
    double *y = xmalloc((s->nc + 1) * sizeof *y);
    memcpy(y, *x, (s->nc + 1) * sizeof *y);
    xstate st = {s, y, xcalloc(s->in->ntypes + 1, sizeof *st.used)};
    size_t *on = xmalloc((s->nc + 1) * sizeof *on);
    for (int pass = 0, better = 1; better && pass < 50 && sg_should_stop(c) < 0; pass++) {
        size_t n = 0;
        memset(st.used, 0, (s->in->ntypes + 1) * sizeof *st.used);
        for (size_t q = 0; q < s->nc; q++) {
            st.used[s->c[q].a] += (int)lround(y[q]);
            if (y[q] > 0.5 && single_gpu(s, s->c[q].c1) && single_gpu(s, s->c[q].c2))
                on[n++] = q;
        }
        better = 0;
        for (size_t u = 0; u < n && !better; u++) {
            better = y[on[u]] > 0.5 && improve_one(&st, (int)on[u]);
            for (size_t v = u; v < n && !better; v++)
                better = y[on[u]] > 0.5 && y[on[v]] > 0.5 && improve_pair(&st, (int)on[u],
                                                                          (int)on[v]);
        }
    }
    free(on);
    free(st.used);
    gogh_offer_solution(s, y, x, ub);
}

static void set_lower(const gsolve *s, int col, double lo)
{
    double hi = glp_get_col_ub(s->P, col);
    glp_set_col_bnds(s->P, col, lo >= hi ? GLP_FX : GLP_DB, lo, hi);
}

/* LP diving: hold the columns the LP already runs at their whole parts
 * (lower bounds), round the most decided fraction up, re-solve with the
 * dual simplex from the last basis, and repeat until the LP is integral —
 * a solution.  When rounding up makes the LP infeasible, that column is
 * rounded down instead (one step back).  Columns stay as they are (no
 * pricing: a heuristic); bounds are restored. */
static void dive(gsolve *s, sg_ctx *c, double **x, double *ub)
{
    for (int iter = 0; iter < 4000 && sg_should_stop(c) < 0; iter++) {
        int best = -1;
        double best_f = 0;
        for (size_t q = 0; q < s->nc; q++) {
            int col = s->c[q].col;
            if (!col)
                continue;
            double v = glp_get_col_prim(s->P, col), f = v - floor(v + 1e-6);
            if (f > 1e-6 && f < 1 - 1e-6 && f > best_f) {
                best_f = f;
                best = col;
            }
            if (floor(v + 1e-6) > glp_get_col_lb(s->P, col) + 0.5)
                set_lower(s, col, floor(v + 1e-6));
        }
        if (best < 0) {
            double *y = xcalloc(s->nc + 1, sizeof *y);
            for (size_t q = 0; q < s->nc; q++)
                y[q] = round(lp_value(s, q));
            gogh_offer_solution(s, y, x, ub);
            break;
        }
        double v = glp_get_col_prim(s->P, best), lo = glp_get_col_lb(s->P, best);
        set_lower(s, best, ceil(v));
        if (simplex(s, c, 1) == 0)
            continue;
        glp_set_col_bnds(s->P, best, floor(v) <= lo ? GLP_FX : GLP_DB, lo, floor(v));
        if (simplex(s, c, 1) != 0)
            break;
    }
    for (size_t q = 0; q < s->nc; q++)
        if (s->c[q].col)
            glp_set_col_bnds(s->P, s->c[q].col, s->c[q].ub > 0 ? GLP_DB : GLP_FX, 0,
                             s->c[q].ub);
}

/* The options of a stage given `seconds` on the clock the solve keeps
 * (wall time, or work under a work limit), within the solve's own limit,
 * stopping at relative gap `gap`. */
void gogh_stage_opts(const sg_ctx *c, double seconds, double gap, solve_opts *sub)
{
    *sub = *c->o;
    double used = sg_elapsed(c);
    double *limit = sub->work_limit_s > 0 ? &sub->work_limit_s : &sub->time_limit_s;
    if (seconds > 0 && (*limit <= 0 || used + seconds < *limit))
        *limit = used + seconds;
    sub->mip_gap = gap;
}

/* Runs branch and bound on the LP's columns within `seconds` (and the
 * solve's own limit), from start x (may be NULL); improves x / *ub when it
 * finds better.  Fills m (status, bound).  -1 on a GLPK failure. */
static int branch(gsolve *s, sg_ctx *c, double seconds, double gap, double lb, double **x,
                  double *ub, sg_mip *m, gp_err *err)
{
    solve_opts sub;
    gogh_stage_opts(c, seconds, gap, &sub);
    sg_ctx sc = *c;
    sc.o = &sub;
    memset(m, 0, sizeof *m);
    double *start = NULL;
    if (*x) {
        add_used(s, *x);
        start = xcalloc((size_t)glp_get_num_cols(s->P) + 1, sizeof *start);
        for (size_t q = 0; q < s->nc; q++)
            if (s->c[q].col)
                start[s->c[q].col] = (*x)[q];
        if (s->step_col)
            start[s->step_col] = gogh_lattice_value(s, *x);
    }
    m->start_x = start;
    m->known_lb = lb;
    m->quantum = s->quantum;
    m->cuts = 1;
    int rc = sg_solve(&sc, s->P, m, err);
    c->work = sc.work;      /* the stages after this one share what is left */
    free(start);
    if (rc)
        return -1;
    if (m->has_solution && (!isfinite(*ub) || m->obj < *ub - SOLVE_EPS * (1 + fabs(*ub)))) {
        double *y = xcalloc(s->nc + 1, sizeof *y);
        for (size_t q = 0; q < s->nc; q++)
            y[q] = s->c[q].col ? round(glp_mip_col_val(s->P, s->c[q].col)) : 0;
        gogh_offer_solution(s, y, x, ub);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Price-and-branch heuristic: branch and bound over the combinations the
 * LP likes — those it uses, the start's, and the cheapest by reduced cost,
 * about eight per class — with every other column held at 0.  A small
 * MILP that GLPK solves fast. */
static int restricted(gsolve *s, sg_ctx *c, const double *rc, const double *lp, double **x,
                      double *ub, gp_err *err)
{
    size_t keep = (size_t)(8 * s->g.n + 16);
    double *sorted = xmalloc((s->nc + 1) * sizeof *sorted);
    memcpy(sorted, rc, s->nc * sizeof *sorted);
    qsort(sorted, s->nc, sizeof *sorted, cmp_double);
    double cutoff = s->nc > keep ? sorted[keep] : HUGE_VAL;
    free(sorted);
    size_t *qs = xmalloc((s->nc + 1) * sizeof *qs), n = 0;
    unsigned char *kept = xcalloc(s->nc + 1, 1);
    for (size_t q = 0; q < s->nc; q++)
        if (s->c[q].ub > 0 && (rc[q] <= cutoff || lp[q] > 1e-9 || (*x && (*x)[q] > 0))) {
            kept[q] = 1;
            qs[n++] = q;
        }
    add_columns(s, qs, n);
    for (size_t q = 0; q < s->nc; q++)
        if (s->c[q].col && !kept[q])
            glp_set_col_bnds(s->P, s->c[q].col, GLP_FX, 0, 0);
    double budget = fmin(0.4 * sg_remaining(c), 0.5 + 0.002 * (double)n);
    sg_mip m;
    int rc_ = branch(s, c, budget, c->o->mip_gap / 4, -HUGE_VAL, x, ub, &m, err);
    for (size_t q = 0; q < s->nc; q++)
        if (s->c[q].col && !kept[q])
            glp_set_col_bnds(s->P, s->c[q].col, s->c[q].ub > 0 ? GLP_DB : GLP_FX, 0,
                             s->c[q].ub);
    free(kept);
    free(qs);
    return rc_;
}

/* Reduced-cost fixing: any solution cheaper than ub costs at least
 * lb + rc_q * n_q, so a combination whose reduced cost passes ub - lb is 0
 * in every better solution: held at 0 in the LP, never added; every other
 * becomes a column, so branch and bound then searches all that matters.
 * On a lattice (s->quantum) that cost is at least lb + rc_q rounded up to
 * it, so a combination that brings the rounded cost to ub goes too. */
static int may_improve(const gsolve *s, double rc, double lb, double ub)
{
    double tol = SOLVE_EPS * (1 + fabs(ub));
    if (!isfinite(ub) || rc <= ub - lb + tol)
        return s->quantum <= 0 || !isfinite(ub) || gogh_round_bound(s, lb + rc) < ub - tol;
    return 0;
}

static void fix_by_reduced_cost(gsolve *s, const double *rc, double lb, double ub)
{
    size_t *qs = xmalloc((s->nc + 1) * sizeof *qs), n = 0;
    for (size_t q = 0; q < s->nc; q++) {
        if (may_improve(s, rc[q], lb, ub))
            qs[n++] = q;
        else if (s->c[q].col)
            glp_set_col_bnds(s->P, s->c[q].col, GLP_FX, 0, 0);
    }
    add_columns(s, qs, n);
    free(qs);
}

/* ---- the answer on the real GPUs -------------------------------------------------- */

/* The next member of class c to place (a job of its own class every time). */
static int next_member(const gsolve *s, int c, int *cursor)
{
    if (s->g.count[c] == 1)
        return s->g.rep[c];
    assert(cursor[c] < s->g.count[c]);
    return s->g.members[s->g.first[c] + cursor[c]++];
}

static void write_answer(const gsolve *s, const double *x, solve_result *res)
{
    const gogh_inst *in = s->in;
    size_t G = in->naccels ? in->naccels : 1;
    res->ngpus = in->naccels;
    res->gpu_watts = xcalloc(G, sizeof(double));
    res->gpu_freq_mhz = xcalloc(G, sizeof(double));
    res->place = xcalloc(2 * G + 1, sizeof *res->place);
    /* servers are numbered by the caller, not 0..G-1 (the bench's are
     * thousands apart): one flag per number up to the largest */
    int top = 0;
    for (size_t g = 0; g < in->naccels; g++)
        top = imax(top, in->accels[g].node);
    unsigned char *busy = xcalloc(G, 1), *srv = xcalloc((size_t)top + 1, 1);
    int *cursor = xcalloc((size_t)(s->g.n ? s->g.n : 1), sizeof *cursor);
    for (size_t q = 0; q < s->nc; q++) {
        const combo *c = &s->c[q];
        int cnt = x ? (int)lround(x[q]) : 0;
        for (size_t g = 0; g < in->naccels && cnt > 0; g++) {
            if (busy[g] || in->accels[g].type != c->a)
                continue;
            busy[g] = 1;
            cnt--;
            res->gpu_watts[g] = c->watts;
            res->gpus_used++;
            res->place[res->nplace++] = (solve_place){next_member(s, c->c1, cursor), (int)g};
            if (c->c2 >= 0)
                res->place[res->nplace++] = (solve_place){next_member(s, c->c2, cursor), (int)g};
        }
        assert(cnt == 0);
    }
    for (size_t g = 0; g < in->naccels; g++)
        if (busy[g] && in->accels[g].node >= 0 && !srv[in->accels[g].node]) {
            srv[in->accels[g].node] = 1;
            res->servers_used++;
        }
    free(busy);
    free(srv);
    free(cursor);
}

static int check_inst(const gogh_inst *in, gp_err *err)
{
    for (size_t j = 0; j < in->njobs; j++) {
        if (in->jobs[j].dmax < 1)
            return gp_error(err, "GOGH: job %zu has D_j = %d", j, in->jobs[j].dmax);
        if (!isfinite(in->jobs[j].min_tput) || in->jobs[j].min_tput < 0)
            return gp_error(err, "GOGH: job %zu has minimum throughput %g", j,
                            in->jobs[j].min_tput);
    }
    for (size_t a = 0; a < in->ntypes; a++)
        if (in->types[a].theta < 1 || in->types[a].max_w < in->types[a].idle_w ||
            !(in->types[a].price_usd >= 0))
            return gp_error(err, "GOGH: accelerator type %s needs theta >= 1, max >= idle "
                                 "watts and a price >= 0", in->types[a].name);
    for (size_t g = 0; g < in->naccels; g++)
        if (in->accels[g].type < 0 || (size_t)in->accels[g].type >= in->ntypes)
            return gp_error(err, "GOGH: accelerator %zu has no type", g);
    if ((unsigned)in->objective > GOGH_MIN_COST || !(in->usd_per_w >= 0))
        return gp_error(err, "GOGH: unknown objective, or a negative energy price");
    return 0;
}

static void gsolve_init(gsolve *s, const gogh_inst *in, int names)
{
    memset(s, 0, sizeof *s);
    s->in = in;
    s->names = names;
    s->cnt = xcalloc(in->ntypes + 1, sizeof *s->cnt);
    for (size_t g = 0; g < in->naccels; g++)
        s->cnt[in->accels[g].type]++;
    s->best = xcalloc(in->njobs + 1, sizeof *s->best);
    for (size_t j = 0; j < in->njobs; j++)
        for (size_t a = 0; a < in->ntypes; a++)
            s->best[j] = fmax(s->best[j], gogh_solo(in, (int)a, (int)j));
    s->most = xcalloc(in->njobs + 1, sizeof *s->most);
    for (size_t j = 0; j < in->njobs; j++)
        for (size_t a = 0; a < in->ntypes; a++) {
            s->most[j] = fmax(s->most[j], gogh_solo(in, (int)a, (int)j));
            for (size_t k = 0; k < in->njobs; k++)
                s->most[j] = fmax(s->most[j], gogh_pair(in, (int)a, (int)j, (int)k));
        }
    gclasses_build(in, &s->g);
    size_t C = (size_t)(s->g.n ? s->g.n : 1);
    s->cuts_of = xcalloc(C, sizeof *s->cuts_of);
    s->ncuts_of = xcalloc(C, sizeof *s->ncuts_of);
    s->cuts_of_cap = xcalloc(C, sizeof *s->cuts_of_cap);
    make_combos(s);
    gogh_lattice_init(s);
    build_model(s);
}

static void gsolve_free(gsolve *s)
{
    if (s->P)
        glp_delete_prob(s->P);
    for (int c = 0; c < s->g.n; c++)
        free(s->cuts_of[c]);
    free(s->cuts_of);
    free(s->ncuts_of);
    free(s->cuts_of_cap);
    free(s->cuts);
    gclasses_free(&s->g);
    free(s->c);
    free(s->row_of);
    free(s->tput_row);
    free(s->half_row);
    free(s->share_row);
    free(s->cnt);
    free(s->best);
    free(s->most);
}

/* The search's outcome, in the minimised objective. */
typedef struct outcome {
    int status;             /* SOLVE_* */
    double *x;              /* best solution's columns (owned), NULL = none */
    double ub, lb, lp;
    long nodes;
    const char *method;
} outcome;

/* 1 when the bound closes the gap as far as the options ask. */
int gogh_gap_closed(const solve_opts *o, double ub, double lb)
{
    if (!isfinite(ub) || !isfinite(lb))
        return 0;
    return ub - lb <= fmax(o->mip_gap, 1e-6) * fabs(ub) + 1e-9;
}

/* LP bound with triangle cuts, the heuristics, the restricted MILP,
 * reduced-cost fixing, and branch and bound on what is left, stopping as
 * soon as the bound closes the gap the options ask for. */
static int search(gsolve *s, sg_ctx *c, outcome *out, gp_err *err)
{
    const solve_opts *o = c->o;
    sg_mip m;
    if (o->no_bounds) {
        out->method = "milp";
        if (branch(s, c, 0, o->mip_gap, -HUGE_VAL, &out->x, &out->ub, &m, err))
            return -1;
        out->status = m.status;
        out->lb = m.bound;
        out->lp = m.lp_obj;
        out->nodes = m.nodes;
        return 0;
    }
    double *rc = xmalloc((s->nc + 1) * sizeof *rc);
    int r = root_lp(s, c, &out->lb, rc);
    if (r != 0) {
        free(rc);
        out->status = r > 0 ? SOLVE_INFEASIBLE : sg_should_stop(c) >= 0 ? sg_should_stop(c)
                                                                          : SOLVE_TIMEOUT;
        out->lb = -HUGE_VAL;
        return 0;
    }
    /* out->lp keeps the LP's own value: reduced-cost fixing needs it (a
     * solution using q costs at least lp + rc_q, which the lattice does not
     * shift); the stages' gap tests take the rounded bound. */
    out->lp = out->lb;
    out->lb = gogh_round_bound(s, out->lb);
    out->method = "lp+cuts";
    if (gogh_gap_closed(o, out->ub, out->lb)) {
        free(rc);
        return 0;
    }
    double *lp = lp_values(s);
    out->method = "dive";
    round_down(s, &out->x, &out->ub);
    dive(s, c, &out->x, &out->ub);
    gogh_local_search(s, c, &out->x, &out->ub);
    int rc_ = 0;
    if (!gogh_gap_closed(o, out->ub, out->lb)) {
        out->method = "restricted";
        rc_ = restricted(s, c, rc, lp, &out->x, &out->ub, err);
        gogh_local_search(s, c, &out->x, &out->ub);
    }
    if (rc_ == 0 && !gogh_gap_closed(o, out->ub, out->lb)) {
        out->method = "neighbourhoods";
        rc_ = gogh_neighbourhood_search(s, c, rc, out->lb, &out->x, &out->ub, err);
    }
    free(lp);
    /* The last stage has the time left: sg_solve starts no step of GLPK's
     * (a cut round of seconds on the larger models) that would pass it. */
    double left = sg_remaining(c);
    if (rc_ == 0 && !gogh_gap_closed(o, out->ub, out->lb) && left > 0.25) {
        fix_by_reduced_cost(s, rc, out->lp, out->ub);
        gogh_lattice_row(s);
        out->method = "milp";
        rc_ = branch(s, c, 0, o->mip_gap, out->lb, &out->x, &out->ub, &m, err);
        if (rc_ == 0) {
            out->nodes = m.nodes;
            out->lb = fmax(out->lb, m.status == SOLVE_OPTIMAL ? out->ub : m.bound);
            if (m.status == SOLVE_INFEASIBLE && !out->x)
                out->status = SOLVE_INFEASIBLE;
            else if (m.status == SOLVE_CANCELLED)
                out->status = SOLVE_CANCELLED;
        }
    }
    free(rc);
    return rc_;
}

/* The result in the objective's own sense: watts or dollars minimised, or
 * Gavel's normalised throughput maximised (its bound is then an upper
 * bound). */
static double reported(const gogh_inst *in, double v)
{
    return in->objective == GOGH_MAX_THROUGHPUT && isfinite(v) ? -v
         : in->objective == GOGH_MAX_THROUGHPUT ? -v : v;
}

static void finish(const gsolve *s, const outcome *out, solve_result *res)
{
    const gogh_inst *in = s->in;
    int have = out->x != NULL;
    res->has_solution = have;
    res->nodes = out->nodes;
    res->lp_bound = reported(in, out->lp);
    strlcpy0(res->method, out->method ? out->method : "none", sizeof res->method);
    if (have)
        write_answer(s, out->x, res);
    double ub = have ? out->ub : HUGE_VAL, lb = fmin(out->lb, ub);
    res->objective = reported(in, ub);
    res->bound = reported(in, lb);
    if (out->status == SOLVE_INFEASIBLE && !have) {
        res->status = SOLVE_INFEASIBLE;
    } else if (have && ub - lb <= PK_REL_TOL * fabs(ub) + SOLVE_EPS) {
        res->status = SOLVE_OPTIMAL;
        res->bound = res->objective;
        res->gap = 0;
    } else {
        res->status = out->status == SOLVE_CANCELLED ? SOLVE_CANCELLED
                    : have ? SOLVE_FEASIBLE : SOLVE_TIMEOUT;
        res->gap = have ? sg_gap(ub, lb) : HUGE_VAL;
    }
}

int solve_gogh(const gogh_inst *in, const solve_opts *o, solve_result *res, gp_err *err)
{
    solve_result_init(res);
    if (check_inst(in, err))
        return -1;
    sg_ctx sc;
    sg_begin(&sc, o);
    gsolve s;
    gsolve_init(&s, in, o->write_lp || o->write_mps);
    int rc = sg_write(&sc, s.P, err);
    outcome out = {SOLVE_TIMEOUT, NULL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, 0, NULL};
    if (rc == 0) {
        double *x0 = make_start(&s, o);
        res->heur_objective = x0 ? reported(in, cost_of(&s, x0)) : HUGE_VAL;
        if (x0 && !o->no_warm_start) {
            out.x = x0;
            out.ub = cost_of(&s, x0);
        } else {
            free(x0);
        }
        if (s.nc == 0) {
            /* nothing runs: every job idle, which only Gavel's objective allows */
            int idle_ok = in->njobs == 0 || !has_minimum(in);
            out.status = idle_ok ? SOLVE_OPTIMAL : SOLVE_INFEASIBLE;
            if (idle_ok && !out.x)
                out.x = xcalloc(1, sizeof *out.x);
            out.ub = out.lb = out.lp = 0;
            out.method = "empty";
        } else {
            rc = search(&s, &sc, &out, err);
        }
    }
    res->rows = glp_get_num_rows(s.P);
    res->cols = glp_get_num_cols(s.P);
    if (rc == 0)
        finish(&s, &out, res);
    if (rc == 0 && res->status == SOLVE_INFEASIBLE)
        gogh_why(in, res);
    free(out.x);
    gsolve_free(&s);
    res->time_s = now_seconds() - sc.t0;
    sg_end(&sc, res);
    return rc;
}
