/*
 * import_pai.c — the Alibaba PAI GPU cluster trace 2020 (SPEC §4.2), as
 * published in alibaba/clusterdata, cluster-trace-gpu-v2020 (README.md and
 * data/pai_*.header).  Column orders, from the .header files:
 *
 *   pai_job_table       job_name,inst_id,user,status,start_time,end_time
 *   pai_task_table      job_name,task_name,inst_num,status,start_time,
 *                       end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
 *   pai_instance_table  job_name,task_name,inst_name,worker_name,inst_id,
 *                       status,start_time,end_time,machine
 *   pai_sensor_table    job_name,task_name,worker_name,inst_id,machine,
 *                       gpu_name,cpu_usage,gpu_wrk_util,avg_mem,max_mem,
 *                       avg_gpu_wrk_mem,max_gpu_wrk_mem,read,write,
 *                       read_count,write_count
 *
 * The released CSVs have no header row; a file whose first field is the
 * documented first column name is read as headered instead (columns then
 * found by name).  Times are seconds (shifted by a constant); plan_cpu and
 * cpu_usage are percent of a core, plan_gpu and gpu_wrk_util percent of one
 * GPU, plan_mem and the *_mem columns GB.  Empty numeric fields are absent
 * values (pandas writes NaN so); anything else that is not a finite,
 * non-negative number is an error.
 *
 * Inputs: any of the four files (the task table is required), or a
 * directory holding pai_<table>.csv.  Makes one trace.
 *
 * Mapping (one task per row of the task table):
 *   name        "job_name/task_name", cut to 253 bytes; repeats get "#N"
 *   start, end  the row's start_time/end_time; when missing (empty or 0, as
 *               the dataset's analysis/utils.py treats 0) the earliest start
 *               and latest end of the task's instances in pai_instance_table
 *   arrival_s   the job's submission (pai_job_table start_time) when given
 *               and not after the task's start, else the task's start;
 *               minus the earliest arrival, so the trace starts at 0
 *   duration_s  end - start
 *   GPUs        plan_gpu per instance: 0 or empty is CPU-only; below 100 a
 *               share of one GPU (gpu_milli = plan_gpu x 10); from 100 up
 *               ceil(plan_gpu / 100) whole GPUs (150 needs two)
 *   cpu_milli   plan_cpu x 10;  ram_mib  plan_mem x 1024 (the README's
 *               29.296875 GB is 30000 MiB)
 *   gpu_spec    from gpu_type: V100 (16 GB) -> V100|V100M16|V100M32,
 *               V100M32 -> V100M32|V100, P100, T4 as is; MISC (K40m, K80,
 *               M60: no profile) and empty -> any; other names verbatim;
 *               CPU-only tasks get none
 *   qos         the task's status
 *   util        sensor gpu_wrk_util averaged over the task's instances and
 *               divided by the task's GPU count (an instance on 8 GPUs
 *               reports up to 800), capped at 100; a fractional task keeps
 *               its percent of the whole GPU.  The sensor table holds one
 *               average per instance and no series, so util_peak and
 *               util_first equal util_mean.
 *   gpu_mem_gib max over the instances of max_gpu_wrk_mem (GB), per GPU
 * Tasks without sensor rows keep utilization and GPU memory 0.  Left out,
 * counted in the import summary: tasks that never started, that never
 * ended (Running/Waiting when the trace was cut) and that end before they
 * start.  inst_num is not modelled: a task is one instance's request.
 *
 * Not read: pai_group_tag_table, pai_machine_spec, pai_machine_metric (no
 * cluster is made), and the sensor's CPU, memory and I/O columns, which
 * are checked but unused.
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "core/model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAI_MAX_COLS 16
#define PAI_TEXT (-1.0)         /* a column's bound: text, not a number */
#define PAI_MAX_TIME 1e10
#define PAI_MAX_GPU_PCT 1600.0  /* 16 GPUs, the most a task may request */
#define PAI_MAX_BIG 1e18        /* bytes and counts */

