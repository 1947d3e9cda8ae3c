/*
 * csvread.c — libcsv-driven record reader with line tracking and strict
 * field conversion (see csvread.h).
 */
#include "csvread.h"

#include <csv.h>
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct csv_reader {
    char *name;
    FILE *fp;
    struct csv_parser parser;
    long line;                  /* physical line being fed */
    int eof;
    /* the record being assembled by the callbacks */
    char **field;
    size_t *flen;
    size_t nfield, cap;
    long rec_line;
    int rec_started;
    /* completed records waiting to be handed out */
    struct pending {
        char **field;
        size_t *len;
        size_t n;
        long line;
    } *queue;
    size_t qhead, qlen, qcap;
    csv_row current;            /* owned copy of the last record returned */
    csv_row header;
    int has_header;
};

static void on_field(void *data, size_t len, void *ctx)
{
    csv_reader *r = ctx;
    if (!r->rec_started) {
        r->rec_started = 1;
        r->rec_line = r->line;
    }
    if (r->nfield == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->field = xrealloc(r->field, r->cap * sizeof *r->field);
        r->flen = xrealloc(r->flen, r->cap * sizeof *r->flen);
    }
    r->field[r->nfield] = xstrndup(data ? data : "", len);
    r->flen[r->nfield] = len;
    r->nfield++;
}

static void on_record(int term, void *ctx)
{
    (void)term;
    csv_reader *r = ctx;
    if (r->qhead + r->qlen == r->qcap) {
        if (r->qhead > 0) {
            memmove(r->queue, r->queue + r->qhead, r->qlen * sizeof *r->queue);
            r->qhead = 0;
        } else {
            r->qcap = r->qcap ? r->qcap * 2 : 16;
            r->queue = xrealloc(r->queue, r->qcap * sizeof *r->queue);
        }
    }
    struct pending *p = &r->queue[r->qhead + r->qlen++];
    p->field = xmalloc((r->nfield ? r->nfield : 1) * sizeof *p->field);
    p->len = xmalloc((r->nfield ? r->nfield : 1) * sizeof *p->len);
    memcpy(p->field, r->field, r->nfield * sizeof *p->field);
    memcpy(p->len, r->flen, r->nfield * sizeof *p->len);
    p->n = r->nfield;
    p->line = r->rec_started ? r->rec_line : r->line;
    r->nfield = 0;
    r->rec_started = 0;
}

static void free_row(csv_row *row)
{
    for (size_t i = 0; i < row->n; i++)
        free(row->field[i]);
    free(row->field);
    free(row->len);
    memset(row, 0, sizeof *row);
}

static csv_reader *reader_new(const char *name)
{
    csv_reader *r = xcalloc(1, sizeof *r);
    r->name = xstrdup(name);
    /* CSV_APPEND_NULL: fields arrive NUL-terminated (we copy anyway);
     * CSV_STRICT(_FINI): a stray or unterminated quote is an error, not a
     * silently different field. */
    csv_init(&r->parser, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI);
    return r;
}

void csv_close(csv_reader *r)
{
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp);
    csv_free(&r->parser);
    for (size_t i = 0; i < r->nfield; i++)
        free(r->field[i]);
    free(r->field);
    free(r->flen);
    for (size_t i = r->qhead; i < r->qhead + r->qlen; i++) {
        csv_row tmp = {r->queue[i].field, r->queue[i].len, r->queue[i].n, 0};
        free_row(&tmp);
    }
    free(r->queue);
    free_row(&r->current);
    free_row(&r->header);
    free(r->name);
    free(r);
}

/* Reads one physical line (with its newline) from the file. */
static char *next_line(csv_reader *r, size_t *len, char **buf, size_t *cap)
{
    ssize_t n = getline(buf, cap, r->fp);
    if (n < 0)
        return NULL;
    *len = (size_t)n;
    return *buf;
}

