/*
 * peace.c — the index of a checked PEACE set (peace.h) that the
 * predictors, the selector and the simulated controller read: profiles by
 * (workload, share, clock), sensitivities (PEACE §3), co-location rows by
 * combination in clock order, the ground truth between measured clocks,
 * the feature vectors of §3, and the SM splits.
 *
 * Lookups are tables and binary searches built once by peace_index_new():
 * profiles sit in a dense [workload][share][clock] table, co-location rows
 * in one array sorted by (combination, clock).
 *
 * Not here: the set and its checks (core/peaceset.c), reading or writing
 * files (io/import_peace.c, io/export_peace.c), the store
 * (db/store_peace.c), models and policies.
 */
#include "peace.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- groups and splits ---------------------------------------------------------------- */

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

/* ---- the index ------------------------------------------------------------------------- */

struct peace_index {
    const peace_set *set;
    int nf;
    double freq[PEACE_MAX_FREQS];
    const peace_profile **prof;         /* [w][share slot][clock] */
    double *sens;                       /* [w][clock] */
    peace_row_key *co;                        /* every co-location row, sorted */
    size_t nco;
    peace_combo *group[2];              /* of 2 and of 3 workloads */
    size_t ngroup[2];
};

static size_t prof_slot(const peace_index *ix, int w, int share_pct, int fi)
{
    return ((size_t)w * PEACE_NSHARES + (size_t)peace_share_slot(share_pct)) * (size_t)ix->nf +
           (size_t)fi;
}

/* Least-squares slope of throughput against share, items/s per percent
 * (PEACE §3's throughput sensitivity). */
static double fit_sensitivity(const peace_index *ix, int w, int fi)
{
    double xm = 0, ym = 0, sxy = 0, sxx = 0;
    for (int k = 0; k < PEACE_NSHARES; k++) {
        xm += (k + 1) * PEACE_SHARE_STEP;
        ym += ix->prof[prof_slot(ix, w, (k + 1) * PEACE_SHARE_STEP, fi)]->tput;
    }
    xm /= PEACE_NSHARES;
    ym /= PEACE_NSHARES;
    for (int k = 0; k < PEACE_NSHARES; k++) {
        double dx = (k + 1) * PEACE_SHARE_STEP - xm;
        sxy += dx * (ix->prof[prof_slot(ix, w, (k + 1) * PEACE_SHARE_STEP, fi)]->tput - ym);
        sxx += dx * dx;
    }
    return sxy / sxx;
}

/* The distinct workload groups of the sorted rows, by size (the rows of
 * one group are adjacent: peace_combo_cmp orders by workloads before shares). */
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
    peace_set_freqs(s, ix->freq, &ix->nf, err);
    ix->prof = xcalloc(s->nwl * PEACE_NSHARES * (size_t)ix->nf, sizeof *ix->prof);
    for (size_t i = 0; i < s->nprof; i++) {
        const peace_profile *p = &s->prof[i];
        ix->prof[prof_slot(ix, p->workload, p->share_pct,
                           peace_freq_slot(ix->freq, ix->nf, p->freq_mhz))] = p;
    }
    ix->sens = xmalloc(s->nwl * (size_t)ix->nf * sizeof *ix->sens);
    for (size_t w = 0; w < s->nwl; w++)
        for (int fi = 0; fi < ix->nf; fi++)
            ix->sens[w * (size_t)ix->nf + (size_t)fi] = fit_sensitivity(ix, (int)w, fi);
    ix->co = peace_row_keys_sorted(s, 1, &ix->nco);
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
    assert(peace_share_profiled(share_pct));
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
        int cmp = peace_combo_cmp(&ix->co[m].c, c);
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
static void add_row(const peace_index *ix, const peace_row_key *k, double wt, double *tput,
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
        const peace_row_key *k0 = &ix->co[a - 1], *k1 = &ix->co[a];
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
