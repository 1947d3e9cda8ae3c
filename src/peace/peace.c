/*
 * peace.c — PEACE's inputs (peace.h): the set and its checks, canonical
 * co-location combinations, the SM splits, and the index the predictors,
 * the selector and the simulated controller read — profiles by (workload,
 * share, clock), sensitivities (PEACE §3), co-location rows by combination
 * in clock order, the ground truth between measured clocks and the feature
 * vectors of §3.
 *
 * Lookups are tables and binary searches built once by peace_index_new():
 * profiles sit in a dense [workload][share][clock] table, co-location rows
 * in one array sorted by (combination, clock).
 *
 * Not here: reading or writing files (io/import_peace.c, io/export_peace.c),
 * the store (db/store_peace.c), models and policies.
 */
#include "peace.h"
#include "core/strbuf.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Profiled shares: 10, 20, ..., 90 % (§3). */
#define NSHARES (100 / PEACE_SHARE_STEP - 1)

static int share_slot(int share_pct)
{
    return share_pct / PEACE_SHARE_STEP - 1;
}

static int share_profiled(int share_pct)
{
    return share_pct >= PEACE_SHARE_STEP && share_pct < 100 &&
           share_pct % PEACE_SHARE_STEP == 0;
}

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
        profiled += share_profiled(share[i]);
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
static int combo_cmp(const peace_combo *a, const peace_combo *b)
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

static int same_group(const peace_combo *a, const peace_combo *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->w[i] != b->w[i])
            return 0;
    return 1;
}

static void splits_from(int n, int k, int left, int *cur, int (*out)[PEACE_MAX_COLOC],
                        int cap, int *count)
{
    if (k == n - 1) {
        if (left < PEACE_SHARE_STEP)
            return;
        cur[k] = left;
        if (*count < cap)
            memcpy(out[*count], cur, sizeof *out);
        ++*count;
        return;
    }
    for (int s = PEACE_SHARE_STEP; s <= left - PEACE_SHARE_STEP * (n - 1 - k);
         s += PEACE_SHARE_STEP) {
        cur[k] = s;
        splits_from(n, k + 1, left - s, cur, out, cap, count);
    }
}

int peace_splits(int n, int (*out)[PEACE_MAX_COLOC], int cap)
{
    if (n < 2 || n > PEACE_MAX_COLOC)
        return 0;
    int cur[PEACE_MAX_COLOC] = {0}, count = 0;
    splits_from(n, 0, 100, cur, out, cap, &count);
    return count < cap ? count : cap;
}

/* ---- keys of rows: duplicates and the index --------------------------------------------- */

/* A row as its canonical combination and clock; row is its index in the
 * set, perm[k] the row's position of canonical entry k.  A profile row is
 * the combination of its one workload at its share. */
typedef struct row_key {
    peace_combo c;
    double f;
    size_t row;
    int perm[PEACE_MAX_COLOC];
} row_key;

