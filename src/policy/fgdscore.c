/*
 * fgdscore.c — the fragmentation/power family's filter, scores,
 * normalisation, tie-break and device choice (fgdscore.h), following the
 * published FGD simulator and its PWR fork (FGD_NOTES §4–6).
 *
 * Not here: the experiment loop (inflation.c) and the policies' option
 * tables (policy_*.c).
 */
#include "fgdscore.h"
#include "fgdscore_int.h"
#include "fgdscore_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/power.h"
#include "core/hash.h"
#include "core/gpuname.h"
#include "core/rng.h"
#include "core/util.h"

/* Normalisation constants of the simulator's BestFit and DotProd
 * (MaxSpecCpu, MaxSpecGpu: the largest node of the Alibaba cluster). */
#define MAX_SPEC_CPU 128000.0
#define MAX_SPEC_GPU 8000.0
#define MAX_NODE_SCORE 100
/* The FGD score memo: a direct-mapped table indexed by a hash of (GPU
 * model, CPU left, idle list, score class).  Nodes in the same state share
 * entries (an empty cluster has only a handful of distinct states). */
#define MEMO_BITS 16

/* One remembered FGD score: valid for this class on any node of this model
 * whose CPU left and idle list are exactly these (the score is a pure
 * function of them, so a hit is always right, whatever happened in
 * between — rewinds included). */
typedef struct fgd_memo {
    int32_t key;                /* score class, -1 = empty */
    int16_t dev;
    int8_t ngpus;
    int8_t model;
    int64_t cpu_left;
    int64_t score;
    uint16_t idle[GP_NODE_MAX_GPUS];
} fgd_memo;

struct fgd_prep {
    frag_workload *w;           /* typical tasks, NULL when not needed */
    /* Class access flags per distinct GPU model (FGD_NOTES §3 "type not
     * allowed"), looked up by node so scores do no string work. */
    const gpu_profile **models;
    size_t nmodels;
    unsigned char *access;      /* nmodels+1 rows of w->n; the last: no GPU */
    int *node_model;            /* per node at prepare time */
    size_t nnodes_known;
    /* Scratch for one decision, grown to the node count.  cand holds one
     * node per group of identical nodes (cs_key): its lowest-ranked member;
     * cand_count how many nodes the group has. */
    int *cand, *cand_count;
    int64_t *raw, *norm, *total;    /* FGD_MAX_TERMS × nodes for raw, norm */
    int *dev;                        /* FGD_MAX_TERMS × nodes */
    size_t cap;
    /* Class statistics scratch (w->n each). */
    int *cnt, *sum, *cnt2, *sum2;
    unsigned char *access_tmp;
    /* The node groups (kept across decisions), and those of one decision:
     * each group's representative and size. */
    fgd_groups *groups;
    int *grep, *gcount;
    size_t ngroups;
    /* FGD score memo (1 << MEMO_BITS entries) and the score-class id of
     * every trace task ((cpu, g, k), commonest first). */
    fgd_memo *memo;
    int *task_key;
    size_t ntasks;
};

/* --- tasks ------------------------------------------------------------------ */

void fgd_task_of(const task *tk, fgd_task *out)
{
    memset(out, 0, sizeof *out);
    out->cpu = tk->cpu_milli;
    out->ram = tk->ram_mib;
    out->mem = tk->gpu_mem_gib;
    out->g = task_gpu_share(tk);
    out->k = task_gpus(tk);
    out->share = out->k == 1 && out->g < 1000;
    out->tag = cstate_task_tag(tk);
    out->tk = tk;
    out->key = -1;
}

/* --- the workspace ---------------------------------------------------------- */

static int model_index(fgd_prep *p, const gpu_profile *g)
{
    for (size_t i = 0; i < p->nmodels; i++)
        if (p->models[i] == g)
            return (int)i;
    return -1;
}

static void build_access(fgd_prep *p, const cstate *cs)
{
    p->nnodes_known = cs->nnodes;
    p->node_model = xmalloc((cs->nnodes ? cs->nnodes : 1) * sizeof *p->node_model);
    p->models = xmalloc((cs->nnodes ? cs->nnodes : 1) * sizeof *p->models);
    for (size_t i = 0; i < cs->nnodes; i++) {
        const gpu_profile *g = cs->nodes[i].ngpus > 0 ? cs->nodes[i].gpu : NULL;
        int m = g ? model_index(p, g) : -1;
        if (g && m < 0) {
            m = (int)p->nmodels;
            p->models[p->nmodels++] = g;
        }
        p->node_model[i] = m;
    }
    size_t nc = p->w ? p->w->n : 0;
    p->access = xcalloc((p->nmodels + 1) * (nc ? nc : 1), 1);
    for (size_t i = 0; p->w && i <= p->nmodels; i++)
        frag_access(p->w, i < p->nmodels ? p->models[i]->name : "", p->access + i * nc);
}

/* Score-class ids: tasks with the same (cpu, g, k) score alike; the
 * commonest class gets id 0. */
typedef struct key_rec {
    int64_t cpu;
    int g, k, count, id;
} key_rec;

