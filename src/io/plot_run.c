/*
 * plot_run.c — charts of saved runs: a metric's time series per run, and
 * the inflation sweep's mean curve per policy (plot_run.h).  The metrics
 * are one table: the run_point field each reads, its label and unit, on a
 * time axis and on the inflation experiment's arrived-share axis.
 */
#include "plot_run.h"
#include "core/runsum.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPCT 101                /* arrived share 0..100 %, the inflation runs' points */

typedef struct metric_def {
    const char *name;
    const char *label, *unit;           /* over time */
    const char *infl_label, *infl_unit; /* over the arrived share */
    size_t off;                         /* the run_point field; JCT reads outcomes */
    double scale, infl_scale;
} metric_def;

/* Inflation runs keep their curves in the timeline's fields (infl_to_run):
 * alloc_ratio and frag as fractions, power_w as EOPC watts, queued as the
 * tasks that failed to fit. */
static const metric_def metrics[PLOT_M_COUNT] = {
    [PLOT_M_GPUS] = {"gpus", "active GPUs", "GPUs", "allocated GPUs", "% of capacity",
                     offsetof(run_point, active_gpus), 1, 0},
    [PLOT_M_POWER] = {"power", "power", "W", "EOPC power", "W",
                      offsetof(run_point, power_w), 1, 1},
    [PLOT_M_FRAG] = {"frag", "fragmentation", "GPUs", "fragmentation of idle GPUs", "%",
                     offsetof(run_point, frag), 1e-3, 100},
    [PLOT_M_JCT] = {"jct", "mean JCT of finished tasks", "s", NULL, NULL, 0, 1, 0},
    [PLOT_M_QUEUE] = {"queue", "queued tasks", "tasks", "tasks that did not fit", "tasks",
                      offsetof(run_point, queued), 1, 1},
    [PLOT_M_ALLOC] = {"alloc", "allocated GPU capacity", "%", "allocated GPUs",
                      "% of capacity", offsetof(run_point, alloc_ratio), 100, 100},
    [PLOT_M_SERVERS] = {"servers", "active servers", "servers", NULL, NULL,
                        offsetof(run_point, active_servers), 1, 0},
    [PLOT_M_FREQ] = {"freq", "mean GPU clock", "MHz", NULL, NULL,
                     offsetof(run_point, mean_freq_mhz), 1, 0},
};

int plot_metric_parse(const char *name)
{
    for (int m = 0; m < PLOT_M_COUNT; m++)
        if (strcmp(metrics[m].name, name) == 0)
            return m;
    return -1;
}

const char *plot_metric_name(plot_metric m)
{
    return m < PLOT_M_COUNT ? metrics[m].name : "?";
}

const char *plot_metric_list(void)
{
    return "gpus|power|frag|jct|queue|alloc|servers|freq";
}

int plot_run_is_inflation(const run *r)
{
    return r->options && strstr(r->options, "inflation=") != NULL;
}

/* The field of p that metric d reads. */
static double field(const run_point *p, const metric_def *d)
{
    return *(const double *)(const void *)((const char *)p + d->off);
}

/* gpus of an inflation run is its allocation, read from alloc_ratio. */
static const metric_def *infl_def(plot_metric m)
{
    return m == PLOT_M_GPUS ? &metrics[PLOT_M_ALLOC] : &metrics[m];
}

static int cmp_end(const void *a, const void *b)
{
    const run_outcome *x = *(const run_outcome *const *)a, *y = *(const run_outcome *const *)b;
    return (x->end_s > y->end_s) - (x->end_s < y->end_s);
}

/* The running mean JCT of the tasks finished by each task's end. */
static void add_jct(plot_chart *c, int s, const run *r)
{
    const run_outcome **done = xmalloc((r->noutcomes ? r->noutcomes : 1) * sizeof *done);
    size_t n = 0;
    for (size_t k = 0; k < r->noutcomes; k++)
        if (r->outcomes[k].node >= 0)
            done[n++] = &r->outcomes[k];
    qsort(done, n, sizeof *done, cmp_end);
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum += done[k]->jct_s;
        plot_point(c, s, done[k]->end_s, sum / (double)(k + 1));
    }
    free(done);
}

static void add_series(plot_chart *c, const run *r, plot_metric m, int infl)
{
    char name[64];
    if (r->id > 0)
        snprintf(name, sizeof name, "%s (run %lld)", r->policy, (long long)r->id);
    else
        snprintf(name, sizeof name, "%s", r->policy);
    int s = plot_series_add(c, name);
    if (s < 0)
        return;
    if (m == PLOT_M_JCT && !infl) {
        add_jct(c, s, r);
        return;
    }
    const metric_def *d = infl ? infl_def(m) : &metrics[m];
    double scale = infl ? d->infl_scale : d->scale;
    for (size_t k = 0; k < r->npoints; k++)
        plot_point(c, s, r->points[k].t_s, field(&r->points[k], d) * scale);
}

/* Axes and title for metric m over time or over the arrived share. */
static void label_chart(plot_chart *c, const run *first, plot_metric m, int infl)
{
    const metric_def *d = infl ? infl_def(m) : &metrics[m];
    const char *label = infl ? d->infl_label : d->label, *unit = infl ? d->infl_unit : d->unit;
    snprintf(c->title, sizeof c->title, "%s: %s on %s", label, first->trace_name,
             first->cluster_name);
    if (infl)
        plot_axes(c, "arrived GPU demand", "% of capacity", label, unit);
    else
        plot_axes(c, "simulated time", "s", label, unit);
    c->y_from_zero = 1;
}

