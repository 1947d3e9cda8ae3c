/*
 * tablesort.c — ordering table rows by a column (tablesort.h).
 */
#include "tablesort.h"
#include "tablesort_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfit.h"

int tablesort_value(const char *s, double *v)
{
    while (*s == ' ')
        s++;
    if (textfit_clock_seconds(s, v))
        return 1;
    if (!textfit_is_number(s))
        return 0;
    char plain[64];
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < sizeof plain; p++)
        if (*p != ',')
            plain[k++] = *p;
    plain[k] = '\0';
    char *end;
    *v = strtod(plain, &end);
    while (*end == ' ')
        end++;
    static const struct { char c; double mul; } units[] = {
        {'k', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'s', 1}, {'%', 1},
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (end[0] == units[i].c && !isalpha((unsigned char)end[1]))
            *v *= units[i].mul;
    return isfinite(*v);
}

static int is_blank(const char *s)
{
    while (*s == ' ')
        s++;
    return !*s || strcmp(s, "-") == 0;
}

int tablesort_cmp(const char *a, const char *b)
{
    double x, y;
    int na = tablesort_value(a, &x), nb = tablesort_value(b, &y);
    if (na && nb)
        return (x > y) - (x < y);
    if (na != nb)
        return na ? -1 : 1;     /* numbers before text */
    return strcmp(a, b);
}

/* Insertion sort: tables are short (runs, candidates, stored items), and
 * it is stable and takes a context, which qsort does not. */
void tablesort_order(size_t n, table_sort s, tablesort_cell_fn cell, const void *ctx,
                     size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (s.by <= 0)
        return;
    char ba[256], bb[256];
    for (size_t i = 1; i < n; i++) {
        size_t cur = order[i], j = i;
        for (; j > 0; j--) {
            const char *x = cell(ctx, cur, s.by - 1, ba, sizeof ba);
            const char *y = cell(ctx, order[j - 1], s.by - 1, bb, sizeof bb);
            int bx = is_blank(x), by = is_blank(y);
            int c = bx != by ? (bx ? 1 : -1) : bx ? 0 : tablesort_cmp(x, y) * (s.desc ? -1 : 1);
            if (c >= 0)
                break;
            order[j] = order[j - 1];
        }
        order[j] = cur;
    }
}

void tablesort_next(table_sort *s, int ncols, int reverse)
{
    if (reverse) {
        if (s->by > 0)
            s->desc = !s->desc;
        return;
    }
    s->by = s->by < ncols ? s->by + 1 : 0;
    s->desc = 0;
}
