/*
 * import_native.c — the native CSV set (SPEC §4.2; columns in gpuplan(1)):
 * a directory holding any of gpus.csv, cpus.csv, nodes.csv, tasks.csv,
 * util.csv, trace.csv, tput.csv, placements.csv and readings.csv.  nodes.csv
 * makes a cluster, tasks.csv (+ util.csv) a trace, trace.csv (one row:
 * ref_gpu) says what GPU the trace was measured on, tput.csv a throughput
 * catalog, placements.csv turns the tasks into a snapshot of the cluster
 * (whose tasks.csv may then have no rows: an idle cluster) and readings.csv
 * gives that snapshot the monitors' readings, so an exported snapshot
 * imports whole.  All are named after the directory unless --name is given.
 *
 * Names are unique within their file (GPU and CPU profiles, nodes, tasks),
 * and nodes.csv and tasks.csv, when present, hold at least one row: a
 * repeated name would leave which row counts to chance, an empty table
 * would make an empty cluster or trace.  util.csv and placements.csv find
 * their tasks and nodes through the sorted names, so an import is
 * O(n log n) in the rows.
 *
 * The trace (tasks.csv, util.csv) is streamed (import_native_trace.c):
 * read once, under the write lock, each task stored as it is checked and
 * the whole import rolled back at the first refusal, never held whole;
 * only a snapshot's tasks, which placements.csv refers to, are parsed
 * into memory.
 *
 * This is the format of sample-data/ and of `gpuplan export`.
 */
#include "import_native_int.h"
#include "set_manifest.h"
#include "opsnap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BIG 1e12                /* "huge" bound for counts and sizes */

/* A table being read into dest (a catalog, cluster or trace), with each
 * row's line kept for the checks by name made once the table is read (the
 * model's arrays move while they grow, so names are taken afterwards). */
typedef struct table_read {
    void *dest;
    import_name *names;         /* one per row, sorted by name once read */
    size_t n, cap;
} table_read;

static void note_row(table_read *t, const csv_row *row)
{
    grow_array((void **)&t->names, &t->cap, t->n + 1, sizeof *t->names);
    t->names[t->n] = (import_name){NULL, row->line, t->n};
    t->n++;
}

/* The name of item i of a table's dest. */
typedef const char *(*item_name_fn)(const void *dest, size_t i);

/* Once a table is read: at least one row when need_rows, and unique
 * names (which leaves t->names sorted for lookups). */
static int check_table(table_read *t, const char *path, const char *what, int need_rows,
                       item_name_fn name_of, gp_err *err)
{
    if (need_rows && t->n == 0)
        return gp_error(err, "%s:2:1: no rows (expected %s rows after the header)", path,
                        what);
    for (size_t i = 0; i < t->n; i++)
        t->names[i].name = name_of(t->dest, i);
    return import_check_unique(path, what, t->names, t->n, err);
}

static const char *gpu_name(const void *dest, size_t i)
{
    return ((const catalog *)dest)->gpus[i].name;
}

static const char *cpu_name(const void *dest, size_t i)
{
    return ((const catalog *)dest)->cpus[i].name;
}

static const char *node_name(const void *dest, size_t i)
{
    return ((const cluster *)dest)->nodes[i].name;
}

static const char *task_name(const void *dest, size_t i)
{
    return ((const gp_trace *)dest)->tasks[i].name;
}

/* csv_each() over one table of the set, then check_table(). */
static int read_table(const char *path, const char *const *req, const char *const *opt,
                      csv_row_fn fn, table_read *t, const char *what, int need_rows,
                      item_name_fn name_of, gp_err *err)
{
    return csv_each(path, req, opt, fn, t, err) ||
           check_table(t, path, what, need_rows, name_of, err) ? -1 : 0;
}