static int cmp_rec(const void *a, const void *b)
{
    const key_rec *x = a, *y = b;
    if (x->cpu != y->cpu)
        return x->cpu < y->cpu ? -1 : 1;
    if (x->g != y->g)
        return x->g < y->g ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

static int cmp_rec_count(const void *a, const void *b)
{
    const key_rec *x = *(key_rec *const *)a, *y = *(key_rec *const *)b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return cmp_rec(x, y);
}

static void build_memo(fgd_prep *p, const gp_trace *tr)
{
    size_t n = tr->ntasks;
    key_rec *rec = xmalloc((n ? n : 1) * sizeof *rec), **by = NULL;
    for (size_t i = 0; i < n; i++) {
        fgd_task t;
        fgd_task_of(&tr->tasks[i], &t);
        rec[i] = (key_rec){t.cpu, t.g, t.k, 1, 0};
    }
    qsort(rec, n, sizeof *rec, cmp_rec);
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        if (nk > 0 && cmp_rec(&rec[nk - 1], &rec[i]) == 0)
            rec[nk - 1].count++;
        else
            rec[nk++] = rec[i];
    }
    by = xmalloc((nk ? nk : 1) * sizeof *by);
    for (size_t i = 0; i < nk; i++)
        by[i] = &rec[i];
    qsort(by, nk, sizeof *by, cmp_rec_count);
    for (size_t i = 0; i < nk; i++)
        by[i]->id = (int)i;
    p->ntasks = n;
    p->task_key = xmalloc((n ? n : 1) * sizeof *p->task_key);
    for (size_t i = 0; i < n; i++) {
        fgd_task t;
        fgd_task_of(&tr->tasks[i], &t);
        key_rec k = {t.cpu, t.g, t.k, 0, 0};
        key_rec *hit = bsearch(&k, rec, nk, sizeof *rec, cmp_rec);
        p->task_key[i] = hit ? hit->id : -1;
    }
    size_t slots = (size_t)1 << MEMO_BITS;
    p->memo = xmalloc(slots * sizeof *p->memo);
    for (size_t i = 0; i < slots; i++)
        p->memo[i].key = -1;
    free(by);
    free(rec);
}

fgd_prep *fgd_prep_new(const cstate *cs, const gp_trace *tr, int need_workload)
{
    fgd_prep *p = xcalloc(1, sizeof *p);
    if (need_workload && tr)
        p->w = frag_workload_new(tr);
    build_access(p, cs);
    size_t nc = p->w && p->w->n ? p->w->n : 1;
    p->cnt = xmalloc(nc * sizeof *p->cnt);
    p->sum = xmalloc(nc * sizeof *p->sum);
    p->cnt2 = xmalloc(nc * sizeof *p->cnt2);
    p->sum2 = xmalloc(nc * sizeof *p->sum2);
    p->access_tmp = xmalloc(nc);
    if (p->w && tr)
        build_memo(p, tr);
    return p;
}

void fgd_prep_free(fgd_prep *p)
{
    if (!p)
        return;
    frag_workload_free(p->w);
    free(p->models);
    free(p->access);
    free(p->node_model);
    free(p->cand);
    free(p->cand_count);
    fgd_groups_free(p->groups);
    free(p->grep);
    free(p->gcount);
    free(p->raw);
    free(p->norm);
    free(p->total);
    free(p->dev);
    free(p->cnt);
    free(p->sum);
    free(p->cnt2);
    free(p->sum2);
    free(p->access_tmp);
    free(p->memo);
    free(p->task_key);
    free(p);
}

const frag_workload *fgd_prep_workload(const fgd_prep *p)
{
    return p->w;
}

/* Grows the per-decision scratch to n nodes (only when the cluster grew). */
static void ensure_scratch(fgd_prep *p, size_t n)
{
    if (n <= p->cap && p->cand)
        return;
    size_t cap = n ? n : 1;
    p->cand = xrealloc(p->cand, cap * sizeof *p->cand);
    p->cand_count = xrealloc(p->cand_count, cap * sizeof *p->cand_count);
    p->grep = xrealloc(p->grep, cap * sizeof *p->grep);
    p->gcount = xrealloc(p->gcount, cap * sizeof *p->gcount);
    p->raw = xrealloc(p->raw, FGD_MAX_TERMS * cap * sizeof *p->raw);
    p->norm = xrealloc(p->norm, FGD_MAX_TERMS * cap * sizeof *p->norm);
    p->total = xrealloc(p->total, cap * sizeof *p->total);
    p->dev = xrealloc(p->dev, FGD_MAX_TERMS * cap * sizeof *p->dev);
    p->cap = cap;
}

/* The class access row of a node (computed into scratch for nodes opened
 * after prepare()). */
static const unsigned char *node_access(fgd_prep *p, const cstate *cs, int ni)
{
    size_t nc = p->w ? p->w->n : 0;
    if ((size_t)ni < p->nnodes_known) {
        int m = p->node_model[ni];
        return p->access + (m < 0 ? p->nmodels : (size_t)m) * nc;
    }
    const cs_node *n = &cs->nodes[ni];
    if (!p->w)
        return p->access;
    frag_access(p->w, n->ngpus > 0 && n->gpu ? n->gpu->name : "", p->access_tmp);
    return p->access_tmp;
}

int fgd_prepare_plain(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                      const double *params, void **prep, gp_err *err)
{
    (void)in;
    (void)params;
    (void)err;
    *prep = fgd_prep_new(cs, tr, 0);
    return 0;
}

int fgd_prepare_frag(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                     const double *params, void **prep, gp_err *err)
{
    (void)in;
    (void)params;
    (void)err;
    *prep = fgd_prep_new(cs, tr, 1);
    return 0;
}

void fgd_release(void *prep)
{
    fgd_prep_free(prep);
}

/* --- node views ------------------------------------------------------------- */

