/*
 * csvread.c — libcsv-driven record reader with position tracking and strict
 * field conversion (see csvread.h).
 *
 * The file is read in chunks.  Runs of plain lines (no quote, carriage
 * return, NUL or byte over 0x7f) are split into fields here, in place;
 * every other line is handed to libcsv a line (or, for a line longer than
 * a chunk, a piece of it) at a time.  Beside libcsv runs a small position
 * tracker: it follows the quoting only to know where the current record
 * and field began, so that every error names the line and column of the
 * field at fault, and so that a field longer than CSV_FIELD_MAX is refused
 * after at most a chunk more than that has been buffered.  Over a plain
 * line it only counts the line.  Whether the input is valid CSV is
 * libcsv's to judge, not the tracker's.
 *
 * Fields are copied once into storage the reader reuses, so a row costs
 * no allocation; numbers in the usual fixed-point form are read without
 * strtod, to the same bits.
 */
#include "csvread.h"
#include "input.h"
#include "table.h"
#include "core/hash.h"

#include <csv.h>
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define CSV_CHUNK 65536         /* bytes read from the file at a time */

/* Where the quoting stands after the bytes fed so far, as libcsv reads
 * RFC 4180 (spaces before a field and after a closing quote are skipped). */
typedef enum track_state {
    AT_RECORD_START,            /* between records */
    AT_FIELD_START,             /* after a delimiter */
    IN_UNQUOTED,
    IN_QUOTED,
    QUOTE_IN_QUOTED,            /* a quote in a quoted field: doubled or closing */
} track_state;

typedef struct csv_pos {
    track_state state;
    char delim;                 /* ',' or '\t' */
    long line;                  /* 1-based line of the next byte */
    size_t col;                 /* bytes of that line before the next byte */
    long field_line;            /* where the current (or last) field starts */
    size_t field_col;           /* 1-based byte column */
    size_t field_bytes;         /* bytes of that field so far, quotes included */
    int too_long;               /* a field went past CSV_FIELD_MAX ... */
    long long_line;             /* ... and started here */
    size_t long_col;
} csv_pos;

struct csv_reader {
    char *name;
    FILE *fp;
    struct csv_parser parser;
    csv_pos pos;
    char *chunk;                /* CSV_CHUNK bytes */
    size_t carry;               /* an incomplete UTF-8 character kept for the next read */
    int started, eof;
    long seg_line;              /* line of the piece being parsed */
    long rec_line;              /* line where the record being parsed starts */
    long wide_line;             /* a record over CSV_RECORD_MAX_FIELDS starts here */
    gp_err deferred;            /* an error found past records still queued */
    int failed;
    /* Fields are copied once, from libcsv's buffer into `text`, each
     * NUL-terminated; `foff`/`flen` hold every queued field's offset and
     * length, the record being assembled last (from `rec_first`).  The
     * storage is reused once the queue is empty, so a row costs no
     * allocation. */
    char *text;
    size_t tlen, tcap;
    size_t *foff, *flen;
    size_t nfield, fcap;        /* fields stored, of every queued record */
    size_t rec_first;           /* the first field of the record being assembled */
    /* completed records waiting to be handed out */
    struct pending {
        size_t first, n;        /* their fields in foff/flen */
        long line;
    } *queue;
    size_t qhead, qlen, qcap;
    csv_row current;            /* the last record returned: pointers into text */
    size_t row_cap;             /* room in current.field/len */
    csv_row header;             /* owned copy */
    int has_header;
    /* csv_open_digest(): every byte read, hashed as it is read. */
    int digesting;
    uint64_t digest;
    int64_t digest_bytes;
};

static void on_field(void *data, size_t len, void *ctx)
{
    csv_reader *r = ctx;
    if (r->nfield - r->rec_first == CSV_RECORD_MAX_FIELDS) {    /* refused once the piece is parsed */
        if (!r->wide_line)
            r->wide_line = r->rec_line;
        return;
    }
    if (r->nfield == r->fcap) {
        r->fcap = r->fcap ? r->fcap * 2 : 64;
        r->foff = xrealloc(r->foff, r->fcap * sizeof *r->foff);
        r->flen = xrealloc(r->flen, r->fcap * sizeof *r->flen);
    }
    if (r->tlen + len + 1 > r->tcap) {
        while (r->tlen + len + 1 > r->tcap)
            r->tcap = r->tcap ? r->tcap * 2 : 4096;
        r->text = xrealloc(r->text, r->tcap);
    }
    if (len)
        memcpy(r->text + r->tlen, data, len);
    r->text[r->tlen + len] = '\0';
    r->foff[r->nfield] = r->tlen;
    r->flen[r->nfield] = len;
    r->nfield++;
    r->tlen += len + 1;
}

