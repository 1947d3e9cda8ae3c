/*
 * sim_cap.c — the power caps of a run in the simulator (sim.h, cfg.caps):
 * each capped GPU gets a clock ceiling from its profile's power curve
 * (power/power_cap.h), which every clock the simulator sets respects — the
 * start and wake-up clock, DFS's raises (Alg. 4 never goes above it), and
 * the clock a GPU returns to when PEACE lets it go.  The rate at that
 * clock is eq. 5's, read through sim_gpu_set_clock like any other clock,
 * and the draw eq. 1's, so the cap is held by construction.
 *
 * On the GPU model of the run's PEACE set, PEACE's split holds the GPUs it
 * can (sim_peace.c) and the ceiling the rest.
 */
#include "sim_int.h"
#include "peace/peace.h"

#include <string.h>

/* The GPU model PEACE works on in this run, or NULL. */
static const char *peace_gpu(const sim_config *cfg)
{
    if (!(cfg->peace.cap_w > 0) || !cfg->peace.ix)
        return NULL;
    return peace_index_set(cfg->peace.ix)->gpu;
}

/* The cap of profile p; an error when no clock of p holds it (except on
 * PEACE's model, where PEACE's own range check applies). */
static int check_profile(const sim_config *cfg, const gpu_profile *p, gp_err *err)
{
    double cap = power_caps_for(&cfg->caps, p->name);
    const char *pg = peace_gpu(cfg);
    return cap > 0 ? power_cap_check(p, cap, pg && strcmp(pg, p->name) == 0, err) : 0;
}

int sim_cap_check(const sim_config *cfg, const cluster *cl, const catalog *cat,
                  power_model pm, gp_err *err)
{
    if (!power_caps_any(&cfg->caps))
        return 0;
    if (pm != POWER_CATS)
        return gp_error(err, "a GPU power cap needs the cats power model (eopc counts a "
                        "busy GPU at its maximum whatever its clock)");
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *n = &cl->nodes[i];
        const gpu_profile *p = n->gpu_count > 0 ? catalog_gpu(cat, n->gpu_model) : NULL;
        if (p && check_profile(cfg, p, err))
            return -1;
    }
    return 0;
}

void sim_cap_init_gpu(sim *s, int g)
{
    cs_gpu *gpu = &s->st.cs->gpus[g];
    const gpu_profile *p = s->st.cs->nodes[gpu->node].gpu;
    double top = p ? p->f_max_mhz : gpu->freq_mhz, cap = p ? power_caps_for(&s->cfg.caps, p->name) : 0;
    power_cap_effect eff;
    gp_err err;
    if (cap > 0 && power_cap_clock(p, cap, &top, &eff, &err))
        top = p->f_min_mhz;     /* sim_cap_check refused it: not reached */
    s->st.gpus[g].top_mhz = top;
    if (gpu->freq_mhz > top)
        gpu->freq_mhz = top;
}

double sim_gpu_top_mhz(const sim *s, int g)
{
    return s->st.gpus[g].top_mhz;
}

int sim_gpu_cap(const sim *s, int g, sim_cap_gpu *out)
{
    memset(out, 0, sizeof *out);
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    const gpu_profile *p = s->st.cs->nodes[gpu->node].gpu;
    out->cap_w = p ? power_caps_for(&s->cfg.caps, p->name) : 0;
    if (!(out->cap_w > 0))
        return 0;
    const char *pg = peace_gpu(&s->cfg);
    sim_peace_gpu held;
    out->peace_model = pg && strcmp(pg, p->name) == 0;
    out->peace_held = out->peace_model && sim_gpu_peace(s, g, &held);
    double f;
    gp_err err;
    if (power_cap_clock(p, out->cap_w, &f, &out->effect, &err))
        out->effect = CAP_BELOW_CLOCKS;     /* refused by sim_cap_check: not reached */
    out->clock_mhz = s->st.gpus[g].top_mhz;
    return 1;
}
