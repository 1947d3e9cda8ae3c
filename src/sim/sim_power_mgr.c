/*
 * sim_power_mgr.c — the power-state manager of CATS (§3.5, Fig. 4), run by
 * the simulator every tau seconds of simulated time:
 *   Alg. 3 periodic sleep: every GPU without running tasks sleeps, then
 *          every server none of whose GPUs runs a task (and that runs no
 *          CPU-only task) sleeps; a placement wakes them (counted).
 *   Alg. 4 frequency adaptation, per GPU running tasks: with
 *          e_pred = e_min (f_max/f)^beta and e_max = gamma e_min per task,
 *          any e_pred > e_max raises f by delta_f (capped at f_max); if every
 *          task has slack (e_pred < 0.95 e_max) f drops by delta_f (not below
 *          f_min); otherwise f holds (the 5 % band against oscillation).
 *          gamma is each task's kappa (or the run's override).
 *
 * Ticks at the aligned multiples k tau, but only while something is
 * pending: a GPU or server that the next tick would change.  A tick that
 * would change nothing is skipped, so the result equals ticking every tau
 * while days of trace cost a few ticks per placement.  Alg. 4 as written
 * predicts standalone time only (not contention or progress); so do we.
 *
 * A GPU woken from sleep restarts at f_max (the safe default clock), or
 * at a power cap's ceiling, which DFS never raises it above; an
 * idle awake GPU keeps its clock.  Does not place tasks.
 */
#include "sim_int.h"

#include <math.h>
#include <stdlib.h>

static const gpu_profile *profile_of(const sim *s, int g)
{
    return s->st.cs->nodes[s->st.cs->gpus[g].node].gpu;
}

double sim_dfs_step(double f, double f_min, double f_max, double beta, double delta_f,
                    const double *e_min, const double *kappa, int n)
{
    if (n <= 0 || f <= 0)
        return f;
    int violation = 0, slack = 1;
    double ratio = pow(f_max / f, beta);
    for (int i = 0; i < n; i++) {
        double e_pred = e_min[i] * ratio;                           /* Alg. 4 line 8 */
        double e_max = kappa[i] * e_min[i];                         /* line 9 */
        if (e_pred > e_max)                                         /* line 10 */
            violation = 1;
        else if (e_pred >= 0.95 * e_max)                            /* line 12 */
            slack = 0;
    }
    if (violation)
        return fmin(f_max, f + delta_f);                            /* line 15 */
    if (slack)
        return fmax(f_min, f - delta_f);                            /* line 17 */
    return f;
}

/* Alg. 4 for GPU g of the run: its frequency after one tick. */
static double dfs_next(const sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    const gpu_profile *p = profile_of(s, g);
    if (!p || gpu->ntasks == 0)
        return gpu->freq_mhz;
    double ebuf[32] = {0}, kbuf[32] = {0};
    int n = gpu->ntasks;
    double *e_min = n <= 32 ? ebuf : xmalloc((size_t)n * sizeof *e_min);
    double *kappa = n <= 32 ? kbuf : xmalloc((size_t)n * sizeof *kappa);
    for (int i = 0; i < n; i++) {
        const task *tk = &s->tr->tasks[gpu->tasks[i]];
        e_min[i] = tk->duration_s;
        kappa[i] = sim_task_kappa(s, tk);
    }
    double f = sim_dfs_step(gpu->freq_mhz, p->f_min_mhz, p->f_max_mhz, p->beta,
                            s->cfg.delta_f_mhz, e_min, kappa, n);
    f = fmin(f, sim_gpu_top_mhz(s, g));     /* a power cap's ceiling */
    if (e_min != ebuf) {
        free(e_min);
        free(kappa);
    }
    return f;
}

/* 1 when the next tick would change GPU g. */
static int gpu_needs_tick(const sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    if (gpu->ntasks > 0)
        return s->dfs_on && dfs_next(s, g) != gpu->freq_mhz;
    return s->sleep_on && gpu->power != GPU_ASLEEP;
}

static int node_needs_tick(const sim *s, int n)
{
    const cs_node *nd = &s->st.cs->nodes[n];
    return s->sleep_on && !nd->asleep && nd->ntasks == 0;
}

void sim_pm_mark_gpu(sim *s, int g)
{
    sim_state *st = &s->st;
    if (st->gpus[g].pm_pending || !gpu_needs_tick(s, g))
        return;
    st->gpus[g].pm_pending = 1;
    grow_array((void **)&st->pm_gpus, &st->pm_gpus_cap, st->npm_gpus + 1, sizeof *st->pm_gpus);
    st->pm_gpus[st->npm_gpus++] = g;
}

void sim_pm_mark_node(sim *s, int n)
{
    sim_state *st = &s->st;
    if (st->node_pending[n] || !node_needs_tick(s, n))
        return;
    st->node_pending[n] = 1;
    grow_array((void **)&st->pm_nodes, &st->pm_nodes_cap, st->npm_nodes + 1,
               sizeof *st->pm_nodes);
    st->pm_nodes[st->npm_nodes++] = n;
}

