/*
 * policy_corrgpu.c — CorrGPU, correlation-aware scheduling for CapEx
 * (Subramaniyan and Wang, IPCCC'25), Alg. 1.
 *
 * For an incoming task t and every GPU in the gputracker (GPUs running
 * tasks) whose free DRAM holds t (Alg. 1 lines 3–6):
 *   delta   = rho(g(u), t(u))              CorrGPU eq. 1, line 7
 *   kept when delta < alpha                 line 8 (strict, as written)
 *   delta_1 = mean of g(u) + t(u)           line 9, percent
 * The buffer is sorted by delta, then delta_1, ascending (line 22) and the
 * first GPU wins; with an empty buffer a new GPU is allocated (lines 15–19).
 *
 * Interpretations:
 *  - g(u) is the aggregate future series of the GPU's running tasks (from
 *    each one's current progress), truncated with t(u) to the shorter
 *    length; from_start=1 compares from the running tasks' starts instead,
 *    as §III-C's example describes ("the first 30 seconds of both traces").
 *  - delta_1, "the average utilization between the new task and the
 *    aggregate", is the mean of their sum: the GPU's mean utilization after
 *    placement.  (Half of it — the mean of the two means — sorts the same.)
 *  - The utilization threshold q, q_mode=soft (default) or hard.  Alg. 1
 *    has no q; step 3 says delta_1 "is treated as a soft constraint rather
 *    than a strict hardware limit", and the §III-B example checks "less
 *    than the utilization threshold (q = 100%)".  Soft: q is a sort key —
 *    a GPU within q (the family's admission test, delta_1 <= q) sorts
 *    before every GPU over it, so an over-q GPU is taken only when no GPU
 *    within q passes rho < alpha, rather than opening a new GPU.  Hard: a
 *    GPU over q is no candidate (the reading of the §III-B example).
 *    Either way instantaneous demand may exceed 100 % and slow the tasks
 *    down (SPEC §3.3).
 *  - delta_1 is the mean over the comparison's admission window
 *    (corr_place.h): the remaining window by default, whole-series means
 *    with window=1.
 *  - "Allocate a new GPU": a GPU running nothing (corr_fresh: awake first,
 *    then lowest index, so the low-index GPUs used before come back before
 *    untouched ones); in the unbounded pool mode the simulator opens a
 *    server when none is left.  CapEx counts every GPU ever used (§VI).
 *  - v > 1 spreads the task over v consecutive devices from the chosen GPU
 *    (lines 18–25); the worst busy GPU of the window gives its terms, and
 *    every idle or sleeping device of the window is a GPU it allocates
 *    anew: the window that opens the fewest sorts first
 *    (corr_terms.opens).
 */
#include "corr_place.h"
#include "policy_table.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_ALPHA, O_Q, O_FROM_START, O_Q_MODE, O_WINDOW, O_GRID };

enum { Q_SOFT = 0, Q_HARD = 1 };

static const policy_option corrgpu_options[] = {
    {"alpha", OPT_CORR_THRESHOLD, 0, -1, 1,
     "correlation threshold: GPUs with rho >= alpha are no candidates (CorrGPU Alg. 1 line 8: 0)"},
    {"q", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: the mean of the GPU's aggregate plus the task's (CorrGPU "
     "§III-B: 100); a sort key or a filter by q_mode"},
    {"from_start", OPT_SWITCH, 0, 0, 1,
     "1 = correlate running tasks from their start (CorrGPU §III-C) instead of from their "
     "current progress"},
    {"q_mode", OPT_SWITCH, Q_SOFT, 0, 1,
     "0 = soft (Alg. 1 step 3): GPUs within q sort before GPUs over it; 1 = hard: GPUs over q "
     "are no candidates"},
    {"window", OPT_UTIL_WINDOW, 0, 0, 1,
     "admission window: 0 = means over the remaining window, 1 = whole-series means; set "
     "for every policy by run --util-window"},
    {"grid", OPT_CORR_GRID, 0, 0, 1,
     "what rho and the means are computed on: 0 = each busy GPU's aggregate resampled at "
     "every decision on the task's own period; 1 = aggregates kept on an absolute time grid; "
     "set for every policy by run --corr-grid"},
    {0},
};

static const char *const corrgpu_terms[] = {"rho", "delta1_pct", "mem_free_gib"};

typedef struct corr_best {
    int found;
    int opens, over;            /* devices opened; over q (soft mode) */
    double rho, d1;
    placement pl;
    int cand, eligible, scored;
} corr_best;

/* The buffer's order: fewest devices opened, within q before over it
 * (soft), then Alg. 1 line 22: by delta, then delta_1.  Equal keys keep
 * the earlier (lower-index) GPU. */
static int sorts_before(int opens, int over, double rho, double d1, const corr_best *b)
{
    if (opens != b->opens)
        return opens < b->opens;
    if (over != b->over)
        return over < b->over;
    if (rho != b->rho)
        return rho < b->rho;
    return d1 < b->d1;
}

/* Hard mode, unless the explanation lists the candidates: a window over
 * q is no candidate whatever its rho, so it is dropped (returns 1) before
 * its aggregate is built when corr_surely_over says so, and before its
 * rho when its means say so.  0 with *t otherwise, as corr_window_compare
 * gives it.  Soft mode needs every rho: an over-q window with rho < alpha
 * is eligible and counted in the summary. */
static int surely_over_q(const policy_ctx *ctx, const double *p, const useries_in *in,
                         const placement *pl, const corr_rule *rule, corr_terms *t)
{
    int from_start = (int)p[O_FROM_START];
    if (rule->window != CORR_WIN_REMAINING) {
        /* Whole-series means: the load is a sum of summaries, known first. */
        if (!corr_admits(corr_load(ctx, pl, in->ti, rule, NULL), p[O_Q]))
            return 1;
        corr_window_compare(ctx, pl, in, from_start, t);
        return 0;
    }
    if (corr_surely_over(ctx, pl, in, from_start, p[O_Q]))
        return 1;
    corr_window_compare_lazy(ctx, pl, in, from_start, p[O_Q], t);
    return t->rho_skipped;
}

/* Scores GPU g as a candidate; updates *best. */
static void consider(const policy_ctx *ctx, const double *p, const useries_in *in, int g,
                     corr_best *best, explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[in->ti];
    placement pl;
    int code = corr_window(cs, tk, g, &pl);
    explain_cand *c = explain_add(ex, cs->gpus[g].node, g);
    if (c)
        c->term[2] = cs_gpu_mem_free(&cs->gpus[g]);
    if (code != CORR_FITS) {        /* Alg. 1 line 6 */
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "%s", corr_reason(code));
        }
        return;
    }
    corr_terms t;
    corr_rule rule = {US_MEAN, 0, (int)p[O_WINDOW], (int)p[O_GRID]};
    if (p[O_Q_MODE] == Q_HARD && !explain_wants(ex)) {
        if (surely_over_q(ctx, p, in, &pl, &rule, &t)) {
            best->scored++;
            return;
        }
    } else {
        corr_window_compare(ctx, &pl, in, (int)p[O_FROM_START], &t);
    }
    double d1 = corr_load(ctx, &pl, in->ti, &rule, &t);
    best->scored++;
    if (c) {
        c->term[0] = t.rho;
        c->term[1] = d1;
        corr_note_opens(c, t.opens);
    }
    if (!(t.rho < p[O_ALPHA])) {    /* Alg. 1 line 8 */
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "rho %.2f >= alpha %g", t.rho, p[O_ALPHA]);
        }
        return;
    }
    int over = !corr_admits(d1, p[O_Q]);
    if (over && p[O_Q_MODE] == Q_HARD) {    /* §III-B: "less than the utilization threshold" */
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "mean %.1f%% > q %g%%", d1, p[O_Q]);
        }
        return;
    }
    if (over && c)
        snprintf(c->note, sizeof c->note, "over q (sorts last)%s", t.opens ? ", opens" : "");
    best->eligible++;
    if (!best->found || sorts_before(t.opens, over, t.rho, d1, best)) {
        best->found = 1;
        best->opens = t.opens;
        best->over = over;
        best->rho = t.rho;
        best->d1 = d1;
        best->pl = pl;
        best->cand = c ? (int)ex->ncands - 1 : -1;
    }
}