static int gpu_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                   const int *o, gp_err *err)
{
    gpu_profile g = {0};
    g.beta = 0.91;
    g.speed = 1;
    g.price_usd = NAN;          /* no column, or an empty field: unknown */
    int priced = o[3] >= 0 && row->field[o[3]][0];
    if (csv_text(r, row, c[0], g.name, sizeof g.name, err) ||
        csv_real(r, row, c[1], 1e-3, 1e6, &g.mem_gib, err) ||
        csv_real(r, row, c[2], 0, 1e5, &g.idle_w, err) ||
        csv_real(r, row, c[3], g.idle_w, 1e5, &g.max_w, err) ||
        csv_real(r, row, c[4], 1, 1e5, &g.f_min_mhz, err) ||
        csv_real(r, row, c[5], g.f_min_mhz, 1e5, &g.f_max_mhz, err) ||
        (o[0] >= 0 && csv_real(r, row, o[0], 0, 1e5, &g.sleep_w, err)) ||
        (o[1] >= 0 && csv_real(r, row, o[1], 0, 1e3, &g.alpha_w_per_mhz, err)) ||
        (o[2] >= 0 && csv_real(r, row, o[2], 1e-3, 10, &g.beta, err)) ||
        (priced && csv_real(r, row, o[3], 0, 1e9, &g.price_usd, err)) ||
        (o[4] >= 0 && csv_text(r, row, o[4], g.tput_class, sizeof g.tput_class, err)) ||
        (o[5] >= 0 && csv_real(r, row, o[5], 1e-3, 1e3, &g.speed, err)) ||
        (o[6] >= 0 && csv_text(r, row, o[6], g.price_source, sizeof g.price_source, err)))
        return -1;
    if (!g.name[0])
        return csv_fail(r, row, c[0], err, "column 'name': expected a profile name");
    if (o[1] < 0)   /* no slope given: reach max_w at f_max */
        g.alpha_w_per_mhz = (g.max_w - g.idle_w) / g.f_max_mhz;
    table_read *t = ctx;
    note_row(t, row);
    catalog_add_gpu(t->dest, &g);
    return 0;
}

static int parse_gpus(const char *path, catalog *cat, gp_err *err)
{
    static const char *const req[] = {"name", "mem_gib", "idle_w", "max_w", "f_min_mhz",
                                      "f_max_mhz", NULL};
    static const char *const opt[] = {"sleep_w", "alpha_w_per_mhz", "beta", "price_usd",
                                      "tput_class", "speed", "price_source", NULL};
    table_read t = {cat, NULL, 0, 0};
    int rc = read_table(path, req, opt, gpu_row, &t, "GPU profile", 0, gpu_name, err);
    free(t.names);
    return rc;
}

static int cpu_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                   const int *o, gp_err *err)
{
    (void)o;
    cpu_profile p = {0};
    int64_t cores;
    if (csv_text(r, row, c[0], p.name, sizeof p.name, err) ||
        csv_int(r, row, c[1], 1, 4096, &cores, err) ||
        csv_real(r, row, c[2], 0, 1e5, &p.idle_w, err) ||
        csv_real(r, row, c[3], p.idle_w, 1e5, &p.max_w, err))
        return -1;
    p.cores = (int)cores;
    if (!p.name[0])
        return csv_fail(r, row, c[0], err, "column 'name': expected a profile name");
    table_read *t = ctx;
    note_row(t, row);
    catalog_add_cpu(t->dest, &p);
    return 0;
}

static int parse_cpus(const char *path, catalog *cat, gp_err *err)
{
    static const char *const req[] = {"name", "cores", "idle_w", "max_w", NULL};
    table_read t = {cat, NULL, 0, 0};
    int rc = read_table(path, req, NULL, cpu_row, &t, "CPU profile", 0, cpu_name, err);
    free(t.names);
    return rc;
}

/* "16|16|32" into per-device memory; the count must match gpu_count. */
static int parse_dev_mem(const csv_reader *r, const csv_row *row, int col, node *n, gp_err *err)
{
    const char *s = row->field[col];
    if (!*s)
        return 0;
    int i = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save), i++) {
        double v;
        if (i >= n->gpu_count || i >= GP_NODE_MAX_GPUS || parse_double(tok, &v) || v <= 0 ||
            v > 1e6) {
            free(copy);
            return csv_fail(r, row, col, err, "column 'gpu_mem_gib': expected %d positive "
                            "sizes separated by '|', got '%.40s'", n->gpu_count, s);
        }
        n->gpu_mem_gib[i] = v;
    }
    free(copy);
    if (i != n->gpu_count)
        return csv_fail(r, row, col, err, "column 'gpu_mem_gib': %d sizes for %d GPUs", i,
                        n->gpu_count);
    return 0;
}

