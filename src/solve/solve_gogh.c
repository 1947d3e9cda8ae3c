/*
 * solve_gogh.c — GOGH Problem 1 (GOGH §2.4, eq. 2a–2g): place combinations
 * of one or two jobs on accelerators so that every job runs on 1..D_j
 * accelerators with at least its minimum throughput, minimising power.
 *
 * Interpretation of the paper:
 *   - x_{a,s}^c (eq. 2g) is read per accelerator: one GPU of type a on
 *     server s runs at most one combination (eq. 2f) of at most theta_a jobs
 *     (eq. 2d); theta_a is 2 (GOGH restricts C to sizes one and two);
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
 * relabelling of identical GPUs from the search.  Strengthening, all valid
 * for integer points:
 *   - eq. 2e's coefficients are capped at T-bar_j (one accelerator giving
 *     more than the minimum satisfies the row alone), which tightens its LP;
 *   - eq. 2b's right-hand side becomes ceil(T-bar_j / best throughput of j):
 *     the accelerators j needs at the least;
 *   - for a job with D_j = 1 combinations below its minimum are dropped.
 * A greedy solution (combinations by watts per job, cheapest first) is
 * GLPK's first incumbent.
 */
#include "solve_int.h"
#include "core/tput.h"

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
static int add_types(const cluster *cl, const catalog *cat, gogh_inst *out, gp_err *err)
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
        if (!p->tput_class[0])
            continue;   /* no throughput class: GOGH cannot use it */
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
            ty->price_usd = p->price_usd;
        }
        for (int d = 0; d < nd->gpu_count; d++)
            out->accels[out->naccels++] = (gogh_accel){(int)t, (int)i, d};
    }
    if (out->naccels == 0)
        return gp_error(err, "cluster %s: no GPU whose profile has a throughput class "
                             "(k80, p100, v100)", cl->name);
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

int gogh_inst_from_model(const cluster *cl, const catalog *cat, const gp_trace *tr,
                         const tput_catalog *tp, size_t ntasks, double min_frac,
                         gogh_inst *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (add_types(cl, cat, out, err) || add_jobs(tr, tp, ntasks, min_frac, out, err)) {
        gogh_inst_free(out);
        return -1;
    }
    return 0;
}

/* ---- combinations ------------------------------------------------------------------ */

typedef struct combo {
    int a;                  /* accelerator type */
    int j, k;               /* jobs; k < 0 for a single job */
    double tj, tk;          /* their throughputs in it */
    double watts;           /* gamma_a(load) */
    int ub;                 /* at most this many GPUs of type a run it */
    int col;
} combo;

static double gogh_solo(const gogh_inst *in, int a, int j)
{
    return in->solo[(size_t)a * in->njobs + (size_t)j];
}

static double gogh_pair(const gogh_inst *in, int a, int j, int k)
{
    return in->pair[((size_t)a * in->njobs + (size_t)j) * in->njobs + (size_t)k];
}

static int type_count(const gogh_inst *in, int a)
{
    int c = 0;
    for (size_t g = 0; g < in->naccels; g++)
        c += in->accels[g].type == a;
    return c;
}

/* gamma_a(load) of a combination (see the header comment). */
static double combo_watts(const gogh_inst *in, int a, int j, double tj, int k, double tk)
{
    const gogh_accel_type *ty = &in->types[a];
    double load = in->jobs[j].util * tj / gogh_solo(in, a, j);
    if (k >= 0)
        load += in->jobs[k].util * tk / gogh_solo(in, a, k);
    load = fmin(1, fmax(0, load));
    return ty->idle_w + (ty->max_w - ty->idle_w) * load;
}

/* A combination a job with D_j = 1 would use alone must meet its minimum. */
static int useful(const gogh_inst *in, int j, double t)
{
    return in->jobs[j].dmax > 1 || t >= in->jobs[j].min_tput - SOLVE_EPS;
}

