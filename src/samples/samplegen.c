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
 * CorrGPU = 002, PWR/FGD = 001, PEACE = 003, GOGH = 004); every other
 * number is a choice stated next to it with its reason.  The generator only
 * builds model objects; writing them is the exporters' job, so the files
 * are exactly what `gpuplan export` would write and what import_native.c
 * (import_peace.c for peace-v100) reads.
 *
 * This file holds what the sets share: the small helpers, the fitting of
 * series to a paper's summary numbers, the registry of sets and the writer.
 * Each set is a file of its own (sample_<set>.c, named in samples_int.h)
 * saying which paper section it reproduces.
 *
 * Not here: simulation, policies, reading real traces (the importers).
 */
#include "samples_int.h"
#include "samplegen_int.h"
#include "io/export.h"
#include "io/set_manifest.h"
#include "peace/peace.h"
#include "core/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------------- */

void sample_seed(rng *r, uint64_t seed, const char *name)
{
    /* The set name's hash is the stream number of the set's generator. */
    rng_seed_stream(r, seed, core_str_hash(name));
}

void sample_name(char *dst, size_t len, const char *fmt, int i)
{
    snprintf(dst, len, fmt, i);
}

node sample_node(const char *name, const char *gpu_model, int gpus, int64_t cpu_milli,
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

size_t sample_pick_weighted(rng *r, const double *w, size_t n)
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
void sample_fit_series(double *y, size_t n, const fit_spec *f)
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
void sample_quantize_exact(float *out, const double *y, size_t n, const fit_spec *f)
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
void sample_task_series(task *k, const float *pct, size_t len, double period_s,
                        double mean, double peak, double first)
{
    task_set_util(k, pct, len, period_s);
    k->util_mean = mean;
    k->util_peak = peak >= 0 ? peak : round_to(k->util_peak, 2);
    k->util_first = first >= 0 ? first : round_to(k->util_first, 2);
}

/* ---- registry and writing ----------------------------------------------------------- */

const samplegen_info samplegen_sets[] = {
    {"cats-testbed", "CATS Table 3/4: 14 tasks on one server of six V100"},
    {"corrgpu-example", "CorrGPU §III-B: two anti-correlated tasks on A100 40 GB"},
    {"pai-like", "3000 PAI-like training tasks (CATS Fig. 2/3) on 32 8-GPU V100 servers"},
    {"openb-like", "40-node Alibaba-2023-like cluster and 800 pods (FGD/PWR)"},
    {"gavel-like", "Gavel-shaped throughput table, K80/P100/V100 cluster, 40 jobs (GOGH)"},
    {"peace-v100", "PEACE's 16 workloads on a V100-SXM2-32GB, alone and co-located "
                   "(modelled, not measured)"},
    {"peace-mix", "120 tasks of PEACE's workloads on 4 servers of 4 V100-SXM2-32GB (for "
                  "run --gpu-cap)"},
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
    peace_set_free(s->peace);
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
        {"cats-testbed", sample_cats_testbed},
        {"corrgpu-example", sample_corrgpu_example},
        {"openb-like", sample_openb_like},
        {"gavel-like", sample_gavel_like},
        {"peace-v100", sample_peace_v100},
        {"peace-mix", sample_peace_mix},
    };
    for (size_t i = 0; i < sizeof builders / sizeof *builders; i++)
        if (strcmp(builders[i].name, name) == 0) {
            rng r;
            sample_seed(&r, seed, name);
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
                                        "util.csv", "trace.csv", "tput.csv", "placements.csv",
                                        "peace.csv",
                                        "peace_workloads.csv", "peace_profiles.csv",
                                        "peace_colocations.csv", SET_MANIFEST};
    for (size_t i = 0; !rc && i < sizeof files / sizeof *files; i++)
        remove_file(dir, files[i]);
    if (!rc && s.cl)
        rc = export_cluster_csv(s.cl, s.profiles, dir, err);
    if (!rc && s.tr)
        rc = export_trace_csv(s.tr, dir, err);
    if (!rc && s.tp)
        rc = export_tput_csv(s.tp, dir, err);
    if (!rc && s.peace)
        rc = export_peace_csv(s.peace, s.profiles, dir, err);
    /* Profiles files with only a header add nothing: the set uses built-in
     * profiles only. */
    if (!rc && s.profiles->ngpus == 0)
        remove_file(dir, "gpus.csv");
    if (!rc && s.profiles->ncpus == 0)
        remove_file(dir, "cpus.csv");
    /* A sample set is a source kept in the tree and edited by hand: no
     * manifest, which would make import refuse an edited file (and which
     * lists the profiles files just removed). */
    if (!rc)
        remove_file(dir, SET_MANIFEST);
    sample_set_free(&s);
    if (rc)
        gp_error_prefix(err, "sample set '%s'", name);
    return rc;
}