/*
 * util_series.c — demand, summaries and GPU-versus-task comparison of
 * utilization series (util_series.h).  No allocation, no state.
 */
#include "util_series.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int useries_has_series(const task *tk)
{
    return tk->util.len > 0 && tk->util.pct != NULL;
}

static double series_period(const task *tk)
{
    return tk->util.period_s > 0 ? tk->util.period_s : 1.0;
}

/* The constant demand of a task without a series (as chosen in the
 * header: its mean; with no data at all, its whole GPU share). */
static double constant_pct(const task *tk)
{
    if (tk->util_mean > 0)
        return tk->util_mean;
    if (tk->util_peak > 0 || tk->util_first > 0)
        return tk->util_peak > 0 ? tk->util_peak : tk->util_first;
    if (tk->gpu_milli > 0 && tk->gpu_milli < 1000)
        return tk->gpu_milli / 10.0;    /* a shared-GPU task uses its share */
    return 100.0;
}

double useries_pct_idx(const task *tk, long idx)
{
    if (!useries_has_series(tk))
        return constant_pct(tk);
    if (idx < 0)
        idx = 0;
    return tk->util.pct[(size_t)idx % tk->util.len];
}

double useries_pct_at(const task *tk, double progress_s)
{
    if (!useries_has_series(tk))
        return constant_pct(tk);
    double i = floor(progress_s / series_period(tk));
    return useries_pct_idx(tk, i > 0 ? (long)i : 0);
}

long useries_next_change(const task *tk, long idx, double *change_s)
{
    double dur = tk->duration_s;
    if (!useries_has_series(tk)) {
        *change_s = dur;
        return idx;
    }
    double p = series_period(tk);
    double v = useries_pct_idx(tk, idx);
    long j = idx + 1, limit = idx + (long)tk->util.len;
    while (j < limit && (double)j * p < dur && useries_pct_idx(tk, j) == v)
        j++;
    double at = (double)j * p;
    *change_s = at < dur ? at : dur;
    return j;
}

double useries_summary(const task *tk, useries_kind kind)
{
    double c = constant_pct(tk);    /* the GPU share when there is no data */
    switch (kind) {
    case US_FIRST:
        if (useries_has_series(tk))
            return tk->util.pct[0];
        return tk->util_first > 0 ? tk->util_first : c;
    case US_PEAK:
        return tk->util_peak > 0 ? tk->util_peak : c;
    case US_MEAN:
    default:
        return useries_has_series(tk) || tk->util_mean > 0 ? tk->util_mean : c;
    }
}

/* The incoming side: the stored series, or a virtual constant one covering
 * the task's duration. */
void useries_in_init(useries_in *in, const gp_trace *tr, int ti)
{
    const task *tk = &tr->tasks[ti];
    memset(in, 0, sizeof *in);
    in->ti = ti;
    if (useries_has_series(tk)) {
        in->pct = tk->util.pct;
        in->len = tk->util.len;
        in->period_s = series_period(tk);
    } else {
        in->value = constant_pct(tk);
        double p = USERIES_NOMINAL_PERIOD_S;
        if (tk->duration_s / p > USERIES_VIRTUAL_MAX)
            p = tk->duration_s / USERIES_VIRTUAL_MAX;
        double n = ceil(tk->duration_s / p);
        in->len = n < 1 ? 1 : n > USERIES_VIRTUAL_MAX ? USERIES_VIRTUAL_MAX : (size_t)n;
        in->period_s = p;
    }
    in->prefix = xmalloc((in->len + 1) * sizeof *in->prefix);
    in->scratch = xmalloc(in->len * sizeof *in->scratch);
    in->prefix[0] = 0;
    for (size_t i = 0; i < in->len; i++)
        in->prefix[i + 1] = in->prefix[i] + (in->pct ? in->pct[i] : in->value);
}

void useries_in_free(useries_in *in)
{
    free(in->prefix);
    free(in->scratch);
    in->prefix = NULL;
    in->scratch = NULL;
}

static double incoming_mean(const useries_in *in, size_t n)
{
    if (n > in->len)
        n = in->len;
    return n ? in->prefix[n] / (double)n : 0;
}

/* Samples of the window task l still covers from progress s, at period P. */
static size_t remaining_samples(const task *tk, double s, double P)
{
    double rem = tk->duration_s - s;
    if (!(rem > 0))
        return 0;
    double m = ceil(rem / P);
    return m > 1e9 ? (size_t)1e9 : (size_t)m;
}

/* agg[k] += u[k] (or = when first), k < n, four at a time: this and
 * stats_pearson are the inner loops of a placement decision. */