int plot_metric_in_inflation(plot_metric m)
{
    return m < PLOT_M_COUNT && infl_def(m)->infl_label != NULL;
}

plot_chart *plot_runs_chart(const run *const *runs, int n, plot_metric m)
{
    plot_chart *c = plot_new("");
    if (n <= 0)
        return c;
    int infl = plot_run_is_inflation(runs[0]) && plot_metric_in_inflation(m);
    label_chart(c, runs[0], m, infl);
    for (int i = 0; i < n; i++)
        add_series(c, runs[i], m, infl);
    if (n == 1)
        snprintf(c->note, sizeof c->note, "%s, seed %llu, power model %s%s%s", runs[0]->policy,
                 (unsigned long long)runs[0]->seed, runs[0]->power_model,
                 runs[0]->options && runs[0]->options[0] ? ", " : "",
                 runs[0]->options ? runs[0]->options : "");
    return c;
}

/* One run's running total: its hourly IT energy (the timeline's shape
 * scaled to the simulator's exact energy, as `run` reads it), each hour
 * priced by energy_hour_cost(). */
static void add_money(plot_chart *c, int s, const run *r, plot_money what,
                      const energy_prices *pr)
{
    run_summary sum;
    run_summarize(r, -1, &sum);
    const run_point *p = r->points;
    energy_profile *prof = energy_profile_new(p ? &p[0].t_s : NULL, p ? &p[0].power_w : NULL,
                                              r->npoints, sizeof *p, sum.t_end,
                                              sum.energy_kwh);
    if (prof->n > 0)
        plot_point(c, s, p[0].t_s, 0);
    double total = 0;
    for (size_t k = 0; k < prof->n; k++) {
        long h = prof->first_hour + (long)k;
        double usd, g;
        energy_hour_cost(pr, h, prof->kwh[k], &usd, &g);
        total += what == PLOT_MONEY_USD ? usd : g / 1000;
        plot_point(c, s, fmin(3600.0 * (double)(h + 1), sum.t_end), total);
    }
    energy_profile_free(prof);
}

plot_chart *plot_runs_money_chart(const run *const *runs, int n, plot_money what,
                                  const energy_prices *pr)
{
    plot_chart *c = plot_new("");
    if (n <= 0)
        return c;
    const char *label = what == PLOT_MONEY_USD ? "energy cost" : "energy's carbon";
    snprintf(c->title, sizeof c->title, "%s, running total: %s on %s", label,
             runs[0]->trace_name, runs[0]->cluster_name);
    plot_axes(c, "simulated time", "s", label, what == PLOT_MONEY_USD ? "USD" : "kg CO2e");
    c->y_from_zero = 1;
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s (run %lld)", runs[i]->policy, (long long)runs[i]->id);
        int s = plot_series_add(c, name);
        if (s >= 0)
            add_money(c, s, runs[i], what, pr);
    }
    snprintf(c->note, sizeof c->note, "priced hour by hour on the trace's clock: %s, PUE %s",
             what == PLOT_MONEY_USD ? (pr->usd_per_kwh.series ? "USD/kWh series"
                                                             : "flat USD/kWh")
                                    : (pr->g_co2e_per_kwh.series ? "gCO2e/kWh series"
                                                                 : "flat gCO2e/kWh"),
             pr->pue.series ? "series" : "flat");
    return c;
}

/* Policy labels in order of first appearance; returns how many. */
static int policies_of(const run *const *runs, int n, const char **out, int cap)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(out[j], runs[i]->policy) == 0;
        if (!seen && k < cap)
            out[k++] = runs[i]->policy;
    }
    return k;
}

/* One policy's mean curve over its runs, at each arrived percent. */
static int add_mean(plot_chart *c, const run *const *runs, int n, const char *policy,
                    const metric_def *d)
{
    double sum[NPCT] = {0};
    int cnt[NPCT] = {0}, nruns = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(runs[i]->policy, policy) != 0)
            continue;
        nruns++;
        for (size_t k = 0; k < runs[i]->npoints; k++) {
            long p = lround(runs[i]->points[k].t_s);
            if (p >= 0 && p < NPCT) {
                sum[p] += field(&runs[i]->points[k], d) * d->infl_scale;
                cnt[p]++;
            }
        }
    }
    int s = plot_series_add(c, policy);
    for (int p = 0; p < NPCT; p++)
        if (cnt[p])
            plot_point(c, s, p, sum[p] / cnt[p]);
    return nruns;
}

plot_chart *plot_sweep_chart(const run *const *runs, int n, plot_metric m)
{
    plot_chart *c = plot_new("");
    if (n <= 0)
        return c;
    if (!plot_metric_in_inflation(m))
        m = PLOT_M_ALLOC;
    label_chart(c, runs[0], m, 1);
    const char *pols[PLOT_MAX_SERIES];
    int np = policies_of(runs, n, pols, PLOT_MAX_SERIES), most = 0;
    for (int j = 0; j < np; j++) {
        int k = add_mean(c, runs, n, pols[j], infl_def(m));
        most = k > most ? k : most;
    }
    snprintf(c->note, sizeof c->note, "workload inflation, mean of %d seed%s per policy "
             "(%d saved runs)", most, most == 1 ? "" : "s", n);
    return c;
}