typedef struct pai_col {
    const char *name;
    double max;                 /* numbers lie in [0, max]; PAI_TEXT for text */
} pai_col;

typedef struct pai_table {
    const char *name;           /* the file's base name */
    const pai_col *cols;
    int ncols;
} pai_table;

enum { JOB_TABLE, TASK_TABLE, INST_TABLE, SENSOR_TABLE, NTABLES };

static const pai_col job_cols[] = {
    {"job_name", PAI_TEXT}, {"inst_id", PAI_TEXT}, {"user", PAI_TEXT}, {"status", PAI_TEXT},
    {"start_time", PAI_MAX_TIME}, {"end_time", PAI_MAX_TIME},
};
enum { J_NAME, J_START = 4 };

static const pai_col task_cols[] = {
    {"job_name", PAI_TEXT}, {"task_name", PAI_TEXT}, {"inst_num", 1e7},
    {"status", PAI_TEXT}, {"start_time", PAI_MAX_TIME}, {"end_time", PAI_MAX_TIME},
    {"plan_cpu", 1e7}, {"plan_mem", 1e7}, {"plan_gpu", PAI_MAX_GPU_PCT},
    {"gpu_type", PAI_TEXT},
};
enum { T_JOB, T_TASK, T_STATUS = 3, T_START, T_END, T_CPU, T_MEM, T_GPU, T_GPU_TYPE };

static const pai_col inst_cols[] = {
    {"job_name", PAI_TEXT}, {"task_name", PAI_TEXT}, {"inst_name", PAI_TEXT},
    {"worker_name", PAI_TEXT}, {"inst_id", PAI_TEXT}, {"status", PAI_TEXT},
    {"start_time", PAI_MAX_TIME}, {"end_time", PAI_MAX_TIME}, {"machine", PAI_TEXT},
};
enum { I_JOB, I_TASK, I_START = 6, I_END };

static const pai_col sensor_cols[] = {
    {"job_name", PAI_TEXT}, {"task_name", PAI_TEXT}, {"worker_name", PAI_TEXT},
    {"inst_id", PAI_TEXT}, {"machine", PAI_TEXT}, {"gpu_name", PAI_TEXT},
    {"cpu_usage", 1e7}, {"gpu_wrk_util", PAI_MAX_GPU_PCT}, {"avg_mem", 1e7},
    {"max_mem", 1e7}, {"avg_gpu_wrk_mem", 1e4}, {"max_gpu_wrk_mem", 1e4},
    {"read", PAI_MAX_BIG}, {"write", PAI_MAX_BIG}, {"read_count", PAI_MAX_BIG},
    {"write_count", PAI_MAX_BIG},
};
enum { S_JOB, S_TASK, S_UTIL = 7, S_MAX_GPU_MEM = 11 };

static const pai_table tables[NTABLES] = {
    {"pai_job_table", job_cols, (int)(sizeof job_cols / sizeof *job_cols)},
    {"pai_task_table", task_cols, (int)(sizeof task_cols / sizeof *task_cols)},
    {"pai_instance_table", inst_cols, (int)(sizeof inst_cols / sizeof *inst_cols)},
    {"pai_sensor_table", sensor_cols, (int)(sizeof sensor_cols / sizeof *sensor_cols)},
};

/* ---- reading one table ----------------------------------------------------- */

/* A table being read: where each documented column sits in the file, and
 * the current row with its numeric columns converted. */
typedef struct pai_reader {
    const pai_table *tab;
    csv_reader *csv;
    int field[PAI_MAX_COLS];
    size_t width;
    int pending;                /* the first row is data, not yet returned */
    csv_row row;
    double num[PAI_MAX_COLS];
    int has[PAI_MAX_COLS];      /* 0 when the numeric field is empty */
} pai_reader;

static int find_column(const csv_row *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->field[i], name) == 0)
            return (int)i;
    return -1;
}

static int documented(const pai_table *tab, const char *name)
{
    for (int c = 0; c < tab->ncols; c++)
        if (strcmp(tab->cols[c].name, name) == 0)
            return 1;
    return 0;
}

