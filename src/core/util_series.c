/*
 * util_series.c — demand, summaries and GPU-versus-task comparison of
 * utilization series (util_series.h).  State only in the caller's
 * useries_in, useries_memo and useries_summaries.
 */
#include "util_series.h"
#include "util_series_int.h"
#include "util_series_grid.h"
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int useries_has_series(const task *tk)
{
    return tk->util.len > 0 && tk->util.pct != NULL;
}

static double series_period(const task *tk)
{
    return tk->util.period_s > 0 ? tk->util.period_s : 1.0;
}

/* The constant demand of a task without a series (as chosen in the
 * header: its mean; with no data at all, its whole GPU share). */
static double constant_pct(const task *tk)
{
    if (tk->util_mean > 0)
        return tk->util_mean;
    if (tk->util_peak > 0 || tk->util_first > 0)
        return tk->util_peak > 0 ? tk->util_peak : tk->util_first;
    if (tk->gpu_milli > 0 && tk->gpu_milli < 1000)
        return tk->gpu_milli / 10.0;    /* a shared-GPU task uses its share */
    return 100.0;
}

double useries_pct_idx(const task *tk, long idx)
{
    if (!useries_has_series(tk))
        return constant_pct(tk);
    if (idx < 0)
        idx = 0;
    return tk->util.pct[(size_t)idx % tk->util.len];
}

double useries_pct_at(const task *tk, double progress_s)
{
    if (!useries_has_series(tk))
        return constant_pct(tk);
    double i = floor(progress_s / series_period(tk));
    return useries_pct_idx(tk, i > 0 ? (long)i : 0);
}

long useries_next_change(const task *tk, long idx, double *change_s)
{
    double dur = tk->duration_s;
    if (!useries_has_series(tk)) {
        *change_s = dur;
        return idx;
    }
    double p = series_period(tk);
    double v = useries_pct_idx(tk, idx);
    long j = idx + 1, limit = idx + (long)tk->util.len;
    while (j < limit && (double)j * p < dur && useries_pct_idx(tk, j) == v)
        j++;
    double at = (double)j * p;
    *change_s = at < dur ? at : dur;
    return j;
}

double useries_summary(const task *tk, useries_kind kind)
{
    double c = constant_pct(tk);    /* the GPU share when there is no data */
    switch (kind) {
    case US_FIRST:
        if (useries_has_series(tk))
            return tk->util.pct[0];
        return tk->util_first > 0 ? tk->util_first : c;
    case US_PEAK:
        return tk->util_peak > 0 ? tk->util_peak : c;
    case US_MEAN:
    default:
        return useries_has_series(tk) || tk->util_mean > 0 ? tk->util_mean : c;
    }
}

double useries_percentile(const task *tk, double p)
{
    if (p >= 100)
        return useries_summary(tk, US_PEAK);
    if (!useries_has_series(tk))
        return useries_summary(tk, US_MEAN);
    double *x = xmalloc(tk->util.len * sizeof *x);
    for (size_t i = 0; i < tk->util.len; i++)
        x[i] = tk->util.pct[i];
    double v = stats_percentile(x, tk->util.len, p);
    free(x);
    return v;
}

/* The incoming side: the stored series, or a virtual constant one covering
 * the task's duration. */
void useries_in_init(useries_in *in, const gp_trace *tr, int ti)
{
    const task *tk = &tr->tasks[ti];
    memset(in, 0, sizeof *in);
    in->ti = ti;
    if (useries_has_series(tk)) {
        in->pct = tk->util.pct;
        in->len = tk->util.len;
        in->period_s = series_period(tk);
    } else {
        in->value = constant_pct(tk);
        double p = USERIES_NOMINAL_PERIOD_S;
        if (tk->duration_s / p > USERIES_VIRTUAL_MAX)
            p = tk->duration_s / USERIES_VIRTUAL_MAX;
        double n = ceil(tk->duration_s / p);
        in->len = n < 1 ? 1 : n > USERIES_VIRTUAL_MAX ? USERIES_VIRTUAL_MAX : (size_t)n;
        in->period_s = p;
    }
    in->prefix = xmalloc((in->len + 1) * sizeof *in->prefix);
    in->scratch = xmalloc(in->len * sizeof *in->scratch);
    in->prefix[0] = 0;
    for (size_t i = 0; i < in->len; i++)
        in->prefix[i + 1] = in->prefix[i] + (in->pct ? in->pct[i] : in->value);
    /* The same division incoming_mean makes, so the floor is one of its
     * results, not an estimate of them. */
    in->mean_floor = INFINITY;
    for (size_t n = 1; n <= in->len; n++) {
        double m = in->prefix[n] / (double)n;
        if (m < in->mean_floor)
            in->mean_floor = m;
    }
}