static int node_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    node n;
    memset(&n, 0, sizeof n);
    int64_t count;
    if (csv_text(r, row, c[0], n.name, sizeof n.name, err) ||
        csv_text(r, row, c[1], n.gpu_model, sizeof n.gpu_model, err) ||
        csv_int(r, row, c[2], 0, GP_NODE_MAX_GPUS, &count, err) ||
        csv_int(r, row, c[3], 0, (int64_t)BIG, &n.cpu_milli, err) ||
        csv_int(r, row, c[4], 0, (int64_t)BIG, &n.ram_mib, err) ||
        (o[0] >= 0 && csv_text(r, row, o[0], n.cpu_model, sizeof n.cpu_model, err)) ||
        (o[1] >= 0 && csv_real(r, row, o[1], 0, 1e6, &n.static_w, err)) ||
        (o[2] >= 0 && csv_real(r, row, o[2], 0, 1e6, &n.other_w, err)))
        return -1;
    n.gpu_count = (int)count;
    if (o[3] >= 0 && parse_dev_mem(r, row, o[3], &n, err))
        return -1;
    if (count > 0 && !n.gpu_model[0])
        return csv_fail(r, row, c[1], err, "column 'gpu_model': expected a GPU model for %d "
                        "GPUs", n.gpu_count);
    if (!n.name[0])
        return csv_fail(r, row, c[0], err, "column 'name': expected a node name");
    table_read *t = ctx;
    note_row(t, row);
    cluster_add_node(t->dest, &n);
    return 0;
}

/* nodes.csv into t->dest (a cluster); t->names then finds nodes by name. */
static int parse_nodes(const char *path, table_read *t, gp_err *err)
{
    static const char *const req[] = {"name", "gpu_model", "gpu_count", "cpu_milli",
                                      "ram_mib", NULL};
    static const char *const opt[] = {"cpu_model", "static_w", "other_w", "gpu_mem_gib", NULL};
    return read_table(path, req, opt, node_row, t, "node", 1, node_name, err);
}

enum { T_NAME, T_ARRIVAL, T_DURATION };
enum {
    T_NUM_GPU, T_GPU_MILLI, T_GPU_MEM, T_CPU, T_RAM, T_SPEC, T_QOS, T_KAPPA, T_MODEL,
    T_BATCH, T_MIN_TPUT, T_MEAN, T_PEAK, T_FIRST, T_PERIOD, T_NOPT
};

/* Reads the optional task columns; absent ones keep task_init() defaults. */
static int task_optional(const csv_reader *r, const csv_row *row, const int *o, task *k,
                         gp_err *err)
{
    int64_t v;
    if (o[T_NUM_GPU] >= 0) {
        if (csv_int(r, row, o[T_NUM_GPU], 0, 16, &v, err))
            return -1;
        k->num_gpu = (int)v;
    }
    if (o[T_GPU_MILLI] >= 0) {
        if (csv_int(r, row, o[T_GPU_MILLI], 0, 1000, &v, err))
            return -1;
        k->gpu_milli = (int)v;
    }
    if (k->num_gpu == 0)
        k->gpu_milli = o[T_GPU_MILLI] >= 0 ? k->gpu_milli : 0;
    if ((k->num_gpu == 0 && k->gpu_milli != 0) || (k->num_gpu > 1 && k->gpu_milli != 1000) ||
        (k->num_gpu == 1 && k->gpu_milli == 0))
        return csv_fail(r, row, o[T_GPU_MILLI] >= 0 ? o[T_GPU_MILLI] : o[T_NUM_GPU], err,
                        "gpu_milli %d does not go with num_gpu %d (expected 0 for CPU-only "
                        "tasks, 1..1000 for one GPU, 1000 for several)", k->gpu_milli,
                        k->num_gpu);
    if ((o[T_GPU_MEM] >= 0 && csv_real(r, row, o[T_GPU_MEM], 0, 1e6, &k->gpu_mem_gib, err)) ||
        (o[T_CPU] >= 0 && csv_int(r, row, o[T_CPU], 0, (int64_t)BIG, &k->cpu_milli, err)) ||
        (o[T_RAM] >= 0 && csv_int(r, row, o[T_RAM], 0, (int64_t)BIG, &k->ram_mib, err)) ||
        (o[T_QOS] >= 0 && csv_text(r, row, o[T_QOS], k->qos, sizeof k->qos, err)) ||
        (o[T_KAPPA] >= 0 && csv_real(r, row, o[T_KAPPA], 1, 1e6, &k->kappa, err)) ||
        (o[T_MODEL] >= 0 && csv_text(r, row, o[T_MODEL], k->model, sizeof k->model, err)) ||
        (o[T_MIN_TPUT] >= 0 && csv_real(r, row, o[T_MIN_TPUT], 0, BIG, &k->min_tput, err)) ||
        (o[T_MEAN] >= 0 && csv_real(r, row, o[T_MEAN], 0, 100, &k->util_mean, err)) ||
        (o[T_PEAK] >= 0 && csv_real(r, row, o[T_PEAK], 0, 100, &k->util_peak, err)) ||
        (o[T_FIRST] >= 0 && csv_real(r, row, o[T_FIRST], 0, 100, &k->util_first, err)) ||
        (o[T_PERIOD] >= 0 && csv_real(r, row, o[T_PERIOD], 0, 1e6, &k->util.period_s, err)))
        return -1;
    if (o[T_BATCH] >= 0) {
        if (csv_int(r, row, o[T_BATCH], 0, 1 << 24, &v, err))
            return -1;
        k->batch_size = (int)v;
    }
    if (o[T_SPEC] >= 0 && row->field[o[T_SPEC]][0])
        k->gpu_spec = xstrdup(row->field[o[T_SPEC]]);
    return 0;
}