static combo *make_combos(const gogh_inst *in, size_t *ncombo)
{
    size_t cap = 64, n = 0;
    combo *c = xmalloc(cap * sizeof *c);
    int J = (int)in->njobs;
    for (int a = 0; a < (int)in->ntypes; a++) {
        int cnt = type_count(in, a);
        for (int j = 0; j < J; j++) {
            double t = gogh_solo(in, a, j);
            if (t <= 0 || !useful(in, j, t))
                continue;
            grow_array((void **)&c, &cap, n + 1, sizeof *c);
            int ub = in->jobs[j].dmax < cnt ? in->jobs[j].dmax : cnt;
            c[n++] = (combo){a, j, -1, t, 0, combo_watts(in, a, j, t, -1, 0), ub, 0};
        }
        if (in->types[a].theta < 2)
            continue;   /* eq. 2d */
        for (int j = 0; j < J; j++)
            for (int k = j + 1; k < J; k++) {
                double tj = gogh_pair(in, a, j, k), tk = gogh_pair(in, a, k, j);
                if (tj <= 0 || tk <= 0 || gogh_solo(in, a, j) <= 0 || gogh_solo(in, a, k) <= 0)
                    continue;
                if (!useful(in, j, tj) || !useful(in, k, tk))
                    continue;
                int ub = in->jobs[j].dmax < in->jobs[k].dmax ? in->jobs[j].dmax : in->jobs[k].dmax;
                ub = ub < cnt ? ub : cnt;
                grow_array((void **)&c, &cap, n + 1, sizeof *c);
                c[n++] = (combo){a, j, k, tj, tk, combo_watts(in, a, j, tj, k, tk), ub, 0};
            }
    }
    *ncombo = n;
    return c;
}

/* ---- the model ----------------------------------------------------------------------- */

static void set_name(glp_prob *P, int col, const combo *c)
{
    char name[48];
    if (c->k < 0)
        snprintf(name, sizeof name, "n_%d_%d", c->a, c->j);
    else
        snprintf(name, sizeof name, "n_%d_%d_%d", c->a, c->j, c->k);
    glp_set_col_name(P, col, name);
}

/* The most a job gets from one GPU, over every combination. */
static double best_tput(const combo *c, size_t nc, int j)
{
    double b = 0;
    for (size_t q = 0; q < nc; q++) {
        if (c[q].j == j)
            b = fmax(b, c[q].tj);
        if (c[q].k == j)
            b = fmax(b, c[q].tk);
    }
    return b;
}

static void job_rows(glp_prob *P, const gogh_inst *in, const combo *c, size_t nc, int j,
                     int *ind, double *val)
{
    int len = 0;
    for (size_t q = 0; q < nc; q++)
        if (c[q].j == j || c[q].k == j)
            ind[++len] = c[q].col;
    double tbar = in->jobs[j].min_tput, best = best_tput(c, nc, j);
    int need = tbar > 0 && best > 0 ? (int)ceil(tbar / best - SOLVE_EPS) : 1;
    need = need < 1 ? 1 : need;
    int r = glp_add_rows(P, 1);                     /* eq. 2b, 2c */
    glp_set_row_bnds(P, r, need == in->jobs[j].dmax ? GLP_FX : GLP_DB, need,
                     in->jobs[j].dmax);
    for (int q = 1; q <= len; q++)
        val[q] = 1;
    glp_set_mat_row(P, r, len, ind, val);
    if (tbar <= 0)
        return;
    r = glp_add_rows(P, 1);                         /* eq. 2e, capped */
    glp_set_row_bnds(P, r, GLP_LO, tbar, 0);
    len = 0;
    for (size_t q = 0; q < nc; q++) {
        if (c[q].j == j)
            val[++len] = fmin(c[q].tj, tbar);
        else if (c[q].k == j)
            val[++len] = fmin(c[q].tk, tbar);
        else
            continue;
        ind[len] = c[q].col;
    }
    glp_set_mat_row(P, r, len, ind, val);
}

