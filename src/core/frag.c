/*
 * frag.c — FGD's target workload and node/cluster fragmentation (frag.h),
 * computed the way the published FGD simulator computes them
 * (FGD_NOTES §2–3), down to the float summation order.
 *
 * Not here: the FGD score itself (policy_fgd.c / fgdscore.c), and any
 * notion of time — fragmentation is a function of the current state only.
 */
#include "frag.h"
#include "frag_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* --- typical tasks (FGD_NOTES §2) ---------------------------------------- */

/* A task's class key (FGD_NOTES §0, as task_gpu_share() reads it). */
typedef struct class_key {
    int64_t cpu;
    int g, k;
    const char *spec;           /* borrowed from the trace; "" = any */
    int count;
} class_key;

static void task_key(const task *tk, class_key *out)
{
    out->cpu = tk->cpu_milli;
    out->g = task_gpu_share(tk);
    out->k = task_gpus(tk);
    out->spec = tk->gpu_spec ? tk->gpu_spec : "";
    out->count = 1;
}

/* The published simulator's PodResource.Less: (cpu, g, k, type). */
static int key_cmp(const class_key *a, const class_key *b)
{
    if (a->cpu != b->cpu)
        return a->cpu < b->cpu ? -1 : 1;
    if (a->g != b->g)
        return a->g < b->g ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return strcmp(a->spec, b->spec);
}

static int cmp_key_asc(const void *a, const void *b)
{
    return key_cmp(a, b);
}

/* Count descending; equal counts: the larger key first (the simulator sorts
 * by (count, key) and reverses). */
static int cmp_popularity(const void *a, const void *b)
{
    const class_key *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return -key_cmp(x, y);
}

/* Sorts the tasks' keys and merges equal ones; returns the distinct count. */
static size_t distinct_keys(const gp_trace *tr, class_key *keys)
{
    for (size_t i = 0; i < tr->ntasks; i++)
        task_key(&tr->tasks[i], &keys[i]);
    qsort(keys, tr->ntasks, sizeof *keys, cmp_key_asc);
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        if (n > 0 && key_cmp(&keys[n - 1], &keys[i]) == 0)
            keys[n - 1].count++;
        else
            keys[n++] = keys[i];
    }
    return n;
}

static void set_class(frag_class *c, const class_key *k)
{
    memset(c, 0, sizeof *c);
    c->cpu_milli = k->cpu;
    c->g = k->g;
    c->k = k->k;
    c->count = k->count;
    strlcpy0(c->gpu_type, k->spec, sizeof c->gpu_type);
    c->spec = k->spec[0] ? xstrdup(k->spec) : NULL;
}

frag_workload *frag_workload_new(const gp_trace *tr)
{
    frag_workload *w = xcalloc(1, sizeof *w);
    w->ntasks = (int)tr->ntasks;
    if (tr->ntasks == 0)
        return w;
    class_key *keys = xmalloc(tr->ntasks * sizeof *keys);
    size_t nkeys = distinct_keys(tr, keys);
    qsort(keys, nkeys, sizeof *keys, cmp_popularity);
    /* Keys are taken while the cumulative count is below 95 % of the tasks,
     * checked before each key (the simulator's threshold 95, step 1). */
    double total = (double)tr->ntasks;
    double expected = 95.0 * total / 100.0;
    double cum = 0;
    size_t i = 0;
    w->cls = xcalloc(nkeys, sizeof *w->cls);
    while (cum < expected && i < nkeys) {
        set_class(&w->cls[i], &keys[i]);
        cum += keys[i].count;
        /* The simulator divides by the total first and renormalises by the
         * covered fraction afterwards; p_m keeps that float expression
         * because integer scores turn on its last bits. */
        w->cls[i].p = (double)keys[i].count / total;
        i++;
    }
    w->n = i;
    w->total = (int)cum;
    if (i < nkeys)
        for (size_t m = 0; m < i; m++)
            w->cls[m].p /= cum / total;
    free(keys);
    return w;
}

void frag_workload_free(frag_workload *w)
{
    if (!w)
        return;
    for (size_t m = 0; m < w->n; m++)
        free(w->cls[m].spec);
    free(w->cls);
    free(w);
}

/* --- node fragmentation (FGD_NOTES §3) ----------------------------------- */

/* The simulator's IsNodeAccessibleToPodByType: any type when the class
 * names none; a node without GPUs matches no named type. */
static int spec_allows(const char *spec, const char *model)
{
    if (!spec || !*spec)
        return 1;
    if (!model || !*model)
        return 0;
    size_t ml = strlen(model);
    for (const char *s = spec;;) {
        const char *bar = strchr(s, '|');
        size_t l = bar ? (size_t)(bar - s) : strlen(s);
        if (l == ml && strncmp(s, model, l) == 0)
            return 1;
        if (!bar)
            return 0;
        s = bar + 1;
    }
}