int native_task_parse(const csv_reader *r, const csv_row *row, const int *c, const int *o,
                      task *k, gp_err *err)
{
    if (csv_text(r, row, c[T_NAME], k->name, sizeof k->name, err) ||
        csv_real(r, row, c[T_ARRIVAL], 0, 1e10, &k->arrival_s, err) ||
        csv_real(r, row, c[T_DURATION], 0, 1e10, &k->duration_s, err) ||
        task_optional(r, row, o, k, err))
        return -1;
    if (!k->name[0])
        return csv_fail(r, row, c[T_NAME], err, "column 'name': expected a task name");
    return 0;
}

static int task_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    task k;
    task_init(&k);
    int rc = native_task_parse(r, row, c, o, &k, err);
    if (rc == 0) {
        table_read *t = ctx;
        note_row(t, row);
        trace_add_task(t->dest, &k);
    }
    task_release(&k);
    return rc;
}

const char *const native_task_req[] = {"name", "arrival_s", "duration_s", NULL};
const char *const native_task_opt[] = {"num_gpu", "gpu_milli", "gpu_mem_gib", "cpu_milli",
                                       "ram_mib", "gpu_spec", "qos", "kappa", "model",
                                       "batch_size", "min_tput", "util_mean", "util_peak",
                                       "util_first", "util_period_s", NULL};

/* tasks.csv into t->dest (a trace); t->names then finds tasks by name. */
/* need_rows: a trace has tasks; a snapshot of an idle cluster has none. */
static int parse_tasks(const char *path, table_read *t, int need_rows, gp_err *err)
{
    return read_table(path, native_task_req, native_task_opt, task_row, t, "task", need_rows,
                      task_name, err);
}

/* The index of the item named name in a table read, or -1. */
static int find_row(const table_read *t, const char *name)
{
    const import_name *e = import_find_name(t->names, t->n, name);
    return e ? (int)e->index : -1;
}

/* The line of tasks.csv that made task i. */
static long task_line(const table_read *t, int i)
{
    for (size_t k = 0; k < t->n; k++)
        if (t->names[k].index == (size_t)i)
            return t->names[k].line;
    return 0;
}

const char *const native_util_req[] = {"task", "sample", "pct", NULL};

int native_util_parse(const csv_reader *r, const csv_row *row, const int *c, int64_t *sample,
                      double *pct, gp_err *err)
{
    return csv_int(r, row, c[1], 0, (int64_t)BIG, sample, err) ||
           csv_real(r, row, c[2], 0, 100, pct, err) ? -1 : 0;
}

/* util.csv's reading state: the task whose block is being read. */
typedef struct util_read {
    gp_trace *t;
    const table_read *tasks;    /* tasks.csv's names */
    float *buf;
    size_t len, cap;
    int cur;
} util_read;

static void util_flush(util_read *u)
{
    if (u->cur >= 0)
        task_set_util(&u->t->tasks[u->cur], u->buf, u->len, u->t->tasks[u->cur].util.period_s);
}

