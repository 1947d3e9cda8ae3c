/*
 * policy_cats.c — CATS, correlation-aware task scheduling (Subramaniyan and
 * Wang, ICS'26), Alg. 1 (correlation analysis) and Alg. 2 (scheduler).  The
 * power-state manager of CATS (Alg. 3 and 4) is the simulator's, not this
 * file's (sim_power_mgr.c).
 *
 * For an incoming task t and every candidate GPU G (Alg. 1):
 *   delta_g  = rho(u(G), u(t))                         CATS eq. 15, Alg. 1 l. 6
 *   delta_mu = |mean u(G) - mean u(t)|, fractions       Alg. 1 l. 7
 *   score    = lambda1 delta_g - lambda2 delta_mu       Alg. 2 l. 4; lowest wins
 * u(G) is the aggregate future series of G's running tasks (from each
 * task's current progress), both series truncated to the shorter length.
 *
 * Readings (the paper leaves these open; docs/correlation.md and the man
 * page name each one):
 *  - Selection, select=firstfit (default) or score.  Alg. 2 sorts the
 *    buffer by the score and takes the lowest; but "the algorithm we
 *    designed is based on the bin-packing principle" (§3.5), and at data
 *    center scale "simpler task allocation methods like first-fit can be
 *    utilized" (§3.6).  The arg-min score spreads: a busy GPU whose
 *    aggregate drifts positively correlated with newcomers is avoided,
 *    lightly loaded GPUs win and none drains.  firstfit takes the first
 *    GPU in index order that passes Alg. 1's thresholds — the bin-packing
 *    reading, and the one the trace-scale simulation of §6 fits; score is
 *    Alg. 2 as written.
 *  - Candidates are the GPUs that run tasks (they are awake: Alg. 3 sleeps
 *    the others) whose free memory holds d.  An awake idle GPU is not
 *    scored: delta_mu "between the incoming task and existing tasks running
 *    on the GPU" (§3.5) has no existing tasks there.  Option score_empty=1
 *    scores them anyway (rho 0, delta_mu = mean).
 *  - Thresholds ("we set the correlation threshold to 0 and the utilization
 *    threshold to 100%", §4) filter the buffer: a GPU is kept when
 *    delta_g <= corr_thr and it passes the family's shared admission test
 *    (corr_place.h: load <= util_thr, the means over the comparison's
 *    admission window).  The test is on means because "occasional
 *    capacity exceedance is acceptable" (§3.5).  util_mode=1 applies
 *    util_thr to the GPU's aggregate alone (the GPU is not yet saturated).
 *  - delta_mu's unit, dmu_unit: 0 = fractions of a GPU (0..1, default), so
 *    that with the paper's equal weights it weighs like delta_g in [-1, 1]
 *    ("balance two objectives", §3.5); 1 = percent (0..100), under which
 *    the score is delta_mu's alone.  Only select=score reads it.
 *  - When the buffer is empty CATS opens a fresh GPU: an awake idle one
 *    first, then a sleeping GPU on an awake server, then one on a sleeping
 *    server (lowest index in each class).  Sleeping GPUs wake on placement.
 *  - A task of v > 1 GPUs takes v consecutive devices from the chosen GPU;
 *    the worst of the window's busy GPUs gives its terms, and every idle or
 *    sleeping device of the window counts as a GPU the placement opens:
 *    the window that opens the fewest wins before the selection above
 *    (corr_place.h, corr_terms.opens).
 */
#include "corr_place.h"
#include "policy_table.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    O_CORR_THR, O_UTIL_THR, O_LAMBDA1, O_LAMBDA2, O_SCORE_EMPTY, O_FROM_START, O_UTIL_MODE,
    O_SELECT, O_DMU_UNIT, O_WINDOW, O_GRID
};

enum { SELECT_FIRSTFIT = 0, SELECT_SCORE = 1 };