/* Idle share per device (FGD's L[i]); returns the device count. */
static int node_idle(const cstate *cs, int ni, int *idle)
{
    const cs_node *n = &cs->nodes[ni];
    int ng = n->ngpus < GP_NODE_MAX_GPUS ? n->ngpus : GP_NODE_MAX_GPUS;
    for (int d = 0; d < ng; d++)
        idle[d] = cs_gpu_idle_milli(&cs->gpus[n->gpu0 + d]);
    return ng;
}

/* The idle list as task t may use it: a device whose free memory is short
 * of the task's GPU memory shows -1, so that no device rule takes it (the
 * scores still read the real idle list, which says how fragmented the node
 * is).  Returns 1 when every device is usable — always for a task that
 * states no GPU memory (openb). */
static int node_usable(const cstate *cs, int ni, const fgd_task *t, const int *idle, int ng,
                       int *usable)
{
    int all = 1;
    const cs_gpu *g = &cs->gpus[cs->nodes[ni].gpu0];
    for (int d = 0; d < ng; d++) {
        int ok = t->mem <= 0 || cs_gpu_mem_free(&g[d]) + GP_MEM_EPS_GIB >= t->mem;
        usable[d] = ok ? idle[d] : -1;
        all &= ok;
    }
    return all;
}

static int64_t idle_total(const int *idle, int ng)
{
    int64_t t = 0;
    for (int d = 0; d < ng; d++)
        t += idle[d];
    return t;
}

/* NodeResource.Sub for a non-sharing task: the k devices taken are the
 * first ones with idle >= g in ascending idle order (stable), i.e. for whole
 * GPUs the first k fully free devices by index.  Marks them in taken[].
 * idle is the usable list (node_usable): a device short of memory is not
 * taken. */
