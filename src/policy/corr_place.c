/*
 * corr_place.c — windows, the fresh-GPU fallback, window comparison and the
 * threshold baselines of the correlation family (corr_place.h).
 */
#include "corr_place.h"
#include "core/gpuname.h"
#include "core/util_series_grid.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What corr_surely_over reads of a task, in a few bytes. */
typedef struct corr_brief {
    double duration_s;
    double floor;               /* useries_floor */
} corr_brief;

typedef struct corr_prep {
    useries_memo *memo;
    useries_summaries sums;
    corr_brief *briefs;         /* [task] */
    double pctl;                /* of pctl_v; 0 = none */
    double *pctl_v;             /* [task] */
    useries_grid *grid;         /* the absolute grid, made on first use */
} corr_prep;

int corr_prepare(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                 const double *params, void **prep, gp_err *err)
{
    (void)cs, (void)in, (void)params, (void)err;
    corr_prep *p = xcalloc(1, sizeof *p);
    p->memo = useries_memo_new(tr);
    useries_summaries_init(&p->sums, tr);
    p->briefs = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *p->briefs);
    for (size_t i = 0; i < tr->ntasks; i++) {
        p->briefs[i].duration_s = tr->tasks[i].duration_s;
        p->briefs[i].floor = useries_floor(&tr->tasks[i]);
    }
    *prep = p;
    return 0;
}

int corr_prepare_pctl(const cstate *cs, const gp_trace *tr, double pctl, void **prep,
                      gp_err *err)
{
    if (corr_prepare(cs, tr, NULL, NULL, prep, err))
        return -1;
    corr_prep *p = *prep;
    if (pctl > 0 && pctl < 100) {
        p->pctl = pctl;
        p->pctl_v = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *p->pctl_v);
        for (size_t i = 0; i < tr->ntasks; i++)
            p->pctl_v[i] = useries_percentile(&tr->tasks[i], pctl);
    }
    return 0;
}

void corr_release(void *prep)
{
    corr_prep *p = prep;
    useries_memo_free(p->memo);
    useries_grid_free(p->grid);
    useries_summaries_free(&p->sums);
    free(p->briefs);
    free(p->pctl_v);
    free(p);
}

void corr_grid_attach(const policy_ctx *ctx, useries_in *in, int grid)
{
    if (grid != CORR_GRID_ABSOLUTE)
        return;
    corr_prep *p = ctx->prep;
    useries_grid *g;
    if (p) {
        if (!p->grid)
            p->grid = useries_grid_new(ctx->tr, useries_grid_step(ctx->tr));
        g = p->grid;
    } else {
        g = in->grid_own = useries_grid_new(ctx->tr, useries_grid_step(ctx->tr));
    }
    useries_grid_sync(g, ctx->cs, ctx->progress_s, ctx->now_s);
    useries_grid_in_attach(in, g, ctx->tr, in->ti);
}

/* Task ti's summary under rule, from the workspace when there is one. */
static double summary_of(const policy_ctx *ctx, int ti, const corr_rule *rule)
{
    const corr_prep *p = ctx->prep;
    assert(!p || (size_t)ti < p->sums.ntasks);
    const task *tk = &ctx->tr->tasks[ti];
    if (rule->pctl > 0 && rule->pctl < 100)
        return p && p->pctl == rule->pctl ? p->pctl_v[ti] : useries_percentile(tk, rule->pctl);
    return p ? p->sums.v[rule->kind][ti] : useries_summary(tk, rule->kind);
}

static int gpu_admits(const cstate *cs, const task *tk, int g)
{
    const cs_gpu *gpu = &cs->gpus[g];
    const cs_node *n = &cs->nodes[gpu->node];
    if (!n->gpu || !task_allows_model(tk, n->gpu->name))
        return CORR_MODEL;
    if (cs_gpu_mem_free(gpu) + GP_MEM_EPS_GIB < tk->gpu_mem_gib)
        return CORR_MEMORY;
    return CORR_FITS;
}

