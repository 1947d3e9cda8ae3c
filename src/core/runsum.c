/*
 * runsum.c — live summaries of run records (runsum.h).  Pure.
 */
#include "runsum.h"

#include <stddef.h>
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

void run_summarize(const run *r, double t_end, run_summary *out)
{
    memset(out, 0, sizeof *out);
    if (!r)
        return;
    run_summarize_points(r, t_end, out);
    run_summarize_outcomes(r, out);
}

int run_jct_within(double jct_vs_best, double kappa)
{
    return jct_vs_best <= kappa * (1 + 1e-12);
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
