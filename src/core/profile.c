/*
 * profile.c — field table, parsing and validation of profile edits.
 */
#include "profile.h"
#include "profile_int.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define GF(k, h, f, t, lo, hi) {k, h, offsetof(gpu_profile, f), t, lo, hi}
#define CF(k, h, f, t, lo, hi) {k, h, offsetof(cpu_profile, f), t, lo, hi}

const profile_field gpu_profile_fields[] = {
    GF("mem_gib", "device memory, GiB", mem_gib, 'd', 1e-3, 1e6),
    GF("idle_w", "idle power P_gs / p_idle, W", idle_w, 'd', 0, 1e5),
    GF("max_w", "power at full load (TDP), W", max_w, 'd', 0, 1e5),
    GF("sleep_w", "power while asleep, W", sleep_w, 'd', 0, 1e5),
    GF("f_min_mhz", "lowest clock, MHz", f_min_mhz, 'd', 1, 1e5),
    GF("f_max_mhz", "highest clock, MHz", f_max_mhz, 'd', 1, 1e5),
    GF("alpha_w_per_mhz", "dynamic power slope, W/MHz (CATS eq. 3)", alpha_w_per_mhz, 'd', 0, 1e3),
    GF("beta", "JCT frequency exponent (CATS eq. 5)", beta, 'd', 1e-3, 10),
    GF("price_usd", "purchase price, USD, or unknown (setting it clears price_source)",
       price_usd, 'u', 0, 1e9),
    GF("price_source", "where the price comes from, and its date", price_source, 's', 0, 128),
    GF("tput_class", "throughput-table accelerator (k80, p100, v100 or empty)", tput_class, 's', 0, 16),
    GF("speed", "speed against a V100 (1) of a task with no job type in a throughput table",
       speed, 'd', 1e-3, 1e3),
    {NULL, NULL, 0, 0, 0, 0},
};

const profile_field cpu_profile_fields[] = {
    CF("cores", "physical cores per package", cores, 'i', 1, 4096),
    CF("idle_w", "package power with every core idle, W", idle_w, 'd', 0, 1e5),
    CF("max_w", "package power with any core busy, W", max_w, 'd', 0, 1e5),
    {NULL, NULL, 0, 0, 0, 0},
};

int profile_set(void *profile, const profile_field *fields, const char *key,
                const char *value, gp_err *err)
{
    const profile_field *f = fields;
    while (f->key && strcmp(f->key, key) != 0)
        f++;
    if (!f->key)
        return gp_error(err, "unknown field '%s'", key);
    char *p = (char *)profile + f->offset;
    if (f->type == 's') {
        if (strlen(value) >= (size_t)f->max)
            return gp_error(err, "%s: at most %d characters", key, (int)f->max - 1);
        strlcpy0(p, value, (size_t)f->max);
        return 0;
    }
    double v;
    if (f->type == 'u' && strcmp(value, "unknown") == 0) {
        *(double *)(void *)p = NAN;
    } else if (parse_double(value, &v) || v < f->min || v > f->max) {
        return gp_error(err, "%s: expected a number in [%g, %g]%s, got '%s'", key, f->min,
                        f->max, f->type == 'u' ? " or unknown" : "", value);
    }
    /* A price set by hand is the user's own: the catalog's source no
     * longer describes it. */
    if (fields == gpu_profile_fields && strcmp(key, "price_usd") == 0)
        ((gpu_profile *)profile)->price_source[0] = 0;
    if (f->type == 'u' && strcmp(value, "unknown") == 0)
        return 0;
    if (f->type == 'i') {
        if (v != (int)v)
            return gp_error(err, "%s: expected a whole number, got '%s'", key, value);
        *(int *)(void *)p = (int)v;
    } else {
        *(double *)(void *)p = v;
    }
    return 0;
}

void profile_get(const void *profile, const profile_field *f, char *buf, size_t len)
{
    const char *p = (const char *)profile + f->offset;
    if (f->type == 's')
        snprintf(buf, len, "%s", p);
    else if (f->type == 'i')
        snprintf(buf, len, "%d", *(const int *)(const void *)p);
    else if (f->type == 'u' && isnan(*(const double *)(const void *)p))
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%g", *(const double *)(const void *)p);
}

int gpu_profile_check(const gpu_profile *g, gp_err *err)
{
    if (!g->name[0])
        return gp_error(err, "a GPU profile needs a name");
    if (g->mem_gib <= 0)
        return gp_error(err, "%s: mem_gib must be > 0", g->name);
    if (g->max_w < g->idle_w)
        return gp_error(err, "%s: max_w (%g) is below idle_w (%g)", g->name, g->max_w,
                        g->idle_w);
    if (g->f_min_mhz <= 0 || g->f_max_mhz < g->f_min_mhz)
        return gp_error(err, "%s: expected 0 < f_min_mhz <= f_max_mhz", g->name);
    if (g->beta <= 0)
        return gp_error(err, "%s: beta must be > 0", g->name);
    return 0;
}

int cpu_profile_check(const cpu_profile *p, gp_err *err)
{
    if (!p->name[0])
        return gp_error(err, "a CPU profile needs a name");
    if (p->cores <= 0)
        return gp_error(err, "%s: cores must be > 0", p->name);
    if (p->max_w < p->idle_w)
        return gp_error(err, "%s: max_w (%g) is below idle_w (%g)", p->name, p->max_w,
                        p->idle_w);
    return 0;
}

double gpu_profile_derived_alpha(const gpu_profile *g)
{
    return g->f_max_mhz > 0 ? (g->max_w - g->idle_w) / g->f_max_mhz : 0;
}

/* Within the rounding a stored slope carries (sample sets keep 4
 * significant digits). */
static int same_slope(double a, double b)
{
    return fabs(a - b) <= 1e-3 * fmax(fabs(a), fabs(b)) + 1e-12;
}

int gpu_profile_follow_slope(const gpu_profile *old, gpu_profile *g, gp_err *err)
{
    double derived = gpu_profile_derived_alpha(g);
    if (!old) {
        if (g->alpha_w_per_mhz == 0)
            g->alpha_w_per_mhz = derived;
        return 0;
    }
    if (old->max_w == g->max_w && old->idle_w == g->idle_w && old->f_max_mhz == g->f_max_mhz)
        return 0;
    if (!same_slope(old->alpha_w_per_mhz, gpu_profile_derived_alpha(old)))
        return gp_error(err, "%s: alpha_w_per_mhz %g was measured, not derived from max_w, "
                        "idle_w and f_max_mhz, so it cannot follow their change: give it too "
                        "(derived from the new figures it would be %.4g)", g->name,
                        old->alpha_w_per_mhz, derived);
    g->alpha_w_per_mhz = derived;
    return 0;
}

void profile_changes(const void *old, const void *new_, const profile_field *fields,
                     char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const profile_field *f = fields; f->key; f++) {
        char a[64], b[64];
        profile_get(old, f, a, sizeof a);
        profile_get(new_, f, b, sizeof b);
        if (strcmp(a, b) == 0 || used >= len)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s %s -> %s", used ? "; " : "",
                                 f->key, a, b);
    }
}
