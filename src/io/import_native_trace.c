/*
 * import_native_trace.c — the native set's trace (tasks.csv and util.csv)
 * streamed into the store, for traces too large to hold (a million tasks
 * with hundreds of samples each is gigabytes as model objects).
 *
 * One pass over each file, inside the import's write transaction: each
 * task is checked as the whole-set parse checks it and written as it is
 * read, and the first refusal rolls the whole import back, so a bad file
 * still changes nothing (docs/writes.md, "One pass").  Only the names are
 * kept, in a store_names (a private temporary database): duplicates,
 * util.csv's tasks, one block of samples per task.
 *
 * util.csv is read beside tasks.csv: while its blocks follow tasks.csv's
 * order (as export and generate write them) each task goes in with its
 * series in one row.  A block whose task has not come yet waits; the
 * blocks left when tasks.csv ends (written in another order) are read
 * after it, each stored on its task, found by name, as the block ends.
 * Memory is one task's series plus SQLite's caches.
 *
 * Errors are the whole-set parse's, in the same order: every error of
 * tasks.csv before any of util.csv.  A refusal of util.csv met while the
 * two are read side by side is kept, util.csv is read no further, and it
 * is reported once tasks.csv has been read to its end without one.  A
 * name repeated in tasks.csv is reported at the row that repeats it.
 */
#include "import_native_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A task's flags in the name set. */
enum { HAS_PERIOD = 1, HAS_SERIES = 2 };
/* Rows between two progress reports. */
enum { PROGRESS_ROWS = 4096 };

struct native_trace {
    char *tasks_path, *util_path;
    const import_opts *opts;
    int64_t bytes_total;        /* both files */
    size_t rows;                /* since the last report */
    /* Each file's size and digest, once read to its end. */
    int read_whole[2];
    int64_t bytes[2];
    uint64_t digest[2];
};

void native_trace_free(native_trace *nt)
{
    if (!nt)
        return;
    free(nt->tasks_path);
    free(nt->util_path);
    free(nt);
}