static int util_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    (void)o;
    util_read *u = ctx;
    int64_t sample;
    double pct;
    if (native_util_parse(r, row, c, &sample, &pct, err))
        return -1;
    int ti = u->cur >= 0 && strcmp(u->t->tasks[u->cur].name, row->field[c[0]]) == 0
             ? u->cur : find_row(u->tasks, row->field[c[0]]);
    if (ti < 0)
        return csv_fail(r, row, c[0], err, "column 'task': no task named '%.40s' in "
                        "tasks.csv", row->field[c[0]]);
    if (ti != u->cur) {
        util_flush(u);
        if (u->t->tasks[ti].util.len)
            return csv_fail(r, row, c[0], err, "column 'task': samples of '%s' are not "
                            "contiguous (expected one block per task)", u->t->tasks[ti].name);
        u->cur = ti;
        u->len = 0;
        if (u->t->tasks[ti].util.period_s <= 0)
            return csv_fail(r, row, c[0], err, NATIVE_NO_PERIOD, u->t->tasks[ti].name,
                            task_line(u->tasks, ti));
    }
    if ((size_t)sample != u->len)
        return csv_fail(r, row, c[1], err, "column 'sample': expected %zu, got %lld", u->len,
                        (long long)sample);
    grow_array((void **)&u->buf, &u->cap, u->len + 1, sizeof *u->buf);
    u->buf[u->len++] = (float)pct;
    return 0;
}

/* util.csv: task,sample,pct with samples 0,1,2,... in order per task. */
static int parse_util(const char *path, const table_read *tasks, gp_err *err)
{
    gp_trace *t = tasks->dest;
    util_read u = {t, tasks, NULL, 0, 0, -1};
    int rc = csv_each(path, native_util_req, NULL, util_row, &u, err);
    if (rc == 0)
        util_flush(&u);
    free(u.buf);
    return rc;
}

static int tput_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    int64_t batch, scale, cob = 0, cos = 0;
    if (csv_text(r, row, c[0], e.accel, sizeof e.accel, err) ||
        csv_text(r, row, c[1], e.model, sizeof e.model, err) ||
        csv_int(r, row, c[2], 0, 1 << 24, &batch, err) ||
        csv_int(r, row, c[3], 1, 1024, &scale, err) ||
        csv_real(r, row, c[4], 0, BIG, &e.tput, err) ||
        (o[0] >= 0 && csv_text(r, row, o[0], e.co_model, sizeof e.co_model, err)) ||
        (o[1] >= 0 && e.co_model[0] && csv_int(r, row, o[1], 0, 1 << 24, &cob, err)) ||
        (o[2] >= 0 && e.co_model[0] && csv_int(r, row, o[2], 1, 1024, &cos, err)) ||
        (o[3] >= 0 && e.co_model[0] && csv_real(r, row, o[3], 0, BIG, &e.co_tput, err)))
        return -1;
    e.batch_size = (int)batch;
    e.scale = (int)scale;
    e.co_batch_size = (int)cob;
    e.co_scale = (int)cos;
    tput_catalog_add(ctx, &e);
    return 0;
}

static int parse_tput(const char *path, tput_catalog *cat, gp_err *err)
{
    static const char *const req[] = {"accel", "model", "batch_size", "scale", "tput", NULL};
    static const char *const opt[] = {"co_model", "co_batch_size", "co_scale", "co_tput", NULL};
    return csv_each(path, req, opt, tput_row, cat, err);
}

typedef struct place_read {
    const cluster *cl;
    snapshot *sn;
    const table_read *nodes, *tasks;     /* their names */
} place_read;

static int place_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                     const int *o, gp_err *err)
{
    (void)o;
    const place_read *pr = ctx;
    placement_row p;
    int64_t gpu, milli;
    p.task = find_row(pr->tasks, row->field[c[0]]);
    p.node = find_row(pr->nodes, row->field[c[1]]);
    if (p.task < 0)
        return csv_fail(r, row, c[0], err, "column 'task': no task named '%.40s'",
                        row->field[c[0]]);
    if (p.node < 0)
        return csv_fail(r, row, c[1], err, "column 'node': no node named '%.40s'",
                        row->field[c[1]]);
    if (csv_int(r, row, c[2], -1, pr->cl->nodes[p.node].gpu_count - 1, &gpu, err) ||
        csv_int(r, row, c[3], 0, 1000, &milli, err))
        return -1;
    p.gpu = (int)gpu;
    p.gpu_milli = (int)milli;
    snapshot_add_row(pr->sn, &p);
    return 0;
}

/* readings.csv: node,gpu and what the monitors read there (an empty cell:
 * not read), within the bounds every monitor's importer holds readings to
 * (opsnap.h); mem_total_mib is the node's, written for the reader, and
 * left.  A device read twice is an error. */
typedef struct reading_read {
    const cluster *cl;
    snapshot *sn;
    const table_read *nodes;
} reading_read;

static int reading_value(const csv_reader *r, const csv_row *row, int col, double max,
                         double *out, gp_err *err)
{
    *out = NAN;
    if (col < 0 || row->field[col][0] == '\0')
        return 0;
    return csv_real(r, row, col, 0, max, out, err);
}

