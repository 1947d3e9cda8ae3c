/*
 * util.c — allocation wrappers, error values, strict number parsing and
 * small file helpers shared by the engine, the store and both front ends.
 */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int gp_error(gp_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void gp_error_prefix(gp_err *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[GP_ERR_MAX], old[GP_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    /* Truncation of very long messages is acceptable. */
    size_t n = strlen(prefix);
    if (n > sizeof err->msg - 3)
        n = sizeof err->msg - 3;
    memcpy(err->msg, prefix, n);
    memcpy(err->msg + n, ": ", 2);
    strlcpy0(err->msg + n + 2, old, sizeof err->msg - n - 2);
}

static void out_of_memory(size_t n)
{
    fprintf(stderr, "gpuplan: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
    void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
    if (!p)
        out_of_memory(nmemb * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void *xmemdup(const void *src, size_t n)
{
    void *d = xmalloc(n);
    if (n)
        memcpy(d, src, n);
    return d;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        out_of_memory(0);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    *arr = xrealloc(*arr, ncap * elem);
    *cap = ncap;
}

double ceil_tol(double x)
{
    return ceil(x - GP_ROUND_EPS);
}

double floor_tol(double x)
{
    return floor(x + GP_ROUND_EPS);
}

void strlcpy0(char *dst, const char *src, size_t n)
{
    if (n == 0)
        return;
    size_t l = strlen(src);
    if (l >= n)
        l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

int parse_int64(const char *s, int64_t *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end != '\0' || end == s)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    /* strtod also reads C99 hex floats ("0x10" is 16, "0x1p4" too); no
     * input format gpuplan reads writes them, so an 'x' is a typo or a
     * hex field, refused rather than read as a number nobody meant. */
    if (strpbrk(s, "xX"))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno == ERANGE || *end != '\0' || end == s || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int utf8_valid(const char *s, size_t len, size_t *bad_at)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t need;
        unsigned min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            need = 1, min = 0x80, c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2, min = 0x800, c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3, min = 0x10000, c &= 0x07;
        } else {
            goto bad;
        }
        for (size_t k = 1; k <= need; k++) {
            if (i + k >= len || (p[i + k] & 0xC0) != 0x80)
                goto bad;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            goto bad;
        i += need + 1;
    }
    return 1;
bad:
    if (bad_at)
        *bad_at = i;
    return 0;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *read_file(const char *path, size_t *len, gp_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gp_error(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        gp_error(err, "%s: read error", path);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int mkdir_p(const char *dir, gp_err *err)
{
    char *p = xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            gp_error(err, "%s: cannot create directory: %s", p, strerror(errno));
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        rc = gp_error(err, "%s: cannot create directory: %s", p, strerror(errno));
    free(p);
    return rc;
}

int name_check(const char *name, gp_err *err)
{
    size_t len = strlen(name), bad;
    if (!utf8_valid(name, len, &bad))
        return gp_error(err, "a name must be UTF-8 text (invalid byte at %zu)", bad);
    size_t blank = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (ch < 0x20 || ch == 0x7f)
            return gp_error(err, "a name cannot hold a control character (byte %zu is 0x%02x)",
                            i, ch);
        blank += ch == ' ';
    }
    if (blank == len)
        return gp_error(err, "a name cannot be empty or only spaces");
    return 0;
}

const char *utf_other_encoding(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    if (len >= 4 && memcmp(p, "\xFF\xFE\0\0", 4) == 0)
        return "UTF-32LE";
    if (len >= 4 && memcmp(p, "\0\0\xFE\xFF", 4) == 0)
        return "UTF-32BE";
    if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE)
        return "UTF-16LE";
    if (len >= 2 && p[0] == 0xFE && p[1] == 0xFF)
        return "UTF-16BE";
    if (len >= 2 && p[0] && p[0] < 0x80 && !p[1])
        return "UTF-16LE";
    if (len >= 2 && !p[0] && p[1] && p[1] < 0x80)
        return "UTF-16BE";
    return NULL;
}
