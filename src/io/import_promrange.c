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
 * sample before (0 first).  The period is the query's step (the gap
 * between a series' first two samples), or --period.
 *
 * The kubectl importer takes the same file next to its lists: the pods
 * then run with their series (promrange_read).
 *
 * jansson parses; a bad value is located in the text with jsonpos.h.
 */
#include "import.h"
#include "import_table.h"
#include "jsonpos.h"
#include "opsnap.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 1000000

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
    int is_mem;                 /* DCGM_FI_DEV_FB_USED */
    double t0, step;            /* first timestamp, seconds between samples */
    float *v;
    size_t n;
} series;

static const char *label(const json_t *metric, const char *key)
{
    const char *v = json_string_value(json_object_get(metric, key));
    return v && v[0] ? v : NULL;
}

/* The task a series belongs to: namespace/pod, else host/gpu. */
static void series_key(const json_t *metric, char *buf, size_t len)
{
    const char *pod = label(metric, "pod"), *ns = label(metric, "namespace");
    const char *host = label(metric, "Hostname"), *gpu = label(metric, "gpu");
    char key[512];
    if (pod)
        snprintf(key, sizeof key, "%s%s%s", ns ? ns : "", ns ? "/" : "", pod);
    else
        snprintf(key, sizeof key, "%s/gpu%s", host ? host : label(metric, "instance") ?
                 label(metric, "instance") : "gpu", gpu ? gpu : "0");
    import_copy_utf8(buf, len, key);
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
    if (parse_double(s, v) || !isfinite(*v) || *v < 0)
        return prom_fail(d, &vp, err, "expected a value >= 0 as a string, got \"%.40s\"", s);
    return 0;
}

static int read_series(const prom_doc *d, const jsonpos_path *p, const json_t *r, series *s,
                       gp_err *err)
{
    memset(s, 0, sizeof *s);
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
        return prom_fail(d, &np, err, "expected DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_FB_USED, "
                         "got %.60s", name);
    }
    s->is_mem = name && strcmp(name, "DCGM_FI_DEV_FB_USED") == 0;
    series_key(metric, s->key, sizeof s->key);
    s->n = json_array_size(values);
    s->v = xcalloc(s->n, sizeof *s->v);
    double prev_t = 0, last = 0;
    for (size_t k = 0; k < s->n; k++) {
        jsonpos_path kp = jsonpos_index(&vp, k);
        double t = 0, v = 0;
        if (sample(d, &kp, json_array_get(values, k), &t, &v, err))
            return -1;
        if (k > 0 && !(t > prev_t))
            return prom_fail(d, &kp, err, "expected timestamps in increasing order");
        if (k == 0)
            s->t0 = t;
        if (k == 1)
            s->step = t - s->t0;
        prev_t = t;
        last = isnan(v) ? last : v;
        if (!s->is_mem && last > 100) {
            jsonpos_path xp = jsonpos_index(&kp, 1);
            return prom_fail(d, &xp, err, "expected a utilization 0..100 %%, got %g", last);
        }
        s->v[k] = (float)last;
    }
    return 0;
}

/* The tasks: series grouped by key, in the order they first appear. */
static int build_trace(const series *s, size_t n, double period, gp_trace *tr, gp_err *err)
{
    double t_first = INFINITY;
    for (size_t i = 0; i < n; i++)
        t_first = s[i].t0 < t_first ? s[i].t0 : t_first;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(s[j].key, s[i].key) == 0;
        if (seen)
            continue;
        task tk;
        task_init(&tk);
        strlcpy0(tk.name, s[i].key, sizeof tk.name);
        size_t len = 0;
        double step = period, mem = 0;
        int gpus = 0;
        for (size_t j = i; j < n; j++)
            if (strcmp(s[j].key, s[i].key) == 0 && !s[j].is_mem) {
                gpus++;
                len = s[j].n > len ? s[j].n : len;
                if (!(step > 0))
                    step = s[j].step;
                tk.arrival_s = s[j].t0 - t_first;
            }
        if (gpus == 0)
            return gp_error(err, "%s: memory series without a DCGM_FI_DEV_GPU_UTIL one",
                            s[i].key);
        if (!(step > 0))
            return gp_error(err, "%s: one sample and no --period: the step is unknown",
                            s[i].key);
        float *u = xcalloc(len, sizeof *u);
        for (size_t j = i; j < n; j++) {
            if (strcmp(s[j].key, s[i].key) != 0)
                continue;
            for (size_t k = 0; k < s[j].n; k++) {
                if (s[j].is_mem)
                    mem = s[j].v[k] > mem ? s[j].v[k] : mem;
                else
                    u[k] += s[j].v[k] / (float)gpus;
            }
        }
        tk.num_gpu = gpus > GP_NODE_MAX_GPUS ? GP_NODE_MAX_GPUS : gpus;
        tk.gpu_mem_gib = mem / 1024;
        tk.duration_s = (double)len * step;
        task_set_util(&tk, u, len, step);
        trace_add_task(tr, &tk);
        task_release(&tk);
        free(u);
    }
    return 0;
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
        if (read_series(d, &ip, json_array_get(result, i), &(*out)[i], err))
            return -1;
    }
    return 0;
}

int promrange_read(const char *path, double period_s, gp_trace *tr, gp_err *err)
{
    prom_doc d = {path, NULL, 0};
    if (!(d.text = read_file(d.path, &d.len, err)))
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
        rc = build_trace(s, n, period_s, tr, err);
    for (size_t i = 0; i < n; i++)
        free(s[i].v);
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
