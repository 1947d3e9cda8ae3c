/*
 * import_genai.c — the Alibaba GenAI 2026 GPU series ("genai", SPEC §4.2;
 * columns in ../shared/data/README.md): real per-pod GPU utilization of
 * inference pods, one task per container.
 *
 * Inputs: the duty-cycle file (`value,timestamp_anon,container_ip`, percent)
 * and optionally the GPU-memory file (`timestamp_anon,value,container_ip`,
 * bytes).  Columns are found by header name, so their order does not matter;
 * the two files are told apart by name: one whose base name contains "mem"
 * is the memory series, the other the duty cycle.
 *
 * Mapping, per container (task name = container_ip):
 *  - rows arrive interleaved across containers; each container's rows are
 *    sorted by time (file order breaks ties);
 *  - the sample period is the dominant step between consecutive timestamps
 *    of a container over the whole file (57 s in the real file), unless
 *    --period is given;
 *  - the series is resampled onto first + i·period: each slot holds the mean
 *    of the rows that fall in [slot, slot + period).  So duplicate
 *    timestamps are averaged, and a gap (a slot with no row — the real file
 *    has steps of 2, 3 … 631 periods) carries the last value forward: a
 *    zero-order hold, the least invented value.  The number of carried
 *    samples is reported after the trace name;
 *  - duty-cycle values must be 0..100; values at most UTIL_SLACK outside are
 *    rounding noise of the metric exporter and are clamped, anything further
 *    is an error;
 *  - arrival_s = the container's first timestamp − the earliest timestamp of
 *    the duty-cycle file; duration_s = samples × period; tasks are ordered
 *    by arrival, then by first appearance in the file;
 *  - num_gpu 1, gpu_milli 1000 (each pod holds one GPU); gpu_mem_gib = the
 *    container's peak memory bytes / 2^30 when the memory file is given (0
 *    otherwise).  Memory rows of containers absent from the duty-cycle file
 *    are ignored (the real file has one such container) and counted in the
 *    note.
 *
 * Not done here: the memory series is not kept as a series (the model has
 * one utilization series per task); only its peak is used.
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "core/model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GENAI_DUTY_HEADER "value,timestamp_anon,container_ip"
#define GENAI_MEM_HEADER "timestamp_anon,value,container_ip"
#define UTIL_SLACK 1.0           /* percentage points tolerated outside 0..100 */
#define MAX_TIMESTAMP 1e12       /* seconds; far beyond any Unix time of this era */
#define MAX_MEM_BYTES 1e15       /* 1 PB: no GPU comes near */
#define MAX_SAMPLES (1u << 20)   /* per container: ~1.9 years at 57 s */
#define STEP_RESOLUTION 1e-3     /* steps are compared rounded to 1 ms */

/* --- container names, interned to small integers ----------------------- */

typedef struct container_index {
    char (*name)[GP_NAME_MAX];
    size_t n, cap;
    hashtab *ix;                 /* name -> index in name[]; made on first add */
} container_index;

static int name_eq(const void *key, size_t v, const void *ctx)
{
    const container_index *ci = ctx;
    return strcmp(ci->name[v], key) == 0;
}

static int index_find(const container_index *ci, const char *s)
{
    size_t i = ci->ix ? hashtab_find(ci->ix, core_str_hash(s), s) : HASHTAB_NONE;
    return i == HASHTAB_NONE ? -1 : (int)i;
}

/* The id of s, added when new. */
static int index_add(container_index *ci, const char *s)
{
    if (!ci->ix)
        ci->ix = hashtab_new(name_eq, ci);
    size_t had = hashtab_put(ci->ix, core_str_hash(s), s, ci->n);
    if (had != HASHTAB_NONE)
        return (int)had;
    grow_array((void **)&ci->name, &ci->cap, ci->n + 1, sizeof *ci->name);
    strlcpy0(ci->name[ci->n], s, GP_NAME_MAX);
    return (int)ci->n++;
}

static void index_free(container_index *ci)
{
    free(ci->name);
    hashtab_free(ci->ix);
}

/* --- reading the rows --------------------------------------------------- */

/* One duty-cycle row. */
typedef struct duty_obs {
    int container;
    long line;
    double t;
    double pct;
} duty_obs;

typedef struct genai_data {
    const char *duty_path;
    int ts_col;                  /* 1-based column of timestamp_anon, for messages */
    container_index ids;
    duty_obs *obs;
    size_t nobs, obs_cap;
    double *peak_bytes;          /* per container; < 0 = no memory rows */
    size_t mem_only;             /* containers only in the memory file */
} genai_data;