static void sub_devices(const int *idle, int ng, int g, int k, int *taken)
{
    int order[GP_NODE_MAX_GPUS];
    for (int i = 0; i < ng; i++) {
        int j = i;
        while (j > 0 && idle[order[j - 1]] > idle[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
        taken[i] = 0;
    }
    for (int i = 0; i < ng && k > 0; i++) {
        if (idle[order[i]] >= g) {
            taken[order[i]] = 1;
            k--;
        }
    }
}

/* The node's idle list after a non-sharing task (the simulator's Sub);
 * the devices are taken among the usable ones. */
static void sub_idle(const int *idle, const int *usable, int ng, const fgd_task *t, int *out)
{
    int taken[GP_NODE_MAX_GPUS];
    sub_devices(usable, ng, t->g, t->k, taken);
    for (int d = 0; d < ng; d++)
        out[d] = idle[d] - (taken[d] ? t->g : 0);
}

/* --- filter and devices (FGD_NOTES §4, §5) ----------------------------------- */

int fgd_feasible(const cstate *cs, int ni, const fgd_task *t, const char **why)
{
    /* From the node's key (cs_key): every figure the filter reads, in one
     * small record, since it runs on every group at every decision. */
    const cs_key *k = &cs->keys[ni];
    const char *w = NULL;
    if (t->cpu > k->cpu_left)
        w = "CPU short";
    else if (t->ram > k->ram_left)
        w = "memory short";
    else if (t->g > 0 && (k->ngpus == 0 || !k->gpu))
        w = "no GPU";
    else if (t->g > 0 && !task_allows_model(t->tk, k->gpu->name))
        w = "GPU type not allowed";
    else if (t->g > 0) {
        int fit = 0, fit_share = 0;
        for (int d = 0; d < k->ngpus; d++) {
            int share = k->idle[d] >= t->g;
            fit_share += share;
            fit += share && (t->mem <= 0 || k->mem_free[d] + GP_MEM_EPS_GIB >= t->mem);
        }
        if (fit < t->k && fit_share >= t->k)
            w = "GPU memory short";
        else if (fit < t->k)
            w = t->share ? "no device with enough idle" : "too few free GPUs";
    }
    if (why)
        *why = w;
    return w == NULL;
}

static void fill_taken(const cs_node *n, const int *taken, int ng, placement *out)
{
    out->ngpus = 0;
    for (int d = 0; d < ng; d++)
        if (taken[d])
            out->gpus[out->ngpus++] = n->gpu0 + d;
}

void fgd_devices_bestfit(const cstate *cs, int ni, const fgd_task *t, placement *out)
{
    const cs_node *n = &cs->nodes[ni];
    int real[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(cs, ni, real), idle[GP_NODE_MAX_GPUS];
    node_usable(cs, ni, t, real, ng, idle);
    out->node = ni;
    out->ngpus = 0;
    if (t->k == 0)
        return;
    if (t->share) {
        int best = -1;
        for (int d = 0; d < ng; d++)
            if (idle[d] >= t->g && (best < 0 || idle[d] < idle[best]))
                best = d;
        if (best >= 0)
            out->gpus[out->ngpus++] = n->gpu0 + best;
        return;
    }
    /* AllocateExclusiveGpuId: fully free devices in index order. */
    int taken[GP_NODE_MAX_GPUS] = {0}, need = t->k;
    for (int d = 0; d < ng && need > 0; d++) {
        if (idle[d] >= 1000) {
            taken[d] = 1;
            need--;
        }
    }
    fill_taken(n, taken, ng, out);
}

/* --- scores (FGD_NOTES §5) -------------------------------------------------- */

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* trunc(100 · sigmoid((F0 − F1) / 1000)). */
static int64_t fgd_sigmoid_score(double f0, double f1)
{
    return (int64_t)(sigmoid((f0 - f1) / 1000) * (double)MAX_NODE_SCORE);
}

/* The statistics after device v's idle goes from v to v - g, from the
 * node's current ones: only that device changes. */
static void stats_after(const frag_workload *w, const int *cnt, const int *sum, int v, int g,
                        int *cnt2, int *sum2)
{
    int v2 = v - g;
    for (size_t m = 0; m < w->n; m++) {
        int gm = w->cls[m].g;
        cnt2[m] = cnt[m] - (v >= gm) + (v2 >= gm);
        sum2[m] = sum[m] - (v < gm ? v : 0) + (v2 < gm ? v2 : 0);
    }
}

/* FNV-1a over the state and class. */
static uint64_t memo_hash(int model, int key, const int *idle, int ng, int64_t cpu_left)
{
    uint64_t h = CORE_HASH_INIT;
    uint64_t parts[3] = {(uint64_t)(uint32_t)model, (uint64_t)(uint32_t)key, (uint64_t)cpu_left};
    for (int i = 0; i < 3; i++)
        h = core_hash_word(h, parts[i]);
    for (int d = 0; d < ng; d++)
        h = core_hash_word(h, (uint64_t)idle[d]);
    return h ^ (h >> 29);
}

/* The memo entry of this state and class when it is there, else NULL;
 * *slot receives the entry to fill. */
static fgd_memo *memo_find(fgd_prep *p, int ni, int key, const int *idle, int ng,
                           int64_t cpu_left, fgd_memo **slot)
{
    *slot = NULL;
    if (!p->memo || key < 0 || (size_t)ni >= p->nnodes_known || p->node_model[ni] > 127)
        return NULL;
    int model = p->node_model[ni];
    uint64_t h = memo_hash(model, key, idle, ng, cpu_left);
    fgd_memo *m = &p->memo[h & (((uint64_t)1 << MEMO_BITS) - 1)];
    *slot = m;
    if (m->key != key || m->model != model || m->cpu_left != cpu_left || m->ngpus != ng)
        return NULL;
    for (int d = 0; d < ng; d++)
        if (m->idle[d] != idle[d])
            return NULL;
    return m;
}

static void memo_store(fgd_memo *m, int model, int key, const int *idle, int ng,
                       int64_t cpu_left, int64_t score, int dev)
{
    m->key = key;
    m->model = (int8_t)model;
    m->ngpus = (int8_t)ng;
    m->cpu_left = cpu_left;
    m->score = score;
    m->dev = (int16_t)dev;
    for (int d = 0; d < ng; d++)
        m->idle[d] = (uint16_t)idle[d];
}

static int64_t fgd_score_compute(const fgd_eval *ev, int ni, const int *idle,
                                 const int *usable, int ng, int *dev, char *note, size_t len);

/* FGD's score, remembered per node and score class (the memo is skipped
 * when an explanation is asked for, which wants the F values). */
int64_t fgd_score_fgd(const fgd_eval *ev, int ni, int *dev, char *note, size_t len)
{
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle), d = -1;
    int usable[GP_NODE_MAX_GPUS] = {0};
    int64_t cpu_left = ev->cs->nodes[ni].cpu_left;
    /* The memo's entry is keyed by the idle list alone: a device short of
     * memory changes the answer, so such a node is scored afresh. */
    int all = node_usable(ev->cs, ni, ev->t, idle, ng, usable);
    fgd_memo *slot = NULL, *hit = note || !all ? NULL
                                : memo_find(ev->prep, ni, ev->t->key, idle, ng, cpu_left, &slot);
    if (hit) {
        if (dev)
            *dev = hit->dev;
        return hit->score;
    }
    int64_t s = fgd_score_compute(ev, ni, idle, usable, ng, &d, note, len);
    if (!note && slot)
        memo_store(slot, ev->prep->node_model[ni], ev->t->key, idle, ng, cpu_left, s, d);
    if (dev)
        *dev = d;
    return s;
}

static int64_t fgd_score_compute(const fgd_eval *ev, int ni, const int *idle,
                                 const int *usable, int ng, int *dev, char *note, size_t len)
{
    fgd_prep *p = ev->prep;
    const frag_workload *w = p->w;
    const fgd_task *t = ev->t;
    const cs_node *n = &ev->cs->nodes[ni];
    int64_t T = idle_total(idle, ng);
    const unsigned char *acc = node_access(p, ev->cs, ni);
    frag_stats(w, idle, ng, p->cnt, p->sum);
    double f0 = frag_from_stats(w, acc, p->cnt, p->sum, T, n->cpu_left, NULL), f1 = f0;
    int64_t score = 0;
    int best = -1;
    if (t->share) {
        for (int d = 0; d < ng; d++) {
            if (usable[d] < t->g)
                continue;
            /* An equal idle value earlier on a usable device gives the same
             * state, so the same score, which cannot beat that device. */
            int seen = 0;
            for (int e = 0; e < d && !seen; e++)
                seen = usable[e] == usable[d];
            if (seen)
                continue;
            stats_after(w, p->cnt, p->sum, idle[d], t->g, p->cnt2, p->sum2);
            double f = frag_from_stats(w, acc, p->cnt2, p->sum2, T - t->g, n->cpu_left - t->cpu,
                                       NULL);
            int64_t s = fgd_sigmoid_score(f0, f);
            if (best < 0 || s > score) {
                score = s;
                best = d;
                f1 = f;
            }
        }
    } else {
        int after[GP_NODE_MAX_GPUS];
        sub_idle(idle, usable, ng, t, after);
        frag_stats(w, after, ng, p->cnt2, p->sum2);
        f1 = frag_from_stats(w, acc, p->cnt2, p->sum2, idle_total(after, ng),
                             n->cpu_left - t->cpu, NULL);
        score = fgd_sigmoid_score(f0, f1);
    }
    if (dev)
        *dev = best;
    if (note)
        snprintf(note, len, "F %.1f -> %.1f", f0, f1);
    return score;
}

/* PWR (FGD_NOTES §5, §6): trunc(P_before − P_after) per hypothetical
 * state.  The CPU part after a task is the same whatever device it takes,
 * and a device changes the GPU part only when it was fully free. */
int64_t fgd_score_pwr(const fgd_eval *ev, int ni, int *dev, char *note, size_t len)
{
    const fgd_task *t = ev->t;
    const cs_node *n = &ev->cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle), free0 = 0;
    int usable[GP_NODE_MAX_GPUS] = {0};
    node_usable(ev->cs, ni, t, idle, ng, usable);
    cs_node view = *n;
    view.ngpus = ng;
    for (int d = 0; d < ng; d++)
        free0 += idle[d] >= 1000;
    double p0 = power_eopc_cpu(&view, n->cpu_left) + power_eopc_gpu(&view, free0), p1 = p0;
    double cpu1 = power_eopc_cpu(&view, n->cpu_left - t->cpu);
    int64_t score = 0;
    int best = -1;
    if (t->share) {
        for (int d = 0; d < ng; d++) {
            if (usable[d] < t->g)
                continue;
            double pa = cpu1 + power_eopc_gpu(&view, free0 - (idle[d] >= 1000));
            int64_t s = (int64_t)(p0 - pa);
            if (best < 0 || s > score) {
                score = s;
                best = d;
                p1 = pa;
            }
        }
    } else {
        int taken[GP_NODE_MAX_GPUS], free1 = free0;
        sub_devices(usable, ng, t->g, t->k, taken);
        for (int d = 0; d < ng; d++)
            free1 -= taken[d] && t->g > 0 && idle[d] >= 1000;
        p1 = cpu1 + power_eopc_gpu(&view, free1);
        score = (int64_t)(p0 - p1);
    }
    if (dev)
        *dev = best;
    if (note)
        snprintf(note, len, "P %.0f -> %.0f W", p0, p1);
    return score;
}

int64_t fgd_score_bestfit(const fgd_eval *ev, int ni, int *dev, char *note, size_t len)
{
    const fgd_task *t = ev->t;
    const cs_node *n = &ev->cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle);
    double free_cpu = (double)n->cpu_left, free_gpu = (double)idle_total(idle, ng);
    double req_cpu = (double)t->cpu, req_gpu = (double)t->g * t->k;
    /* Σ weight · (free − request) / max spec, lower is better; reversed. */
    double s = 0;
    s += (free_cpu - req_cpu) / MAX_SPEC_CPU * 0.5;
    s += (free_gpu - req_gpu) / MAX_SPEC_GPU * 0.5;
    s = (1.0 - s) * (double)MAX_NODE_SCORE;
    if (dev)
        *dev = -1;
    if (note)
        snprintf(note, len, "left cpu %.0f gpu %.0f", free_cpu - req_cpu, free_gpu - req_gpu);
    return (int64_t)s;
}