int corr_window(const cstate *cs, const task *tk, int g, placement *out)
{
    int v = task_gpus(tk);
    const cs_gpu *gpu = &cs->gpus[g];
    const cs_node *n = &cs->nodes[gpu->node];
    if (v < 1 || v > GP_NODE_MAX_GPUS || gpu->dev + v > n->ngpus)
        return CORR_NO_ROOM;
    /* The server's vCPU and host memory count as for every family (fit.h). */
    if (tk->cpu_milli > n->cpu_left || tk->ram_mib > n->ram_left)
        return CORR_HOST;
    for (int k = 0; k < v; k++) {
        int code = gpu_admits(cs, tk, g + k);
        if (code != CORR_FITS)
            return code;
    }
    out->node = gpu->node;
    out->ngpus = v;
    for (int k = 0; k < v; k++)
        out->gpus[k] = g + k;
    return CORR_FITS;
}

const char *corr_reason(int code)
{
    switch (code) {
    case CORR_NO_ROOM: return "too few GPUs after it";
    case CORR_MODEL: return "GPU model not allowed";
    case CORR_MEMORY: return "memory";
    case CORR_HOST: return "server's vCPU or host memory";
    default: return "fits";
    }
}

/* 0 = every device awake, 1 = server awake, 2 = wakes the server. */
static int wake_class(const cstate *cs, const placement *pl)
{
    int all_awake = 1;
    for (int k = 0; k < pl->ngpus; k++)
        all_awake &= cs->gpus[pl->gpus[k]].power != GPU_ASLEEP;
    if (all_awake && !cs->nodes[pl->node].asleep)
        return 0;
    return cs->nodes[pl->node].asleep ? 2 : 1;
}

/* The lowest-index window starting at a GPU of set `from` that admits tk,
 * runs nothing and wakes no more than class `most` (wake_class).  1 with
 * *out, 0 if none. */
static int fresh_in(const cstate *cs, const task *tk, const cs_idxset *from, int most,
                    placement *out)
{
    int v = task_gpus(tk);
    for (int g = cs_idxset_next(from, 0); g >= 0; g = cs_idxset_next(from, g + 1)) {
        placement pl;
        if (corr_window(cs, tk, g, &pl) != CORR_FITS)
            continue;
        int empty = 1;
        for (int k = 1; k < v && empty; k++)
            empty = cs->gpus[pl.gpus[k]].ntasks == 0;
        if (empty && wake_class(cs, &pl) <= most) {
            *out = pl;
            return 1;
        }
    }
    return 0;
}

/* The lowest window of the least wake-up class, as a scan of every GPU
 * would find it, from the state's fresh-GPU sets (cstate.fresh): a class-0
 * window starts at an awake GPU of an awake server; with none, every
 * fitting window on an awake server is of class 1; with none either, one
 * on a sleeping server (class 2). */
int corr_fresh(const cstate *cs, const task *tk, placement *out)
{
    return fresh_in(cs, tk, &cs->fresh[CS_FRESH_AWAKE], 0, out) ||
           fresh_in(cs, tk, &cs->fresh[CS_FRESH_SERVER_AWAKE], 1, out) ||
           fresh_in(cs, tk, &cs->fresh[CS_FRESH_SERVER_ASLEEP], 2, out);
}

int corr_place_cpu(const cstate *cs, const char *policy, const task *tk, placement *out,
                   explain *ex)
{
    for (size_t i = 0; i < cs->nnodes; i++) {
        const cs_node *n = &cs->nodes[i];
        if (n->cpu_left >= tk->cpu_milli && n->ram_left >= tk->ram_mib) {
            out->node = (int)i;
            out->ngpus = 0;
            if (ex) {
                if (explain_add(ex, (int)i, -1))
                    ex->chosen = 0;
                snprintf(ex->summary, sizeof ex->summary, "%s: %s -> %s (CPU-only task)",
                         policy, tk->name, n->name);
            }
            return 1;
        }
    }
    if (ex)
        snprintf(ex->summary, sizeof ex->summary, "%s: %s: no node has its vCPU and RAM",
                 policy, tk->name);
    return 0;
}