static const policy_option cats_options[] = {
    {"corr_thr", OPT_CORR_THRESHOLD, 0, -1, 1,
     "correlation threshold: a GPU whose rho exceeds it is no candidate (CATS §4: 0)"},
    {"util_thr", OPT_UTIL_THRESHOLD, 100, 0, 10000,
     "utilization threshold, %: mean of the GPU's aggregate plus the task's mean must not "
     "exceed it (CATS §4: 100; the family's admission test)"},
    {"lambda1", OPT_WEIGHT, 1, 0, 1000, "weight of the correlation delta_g (CATS Alg. 2)"},
    {"lambda2", OPT_WEIGHT, 1, 0, 1000,
     "weight of the mean-utilization difference delta_mu (CATS Alg. 2)"},
    {"score_empty", OPT_SWITCH, 0, 0, 1,
     "1 = also score awake idle GPUs (rho 0, delta_mu = task mean)"},
    {"from_start", OPT_SWITCH, 0, 0, 1,
     "1 = correlate running tasks from their start instead of from their current progress"},
    {"util_mode", OPT_SWITCH, 0, 0, 1,
     "0 = util_thr bounds the GPU's mean plus the task's; 1 = it bounds the GPU's mean alone "
     "(the GPU is not yet saturated)"},
    {"select", OPT_SWITCH, SELECT_FIRSTFIT, 0, 1,
     "0 = first fit among the GPUs that pass Alg. 1's thresholds (the bin-packing principle, "
     "§3.5; first fit at data-center scale, §3.6); 1 = Alg. 2's lowest score"},
    {"dmu_unit", OPT_SWITCH, 0, 0, 1,
     "unit of delta_mu in the score: 0 = fractions of a GPU (weighs like rho), 1 = percent"},
    {"window", OPT_UTIL_WINDOW, 0, 0, 1,
     "admission window: 0 = means over the remaining window, 1 = whole-series means; set "
     "for every policy by run --util-window"},
    {"grid", OPT_CORR_GRID, 0, 0, 1,
     "what rho and the means are computed on: 0 = each busy GPU's aggregate resampled at "
     "every decision on the task's own period; 1 = aggregates kept on an absolute time grid; "
     "set for every policy by run --corr-grid"},
    {0},
};

/* The devices a window opens go in a candidate's note ("opens 1"), not in
 * a column: the Step screen keeps a rejection's note in view at 80
 * columns. */
static const char *const cats_terms[] = {"rho", "dmu", "mean_sum_pct", "score"};

typedef struct cats_best {
    int found;
    double score;
    placement pl;
    corr_terms terms;
    int cand;                   /* index in the explanation, -1 without one */
    int opens;                  /* idle devices the chosen window opens */
    int eligible, scored;
} cats_best;

/* Unless the explanation lists the candidates, the cheap tests first: a
 * window that fails the admission test is no candidate whatever its rho,
 * so it is dropped before its aggregate is built when corr_surely_over
 * says so, and before its rho when its means say so.  The summary's
 * counts stay those of the full scan (it was scored, it is not
 * eligible).  1 when dropped; else 0 with *t as corr_window_compare
 * gives it.  util_mode=1 tests the GPU's side alone and keeps the full
 * comparison. */
static int surely_ineligible(const policy_ctx *ctx, const double *p, const useries_in *in,
                             const placement *pl, const corr_rule *rule, corr_terms *t)
{
    int from_start = (int)p[O_FROM_START];
    if (p[O_UTIL_MODE] != 0) {
        corr_window_compare(ctx, pl, in, from_start, t);
        return 0;
    }
    if (rule->window != CORR_WIN_REMAINING) {
        /* Whole-series means: the load is a sum of summaries, known first. */
        if (!corr_admits(corr_load(ctx, pl, in->ti, rule, NULL), p[O_UTIL_THR]))
            return 1;
        corr_window_compare(ctx, pl, in, from_start, t);
        return 0;
    }
    if (corr_surely_over(ctx, pl, in, from_start, p[O_UTIL_THR]))
        return 1;
    corr_window_compare_lazy(ctx, pl, in, from_start, p[O_UTIL_THR], t);
    return t->rho_skipped;
}

/* Scores GPU g as a candidate; updates *best. */
static void consider(const policy_ctx *ctx, const double *p, const useries_in *in, int g,
                     cats_best *best, explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[in->ti];
    placement pl;
    int code = corr_window(cs, tk, g, &pl);
    explain_cand *c = explain_add(ex, cs->gpus[g].node, g);
    if (code != CORR_FITS) {
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "%s", corr_reason(code));
        }
        return;
    }
    corr_terms t;
    corr_rule rule = {US_MEAN, 0, (int)p[O_WINDOW], (int)p[O_GRID]};
    if (!explain_wants(ex)) {
        if (surely_ineligible(ctx, p, in, &pl, &rule, &t)) {
            best->scored++;
            return;
        }
    } else {
        corr_window_compare(ctx, &pl, in, (int)p[O_FROM_START], &t);
    }
    double mean_sum = corr_load(ctx, &pl, in->ti, &rule, &t);
    if (p[O_UTIL_MODE] != 0)     /* the GPU's side alone */
        mean_sum = rule.window == CORR_WIN_REMAINING ? t.gpu_mean
                                                     : mean_sum - useries_summary(tk, US_MEAN);
    double dmu = p[O_DMU_UNIT] != 0 ? 100 * t.dmu : t.dmu;
    double score = p[O_LAMBDA1] * t.rho - p[O_LAMBDA2] * dmu;      /* CATS Alg. 2 l. 4 */
    best->scored++;
    if (c) {
        c->term[0] = t.rho;
        c->term[1] = dmu;
        c->term[2] = mean_sum;
        c->term[3] = score;
        corr_note_opens(c, t.opens);
    }
    if (t.rho > p[O_CORR_THR]) {
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "rho %.2f > %g", t.rho, p[O_CORR_THR]);
        }
        return;
    }
    if (!corr_admits(mean_sum, p[O_UTIL_THR])) {
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "mean sum %.1f%% > %g%%", mean_sum,
                     p[O_UTIL_THR]);
        }
        return;
    }
    best->eligible++;
    /* Fewest devices opened first; then first fit keeps the first in index
     * order, score the lowest score (ties: lowest index). */
    int better = !best->found || t.opens < best->opens ||
                 (t.opens == best->opens && p[O_SELECT] == SELECT_SCORE && score < best->score);
    if (better) {
        best->found = 1;
        best->score = score;
        best->opens = t.opens;
        best->pl = pl;
        best->terms = t;
        best->cand = c ? (int)ex->ncands - 1 : -1;
    }
}

