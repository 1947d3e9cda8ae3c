/*
 * sim_round.c — the allocation family in the simulator (GOGH §2, Gavel's
 * rounds): tasks do not get a place when they arrive but wait for the
 * next round; every round the policy sees every active task and says
 * where each runs until the next one, so it may move or pause running
 * tasks.
 *
 * A round (at first arrival + k round_s, when something changed since the
 * last: an arrival, a completion or a start) does, in order:
 *   1. measure: each running task with a job type of the throughput
 *      table, alone or with one other task on an accelerator class, is
 *      measured at its true throughput; a measurement new for that task
 *      (accelerator, partner) is kept in the run state, where the policy
 *      reads every one so far (GOGH's P2 learns from them);
 *   2. allocate: the policy returns a placement, or none, for every task;
 *   3. stop: running tasks whose placement changed free their GPUs,
 *      keeping their progress;
 *   4. queue the starts, made one per event at the same instant, each one
 *      decision of the placement log (the Step view's unit).  A task that
 *      had run before restarts idle for restart_s (checkpoint/restore).
 * Freed GPUs wait for the next round, as in the papers.
 *
 * Everything a round leaves behind is in sim_state, so rewinds replay it.
 */
#include "sim_int.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- timing -------------------------------------------------------------------- */

/* The first round time of the grid (first arrival + k round_s) at or after
 * t, and after the last round. */
static double grid_at(const sim *s, double t)
{
    double t0 = s->st.acc.t0, r = s->round_s;
    double k = ceil((t - t0) / r - 1e-9);
    double at = t0 + (k > 0 ? k : 0) * r;
    if (at <= s->st.last_round_t)
        at = s->st.last_round_t + r;
    return at;
}

void sim_round_touch(sim *s)
{
    sim_state *st = &s->st;
    if (st->round_due)
        return;
    st->round_due = 1;
    st->next_round_t = grid_at(s, st->t);
}

int sim_round_pending(const sim *s, double *t)
{
    const sim_state *st = &s->st;
    if (!st->round_due || st->start_pos < st->nstarts)
        return 0;
    *t = st->next_round_t;
    return 1;
}

/* ---- the waiting set ------------------------------------------------------------ */

static int arrives_before(const sim *s, int a, int b)
{
    double ta = s->tr->tasks[a].arrival_s, tb = s->tr->tasks[b].arrival_s;
    return ta != tb ? ta < tb : a < b;
}

static void waiting_add(sim *s, int ti)
{
    sim_state *st = &s->st;
    grow_array((void **)&st->waiting, &st->waiting_cap, st->nwaiting + 1, sizeof *st->waiting);
    size_t i = st->nwaiting++;
    while (i > 0 && arrives_before(s, ti, st->waiting[i - 1])) {
        st->waiting[i] = st->waiting[i - 1];
        i--;
    }
    st->waiting[i] = ti;
    st->tasks[ti].status = ST_QUEUED;
}

static void waiting_remove(sim_state *st, int ti)
{
    size_t w = 0;
    for (size_t i = 0; i < st->nwaiting; i++)
        if (st->waiting[i] != ti)
            st->waiting[w++] = st->waiting[i];
    st->nwaiting = w;
}

void sim_round_arrive(sim *s, int ti)
{
    waiting_add(s, ti);
    sim_round_touch(s);
}

/* ---- 1. measure ------------------------------------------------------------------ */

static int seen(const sim_state *st, const alloc_obs *o)
{
    for (size_t i = st->nobs; i-- > 0;) {
        const alloc_obs *p = &st->obs[i];
        if (p->task == o->task && p->partner == o->partner && strcmp(p->accel, o->accel) == 0)
            return 1;
    }
    return 0;
}

static void measure(sim *s)
{
    sim_state *st = &s->st;
    for (size_t i = 0; i < st->nrunning; i++) {
        int ti = st->running[i], partner;
        const sim_task *tk = &st->tasks[ti];
        if (tk->pl.ngpus != 1 || st->t < tk->stall_until)
            continue;
        alloc_obs o = {.task = ti, .round = st->round.round + 1};
        o.tput = sim_tput_now(s, ti, &partner);
        if (!(o.tput > 0))
            continue;
        const gpu_profile *prof = st->cs->nodes[tk->pl.node].gpu;
        strlcpy0(o.accel, prof->tput_class, sizeof o.accel);
        o.partner = partner;
        if (partner >= 0) {
            int back;
            o.partner_tput = sim_tput_now(s, partner, &back);
        }
        if (seen(st, &o))
            continue;
        grow_array((void **)&st->obs, &st->obs_cap, st->nobs + 1, sizeof *st->obs);
        st->obs[st->nobs++] = o;
    }
}

