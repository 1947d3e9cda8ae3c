/*
 * sim.c — the simulator's public API (sim.h) and its event loop: arrivals
 * in time order, placement through the policy (the step of sim_place.c,
 * the unbounded server pool included), the FIFO queue or failure when
 * nothing fits, and the order in which simultaneous events are handled.
 *
 * Events at one instant run in this order: task events (demand changes
 * and completions, by task index), then the queue head (FIFO, retried
 * after resources are freed), then arrivals (by arrival, then trace
 * index), then the power-manager tick.  So freed GPUs serve waiting tasks
 * before new ones, and a placement at time k tau wakes a GPU before the
 * tick at k tau would have put it to sleep.  Idle stretches are skipped:
 * time jumps to the next event.
 *
 * A decision is one placement, one failure, or a task's first entry into
 * the queue (retries that still do not fit are not decisions).  The queue
 * is strict FIFO: while a task waits, later arrivals wait behind it.
 *
 * Rates and completions: sim_events.c; sleep and DFS: sim_power_mgr.c;
 * measurements: sim_metrics.c; rewind: sim_checkpoint.c.
 */
#include "sim_int.h"
#include "sim_place.h"
#include "core/gpuname.h"
#include "core/strbuf.h"
#include "peace/peace_policy.h"
#include "policy/corr_place.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_config_default(sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->power_model = -1;
    cfg->full = SIM_QUEUE;
    cfg->sleep = -1;
    cfg->dfs = -1;
    cfg->tau_s = 0.1;           /* CATS §3.5: nvidia-smi's frequency overhead */
    cfg->delta_f_mhz = 15;
    cfg->sample_s = -1;
    cfg->seed = 42;
    cfg->checkpoint_every = 64;
}

power_model sim_power_model_of(const sim_config *cfg, const policy_spec *sp)
{
    return cfg->power_model >= 0 ? (power_model)cfg->power_model : sp->ops->power;
}

const gp_trace *sim_policy_trace(const sim *s)
{
    return s->pred_tr ? s->pred_tr : s->tr;
}

double sim_task_kappa(const sim *s, const task *tk)
{
    return task_kappa(tk, s->cfg.kappa);
}

void sim_state_fit(sim_state *st)
{
    if (!st->gpus && !st->node_pending) {
        /* The first fit, to the cluster as built: exactly its size, and
         * zero from calloc rather than a memset over a doubled capacity
         * (on 100,000 GPUs, megabytes nobody would use). */
        st->gpus_cap = st->cs->ngpus ? st->cs->ngpus : 1;
        st->gpus = xcalloc(st->gpus_cap, sizeof *st->gpus);
        st->nodes_cap = st->cs->nnodes ? st->cs->nnodes : 1;
        st->node_pending = xcalloc(st->nodes_cap, sizeof *st->node_pending);
        return;
    }
    size_t had = st->gpus_cap;
    if (st->cs->ngpus > had) {
        grow_array((void **)&st->gpus, &st->gpus_cap, st->cs->ngpus, sizeof *st->gpus);
        memset(st->gpus + had, 0, (st->gpus_cap - had) * sizeof *st->gpus);
    }
    had = st->nodes_cap;
    if (st->cs->nnodes > had) {
        grow_array((void **)&st->node_pending, &st->nodes_cap, st->cs->nnodes,
                   sizeof *st->node_pending);
        memset(st->node_pending + had, 0, st->nodes_cap - had);
    }
}

/* ---- set-up ------------------------------------------------------------------- */

typedef struct arrival_key {
    double t;
    int i;
} arrival_key;

static int cmp_arrival(const void *a, const void *b)
{
    const arrival_key *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->i - y->i;
}

static int *arrival_order(const gp_trace *tr)
{
    arrival_key *k = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *k);
    for (size_t i = 0; i < tr->ntasks; i++)
        k[i] = (arrival_key){tr->tasks[i].arrival_s, (int)i};
    qsort(k, tr->ntasks, sizeof *k, cmp_arrival);
    int *order = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *order);
    for (size_t i = 0; i < tr->ntasks; i++)
        order[i] = k[i].i;
    free(k);
    return order;
}

