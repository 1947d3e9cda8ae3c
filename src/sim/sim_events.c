/*
 * sim_events.c — the task side of the simulator: a binary heap of per-task
 * next-event times with lazy invalidation (version counters), the
 * contention model of SPEC §3.3, and task start, demand changes and
 * completion.
 *
 * Contention (SPEC §3.3, our choice): the demand of GPU g is
 * U_g = sum of u_l (fractions) of its tasks at their own progress points;
 * a task advances at (f_g/f_max)^beta * min(1, 1/U_g) standalone seconds per
 * second (CATS eq. 5 for the clock, processor sharing beyond 100 %); a task
 * on several GPUs at the minimum over them.  Rates are constant between
 * events, so each running task has one pending event: its next demand
 * change (a series sample boundary where the value differs) or its
 * completion.  When a GPU's demand or clock changes only its tasks are
 * re-timed; their older heap entries become stale and are dropped on pop.
 *
 * A task alone on every GPU it holds has no demand events: its demand is
 * at most 100 %, so min(1, 1/U_g) is 1 whatever its series says, and its
 * next event is its completion ("lone").  When another task joins one of
 * its GPUs it takes up its series again at its progress then; when its
 * neighbours leave, it turns lone at its next demand change.  A trace of
 * whole-GPU jobs (Gavel's, a million of them with hundreds of samples
 * each) then costs events per job, not per sample.
 *
 * Does not decide placements or power states (sim.c, sim_power_mgr.c).
 */
#include "sim_int.h"
#include "core/speed.h"
#include "core/util_series.h"

#include <assert.h>
#include <math.h>

/* ---- heap ------------------------------------------------------------------ */

static int ev_before(const sim_ev *a, const sim_ev *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    return a->task < b->task;      /* deterministic ties */
}

void sim_heap_push(sim_state *st, double t, int ti, uint32_t ver)
{
    /* Events are never in the past: a completion is now or later. */
    assert(t >= st->t && ti >= 0 && (size_t)ti < st->ntasks);
    grow_array((void **)&st->heap, &st->heap_cap, st->nheap + 1, sizeof *st->heap);
    size_t i = st->nheap++;
    sim_ev e = {t, ti, ver};
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ev_before(&e, &st->heap[parent]))
            break;
        st->heap[i] = st->heap[parent];
        i = parent;
    }
    st->heap[i] = e;
}

void sim_heap_pop(sim_state *st)
{
    assert(st->nheap > 0);
    sim_ev top = st->heap[0], last = st->heap[--st->nheap];
    (void)top;                  /* read by the assert below only */
    size_t n = st->nheap, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_before(&st->heap[c + 1], &st->heap[c]))
            c++;
        if (!ev_before(&st->heap[c], &last))
            break;
        st->heap[i] = st->heap[c];
        i = c;
    }
    if (n)
        st->heap[i] = last;
    /* Heap order: nothing left comes before what was popped. */
    assert(n == 0 || !ev_before(&st->heap[0], &top));
}

const sim_ev *sim_heap_top(sim_state *st)
{
    while (st->nheap) {
        const sim_ev *e = &st->heap[0];
        const sim_task *tk = &st->tasks[e->task];
        if (tk->status == ST_RUNNING && tk->ver == e->ver)
            return e;
        sim_heap_pop(st);
    }
    return NULL;
}

/* ---- rates ------------------------------------------------------------------ */

double sim_task_progress(const sim_state *st, int ti, double t)
{
    const sim_task *tk = &st->tasks[ti];
    if (tk->status != ST_RUNNING)
        return tk->status == ST_DONE || tk->starts ? tk->prog : 0;
    double from = tk->prog_t > tk->stall_until ? tk->prog_t : tk->stall_until;
    double p = tk->prog + (t > from ? tk->rate * (t - from) : 0);
    return p < tk->target ? p : tk->target;
}

void sim_gpu_set_clock(sim *s, int g)
{
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    /* CATS eq. 5, for DFS's clocks and a cap's ceiling alike */
    s->st.gpus[g].clock = power_clock_rate(s->st.cs->nodes[gpu->node].gpu, gpu->freq_mhz);
}

/* U_g summed afresh from the tasks' demands (exact, no drift). */
static double gpu_demand(const sim_state *st, int g)
{
    const cs_gpu *gpu = &st->cs->gpus[g];
    double u = 0;
    for (int i = 0; i < gpu->ntasks; i++)
        u += st->tasks[gpu->tasks[i]].demand;
    return u;
}