static glp_prob *gogh_model(const gogh_inst *in, combo *c, size_t nc, int names)
{
    glp_prob *P = glp_create_prob();
    glp_set_prob_name(P, "gogh_problem1");
    glp_set_obj_dir(P, GLP_MIN);
    if (nc > 0)
        glp_add_cols(P, (int)nc);
    for (size_t q = 0; q < nc; q++) {
        c[q].col = (int)q + 1;
        glp_set_col_kind(P, c[q].col, GLP_IV);
        glp_set_col_bnds(P, c[q].col, c[q].ub > 0 ? GLP_DB : GLP_FX, 0, c[q].ub);
        glp_set_obj_coef(P, c[q].col, c[q].watts);  /* eq. 2a */
        if (names)
            set_name(P, c[q].col, &c[q]);
    }
    int *ind = xmalloc((nc + 2) * sizeof *ind);
    double *val = xmalloc((nc + 2) * sizeof *val);
    for (int a = 0; a < (int)in->ntypes; a++) {     /* eq. 2f, per type */
        int len = 0;
        for (size_t q = 0; q < nc; q++)
            if (c[q].a == a) {
                ind[++len] = c[q].col;
                val[len] = 1;
            }
        int r = glp_add_rows(P, 1);
        glp_set_row_bnds(P, r, GLP_UP, 0, type_count(in, a));
        glp_set_mat_row(P, r, len, ind, val);
    }
    for (int j = 0; j < (int)in->njobs; j++)
        job_rows(P, in, c, nc, j, ind, val);
    free(ind);
    free(val);
    return P;
}

/* ---- greedy start ------------------------------------------------------------------- */

