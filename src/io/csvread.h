/*
 * csvread.h — reading CSV files row by row with libcsv, keeping the physical
 * line of each record and the header, so importers can name file, line and
 * column in every error (SPEC §4.2).  Also the strict field converters the
 * importers share.
 *
 * Not a parser: libcsv does the RFC 4180 work (quotes, embedded commas and
 * newlines); this file only splits the plain lines that need none of it
 * (the bulk of every large file read), tracks positions, validates
 * encoding, drops a UTF-8 byte-order mark at the start of a file (for
 * every importer, with or without a header line) and bounds the length of
 * a field.
 */
#ifndef GP_CSVREAD_H
#define GP_CSVREAD_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

typedef struct csv_reader csv_reader;

/* The longest field read, in bytes as written in the file (quotes
 * included): a longer one is an error naming the line and column where it
 * starts, raised before much more than this is held in memory. */
#define CSV_FIELD_MAX (1u << 20)
/* The most fields a record may have (the formats read have a few dozen):
 * so a line of a billion empty fields is refused, not held. */
#define CSV_RECORD_MAX_FIELDS 1024

/* One record: fields are owned by the reader and valid until the next call
 * to csv_next(). */
typedef struct csv_row {
    char **field;
    size_t *len;
    size_t n;
    long line;                  /* 1-based physical line where it starts */
} csv_row;

/* Opens path; when header is nonzero the first record is read as the header
 * (csv_header()).  Returns NULL with a message on failure (including an
 * empty file when a header is expected). */
csv_reader *csv_open(const char *path, int header, gp_err *err);
/* As csv_open, fields separated by delim: ',' or '\t' (tab-separated
 * values, quoted as CSV is; a tab is then no longer a space libcsv trims). */
csv_reader *csv_open_delim(const char *path, int header, char delim, gp_err *err);
void csv_close(csv_reader *r);
/* As csv_open with a header, also hashing every byte as it is read (the
 * FNV-1a digest of set_manifest.h), so a file whose digest is checked is
 * read once.  csv_digest() gives the size and digest once csv_next() has
 * returned 0; -1 before, or for a reader not opened so. */
csv_reader *csv_open_digest(const char *path, gp_err *err);
int csv_digest(const csv_reader *r, int64_t *bytes, uint64_t *digest);

/* Reads the next record: 1 = a row, 0 = end of file, -1 = error (malformed
 * quoting, invalid UTF-8, a field over CSV_FIELD_MAX, a record of more than
 * CSV_RECORD_MAX_FIELDS fields, I/O), named at the
 * line and byte column where the field at fault starts.  Blank lines are
 * skipped. */
int csv_next(csv_reader *r, csv_row *row, gp_err *err);

const csv_row *csv_header(const csv_reader *r);
/* Bytes of the file read so far (a chunk ahead of the rows handed out):
 * for progress. */
int64_t csv_bytes_read(const csv_reader *r);
const char *csv_name(const csv_reader *r);
/* Index of a header column, or -1. */
int csv_col(const csv_reader *r, const char *name);

/* Requires each of the NULL-terminated names to be a header column; fills
 * idx[] in the same order.  Unknown header columns are an error unless
 * allow_extra is set.  Optional columns may be listed in `optional` (their
 * idx is -1 when absent). */
int csv_require(const csv_reader *r, const char *const *names, int *idx,
                const char *const *optional, int *opt_idx, int allow_extra, gp_err *err);

/* Checks that the row has exactly as many fields as the header. */
int csv_check_width(const csv_reader *r, const csv_row *row, gp_err *err);

/* The most columns csv_each() indexes. */
#define CSV_MAX_COLS 32

/* A row of a table csv_each() reads: c[] holds the indices of the required
 * columns in the order they were named, o[] those of the optional ones (-1
 * when absent).  Returns 0, or -1 with a message (see csv_fail). */
typedef int (*csv_row_fn)(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                          const int *o, gp_err *err);

/* The loop of every table importer: opens path, requires the NULL-
 * terminated `required` columns (and finds `optional`, which may be NULL;
 * no other column is allowed), checks each row's width and hands it to fn.
 * Returns 0, or -1 with the first error. */
int csv_each(const char *path, const char *const *required, const char *const *optional,
             csv_row_fn fn, void *ctx, gp_err *err);

/* Field converters: on failure they write "file:line:col: column 'name':
 * expected ..., got '...'" into err.  col is the 0-based field index. */
int csv_int(const csv_reader *r, const csv_row *row, int col, int64_t min, int64_t max,
            int64_t *out, gp_err *err);
int csv_real(const csv_reader *r, const csv_row *row, int col, double min, double max,
             double *out, gp_err *err);
/* The number readers of csv_int and csv_real: parse_int64 and
 * parse_double (core/util.h), with a fast path for the plain integers
 * and fixed-point decimals data is written in that gives the very same
 * value.  0, or -1 when s is not a number. */
int csv_parse_int(const char *s, int64_t *out);
int csv_parse_real(const char *s, double *out);
/* Copies the field into buf (size len); too long is an error. */
int csv_text(const csv_reader *r, const csv_row *row, int col, char *buf, size_t len,
             gp_err *err);
/* Writes "file:line:col: " + message into err, the message with control
 * characters escaped (text_printable: it quotes the file); returns -1. */
int csv_fail(const csv_reader *r, const csv_row *row, int col, gp_err *err,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
