/*
 * colname.c — headers shortened by the rule colname.h states.
 */
#include "colname.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static int is_sep(char c)
{
    return c == '_' || c == ' ' || c == '-' || c == '/';
}

static int is_vowel(char c)
{
    return c && strchr("aeiouAEIOU", c) != NULL;
}

/* Step 1: "_pct" at the end becomes "%". */
static void unit_signs(char *s)
{
    size_t n = strlen(s);
    if (n > 4 && strcmp(s + n - 4, "_pct") == 0)
        memcpy(s + n - 4, "%", 2);
}

/* Step 2: drops the last vowel that is not a word's first letter, from the
 * last word back; 0 when none is left. */
static int drop_vowel(char *s)
{
    for (size_t i = strlen(s); i-- > 1;) {
        if (is_vowel(s[i]) && !is_sep(s[i - 1])) {
            memmove(s + i, s + i + 1, strlen(s + i + 1) + 1);
            return 1;
        }
    }
    return 0;
}

static void fit_one(const char *name, int width, char *out)
{
    snprintf(out, COLNAME_MAX, "%s", name);
    if ((int)strlen(out) <= width)
        return;
    unit_signs(out);
    while ((int)strlen(out) > width && drop_vowel(out))
        ;
    if ((int)strlen(out) > width)
        out[width] = '\0';
}

/* 1 when out[i] equals one of out[0..i). */
static int taken(char (*out)[COLNAME_MAX], size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(out[k], out[i]) == 0)
            return 1;
    return 0;
}

void colname_fit(const char *const *names, size_t n, int width, char (*out)[COLNAME_MAX])
{
    assert(width >= 1 && width < COLNAME_MAX);
    for (size_t i = 0; i < n; i++) {
        fit_one(names[i], width, out[i]);
        /* The same name twice in the input stays the same; only a
         * collision the shortening made gets a digit. */
        int same_input = 0;
        for (size_t k = 0; k < i; k++)
            same_input |= strcmp(names[k], names[i]) == 0;
        if (same_input)
            continue;
        size_t len = strlen(out[i]);
        for (char d = '2'; taken(out, i) && d <= '9'; d++) {
            if ((int)len >= width)
                out[i][width - 1] = d, out[i][width] = '\0';
            else
                out[i][len] = d, out[i][len + 1] = '\0';
        }
    }
}
