/*
 * import_promrange.c — utilization series from Prometheus ("promrange",
 * SPEC §4.2): the JSON of a range query over DCGM exporter's metrics,
 *
 *   curl -sG http://PROMETHEUS:9090/api/v1/query_range \
 *     --data-urlencode 'query=DCGM_FI_DEV_GPU_UTIL{pod!=""}' \
 *     --data-urlencode start=... --data-urlencode end=... \
 *     --data-urlencode step=60 > util.json
 *
 * ({"status":"success","data":{"resultType":"matrix","result":[{"metric":
 * {...},"values":[[t,"v"],...]}]}}, the shape the Prometheus HTTP API
 * documents), into a trace: one task per pod (labels namespace and pod;
 * a series without a pod is its GPU's, Hostname/gpu), arriving when its
 * first sample was taken, running as long as its samples span, holding as
 * many GPUs as it has series, its utilization the mean over them at each
 * step — the series the correlation family (CATS, CorrGPU) places by.
 * DCGM_FI_DEV_FB_USED series in the same result give each pod's memory
 * (its peak, MiB).  Other metrics are refused, "NaN" samples repeat the
 * sample before (0 first).  Samples are placed by their timestamps on the
 * query's step (the most common gap between consecutive samples, or
 * --period): a missing sample is a gap that keeps its length (filled as a
 * NaN is), never closed up.  A pod's series on several GPUs are one task
 * of that many GPUs; two series of one pod on one GPU are refused, naming
 * both.  Names are kept whole (at most 253 bytes, else refused).
 *
 * The kubectl importer takes the same file next to its lists: the pods
 * then run with their series (promrange_read).
 *
 * jansson parses; a bad value is located in the text with jsonpos.h.
 */
#include "import.h"
#include "import_table.h"
#include "input.h"
#include "jsonpos.h"
#include "opsnap.h"
#include "table.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 1000000
/* "host/gpu" of a series: its labels Hostname (or instance) and gpu */
#define PROMRANGE_GPU_MAX (GP_NAME_MAX + 16)

typedef struct prom_doc {
    const char *path;
    char *text;
    size_t len;
} prom_doc;

__attribute__((format(printf, 4, 5)))
static int prom_fail(const prom_doc *d, const jsonpos_path *p, gp_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = jsonpos_vfail(d->path, d->text, d->len, p, JSONPOS_DOTTED, err, fmt, ap);
    va_end(ap);
    return rc;
}

/* One series of the result, read. */
typedef struct series {
    char key[GP_NAME_MAX];      /* the task it belongs to */
    char gpu[PROMRANGE_GPU_MAX];/* host/gpu it was measured on, "" when not said */
    int is_mem;                 /* DCGM_FI_DEV_FB_USED */
    size_t index;               /* in data.result, for messages */
    double *t;                  /* timestamps, increasing */
    float *v;
    size_t n;
} series;

static const char *label(const json_t *metric, const char *key)
{
    const char *v = json_string_value(json_object_get(metric, key));
    return v && v[0] ? v : NULL;
}

/* The task a series belongs to: namespace/pod, else host/gpu; -1 when
 * longer than a name may be (never cut: two pods cut to one prefix would
 * become one task). */
static int series_key(const prom_doc *d, const jsonpos_path *mp, const json_t *metric,
                      series *s, gp_err *err)
{
    const char *pod = label(metric, "pod"), *ns = label(metric, "namespace");
    const char *host = label(metric, "Hostname"), *gpu = label(metric, "gpu");
    if (!host)
        host = label(metric, "instance");
    char *key;
    if (pod)
        key = xasprintf("%s%s%s", ns ? ns : "", ns ? "/" : "", pod);
    else
        key = xasprintf("%s/gpu%s", host ? host : "gpu", gpu ? gpu : "0");
    gp_err why;
    int rc = import_check_name_len(NULL, "the series' task", key, &why);
    if (rc)
        prom_fail(d, mp, err, "%s", why.msg);
    else
        strlcpy0(s->key, key, sizeof s->key);
    free(key);
    char *where = xasprintf("%s/%s", host ? host : "", gpu ? gpu : "");
    import_copy_utf8(s->gpu, sizeof s->gpu, host || gpu ? where : "");
    free(where);
    return rc;
}

