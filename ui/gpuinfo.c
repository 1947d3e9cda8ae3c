/*
 * gpuinfo.c — per-GPU figures for the Step and Cluster screens (gpuinfo.h).
 */
#include "gpuinfo.h"
#include "app.h"
#include "engine.h"

#include <math.h>

double task_util_at(const task *tk, double progress_s)
{
    const util_series *u = &tk->util;
    if (u->len == 0 || u->period_s <= 0)
        return tk->util_mean;
    double k = progress_s / u->period_s;
    size_t i = k <= 0 ? 0 : (size_t)k;
    if (i >= u->len)
        i = u->len - 1;
    return u->pct[i];
}

static double progress_of(const double *progress, int t)
{
    return progress ? progress[t] : 0;
}

double gpu_util_now(const cstate *cs, const gp_trace *tr, const double *progress, int gpu)
{
    const cs_gpu *g = &cs->gpus[gpu];
    double u = 0;
    for (int i = 0; i < g->ntasks; i++) {
        int t = g->tasks[i];
        if (tr && t >= 0 && (size_t)t < tr->ntasks)
            u += task_util_at(&tr->tasks[t], progress_of(progress, t));
    }
    return u;
}

int gpu_util_unread(const cstate *cs, const gp_trace *tr, int gpu)
{
    const cs_gpu *g = &cs->gpus[gpu];
    int n = 0;
    for (int i = 0; i < g->ntasks; i++) {
        int t = g->tasks[i];
        if (tr && t >= 0 && (size_t)t < tr->ntasks && tr->tasks[t].util.len == 0 &&
            !(tr->tasks[t].util_mean > 0))
            n++;
    }
    return n;
}

size_t gpu_agg_series(const cstate *cs, const gp_trace *tr, const double *progress, int gpu,
                      float *out, size_t cap)
{
    const cs_gpu *g = &cs->gpus[gpu];
    double period = 0;
    for (int i = 0; i < g->ntasks && !period; i++) {
        int t = g->tasks[i];
        if (tr && t >= 0 && (size_t)t < tr->ntasks && tr->tasks[t].util.len)
            period = tr->tasks[t].util.period_s;
    }
    if (period <= 0)
        return 0;
    size_t len = 0;
    for (size_t k = 0; k < cap; k++) {
        double sum = 0;
        int alive = 0;
        for (int i = 0; i < g->ntasks; i++) {
            int t = g->tasks[i];
            if (!tr || t < 0 || (size_t)t >= tr->ntasks)
                continue;
            const task *tk = &tr->tasks[t];
            double p = progress_of(progress, t) + (double)k * period;
            if (p >= tk->duration_s && tk->duration_s > 0)
                continue;
            sum += task_util_at(tk, p);
            alive = 1;
        }
        if (!alive)
            break;
        out[len++] = (float)sum;
    }
    return len;
}

double gpu_watts(const cstate *cs, int gpu, int eopc)
{
    const cs_gpu *g = &cs->gpus[gpu];
    const gpu_profile *p = cs->nodes[g->node].gpu;
    if (!p)
        return 0;
    if (eopc)
        return g->alloc_milli > 0 ? p->max_w : p->idle_w;
    return power_cats_gpu(cs, gpu);
}

int gpu_level_of(double frac)
{
    if (!(frac > 0))
        return 0;
    if (frac > 1.0 + 1e-9)
        return 4;
    return frac <= 1.0 / 3 ? 1 : frac <= 2.0 / 3 ? 2 : 3;
}

int gpu_heat_level(const cstate *cs, const gp_trace *tr, const double *progress, int gpu,
                   int view)
{
    const cs_gpu *g = &cs->gpus[gpu];
    const gpu_profile *p = cs->nodes[g->node].gpu;
    switch (view) {
    case HEAT_ALLOC:
        return gpu_level_of(g->alloc_milli / 1000.0);
    case HEAT_UTIL:
        return gpu_level_of(gpu_util_now(cs, tr, progress, gpu) / 100.0);
    case HEAT_POWER:
        return g->power == GPU_ASLEEP ? -1 : g->power == GPU_IDLE ? 0 : 3;
    case HEAT_FREQ: {
        if (g->power == GPU_ASLEEP)
            return -1;
        double span = p ? p->f_max_mhz - p->f_min_mhz : 0;
        double f = span > 0 ? (g->freq_mhz - p->f_min_mhz) / span : 1;
        return f >= 0.999 ? 3 : f > GPU_FREQ_HIGH_FRAC ? 2 : 1;
    }
    case HEAT_MEM:
        return gpu_level_of(g->mem_gib > 0 ? g->mem_used_gib / g->mem_gib : 0);
    default:
        return 0;
    }
}
