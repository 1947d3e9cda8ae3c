/*
 * runsum.c — the summary of a run record, finished or live (runsum.h).
 * Pure.
 */
#include "runsum.h"
#include "runsum_int.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static double at(const double *base, size_t i, size_t stride)
{
    return *(const double *)(const void *)((const char *)base + i * stride);
}

double summary_time_mean(const double *x, const double *y, size_t n, size_t stride,
                         double t_end)
{
    if (n == 0)
        return 0;
    double x0 = at(x, 0, stride);
    if (!(t_end > x0))
        return at(y, n - 1, stride);
    double area = 0;
    for (size_t i = 0; i < n; i++) {
        double a = at(x, i, stride);
        if (a >= t_end)
            break;
        double b = i + 1 < n ? at(x, i + 1, stride) : t_end;
        if (b > t_end)
            b = t_end;
        if (b > a)
            area += at(y, i, stride) * (b - a);
    }
    return area / (t_end - x0);
}

#define PT(field) (&r->points[0].field)

static void summarize_points(const run *r, double t_end, run_summary *s)
{
    const size_t st = sizeof(run_point);
    size_t n = r->npoints;
    size_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const run_point *p = &r->points[i];
        if (p->t_s > t_end)
            break;
        last = i;
        if (p->active_gpus > s->peak_gpus)
            s->peak_gpus = p->active_gpus;
        if (p->power_w > s->peak_w)
            s->peak_w = p->power_w;
    }
    const run_point *lp = &r->points[last];
    s->now_gpus = lp->active_gpus;
    s->now_w = lp->power_w;
    s->now_frag = lp->frag;
    s->now_queued = lp->queued;
    s->avg_gpus = summary_time_mean(PT(t_s), PT(active_gpus), n, st, t_end);
    s->avg_w = summary_time_mean(PT(t_s), PT(power_w), n, st, t_end);
    s->avg_frag = summary_time_mean(PT(t_s), PT(frag), n, st, t_end);
    double span = t_end - r->points[0].t_s;
    s->energy_kwh = span > 0 ? s->avg_w * span / 3.6e6 : 0;
}

void run_summarize_outcomes(const run *r, run_summary *s)
{
    s->violations = 0;
    s->jct_mean = s->jct_p50 = s->jct_p95 = 0;
    double *jct = xmalloc((r->noutcomes ? r->noutcomes : 1) * sizeof *jct);
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        if (o->sla_violated)
            s->violations++;
        if (o->node >= 0 && o->jct_s >= 0) {
            jct[n++] = o->jct_s;
            sum += o->jct_s;
        }
    }
    s->finished = r->noutcomes;
    if (n) {
        s->jct_mean = sum / (double)n;
        s->jct_p50 = stats_percentile(jct, n, 50);
        s->jct_p95 = stats_percentile(jct, n, 95);
    }
    free(jct);
}

void run_summarize_points(const run *r, double t_end, run_summary *out)
{
    if (t_end < 0)
        t_end = r->npoints ? r->points[r->npoints - 1].t_s : 0;
    out->t_end = t_end;
    out->now_gpus = out->now_w = out->now_frag = out->now_queued = 0;
    out->avg_gpus = out->peak_gpus = out->avg_w = out->peak_w = 0;
    out->energy_kwh = out->avg_frag = 0;
    if (r->npoints)
        summarize_points(r, t_end, out);
}

int run_is_final(const run *r)
{
    return r && !isnan(run_metric_get(r, "makespan_s", NAN));
}

