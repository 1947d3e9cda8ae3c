/*
 * heuristics.c — the correlation family's rows beside an exact model
 * (heuristics.h): each policy through the placement step of the simulator
 * (sim/sim_place.h) on an empty cluster, its placement read back in the
 * instance's numbering and scored as the model scores.
 */
#include "heuristics.h"
#include "sim/sim_place.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Places the tasks src[0..n) in order with policy ops deciding on view;
 * unbounded opens a new server when nothing fits.  A placement the
 * contract refuses counts as unplaced.  Returns the state (caller frees),
 * or NULL when the policy cannot run on it. */
static cstate *place_all(const heuristics_input *in, const gp_trace *view,
                         const policy_ops *ops, const int *src, size_t n, int unbounded,
                         int *unplaced, gp_err *err)
{
    policy_spec sp;
    if (policy_spec_parse(ops->name, &sp, err))
        return NULL;
    cstate *cs = cstate_new(in->cl, in->cat, err);
    if (!cs)
        return NULL;
    void *prep;
    if (policy_prepare(&sp, cs, view, &prep, err)) {
        cstate_free(cs);
        return NULL;
    }
    sim_placer p;
    sim_place_init(&p, &sp, cs, in->cl, in->cat, in->tr, prep);
    p.ctx.tr = view;
    p.unbounded = unbounded;
    *unplaced = 0;
    for (size_t k = 0; k < n; k++) {
        placement pl;
        gp_err bad;
        if (sim_place_task(&p, src[k], src[k], &pl, &bad) != SIM_PLACE_PLACED)
            (*unplaced)++;
    }
    policy_release(&sp, prep);
    return cs;
}

/* Instance index of each trace task of the instance (-1 elsewhere). */
static int *inst_of_trace(const gp_trace *tr, const int *src, size_t n)
{
    int *m = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *m);
    for (size_t i = 0; i < tr->ntasks; i++)
        m[i] = -1;
    for (size_t k = 0; k < n; k++)
        m[src[k]] = (int)k;
    return m;
}

/* The placements of cs in instance numbering, and the busy GPUs and
 * servers. */
static void collect(const cstate *cs, const int *inst, heuristic_row *h)
{
    size_t cap = 16;
    h->place = xmalloc(cap * sizeof *h->place);
    for (size_t g = 0; g < cs->ngpus; g++)
        for (int k = 0; k < cs->gpus[g].ntasks; k++) {
            int l = inst[cs->gpus[g].tasks[k]];
            if (l < 0)
                continue;
            grow_array((void **)&h->place, &cap, h->nplace + 1, sizeof *h->place);
            h->place[h->nplace++] = (solve_place){l, (int)g};
        }
    for (size_t g = 0; g < cs->ngpus; g++)
        h->gpus += cs->gpus[g].ntasks > 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        int busy = 0;
        for (int g = cs->nodes[i].gpu0; g < cs->nodes[i].gpu0 + cs->nodes[i].ngpus; g++)
            busy |= cs->gpus[g].ntasks > 0;
        h->servers += busy;
    }
}

/* Every policy of the family on src[0..n), decided on the predictor's view
 * of the trace (the rows are scored on the truth afterwards). */
static heuristics *run_family(const heuristics_input *in, const int *src, size_t n,
                              int unbounded)
{
    const upred_spec *pr = in->predict;
    gp_trace *pred = pr && pr->kind != UPRED_ORACLE ? upred_trace_new(in->tr, pr, 42) : NULL;
    int *inst = inst_of_trace(in->tr, src, n);
    heuristics *h = xcalloc(1, sizeof *h);
    size_t nfam = 0;
    while (policy_family_nth(FAMILY_CORRELATION, nfam))
        nfam++;
    h->rows = xcalloc(nfam ? nfam : 1, sizeof *h->rows);
    for (; h->n < nfam; h->n++) {
        heuristic_row *r = &h->rows[h->n];
        const policy_ops *ops = policy_family_nth(FAMILY_CORRELATION, h->n);
        r->name = ops->name;
        r->value = NAN;
        gp_err err = {{0}};
        cstate *cs = place_all(in, pred ? pred : in->tr, ops, src, n, unbounded,
                               &r->unplaced, &err);
        if (!cs) {
            r->unplaced = (int)n;
            continue;
        }
        collect(cs, inst, r);
        r->placed_all = r->unplaced == 0;
        cstate_free(cs);
    }
    free(inst);
    trace_free(pred);
    return h;
}

heuristics *heuristics_cats_new(const heuristics_input *in, const cats_inst *ci)
{
    int *src = xmalloc((ci->ntasks + 1) * sizeof *src);
    for (size_t l = 0; l < ci->ntasks; l++)
        src[l] = ci->tasks[l].src;
    heuristics *h = run_family(in, src, ci->ntasks, 0);
    for (size_t k = 0; k < h->n; k++) {
        heuristic_row *r = &h->rows[k];
        if (r->placed_all)
            r->value = cats_power_of(ci, r->place, r->nplace, NULL, NULL, NULL, NULL);
    }
    free(src);
    return h;
}

/* Co-located pairs the model forbids (CorrGPU eq. 5 with rho > alpha). */
static int conflicts(const corrgpu_inst *ci, const heuristic_row *r)
{
    int c = 0;
    for (size_t a = 0; a < r->nplace; a++)
        for (size_t b = a + 1; b < r->nplace; b++)
            if (r->place[a].gpu == r->place[b].gpu &&
                ci->conflict[(size_t)r->place[a].task * ci->ntasks + (size_t)r->place[b].task])
                c++;
    return c;
}

heuristics *heuristics_corrgpu_new(const heuristics_input *in, const corrgpu_inst *ci)
{
    heuristics *h = run_family(in, ci->src, ci->ntasks, 1);
    for (size_t k = 0; k < h->n; k++) {
        heuristic_row *r = &h->rows[k];
        if (r->placed_all)
            r->value = r->gpus;
        r->conflicts = conflicts(ci, r);
    }
    return h;
}

void heuristics_free(heuristics *h)
{
    if (!h)
        return;
    for (size_t k = 0; k < h->n; k++)
        free(h->rows[k].place);
    free(h->rows);
    free(h);
}

int heuristics_best(const heuristics *h, int no_conflicts)
{
    int best = -1;
    for (size_t k = 0; k < h->n; k++) {
        const heuristic_row *r = &h->rows[k];
        if (r->placed_all && !(no_conflicts && r->conflicts) &&
            (best < 0 || r->value < h->rows[best].value))
            best = (int)k;
    }
    return best;
}
