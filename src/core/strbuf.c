/*
 * strbuf.c — the growable string of strbuf.h.
 */
#include "strbuf.h"
#include "util.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(strbuf *b, size_t more)
{
    grow_array((void **)&b->s, &b->cap, b->len + more + 1, 1);
}

void strbuf_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert(n >= 0);
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void strbuf_puts(strbuf *b, const char *s)
{
    size_t n = strlen(s);
    reserve(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void strbuf_sep(strbuf *b, const char *sep)
{
    if (b->len)
        strbuf_puts(b, sep);
}

const char *strbuf_str(const strbuf *b)
{
    return b->len ? b->s : "";
}

void strbuf_copy_to(const strbuf *b, char *dst, size_t n)
{
    if (n == 0)
        return;
    size_t k = b->len < n - 1 ? b->len : n - 1;
    /* Back off to the start of a UTF-8 sequence when the cut falls in one. */
    if (k < b->len)
        while (k > 0 && ((unsigned char)b->s[k] & 0xC0) == 0x80)
            k--;
    if (k)
        memcpy(dst, b->s, k);
    dst[k] = '\0';
}

char *strbuf_take(strbuf *b)
{
    char *s = b->s ? b->s : xstrdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void strbuf_reset(strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void strbuf_free(strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}