/* Forgets the fields of the record being assembled. */
static void drop_record(csv_reader *r)
{
    if (r->nfield > r->rec_first)
        r->tlen = r->foff[r->rec_first];
    r->nfield = r->rec_first;
}

static void on_record(int term, void *ctx)
{
    (void)term;
    csv_reader *r = ctx;
    if (r->wide_line) {         /* not handed out: the piece's error follows */
        drop_record(r);
        return;
    }
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
    p->first = r->rec_first;
    p->n = r->nfield - r->rec_first;
    p->line = r->rec_line;
    /* a record ending here is followed by one starting on this line (after
     * a bare CR) or on a later one (reset when that line is fed) */
    r->rec_line = r->seg_line;
    r->rec_first = r->nfield;
}

/* Once every queued record has been handed out: the storage is reused,
 * keeping the fields of a record still being assembled. */
static void reuse_storage(csv_reader *r)
{
    size_t keep = r->nfield - r->rec_first;
    size_t base = keep ? r->foff[r->rec_first] : r->tlen;
    /* text is NULL until the first field is stored: memmove may not be
     * handed NULL even for 0 bytes. */
    if (r->tlen > base)
        memmove(r->text, r->text + base, r->tlen - base);
    for (size_t i = 0; i < keep; i++) {
        r->foff[i] = r->foff[r->rec_first + i] - base;
        r->flen[i] = r->flen[r->rec_first + i];
    }
    r->tlen -= base;
    r->nfield = keep;
    r->rec_first = 0;
}

static void free_row(csv_row *row)
{
    for (size_t i = 0; i < row->n; i++)
        free(row->field[i]);
    free(row->field);
    free(row->len);
    memset(row, 0, sizeof *row);
}

/* A tab is a delimiter, not a space, in a tab-separated file. */
static int is_blank_space(unsigned char c)
{
    return c == ' ';
}

static csv_reader *reader_new(const char *name, char delim)
{
    csv_reader *r = xcalloc(1, sizeof *r);
    r->name = xstrdup(name);
    r->chunk = xmalloc(CSV_CHUNK);
    r->pos.line = 1;
    r->pos.delim = delim;
    r->rec_line = 1;
    /* CSV_APPEND_NULL: fields arrive NUL-terminated (we copy anyway);
     * CSV_STRICT(_FINI): a stray or unterminated quote is an error, not a
     * silently different field. */
    csv_init(&r->parser, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI);
    if (delim != ',') {
        csv_set_delim(&r->parser, delim);
        csv_set_space_func(&r->parser, is_blank_space);
    }
    return r;
}

void csv_close(csv_reader *r)
{
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp);
    csv_free(&r->parser);
    free(r->text);
    free(r->foff);
    free(r->flen);
    free(r->queue);
    free(r->current.field);
    free(r->current.len);
    free_row(&r->header);
    free(r->chunk);
    free(r->name);
    free(r);
}

/* ---- positions ---------------------------------------------------------- */

static void field_begins(csv_pos *p, track_state state)
{
    p->state = state;
    p->field_line = p->line;
    p->field_col = p->col + 1;
    p->field_bytes = 0;
}

/* Follows the quoting over n bytes (see track_state). */
static void track(csv_pos *p, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int term = c == '\n' || c == '\r';
        switch (p->state) {
        case AT_RECORD_START:
        case AT_FIELD_START:
            if (c == p->delim)
                p->state = AT_FIELD_START;
            else if (term)
                p->state = AT_RECORD_START;
            else if (c != ' ' && c != '\t')
                field_begins(p, c == '"' ? IN_QUOTED : IN_UNQUOTED);
            break;
        case IN_UNQUOTED:
            if (c == p->delim || term)
                p->state = term ? AT_RECORD_START : AT_FIELD_START;
            break;
        case IN_QUOTED:
            if (c == '"')
                p->state = QUOTE_IN_QUOTED;
            break;
        case QUOTE_IN_QUOTED:
            if (c == '"')
                p->state = IN_QUOTED;
            else if (c == p->delim || term)
                p->state = term ? AT_RECORD_START : AT_FIELD_START;
            break;
        }
        if (p->state >= IN_UNQUOTED && ++p->field_bytes > CSV_FIELD_MAX && !p->too_long) {
            p->too_long = 1;
            p->long_line = p->field_line;
            p->long_col = p->field_col;
        }
        if (c == '\n') {
            p->line++;
            p->col = 0;
        } else {
            p->col++;
        }
    }
}