static void explain_choice(const policy_ctx *ctx, const double *p, const task *tk,
                           const cats_best *b, explain *ex)
{
    char where[96];
    corr_format_placement(ctx->cs, &b->pl, where, sizeof where);
    ex->chosen = b->cand;
    snprintf(ex->summary, sizeof ex->summary,
             "cats: %s -> %s (rho %.3f, dmu %.3f, score %.3f, opens %d; %s of %d eligible, %d "
             "scored; thresholds rho <= %g, mean sum <= %g%%)",
             tk->name, where, b->terms.rho, b->terms.dmu, b->score, b->opens,
             p[O_SELECT] == SELECT_SCORE ? "lowest score" : "first fit", b->eligible, b->scored,
             p[O_CORR_THR], p[O_UTIL_THR]);
}

static int open_fresh(const policy_ctx *ctx, const double *p, const task *tk,
                      const cats_best *b, placement *out, explain *ex)
{
    if (!corr_fresh(ctx->cs, tk, out)) {
        if (ex)
            snprintf(ex->summary, sizeof ex->summary,
                     "cats: %s: nothing fits (%d GPUs scored, none eligible; no free GPU "
                     "with %.2f GiB)", tk->name, b->scored, tk->gpu_mem_gib);
        return 0;
    }
    if (ex) {
        const cs_gpu *g = &ctx->cs->gpus[out->gpus[0]];
        explain_cand *c = explain_add(ex, out->node, out->gpus[0]);
        if (c) {
            c->term[1] = useries_summary(tk, US_MEAN) / (p[O_DMU_UNIT] != 0 ? 1 : 100.0);
            c->term[2] = useries_summary(tk, US_MEAN);
            snprintf(c->note, sizeof c->note, "fresh GPU%s",
                     g->power == GPU_ASLEEP ? " (wakes it)" : "");
            ex->chosen = (int)ex->ncands - 1;
        }
        char where[96];
        corr_format_placement(ctx->cs, out, where, sizeof where);
        snprintf(ex->summary, sizeof ex->summary,
                 "cats: %s -> %s (fresh GPU: %d busy GPUs scored, none with rho <= %g and "
                 "mean sum <= %g%%)", tk->name, where, b->scored, p[O_CORR_THR],
                 p[O_UTIL_THR]);
    }
    return 1;
}

static int cats_place(const policy_ctx *ctx, const double *p, int ti, placement *out,
                      explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[ti];
    if (ex)
        corr_explain_terms(ex, cats_terms, 4);
    if (task_gpus(tk) == 0)
        return corr_place_cpu(cs, "cats", tk, out, ex);
    useries_in in;
    useries_in_init(&in, ctx->tr, ti);
    corr_grid_attach(ctx, &in, (int)p[O_GRID]);
    cats_best best;
    memset(&best, 0, sizeof best);
    best.cand = -1;
    /* The GPUs running tasks (cs->active), and with score_empty the awake
     * idle GPUs of awake servers too, merged in index order: the order of a
     * scan of every GPU, so ties go the same way. */
    const cs_idxset *idle = p[O_SCORE_EMPTY] != 0 ? &cs->fresh[CS_FRESH_AWAKE] : NULL;
    size_t a = 0;
    int e = idle ? cs_idxset_next(idle, 0) : -1;
    while (a < cs->nactive || e >= 0) {
        int g;
        if (e < 0 || (a < cs->nactive && cs->active[a] < e))
            g = cs->active[a++];
        else {
            g = e;
            e = cs_idxset_next(idle, e + 1);
        }
        consider(ctx, p, &in, g, &best, ex);
    }
    useries_in_free(&in);
    if (!best.found)
        return open_fresh(ctx, p, tk, &best, out, ex);
    *out = best.pl;
    if (ex)
        explain_choice(ctx, p, tk, &best, ex);
    return 1;
}

const policy_ops policy_cats = {
    .name = "cats",
    .title = "CATS (correlation-aware, ICS'26)",
    .family = FAMILY_CORRELATION,
    .power = POWER_CATS,
    .sleep = 1,
    .dfs = 1,
    .reads_progress = 1,         /* the running tasks' windows start there */
    .options = cats_options,
    .prepare = corr_prepare,
    .release = corr_release,
    .place = cats_place,
};