/* Feeds lines to libcsv until at least one record is queued or input ends. */
static int fill(csv_reader *r, gp_err *err)
{
    char *buf = NULL;
    size_t cap = 0, len;
    int rc = 0;
    while (r->qlen == 0 && !r->eof) {
        char *l = next_line(r, &len, &buf, &cap);
        if (!l) {
            if (ferror(r->fp)) {
                rc = gp_error(err, "%s: read error: %s", r->name, strerror(errno));
                break;
            }
            r->eof = 1;
            r->line++;
            if (csv_fini(&r->parser, on_field, on_record, r) != 0)
                rc = gp_error(err, "%s:%ld: unterminated quoted field (started on line %ld)",
                              r->name, r->line - 1, r->rec_line);
            break;
        }
        r->line++;
        size_t bad;
        if (!utf8_valid(l, len, &bad)) {
            rc = gp_error(err, "%s:%ld:%zu: invalid UTF-8 byte 0x%02x (expected UTF-8 text)",
                          r->name, r->line, bad + 1, (unsigned char)l[bad]);
            break;
        }
        /* libcsv keeps a NUL byte inside a field, but the field is used as a C
         * string: "ab\0cd" would silently read as "ab". */
        const char *nul = memchr(l, '\0', len);
        if (nul) {
            rc = gp_error(err, "%s:%ld:%zu: NUL byte (expected text)", r->name, r->line,
                          (size_t)(nul - l) + 1);
            break;
        }
        if (csv_parse(&r->parser, l, len, on_field, on_record, r) != len) {
            rc = gp_error(err, "%s:%ld: malformed CSV: %s", r->name, r->line,
                          csv_strerror(csv_error(&r->parser)));
            break;
        }
    }
    if (r->fp)
        free(buf);
    return rc;
}

static int is_blank(const struct pending *p)
{
    return p->n == 0 || (p->n == 1 && p->len[0] == 0);
}

int csv_next(csv_reader *r, csv_row *row, gp_err *err)
{
    for (;;) {
        if (r->qlen == 0 && fill(r, err))
            return -1;
        if (r->qlen == 0)
            return 0;
        struct pending p = r->queue[r->qhead++];
        r->qlen--;
        if (r->qlen == 0)
            r->qhead = 0;
        free_row(&r->current);
        r->current.field = p.field;
        r->current.len = p.len;
        r->current.n = p.n;
        r->current.line = p.line;
        if (!is_blank(&p))
            break;
    }
    *row = r->current;
    return 1;
}

static csv_reader *finish_open(csv_reader *r, int header, gp_err *err)
{
    if (!header)
        return r;
    csv_row row;
    int rc = csv_next(r, &row, err);
    if (rc <= 0) {
        if (rc == 0)
            gp_error(err, "%s:1:1: empty file (expected a header line)", r->name);
        csv_close(r);
        return NULL;
    }
    r->header = r->current;
    memset(&r->current, 0, sizeof r->current);
    r->has_header = 1;
    return r;
}