double useries_floor(const task *tk)
{
    if (!useries_has_series(tk))
        return (float)constant_pct(tk);     /* as add_task adds it */
    float lo = tk->util.pct[0];
    for (size_t i = 1; i < tk->util.len; i++)
        if (tk->util.pct[i] < lo)
            lo = tk->util.pct[i];
    return lo;
}

void useries_in_free(useries_in *in)
{
    useries_grid_free(in->grid_own);    /* the incoming side lives in the grid */
    in->gin = NULL;
    in->grid = NULL;
    in->grid_own = NULL;
    free(in->prefix);
    free(in->scratch);
    in->prefix = NULL;
    in->scratch = NULL;
}

static double incoming_mean(const useries_in *in, size_t n)
{
    if (n > in->len)
        n = in->len;
    return n ? in->prefix[n] / (double)n : 0;
}

/* Samples of the window task l still covers from progress s, at period P. */
static size_t remaining_samples(double duration_s, double s, double P)
{
    double rem = duration_s - s;
    if (!(rem > 0))
        return 0;
    double m = ceil(rem / P);
    return m > 1e9 ? (size_t)1e9 : (size_t)m;
}

/* agg[k] += u[k] (or = when first), k < n, four at a time: this and
 * stats_pearson are the inner loops of a placement decision. */
static void add_run(float *restrict agg, const float *restrict u, size_t n, int first)
{
    if (first) {
        memcpy(agg, u, n * sizeof *agg);
        return;
    }
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        agg[k] += u[k];
        agg[k + 1] += u[k + 1];
        agg[k + 2] += u[k + 2];
        agg[k + 3] += u[k + 3];
    }
    for (; k < n; k++)
        agg[k] += u[k];
}

/* Adds task l's demand at progress s + k P to agg[k], k < n (first: agg
 * holds nothing yet; it is written rather than added to). */
static void add_task(const task *tk, double s, double P, float *agg, size_t n, int first)
{
    if (!useries_has_series(tk)) {
        float c = (float)constant_pct(tk);
        for (size_t k = 0; k < n; k++)
            agg[k] = first ? c : agg[k] + c;
        return;
    }
    double p = series_period(tk);
    const float *u = tk->util.pct;
    size_t len = tk->util.len;
    if (p == P) {
        /* Same grid: the sample index advances by one per window step. */
        double i0d = floor(s / p);
        size_t i = i0d > 0 ? (size_t)i0d % len : 0;
        for (size_t k = 0; k < n;) {
            size_t run = len - i < n - k ? len - i : n - k;
            add_run(agg + k, u + i, run, first);
            k += run;
            i = 0;
        }
        return;
    }
    /* Another grid: each window step reads the sample under it.  The index
     * is floor(q) clamped at 0, as truncation gives for q > 0; the modulo
     * (a division) only when the window runs past the series. */
    for (size_t k = 0; k < n; k++) {
        double q = (s + (double)k * P) / p;
        size_t j = q > 0 ? (size_t)q : 0;
        if (j >= len)
            j %= len;
        agg[k] = first ? u[j] : agg[k] + u[j];
    }
}

/* Sum of x[0..n) with four partial sums: the loop is latency-bound on one
 * accumulator, and this is the hot loop of a placement decision. */
static double sum_floats(const float *x, size_t n)
{
    double a = 0, b = 0, c = 0, d = 0;
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        a += x[k];
        b += x[k + 1];
        c += x[k + 2];
        d += x[k + 3];
    }
    for (; k < n; k++)
        a += x[k];
    return (a + b) + (c + d);
}

/* A GPU running one task whose series is on the incoming task's grid and
 * does not wrap within the window: its aggregate is a slice of that series
 * (no copy).  NULL otherwise. */