void frag_access(const frag_workload *w, const char *model, unsigned char *access)
{
    for (size_t m = 0; m < w->n; m++)
        access[m] = (unsigned char)spec_allows(w->cls[m].spec, model);
}

/* Adds class m's amount to its bucket, as NodeGpuShareFragAmount does:
 * p · amount with the amount converted from an integer, one bucket per
 * class except a fitting class, whose fragment part goes to q2 and usable
 * part to q3. */
static void class_contrib(const frag_class *c, int access, int cnt_ge, int sum_lt,
                          int64_t total, int64_t cpu_left, double *b)
{
    double p = c->p;
    int cpu_ok = cpu_left >= c->cpu_milli;
    if (c->g == 0) {
        b[cpu_ok ? FRAG_XL : FRAG_XR] += p * (double)total;
        return;
    }
    if (!access) {
        b[FRAG_NA] += p * (double)total;
        return;
    }
    /* CanNodeHostPodOnGpuMemory counts down from k and succeeds at <= 0. */
    int gpu_ok = cnt_ge >= (c->k > 0 ? c->k : 1);
    if (gpu_ok && cpu_ok) {
        b[FRAG_Q2] += p * (double)sum_lt;
        b[FRAG_Q3] += p * (double)(total - sum_lt);
    } else if (gpu_ok) {
        b[FRAG_Q4] += p * (double)total;
    } else {
        b[cpu_ok ? FRAG_Q2 : FRAG_Q1] += p * (double)total;
    }
}

/* FragAmountSumExceptQ3: starts from 0 and adds the buckets in index order. */
static double sum_except_q3(const double *b)
{
    double out = 0;
    for (int i = 0; i < FRAG_NBUCKETS; i++)
        if (i != FRAG_Q3)
            out += b[i];
    return out;
}

double frag_from_stats(const frag_workload *w, const unsigned char *access,
                       const int *cnt_ge, const int *sum_lt, int64_t total_idle,
                       int64_t cpu_left, double *buckets)
{
    double b[FRAG_NBUCKETS] = {0};
    for (size_t m = 0; m < w->n; m++)
        class_contrib(&w->cls[m], access[m], cnt_ge[m], sum_lt[m], total_idle, cpu_left, b);
    if (buckets)
        memcpy(buckets, b, sizeof b);
    return sum_except_q3(b);
}

void frag_stats(const frag_workload *w, const int *idle_milli, int ngpus, int *cnt_ge,
                int *sum_lt)
{
    for (size_t m = 0; m < w->n; m++) {
        int g = w->cls[m].g, cnt = 0, sum = 0;
        for (int d = 0; d < ngpus; d++) {
            if (idle_milli[d] >= g)
                cnt++;
            else
                sum += idle_milli[d];
        }
        cnt_ge[m] = cnt;
        sum_lt[m] = sum;
    }
}

double frag_node_raw(const frag_workload *w, const cs_node *n, const int *idle_milli,
                     int64_t cpu_left)
{
    int64_t total = 0;
    for (int d = 0; d < n->ngpus; d++)
        total += idle_milli[d];
    /* No idle GPU: every amount is p · 0 (FGD_NOTES §3). */
    if (total == 0)
        return 0;
    const char *model = n->gpu ? n->gpu->name : "";
    double b[FRAG_NBUCKETS] = {0};
    for (size_t m = 0; m < w->n; m++) {
        const frag_class *c = &w->cls[m];
        int cnt = 0, sum = 0;
        for (int d = 0; d < n->ngpus; d++) {
            if (idle_milli[d] >= c->g)
                cnt++;
            else
                sum += idle_milli[d];
        }
        class_contrib(c, spec_allows(c->spec, model), cnt, sum, total, cpu_left, b);
    }
    return sum_except_q3(b);
}

double frag_node(const frag_workload *w, const cstate *cs, int ni)
{
    const cs_node *n = &cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS];
    int ng = n->ngpus < GP_NODE_MAX_GPUS ? n->ngpus : GP_NODE_MAX_GPUS;
    for (int d = 0; d < ng; d++)
        idle[d] = cs_gpu_idle_milli(&cs->gpus[n->gpu0 + d]);
    cs_node view = *n;
    view.ngpus = ng;
    return frag_node_raw(w, &view, idle, n->cpu_left);
}

double frag_cluster(const frag_workload *w, cstate *cs)
{
    double f = 0;
    for (size_t i = 0; i < cs->nnodes; i++) {
        cs_node *n = &cs->nodes[i];
        if (!n->frag_valid) {
            n->frag_cache = frag_node(w, cs, (int)i);
            n->frag_valid = 1;
        }
        f += n->frag_cache;
    }
    return f;
}