/* The error of a piece libcsv refused after its first `done` bytes: named
 * at the start of the field it was reading. */
static int parse_error(csv_reader *r, const char *s, size_t done, gp_err *err)
{
    track(&r->pos, s, done);
    const csv_pos *p = &r->pos;
    const char *what = csv_strerror(csv_error(&r->parser));
    if (csv_error(&r->parser) == CSV_EPARSE && p->state == IN_UNQUOTED)
        what = "a quote inside an unquoted field (expected the whole field in quotes, "
               "with the quote doubled)";
    else if (csv_error(&r->parser) == CSV_EPARSE && p->state == QUOTE_IN_QUOTED)
        what = p->delim == '\t'
                   ? "text after the field's closing quote (expected a tab or the end of the "
                     "line; a quote inside a quoted field is written twice)"
                   : "text after the field's closing quote (expected ',' or the end of the "
                     "line; a quote inside a quoted field is written twice)";
    return gp_error(err, "%s:%ld:%zu: malformed CSV field: %s", r->name, p->field_line,
                    p->field_col, what);
}

/* The error of a record cut at CSV_RECORD_MAX_FIELDS, if one was. */
static int check_width(const csv_reader *r, gp_err *err)
{
    if (!r->wide_line)
        return 0;
    return gp_error(err, "%s:%ld:1: record of more than %d fields (expected at most %d)",
                    r->name, r->wide_line, CSV_RECORD_MAX_FIELDS, CSV_RECORD_MAX_FIELDS);
}

/* 1 when s[0..len) is plain ASCII, checked a word at a time: the
 * common case, which then needs no character-by-character decoding. */
static int all_ascii(const char *s, size_t len)
{
    uint64_t acc = 0, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        acc |= w;
    }
    for (; i < len; i++)
        acc |= (unsigned char)s[i];
    return (acc & 0x8080808080808080ull) == 0;
}

/* Checks a piece's encoding and that it holds no NUL byte, naming the
 * first bad byte. */
static int check_bytes(csv_reader *r, const char *s, size_t len, gp_err *err)
{
    size_t bad;
    if (!all_ascii(s, len) && !utf8_valid(s, len, &bad)) {
        track(&r->pos, s, bad);
        return gp_error(err, "%s:%ld:%zu: invalid UTF-8 byte 0x%02x (expected UTF-8 text)",
                        r->name, r->pos.line, r->pos.col + 1, (unsigned char)s[bad]);
    }
    /* libcsv keeps a NUL byte inside a field, but fields are used as C
     * strings: "ab\0cd" would silently read as "ab". */
    const char *nul = memchr(s, '\0', len);
    if (nul) {
        track(&r->pos, s, (size_t)(nul - s));
        return gp_error(err, "%s:%ld:%zu: NUL byte (expected text)", r->name, r->pos.line,
                        r->pos.col + 1);
    }
    return 0;
}

/* Moves the tracker over a piece: a whole line without quotes, begun
 * between records, ends between records on the next line, where
 * following it byte by byte would also leave it (the field positions it
 * skips are only read in a piece that holds the field, and no field of
 * one line of at most CSV_CHUNK bytes reaches CSV_FIELD_MAX). */
static void track_piece(csv_pos *p, const char *s, size_t len)
{
    if (p->state == AT_RECORD_START && s[len - 1] == '\n' && !memchr(s, '"', len)) {
        p->line++;
        p->col = 0;
        return;
    }
    track(p, s, len);
}

/* Parses one piece of a line (a line at most): checks its encoding, feeds
 * it to libcsv and follows it with the tracker. */
