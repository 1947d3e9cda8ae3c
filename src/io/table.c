/*
 * table.c — aligned text, CSV and JSON rendering of simple tables.
 */
#include "table.h"
#include "core/strbuf.h"
#include "core/textwidth.h"
#include "core/util.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct table {
    char **names;
    int *numeric;
    size_t ncols, cols_cap;
    char **cells;               /* row-major, ncols per row */
    size_t ncells, cells_cap;
};

int out_format_parse(const char *s)
{
    if (strcmp(s, "table") == 0)
        return FMT_TABLE;
    if (strcmp(s, "csv") == 0)
        return FMT_CSV;
    if (strcmp(s, "json") == 0)
        return FMT_JSON;
    return -1;
}

table *table_new(void)
{
    return xcalloc(1, sizeof(table));
}

void table_free(table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ncols; i++)
        free(t->names[i]);
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->names);
    free(t->numeric);
    free(t->cells);
    free(t);
}

void table_col(table *t, const char *name, int numeric)
{
    size_t cap = t->cols_cap;
    grow_array((void **)&t->names, &cap, t->ncols + 1, sizeof *t->names);
    cap = t->cols_cap;
    grow_array((void **)&t->numeric, &cap, t->ncols + 1, sizeof *t->numeric);
    t->cols_cap = cap;
    t->names[t->ncols] = xstrdup(name);
    t->numeric[t->ncols++] = numeric;
}

/* Pads the last row with empty cells so every row has ncols cells. */
static void complete_row(table *t)
{
    while (t->ncols && t->ncells % t->ncols) {
        grow_array((void **)&t->cells, &t->cells_cap, t->ncells + 1, sizeof *t->cells);
        t->cells[t->ncells++] = xstrdup("");
    }
}

void table_row(table *t)
{
    complete_row(t);
}

void table_cell(table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    grow_array((void **)&t->cells, &t->cells_cap, t->ncells + 1, sizeof *t->cells);
    t->cells[t->ncells++] = s;
}

size_t table_rows(const table *t)
{
    return t->ncols ? (t->ncells + t->ncols - 1) / t->ncols : 0;
}

void csv_put(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Whether any byte of s may need an escape (the common case is no). */
static int needs_escape(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F)
            return 1;
    return 0;
}

/* The character at s (n bytes left) onto b, escaped when it must be;
 * returns how many bytes it took. */
static size_t put_printable(strbuf *b, const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2, bad;
    if (c == '\n' || c == '\r' || c == '\t') {
        strbuf_puts(b, c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t");
        return 1;
    }
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && (len > n || !utf8_valid(s, len, &bad)))) {
        strbuf_printf(b, "\\x%02x", c);
        return 1;
    }
    if (c == 0xC2 && (unsigned char)s[1] < 0xA0) {     /* C1: U+0080..U+009F */
        strbuf_printf(b, "\\u%04x", (unsigned char)s[1]);
        return 2;
    }
    strbuf_printf(b, "%.*s", (int)len, s);
    return len;
}

char *text_printable(const char *s)
{
    if (!needs_escape(s))
        return xstrdup(s);
    strbuf b = STRBUF_INIT;
    for (size_t i = 0, n = strlen(s); i < n;)
        i += put_printable(&b, s + i, n - i);
    return strbuf_take(&b);
}

static void print_text(const table *t, FILE *out, size_t rows)
{
    /* the header row, then the cells, as they may be shown on a terminal */
    size_t nshown = (rows + 1) * t->ncols;
    char **shown = xmalloc((nshown ? nshown : 1) * sizeof *shown);
    for (size_t i = 0; i < nshown; i++)
        shown[i] = text_printable(i < t->ncols ? t->names[i] : t->cells[i - t->ncols]);
    size_t *w = xcalloc(t->ncols, sizeof *w);
    for (size_t c = 0; c < t->ncols; c++)
        for (size_t r = 0; r <= rows; r++) {
            size_t l = textwidth(shown[r * t->ncols + c]);
            if (l > w[c])
                w[c] = l;
        }
    for (size_t r = 0; r <= rows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = shown[r * t->ncols + c];
            size_t pad = w[c] - textwidth(s);
            int last = c + 1 == t->ncols;
            if (t->numeric[c])
                fprintf(out, "%*s%s", (int)pad, "", s);
            else
                fprintf(out, "%s%*s", s, last ? 0 : (int)pad, "");
            fputs(last ? "\n" : "  ", out);
        }
    }
    free(w);
    for (size_t i = 0; i < nshown; i++)
        free(shown[i]);
    free(shown);
}

static void print_json(const table *t, FILE *out, size_t rows)
{
    json_t *arr = json_array();
    for (size_t r = 0; r < rows; r++) {
        json_t *obj = json_object();
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            double v;
            json_t *val;
            if (t->numeric[c] && parse_double(s, &v) == 0)
                val = v == (double)(json_int_t)v && fabs(v) < 9e15 ? json_integer((json_int_t)v)
                                                                 : json_real(v);
            else if (t->numeric[c] && !*s)
                val = json_null();
            else
                val = json_string(s);
            json_object_set_new(obj, t->names[c], val);
        }
        json_array_append_new(arr, obj);
    }
    json_dumpf(arr, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    fputc('\n', out);
    json_decref(arr);
}

void table_print(const table *t, out_format f, FILE *out, const char *empty_msg)
{
    complete_row((table *)t);
    size_t rows = table_rows(t);
    if (f == FMT_JSON) {
        print_json(t, out, rows);
    } else if (f == FMT_CSV) {
        for (size_t r = 0; r <= rows; r++)
            for (size_t c = 0; c < t->ncols; c++) {
                csv_put(out, r == 0 ? t->names[c] : t->cells[(r - 1) * t->ncols + c]);
                fputc(c + 1 == t->ncols ? '\n' : ',', out);
            }
    } else if (rows == 0 && empty_msg) {
        fprintf(out, "%s\n", empty_msg);
    } else {
        print_text(t, out, rows);
    }
}

void fmt_double(char *buf, size_t len, double v)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void fmt_float(char *buf, size_t len, float v)
{
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, len, "%.*g", prec, (double)v);
        if ((float)strtod(buf, NULL) == v)
            return;
    }
}
