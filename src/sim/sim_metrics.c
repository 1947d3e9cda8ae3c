/*
 * sim_metrics.c — what a run measures (SPEC §6): counters of active and
 * awake GPUs and servers kept up to date on every state change, exact
 * integrals between events (energy is power integrated over each interval
 * in which the state is constant, never read off the sampled timeline),
 * the timeline sampled every sample_s (or at every state-changing event),
 * per-task outcomes, and the run's summary metrics (keys in sim.h).
 *
 * Counters follow a leave/enter discipline: whoever changes a GPU or a
 * server subtracts its contribution first (sim_*_leave) and adds it back
 * after (sim_*_enter), so counters never drift from the cstate.
 */
#include "sim_int.h"
#include "core/stats.h"
#include "core/util_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gpu_active(const cs_gpu *g)
{
    return g->ntasks > 0;
}

void sim_gpu_leave(sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    sim_acc *a = &s->st.acc;
    if (gpu_active(gpu)) {
        a->active_gpus--;
        a->freq_sum -= gpu->freq_mhz;
    }
    if (gpu->power != GPU_ASLEEP)
        a->awake_gpus--;
    s->st.power_dirty = s->st.changed = 1;
}

void sim_gpu_enter(sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    sim_acc *a = &s->st.acc;
    if (gpu_active(gpu)) {
        a->active_gpus++;
        a->freq_sum += gpu->freq_mhz;
    }
    if (gpu->power != GPU_ASLEEP)
        a->awake_gpus++;
    power_cache_gpu(s->pmodel, s->st.cs, g);
    s->st.power_dirty = s->st.changed = 1;
}

void sim_node_leave(sim *s, int n)
{
    const cs_node *nd = &s->st.cs->nodes[n];
    if (!nd->asleep) {
        s->st.acc.awake_nodes--;
        if (nd->ntasks > 0)
            s->st.acc.active_nodes--;
    }
    s->st.power_dirty = s->st.changed = 1;
}

void sim_node_enter(sim *s, int n)
{
    const cs_node *nd = &s->st.cs->nodes[n];
    if (!nd->asleep) {
        s->st.acc.awake_nodes++;
        if (nd->ntasks > 0)
            s->st.acc.active_nodes++;
    }
    power_cache_node(s->pmodel, s->st.cs, n);
    s->st.power_dirty = s->st.changed = 1;
}

void sim_counters_init(sim *s)
{
    sim_acc *a = &s->st.acc;
    a->active_gpus = a->awake_gpus = a->active_nodes = a->awake_nodes = 0;
    a->freq_sum = 0;
    for (size_t g = 0; g < s->st.cs->ngpus; g++)
        sim_gpu_enter(s, (int)g);
    for (size_t n = 0; n < s->st.cs->nnodes; n++)
        sim_node_enter(s, (int)n);
}

/* A "nice" period (1, 2 or 5 times a power of ten) of at least raw. */
static double nice_period(double raw)
{
    double p = pow(10, floor(log10(raw)));
    if (raw <= p)
        return p;
    if (raw <= 2 * p)
        return 2 * p;
    if (raw <= 5 * p)
        return 5 * p;
    return 10 * p;
}

double sim_resolve_sample(const sim *s)
{
    if (s->cfg.sample_s >= 0)
        return s->cfg.sample_s;
    /* Adaptive: about SIM_TIMELINE_POINTS points over the trace's span
     * (longer when tasks queue). */
    double lo = SIM_INF, hi = -SIM_INF;
    for (size_t i = 0; i < s->tr->ntasks; i++) {
        const task *tk = &s->tr->tasks[i];
        lo = fmin(lo, tk->arrival_s);
        hi = fmax(hi, tk->arrival_s + tk->duration_s);
    }
    if (!(hi > lo))
        return 1;
    double p = nice_period((hi - lo) / SIM_TIMELINE_POINTS);
    return p < 0.1 ? 0.1 : p;
}

static void refresh_power(sim *s)
{
    if (!s->st.power_dirty)
        return;
    /* From the draws cached on every change (sim_*_enter): the same double
     * as a sum over the cluster's records, at a fraction of the reads
     * (tests/test_corr_index.c checks they agree). */
    power_eval_cached(s->pmodel, s->st.cs, &s->st.power);
    s->st.power_dirty = 0;
}

