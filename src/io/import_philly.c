/*
 * import_philly.c — the Microsoft Philly trace (SPEC §4.2), as published in
 * msr-fiddle/philly-traces (README.md, "Schema"):
 *
 *   cluster_job_log   a JSON array of jobs: {"status": Pass|Killed|Failed,
 *                     "vc", "jobid", "submitted_time", "user", "attempts":
 *                     [{"start_time", "end_time", "detail": [{"ip": machine,
 *                     "gpus": ["gpu0", ...]}]}]}; times "YYYY-MM-DD HH:MM:SS",
 *                     a missing time is null, "None" or "".
 *   cluster_gpu_util  optional CSV with header time,machineId,gpu0_util..
 *                     gpu7_util: one row per machine per minute, time like
 *                     "2017-10-03 00:08:00 PDT", "NA" for an offline GPU;
 *                     rows may end with a trailing comma (README example).
 *
 * Inputs: the job log and optionally the utilization file, as two paths, or
 * the extracted trace-data directory holding them.  Makes one trace.
 *
 * Mapping (one task per job that ran to completion):
 *   name        jobid (a repeated jobid, or one over 253 bytes, is an error:
 *               it is the job's key and must name its task whole)
 *   arrival_s   submitted_time minus the earliest submitted_time of the
 *               imported jobs, so the trace starts at 0
 *   duration_s  end of the last attempt minus start of the first, as the
 *               repository's analysis notebook computes run time (it
 *               includes the gaps between attempts)
 *   num_gpu     distinct GPUs of the last attempt, summed over its machines
 *               (the attempt that ran to the end; the notebook counts the
 *               first, which almost always agrees); 0 GPUs is a CPU-only
 *               task; gpu_milli 1000 (Philly allocates whole GPUs)
 *   qos         status
 *   series      with cluster_gpu_util: at each sample time, the mean
 *               utilization of the job's GPUs (machine ip x gpuN) while one
 *               of its attempts ran there (start <= t <= end); NA samples
 *               are left out of the mean, and a time where every GPU of the
 *               job is NA (or has no row) repeats the previous value.  The
 *               series starts at the first time with a value.  The period
 *               is the file's sampling step (the smallest gap between two
 *               rows of one machine: 60 s in the published data) unless
 *               --period (at least 1 s) is given; samples then fall in
 *               period-wide bins, several in one bin being averaged.
 *               util_mean/peak/first follow from the series.
 * Left out, with a count in the import summary: jobs with no attempt or no
 * start time on their first attempt (never started), jobs whose last
 * attempt has no end time (still running when the trace was cut, per the
 * README), jobs whose last end precedes their first start, and jobs on
 * more than 16 GPUs (the most a task may request).  Keeping them with
 * duration 0 would put jobs in the trace that never ran.
 *
 * Time zones: job times carry none, utilization times carry PST/PDT; both
 * are taken as the same wall clock, so in the hour repeated when daylight
 * saving ends the two copies of a minute are averaged together.
 *
 * Not read: cluster_cpu_util, cluster_mem_util, cluster_machine_list (no
 * cluster is made: Philly does not name its GPU models), vc and user.
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "jsonpos.h"
#include "core/model.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PHILLY_JOB_LOG "cluster_job_log"
#define PHILLY_GPU_UTIL "cluster_gpu_util"
#define PHILLY_MAX_GPUS GP_NODE_MAX_GPUS  /* gpuN with N below this; task limit */
#define PHILLY_DEFAULT_PERIOD_S 60.0      /* README: "a per-minute record" */
#define PHILLY_MAX_SERIES 10000000        /* ~19 years of minutes: a bound, not a limit */

/* ---- wall-clock times ------------------------------------------------- */

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil), so no time zone database is involved. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int read_digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

/* "YYYY-MM-DD HH:MM:SS" (years 1970..2100) into seconds on that wall clock;
 * *rest points after it.  Returns -1 when malformed. */
static int parse_wall_time(const char *s, int64_t *out, const char **rest)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, mo, d, h, mi, se;
    if (strlen(s) < 19 || read_digits(s, 4, &y) || s[4] != '-' || read_digits(s + 5, 2, &mo) ||
        s[7] != '-' || read_digits(s + 8, 2, &d) || s[10] != ' ' ||
        read_digits(s + 11, 2, &h) || s[13] != ':' || read_digits(s + 14, 2, &mi) ||
        s[16] != ':' || read_digits(s + 17, 2, &se))
        return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1970 || y > 2100 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
        (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 || se > 60)
        return -1;
    *out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    *rest = s + 19;
    return 0;
}

/* ---- the jobs --------------------------------------------------------- */

enum skip_reason { KEEP, NEVER_STARTED, UNFINISHED, INCONSISTENT, TOO_WIDE, NSKIP };

