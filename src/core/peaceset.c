/*
 * peaceset.c — a PEACE set (peaceset.h): names of metrics and kinds, the
 * set's arrays, canonical co-location combinations, the keys that find
 * repeated rows, and the checks a set passes before anything reads it.
 *
 * Not here: the index built from a checked set (peace/peace.c), reading or
 * writing files (io/import_peace.c, io/export_peace.c), the store
 * (db/store_peace.c).
 */
#include "peaceset.h"
#include "strbuf.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------------------------- */

static const char *const metric_columns[PEACE_NMETRICS] = {
    [PEACE_SM_ACTIVE] = "sm_active_pct", [PEACE_SM_OCCUPANCY] = "sm_occupancy_pct",
    [PEACE_FP32_ACTIVE] = "fp32_active_pct", [PEACE_MEM_BW] = "mem_bw_gbps",
    [PEACE_MEM_BUSY] = "mem_busy_pct", [PEACE_PCIE_TX] = "pcie_tx_mbps",
    [PEACE_PCIE_RX] = "pcie_rx_mbps",
};

const char *peace_metric_column(peace_metric m)
{
    assert(m >= 0 && m < PEACE_NMETRICS);
    return metric_columns[m];
}

int peace_metric_is_rate(peace_metric m)
{
    assert(m >= 0 && m < PEACE_NMETRICS);
    return m == PEACE_MEM_BW || m == PEACE_PCIE_TX || m == PEACE_PCIE_RX;
}

static const char *const kind_names[] = {[PEACE_TRAIN] = "train", [PEACE_INF] = "inf",
                                         [PEACE_CUDA] = "cuda"};
#define NKINDS ((int)(sizeof kind_names / sizeof *kind_names))

const char *peace_kind_name(peace_kind k)
{
    assert(k >= 0 && (int)k < NKINDS);
    return kind_names[k];
}

int peace_kind_parse(const char *s)
{
    for (int k = 0; k < NKINDS; k++)
        if (strcmp(kind_names[k], s) == 0)
            return k;
    return -1;
}

/* ---- the set --------------------------------------------------------------------------- */

peace_set *peace_set_new(const char *name)
{
    peace_set *s = xcalloc(1, sizeof *s);
    strlcpy0(s->name, name ? name : "", sizeof s->name);
    return s;
}

void peace_set_free(peace_set *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->wl);
    free(s->prof);
    free(s->co);
    free(s);
}

int peace_set_add_workload(peace_set *s, const peace_workload *w)
{
    grow_array((void **)&s->wl, &s->wl_cap, s->nwl + 1, sizeof *s->wl);
    s->wl[s->nwl] = *w;
    return (int)s->nwl++;
}

void peace_set_add_profile(peace_set *s, const peace_profile *p)
{
    grow_array((void **)&s->prof, &s->prof_cap, s->nprof + 1, sizeof *s->prof);
    s->prof[s->nprof++] = *p;
}

void peace_set_add_coloc(peace_set *s, const peace_coloc *c)
{
    grow_array((void **)&s->co, &s->co_cap, s->nco + 1, sizeof *s->co);
    s->co[s->nco++] = *c;
}

