/*
 * import_native_trace.c — the native set's trace (tasks.csv and util.csv)
 * streamed into the store, for traces too large to hold (a million tasks
 * with hundreds of samples each is gigabytes as model objects).
 *
 * Two passes over the files.  The first, before the store's write lock is
 * taken (import_run), checks every row as the whole-set parse does and
 * keeps only the names, in a store_names (a private temporary database):
 * duplicates, util.csv's tasks, one block of samples per task, a period
 * for every task with a series.  The second, under the lock, reads the
 * files again and writes each task as it is read, through a
 * store_trace_writer: when util.csv's blocks follow tasks.csv's order (as
 * export and generate write them) both files are read side by side and a
 * task goes in with its series; otherwise the tasks go in first and each
 * series, found by name, as its block ends.  So a bad file changes nothing
 * and keeps nobody waiting, and memory is one task's series plus SQLite's
 * caches; the price is reading the files twice.
 *
 * Errors are the whole-set parse's, with one difference of order: a name
 * repeated in tasks.csv is reported at the row that repeats it, before
 * the rows after it are read.
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
    store_names *names;
    size_t ntasks, nsamples;
    /* util.csv's blocks follow tasks.csv's order: the writing pass then
     * reads both files side by side and stores each task with its series
     * in one row, instead of finding and updating it by name. */
    int in_order;
    int64_t last_block;         /* index of the task of the last block, -1 */
    const import_opts *opts;
    int64_t bytes_total, bytes_before;  /* both passes over both files; passes done */
    size_t rows;                        /* since the last report */
};

void native_trace_free(native_trace *nt)
{
    if (!nt)
        return;
    store_names_free(nt->names);
    free(nt->tasks_path);
    free(nt->util_path);
    free(nt);
}

static int64_t file_bytes(const char *path)
{
    struct stat sb;
    return path && stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
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

/* Reports the passes done and `bytes` of the current one. */
static void progress_at(native_trace *nt, int64_t bytes)
{
    double done = (double)(nt->bytes_before + bytes);
    nt->opts->progress(nt->opts->progress_ctx,
                       nt->bytes_total > 0 ? done / (double)nt->bytes_total : 0);
}

static void progress_tick(native_trace *nt, const csv_reader *r)
{
    if (progress_due(nt))
        progress_at(nt, csv_bytes_read(r));
}

/* csv_each() over one file, counting its bytes as done afterwards. */
static int stream_file(native_trace *nt, const char *path, const char *const *req,
                       const char *const *opt, csv_row_fn fn, void *ctx, gp_err *err)
{
    int rc = csv_each(path, req, opt, fn, ctx, err);
    nt->bytes_before += file_bytes(path);
    return rc;
}

/* ---- the first pass: checks ---- */

static int check_task_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err)
{
    native_trace *nt = ctx;
    task k;
    task_init(&k);
    int rc = native_task_parse(r, row, c, o, &k, err);
    if (rc == 0) {
        store_name_info first;
        int added = store_names_add(nt->names, k.name, row->line,
                                    k.util.period_s > 0 ? HAS_PERIOD : 0, &first, err);
        if (added == 1)
            rc = import_duplicate_error(nt->tasks_path, "task", k.name, row->line,
                                        (long)first.line, err);
        else
            rc = added;
    }
    task_release(&k);
    progress_tick(nt, r);
    return rc;
}

/* util.csv's first pass: the block being read. */
typedef struct util_check {
    native_trace *nt;
    int open;                   /* a block was begun */
    char task[GP_NAME_MAX];     /* its task */
    int flags;
    size_t len;
} util_check;