void corr_note_opens(explain_cand *c, int opens)
{
    if (c && opens > 0)
        snprintf(c->note, sizeof c->note, "opens %d", opens);
}

void corr_explain_terms(explain *ex, const char *const *names, int n)
{
    if (n > EXPLAIN_MAX_TERMS)
        n = EXPLAIN_MAX_TERMS;
    for (int i = 0; i < n; i++)
        ex->term_name[i] = names[i];
    ex->nterms = n;
}

void corr_window_compare(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                         int from_start, corr_terms *out)
{
    corr_window_compare_lazy(ctx, pl, in, from_start, INFINITY, out);
}

void corr_window_compare_lazy(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                              int from_start, double rho_over, corr_terms *out)
{
    memset(out, 0, sizeof *out);
    out->dmu = 1e300;
    useries_memo *memo = ctx->prep ? ((corr_prep *)ctx->prep)->memo : NULL;
    for (int k = 0; k < pl->ngpus; k++) {
        int g = pl->gpus[k];
        if (ctx->cs->gpus[g].ntasks == 0) {
            out->opens++;
            continue;
        }
        useries_cmp c;
        int skipped;
        /* Once one busy GPU is over, the window's load is: no rho after. */
        useries_compare_lazy(ctx->cs, ctx->tr, ctx->progress_s, g, in, from_start, memo,
                             out->rho_skipped ? -INFINITY : rho_over, &skipped, &c);
        out->rho_skipped |= skipped;
        if (out->busy == 0 || c.gpu_mean + c.task_mean > out->load)
            out->load = c.gpu_mean + c.task_mean;
        double dmu = (c.gpu_mean > c.task_mean ? c.gpu_mean - c.task_mean
                                               : c.task_mean - c.gpu_mean) / 100.0;
        if (out->busy == 0 || c.rho > out->rho)
            out->rho = c.rho;
        if (out->busy == 0 || c.gpu_mean > out->gpu_mean) {
            out->gpu_mean = c.gpu_mean;
            out->task_mean = c.task_mean;
        }
        if (dmu < out->dmu)
            out->dmu = dmu;
        out->busy++;
    }
    if (out->busy == 0) {
        useries_cmp c;
        useries_compare(ctx->cs, ctx->tr, ctx->progress_s, pl->gpus[0], in, from_start, &c);
        out->task_mean = c.task_mean;
        out->dmu = c.task_mean / 100.0;
        out->load = c.task_mean;
    }
}

/* The least aggregate mean busy GPU g can show over any window: the
 * longest-lived of its tasks covers every sample of the window, and with
 * no negative sample anywhere a float sum is at least each of its
 * addends.  -INFINITY when that cannot be said (a negative sample, or no
 * task with time left, whose window is empty). */
static double gpu_mean_floor(const policy_ctx *ctx, const corr_prep *p, int g, int from_start)
{
    const cs_gpu *gpu = &ctx->cs->gpus[g];
    double lo = INFINITY;
    int alive = 0;
    for (int i = 0; i < gpu->ntasks; i++) {
        int l = gpu->tasks[i];
        const corr_brief *b = &p->briefs[l];
        if (b->floor < 0)
            return -INFINITY;
        double s = from_start || !ctx->progress_s ? 0 : ctx->progress_s[l];
        alive |= b->duration_s - s > 0;
        if (b->floor < lo)
            lo = b->floor;
    }
    return alive ? lo : -INFINITY;
}