int64_t fgd_score_dotprod(const fgd_eval *ev, int ni, int *dev, char *note, size_t len)
{
    const fgd_task *t = ev->t;
    const cs_node *n = &ev->cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle);
    if (dev)
        *dev = -1;
    if (n->cpu_left < t->cpu) {
        if (note)
            snprintf(note, len, "CPU short: 0");
        return 0;
    }
    /* Tetris dot product of the node's free vector and the task's demand,
     * both normalised by the max spec; 1 − dot/2 so that less is better. */
    double nv[2] = {(double)n->cpu_left / MAX_SPEC_CPU,
                    (double)idle_total(idle, ng) / MAX_SPEC_GPU};
    double tv[2] = {(double)t->cpu / MAX_SPEC_CPU, (double)((int64_t)t->g * t->k) / MAX_SPEC_GPU};
    double dot = 0;
    for (int i = 0; i < 2; i++)
        dot += nv[i] * tv[i];
    double s = dot;
    s /= 2;
    s = 1 - s;
    if (note)
        snprintf(note, len, "dot %.4f", dot);
    return (int64_t)((double)MAX_NODE_SCORE * s);
}

int64_t fgd_score_gpupacking(const fgd_eval *ev, int ni, int *dev, char *note, size_t len)
{
    const fgd_task *t = ev->t;
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle);
    if (dev)
        *dev = -1;
    if (t->g <= 0) {
        if (note)
            snprintf(note, len, "CPU-only: 0");
        return 0;
    }
    int full_free = 0;
    for (int d = 0; d < ng; d++)
        full_free += idle[d] >= 1000;
    int64_t s;
    if (full_free == ng) {
        /* Case 3: an idle node, in [0, 33]. */
        s = MAX_NODE_SCORE / 3 - full_free;
        s = s > full_free ? s : full_free;
        if (note)
            snprintf(note, len, "idle node, %d free", full_free);
        return s;
    }
    int taken[GP_NODE_MAX_GPUS], usable[GP_NODE_MAX_GPUS];
    node_usable(ev->cs, ni, t, idle, ng, usable);
    sub_devices(usable, ng, t->g, t->k, taken);
    int use_free = 0, picked = 0;
    int64_t ratio = 0;
    for (int d = 0; d < ng; d++) {
        if (!taken[d])
            continue;
        picked++;
        use_free += idle[d] >= 1000;
        ratio += (int64_t)idle[d] * 100 / 1000;
    }
    if (picked < t->k)
        s = 0;
    else if (use_free > 0) {
        /* Case 2: free devices on a used node, in [33, 50]. */
        s = MAX_NODE_SCORE / 2 - use_free;
        s = s > MAX_NODE_SCORE / 3 ? s : MAX_NODE_SCORE / 3;
    } else {
        /* Case 1: shared devices only, in [50, 100]. */
        s = MAX_NODE_SCORE - ratio / 10;
        s = s > MAX_NODE_SCORE / 2 ? s : MAX_NODE_SCORE / 2;
    }
    if (note)
        snprintf(note, len, "uses %d free, idle%% %lld", use_free, (long long)ratio);
    return s;
}