static void add_run(float *restrict agg, const float *restrict u, size_t n, int first)
{
    if (first) {
        memcpy(agg, u, n * sizeof *agg);
        return;
    }
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        agg[k] += u[k];
        agg[k + 1] += u[k + 1];
        agg[k + 2] += u[k + 2];
        agg[k + 3] += u[k + 3];
    }
    for (; k < n; k++)
        agg[k] += u[k];
}

/* Adds task l's demand at progress s + k P to agg[k], k < n (first: agg
 * holds nothing yet; it is written rather than added to). */
static void add_task(const task *tk, double s, double P, float *agg, size_t n, int first)
{
    if (!useries_has_series(tk)) {
        float c = (float)constant_pct(tk);
        for (size_t k = 0; k < n; k++)
            agg[k] = first ? c : agg[k] + c;
        return;
    }
    double p = series_period(tk);
    const float *u = tk->util.pct;
    size_t len = tk->util.len;
    if (p == P) {
        /* Same grid: the sample index advances by one per window step. */
        double i0d = floor(s / p);
        size_t i = i0d > 0 ? (size_t)i0d % len : 0;
        for (size_t k = 0; k < n;) {
            size_t run = len - i < n - k ? len - i : n - k;
            add_run(agg + k, u + i, run, first);
            k += run;
            i = 0;
        }
        return;
    }
    for (size_t k = 0; k < n; k++) {
        double id = floor((s + (double)k * P) / p);
        float v = u[(size_t)(id > 0 ? id : 0) % len];
        agg[k] = first ? v : agg[k] + v;
    }
}

/* Sum of x[0..n) with four partial sums: the loop is latency-bound on one
 * accumulator, and this is the hot loop of a placement decision. */
static double sum_floats(const float *x, size_t n)
{
    double a = 0, b = 0, c = 0, d = 0;
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        a += x[k];
        b += x[k + 1];
        c += x[k + 2];
        d += x[k + 3];
    }
    for (; k < n; k++)
        a += x[k];
    return (a + b) + (c + d);
}

/* A GPU running one task whose series is on the incoming task's grid and
 * does not wrap within the window: its aggregate is a slice of that series
 * (no copy).  NULL otherwise. */
static const float *single_slice(const task *tk, double s, double P, size_t n)
{
    if (!useries_has_series(tk) || series_period(tk) != P)
        return NULL;
    double i0d = floor(s / P);
    size_t i0 = i0d > 0 ? (size_t)i0d : 0;
    if (i0 >= tk->util.len || tk->util.len - i0 < n)
        return NULL;
    return tk->util.pct + i0;
}

/* Window samples of the tasks of one GPU, computed once per comparison. */
#define MEMBERS_MAX 32

void useries_compare(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                     const useries_in *in, int from_start, useries_cmp *out)
{
    const cs_gpu *gpu = &cs->gpus[g];
    memset(out, 0, sizeof *out);
    if (gpu->ntasks == 0) {
        out->task_mean = incoming_mean(in, in->len);
        return;
    }
    double P = in->period_s;
    size_t m_of[MEMBERS_MAX], agg_len = 0;
    int longest = 0;
    for (int i = 0; i < gpu->ntasks; i++) {
        int l = gpu->tasks[i];
        size_t m = remaining_samples(&tr->tasks[l], from_start || !progress ? 0 : progress[l], P);
        if (i < MEMBERS_MAX)
            m_of[i] = m;
        if (m > agg_len) {
            agg_len = m;
            longest = i;
        }
    }
    size_t n = in->len < agg_len ? in->len : agg_len;
    const float *agg = NULL;
    if (gpu->ntasks == 1) {
        int l = gpu->tasks[0];
        agg = single_slice(&tr->tasks[l], from_start || !progress ? 0 : progress[l], P, n);
    }
    if (!agg) {
        /* The longest-lived task is written first (it covers the whole
         * window); the others are added over the samples they cover. */
        float *buf = in->scratch;
        for (int k = 0; k < gpu->ntasks; k++) {
            int i = k == 0 ? longest : k == longest ? 0 : k;
            int l = gpu->tasks[i];
            const task *lt = &tr->tasks[l];
            double s = from_start || !progress ? 0 : progress[l];
            size_t m = i < MEMBERS_MAX ? m_of[i] : remaining_samples(lt, s, P);
            add_task(lt, s, P, buf, m < n ? m : n, k == 0);
        }
        agg = buf;
    }
    out->n = n;
    out->gpu_mean = n ? sum_floats(agg, n) / (double)n : 0;
    out->task_mean = incoming_mean(in, n ? n : in->len);
    /* CATS eq. 15 on both series truncated to n (Alg. 1 line 6); a constant
     * side (an incoming task without a series) has zero variance: 0. */
    out->rho = in->pct ? stats_pearson(agg, n, in->pct, n) : 0;
}