int corr_surely_over(const policy_ctx *ctx, const placement *pl, const useries_in *in,
                     int from_start, double q)
{
    const corr_prep *p = ctx->prep;
    if (!p || !(in->mean_floor > -INFINITY))
        return 0;
    /* On the absolute grid the incoming task is sampled on the grid, not
     * on its own period: its least sample bounds its mean there, and
     * each side's fixed-point cells may round down by half a unit. */
    double in_floor = in->mean_floor, slack = 0;
    if (in->grid && !from_start) {
        in_floor = p->briefs[in->ti].floor;
        slack = 1.0 / USERIES_GRID_SCALE;
    }
    /* The comparison sums up to in->len floats in doubles: a relative
     * rounding far below this margin, so a rejection here is one there. */
    double rel = 1e-12 + (double)in->len * 1e-15;
    for (int k = 0; k < pl->ngpus; k++) {
        int g = pl->gpus[k];
        if (ctx->cs->gpus[g].ntasks == 0)
            continue;
        double lo = gpu_mean_floor(ctx, p, g, from_start) + in_floor - slack;
        if (lo > q + rel * (fabs(lo) + fabs(q)))
            return 1;
    }
    return 0;
}

void corr_format_placement(const cstate *cs, const placement *pl, char *buf, size_t len)
{
    char devs[64];
    placement_devices(cs, pl, devs, sizeof devs);
    gpus_name(buf, len, cs->nodes[pl->node].name, devs);
}

/* Sum of the summaries of the tasks on GPU g plus the incoming one's. */
static double gpu_summary_sum(const policy_ctx *ctx, int g, const corr_rule *rule, double own)
{
    const cs_gpu *gpu = &ctx->cs->gpus[g];
    double sum = own;
    for (int i = 0; i < gpu->ntasks; i++)
        sum += summary_of(ctx, gpu->tasks[i], rule);
    return sum;
}

/* Whether the rule's load is the remaining-window mean (corr_terms.load). */
static int rule_windowed(const corr_rule *rule)
{
    return rule->kind == US_MEAN && !(rule->pctl > 0) && rule->window == CORR_WIN_REMAINING;
}

double corr_load(const policy_ctx *ctx, const placement *pl, int ti, const corr_rule *rule,
                 const corr_terms *t)
{
    if (rule_windowed(rule) && t)
        return t->load;
    double own = summary_of(ctx, ti, rule), load = own;
    int busy = 0;
    for (int k = 0; k < pl->ngpus; k++) {
        int h = pl->gpus[k];
        if (ctx->cs->gpus[h].ntasks == 0)
            continue;
        double s = gpu_summary_sum(ctx, h, rule, own);
        if (!busy++ || s > load)
            load = s;
    }
    return load;
}

static const char *rule_what(const corr_rule *rule, char *buf, size_t len)
{
    static const char *const what[] = {"first-sample", "mean", "peak"};
    if (rule->pctl > 0 && rule->pctl < 100)
        snprintf(buf, len, "p%g", rule->pctl);
    else
        snprintf(buf, len, "%s%s", what[rule->kind],
                 rule_windowed(rule) ? " (remaining window)" : "");
    return buf;
}

static const char *const threshold_terms[] = {"sum_pct", "q_pct", "mem_free_gib"};

/* The threshold rule's candidate window from running GPU g: 1 when it
 * fits and passes, with its load and the idle devices it opens. */