static void init_gpu_rates(sim *s, size_t from)
{
    for (size_t g = from; g < s->st.cs->ngpus; g++) {
        sim_cap_init_gpu(s, (int)g);
        sim_gpu_set_clock(s, (int)g);
        s->st.gpus[g].rate = s->st.gpus[g].clock;
    }
}

/* " gpu_cap=LIST[ partition=NAME]", or "" for a run without a cap. */
static void describe_caps(const sim *s, char *buf, size_t len)
{
    char caps[256];
    if (power_caps_any(&s->cfg.caps))
        power_caps_format(&s->cfg.caps, caps, sizeof caps);
    else if (s->cfg.peace.cap_w > 0)
        snprintf(caps, sizeof caps, "%g", s->cfg.peace.cap_w);
    else
        return;
    snprintf(buf, len, " gpu_cap=%s", caps);
    if (s->cfg.peace.cap_w > 0)
        snprintf(buf + strlen(buf), len - strlen(buf), " partition=%s",
                 s->cfg.peace.partition->name);
}

static void describe_config(const sim *s, char *buf, size_t len)
{
    char pol[256];
    policy_spec_format(&s->pol, pol, sizeof pol);
    char kappa[32];
    if (s->cfg.kappa > 0)
        snprintf(kappa, sizeof kappa, "%g", s->cfg.kappa);
    else
        snprintf(kappa, sizeof kappa, "task");
    char peace[320] = "", tput[96] = "";
    if (s->cfg.tput)
        snprintf(tput, sizeof tput, " tput=%s", s->cfg.tput->name);
    if (s->ref_speed != 1)
        snprintf(tput + strlen(tput), sizeof tput - strlen(tput), " ref_speed=%g",
                 s->ref_speed);
    describe_caps(s, peace, sizeof peace);
    char pred[64] = "";
    if (s->cfg.predict.kind != UPRED_ORACLE) {
        snprintf(pred, sizeof pred, " predict=");
        upred_format(&s->cfg.predict, pred + strlen(pred), sizeof pred - strlen(pred));
    }
    snprintf(buf, len,
             "%s%spower=%s sleep=%s dfs=%s tau=%g delta_f=%g kappa=%s full=%s unbounded=%d "
             "sample=%g%s%s%s",
             pol, pol[0] ? " " : "", power_model_name(s->pmodel), s->sleep_on ? "on" : "off",
             s->dfs_on ? "on" : "off", s->cfg.tau_s, s->cfg.delta_f_mhz, kappa,
             s->cfg.full == SIM_FAIL ? "fail" : "queue", s->cfg.unbounded, s->sample_s, peace,
             tput, pred);
}

static int check_config(const sim_config *cfg, const policy_spec *pol, gp_err *err)
{
    if (!pol || !pol->ops)
        return gp_error(err, "no policy given");
    if (pol->ops->allocate && !(policy_spec_role(pol, OPT_ROUND_S, 360) > 0))
        return gp_error(err, "%s: rounds must be some seconds apart", pol->ops->name);
    if (pol->ops->allocate && cfg->full == SIM_FAIL)
        return gp_error(err, "%s allocates in rounds: its tasks wait for one, they do not "
                        "fail when nothing fits", pol->ops->name);
    if (!(cfg->tau_s > 0))
        return gp_error(err, "tau must be positive, got %g", cfg->tau_s);
    if (!(cfg->delta_f_mhz > 0))
        return gp_error(err, "delta_f must be positive, got %g MHz", cfg->delta_f_mhz);
    if (cfg->kappa < 0 || !isfinite(cfg->kappa))
        return gp_error(err, "kappa must be >= 1 (or 0 for each task's own), got %g",
                        cfg->kappa);
    if (cfg->power_model > POWER_EOPC)
        return gp_error(err, "unknown power model %d", cfg->power_model);
    return 0;
}

/* Every pin names a node of the cluster and devices it has, the same
 * device once. */