typedef struct ranked {
    double key;
    size_t q;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

/* GPUs job j needs from combination q to reach its minimum alone. */
static int need_of(const gogh_inst *in, const combo *c, int j)
{
    double t = c->j == j ? c->tj : c->tk, tbar = in->jobs[j].min_tput;
    int need = tbar > 0 && t > 0 ? (int)ceil(tbar / t - SOLVE_EPS) : 1;
    return need < 1 ? 1 : need;
}

/* Combinations by watts per job (pairs first when cheaper per job); each
 * is taken for jobs not yet served, on as many GPUs as its neediest job
 * requires (within D_j and what is left of the type).  Values of the
 * model's columns, or NULL when some job is left out. */
static double *greedy(const gogh_inst *in, const combo *c, size_t nc)
{
    double *x = xcalloc(nc + 1, sizeof *x);
    int *left = xmalloc((in->ntypes ? in->ntypes : 1) * sizeof *left);
    unsigned char *done = xcalloc(in->njobs ? in->njobs : 1, 1);
    ranked *r = xmalloc((nc ? nc : 1) * sizeof *r);
    for (int a = 0; a < (int)in->ntypes; a++)
        left[a] = type_count(in, a);
    for (size_t q = 0; q < nc; q++) {
        int need = need_of(in, &c[q], c[q].j);
        if (c[q].k >= 0) {
            int nk = need_of(in, &c[q], c[q].k);
            need = nk > need ? nk : need;
        }
        r[q] = (ranked){need * c[q].watts / (c[q].k >= 0 ? 2 : 1), q};
    }
    qsort(r, nc, sizeof *r, cmp_ranked);
    for (size_t k = 0; k < nc; k++) {
        const combo *cq = &c[r[k].q];
        if (done[cq->j] || (cq->k >= 0 && done[cq->k]))
            continue;
        int need = need_of(in, cq, cq->j);
        if (cq->k >= 0 && need_of(in, cq, cq->k) > need)
            need = need_of(in, cq, cq->k);
        if (need > left[cq->a] || need > cq->ub)
            continue;
        x[cq->col] = need;
        left[cq->a] -= need;
        done[cq->j] = 1;
        if (cq->k >= 0)
            done[cq->k] = 1;
    }
    int ok = 1;
    for (size_t j = 0; j < in->njobs; j++)
        ok &= done[j];
    free(left);
    free(done);
    free(r);
    if (!ok) {
        free(x);
        return NULL;
    }
    return x;
}

static double start_cost(const combo *c, size_t nc, const double *x)
{
    double z = 0;
    for (size_t q = 0; q < nc; q++)
        z += c[q].watts * x[c[q].col];
    return z;
}

/* ---- the answer on the real GPUs -------------------------------------------------- */

static void write_answer(const gogh_inst *in, const combo *c, size_t nc, const double *n,
                         solve_result *res)
{
    res->ngpus = in->naccels;
    res->gpu_watts = xcalloc(in->naccels ? in->naccels : 1, sizeof(double));
    res->gpu_freq_mhz = xcalloc(in->naccels ? in->naccels : 1, sizeof(double));
    res->place = xcalloc(2 * in->naccels + 1, sizeof *res->place);
    unsigned char *busy = xcalloc(in->naccels ? in->naccels : 1, 1);
    unsigned char *srv = xcalloc(in->naccels + 1, 1);
    double total = 0;
    for (size_t q = 0; q < nc; q++) {
        int cnt = (int)lround(n[q]);
        for (size_t g = 0; g < in->naccels && cnt > 0; g++) {
            if (busy[g] || in->accels[g].type != c[q].a)
                continue;
            busy[g] = 1;
            cnt--;
            res->gpu_watts[g] = c[q].watts;
            total += c[q].watts;
            res->gpus_used++;
            res->place[res->nplace++] = (solve_place){c[q].j, (int)g};
            if (c[q].k >= 0)
                res->place[res->nplace++] = (solve_place){c[q].k, (int)g};
        }
    }
    for (size_t g = 0; g < in->naccels; g++)
        if (busy[g] && !srv[in->accels[g].node]) {
            srv[in->accels[g].node] = 1;
            res->servers_used++;
        }
    res->objective = total;
    free(busy);
    free(srv);
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
        if (in->types[a].theta < 1 || in->types[a].max_w < in->types[a].idle_w)
            return gp_error(err, "GOGH: accelerator type %s needs theta >= 1 and max >= idle "
                                 "watts", in->types[a].name);
    return 0;
}

int solve_gogh(const gogh_inst *in, const solve_opts *o, solve_result *res, gp_err *err)
{
    solve_result_init(res);
    if (check_inst(in, err))
        return -1;
    sg_ctx sc;
    sg_begin(&sc, o);
    strlcpy0(res->method, "milp", sizeof res->method);
    size_t nc;
    combo *c = make_combos(in, &nc);
    glp_prob *P = gogh_model(in, c, nc, o->write_lp || o->write_mps);
    res->rows = glp_get_num_rows(P);
    res->cols = glp_get_num_cols(P);
    int rc = sg_write(&sc, P, err);
    double *x0 = rc == 0 ? greedy(in, c, nc) : NULL;
    double z0 = x0 ? start_cost(c, nc, x0) : HUGE_VAL;
    res->heur_objective = z0;
    sg_mip m = {0};
    m.start_x = o->no_warm_start ? NULL : x0;
    m.known_lb = -HUGE_VAL;
    m.cuts = 1;     /* GLPK's MIR/Gomory/cover/clique cuts close the pairing LP gap */
    if (rc == 0 && nc == 0 && in->njobs > 0)
        m.status = SOLVE_INFEASIBLE;
    else if (rc == 0 && in->njobs == 0)
        m.status = SOLVE_OPTIMAL;
    else if (rc == 0)
        rc = sg_solve(&sc, P, &m, err);
    if (rc == 0) {
        double *n = xcalloc(nc + 1, sizeof *n);
        int have = 0;
        if (m.has_solution && m.obj <= z0 + SOLVE_EPS) {
            for (size_t q = 0; q < nc; q++)
                n[q] = glp_mip_col_val(P, c[q].col);
            have = 1;
        } else if (x0 && m.status != SOLVE_INFEASIBLE) {
            for (size_t q = 0; q < nc; q++)
                n[q] = x0[c[q].col];
            have = 1;
        } else if (in->njobs == 0)
            have = 1;
        res->has_solution = have;
        res->nodes = m.nodes;
        res->lp_bound = m.lp_obj;
        if (have)
            write_answer(in, c, nc, n, res);
        res->bound = fmin(m.bound, have ? res->objective : HUGE_VAL);
        if (m.status == SOLVE_OPTIMAL && have) {
            res->status = SOLVE_OPTIMAL;
            res->bound = res->objective;
            res->gap = 0;
        } else if (m.status == SOLVE_INFEASIBLE) {
            res->status = SOLVE_INFEASIBLE;
        } else {
            res->status = have && m.status == SOLVE_TIMEOUT ? SOLVE_FEASIBLE : m.status;
            res->gap = have ? sg_gap(res->objective, res->bound) : HUGE_VAL;
        }
        free(n);
    }
    free(x0);
    free(c);
    glp_delete_prob(P);
    res->time_s = now_seconds() - sc.t0;
    sg_end(&sc, res);
    return rc;
}
