/*
 * power.c — choosing and evaluating a power model (power.h).
 */
#include "power.h"

#include <string.h>

int power_model_parse(const char *name)
{
    if (strcmp(name, "cats") == 0)
        return POWER_CATS;
    if (strcmp(name, "eopc") == 0)
        return POWER_EOPC;
    return -1;
}

const char *power_model_name(power_model m)
{
    return m == POWER_EOPC ? "eopc" : "cats";
}

void power_eval(power_model m, const cstate *cs, power_split *out)
{
    if (m == POWER_EOPC)
        power_eopc(cs, out);
    else
        power_cats(cs, out);
}

void power_eval_cached(power_model m, const cstate *cs, power_split *out)
{
    if (m == POWER_EOPC)
        power_eopc_cached(cs, out);
    else
        power_cats_cached(cs, out);
}

void power_cache_gpu(power_model m, cstate *cs, int gpu)
{
    if (m == POWER_CATS)        /* eopc's parts are the server's */
        cs->gpu_draw_w[gpu] = power_cats_gpu(cs, gpu);
}

void power_cache_node(power_model m, cstate *cs, int node_idx)
{
    const cs_node *n = &cs->nodes[node_idx];
    if (m == POWER_EOPC) {
        power_eopc_cache(cs, node_idx);
        return;
    }
    cs->node_draw_unsummed = 1;        /* eopc's running sums no longer hold */
    cs->node_draw_w[2 * node_idx] = power_cats_static(cs, node_idx);  /* when awake */
    for (int d = 0; d < n->ngpus; d++)     /* a sleeping server's GPUs draw nothing */
        cs->gpu_draw_w[n->gpu0 + d] = power_cats_gpu(cs, n->gpu0 + d);
}