/* A header row: every documented column, found by name, and no other. */
static int map_header(pai_reader *pr, const csv_row *h, gp_err *err)
{
    for (int c = 0; c < pr->tab->ncols; c++) {
        pr->field[c] = find_column(h, pr->tab->cols[c].name);
        if (pr->field[c] < 0)
            return csv_fail(pr->csv, h, 0, err, "missing column '%s' in the header of %s",
                            pr->tab->cols[c].name, pr->tab->name);
    }
    for (size_t i = 0; i < h->n; i++)
        if (!documented(pr->tab, h->field[i]))
            return csv_fail(pr->csv, h, (int)i, err, "unknown column '%.40s' (not in the "
                            "documented columns of %s)", h->field[i], pr->tab->name);
    pr->width = h->n;
    return 0;
}

static int reader_open(pai_reader *pr, int table, const char *path, gp_err *err)
{
    memset(pr, 0, sizeof *pr);
    pr->tab = &tables[table];
    pr->csv = csv_open(path, 0, err);
    if (!pr->csv)
        return -1;
    csv_row first;
    int rc = csv_next(pr->csv, &first, err);
    if (rc <= 0)
        return rc < 0 ? -1 : gp_error(err, "%s:1:1: empty file (expected rows of %s: %s,...)",
                                      path, pr->tab->name, pr->tab->cols[0].name);
    if (strcmp(first.field[0], pr->tab->cols[0].name) == 0)
        return map_header(pr, &first, err);
    for (int c = 0; c < pr->tab->ncols; c++)
        pr->field[c] = c;
    pr->width = (size_t)pr->tab->ncols;
    pr->row = first;            /* valid until the next csv_next() */
    pr->pending = 1;
    return 0;
}

/* A numeric column: empty is absent, else a finite number in [0, max]. */
static int read_number(pai_reader *pr, int c, gp_err *err)
{
    int f = pr->field[c];
    const char *s = pr->row.field[f];
    const pai_col *col = &pr->tab->cols[c];
    pr->has[c] = 0;
    if (!*s)
        return 0;
    if (parse_double(s, &pr->num[c]))
        return csv_fail(pr->csv, &pr->row, f, err, "column '%s': expected a number or empty, "
                        "got '%.40s'", col->name, s);
    if (pr->num[c] < 0 || pr->num[c] > col->max)
        return csv_fail(pr->csv, &pr->row, f, err, "column '%s': %g is out of range [0, %g]",
                        col->name, pr->num[c], col->max);
    pr->has[c] = 1;
    return 0;
}

/* Next row, width-checked, numbers converted: 1, 0 at the end, -1. */
static int reader_next(pai_reader *pr, gp_err *err)
{
    if (pr->pending) {
        pr->pending = 0;
    } else {
        int rc = csv_next(pr->csv, &pr->row, err);
        if (rc <= 0)
            return rc;
    }
    size_t n = pr->row.n;
    if (n != pr->width)
        return csv_fail(pr->csv, &pr->row, (int)(n < pr->width ? n : pr->width), err,
                        "row has %zu fields, expected %zu (%s)", n, pr->width,
                        n < pr->width ? "truncated row?" : "extra column?");
    for (int c = 0; c < pr->tab->ncols; c++)
        if (pr->tab->cols[c].max != PAI_TEXT && read_number(pr, c, err))
            return -1;
    return 1;
}

static const char *text(const pai_reader *pr, int c)
{
    return pr->row.field[pr->field[c]];
}

/* A time: 0 (the dataset's "unknown") reads as absent. */
static double time_of(const pai_reader *pr, int c)
{
    return pr->has[c] ? pr->num[c] : 0;
}

static void reader_close(pai_reader *pr)
{
    csv_close(pr->csv);
    pr->csv = NULL;
}

/* ---- the job table: submission times ------------------------------------- */

typedef struct job_submit {
    char *job;
    double submit;              /* 0 = unknown */
} job_submit;

