/*
 * peace_ctrl.c — the simulated power-cap frequency controller
 * (peace_ctrl.h).
 */
#include "peace_ctrl.h"
#include "peace_ctrl_int.h"
#include "core/rng.h"

#include <math.h>
#include <string.h>

void peace_ctrl_params_default(peace_ctrl_params *p, double f_min, double f_max)
{
    memset(p, 0, sizeof *p);
    p->f_min = f_min;
    p->f_max = f_max;
    p->f_step = 15;
    p->period_s = 0.5;          /* PEACE §3: nvidia-smi every 500 ms */
    p->readings = 3;            /* ... three averaged per action */
    p->up_mhz = 30;
    p->down_mhz_per_w = 10;
    p->noise = 0.01;
    p->duration_s = 60;
    p->warmup_s = 15;
    p->window_s = 4;            /* PEACE §4: the 4 s observation window */
    p->seed = 42;
}

#define ALONE_SHARE (100 - PEACE_SHARE_STEP)   /* the largest profiled share */

void peace_alone(const peace_index *ix, int w, double f, double *tput, double *power_w)
{
    int nf = peace_nfreqs(ix), hi = 0;
    while (hi < nf - 1 && peace_freq(ix, hi) < f)
        hi++;
    int lo = hi > 0 && peace_freq(ix, hi) > f ? hi - 1 : hi;
    const peace_profile *a = peace_profile_at(ix, w, ALONE_SHARE, lo);
    const peace_profile *b = peace_profile_at(ix, w, ALONE_SHARE, hi);
    double fa = peace_freq(ix, lo), fb = peace_freq(ix, hi);
    double x = fb > fa ? (f - fa) / (fb - fa) : 0;
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    *tput = a->tput + x * (b->tput - a->tput);
    *power_w = a->power_w + x * (b->power_w - a->power_w);
}

double peace_exclusive(const peace_index *ix, int w)
{
    double t, p;
    peace_alone(ix, w, peace_freq(ix, peace_nfreqs(ix) - 1), &t, &p);
    return t;
}

/* The ground truth the controller runs on: a group's rows, or one
 * workload's profile. */
static int truth_at(const peace_index *ix, const peace_combo *c, double f, double *tput,
                    double *power_w)
{
    if (c->n == 1) {
        peace_alone(ix, c->w[0], f, tput, power_w);
        return 0;
    }
    return peace_truth(ix, c, f, tput, power_w);
}

/* The clock on the controller's grid: f_min + k f_step, within range. */
static double on_grid(const peace_ctrl_params *p, double f)
{
    if (f <= p->f_min)
        return p->f_min;
    if (f >= p->f_max)
        return p->f_max;
    return p->f_min + floor_tol((f - p->f_min) / p->f_step) * p->f_step;
}

int peace_check_cap(const peace_set *s, double idle_w, double cap_w, gp_err *err)
{
    if (!(cap_w >= s->cap_min_w && cap_w <= s->cap_max_w))
        return gp_error(err, "cap %g W: the GPU of '%s' accepts caps of %g to %g W", cap_w,
                        s->name, s->cap_min_w, s->cap_max_w);
    if (cap_w <= idle_w)
        return gp_error(err, "cap %g W is not above the GPU's idle power (%g W): no clock "
                        "can hold it", cap_w, idle_w);
    return 0;
}

double peace_ctrl_step(const peace_ctrl_params *p, double f, double mean_w, double cap_w)
{
    if (mean_w > cap_w) {
        double cut = fmax(p->down_mhz_per_w * (mean_w - cap_w), p->f_step);
        return on_grid(p, f - cut);
    }
    if (mean_w < 0.9 * cap_w)
        return f + p->up_mhz >= p->f_max ? p->f_max : on_grid(p, f + p->up_mhz);
    return f;
}

/* Running means after the warm-up, and the violation windows. */
typedef struct ctrl_acc {
    double tput[PEACE_MAX_COLOC], power, freq;
    size_t samples;
    double win_power;
    size_t win_samples, windows, violations;
    double max_excess;
} ctrl_acc;

static void acc_window(ctrl_acc *a, double cap_w, size_t per_window)
{
    if (a->win_samples < per_window)
        return;
    double mean = a->win_power / (double)a->win_samples;
    a->windows++;
    if (mean > cap_w) {
        a->violations++;
        a->max_excess = fmax(a->max_excess, 100 * (mean - cap_w) / cap_w);
    }
    a->win_power = 0;
    a->win_samples = 0;
}

static void acc_sample(ctrl_acc *a, const double *tput, int n, double power, double f)
{
    for (int i = 0; i < n; i++)
        a->tput[i] += tput[i];
    a->power += power;
    a->freq += f;
    a->samples++;
    a->win_power += power;
    a->win_samples++;
}

static void finish(const ctrl_acc *a, int n, peace_ctrl_result *out)
{
    double k = a->samples ? 1.0 / (double)a->samples : 0;
    out->tput_sum = 0;
    for (int i = 0; i < n; i++) {
        out->tput[i] = a->tput[i] * k;
        out->tput_sum += out->tput[i];
    }
    out->power_w = a->power * k;
    out->freq_mhz = a->freq * k;
    out->violation_pct = a->windows ? 100.0 * (double)a->violations / (double)a->windows : 0;
    out->max_excess_pct = a->max_excess;
}

int peace_control(const peace_index *ix, const peace_combo *c, double cap_w,
                  const peace_ctrl_params *p, peace_ctrl_result *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    double tput[PEACE_MAX_COLOC], power;
    if (truth_at(ix, c, p->f_min, tput, &power))
        return gp_error(err, "no ground truth for this co-location and split");
    out->floor_over_cap = power > cap_w;
    rng r;
    rng_seed(&r, p->seed);
    size_t steps = (size_t)llround(p->duration_s / p->period_s);
    size_t warm = (size_t)llround(p->warmup_s / p->period_s);
    size_t per_window = (size_t)fmax(1, llround(p->window_s / p->period_s));
    ctrl_acc acc;
    memset(&acc, 0, sizeof acc);
    double f = p->f_max, readings = 0;
    int nread = 0;
    for (size_t k = 0; k < steps; k++) {
        truth_at(ix, c, f, tput, &power);
        if (k >= warm) {
            acc_sample(&acc, tput, c->n, power, f);
            acc_window(&acc, cap_w, per_window);
        }
        readings += power * (1 + p->noise * rng_normal(&r));
        if (++nread == p->readings) {
            f = peace_ctrl_step(p, f, readings / nread, cap_w);
            readings = 0;
            nread = 0;
        }
    }
    finish(&acc, c->n, out);
    return 0;
}