static void emit_point(sim *s, double t)
{
    sim_state *st = &s->st;
    const sim_acc *a = &st->acc;
    run_point p;
    memset(&p, 0, sizeof p);
    p.t_s = t;
    p.active_gpus = (double)a->active_gpus;
    p.awake_gpus = (double)a->awake_gpus;
    p.active_servers = (double)a->active_nodes;
    p.power_w = st->power.total_w;
    p.gpu_w = st->power.gpu_w;
    p.cpu_w = st->power.cpu_w;
    p.static_w = st->power.static_w;
    /* A running total: the nodes changed since the last point, not all. */
    p.frag = s->fw ? frag_tally_total(s->ftally, s->fw, st->cs) : 0;
    p.alloc_ratio = st->cs->ngpus
                        ? (double)cstate_alloc_milli(st->cs) / (1000.0 * (double)st->cs->ngpus)
                        : 0;
    p.queued = (double)(st->qtail - st->qhead + st->nwaiting);
    p.mean_freq_mhz = a->active_gpus ? a->freq_sum / (double)a->active_gpus : 0;
    run_add_point(s->rec, &p);
}

void sim_advance_clock(sim *s, double t)
{
    sim_state *st = &s->st;
    if (!(t > st->t))
        return;
    refresh_power(s);
    if (s->sample_s > 0) {
        for (; st->next_sample_t < t; st->next_sample_t += s->sample_s)
            emit_point(s, st->next_sample_t);
    } else if (st->changed) {
        emit_point(s, st->t);
    }
    st->changed = 0;
    double dt = t - st->t;
    sim_acc *a = &st->acc;
    a->gpu_s += (double)a->active_gpus * dt;
    a->uncapped_s += (double)a->uncapped_gpus * dt;
    a->awake_gpu_s += (double)a->awake_gpus * dt;
    a->node_s += (double)a->active_nodes * dt;
    a->freq_s += a->freq_sum * dt;
    a->queued_s += (double)(st->qtail - st->qhead + st->nwaiting) * dt;
    a->energy_j += st->power.total_w * dt;
    a->energy_gpu_j += st->power.gpu_w * dt;
    a->energy_cpu_j += st->power.cpu_w * dt;
    a->energy_static_j += st->power.static_w * dt;
    a->peak_gpus = fmax(a->peak_gpus, (double)a->active_gpus);
    a->peak_nodes = fmax(a->peak_nodes, (double)a->active_nodes);
    a->peak_power_w = fmax(a->peak_power_w, st->power.total_w);
    st->t = t;
}

void sim_outcome(sim *s, int ti)
{
    const sim_task *st = &s->st.tasks[ti];
    const task *tk = &s->tr->tasks[ti];
    run_outcome o;
    memset(&o, 0, sizeof o);
    o.task = ti;
    if (st->status == ST_DONE) {
        o.start_s = st->start_t;
        o.end_s = st->end_t;
        o.wait_s = st->start_t - tk->arrival_s;
        o.jct_s = st->end_t - tk->arrival_s;          /* SPEC §3.3: from arrival */
        o.slowdown = tk->duration_s > 0 ? o.jct_s / tk->duration_s : 1;
        /* SPEC §3.3: JCT > kappa e_min, queueing included (tolerance for
         * rounding at exactly the limit). */
        o.sla_violated = sla_violated(o.jct_s, sim_task_kappa(s, tk), tk->duration_s);
        o.node = st->pl.node;
        placement_devices(s->st.cs, &st->pl, o.gpus, sizeof o.gpus);
        s->st.acc.violations += (size_t)o.sla_violated;
    } else {
        /* Failed: never ran.  Counted in failed_tasks, not as SLA violations. */
        o.start_s = o.end_s = -1;
        o.wait_s = s->st.t - tk->arrival_s;
        o.node = -1;
    }
    run_add_outcome(s->rec, &o);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* JCT, wait, slowdown and e_min statistics over completed tasks. */
static void task_metrics(sim *s, run *r)
{
    size_t n = 0;
    double *jct = xmalloc((r->noutcomes ? r->noutcomes : 1) * sizeof *jct);
    double sum_jct = 0, sum_wait = 0, sum_slow = 0, sum_emin = 0;
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        if (o->start_s < 0)
            continue;
        jct[n++] = o->jct_s;
        sum_jct += o->jct_s;
        sum_wait += o->wait_s;
        sum_slow += o->slowdown;
        sum_emin += s->tr->tasks[o->task].duration_s;
    }
    qsort(jct, n, sizeof *jct, cmp_double);
    double dn = n ? (double)n : 1;
    run_set_metric(r, "ctd_s", sum_jct);               /* CorrGPU §IV: sum of c_j */
    run_set_metric(r, "jct_mean_s", sum_jct / dn);
    run_set_metric(r, "jct_p50_s", stats_percentile_sorted(jct, n, 50));
    run_set_metric(r, "jct_p95_s", stats_percentile_sorted(jct, n, 95));
    run_set_metric(r, "jct_p99_s", stats_percentile_sorted(jct, n, 99));
    run_set_metric(r, "wait_mean_s", sum_wait / dn);
    run_set_metric(r, "slowdown_mean", sum_slow / dn);
    run_set_metric(r, "norm_jct", sum_emin > 0 ? sum_jct / sum_emin : 0);
    run_set_metric(r, "sla_violations", (double)s->st.acc.violations);
    run_set_metric(r, "sla_violation_pct", 100.0 * (double)s->st.acc.violations / dn);
    free(jct);
}

