/*
 * solve_cap.h — a GPU power cap in the exact models that it changes.
 *
 * The cap is the simulator's (power/power_cap.h): a clock ceiling f_cap on
 * the profile's own power curve (CATS eq. 1), and CATS eq. 5's rate at
 * that clock.  What it changes depends on the model:
 *
 *   - GOGH Problem 1 and the cheapest fleet: a capped accelerator type
 *     delivers its throughputs times the rate and draws at most the capped
 *     draw, idle + alpha * f_cap, when busy (gamma_a's maximum).  The jobs'
 *     minimum throughputs stay what they were without the cap: a cap
 *     slows the GPUs, not what the jobs need;
 *   - CATS eq. 6-14: each active GPU's clock is at least every task's SLA
 *     clock (eq. 14) and now at most f_cap, so a task whose SLA clock is
 *     above a model's f_cap may not use that model (the instance's allow
 *     matrix); the optimum's clocks are already the least its tasks allow.
 *
 * A cap below a profile's idle draw, or below its lowest clock's draw, is
 * the error `run --gpu-cap` gives.  A cap at or above the profile's
 * maximum has no effect and leaves the instance as it was.
 */
#ifndef GP_SOLVE_CAP_H
#define GP_SOLVE_CAP_H

#include "power/power_cap.h"
#include "solve.h"

/* What a cap does to one profile. */
typedef struct solve_cap {
    const gpu_profile *prof;    /* borrowed */
    double cap_w;               /* 0 = uncapped */
    power_cap_effect effect;    /* CAP_CLAMP or CAP_NO_EFFECT (uncapped too) */
    double f_mhz;               /* the clock ceiling (f_max without effect) */
    double rate;                /* CATS eq. 5 at f_mhz: 1 without effect */
    double busy_w;              /* a busy GPU's draw: max_w, or the capped draw */
} solve_cap;

/* The cap caps puts on profile p into *out; an error (naming the profile
 * and its idle or lowest-clock draw) when no clock of p can hold it. */
int solve_cap_of(const gpu_profile *p, const power_caps *caps, solve_cap *out, gp_err *err);

/* "V100 100 W: clock clamp to 852 MHz: throughput x 0.658 (-34.2 %), busy
 * draw 144.8 -> 100 W (-30.9 %)", or "...: no effect: ..."; "" when c is
 * uncapped. */
void solve_cap_describe(const solve_cap *c, char *buf, size_t len);

/* GOGH's instance under the caps: prof[t] is the profile of type t (ntypes
 * of them).  Scales the solo and pair throughputs of every clamped type by
 * its rate and sets its max_w to the capped draw; min_tput is left alone. */
int gogh_inst_cap(gogh_inst *in, const gpu_profile *const *prof, const power_caps *caps,
                  gp_err *err);

/* CATS's instance under the caps: forbids task l on GPU g when l's SLA
 * clock on g's profile is above g's clock ceiling.  *forbidden (when not
 * NULL) gets the number of (task, GPU model) pairs the cap forbids. */
int cats_inst_cap(cats_inst *in, const power_caps *caps, int *forbidden, gp_err *err);

/* How many of the placements pl[0..n) put a task where in->allow forbids
 * it (0 without an allow matrix). */
int cats_places_forbidden(const cats_inst *in, const solve_place *pl, size_t n);

#endif
