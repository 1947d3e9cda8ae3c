/*
 * power_cap.c — a power cap as a clock ceiling on the profile's own curve,
 * and the cap lists of a run (power_cap.h).
 *
 * CATS §2.1.1: "the total power consumption of a GPU is represented in
 * Equation (1) ... P_gpu = P_gs + alpha f"; §2.1.2, eq. 5: "e_l(f) =
 * e_min,l (f_max / f)^beta".  Inverting eq. 1 at P = cap gives the highest
 * clock the cap allows; eq. 5 gives what that clock costs in speed.  The
 * same eq. 5 is what Alg. 4 (DFS) predicts with, so the simulator reads
 * both mechanisms' rates through power_clock_rate.
 */
#include "power_cap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double power_clock_rate(const gpu_profile *p, double f_mhz)
{
    if (!p || !(p->f_max_mhz > 0) || !(f_mhz > 0))
        return 1;
    return pow(f_mhz / p->f_max_mhz, p->beta);                  /* CATS eq. 5 */
}

double power_at_clock(const gpu_profile *p, double f_mhz)
{
    return p->idle_w + p->alpha_w_per_mhz * f_mhz;              /* CATS eq. 1 */
}

int power_cap_clock(const gpu_profile *p, double cap_w, double *f_mhz,
                    power_cap_effect *effect, gp_err *err)
{
    if (!(cap_w >= p->idle_w))
        return gp_error(err, "a %g W cap is below %s's idle draw of %g W (no clock holds it)",
                        cap_w, p->name, p->idle_w);
    *f_mhz = p->f_max_mhz;
    *effect = CAP_NO_EFFECT;
    if (cap_w >= p->max_w || !(p->alpha_w_per_mhz > 0))
        return 0;
    double f = (cap_w - p->idle_w) / p->alpha_w_per_mhz;        /* eq. 1 at P = cap */
    if (f >= p->f_max_mhz)
        return 0;
    *effect = CAP_CLAMP;
    *f_mhz = f;
    if (f < p->f_min_mhz) {
        *effect = CAP_BELOW_CLOCKS;
        *f_mhz = p->f_min_mhz;
    }
    return 0;
}

int power_cap_check(const gpu_profile *p, double cap_w, int below_clocks_ok, gp_err *err)
{
    double f;
    power_cap_effect eff;
    if (power_cap_clock(p, cap_w, &f, &eff, err))
        return -1;
    if (eff == CAP_BELOW_CLOCKS && !below_clocks_ok)
        return gp_error(err, "a %g W cap is below the %g W %s draws at its lowest clock "
                        "(%g MHz)", cap_w, power_at_clock(p, p->f_min_mhz), p->name,
                        p->f_min_mhz);
    return 0;
}

/* ---- cap lists ------------------------------------------------------------------ */

/* A number of watts at s (len bytes), > 0 and finite. */
static int parse_watts(const char *s, size_t len, size_t col, double *w, gp_err *err)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return gp_error(err, "col %zu: expected watts, a number above 0", col);
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (*end || !isfinite(v) || !(v > 0) || v > 1e6)
        return gp_error(err, "col %zu: '%s' is not watts (a number above 0 and at most 1e6)",
                        col, buf);
    *w = v;
    return 0;
}

/* One MODEL=W part of the list, [s, s + len), at column col. */
static int parse_entry(const char *s, size_t len, size_t col, power_caps *out, gp_err *err)
{
    const char *eq = memchr(s, '=', len);
    if (!eq)
        return gp_error(err, "col %zu: expected MODEL=W in a list of caps", col);
    size_t mlen = (size_t)(eq - s);
    if (mlen == 0 || mlen >= GP_NAME_MAX)
        return gp_error(err, "col %zu: expected a GPU model before '='", col);
    if (out->n == POWER_CAPS_MAX)
        return gp_error(err, "col %zu: at most %d GPU models take a cap", col, POWER_CAPS_MAX);
    power_cap_entry *e = &out->e[out->n];
    memcpy(e->model, s, mlen);
    e->model[mlen] = '\0';
    for (size_t i = 0; i < out->n; i++)
        if (strcmp(out->e[i].model, e->model) == 0)
            return gp_error(err, "col %zu: %s is capped twice", col, e->model);
    if (parse_watts(eq + 1, len - mlen - 1, col + mlen + 1, &e->w, err))
        return -1;
    out->n++;
    return 0;
}

int power_caps_parse(const char *text, power_caps *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text || strcmp(text, "none") == 0)
        return 0;
    if (!strchr(text, '='))
        return parse_watts(text, strlen(text), 1, &out->all_w, err);
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (parse_entry(p, len, (size_t)(p - text) + 1, out, err)) {
            memset(out, 0, sizeof *out);
            return -1;
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int power_caps_any(const power_caps *c)
{
    return c->all_w > 0 || c->n > 0;
}

double power_caps_for(const power_caps *c, const char *model)
{
    if (c->all_w > 0)
        return c->all_w;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->e[i].model, model) == 0)
            return c->e[i].w;
    return 0;
}

void power_caps_format(const power_caps *c, char *buf, size_t len)
{
    if (len == 0)
        return;
    if (c->all_w > 0) {
        snprintf(buf, len, "%g", c->all_w);
        return;
    }
    snprintf(buf, len, "%s", c->n ? "" : "none");
    for (size_t i = 0; i < c->n; i++) {
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "%s%s=%g", i ? "," : "", c->e[i].model, c->e[i].w);
    }
}

int power_caps_check_models(const power_caps *c, const catalog *cat, gp_err *err)
{
    for (size_t i = 0; i < c->n; i++)
        if (!catalog_gpu(cat, c->e[i].model))
            return gp_error(err, "--gpu-cap: no GPU model '%s' (gpuplan list gpus)",
                            c->e[i].model);
    return 0;
}

void power_cap_describe(const gpu_profile *p, double cap_w, char *buf, size_t len)
{
    double f;
    power_cap_effect eff;
    gp_err err;
    if (power_cap_clock(p, cap_w, &f, &eff, &err)) {
        snprintf(buf, len, "%s", err.msg);
        return;
    }
    if (eff == CAP_NO_EFFECT)
        snprintf(buf, len, "no effect: cap %g W >= max %g W", cap_w, p->max_w);
    else if (eff == CAP_CLAMP)
        snprintf(buf, len, "clock clamp to %.0f MHz", f);
    else
        snprintf(buf, len, "cannot hold %g W: %g W at its lowest clock (%g MHz)", cap_w,
                 power_at_clock(p, p->f_min_mhz), p->f_min_mhz);
}