/* A block begins at row: its task exists and has no block yet. */
static int util_check_begin(util_check *u, const csv_reader *r, const csv_row *row, int col,
                            gp_err *err)
{
    const char *name = row->field[col];
    store_name_info info;
    int found = store_names_find(u->nt->names, name, &info, err);
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
    if (store_names_set_flags(u->nt->names, name, info.flags | HAS_SERIES, err))
        return -1;
    if (info.index <= u->nt->last_block)
        u->nt->in_order = 0;
    u->nt->last_block = info.index;
    strlcpy0(u->task, name, sizeof u->task);
    u->open = 1;
    u->flags = info.flags;
    u->len = 0;
    return 0;
}

static int check_util_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err)
{
    (void)o;
    util_check *u = ctx;
    int64_t sample;
    double pct;
    if (native_util_parse(r, row, c, &sample, &pct, err))
        return -1;
    if ((!u->open || strcmp(u->task, row->field[c[0]]) != 0) &&
        util_check_begin(u, r, row, c[0], err))
        return -1;
    if ((size_t)sample != u->len)
        return csv_fail(r, row, c[1], err, "column 'sample': expected %zu, got %lld", u->len,
                        (long long)sample);
    u->len++;
    u->nt->nsamples++;
    progress_tick(u->nt, r);
    return 0;
}

int native_trace_check(const char *tasks_path, const char *util_path, const import_opts *opts,
                       native_trace **out, gp_err *err)
{
    native_trace *nt = xcalloc(1, sizeof *nt);
    *out = NULL;
    nt->tasks_path = xstrdup(tasks_path);
    nt->util_path = util_path ? xstrdup(util_path) : NULL;
    nt->opts = opts;
    nt->in_order = 1;
    nt->last_block = -1;
    nt->bytes_total = 2 * (file_bytes(tasks_path) + file_bytes(util_path));
    int rc = store_names_new(&nt->names, err) ||
             stream_file(nt, tasks_path, native_task_req, native_task_opt, check_task_row, nt,
                         err) ? -1 : 0;
    nt->ntasks = rc ? 0 : (size_t)store_names_count(nt->names);
    if (rc == 0 && nt->ntasks == 0)
        rc = gp_error(err, "%s:2:1: no rows (expected task rows after the header)",
                      tasks_path);
    if (rc == 0 && util_path) {
        util_check u = {nt, 0, "", 0, 0};
        rc = stream_file(nt, util_path, native_util_req, NULL, check_util_row, &u, err);
    }
    if (rc) {
        native_trace_free(nt);
        return -1;
    }
    *out = nt;
    return 0;
}

/* ---- the second pass: writes ---- */

typedef struct util_cursor util_cursor;

typedef struct trace_write {
    native_trace *nt;
    store_trace_writer *w;
    util_cursor *cursor;        /* util.csv alongside, when in order */
    int open;                   /* a block was begun */
    char task[GP_NAME_MAX];     /* its task */
    float *buf;
    size_t len, cap;
} trace_write;

/* util.csv read alongside tasks.csv (blocks in task order): the row
 * looked ahead, valid until the next csv_next(). */
struct util_cursor {
    csv_reader *r;
    int c[3];
    csv_row row;
    int have;                   /* row holds the next sample */
};

static int cursor_advance(util_cursor *u, gp_err *err)
{
    int rc = csv_next(u->r, &u->row, err);
    u->have = rc == 1;
    return rc < 0 || (rc == 1 && csv_check_width(u->r, &u->row, err)) ? -1 : 0;
}

static int cursor_open(util_cursor *u, const char *path, gp_err *err)
{
    memset(u, 0, sizeof *u);
    u->r = csv_open(path, 1, err);
    return !u->r || csv_require(u->r, native_util_req, u->c, NULL, NULL, 0, err) ||
           cursor_advance(u, err) ? -1 : 0;
}

/* The samples of task k when the cursor is at its block (the first pass
 * checked their order, numbers and range), into k's series. */
