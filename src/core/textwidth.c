/*
 * textwidth.c — UTF-8 decoding and wcwidth() under C.UTF-8 (textwidth.h).
 */
#include "textwidth.h"

#include <locale.h>
#include <pthread.h>
#include <wchar.h>

/* The C.UTF-8 locale, made once (newlocale is not cheap) and kept for the
 * life of the program: (locale_t)0 when the system has none. */
static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_locale_open(void)
{
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* The code point of a well-formed sequence at s of n = 2..4 bytes, or
 * TEXTWIDTH_BAD. */
static uint32_t decode(const unsigned char *s, size_t n)
{
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    uint32_t cp = s[0] & (0x7Fu >> n);
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return TEXTWIDTH_BAD;
        cp = cp << 6 | (s[k] & 0x3F);
    }
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return TEXTWIDTH_BAD;
    return cp;
}

size_t textwidth_next(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = u[0] < 0x80 ? 1 : u[0] >= 0xF8 ? 0 : u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3
             : u[0] >= 0xC0 ? 2 : 0;
    if (n == 1) {
        *cp = u[0];
        return 1;
    }
    *cp = n ? decode(u, n) : TEXTWIDTH_BAD;   /* decode stops at the NUL */
    if (*cp != TEXTWIDTH_BAD)
        return n;
    size_t k = 1;
    while ((u[k] & 0xC0) == 0x80)
        k++;
    return k;
}

int textwidth_char(uint32_t cp)
{
    if (cp >= 0x20 && cp < 0x7F)
        return 1;
    pthread_once(&utf8_once, utf8_locale_open);
    locale_t old = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
    int w = wcwidth((wchar_t)cp);
    if (utf8_locale)
        uselocale(old);
    return w < 0 ? 1 : w;
}

size_t textwidth(const char *s)
{
    size_t cols = 0;
    uint32_t cp;
    for (size_t k; *s; s += k) {
        k = textwidth_next(s, &cp);
        cols += (size_t)textwidth_char(cp);
    }
    return cols;
}
