/*
 * solve_cats.c — CATS optimal (CATS §2.2, eq. 6–14): minimum power of a
 * cluster snapshot running a set of tasks, each within its SLA.
 *
 * Interpretation of the paper:
 *   - power (eq. 2–4, 6): an awake server draws P_static + P_other, an
 *     active GPU P_gs + alpha * f, a GPU without tasks is asleep (its
 *     profile's sleep watts while its server is awake — 0 W in the paper —
 *     and nothing when the server sleeps, eq. 4 with z_i = 0);
 *   - SLA (eq. 5, 13, 14): a GPU's clock is one value f_ij; a task on it
 *     meets kappa_l when e_l(f) = e_min (f_max/f)^beta <= kappa_l e_min,
 *     i.e. f >= f_req(l) = f_max kappa_l^(-1/beta).  So the cheapest clock of
 *     an active GPU is max(f_min, max over its tasks of f_req) — eq. 14
 *     with its big-M is exactly this (tasks not on the GPU impose nothing);
 *   - utilization does not enter eq. 6–14 (the MILP packs by memory only;
 *     contention is not modelled, as in the paper's optimum, which uses the
 *     fewest GPUs).  util_cap_pct adds CATS §4's utilization threshold as a
 *     second knapsack on mean utilization, off by default;
 *   - eq. 7 with v > 1: the task takes v distinct GPUs (anywhere), each at
 *     a clock meeting its SLA (CATS §3.3: it advances at its slowest GPU);
 *   - eq. 11 only forbids an awake server without active GPUs; a minimum
 *     never has one, so it needs no row.
 *
 * The exact model is the representative formulation of the packing core
 * (solve_pack.c): tasks sorted by kappa (so by decreasing f_req), the cost
 * of a GPU is that of its first task: no frequency variables and no big-M.
 * GPUs of one (profile, memory) form a class, nodes of one (power,
 * composition) a server type, so identical GPUs and servers are not told
 * apart (the paper's model has every relabelling of them as a separate
 * solution).  The paper's own model is kept for comparison (paper_model).
 */
#include "solve_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


double cats_freq_req(const gpu_profile *p, double kappa)
{
    /* CATS eq. 14's right-hand side, from eq. 5 */
    double f = p->f_max_mhz * pow(kappa, -1.0 / p->beta);
    return f < p->f_min_mhz ? p->f_min_mhz : f;
}

/* ---- instances ------------------------------------------------------------- */

void cats_inst_free(cats_inst *in)
{
    free(in->tasks);
    free(in->gpus);
    free(in->nodes);
    free(in->allow);
    memset(in, 0, sizeof *in);
}

static int add_gpus(const cluster *cl, const catalog *cat, cats_inst *out, gp_err *err)
{
    size_t ng = (size_t)cluster_gpu_total(cl);
    out->gpus = xcalloc(ng ? ng : 1, sizeof *out->gpus);
    out->nodes = xcalloc(cl->nnodes ? cl->nnodes : 1, sizeof *out->nodes);
    out->nnodes = cl->nnodes;
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *nd = &cl->nodes[i];
        cats_node *cn = &out->nodes[i];
        cn->static_w = nd->static_w;
        cn->other_w = nd->other_w;
        cn->gpu0 = (int)out->ngpus;
        if (nd->gpu_count <= 0)
            continue;
        const gpu_profile *prof = catalog_gpu(cat, nd->gpu_model);
        if (!prof)
            return gp_error(err, "node %s: unknown GPU model '%s'", nd->name, nd->gpu_model);
        for (int d = 0; d < nd->gpu_count; d++) {
            cats_gpu *g = &out->gpus[out->ngpus++];
            g->node = (int)i;
            g->dev = d;
            g->prof = prof;
            g->mem_gib = d < GP_NODE_MAX_GPUS && nd->gpu_mem_gib[d] > 0 ? nd->gpu_mem_gib[d]
                                                                       : prof->mem_gib;
        }
        cn->ngpus = nd->gpu_count;
    }
    return 0;
}

