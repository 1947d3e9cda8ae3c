/*
 * power_cap.h — a power cap on a GPU through its profile's own power curve.
 *
 * The cats power model (CATS §2.1, eq. 1 and 3) makes a busy GPU draw
 * P(f) = idle_w + alpha_w_per_mhz * f.  A cap of C watts therefore allows
 * any clock up to f_cap = (C - idle_w) / alpha, never above f_max; a task
 * on a GPU at clock f runs at (f / f_max)^beta of its full-clock speed
 * (CATS eq. 5), the rate model the simulator's DFS uses too.  So a cap is
 * a clock ceiling: cap -> f_cap -> rate.
 *
 * A cap list names the caps of a run: one for every GPU ("200") or one per
 * GPU model ("V100=150,A100-40GB=250"; a model not named is uncapped).
 */
#ifndef GP_POWER_CAP_H
#define GP_POWER_CAP_H

#include "core/model.h"
#include "core/util.h"

/* The speed of a task at clock f_mhz relative to f_max, (f / f_max)^beta
 * (CATS eq. 5); 1 for a profile without clocks. */
double power_clock_rate(const gpu_profile *p, double f_mhz);

/* What a busy GPU of profile p draws at clock f_mhz (CATS eq. 1). */
double power_at_clock(const gpu_profile *p, double f_mhz);

/* How a cap acts on one profile. */
typedef enum power_cap_effect {
    CAP_CLAMP,                  /* the clock is held at f_cap < f_max */
    CAP_NO_EFFECT,              /* cap >= the profile's draw at f_max */
    CAP_BELOW_CLOCKS            /* idle <= cap < P(f_min): no clock holds it */
} power_cap_effect;

/* The clock ceiling cap_w (> 0) puts on profile p into *f_mhz (f_max when
 * the cap has no effect, f_min when no clock can hold it) and the effect.
 * A cap below the profile's idle draw is an error naming it. */
int power_cap_clock(const gpu_profile *p, double cap_w, double *f_mhz,
                    power_cap_effect *effect, gp_err *err);

/* A cap a run can take on profile p: an error below its idle draw, and
 * below its lowest clock's draw unless below_clocks_ok (PEACE's model,
 * whose controller holds such caps on the GPUs it can). */
int power_cap_check(const gpu_profile *p, double cap_w, int below_clocks_ok, gp_err *err);

#define POWER_CAPS_MAX 16

typedef struct power_cap_entry {
    char model[GP_NAME_MAX];
    double w;
} power_cap_entry;

/* The caps of a run.  all_w > 0 caps every GPU; otherwise the n entries
 * cap their models.  Plain data, copied by value. */
typedef struct power_caps {
    double all_w;
    size_t n;
    power_cap_entry e[POWER_CAPS_MAX];
} power_caps;

/* "W" or "MODEL=W[,MODEL=W...]" into *out ("" or "none" = no cap); the
 * error names the column of the bad part. */
int power_caps_parse(const char *text, power_caps *out, gp_err *err);

/* 1 when any GPU is capped. */
int power_caps_any(const power_caps *c);

/* The cap of GPU model name, 0 = uncapped. */
double power_caps_for(const power_caps *c, const char *model);

/* The list as power_caps_parse reads it ("none" when empty). */
void power_caps_format(const power_caps *c, char *buf, size_t len);

/* Every model the list names is in the catalog. */
int power_caps_check_models(const power_caps *c, const catalog *cat, gp_err *err);

/* One line on what cap_w does to profile p: "clock clamp to N MHz",
 * "no effect: cap >= M W" or "cannot hold it: ...". */
void power_cap_describe(const gpu_profile *p, double cap_w, char *buf, size_t len);

#endif
