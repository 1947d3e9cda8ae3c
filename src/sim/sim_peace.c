/*
 * sim_peace.c — GPUs held under a power cap by PEACE in the simulator
 * (sim.h, sim_peace).  Whenever the tasks on a GPU change, this file
 * decides again whether PEACE holds it (one to three single-GPU tasks that
 * all name workloads of the PEACE set, and for two or three a group the
 * set measured), lets the partition policy choose the split, runs the
 * controller to the clock it settles at, and gives each task the rate
 * factor its ground-truth throughput there makes of its exclusive one.
 * The decision depends only on which tasks share the GPU, so it is made
 * once per task set and survives rewinds in the GPU's state.
 *
 * Not here: the rates themselves (sim_events.c reads peace_rate) and the
 * power model (power_cats.c reads the GPU's capped_w).
 */
#include "sim_int.h"
#include "peace/peace_policy.h"

#include <string.h>

int sim_peace_check(const sim_config *cfg, power_model pm, gp_err *err)
{
    const sim_peace *p = &cfg->peace;
    if (p->cap_w == 0)
        return 0;
    if (!(p->cap_w > 0) || !p->ix || !p->partition)
        return gp_error(err, "a GPU power cap needs a PEACE set and a partition policy");
    if (p->partition->needs_models && !p->models)
        return gp_error(err, "partition '%s' needs PEACE's trained models",
                        p->partition->name);
    if (pm != POWER_CATS)
        return gp_error(err, "a GPU power cap needs the cats power model (eopc counts a "
                        "busy GPU at its maximum whatever its clock)");
    return 0;
}

int *sim_peace_workloads(const sim_config *cfg, const gp_trace *tr)
{
    if (cfg->peace.cap_w <= 0)
        return NULL;
    const peace_set *set = peace_index_set(cfg->peace.ix);
    int *wl = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *wl);
    for (size_t i = 0; i < tr->ntasks; i++)
        wl[i] = tr->tasks[i].model[0] ? peace_set_workload(set, tr->tasks[i].model) : -1;
    return wl;
}

/* The PEACE group of GPU g's tasks, with each one's task index; 0 when
 * PEACE cannot hold the GPU. */
static int group_of(const sim *s, const cs_gpu *gpu, peace_combo *g, int *task_of)
{
    if (gpu->ntasks < 1 || gpu->ntasks > PEACE_MAX_COLOC)
        return 0;
    /* PEACE's measurements hold on the GPU model of its set only; in a
     * mixed fleet the other models' caps are clock clamps. */
    const gpu_profile *prof = s->st.cs->nodes[gpu->node].gpu;
    if (!prof || strcmp(prof->name, peace_index_set(s->cfg.peace.ix)->gpu) != 0)
        return 0;
    memset(g, 0, sizeof *g);
    for (int i = 0; i < gpu->ntasks; i++) {
        int ti = gpu->tasks[i];
        if (s->peace_wl[ti] < 0 || s->st.tasks[ti].pl.ngpus != 1)
            return 0;
        g->w[g->n] = s->peace_wl[ti];
        task_of[g->n++] = ti;
    }
    return 1;
}

/* An order-independent key of the GPU's task set. */
static uint64_t task_key(const cs_gpu *gpu)
{
    uint64_t k = (uint64_t)gpu->ntasks * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < gpu->ntasks; i++)
        k += ((uint64_t)gpu->tasks[i] + 1) * 0xBF58476D1CE4E5B9ull;
    return k;
}

/* Sets the GPU's clock and draw; the counters see the change (the
 * metrics' leave/enter pair). */
static void set_gpu(sim *s, int g, double freq_mhz, double capped_w)
{
    cs_gpu *gpu = &s->st.cs->gpus[g];
    sim_gpu_leave(s, g);
    gpu->freq_mhz = freq_mhz;
    gpu->capped_w = capped_w;
    sim_gpu_enter(s, g);
    sim_gpu_set_clock(s, g);
}

static void release(sim *s, int g)
{
    sim_gpu *sg = &s->st.gpus[g];
    sg->peace_on = 0;
    sg->peace_n = 0;
    set_gpu(s, g, sim_gpu_top_mhz(s, g), 0);    /* the cap's clock clamp, if any */
}