static const float *single_slice(const task *tk, double s, double P, size_t n)
{
    if (!useries_has_series(tk) || series_period(tk) != P)
        return NULL;
    double i0d = floor(s / P);
    size_t i0 = i0d > 0 ? (size_t)i0d : 0;
    if (i0 >= tk->util.len || tk->util.len - i0 < n)
        return NULL;
    return tk->util.pct + i0;
}

/* ---- the GPU aggregate ---------------------------------------------------- */

/* Members of a GPU kept on the stack; more take the heap. */
#define MEMBERS_STACK 8

/* What one running task adds to a GPU's aggregate: the task, where its
 * samples start and how many of the window it covers.  Equal members give
 * equal contributions (add_task reads nothing else). */
typedef struct agg_member {
    int task;
    uint64_t pos;               /* 0 (constant), the start sample (same grid)
                                 * or the bits of its progress (other grid) */
    size_t m;                   /* samples it covers from there */
    double s;                   /* its progress: where add_task starts */
    int series;                 /* whether the task has a series ... */
    float c;                    /* ... and if not, its constant demand */
} agg_member;

/* What the aggregate reads of a task without its series, in a few bytes
 * per task (useries_memo keeps one per task of the trace: a GPU's
 * members are then read without their task records). */
typedef struct task_brief {
    double duration_s;
    double period_s;            /* its series' (series_period) */
    size_t len;                 /* its series' samples, 0 without one */
    float c;                    /* constant_pct, as add_task takes it */
    int series;
} task_brief;

static task_brief brief_of(const task *tk)
{
    task_brief b = {.duration_s = tk->duration_s, .series = useries_has_series(tk)};
    b.c = b.series ? 0 : (float)constant_pct(tk);
    b.period_s = series_period(tk);
    b.len = b.series ? tk->util.len : 0;
    return b;
}

/* The members of GPU g for a window of period P, in g's task order;
 * returns the index of the longest-lived (the first written) and sets
 * *agg_len to its length.  members has gpu->ntasks entries. */
static int agg_members(const cs_gpu *gpu, const gp_trace *tr, const task_brief *briefs,
                       const double *progress, int from_start, double P, agg_member *members,
                       size_t *agg_len)
{
    int longest = 0;
    *agg_len = 0;
    for (int i = 0; i < gpu->ntasks; i++) {
        int l = gpu->tasks[i];
        task_brief b = briefs ? briefs[l] : brief_of(&tr->tasks[l]);
        agg_member *a = &members[i];
        a->task = l;
        a->s = from_start || !progress ? 0 : progress[l];
        a->m = remaining_samples(b.duration_s, a->s, P);
        a->pos = 0;
        a->series = b.series;
        a->c = b.c;
        if (b.series) {
            double p = b.period_s;
            if (p == P) {
                double i0d = floor(a->s / p);
                a->pos = i0d > 0 ? (size_t)i0d % b.len : 0;
            } else {
                memcpy(&a->pos, &a->s, sizeof a->pos);
            }
        }
        if (a->m > *agg_len) {
            *agg_len = a->m;
            longest = i;
        }
    }
    return longest;
}

/* The order agg_build writes and adds the members in. */
static int build_order(int k, int longest)
{
    return k == 0 ? longest : k == longest ? 0 : k;
}

/* Builds the aggregate of n samples into buf: the longest-lived task is
 * written first (it covers the whole window); the others are added over
 * the samples they cover. */
static void agg_build(const gp_trace *tr, const agg_member *members, int nmembers, int longest,
                      double P, size_t n, float *buf)
{
    for (int k = 0; k < nmembers; k++) {
        const agg_member *a = &members[build_order(k, longest)];
        add_task(&tr->tasks[a->task], a->s, P, buf, a->m < n ? a->m : n, k == 0);
    }
}

/* sum_floats() of the aggregate of n samples of a GPU whose tasks have no
 * series, without building it: the aggregate is constant between the ends
 * of its tasks' windows, each value the float sum agg_build makes there.
 * sum_floats adds floats into doubles; when every partial sum is a
 * multiple of the values' smallest bit below 2^53 of it (checked), no
 * addition rounds, so its result is the exact sum computed here in
 * integers.  1 with *sum, 0 when the check fails (or a task has a series):
 * the caller builds the aggregate then. */