static row_key coloc_key(const peace_set *s, size_t i)
{
    const peace_coloc *r = &s->co[i];
    row_key k;
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

static row_key profile_key(const peace_set *s, size_t i)
{
    row_key k;
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
    const row_key *a = pa, *b = pb;
    int c = combo_cmp(&a->c, &b->c);
    if (c)
        return c;
    if (a->f != b->f)
        return a->f < b->f ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

static int row_key_same(const row_key *a, const row_key *b)
{
    return combo_cmp(&a->c, &b->c) == 0 && a->f == b->f;
}

/* The keys of the set's co-location rows (coloc) or profile rows, sorted. */
static row_key *row_keys_sorted(const peace_set *s, int coloc, size_t *n)
{
    *n = coloc ? s->nco : s->nprof;
    row_key *k = xmalloc((*n ? *n : 1) * sizeof *k);
    for (size_t i = 0; i < *n; i++)
        k[i] = coloc ? coloc_key(s, i) : profile_key(s, i);
    qsort(k, *n, sizeof *k, row_key_cmp);
    return k;
}

int peace_set_duplicate(const peace_set *s, int coloc, size_t *first, size_t *dup)
{
    size_t n;
    row_key *k = row_keys_sorted(s, coloc, &n);
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
static int profile_freqs(const peace_set *s, double *freqs, int *nf, gp_err *err)
{
    *nf = 0;
    for (size_t i = 0; i < s->nprof; i++)
        if (add_freq(freqs, nf, s->prof[i].freq_mhz))
            return gp_error(err, "PEACE set '%s': profiles at more than %d clocks", s->name,
                            PEACE_MAX_FREQS);
    qsort(freqs, (size_t)*nf, sizeof *freqs, cmp_double);
    return 0;
}

static int freq_slot(const double *freqs, int nf, double f)
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
    if (!share_profiled(p->share_pct))
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
    if (profile_freqs(s, freqs, &nf, err))
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
    if (s->nprof == s->nwl * NSHARES * (size_t)nf)
        return 0;
    unsigned char *seen = xcalloc(s->nwl * NSHARES * (size_t)nf, 1);
    for (size_t i = 0; i < s->nprof; i++) {
        const peace_profile *p = &s->prof[i];
        seen[((size_t)p->workload * NSHARES + (size_t)share_slot(p->share_pct)) * (size_t)nf +
             (size_t)freq_slot(freqs, nf, p->freq_mhz)] = 1;
    }
    int rc = 0;
    for (size_t k = 0; k < s->nwl * NSHARES * (size_t)nf && !rc; k++)
        if (!seen[k])
            rc = gp_error(err, "workload '%s': no profile at share %d %% and %g MHz",
                          s->wl[k / ((size_t)nf * NSHARES)].name,
                          (int)(k / (size_t)nf % NSHARES + 1) * PEACE_SHARE_STEP,
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

/* ---- the index ------------------------------------------------------------------------- */

struct peace_index {
    const peace_set *set;
    int nf;
    double freq[PEACE_MAX_FREQS];
    const peace_profile **prof;         /* [w][share slot][clock] */
    double *sens;                       /* [w][clock] */
    row_key *co;                        /* every co-location row, sorted */
    size_t nco;
    peace_combo *group[2];              /* of 2 and of 3 workloads */
    size_t ngroup[2];
};

static size_t prof_slot(const peace_index *ix, int w, int share_pct, int fi)
{
    return ((size_t)w * NSHARES + (size_t)share_slot(share_pct)) * (size_t)ix->nf +
           (size_t)fi;
}

/* Least-squares slope of throughput against share, items/s per percent
 * (PEACE §3's throughput sensitivity). */
static double fit_sensitivity(const peace_index *ix, int w, int fi)
{
    double xm = 0, ym = 0, sxy = 0, sxx = 0;
    for (int k = 0; k < NSHARES; k++) {
        xm += (k + 1) * PEACE_SHARE_STEP;
        ym += ix->prof[prof_slot(ix, w, (k + 1) * PEACE_SHARE_STEP, fi)]->tput;
    }
    xm /= NSHARES;
    ym /= NSHARES;
    for (int k = 0; k < NSHARES; k++) {
        double dx = (k + 1) * PEACE_SHARE_STEP - xm;
        sxy += dx * (ix->prof[prof_slot(ix, w, (k + 1) * PEACE_SHARE_STEP, fi)]->tput - ym);
        sxx += dx * dx;
    }
    return sxy / sxx;
}

/* The distinct workload groups of the sorted rows, by size (the rows of
 * one group are adjacent: combo_cmp orders by workloads before shares). */
static void index_groups(peace_index *ix)
{
    size_t cap[2] = {0, 0};
    for (size_t i = 0; i < ix->nco; i++) {
        const peace_combo *c = &ix->co[i].c;
        if (i > 0 && same_group(&ix->co[i - 1].c, c))
            continue;
        int g = c->n - 2;
        grow_array((void **)&ix->group[g], &cap[g], ix->ngroup[g] + 1, sizeof *ix->group[g]);
        peace_combo *out = &ix->group[g][ix->ngroup[g]++];
        *out = *c;
        memset(out->share, 0, sizeof out->share);
    }
}

peace_index *peace_index_new(const peace_set *s, gp_err *err)
{
    if (peace_set_check(s, err))
        return NULL;
    peace_index *ix = xcalloc(1, sizeof *ix);
    ix->set = s;
    profile_freqs(s, ix->freq, &ix->nf, err);
    ix->prof = xcalloc(s->nwl * NSHARES * (size_t)ix->nf, sizeof *ix->prof);
    for (size_t i = 0; i < s->nprof; i++) {
        const peace_profile *p = &s->prof[i];
        ix->prof[prof_slot(ix, p->workload, p->share_pct,
                           freq_slot(ix->freq, ix->nf, p->freq_mhz))] = p;
    }
    ix->sens = xmalloc(s->nwl * (size_t)ix->nf * sizeof *ix->sens);
    for (size_t w = 0; w < s->nwl; w++)
        for (int fi = 0; fi < ix->nf; fi++)
            ix->sens[w * (size_t)ix->nf + (size_t)fi] = fit_sensitivity(ix, (int)w, fi);
    ix->co = row_keys_sorted(s, 1, &ix->nco);
    index_groups(ix);
    return ix;
}

void peace_index_free(peace_index *ix)
{
    if (!ix)
        return;
    free(ix->prof);
    free(ix->sens);
    free(ix->co);
    free(ix->group[0]);
    free(ix->group[1]);
    free(ix);
}

const peace_set *peace_index_set(const peace_index *ix)
{
    return ix->set;
}

int peace_nfreqs(const peace_index *ix)
{
    return ix->nf;
}

double peace_freq(const peace_index *ix, int fi)
{
    assert(fi >= 0 && fi < ix->nf);
    return ix->freq[fi];
}

const peace_profile *peace_profile_at(const peace_index *ix, int w, int share_pct, int fi)
{
    assert(w >= 0 && (size_t)w < ix->set->nwl && fi >= 0 && fi < ix->nf);
    assert(share_profiled(share_pct));
    return ix->prof[prof_slot(ix, w, share_pct, fi)];
}

double peace_sensitivity(const peace_index *ix, int w, int fi)
{
    assert(w >= 0 && (size_t)w < ix->set->nwl && fi >= 0 && fi < ix->nf);
    return ix->sens[(size_t)w * (size_t)ix->nf + (size_t)fi];
}

size_t peace_groups(const peace_index *ix, int n, peace_combo *out, size_t cap)
{
    if (n < 2 || n > PEACE_MAX_COLOC)
        return 0;
    size_t count = ix->ngroup[n - 2];
    if (out)
        memcpy(out, ix->group[n - 2], (count < cap ? count : cap) * sizeof *out);
    return count;
}

/* The first of ix->co's rows that comes after combination c (canonical)
 * at clock f: f = -INFINITY gives c's first row, INFINITY the row after
 * its last. */
static size_t row_after(const peace_index *ix, const peace_combo *c, double f)
{
    size_t a = 0, b = ix->nco;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        int cmp = combo_cmp(&ix->co[m].c, c);
        if (cmp < 0 || (cmp == 0 && ix->co[m].f <= f))
            a = m + 1;
        else
            b = m;
    }
    return a;
}

/* The rows of combination c (canonical): [*lo, *hi) of ix->co, ascending
 * in clock.  0 when there are none. */
static int coloc_range(const peace_index *ix, const peace_combo *c, size_t *lo, size_t *hi)
{
    *lo = row_after(ix, c, -INFINITY);
    *hi = row_after(ix, c, INFINITY);
    return *hi > *lo;
}

static peace_combo canonical(const peace_combo *c)
{
    assert(c && c->n >= 2 && c->n <= PEACE_MAX_COLOC);
    peace_combo k = *c;
    peace_combo_canon(&k);
    return k;
}

int peace_truth_range(const peace_index *ix, const peace_combo *c, double *f_lo, double *f_hi)
{
    peace_combo k = canonical(c);
    size_t lo, hi;
    if (!coloc_range(ix, &k, &lo, &hi))
        return -1;
    *f_lo = ix->co[lo].f;
    *f_hi = ix->co[hi - 1].f;
    return 0;
}

/* Row key k's values in canonical order, weighted by wt, added to tput and
 * power. */
static void add_row(const peace_index *ix, const row_key *k, double wt, double *tput,
                    double *power_w)
{
    const peace_coloc *r = &ix->set->co[k->row];
    for (int i = 0; i < r->n; i++)
        tput[i] += wt * r->tput[k->perm[i]];
    *power_w += wt * r->power_w;
}

int peace_truth(const peace_index *ix, const peace_combo *c, double f, double *tput,
                double *power_w)
{
    peace_combo k = canonical(c);
    size_t lo, hi;
    if (!coloc_range(ix, &k, &lo, &hi))
        return -1;
    double power = 0;
    for (int i = 0; i < c->n; i++)
        tput[i] = 0;
    /* Rows a - 1 and a bracket f; clocks beyond the measured ones hold the
     * nearest row's values. */
    size_t a = row_after(ix, &k, f);
    if (a == lo || a == hi) {
        add_row(ix, &ix->co[a == lo ? lo : hi - 1], 1, tput, &power);
    } else {
        const row_key *k0 = &ix->co[a - 1], *k1 = &ix->co[a];
        double t = (f - k0->f) / (k1->f - k0->f);
        add_row(ix, k0, 1 - t, tput, &power);
        add_row(ix, k1, t, tput, &power);
    }
    if (power_w)
        *power_w = power;
    return 0;
}

void peace_features(const peace_index *ix, const peace_combo *c, int fi, double *power_x,
                    double *tput_x)
{
    assert(c && c->n >= 1 && c->n <= PEACE_MAX_COLOC && !peace_combo_unpartitioned(c));
    double x[PEACE_NFEAT_TPUT] = {0};
    for (int i = 0; i < c->n; i++) {
        const peace_profile *p = peace_profile_at(ix, c->w[i], c->share[i], fi);
        for (int m = 0; m < PEACE_NMETRICS; m++)
            x[m] += p->metric[m];
        x[PEACE_NMETRICS] += p->tput;
        x[PEACE_NMETRICS + 1] += peace_sensitivity(ix, c->w[i], fi);
    }
    /* §3: raw metrics summed, percentages averaged. */
    for (int m = 0; m < PEACE_NMETRICS; m++)
        if (!peace_metric_is_rate((peace_metric)m))
            x[m] /= c->n;
    if (power_x)
        memcpy(power_x, x, PEACE_NFEAT_POWER * sizeof *x);
    if (tput_x)
        memcpy(tput_x, x, PEACE_NFEAT_TPUT * sizeof *x);
}