/* values[k] = [timestamp, "value"]: the value, NAN for "NaN". */
static int sample(const prom_doc *d, const jsonpos_path *p, const json_t *pair, double *t,
                  double *v, gp_err *err)
{
    if (!json_is_array(pair) || json_array_size(pair) != 2 ||
        !json_is_number(json_array_get(pair, 0)) || !json_is_string(json_array_get(pair, 1)))
        return prom_fail(d, p, err, "expected [timestamp, \"value\"], got %s",
                         jsonpos_type_name(pair));
    *t = json_number_value(json_array_get(pair, 0));
    const char *s = json_string_value(json_array_get(pair, 1));
    if (strcmp(s, "NaN") == 0) {
        *v = NAN;
        return 0;
    }
    jsonpos_path vp = jsonpos_index(p, 1);
    if (parse_double(s, v) || !isfinite(*v) || *v < 0) {
        char *shown = text_printable(s);
        prom_fail(d, &vp, err, "expected a value >= 0 as a string, got \"%.40s\"", shown);
        free(shown);
        return -1;
    }
    return 0;
}

static int read_series(const prom_doc *d, const jsonpos_path *p, const json_t *r, series *s,
                       gp_err *err)
{
    jsonpos_path mp = jsonpos_key(p, "metric"), vp = jsonpos_key(p, "values");
    const json_t *metric = json_object_get(r, "metric"), *values = json_object_get(r, "values");
    if (!json_is_object(metric))
        return prom_fail(d, p, err, "expected \"metric\", an object of labels");
    if (!json_is_array(values) || json_array_size(values) == 0 ||
        json_array_size(values) > MAX_SAMPLES)
        return prom_fail(d, json_is_array(values) ? &vp : p, err, "expected \"values\", an "
                         "array of 1..%d samples (a range query's matrix)", MAX_SAMPLES);
    const char *name = label(metric, "__name__");
    if (name && strcmp(name, "DCGM_FI_DEV_GPU_UTIL") != 0 &&
        strcmp(name, "DCGM_FI_DEV_FB_USED") != 0) {
        jsonpos_path np = jsonpos_key(&mp, "__name__");
        char *shown = text_printable(name);
        prom_fail(d, &np, err, "expected DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_FB_USED, got "
                  "%.60s", shown);
        free(shown);
        return -1;
    }
    s->is_mem = name && strcmp(name, "DCGM_FI_DEV_FB_USED") == 0;
    if (series_key(d, &mp, metric, s, err))
        return -1;
    s->n = json_array_size(values);
    s->v = xcalloc(s->n, sizeof *s->v);
    s->t = xcalloc(s->n, sizeof *s->t);
    double last = 0;
    for (size_t k = 0; k < s->n; k++) {
        jsonpos_path kp = jsonpos_index(&vp, k);
        double t = 0, v = 0;
        if (sample(d, &kp, json_array_get(values, k), &t, &v, err))
            return -1;
        if (!isfinite(t) || (k > 0 && !(t > s->t[k - 1])))
            return prom_fail(d, &kp, err, "expected timestamps in increasing order");
        last = isnan(v) ? last : v;
        jsonpos_path xp = jsonpos_index(&kp, 1);
        gp_err why;
        if (opsnap_check_bound(s->is_mem ? OQ_MEM_MIB : OQ_UTIL_PCT,
                               s->is_mem ? "a memory used" : "a utilization", last, &why))
            return prom_fail(d, &xp, err, "%s", why.msg);
        s->t[k] = t;
        s->v[k] = (float)last;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The query's step: the most common gap between consecutive samples of a
 * series (the step Prometheus evaluated the query at; a missing sample
 * makes one gap longer, which is rarer), to the millisecond; 0 when no
 * series has two samples. */
static double infer_step(const series *s, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += s[i].n > 1 ? s[i].n - 1 : 0;
    if (total == 0)
        return 0;
    double *gap = xmalloc(total * sizeof *gap);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 1; k < s[i].n; k++)
            gap[m++] = round((s[i].t[k] - s[i].t[k - 1]) * 1000) / 1000;
    qsort(gap, m, sizeof *gap, cmp_double);
    double best = gap[0];
    size_t best_run = 0;
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && gap[j] == gap[i];)
            j++;
        if (j - i > best_run) {
            best_run = j - i;
            best = gap[i];
        }
    }
    free(gap);
    return best;
}

