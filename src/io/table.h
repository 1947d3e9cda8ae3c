/*
 * table.h — tabular output in the three formats every listing command
 * offers (--format table|csv|json).  Cells are kept as strings; columns
 * declared numeric are emitted as JSON numbers.
 */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stdio.h>

typedef enum out_format { FMT_TABLE, FMT_CSV, FMT_JSON } out_format;

/* Parses "table", "csv" or "json"; -1 when unknown. */
int out_format_parse(const char *s);

typedef struct table table;

table *table_new(void);
void table_free(table *t);
/* Declares a column; numeric columns right-align and are JSON numbers. */
void table_col(table *t, const char *name, int numeric);
/* Starts a new row; cells are then appended left to right. */
void table_row(table *t);
void table_cell(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t table_rows(const table *t);
/* Writes the table; for FMT_TABLE an empty table prints `empty_msg`. */
void table_print(const table *t, out_format f, FILE *out, const char *empty_msg);

/* s as it may be shown on a terminal: control characters (C0, DEL and the
 * C1 range U+0080..U+009F) and bytes that are not UTF-8 are written as
 * escapes ("\n", "\r", "\t", "\x1b", "\u009b", "\xff"), so a name read from a
 * file cannot clear the screen, set the window title or hide a line.
 * Newly allocated.  Every name the text format prints goes through it;
 * CSV and JSON keep the bytes (quoted, or escaped by jansson).  The text
 * format aligns its columns on the terminal columns of this text
 * (core/textwidth.h: a CJK character or an emoji takes two). */
char *text_printable(const char *s);

/* Writes one CSV field with RFC 4180 quoting when needed. */
void csv_put(FILE *out, const char *s);
/* Shortest text that reads back to the same double / float. */
void fmt_double(char *buf, size_t len, double v);
void fmt_float(char *buf, size_t len, float v);

#endif