int cats_inst_from_model(const cluster *cl, const catalog *cat, const gp_trace *tr,
                         size_t ntasks, cats_inst *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (add_gpus(cl, cat, out, err)) {
        cats_inst_free(out);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        n += tr->tasks[i].num_gpu > 0;
    if (ntasks && ntasks < n)
        n = ntasks;
    out->tasks = xcalloc(n ? n : 1, sizeof *out->tasks);
    int restricted = 0;
    for (size_t i = 0; i < tr->ntasks && out->ntasks < n; i++) {
        const task *t = &tr->tasks[i];
        if (t->num_gpu <= 0)
            continue;
        cats_task *ct = &out->tasks[out->ntasks++];
        ct->mem_gib = t->gpu_mem_gib;
        ct->v = t->num_gpu;
        ct->kappa = task_kappa(t, 0);
        ct->util_pct = t->util_mean;
        ct->src = (int)i;
        restricted |= t->gpu_spec && *t->gpu_spec;
    }
    if (restricted && out->ngpus > 0) {
        out->allow = xcalloc(out->ntasks * out->ngpus, 1);
        for (size_t l = 0; l < out->ntasks; l++)
            for (size_t g = 0; g < out->ngpus; g++)
                out->allow[l * out->ngpus + g] = (unsigned char)task_allows_model(
                    &tr->tasks[out->tasks[l].src], cl->nodes[out->gpus[g].node].gpu_model);
    }
    return 0;
}

static int check_inst(const cats_inst *in, gp_err *err)
{
    for (size_t l = 0; l < in->ntasks; l++) {
        const cats_task *t = &in->tasks[l];
        if (t->v < 1 || t->v > 4096)
            return gp_error(err, "CATS: task %zu asks for %d GPUs", l, t->v);
        if (!isfinite(t->mem_gib) || t->mem_gib < 0 || !isfinite(t->kappa) || t->kappa <= 0)
            return gp_error(err, "CATS: task %zu has memory %g GiB and kappa %g", l,
                            t->mem_gib, t->kappa);
    }
    for (size_t g = 0; g < in->ngpus; g++) {
        const gpu_profile *p = in->gpus[g].prof;
        if (!(p->f_max_mhz > 0) || !(p->beta > 0) || p->f_min_mhz > p->f_max_mhz)
            return gp_error(err, "CATS: GPU model %s needs 0 < f_min <= f_max and beta > 0",
                            p->name);
    }
    return 0;
}

/* ---- classes and server types ---------------------------------------------------- */

typedef struct cats_map {
    int nclass;
    int *gpu_class;         /* [ngpus] */
    int *class_gpu;         /* [nclass] a representative GPU */
    int ntype;
    int *node_type;         /* [nnodes], -1 = no GPUs */
    int *type_node;         /* [ntype] a representative node */
    int *first_item;        /* [ntasks] first item (copy) of each task */
    int *item_task;         /* [nitems] in the sorted order */
    int nitems;
} cats_map;

static void map_free(cats_map *m)
{
    free(m->gpu_class);
    free(m->class_gpu);
    free(m->node_type);
    free(m->type_node);
    free(m->first_item);
    free(m->item_task);
}

/* GPUs alike in profile and memory are one class. */
static void make_classes(const cats_inst *in, cats_map *m)
{
    m->gpu_class = xmalloc((in->ngpus ? in->ngpus : 1) * sizeof(int));
    m->class_gpu = xmalloc((in->ngpus ? in->ngpus : 1) * sizeof(int));
    m->nclass = 0;
    for (size_t g = 0; g < in->ngpus; g++) {
        int c = -1;
        for (int k = 0; k < m->nclass && c < 0; k++) {
            const cats_gpu *r = &in->gpus[m->class_gpu[k]];
            if (r->prof == in->gpus[g].prof && fabs(r->mem_gib - in->gpus[g].mem_gib) < SOLVE_EPS)
                c = k;
        }
        if (c < 0) {
            c = m->nclass++;
            m->class_gpu[c] = (int)g;
        }
        m->gpu_class[g] = c;
    }
}

static int class_count(const cats_inst *in, const cats_map *m, size_t ni, int t)
{
    int c = 0;
    const cats_node *nd = &in->nodes[ni];
    for (int g = nd->gpu0; g < nd->gpu0 + nd->ngpus; g++)
        c += m->gpu_class[g] == t;
    return c;
}

/* Nodes alike in power and in GPUs of each class are one server type. */
static void make_types(const cats_inst *in, cats_map *m)
{
    m->node_type = xmalloc((in->nnodes ? in->nnodes : 1) * sizeof(int));
    m->type_node = xmalloc((in->nnodes ? in->nnodes : 1) * sizeof(int));
    m->ntype = 0;
    for (size_t i = 0; i < in->nnodes; i++) {
        m->node_type[i] = -1;
        if (in->nodes[i].ngpus <= 0)
            continue;   /* a node without GPUs hosts nothing here: asleep */
        int ty = -1;
        for (int k = 0; k < m->ntype && ty < 0; k++) {
            size_t r = (size_t)m->type_node[k];
            int same = fabs(in->nodes[r].static_w + in->nodes[r].other_w -
                            in->nodes[i].static_w - in->nodes[i].other_w) < SOLVE_EPS;
            for (int t = 0; t < m->nclass && same; t++)
                same = class_count(in, m, r, t) == class_count(in, m, i, t);
            if (same)
                ty = k;
        }
        if (ty < 0) {
            ty = m->ntype++;
            m->type_node[ty] = (int)i;
        }
        m->node_type[i] = ty;
    }
}

typedef struct task_key {
    double kappa, mem;
    int l;
} task_key;

static int cmp_task(const void *a, const void *b)
{
    const task_key *x = a, *y = b;
    if (x->kappa != y->kappa)
        return x->kappa < y->kappa ? -1 : 1;    /* tightest SLA (highest f) first */
    if (x->mem != y->mem)
        return x->mem > y->mem ? -1 : 1;
    return x->l - y->l;
}

/* Item order: by kappa, so the cost of a GPU is its first item's (eq. 14). */
static void make_items(const cats_inst *in, cats_map *m)
{
    task_key *k = xmalloc((in->ntasks ? in->ntasks : 1) * sizeof *k);
    for (size_t l = 0; l < in->ntasks; l++)
        k[l] = (task_key){in->tasks[l].kappa, in->tasks[l].mem_gib, (int)l};
    qsort(k, in->ntasks, sizeof *k, cmp_task);
    m->first_item = xmalloc((in->ntasks ? in->ntasks : 1) * sizeof(int));
    m->nitems = 0;
    for (size_t a = 0; a < in->ntasks; a++)
        m->nitems += in->tasks[k[a].l].v;
    m->item_task = xmalloc((size_t)(m->nitems ? m->nitems : 1) * sizeof(int));
    int it = 0;
    for (size_t a = 0; a < in->ntasks; a++) {
        int l = k[a].l;
        m->first_item[l] = it;
        for (int c = 0; c < in->tasks[l].v; c++)
            m->item_task[it++] = l;
    }
    free(k);
}

/* 1 when task l may use class t (its allowed models). */
static int task_class_ok(const cats_inst *in, const cats_map *m, int l, int t)
{
    if (!in->allow)
        return 1;
    return in->allow[(size_t)l * in->ngpus + (size_t)m->class_gpu[t]];
}

/* The cost of every bin when all cost the same (one GPU class, one SLA
 * clock) and servers are free: then a placement costs that times its GPUs
 * and bounds may round up to whole GPUs.  0 otherwise. */
static double uniform_cost(const pk_inst *p)
{
    if (p->nclass != 1)
        return 0;
    for (int k = 0; k < p->ntype; k++)
        if (p->type[k].cost != 0)
            return 0;
    double c0 = 0;
    for (int i = 0; i < p->n; i++) {
        double c = p->cls[0].lead_cost[i];
        if (c >= HUGE_VAL)
            continue;
        if (c0 == 0)
            c0 = c;
        else if (fabs(c - c0) > 1e-12 * c0)
            return 0;
    }
    return c0 > 0 ? c0 : 0;
}

static void build_pack(const cats_inst *in, const cats_map *m, pk_inst *p)
{
    pk_inst_init(p, m->nitems, m->nclass, m->ntype);
    if (in->util_cap_pct > 0)
        p->size2 = xcalloc((size_t)(m->nitems ? m->nitems : 1), sizeof *p->size2);
    for (int t = 0; t < m->nclass; t++) {
        const cats_gpu *g = &in->gpus[m->class_gpu[t]];
        p->cls[t].cap = g->mem_gib;
        p->cls[t].cap2 = in->util_cap_pct;
    }
    for (int i = 0; i < m->nitems; i++) {
        const cats_task *tk = &in->tasks[m->item_task[i]];
        p->size[i] = tk->mem_gib;
        if (p->size2)
            p->size2[i] = tk->util_pct;
        p->rank[i] = tk->kappa;
        p->task[i] = m->item_task[i];
        for (int t = 0; t < m->nclass; t++) {
            const gpu_profile *gp = in->gpus[m->class_gpu[t]].prof;
            /* kappa < 1 would need more than f_max: this class cannot run it */
            int ok = tk->kappa >= 1 - SOLVE_EPS && task_class_ok(in, m, m->item_task[i], t);
            p->cls[t].lead_cost[i] =
                ok ? gp->idle_w + gp->alpha_w_per_mhz * cats_freq_req(gp, tk->kappa) - gp->sleep_w
                   : HUGE_VAL;
        }
        /* copies of one task need distinct GPUs (eq. 7) */
        for (int k = m->first_item[m->item_task[i]]; k < i; k++)
            pk_set_conflict(p, i, k);
    }
    for (int k = 0; k < m->ntype; k++) {
        const cats_node *nd = &in->nodes[m->type_node[k]];
        pk_stype *st = &p->type[k];
        st->cost = nd->static_w + nd->other_w;
        for (size_t i = 0; i < in->nnodes; i++)
            st->count += m->node_type[i] == k;
        for (int t = 0; t < m->nclass; t++) {
            st->per_class[t] = class_count(in, m, (size_t)m->type_node[k], t);
            /* the sleeping GPUs of an awake server (CATS Alg. 3) */
            st->cost += st->per_class[t] * in->gpus[m->class_gpu[t]].prof->sleep_w;
        }
    }
    p->quantum = uniform_cost(p);
}

/* ---- solutions on the real GPUs ------------------------------------------------------ */

/* Wakes s[k] nodes of each type (the first ones) and puts each bin on a
 * free GPU of its class there.  gpu_of_bin receives the instance GPU. */
static int place_bins(const cats_inst *in, const cats_map *m, const pk_sol *s, int *gpu_of_bin)
{
    unsigned char *taken = xcalloc(in->ngpus ? in->ngpus : 1, 1);
    unsigned char *awake = xcalloc(in->nnodes ? in->nnodes : 1, 1);
    int *woken = xcalloc((size_t)(m->ntype ? m->ntype : 1), sizeof *woken);
    for (size_t i = 0; i < in->nnodes; i++) {
        int k = m->node_type[i];
        if (k >= 0 && woken[k] < s->servers[k]) {
            woken[k]++;
            awake[i] = 1;
        }
    }
    int ok = 1;
    for (int b = 0; b < s->nbins && ok; b++) {
        gpu_of_bin[b] = -1;
        int used = 0;
        for (int i = 0; i < m->nitems && !used; i++)
            used = s->bin_of[i] == b;
        if (!used)
            continue;
        for (size_t g = 0; g < in->ngpus && gpu_of_bin[b] < 0; g++)
            if (!taken[g] && awake[in->gpus[g].node] && m->gpu_class[g] == s->bin_class[b]) {
                taken[g] = 1;
                gpu_of_bin[b] = (int)g;
            }
        ok = gpu_of_bin[b] >= 0;
    }
    free(taken);
    free(awake);
    free(woken);
    return ok ? 0 : -1;
}

double cats_power_of(const cats_inst *in, const solve_place *pl, size_t n, double *freq,
                     double *watts, int *gpus, int *servers)
{
    double *f = freq ? freq : xmalloc((in->ngpus ? in->ngpus : 1) * sizeof *f);
    unsigned char *awake = xcalloc(in->nnodes ? in->nnodes : 1, 1);
    int ng = 0, ns = 0;
    double w = 0;
    memset(f, 0, in->ngpus * sizeof *f);
    for (size_t k = 0; k < n; k++) {
        const cats_gpu *g = &in->gpus[pl[k].gpu];
        double need = cats_freq_req(g->prof, in->tasks[pl[k].task].kappa);
        f[pl[k].gpu] = fmax(f[pl[k].gpu], need);
        awake[g->node] = 1;
    }
    for (size_t i = 0; i < in->nnodes; i++)
        if (awake[i]) {
            ns++;
            w += in->nodes[i].static_w + in->nodes[i].other_w;     /* eq. 4 */
        }
    for (size_t g = 0; g < in->ngpus; g++) {
        const gpu_profile *gp = in->gpus[g].prof;
        double gw = 0;
        if (f[g] > 0) {
            ng++;
            gw = gp->idle_w + gp->alpha_w_per_mhz * f[g];
        } else if (awake[in->gpus[g].node])
            gw = gp->sleep_w;
        if (watts)
            watts[g] = gw;
        w += gw;
    }
    if (gpus)
        *gpus = ng;
    if (servers)
        *servers = ns;
    if (!freq)
        free(f);
    free(awake);
    return w;
}

/* Placements, clocks and watts of every GPU, power recomputed from them. */
static void write_solution(const cats_inst *in, const cats_map *m, const pk_sol *s,
                           solve_result *res)
{
    int *gpu_of_bin = xmalloc((size_t)(s->nbins > 0 ? s->nbins : 1) * sizeof *gpu_of_bin);
    if (place_bins(in, m, s, gpu_of_bin)) {
        free(gpu_of_bin);
        return;
    }
    res->ngpus = in->ngpus;
    res->gpu_freq_mhz = xcalloc(in->ngpus ? in->ngpus : 1, sizeof(double));
    res->gpu_watts = xcalloc(in->ngpus ? in->ngpus : 1, sizeof(double));
    res->place = xcalloc((size_t)(m->nitems ? m->nitems : 1), sizeof *res->place);
    for (int i = 0; i < m->nitems; i++)
        res->place[res->nplace++] =
            (solve_place){m->item_task[i], gpu_of_bin[s->bin_of[i]]};
    res->objective = cats_power_of(in, res->place, res->nplace, res->gpu_freq_mhz,
                                   res->gpu_watts, &res->gpus_used, &res->servers_used);
    free(gpu_of_bin);
}

/* An outside start (task -> GPU) as a packing: one bin per used GPU. */
static int start_solution(const cats_inst *in, const cats_map *m, const solve_opts *o,
                          pk_sol *s)
{
    if (!o->start || o->nstart == 0)
        return 0;
    int *bin_of_gpu = xmalloc((in->ngpus ? in->ngpus : 1) * sizeof *bin_of_gpu);
    int *used = xcalloc(in->ntasks ? in->ntasks : 1, sizeof *used);
    for (size_t g = 0; g < in->ngpus; g++)
        bin_of_gpu[g] = -1;
    int ok = 1;
    for (size_t k = 0; k < o->nstart && ok; k++) {
        const solve_place *pl = &o->start[k];
        ok = pl->task >= 0 && (size_t)pl->task < in->ntasks && pl->gpu >= 0 &&
             (size_t)pl->gpu < in->ngpus && used[pl->task] < in->tasks[pl->task].v;
        if (!ok)
            break;
        if (bin_of_gpu[pl->gpu] < 0) {
            bin_of_gpu[pl->gpu] = s->nbins;
            s->bin_class[s->nbins++] = m->gpu_class[pl->gpu];
        }
        s->bin_of[m->first_item[pl->task] + used[pl->task]++] = bin_of_gpu[pl->gpu];
    }
    for (size_t l = 0; l < in->ntasks && ok; l++)
        ok = used[l] == in->tasks[l].v;
    free(bin_of_gpu);
    free(used);
    return ok;
}

static int solve_paper(const cats_inst *in, sg_ctx *c, solve_result *res, gp_err *err);

int solve_cats(const cats_inst *in, const solve_opts *o, solve_result *res, gp_err *err)
{
    solve_result_init(res);
    if (check_inst(in, err))
        return -1;
    sg_ctx c;
    sg_begin(&c, o);
    int rc;
    if (o->paper_model) {
        rc = solve_paper(in, &c, res, err);
    } else {
        cats_map m;
        memset(&m, 0, sizeof m);
        make_classes(in, &m);
        make_types(in, &m);
        make_items(in, &m);
        pk_inst p;
        build_pack(in, &m, &p);
        pk_sol start, best;
        pk_sol_init(&start, &p);
        pk_sol_init(&best, &p);
        int have = start_solution(in, &m, o, &start);
        rc = pk_solve(&p, have ? &start : NULL, &c, res, &best, err);
        if (rc == 0 && res->has_solution) {
            double cost = res->objective;
            write_solution(in, &m, &best, res);
            if (fabs(res->objective - cost) > 1e-6 * (1 + fabs(cost)))
                rc = gp_error(err, "CATS: internal error: power %g W recomputed as %g W",
                              cost, res->objective);
        }
        pk_sol_free(&start);
        pk_sol_free(&best);
        pk_inst_free(&p);
        map_free(&m);
    }
    if (rc == 0 && res->status == SOLVE_INFEASIBLE)
        cats_why(in, res);
    res->time_s = now_seconds() - c.t0;
    sg_end(&c, res);
    return rc;
}

/* ---- the paper's model, for comparison ---------------------------------------------------- */

typedef struct paper_cols {
    int x0, y0, z0, f0;     /* first column of x[l][g], y[g], z[i], f[g] */
} paper_cols;

static void paper_rows(glp_prob *P, const cats_inst *in, const paper_cols *pc, int *ind,
                       double *val)
{
    size_t L = in->ntasks, G = in->ngpus;
    for (size_t l = 0; l < L; l++) {                            /* eq. 7 */
        int r = glp_add_rows(P, 1);
        glp_set_row_bnds(P, r, GLP_FX, in->tasks[l].v, in->tasks[l].v);
        for (size_t g = 0; g < G; g++) {
            ind[g + 1] = pc->x0 + (int)(l * G + g);
            val[g + 1] = 1;
        }
        glp_set_mat_row(P, r, (int)G, ind, val);
    }
    for (size_t g = 0; g < G; g++) {
        const cats_gpu *gp = &in->gpus[g];
        int y = pc->y0 + (int)g, f = pc->f0 + (int)g, z = pc->z0 + gp->node;
        int r = glp_add_rows(P, 1);                             /* eq. 8 */
        glp_set_row_bnds(P, r, GLP_UP, 0, 0);
        for (size_t l = 0; l < L; l++) {
            ind[l + 1] = pc->x0 + (int)(l * G + g);
            val[l + 1] = in->tasks[l].mem_gib;
        }
        ind[L + 1] = y;
        val[L + 1] = -gp->mem_gib;
        glp_set_mat_row(P, r, (int)L + 1, ind, val);
        if (in->util_cap_pct > 0) {
            /* the option's utilization cap (CATS §4), as eq. 8 for memory */
            r = glp_add_rows(P, 1);
            glp_set_row_bnds(P, r, GLP_UP, 0, 0);
            for (size_t l = 0; l < L; l++)
                val[l + 1] = in->tasks[l].util_pct;
            val[L + 1] = -in->util_cap_pct;
            glp_set_mat_row(P, r, (int)L + 1, ind, val);
        }
        for (size_t l = 0; l < L; l++) {
            int x = pc->x0 + (int)(l * G + g);
            r = glp_add_rows(P, 1);                             /* eq. 9 */
            glp_set_row_bnds(P, r, GLP_UP, 0, 0);
            glp_set_mat_row(P, r, 2, (int[]){0, x, y}, (double[]){0, 1, -1});
            /* eq. 14: f >= f_max kappa^(-1/beta) - M (1 - x), M = f_max */
            double M = gp->prof->f_max_mhz;
            double need = gp->prof->f_max_mhz * pow(in->tasks[l].kappa, -1.0 / gp->prof->beta);
            r = glp_add_rows(P, 1);
            glp_set_row_bnds(P, r, GLP_LO, need - M, 0);
            glp_set_mat_row(P, r, 2, (int[]){0, f, x}, (double[]){0, 1, -M});
            if (in->allow && !in->allow[l * G + g])
                glp_set_col_bnds(P, x, GLP_FX, 0, 0);
        }
        r = glp_add_rows(P, 1);                                 /* eq. 10 */
        glp_set_row_bnds(P, r, GLP_UP, 0, 0);
        glp_set_mat_row(P, r, 2, (int[]){0, y, z}, (double[]){0, 1, -1});
        r = glp_add_rows(P, 1);                                 /* eq. 13 */
        glp_set_row_bnds(P, r, GLP_LO, 0, 0);
        glp_set_mat_row(P, r, 2, (int[]){0, f, y}, (double[]){0, 1, -gp->prof->f_min_mhz});
        r = glp_add_rows(P, 1);
        glp_set_row_bnds(P, r, GLP_UP, 0, 0);
        glp_set_mat_row(P, r, 2, (int[]){0, f, y}, (double[]){0, 1, -gp->prof->f_max_mhz});
    }
    for (size_t i = 0; i < in->nnodes; i++) {                   /* eq. 11 */
        const cats_node *nd = &in->nodes[i];
        int r = glp_add_rows(P, 1), k = 0;
        glp_set_row_bnds(P, r, GLP_UP, 0, 0);
        ind[++k] = pc->z0 + (int)i;
        val[k] = 1;
        for (int g = nd->gpu0; g < nd->gpu0 + nd->ngpus; g++) {
            ind[++k] = pc->y0 + g;
            val[k] = -1;
        }
        glp_set_mat_row(P, r, k, ind, val);
    }
}

/* CATS eq. 6–14 as published: x[l][g], y[g], z[i] binary, f[g] continuous. */
static glp_prob *paper_model(const cats_inst *in, paper_cols *pc)
{
    size_t L = in->ntasks, G = in->ngpus, N = in->nnodes;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    pc->x0 = 1;
    pc->y0 = pc->x0 + (int)(L * G);
    pc->z0 = pc->y0 + (int)G;
    pc->f0 = pc->z0 + (int)N;
    glp_add_cols(P, (int)(L * G + 2 * G + N));
    for (int j = pc->x0; j < pc->f0; j++)
        glp_set_col_kind(P, j, GLP_BV);
    /* eq. 2 and 4; a GPU asleep on an awake server draws its sleep watts
     * (SPEC §3.2; 0 in the paper): sleep * (z_i - y_ij) */
    for (size_t i = 0; i < N; i++)
        glp_set_obj_coef(P, pc->z0 + (int)i, in->nodes[i].static_w + in->nodes[i].other_w);
    for (size_t g = 0; g < G; g++) {
        const gpu_profile *gp = in->gpus[g].prof;
        int z = pc->z0 + in->gpus[g].node;
        glp_set_col_bnds(P, pc->f0 + (int)g, GLP_LO, 0, 0);
        glp_set_obj_coef(P, pc->f0 + (int)g, gp->alpha_w_per_mhz);
        glp_set_obj_coef(P, pc->y0 + (int)g, gp->idle_w - gp->sleep_w);
        glp_set_obj_coef(P, z, glp_get_obj_coef(P, z) + gp->sleep_w);
    }
    size_t w = (L > G ? L : G) + 2;
    w = w > (size_t)GP_NODE_MAX_GPUS + 2 ? w : (size_t)GP_NODE_MAX_GPUS + 2;
    int *ind = xmalloc((w + 64) * sizeof *ind);
    double *val = xmalloc((w + 64) * sizeof *val);
    paper_rows(P, in, pc, ind, val);
    free(ind);
    free(val);
    return P;
}

static int solve_paper(const cats_inst *in, sg_ctx *c, solve_result *res, gp_err *err)
{
    strlcpy0(res->method, "paper", sizeof res->method);
    if (in->ntasks == 0 || in->ngpus == 0) {
        res->status = in->ntasks ? SOLVE_INFEASIBLE : SOLVE_OPTIMAL;
        res->has_solution = in->ntasks == 0;
        res->objective = res->bound = res->gap = 0;
        return 0;
    }
    paper_cols pc;
    glp_prob *P = paper_model(in, &pc);
    res->rows = glp_get_num_rows(P);
    res->cols = glp_get_num_cols(P);
    if (sg_write(c, P, err)) {
        glp_delete_prob(P);
        return -1;
    }
    sg_mip m = {0};
    m.known_lb = -HUGE_VAL;
    m.cuts = 0;
    if (sg_solve(c, P, &m, err)) {
        glp_delete_prob(P);
        return -1;
    }
    res->nodes = m.nodes;
    res->lp_bound = m.lp_obj;
    res->status = m.status == SOLVE_TIMEOUT && m.has_solution ? SOLVE_FEASIBLE : m.status;
    res->has_solution = m.has_solution;
    res->bound = m.bound;
    if (m.has_solution) {
        res->objective = m.obj;
        res->gap = res->status == SOLVE_OPTIMAL ? 0 : sg_gap(m.obj, m.bound);
        size_t L = in->ntasks, G = in->ngpus;
        res->place = xcalloc(L * G + 1, sizeof *res->place);
        res->ngpus = G;
        res->gpu_freq_mhz = xcalloc(G, sizeof(double));
        res->gpu_watts = xcalloc(G, sizeof(double));
        for (size_t g = 0; g < G; g++) {
            if (glp_mip_col_val(P, pc.y0 + (int)g) > 0.5) {
                res->gpus_used++;
                res->gpu_freq_mhz[g] = glp_mip_col_val(P, pc.f0 + (int)g);
                res->gpu_watts[g] = in->gpus[g].prof->idle_w +
                                    in->gpus[g].prof->alpha_w_per_mhz * res->gpu_freq_mhz[g];
            }
            for (size_t l = 0; l < L; l++)
                if (glp_mip_col_val(P, pc.x0 + (int)(l * G + g)) > 0.5)
                    res->place[res->nplace++] = (solve_place){(int)l, (int)g};
        }
        for (size_t i = 0; i < in->nnodes; i++)
            res->servers_used += glp_mip_col_val(P, pc.z0 + (int)i) > 0.5;
    }
    glp_delete_prob(P);
    return 0;
}

/* ---- the "Optimal" row of a run comparison ------------------------------------------ */

typedef struct span {
    double start, end;
} span;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The tasks of base running at time t (indices into base's tasks). */
static size_t active_at(const span *sp, size_t n, double t, int *out)
{
    size_t k = 0;
    for (size_t l = 0; l < n; l++)
        if (sp[l].start <= t && t < sp[l].end)
            out[k++] = (int)l;
    return k;
}

/* base with only the listed tasks (GPUs and nodes shared by copy). */
static void subset(const cats_inst *base, const int *idx, size_t k, cats_inst *out)
{
    *out = *base;
    out->tasks = xcalloc(k ? k : 1, sizeof *out->tasks);
    out->ntasks = k;
    for (size_t a = 0; a < k; a++)
        out->tasks[a] = base->tasks[idx[a]];
    out->allow = NULL;
    if (base->allow) {
        out->allow = xmalloc(k * base->ngpus + 1);
        for (size_t a = 0; a < k; a++)
            memcpy(out->allow + a * base->ngpus, base->allow + (size_t)idx[a] * base->ngpus,
                   base->ngpus);
    }
}

/* Solves the interval's task set; power and GPUs of its optimum. */
static int solve_interval(const cats_inst *base, const int *idx, size_t k, const solve_opts *o,
                          double t0, solve_run_row *row, double *watts, int *gpus, gp_err *err)
{
    if (k == 0) {
        *watts = 0;
        *gpus = 0;
        return 0;
    }
    cats_inst sub;
    subset(base, idx, k, &sub);
    solve_opts so = *o;
    so.write_lp = so.write_mps = NULL;
    so.start = NULL;
    so.nstart = 0;
    if (o->time_limit_s > 0) {
        so.time_limit_s = o->time_limit_s - (now_seconds() - t0);
        if (so.time_limit_s <= 0) {
            free(sub.tasks);
            free(sub.allow);
            return gp_error(err, "CATS optimal: the time limit ran out before the last interval");
        }
    }
    solve_result r;
    int rc = solve_cats(&sub, &so, &r, err);
    free(sub.tasks);
    free(sub.allow);
    if (rc == 0 && !r.has_solution)
        rc = gp_error(err, "CATS optimal: %zu tasks running together have no placement (%s)",
                      k, solve_status_name(r.status));
    if (rc == 0) {
        *watts = r.objective;
        *gpus = r.gpus_used;
        if (r.status != SOLVE_OPTIMAL) {
            row->proven = 0;
            row->worst_gap = fmax(row->worst_gap, r.gap);
        }
    }
    solve_result_free(&r);
    return rc;
}

int solve_cats_for_run(const cluster *cl, const catalog *cat, const gp_trace *tr,
                       size_t max_tasks, const solve_opts *o, solve_run_row *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    out->proven = 1;
    if (max_tasks == 0)
        max_tasks = 128;
    cats_inst base;
    if (cats_inst_from_model(cl, cat, tr, 0, &base, err))
        return -1;
    size_t n = base.ntasks;
    span *sp = xcalloc(n ? n : 1, sizeof *sp);
    double *times = xmalloc((2 * n + 1) * sizeof *times);
    for (size_t l = 0; l < n; l++) {
        const task *t = &tr->tasks[base.tasks[l].src];
        /* at its optimal clock a task takes kappa * e_min (eq. 5 at f_req) */
        sp[l] = (span){t->arrival_s, t->arrival_s + base.tasks[l].kappa * fmax(0, t->duration_s)};
        out->jct_mean_s += (sp[l].end - sp[l].start) / (double)n;
        times[2 * l] = sp[l].start;
        times[2 * l + 1] = sp[l].end;
    }
    qsort(times, 2 * n, sizeof *times, cmp_double);
    int *idx = xmalloc((n ? n : 1) * sizeof *idx), *prev = xmalloc((n ? n : 1) * sizeof *prev);
    size_t nprev = (size_t)-1;
    double watts = 0, t0 = now_seconds();
    int gpus = 0, rc = 0;
    for (size_t e = 0; e + 1 < 2 * n && rc == 0; e++) {
        double a = times[e], b = times[e + 1];
        if (b <= a)
            continue;
        size_t k = active_at(sp, n, a, idx);
        if (k > max_tasks)
            rc = gp_error(err, "CATS optimal: %zu tasks run at once (t = %g s), more than %zu",
                          k, a, max_tasks);
        else if (k != nprev || memcmp(idx, prev, k * sizeof *idx) != 0) {
            rc = solve_interval(&base, idx, k, o, t0, out, &watts, &gpus, err);
            memcpy(prev, idx, k * sizeof *idx);
            nprev = k;
            out->intervals++;
        }
        out->energy_j += watts * (b - a);
        out->mean_gpus += gpus * (b - a);
        out->peak_power_w = fmax(out->peak_power_w, watts);
        out->peak_gpus = fmax(out->peak_gpus, gpus);
    }
    if (n > 0) {
        out->span_s = times[2 * n - 1] - times[0];
        if (out->span_s > 0) {
            out->mean_power_w = out->energy_j / out->span_s;
            out->mean_gpus /= out->span_s;
        }
    }
    free(sp);
    free(times);
    free(idx);
    free(prev);
    cats_inst_free(&base);
    return rc;
}
