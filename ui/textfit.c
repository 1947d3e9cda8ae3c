/*
 * textfit.c — ellipsis and number fitting for table cells and names
 * (textfit.h).  Pure: no curses, no locale setup of its own.
 */
#include "textfit.h"
#include "textfit_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "core/textwidth.h"

int textfit_width(const char *s)
{
    return (int)textwidth(s);
}

/* Bytes of the longest prefix of s within w columns; *cols gets its width. */
static size_t prefix_bytes(const char *s, int w, int *cols)
{
    size_t b = 0;
    int c = 0;
    uint32_t cp;
    while (s[b]) {
        size_t k = textwidth_next(s + b, &cp);
        int cw = textwidth_char(cp);
        if (c + cw > w)
            break;
        c += cw;
        b += k;
    }
    *cols = c;
    return b;
}

/* Byte offset of the shortest suffix of s that is at most w columns wide
 * and as wide as possible; *cols gets its width. */
static size_t suffix_start(const char *s, int w, int *cols)
{
    size_t n = strlen(s), start = n;
    int c = 0;
    size_t b = 0;
    uint32_t cp;
    /* Character starts, walked forward; keep the first whose rest fits. */
    int total = textfit_width(s);
    while (s[b]) {
        if (total - c <= w) {
            start = b;
            break;
        }
        size_t k = textwidth_next(s + b, &cp);
        c += textwidth_char(cp);
        b += k;
    }
    *cols = start == n ? 0 : total - c;
    return start;
}

int textfit(const char *s, int w, textfit_mode mode, const char *ell, char *out, size_t len)
{
    if (len == 0)
        return 0;
    int tw = textfit_width(s), ew = textfit_width(ell), pc, sc;
    if (w < 0)
        w = 0;
    if (tw <= w) {
        snprintf(out, len, "%s", s);
        return tw;
    }
    if (w <= ew) {
        size_t pb = prefix_bytes(s, w, &pc);
        snprintf(out, len, "%.*s", (int)pb, s);
        return pc;
    }
    int room = w - ew;
    /* The middle cut keeps a little more of the start, which usually
     * carries the kind of thing named. */
    int head = mode == TEXTFIT_MIDDLE ? room - room / 2 : room;
    size_t pb = prefix_bytes(s, head, &pc);
    size_t ss = mode == TEXTFIT_MIDDLE ? suffix_start(s, room - pc, &sc) : strlen(s);
    if (mode != TEXTFIT_MIDDLE)
        sc = 0;
    snprintf(out, len, "%.*s%s%s", (int)pb, s, ell, s + ss);
    return pc + ew + sc;
}

int textfit_is_number(const char *s)
{
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
        return 0;
    int digits = 0;
    for (; *s; s++) {
        if (isdigit((unsigned char)*s))
            digits++;
        else if (*s == '.' || *s == ',')
            continue;
        else if ((*s == 'e' || *s == 'E') && (s[1] == '+' || s[1] == '-' ||
                                              isdigit((unsigned char)s[1])))
            s += s[1] == '+' || s[1] == '-';
        else
            break;
    }
    /* At most one unit after the digits, perhaps after a space: k M G T %
     * x or a word of up to 3 characters (kW, GiB). */
    if (*s == ' ')
        s++;
    int unit = 0;
    for (; *s && *s != ' '; s++)
        if (++unit > 3)
            return 0;
    return digits > 0 && *s == '\0';
}

/* v in scientific notation as short as it gets, within w characters if
 * any precision allows: 1.9e-05 -> 1.9e-5 -> 2e-5. */
static void short_exponent(double v, int w, char *out, size_t len)
{
    for (int prec = 2; prec >= 0; prec--) {
        char buf[32], *e;
        snprintf(buf, sizeof buf, "%.*e", prec, v);
        if ((e = strchr(buf, 'e'))) {
            char *d = e + 1;
            int neg = *d == '-';
            if (*d == '+' || *d == '-')
                d++;
            while (*d == '0' && d[1])
                d++;
            snprintf(out, len, "%.*se%s%s", (int)(e - buf), buf, neg ? "-" : "", d);
        } else {
            snprintf(out, len, "%s", buf);
        }
        if ((int)strlen(out) <= w)
            return;
    }
}

