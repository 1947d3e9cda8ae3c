/*
 * solve_corrgpu.c — CorrGPU optimal (CorrGPU §II, eq. 2–7): the fewest
 * GPUs that hold every task.
 *
 * Interpretation of the paper:
 *   - eq. 4: every GPU has the same memory c, and a task uses m_i on each
 *     of its GPUs;
 *   - eq. 5: "conflict" means rho_{i,k} > alpha, with rho the Pearson
 *     correlation (eq. 1) of the two utilization series over the shorter
 *     length (stats_pearson; a constant or missing series has rho = 0);
 *   - eq. 6: a task with v > 1 takes v distinct GPUs (its copies may not
 *     share one), and the correlation conflicts hold for each copy;
 *   - eq. 7: all tasks are dispatched at once (a snapshot), so it imposes
 *     nothing on the placement;
 *   - the iteration G = 1, 2, ... of §II is replaced by bounds on G* from
 *     both sides: the best heuristic packing gives G <= UB, memory, clique
 *     and column-generation bounds give G >= LB, and the MILP (with at most
 *     UB GPUs implied by the warm start) closes what is left;
 *   - before any LP, a search over partial packings (solve_pack_ls.c)
 *     empties GPUs of the first-fit packing one at a time: branch and
 *     price starts from what it reaches.
 *
 * The packing core (solve_pack.c) does the work; this file builds its
 * instance (task copies, conflicts, clique-first order), maps the answer
 * back, and keeps the paper's own iterative model for comparison
 * (opts.paper_model).
 */
#include "solve_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"


/* ---- instances ---------------------------------------------------------- */

void corrgpu_inst_free(corrgpu_inst *in)
{
    free(in->mem_gib);
    free(in->v);
    free(in->conflict);
    free(in->src);
    memset(in, 0, sizeof *in);
}

int corrgpu_inst_from_trace(const gp_trace *tr, size_t ntasks, double gpu_mem_gib,
                            double alpha, corrgpu_inst *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (!(gpu_mem_gib > 0))
        return gp_error(err, "CorrGPU: the GPU memory must be positive (got %g GiB)",
                        gpu_mem_gib);
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        n += tr->tasks[i].num_gpu > 0;
    if (ntasks && ntasks < n)
        n = ntasks;
    out->ntasks = n;
    out->gpu_mem_gib = gpu_mem_gib;
    out->mem_gib = xcalloc(n ? n : 1, sizeof *out->mem_gib);
    out->v = xcalloc(n ? n : 1, sizeof *out->v);
    out->src = xcalloc(n ? n : 1, sizeof *out->src);
    out->conflict = xcalloc(n > 0 ? n * n : 1, 1);
    size_t k = 0;
    for (size_t i = 0; i < tr->ntasks && k < n; i++) {
        const task *t = &tr->tasks[i];
        if (t->num_gpu <= 0)
            continue;
        out->mem_gib[k] = t->gpu_mem_gib;
        out->v[k] = t->num_gpu;
        out->src[k] = (int)i;
        k++;
    }
    /* CorrGPU eq. 1 and 5. */
    for (size_t a = 0; a < n; a++) {
        const util_series *ua = &tr->tasks[out->src[a]].util;
        for (size_t b = a + 1; b < n; b++) {
            const util_series *ub = &tr->tasks[out->src[b]].util;
            double rho = stats_pearson(ua->pct, ua->len, ub->pct, ub->len);
            if (rho > alpha)
                out->conflict[a * n + b] = out->conflict[b * n + a] = 1;
        }
    }
    return 0;
}

/* ---- the packing instance -------------------------------------------------- */

/* Items are task copies; *first[i] is the first item of task i. */
static void build_items(const corrgpu_inst *in, pk_inst *p, const int *first)
{
    size_t n = in->ntasks;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < in->v[i]; c++) {
            int it = first[i] + c;
            p->size[it] = in->mem_gib[i];
            p->task[it] = (int)i;
            p->cls[0].lead_cost[it] = 1;    /* eq. 2/3: every GPU counts one */
            for (int c2 = 0; c2 < c; c2++)
                pk_set_conflict(p, it, first[i] + c2);  /* eq. 6: distinct GPUs */
        }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (in->conflict[a * n + b])
                for (int ca = 0; ca < in->v[a]; ca++)
                    for (int cb = 0; cb < in->v[b]; cb++)
                        pk_set_conflict(p, first[a] + ca, first[b] + cb);
}