static int check_pins(const sim_config *cfg, const cluster *cl, const gp_trace *tr,
                      gp_err *err)
{
    for (size_t i = 0; cfg->pins && i < tr->ntasks; i++) {
        const sim_pin *p = &cfg->pins[i];
        if (p->node < 0)
            continue;
        if ((size_t)p->node >= cl->nnodes || p->ngpus < 0 || p->ngpus > GP_NODE_MAX_GPUS)
            return gp_error(err, "task %s starts on node %d, which cluster %s lacks",
                            tr->tasks[i].name, p->node, cl->name);
        for (int k = 0; k < p->ngpus; k++)
            if (p->dev[k] < 0 || p->dev[k] >= cl->nodes[p->node].gpu_count)
                return gp_error(err, "task %s starts on GPU %d of %s, which has %d",
                                tr->tasks[i].name, p->dev[k], cl->nodes[p->node].name,
                                cl->nodes[p->node].gpu_count);
    }
    return 0;
}

static void init_record(sim *s)
{
    run *r = run_new(s->pol.ops->name);
    strlcpy0(r->name, s->pol.label[0] ? s->pol.label : s->pol.ops->name, sizeof r->name);
    if (s->cfg.predict.kind != UPRED_ORACLE) {
        /* The predictor is part of what the row of a run table compares. */
        char pred[48];
        upred_format(&s->cfg.predict, pred, sizeof pred);
        size_t l = strlen(r->name);
        snprintf(r->name + l, sizeof r->name - l, " (%s)", pred);
    }
    char opts[1024];
    describe_config(s, opts, sizeof opts);
    r->options = xstrdup(opts);
    strlcpy0(r->trace_name, s->tr->name, sizeof r->trace_name);
    strlcpy0(r->cluster_name, s->cl->name, sizeof r->cluster_name);
    r->seed = s->cfg.seed;
    strlcpy0(r->power_model, power_model_name(s->pmodel), sizeof r->power_model);
    s->rec = r;
}

sim *sim_new(const sim_config *cfg, const cluster *cl, const catalog *cat,
             const gp_trace *tr, const policy_spec *pol, gp_err *err)
{
    if (check_config(cfg, pol, err) || check_pins(cfg, cl, tr, err))
        return NULL;
    sim *s = xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->cl = cl;
    s->cat = cat;
    s->tr = tr;
    s->pol = *pol;
    s->pmodel = sim_power_model_of(cfg, pol);
    if (sim_peace_check(cfg, s->pmodel, err) || sim_cap_check(cfg, cl, cat, s->pmodel, err)) {
        free(s);
        return NULL;
    }
    s->peace_wl = sim_peace_workloads(cfg, tr);
    if (sim_tput_init(s, err)) {
        sim_free(s);
        return NULL;
    }
    s->sleep_on = cfg->sleep >= 0 ? cfg->sleep != 0 : pol->ops->sleep;
    s->dfs_on = cfg->dfs >= 0 ? cfg->dfs != 0 : pol->ops->dfs;
    s->sharing = policy_family_get(pol->ops->family)->sharing;
    s->rounds = pol->ops->allocate != NULL;
    s->round_s = policy_spec_role(pol, OPT_ROUND_S, 360);
    s->restart_s = policy_spec_role(pol, OPT_RESTART_S, 0);
    s->st.last_round_t = -SIM_INF;
    policy_inputs pin = {.tput = cfg->tput, .nets = cfg->nets};
    if (cfg->predict.kind != UPRED_ORACLE)
        s->pred_tr = upred_trace_new(tr, &cfg->predict, cfg->seed);
    if (!(s->st.cs = cstate_new(cl, cat, err)) ||
        policy_prepare_with(&s->pol, s->st.cs, sim_policy_trace(s), &pin, &s->prep, err)) {
        sim_free(s);
        return NULL;
    }
    s->order = arrival_order(tr);
    s->st.ntasks = tr->ntasks;
    s->st.tasks = xcalloc(tr->ntasks ? tr->ntasks : 1, sizeof *s->st.tasks);
    for (size_t i = 0; i < tr->ntasks; i++)
        s->st.tasks[i].run_pos = -1;
    s->view = xcalloc(tr->ntasks ? tr->ntasks : 1, sizeof *s->view);
    sim_state_fit(&s->st);
    sim_pm_init(s);
    init_gpu_rates(s, 0);
    rng_seed(&s->st.rng, cfg->seed);
    s->st.t = tr->ntasks ? tr->tasks[s->order[0]].arrival_s : 0;
    s->st.acc.t0 = s->st.acc.t_end = s->view_t = s->st.t;
    s->sample_s = sim_resolve_sample(s);
    s->st.next_sample_t = s->st.t;
    sim_counters_init(s);
    s->fw = frag_workload_new(tr);
    s->ftally = frag_tally_new();
    init_record(s);
    explain_init(&s->ex_work, NULL, 0);
    explain_init(&s->ex_last, NULL, 0);
    s->ex_work.want_cands = s->ex_last.want_cands = cfg->keep_explain || cfg->explain_candidates;
    s->ckpt_every = cfg->checkpoint_every;
    sim_ckpt_take(s);
    return s;
}