static const char *const skip_words[NSKIP] = {
    "", "never started", "unfinished", "ended before starting", "on more than 16 GPUs",
};

/* A sample time of one job: the sum and count of its GPUs' non-NA values. */
typedef struct util_point {
    int64_t t;
    double sum;
    int n;
} util_point;

typedef struct philly_job {
    size_t index;               /* position in the JSON array */
    const char *jobid;          /* borrowed from the JSON tree */
    char status[16];
    int64_t submitted, start, end;
    int num_gpu;
    enum skip_reason skip;
    util_point *pts;
    size_t npts, pts_cap;
} philly_job;

/* One attempt of one job on one machine: where its utilization is read. */
typedef struct gpu_window {
    const char *machine;        /* borrowed from the JSON tree */
    int64_t start, end;
    unsigned gpu_mask;          /* bit N = gpuN */
    size_t job;
} gpu_window;

typedef struct philly_log {
    const char *path;
    char *text;                 /* raw file, for error positions */
    size_t len;
    json_t *root;
    philly_job *jobs;
    size_t njobs;
    gpu_window *win;
    size_t nwin, win_cap;
} philly_log;

static void log_free(philly_log *lg)
{
    for (size_t i = 0; i < lg->njobs; i++)
        free(lg->jobs[i].pts);
    free(lg->jobs);
    free(lg->win);
    json_decref(lg->root);
    free(lg->text);
}

/* ---- error positions in the JSON text ----------------------------------
 * jansson keeps no positions for values, so an error about a value walks
 * the (already validated) raw text along the value's path (jsonpos.h). */

/* The job being read and the path of the field being read in it. */
typedef struct job_ctx {
    philly_log *lg;
    size_t job;
    const char *jobid;
    jsonpos_path path;          /* [job], then the field's steps */
} job_ctx;

static job_ctx job_ctx_at(philly_log *lg, size_t job, const char *jobid)
{
    job_ctx c = {lg, job, jobid, {.depth = 0}};
    jsonpos_push_index(&c.path, job);
    return c;
}

/* "file:line:col: job #N (id), field 'a[0].b': message" at the field's value;
 * a missing member is reported at the object that lacks it (the deepest step
 * found).  Returns -1. */