typedef struct job_index {
    job_submit *e;
    size_t n, cap;
} job_index;

static int cmp_job_submit(const void *a, const void *b)
{
    return strcmp(((const job_submit *)a)->job, ((const job_submit *)b)->job);
}

static int read_jobs(const char *path, job_index *jobs, gp_err *err)
{
    pai_reader pr;
    int rc = reader_open(&pr, JOB_TABLE, path, err);
    while (rc == 0 && (rc = reader_next(&pr, err)) == 1) {
        grow_array((void **)&jobs->e, &jobs->cap, jobs->n + 1, sizeof *jobs->e);
        jobs->e[jobs->n++] = (job_submit){xstrdup(text(&pr, J_NAME)), time_of(&pr, J_START)};
        rc = 0;
    }
    reader_close(&pr);
    if (rc < 0)
        return -1;
    if (jobs->n)
        qsort(jobs->e, jobs->n, sizeof *jobs->e, cmp_job_submit);
    return 0;
}

static double job_submit_time(const job_index *jobs, const char *job)
{
    job_submit key = {(char *)job, 0};
    const job_submit *j = jobs->n ? bsearch(&key, jobs->e, jobs->n, sizeof *jobs->e,
                                            cmp_job_submit) : NULL;
    return j ? j->submit : 0;
}

static void jobs_free(job_index *jobs)
{
    for (size_t i = 0; i < jobs->n; i++)
        free(jobs->e[i].job);
    free(jobs->e);
}

/* ---- the task table -------------------------------------------------------- */

/* One task row, with what the other tables add to it. */
typedef struct pai_task {
    char *job, *name;           /* join keys: job_name, task_name */
    char status[16];
    char *gpu_type;
    double start, end;          /* 0 = unknown */
    double inst_start, inst_end;
    double plan_cpu, plan_mem, plan_gpu;
    double util_sum;            /* sensor gpu_wrk_util over instances */
    size_t util_n;
    double gpu_mem_max;         /* sensor max_gpu_wrk_mem, GB */
} pai_task;

typedef struct task_table {
    pai_task *t;
    size_t n, cap;
    size_t *by_key;             /* indices sorted by (job, name) */
} task_table;

static double value_or_zero(const pai_reader *pr, int c)
{
    return pr->has[c] ? pr->num[c] : 0;
}

static int read_tasks(const char *path, task_table *tt, gp_err *err)
{
    pai_reader pr;
    int rc = reader_open(&pr, TASK_TABLE, path, err);
    while (rc == 0 && (rc = reader_next(&pr, err)) == 1) {
        rc = 0;
        if (!text(&pr, T_JOB)[0]) {
            rc = csv_fail(pr.csv, &pr.row, pr.field[T_JOB], err,
                          "column 'job_name': expected a job name");
            break;
        }
        grow_array((void **)&tt->t, &tt->cap, tt->n + 1, sizeof *tt->t);
        pai_task *k = &tt->t[tt->n++];
        memset(k, 0, sizeof *k);
        k->job = xstrdup(text(&pr, T_JOB));
        k->name = xstrdup(text(&pr, T_TASK));
        import_copy_utf8(k->status, sizeof k->status, text(&pr, T_STATUS));
        k->gpu_type = xstrdup(text(&pr, T_GPU_TYPE));
        k->start = time_of(&pr, T_START);
        k->end = time_of(&pr, T_END);
        k->plan_cpu = value_or_zero(&pr, T_CPU);
        k->plan_mem = value_or_zero(&pr, T_MEM);
        k->plan_gpu = value_or_zero(&pr, T_GPU);
    }
    reader_close(&pr);
    return rc < 0 ? -1 : 0;
}

static int cmp_keys(const char *job_a, const char *name_a, const char *job_b,
                    const char *name_b)
{
    int r = strcmp(job_a, job_b);
    return r ? r : strcmp(name_a, name_b);
}

/* A row with its index, so plain qsort can sort indices without global
 * comparator state. */
