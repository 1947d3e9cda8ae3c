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

#include <math.h>
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

/* A server's parts read from its key (cstate.h), which holds what
 * power_eopc_node reads in a few bytes per node instead of every GPU's
 * record: the same figures at a tenth of the memory traffic (the
 * simulator caches them after every event). */
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

/* A draw as an exact count of 2^-64 W: 1 when it is one (0, or a
 * magnitude in [2^-11, 2^40) W, whose lowest mantissa bit is at least
 * 2^-63), else 0.  Sums of such counts are exact, so they do not depend on
 * the order of the terms; their value is rounded to a double once, when
 * read (so whole watts sum to what the index-order sum gives). */
static int to_fixed(double w, __int128 *out)
{
    *out = 0;
    if (w == 0)
        return 1;
    if (!(fabs(w) >= 0x1p-11 && fabs(w) < 0x1p40))
        return 0;
    *out = (__int128)ldexp(w, 64);
    return 1;
}

static double from_fixed(__int128 v)
{
    return ldexp((double)v, -64);
}

/* The parts in index order: what the exact sums stand for when some part
 * does not fit them. */
static void sum_parts(const cstate *cs, double *cpu_w, double *gpu_w)
{
    *cpu_w = *gpu_w = 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        *cpu_w += cs->node_draw_w[2 * i];
        *gpu_w += cs->node_draw_w[2 * i + 1];
    }
}

/* PWR eq. 3: the sum over nodes, reported with its CPU and GPU parts: the
 * exact sum of the servers' parts (power_eopc_key) rounded once, or, when
 * a part is out of the exact range, the sum in index order. */
void power_eopc(const cstate *cs, power_split *out)
{
    __int128 sum[2] = {0, 0};
    double naive[2] = {0, 0};
    int exact = 1;
    for (size_t i = 0; i < cs->nnodes; i++) {
        double part[2];
        power_eopc_key(cs, (int)i, &part[0], &part[1]);
        for (int k = 0; k < 2; k++) {
            __int128 f;
            exact &= to_fixed(part[k], &f);
            sum[k] += f;
            naive[k] += part[k];
        }
    }
    out->static_w = 0;
    out->cpu_w = exact ? from_fixed(sum[0]) : naive[0];
    out->gpu_w = exact ? from_fixed(sum[1]) : naive[1];
    out->total_w = out->cpu_w + out->gpu_w;
}

/* Server ni's parts from its key into cs->node_draw_w, and the exact sums
 * with them: a part's change is applied as a difference. */
void power_eopc_cache(cstate *cs, int ni)
{
    double *part = &cs->node_draw_w[2 * ni], now[2];
    power_eopc_key(cs, ni, &now[0], &now[1]);
    for (int k = 0; k < 2; k++) {
        __int128 was, is;
        int was_ok = to_fixed(part[k], &was), is_ok = to_fixed(now[k], &is);
        cs->node_draw_inexact += (size_t)!is_ok - (size_t)!was_ok;
        cs->node_draw_sum[k] += is - was;
        part[k] = now[k];
    }
}

/* The same sum from the parts cached per server (power_eopc_cache): the
 * exact sums when they hold every part, else one pass over the servers. */
void power_eopc_cached(const cstate *cs, power_split *out)
{
    out->static_w = 0;
    if (cs->node_draw_unsummed || cs->node_draw_inexact > 0)
        sum_parts(cs, &out->cpu_w, &out->gpu_w);
    else {
        out->cpu_w = from_fixed(cs->node_draw_sum[0]);
        out->gpu_w = from_fixed(cs->node_draw_sum[1]);
    }
    out->total_w = out->cpu_w + out->gpu_w;
}