void sim_free(sim *s)
{
    if (!s)
        return;
    policy_release(&s->pol, s->prep);
    trace_free(s->pred_tr);
    sim_ckpts_free(s);
    sim_state_release(&s->st);
    frag_workload_free(s->fw);
    frag_tally_free(s->ftally);
    run_free(s->rec);
    explain_free(&s->ex_work);
    explain_free(&s->ex_last);
    free(s->order);
    free(s->view);
    free(s->peace_wl);
    sim_tput_free(s);
    free(s);
}

/* ---- decisions --------------------------------------------------------------- */

void sim_view_sync(sim *s)
{
    const sim_state *st = &s->st;
    for (size_t i = 0; i < st->nrunning; i++) {
        int ti = st->running[i];
        s->view[ti] = sim_task_progress(st, ti, s->view_t);
    }
}

/* Appends " | N candidates: *node/gN[terms] note ..." for up to 8
 * candidates, the chosen first. */
static void append_candidates(const sim *s, const explain *ex, strbuf *out)
{
    strbuf_printf(out, " | %zu candidates:", ex->ncands);
    size_t shown = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < ex->ncands && shown < 8; i++) {
            if ((pass == 0) != ((int)i == ex->chosen))
                continue;
            const explain_cand *c = &ex->cands[i];
            char who[GP_NAME_MAX + 16];
            gpu_name(who, sizeof who, s->st.cs->nodes[c->node].name,
                     c->gpu >= 0 ? s->st.cs->gpus[c->gpu].dev : -1);
            strbuf_printf(out, " %s%s", pass == 0 ? "*" : "", who);
            for (int k = 0; k < ex->nterms; k++)
                strbuf_printf(out, "%s%s=%.3g", k ? " " : "[", ex->term_name[k], c->term[k]);
            strbuf_printf(out, "%s%s%s", ex->nterms ? "]" : "", c->note[0] ? " " : "", c->note);
            shown++;
        }
    }
    if (ex->ncands > shown)
        strbuf_printf(out, " (+%zu more)", ex->ncands - shown);
}

void sim_record_decision(sim *s, int ti, const placement *pl, const char *prefix)
{
    sim_state *st = &s->st;
    strbuf reason = STRBUF_INIT;
    strbuf_puts(&reason, prefix);
    strbuf_puts(&reason, s->ex_work.summary[0] ? s->ex_work.summary : s->pol.ops->name);
    if (s->cfg.keep_explain && s->ex_work.ncands)
        append_candidates(s, &s->ex_work, &reason);
    run_decision d;
    memset(&d, 0, sizeof d);
    d.seq = (int)st->decisions;
    d.t_s = st->t;
    d.task = ti;
    d.node = pl ? pl->node : -1;
    if (pl)
        placement_devices(st->cs, pl, d.gpus, sizeof d.gpus);
    d.reason = strbuf_take(&reason);
    run_add_decision(s->rec, &d);
    free(d.reason);
    st->decisions++;
    explain tmp = s->ex_last;
    s->ex_last = s->ex_work;
    s->ex_work = tmp;
    s->has_last = 1;
    sim_ckpt_take(s);
}

void sim_fail_task(sim *s, int ti, const char *why)
{
    s->st.tasks[ti].status = ST_FAILED;
    s->st.acc.failed++;
    sim_outcome(s, ti);
    if (why)
        snprintf(s->ex_work.summary, sizeof s->ex_work.summary, "%s: %s: %s",
                 s->pol.ops->name, s->tr->tasks[ti].name, why);
    sim_record_decision(s, ti, NULL, "failed: ");
}

