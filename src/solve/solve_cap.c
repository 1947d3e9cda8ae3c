/*
 * solve_cap.c — a GPU power cap in GOGH's and CATS's instances
 * (solve_cap.h).  The clamp itself is power/power_cap.c's, the one the
 * simulator uses: cap -> clock ceiling (CATS eq. 1 inverted) -> rate (CATS
 * eq. 5).  This file only carries its two numbers into the instances.
 */
#include "solve_cap.h"
#include "solve_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int solve_cap_of(const gpu_profile *p, const power_caps *caps, solve_cap *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    out->prof = p;
    out->cap_w = power_caps_for(caps, p->name);
    out->effect = CAP_NO_EFFECT;
    out->f_mhz = p->f_max_mhz;
    out->rate = 1;
    out->busy_w = p->max_w;
    if (!(out->cap_w > 0))
        return 0;
    /* the same refusals as a run's: below idle, below the lowest clock */
    if (power_cap_check(p, out->cap_w, 0, err) ||
        power_cap_clock(p, out->cap_w, &out->f_mhz, &out->effect, err))
        return -1;
    if (out->effect == CAP_CLAMP) {
        out->rate = power_clock_rate(p, out->f_mhz);
        out->busy_w = power_at_clock(p, out->f_mhz);
    }
    return 0;
}

/* A change from a to b in percent of a. */
static double pct_change(double a, double b)
{
    return a != 0 ? 100 * (b - a) / a : 0;
}

void solve_cap_describe(const solve_cap *c, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (!(c->cap_w > 0))
        return;
    const gpu_profile *p = c->prof;
    if (c->effect == CAP_NO_EFFECT)
        snprintf(buf, len, "%s %g W: no effect: cap %g W >= max %g W (throughput and power "
                 "unchanged)", p->name, c->cap_w, c->cap_w, p->max_w);
    else
        snprintf(buf, len, "%s %g W: clock clamp to %.0f MHz: throughput x %.3f (%+.1f %%), "
                 "busy draw %g -> %.4g W (%+.1f %%)", p->name, c->cap_w, c->f_mhz, c->rate,
                 pct_change(1, c->rate), p->max_w, c->busy_w, pct_change(p->max_w, c->busy_w));
}

/* ---- GOGH --------------------------------------------------------------------------- */

/* Type a's solo and pair throughputs times rate. */
static void scale_type(gogh_inst *in, size_t a, double rate)
{
    size_t J = in->njobs;
    for (size_t j = 0; j < J; j++) {
        in->solo[a * J + j] *= rate;
        for (size_t k = 0; k < J; k++)
            in->pair[(a * J + j) * J + k] *= rate;
    }
}

int gogh_inst_cap(gogh_inst *in, const gpu_profile *const *prof, const power_caps *caps,
                  gp_err *err)
{
    for (size_t a = 0; a < in->ntypes; a++) {
        solve_cap c;
        if (solve_cap_of(prof[a], caps, &c, err)) {
            gp_error_prefix(err, "--gpu-cap");
            return -1;
        }
        if (c.effect != CAP_CLAMP)
            continue;       /* no effect: the instance stays as it was */
        scale_type(in, a, c.rate);
        in->types[a].max_w = c.busy_w;
    }
    return 0;
}

/* ---- CATS --------------------------------------------------------------------------- */

int cats_inst_cap(cats_inst *in, const power_caps *caps, int *forbidden, gp_err *err)
{
    size_t L = in->ntasks, G = in->ngpus;
    unsigned char *allow = in->allow;
    int n = 0;
    for (size_t g = 0; g < G; g++) {
        const gpu_profile *p = in->gpus[g].prof;
        solve_cap c;
        if (solve_cap_of(p, caps, &c, err)) {
            gp_error_prefix(err, "--gpu-cap");
            free(allow != in->allow ? allow : NULL);
            return -1;
        }
        if (c.effect != CAP_CLAMP)
            continue;
        /* first GPU of its profile counts the model's forbidden tasks */
        int first = 1;
        for (size_t h = 0; h < g && first; h++)
            first = in->gpus[h].prof != p;
        for (size_t l = 0; l < L; l++) {
            /* eq. 14 asks f >= f_req; the cap f <= f_cap */
            if (cats_freq_req(p, in->tasks[l].kappa) <= c.f_mhz * (1 + SOLVE_EPS))
                continue;
            if (!allow) {
                allow = xmalloc(L * G + 1);
                memset(allow, 1, L * G + 1);
            }
            n += first && allow[l * G + g];
            allow[l * G + g] = 0;
        }
    }
    in->allow = allow;
    if (forbidden)
        *forbidden = n;
    return 0;
}

int cats_places_forbidden(const cats_inst *in, const solve_place *pl, size_t n)
{
    int bad = 0;
    for (size_t k = 0; in->allow && k < n; k++)
        bad += !in->allow[(size_t)pl[k].task * in->ngpus + (size_t)pl[k].gpu];
    return bad;
}