static double gpu_rate(const sim_gpu *sg)
{
    return sg->clock * (sg->demand > 1 ? 1 / sg->demand : 1);    /* SPEC §3.3 */
}

static void schedule(sim_state *st, int ti)
{
    sim_task *tk = &st->tasks[ti];
    tk->ver++;
    double left = tk->target - tk->prog;
    double from = st->t > tk->stall_until ? st->t : tk->stall_until;
    double t = from + (left > 0 ? left / tk->rate : 0);
    sim_heap_push(st, t, ti, tk->ver);
}

/* Recomputes a task's rate (the slowest of its GPUs) and re-times it when
 * the rate changed. */
static void rerate(sim *s, int ti)
{
    sim_state *st = &s->st;
    sim_task *tk = &st->tasks[ti];
    double r = 1;
    for (int k = 0; k < tk->pl.ngpus; k++) {
        double rg = sim_task_gpu_rate(s, ti, tk->pl.gpus[k]);
        if (k == 0 || rg < r)
            r = rg;
    }
    if (r == tk->rate)
        return;
    tk->prog = sim_task_progress(st, ti, st->t);
    tk->prog_t = st->t;
    tk->rate = r;
    schedule(st, ti);
}

/* Every task on the GPUs is re-rated, not only those whose GPU rate
 * moved: with a throughput table a new neighbour changes a task's pair
 * throughput at an unchanged demand.  rerate() re-times only real changes. */
void sim_gpus_changed(sim *s, const int *gpus, int n)
{
    sim_state *st = &s->st;
    for (int i = 0; i < n; i++) {
        sim_gpu *sg = &st->gpus[gpus[i]];
        if (s->peace_wl)
            sim_peace_update(s, gpus[i]);
        sg->demand = gpu_demand(st, gpus[i]);
        sg->rate = sg->peace_on ? 1 : gpu_rate(sg);
    }
    for (int i = 0; i < n; i++) {
        const cs_gpu *gpu = &st->cs->gpus[gpus[i]];
        for (int k = 0; k < gpu->ntasks; k++)
            rerate(s, gpu->tasks[k]);
    }
}

/* ---- task life -------------------------------------------------------------- */

static void running_add(sim_state *st, int ti)
{
    grow_array((void **)&st->running, &st->running_cap, st->nrunning + 1, sizeof *st->running);
    st->tasks[ti].run_pos = (int)st->nrunning;
    st->running[st->nrunning++] = ti;
}

static void running_remove(sim_state *st, int ti)
{
    int pos = st->tasks[ti].run_pos;
    int last = st->running[--st->nrunning];
    st->running[pos] = last;
    st->tasks[last].run_pos = pos;
    st->tasks[ti].run_pos = -1;
}

/* The series sample a task is in at progress p (sample i covers progress
 * [i period, (i + 1) period); a task without a series has one). */
static long sample_at(const task *t, double p)
{
    if (!useries_has_series(t) || !(t->util.period_s > 0))
        return 0;
    return (long)floor(p / t->util.period_s);
}

/* 1 when the task is the only one on every GPU it holds (see the top of
 * the file).  Not under a PEACE cap, whose model follows the tasks. */
static int alone(const sim *s, int ti)
{
    if (s->peace_wl)
        return 0;
    const sim_task *tk = &s->st.tasks[ti];
    for (int k = 0; k < tk->pl.ngpus; k++)
        if (s->st.cs->gpus[tk->pl.gpus[k]].ntasks != 1)
            return 0;
    return 1;
}

/* The demand of sample idx on the task's GPUs: the trace's figure on its
 * reference, read on these GPUs by Amdahl's law (core/speed.h) unless the
 * throughput table times the task. */
static double sample_demand(const sim *s, int ti, long idx)
{
    const task *t = &s->tr->tasks[ti];
    double p = useries_pct_idx(t, idx);
    const sim_task *tk = &s->st.tasks[ti];
    if (sim_task_timed_by_table(s, ti) || tk->pl.ngpus < 1)
        return p / 100.0;
    double sp = sim_task_speedup(s, ti, tk->pl.gpus[0]);
    return speed_util(p, s->gfrac[ti], sp) / 100.0;
}