/* Copies p into q with items renumbered by order (q's item r = p's order[r]). */
static void permute(const pk_inst *p, const int *order, pk_inst *q)
{
    pk_inst_init(q, p->n, p->nclass, 0);
    q->cls[0].cap = p->cls[0].cap;
    q->quantum = p->quantum;
    int *pos = xmalloc((size_t)p->n * sizeof *pos);
    for (int r = 0; r < p->n; r++)
        pos[order[r]] = r;
    for (int r = 0; r < p->n; r++) {
        int i = order[r];
        q->size[r] = p->size[i];
        q->task[r] = p->task[i];
        q->cls[0].lead_cost[r] = p->cls[0].lead_cost[i];
        for (int k = 0; k < p->n; k++)
            if (k != i && pk_conflict(p, i, k))
                pk_set_conflict(q, r, pos[k]);
    }
    free(pos);
}

typedef struct ord {
    int clique;
    double size;
    int i;
} ord;

static int cmp_ord(const void *a, const void *b)
{
    const ord *x = a, *y = b;
    if (x->clique != y->clique)
        return y->clique - x->clique;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->i - y->i;
}

/* Clique first (its items then lead distinct GPUs by construction), then
 * larger tasks first, as first-fit-decreasing and the symmetry breaking of
 * the representative formulation both like. */
static void sorted_instance(const pk_inst *raw, pk_inst *p)
{
    int *clique = xmalloc((size_t)(raw->n ? raw->n : 1) * sizeof *clique);
    int k = pk_clique(raw, clique);
    ord *o = xcalloc((size_t)(raw->n ? raw->n : 1), sizeof *o);
    for (int i = 0; i < raw->n; i++) {
        o[i].size = raw->size[i];
        o[i].i = i;
    }
    for (int q = 0; q < k; q++)
        o[clique[q]].clique = 1;
    qsort(o, (size_t)raw->n, sizeof *o, cmp_ord);
    int *order = xmalloc((size_t)(raw->n ? raw->n : 1) * sizeof *order);
    for (int i = 0; i < raw->n; i++)
        order[i] = o[i].i;
    permute(raw, order, p);
    free(order);
    free(o);
    free(clique);
}

static int total_items(const corrgpu_inst *in, int *first)
{
    int n = 0;
    for (size_t i = 0; i < in->ntasks; i++) {
        first[i] = n;
        n += in->v[i];
    }
    return n;
}

static int check_inst(const corrgpu_inst *in, gp_err *err)
{
    for (size_t i = 0; i < in->ntasks; i++) {
        if (in->v[i] < 1 || in->v[i] > 4096)
            return gp_error(err, "CorrGPU: task %zu asks for %d GPUs", i, in->v[i]);
        if (!(in->mem_gib[i] >= 0) || !isfinite(in->mem_gib[i]))
            return gp_error(err, "CorrGPU: task %zu has memory %g GiB", i, in->mem_gib[i]);
    }
    return 0;
}

/* An outside start (task -> GPU pairs, in the raw item numbering) as a
 * solution of p; 0 when there is none or it does not give every task its
 * v GPUs. */
static int start_solution(const solve_opts *o, const corrgpu_inst *in, const int *first,
                          pk_sol *s)
{
    if (!o->start || o->nstart == 0)
        return 0;
    int *used = xcalloc(in->ntasks ? in->ntasks : 1, sizeof *used);
    int *gpu_bin = NULL, nmap = 0, ok = 1;
    for (size_t k = 0; k < o->nstart && ok; k++) {
        const solve_place *pl = &o->start[k];
        ok = pl->task >= 0 && (size_t)pl->task < in->ntasks && pl->gpu >= 0 &&
             pl->gpu < (1 << 24) && used[pl->task] < in->v[pl->task];
        if (!ok)
            break;
        if (pl->gpu >= nmap) {
            gpu_bin = xrealloc(gpu_bin, (size_t)(pl->gpu + 1) * sizeof *gpu_bin);
            for (int g = nmap; g <= pl->gpu; g++)
                gpu_bin[g] = -1;
            nmap = pl->gpu + 1;
        }
        if (gpu_bin[pl->gpu] < 0)
            gpu_bin[pl->gpu] = s->nbins++;
        s->bin_of[first[pl->task] + used[pl->task]++] = gpu_bin[pl->gpu];
    }
    for (size_t i = 0; i < in->ntasks && ok; i++)
        ok = used[i] == in->v[i];
    free(used);
    free(gpu_bin);
    for (int k = 0; k < s->nbins; k++)
        s->bin_class[k] = 0;
    return ok;
}

