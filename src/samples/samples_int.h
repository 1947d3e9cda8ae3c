/*
 * samples_int.h — what the sample-set files (sample_*.c) share with
 * samplegen.c and nobody else sees: the builder of each set, the seeding of
 * a set's random stream, the small helpers and the exact-summary series
 * fitting.
 *
 * A builder fills a zeroed sample_set from its own stream; it may not draw
 * from another set's stream, so the sets stay independent (samplegen.h).
 */
#ifndef GP_SAMPLES_INT_H
#define GP_SAMPLES_INT_H

#include <math.h>

#include "samplegen.h"
#include "core/rng.h"

#define TWO_PI 6.283185307179586

/* ---- the sets (one file each) ---- */

void sample_cats_testbed(rng *r, sample_set *out);       /* sample_cats_testbed.c */
void sample_corrgpu_example(rng *r, sample_set *out);    /* sample_corrgpu_example.c */
void sample_openb_like(rng *r, sample_set *out);         /* sample_openb_like.c */
void sample_gavel_like(rng *r, sample_set *out);         /* sample_gavel_like.c */
void sample_peace_v100(rng *r, sample_set *out);         /* sample_peace_v100.c */
void sample_peace_mix(rng *r, sample_set *out);          /* sample_peace_mix.c */

/* The peace-v100 set's GPU profile, added to cat, and its workloads: name,
 * peak memory, SM activity alone on the whole GPU at the top clock (for
 * sets whose tasks run them; sample_peace_v100.c). */
void sample_peace_gpu(catalog *cat);
int sample_peace_nworkloads(void);
void sample_peace_workload(int i, const char **name, double *mem_gib, double *sm_active_pct);
/* pai-like is samplegen_pai_like() of samplegen.h (sample_pai_like.c): its
 * task count is a parameter. */

/* ---- helpers (samplegen.c) ---- */

/* Seeds r with the stream of set `name` (rng_seed_stream keyed by the
 * name). */
void sample_seed(rng *r, uint64_t seed, const char *name);

/* dst = fmt with the one integer i ("t%d", "pai-%04d"). */
void sample_name(char *dst, size_t len, const char *fmt, int i);

/* A node with whole-node resources; no watts, no per-device memory. */
node sample_node(const char *name, const char *gpu_model, int gpus, int64_t cpu_milli,
                 int64_t ram_mib, const char *cpu_model);

/* Index drawn from a table of weights (need not sum to 1). */
size_t sample_pick_weighted(rng *r, const double *w, size_t n);

static inline double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static inline double logit(double p)
{
    return log(p / (1 - p));
}

/* Rounds to `decimals` decimal places (for tidy, short CSV numbers). */
static inline double round_to(double v, int decimals)
{
    double k = pow(10, decimals);
    return round(v * k) / k;
}

/* ---- exact-summary series (samplegen.c) ----
 *
 * A series generated from a model, then fitted so that the summary numbers
 * a paper gives (mean, peak, first sample) hold exactly. */

typedef struct fit_spec {
    double mean;                /* target mean, percent (two decimals) */
    double peak;                /* target maximum, or < 0 for free */
    double first;               /* target first sample, or < 0 for free */
    double lo, hi;              /* value bounds */
} fit_spec;

/* Moves y towards the targets of f, every value within [lo, hi]. */
void sample_fit_series(double *y, size_t n, const fit_spec *f);
/* Rounds the fitted y to hundredths into out with the targets exact. */
void sample_quantize_exact(float *out, const double *y, size_t n, const fit_spec *f);
/* Gives task k the series pct with its summary columns set to the given
 * numbers (peak, first < 0: the series' own, rounded). */
void sample_task_series(task *k, const float *pct, size_t len, double period_s,
                        double mean, double peak, double first);

#endif