int64_t fgd_score_gpuclustering(const fgd_eval *ev, int ni, int *dev, char *note,
                                size_t len)
{
    const fgd_task *t = ev->t;
    const cs_node *n = &ev->cs->nodes[ni];
    int idle[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ev->cs, ni, idle);
    if (dev)
        *dev = -1;
    if (t->tag == CS_TAG_NONE) {
        if (note)
            snprintf(note, len, "CPU-only: 0");
        return 0;
    }
    int tags = 0;
    for (int i = 0; i < CS_NTAGS; i++)
        tags += i != CS_TAG_NONE && n->tag_count[i] > 0;
    int64_t base = (int64_t)(MAX_NODE_SCORE / 4) * (8000 - idle_total(idle, ng)) / 8000;
    int64_t bonus;
    if (n->tag_count[t->tag] > 0)
        bonus = tags == 1 ? MAX_NODE_SCORE * 3 / 4 : MAX_NODE_SCORE * 2 / 4;
    else
        bonus = tags == 0 ? MAX_NODE_SCORE / 4 : 0;
    if (note)
        snprintf(note, len, "base %lld + %lld (%d tags)", (long long)base, (long long)bonus,
                 tags);
    return base + bonus;
}

/* --- normalisation, tie-break --------------------------------------------- */

void fgd_normalise(const int64_t *raw, size_t n, fgd_norm norm, int64_t *out)
{
    if (norm == FGD_NORM_NONE || n == 0) {
        memcpy(out, raw, n * sizeof *raw);
        return;
    }
    int64_t lo = raw[0], hi = raw[0];
    for (size_t i = 1; i < n; i++) {
        lo = raw[i] < lo ? raw[i] : lo;
        hi = raw[i] > hi ? raw[i] : hi;
    }
    for (size_t i = 0; i < n; i++) {
        if (hi == lo)
            out[i] = norm == FGD_NORM_PWR ? MAX_NODE_SCORE : 0;
        else
            out[i] = (raw[i] - lo) * MAX_NODE_SCORE / (hi - lo);
    }
}

size_t fgd_pick(const int *cand, const int64_t *total, size_t n, const int *rank)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        if (total[i] > total[best])
            best = i;
        else if (total[i] == total[best]) {
            int ri = rank ? rank[cand[i]] : cand[i];
            int rb = rank ? rank[cand[best]] : cand[best];
            if (ri < rb)
                best = i;
        }
    }
    return best;
}

/* --- the decision ----------------------------------------------------------- */

/* The term that chooses the device: the highest weight among those that
 * pick devices (the first on equal weights); -1 = best fit. */
static int device_term(const fgd_term *terms, int nterms)
{
    int j = -1;
    for (int i = 0; i < nterms; i++)
        if (terms[i].picks_device && (j < 0 || terms[i].weight > terms[j].weight))
            j = i;
    return j;
}

static void devices_for(const fgd_eval *ev, int ni, const fgd_term *term, int dev,
                        placement *out)
{
    if (term && ev->t->share && dev >= 0) {
        out->node = ni;
        out->ngpus = 1;
        out->gpus[0] = ev->cs->nodes[ni].gpu0 + dev;
        return;
    }
    fgd_devices_bestfit(ev->cs, ni, ev->t, out);
}

/* Filters the groups' representatives into p->cand (with their group
 * sizes); explains the filtered ones.  Returns how many; *nodes = the
 * feasible nodes they stand for. */
static size_t collect_feasible(const policy_ctx *ctx, fgd_prep *p, const fgd_task *t,
                               explain *ex, size_t *nodes)
{
    if (!p->groups)
        p->groups = fgd_groups_new();
    p->ngroups = fgd_groups_list(p->groups, ctx->cs, ctx->node_rank, explain_wants(ex), p->grep,
                                 p->gcount);
    size_t n = 0;
    *nodes = 0;
    for (size_t g = 0; g < p->ngroups; g++) {
        int ni = p->grep[g];
        const char *why = NULL;
        int ok = fgd_feasible(ctx->cs, ni, t, ex ? &why : NULL);
        if (ok) {
            p->cand_count[n] = p->gcount[g];
            p->cand[n++] = ni;
            *nodes += (size_t)p->gcount[g];
        } else if (explain_wants(ex)) {
            explain_cand *c = explain_add(ex, ni, -1);
            c->eligible = 0;
            if (p->gcount[g] > 1)
                snprintf(c->note, sizeof c->note, "%s (and %d alike)", why ? why : "filtered",
                         p->gcount[g] - 1);
            else
                strlcpy0(c->note, why ? why : "filtered", sizeof c->note);
        }
    }
    return n;
}