static int64_t file_bytes(const char *path)
{
    struct stat sb;
    return path && stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

native_trace *native_trace_new(const char *tasks_path, const char *util_path,
                               const import_opts *opts)
{
    native_trace *nt = xcalloc(1, sizeof *nt);
    nt->tasks_path = xstrdup(tasks_path);
    nt->util_path = util_path ? xstrdup(util_path) : NULL;
    nt->opts = opts;
    nt->bytes_total = file_bytes(tasks_path) + file_bytes(util_path);
    return nt;
}

int native_trace_digest(const native_trace *nt, int util, int64_t *bytes, uint64_t *digest)
{
    if (!nt->read_whole[util])
        return -1;
    *bytes = nt->bytes[util];
    *digest = nt->digest[util];
    return 0;
}

/* Notes the size and digest of a file read to its end. */
static void note_digest(native_trace *nt, int util, const csv_reader *r)
{
    nt->read_whole[util] = csv_digest(r, &nt->bytes[util], &nt->digest[util]) == 0;
}

/* 1 once every PROGRESS_ROWS rows, when someone listens: the position
 * in a file costs a system call, so it is not asked for every row. */
static int progress_due(native_trace *nt)
{
    if (!nt->opts || !nt->opts->progress || ++nt->rows < PROGRESS_ROWS)
        return 0;
    nt->rows = 0;
    return 1;
}

static void progress_at(native_trace *nt, int64_t bytes)
{
    nt->opts->progress(nt->opts->progress_ctx,
                       nt->bytes_total > 0 ? (double)bytes / (double)nt->bytes_total : 0);
}

/* The pass: both files, the names seen and the block being gathered. */
typedef struct trace_write {
    native_trace *nt;
    store_trace_writer *w;
    store_names *names;
    size_t ntasks, nsamples;
    /* util.csv, read beside tasks.csv and then after it: the row looked
     * ahead is valid until the next csv_next(). */
    csv_reader *ur;
    int uc[3];
    csv_row urow;
    int have;                   /* urow holds the next sample */
    int stopped;                /* util_err holds its first refusal */
    gp_err util_err;
    /* The block being gathered. */
    char task[GP_NAME_MAX];
    int open;
    float *buf;
    size_t len, cap;
} trace_write;

static int util_advance(trace_write *tw, gp_err *err)
{
    int rc = csv_next(tw->ur, &tw->urow, err);
    tw->have = rc == 1;
    return rc < 0 || (rc == 1 && csv_check_width(tw->ur, &tw->urow, err)) ? -1 : 0;
}

static int util_open(trace_write *tw, gp_err *err)
{
    tw->ur = csv_open_digest(tw->nt->util_path, err);
    return !tw->ur || csv_require(tw->ur, native_util_req, tw->uc, NULL, NULL, 0, err) ||
           util_advance(tw, err) ? -1 : 0;
}

/* The looked-ahead row as sample number tw->len of the open block. */
static int util_sample(trace_write *tw, gp_err *err)
{
    int64_t sample;
    double pct;
    if (native_util_parse(tw->ur, &tw->urow, tw->uc, &sample, &pct, err))
        return -1;
    if ((size_t)sample != tw->len)
        return csv_fail(tw->ur, &tw->urow, tw->uc[1], err, "column 'sample': expected %zu, "
                        "got %lld", tw->len, (long long)sample);
    grow_array((void **)&tw->buf, &tw->cap, tw->len + 1, sizeof *tw->buf);
    tw->buf[tw->len++] = (float)pct;
    tw->nsamples++;
    return 0;
}

/* The block of task k (at tasks.csv's line `line`) when util.csv is at
 * it, into k's series.  A refusal stops util.csv and is kept for later. */
static void util_take(trace_write *tw, task *k, long line)
{
    tw->len = 0;
    if (!tw->have || tw->stopped || strcmp(tw->urow.field[tw->uc[0]], k->name) != 0)
        return;
    int rc = 0;
    if (k->util.period_s <= 0) {
        /* The row's numbers are checked before its task, as in the rest. */
        int64_t sample;
        double pct;
        if (native_util_parse(tw->ur, &tw->urow, tw->uc, &sample, &pct, &tw->util_err) == 0)
            csv_fail(tw->ur, &tw->urow, tw->uc[0], &tw->util_err, NATIVE_NO_PERIOD, k->name,
                     line);
        rc = -1;
    }
    while (rc == 0 && tw->have && strcmp(tw->urow.field[tw->uc[0]], k->name) == 0)
        rc = util_sample(tw, &tw->util_err) || util_advance(tw, &tw->util_err) ? -1 : 0;
    if (rc) {
        tw->stopped = 1;
        tw->len = 0;
        return;
    }
    task_set_util(k, tw->buf, tw->len, k->util.period_s);
}

static int write_task_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err)
{
    trace_write *tw = ctx;
    task k;
    task_init(&k);
    store_name_info first;
    int rc = native_task_parse(r, row, c, o, &k, err);
    if (rc == 0 && tw->ur)
        util_take(tw, &k, row->line);
    if (rc == 0) {
        int flags = (k.util.period_s > 0 ? HAS_PERIOD : 0) | (k.util.len ? HAS_SERIES : 0);
        int added = store_names_add(tw->names, k.name, row->line, flags, &first, err);
        rc = added == 1 ? import_duplicate_error(tw->nt->tasks_path, "task", k.name,
                                                 row->line, (long)first.line, err)
                        : added;
    }
    if (rc == 0)
        rc = store_trace_writer_add(tw->w, &k, err);
    task_release(&k);
    tw->ntasks += rc == 0;
    if (progress_due(tw->nt))
        progress_at(tw->nt, csv_bytes_read(r) + (tw->ur ? csv_bytes_read(tw->ur) : 0));
    return rc;
}

/* The block gathered so far, to its task. */
static int write_series(trace_write *tw, size_t idx, gp_err *err)
{
    task k;
    task_init(&k);
    strlcpy0(k.name, tw->task, sizeof k.name);
    task_set_util(&k, tw->buf, tw->len, 0);
    int rc = store_trace_writer_set_util(tw->w, idx, &k, err);
    task_release(&k);
    return rc;
}

/* A block of util.csv's rest begins at the looked-ahead row: its task
 * exists and has no block yet.  *idx: the task's position. */