static int reading_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                       const int *o, gp_err *err)
{
    const reading_read *rr = ctx;
    gpu_reading g;
    int64_t gpu;
    g.node = find_row(rr->nodes, row->field[c[0]]);
    if (g.node < 0)
        return csv_fail(r, row, c[0], err, "column 'node': no node named '%.60s'",
                        row->field[c[0]]);
    if (csv_int(r, row, c[1], 0, rr->cl->nodes[g.node].gpu_count - 1, &gpu, err) ||
        reading_value(r, row, o[0], 100, &g.util_pct, err) ||
        reading_value(r, row, o[1], OPSNAP_MAX_POWER_W, &g.power_w, err) ||
        reading_value(r, row, o[2], OPSNAP_MAX_CLOCK_MHZ, &g.clock_mhz, err) ||
        reading_value(r, row, o[3], OPSNAP_MAX_MEM_MIB, &g.mem_used_mib, err))
        return -1;
    g.gpu = (int)gpu;
    if (snapshot_reading(rr->sn, g.node, g.gpu))
        return csv_fail(r, row, c[1], err, "GPU %d of node '%.60s' is read twice", g.gpu,
                        row->field[c[0]]);
    snapshot_add_reading(rr->sn, &g);
    return 0;
}

static int parse_readings(const char *path, const table_read *nodes, snapshot *sn, gp_err *err)
{
    static const char *const req[] = {"node", "gpu", NULL};
    static const char *const opt[] = {"util_pct", "power_w", "clock_mhz", "mem_used_mib",
                                      "mem_total_mib", NULL};
    reading_read rr = {nodes->dest, sn, nodes};
    return csv_each(path, req, opt, reading_row, &rr, err);
}

/* placements.csv: task,node,gpu,gpu_milli — where each running task sits. */
static int parse_placements(const char *path, const table_read *nodes,
                            const table_read *tasks, snapshot *sn, gp_err *err)
{
    static const char *const req[] = {"task", "node", "gpu", "gpu_milli", NULL};
    place_read pr = {nodes->dest, sn, nodes, tasks};
    return csv_each(path, req, NULL, place_row, &pr, err);
}

static int store_profiles(store *st, catalog *cat, import_result *res, gp_err *err)
{
    for (size_t i = 0; i < cat->ngpus; i++)
        if (store_put_gpu_profile(st, &cat->gpus[i], err))
            return -1;
    for (size_t i = 0; i < cat->ncpus; i++)
        if (store_put_cpu_profile(st, &cat->cpus[i], err))
            return -1;
    res->gpu_profiles += cat->ngpus;
    res->cpu_profiles += cat->ncpus;
    return 0;
}

int import_native_profiles(store *st, const char *dir, import_result *res, gp_err *err)
{
    catalog *cat = catalog_new();
    char *gpus = NULL, *cpus = NULL;
    int rc = import_dir_file(dir, "gpus.csv", &gpus, err) ||
             import_dir_file(dir, "cpus.csv", &cpus, err) ||
             (gpus && parse_gpus(gpus, cat, err)) || (cpus && parse_cpus(cpus, cat, err)) ||
             store_profiles(st, cat, res, err) ? -1 : 0;
    free(gpus);
    free(cpus);
    catalog_free(cat);
    return rc;
}

typedef struct native_set {
    char ref_gpu[GP_NAME_MAX];  /* trace.csv's, "" when absent */
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    tput_catalog *tp;
    snapshot *sn;
    native_trace *nt;           /* the trace, streamed (when no snapshot needs it held) */
    table_read nodes, tasks;    /* the names of cl's nodes and tr's tasks */
} native_set;

static void set_free(native_set *s)
{
    free(s->nodes.names);
    free(s->tasks.names);
    catalog_free(s->cat);
    cluster_free(s->cl);
    trace_free(s->tr);
    tput_catalog_free(s->tp);
    snapshot_free(s->sn);
    native_trace_free(s->nt);
}

/* trace.csv: the one row of the trace's own facts. */
static int trace_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                     const int *o, gp_err *err)
{
    (void)o;
    native_set *s = ctx;
    if (s->ref_gpu[0])
        return csv_fail(r, row, c[0], err, "trace.csv holds one row");
    if (csv_text(r, row, c[0], s->ref_gpu, sizeof s->ref_gpu, err))
        return -1;
    if (!s->ref_gpu[0])
        return csv_fail(r, row, c[0], err, "column 'ref_gpu': expected a GPU profile name");
    return 0;
}