static int feed_piece(csv_reader *r, const char *s, size_t len, gp_err *err)
{
    if (check_bytes(r, s, len, err))
        return -1;
    r->seg_line = r->pos.line;
    if (r->pos.state == AT_RECORD_START)
        r->rec_line = r->pos.line;
    /* Tracked before libcsv sees the piece, so that a record holding a
     * field over the limit is never queued. */
    csv_pos before = r->pos;
    track_piece(&r->pos, s, len);
    if (r->pos.too_long)
        return gp_error(err, "%s:%ld:%zu: field longer than %u bytes (expected at most %u; "
                        "the limit keeps a damaged file from filling memory)", r->name,
                        r->pos.long_line, r->pos.long_col, CSV_FIELD_MAX, CSV_FIELD_MAX);
    size_t done = csv_parse(&r->parser, s, len, on_field, on_record, r);
    if (done != len) {
        r->pos = before;
        return parse_error(r, s, done, err);
    }
    return check_width(r, err);
}

/* ---- plain lines ---------------------------------------------------------- */

/* Most lines of the files read hold neither quotes nor anything else
 * that needs libcsv's state machine: for those the fields are the text
 * between delimiters, with the spaces libcsv trims around an unquoted
 * field dropped, and they are split here, in place.  On the generated
 * 100,000-task set that halved the import's CPU time again after the
 * copies were gone (bench/IMPORT.md).  Everything else (a quote, a
 * carriage return, a NUL, a byte over 0x7f, a line not yet ended) goes to
 * libcsv a line at a time, as before. */

/* The first byte of s[0..n) over 0x7f, or s + n. */
static const char *first_high(const char *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ull)
            break;
    }
    for (; i < n; i++)
        if ((unsigned char)s[i] & 0x80)
            return s + i;
    return s + n;
}

static const char *find_or_end(const char *s, char c, size_t n)
{
    const char *p = memchr(s, c, n);
    return p ? p : s + n;
}

/* Where the next byte a plain line may not hold is, for each kind of such
 * byte, so that each is searched for once per chunk, not per line. */
typedef struct plain_scan {
    const char *end;
    const char *quote, *cr, *nul, *high;
} plain_scan;

/* The first byte at or after s a plain line may not hold (or the end). */
static const char *next_special(plain_scan *ps, const char *s)
{
    size_t n = (size_t)(ps->end - s);
    if (ps->quote < s)
        ps->quote = find_or_end(s, '"', n);
    if (ps->cr < s)
        ps->cr = find_or_end(s, '\r', n);
    if (ps->nul < s)
        ps->nul = find_or_end(s, '\0', n);
    if (ps->high < s)
        ps->high = first_high(s, n);
    const char *m = ps->quote;
    m = ps->cr < m ? ps->cr : m;
    m = ps->nul < m ? ps->nul : m;
    return ps->high < m ? ps->high : m;
}

/* A space libcsv drops around an unquoted field. */
static int is_trimmed(const csv_reader *r, char c)
{
    return c == ' ' || (c == '\t' && r->pos.delim != '\t');
}

/* Hands over the field [f, e) of a plain line, without the spaces
 * libcsv trims around an unquoted field. */
static void plain_field(csv_reader *r, const char *f, const char *e)
{
    while (f < e && is_trimmed(r, *f))
        f++;
    while (e > f && is_trimmed(r, e[-1]))
        e--;
    on_field((void *)f, (size_t)(e - f), r);
}

/* 1 when [f, e) holds only spaces libcsv skips. */
static int all_trimmed(const csv_reader *r, const char *f, const char *e)
{
    for (; f < e; f++)
        if (!is_trimmed(r, *f))
            return 0;
    return 1;
}

/* The whole plain lines s[0..n) (each ending in '\n'), begun between
 * records, in one pass: their fields and records as libcsv would hand
 * them over (a line of spaces is no record), positions moved on, a
 * record over the field limit refused at its line. */
static int feed_plain(csv_reader *r, const char *s, size_t n, gp_err *err)
{
    const char delim = r->pos.delim;
    const char *end = s + n, *f = s;
    int fields = 0;             /* of the line so far */
    r->seg_line = r->rec_line = r->pos.line;
    for (const char *p = s; p < end; p++) {
        if (*p == delim) {
            plain_field(r, f, p);
            fields++;
            f = p + 1;
        } else if (*p == '\n') {
            if (fields > 0 || !all_trimmed(r, f, p)) {
                plain_field(r, f, p);
                on_record('\n', r);
                if (check_width(r, err))
                    return -1;
            }
            fields = 0;
            f = p + 1;
            r->pos.line++;
            r->seg_line = r->rec_line = r->pos.line;
        }
    }
    r->pos.col = 0;
    return 0;
}

/* The last '\n' of [s, e), or NULL (a line back at most, as e is the end
 * of the bytes read or the first that is not plain). */