static int allocate_new(const policy_ctx *ctx, const double *p, const task *tk,
                        const corr_best *b, placement *out, explain *ex)
{
    if (!corr_fresh(ctx->cs, tk, out)) {
        if (ex)
            snprintf(ex->summary, sizeof ex->summary,
                     "corrgpu: %s: nothing fits (%d GPUs scored, none eligible; no free GPU "
                     "with %.2f GiB)", tk->name, b->scored, tk->gpu_mem_gib);
        return 0;
    }
    if (ex) {
        explain_cand *c = explain_add(ex, out->node, out->gpus[0]);
        if (c) {
            c->term[1] = useries_summary(tk, US_MEAN);
            c->term[2] = cs_gpu_mem_free(&ctx->cs->gpus[out->gpus[0]]);
            snprintf(c->note, sizeof c->note, "new GPU");
            ex->chosen = (int)ex->ncands - 1;
        }
        char where[96];
        corr_format_placement(ctx->cs, out, where, sizeof where);
        snprintf(ex->summary, sizeof ex->summary,
                 "corrgpu: %s -> %s (new GPU: %d tracked GPUs scored, none with rho < %g%s)",
                 tk->name, where, b->scored, p[O_ALPHA],
                 p[O_Q_MODE] == Q_HARD ? " and mean <= q" : "");
    }
    return 1;
}

static int corrgpu_place(const policy_ctx *ctx, const double *p, int ti, placement *out,
                         explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[ti];
    if (ex)
        corr_explain_terms(ex, corrgpu_terms, 3);
    if (task_gpus(tk) == 0)
        return corr_place_cpu(cs, "corrgpu", tk, out, ex);
    useries_in in;
    useries_in_init(&in, ctx->tr, ti);
    corr_grid_attach(ctx, &in, (int)p[O_GRID]);
    corr_best best;
    memset(&best, 0, sizeof best);
    best.cand = -1;
    for (size_t a = 0; a < cs->nactive; a++)  /* the gputracker: GPUs running tasks */
        consider(ctx, p, &in, cs->active[a], &best, ex);
    useries_in_free(&in);
    if (!best.found)
        return allocate_new(ctx, p, tk, &best, out, ex);
    *out = best.pl;
    if (ex) {
        char where[96];
        corr_format_placement(cs, out, where, sizeof where);
        ex->chosen = best.cand;
        snprintf(ex->summary, sizeof ex->summary,
                 "corrgpu: %s -> %s (rho %.3f, delta1 %.1f%%%s, opens %d; first of %d eligible "
                 "by rho then delta1)", tk->name, where, best.rho, best.d1,
                 best.over ? " over q" : "", best.opens, best.eligible);
    }
    return 1;
}

const policy_ops policy_corrgpu = {
    .name = "corrgpu",
    .title = "CorrGPU (correlation-aware CapEx, IPCCC'25)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 0,
    .reads_progress = 1,         /* the running tasks' windows start there */
    .options = corrgpu_options,
    .prepare = corr_prepare,
    .release = corr_release,
    .place = corrgpu_place,
};