static int parse_trace_facts(const char *path, native_set *s, gp_err *err)
{
    static const char *const req[] = {"ref_gpu", NULL};
    return csv_each(path, req, NULL, trace_row, s, err);
}

/* tasks.csv (+ util.csv) into a trace held in memory, for a snapshot. */
static int parse_trace(const char *tasks, const char *util, const char *dir, const char *name,
                       int need_rows, native_set *s, gp_err *err)
{
    s->tr = trace_new(name);
    s->tr->source = xstrdup(dir);
    s->tasks.dest = s->tr;
    return parse_tasks(tasks, &s->tasks, need_rows, err) ||
           (util && parse_util(util, &s->tasks, err)) ? -1 : 0;
}

int native_parse_trace(const char *dir, const char *name, gp_trace **out, gp_err *err)
{
    native_set s = {0};
    char *tasks = NULL, *util = NULL;
    int rc = import_dir_file(dir, "tasks.csv", &tasks, err) ||
             import_dir_file(dir, "util.csv", &util, err) ? -1 : 0;
    if (rc == 0 && !tasks)
        rc = gp_error(err, "%s: no tasks.csv", dir);
    if (rc == 0)
        rc = parse_trace(tasks, util, dir, name, 1, &s, err);
    *out = rc ? NULL : s.tr;
    if (rc == 0)
        s.tr = NULL;
    free(tasks);
    free(util);
    set_free(&s);
    return rc;
}

/* Parses every file of the set present in dir; the trace's files are
 * left to be streamed into the store by write_set(), unless a snapshot
 * needs its tasks held. */
static int parse_set(const char *dir, const char *name, const import_opts *opts, native_set *s,
                     gp_err *err)
{
    static const char *const files[] = {"gpus.csv", "cpus.csv", "nodes.csv", "tasks.csv",
                                        "util.csv", "tput.csv", "placements.csv",
                                        "readings.csv", "trace.csv"};
    enum { NFILES = sizeof files / sizeof *files };
    char *p[NFILES] = {NULL};
    int any = 0, rc = 0;
    for (int i = 0; i < NFILES && !rc; i++) {
        rc = import_dir_file(dir, files[i], &p[i], err);
        any |= p[i] != NULL;
    }
    s->cat = catalog_new();
    if (!rc && !any)
        rc = gp_error(err, "%s: no native files (gpus.csv, cpus.csv, nodes.csv, tasks.csv, "
                      "util.csv, tput.csv, placements.csv, readings.csv, trace.csv)", dir);
    if (!rc && p[4] && !p[3])
        rc = gp_error(err, "%s: util.csv needs tasks.csv", dir);
    if (!rc && p[6] && (!p[3] || !p[2]))
        rc = gp_error(err, "%s: placements.csv needs nodes.csv and tasks.csv", dir);
    if (!rc && p[7] && !p[6])
        rc = gp_error(err, "%s: readings.csv needs placements.csv (it is a snapshot's)", dir);
    if (!rc && p[8] && !p[3])
        rc = gp_error(err, "%s: trace.csv needs tasks.csv", dir);
    if (!rc && p[8])
        rc = parse_trace_facts(p[8], s, err);
    if (!rc && p[0])
        rc = parse_gpus(p[0], s->cat, err);
    if (!rc && p[1])
        rc = parse_cpus(p[1], s->cat, err);
    if (!rc && p[2]) {
        s->cl = cluster_new(name);
        s->cl->source = xstrdup(dir);
        s->nodes.dest = s->cl;
        rc = parse_nodes(p[2], &s->nodes, err);
    }
    if (!rc && p[3] && p[6])
        rc = parse_trace(p[3], p[4], dir, name, 0, s, err);
    else if (!rc && p[3])
        s->nt = native_trace_new(p[3], p[4], opts);
    if (!rc && s->tr)
        strlcpy0(s->tr->ref_gpu, s->ref_gpu, sizeof s->tr->ref_gpu);
    if (!rc && p[5]) {
        s->tp = tput_catalog_new(name);
        s->tp->source = xstrdup(dir);
        rc = parse_tput(p[5], s->tp, err);
    }
    if (!rc && p[6]) {
        s->sn = snapshot_new(name);
        strlcpy0(s->sn->cluster_name, name, sizeof s->sn->cluster_name);
        trace_free(s->sn->tasks);
        s->sn->tasks = s->tr;
        s->tr = NULL;
        rc = parse_placements(p[6], &s->nodes, &s->tasks, s->sn, err);
        if (!rc && p[7])
            rc = parse_readings(p[7], &s->nodes, s->sn, err);
    }
    for (int i = 0; i < NFILES; i++)
        free(p[i]);
    return rc;
}

