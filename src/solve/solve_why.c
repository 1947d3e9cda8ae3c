/*
 * solve_why.c — why an instance is infeasible, in words: the first task
 * that fits nowhere by itself and the reason (memory, the GPU models it
 * may use, its SLA's kappa, the utilization cap, its GPU count, GOGH's
 * minimum throughput), or, when every task fits alone, that they do not
 * fit together.  Called by the solvers once a solve has proven the
 * instance infeasible; fills solve_result.why and why_task, and clears the
 * bound (an infeasible minimisation has no finite optimum to bound).
 *
 * Not here: deciding infeasibility (the solvers prove it), naming tasks
 * (the caller knows the trace; why_task is the instance's index).
 */
#include "solve_int.h"

#include <stdio.h>
#include <stdlib.h>

static void say(solve_result *res, int which, const char *fmt, double a, double b)
{
    res->why_task = which;
    snprintf(res->why, sizeof res->why, fmt, a, b);
}

static void mark_infeasible(solve_result *res)
{
    res->bound = HUGE_VAL;
    res->gap = HUGE_VAL;
    res->why_task = -1;
    res->why[0] = 0;
}

/* ---- CATS --------------------------------------------------------------------------- */

/* The reason task l can run on no GPU of the instance, or 0 when it can. */
static int cats_task_why(const cats_inst *in, size_t l, solve_result *res)
{
    const cats_task *t = &in->tasks[l];
    int allowed = 0, fits = 0;
    double largest = 0;
    for (size_t g = 0; g < in->ngpus; g++) {
        if (in->allow && !in->allow[l * in->ngpus + g])
            continue;
        allowed++;
        largest = fmax(largest, in->gpus[g].mem_gib);
        fits += t->mem_gib <= in->gpus[g].mem_gib + SOLVE_EPS;
    }
    if (allowed == 0) {
        say(res, (int)l, "model constraint: no GPU of the cluster is a model it may use", 0, 0);
        return 1;
    }
    if (fits == 0) {
        say(res, (int)l, "memory: it needs %.1f GiB, the largest GPU it may use has %.1f GiB",
            t->mem_gib, largest);
        return 1;
    }
    if (t->kappa < 1 - SOLVE_EPS) {   /* CATS eq. 14 at f_max gives kappa >= 1 */
        say(res, (int)l, "kappa %.3g < 1: its SLA needs a clock above every GPU's f_max", t->kappa,
            0);
        return 1;
    }
    if (in->util_cap_pct > 0 && t->util_pct > in->util_cap_pct + SOLVE_EPS) {
        say(res, (int)l, "utilization: its mean %.1f %% is above the cap of %.1f %%", t->util_pct,
            in->util_cap_pct);
        return 1;
    }
    if (t->v > fits) {
        say(res, (int)l, "it needs %.0f GPUs, only %.0f of those it may use can hold it", t->v,
            fits);
        return 1;
    }
    return 0;
}

void cats_why(const cats_inst *in, solve_result *res)
{
    mark_infeasible(res);
    for (size_t l = 0; l < in->ntasks; l++)
        if (cats_task_why(in, l, res))
            return;
    say(res, -1, "every task fits some GPU alone, but together they do not fit the cluster's "
                 "GPUs (memory, GPU counts)", 0, 0);
}

/* ---- CorrGPU -------------------------------------------------------------------------- */

void corrgpu_why(const corrgpu_inst *in, solve_result *res)
{
    mark_infeasible(res);
    for (size_t l = 0; l < in->ntasks; l++)
        if (in->mem_gib[l] > in->gpu_mem_gib + SOLVE_EPS) {
            say(res, (int)l, "memory: it needs %.1f GiB, a GPU has %.1f GiB", in->mem_gib[l],
                in->gpu_mem_gib);
            return;
        }
    /* GPUs are not counted (eq. 3 minimises them), so only memory can fail. */
    say(res, -1, "no placement exists (memory)", 0, 0);
}

/* ---- GOGH ----------------------------------------------------------------------------- */

/* The most job j gets from one accelerator of type a: alone, or beside any
 * other job when the type holds two (eq. 2d). */
static double gogh_best_on(const gogh_inst *in, size_t a, size_t j)
{
    size_t J = in->njobs;
    double best = in->solo[a * J + j];
    if (in->types[a].theta >= 2)
        for (size_t k = 0; k < J; k++)
            if (k != j)
                best = fmax(best, in->pair[(a * J + j) * J + k]);
    return best;
}

/* The most job j gets from its D_j best accelerators of the cluster. */
static double gogh_most(const gogh_inst *in, size_t j, const int *count)
{
    double *v = xcalloc(in->ntypes + 1, sizeof *v);
    int *left = xcalloc(in->ntypes + 1, sizeof *left);
    for (size_t a = 0; a < in->ntypes; a++) {
        v[a] = gogh_best_on(in, a, j);
        left[a] = count[a];
    }
    double sum = 0;
    for (int d = 0; d < in->jobs[j].dmax; d++) {
        size_t pick = in->ntypes;
        for (size_t a = 0; a < in->ntypes; a++)
            if (left[a] > 0 && v[a] > 0 && (pick == in->ntypes || v[a] > v[pick]))
                pick = a;
        if (pick == in->ntypes)
            break;
        sum += v[pick];
        left[pick]--;
    }
    free(v);
    free(left);
    return sum;
}

void gogh_why(const gogh_inst *in, solve_result *res)
{
    mark_infeasible(res);
    int *count = xcalloc(in->ntypes + 1, sizeof *count);
    for (size_t g = 0; g < in->naccels; g++)
        count[in->accels[g].type]++;
    int found = 0;
    for (size_t j = 0; j < in->njobs && !found; j++) {
        double most = gogh_most(in, j, count);
        if (most <= 0) {
            say(res, (int)j, "model constraint: no accelerator of the cluster has a throughput "
                             "for it", 0, 0);
            found = 1;
        } else if (in->jobs[j].min_tput > most + SOLVE_EPS * (1 + most)) {
            say(res, (int)j, "minimum throughput %.4g above the %.4g its best accelerators give",
                in->jobs[j].min_tput, most);
            found = 1;
        }
    }
    free(count);
    if (!found)
        say(res, -1, "every job meets its minimum alone, but together they need more "
                     "accelerators than the cluster has", 0, 0);
}
