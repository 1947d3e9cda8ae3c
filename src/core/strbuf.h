/*
 * strbuf.h — a growable string for text built piece by piece (placement
 * logs, option summaries, listings), so that no call site does the
 * `off += snprintf(buf + off, len - off, ...)` arithmetic that overflows
 * once a piece is cut short.
 *
 * Ownership: a strbuf owns its text; strbuf_free() releases it, and
 * strbuf_take() hands it to the caller (who frees it with free()).  A
 * zeroed strbuf (STRBUF_INIT) is empty and ready to use.
 */
#ifndef GP_STRBUF_H
#define GP_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
    char *s;                    /* NUL-terminated once anything is added */
    size_t len, cap;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0}

/* Appends formatted text. */
void strbuf_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_puts(strbuf *b, const char *s);
/* Appends sep first unless the buffer is empty ("a, b, c" lists). */
void strbuf_sep(strbuf *b, const char *sep);
/* The text so far; "" when nothing was added.  Valid until the next append. */
const char *strbuf_str(const strbuf *b);
/* Copies the text into a fixed field of n bytes, cut short if it must be
 * (never inside a UTF-8 sequence), always NUL-terminated. */
void strbuf_copy_to(const strbuf *b, char *dst, size_t n);
/* Hands the text to the caller ("" when empty, never NULL) and empties b. */
char *strbuf_take(strbuf *b);
void strbuf_reset(strbuf *b);
void strbuf_free(strbuf *b);

#endif