static int write_set(store *st, native_set *s, const char *dir, const char *name, int replace,
                     import_result *res, gp_err *err)
{
    if (store_profiles(st, s->cat, res, err))
        return -1;
    if ((s->cl && import_put_cluster(st, s->cl, replace, res, err)) ||
        (s->tr && import_put_trace(st, s->tr, replace, res, err)) ||
        (s->nt && native_trace_write(s->nt, st, name, dir, s->ref_gpu, replace, res, err)) ||
        (s->tp && import_put_tput(st, s->tp, replace, res, err)))
        return -1;
    if (s->sn) {
        if (store_put_snapshot(st, s->sn, replace, err))
            return -1;
        res->snapshots++;
        res->tasks += s->sn->tasks->ntasks;
        import_note(res, "snapshot", s->sn->name);
    }
    return 0;
}

/* The trace's files, streamed (tasks.csv without placements.csv), are
 * hashed for the manifest as they are read: the files of the set listed
 * in its manifest whose digest is checked afterwards. */
static const char *const *streamed_files(const char *dir)
{
    static const char *const files[] = {"tasks.csv", "util.csv", NULL};
    char *tasks = xasprintf("%s/tasks.csv", dir), *place = xasprintf("%s/placements.csv", dir);
    int streamed = import_present(tasks) && !import_present(place);
    free(tasks);
    free(place);
    return streamed ? files : NULL;
}

/* The streamed files' digests, as read, against the manifest's rows. */
static int check_streamed(const char *dir, const set_manifest *m, const native_trace *nt,
                          gp_err *err)
{
    static const char *const files[] = {"tasks.csv", "util.csv"};
    for (int i = 0; i < 2; i++) {
        const set_entry *e = set_manifest_find((set_manifest *)m, files[i]);
        int64_t bytes;
        uint64_t digest;
        if (e && (native_trace_digest(nt, i, &bytes, &digest) || bytes != e->bytes ||
                  digest != e->digest))
            return gp_error(err, "%s/%s: changed while it was imported (import it again)",
                            dir, files[i]);
    }
    return 0;
}

static int native_run(store *st, const char *const *paths, size_t npaths,
                      const import_opts *opts, import_result *res, gp_err *err)
{
    if (npaths != 1 || !import_is_dir(paths[0]))
        return gp_error(err, "native: expected one directory holding the CSV set");
    set_manifest m = {0};
    int rc = set_manifest_check_except(paths[0], streamed_files(paths[0]), &m, err);
    char name[GP_NAME_MAX];
    if (opts->name)
        strlcpy0(name, opts->name, sizeof name);
    else
        import_base_name(paths[0], name, sizeof name);
    native_set s = {0};
    if (rc == 0)
        rc = parse_set(paths[0], name, opts, &s, err);
    if (rc == 0)
        rc = write_set(st, &s, paths[0], name, opts->replace, res, err);
    if (rc == 0 && s.nt && m.n)
        rc = check_streamed(paths[0], &m, s.nt, err);
    /* A set that does not match its manifest is refused as that, before
     * anything in its files: the whole check, reading every file again,
     * says so only when the import fails anyway. */
    gp_err whole;
    if (rc && m.n && set_manifest_check(paths[0], &whole))
        *err = whole;
    set_manifest_free(&m);
    set_free(&s);
    return rc;
}

static int native_detect(const char *const *paths, size_t npaths)
{
    if (npaths != 1 || !import_is_dir(paths[0]))
        return 0;
    static const char *const files[] = {"nodes.csv", "tasks.csv", "gpus.csv", "tput.csv"};
    for (int i = 0; i < 4; i++) {
        char *p = xasprintf("%s/%s", paths[0], files[i]);
        int ok = import_present(p);
        free(p);
        if (ok)
            return 90;
    }
    return 0;
}

const importer import_native = {
    .format = "native",
    .summary = "gpuplan's own CSV set (the format of sample-data/ and export)",
    .inputs = "DIR holding gpus.csv cpus.csv nodes.csv tasks.csv util.csv tput.csv "
              "placements.csv readings.csv (any of them)",
    .detect = native_detect,
    .run = native_run,
};
