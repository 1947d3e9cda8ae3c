/*
 * speed.c — Amdahl's law for a task moved to a faster or slower GPU
 * (speed.h).
 */
#include "speed.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "util_series.h"

double speed_gpu_fraction(const task *tk)
{
    int has_data = useries_has_series(tk) || tk->util_mean > 0 || tk->util_peak > 0 ||
                   tk->util_first > 0;
    if (!has_data)
        return 1;
    double u = useries_summary(tk, US_MEAN) / 100.0;
    return u < 0 ? 0 : u > 1 ? 1 : u;
}

double speed_stretch(double u, double s)
{
    assert(s > 0);
    return u / s + (1 - u);
}

double speed_rate(double u, double s)
{
    double k = speed_stretch(u, s);
    return k > 0 ? 1 / k : 1;
}

double speed_util(double p, double u, double s)
{
    double k = speed_stretch(u, s);
    if (!(k > 0))
        return p;
    double v = p / (s * k);
    return v > 100 ? 100 : v;
}

int speed_ref_resolve(const catalog *cat, const gp_trace *tr, const char *ref_gpu,
                      double ref_speed, char *name, size_t name_len, double *speed,
                      gp_err *err)
{
    name[0] = 0;
    if (ref_speed < 0 || !(ref_speed == ref_speed))
        return gp_error(err, "the reference speed must be positive, got %g", ref_speed);
    if (ref_speed > 0) {
        *speed = ref_speed;
        return 0;
    }
    int stated = ref_gpu && *ref_gpu;
    const char *n = stated                      ? ref_gpu
                    : tr && tr->ref_gpu[0]      ? tr->ref_gpu
                                                : SPEED_DEFAULT_REF;
    strlcpy0(name, n, name_len);
    const gpu_profile *g = catalog_gpu(cat, n);
    if (!g && strcmp(n, SPEED_DEFAULT_REF) != 0)
        return gp_error(err, "%s '%s' is not a GPU profile; add it (gpuplan profile gpu %s "
                        "...) or name another reference (--ref-gpu MODEL or --ref-speed X)",
                        stated ? "the reference GPU" : "the GPU the trace was measured on",
                        n, n);
    *speed = g ? gpu_speed(g) : 1;
    return 0;
}

void speed_ref_describe(const char *name, double speed, char *buf, size_t len)
{
    if (name && *name)
        snprintf(buf, len, "speeds relative to %s (speed %g)", name, speed);
    else
        snprintf(buf, len, "speeds relative to speed %g", speed);
}
