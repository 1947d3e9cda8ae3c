/*
 * power_fit.h — a GPU profile's power model fitted to what monitors read
 * (`gpuplan calibrate`).  The model is CATS §2.1.1 eq. 1, the one the
 * simulator evaluates (power_cats.c), with an optional utilization term:
 *
 *     P = P_gs + active * alpha * f + util_w * u
 *
 * P_gs the idle watts (idle_w), alpha the watts per MHz (alpha_w_per_mhz),
 * f the SM clock of an active GPU (one holding a task or reading a
 * utilization above 0; an idle GPU draws P_gs whatever its clock, as
 * eq. 1 with y_ij = 0 does), u the utilization as a fraction and util_w
 * the watts at full utilization above the clock's share.  CATS fits
 * (P_gs, alpha) from idle draws and a sweep of clocks (eq. 3, R^2 0.95);
 * this does the same by least squares over the readings, all three
 * parameters bounded below by 0.  The simulator has no utilization term,
 * so a profile saved from a fit keeps only P_gs and alpha: the fit with
 * the utilization term is there to say how much it would explain.
 *
 * Not here: reading the store (the command does) or any format's parsing.
 */
#ifndef GP_POWER_FIT_H
#define GP_POWER_FIT_H

#include <stddef.h>

#include "core/model.h"
#include "core/util.h"

/* One reading, as the fit uses it. */
typedef struct pf_reading {
    double power_w;
    double clock_mhz;           /* SM clock; 0 on an idle GPU (not used) */
    double util;                /* fraction in [0, 1] */
    int active;
} pf_reading;

typedef struct pf_set {
    pf_reading *v;
    size_t n, cap;
    /* readings of the model left out: no power (or <= 0 W), no
     * utilization, an active GPU without a clock */
    size_t no_power, no_util, no_clock;
} pf_set;

void pf_set_free(pf_set *s);

/* Adds the readings of sn (on cl, its cluster) of GPUs of profile
 * gpu_model; returns how many were added. */
size_t power_fit_collect(const snapshot *sn, const cluster *cl, const char *gpu_model,
                         pf_set *out);

enum { PF_IDLE, PF_ALPHA, PF_UTIL, PF_NPARAM };

typedef struct pf_params {
    double p[PF_NPARAM];        /* idle_w, alpha_w_per_mhz, util_w */
} pf_params;

/* The profile's own model: its idle_w and alpha, no utilization term. */
pf_params pf_params_of(const gpu_profile *g);
double power_fit_predict(const pf_params *m, const pf_reading *r);

typedef struct pf_error {
    size_t n;
    double mape_pct;            /* mean of |P - P^| / P, in % */
    double max_abs_w;           /* largest |P - P^| */
    double rmse_w;
} pf_error;

void power_fit_error(const pf_params *m, const pf_reading *r, size_t n, pf_error *out);

typedef struct pf_fit {
    pf_params m;
    int nparam;                 /* 2 (eq. 1) or 3 (with utilization) */
    int at_bound[PF_NPARAM];    /* 1 when the bound >= 0 holds it at 0 */
} pf_fit;

/* Fits eq. 1 (with_util 0) or eq. 1 plus utilization (with_util 1) to
 * r[0..n).  -1 with a message saying how many readings there are and
 * what varies among them when they are too few (not more than the
 * parameters) or cannot tell the parameters apart (every active GPU at
 * one clock and none idle, no active GPU, one utilization ...). */
int power_fit(const pf_reading *r, size_t n, int with_util, pf_fit *out, gp_err *err);

/* The name of parameter i ("idle_w", "alpha_w_per_mhz", "util_w"). */
const char *power_fit_param_name(int i);

#endif