/* ---- 2. allocate ----------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Running tasks by trace index, then the waiting ones by arrival. */
static alloc_job *active_jobs(const sim *s, size_t *n)
{
    const sim_state *st = &s->st;
    size_t nr = st->nrunning, total = nr + st->nwaiting;
    alloc_job *jobs = xcalloc(total ? total : 1, sizeof *jobs);
    int *byidx = xmalloc((nr ? nr : 1) * sizeof *byidx);
    if (nr)                     /* st->running is NULL before any start */
        memcpy(byidx, st->running, nr * sizeof *byidx);
    qsort(byidx, nr, sizeof *byidx, cmp_int);
    for (size_t i = 0; i < nr; i++) {
        jobs[i].task = byidx[i];
        jobs[i].running = 1;
        jobs[i].cur = st->tasks[byidx[i]].pl;
        jobs[i].progress_s = sim_task_progress(st, byidx[i], st->t);
    }
    for (size_t i = 0; i < st->nwaiting; i++) {
        int ti = st->waiting[i];
        jobs[nr + i].task = ti;
        jobs[nr + i].progress_s = st->tasks[ti].prog;
    }
    free(byidx);
    *n = total;
    return jobs;
}

static int same_placement(const placement *a, const placement *b)
{
    if (a->node != b->node || a->ngpus != b->ngpus)
        return 0;
    for (int k = 0; k < a->ngpus; k++) {
        int found = 0;
        for (int j = 0; j < b->ngpus && !found; j++)
            found = a->gpus[k] == b->gpus[j];
        if (!found)
            return 0;
    }
    return 1;
}

/* The job of the round planned on GPU g besides job i, -1 when none (or
 * more than one). */
static int planned_partner(const alloc_job *jobs, const placement *pl, size_t n, size_t i)
{
    int g = pl[i].gpus[0], partner = -1;
    for (size_t j = 0; j < n; j++) {
        if (j == i || pl[j].ngpus == 0)
            continue;
        for (int k = 0; k < pl[j].ngpus; k++) {
            if (pl[j].gpus[k] != g)
                continue;
            if (partner >= 0)
                return -1;
            partner = jobs[j].task;
        }
    }
    return partner;
}

static void queue_start(sim *s, const alloc_job *job, const placement *pl, double est,
                        double min, double truth)
{
    sim_state *st = &s->st;
    grow_array((void **)&st->starts, &st->starts_cap, st->nstarts + 1, sizeof *st->starts);
    sim_start *a = &st->starts[st->nstarts++];
    memset(a, 0, sizeof *a);
    a->task = job->task;
    a->pl = *pl;
    if (job->running)
        a->from = job->cur;
    a->est = est;
    a->min = min;
    a->truth = truth;
}

/* The table's figure for job i where the round put it. */
static double truth_of(const sim *s, const alloc_job *jobs, const placement *pl, size_t n,
                       size_t i)
{
    if (pl[i].ngpus != 1)
        return 0;
    const gpu_profile *prof = s->st.cs->nodes[pl[i].node].gpu;
    if (!prof || !prof->tput_class[0])
        return 0;
    return sim_tput_truth(s, jobs[i].task, prof->tput_class, planned_partner(jobs, pl, n, i));
}

/* Stops what moves or pauses, queues what starts, and counts. */
static void apply(sim *s, const alloc_job *jobs, size_t n, const alloc_out *out)
{
    sim_state *st = &s->st;
    sim_round_info *ri = &st->round;
    for (size_t i = 0; i < n; i++) {
        const placement *pl = &out->pl[i];
        if (jobs[i].running && pl->ngpus > 0 && same_placement(pl, &jobs[i].cur))
            continue;
        if (jobs[i].running) {
            sim_task_stop(s, jobs[i].task);
            waiting_add(s, jobs[i].task);
            st->moves++;
            if (pl->ngpus == 0)
                ri->paused++;
            else
                ri->moved++;
        }
        if (pl->ngpus > 0)
            queue_start(s, &jobs[i], pl, out->est[i], out->min[i],
                        truth_of(s, jobs, out->pl, n, i));
    }
    ri->placed = st->nstarts - ri->moved;
}

void sim_round_run(sim *s)
{
    sim_state *st = &s->st;
    st->round_due = 0;
    st->last_round_t = st->t;
    measure(s);
    size_t n;
    alloc_job *jobs = active_jobs(s, &n);
    alloc_out out;
    memset(&out, 0, sizeof out);
    out.pl = xcalloc(n ? n : 1, sizeof *out.pl);
    out.est = xcalloc(n ? n : 1, sizeof *out.est);
    out.min = xcalloc(n ? n : 1, sizeof *out.min);
    s->view_t = st->t;
    sim_view_sync(s);
    alloc_ctx ctx = {.cs = st->cs, .tr = s->tr, .jobs = jobs, .njobs = n, .obs = st->obs,
                     .nobs = st->nobs, .now_s = st->t, .round = st->round.round + 1,
                     .prep = s->prep};
    gp_err err = {{0}};
    int rc = s->pol.ops->allocate(&ctx, s->pol.params, &out, &err);
    sim_round_info *ri = &st->round;
    memset(ri, 0, sizeof *ri);
    ri->round = ctx.round;
    ri->t = st->t;
    ri->jobs = n;
    st->nstarts = st->start_pos = 0;
    if (rc == 0) {
        ri->objective = out.objective;
        ri->gap = out.gap;
        strlcpy0(ri->obj_unit, out.obj_unit, sizeof ri->obj_unit);
        strlcpy0(ri->note, out.note, sizeof ri->note);
        apply(s, jobs, n, &out);
    } else {
        snprintf(ri->note, sizeof ri->note, "round failed, nothing changed: %s", err.msg);
    }
    ri->waiting = st->nwaiting - st->nstarts;
    free(out.pl);
    free(out.est);
    free(out.min);
    free(jobs);
}

