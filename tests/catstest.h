/*
 * catstest.h — what the CATS solver tests share (test_solve_cats.c,
 * test_solve_bnp.c): building small instances, the power of an assignment
 * from CATS eq. 2-4 and 14 written independently of the solver, and the
 * check of a solution (memory, v, allowed models, its power).
 * Header-only (static functions), like testutil.h.
 */
#ifndef GP_CATSTEST_H
#define GP_CATSTEST_H

#include "testutil.h"

#include "solve/solve.h"
#include "solve/solve_int.h"

static const gpu_profile V100 = {0, "V100", 32, 23.3, 144.8, 0, 135, 1350, 0.09, 0.91, 0, "v100", 1, ""};

static inline void inst_alloc(cats_inst *in, size_t ntasks, size_t nnodes, size_t ngpus)
{
    memset(in, 0, sizeof *in);
    in->tasks = xcalloc(ntasks + 1, sizeof *in->tasks);
    in->ntasks = ntasks;
    in->nodes = xcalloc(nnodes + 1, sizeof *in->nodes);
    in->nnodes = nnodes;
    in->gpus = xcalloc(ngpus + 1, sizeof *in->gpus);
}

static inline void add_node(cats_inst *in, size_t i, int ngpus, double static_w,
                            double other_w, const gpu_profile *p, const double *mem)
{
    cats_node *n = &in->nodes[i];
    n->static_w = static_w;
    n->other_w = other_w;
    n->gpu0 = (int)in->ngpus;
    n->ngpus = ngpus;
    for (int d = 0; d < ngpus; d++)
        in->gpus[in->ngpus++] = (cats_gpu){(int)i, d, mem[d], p};
}

/* Power of an assignment from eq. 2-4 and 14, written independently. */
static inline double power_of(const cats_inst *in, const int *gpus_of /* [l*2 + c] */)
{
    double f[8] = {0}, w = 0;
    int awake[4] = {0};
    for (size_t l = 0; l < in->ntasks; l++)
        for (int c = 0; c < in->tasks[l].v; c++) {
            int g = gpus_of[l * 2 + (size_t)c];
            const gpu_profile *p = in->gpus[g].prof;
            double need = p->f_max_mhz * pow(in->tasks[l].kappa, -1 / p->beta);
            need = need < p->f_min_mhz ? p->f_min_mhz : need;
            f[g] = need > f[g] ? need : f[g];
            awake[in->gpus[g].node] = 1;
        }
    for (size_t i = 0; i < in->nnodes; i++)
        if (awake[i])
            w += in->nodes[i].static_w + in->nodes[i].other_w;
    for (size_t g = 0; g < in->ngpus; g++) {
        const gpu_profile *p = in->gpus[g].prof;
        if (f[g] > 0)
            w += p->idle_w + p->alpha_w_per_mhz * f[g];
        else if (awake[in->gpus[g].node])
            w += p->sleep_w;
    }
    return w;
}

static inline int may_run(const cats_inst *in, size_t l, int g)
{
    if (in->tasks[l].kappa < 1)
        return 0;   /* would need more than f_max */
    return !in->allow || in->allow[l * in->ngpus + (size_t)g];
}

static inline void check_solution(const cats_inst *in, const solve_result *res)
{
    int *gpus_of = xcalloc(2 * in->ntasks + 2, sizeof *gpus_of);
    int *count = xcalloc(in->ntasks + 1, sizeof *count);
    double *used = xcalloc(in->ngpus + 1, sizeof *used);
    for (size_t k = 0; k < res->nplace; k++) {
        const solve_place *p = &res->place[k];
        assert_true(p->task >= 0 && (size_t)p->task < in->ntasks);
        assert_true(p->gpu >= 0 && (size_t)p->gpu < in->ngpus);
        assert_true(may_run(in, (size_t)p->task, p->gpu));
        for (int c = 0; c < count[p->task]; c++)
            assert_int_not_equal(gpus_of[p->task * 2 + c], p->gpu);
        gpus_of[p->task * 2 + count[p->task]++] = p->gpu;
        used[p->gpu] += in->tasks[p->task].mem_gib;
    }
    for (size_t l = 0; l < in->ntasks; l++)
        assert_int_equal(count[l], in->tasks[l].v);
    for (size_t g = 0; g < in->ngpus; g++)
        assert_true(used[g] <= in->gpus[g].mem_gib + 1e-9);
    if (in->ntasks <= 16)
        assert_double_equal(power_of(in, gpus_of), res->objective, 1e-6);
    free(gpus_of);
    free(count);
    free(used);
}

#endif