/* Filters every node into p->cand, in index order (Random draws among the
 * nodes themselves); explains the filtered ones. */
static size_t collect_feasible_nodes(const policy_ctx *ctx, fgd_prep *p, const fgd_task *t,
                                     explain *ex)
{
    size_t n = 0;
    for (size_t i = 0; i < ctx->cs->nnodes; i++) {
        const char *why = NULL;
        int ok = fgd_feasible(ctx->cs, (int)i, t, ex ? &why : NULL);
        if (ok)
            p->cand[n++] = (int)i;
        else if (explain_wants(ex)) {
            explain_cand *c = explain_add(ex, (int)i, -1);
            c->eligible = 0;
            strlcpy0(c->note, why ? why : "filtered", sizeof c->note);
        }
    }
    return n;
}

/* " (and N alike)" after a candidate's note when it stands for a group. */
static void note_alike(explain_cand *c, int count)
{
    size_t l = strlen(c->note);
    if (count > 1 && l < sizeof c->note)
        snprintf(c->note + l, sizeof c->note - l, " (and %d alike)", count - 1);
}

static void explain_names(explain *ex, const fgd_term *terms, int nterms)
{
    explain_reset(ex);
    int k = 0;
    for (int j = 0; j < nterms && k < EXPLAIN_MAX_TERMS - 2; j++) {
        ex->term_name[k++] = terms[j].name;
        if (terms[j].norm != FGD_NORM_NONE && k < EXPLAIN_MAX_TERMS - 2)
            ex->term_name[k++] = terms[j].norm_name ? terms[j].norm_name : "norm";
    }
    ex->term_name[k++] = "total";
    ex->term_name[k++] = "rank";
    ex->nterms = k;
}

/* Adds the scored candidates to ex (terms as named by explain_names). */
static void explain_scored(explain *ex, const fgd_eval *ev, const fgd_term *terms, int nterms,
                           const fgd_prep *p, size_t ncand, const int *rank, size_t pick)
{
    if (!explain_wants(ex))
        return;
    for (size_t i = 0; i < ncand; i++) {
        int ni = p->cand[i];
        explain_cand *c = explain_add(ex, ni, -1);
        int k = 0;
        for (int j = 0; j < nterms && k < EXPLAIN_MAX_TERMS - 2; j++) {
            c->term[k++] = (double)p->raw[(size_t)j * p->cap + i];
            if (terms[j].norm != FGD_NORM_NONE && k < EXPLAIN_MAX_TERMS - 2)
                c->term[k++] = (double)p->norm[(size_t)j * p->cap + i];
        }
        c->term[k++] = (double)p->total[i];
        c->term[k++] = rank ? rank[ni] : ni;
        terms[0].score(ev, ni, NULL, c->note, sizeof c->note);
        note_alike(c, p->cand_count[i]);
        if (i == pick)
            ex->chosen = (int)(ex->ncands - 1);
    }
}

static void explain_summary(explain *ex, const cstate *cs, const fgd_task *t,
                            const placement *out, size_t ncand, size_t ntied, int rank)
{
    char devs[64], where[GP_NAME_MAX + 64];
    placement_devices(cs, out, devs, sizeof devs);
    gpus_name(where, sizeof where, cs->nodes[out->node].name, devs);
    snprintf(ex->summary, sizeof ex->summary,
             "%s -> %s; %zu feasible, %zu tied at the best total, rank %d wins",
             t->tk->name, where, ncand, ntied, rank);
}

/* Scores every candidate with every term into p->total (weighted sum). */
static void score_all(const fgd_eval *ev, const fgd_term *terms, int nterms, fgd_prep *p,
                      size_t ncand)
{
    memset(p->total, 0, ncand * sizeof *p->total);
    for (int j = 0; j < nterms; j++) {
        int64_t *raw = &p->raw[(size_t)j * p->cap], *norm = &p->norm[(size_t)j * p->cap];
        int *dev = &p->dev[(size_t)j * p->cap];
        for (size_t i = 0; i < ncand; i++)
            raw[i] = terms[j].score(ev, p->cand[i], &dev[i], NULL, 0);
        fgd_normalise(raw, ncand, terms[j].norm, norm);
        for (size_t i = 0; i < ncand; i++)
            p->total[i] += terms[j].weight * norm[i];
    }
}

/* Nodes tied at the best total (every member of a tied group). */
static size_t count_tied(const fgd_prep *p, size_t ncand, size_t pick)
{
    size_t n = 0;
    for (size_t i = 0; i < ncand; i++)
        n += p->total[i] == p->total[pick] ? (size_t)p->cand_count[i] : 0;
    return n;
}

