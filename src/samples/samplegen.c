/*
 * samplegen.c — the deterministic generator of sample-data/ (SPEC §4.3).
 *
 * sample-data/ was written with the default seed by
 *
 *     gpuplan samples --seed 2026 sample-data
 *
 * (from the project root; `make B=build-gen build-gen/gpuplan` then
 * `./build-gen/gpuplan samples --seed 2026 sample-data` in a private build
 * directory).  Rerunning it reproduces the files byte for byte.
 *
 * Every number a paper gives is used exactly and cited (CATS = seed 000,
 * CorrGPU = 002, PWR/FGD = 001, GOGH = 004); every other number is a choice
 * stated next to it with its reason.  The generator only builds model
 * objects; writing them is export.c's job, so the files are exactly what
 * `gpuplan export` would write and what import_native.c reads.
 *
 * Not here: simulation, policies, reading real traces (the importers).
 */
#include "samplegen.h"
#include "io/export.h"
#include "core/rng.h"
#include "core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_PI 6.283185307179586

/* ---- small helpers --------------------------------------------------------- */

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static double logit(double p)
{
    return log(p / (1 - p));
}

/* Rounds to `decimals` decimal places (for tidy, short CSV numbers). */
static double round_to(double v, int decimals)
{
    double k = pow(10, decimals);
    return round(v * k) / k;
}

/* FNV-1a of the set name: the stream number of the set's generator. */
static uint64_t name_stream(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void set_name(char *dst, size_t len, const char *fmt, int i)
{
    snprintf(dst, len, fmt, i);
}

static node make_node(const char *name, const char *gpu_model, int gpus, int64_t cpu_milli,
                      int64_t ram_mib, const char *cpu_model)
{
    node n;
    memset(&n, 0, sizeof n);
    strlcpy0(n.name, name, sizeof n.name);
    strlcpy0(n.gpu_model, gpu_model, sizeof n.gpu_model);
    n.gpu_count = gpus;
    n.cpu_milli = cpu_milli;
    n.ram_mib = ram_mib;
    strlcpy0(n.cpu_model, cpu_model, sizeof n.cpu_model);
    return n;
}

/* Index drawn from a table of weights (need not sum to 1). */
static size_t pick_weighted(rng *r, const double *w, size_t n)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += w[i];
    double u = rng_uniform(r) * total;
    for (size_t i = 0; i < n; i++) {
        if (u < w[i])
            return i;
        u -= w[i];
    }
    return n - 1;
}

/* ---- exact-summary series ---------------------------------------------------
 *
 * The papers' tasks are given by summary numbers (CATS Table 4: mean;
 * CorrGPU §III-B: mean, peak, first sample).  A series is generated from a
 * model, then fitted so the numbers hold exactly: values are kept in
 * hundredths of a percent (the papers' two decimals), pinned samples are set
 * to the given values, and the remaining samples carry the mean. */

typedef struct fit_spec {
    double mean;                /* target mean, percent (two decimals) */
    double peak;                /* target maximum, or < 0 for free */
    double first;               /* target first sample, or < 0 for free */
    double lo, hi;              /* value bounds */
} fit_spec;

static size_t argmax_from(const double *y, size_t from, size_t n)
{
    size_t k = from;
    for (size_t i = from + 1; i < n; i++)
        if (y[i] > y[k])
            k = i;
    return k;
}

/* Moves y so that its mean, maximum and first sample are the targets of f
 * (within rounding) and every value lies in [lo, hi].  With a pinned peak
 * the free samples are mapped affinely (mean and maximum fixed, shape kept);
 * without one they are shifted.  Values clamped at a bound change the mean,
 * so the map is repeated until nothing is clamped. */
static void fit_series(double *y, size_t n, const fit_spec *f)
{
    size_t from = f->first >= 0 ? 1 : 0;
    if (f->first >= 0)
        y[0] = f->first;
    double free_mean = (f->mean * (double)n - (from ? f->first : 0)) / (double)(n - from);
    double hi = f->peak >= 0 ? f->peak : f->hi;
    for (int iter = 0; iter < 200; iter++) {
        double m = 0;
        for (size_t i = from; i < n; i++)
            m += y[i];
        m /= (double)(n - from);
        if (f->peak >= 0) {
            double top = y[argmax_from(y, from, n)];
            double s = top > m ? (f->peak - free_mean) / (top - m) : 0;
            for (size_t i = from; i < n; i++)
                y[i] = free_mean + s * (y[i] - m);
        } else {
            for (size_t i = from; i < n; i++)
                y[i] += free_mean - m;
        }
        int clamped = 0;
        for (size_t i = from; i < n; i++) {
            if (y[i] < f->lo || y[i] > hi) {
                y[i] = clampd(y[i], f->lo, hi);
                clamped = 1;
            }
        }
        if (!clamped)
            break;
    }
}

/* Rounds the fitted y to hundredths into out (float), pins the first sample
 * and the peak, and spreads the rounding residue of the sum over the other
 * samples in steps of 0.01 so the mean is the target exactly (in decimal;
 * within 1e-6 once each value is a float). */
