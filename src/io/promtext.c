/*
 * promtext.c — the Prometheus text exposition reader (promtext.h): a line
 * at a time, a small cursor over it, every error with its column.
 */
#include "promtext.h"
#include "input.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cursor {
    const char *path;
    const char *line;
    const char *p;
    long lineno;
} cursor;

__attribute__((format(printf, 3, 4)))
static int fail_at(const cursor *c, gp_err *err, const char *fmt, ...)
{
    char msg[GP_ERR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gp_error(err, "%s:%ld:%ld: %s", c->path, c->lineno, (long)(c->p - c->line) + 1,
                    msg);
}

static void skip_blanks(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

static int name_start(int ch)
{
    return isalpha(ch) || ch == '_' || ch == ':';
}

/* A metric or label name into buf. */
static int read_name(cursor *c, char *buf, size_t len, const char *what, gp_err *err)
{
    if (!name_start((unsigned char)*c->p))
        return fail_at(c, err, "expected %s (a letter, '_' or ':' first)", what);
    size_t n = 0;
    while (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == ':') {
        if (n + 1 >= len)
            return fail_at(c, err, "%s longer than %zu characters", what, len - 1);
        buf[n++] = *c->p++;
    }
    buf[n] = '\0';
    return 0;
}

/* A quoted label value with its escapes into buf. */
static int read_quoted(cursor *c, char *buf, size_t len, gp_err *err)
{
    if (*c->p != '"')
        return fail_at(c, err, "expected '\"' opening a label value");
    c->p++;
    size_t n = 0;
    for (; *c->p != '"'; c->p++) {
        char ch = *c->p;
        if (ch == '\0' || ch == '\n')
            return fail_at(c, err, "expected '\"' closing the label value");
        if (ch == '\\') {
            ch = *++c->p;
            if (ch != '\\' && ch != '"' && ch != 'n')
                return fail_at(c, err, "expected an escape \\\\, \\\" or \\n");
            ch = ch == 'n' ? '\n' : ch;
        }
        if (n + 1 >= len)
            return fail_at(c, err, "label value longer than %zu characters", len - 1);
        buf[n++] = ch;
    }
    buf[n] = '\0';
    c->p++;
    return 0;
}

static int read_labels(cursor *c, prom_sample *s, gp_err *err)
{
    c->p++;                     /* '{' */
    skip_blanks(c);
    while (*c->p != '}') {
        if (s->nlabels >= PROM_MAX_LABELS)
            return fail_at(c, err, "more than %d labels", PROM_MAX_LABELS);
        prom_label *l = &s->labels[s->nlabels];
        if (read_name(c, l->key, sizeof l->key, "a label name", err))
            return -1;
        skip_blanks(c);
        if (*c->p != '=')
            return fail_at(c, err, "expected '=' after label '%s'", l->key);
        c->p++;
        skip_blanks(c);
        if (read_quoted(c, l->value, sizeof l->value, err))
            return -1;
        s->nlabels++;
        skip_blanks(c);
        if (*c->p == ',') {
            c->p++;
            skip_blanks(c);
        } else if (*c->p != '}') {
            return fail_at(c, err, "expected ',' or '}' after a label");
        }
    }
    c->p++;
    return 0;
}

static int read_value(cursor *c, prom_sample *s, gp_err *err)
{
    skip_blanks(c);
    s->value_col = (long)(c->p - c->line) + 1;
    size_t n = strcspn(c->p, " \t");
    char word[64];
    if (n == 0 || n >= sizeof word)
        return fail_at(c, err, "expected a sample value");
    memcpy(word, c->p, n);
    word[n] = '\0';
    if (strcmp(word, "NaN") == 0)
        s->value = NAN;
    else if (strcmp(word, "+Inf") == 0 || strcmp(word, "Inf") == 0)
        s->value = INFINITY;
    else if (strcmp(word, "-Inf") == 0)
        s->value = -INFINITY;
    else if (parse_double(word, &s->value))
        return fail_at(c, err, "expected a number, NaN, +Inf or -Inf, got '%.40s'", word);
    c->p += n;
    skip_blanks(c);
    if (*c->p) {                /* an optional integer timestamp (ms) */
        size_t t = strspn(c->p, "-0123456789");
        if (t == 0 || (c->p[t] && c->p[t] != ' ' && c->p[t] != '\t'))
            return fail_at(c, err, "expected the end of the line or a timestamp in ms");
        c->p += t;
        skip_blanks(c);
        if (*c->p)
            return fail_at(c, err, "expected the end of the line");
    }
    return 0;
}

static int parse_line(cursor *c, prom_sample *s, gp_err *err)
{
    memset(s, 0, sizeof *s);
    s->line = c->lineno;
    if (read_name(c, s->name, sizeof s->name, "a metric name", err))
        return -1;
    if (*c->p == '{' && read_labels(c, s, err))
        return -1;
    if (*c->p != ' ' && *c->p != '\t')
        return fail_at(c, err, "expected a space before the value");
    return read_value(c, s, err);
}

int prom_each(const char *path, prom_fn fn, void *ctx, gp_err *err)
{
    size_t len;
    char *text = input_read_file(path, &len, err);
    if (!text)
        return -1;
    size_t bad;
    if (!utf8_valid(text, len, &bad)) {
        long line = 1;
        size_t col = bad + 1;
        for (size_t i = 0; i < bad; i++)
            if (text[i] == '\n') {
                line++;
                col = bad - i;
            }
        unsigned byte = (unsigned char)text[bad];
        free(text);
        return gp_error(err, "%s:%ld:%zu: invalid UTF-8 byte 0x%02x (expected UTF-8 text)",
                        path, line, col, byte);
    }
    /* A byte order mark is what Windows editors put first in a UTF-8
     * file; it says nothing about the samples, so it is skipped. */
    char *start = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
    cursor c = {path, NULL, NULL, 0};
    prom_sample *s = xmalloc(sizeof *s);
    int rc = 0;
    for (char *line = start, *next; line && !rc; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r')
            line[l - 1] = '\0';
        c.lineno++;
        c.line = c.p = line;
        skip_blanks(&c);
        if (*c.p == '\0' || *c.p == '#')
            continue;
        rc = parse_line(&c, s, err) || fn(ctx, s, err) ? -1 : 0;
    }
    free(s);
    free(text);
    return rc;
}

const char *prom_label_value(const prom_sample *s, const char *key)
{
    for (size_t i = 0; i < s->nlabels; i++)
        if (strcmp(s->labels[i].key, key) == 0)
            return s->labels[i].value;
    return NULL;
}
