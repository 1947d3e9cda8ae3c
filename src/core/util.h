/*
 * util.h — allocation wrappers, the error value every fallible engine
 * function fills, and small string helpers.
 *
 * Ownership rule for the whole engine: whoever calls a *_new() or a function
 * documented as "returns an allocated ..." owns the result and frees it with
 * the matching *_free() or free().  Functions never take ownership of their
 * arguments unless their comment says so.
 *
 * Errors: fallible functions return 0 on success and -1 on failure, and fill
 * a caller-provided gp_err with a message meant for the user (file, line,
 * column and what was expected, where that applies).  Nothing below main()
 * exits the process, except the allocation wrappers on out-of-memory, which
 * cannot be handled usefully.
 */
#ifndef GP_UTIL_H
#define GP_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GP_ERR_MAX 1024

typedef struct gp_err {
    char msg[GP_ERR_MAX];
} gp_err;

/* Sets err->msg from a printf-style format (err may be NULL); returns -1 so
 * callers can write `return gp_error(err, ...)`. */
int gp_error(gp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefixes err->msg with "prefix: " (used to add a file name or context). */
void gp_error_prefix(gp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A new copy of the n bytes at src (src may be NULL when n is 0); never
 * NULL, so an empty copy is still something to free. */
void *xmemdup(const void *src, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *arr (element size elem) so that it holds at least need elements;
 * *cap is updated.  Doubling keeps appends amortised O(1). */
void grow_array(void **arr, size_t *cap, size_t need, size_t elem);

/* Copies src into dst of size n, always NUL-terminating. */
void strlcpy0(char *dst, const char *src, size_t n);

/* Rounding that forgives floating-point error: x at most GP_ROUND_EPS
 * past a whole number rounds to it (a time that is k periods "and a bit"
 * is k periods; 1.000000000001 GPUs is one). */
#define GP_ROUND_EPS 1e-9
double ceil_tol(double x);
double floor_tol(double x);

/* Strict number parsing: the whole string must be a number, finite, and
 * (for the integer form) within range, decimal (no hex float such as
 * "0x10").  Return 0 or -1, no message. */
int parse_int64(const char *s, int64_t *out);
int parse_double(const char *s, double *out);

/* 1 when s is well-formed UTF-8, else 0 (and *bad_at = byte offset). */
int utf8_valid(const char *s, size_t len, size_t *bad_at);

/* The Unicode form a text plainly is when it is not UTF-8 -- a UTF-16 or
 * UTF-32 byte order mark, or ASCII with every other byte NUL, as Windows
 * tools write -- so a refusal can name it; NULL when it is none of them. */
const char *utf_other_encoding(const char *s, size_t len);

/* Whether name can name something in the store: valid UTF-8, not empty or
 * only spaces, no control character (a newline would split the line of
 * every listing that shows it).  Returns 0, or -1 with err saying why. */
int name_check(const char *name, gp_err *err);

/* Monotonic clock in seconds, for reporting durations. */
double now_seconds(void);

/* Reads a whole file into a NUL-terminated buffer (*len excludes the NUL). */
char *read_file(const char *path, size_t *len, gp_err *err);

/* Creates dir and its parents (mode 0755); 0 or -1 with message. */
int mkdir_p(const char *dir, gp_err *err);

#endif