/* Placements in task numbering, GPUs renumbered 0..G-1 by first use. */
static void write_places(const pk_inst *p, const pk_sol *s, solve_result *res)
{
    int *gpu = xmalloc((size_t)(p->n ? p->n : 1) * sizeof *gpu), ng = 0;
    for (int k = 0; k < p->n; k++)
        gpu[k] = -1;
    res->place = xcalloc((size_t)(p->n ? p->n : 1), sizeof *res->place);
    for (int i = 0; i < p->n; i++) {
        int b = s->bin_of[i];
        if (gpu[b] < 0)
            gpu[b] = ng++;
        res->place[res->nplace].task = p->task[i];
        res->place[res->nplace].gpu = gpu[b];
        res->nplace++;
    }
    res->gpus_used = ng;
    res->servers_used = 0;     /* eq. 3-7 count GPUs, not servers */
    free(gpu);
}

/* Share of the time left, and moves per item, that the bin-emptying
 * search gets before branch and price.  On the pai-like 512-task instance
 * (618 items, half the pairs in conflict) it goes from the heuristics' 144
 * GPUs to 127 within 0.27 M moves (1 s), to 126 within 0.68 M and to 125
 * within 2.5 M (7 s), where branch and price alone ended at 129-131 in
 * 60 s; on the random 512-task one it reaches the clique + memory bound
 * (138) at once, which ends the solve before any LP, where branch and
 * price alone left 140 against 138 after 60 s.  The moves cap keeps it
 * from spending the whole share on a packing that is already optimal:
 * pai-like 256 tasks, 69 GPUs against an optimum of 68 that the root LP
 * finds, took 6.5 s of CPU with 3000 moves per item, 5.5 s with 1500,
 * 5.1 s without the search (load 1.5-2.6).  A search that keeps removing
 * GPUs runs past the cap (LS_PROGRESS_FACTOR in solve_pack_ls.c): that is
 * what takes 512 tasks from 126 to 125. */
#define CORRGPU_LS_SHARE 0.2
#define CORRGPU_LS_MOVES_PER_ITEM 1500
#define CORRGPU_LS_SEED 0xc0bb6a11ULL

/* The bin-emptying search (solve_pack_ls.c) from the outside start when
 * it is a packing, else from first fit; 0 when there is no packing. */
static int search_packing(const pk_inst *p, sg_ctx *c, int have_start, pk_sol *s)
{
    if (have_start && pk_eval(p, s) == HUGE_VAL)
        have_start = 0;
    if (!have_start && pk_first_fit(p, s) == HUGE_VAL)
        return 0;
    pk_fewer_bins(p, c, s, pk_count_bound(p), CORRGPU_LS_SHARE * sg_remaining(c),
                  CORRGPU_LS_MOVES_PER_ITEM * (long)p->n, CORRGPU_LS_SEED);
    return 1;
}

/* The search's packing s after branch and price, when it has fewer GPUs
 * than what branch and price returned in best. */
static void keep_searched(const pk_inst *p, const pk_sol *s, pk_sol *best, solve_result *res)
{
    if (res->has_solution && s->nbins >= res->objective - SOLVE_EPS)
        return;
    pk_sol_copy(best, s, p);
    res->objective = s->nbins;
    res->has_solution = 1;
    if (res->bound >= res->objective - SOLVE_EPS) {
        res->status = SOLVE_OPTIMAL;
        res->bound = res->objective;
        res->gap = 0;
        return;
    }
    res->gap = sg_gap(res->objective, res->bound);
    if (res->status == SOLVE_TIMEOUT)
        res->status = SOLVE_FEASIBLE;
}

static int solve_paper(const corrgpu_inst *in, sg_ctx *c, solve_result *res, gp_err *err);

