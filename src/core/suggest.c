/*
 * suggest.c — the closest known name to a typed one (see suggest.h).
 *
 * The distance is Damerau-Levenshtein's restricted form over ASCII
 * letters folded to lower case, cut off at a limit: the names compared
 * are short (a policy, a GPU model, a trace), and a typo is a case, a
 * dropped, doubled, wrong or swapped character.  How close counts as
 * close shrinks with the name: one edit turns any one-letter name into
 * any other and two make "nope" of "noon", so a name of four characters
 * or fewer gets one edit, and a single character only a case difference.
 */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int suggest_distance(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > (size_t)limit)
        return limit + 1;
    if (lb >= 256)
        return limit + 1;
    /* Three rows of the table: two back for the swap. */
    int rows[3][257];
    int *pp = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        int row_min = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            int ca = fold((unsigned char)a[i - 1]), cb = fold((unsigned char)b[j - 1]);
            int d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb));
            if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
                fold((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < d)
                d = pp[j - 2] + 1;
            cur[j] = d;
            if (d < row_min)
                row_min = d;
        }
        if (row_min > limit)
            return limit + 1;
        int *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb] <= limit ? prev[lb] : limit + 1;
}

/* How many edits a typed name of len characters may be from a suggestion. */
static int edits_allowed(size_t len)
{
    return len <= 1 ? 0 : len <= 4 ? 1 : SUGGEST_MAX_EDITS;
}

void suggest_init(suggest *sg, const char *given)
{
    sg->given = given ? given : "";
    sg->best[0] = '\0';
    sg->cost = SUGGEST_MAX_EDITS + 1;
}

void suggest_offer(suggest *sg, const char *name)
{
    if (!name || !*name || strcmp(name, sg->given) == 0 || strlen(name) >= sizeof sg->best)
        return;
    int limit = edits_allowed(strlen(sg->given));
    int d = suggest_distance(sg->given, name, limit);
    if (d > limit || d >= sg->cost)
        return;
    /* 0 edits after folding case: the name differs only in case. */
    sg->cost = d;
    memcpy(sg->best, name, strlen(name) + 1);
}

const char *suggest_best(const suggest *sg)
{
    return sg->best[0] ? sg->best : NULL;
}

const char *suggest_hint(const suggest *sg, char *buf, size_t len)
{
    if (!suggest_best(sg))
        return "";
    snprintf(buf, len, " (did you mean '%s'?)", sg->best);
    return buf;
}