static void quantize_exact(float *out, const double *y, size_t n, const fit_spec *f)
{
    long long *c = xmalloc(n * sizeof *c);
    long long lo = llround(f->lo * 100);
    long long hi = llround((f->peak >= 0 ? f->peak : f->hi) * 100);
    size_t from = f->first >= 0 ? 1 : 0;
    size_t top = f->peak >= 0 ? argmax_from(y, from, n) : (size_t)-1;
    long long sum = 0;
    for (size_t i = 0; i < n; i++) {
        c[i] = llround(y[i] * 100);
        if (i == 0 && f->first >= 0)
            c[i] = llround(f->first * 100);
        else if (i == top)
            c[i] = hi;
        else if (c[i] > hi)
            c[i] = hi;
        else if (c[i] < lo)
            c[i] = lo;
        sum += c[i];
    }
    long long want = llround(f->mean * 100 * (double)n);
    /* A pass may skip samples at a bound; the residue is a few units, so a
     * couple of passes always settle it. */
    for (int pass = 0; pass < 100 && sum != want; pass++) {
        for (size_t i = from; i < n && sum != want; i++) {
            if (i == top)
                continue;
            long long step = sum < want ? 1 : -1;
            long long v = c[i] + step;
            if (v < lo || v > hi || (top != (size_t)-1 && v >= hi))
                continue;
            c[i] = v;
            sum += step;
        }
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (float)((double)c[i] / 100);
    free(c);
}

/* A trace task with a series whose summary is given exactly: the tasks.csv
 * summary columns then show the paper's numbers (the others rounded to the
 * series' two decimals rather than a float's 17 digits), and the series
 * reproduces them when the importer recomputes them. */
static void task_put_series(task *k, const float *pct, size_t len, double period_s,
                            double mean, double peak, double first)
{
    task_set_util(k, pct, len, period_s);
    k->util_mean = mean;
    k->util_peak = peak >= 0 ? peak : round_to(k->util_peak, 2);
    k->util_first = first >= 0 ? first : round_to(k->util_first, 2);
}

/* ---- cats-testbed ------------------------------------------------------------
 *
 * CATS §5 hardware evaluation.  Table 4 gives start time, mean GPU
 * utilization and memory of 14 tasks; §4 names their workloads (t1..t8) and
 * §5 says t9..t14 replicate the workloads of t1..t6 (Table 4 repeats their
 * utilization and memory).  Table 3: one server, six V100 with 16/16/32/32/
 * 16/32 GB.  §5 (robustness experiment): "for each task, we sample from a
 * Gaussian distribution with mean and variance matching real ML training
 * workloads ... we add additive white noise".
 */

typedef struct cats_workload {
    const char *model;
    int batch;                  /* CATS §4 */
    double duration_s;          /* our choice, see below */
} cats_workload;

/* Durations are not in the paper.  Stage 2 starts at 500 s (CATS §5) and the
 * two stages are described as separate bursts, so every stage-1 task is
 * sized to finish before 500 s even when slowed to its SLA limit
 * (arrival + kappa*e_min <= 500 s with kappa = 1.2 gives e_min <= 397 s for
 * t8): 300..390 s, longer for the heavier models (DenseNet, ConvNeXt, Swin,
 * ViT) than for the light ones (MobileNet, SqueezeNet). */
static const cats_workload cats_workloads[8] = {
    {"DenseNet", 50, 380},          /* t1 */
    {"GoogleNet", 30, 340},         /* t2 */
    {"ConvNeXt", 50, 390},          /* t3 */
    {"ViT", 60, 360},               /* t4 */
    {"Swin", 40, 370},              /* t5 */
    {"ResNet", 30, 320},            /* t6 */
    {"MobileNet", 50, 300},         /* t7 */
    {"SqueezeNet", 60, 300},        /* t8 */
};

typedef struct cats_row {
    double start_s, util_pct, mem_gb;   /* CATS Table 4 */
    int workload;                       /* CATS §5: t9..t14 = t1..t6 */
} cats_row;

static const cats_row cats_table4[14] = {
    {0, 45.84, 6.28, 0},   {1, 44.44, 6.30, 1},   {2, 40.00, 2.20, 2},
    {3, 46.00, 1.80, 3},   {20, 49.00, 3.90, 4},  {21, 47.00, 1.60, 5},
    {22, 45.00, 2.20, 6},  {23, 44.00, 3.50, 7},  {500, 45.84, 6.28, 0},
    {500, 44.44, 6.30, 1}, {500, 40.00, 2.20, 2}, {500, 46.00, 1.80, 3},
    {520, 49.00, 3.90, 4}, {522, 47.00, 1.60, 5},
};

/* Series model (the paper gives no variance; these are our choices):
 *   u(t) = mu + A sin(2 pi t / P + phi_w) + sigma_g N(0,1) + sigma_n N(0,1)
 * - sigma_g = 8 points: the Gaussian draw around the task's mean;
 * - A = 15 points, P = 60 s: an epoch-scale cycle (data loading and
 *   evaluation between compute phases; CorrGPU §III-B: training utilization
 *   "can be periodic").  Every workload has its own phase phi_w, drawn from
 *   the seed, so pairs of tasks range from positively to negatively
 *   correlated (r ~ 0.5 cos(phi_a - phi_b)) as in CATS Fig. 5; replicated
 *   workloads (t9..t14) keep their original's phase, as the same program
 *   restarted would;
 * - sigma_n = 0.154 mu: the white "prediction uncertainty" noise, scaled to
 *   the RMSLE of 0.154 of the predictor CATS §3.1 cites [73] read as a
 *   relative error (about 7 points at these means).
 * Total standard deviation ~15 points, typical of 1 s nvml samples of
 * training jobs.  Sampled every 1 s (nvml rate of the testbed). */
#define CATS_PERIOD_S 1.0
#define CATS_CYCLE_S 60.0
#define CATS_AMPLITUDE 15.0
#define CATS_SIGMA_G 8.0
#define CATS_NOISE_REL 0.154

static void build_cats_testbed(rng *r, sample_set *out)
{
    /* No server power is given: Fig. 7 reports GPU power read with
     * nvidia-smi (CATS §4), so static_w = other_w = 0 keeps gpuplan's
     * numbers comparable with it.  The host is described only as "a 1.7 GHz
     * CPU": vCPU and RAM are generous assumptions (32 vCPU, 256 GiB) so they
     * never constrain; CATS places by GPU memory only. */
    out->profiles = catalog_new();
    out->cl = cluster_new("cats-testbed");
    node n = make_node("testbed", "V100", 6, 32000, 262144, "");
    static const double table3_mem[6] = {16, 16, 32, 32, 16, 32};  /* CATS Table 3 */
    for (int g = 0; g < 6; g++)
        n.gpu_mem_gib[g] = table3_mem[g];
    cluster_add_node(out->cl, &n);

    double phase[8];
    for (int w = 0; w < 8; w++)
        phase[w] = rng_range(r, 0, TWO_PI);

    out->tr = trace_new("cats-testbed");
    for (int t = 0; t < 14; t++) {
        const cats_row *row = &cats_table4[t];
        const cats_workload *w = &cats_workloads[row->workload];
        size_t len = (size_t)(w->duration_s / CATS_PERIOD_S);
        double *y = xmalloc(len * sizeof *y);
        float *pct = xmalloc(len * sizeof *pct);
        double noise = CATS_NOISE_REL * row->util_pct;
        for (size_t i = 0; i < len; i++)
            y[i] = row->util_pct +
                   CATS_AMPLITUDE * sin(TWO_PI * (double)i * CATS_PERIOD_S / CATS_CYCLE_S +
                                        phase[row->workload]) +
                   CATS_SIGMA_G * rng_normal(r) + noise * rng_normal(r);
        fit_spec f = {row->util_pct, -1, -1, 0, 100};
        fit_series(y, len, &f);
        quantize_exact(pct, y, len, &f);

        task k;
        task_init(&k);
        set_name(k.name, sizeof k.name, "t%d", t + 1);
        k.arrival_s = row->start_s;
        k.duration_s = w->duration_s;
        k.num_gpu = 1;                  /* CATS eq. 7 with v = 1 */
        k.gpu_milli = 1000;
        k.gpu_mem_gib = row->mem_gb;
        k.kappa = 1.2;                  /* CATS §2.1.2: 20 % SLA threshold */
        strlcpy0(k.model, w->model, sizeof k.model);
        k.batch_size = w->batch;
        task_put_series(&k, pct, len, CATS_PERIOD_S, row->util_pct, -1, -1);
        trace_add_task(out->tr, &k);
        task_release(&k);
        free(y);
        free(pct);
    }
}

/* ---- corrgpu-example -----------------------------------------------------------
 *
 * CorrGPU §III-B: t1 ResNet (batch 40) and t2 SqueezeNet (batch 30); means
 * 41.36 % and 41.92 %, peaks 80.80 % and 61.80 %, first samples 80 % and
 * 25 %, correlation -0.8; P = 2,500 USD per 40 GB A100.  First puts them on
 * two GPUs (80 + 25 > 100), CorrGPU on one (rho < 0, 41.36 + 41.92 < 100).
 */

typedef struct corr_task {
    const char *model;
    int batch;
    double mean, peak, first;
    double mem_gib;             /* our choice */
    double sign;                /* of the main cycle: the two are anti-phased */
} corr_task;

/* Memory is not given; 10 GiB (ResNet at batch 40) and 4 GiB (SqueezeNet at
 * batch 30) are typical footprints and fit one 40 GB A100 together, so
 * memory never decides the example. */
static const corr_task corr_tasks[2] = {
    {"ResNet", 40, 41.36, 80.80, 80, 10, 1},
    {"SqueezeNet", 30, 41.92, 61.80, 25, 4, -1},
};

/* Both tasks last 600 s (our choice: twenty cycles of 30 s, long enough for
 * a stable correlation), sampled every second, and arrive at t = 0. */
#define CORR_LEN 600
#define CORR_CYCLE 30.0
/* Second harmonic: peaks sharper than troughs (GPU compute bursts between
 * flatter data-loading phases) and room below t1's mean for its trough:
 * t1 must climb 39.4 points to 80.8 % from a mean of 41.36 % while staying
 * >= 0. */
#define CORR_HARMONIC 0.15
#define CORR_RHO (-0.8)

/* Builds both series for noise weight k from fixed noise draws; returns
 * their correlation. */
static double corr_build(const double *noise, double k, float *out)
{
    double y[CORR_LEN];
    for (int t = 0; t < 2; t++) {
        const corr_task *c = &corr_tasks[t];
        for (int i = 0; i < CORR_LEN; i++) {
            double th = TWO_PI * i / CORR_CYCLE;
            y[i] = c->sign * cos(th) + CORR_HARMONIC * cos(2 * th) +
                   k * noise[t * CORR_LEN + i];
        }
        fit_spec f = {c->mean, c->peak, c->first, 0, 100};
        fit_series(y, CORR_LEN, &f);
        quantize_exact(out + t * CORR_LEN, y, CORR_LEN, &f);
    }
    return stats_pearson(out, CORR_LEN, out + CORR_LEN, CORR_LEN);
}

static void build_corrgpu_example(rng *r, sample_set *out)
{
    out->profiles = catalog_new();
    out->cl = cluster_new("corrgpu-example");
    /* One server of four A100 40 GB (the built-in "A100-40GB" profile has the
     * paper's 2,500 USD price).  Four because CorrGPU Fig. 4 draws GPUs 0, 1
     * and 2 and servers come with 4 or 8; power is not part of CorrGPU's
     * objective (CapEx), so no server watts are set. */
    node n = make_node("a100-server", "A100-40GB", 4, 32000, 262144, "");
    cluster_add_node(out->cl, &n);

    double *noise = xmalloc(2 * CORR_LEN * sizeof *noise);
    for (int i = 0; i < 2 * CORR_LEN; i++)
        noise[i] = rng_normal(r);
    float *pct = xmalloc(2 * CORR_LEN * sizeof *pct);
    /* The correlation falls in magnitude as the noise weight grows; bisect
     * the weight (a structural parameter, the draws stay fixed) until the
     * fitted series correlate at -0.8. */
    double lo = 0, hi = 3;
    for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2;
        if (corr_build(noise, mid, pct) < CORR_RHO)
            lo = mid;
        else
            hi = mid;
    }
    corr_build(noise, (lo + hi) / 2, pct);

    out->tr = trace_new("corrgpu-example");
    for (int t = 0; t < 2; t++) {
        const corr_task *c = &corr_tasks[t];
        task k;
        task_init(&k);
        set_name(k.name, sizeof k.name, "t%d", t + 1);
        k.arrival_s = 0;
        k.duration_s = CORR_LEN;
        k.gpu_mem_gib = c->mem_gib;
        strlcpy0(k.model, c->model, sizeof k.model);
        k.batch_size = c->batch;
        task_put_series(&k, pct + t * CORR_LEN, CORR_LEN, 1, c->mean, c->peak, c->first);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
    free(noise);
    free(pct);
}

/* ---- pai-like ---------------------------------------------------------------------
 *
 * A few thousand training tasks with the two distributions CATS §3 measured:
 * per-GPU memory like CATS Fig. 3 (PAI: "most workloads consume significantly
 * less than 16 GB", "most require less than 32 GB") and pairwise utilization
 * correlations like CATS Fig. 2 (Philly: 46 % of pairs negative, 34 % in
 * [0, 0.3], ~80 % with |r| <= 0.3, the rest above 0.3).  Correlations are
 * computed as CATS does, index by index from each task's start, truncated
 * to the shorter series.
 *
 * Utilization model: a few latent series shared by all tasks, indexed by
 * the task's own progress (in minutes):
 *   F_c       a pattern every training job shares (common loading b);
 *   F_1..F_G  one per job family (G families: model/framework groups,
 *             recurring jobs of one user).
 * Family g loads the F_h with the vertex e_g of a regular simplex
 * (e_g . e_h = -1/(G-1)), so different families are mildly complementary;
 * each task perturbs its family's loadings (per-task signed loadings) and
 * adds idiosyncratic noise (AR(1) in general, white as tuned).  Expected correlations: within a family
 * (a^2 + b^2) / V, across families (b^2 - a^2/(G-1)) / V with
 * V = a^2 + b^2 + eta^2 + sigma_e^2; sampling over short windows widens
 * both.  The resulting series is mapped through a logistic around the
 * task's mean utilization so it stays in (0, 100) and low-utilization tasks
 * swing less in absolute terms.
 *
 * The structural parameters below were tuned (never per pair) until the
 * pairs of the generated set met Fig. 2; see tests/test_samplegen.c.
 */

typedef struct pai_params {
    int families;               /* G */
    double family_w;            /* a */
    double common_w;            /* b */
    double load_jitter;         /* eta */
    double noise_w;             /* sigma_e */
    double noise_phi;           /* AR(1) coefficient of the task noise */
    double factor_phi;          /* AR(1) part of each latent series */
    double factor_cycle_lo, factor_cycle_hi;    /* periodic part, minutes */
    double dur_median_min, dur_sigma, dur_min_min;  /* log-normal durations */
} pai_params;

/* Tuned on the default seed and checked on sixteen others (pairs with
 * r < 0: 0.41-0.49, |r| <= 0.3: 0.77-0.83; default seed 0.46 and 0.81).  Ten families make ~10 % of
 * pairs same-family, strongly correlated (expected r ~ 0.6): with the
 * sampling spread of 30-240-sample windows (alone ~5 % of pairs beyond
 * +-0.3) that gives Fig. 2's upper tail; the common weight b sets the
 * share of negative pairs (cross-family r ~ (b^2 - a^2/9)/V ~ 0).  Smooth
 * (autocorrelated) components widen the spread of short windows well past
 * Fig. 2, so the latent series are short cycles plus white noise and the
 * task noise is white. */
static const pai_params pai_default = {
    .families = 10,
    .family_w = 0.75,
    .common_w = 0.24,
    .load_jitter = 0.20,
    .noise_w = 0.60,
    .noise_phi = 0,
    .factor_phi = 0,
    .factor_cycle_lo = 3,
    .factor_cycle_hi = 8,
    .dur_median_min = 50,
    .dur_sigma = 0.8,
    .dur_min_min = 30,
};

#define PAI_PERIOD_S 60.0       /* series at one sample per minute */
#define PAI_MAX_SAMPLES 240     /* 4 h cap: keeps the default DB small */
#define PAI_SERVERS 32
#define PAI_FACTORS_MAX 16

/* One latent series: a sinusoid with a random cycle (minutes: the phases of
 * an iteration/epoch pattern seen at one sample per minute) and phase, plus
 * an equal-variance random part (AR(1) with factor_phi; white as tuned),
 * standardised over PAI_MAX_SAMPLES. */
static void pai_factor(rng *r, const pai_params *p, double *f)
{
    double cycle = rng_range(r, p->factor_cycle_lo, p->factor_cycle_hi);
    double phase = rng_range(r, 0, TWO_PI);
    double z = rng_normal(r), innov = sqrt(1 - p->factor_phi * p->factor_phi);
    double m = 0, ss = 0;
    for (int t = 0; t < PAI_MAX_SAMPLES; t++) {
        z = p->factor_phi * z + innov * rng_normal(r);
        f[t] = sqrt(2) * sin(TWO_PI * t / cycle + phase) + z;
        m += f[t];
    }
    m /= PAI_MAX_SAMPLES;
    for (int t = 0; t < PAI_MAX_SAMPLES; t++)
        ss += (f[t] - m) * (f[t] - m);
    double sd = sqrt(ss / PAI_MAX_SAMPLES);
    for (int t = 0; t < PAI_MAX_SAMPLES; t++)
        f[t] = (f[t] - m) / sd;
}

/* Arrival times: a bursty Poisson process (Poisson bursts of geometric size,
 * tasks within a burst seconds apart), as CATS §5 describes PAI arrivals
 * ("bursty").  Mean gap between bursts 180 s and mean burst size 4 spread
 * 3000 tasks over ~37 h: with the durations below about 100 tasks (130
 * GPUs without sharing) run at once on average, and the largest burst of
 * the default seed asks for all 256 GPUs of the cluster. */
#define PAI_BURST_GAP_S 180.0
#define PAI_BURST_SIZE 4.0
#define PAI_INTRA_GAP_S 15.0

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *pai_arrivals(rng *r, size_t n)
{
    double *t = xmalloc(n * sizeof *t);
    double burst = 0;
    size_t i = 0;
    while (i < n) {
        burst += rng_exponential(r, PAI_BURST_GAP_S);
        double at = burst;
        /* geometric size >= 1 with mean PAI_BURST_SIZE */
        do {
            t[i++] = round(at);
            at += rng_exponential(r, PAI_INTRA_GAP_S);
        } while (i < n && rng_uniform(r) > 1 / PAI_BURST_SIZE);
    }
    qsort(t, n, sizeof *t, cmp_double);
    double t0 = t[0];
    for (i = 0; i < n; i++)
        t[i] -= t0;
    return t;
}

static void pai_task(rng *r, const pai_params *p, double *const *fac, const double *simplex,
                     size_t idx, double arrival, task *k, float *pct, double *x)
{
    task_init(k);
    set_name(k->name, sizeof k->name, "pai-%04d", (int)idx);
    k->arrival_s = arrival;
    /* Durations: log-normal, median 50 min, sigma 0.8, within [30 min, 4 h]
     * — heavy-tailed, minutes to hours like PAI training jobs.  The floor
     * keeps at least 30 samples per series (correlations over fewer are
     * mostly sampling noise, which would swamp Fig. 2); the cap keeps the
     * default database small. */
    double dur = clampd(rng_lognormal(r, log(p->dur_median_min * 60), p->dur_sigma),
                        p->dur_min_min * 60, PAI_MAX_SAMPLES * PAI_PERIOD_S);
    k->duration_s = round(dur);
    size_t len = (size_t)ceil(k->duration_s / PAI_PERIOD_S);
    if (len > PAI_MAX_SAMPLES)
        len = PAI_MAX_SAMPLES;
    /* GPUs per task: mostly one (PAI is dominated by single-GPU jobs), a few
     * distributed ones (CATS eq. 7 allows v > 1). */
    static const double v_w[4] = {0.88, 0.07, 0.03, 0.02};
    static const int v_n[4] = {1, 2, 4, 8};
    k->num_gpu = v_n[pick_weighted(r, v_w, 4)];
    k->gpu_milli = 1000;
    /* Per-GPU memory: log-normal with median 3.5 GiB and sigma 1.0 — the
     * steep CDF of CATS Fig. 3 (~95 % below 16 GB, ~80 % below 8) — truncated (redrawn)
     * to [0.25, 31.5] GiB so every task fits one 32 GB V100 (a larger
     * footprint would be split over more GPUs). */
    double mem;
    do
        mem = rng_lognormal(r, log(3.5), 1.0);
    while (mem < 0.25 || mem > 31.5);
    k->gpu_mem_gib = round_to(mem, 2);
    static const int64_t cpu_per_gpu[3] = {4000, 6000, 8000};   /* <= 64000 / 8 */
    static const int64_t ram_per_gpu[3] = {16384, 32768, 49152};
    k->cpu_milli = cpu_per_gpu[rng_below(r, 3)] * k->num_gpu;
    k->ram_mib = ram_per_gpu[rng_below(r, 3)] * k->num_gpu;
    k->kappa = 1.2;             /* CATS §2.1.2 */

    /* Mean utilization: logit-normal around 25 % (the series means come out
     * with median ~27 %, 10 % of tasks under 9 %, 10 % over 57 %), so many
     * tasks sit low (PAI's GPUs are mostly lightly used) and few near 100 %. */
    double mu = clampd(sigmoid(logit(0.25) + 1.1 * rng_normal(r)), 0.01, 0.97);
    /* Swing of the series around it, in logit units. */
    double swing = rng_range(r, 0.5, 1.0);

    int G = p->families;
    int fam = (int)rng_below(r, (uint64_t)G);
    double load[PAI_FACTORS_MAX];
    for (int h = 0; h < G; h++)
        load[h] = p->family_w * simplex[fam * G + h] +
                  p->load_jitter * rng_normal(r) / sqrt((double)G);
    double common = p->common_w;
    double z = rng_normal(r), innov = sqrt(1 - p->noise_phi * p->noise_phi);
    double m = 0, ss = 0;
    for (size_t t = 0; t < len; t++) {
        z = p->noise_phi * z + innov * rng_normal(r);
        double v = common * fac[G][t] + p->noise_w * z;
        for (int h = 0; h < G; h++)
            v += load[h] * fac[h][t];
        x[t] = v;
        m += v;
    }
    m /= (double)len;
    for (size_t t = 0; t < len; t++)
        ss += (x[t] - m) * (x[t] - m);
    double sd = ss > 0 ? sqrt(ss / (double)len) : 1;
    double base = logit(mu);
    for (size_t t = 0; t < len; t++) {
        double u = 100 * sigmoid(base + swing * (x[t] - m) / sd);
        pct[t] = (float)round_to(u, 1);  /* 0.1 % resolution */
    }
    task_set_util(k, pct, len, PAI_PERIOD_S);
    k->util_mean = round_to(k->util_mean, 4);
    k->util_peak = round_to(k->util_peak, 1);
    k->util_first = round_to(k->util_first, 1);
}

static void pai_build(size_t ntasks, uint64_t seed, const pai_params *p, sample_set *out)
{
    rng r;
    rng_seed_stream(&r, seed, name_stream("pai-like"));
    memset(out, 0, sizeof *out);
    out->profiles = catalog_new();
    out->cl = cluster_new("pai-like");
    /* CATS §6: "each server is equipped with 8 GPUs" (V100, the CATS power
     * model).  32 servers = 256 GPUs: room for the ~130 GPUs the trace
     * keeps busy on average without consolidation, and for its peak.
     * Host: two Xeon E5-2682 v4 (the built-in CPU profile, PWR §V-A): 32
     * cores = 64 vCPU; 512 GiB RAM.
     * static_w = 30 W: the two CPU packages idle at 15 W each (PWR §V-A),
     * the only server-level draw the papers give; other_w = 0 (fans, memory
     * and PSU losses are not given anywhere). */
    for (int i = 0; i < PAI_SERVERS; i++) {
        char name[GP_NAME_MAX];
        set_name(name, sizeof name, "pai-srv-%02d", i);
        node n = make_node(name, "V100", 8, 64000, 524288, "Xeon-E5-2682v4");
        n.static_w = 30;
        cluster_add_node(out->cl, &n);
    }

    int G = p->families;
    double *fac[PAI_FACTORS_MAX + 1];
    for (int h = 0; h <= G; h++) {
        fac[h] = xmalloc(PAI_MAX_SAMPLES * sizeof **fac);
        pai_factor(&r, p, fac[h]);
    }
    /* Regular simplex: e_g = sqrt(G/(G-1)) (delta_g - 1/G), unit norm. */
    double *simplex = xmalloc((size_t)(G * G) * sizeof *simplex);
    for (int g = 0; g < G; g++)
        for (int h = 0; h < G; h++)
            simplex[g * G + h] = sqrt((double)G / (G - 1)) * ((g == h) - 1.0 / G);

    double *arrival = pai_arrivals(&r, ntasks);
    float *pct = xmalloc(PAI_MAX_SAMPLES * sizeof *pct);
    double *x = xmalloc(PAI_MAX_SAMPLES * sizeof *x);
    out->tr = trace_new("pai-like");
    for (size_t i = 0; i < ntasks; i++) {
        task k;
        pai_task(&r, p, fac, simplex, i, arrival[i], &k, pct, x);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
    free(x);
    free(pct);
    free(arrival);
    free(simplex);
    for (int h = 0; h <= G; h++)
        free(fac[h]);
}

void samplegen_pai_like(size_t ntasks, uint64_t seed, sample_set *out)
{
    pai_build(ntasks, seed, &pai_default, out);
}

/* ---- openb-like ---------------------------------------------------------------------
 *
 * A small cluster and pod list in the shape of the Alibaba GPU trace 2023
 * (the FGD/PWR workload, SPEC §5.3): heterogeneous GPU models, GPU sharing
 * in milli-GPU, CPU-only pods, a few multi-GPU pods, some pods restricted to
 * GPU models.  Node configurations are our own, sized like the public node
 * list (8-GPU G2/G3/V100M32 machines with 96-128 vCPU, 2-GPU T4 and P100
 * machines, small V100M16 boxes, CPU-only nodes); the pod class mix follows
 * the default trace (FGD_NOTES §0).
 */

typedef struct ob_sku {
    const char *model;          /* "" = CPU-only */
    int gpus;
    int64_t cpu_milli, ram_mib;
    int count;
} ob_sku;

/* 40 nodes, 184 GPUs.  Proportions follow the public list's dominant
 * shapes (G2 8-GPU and T4 2-GPU machines are most of it), shrunk so that
 * every model of PWR Table II appears at least once. */
static const ob_sku ob_skus[] = {
    {"G2", 8, 96000, 393216, 14},
    {"T4", 2, 96000, 524288, 9},
    {"T4", 4, 96000, 393216, 1},
    {"P100", 2, 16000, 131072, 3},
    {"P100", 2, 64000, 262144, 1},
    {"G3", 8, 128000, 786432, 2},
    {"V100M16", 4, 32000, 131072, 2},
    {"V100M16", 1, 8000, 32768, 1},
    {"V100M32", 8, 96000, 786432, 2},
    {"A10", 1, 128000, 1048576, 1},
    {"", 0, 32000, 262144, 2},
    {"", 0, 96000, 524288, 1},
    {"", 0, 64000, 524288, 1},
};

#define OB_PODS 800

/* FGD_NOTES §0, default trace: 1088 CPU-only, 3078 sharing, 3911 one-GPU,
 * 16 two-GPU, 15 four-GPU, 44 eight-GPU of 8152. */
static const int ob_class_k[6] = {0, 1, 1, 2, 4, 8};
static const int ob_class_trace[6] = {1088, 3078, 3911, 16, 15, 44};
#define OB_TRACE_TOTAL 8152

/* Largest-remainder rounding of the trace's class counts to n pods, with at
 * least one pod per class so every class is exercised. */
static void ob_class_counts(int n, int *count)
{
    int sum = 0;
    double rem[6];
    for (int c = 0; c < 6; c++) {
        double exact = (double)n * ob_class_trace[c] / OB_TRACE_TOTAL;
        count[c] = (int)exact;
        if (count[c] < 1)
            count[c] = 1;
        rem[c] = exact - floor(exact);
        sum += count[c];
    }
    while (sum < n) {
        int best = 0;
        for (int c = 1; c < 6; c++)
            if (rem[c] > rem[best])
                best = c;
        count[best]++;
        rem[best] = -1;
        sum++;
    }
}

/* Sharing pods' GPU fractions: a spread of milli values weighted towards
 * large shares, the shape of the trace's sharing pods (most ask for half a
 * GPU or more; a tail of small slices). */
static const int ob_share_milli[] = {800, 500, 300, 650, 250, 450, 600, 150, 550, 200, 350, 100};
static const double ob_share_w[] = {30, 22, 12, 9, 6, 5, 4, 4, 3, 2, 2, 1};

/* Model restrictions given to ~8 % of single-GPU pods (the trace's
 * gpuspec variant restricts a similar share), listing models the cluster
 * has; multi-GPU pods stay unrestricted so they always have a node. */
static const char *const ob_specs[] = {"T4", "G2", "P100", "V100M16|V100M32",
                                       "P100|V100M16|V100M32", "G3", "A10|G2"};
static const double ob_spec_w[] = {35, 20, 15, 12, 8, 5, 5};
#define OB_SPEC_SHARE 0.08

static void build_openb_like(rng *r, sample_set *out)
{
    out->profiles = catalog_new();
    out->cl = cluster_new("openb-like");
    int idx = 0;
    for (size_t s = 0; s < sizeof ob_skus / sizeof *ob_skus; s++)
        for (int c = 0; c < ob_skus[s].count; c++) {
            char name[GP_NAME_MAX];
            set_name(name, sizeof name, "ob-node-%02d", idx++);
            /* PWR §V-A: every node's CPU is the Xeon E5-2682 v4 (EOPC
             * counts its packages); no other server watts in EOPC. */
            node n = make_node(name, ob_skus[s].model, ob_skus[s].gpus, ob_skus[s].cpu_milli,
                               ob_skus[s].ram_mib, "Xeon-E5-2682v4");
            cluster_add_node(out->cl, &n);
        }

    int count[6];
    ob_class_counts(OB_PODS, count);
    int cls[OB_PODS], n = 0;
    for (int c = 0; c < 6; c++)
        for (int i = 0; i < count[c]; i++)
            cls[n++] = c;
    rng_shuffle(r, cls, OB_PODS, sizeof *cls);

    /* Requests per class (choices in the trace's ranges): CPU-only pods
     * 4-32 vCPU; GPU pods 2-24 vCPU per pod, 8-11 vCPU per GPU for
     * multi-GPU pods so they fit 96-vCPU 8-GPU machines. */
    static const int64_t cpu_only_cpu[] = {4000, 8000, 12000, 16000, 32000};
    static const int64_t share_cpu[] = {2000, 4000, 6000, 8000, 12000};
    static const int64_t whole_cpu[] = {4000, 8000, 12000, 16000, 24000};
    static const int64_t ram_gib[] = {8, 16, 24, 32, 48, 64};
    double clock = 0;
    out->tr = trace_new("openb-like");
    for (int i = 0; i < OB_PODS; i++) {
        task k;
        task_init(&k);
        set_name(k.name, sizeof k.name, "ob-pod-%03d", i);
        /* FGD ignores times (FGD_NOTES §0); arrivals are Poisson with a 5 min
         * mean gap and lifetimes log-normal around 2 h, so the set also
         * replays in time order. */
        clock += rng_exponential(r, 300);
        k.arrival_s = round(clock);
        k.duration_s = round(clampd(rng_lognormal(r, log(7200), 1.2), 60, 7 * 86400.0));
        int c = cls[i], kk = ob_class_k[c];
        k.num_gpu = kk;
        if (c == 0) {
            k.gpu_milli = 0;
            k.cpu_milli = cpu_only_cpu[rng_below(r, 5)];
        } else if (c == 1) {
            k.gpu_milli = ob_share_milli[pick_weighted(r, ob_share_w, 12)];
            k.cpu_milli = share_cpu[rng_below(r, 5)];
        } else {
            k.gpu_milli = 1000;
            k.cpu_milli = kk == 1 ? whole_cpu[rng_below(r, 5)]
                                  : kk * (8000 + 1000 * (int64_t)rng_below(r, 4));
        }
        k.ram_mib = ram_gib[rng_below(r, 6)] * 1024 * (kk > 1 ? kk / 2 : 1);
        if (kk == 1 && rng_bernoulli(r, OB_SPEC_SHARE))
            k.gpu_spec = xstrdup(ob_specs[pick_weighted(r, ob_spec_w, 7)]);
        /* QoS classes of the trace: latency-sensitive and best-effort about
         * 57/42, a few burstable. */
        static const char *const qos[] = {"LS", "BE", "Burstable"};
        static const double qos_w[] = {57, 41, 2};
        strlcpy0(k.qos, qos[pick_weighted(r, qos_w, 3)], sizeof k.qos);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
}

/* ---- gavel-like --------------------------------------------------------------------
 *
 * A throughput table in the shape of Gavel's simulation_throughputs.json
 * (the dataset GOGH §3.1 uses): per accelerator (k80, p100, v100) and job
 * type (model, batch size, scale 1 — GOGH fixes the replication factor at
 * 1), the solo throughput in iterations/s and, for every colocated pair,
 * [own, other].  Job types are drawn from GOGH Table 2's applications plus
 * Gavel's CycleGAN and A3C.  Values are generated from a small model, not
 * copied: a nominal V100 speed per type, per-family speed ratios of the
 * older GPUs, and colocation slowdown from each job's GPU intensity and
 * memory, all jittered by the seed.
 */

typedef struct gv_job {
    const char *model;
    int batch;                  /* 0: the job type has no batch size */
    double v100_tput;           /* nominal it/s on a V100, our choice */
    double p100_ratio, k80_ratio;   /* speed relative to the V100 */
    double intensity;           /* share of a V100 the job keeps busy */
    double mem_gib;             /* footprint */
} gv_job;

/* Magnitudes chosen in the ranges Gavel measured for these families:
 * larger batches run fewer iterations/s; compute-bound CNNs and CycleGAN
 * gain most from newer GPUs, memory-bound Recommendation and the CPU-heavy
 * A3C least. */
static const gv_job gv_jobs[] = {
    {"ResNet-18", 32, 30.0, 0.75, 0.22, 0.55, 2.5},
    {"ResNet-18", 128, 18.0, 0.70, 0.20, 0.80, 6.0},
    {"ResNet-50", 64, 4.5, 0.60, 0.15, 0.90, 9.0},
    {"Transformer", 32, 10.5, 0.72, 0.30, 0.60, 4.0},
    {"Transformer", 128, 5.5, 0.65, 0.25, 0.85, 10.0},
    {"LM", 20, 65.0, 0.85, 0.27, 0.50, 3.0},
    {"Recommendation", 1024, 15.0, 0.90, 0.50, 0.45, 2.0},
    {"Recommendation", 4096, 4.5, 0.85, 0.45, 0.70, 5.0},
    {"CycleGAN", 0, 4.4, 0.55, 0.12, 0.90, 4.0},
    {"A3C", 0, 7.0, 0.80, 0.45, 0.35, 1.5},
};
#define GV_NJOBS ((int)(sizeof gv_jobs / sizeof *gv_jobs))

typedef struct gv_accel {
    const char *name;           /* Gavel's accelerator key = tput_class */
    const char *profile;        /* gpuplan GPU profile */
    double mem_gib;
    double load;                /* intensity multiplier: slower GPU, busier */
} gv_accel;

static const gv_accel gv_accels[3] = {
    {"k80", "K80", 12, 1.30},
    {"p100", "P100", 16, 1.15},
    {"v100", "V100M16", 16, 1.00},
};

static double gv_speed(const gv_job *j, int a)
{
    return a == 0 ? j->k80_ratio : a == 1 ? j->p100_ratio : 1.0;
}

static tput_entry gv_entry(const char *accel, const gv_job *j, const gv_job *co, double tput,
                           double co_tput)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    strlcpy0(e.accel, accel, sizeof e.accel);
    strlcpy0(e.model, j->model, sizeof e.model);
    e.batch_size = j->batch;
    e.scale = 1;
    if (co) {
        strlcpy0(e.co_model, co->model, sizeof e.co_model);
        e.co_batch_size = co->batch;
        e.co_scale = 1;
        e.co_tput = co_tput;
    }
    e.tput = tput;
    return e;
}

static void build_gavel_like(rng *r, sample_set *out)
{
    /* K80, from NVIDIA's published board specification: a board carries two
     * GK210 GPUs with 12 GB each and 300 W for the board, clocks 562 MHz
     * base to 875 MHz boost; a cloud "K80 GPU" (and Gavel's k80) is one
     * GK210, so 12 GiB and 150 W.  Idle: ~25 W per GPU in the P8 state
     * (NVIDIA developer forum reports for K80s).  Price: half the board's
     * 5,000 USD launch price. */
    out->profiles = catalog_new();
    gpu_profile k80 = {0};
    strlcpy0(k80.name, "K80", sizeof k80.name);
    k80.mem_gib = 12;
    k80.idle_w = 25;
    k80.max_w = 150;
    k80.f_min_mhz = 562;
    k80.f_max_mhz = 875;
    k80.alpha_w_per_mhz = (k80.max_w - k80.idle_w) / k80.f_max_mhz;  /* as built-ins */
    k80.beta = 0.91;            /* CATS eq. 5, assumed for every model */
    k80.price_usd = 2500;
    strlcpy0(k80.tput_class, "k80", sizeof k80.tput_class);
    catalog_add_gpu(out->profiles, &k80);

    /* Equal numbers of each type as in Gavel's simulated 36:36:36 cluster
     * (v100:p100:k80), at one third of its size: three 4-GPU servers per
     * type, 36 GPUs.  V100s are the 16 GB kind of Gavel's measurements
     * (built-in V100M16, class v100).  GOGH's power is per accelerator
     * (gamma_a), so no server watts. */
    out->cl = cluster_new("gavel-like");
    for (int a = 2; a >= 0; a--)
        for (int s = 0; s < 3; s++) {
            char name[GP_NAME_MAX];
            snprintf(name, sizeof name, "%s-%d", gv_accels[a].name, s);
            node n = make_node(name, gv_accels[a].profile, 4, 32000, 262144, "");
            cluster_add_node(out->cl, &n);
        }

    /* Solo throughput per accelerator: nominal x ratio x 8 % log-normal
     * jitter (measurement spread). */
    double solo[3][GV_NJOBS];
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < GV_NJOBS; j++)
            solo[a][j] = gv_jobs[j].v100_tput * gv_speed(&gv_jobs[j], a) *
                         exp(0.08 * rng_normal(r));

    out->tp = tput_catalog_new("gavel-like");
    for (int a = 0; a < 3; a++) {
        const gv_accel *ac = &gv_accels[a];
        for (int j = 0; j < GV_NJOBS; j++) {
            tput_entry e = gv_entry(ac->name, &gv_jobs[j], NULL, round_to(solo[a][j], 4), 0);
            tput_catalog_add(out->tp, &e);
        }
        /* Colocated pairs, each unordered pair drawn once and written in
         * both orders as Gavel does.  Two jobs whose footprints exceed the
         * GPU's memory cannot share it: [0, 0] as in Gavel's table.
         * Otherwise each keeps 95 % of its solo speed (MPS overhead) while
         * their intensities fit the GPU, and a proportional share beyond:
         * speed = 0.95 / max(1, k_j + k_o), with 5 % jitter. */
        double pair[GV_NJOBS][GV_NJOBS];
        for (int j = 0; j < GV_NJOBS; j++)
            for (int o = j; o < GV_NJOBS; o++) {
                const gv_job *J = &gv_jobs[j], *O = &gv_jobs[o];
                double kj = fmin(1, J->intensity * ac->load), ko = fmin(1, O->intensity * ac->load);
                double share = 0.95 / fmax(1, kj + ko);
                int fits = J->mem_gib + O->mem_gib <= ac->mem_gib;
                double sj = fmin(1, share * exp(0.05 * rng_normal(r)));
                double so = j == o ? sj : fmin(1, share * exp(0.05 * rng_normal(r)));
                pair[j][o] = fits ? round_to(solo[a][j] * sj, 4) : 0;
                pair[o][j] = fits ? round_to(solo[a][o] * so, 4) : 0;
            }
        for (int j = 0; j < GV_NJOBS; j++)
            for (int o = 0; o < GV_NJOBS; o++) {
                tput_entry e = gv_entry(ac->name, &gv_jobs[j], &gv_jobs[o], pair[j][o],
                                        pair[o][j]);
                tput_catalog_add(out->tp, &e);
            }
    }

    /* 40 jobs naming table job types uniformly; Poisson arrivals with a
     * 5 min mean gap (about one per GOGH round of 360 s); durations
     * log-normal, median 2 h, within [20 min, 12 h]; the minimum throughput
     * is 10-50 % of the job's V100 solo throughput, so some jobs can meet it
     * on a K80 or shared and the rest need a newer or a whole GPU. */
    out->tr = trace_new("gavel-like");
    double clock = 0;
    for (int i = 0; i < 40; i++) {
        int j = (int)rng_below(r, GV_NJOBS);
        task k;
        task_init(&k);
        set_name(k.name, sizeof k.name, "job-%02d", i);
        k.arrival_s = round(clock);
        clock += rng_exponential(r, 300);
        k.duration_s = round(clampd(rng_lognormal(r, log(7200), 0.8), 1200, 43200));
        k.gpu_mem_gib = gv_jobs[j].mem_gib;
        strlcpy0(k.model, gv_jobs[j].model, sizeof k.model);
        k.batch_size = gv_jobs[j].batch;
        k.min_tput = round_to(rng_range(r, 0.1, 0.5) * solo[2][j], 3);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
}

/* ---- registry and writing ----------------------------------------------------------- */

const samplegen_info samplegen_sets[] = {
    {"cats-testbed", "CATS Table 3/4: 14 tasks on one server of six V100"},
    {"corrgpu-example", "CorrGPU §III-B: two anti-correlated tasks on A100 40 GB"},
    {"pai-like", "3000 PAI-like training tasks (CATS Fig. 2/3) on 32 8-GPU V100 servers"},
    {"openb-like", "40-node Alibaba-2023-like cluster and 800 pods (FGD/PWR)"},
    {"gavel-like", "Gavel-shaped throughput table, K80/P100/V100 cluster, 40 jobs (GOGH)"},
};
const size_t samplegen_nsets = sizeof samplegen_sets / sizeof *samplegen_sets;

void sample_set_free(sample_set *s)
{
    if (!s)
        return;
    catalog_free(s->profiles);
    cluster_free(s->cl);
    trace_free(s->tr);
    tput_catalog_free(s->tp);
    memset(s, 0, sizeof *s);
}

int samplegen_known(const char *name)
{
    for (size_t i = 0; i < samplegen_nsets; i++)
        if (strcmp(samplegen_sets[i].name, name) == 0)
            return 1;
    return 0;
}

int samplegen_build(const char *name, uint64_t seed, sample_set *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(name, "pai-like") == 0) {
        samplegen_pai_like(3000, seed, out);
        return 0;
    }
    static const struct {
        const char *name;
        void (*build)(rng *, sample_set *);
    } builders[] = {
        {"cats-testbed", build_cats_testbed},
        {"corrgpu-example", build_corrgpu_example},
        {"openb-like", build_openb_like},
        {"gavel-like", build_gavel_like},
    };
    for (size_t i = 0; i < sizeof builders / sizeof *builders; i++)
        if (strcmp(builders[i].name, name) == 0) {
            rng r;
            rng_seed_stream(&r, seed, name_stream(name));
            builders[i].build(&r, out);
            return 0;
        }
    return gp_error(err, "unknown sample set '%s'", name);
}

static int remove_file(const char *dir, const char *file)
{
    char *p = xasprintf("%s/%s", dir, file);
    int rc = remove(p);
    free(p);
    return rc;
}

int samplegen_write(const char *name, const char *dir, uint64_t seed, gp_err *err)
{
    sample_set s;
    if (samplegen_build(name, seed, &s, err))
        return -1;
    int rc = mkdir_p(dir, err);
    /* Replace the whole set: files an earlier version wrote must not linger
     * (an old util.csv would name tasks that no longer exist). */
    static const char *const files[] = {"gpus.csv", "cpus.csv", "nodes.csv", "tasks.csv",
                                        "util.csv", "tput.csv", "placements.csv"};
    for (size_t i = 0; !rc && i < sizeof files / sizeof *files; i++)
        remove_file(dir, files[i]);
    if (!rc && s.cl)
        rc = export_cluster_csv(s.cl, s.profiles, dir, err);
    if (!rc && s.tr)
        rc = export_trace_csv(s.tr, dir, err);
    if (!rc && s.tp)
        rc = export_tput_csv(s.tp, dir, err);
    /* Profiles files with only a header add nothing: the set uses built-in
     * profiles only. */
    if (!rc && s.profiles->ngpus == 0)
        remove_file(dir, "gpus.csv");
    if (!rc && s.profiles->ncpus == 0)
        remove_file(dir, "cpus.csv");
    sample_set_free(&s);
    if (rc)
        gp_error_prefix(err, "sample set '%s'", name);
    return rc;
}