/* CorrGPU eq. 2 over the GPUs whose price is known; *unpriced counts the
 * used GPUs without one (the sum leaves them out, and says so). */
static double capex(const cstate *cs, int *unpriced)
{
    double usd = 0;
    *unpriced = 0;
    for (size_t g = 0; g < cs->ngpus; g++) {
        const gpu_profile *p = cs->nodes[cs->gpus[g].node].gpu;
        if (!cs->gpus[g].ever_used || !p)
            continue;
        if (gpu_price_known(p))
            usd += p->price_usd;
        else
            ++*unpriced;
    }
    return usd;
}

/* The fluid lower bound on the time-averaged active GPUs of a run: every
 * completed task's standalone work, its mean utilization times its
 * duration times its GPUs (GPU-seconds at 100 %), poured into GPUs that
 * each give at most one GPU-second a second, over the run's span.  No
 * placement that runs the same tasks over the same span has fewer busy
 * GPUs on average (contention and DFS only stretch tasks). */
static double fluid_gpus(const sim *s, double span)
{
    double work = 0;
    for (size_t i = 0; i < s->tr->ntasks; i++) {
        const task *tk = &s->tr->tasks[i];
        if (s->st.tasks[i].status != ST_DONE || task_gpus(tk) < 1)
            continue;
        work += useries_summary(tk, US_MEAN) / 100.0 * tk->duration_s * task_gpus(tk);
    }
    return span > 0 ? work / span : 0;
}

void sim_metrics_finish(sim *s)
{
    sim_state *st = &s->st;
    refresh_power(s);
    emit_point(s, st->t);
    const sim_acc *a = &st->acc;
    run *r = s->rec;
    double span = a->t_end - a->t0;
    double d = span > 0 ? span : 1;
    run_set_metric(r, "tasks", (double)s->tr->ntasks);
    run_set_metric(r, "completed", (double)a->completed);
    run_set_metric(r, "failed_tasks", (double)a->failed);
    run_set_metric(r, "decisions", (double)st->decisions);
    run_set_metric(r, "makespan_s", span);
    run_set_metric(r, "avg_gpus", a->gpu_s / d);
    run_set_metric(r, "gpu_hours", a->gpu_s / 3600);
    run_set_metric(r, "fluid_gpus", fluid_gpus(s, span));
    run_set_metric(r, "dfs", s->dfs_on);
    run_set_metric(r, "peak_gpus", a->peak_gpus);
    run_set_metric(r, "avg_awake_gpus", a->awake_gpu_s / d);
    run_set_metric(r, "avg_servers", a->node_s / d);
    run_set_metric(r, "peak_servers", a->peak_nodes);
    run_set_metric(r, "avg_power_w", a->energy_j / d);
    run_set_metric(r, "avg_gpu_power_w", a->energy_gpu_j / d);
    run_set_metric(r, "peak_power_w", a->peak_power_w);
    run_set_metric(r, "energy_j", a->energy_j);
    run_set_metric(r, "energy_gpu_j", a->energy_gpu_j);
    run_set_metric(r, "energy_cpu_j", a->energy_cpu_j);
    run_set_metric(r, "energy_static_j", a->energy_static_j);
    run_set_metric(r, "unique_gpus", (double)cstate_used_gpus_ever(st->cs));
    int unpriced;
    run_set_metric(r, "capex_usd", capex(st->cs, &unpriced));
    run_set_metric(r, "unpriced_gpus", unpriced);
    run_set_metric(r, "opened_servers", (double)st->cs->opened);
    run_set_metric(r, "mean_freq_mhz", a->gpu_s > 0 ? a->freq_s / a->gpu_s : 0);
    if (s->cfg.peace.cap_w > 0)
        run_set_metric(r, "uncapped_gpu_pct", a->gpu_s > 0 ? 100 * a->uncapped_s / a->gpu_s : 0);
    run_set_metric(r, "avg_queued", a->queued_s / d);
    run_set_metric(r, "wakeups", (double)a->wakeups);
    run_set_metric(r, "server_wakeups", (double)a->server_wakeups);
    if (s->rounds) {
        run_set_metric(r, "rounds", (double)st->round.round);
        run_set_metric(r, "moves", (double)st->moves);
    }
    task_metrics(s, r);
}