int run_capex_format(const run *r, char *buf, size_t len)
{
    double usd = run_metric_get(r, "capex_usd", NAN);
    int unpriced = (int)run_metric_get(r, "unpriced_gpus", 0);
    if (isnan(usd))
        snprintf(buf, len, "%s", "");
    else if (unpriced > 0 && usd == 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%.0f%s", usd, unpriced > 0 ? "+?" : "");
    return unpriced;
}

/* The fields only a finished run has, NAN until then. */
static void unknown_totals(run_summary *s)
{
    s->unique_gpus = s->capex_usd = s->avg_servers = NAN;
    s->mean_mhz = s->failed = s->wakeups = NAN;
    s->place_gpus = s->fluid_gpus = s->gpu_hours = NAN;
}

/* avg_gpus with DFS off: frequency scaling stretches tasks and so the
 * time-averaged count of busy GPUs; the placement is compared without it. */
static double placement_gpus(const run *r)
{
    double v = run_metric_get(r, "place_gpus", NAN);
    if (isnan(v) && run_metric_get(r, "dfs", 1) == 0)
        v = run_metric_get(r, "avg_gpus", NAN);
    return v;
}

/* A finished run by the simulator's metrics (exact integrals over its own
 * span); the last sample, emitted at the end, gives the "now" figures. */
static void summarize_final(const run *r, run_summary *s)
{
    run_summarize_points(r, -1, s);
    run_summarize_outcomes(r, s);
    s->final = 1;
    s->avg_gpus = run_metric_get(r, "avg_gpus", 0);
    s->peak_gpus = run_metric_get(r, "peak_gpus", 0);
    s->avg_w = run_metric_get(r, "avg_power_w", 0);
    s->peak_w = run_metric_get(r, "peak_power_w", 0);
    s->energy_kwh = run_metric_get(r, "energy_j", 0) / 3.6e6;
    s->violations = (size_t)run_metric_get(r, "sla_violations", (double)s->violations);
    s->jct_mean = run_metric_get(r, "jct_mean_s", 0);
    s->jct_p50 = run_metric_get(r, "jct_p50_s", 0);
    s->jct_p95 = run_metric_get(r, "jct_p95_s", 0);
    s->unique_gpus = run_metric_get(r, "unique_gpus", NAN);
    s->capex_usd = run_metric_get(r, "capex_usd", NAN);
    s->avg_servers = run_metric_get(r, "avg_servers", NAN);
    s->mean_mhz = run_metric_get(r, "mean_freq_mhz", NAN);
    s->failed = run_metric_get(r, "failed_tasks", NAN);
    s->wakeups = run_metric_get(r, "wakeups", NAN);
    s->place_gpus = placement_gpus(r);
    s->fluid_gpus = run_metric_get(r, "fluid_gpus", NAN);
    s->gpu_hours = run_metric_get(r, "gpu_hours", NAN);
}

void run_summarize(const run *r, double t_end, run_summary *out)
{
    memset(out, 0, sizeof *out);
    unknown_totals(out);
    if (!r)
        return;
    snprintf(out->power_model, sizeof out->power_model, "%s", r->power_model);
    if (run_is_final(r)) {
        summarize_final(r, out);
        return;
    }
    run_summarize_points(r, t_end, out);
    run_summarize_outcomes(r, out);
}

void summary_fmt_pct(double value, double target, int min_decimals, char *buf, size_t len)
{
    int meets = value <= target + GP_ROUND_EPS;
    if (isnan(value)) {
        snprintf(buf, len, "-");
        return;
    }
    for (int d = min_decimals; d <= 4; d++) {
        snprintf(buf, len, "%.*f", d, value);
        double shown = strtod(buf, NULL);
        if ((shown <= target + GP_ROUND_EPS) == meets)
            return;
    }
    /* Closer than 0.00005 to the target: say which side it is on. */
    snprintf(buf, len, "%s%.4f", meets ? "" : ">", value);
}

int run_jct_within(double jct_vs_best, double kappa)
{
    return jct_vs_best <= kappa * (1 + 1e-12);
}

int run_can_be_best(const run *r)
{
    return run_metric_get(r, "failed_tasks", 0) == 0 && run_metric_get(r, "completed", 0) > 0;
}

double run_best_jct(run *const *runs, size_t n)
{
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (run_can_be_best(runs[i]))
            best = fmin(best, run_metric_get(runs[i], "jct_mean_s", INFINITY));
    return best;
}

size_t run_violations(const run *r, const gp_trace *tr, double kappa)
{
    size_t v = 0;
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        if (!tr || o->task < 0 || (size_t)o->task >= tr->ntasks) {
            v += o->sla_violated != 0;
            continue;
        }
        const task *tk = &tr->tasks[o->task];
        /* A task that never ran (no node) violates. */
        v += o->node < 0 || sla_violated(o->jct_s, task_kappa(tk, kappa), tk->duration_s);
    }
    return v;
}

typedef struct demand_ev {
    double t;
    int delta;
} demand_ev;

static int ev_cmp(const void *a, const void *b)
{
    const demand_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->delta - y->delta;         /* releases before arrivals */
}

int summary_peak_demand(const gp_trace *tr)
{
    if (!tr || tr->ntasks == 0)
        return 0;
    demand_ev *ev = xmalloc(2 * tr->ntasks * sizeof *ev);
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        const task *tk = &tr->tasks[i];
        int g = tk->num_gpu <= 0 ? 0 : tk->gpu_milli < 1000 ? 1 : tk->num_gpu;
        if (!g)
            continue;
        ev[n++] = (demand_ev){tk->arrival_s, g};
        ev[n++] = (demand_ev){tk->arrival_s + tk->duration_s, -g};
    }
    qsort(ev, n, sizeof *ev, ev_cmp);
    int cur = 0, peak = 0;
    for (size_t i = 0; i < n; i++) {
        cur += ev[i].delta;
        if (cur > peak)
            peak = cur;
    }
    free(ev);
    return peak;
}