csv_reader *csv_open(const char *path, int header, gp_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        gp_error(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    csv_reader *r = reader_new(path);
    r->fp = fp;
    return finish_open(r, header, err);
}

const csv_row *csv_header(const csv_reader *r)
{
    return r->has_header ? &r->header : NULL;
}

const char *csv_name(const csv_reader *r)
{
    return r->name;
}

int csv_col(const csv_reader *r, const char *name)
{
    for (size_t i = 0; i < r->header.n; i++)
        if (strcmp(r->header.field[i], name) == 0)
            return (int)i;
    return -1;
}

int csv_fail(const csv_reader *r, const csv_row *row, int col, gp_err *err,
             const char *fmt, ...)
{
    char msg[GP_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gp_error(err, "%s:%ld:%d: %s", r->name, row ? row->line : 1L, col + 1, msg);
}

static int has_name(const char *const *names, const char *s)
{
    for (; names && *names; names++)
        if (strcmp(*names, s) == 0)
            return 1;
    return 0;
}

int csv_require(const csv_reader *r, const char *const *names, int *idx,
                const char *const *optional, int *opt_idx, int allow_extra, gp_err *err)
{
    const char *bom = "\xEF\xBB\xBF";
    /* A UTF-8 byte-order mark before the first column name is tolerated. */
    if (r->header.n && strncmp(r->header.field[0], bom, 3) == 0)
        memmove(r->header.field[0], r->header.field[0] + 3, strlen(r->header.field[0]) - 2);
    for (int i = 0; names[i]; i++) {
        idx[i] = csv_col(r, names[i]);
        if (idx[i] < 0)
            return csv_fail(r, &r->header, 0, err, "missing column '%s' in the header",
                            names[i]);
    }
    for (int i = 0; optional && optional[i]; i++)
        opt_idx[i] = csv_col(r, optional[i]);
    if (allow_extra)
        return 0;
    for (size_t i = 0; i < r->header.n; i++) {
        if (!has_name(names, r->header.field[i]) && !has_name(optional, r->header.field[i]))
            return csv_fail(r, &r->header, (int)i, err, "unknown column '%s'",
                            r->header.field[i]);
    }
    return 0;
}

static inline size_t count_names(const char *const *names)
{
    size_t n = 0;
    while (names && names[n])
        n++;
    return n;
}

int csv_each(const char *path, const char *const *required, const char *const *optional,
             csv_row_fn fn, void *ctx, gp_err *err)
{
    assert(count_names(required) <= CSV_MAX_COLS && count_names(optional) <= CSV_MAX_COLS);
    int c[CSV_MAX_COLS], o[CSV_MAX_COLS];
    csv_reader *r = csv_open(path, 1, err);
    if (!r)
        return -1;
    int rc = csv_require(r, required, c, optional, o, 0, err) ? -1 : 1;
    csv_row row;
    while (rc == 1 && (rc = csv_next(r, &row, err)) == 1)
        if (csv_check_width(r, &row, err) || fn(ctx, r, &row, c, o, err))
            rc = -1;
    csv_close(r);
    return rc < 0 ? -1 : 0;
}

int csv_check_width(const csv_reader *r, const csv_row *row, gp_err *err)
{
    if (row->n < r->header.n)
        return csv_fail(r, row, (int)row->n, err,
                        "row has %zu fields, expected %zu (truncated row?)", row->n,
                        r->header.n);
    if (row->n > r->header.n)
        return csv_fail(r, row, (int)r->header.n, err,
                        "row has %zu fields, expected %zu (extra column?)", row->n,
                        r->header.n);
    return 0;
}

static const char *col_name(const csv_reader *r, int col)
{
    return col >= 0 && (size_t)col < r->header.n ? r->header.field[col] : "?";
}

int csv_int(const csv_reader *r, const csv_row *row, int col, int64_t min, int64_t max,
            int64_t *out, gp_err *err)
{
    const char *s = (size_t)col < row->n ? row->field[col] : "";
    int64_t v;
    if (parse_int64(s, &v))
        return csv_fail(r, row, col, err, "column '%s': expected an integer, got '%.40s'",
                        col_name(r, col), s);
    if (v < min || v > max)
        return csv_fail(r, row, col, err, "column '%s': %lld is out of range [%lld, %lld]",
                        col_name(r, col), (long long)v, (long long)min, (long long)max);
    *out = v;
    return 0;
}

int csv_real(const csv_reader *r, const csv_row *row, int col, double min, double max,
             double *out, gp_err *err)
{
    const char *s = (size_t)col < row->n ? row->field[col] : "";
    double v;
    if (parse_double(s, &v))
        return csv_fail(r, row, col, err, "column '%s': expected a finite number, got '%.40s'",
                        col_name(r, col), s);
    if (v < min || v > max)
        return csv_fail(r, row, col, err, "column '%s': %g is out of range [%g, %g]",
                        col_name(r, col), v, min, max);
    *out = v;
    return 0;
}

int csv_text(const csv_reader *r, const csv_row *row, int col, char *buf, size_t len,
             gp_err *err)
{
    const char *s = (size_t)col < row->n ? row->field[col] : "";
    if (strlen(s) >= len)
        return csv_fail(r, row, col, err, "column '%s': text longer than %zu characters",
                        col_name(r, col), len - 1);
    strlcpy0(buf, s, len);
    return 0;
}