static const char *last_newline(const char *s, const char *e)
{
    while (e > s)
        if (*--e == '\n')
            return e;
    return NULL;
}

/* Feeds n bytes: runs of plain lines split here, other lines to libcsv
 * one at a time. */
static int feed(csv_reader *r, const char *s, size_t n, gp_err *err)
{
    plain_scan ps = {s + n, NULL, NULL, NULL, NULL};
    while (n > 0) {
        if (r->pos.state == AT_RECORD_START) {
            const char *stop = next_special(&ps, s);
            const char *nl = last_newline(s, stop);
            if (nl) {
                size_t len = (size_t)(nl - s) + 1;
                if (feed_plain(r, s, len, err))
                    return -1;
                s += len;
                n -= len;
                continue;
            }
        }
        const char *nl = memchr(s, '\n', n);
        size_t len = nl ? (size_t)(nl - s) + 1 : n;
        if (feed_piece(r, s, len, err))
            return -1;
        s += len;
        n -= len;
    }
    return 0;
}

/* Bytes at the end of buf[0..n) that begin a UTF-8 character the next read
 * completes. */
static size_t utf8_tail(const char *buf, size_t n)
{
    size_t i = n;
    while (i > 0 && n - i < 3 && ((unsigned char)buf[i - 1] & 0xC0) == 0x80)
        i--;
    if (i == 0)
        return 0;
    unsigned char lead = (unsigned char)buf[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return n - (i - 1) < need ? n - (i - 1) : 0;
}

/* Reads and feeds one chunk, or finishes the input at its end. */
static int feed_chunk(csv_reader *r, gp_err *err)
{
    size_t got = fread(r->chunk + r->carry, 1, CSV_CHUNK - r->carry, r->fp);
    if (got == 0 && ferror(r->fp))
        return gp_error(err, "%s: read error: %s", r->name, strerror(errno));
    if (r->digesting) {
        r->digest = core_hash_bytes(r->digest, r->chunk + r->carry, got);
        r->digest_bytes += (int64_t)got;
    }
    size_t n = r->carry + got, skip = 0;
    if (got == 0) {
        r->eof = 1;
        if (feed(r, r->chunk, n, err))
            return -1;
        if (csv_fini(&r->parser, on_field, on_record, r) != 0)
            return gp_error(err, "%s:%ld:%zu: unterminated quoted field (the quote opened "
                            "here is never closed; expected a closing '\"')", r->name,
                            r->pos.field_line, r->pos.field_col);
        return check_width(r, err);
    }
    /* A UTF-8 byte-order mark is not part of the first field. */
    if (!r->started && n >= 3 && memcmp(r->chunk, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    const char *enc = r->started ? NULL : utf_other_encoding(r->chunk, n);
    if (enc)
        return gp_error(err, "%s:1:1: the file is %s text (expected UTF-8; iconv -f %s -t "
                        "UTF-8 converts it)", r->name, enc, enc);
    r->started = 1;
    size_t tail = utf8_tail(r->chunk, n);
    if (feed(r, r->chunk + skip, n - skip - tail, err))
        return -1;
    memmove(r->chunk, r->chunk + n - tail, tail);
    r->carry = tail;
    return 0;
}

/* Feeds chunks until at least one record is queued or input ends.  An error
 * waits until the records before it have been handed out. */
static int fill(csv_reader *r, gp_err *err)
{
    reuse_storage(r);
    while (r->qlen == 0 && !r->eof && !r->failed)
        if (feed_chunk(r, &r->deferred))
            r->failed = 1;
    if (r->failed && r->qlen == 0) {
        *err = r->deferred;
        return -1;
    }
    return 0;
}

static int is_blank(const csv_reader *r, const struct pending *p)
{
    return p->n == 0 || (p->n == 1 && r->flen[p->first] == 0);
}

/* Points r->current at the fields of p. */
static void hand_out(csv_reader *r, const struct pending *p)
{
    if (p->n > r->row_cap) {
        r->row_cap = p->n;
        r->current.field = xrealloc(r->current.field, p->n * sizeof *r->current.field);
        r->current.len = xrealloc(r->current.len, p->n * sizeof *r->current.len);
    }
    for (size_t i = 0; i < p->n; i++) {
        r->current.field[i] = r->text + r->foff[p->first + i];
        r->current.len[i] = r->flen[p->first + i];
    }
    r->current.n = p->n;
    r->current.line = p->line;
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
        if (!is_blank(r, &p)) {
            hand_out(r, &p);
            break;
        }
    }
    *row = r->current;
    return 1;
}

/* An owned copy of row. */
static void copy_row(csv_row *dst, const csv_row *src)
{
    dst->n = src->n;
    dst->line = src->line;
    dst->field = xmalloc((src->n ? src->n : 1) * sizeof *dst->field);
    dst->len = xmemdup(src->len, (src->n ? src->n : 1) * sizeof *dst->len);
    for (size_t i = 0; i < src->n; i++)
        dst->field[i] = xstrndup(src->field[i], src->len[i]);
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
    copy_row(&r->header, &row);
    r->has_header = 1;
    return r;
}

csv_reader *csv_open(const char *path, int header, gp_err *err)
{
    return csv_open_delim(path, header, ',', err);
}

csv_reader *csv_open_delim(const char *path, int header, char delim, gp_err *err)
{
    assert(delim == ',' || delim == '\t');
    FILE *fp = input_open(path);
    if (!fp) {
        gp_error(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    csv_reader *r = reader_new(path, delim);
    r->fp = fp;
    return finish_open(r, header, err);
}

csv_reader *csv_open_digest(const char *path, gp_err *err)
{
    FILE *fp = input_open(path);
    if (!fp) {
        gp_error(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    csv_reader *r = reader_new(path, ',');
    r->fp = fp;
    r->digesting = 1;
    r->digest = CORE_HASH_INIT;
    return finish_open(r, 1, err);
}

int csv_digest(const csv_reader *r, int64_t *bytes, uint64_t *digest)
{
    if (!r->digesting || !r->eof)
        return -1;
    *bytes = r->digest_bytes;
    *digest = r->digest;
    return 0;
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
    /* the message quotes the file's text, which goes to a terminal */
    char *shown = text_printable(msg);
    gp_error(err, "%s:%ld:%d: %s", r->name, row ? row->line : 1L, col + 1, shown);
    free(shown);
    return -1;
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

int64_t csv_bytes_read(const csv_reader *r)
{
    off_t at = ftello(r->fp);
    return at < 0 ? 0 : (int64_t)at;
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

/* Fixed-point decimals ("42", "-3.25", "0.125") with at most 15 digits
 * and 22 after the point: the digits are an integer m below 2^53 and
 * 10^k is exact, so m / 10^k, one correctly rounded division, is the
 * double nearest the decimal, which is what strtod returns.  Anything
 * else (more digits, an exponent, a sign '+', spaces, text) is left to
 * parse_double.  Returns 1 when it read s, 0 when it did not. */
static int fixed_point(const char *s, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    int neg = *p == '-';
    p += neg;
    uint64_t m = 0;
    int digits = 0, frac = -1;  /* frac: digits after the point, -1 before it */
    for (;; p++) {
        if (*p >= '0' && *p <= '9') {
            m = m * 10 + (uint64_t)(*p - '0');
            digits++;
            frac += frac >= 0;
        } else if (*p == '.' && frac < 0) {
            frac = 0;
        } else {
            break;
        }
    }
    if (*p != '\0' || digits == 0 || digits > 15)
        return 0;
    double v = frac > 0 ? (double)m / pow10[frac] : (double)m;
    *out = neg ? -v : v;
    return 1;
}

int csv_parse_real(const char *s, double *out)
{
    return fixed_point(s, out) ? 0 : parse_double(s, out);
}

/* Digits with an optional '-', at most 18 of them (below 2^63): what
 * strtoll reads them as; anything else is left to parse_int64. */
static int plain_int(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = *p == '-';
    p += neg;
    int64_t v = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (++digits > 18)      /* before the product could overflow */
            return 0;
        v = v * 10 + (*p - '0');
    }
    if (*p != '\0' || digits == 0)
        return 0;
    *out = neg ? -v : v;
    return 1;
}

int csv_parse_int(const char *s, int64_t *out)
{
    return plain_int(s, out) ? 0 : parse_int64(s, out);
}

int csv_int(const csv_reader *r, const csv_row *row, int col, int64_t min, int64_t max,
            int64_t *out, gp_err *err)
{
    const char *s = (size_t)col < row->n ? row->field[col] : "";
    int64_t v;
    if (csv_parse_int(s, &v))
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
    if (csv_parse_real(s, &v))
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
