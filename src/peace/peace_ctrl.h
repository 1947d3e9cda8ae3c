/*
 * peace_ctrl.h — the frequency controller that enforces a GPU power cap
 * (PEACE §3, after Lefurgy et al. and µ-Serve), simulated on a set's
 * ground truth.  Power is read every period (nvidia-smi, 500 ms) with
 * measurement noise; every `readings` readings (three) the controller
 * acts on their mean P:
 *   P < 0.9 cap          raise the clock by up_mhz (gradually);
 *   0.9 cap <= P <= cap  hold (no overshoot);
 *   P > cap              cut at once by down_mhz_per_w × (P − cap), at
 *                        least one clock step.
 * The clock stays within [f_min, f_max] on multiples of f_step above
 * f_min.  It starts at f_max, as a GPU boosts before any cap bites.
 *
 * The workloads run at the ground truth of their split at the current
 * clock (peace_truth; a single workload runs alone on the largest profiled
 * share, its profile interpolated in the clock); the result is their mean
 * throughput after a warm-up and how often and how far the cap was
 * exceeded over windows of window_s (PEACE §4: 4 s).
 *
 * Pure and deterministic for a given seed; no allocation.
 */
#ifndef GP_PEACE_CTRL_H
#define GP_PEACE_CTRL_H

#include <stdint.h>

#include "peace.h"

typedef struct peace_ctrl_params {
    double f_min, f_max, f_step;        /* MHz: the GPU's clocks and step */
    double period_s;                    /* between power readings */
    int readings;                       /* averaged per action */
    double up_mhz;                      /* raise when below 90 % of the cap */
    double down_mhz_per_w;              /* cut per watt above the cap */
    double noise;                       /* relative s.d. of one reading */
    double duration_s, warmup_s;        /* run, and the part not measured */
    double window_s;                    /* cap-violation window */
    uint64_t seed;
} peace_ctrl_params;

/* The defaults above for a GPU of clocks [f_min, f_max]: 15 MHz steps,
 * 0.5 s readings, 3 per action, +30 MHz, −10 MHz/W, 1 % noise, 60 s run,
 * 15 s warm-up, 4 s windows, seed 42. */
void peace_ctrl_params_default(peace_ctrl_params *p, double f_min, double f_max);

typedef struct peace_ctrl_result {
    double tput_sum;                    /* mean after the warm-up */
    double tput[PEACE_MAX_COLOC];       /* each workload's, canonical order */
    double power_w;                     /* mean true power after the warm-up */
    double freq_mhz;                    /* mean clock after the warm-up */
    double violation_pct;               /* % of windows whose mean exceeds the cap */
    double max_excess_pct;              /* worst window over the cap, % of the cap */
    int floor_over_cap;                 /* at f_min the power is still over the cap */
} peace_ctrl_result;

/* Workload w alone on the largest profiled share at clock f: throughput
 * and power, linear in f between the profile clocks, held beyond them. */
void peace_alone(const peace_index *ix, int w, double f, double *tput, double *power_w);
/* Its exclusive throughput: alone at the top profile clock. */
double peace_exclusive(const peace_index *ix, int w);

/* Runs the controller on combination c (one to three workloads) under
 * cap_w.  0, or -1 with a
 * message when the set has no ground truth for c. */
int peace_control(const peace_index *ix, const peace_combo *c, double cap_w,
                  const peace_ctrl_params *p, peace_ctrl_result *out, gp_err *err);

/* Whether cap_w is one the set's GPU accepts: within [cap_min_w,
 * cap_max_w] and above idle_w (no clock holds a cap at or below idle).
 * 0, or -1 with a message saying why not. */
int peace_check_cap(const peace_set *s, double idle_w, double cap_w, gp_err *err);

#endif