static int constant_sum(const agg_member *members, int nmembers, int longest, size_t n,
                        double *sum)
{
    enum { MAX_RUNS = 2 * MEMBERS_STACK };
    if (nmembers > MAX_RUNS / 2)
        return 0;
    size_t cut[MAX_RUNS];
    float c[MAX_RUNS];
    for (int i = 0; i < nmembers; i++) {
        if (members[i].series)
            return 0;
        c[i] = members[i].c;
        cut[i] = members[i].m < n ? members[i].m : n;
    }
    /* Runs [from, to) between successive distinct cuts. */
    int vexp[MAX_RUNS];
    int64_t vmant[MAX_RUNS];
    size_t vlen[MAX_RUNS];
    int nruns = 0, low = INT32_MAX;
    for (size_t from = 0; from < n;) {
        size_t to = n;
        for (int i = 0; i < nmembers; i++)
            if (cut[i] > from && cut[i] < to)
                to = cut[i];
        float v = 0;
        for (int k = 0; k < nmembers; k++) {
            int i = build_order(k, longest);
            if (cut[i] > from)
                v = k == 0 ? c[i] : v + c[i];
        }
        /* v = mant 2^exp exactly, from its bits. */
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        int field = (int)(bits >> 23 & 0xff);
        if (field == 0xff)
            return 0;                           /* inf or NaN */
        int64_t mant = bits & 0x7fffff;
        if (field)
            mant |= 0x800000;
        vmant[nruns] = bits >> 31 ? -mant : mant;
        vexp[nruns] = (field ? field : 1) - 150;
        vlen[nruns] = to - from;
        if (vmant[nruns] != 0 && vexp[nruns] < low)
            low = vexp[nruns];
        nruns++;
        from = to;
    }
    __int128 total = 0, bound = 0;
    for (int r = 0; r < nruns; r++) {
        if (vmant[r] == 0)
            continue;
        int shift = vexp[r] - low;
        if (shift > 40)
            return 0;
        __int128 t = (__int128)vmant[r] * ((__int128)1 << shift) * (__int128)vlen[r];
        total += t;
        bound += t < 0 ? -t : t;
    }
    if (bound >= ((__int128)1 << 53))
        return 0;
    /* total 2^low: a power of two built from its bits (low >= -149, a
     * normal double) scales exactly, without a call to ldexp. */
    uint64_t scale_bits = (uint64_t)(1023 + (low == INT32_MAX ? 0 : low)) << 52;
    double scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    *sum = (double)(int64_t)total * scale;
    return 1;
}

/* The comparison once the aggregate agg of n samples is known; rho only
 * when the means sum to at most rho_over (else *skipped = 1). */
static void finish_compare(const useries_in *in, const float *agg, size_t n, double sum,
                           double rho_over, int *skipped, useries_cmp *out)
{
    out->n = n;
    out->gpu_mean = n ? sum / (double)n : 0;
    out->task_mean = incoming_mean(in, n ? n : in->len);
    *skipped = 0;
    if (in->pct && out->gpu_mean + out->task_mean > rho_over) {
        *skipped = 1;
        out->rho = 0;
        return;
    }
    /* CATS eq. 15 on both series truncated to n (Alg. 1 line 6); a constant
     * side (an incoming task without a series) has zero variance: 0. */
    out->rho = in->pct ? stats_pearson(agg, n, in->pct, n) : 0;
}

/* ---- the memo ------------------------------------------------------------- */

typedef struct memo_entry {
    double P;                   /* the key: period ... */
    agg_member *members;        /* ... and members (s ignored) */
    int nmembers, members_cap;  /* nmembers 0: empty entry */
    float *agg;                 /* agg[0 .. len) */
    size_t len, cap;
    /* sum_floats's four partial sums after each block of four samples,
     * blocks [0, nblocks): the sum of any prefix in O(1), bit for bit.
     * Made on the second window length asked for; the first is summed
     * directly (most entries are asked once, or for one length). */
    double *lanes;
    size_t nblocks, lanes_cap;
    size_t sum_n;               /* sum_floats(agg, sum_n) = sum; 0 = none */
    double sum;
} memo_entry;

struct useries_memo {
    memo_entry *gpus;
    size_t ngpus;
    task_brief *briefs;         /* [ntasks] of the trace */
    size_t ntasks;
};