static int util_begin(trace_write *tw, size_t *idx, gp_err *err)
{
    const csv_reader *r = tw->ur;
    const csv_row *row = &tw->urow;
    int col = tw->uc[0];
    const char *name = row->field[col];
    store_name_info info;
    int found = store_names_find(tw->names, name, &info, err);
    if (found < 0)
        return -1;
    if (found == 0)
        return csv_fail(r, row, col, err, "column 'task': no task named '%.40s' in "
                        "tasks.csv", name);
    if (info.flags & HAS_SERIES)
        return csv_fail(r, row, col, err, "column 'task': samples of '%s' are not "
                        "contiguous (expected one block per task)", name);
    if (!(info.flags & HAS_PERIOD))
        return csv_fail(r, row, col, err, NATIVE_NO_PERIOD, name, (long)info.line);
    if (store_names_set_flags(tw->names, name, info.flags | HAS_SERIES, err))
        return -1;
    strlcpy0(tw->task, name, sizeof tw->task);
    tw->len = 0;
    *idx = (size_t)info.index;
    return 0;
}

/* util.csv's blocks left when tasks.csv ended (written in another order
 * than the tasks), each stored on its task as it ends. */
static int write_util_rest(trace_write *tw, gp_err *err)
{
    size_t idx = 0;
    int open = 0;
    while (tw->have) {
        int first = !open || strcmp(tw->task, tw->urow.field[tw->uc[0]]) != 0;
        /* The row's numbers are checked before its task, as row by row. */
        int64_t sample;
        double pct;
        if (first && native_util_parse(tw->ur, &tw->urow, tw->uc, &sample, &pct, err))
            return -1;
        if (first && open && write_series(tw, idx, err))
            return -1;
        if (first && util_begin(tw, &idx, err))
            return -1;
        open = 1;
        if (util_sample(tw, err) || util_advance(tw, err))
            return -1;
        if (progress_due(tw->nt))
            progress_at(tw->nt, file_bytes(tw->nt->tasks_path) + csv_bytes_read(tw->ur));
    }
    return open ? write_series(tw, idx, err) : 0;
}

/* tasks.csv, row by row (csv_each's loop, with the file's digest kept). */
static int read_tasks(trace_write *tw, gp_err *err)
{
    int c[CSV_MAX_COLS], o[CSV_MAX_COLS];
    csv_reader *r = csv_open_digest(tw->nt->tasks_path, err);
    if (!r)
        return -1;
    int rc = csv_require(r, native_task_req, c, native_task_opt, o, 0, err) ? -1 : 1;
    csv_row row;
    while (rc == 1 && (rc = csv_next(r, &row, err)) == 1)
        if (csv_check_width(r, &row, err) || write_task_row(tw, r, &row, c, o, err))
            rc = -1;
    if (rc == 0)
        note_digest(tw->nt, 0, r);
    csv_close(r);
    return rc < 0 ? -1 : 0;
}

/* Reads both files once into the open writer. */
static int write_pass(trace_write *tw, gp_err *err)
{
    native_trace *nt = tw->nt;
    if (store_names_new(&tw->names, err))
        return -1;
    if (nt->util_path && util_open(tw, &tw->util_err))
        tw->stopped = 1;
    if (read_tasks(tw, err))
        return -1;
    if (tw->ntasks == 0)
        return gp_error(err, "%s:2:1: no rows (expected task rows after the header)",
                        nt->tasks_path);
    if (tw->stopped) {
        *err = tw->util_err;
        return -1;
    }
    if (!tw->ur)
        return 0;
    if (write_util_rest(tw, err))
        return -1;
    note_digest(nt, 1, tw->ur);
    return 0;
}

int native_trace_write(native_trace *nt, store *st, const char *name, const char *source,
                       const char *ref_gpu, int replace, import_result *res, gp_err *err)
{
    trace_write tw;
    memset(&tw, 0, sizeof tw);
    tw.nt = nt;
    if (store_trace_writer_new(st, name, source, replace, &tw.w, err))
        return -1;
    int rc = store_trace_writer_set_ref_gpu(tw.w, ref_gpu, err) || write_pass(&tw, err);
    if (tw.ur)
        csv_close(tw.ur);
    store_names_free(tw.names);
    free(tw.buf);
    if (store_trace_writer_end(tw.w, rc ? -1 : 0, err))
        return -1;
    res->traces++;
    res->tasks += tw.ntasks;
    res->samples += tw.nsamples;
    import_note(res, "trace", name);
    return 0;
}
