/*
 * power.h — the power models of SPEC §3.2, evaluated on a cluster state:
 *   cats  CATS eq. 1–4: an active GPU draws idle_w + alpha * f, an awake idle
 *         GPU idle_w, a sleeping GPU sleep_w; a server that is awake adds
 *         static_w + other_w; a sleeping server draws nothing.
 *   eopc  PWR eq. 1–3 as the published simulator computes it (FGD_NOTES §6):
 *         per node a CPU part by busy/idle CPU packages and a GPU part,
 *         max_w for a GPU with any allocation, else idle_w; no sleep.
 * Implementations: power_cats.c and power_eopc.c; power.c dispatches.
 */
#ifndef GP_POWER_H
#define GP_POWER_H

#include "core/cstate.h"

typedef enum power_model { POWER_CATS, POWER_EOPC } power_model;

typedef struct power_split {
    double gpu_w;
    double cpu_w;               /* eopc's CPU packages; 0 under cats */
    double static_w;            /* cats: static + other of awake servers */
    double total_w;
} power_split;

/* "cats" or "eopc"; -1 when unknown. */
int power_model_parse(const char *name);
const char *power_model_name(power_model m);

/* Power of the whole cluster in its current state. */
void power_eval(power_model m, const cstate *cs, power_split *out);

/* The same sum, term for term and in the same order (so the same double),
 * from the draws cached in cs->gpu_draw_w / node_draw_w: whoever changes
 * the state refreshes the changed GPUs' and servers' entries first with
 * power_cache_gpu / power_cache_node (the simulator does, on every
 * change).  Reads a few doubles per server instead of its records. */
void power_eval_cached(power_model m, const cstate *cs, power_split *out);
void power_cache_gpu(power_model m, cstate *cs, int gpu);
void power_cache_node(power_model m, cstate *cs, int node_idx);

void power_cats(const cstate *cs, power_split *out);
void power_cats_cached(const cstate *cs, power_split *out);
/* One GPU's draw under the cats model (for the Cluster screen). */
double power_cats_gpu(const cstate *cs, int gpu);
/* An awake server's own draw under it, P_static + P_other (eq. 4). */
double power_cats_static(const cstate *cs, int node_idx);

void power_eopc(const cstate *cs, power_split *out);
void power_eopc_cached(const cstate *cs, power_split *out);
/* Caches server node_idx's eopc parts (cs->node_draw_w) and the sums. */
void power_eopc_cache(cstate *cs, int node_idx);
/* A server's two parts as power_eopc adds them (from its key). */
void power_eopc_key(const cstate *cs, int node_idx, double *cpu_w, double *gpu_w);
/* One node's CPU and GPU watts under eopc (FGD_NOTES §6). */
void power_eopc_node(const cstate *cs, int node, double *cpu_w, double *gpu_w);
/* The same for a hypothetical state of node n: idle_milli[0..n->ngpus) per
 * device and cpu_left (PWR's score evaluates these). */
void power_eopc_raw(const cs_node *n, const int *idle_milli, int64_t cpu_left, double *cpu_w,
                    double *gpu_w);
/* Its two parts: CPU watts of node n with cpu_left milli-cores left, GPU
 * watts with free_devices of its n->ngpus devices fully free. */
double power_eopc_cpu(const cs_node *n, int64_t cpu_left);
double power_eopc_gpu(const cs_node *n, int free_devices);

#endif