useries_memo *useries_memo_new(const gp_trace *tr)
{
    useries_memo *m = xcalloc(1, sizeof *m);
    m->ntasks = tr->ntasks;
    m->briefs = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *m->briefs);
    for (size_t i = 0; i < tr->ntasks; i++)
        m->briefs[i] = brief_of(&tr->tasks[i]);
    return m;
}

void useries_memo_free(useries_memo *m)
{
    if (!m)
        return;
    for (size_t g = 0; g < m->ngpus; g++) {
        free(m->gpus[g].members);
        free(m->gpus[g].agg);
        free(m->gpus[g].lanes);
    }
    free(m->gpus);
    free(m->briefs);
    free(m);
}

static memo_entry *memo_entry_for(useries_memo *m, size_t g)
{
    if (g >= m->ngpus) {
        size_t n = m->ngpus ? m->ngpus : 64;
        while (n <= g)
            n *= 2;
        m->gpus = xrealloc(m->gpus, n * sizeof *m->gpus);
        memset(m->gpus + m->ngpus, 0, (n - m->ngpus) * sizeof *m->gpus);
        m->ngpus = n;
    }
    return &m->gpus[g];
}

static int memo_matches(const memo_entry *e, double P, const agg_member *members, int nmembers,
                        size_t n)
{
    if (e->nmembers != nmembers || e->P != P || e->len < n)
        return 0;
    for (int i = 0; i < nmembers; i++)
        if (e->members[i].task != members[i].task || e->members[i].pos != members[i].pos ||
            e->members[i].m != members[i].m)
            return 0;
    return 1;
}

static void memo_store(memo_entry *e, double P, const agg_member *members, int nmembers)
{
    if (nmembers > e->members_cap) {
        e->members_cap = nmembers;
        e->members = xrealloc(e->members, (size_t)nmembers * sizeof *e->members);
    }
    memcpy(e->members, members, (size_t)nmembers * sizeof *members);
    e->nmembers = nmembers;
    e->P = P;
}

/* sum_floats(e->agg, n), from the partial sums of whole blocks (extended
 * as far as needed) and the tail, added in sum_floats's order. */
static double memo_sum(memo_entry *e, size_t n)
{
    if (n == 0)
        return 0;
    if (e->sum_n == n)
        return e->sum;
    if (e->sum_n == 0) {
        e->sum_n = n;
        return e->sum = sum_floats(e->agg, n);
    }
    size_t blocks = n / 4;
    if (blocks > e->nblocks) {
        if (blocks > e->lanes_cap) {
            e->lanes_cap = blocks > 2 * e->lanes_cap ? blocks : 2 * e->lanes_cap;
            e->lanes = xrealloc(e->lanes, e->lanes_cap * 4 * sizeof *e->lanes);
        }
        double l[4] = {0, 0, 0, 0};
        if (e->nblocks)
            memcpy(l, &e->lanes[(e->nblocks - 1) * 4], sizeof l);
        for (size_t b = e->nblocks; b < blocks; b++) {
            const float *x = &e->agg[b * 4];
            l[0] += x[0];
            l[1] += x[1];
            l[2] += x[2];
            l[3] += x[3];
            memcpy(&e->lanes[b * 4], l, sizeof l);
        }
        e->nblocks = blocks;
    }
    double a = 0, b = 0, c = 0, d = 0;
    if (blocks) {
        const double *l = &e->lanes[(blocks - 1) * 4];
        a = l[0], b = l[1], c = l[2], d = l[3];
    }
    for (size_t k = blocks * 4; k < n; k++)
        a += e->agg[k];
    return (a + b) + (c + d);
}

void useries_compare_memo(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                          const useries_in *in, int from_start, useries_memo *memo,
                          useries_cmp *out)
{
    int skipped;
    useries_compare_lazy(cs, tr, progress, g, in, from_start, memo, INFINITY, &skipped, out);
}

static void compare_at(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                       const useries_in *in, int from_start, double rho_over, int *skipped,
                       useries_cmp *out);