int peace_set_workload(const peace_set *s, const char *name)
{
    for (size_t i = 0; i < s->nwl; i++)
        if (strcmp(s->wl[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ---- combinations ---------------------------------------------------------------------- */

/* The order that makes positions i and j of (w, share) canonical. */
static int pos_before(const int *w, const int *share, int i, int j)
{
    return w[i] != w[j] ? w[i] < w[j] : share[i] < share[j];
}

/* perm[k] = the position of w/share that comes k-th in canonical order;
 * equal entries keep their order (insertion sort, n <= 3). */
static void canon_perm(const int *w, const int *share, int n, int *perm)
{
    for (int i = 0; i < n; i++) {
        int k = i;
        while (k > 0 && pos_before(w, share, i, perm[k - 1])) {
            perm[k] = perm[k - 1];
            k--;
        }
        perm[k] = i;
    }
}

void peace_combo_canon(peace_combo *c)
{
    assert(c->n >= 1 && c->n <= PEACE_MAX_COLOC);
    int perm[PEACE_MAX_COLOC];
    peace_combo in = *c;
    canon_perm(in.w, in.share, in.n, perm);
    for (int k = 0; k < in.n; k++) {
        c->w[k] = in.w[perm[k]];
        c->share[k] = in.share[perm[k]];
    }
}

int peace_combo_unpartitioned(const peace_combo *c)
{
    for (int i = 0; i < c->n; i++)
        if (c->share[i] != PEACE_NO_PARTITION)
            return 0;
    return c->n > 0;
}

void peace_equal_split(int n, int *share)
{
    assert(n >= 1 && n <= PEACE_MAX_COLOC);
    for (int i = 0; i < n; i++)
        share[i] = 100 / n + (i < 100 % n);
}

int peace_split_valid(int n, const int *share)
{
    if (n < 2 || n > PEACE_MAX_COLOC)
        return 0;
    int sum = 0, unpartitioned = 0, profiled = 0, equal[PEACE_MAX_COLOC],
        desc[PEACE_MAX_COLOC];
    peace_equal_split(n, equal);
    for (int i = 0; i < n; i++) {
        sum += share[i];
        unpartitioned += share[i] == PEACE_NO_PARTITION;
        profiled += peace_share_profiled(share[i]);
        int k = i;      /* insertion, largest first */
        for (; k > 0 && desc[k - 1] < share[i]; k--)
            desc[k] = desc[k - 1];
        desc[k] = share[i];
    }
    return unpartitioned == n || (profiled == n && sum == 100) ||
           memcmp(desc, equal, (size_t)n * sizeof *desc) == 0;
}

/* Orders canonical combinations: by size, then workloads, then shares, so
 * that the combinations of one workload group are adjacent. */
int peace_combo_cmp(const peace_combo *a, const peace_combo *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = 0; i < a->n; i++)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    for (int i = 0; i < a->n; i++)
        if (a->share[i] != b->share[i])
            return a->share[i] < b->share[i] ? -1 : 1;
    return 0;
}

/* ---- keys of rows: duplicates and the index --------------------------------------------- */

static peace_row_key coloc_key(const peace_set *s, size_t i)
{
    const peace_coloc *r = &s->co[i];
    peace_row_key k;
    memset(&k, 0, sizeof k);
    k.c.n = r->n;
    k.f = r->freq_mhz;
    k.row = i;
    canon_perm(r->workload, r->share_pct, r->n, k.perm);
    for (int j = 0; j < r->n; j++) {
        k.c.w[j] = r->workload[k.perm[j]];
        k.c.share[j] = r->share_pct[k.perm[j]];
    }
    return k;
}

static peace_row_key profile_key(const peace_set *s, size_t i)
{
    peace_row_key k;
    memset(&k, 0, sizeof k);
    k.c.n = 1;
    k.c.w[0] = s->prof[i].workload;
    k.c.share[0] = s->prof[i].share_pct;
    k.f = s->prof[i].freq_mhz;
    k.row = i;
    return k;
}

/* By combination, then clock, then row (so a key sorts after the earlier
 * rows it repeats). */
static int row_key_cmp(const void *pa, const void *pb)
{
    const peace_row_key *a = pa, *b = pb;
    int c = peace_combo_cmp(&a->c, &b->c);
    if (c)
        return c;
    if (a->f != b->f)
        return a->f < b->f ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

static int row_key_same(const peace_row_key *a, const peace_row_key *b)
{
    return peace_combo_cmp(&a->c, &b->c) == 0 && a->f == b->f;
}

/* The keys of the set's co-location rows (coloc) or profile rows, sorted. */
peace_row_key *peace_row_keys_sorted(const peace_set *s, int coloc, size_t *n)
{
    *n = coloc ? s->nco : s->nprof;
    peace_row_key *k = xmalloc((*n ? *n : 1) * sizeof *k);
    for (size_t i = 0; i < *n; i++)
        k[i] = coloc ? coloc_key(s, i) : profile_key(s, i);
    qsort(k, *n, sizeof *k, row_key_cmp);
    return k;
}

int peace_set_duplicate(const peace_set *s, int coloc, size_t *first, size_t *dup)
{
    size_t n;
    peace_row_key *k = peace_row_keys_sorted(s, coloc, &n);
    *first = *dup = n;
    /* Within a run of equal keys rows ascend, so its second row is the
     * first to repeat; the earliest such row over all runs is the one a
     * reader meets first. */
    for (size_t i = 1; i < n; i++)
        if (row_key_same(&k[i - 1], &k[i]) && (i == 1 || !row_key_same(&k[i - 2], &k[i - 1])) &&
            k[i].row < *dup) {
            *first = k[i - 1].row;
            *dup = k[i].row;
        }
    free(k);
    return *dup < n;
}

/* ---- checking a set -------------------------------------------------------------------- */

static int finite_nonneg(double v)
{
    return isfinite(v) && v >= 0;
}

/* "A+B 70+30 at 900 MHz" into b. */
static void describe_coloc(const peace_set *s, const peace_coloc *c, strbuf *b)
{
    for (int i = 0; i < c->n; i++) {
        int w = c->workload[i];
        strbuf_sep(b, "+");
        strbuf_puts(b, w >= 0 && (size_t)w < s->nwl ? s->wl[w].name : "?");
    }
    for (int i = 0; i < c->n; i++)
        strbuf_printf(b, "%s%d", i ? "+" : " ", c->share_pct[i]);
    strbuf_printf(b, " at %g MHz", c->freq_mhz);
}

static int check_workloads(const peace_set *s, gp_err *err)
{
    if (s->nwl < 2)
        return gp_error(err, "PEACE set '%s': needs at least two workloads, has %zu", s->name,
                        s->nwl);
    for (size_t i = 0; i < s->nwl; i++) {
        const peace_workload *w = &s->wl[i];
        if (!w->name[0])
            return gp_error(err, "workload %zu: no name", i + 1);
        if (w->kind < 0 || (int)w->kind >= NKINDS || (w->compute_hi != 0 && w->compute_hi != 1) ||
            (w->memory_hi != 0 && w->memory_hi != 1))
            return gp_error(err, "workload '%s': kind or class out of range", w->name);
        if (!finite_nonneg(w->mem_gib))
            return gp_error(err, "workload '%s': memory %g GiB is not a finite non-negative "
                            "number", w->name, w->mem_gib);
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->wl[j].name, w->name) == 0)
                return gp_error(err, "workload '%s' is named twice", w->name);
    }
    return 0;
}

/* The finite non-negative values of §3's metrics; percentages at most 100. */
static int metrics_ok(const double *metric)
{
    for (int m = 0; m < PEACE_NMETRICS; m++)
        if (!finite_nonneg(metric[m]) ||
            (!peace_metric_is_rate((peace_metric)m) && metric[m] > 100))
            return 0;
    return 1;
}

static int add_freq(double *freqs, int *nf, double f)
{
    for (int i = 0; i < *nf; i++)
        if (freqs[i] == f)
            return 0;
    if (*nf == PEACE_MAX_FREQS)
        return -1;
    freqs[(*nf)++] = f;
    return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The profile clocks, ascending, into freqs; -1 when there are more than
 * PEACE_MAX_FREQS. */
int peace_set_freqs(const peace_set *s, double *freqs, int *nf, gp_err *err)
{
    *nf = 0;
    for (size_t i = 0; i < s->nprof; i++)
        if (add_freq(freqs, nf, s->prof[i].freq_mhz))
            return gp_error(err, "PEACE set '%s': profiles at more than %d clocks", s->name,
                            PEACE_MAX_FREQS);
    qsort(freqs, (size_t)*nf, sizeof *freqs, cmp_double);
    return 0;
}

int peace_freq_slot(const double *freqs, int nf, double f)
{
    const double *hit = bsearch(&f, freqs, (size_t)nf, sizeof *freqs, cmp_double);
    return hit ? (int)(hit - freqs) : -1;
}

static int check_profile_row(const peace_set *s, size_t i, gp_err *err)
{
    const peace_profile *p = &s->prof[i];
    if (p->workload < 0 || (size_t)p->workload >= s->nwl)
        return gp_error(err, "profile row %zu: no workload %d", i + 1, p->workload);
    const char *name = s->wl[p->workload].name;
    if (!peace_share_profiled(p->share_pct))
        return gp_error(err, "profile row %zu (workload '%s'): share %d %% is not one of "
                        "10..90 in steps of %d", i + 1, name, p->share_pct, PEACE_SHARE_STEP);
    if (!isfinite(p->freq_mhz) || p->freq_mhz <= 0)
        return gp_error(err, "profile row %zu (workload '%s'): clock %g MHz is not positive",
                        i + 1, name, p->freq_mhz);
    if (!finite_nonneg(p->tput) || !finite_nonneg(p->power_w) || !metrics_ok(p->metric))
        return gp_error(err, "profile row %zu (workload '%s' at share %d %% and %g MHz): a "
                        "value is negative, not finite, or a percentage above 100", i + 1,
                        name, p->share_pct, p->freq_mhz);
    return 0;
}

/* Every workload at every share and every profile clock, once. */
static int check_profiles(const peace_set *s, gp_err *err)
{
    double freqs[PEACE_MAX_FREQS];
    int nf;
    for (size_t i = 0; i < s->nprof; i++)
        if (check_profile_row(s, i, err))
            return -1;
    if (peace_set_freqs(s, freqs, &nf, err))
        return -1;
    if (nf == 0)
        return gp_error(err, "PEACE set '%s': no profile rows", s->name);
    size_t first, dup;
    if (peace_set_duplicate(s, 0, &first, &dup)) {
        const peace_profile *p = &s->prof[dup];
        return gp_error(err, "profile row %zu repeats row %zu (workload '%s' at share %d %% "
                        "and %g MHz)", dup + 1, first + 1, s->wl[p->workload].name,
                        p->share_pct, p->freq_mhz);
    }
    /* No repeats, so a count short of the full table means a hole. */
    if (s->nprof == s->nwl * PEACE_NSHARES * (size_t)nf)
        return 0;
    unsigned char *seen = xcalloc(s->nwl * PEACE_NSHARES * (size_t)nf, 1);
    for (size_t i = 0; i < s->nprof; i++) {
        const peace_profile *p = &s->prof[i];
        seen[((size_t)p->workload * PEACE_NSHARES + (size_t)peace_share_slot(p->share_pct)) * (size_t)nf +
             (size_t)peace_freq_slot(freqs, nf, p->freq_mhz)] = 1;
    }
    int rc = 0;
    for (size_t k = 0; k < s->nwl * PEACE_NSHARES * (size_t)nf && !rc; k++)
        if (!seen[k])
            rc = gp_error(err, "workload '%s': no profile at share %d %% and %g MHz",
                          s->wl[k / ((size_t)nf * PEACE_NSHARES)].name,
                          (int)(k / (size_t)nf % PEACE_NSHARES + 1) * PEACE_SHARE_STEP,
                          freqs[k % (size_t)nf]);
    free(seen);
    return rc;
}

/* What is wrong with co-location row c, or NULL. */
static const char *coloc_problem(const peace_set *s, const peace_coloc *c)
{
    if (c->n < 2 || c->n > PEACE_MAX_COLOC)
        return "expected 2 or 3 workloads";
    for (int i = 0; i < c->n; i++) {
        if (c->workload[i] < 0 || (size_t)c->workload[i] >= s->nwl)
            return "unknown workload";
        if (!finite_nonneg(c->tput[i]))
            return "a throughput is negative or not finite";
    }
    if (!peace_split_valid(c->n, c->share_pct))
        return "the shares are not 10..90 in steps of 10 summing to 100, the equal split, "
               "nor all 100 (no partition)";
    if (!isfinite(c->freq_mhz) || c->freq_mhz <= 0)
        return "the clock is not positive";
    if (!finite_nonneg(c->power_w))
        return "the power is negative or not finite";
    return NULL;
}

static int check_colocs(const peace_set *s, gp_err *err)
{
    const char *why = NULL;
    char repeat[48];
    size_t bad = 0, first;
    for (size_t i = 0; i < s->nco && !why; i++)
        if ((why = coloc_problem(s, &s->co[i])))
            bad = i;
    if (!why && peace_set_duplicate(s, 1, &first, &bad)) {
        snprintf(repeat, sizeof repeat, "repeats row %zu", first + 1);
        why = repeat;
    }
    if (!why)
        return 0;
    strbuf b = STRBUF_INIT;
    describe_coloc(s, &s->co[bad], &b);
    gp_error(err, "co-location row %zu (%s): %s", bad + 1, strbuf_str(&b), why);
    strbuf_free(&b);
    return -1;
}

int peace_set_check(const peace_set *s, gp_err *err)
{
    assert(s);
    if (!(s->cap_min_w >= 0 && s->cap_min_w < s->cap_max_w && isfinite(s->cap_max_w)))
        return gp_error(err, "PEACE set '%s': power caps %g..%g W: expected 0 <= minimum < "
                        "maximum", s->name, s->cap_min_w, s->cap_max_w);
    if (check_workloads(s, err) || check_profiles(s, err) || check_colocs(s, err))
        return -1;
    return 0;
}