int fgd_place_scored(const policy_ctx *ctx, const fgd_term *terms, int nterms, int ti,
                     placement *out, explain *ex)
{
    fgd_prep *p = ctx->prep;
    fgd_prep *own = NULL;
    if (!p)
        p = own = fgd_prep_new(ctx->cs, ctx->tr, 1);
    fgd_task t;
    fgd_task_of(&ctx->tr->tasks[ti], &t);
    if (p->task_key && (size_t)ti < p->ntasks)
        t.key = p->task_key[ti];
    fgd_eval ev = {ctx->cs, &t, p};
    ensure_scratch(p, ctx->cs->nnodes);
    if (ex)
        explain_names(ex, terms, nterms);
    size_t nodes, ncand = collect_feasible(ctx, p, &t, ex, &nodes), pick = 0;
    int found = ncand > 0;
    if (found) {
        int dt = device_term(terms, nterms), dev = -1;
        if (ncand > 1)
            score_all(&ev, terms, nterms, p, ncand);
        else
            p->total[0] = 0;
        pick = ncand > 1 ? fgd_pick(p->cand, p->total, ncand, ctx->node_rank) : 0;
        int ni = p->cand[pick];
        if (dt >= 0 && t.share && ncand > 1)
            dev = p->dev[(size_t)dt * p->cap + pick];
        else if (dt >= 0 && t.share)
            terms[dt].score(&ev, ni, &dev, NULL, 0);
        devices_for(&ev, ni, dt >= 0 ? &terms[dt] : NULL, dev, out);
        if (ex) {
            if (ncand > 1)
                explain_scored(ex, &ev, terms, nterms, p, ncand, ctx->node_rank, pick);
            else {
                explain_cand *c = explain_add(ex, ni, -1);
                if (c) {
                    strlcpy0(c->note, nodes > 1 ? "only feasible kind of node"
                                                : "only feasible node", sizeof c->note);
                    note_alike(c, p->cand_count[0]);
                    ex->chosen = (int)(ex->ncands - 1);
                }
            }
            explain_summary(ex, ctx->cs, &t, out, nodes,
                            ncand > 1 ? count_tied(p, ncand, pick) : nodes,
                            ctx->node_rank ? ctx->node_rank[ni] : ni);
        }
    } else if (ex) {
        snprintf(ex->summary, sizeof ex->summary, "%s: no feasible node of %zu", t.tk->name,
                 ctx->cs->nnodes);
    }
    fgd_prep_free(own);
    return found;
}

static int feasible_for(const cstate *cs, int ni, const void *arg)
{
    return fgd_feasible(cs, ni, arg, NULL);
}

/* Random's node when no candidate is listed: the same count of feasible
 * nodes and the same draw as a filter over every node, from the node
 * groups (fgd_groups_filter/_nth), so a seed picks the same node at a cost
 * that follows the distinct node states, not the idle servers.  -1: no
 * feasible node. */
static int random_node_grouped(const policy_ctx *ctx, fgd_prep *p, const fgd_task *t,
                               size_t *ncand)
{
    if (!p->groups)
        p->groups = fgd_groups_new();
    *ncand = fgd_groups_filter(p->groups, ctx->cs, feasible_for, t);
    if (*ncand == 0)
        return -1;
    size_t pick = *ncand > 1 && ctx->rng ? (size_t)rng_below(ctx->rng, *ncand) : 0;
    return fgd_groups_nth(p->groups, pick);
}

int fgd_place_random(const policy_ctx *ctx, int ti, placement *out, explain *ex)
{
    fgd_prep *p = ctx->prep;
    fgd_prep *own = NULL;
    if (!p)
        p = own = fgd_prep_new(ctx->cs, ctx->tr, 0);
    fgd_task t;
    fgd_task_of(&ctx->tr->tasks[ti], &t);
    ensure_scratch(p, ctx->cs->nnodes);
    if (ex) {
        explain_reset(ex);
        ex->term_name[0] = "score";
        ex->nterms = 1;
    }
    size_t ncand, pick = 0;
    int ni = -1;
    if (!explain_wants(ex) && !own) {
        ni = random_node_grouped(ctx, p, &t, &ncand);
    } else if ((ncand = collect_feasible_nodes(ctx, p, &t, ex)) > 0) {
        /* One random feasible node scores 100, the others 0; a single
         * feasible node is taken without a draw. */
        pick = ncand > 1 && ctx->rng ? (size_t)rng_below(ctx->rng, ncand) : 0;
        ni = p->cand[pick];
    }
    if (ncand == 0) {
        if (ex)
            snprintf(ex->summary, sizeof ex->summary, "%s: no feasible node of %zu",
                     t.tk->name, ctx->cs->nnodes);
        fgd_prep_free(own);
        return 0;
    }
    fgd_devices_bestfit(ctx->cs, ni, &t, out);
    if (t.share && ctx->rng) {
        /* SelRandomGpu: a uniformly random device among those with room. */
        int real[GP_NODE_MAX_GPUS] = {0}, ng = node_idle(ctx->cs, ni, real), nel = 0;
        int idle[GP_NODE_MAX_GPUS];
        node_usable(ctx->cs, ni, &t, real, ng, idle);
        for (int d = 0; d < ng; d++)
            nel += idle[d] >= t.g;
        int r = nel > 1 ? (int)rng_below(ctx->rng, (uint64_t)nel) : 0;
        for (int d = 0; d < ng; d++)
            if (idle[d] >= t.g && r-- == 0)
                out->gpus[0] = ctx->cs->nodes[ni].gpu0 + d;
    }
    if (ex) {
        for (size_t i = 0; i < ncand && explain_wants(ex); i++) {
            explain_cand *c = explain_add(ex, p->cand[i], -1);
            c->term[0] = i == pick ? MAX_NODE_SCORE : 0;
            if (i == pick)
                ex->chosen = (int)(ex->ncands - 1);
        }
        explain_summary(ex, ctx->cs, &t, out, ncand, 1,
                        ctx->node_rank ? ctx->node_rank[ni] : ni);
    }
    fgd_prep_free(own);
    return 1;
}