/* Columns value, timestamp_anon, container_ip, found by name. */
enum { G_VALUE, G_TIME, G_CONTAINER };

static csv_reader *open_series(const char *path, int *c, gp_err *err)
{
    static const char *const req[] = {"value", "timestamp_anon", "container_ip", NULL};
    if (import_is_dir(path)) {
        gp_error(err, "%s: is a directory (expected a GenAI series CSV)", path);
        return NULL;
    }
    csv_reader *r = csv_open(path, 1, err);
    if (r && csv_require(r, req, c, NULL, NULL, 0, err)) {
        csv_close(r);
        return NULL;
    }
    return r;
}

/* Width, timestamp and container of a row (both files). */
static int row_common(const csv_reader *r, const csv_row *row, const int *c, double *t,
                      char *container, gp_err *err)
{
    if (csv_check_width(r, row, err) ||
        csv_real(r, row, c[G_TIME], 0, MAX_TIMESTAMP, t, err) ||
        csv_text(r, row, c[G_CONTAINER], container, GP_NAME_MAX, err))
        return -1;
    if (!container[0])
        return csv_fail(r, row, c[G_CONTAINER], err,
                        "column 'container_ip': expected a container id");
    return 0;
}

/* A duty-cycle percentage, clamped within UTIL_SLACK (file comment). */
static int row_percent(const csv_reader *r, const csv_row *row, int col, double *pct,
                       gp_err *err)
{
    if (csv_real(r, row, col, -DBL_MAX, DBL_MAX, pct, err))
        return -1;
    if (*pct < -UTIL_SLACK || *pct > 100 + UTIL_SLACK)
        return csv_fail(r, row, col, err, "column 'value': %g is not a utilization "
                        "percentage (expected 0..100)", *pct);
    *pct = *pct < 0 ? 0 : *pct > 100 ? 100 : *pct;
    return 0;
}

static int read_duty(const char *path, genai_data *d, gp_err *err)
{
    int c[3];
    csv_reader *r = open_series(path, c, err);
    if (!r)
        return -1;
    d->ts_col = c[G_TIME] + 1;
    csv_row row;
    int rc;
    while ((rc = csv_next(r, &row, err)) == 1) {
        duty_obs o;
        char container[GP_NAME_MAX];
        if (row_common(r, &row, c, &o.t, container, err) ||
            row_percent(r, &row, c[G_VALUE], &o.pct, err)) {
            rc = -1;
            break;
        }
        o.container = index_add(&d->ids, container);
        o.line = row.line;
        grow_array((void **)&d->obs, &d->obs_cap, d->nobs + 1, sizeof *d->obs);
        d->obs[d->nobs++] = o;
    }
    if (rc == 0 && d->nobs == 0)
        rc = gp_error(err, "%s:2:1: no rows (expected %s rows after the header)", path,
                      GENAI_DUTY_HEADER);
    csv_close(r);
    return rc;
}

/* Peak bytes per container of the duty-cycle file. */
static int read_memory(const char *path, genai_data *d, gp_err *err)
{
    int c[3];
    csv_reader *r = open_series(path, c, err);
    if (!r)
        return -1;
    container_index unknown = {0};
    csv_row row;
    int rc;
    while ((rc = csv_next(r, &row, err)) == 1) {
        double t, bytes;
        char container[GP_NAME_MAX];
        if (row_common(r, &row, c, &t, container, err) ||
            csv_real(r, &row, c[G_VALUE], 0, MAX_MEM_BYTES, &bytes, err)) {
            rc = -1;
            break;
        }
        int id = index_find(&d->ids, container);
        if (id < 0)
            index_add(&unknown, container);
        else if (bytes > d->peak_bytes[id])
            d->peak_bytes[id] = bytes;
    }
    d->mem_only = unknown.n;
    index_free(&unknown);
    csv_close(r);
    return rc;
}

/* --- from rows to series ------------------------------------------------ */