static int threshold_try(const policy_ctx *ctx, double q, const useries_in *in,
                         const corr_rule *rule, int g, placement *pl, double *load, int *opens,
                         explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[in->ti];
    int code = corr_window(cs, tk, g, pl);
    explain_cand *c = explain_add(ex, cs->gpus[g].node, g);
    if (c) {
        c->term[1] = q;
        c->term[2] = cs_gpu_mem_free(&cs->gpus[g]);
    }
    if (code != CORR_FITS) {
        if (c) {
            c->eligible = 0;
            snprintf(c->note, sizeof c->note, "%s", corr_reason(code));
        }
        return 0;
    }
    corr_terms t;
    memset(&t, 0, sizeof t);
    /* Unless the explanation shows its load, a window surely over q is
     * dropped before its aggregate is built.  The rules read no rho. */
    if (rule_windowed(rule) && !explain_wants(ex) && corr_surely_over(ctx, pl, in, 0, q))
        return 0;
    if (rule_windowed(rule))
        corr_window_compare_lazy(ctx, pl, in, 0, -INFINITY, &t);
    else
        for (int k = 0; k < pl->ngpus; k++)
            t.opens += cs->gpus[pl->gpus[k]].ntasks == 0;
    *load = corr_load(ctx, pl, in->ti, rule, &t);
    *opens = t.opens;
    if (c) {
        c->term[0] = *load;
        corr_note_opens(c, t.opens);
    }
    if (!corr_admits(*load, q)) {
        if (c) {
            static const char *const what[] = {"first-sample", "mean", "peak"};
            c->eligible = 0;
            if (rule->pctl > 0 && rule->pctl < 100)
                snprintf(c->note, sizeof c->note, "p%g sum %.1f%% > q", rule->pctl, *load);
            else
                snprintf(c->note, sizeof c->note, "%s sum %.1f%% > q", what[rule->kind], *load);
        }
        return 0;
    }
    return 1;
}

int corr_threshold_place(const policy_ctx *ctx, const char *policy, double q, int ti,
                         const corr_rule *rule, placement *out, explain *ex)
{
    const cstate *cs = ctx->cs;
    const task *tk = &ctx->tr->tasks[ti];
    if (ex)
        corr_explain_terms(ex, threshold_terms, 3);
    if (task_gpus(tk) == 0)
        return corr_place_cpu(cs, policy, tk, out, ex);
    char what[48];
    rule_what(rule, what, sizeof what);
    useries_in in;
    useries_in_init(&in, ctx->tr, ti);
    if (rule_windowed(rule))
        corr_grid_attach(ctx, &in, rule->grid);
    int found = 0, best_opens = 0, best_cand = -1;
    double best_load = 0;
    /* Running GPUs, ascending: the first window that passes and opens no
     * idle device wins at once; one that opens some is kept while a later
     * window may open fewer. */
    for (size_t a = 0; a < cs->nactive && !(found && best_opens == 0); a++) {
        placement pl;
        double load;
        int opens;
        if (!threshold_try(ctx, q, &in, rule, cs->active[a], &pl, &load, &opens, ex))
            continue;
        if (!found || opens < best_opens) {
            found = 1;
            *out = pl;
            best_opens = opens;
            best_load = load;
            best_cand = ex ? (int)ex->ncands - 1 : -1;
        }
    }
    useries_in_free(&in);
    if (found) {
        if (ex) {
            ex->chosen = best_cand;
            char where[96];
            corr_format_placement(cs, out, where, sizeof where);
            snprintf(ex->summary, sizeof ex->summary,
                     "%s: %s -> %s (first fit: %s sum %.1f%% <= q %.0f%%, opens %d)", policy,
                     tk->name, where, what, best_load, q, best_opens);
        }
        return 1;
    }
    if (!corr_fresh(cs, tk, out)) {
        if (ex)
            snprintf(ex->summary, sizeof ex->summary,
                     "%s: %s: nothing fits (no GPU within q, no free GPU with %.2f GiB)", policy,
                     tk->name, tk->gpu_mem_gib);
        return 0;
    }
    if (ex) {
        explain_cand *c = explain_add(ex, out->node, out->gpus[0]);
        if (c) {
            c->term[0] = summary_of(ctx, ti, rule);
            c->term[1] = q;
            c->term[2] = cs_gpu_mem_free(&cs->gpus[out->gpus[0]]);
            snprintf(c->note, sizeof c->note, "fresh GPU");
            ex->chosen = (int)ex->ncands - 1;
        }
        char where[96];
        corr_format_placement(cs, out, where, sizeof where);
        snprintf(ex->summary, sizeof ex->summary,
                 "%s: %s -> %s (fresh GPU: no running GPU with %s sum <= q %.0f%%)", policy,
                 tk->name, where, what, q);
    }
    return 1;
}
