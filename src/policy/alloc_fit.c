/*
 * alloc_fit.c — a round's running tally of what each GPU holds
 * (alloc_fit.h).
 */
#include "alloc_fit.h"

#include <stdlib.h>

struct alloc_fit {
    const cstate *cs;
    const gp_trace *tr;
    /* A GPU's figures are copied from the state when the round first
     * changes them (mine[g] set), and read from the state until then: a
     * round touches the GPUs of its jobs, not every idle GPU of the
     * cluster, and the arithmetic on each GPU is the same as on a full
     * copy, in the same order. */
    unsigned char *mine;        /* per GPU, zeroed */
    int *ntasks;                /* per GPU, where mine */
    double *mem_free;           /* per GPU, GiB, where mine */
};

static int ntasks_of(const alloc_fit *f, int g)
{
    return f->mine[g] ? f->ntasks[g] : f->cs->gpus[g].ntasks;
}

static double mem_free_of(const alloc_fit *f, int g)
{
    return f->mine[g] ? f->mem_free[g] : cs_gpu_mem_free(&f->cs->gpus[g]);
}

/* GPU g's figures, copied from the state the first time. */
static void make_mine(alloc_fit *f, int g)
{
    if (f->mine[g])
        return;
    f->ntasks[g] = f->cs->gpus[g].ntasks;
    f->mem_free[g] = cs_gpu_mem_free(&f->cs->gpus[g]);
    f->mine[g] = 1;
}

alloc_fit *alloc_fit_new(const cstate *cs, const gp_trace *tr, const alloc_job *jobs,
                         size_t njobs)
{
    alloc_fit *f = xcalloc(1, sizeof *f);
    size_t n = cs->ngpus ? cs->ngpus : 1;
    f->cs = cs;
    f->tr = tr;
    f->mine = xcalloc(n, sizeof *f->mine);
    f->ntasks = xmalloc(n * sizeof *f->ntasks);
    f->mem_free = xmalloc(n * sizeof *f->mem_free);
    for (size_t i = 0; i < njobs; i++) {
        if (!jobs[i].running)
            continue;
        const task *tk = &tr->tasks[jobs[i].task];
        for (int k = 0; k < jobs[i].cur.ngpus; k++) {
            int g = jobs[i].cur.gpus[k];
            make_mine(f, g);
            f->ntasks[g]--;
            f->mem_free[g] += tk->gpu_mem_gib;
        }
    }
    return f;
}

void alloc_fit_free(alloc_fit *f)
{
    if (!f)
        return;
    free(f->mine);
    free(f->ntasks);
    free(f->mem_free);
    free(f);
}

int alloc_fit_gpu_ok(const alloc_fit *f, int ti, int g)
{
    const task *tk = &f->tr->tasks[ti];
    const cs_node *n = &f->cs->nodes[f->cs->gpus[g].node];
    return n->gpu && task_allows_model(tk, n->gpu->name) && ntasks_of(f, g) < ALLOC_MAX_PER_GPU &&
           mem_free_of(f, g) + GP_MEM_EPS_GIB >= tk->gpu_mem_gib;
}

int alloc_fit_count(const alloc_fit *f, int g)
{
    return ntasks_of(f, g);
}

void alloc_fit_take(alloc_fit *f, int ti, const placement *pl)
{
    const task *tk = &f->tr->tasks[ti];
    for (int k = 0; k < pl->ngpus; k++) {
        make_mine(f, pl->gpus[k]);
        f->ntasks[pl->gpus[k]]++;
        f->mem_free[pl->gpus[k]] -= tk->gpu_mem_gib;
    }
}

int alloc_fit_first(const alloc_fit *f, int ti, int empty_only, placement *pl)
{
    int need = task_gpus(&f->tr->tasks[ti]);
    if (need < 1)
        return 0;
    for (size_t n = 0; n < f->cs->nnodes; n++) {
        const cs_node *nd = &f->cs->nodes[n];
        pl->node = (int)n;
        pl->ngpus = 0;
        for (int d = 0; d < nd->ngpus && pl->ngpus < need; d++) {
            int g = nd->gpu0 + d;
            if (alloc_fit_gpu_ok(f, ti, g) && (!empty_only || ntasks_of(f, g) == 0))
                pl->gpus[pl->ngpus++] = g;
        }
        if (pl->ngpus == need)
            return 1;
    }
    return 0;
}