int solve_corrgpu(const corrgpu_inst *in, const solve_opts *o, solve_result *res, gp_err *err)
{
    solve_result_init(res);
    if (check_inst(in, err))
        return -1;
    sg_ctx c;
    sg_begin(&c, o);
    if (o->paper_model) {
        int rc = solve_paper(in, &c, res, err);
        if (rc == 0 && res->status == SOLVE_INFEASIBLE)
            corrgpu_why(in, res);
        res->time_s = now_seconds() - c.t0;
        sg_end(&c, res);
        return rc;
    }
    int *first = xmalloc((in->ntasks ? in->ntasks : 1) * sizeof *first);
    int n = total_items(in, first);
    pk_inst raw, p;
    pk_inst_init(&raw, n, 1, 0);
    raw.cls[0].cap = in->gpu_mem_gib;
    raw.quantum = 1;
    build_items(in, &raw, first);
    /* The outside start is read in task order, before sorting. */
    pk_sol start_raw;
    pk_sol_init(&start_raw, &raw);
    int have_start = start_solution(o, in, first, &start_raw);
    sorted_instance(&raw, &p);
    pk_sol start, best;
    pk_sol_init(&start, &p);
    pk_sol_init(&best, &p);
    if (have_start) {
        /* map raw items onto the sorted ones: same task, copies in order */
        int *next = xcalloc(in->ntasks ? in->ntasks : 1, sizeof *next);
        for (int r = 0; r < p.n; r++) {
            int t = p.task[r];
            start.bin_of[r] = start_raw.bin_of[first[t] + next[t]++];
        }
        start.nbins = start_raw.nbins;
        free(next);
    }
    /* The search's packing goes in as branch and price's start only when
     * it meets the clique + memory bound, which ends the solve before any
     * LP; otherwise it waits until after: seeded with it, the root master
     * of the pai-like 512-task instance (with its prefix rows) stalled in
     * the simplex (bound 50-53 after 47-105 s of CPU from packings of 126
     * and 135 GPUs), where from the heuristics' 144 it converges to 121.4
     * in 14 s. */
    pk_sol found;
    pk_sol_init(&found, &p);
    if (have_start)
        pk_sol_copy(&found, &start, &p);
    int searched = search_packing(&p, &c, have_start, &found);
    int closes = searched && found.nbins <= pk_count_bound(&p);
    int rc = pk_solve(&p, closes ? &found : have_start ? &start : NULL, &c, res, &best, err);
    if (rc == 0 && searched && !closes && res->status != SOLVE_INFEASIBLE)
        keep_searched(&p, &found, &best, res);
    pk_sol_free(&found);
    if (rc == 0 && res->has_solution)
        write_places(&p, &best, res);
    if (rc == 0 && res->status == SOLVE_INFEASIBLE)
        corrgpu_why(in, res);
    res->time_s = now_seconds() - c.t0;
    sg_end(&c, res);
    pk_sol_free(&start_raw);
    pk_sol_free(&start);
    pk_sol_free(&best);
    pk_inst_free(&raw);
    pk_inst_free(&p);
    free(first);
    return rc;
}

/* ---- the paper's model, for comparison -------------------------------------- */

/*
 * CorrGPU §II as published: for G = 1, 2, ...: binary x[i,j] (task i on
 * GPU j), y[j]; min sum y (eq. 3); memory (eq. 4) with y; the pairwise
 * conflict rows (eq. 5); sum_j x[i,j] = v_i (eq. 6); the first G that is
 * feasible is G*.  No bounds, no symmetry breaking, no warm start.
 */