static const series *sort_series;

static int cmp_series(const void *a, const void *b)
{
    const series *x = &sort_series[*(const size_t *)a], *y = &sort_series[*(const size_t *)b];
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    if (x->is_mem != y->is_mem)
        return x->is_mem - y->is_mem;
    c = strcmp(x->gpu, y->gpu);
    if (c)
        return c;
    return x->index < y->index ? -1 : 1;
}

/* The grid step of sample time t of a series starting on the task's t0. */
static size_t grid_index(double t, double t0, double step)
{
    return (size_t)llround((t - t0) / step);
}

/* One task from the series order[0..n) (one key). */
static int build_task(const prom_doc *d, const series *s, const size_t *order, size_t n,
                      double step, double t_first, gp_trace *tr, gp_err *err)
{
    const series *first = &s[order[0]];
    double t0 = INFINITY, t1 = -INFINITY, mem = 0;
    int gpus = 0;
    for (size_t k = 0; k < n; k++) {
        const series *x = &s[order[k]];
        if (k > 0 && x->is_mem == s[order[k - 1]].is_mem &&
            strcmp(x->gpu, s[order[k - 1]].gpu) == 0) {
            jsonpos_path lp = jsonpos_key(&(jsonpos_path){0}, "data");
            lp = jsonpos_key(&lp, "result");
            jsonpos_path a = jsonpos_index(&lp, s[order[k - 1]].index);
            jsonpos_path b = jsonpos_index(&lp, x->index);
            jsonpos_loc la = jsonpos_locate(d->text, d->len, &a);
            long line, col;
            jsonpos_line_col(d->text, d->len, la.value, &line, &col);
            char *shown = text_printable(x->key);
            prom_fail(d, &b, err, "a second %s series of '%s' on the same GPU (first at "
                      "%s:%ld:%ld; expected one series per pod and GPU)",
                      x->is_mem ? "memory" : "utilization", shown, d->path, line, col);
            free(shown);
            return -1;
        }
        if (x->is_mem) {
            for (size_t j = 0; j < x->n; j++)
                mem = x->v[j] > mem ? x->v[j] : mem;
            continue;
        }
        gpus++;
        t0 = x->t[0] < t0 ? x->t[0] : t0;
        t1 = x->t[x->n - 1] > t1 ? x->t[x->n - 1] : t1;
    }
    if (gpus == 0) {
        char *shown = text_printable(first->key);
        gp_error(err, "%s: %s: memory series without a DCGM_FI_DEV_GPU_UTIL one", d->path,
                 shown);
        free(shown);
        return -1;
    }
    size_t len = grid_index(t1, t0, step) + 1;
    if (len > MAX_SAMPLES) {
        char *shown = text_printable(first->key);
        gp_error(err, "%s: %s: its samples span %.0f s, %zu steps of %g s (expected at most "
                 "%d: a gap that long is not one pod's run; give --period)", d->path, shown,
                 t1 - t0, len, step, MAX_SAMPLES);
        free(shown);
        return -1;
    }
    float *u = xcalloc(len, sizeof *u), *one = xcalloc(len, sizeof *one);
    for (size_t k = 0; k < n; k++) {
        const series *x = &s[order[k]];
        if (x->is_mem)
            continue;
        /* each sample on its step of the grid; a step without one (a gap)
         * keeps the sample before, as a NaN sample does: later samples
         * stay at their time */
        size_t from = grid_index(x->t[0], t0, step), to = grid_index(x->t[x->n - 1], t0, step);
        memset(one, 0, len * sizeof *one);
        for (size_t j = 0; j < x->n; j++)
            one[grid_index(x->t[j], t0, step)] = x->v[j] + 1;    /* +1: 0 = no sample */
        float held = 0;
        for (size_t g = from; g <= to; g++) {
            held = one[g] > 0 ? one[g] - 1 : held;
            u[g] += held / (float)gpus;
        }
    }
    task tk;
    task_init(&tk);
    strlcpy0(tk.name, first->key, sizeof tk.name);
    tk.arrival_s = t0 - t_first;
    tk.num_gpu = gpus > GP_NODE_MAX_GPUS ? GP_NODE_MAX_GPUS : gpus;
    tk.gpu_mem_gib = mem / 1024;
    tk.duration_s = (double)len * step;
    task_set_util(&tk, u, len, step);
    trace_add_task(tr, &tk);
    task_release(&tk);
    free(u);
    free(one);
    return 0;
}

