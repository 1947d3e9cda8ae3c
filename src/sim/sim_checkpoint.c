/*
 * sim_checkpoint.c — going back in a simulation (the TUI's step ← key).
 *
 * A checkpoint is a deep copy of sim_state (cluster state, tasks, heap,
 * queue, power-manager sets, counters, rng, the rounds' waiting set,
 * starts and measurements) plus the lengths of the run
 * record at that moment.  One is taken before the first decision and then
 * every ckpt_every decisions; when there are more than SIM_MAX_CKPTS the
 * odd ones are dropped and the spacing doubles, so memory stays bounded on
 * long traces.  sim_rewind(k) restores the last checkpoint strictly before
 * decision k and replays forward: policies are pure functions of the
 * state, so the replay repeats the original run exactly (and rebuilds the
 * explanation of decision k).  Checkpoints after the target stay valid for
 * the same reason.
 */
#include "sim_int.h"

#include <stdlib.h>
#include <string.h>

static void *dup_array(const void *src, size_t n, size_t elem, size_t *cap)
{
    if (cap)
        *cap = n;
    if (n == 0)
        return NULL;
    return xmemdup(src, n * elem);
}

void sim_state_copy(sim_state *dst, const sim_state *src)
{
    *dst = *src;
    dst->cs = cstate_clone(src->cs);
    dst->tasks = dup_array(src->tasks, src->ntasks, sizeof *src->tasks, NULL);
    dst->gpus = dup_array(src->gpus, src->cs->ngpus, sizeof *src->gpus, &dst->gpus_cap);
    dst->node_pending = dup_array(src->node_pending, src->cs->nnodes,
                                  sizeof *src->node_pending, &dst->nodes_cap);
    dst->heap = dup_array(src->heap, src->nheap, sizeof *src->heap, &dst->heap_cap);
    dst->queue = dup_array(src->queue, src->qtail, sizeof *src->queue, &dst->qcap);
    dst->running = dup_array(src->running, src->nrunning, sizeof *src->running,
                             &dst->running_cap);
    dst->pm_gpus = dup_array(src->pm_gpus, src->npm_gpus, sizeof *src->pm_gpus,
                             &dst->pm_gpus_cap);
    dst->pm_nodes = dup_array(src->pm_nodes, src->npm_nodes, sizeof *src->pm_nodes,
                              &dst->pm_nodes_cap);
    dst->waiting = dup_array(src->waiting, src->nwaiting, sizeof *src->waiting,
                             &dst->waiting_cap);
    dst->starts = dup_array(src->starts, src->nstarts, sizeof *src->starts, &dst->starts_cap);
    dst->obs = dup_array(src->obs, src->nobs, sizeof *src->obs, &dst->obs_cap);
}

void sim_state_release(sim_state *st)
{
    cstate_free(st->cs);
    free(st->tasks);
    free(st->gpus);
    free(st->node_pending);
    free(st->heap);
    free(st->queue);
    free(st->running);
    free(st->pm_gpus);
    free(st->pm_nodes);
    free(st->waiting);
    free(st->starts);
    free(st->obs);
    memset(st, 0, sizeof *st);
}

/* Drops every other checkpoint after the first and doubles the spacing. */
static void thin(sim *s)
{
    size_t w = 1;
    for (size_t i = 1; i < s->nckpts; i++) {
        if (i % 2 == 0)
            s->ckpts[w++] = s->ckpts[i];
        else
            sim_state_release(&s->ckpts[i].st);
    }
    s->nckpts = w;
    s->ckpt_every *= 2;
}

void sim_ckpt_take(sim *s)
{
    if (s->ckpt_every == SIM_NO_REWIND)
        return;
    size_t d = s->st.decisions;
    if (s->nckpts && s->ckpts[s->nckpts - 1].st.decisions >= d)
        return;     /* replaying ground already covered */
    if (d > 0 && (s->ckpt_every == 0 || d % s->ckpt_every != 0))
        return;
    grow_array((void **)&s->ckpts, &s->ckpts_cap, s->nckpts + 1, sizeof *s->ckpts);
    sim_ckpt *c = &s->ckpts[s->nckpts++];
    sim_state_copy(&c->st, &s->st);
    c->npoints = s->rec->npoints;
    c->noutcomes = s->rec->noutcomes;
    c->ndecisions = s->rec->ndecisions;
    if (s->nckpts > SIM_MAX_CKPTS)
        thin(s);
}

void sim_ckpts_free(sim *s)
{
    for (size_t i = 0; i < s->nckpts; i++)
        sim_state_release(&s->ckpts[i].st);
    free(s->ckpts);
    s->ckpts = NULL;
    s->nckpts = s->ckpts_cap = 0;
}

static void truncate_record(run *r, const sim_ckpt *c)
{
    for (size_t i = c->ndecisions; i < r->ndecisions; i++)
        free(r->decisions[i].reason);
    r->ndecisions = c->ndecisions;
    r->npoints = c->npoints;
    r->noutcomes = c->noutcomes;
    r->nmetrics = 0;            /* summary metrics belong to a finished run */
}

static void restore(sim *s, const sim_ckpt *c)
{
    sim_state_release(&s->st);
    sim_state_copy(&s->st, &c->st);
    truncate_record(s->rec, c);
    s->has_last = 0;
    s->finished = 0;
    s->view_t = s->st.t;
    for (size_t i = 0; i < s->st.ntasks; i++)
        s->view[i] = sim_task_progress(&s->st, (int)i, s->st.t);
}

int sim_rewind(sim *s, size_t k, gp_err *err)
{
    if (!s->rec)
        return gp_error(err, "the run record was handed over; the simulation is closed");
    if (s->nckpts == 0)
        return gp_error(err, "the simulation keeps no checkpoints (SIM_NO_REWIND)");
    if (k <= s->st.decisions) {
        /* The last checkpoint strictly before k (k = 0: the initial one), so
         * at least one decision is replayed and its explanation rebuilt, and
         * events processed after decision k (sim_advance_until) are undone. */
        size_t want = k ? k - 1 : 0, i = s->nckpts;
        while (i > 1 && s->ckpts[i - 1].st.decisions > want)
            i--;
        restore(s, &s->ckpts[i - 1]);
    }
    while (s->st.decisions < k)
        if (!sim_step(s))
            return gp_error(err, "the run has only %zu decisions", s->st.decisions);
    return 0;
}
