/*
 * power_eopc.c — the eopc power model (SPEC §3.2; PWR eq. 1–3 as the
 * published PWR simulator computes it, FGD_NOTES §6): per node a CPU part
 * counted in whole CPU packages (busy package at max W, idle package at
 * idle W) and a GPU part (a device with any allocation at max W, a fully
 * free one at idle W).  No sleep states, no frequency, no static power.
 *
 * The arithmetic follows the simulator's float expressions (ceil/floor of
 * milli-cores / 1000 / 2) so that PWR scores, which are truncated watt
 * differences, come out identical.
 */
#include "power.h"

#include <string.h>


/* PWR §V-A: Intel Xeon E5-2682 v4, 16 cores per package, 15 W idle, 120 W
 * max — used for nodes whose CPU model is not set. */
#define EOPC_DEFAULT_CORES 16.0
#define EOPC_DEFAULT_IDLE_W 15.0
#define EOPC_DEFAULT_MAX_W 120.0

/* ⌈a / b⌉ and ⌊a / b⌋ for b > 0. */
static int64_t ceil_div(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* PWR eq. 1 via the simulator: two virtual CPUs per physical core
 * (cores = ceil(cap / 1000 / 2), idle cores = floor(left / 1000 / 2)); a
 * package is active when any of its cores works.  In integers: for whole
 * milli-cores the simulator's float quotients never round across an
 * integer, so the ceilings and floors are the same. */
double power_eopc_cpu(const cs_node *n, int64_t cpu_left)
{
    int64_t per_pkg = (int64_t)EOPC_DEFAULT_CORES;
    double idle_w = EOPC_DEFAULT_IDLE_W, max_w = EOPC_DEFAULT_MAX_W;
    if (n->cpu && n->cpu->cores > 0) {
        per_pkg = n->cpu->cores;
        idle_w = n->cpu->idle_w;
        max_w = n->cpu->max_w;
    }
    int64_t cores = ceil_div(n->cpu_cap, 2000);
    int64_t working = cores - floor_div(cpu_left, 2000);
    int64_t packages = ceil_div(cores, per_pkg), active = ceil_div(working, per_pkg);
    return idle_w * (double)(packages - active) + max_w * (double)active;
}

/* PWR eq. 2: p_max for a device with any allocation, p_idle otherwise. */
double power_eopc_gpu(const cs_node *n, int free_devices)
{
    if (!n->gpu || n->ngpus == 0)
        return 0;
    double idle = free_devices, working = (double)n->ngpus - idle;
    return n->gpu->idle_w * idle + n->gpu->max_w * working;
}

void power_eopc_raw(const cs_node *n, const int *idle_milli, int64_t cpu_left, double *cpu_w,
                    double *gpu_w)
{
    int free_devs = 0;
    for (int d = 0; d < n->ngpus; d++)
        free_devs += idle_milli[d] >= 1000;
    *cpu_w = power_eopc_cpu(n, cpu_left);
    *gpu_w = power_eopc_gpu(n, free_devs);
}

void power_eopc_node(const cstate *cs, int ni, double *cpu_w, double *gpu_w)
{
    const cs_node *n = &cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS];
    cs_node view = *n;
    view.ngpus = n->ngpus < GP_NODE_MAX_GPUS ? n->ngpus : GP_NODE_MAX_GPUS;
    for (int d = 0; d < view.ngpus; d++)
        idle[d] = cs_gpu_idle_milli(&cs->gpus[n->gpu0 + d]);
    power_eopc_raw(&view, idle, n->cpu_left, cpu_w, gpu_w);
}

/* PWR eq. 3: the sum over nodes, reported with its CPU and GPU parts.
 * Read from the nodes' keys (cstate.h), which hold what power_eopc_node
 * reads in a few bytes per node instead of every GPU's record: the same
 * figures, summed in the same order, at a tenth of the memory traffic (the
 * simulator sums this after every event). */
void power_eopc_key(const cstate *cs, int node_idx, double *cpu_w, double *gpu_w)
{
    const cs_key *k = &cs->keys[node_idx];
    cs_node view;
    memset(&view, 0, sizeof view);
    int free_devs = 0;
    for (int d = 0; d < k->ngpus; d++)
        free_devs += k->idle[d] >= 1000;
    view.cpu = k->cpu;
    view.cpu_cap = k->cpu_cap;
    view.gpu = k->gpu;
    view.ngpus = k->ngpus;
    *cpu_w = power_eopc_cpu(&view, k->cpu_left);
    *gpu_w = power_eopc_gpu(&view, free_devs);
}

void power_eopc(const cstate *cs, power_split *out)
{
    out->gpu_w = out->cpu_w = out->static_w = out->total_w = 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        double cpu_w, gpu_w;
        power_eopc_key(cs, (int)i, &cpu_w, &gpu_w);
        out->cpu_w += cpu_w;
        out->gpu_w += gpu_w;
    }
    out->total_w = out->cpu_w + out->gpu_w;
}

/* The same sum from the parts cached per server (power_cache_node). */
void power_eopc_cached(const cstate *cs, power_split *out)
{
    out->gpu_w = out->cpu_w = out->static_w = out->total_w = 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        out->cpu_w += cs->node_draw_w[2 * i];
        out->gpu_w += cs->node_draw_w[2 * i + 1];
    }
    out->total_w = out->cpu_w + out->gpu_w;
}
