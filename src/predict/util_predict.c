/*
 * util_predict.c — the utilization predictors of util_predict.h: parsing
 * their names and making the trace a policy sees from the true one.
 *
 * Not here: where the predicted trace is used (sim.c hands it to the
 * policy, never to its own rates and power).
 */
#include "util_predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

/* Longest series a held profile is stretched to (samples). */
#define HOLD_MAX_SAMPLES 100000
/* rng stream of noisy's errors (rng_seed_stream), apart from the
 * simulator's own streams of the same seed. */
#define NOISY_STREAM 0x6e6f697379ULL

/* --- names ------------------------------------------------------------------- */

/* A number at s ending at '\0' or ':', positive (or zero when allowed). */
static int parse_number(const char *s, int zero_ok, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || (*end && *end != ':') || !isfinite(v) || v < 0 || (v == 0 && !zero_ok))
        return -1;
    *out = v;
    return 0;
}

int upred_parse(const char *text, upred_spec *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text || strcmp(text, "oracle") == 0)
        return 0;
    if (strcmp(text, "history") == 0) {
        out->kind = UPRED_HISTORY;
        return 0;
    }
    if (strcmp(text, "requested") == 0) {
        out->kind = UPRED_REQUESTED;
        return 0;
    }
    if (strncmp(text, "bias:", 5) == 0) {
        char *end;
        double v = strtod(text + 5, &end);
        if (end != text + 5 && !*end && isfinite(v) && v > -100 && v <= 10000) {
            out->kind = UPRED_BIAS;
            out->arg = v;
            return 0;
        }
    }
    if (strncmp(text, "profile:", 8) == 0 && parse_number(text + 8, 0, &out->arg) == 0) {
        const char *tail = strchr(text + 8, ':');
        out->kind = UPRED_PROFILE;
        out->hold_mean = tail != NULL;
        if (!tail || strcmp(tail, ":mean") == 0)
            return 0;
    } else if (strncmp(text, "noisy:", 6) == 0 && parse_number(text + 6, 1, &out->arg) == 0 &&
               !strchr(text + 6, ':')) {
        out->kind = UPRED_NOISY;
        return 0;
    }
    memset(out, 0, sizeof *out);
    return gp_error(err, "unknown predictor '%s' (expected oracle, profile:SECONDS, "
                    "profile:SECONDS:mean, history, noisy:RMSLE (e.g. noisy:0.154), bias:PERCENT "
                    "(e.g. bias:+20, above -100) or requested)", text);
}

void upred_format(const upred_spec *p, char *buf, size_t len)
{
    switch (p->kind) {
    case UPRED_PROFILE:
        snprintf(buf, len, "profile:%g%s", p->arg, p->hold_mean ? ":mean" : "");
        break;
    case UPRED_HISTORY:
        snprintf(buf, len, "history");
        break;
    case UPRED_NOISY:
        snprintf(buf, len, "noisy:%g", p->arg);
        break;
    case UPRED_BIAS:
        snprintf(buf, len, "bias:%+g", p->arg);
        break;
    case UPRED_REQUESTED:
        snprintf(buf, len, "requested");
        break;
    default:
        snprintf(buf, len, "oracle");
    }
}

/* --- profile:N ----------------------------------------------------------------- */

/* The first N seconds (at least one sample), repeated or held at their
 * mean until the task's duration. */
static void predict_profile(task *tk, double seconds, int hold_mean)
{
    const util_series *u = &tk->util;
    size_t k = (size_t)floor(seconds / u->period_s);
    k = k < 1 ? 1 : k > u->len ? u->len : k;
    if (!hold_mean) {
        /* a copy: task_set_util frees the series it replaces */
        float *head = xmemdup(u->pct, k * sizeof *head);
        task_set_util(tk, head, k, u->period_s);
        free(head);
        return;
    }
    double want = ceil(tk->duration_s / u->period_s);
    size_t n = want > HOLD_MAX_SAMPLES ? HOLD_MAX_SAMPLES : want < (double)k ? k : (size_t)want;
    float *s = xmalloc(n * sizeof *s);
    double sum = 0;
    for (size_t i = 0; i < k; i++)
        sum += s[i] = u->pct[i];
    for (size_t i = k; i < n; i++)
        s[i] = (float)(sum / (double)k);
    task_set_util(tk, s, n, u->period_s);
    free(s);
}

/* --- history ------------------------------------------------------------------- */

/* The running sample-by-sample sums of the completed tasks of one job
 * type. */
typedef struct type_hist {
    const char *type;           /* the model name, "" when pooled */
    double *sum;
    int *count;
    size_t len, cap;
    double period_s;
} type_hist;

typedef struct history {
    type_hist *types;
    size_t ntypes, cap;
    int typed;                  /* the trace names job types */
} history;

static type_hist *hist_of(history *h, const char *type)
{
    const char *key = h->typed ? type : "";
    for (size_t i = 0; i < h->ntypes; i++)
        if (strcmp(h->types[i].type, key) == 0)
            return &h->types[i];
    grow_array((void **)&h->types, &h->cap, h->ntypes + 1, sizeof *h->types);
    type_hist *t = &h->types[h->ntypes++];
    memset(t, 0, sizeof *t);
    t->type = key;
    return t;
}