static int cmp_obs(const void *a, const void *b)
{
    const duty_obs *x = a, *y = b;
    if (x->container != y->container)
        return x->container < y->container ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The most frequent step between consecutive distinct timestamps of one
 * container (obs sorted by container and time); the smaller step wins a
 * tie.  0 when no container has two distinct timestamps. */
static double dominant_step(const duty_obs *obs, size_t n)
{
    double *steps = xmalloc((n ? n : 1) * sizeof *steps);
    size_t ns = 0;
    for (size_t i = 1; i < n; i++)
        if (obs[i].container == obs[i - 1].container && obs[i].t > obs[i - 1].t)
            steps[ns++] = round((obs[i].t - obs[i - 1].t) / STEP_RESOLUTION) *
                          STEP_RESOLUTION;
    qsort(steps, ns, sizeof *steps, cmp_double);
    double best = 0;
    size_t best_run = 0;
    for (size_t i = 0, j; i < ns; i = j) {
        for (j = i; j < ns && steps[j] == steps[i]; j++)
            ;
        if (j - i > best_run) {
            best_run = j - i;
            best = steps[i];
        }
    }
    free(steps);
    return best;
}

/* One container's rows obs[0..n) (sorted by time) resampled onto slots of
 * `period` (file comment): the mean of the rows in a slot, the previous
 * slot's value when none.  *pct is grown as needed; returns the length or
 * 0 with a message when the span is too long. */
static size_t resample(const genai_data *d, const duty_obs *obs, size_t n, double period,
                       float **pct, size_t *pct_cap, size_t *carried, gp_err *err)
{
    double span = (obs[n - 1].t - obs[0].t) / period;
    if (span >= MAX_SAMPLES - 1) {
        gp_error(err, "%s:%ld:%d: container '%s' spans %.0f samples of %g s (expected at "
                 "most %u; check the timestamps or give a longer --period)", d->duty_path,
                 obs[n - 1].line, d->ts_col, d->ids.name[obs[0].container], span + 1, period,
                 MAX_SAMPLES);
        return 0;
    }
    size_t len = (size_t)floor_tol(span) + 1;
    double *sum = xcalloc(len, sizeof *sum);
    size_t *count = xcalloc(len, sizeof *count);
    for (size_t i = 0; i < n; i++) {
        size_t slot = (size_t)floor_tol((obs[i].t - obs[0].t) / period);
        slot = slot < len ? slot : len - 1;
        sum[slot] += obs[i].pct;
        count[slot]++;
    }
    grow_array((void **)pct, pct_cap, len, sizeof **pct);
    for (size_t s = 0; s < len; s++) {
        if (count[s]) {
            (*pct)[s] = (float)(sum[s] / (double)count[s]);
        } else {
            (*pct)[s] = (*pct)[s - 1];      /* slot 0 always holds the first row */
            (*carried)++;
        }
    }
    free(sum);
    free(count);
    return len;
}

/* Where each container's rows start in the sorted rows, and its order. */
typedef struct container_run {
    int id;
    size_t start, n;
    double t_first;
    long first_line;
} container_run;

static int cmp_run_arrival(const void *a, const void *b)
{
    const container_run *x = a, *y = b;
    if (x->t_first != y->t_first)
        return x->t_first < y->t_first ? -1 : 1;
    return (x->first_line > y->first_line) - (x->first_line < y->first_line);
}

/* Runs of the sorted rows, in task order: arrival, then first appearance. */
static container_run *container_runs(const genai_data *d)
{
    container_run *runs = xcalloc(d->ids.n, sizeof *runs);
    for (size_t i = 0; i < d->nobs; i++) {
        const duty_obs *o = &d->obs[i];
        container_run *r = &runs[o->container];
        if (!r->n) {
            r->id = o->container;
            r->start = i;
            r->t_first = o->t;
            r->first_line = o->line;
        }
        r->n++;
        if (o->line < r->first_line)
            r->first_line = o->line;
    }
    qsort(runs, d->ids.n, sizeof *runs, cmp_run_arrival);
    return runs;
}

static int build_trace(genai_data *d, double period_opt, gp_trace *t, size_t *carried,
                       gp_err *err)
{
    qsort(d->obs, d->nobs, sizeof *d->obs, cmp_obs);
    double period = period_opt > 0 ? period_opt : dominant_step(d->obs, d->nobs);
    if (period <= 0)
        return gp_error(err, "%s: cannot tell the sample period (no container has two "
                        "samples at different times); give --period", d->duty_path);
    container_run *runs = container_runs(d);
    double t_min = runs[0].t_first;
    float *pct = NULL;
    size_t pct_cap = 0;
    int rc = 0;
    for (size_t i = 0; i < d->ids.n && !rc; i++) {
        const duty_obs *o = &d->obs[runs[i].start];
        size_t len = resample(d, o, runs[i].n, period, &pct, &pct_cap, carried, err);
        if (!len) {
            rc = -1;
            break;
        }
        task k;
        task_init(&k);             /* num_gpu 1, gpu_milli 1000: one whole GPU */
        strlcpy0(k.name, d->ids.name[runs[i].id], sizeof k.name);
        k.arrival_s = o->t - t_min;
        k.duration_s = (double)len * period;
        if (d->peak_bytes[runs[i].id] >= 0)
            k.gpu_mem_gib = d->peak_bytes[runs[i].id] / (1024.0 * 1024 * 1024);
        task_set_util(&k, pct, len, period);
        trace_add_task(t, &k);
        task_release(&k);
    }
    free(pct);
    free(runs);
    return rc;
}

/* --- the import --------------------------------------------------------- */

static int is_memory_path(const char *path)
{
    char base[256];
    import_base_name(path, base, sizeof base);
    return strstr(base, "mem") != NULL;
}

/* Assigns paths to the duty-cycle and memory roles (file comment). */
static int assign_paths(const char *const *paths, size_t npaths, const char **duty,
                        const char **mem, gp_err *err)
{
    *duty = *mem = NULL;
    if (npaths < 1 || npaths > 2)
        return gp_error(err, "genai: expected the duty-cycle CSV and optionally the memory "
                        "CSV, got %zu paths", npaths);
    for (size_t i = 0; i < npaths; i++) {
        const char **role = is_memory_path(paths[i]) ? mem : duty;
        if (*role)
            return gp_error(err, "genai: %s and %s are both %s files (expected one "
                            "duty-cycle file and at most one memory file, whose name "
                            "contains \"mem\")", *role, paths[i],
                            role == mem ? "memory" : "duty-cycle");
        *role = paths[i];
    }
    if (!*duty)
        return gp_error(err, "genai: %s is a memory file; the duty-cycle file (%s) is "
                        "required", *mem, GENAI_DUTY_HEADER);
    return 0;
}

/* Adds what the import filled in or dropped to the note import_put_trace
 * wrote. */
static void note_gaps(import_result *res, size_t carried, size_t mem_only)
{
    size_t off = strlen(res->names);
    if (carried || mem_only)
        snprintf(res->names + off, sizeof res->names - off, " (%zu samples carried over "
                 "gaps, %zu memory-only containers ignored)", carried, mem_only);
}

static int genai_run(store *st, const char *const *paths, size_t npaths,
                     const import_opts *opts, import_result *res, gp_err *err)
{
    const char *duty, *mem;
    if (assign_paths(paths, npaths, &duty, &mem, err))
        return -1;
    genai_data d = {0};
    d.duty_path = duty;
    gp_trace *t = NULL;
    size_t carried = 0;
    int rc = read_duty(duty, &d, err);
    if (!rc) {
        d.peak_bytes = xmalloc(d.ids.n * sizeof *d.peak_bytes);
        for (size_t i = 0; i < d.ids.n; i++)
            d.peak_bytes[i] = -1;
        if (mem)
            rc = read_memory(mem, &d, err);
    }
    if (!rc) {
        char name[GP_NAME_MAX];
        import_base_name(duty, name, sizeof name);
        t = trace_new(opts->name ? opts->name : name);
        t->source = mem ? xasprintf("%s + %s", duty, mem) : xstrdup(duty);
        rc = build_trace(&d, opts->period_s, t, &carried, err);
    }
    if (!rc)
        rc = import_put_trace(st, t, opts->replace, res, err);
    if (!rc)
        note_gaps(res, carried, d.mem_only);
    trace_free(t);
    index_free(&d.ids);
    free(d.obs);
    free(d.peak_bytes);
    return rc;
}

/* 95 for an exact GenAI header, 60 for a GenAI file name, else 0; every
 * path must score. */
static int path_score(const char *path)
{
    char line[256], base[256];
    if (import_is_dir(path))
        return 0;
    if (import_first_line(path, line, sizeof line) == 0) {
        if (strcmp(line, GENAI_DUTY_HEADER) == 0 || strcmp(line, GENAI_MEM_HEADER) == 0)
            return 95;
    }
    import_base_name(path, base, sizeof base);
    if (strncmp(base, "pod_gpu_duty_cycle", 18) == 0 ||
        strncmp(base, "pod_gpu_memory_used", 19) == 0)
        return 60;
    return 0;
}

static int genai_detect(const char *const *paths, size_t npaths)
{
    return import_detect_each(paths, npaths, 2, path_score);
}

const importer import_genai = {
    .format = "genai",
    .summary = "Alibaba GenAI 2026 GPU series: one task per container with its "
               "utilization series",
    .inputs = "pod_gpu_duty_cycle_anon.csv [pod_gpu_memory_used_bytes_anon.csv] (the "
              "memory file is the one whose name contains \"mem\")",
    .detect = genai_detect,
    .run = genai_run,
};