int textfit_clock_seconds(const char *s, double *v)
{
    long d = 0, h, m, sec;
    int n = 0;
    while (*s == ' ')
        s++;
    if (sscanf(s, "%ldd %ld:%ld:%ld%n", &d, &h, &m, &sec, &n) == 4 && !s[n]) {
        *v = d * 86400.0 + h * 3600.0 + m * 60.0 + sec;
        return 1;
    }
    if (sscanf(s, "%ld:%ld:%ld%n", &h, &m, &sec, &n) == 3 && !s[n]) {
        *v = h * 3600.0 + m * 60.0 + sec;
        return 1;
    }
    return 0;
}

void textfit_number(const char *s, int w, char *out, size_t len)
{
    double secs;
    if (textfit_width(s) > w && textfit_clock_seconds(s, &secs)) {
        /* A clock too wide for its column reads in its largest unit. */
        chart_fmt_time_in(secs, secs, out, len);
        return;
    }
    if (textfit_width(s) <= w || !textfit_is_number(s)) {
        snprintf(out, len, "%s", s);
        return;
    }
    char plain[64];
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < sizeof plain; p++)
        if (*p != ',' && *p != ' ')
            plain[k++] = *p;
    plain[k] = '\0';
    char *end;
    double v = strtod(plain, &end);
    /* Only a bare number can be re-written; one with a unit keeps it. */
    if (end == plain || *end != '\0' || !isfinite(v)) {
        snprintf(out, len, "%s", s);
        return;
    }
    char compact[32];
    chart_fmt(v, compact, sizeof compact);
    if (textfit_width(compact) > w)
        short_exponent(v, w, compact, sizeof compact);
    snprintf(out, len, "%s", textfit_width(compact) < textfit_width(s) ? compact : s);
}

/* 1 for the hints every footer keeps while others give way: X (export)
 * and ? (help). */
static int hint_kept(const char *group)
{
    return (group[0] == 'X' || group[0] == '?') && group[1] == ' ';
}

/* Drops "  word" groups of hints until they fit in room columns: the last
 * one that is not X or ?, then those. */
void textfit_hints(char *h, int room)
{
    while (textfit_width(h) > room) {
        char *starts[32];
        int n = 0;
        starts[n++] = h;
        for (char *c = strstr(h, "  "); c && n < 32; c = strstr(c + 2, "  "))
            starts[n++] = c + 2;
        if (n == 1) {
            h[0] = '\0';
            return;
        }
        int drop = n - 1;
        while (drop > 0 && hint_kept(starts[drop]))
            drop--;
        if (drop == 0 && hint_kept(starts[0]))
            drop = n - 1;
        /* the group and the two spaces before it (after it, for the first) */
        char *from = drop ? starts[drop] - 2 : starts[0];
        char *to = drop + 1 < n ? starts[drop + 1] - (drop ? 2 : 0)
                                : starts[drop] + strlen(starts[drop]);
        memmove(from, to, strlen(to) + 1);
    }
}

int textfit_name_figures(const char *name, int name_w, const char *const *forms, int nforms,
                         int w, int min_name, const char *ell, char *out, size_t len)
{
    if (nforms < 1) {
        return textfit(name, w, TEXTFIT_MIDDLE, ell, out, len);
    }
    /* The first form that leaves the name its least, else the last. */
    int k = 0, fw = textfit_width(forms[0]);
    while (k + 1 < nforms && w - 1 - fw < min_name)
        fw = textfit_width(forms[++k]);
    int nw = w - 1 - fw < name_w ? w - 1 - fw : name_w;
    if (nw < 1) {
        snprintf(out, len, "%s", forms[k]);
        return fw;
    }
    char cut[512];
    int cols = textfit(name, nw, TEXTFIT_MIDDLE, ell, cut, sizeof cut);
    snprintf(out, len, "%s%*s %s", cut, nw - cols, "", forms[k]);
    return nw + 1 + fw;
}

void textfit_count(long long n, const char *one, const char *many, int compact, char *out,
                   size_t len)
{
    char num[32];
    if (compact && (n >= 10000 || n <= -10000))
        chart_fmt((double)n, num, sizeof num);
    else
        snprintf(num, sizeof num, "%lld", n);
    snprintf(out, len, "%s%s%s", num, one || many ? " " : "", n == 1 ? (one ? one : "")
                                                                       : (many ? many : ""));
}