/* ---- 4. starts --------------------------------------------------------------------- */

static void describe_gpu(const sim *s, const placement *pl, strbuf *b)
{
    const cs_node *n = &s->st.cs->nodes[pl->node];
    strbuf_printf(b, "%s/g", n->name);
    for (int k = 0; k < pl->ngpus; k++)
        strbuf_printf(b, "%s%d", k ? "," : "", s->st.cs->gpus[pl->gpus[k]].dev);
}

/* The decision's explanation: the round's starts as candidates (est, true,
 * min throughput), this one chosen, and a one-line summary. */
static void explain_start(sim *s, const sim_start *a)
{
    static const char *const terms[] = {"est it/s", "true it/s", "min it/s"};
    const sim_state *st = &s->st;
    const sim_round_info *ri = &st->round;
    explain *ex = &s->ex_work;
    explain_reset(ex);
    for (int k = 0; k < 3; k++)
        ex->term_name[k] = terms[k];
    ex->nterms = 3;
    for (size_t i = 0; i < st->nstarts; i++) {
        const sim_start *b = &st->starts[i];
        explain_cand *c = explain_add(ex, b->pl.node, b->pl.gpus[0]);
        if (!c)
            continue;
        c->term[0] = b->est;
        c->term[1] = b->truth;
        c->term[2] = b->min;
        snprintf(c->note, sizeof c->note, "%s%s", s->tr->tasks[b->task].name,
                 b->from.ngpus ? " (moved)" : "");
        if (b == a)
            ex->chosen = (int)i;
    }
    strbuf sum = STRBUF_INIT;
    strbuf_printf(&sum, "%s round %d at %.0f s: %s -> ", s->pol.ops->name, ri->round, ri->t,
                  s->tr->tasks[a->task].name);
    describe_gpu(s, &a->pl, &sum);
    if (a->from.ngpus) {
        strbuf_puts(&sum, " from ");
        describe_gpu(s, &a->from, &sum);
    }
    if (a->est > 0 || a->truth > 0)
        strbuf_printf(&sum, ", est %.3g it/s true %.3g", a->est, a->truth);
    strbuf_printf(&sum, "; %zu jobs: %zu placed, %zu moved, %zu paused, %zu wait", ri->jobs,
                  ri->placed, ri->moved, ri->paused, ri->waiting);
    if (ri->obj_unit[0])
        strbuf_printf(&sum, "; objective %.6g %s, gap %.2f %%", ri->objective, ri->obj_unit,
                      100 * ri->gap);
    if (ri->note[0])
        strbuf_printf(&sum, "; %s", ri->note);
    strbuf_copy_to(&sum, ex->summary, sizeof ex->summary);
    strbuf_free(&sum);
}

void sim_round_start_next(sim *s)
{
    sim_state *st = &s->st;
    const sim_start a = st->starts[st->start_pos++];
    int ti = a.task;
    gp_err bad = {{0}};
    explain_start(s, &a);
    if (placement_check(st->cs, &s->tr->tasks[ti], &a.pl, s->sharing, &bad)) {
        /* A policy bug or a conflict inside its round: the task waits for
         * the next one, with the reason in the log. */
        char why[sizeof bad.msg + 48];
        snprintf(why, sizeof why, "invalid placement from the policy: %s", bad.msg);
        strlcpy0(s->ex_work.summary, why, sizeof s->ex_work.summary);
        sim_round_touch(s);
        sim_record_decision(s, ti, NULL, "waits: ");
        return;
    }
    waiting_remove(st, ti);
    sim_occupy(s, ti, &a.pl);
    if (st->tasks[ti].starts > 0)
        sim_task_resume(s, ti, s->restart_s);
    else
        sim_task_start(s, ti);
    for (int k = 0; k < a.pl.ngpus; k++)
        sim_pm_mark_gpu(s, a.pl.gpus[k]);
    sim_round_touch(s);
    sim_record_decision(s, ti, &a.pl, a.from.ngpus ? "moved: " : "");
}

void sim_round_drain(sim *s)
{
    sim_state *st = &s->st;
    int ti = st->waiting[0];
    waiting_remove(st, ti);
    explain_reset(&s->ex_work);
    sim_fail_task(s, ti, "never placed: nothing runs, nothing arrives, and the last round "
                  "left it waiting");
}