static glp_prob *paper_model(const corrgpu_inst *in, int G, int names)
{
    size_t n = in->ntasks;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, (int)n * G + G);
    for (int j = 0; j < G; j++) {
        int y = (int)n * G + j + 1;
        glp_set_col_kind(P, y, GLP_BV);
        glp_set_obj_coef(P, y, 1);
        for (size_t i = 0; i < n; i++)
            glp_set_col_kind(P, (int)i * G + j + 1, GLP_BV);
    }
    if (names) {
        char name[48];
        for (int j = 0; j < G; j++) {
            snprintf(name, sizeof name, "y_%d", j);
            glp_set_col_name(P, (int)n * G + j + 1, name);
            for (size_t i = 0; i < n; i++) {
                snprintf(name, sizeof name, "x_%zu_%d", i, j);
                glp_set_col_name(P, (int)i * G + j + 1, name);
            }
        }
    }
    int ind[3];
    double val[3];
    size_t len = (n > (size_t)G ? n : (size_t)G) + 2;
    int *ri = xmalloc(len * sizeof *ri);
    double *rv = xmalloc(len * sizeof *rv);
    for (size_t i = 0; i < n; i++) {                    /* eq. 6 */
        int r = glp_add_rows(P, 1);
        glp_set_row_bnds(P, r, GLP_FX, in->v[i], in->v[i]);
        for (int j = 0; j < G; j++) {
            ri[j + 1] = (int)i * G + j + 1;
            rv[j + 1] = 1;
        }
        glp_set_mat_row(P, r, G, ri, rv);
    }
    for (int j = 0; j < G; j++) {                       /* eq. 4 */
        int r = glp_add_rows(P, 1);
        glp_set_row_bnds(P, r, GLP_UP, 0, 0);
        for (size_t i = 0; i < n; i++) {
            ri[i + 1] = (int)i * G + j + 1;
            rv[i + 1] = in->mem_gib[i];
        }
        ri[n + 1] = (int)n * G + j + 1;
        rv[n + 1] = -in->gpu_mem_gib;
        glp_set_mat_row(P, r, (int)n + 1, ri, rv);
    }
    free(ri);
    free(rv);
    for (size_t a = 0; a < n; a++)                      /* eq. 5 */
        for (size_t b = a + 1; b < n; b++)
            if (in->conflict[a * n + b])
                for (int j = 0; j < G; j++) {
                    int r = glp_add_rows(P, 1);
                    glp_set_row_bnds(P, r, GLP_UP, 0, 1);
                    ind[1] = (int)a * G + j + 1;
                    ind[2] = (int)b * G + j + 1;
                    val[1] = val[2] = 1;
                    glp_set_mat_row(P, r, 2, ind, val);
                }
    return P;
}

static int solve_paper(const corrgpu_inst *in, sg_ctx *c, solve_result *res, gp_err *err)
{
    strlcpy0(res->method, "paper", sizeof res->method);
    size_t n = in->ntasks;
    if (n == 0) {
        res->status = SOLVE_OPTIMAL;
        res->has_solution = 1;
        res->objective = res->bound = res->gap = 0;
        return 0;
    }
    int vmax = 1;
    for (size_t i = 0; i < n; i++)
        vmax = in->v[i] > vmax ? in->v[i] : vmax;
    int gmax = 0;
    for (size_t i = 0; i < n; i++)
        gmax += in->v[i];
    for (int G = 1; G <= gmax; G++) {
        if (G < vmax)
            continue;       /* eq. 6 cannot hold with fewer GPUs than v */
        glp_prob *P = paper_model(in, G, c->o->write_lp || c->o->write_mps);
        res->rows = glp_get_num_rows(P);
        res->cols = glp_get_num_cols(P);
        sg_mip m = {0};
        m.known_lb = -HUGE_VAL;
        m.quantum = 1;
        if (sg_solve(c, P, &m, err)) {
            glp_delete_prob(P);
            return -1;
        }
        res->nodes += m.nodes;
        if (m.status == SOLVE_INFEASIBLE) {
            glp_delete_prob(P);
            res->bound = G + 1;
            continue;
        }
        if (m.has_solution) {
            res->objective = m.obj;
            res->has_solution = 1;
            res->place = xcalloc((size_t)gmax, sizeof *res->place);
            for (size_t i = 0; i < n; i++)
                for (int j = 0; j < G; j++)
                    if (glp_mip_col_val(P, (int)i * G + j + 1) > 0.5) {
                        res->place[res->nplace].task = (int)i;
                        res->place[res->nplace].gpu = j;
                        res->nplace++;
                    }
            res->gpus_used = (int)lround(m.obj);
        }
        if (sg_write(c, P, err)) {
            glp_delete_prob(P);
            return -1;
        }
        glp_delete_prob(P);
        if (m.status == SOLVE_OPTIMAL && m.has_solution) {
            res->status = SOLVE_OPTIMAL;
            res->bound = res->objective;
            res->gap = 0;
        } else {
            res->status = m.has_solution && m.status == SOLVE_TIMEOUT ? SOLVE_FEASIBLE
                                                                      : m.status;
            res->gap = res->has_solution ? sg_gap(res->objective, res->bound) : HUGE_VAL;
        }
        return 0;
    }
    res->status = SOLVE_INFEASIBLE;
    return 0;
}