typedef struct task_ref {
    const pai_task *row;
    size_t index;
} task_ref;

static int cmp_task_key(const void *a, const void *b)
{
    const task_ref *x = a, *y = b;
    int r = cmp_keys(x->row->job, x->row->name, y->row->job, y->row->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

static void index_tasks(task_table *tt)
{
    task_ref *refs = xmalloc((tt->n ? tt->n : 1) * sizeof *refs);
    for (size_t i = 0; i < tt->n; i++)
        refs[i] = (task_ref){&tt->t[i], i};
    qsort(refs, tt->n, sizeof *refs, cmp_task_key);
    tt->by_key = xmalloc((tt->n ? tt->n : 1) * sizeof *tt->by_key);
    for (size_t i = 0; i < tt->n; i++)
        tt->by_key[i] = refs[i].index;
    free(refs);
}

/* Calls fn on every task row with this (job, task) key (a key may repeat). */
static void for_each_task(task_table *tt, const char *job, const char *name,
                          void (*fn)(pai_task *, const pai_reader *), const pai_reader *pr)
{
    size_t lo = 0, hi = tt->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pai_task *k = &tt->t[tt->by_key[mid]];
        if (cmp_keys(k->job, k->name, job, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < tt->n; lo++) {
        pai_task *k = &tt->t[tt->by_key[lo]];
        if (cmp_keys(k->job, k->name, job, name) != 0)
            break;
        fn(k, pr);
    }
}

static void tasks_free(task_table *tt)
{
    for (size_t i = 0; i < tt->n; i++) {
        free(tt->t[i].job);
        free(tt->t[i].name);
        free(tt->t[i].gpu_type);
    }
    free(tt->t);
    free(tt->by_key);
}

/* ---- instances and sensors --------------------------------------------------- */

static void add_instance(pai_task *k, const pai_reader *pr)
{
    double start = time_of(pr, I_START), end = time_of(pr, I_END);
    if (start > 0 && (k->inst_start == 0 || start < k->inst_start))
        k->inst_start = start;
    if (end > k->inst_end)
        k->inst_end = end;
}

static void add_sensor(pai_task *k, const pai_reader *pr)
{
    if (pr->has[S_UTIL]) {
        k->util_sum += pr->num[S_UTIL];
        k->util_n++;
    }
    if (pr->has[S_MAX_GPU_MEM] && pr->num[S_MAX_GPU_MEM] > k->gpu_mem_max)
        k->gpu_mem_max = pr->num[S_MAX_GPU_MEM];
}

/* Reads the instance or sensor table into the tasks it names; rows of
 * tasks missing from the task table are checked and otherwise ignored. */
static int read_joined(const char *path, int table, task_table *tt, gp_err *err)
{
    void (*fn)(pai_task *, const pai_reader *) = table == INST_TABLE ? add_instance :
                                                                       add_sensor;
    pai_reader pr;
    int rc = reader_open(&pr, table, path, err);
    while (rc == 0 && (rc = reader_next(&pr, err)) == 1) {
        for_each_task(tt, text(&pr, 0), text(&pr, 1), fn, &pr);
        rc = 0;
    }
    reader_close(&pr);
    return rc < 0 ? -1 : 0;
}

/* ---- the trace ----------------------------------------------------------------- */

enum skip_reason { KEEP, NEVER_STARTED, UNFINISHED, INCONSISTENT, NSKIP };

static const char *const skip_words[NSKIP] = {
    "", "never started", "unfinished", "ended before starting",
};

/* The allowed GPU models for a PAI gpu_type; NULL = any. */
static const char *gpu_spec_of(const char *gpu_type)
{
    static const struct {
        const char *pai, *spec;
    } map[] = {
        {"V100", "V100|V100M16|V100M32"},  /* PAI's V100 has 16 GB; any V100 serves */
        {"V100M32", "V100M32|V100"},       /* the 32 GB V100 profiles */
        {"P100", "P100"},
        {"T4", "T4"},
        {"MISC", NULL},                    /* K40m, K80, M60: no profile, so any */
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(gpu_type, map[i].pai) == 0)
            return map[i].spec;
    return gpu_type;
}

static void set_gpu_demand(const pai_task *p, task *k)
{
    if (p->plan_gpu <= 0) {
        k->num_gpu = 0;
        k->gpu_milli = 0;
    } else if (p->plan_gpu < 100) {
        k->num_gpu = 1;
        k->gpu_milli = (int)lround(p->plan_gpu * 10);
        if (k->gpu_milli < 1)
            k->gpu_milli = 1;
    } else {
        k->num_gpu = (int)ceil_tol(p->plan_gpu / 100);
        k->gpu_milli = 1000;
    }
}

/* Sensor readings per GPU of the task (a multi-GPU instance sums its GPUs). */
static void set_usage(const pai_task *p, task *k)
{
    if (k->num_gpu == 0)
        return;
    if (p->util_n) {
        double pct = p->util_sum / (double)p->util_n / k->num_gpu;
        k->util_mean = k->util_peak = k->util_first = pct > 100 ? 100 : pct;
    }
    k->gpu_mem_gib = p->gpu_mem_max / k->num_gpu;
}

static void task_name(const pai_task *p, char *name, size_t len)
{
    char *full = p->name[0] ? xasprintf("%s/%s", p->job, p->name) : xstrdup(p->job);
    import_copy_utf8(name, len, full);
    free(full);
}

typedef struct name_ref {
    const char *name;
    size_t index;
} name_ref;

static int cmp_name(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* Gives repeated names a "#N" suffix (N unique in the trace); a suffixed
 * name may meet an existing one, hence the rounds. */
static void unique_names(gp_trace *t)
{
    name_ref *ord = xmalloc((t->ntasks ? t->ntasks : 1) * sizeof *ord);
    unsigned suffix = 2;
    for (int round = 0; round < 16; round++) {
        for (size_t i = 0; i < t->ntasks; i++)
            ord[i] = (name_ref){t->tasks[i].name, i};
        qsort(ord, t->ntasks, sizeof *ord, cmp_name);
        int renamed = 0;
        char prev[GP_NAME_MAX] = "";
        for (size_t i = 0; i < t->ntasks; i++) {
            char *name = t->tasks[ord[i].index].name;
            if (i == 0 || strcmp(name, prev) != 0) {
                strlcpy0(prev, name, sizeof prev);
                continue;
            }
            char tag[16];
            snprintf(tag, sizeof tag, "#%u", suffix++);
            import_copy_utf8(name, GP_NAME_MAX - strlen(tag), prev);
            strcat(name, tag);
            renamed = 1;
        }
        if (!renamed)
            break;
    }
    free(ord);
}

/* When the task ran: its own times, else its instances'; the reason to
 * leave it out otherwise. */
static enum skip_reason run_times(const pai_task *p, double *start, double *end)
{
    *start = p->start > 0 ? p->start : p->inst_start;
    *end = p->end > 0 ? p->end : p->inst_end;
    if (*start <= 0)
        return NEVER_STARTED;
    if (*end <= 0)
        return UNFINISHED;
    return *end < *start ? INCONSISTENT : KEEP;
}

typedef struct kept_task {
    size_t row;
    double arrival, start, end;
} kept_task;

static int cmp_kept(const void *a, const void *b)
{
    const kept_task *x = a, *y = b;
    if (x->arrival != y->arrival)
        return (x->arrival > y->arrival) - (x->arrival < y->arrival);
    return (x->row > y->row) - (x->row < y->row);
}

static void make_task(const pai_task *p, const kept_task *kt, double base, task *k)
{
    task_init(k);
    task_name(p, k->name, sizeof k->name);
    k->arrival_s = kt->arrival - base;
    k->duration_s = kt->end - kt->start;
    set_gpu_demand(p, k);
    k->cpu_milli = llround(p->plan_cpu * 10);
    k->ram_mib = llround(p->plan_mem * 1024);
    const char *spec = k->num_gpu ? gpu_spec_of(p->gpu_type) : NULL;
    k->gpu_spec = spec ? xstrdup(spec) : NULL;
    strlcpy0(k->qos, p->status, sizeof k->qos);
    set_usage(p, k);
}

/* The tasks that ran, in arrival order; NULL with a message when none. */
static gp_trace *build_trace(const task_table *tt, const job_index *jobs, const char *name,
                             const char *source, size_t *skipped, gp_err *err)
{
    kept_task *kept = xmalloc((tt->n ? tt->n : 1) * sizeof *kept);
    size_t n = 0;
    for (size_t i = 0; i < tt->n; i++) {
        kept_task kt = {i, 0, 0, 0};
        enum skip_reason why = run_times(&tt->t[i], &kt.start, &kt.end);
        skipped[why]++;
        if (why != KEEP)
            continue;
        double submit = job_submit_time(jobs, tt->t[i].job);
        kt.arrival = submit > 0 && submit <= kt.start ? submit : kt.start;
        kept[n++] = kt;
    }
    if (n == 0) {
        free(kept);
        gp_error(err, "%s: no task to import (%zu rows: %zu never started, %zu unfinished, "
                 "%zu ended before starting)", source, tt->n, skipped[NEVER_STARTED],
                 skipped[UNFINISHED], skipped[INCONSISTENT]);
        return NULL;
    }
    qsort(kept, n, sizeof *kept, cmp_kept);
    gp_trace *t = trace_new(name);
    t->source = xstrdup(source);
    for (size_t i = 0; i < n; i++) {
        task k;
        make_task(&tt->t[kept[i].row], &kept[i], kept[0].arrival, &k);
        trace_add_task(t, &k);
        task_release(&k);
    }
    free(kept);
    unique_names(t);
    return t;
}

/* ---- inputs ------------------------------------------------------------------- */

/* Which table a file is: by name, else by its header, else (headerless, as
 * released) by its field count, which differs between the four tables. */
static int classify(const char *path)
{
    char base[64];
    import_base_name(path, base, sizeof base);
    for (int t = 0; t < NTABLES; t++)
        if (strcmp(base, tables[t].name) == 0)
            return t;
    gp_err ignore;
    csv_reader *r = csv_open(path, 0, &ignore);
    csv_row row;
    int found = -1;
    if (r && csv_next(r, &row, &ignore) == 1) {
        for (int t = 0; t < NTABLES && found < 0; t++) {
            const pai_table *tab = &tables[t];
            int header = strcmp(row.field[0], tab->cols[0].name) == 0 &&
                         row.n > 2 && find_column(&row, tab->cols[1].name) == 1 &&
                         find_column(&row, tab->cols[2].name) == 2;
            if (header || row.n == (size_t)tab->ncols)
                found = t;
        }
    }
    csv_close(r);
    return found;
}

/* The file of each table among the paths (a directory stands for the
 * pai_<table>.csv files inside it). */
static int find_inputs(const char *const *paths, size_t npaths, char **file, gp_err *err)
{
    for (size_t i = 0; i < npaths; i++) {
        char *found[NTABLES] = {NULL};
        if (import_is_dir(paths[i])) {
            for (int t = 0; t < NTABLES; t++) {
                char *base = xasprintf("%s.csv", tables[t].name);
                int rc = import_dir_file(paths[i], base, &found[t], err);
                free(base);
                if (rc) {
                    for (int k = 0; k < t; k++)
                        free(found[k]);
                    return -1;
                }
            }
        } else if (access(paths[i], R_OK) != 0) {
            return gp_error(err, "%s: cannot open: %s", paths[i], strerror(errno));
        } else {
            int t = classify(paths[i]);
            if (t < 0)
                return gp_error(err, "%s: not a PAI 2020 table (expected pai_job_table.csv, "
                                "pai_task_table.csv, pai_instance_table.csv or "
                                "pai_sensor_table.csv, or their documented columns)", paths[i]);
            found[t] = xstrdup(paths[i]);
        }
        for (int t = 0; t < NTABLES; t++) {
            if (found[t] && file[t]) {
                gp_error(err, "%s: a second %s (already have %s)", found[t], tables[t].name,
                         file[t]);
                for (int k = 0; k < NTABLES; k++)
                    free(found[k]);
                return -1;
            }
        }
        for (int t = 0; t < NTABLES; t++)
            if (found[t])
                file[t] = found[t];
    }
    if (!file[TASK_TABLE])
        return gp_error(err, "pai: expected pai_task_table.csv among the inputs (the other "
                        "tables only add to its tasks)");
    return 0;
}

static int pai_run(store *st, const char *const *paths, size_t npaths,
                   const import_opts *opts, import_result *res, gp_err *err)
{
    char *file[NTABLES] = {NULL};
    job_index jobs = {0};
    task_table tt = {0};
    gp_trace *t = NULL;
    size_t skipped[NSKIP] = {0};
    int rc = find_inputs(paths, npaths, file, err);
    if (rc == 0 && file[JOB_TABLE])
        rc = read_jobs(file[JOB_TABLE], &jobs, err);
    if (rc == 0)
        rc = read_tasks(file[TASK_TABLE], &tt, err);
    if (rc == 0)
        index_tasks(&tt);
    if (rc == 0 && file[INST_TABLE])
        rc = read_joined(file[INST_TABLE], INST_TABLE, &tt, err);
    if (rc == 0 && file[SENSOR_TABLE])
        rc = read_joined(file[SENSOR_TABLE], SENSOR_TABLE, &tt, err);
    if (rc == 0) {
        char name[GP_NAME_MAX] = "pai";
        if (npaths == 1 && import_is_dir(paths[0]))
            import_base_name(paths[0], name, sizeof name);
        t = build_trace(&tt, &jobs, opts->name ? opts->name : name, file[TASK_TABLE],
                        skipped, err);
        rc = t ? import_put_trace(st, t, opts->replace, res, err) : -1;
    }
    if (rc == 0) {
        import_note_skipped(res, &skipped[NEVER_STARTED], &skip_words[NEVER_STARTED],
                            NSKIP - NEVER_STARTED);
    }
    trace_free(t);
    tasks_free(&tt);
    jobs_free(&jobs);
    for (int k = 0; k < NTABLES; k++)
        free(file[k]);
    return rc;
}

/* 95 when the task table is named (or a directory holds it) or shows its
 * documented header; 60 for the other PAI tables alone (they cannot be
 * imported without the task table).  Headerless files under other names
 * are not claimed: give --type pai. */
static int pai_detect(const char *const *paths, size_t npaths)
{
    int best = 0;
    for (size_t i = 0; i < npaths; i++) {
        char base[64], line[128];
        int score = 0;
        import_base_name(paths[i], base, sizeof base);
        if (import_is_dir(paths[i])) {
            char *p = xasprintf("%s/%s.csv", paths[i], tables[TASK_TABLE].name);
            score = import_present(p) ? 95 : 0;
            free(p);
        } else if (strcmp(base, tables[TASK_TABLE].name) == 0) {
            score = 95;
        } else if (import_first_line(paths[i], line, sizeof line) == 0 &&
                   strncmp(line, "job_name,task_name,inst_num,", 28) == 0) {
            score = 95;
        } else {
            for (int t = 0; t < NTABLES; t++)
                if (strcmp(base, tables[t].name) == 0)
                    score = 60;
        }
        if (score > best)
            best = score;
    }
    return best;
}

const importer import_pai = {
    .format = "pai",
    .summary = "Alibaba PAI GPU trace 2020 (cluster-trace-gpu-v2020): one task per task row",
    .inputs = "pai_task_table.csv [pai_job_table.csv pai_instance_table.csv "
              "pai_sensor_table.csv], or a DIR holding them",
    .detect = pai_detect,
    .run = pai_run,
};