static const size_t *sort_first;

static int cmp_first_index(const void *a, const void *b)
{
    size_t x = sort_first[*(const size_t *)a], y = sort_first[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

/* The tasks: series grouped by key (sorted, so linear but for the sort in
 * the number of series), each on the query's step. */
static int build_trace(const prom_doc *d, const series *s, size_t n, double period,
                       gp_trace *tr, gp_err *err)
{
    double step = period > 0 ? period : infer_step(s, n);
    if (!(step > 0))
        return gp_error(err, "%s: every series has one sample and no --period was given: the "
                        "step is unknown", d->path);
    double t_first = INFINITY;
    for (size_t i = 0; i < n; i++)
        t_first = s[i].t[0] < t_first ? s[i].t[0] : t_first;
    size_t *order = xmalloc((n ? n : 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_series = s;
    qsort(order, n, sizeof *order, cmp_series);
    /* tasks in the order their first series appears, as the query lists them */
    size_t *group = xmalloc((n ? n : 1) * sizeof *group), ngroups = 0;
    size_t *first = xmalloc((n ? n : 1) * sizeof *first);
    for (size_t i = 0, j; i < n; i = j) {
        first[ngroups] = s[order[i]].index;
        for (j = i + 1; j < n && strcmp(s[order[j]].key, s[order[i]].key) == 0; j++)
            first[ngroups] = s[order[j]].index < first[ngroups] ? s[order[j]].index
                                                                : first[ngroups];
        group[ngroups++] = i;
    }
    size_t *by_first = xmalloc((ngroups ? ngroups : 1) * sizeof *by_first);
    for (size_t g = 0; g < ngroups; g++)
        by_first[g] = g;
    sort_first = first;
    qsort(by_first, ngroups, sizeof *by_first, cmp_first_index);
    int rc = 0;
    for (size_t k = 0; k < ngroups && !rc; k++) {
        size_t g = by_first[k], from = group[g];
        size_t to = g + 1 < ngroups ? group[g + 1] : n;
        rc = build_task(d, s, order + from, to - from, step, t_first, tr, err);
    }
    free(by_first);
    free(group);
    free(first);
    free(order);
    return rc;
}

static int read_result(const prom_doc *d, json_t *root, series **out, size_t *nout,
                       gp_err *err)
{
    jsonpos_path rp = {.depth = 0};
    const char *status = json_string_value(json_object_get(root, "status"));
    if (!json_is_object(root) || !status)
        return prom_fail(d, &rp, err, "expected a Prometheus API answer: {\"status\": ..., "
                         "\"data\": ...}");
    if (strcmp(status, "success") != 0) {
        const char *e = json_string_value(json_object_get(root, "error"));
        return prom_fail(d, &rp, err, "the query failed: %s", e ? e : status);
    }
    jsonpos_path dp = jsonpos_key(&rp, "data"), tp = jsonpos_key(&dp, "resultType");
    jsonpos_path lp = jsonpos_key(&dp, "result");
    const json_t *data = json_object_get(root, "data");
    const char *type = json_string_value(json_object_get(data, "resultType"));
    if (!type || strcmp(type, "matrix") != 0)
        return prom_fail(d, type ? &tp : &dp, err, "expected resultType \"matrix\" (a range "
                         "query, /api/v1/query_range), got %s", type ? type : "none");
    const json_t *result = json_object_get(data, "result");
    if (!json_is_array(result) || json_array_size(result) == 0)
        return prom_fail(d, &lp, err, "expected a non-empty array of series");
    *nout = json_array_size(result);
    *out = xcalloc(*nout, sizeof **out);
    for (size_t i = 0; i < *nout; i++) {
        jsonpos_path ip = jsonpos_index(&lp, i);
        (*out)[i].index = i;
        if (read_series(d, &ip, json_array_get(result, i), &(*out)[i], err))
            return -1;
    }
    return 0;
}

int promrange_read(const char *path, double period_s, gp_trace *tr, gp_err *err)
{
    prom_doc d = {path, NULL, 0};
    if (!(d.text = input_read_file(d.path, &d.len, err)))
        return -1;
    json_error_t je;
    json_t *root = json_loadb(d.text, d.len, JSON_REJECT_DUPLICATES, &je);
    series *s = NULL;
    size_t n = 0;
    int rc = 0;
    if (!root)
        rc = gp_error(err, "%s:%d:%d: %s (expected valid JSON)", d.path, je.line,
                      je.column > 0 ? je.column : 1, je.text);
    if (!rc)
        rc = read_result(&d, root, &s, &n, err);
    if (!rc)
        rc = build_trace(&d, s, n, period_s, tr, err);
    for (size_t i = 0; i < n; i++) {
        free(s[i].v);
        free(s[i].t);
    }
    free(s);
    json_decref(root);
    free(d.text);
    return rc;
}

static int promrange_run(store *st, const char *const *paths, size_t npaths,
                         const import_opts *opts, import_result *res, gp_err *err)
{
    if (npaths != 1)
        return gp_error(err, "promrange: expected one JSON file, got %zu paths", npaths);
    char name[GP_NAME_MAX];
    import_base_name(paths[0], name, sizeof name);
    gp_trace *tr = trace_new(opts->name ? opts->name : name);
    tr->source = xstrdup(paths[0]);
    int rc = promrange_read(paths[0], opts->period_s, tr, err);
    if (!rc)
        rc = import_put_trace(st, tr, opts->replace, res, err);
    trace_free(tr);
    return rc;
}

int promrange_is_json(const char *path)
{
    char head[4096];
    import_read_head(path, head, sizeof head);
    return strstr(head, "\"resultType\"") && strstr(head, "\"matrix\"") &&
           strstr(head, "DCGM_FI_DEV_");
}

/* 95 for a JSON answer of a range query over DCGM metrics. */
static int promrange_detect(const char *const *paths, size_t npaths)
{
    return npaths == 1 && !import_is_dir(paths[0]) && promrange_is_json(paths[0]) ? 95 : 0;
}

const importer import_promrange = {
    .format = "promrange",
    .summary = "Prometheus range query of DCGM_FI_DEV_GPU_UTIL (and FB_USED) per pod: a "
               "trace of utilization series for the correlation family",
    .inputs = "one JSON file from /api/v1/query_range (resultType matrix)",
    .detect = promrange_detect,
    .run = promrange_run,
};