/* Loads the demand of the task's current sample and finds its next
 * change: none before its completion when it is alone. */
static void load_sample(sim *s, int ti)
{
    sim_task *tk = &s->st.tasks[ti];
    const task *t = &s->tr->tasks[ti];
    tk->demand = sample_demand(s, ti, tk->sample);
    tk->lone = (unsigned char)alone(s, ti);
    if (tk->lone) {
        tk->next_sample = tk->sample;
        tk->target = t->duration_s;
    } else {
        tk->next_sample = useries_next_change(t, tk->sample, &tk->target);
    }
}

/* Task ti has just been placed: a task that ran alone on one of its GPUs
 * takes up its series again from its progress now, so the GPU's demand
 * sums what each task demands at this instant. */
static void wake_lone_neighbours(sim *s, int ti)
{
    sim_state *st = &s->st;
    const sim_task *tk = &st->tasks[ti];
    for (int k = 0; k < tk->pl.ngpus; k++) {
        const cs_gpu *gpu = &st->cs->gpus[tk->pl.gpus[k]];
        for (int i = 0; i < gpu->ntasks; i++) {
            int oi = gpu->tasks[i];
            sim_task *o = &st->tasks[oi];
            if (oi == ti || !o->lone || o->status != ST_RUNNING)
                continue;
            o->prog = sim_task_progress(st, oi, st->t);
            o->prog_t = st->t;
            o->sample = sample_at(&s->tr->tasks[oi], o->prog);
            load_sample(s, oi);
            schedule(st, oi);
        }
    }
}

/* Runs task ti from progress prog, idle until stall_until. */
static void run_from(sim *s, int ti, double prog, double stall_until)
{
    sim_state *st = &s->st;
    sim_task *tk = &st->tasks[ti];
    if (tk->starts++ == 0)
        tk->start_t = st->t;
    tk->status = ST_RUNNING;
    tk->prog = prog;
    tk->prog_t = st->t;
    tk->stall_until = stall_until;
    tk->peace_rate = 1;
    tk->sample = sample_at(&s->tr->tasks[ti], prog);
    load_sample(s, ti);
    running_add(st, ti);
    wake_lone_neighbours(s, ti);
    tk->rate = -1;                  /* forces the first schedule below */
    sim_gpus_changed(s, tk->pl.gpus, tk->pl.ngpus);
    if (tk->rate == -1)
        rerate(s, ti);
}

void sim_task_start(sim *s, int ti)
{
    run_from(s, ti, 0, s->st.t);
}

void sim_task_resume(sim *s, int ti, double stall_s)
{
    run_from(s, ti, s->st.tasks[ti].prog, s->st.t + stall_s);
}

void sim_task_stop(sim *s, int ti)
{
    sim_state *st = &s->st;
    sim_task *tk = &st->tasks[ti];
    assert(tk->status == ST_RUNNING);
    tk->prog = sim_task_progress(st, ti, st->t);
    tk->prog_t = st->t;
    tk->status = ST_QUEUED;
    tk->ver++;
    s->view[ti] = tk->prog;
    running_remove(st, ti);
    sim_vacate(s, ti);
}

static void complete(sim *s, int ti)
{
    sim_state *st = &s->st;
    sim_task *tk = &st->tasks[ti];
    tk->status = ST_DONE;
    tk->end_t = st->t;
    tk->prog = tk->target = s->tr->tasks[ti].duration_s;
    tk->ver++;
    s->view[ti] = tk->target;
    running_remove(st, ti);
    sim_vacate(s, ti);
    if (s->rounds)
        sim_round_touch(s);
    st->acc.completed++;
    st->acc.t_end = st->t;
    st->retry = 1;                  /* the queue head may fit now */
    sim_outcome(s, ti);
}

void sim_task_event(sim *s, int ti)
{
    sim_state *st = &s->st;
    sim_task *tk = &st->tasks[ti];
    tk->prog = tk->target;          /* exact: no drift across events */
    tk->prog_t = st->t;
    if (tk->target >= s->tr->tasks[ti].duration_s) {
        complete(s, ti);
        return;
    }
    double before = tk->demand;
    tk->sample = tk->next_sample;
    load_sample(s, ti);
    tk->rate = -1;
    if (tk->demand != before)
        sim_gpus_changed(s, tk->pl.gpus, tk->pl.ngpus);
    if (tk->rate == -1)
        rerate(s, ti);
}