/* The split and the controller's outcome for group grp on GPU g. */
static int decide(sim *s, int g, const peace_combo *grp, peace_combo *split,
                  peace_ctrl_result *res)
{
    const sim_peace *p = &s->cfg.peace;
    const gpu_profile *prof = s->st.cs->nodes[s->st.cs->gpus[g].node].gpu;
    peace_env env = {.ix = p->ix, .models = p->models};
    if (p->ctrl)
        env.ctrl = *p->ctrl;
    else
        peace_ctrl_params_default(&env.ctrl, prof->f_min_mhz, prof->f_max_mhz);
    gp_err err;
    if (grp->n == 1) {
        *split = *grp;
        split->share[0] = PEACE_NO_PARTITION;
        return peace_control(p->ix, grp, p->cap_w, &env.ctrl, res, &err);
    }
    peace_decision d;
    if (grp->n > p->partition->max_workloads ||
        peace_policy_run(p->partition, &env, grp, p->cap_w, &d, res, &err))
        return -1;
    *split = d.split;
    return 0;
}

/* Gives each task its rate factor: the canonical entries of split (and of
 * the controller's result) matched to the tasks by workload. */
static void set_rates(sim *s, sim_gpu *sg, const peace_combo *split, const int *task_of,
                      const peace_ctrl_result *res)
{
    int used[PEACE_MAX_COLOC] = {0};
    for (int k = 0; k < split->n; k++) {
        int j = 0;
        while (j < split->n && (used[j] || s->peace_wl[task_of[j]] != split->w[k]))
            j++;
        if (j == split->n)
            continue;
        used[j] = 1;
        double excl = peace_exclusive(s->cfg.peace.ix, split->w[k]);
        s->st.tasks[task_of[j]].peace_rate = excl > 0 ? res->tput[k] / excl : 1;
        sg->peace_w[k] = split->w[k];
        sg->peace_share[k] = split->share[k];
        sg->peace_task[k] = task_of[j];
    }
    sg->peace_n = split->n;
}

/* Holds GPU g by PEACE when its group can be held, releases it when not. */
static void hold(sim *s, int g)
{
    sim_gpu *sg = &s->st.gpus[g];
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    peace_combo grp, split;
    int task_of[PEACE_MAX_COLOC];
    if (!group_of(s, gpu, &grp, task_of)) {
        if (sg->peace_on)
            release(s, g);
        return;
    }
    uint64_t key = task_key(gpu);
    if (sg->peace_on && sg->peace_key == key)
        return;
    peace_combo_canon(&grp);
    peace_ctrl_result res;
    if (decide(s, g, &grp, &split, &res)) {
        if (sg->peace_on)
            release(s, g);
        return;
    }
    set_rates(s, sg, &split, task_of, &res);
    sg->peace_on = 1;
    sg->peace_key = key;
    set_gpu(s, g, res.freq_mhz, res.power_w);
}

void sim_peace_update(sim *s, int g)
{
    if (!s->peace_wl)
        return;
    hold(s, g);
    /* A busy GPU of PEACE's model that PEACE cannot hold (a group the set
     * did not measure, a task of no PEACE workload) runs under the cap's
     * clock clamp instead: counted, so that the run says how much did. */
    sim_gpu *sg = &s->st.gpus[g];
    const gpu_profile *prof = s->st.cs->nodes[s->st.cs->gpus[g].node].gpu;
    int miss = s->st.cs->gpus[g].ntasks > 0 && !sg->peace_on && prof &&
               strcmp(prof->name, peace_index_set(s->cfg.peace.ix)->gpu) == 0;
    if (miss != sg->peace_miss) {
        s->st.acc.uncapped_gpus = s->st.acc.uncapped_gpus + (size_t)miss - sg->peace_miss;
        sg->peace_miss = (unsigned char)miss;
    }
}

int sim_gpu_peace(const sim *s, int g, sim_peace_gpu *out)
{
    if (g < 0 || (size_t)g >= s->st.cs->ngpus || !s->st.gpus[g].peace_on)
        return 0;
    const sim_gpu *sg = &s->st.gpus[g];
    memset(out, 0, sizeof *out);
    out->n = sg->peace_n;
    for (int k = 0; k < sg->peace_n; k++) {
        out->workload[k] = sg->peace_w[k];
        out->share_pct[k] = sg->peace_share[k];
        out->task[k] = sg->peace_task[k];
    }
    out->freq_mhz = s->st.cs->gpus[g].freq_mhz;
    out->power_w = s->st.cs->gpus[g].capped_w;
    out->cap_w = s->cfg.peace.cap_w;
    return 1;
}