__attribute__((format(printf, 3, 4)))
static int job_fail(const job_ctx *c, gp_err *err, const char *fmt, ...)
{
    char msg[512], field[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jsonpos_format(&c->path, 1, JSONPOS_DOTTED, field, sizeof field);
    jsonpos_loc at = jsonpos_locate(c->lg->text, c->lg->len, &c->path);
    long line, col;
    jsonpos_line_col(c->lg->text, c->lg->len, at.value, &line, &col);
    return gp_error(err, "%s:%ld:%ld: job #%zu%s%.80s%s%s%s%s: %s", c->lg->path, line, col,
                    c->job + 1, c->jobid ? " (" : "", c->jobid ? c->jobid : "",
                    c->jobid ? ")" : "", field[0] ? ", field '" : "", field,
                    field[0] ? "'" : "", msg);
}

/* Member `key` of obj, checked to be of type want; leaves the key pushed on
 * success.  *out is NULL (and 0 returned) when absent and not required. */
static int member(job_ctx *c, const json_t *obj, const char *key, json_type want,
                  int required, json_t **out, gp_err *err)
{
    static const char *const want_words[] = {"an object", "an array", "a string"};
    const char *wanted = want == JSON_OBJECT ? want_words[0] :
                         want == JSON_ARRAY ? want_words[1] : want_words[2];
    jsonpos_push_key(&c->path, key);
    *out = json_object_get(obj, key);
    if (!*out) {
        if (required)
            return job_fail(c, err, "missing (expected %s)", wanted);
        jsonpos_pop(&c->path);
        return 0;
    }
    if (json_typeof(*out) != want)
        return job_fail(c, err, "expected %s, got %s", wanted, jsonpos_type_name(*out));
    return 0;
}

/* An optional attempt time: absent, null, "None" or "" leave *has 0. */
static int attempt_time(job_ctx *c, const json_t *attempt, const char *key, int64_t *t,
                        int *has, gp_err *err)
{
    *has = 0;
    jsonpos_push_key(&c->path, key);
    const json_t *v = json_object_get(attempt, key);
    if (v && !json_is_null(v)) {
        const char *s = json_string_value(v), *rest;
        if (!s)
            return job_fail(c, err, "expected a time 'YYYY-MM-DD HH:MM:SS' or null, got %s",
                            jsonpos_type_name(v));
        if (*s && strcmp(s, "None") != 0) {
            if (parse_wall_time(s, t, &rest) || *rest)
                return job_fail(c, err, "expected a time 'YYYY-MM-DD HH:MM:SS' (years "
                                "1970-2100), null or \"None\", got '%.40s'", s);
            *has = 1;
        }
    }
    jsonpos_pop(&c->path);
    return 0;
}

/* "gpuN" with N below PHILLY_MAX_GPUS. */
static int gpu_index(const char *s)
{
    int v;
    size_t l = strlen(s);
    if (strncmp(s, "gpu", 3) != 0 || l < 4 || l > 5 || read_digits(s + 3, (int)l - 3, &v) ||
        v >= PHILLY_MAX_GPUS)
        return -1;
    return v;
}

static int parse_gpus(job_ctx *c, const json_t *gpus, unsigned *mask, gp_err *err)
{
    *mask = 0;
    for (size_t g = 0; g < json_array_size(gpus); g++) {
        const json_t *v = json_array_get(gpus, g);
        jsonpos_push_index(&c->path, g);
        int idx = json_is_string(v) ? gpu_index(json_string_value(v)) : -1;
        if (idx < 0)
            return job_fail(c, err, "expected a GPU name 'gpu0'..'gpu%d', got %s%.20s%s",
                            PHILLY_MAX_GPUS - 1, json_is_string(v) ? "'" : jsonpos_type_name(v),
                            json_is_string(v) ? json_string_value(v) : "",
                            json_is_string(v) ? "'" : "");
        *mask |= 1u << idx;
        jsonpos_pop(&c->path);
    }
    return 0;
}

static void add_window(philly_log *lg, const char *machine, int64_t start, int64_t end,
                       unsigned mask, size_t job)
{
    grow_array((void **)&lg->win, &lg->win_cap, lg->nwin + 1, sizeof *lg->win);
    lg->win[lg->nwin++] = (gpu_window){machine, start, end, mask, job};
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* One attempt: its machines and GPUs; returns the GPU count in *ngpu. */
static int parse_attempt(job_ctx *c, const json_t *a, int64_t start, int64_t end, int timed,
                         int *ngpu, gp_err *err)
{
    json_t *detail, *ip, *gpus;
    if (member(c, a, "detail", JSON_ARRAY, 1, &detail, err))
        return -1;
    *ngpu = 0;
    for (size_t d = 0; d < json_array_size(detail); d++) {
        const json_t *entry = json_array_get(detail, d);
        jsonpos_push_index(&c->path, d);
        if (!json_is_object(entry))
            return job_fail(c, err, "expected an object {\"ip\", \"gpus\"}, got %s",
                            jsonpos_type_name(entry));
        if (member(c, entry, "ip", JSON_STRING, 1, &ip, err))
            return -1;
        if (!json_string_value(ip)[0])
            return job_fail(c, err, "expected a machine name, got ''");
        jsonpos_pop(&c->path);
        unsigned mask;
        if (member(c, entry, "gpus", JSON_ARRAY, 1, &gpus, err) || parse_gpus(c, gpus, &mask, err))
            return -1;
        jsonpos_pop(&c->path);
        *ngpu += popcount(mask);
        if (timed && mask)
            add_window(c->lg, json_string_value(ip), start, end, mask, c->job);
        jsonpos_pop(&c->path);
    }
    jsonpos_pop(&c->path);
    return 0;
}

static int parse_attempts(job_ctx *c, const json_t *attempts, philly_job *j, gp_err *err)
{
    size_t n = json_array_size(attempts);
    int first_has = 0, last_has = 0;
    for (size_t k = 0; k < n; k++) {
        const json_t *a = json_array_get(attempts, k);
        jsonpos_push_index(&c->path, k);
        if (!json_is_object(a))
            return job_fail(c, err, "expected an attempt object, got %s", jsonpos_type_name(a));
        int64_t start = 0, end = 0;
        int has_start, has_end, ngpu;
        if (attempt_time(c, a, "start_time", &start, &has_start, err) ||
            attempt_time(c, a, "end_time", &end, &has_end, err) ||
            parse_attempt(c, a, start, end, has_start && has_end, &ngpu, err))
            return -1;
        if (k == 0) {
            first_has = has_start;
            j->start = start;
        }
        if (k == n - 1) {
            last_has = has_end;
            j->end = end;
            j->num_gpu = ngpu;
        }
        jsonpos_pop(&c->path);
    }
    if (n == 0 || !first_has)
        j->skip = NEVER_STARTED;
    else if (!last_has)
        j->skip = UNFINISHED;
    else if (j->end < j->start)
        j->skip = INCONSISTENT;
    else if (j->num_gpu > PHILLY_MAX_GPUS)
        j->skip = TOO_WIDE;
    return 0;
}

static int parse_job(job_ctx *c, const json_t *job, philly_job *j, gp_err *err)
{
    json_t *id, *status, *submitted, *attempts;
    const char *rest;
    if (!json_is_object(job))
        return job_fail(c, err, "expected a job object, got %s", jsonpos_type_name(job));
    if (member(c, job, "jobid", JSON_STRING, 1, &id, err))
        return -1;
    size_t id_len = strlen(json_string_value(id));
    if (id_len == 0 || id_len >= GP_NAME_MAX)
        return job_fail(c, err, "expected a job id of 1 to %d bytes (it names the task), "
                        "got %zu bytes", GP_NAME_MAX - 1, id_len);
    jsonpos_pop(&c->path);
    c->jobid = j->jobid = json_string_value(id);
    if (member(c, job, "status", JSON_STRING, 1, &status, err))
        return -1;
    import_copy_utf8(j->status, sizeof j->status, json_string_value(status));
    jsonpos_pop(&c->path);
    if (member(c, job, "submitted_time", JSON_STRING, 1, &submitted, err))
        return -1;
    if (parse_wall_time(json_string_value(submitted), &j->submitted, &rest) || *rest)
        return job_fail(c, err, "expected a time 'YYYY-MM-DD HH:MM:SS' (years 1970-2100), "
                        "got '%.40s'", json_string_value(submitted));
    jsonpos_pop(&c->path);
    if (member(c, job, "attempts", JSON_ARRAY, 1, &attempts, err) ||
        parse_attempts(c, attempts, j, err))
        return -1;
    jsonpos_pop(&c->path);
    return 0;
}

static int cmp_jobid(const void *a, const void *b)
{
    const philly_job *x = *(philly_job *const *)a, *y = *(philly_job *const *)b;
    int r = strcmp(x->jobid, y->jobid);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* A jobid names its task, so two jobs with one id are an error. */
static int check_unique_ids(philly_log *lg, gp_err *err)
{
    if (lg->njobs < 2)
        return 0;
    philly_job **by_id = xmalloc(lg->njobs * sizeof *by_id);
    for (size_t i = 0; i < lg->njobs; i++)
        by_id[i] = &lg->jobs[i];
    qsort(by_id, lg->njobs, sizeof *by_id, cmp_jobid);
    int rc = 0;
    for (size_t i = 1; i < lg->njobs && !rc; i++) {
        if (strcmp(by_id[i]->jobid, by_id[i - 1]->jobid) == 0) {
            job_ctx c = job_ctx_at(lg, by_id[i]->index, by_id[i]->jobid);
            jsonpos_push_key(&c.path, "jobid");
            rc = job_fail(&c, err, "expected a unique job id ('%.80s' is also job #%zu)",
                          by_id[i]->jobid, by_id[i - 1]->index + 1);
        }
    }
    free(by_id);
    return rc;
}

static int parse_job_log(philly_log *lg, gp_err *err)
{
    lg->text = read_file(lg->path, &lg->len, err);
    if (!lg->text)
        return -1;
    const char *enc = utf_other_encoding(lg->text, lg->len);
    if (enc)
        return gp_error(err, "%s:1:1: the file is %s text (expected UTF-8; iconv -f %s -t "
                        "UTF-8 converts it)", lg->path, enc, enc);
    jsonpos_strip_bom(lg->text, &lg->len);
    if (jsonpos_skip_ws(lg->text, lg->len, 0) == lg->len)
        return gp_error(err, "%s:1:1: empty file (expected a JSON array of jobs)", lg->path);
    /* jansson skips a NUL byte between tokens, or calls it the end of file. */
    const char *nul = memchr(lg->text, '\0', lg->len);
    if (nul) {
        long line, col;
        jsonpos_line_col(lg->text, lg->len, (size_t)(nul - lg->text), &line, &col);
        return gp_error(err, "%s:%ld:%ld: NUL byte (expected JSON text)", lg->path, line, col);
    }
    json_error_t je;
    lg->root = json_loadb(lg->text, lg->len, 0, &je);
    if (!lg->root)
        return gp_error(err, "%s:%d:%d: %s (expected a JSON array of jobs)", lg->path,
                        je.line > 0 ? je.line : 1, je.column > 0 ? je.column : 1, je.text);
    if (!json_is_array(lg->root)) {
        long line, col;
        jsonpos_line_col(lg->text, lg->len, jsonpos_skip_ws(lg->text, lg->len, 0), &line, &col);
        return gp_error(err, "%s:%ld:%ld: expected a JSON array of jobs, got %s", lg->path,
                        line, col, jsonpos_type_name(lg->root));
    }
    lg->njobs = json_array_size(lg->root);
    lg->jobs = xcalloc(lg->njobs ? lg->njobs : 1, sizeof *lg->jobs);
    for (size_t i = 0; i < lg->njobs; i++) {
        job_ctx c = job_ctx_at(lg, i, NULL);
        lg->jobs[i].index = i;
        if (parse_job(&c, json_array_get(lg->root, i), &lg->jobs[i], err))
            return -1;
    }
    return check_unique_ids(lg, err);
}

/* ---- cluster_gpu_util --------------------------------------------------- */

/* The jobs' windows on one machine, sorted by start. */
typedef struct machine_windows {
    const char *name;
    const gpu_window *win;
    size_t n;
    int64_t longest;            /* longest window, bounds the backward scan */
    int64_t last_t;             /* previous row's time, for the sampling step */
    int seen;
} machine_windows;

typedef struct util_reader {
    philly_log *lg;
    csv_reader *csv;
    int col_time, col_machine;
    int gpu_col[PHILLY_MAX_GPUS];
    size_t width;               /* fields per row, without a trailing comma */
    machine_windows *mach;
    size_t nmach;
    int64_t step;               /* smallest gap seen, 0 = none yet */
} util_reader;

static int cmp_window(const void *a, const void *b)
{
    const gpu_window *x = a, *y = b;
    int r = strcmp(x->machine, y->machine);
    if (r)
        return r;
    return (x->start > y->start) - (x->start < y->start);
}

static void index_machines(util_reader *u)
{
    philly_log *lg = u->lg;
    if (lg->nwin)
        qsort(lg->win, lg->nwin, sizeof *lg->win, cmp_window);
    u->mach = xcalloc(lg->nwin ? lg->nwin : 1, sizeof *u->mach);
    for (size_t i = 0; i < lg->nwin; i++) {
        const gpu_window *w = &lg->win[i];
        if (!u->nmach || strcmp(u->mach[u->nmach - 1].name, w->machine) != 0)
            u->mach[u->nmach++] = (machine_windows){w->machine, w, 0, 0, 0, 0};
        machine_windows *m = &u->mach[u->nmach - 1];
        m->n++;
        if (w->end - w->start > m->longest)
            m->longest = w->end - w->start;
    }
}

static int cmp_machine_name(const void *key, const void *elem)
{
    return strcmp(key, ((const machine_windows *)elem)->name);
}

/* time, machineId and gpuN_util columns, in any order; a trailing empty
 * column (the published rows end with a comma) is allowed. */
static int util_columns(util_reader *u, gp_err *err)
{
    const csv_row *h = csv_header(u->csv);
    int any_gpu = 0;
    u->col_time = u->col_machine = -1;
    for (int g = 0; g < PHILLY_MAX_GPUS; g++)
        u->gpu_col[g] = -1;
    u->width = h->n;
    for (size_t i = 0; i < h->n; i++) {
        const char *name = h->field[i];
        size_t l = strlen(name);
        int g;
        if (strcmp(name, "time") == 0) {
            u->col_time = (int)i;
        } else if (strcmp(name, "machineId") == 0) {
            u->col_machine = (int)i;
        } else if (l > 8 && l < 11 && strncmp(name, "gpu", 3) == 0 &&
                   strcmp(name + l - 5, "_util") == 0 &&
                   read_digits(name + 3, (int)l - 8, &g) == 0 && g < PHILLY_MAX_GPUS) {
            u->gpu_col[g] = (int)i;
            any_gpu = 1;
        } else if (!*name && i == h->n - 1 && i > 0) {
            u->width = h->n - 1;
        } else {
            return csv_fail(u->csv, h, (int)i, err, "unknown column '%.40s' (expected time, "
                            "machineId, gpu0_util..gpu%d_util)", name, PHILLY_MAX_GPUS - 1);
        }
    }
    const char *missing = u->col_time < 0 ? "time" : u->col_machine < 0 ? "machineId" :
                          !any_gpu ? "gpu0_util" : NULL;
    if (missing)
        return csv_fail(u->csv, h, 0, err, "missing column '%s' in the header (expected "
                        "time,machineId,gpu0_util,...,gpu7_util)", missing);
    return 0;
}

static int util_width(const util_reader *u, const csv_row *row, gp_err *err)
{
    size_t n = row->n;
    if (n == u->width + 1 && row->len[n - 1] == 0)
        n--;                    /* the trailing comma of the published rows */
    if (n == u->width)
        return 0;
    return csv_fail(u->csv, row, (int)(n < u->width ? n : u->width), err,
                    "row has %zu fields, expected %zu (%s)", n, u->width,
                    n < u->width ? "truncated row?" : "extra column?");
}

/* A utilization value: percent 0..100, or "NA"/"" (offline GPU). */
static int util_value(const util_reader *u, const csv_row *row, int col, double *v, int *has,
                      gp_err *err)
{
    const char *s = row->field[col];
    *has = 0;
    if (!*s || strcmp(s, "NA") == 0)
        return 0;
    if (parse_double(s, v))
        return csv_fail(u->csv, row, col, err, "column '%s': expected a percentage 0..100 or "
                        "NA, got '%.40s'", csv_header(u->csv)->field[col], s);
    if (*v < 0 || *v > 100)
        return csv_fail(u->csv, row, col, err, "column '%s': %g is out of range [0, 100]",
                        csv_header(u->csv)->field[col], *v);
    *has = 1;
    return 0;
}

/* "YYYY-MM-DD HH:MM:SS" optionally followed by a zone abbreviation. */
static int util_time(const util_reader *u, const csv_row *row, int64_t *t, gp_err *err)
{
    const char *s = row->field[u->col_time], *rest;
    int ok = parse_wall_time(s, t, &rest) == 0;
    if (ok && *rest) {
        size_t letters = 0;
        while (rest[1 + letters] >= 'A' && rest[1 + letters] <= 'Z')
            letters++;
        ok = rest[0] == ' ' && letters >= 1 && letters <= 5 && rest[1 + letters] == '\0';
    }
    if (!ok)
        return csv_fail(u->csv, row, u->col_time, err, "column 'time': expected "
                        "'YYYY-MM-DD HH:MM:SS' with an optional zone such as PST, got '%.40s'",
                        s);
    return 0;
}

static void add_point(philly_job *j, int64_t t, double sum, int n)
{
    if (j->npts && j->pts[j->npts - 1].t == t) {
        j->pts[j->npts - 1].sum += sum;
        j->pts[j->npts - 1].n += n;
        return;
    }
    grow_array((void **)&j->pts, &j->pts_cap, j->npts + 1, sizeof *j->pts);
    j->pts[j->npts++] = (util_point){t, sum, n};
}

/* Credits one row to every job with a window on that machine at time t. */
static void credit_row(util_reader *u, machine_windows *m, int64_t t, const double *val,
                       const int *has)
{
    if (m->seen && t != m->last_t) {
        int64_t gap = t > m->last_t ? t - m->last_t : m->last_t - t;
        if (!u->step || gap < u->step)
            u->step = gap;
    }
    m->seen = 1;
    m->last_t = t;
    size_t lo = 0, hi = m->n;   /* first window starting after t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->win[mid].start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && m->win[i].start >= t - m->longest;) {
        const gpu_window *w = &m->win[i];
        if (t > w->end || u->lg->jobs[w->job].skip != KEEP)
            continue;
        double sum = 0;
        int n = 0;
        for (int g = 0; g < PHILLY_MAX_GPUS; g++)
            if ((w->gpu_mask >> g & 1u) && has[g]) {
                sum += val[g];
                n++;
            }
        add_point(&u->lg->jobs[w->job], t, sum, n);
    }
}

static int util_row(util_reader *u, const csv_row *row, gp_err *err)
{
    int64_t t;
    double val[PHILLY_MAX_GPUS] = {0};
    int has[PHILLY_MAX_GPUS] = {0};
    if (util_width(u, row, err) || util_time(u, row, &t, err))
        return -1;
    for (int g = 0; g < PHILLY_MAX_GPUS; g++)
        if (u->gpu_col[g] >= 0 && util_value(u, row, u->gpu_col[g], &val[g], &has[g], err))
            return -1;
    machine_windows *m = bsearch(row->field[u->col_machine], u->mach, u->nmach,
                                 sizeof *u->mach, cmp_machine_name);
    if (m)
        credit_row(u, m, t, val, has);
    return 0;
}

/* Reads the whole file; *step receives its sampling step (0 when unknown). */
static int read_gpu_util(philly_log *lg, const char *path, int64_t *step, gp_err *err)
{
    util_reader u = {0};
    u.lg = lg;
    u.csv = csv_open(path, 1, err);
    int rc = -1;
    if (u.csv && util_columns(&u, err) == 0) {
        index_machines(&u);
        csv_row row;
        while ((rc = csv_next(u.csv, &row, err)) == 1)
            if (util_row(&u, &row, err)) {
                rc = -1;
                break;
            }
    }
    *step = u.step;
    free(u.mach);
    csv_close(u.csv);
    return rc < 0 ? -1 : 0;
}

/* ---- series ------------------------------------------------------------- */

static int cmp_point(const void *a, const void *b)
{
    const util_point *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Bins the job's sample times into a series of the given period; a bin
 * without any value repeats the previous one.  Returns the length (0 when
 * the job has no value at all); *out is allocated. */
static size_t job_series(philly_job *j, double period, float **out)
{
    *out = NULL;
    if (j->npts == 0)
        return 0;
    qsort(j->pts, j->npts, sizeof *j->pts, cmp_point);
    size_t first = 0;
    while (first < j->npts && j->pts[first].n == 0)
        first++;
    if (first == j->npts)
        return 0;
    int64_t t0 = j->pts[first].t;
    double span = (double)(j->pts[j->npts - 1].t - t0);
    size_t len = (size_t)floor(span / period + 0.5) + 1;
    if (len > PHILLY_MAX_SERIES)
        len = PHILLY_MAX_SERIES;
    double *sum = xcalloc(len, sizeof *sum);
    int *cnt = xcalloc(len, sizeof *cnt);
    for (size_t i = first; i < j->npts; i++) {
        size_t bin = (size_t)floor((double)(j->pts[i].t - t0) / period + 0.5);
        if (bin < len) {
            sum[bin] += j->pts[i].sum;
            cnt[bin] += j->pts[i].n;
        }
    }
    float *s = xmalloc(len * sizeof *s);
    double prev = sum[0] / cnt[0];
    for (size_t b = 0; b < len; b++) {
        if (cnt[b])
            prev = sum[b] / cnt[b];
        s[b] = (float)prev;
    }
    free(sum);
    free(cnt);
    *out = s;
    return len;
}

/* ---- the trace ---------------------------------------------------------- */

/* A kept job in arrival order: by submission, then by position in the log
 * (the sort key travels with the job, so the comparator needs no state). */
typedef struct arrival {
    int64_t submitted;
    size_t job;                 /* index in the log (= the job's array position) */
} arrival;

static int cmp_arrival(const void *a, const void *b)
{
    const arrival *x = a, *y = b;
    int r = (x->submitted > y->submitted) - (x->submitted < y->submitted);
    return r ? r : (x->job > y->job) - (x->job < y->job);
}

static void job_task(philly_job *j, int64_t base, double period, task *k)
{
    task_init(k);
    strlcpy0(k->name, j->jobid, sizeof k->name);    /* fits: checked when parsed */
    k->arrival_s = (double)(j->submitted - base);
    k->duration_s = (double)(j->end - j->start);
    k->num_gpu = j->num_gpu;
    k->gpu_milli = j->num_gpu ? 1000 : 0;
    strlcpy0(k->qos, j->status, sizeof k->qos);
    float *series;
    size_t len = j->num_gpu ? job_series(j, period, &series) : 0;
    if (len) {
        task_set_util(k, series, len, period);
        free(series);
    }
}

/* The kept jobs in arrival order as a trace; NULL (with a message) when no
 * job is left. */
static gp_trace *build_trace(philly_log *lg, const char *name, double period,
                             const size_t *skipped, gp_err *err)
{
    arrival *order = xmalloc((lg->njobs ? lg->njobs : 1) * sizeof *order);
    size_t n = 0;
    for (size_t i = 0; i < lg->njobs; i++)
        if (lg->jobs[i].skip == KEEP)
            order[n++] = (arrival){lg->jobs[i].submitted, i};
    if (lg->njobs == 0) {
        free(order);
        gp_error(err, "%s:1:1: no jobs in the array (expected at least one job)", lg->path);
        return NULL;
    }
    if (n == 0) {
        free(order);
        gp_error(err, "%s: no job to import (%zu jobs: %zu never started, %zu unfinished, "
                 "%zu ended before starting, %zu on more than 16 GPUs)", lg->path, lg->njobs,
                 skipped[NEVER_STARTED], skipped[UNFINISHED], skipped[INCONSISTENT],
                 skipped[TOO_WIDE]);
        return NULL;
    }
    qsort(order, n, sizeof *order, cmp_arrival);
    int64_t base = order[0].submitted;
    gp_trace *t = trace_new(name);
    /* "collected from clusters equipped primarily with Nvidia P-100 GPUs"
     * (CATS §3.2, on the Philly trace) */
    strlcpy0(t->ref_gpu, "P100", sizeof t->ref_gpu);
    t->source = xstrdup(lg->path);
    for (size_t i = 0; i < n; i++) {
        task k;
        job_task(&lg->jobs[order[i].job], base, period, &k);
        trace_add_task(t, &k);
        task_release(&k);
    }
    free(order);
    return t;
}

/* ---- inputs --------------------------------------------------------------- */

static int is_util_file(const char *path)
{
    char line[64];
    return import_first_line(path, line, sizeof line) == 0 &&
           strncmp(line, "time,", 5) == 0;
}

/* Named cluster_gpu_util, or (named otherwise) starting with its header. */
static int is_util_input(const char *path)
{
    char base[64];
    import_base_name(path, base, sizeof base);
    if (strcmp(base, PHILLY_GPU_UTIL) == 0)
        return 1;
    return strcmp(base, PHILLY_JOB_LOG) != 0 && is_util_file(path);
}

/* Sorts the paths into the job log and the utilization file; a directory
 * stands for the two files inside it. */
static int find_inputs(const char *const *paths, size_t npaths, char **log, char **util,
                       gp_err *err)
{
    *log = *util = NULL;
    for (size_t i = 0; i < npaths; i++) {
        char *p[2] = {NULL, NULL};
        if (import_is_dir(paths[i])) {
            if (import_dir_file(paths[i], PHILLY_JOB_LOG, &p[0], err) ||
                import_dir_file(paths[i], PHILLY_GPU_UTIL, &p[1], err)) {
                free(p[0]);
                return -1;
            }
            if (!p[0] && !p[1]) {
                return gp_error(err, "%s: no %s or %s in this directory", paths[i],
                                PHILLY_JOB_LOG, PHILLY_GPU_UTIL);
            }
        } else if (is_util_input(paths[i])) {
            p[1] = xstrdup(paths[i]);
        } else {
            p[0] = xstrdup(paths[i]);
        }
        for (int k = 0; k < 2; k++) {
            if (p[k] && (k ? *util : *log)) {
                gp_error(err, "%s: a second %s (already have %s)", p[k],
                         k ? "utilization file" : "job log", k ? *util : *log);
                free(p[0]);
                free(p[1]);
                return -1;
            }
        }
        if (p[0])
            *log = p[0];
        if (p[1])
            *util = p[1];
    }
    if (!*log)
        return gp_error(err, "philly: expected %s (the JSON job log) among the inputs",
                        PHILLY_JOB_LOG);
    return 0;
}

static int philly_run(store *st, const char *const *paths, size_t npaths,
                      const import_opts *opts, import_result *res, gp_err *err)
{
    char *log_path = NULL, *util_path = NULL;
    philly_log lg = {0};
    gp_trace *t = NULL;
    size_t skipped[NSKIP] = {0};
    if (opts->period_s > 0 && opts->period_s < 1)
        return gp_error(err, "philly: --period %g s is below 1 s (the trace samples every "
                        "minute)", opts->period_s);
    int rc = find_inputs(paths, npaths, &log_path, &util_path, err);
    if (rc == 0) {
        lg.path = log_path;
        rc = parse_job_log(&lg, err);
    }
    int64_t step = 0;
    if (rc == 0 && util_path)
        rc = read_gpu_util(&lg, util_path, &step, err);
    if (rc == 0) {
        for (size_t i = 0; i < lg.njobs; i++)
            skipped[lg.jobs[i].skip]++;
        double period = opts->period_s > 0 ? opts->period_s :
                        step > 0 ? (double)step : PHILLY_DEFAULT_PERIOD_S;
        char name[GP_NAME_MAX];
        import_base_name(npaths == 1 ? paths[0] : log_path, name, sizeof name);
        t = build_trace(&lg, opts->name ? opts->name : name, period, skipped, err);
        rc = t ? import_put_trace(st, t, opts->replace, res, err) : -1;
    }
    if (rc == 0) {
        import_note_skipped(res, &skipped[NEVER_STARTED], &skip_words[NEVER_STARTED],
                            NSKIP - NEVER_STARTED);
    }
    trace_free(t);
    log_free(&lg);
    free(log_path);
    free(util_path);
    return rc;
}

/* 95 for the published file names (or a directory holding them), 90 for a
 * JSON file that looks like a job log; only names and first bytes are read. */
static int philly_detect(const char *const *paths, size_t npaths)
{
    int best = 0;
    for (size_t i = 0; i < npaths; i++) {
        char base[64], head[4096];
        import_base_name(paths[i], base, sizeof base);
        int score = 0;
        if (import_is_dir(paths[i])) {
            char *p = xasprintf("%s/%s", paths[i], PHILLY_JOB_LOG);
            score = import_present(p) ? 95 : 0;
            free(p);
        } else if (strcmp(base, PHILLY_JOB_LOG) == 0) {
            score = 95;
        } else if (strcmp(base, PHILLY_GPU_UTIL) == 0 || is_util_file(paths[i])) {
            char line[64];
            score = import_first_line(paths[i], line, sizeof line) == 0 &&
                    strstr(line, "machineId") ? 60 : 0;
        } else {
            FILE *f = fopen(paths[i], "rb");
            size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
            if (f)
                fclose(f);
            head[n] = '\0';
            jsonpos_strip_bom(head, &n);
            size_t at = jsonpos_skip_ws(head, n, 0);
            score = at < n && head[at] == '[' && strstr(head, "\"jobid\"") &&
                    strstr(head, "\"attempts\"") ? 90 : 0;
        }
        if (score > best)
            best = score;
    }
    return best;
}

const importer import_philly = {
    .format = "philly",
    .summary = "Microsoft Philly trace (msr-fiddle/philly-traces): one task per job, "
               "GPU utilization series",
    .inputs = "cluster_job_log [cluster_gpu_util], or the trace-data DIR holding them",
    .detect = philly_detect,
    .run = philly_run,
};