void sim_occupy(sim *s, int ti, const placement *pl)
{
    sim_state *st = &s->st;
    st->tasks[ti].pl = *pl;
    for (int k = 0; k < pl->ngpus; k++)
        sim_gpu_leave(s, pl->gpus[k]);
    sim_node_leave(s, pl->node);
    sim_pm_wake(s, pl);
    cstate_alloc(st->cs, &s->tr->tasks[ti], ti, pl->node, pl->gpus, pl->ngpus);
    for (int k = 0; k < pl->ngpus; k++) {
        sim_gpu_enter(s, pl->gpus[k]);
        sim_gpu_set_clock(s, pl->gpus[k]);
    }
    sim_node_enter(s, pl->node);
}

void sim_vacate(sim *s, int ti)
{
    sim_state *st = &s->st;
    const placement pl = st->tasks[ti].pl;
    for (int k = 0; k < pl.ngpus; k++)
        sim_gpu_leave(s, pl.gpus[k]);
    sim_node_leave(s, pl.node);
    cstate_release(st->cs, &s->tr->tasks[ti], ti, pl.node, pl.gpus, pl.ngpus);
    for (int k = 0; k < pl.ngpus; k++)
        sim_gpu_enter(s, pl.gpus[k]);
    sim_node_enter(s, pl.node);
    sim_gpus_changed(s, pl.gpus, pl.ngpus);
    for (int k = 0; k < pl.ngpus; k++)
        sim_pm_mark_gpu(s, pl.gpus[k]);
    sim_pm_mark_node(s, pl.node);
}

static void started(sim *s, int ti, const placement *pl)
{
    sim_task_start(s, ti);
    for (int k = 0; k < pl->ngpus; k++)
        sim_pm_mark_gpu(s, pl->gpus[k]);
    sim_record_decision(s, ti, pl, "");
}

/* sim_placer hooks: a server opened in the unbounded pool joins the
 * simulator's per-GPU state, the power manager and the counters; a
 * placement is allocated through sim_occupy(). */
static void server_opened(void *owner, int n, size_t g0)
{
    sim *s = owner;
    sim_state *st = &s->st;
    sim_state_fit(st);
    sim_pm_init_node(s, n);
    init_gpu_rates(s, g0);
    for (size_t g = g0; g < st->cs->ngpus; g++)
        sim_gpu_enter(s, (int)g);
    sim_node_enter(s, n);
}

static void occupy(void *owner, int ti, const placement *pl)
{
    sim_occupy(owner, ti, pl);
}

/* The placement step (sim_place.h) as the simulator asks it: the policy
 * sees its view of the trace, the progress of running tasks when it reads
 * them, the run's clock and random stream. */
static sim_place_result place_task(sim *s, int ti, placement *pl, gp_err *bad)
{
    s->view_t = s->st.t;
    if (s->pol.ops->reads_progress)
        sim_view_sync(s);       /* else synced when a caller reads it (sim_step ...) */
    sim_placer p;
    sim_place_init(&p, &s->pol, s->st.cs, s->cl, s->cat, s->tr, s->prep);
    p.ctx.tr = sim_policy_trace(s);
    p.ctx.progress_s = s->pol.ops->reads_progress ? s->view : NULL;
    p.ctx.now_s = s->st.t;
    p.ctx.rng = &s->st.rng;
    p.sharing = s->sharing;
    p.unbounded = s->cfg.unbounded;
    p.ex = &s->ex_work;
    p.opened = server_opened;
    p.occupy = occupy;
    p.owner = s;
    return sim_place_task(&p, ti, ti, pl, bad);
}

static void enqueue(sim_state *st, int ti)
{
    grow_array((void **)&st->queue, &st->qcap, st->qtail + 1, sizeof *st->queue);
    st->queue[st->qtail++] = ti;
    st->tasks[ti].status = ST_QUEUED;
}