static int cursor_take(util_cursor *u, trace_write *tw, task *k, gp_err *err)
{
    tw->len = 0;
    while (u->have && strcmp(u->row.field[u->c[0]], k->name) == 0) {
        int64_t sample;
        double pct;
        if (native_util_parse(u->r, &u->row, u->c, &sample, &pct, err))
            return -1;
        grow_array((void **)&tw->buf, &tw->cap, tw->len + 1, sizeof *tw->buf);
        tw->buf[tw->len++] = (float)pct;
        if (cursor_advance(u, err))
            return -1;
    }
    if (tw->len)
        task_set_util(k, tw->buf, tw->len, k->util.period_s);
    return 0;
}

static int write_task_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err)
{
    trace_write *tw = ctx;
    task k;
    task_init(&k);
    int rc = native_task_parse(r, row, c, o, &k, err) ||
             (tw->cursor && cursor_take(tw->cursor, tw, &k, err)) ||
             store_trace_writer_add(tw->w, &k, err) ? -1 : 0;
    task_release(&k);
    if (progress_due(tw->nt))
        progress_at(tw->nt, csv_bytes_read(r) +
                            (tw->cursor ? csv_bytes_read(tw->cursor->r) : 0));
    return rc;
}

/* The block read so far, to its task. */
static int write_series(trace_write *tw, gp_err *err)
{
    if (!tw->open)
        return 0;
    store_name_info info;
    int found = store_names_find(tw->nt->names, tw->task, &info, err);
    if (found <= 0)     /* the first pass found it */
        return found < 0 ? -1 : gp_error(err, "task '%s' vanished", tw->task);
    task k;
    task_init(&k);
    strlcpy0(k.name, tw->task, sizeof k.name);
    task_set_util(&k, tw->buf, tw->len, 0);
    int rc = store_trace_writer_set_util(tw->w, (size_t)info.index, &k, err);
    task_release(&k);
    return rc;
}

static int write_util_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err)
{
    (void)o;
    trace_write *tw = ctx;
    int64_t sample;
    double pct;
    if (native_util_parse(r, row, c, &sample, &pct, err))
        return -1;
    if (!tw->open || strcmp(tw->task, row->field[c[0]]) != 0) {
        if (write_series(tw, err))
            return -1;
        strlcpy0(tw->task, row->field[c[0]], sizeof tw->task);
        tw->open = 1;
        tw->len = 0;
    }
    grow_array((void **)&tw->buf, &tw->cap, tw->len + 1, sizeof *tw->buf);
    tw->buf[tw->len++] = (float)pct;
    progress_tick(tw->nt, r);
    return 0;
}

int native_trace_write(native_trace *nt, store *st, const char *name, const char *source,
                       const char *ref_gpu, int replace, import_result *res, gp_err *err)
{
    trace_write tw = {nt, NULL, NULL, 0, "", NULL, 0, 0};
    util_cursor cursor;
    int side_by_side = nt->util_path && nt->in_order;
    int rc = store_trace_writer_new(st, name, source, replace, &tw.w, err);
    if (rc)
        return -1;
    rc = store_trace_writer_set_ref_gpu(tw.w, ref_gpu, err);
    if (side_by_side) {
        rc = cursor_open(&cursor, nt->util_path, err);
        tw.cursor = &cursor;
    }
    if (rc == 0)
        rc = stream_file(nt, nt->tasks_path, native_task_req, native_task_opt, write_task_row,
                         &tw, err);
    if (side_by_side) {
        if (cursor.r)
            csv_close(cursor.r);
        nt->bytes_before += file_bytes(nt->util_path);
    } else if (rc == 0 && nt->util_path) {
        rc = stream_file(nt, nt->util_path, native_util_req, NULL, write_util_row, &tw, err) ||
             write_series(&tw, err) ? -1 : 0;
    }
    free(tw.buf);
    if (store_trace_writer_end(tw.w, rc, err))
        return -1;
    res->traces++;
    res->tasks += nt->ntasks;
    res->samples += nt->nsamples;
    import_note(res, "trace", name);
    return 0;
}