static void hist_add(history *h, const task *tk)
{
    type_hist *t = hist_of(h, tk->model);
    if (tk->util.len > t->len) {
        size_t old = t->cap;
        grow_array((void **)&t->sum, &t->cap, tk->util.len, sizeof *t->sum);
        t->count = xrealloc(t->count, t->cap * sizeof *t->count);
        memset(t->sum + old, 0, (t->cap - old) * sizeof *t->sum);
        memset(t->count + old, 0, (t->cap - old) * sizeof *t->count);
        t->len = tk->util.len;
    }
    if (t->period_s == 0)
        t->period_s = tk->util.period_s;
    for (size_t i = 0; i < tk->util.len; i++) {
        t->sum[i] += tk->util.pct[i];
        t->count[i]++;
    }
}

static void hist_free(history *h)
{
    for (size_t i = 0; i < h->ntypes; i++) {
        free(h->types[i].sum);
        free(h->types[i].count);
    }
    free(h->types);
}

/* A task's whole share in percent: what is assumed with no history. */
static float whole_share(const task *tk)
{
    return task_gpus(tk) == 1 && tk->gpu_milli < 1000 ? (float)tk->gpu_milli / 10.f : 100.f;
}

static void predict_from_history(task *tk, history *h)
{
    type_hist *t = hist_of(h, tk->model);
    if (t->len == 0) {
        float v = whole_share(tk);
        task_set_util(tk, &v, 1, tk->util.period_s);
        return;
    }
    float *s = xmalloc(t->len * sizeof *s);
    for (size_t i = 0; i < t->len; i++)
        s[i] = (float)(t->sum[i] / t->count[i]);
    task_set_util(tk, s, t->len, t->period_s);
    free(s);
}

typedef struct timed_idx {
    double t;
    int idx;
} timed_idx;

static int cmp_timed(const void *a, const void *b)
{
    const timed_idx *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Tasks sorted by arrival and by standalone completion; at each arrival
 * the tasks completed by then join their type's history first. */
static void predict_history(const gp_trace *truth, gp_trace *pred)
{
    size_t n = truth->ntasks;
    timed_idx *arr = xmalloc((n ? n : 1) * sizeof *arr);
    timed_idx *done = xmalloc((n ? n : 1) * sizeof *done);
    history h;
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i < n; i++) {
        const task *tk = &truth->tasks[i];
        arr[i] = (timed_idx){tk->arrival_s, (int)i};
        done[i] = (timed_idx){tk->arrival_s + tk->duration_s, (int)i};
        h.typed |= tk->model[0] != '\0';
    }
    qsort(arr, n, sizeof *arr, cmp_timed);
    qsort(done, n, sizeof *done, cmp_timed);
    size_t d = 0;
    for (size_t k = 0; k < n; k++) {
        for (; d < n && done[d].t <= arr[k].t; d++)
            if (truth->tasks[done[d].idx].util.len > 0)
                hist_add(&h, &truth->tasks[done[d].idx]);
        task *tk = &pred->tasks[arr[k].idx];
        if (tk->util.len > 0)
            predict_from_history(tk, &h);
    }
    hist_free(&h);
    free(arr);
    free(done);
}

/* --- noisy:E -------------------------------------------------------------------- */

static void predict_noisy(task *tk, double rmsle, rng *r)
{
    float *s = xmalloc(tk->util.len * sizeof *s);
    for (size_t i = 0; i < tk->util.len; i++) {
        double v = tk->util.pct[i] * exp(rmsle * rng_normal(r));
        s[i] = (float)(v > 100 ? 100 : v);
    }
    task_set_util(tk, s, tk->util.len, tk->util.period_s);
    free(s);
}

/* --- bias:X and requested ------------------------------------------------------- */

static void predict_bias(task *tk, double pct)
{
    float *s = xmalloc(tk->util.len * sizeof *s);
    for (size_t i = 0; i < tk->util.len; i++) {
        double v = tk->util.pct[i] * (1 + pct / 100);
        s[i] = (float)(v > 100 ? 100 : v);
    }
    task_set_util(tk, s, tk->util.len, tk->util.period_s);
    free(s);
}

static void predict_requested(task *tk)
{
    float v = whole_share(tk);
    task_set_util(tk, &v, 1, tk->util.period_s);
}

/* --- the predicted trace -------------------------------------------------------- */

gp_trace *upred_trace_new(const gp_trace *truth, const upred_spec *p, uint64_t seed)
{
    gp_trace *pred = trace_new(truth->name);
    pred->id = truth->id;
    if (truth->source)
        pred->source = xstrdup(truth->source);
    for (size_t i = 0; i < truth->ntasks; i++)
        trace_add_task(pred, &truth->tasks[i]);
    rng r;
    rng_seed_stream(&r, seed, NOISY_STREAM);
    if (p->kind == UPRED_HISTORY) {
        predict_history(truth, pred);
        return pred;
    }
    for (size_t i = 0; i < pred->ntasks; i++) {
        task *tk = &pred->tasks[i];
        if (tk->util.len == 0)
            continue;
        if (p->kind == UPRED_PROFILE)
            predict_profile(tk, p->arg, p->hold_mean);
        else if (p->kind == UPRED_NOISY)
            predict_noisy(tk, p->arg, &r);
        else if (p->kind == UPRED_BIAS)
            predict_bias(tk, p->arg);
        else if (p->kind == UPRED_REQUESTED)
            predict_requested(tk);
    }
    return pred;
}