static int try_place(sim *s, int ti, int from_queue)
{
    placement pl;
    gp_err bad = {{0}};
    sim_place_result r = place_task(s, ti, &pl, &bad);
    if (r == SIM_PLACE_INVALID) {
        /* A policy bug, not a full cluster: the task fails with the reason
         * in the placement log rather than corrupting the state. */
        if (from_queue)
            s->st.qhead++;
        char why[sizeof bad.msg + 48];
        snprintf(why, sizeof why, "invalid placement from the policy: %s", bad.msg);
        sim_fail_task(s, ti, why);
        return 1;
    }
    if (r == SIM_PLACE_PLACED) {
        if (from_queue)
            s->st.qhead++;
        started(s, ti, &pl);
        return 1;
    }
    if (from_queue) {
        s->st.retry = 0;        /* still does not fit: wait for a completion */
        return 0;
    }
    if (s->cfg.full == SIM_FAIL) {
        sim_fail_task(s, ti, NULL);
        return 1;
    }
    enqueue(&s->st, ti);
    sim_record_decision(s, ti, NULL, "queued: ");
    return 1;
}

/* A task pinned in place (a snapshot's what-if) starts where it is, with
 * no policy asked: the state the what-if begins from. */
static int start_in_place(sim *s, int ti)
{
    const sim_pin *p = &s->cfg.pins[ti];
    placement pl;
    memset(&pl, 0, sizeof pl);
    pl.node = p->node;
    pl.ngpus = p->ngpus;
    for (int k = 0; k < p->ngpus; k++)
        pl.gpus[k] = s->st.cs->nodes[p->node].gpu0 + p->dev[k];
    explain_reset(&s->ex_work);
    snprintf(s->ex_work.summary, sizeof s->ex_work.summary,
             "in place at the start (the snapshot's)");
    sim_occupy(s, ti, &pl);
    started(s, ti, &pl);
    return 1;
}

static int arrive(sim *s, int ti)
{
    const task *tk = &s->tr->tasks[ti];
    if (s->cfg.pins && s->cfg.pins[ti].node >= 0)
        return start_in_place(s, ti);
    if (sim_place_host(s->cl, s->cat, tk) < 0) {
        char why[160];
        snprintf(why, sizeof why, "never fits: no server of %s has %d GPU(s) of an allowed model "
                 "with %.2f GiB each", s->cl->name, tk->num_gpu, tk->gpu_mem_gib);
        sim_fail_task(s, ti, why);
        return 1;
    }
    if (s->rounds) {
        sim_round_arrive(s, ti);
        return 0;
    }
    if (s->st.qtail > s->st.qhead) {    /* strict FIFO */
        enqueue(&s->st, ti);
        return 0;
    }
    return try_place(s, ti, 0);
}

/* Nothing runs, nothing arrives, the queue head never fits: fail the queue. */
static int drain_queue(sim *s)
{
    int ti = s->st.queue[s->st.qhead++];
    sim_fail_task(s, ti, "never placed: nothing runs and the policy finds no room");
    return 1;
}

/* ---- the event loop ------------------------------------------------------------ */

typedef enum ev_kind {
    EV_NONE, EV_TASK, EV_RETRY, EV_START, EV_ARRIVAL, EV_ROUND, EV_TICK
} ev_kind;

static ev_kind next_event(sim *s, double *t_out)
{
    sim_state *st = &s->st;
    ev_kind k = EV_NONE;
    double t = SIM_INF;
    const sim_ev *e = sim_heap_top(st);
    if (e) {
        k = EV_TASK;
        t = e->t;
    }
    if (st->retry && st->qtail > st->qhead && (k == EV_NONE || st->t < t)) {
        k = EV_RETRY;
        t = st->t;
    }
    if (st->start_pos < st->nstarts && (k == EV_NONE || st->t < t)) {
        k = EV_START;
        t = st->t;
    }
    if (st->next_arrival < st->ntasks) {
        double ta = fmax(s->tr->tasks[s->order[st->next_arrival]].arrival_s, st->t);
        if (ta < t) {
            k = EV_ARRIVAL;
            t = ta;
        }
    }
    double tr;
    if (s->rounds && sim_round_pending(s, &tr) && tr < t) {
        k = EV_ROUND;
        t = tr;
    }
    /* Ticks only while the run is live (something else is still to come). */
    if (k != EV_NONE && sim_pm_pending(s)) {
        double tt = sim_pm_next_tick(s);
        if (tt < t) {
            k = EV_TICK;
            t = tt;
        }
    }
    *t_out = t;
    return k;
}

/* Tasks that wait with nothing left to place them: the FIFO queue, or
 * the allocation family's waiting set. */
static int stuck_waiting(const sim_state *st)
{
    return st->qtail > st->qhead || st->nwaiting > 0;
}