int sim_pm_pending(const sim *s)
{
    return s->st.npm_gpus + s->st.npm_nodes > 0;
}

static int64_t first_tick_index(const sim *s)
{
    int64_t k = (int64_t)ceil_tol(s->st.t / s->cfg.tau_s);
    return k > s->st.tick_k ? k : s->st.tick_k;
}

double sim_pm_next_tick(const sim *s)
{
    return (double)first_tick_index(s) * s->cfg.tau_s;
}

static void set_freq(sim *s, int g, double f)
{
    sim_gpu_leave(s, g);
    s->st.cs->gpus[g].freq_mhz = f;
    sim_gpu_enter(s, g);
    sim_gpu_set_clock(s, g);
    sim_gpus_changed(s, &g, 1);
}

static void sleep_gpu(sim *s, int g)
{
    sim_gpu_leave(s, g);
    cstate_set_gpu_power(s->st.cs, g, GPU_ASLEEP);     /* Alg. 3 line 7 */
    sim_gpu_enter(s, g);
}

static void tick_gpu(sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    if (gpu->ntasks > 0) {
        /* A GPU held under a power cap has its clock from the cap's
         * controller (PEACE), not from Alg. 4. */
        if (s->dfs_on && !s->st.gpus[g].peace_on) {
            double f = dfs_next(s, g);
            if (f != gpu->freq_mhz)
                set_freq(s, g, f);
        }
    } else if (s->sleep_on && gpu->power != GPU_ASLEEP) {
        sleep_gpu(s, g);
    }
}

/* Alg. 3 lines 8–10: a server with no active GPU sleeps, its GPUs too. */
static void tick_node(sim *s, int n)
{
    if (!node_needs_tick(s, n))
        return;
    cs_node *nd = &s->st.cs->nodes[n];
    for (int d = 0; d < nd->ngpus; d++)
        if (s->st.cs->gpus[nd->gpu0 + d].power != GPU_ASLEEP)
            sleep_gpu(s, nd->gpu0 + d);
    sim_node_leave(s, n);
    cstate_set_node_asleep(s->st.cs, n, 1);
    sim_node_enter(s, n);
}

void sim_pm_tick(sim *s)
{
    sim_state *st = &s->st;
    st->tick_k = first_tick_index(s) + 1;
    /* Take the pending lists: items still unsettled after this tick (a
     * clock several steps from its target) are marked again. */
    size_t ng = st->npm_gpus, nn = st->npm_nodes;
    int *gl = xmalloc((ng ? ng : 1) * sizeof *gl), *nl = xmalloc((nn ? nn : 1) * sizeof *nl);
    for (size_t i = 0; i < ng; i++)
        gl[i] = st->pm_gpus[i];
    for (size_t i = 0; i < nn; i++)
        nl[i] = st->pm_nodes[i];
    st->npm_gpus = st->npm_nodes = 0;
    for (size_t i = 0; i < ng; i++)
        st->gpus[gl[i]].pm_pending = 0;
    for (size_t i = 0; i < nn; i++)
        st->node_pending[nl[i]] = 0;
    for (size_t i = 0; i < ng; i++)
        tick_gpu(s, gl[i]);
    for (size_t i = 0; i < nn; i++)
        tick_node(s, nl[i]);
    for (size_t i = 0; i < ng; i++)
        sim_pm_mark_gpu(s, gl[i]);
    free(gl);
    free(nl);
}

void sim_pm_wake(sim *s, const placement *pl)
{
    cstate *cs = s->st.cs;
    for (int k = 0; k < pl->ngpus; k++) {
        cs_gpu *g = &cs->gpus[pl->gpus[k]];
        if (g->power == GPU_ASLEEP) {
            s->st.acc.wakeups++;
            if (cs->nodes[g->node].gpu)
                g->freq_mhz = sim_gpu_top_mhz(s, pl->gpus[k]);
            cstate_set_gpu_power(cs, pl->gpus[k], GPU_IDLE);
        }
    }
    if (cs->nodes[pl->node].asleep) {
        s->st.acc.server_wakeups++;
        cstate_set_node_asleep(cs, pl->node, 0);
    }
}

/* CATS §6: "all GPUs and servers are put to sleep and activated only when a
 * task is dispatched" — when sleep is on; otherwise everything idles awake
 * at f_max (cstate_new's state). */
static void init_node(sim *s, int n)
{
    const cs_node *nd = &s->st.cs->nodes[n];
    if (!s->sleep_on)
        return;
    cstate_set_node_asleep(s->st.cs, n, 1);
    for (int d = 0; d < nd->ngpus; d++)
        cstate_set_gpu_power(s->st.cs, nd->gpu0 + d, GPU_ASLEEP);
}

void sim_pm_init(sim *s)
{
    for (size_t n = 0; n < s->st.cs->nnodes; n++)
        init_node(s, (int)n);
}

void sim_pm_init_node(sim *s, int n)
{
    init_node(s, n);
}