void useries_compare_lazy(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                          const useries_in *in, int from_start, useries_memo *memo,
                          double rho_over, int *rho_skipped, useries_cmp *out)
{
    const cs_gpu *gpu = &cs->gpus[g];
    *rho_skipped = 0;
    if (in->grid && !from_start) {
        useries_grid_compare(in->grid, in, g, rho_over, rho_skipped, out);
        return;
    }
    if (!memo || gpu->ntasks == 0) {
        compare_at(cs, tr, progress, g, in, from_start, rho_over, rho_skipped, out);
        return;
    }
    assert(memo->ntasks == tr->ntasks);     /* made for this trace */
    memset(out, 0, sizeof *out);
    double P = in->period_s;
    agg_member stack[MEMBERS_STACK];
    agg_member *members =
        gpu->ntasks <= MEMBERS_STACK ? stack : xmalloc((size_t)gpu->ntasks * sizeof *members);
    size_t agg_len;
    int longest = agg_members(gpu, tr, memo->briefs, progress, from_start, P, members, &agg_len);
    size_t n = in->len < agg_len ? in->len : agg_len;
    double sum;
    if (!in->pct && constant_sum(members, gpu->ntasks, longest, n, &sum)) {
        finish_compare(in, NULL, n, sum, rho_over, rho_skipped, out);
        if (members != stack)
            free(members);
        return;
    }
    memo_entry *e = memo_entry_for(memo, (size_t)g);
    if (!memo_matches(e, P, members, gpu->ntasks, n)) {
        size_t len = n;
        if (len > e->cap) {
            e->cap = len;
            e->agg = xrealloc(e->agg, len * sizeof *e->agg);
        }
        agg_build(tr, members, gpu->ntasks, longest, P, len, e->agg);
        memo_store(e, P, members, gpu->ntasks);
        e->len = len;
        e->nblocks = 0;
        e->sum_n = 0;
    }
    finish_compare(in, e->agg, n, memo_sum(e, n), rho_over, rho_skipped, out);
    if (members != stack)
        free(members);
}

/* ---- summaries ------------------------------------------------------------ */

void useries_summaries_init(useries_summaries *s, const gp_trace *tr)
{
    s->ntasks = tr->ntasks;
    for (int k = 0; k < 3; k++) {
        s->v[k] = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *s->v[k]);
        for (size_t i = 0; i < tr->ntasks; i++)
            s->v[k][i] = useries_summary(&tr->tasks[i], (useries_kind)k);
    }
}

void useries_summaries_free(useries_summaries *s)
{
    for (int k = 0; k < 3; k++) {
        free(s->v[k]);
        s->v[k] = NULL;
    }
}

void useries_compare(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                     const useries_in *in, int from_start, useries_cmp *out)
{
    int skipped;
    compare_at(cs, tr, progress, g, in, from_start, INFINITY, &skipped, out);
}

static void compare_at(const cstate *cs, const gp_trace *tr, const double *progress, int g,
                       const useries_in *in, int from_start, double rho_over, int *skipped,
                       useries_cmp *out)
{
    const cs_gpu *gpu = &cs->gpus[g];
    *skipped = 0;
    if (in->grid && !from_start) {
        useries_grid_compare(in->grid, in, g, rho_over, skipped, out);
        return;
    }
    memset(out, 0, sizeof *out);
    if (gpu->ntasks == 0) {
        out->task_mean = incoming_mean(in, in->len);
        return;
    }
    double P = in->period_s;
    agg_member stack[MEMBERS_STACK];
    agg_member *members =
        gpu->ntasks <= MEMBERS_STACK ? stack : xmalloc((size_t)gpu->ntasks * sizeof *members);
    size_t agg_len;
    int longest = agg_members(gpu, tr, NULL, progress, from_start, P, members, &agg_len);
    size_t n = in->len < agg_len ? in->len : agg_len;
    double sum;
    if (!in->pct && constant_sum(members, gpu->ntasks, longest, n, &sum)) {
        /* no series: rho 0, no aggregate */
        finish_compare(in, NULL, n, sum, rho_over, skipped, out);
        if (members != stack)
            free(members);
        return;
    }
    const float *agg = NULL;
    if (gpu->ntasks == 1)
        agg = single_slice(&tr->tasks[members[0].task], members[0].s, P, n);
    if (!agg) {
        agg_build(tr, members, gpu->ntasks, longest, P, n, in->scratch);
        agg = in->scratch;
    }
    finish_compare(in, agg, n, sum_floats(agg, n), rho_over, skipped, out);
    if (members != stack)
        free(members);
}