double sim_next_event_time(sim *s)
{
    double t;
    if (next_event(s, &t) == EV_NONE)
        return stuck_waiting(&s->st) ? s->st.t : SIM_INF;
    return t;
}

int sim_process_one(sim *s)
{
    sim_state *st = &s->st;
    double t;
    ev_kind k = next_event(s, &t);
    if (k == EV_NONE) {
        if (st->nwaiting > 0) {
            sim_round_drain(s);
            return 1;
        }
        return st->qtail > st->qhead ? drain_queue(s) : -1;
    }
    sim_advance_clock(s, t);
    switch (k) {
    case EV_TASK: {
        int ti = sim_heap_top(st)->task;
        sim_heap_pop(st);
        sim_task_event(s, ti);
        return 0;
    }
    case EV_RETRY:
        return try_place(s, st->queue[st->qhead], 1);
    case EV_START:
        sim_round_start_next(s);
        return 1;
    case EV_ROUND:
        sim_round_run(s);
        return 0;
    case EV_ARRIVAL:
        return arrive(s, s->order[st->next_arrival++]);
    case EV_TICK:
        sim_pm_tick(s);
        return 0;
    default:
        return -1;
    }
}

/* ---- public stepping ------------------------------------------------------------ */

int sim_done(const sim *s)
{
    const sim_state *st = &s->st;
    return st->next_arrival >= st->ntasks && st->nrunning == 0 && st->qtail == st->qhead &&
           st->nwaiting == 0 && st->start_pos == st->nstarts;
}

int sim_step(sim *s)
{
    if (!s->rec)
        return 0;
    for (;;) {
        int r = sim_process_one(s);
        if (r != 0) {
            s->view_t = s->st.t;
            sim_view_sync(s);
            return r == 1;
        }
    }
}

int sim_advance_until(sim *s, double t_s)
{
    if (!s->rec)
        return 0;
    while (sim_next_event_time(s) <= t_s)
        if (sim_process_one(s) < 0)
            break;
    s->view_t = t_s > s->st.t ? t_s : s->st.t;
    sim_view_sync(s);
    return !sim_done(s);
}

int sim_advance_bounded(sim *s, double t_s, size_t max_decisions)
{
    if (!s->rec)
        return 1;
    size_t d0 = s->st.decisions;
    while (sim_next_event_time(s) <= t_s) {
        if (s->st.decisions - d0 >= max_decisions) {
            s->view_t = s->st.t;
            sim_view_sync(s);
            return 0;
        }
        if (sim_process_one(s) < 0)
            break;
    }
    s->view_t = t_s > s->st.t ? t_s : s->st.t;
    sim_view_sync(s);
    return 1;
}

int sim_run(sim *s, volatile const int *cancel)
{
    if (!s->rec)
        return 0;
    for (size_t n = 0;; n++) {
        if (cancel && (n & 1023) == 0 && *cancel) {
            s->view_t = s->st.t;
            sim_view_sync(s);
            return -1;
        }
        if (sim_process_one(s) < 0)
            break;
    }
    s->view_t = s->st.t;
    sim_view_sync(s);
    return 0;
}

/* ---- accessors ----------------------------------------------------------------- */

double sim_now(const sim *s)
{
    return s->view_t;
}

size_t sim_decisions(const sim *s)
{
    return s->st.decisions;
}

const cstate *sim_cstate(const sim *s)
{
    return s->st.cs;
}

const gp_trace *sim_trace(const sim *s)
{
    return s->tr;
}

const double *sim_progress(const sim *s)
{
    return s->view;
}

const explain *sim_last_explain(const sim *s)
{
    return s->has_last ? &s->ex_last : NULL;
}

void sim_power(const sim *s, power_split *out)
{
    if (s->st.power_dirty)
        power_eval(s->pmodel, s->st.cs, out);
    else
        *out = s->st.power;
}

const run *sim_run_record(const sim *s)
{
    return s->rec;
}

void sim_finish(sim *s)
{
    if (!s->rec || s->finished)
        return;
    sim_metrics_finish(s);
    s->finished = 1;
}

run *sim_take_run(sim *s)
{
    run *r = s->rec;
    s->rec = NULL;
    return r;
}
