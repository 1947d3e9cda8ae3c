/*
 * cstate.c — building, copying and mutating the cluster state (cstate.h).
 */
#include "cstate.h"
#include "hash.h"
#include "cstate_int.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- index sets ------------------------------------------------------------- */

/* Grows s to hold GPU indices below ngpus (new members absent). */
static void idxset_fit(cs_idxset *s, size_t ngpus)
{
    size_t need = (ngpus + 63) / 64;
    if (need > s->cap) {
        size_t cap = s->cap ? s->cap : 4;
        while (cap < need)
            cap *= 2;
        size_t old_words = s->cap ? s->cap / 64 + 1 : 0, words = cap / 64 + 1;
        s->bits = xrealloc(s->bits, cap * sizeof *s->bits);
        memset(s->bits + s->cap, 0, (cap - s->cap) * sizeof *s->bits);
        s->words = xrealloc(s->words, words * sizeof *s->words);
        memset(s->words + old_words, 0, (words - old_words) * sizeof *s->words);
        s->cap = cap;
    }
    if (need > s->nwords)
        s->nwords = need;
}

static void idxset_put(cs_idxset *s, int g, int member)
{
    size_t w = (size_t)g >> 6;
    uint64_t bit = 1ULL << (g & 63);
    assert(w < s->nwords);
    if (member) {
        s->bits[w] |= bit;
        s->words[w >> 6] |= 1ULL << (w & 63);
    } else if (s->bits[w] & bit) {
        s->bits[w] &= ~bit;
        if (!s->bits[w])
            s->words[w >> 6] &= ~(1ULL << (w & 63));
    }
}

int cs_idxset_next(const cs_idxset *s, int from)
{
    size_t w = from > 0 ? (size_t)from >> 6 : 0;
    if (w >= s->nwords)
        return -1;
    uint64_t b = s->bits[w] & (~0ULL << (from > 0 ? from & 63 : 0));
    if (b)
        return (int)(w * 64 + (size_t)__builtin_ctzll(b));
    w++;
    size_t sw = w >> 6, nsw = (s->nwords + 63) / 64;
    if (sw >= nsw)
        return -1;
    uint64_t x = s->words[sw] & (~0ULL << (w & 63));
    while (!x) {
        if (++sw >= nsw)
            return -1;
        x = s->words[sw];
    }
    size_t found = sw * 64 + (size_t)__builtin_ctzll(x);
    return (int)(found * 64 + (size_t)__builtin_ctzll(s->bits[found]));
}

static void idxset_copy(cs_idxset *dst, const cs_idxset *src)
{
    *dst = *src;
    if (!src->cap)
        return;
    dst->bits = xmemdup(src->bits, src->cap * sizeof *dst->bits);
    dst->words = xmemdup(src->words, (src->cap / 64 + 1) * sizeof *dst->words);
}

static void idxset_free(cs_idxset *s)
{
    free(s->bits);
    free(s->words);
}

/* Puts GPU g in the fresh-GPU classes its state says (cstate.fresh). */
static void fresh_update(cstate *cs, int g)
{
    const cs_gpu *gpu = &cs->gpus[g];
    int empty = gpu->ntasks == 0, server_asleep = cs->nodes[gpu->node].asleep;
    idxset_put(&cs->fresh[CS_FRESH_AWAKE], g,
               empty && !server_asleep && gpu->power != GPU_ASLEEP);
    idxset_put(&cs->fresh[CS_FRESH_SERVER_AWAKE], g, empty && !server_asleep);
    idxset_put(&cs->fresh[CS_FRESH_SERVER_ASLEEP], g, empty && server_asleep);
}

static void fresh_update_node(cstate *cs, int node_idx)
{
    const cs_node *n = &cs->nodes[node_idx];
    idxset_put(&cs->awake_nodes, node_idx, !n->asleep);
    for (int d = 0; d < n->ngpus; d++)
        fresh_update(cs, n->gpu0 + d);
}

/* ---- building ------------------------------------------------------------- */

static void add_gpus(cstate *cs, int node_idx, const node *spec, const gpu_profile *gp)
{
    cs_node *n = &cs->nodes[node_idx];
    n->gpu0 = (int)cs->ngpus;
    n->ngpus = gp ? spec->gpu_count : 0;
    grow_array((void **)&cs->gpus, &cs->gpus_cap, cs->ngpus + (size_t)n->ngpus, sizeof *cs->gpus);
    for (int d = 0; d < n->ngpus; d++) {
        cs_gpu *g = &cs->gpus[cs->ngpus++];
        memset(g, 0, sizeof *g);
        g->node = node_idx;
        g->dev = d;
        g->mem_gib = d < GP_NODE_MAX_GPUS && spec->gpu_mem_gib[d] > 0 ? spec->gpu_mem_gib[d]
                                                                     : gp->mem_gib;
        g->power = GPU_IDLE;
        g->freq_mhz = gp->f_max_mhz;
    }
}

/* A state's id (cstate.id): unique within the process, whatever thread
 * builds the state. */
static uint64_t new_state_id(void)
{
    static atomic_uint_fast64_t next = 1;
    return (uint64_t)atomic_fetch_add(&next, 1);
}

/* Recomputes node ni's key from its state (cs_key) and records the change. */
static void key_update(cstate *cs, int ni)
{
    const cs_node *n = &cs->nodes[ni];
    cs_key *k = &cs->keys[ni];
    memset(k, 0, sizeof *k);
    k->gpu = n->ngpus > 0 ? n->gpu : NULL;
    k->cpu = n->cpu;
    k->cpu_cap = n->cpu_cap;
    k->cpu_left = n->cpu_left;
    k->ram_left = n->ram_left;
    k->ngpus = (uint16_t)(n->ngpus < GP_NODE_MAX_GPUS ? n->ngpus : GP_NODE_MAX_GPUS);
    for (int d = 0; d < k->ngpus; d++) {
        const cs_gpu *g = &cs->gpus[n->gpu0 + d];
        k->idle[d] = (uint16_t)cs_gpu_idle_milli(g);
        /* + 0.0: -0.0 and 0.0 are the same free memory but not the same bytes */
        k->mem_free[d] = cs_gpu_mem_free(g) + 0.0;
    }
    for (int t = 0; t < CS_NTAGS; t++)
        k->tags |= (uint16_t)((n->tag_count[t] > 0) << t);
    /* Over the bytes after the hash (unused ones are zero). */
    k->hash = core_hash_bytes(CORE_HASH_INIT, (const char *)k + sizeof k->hash,
                              sizeof *k - sizeof k->hash);
    cs->changed[cs->nchanges++ % CS_CHANGES_RING] = ni;
}

/* Appends the state of one node described by cluster node `spec`. */
static int add_node(cstate *cs, int spec, const char *name, gp_err *err)
{
    const node *sp = &cs->cl->nodes[spec];
    const gpu_profile *gp = NULL;
    const cpu_profile *cp = NULL;
    if (sp->gpu_count > 0 && !(gp = catalog_gpu(cs->cat, sp->gpu_model)))
        return gp_error(err, "node '%s': unknown GPU model '%s'", sp->name, sp->gpu_model);
    if (sp->cpu_model[0] && !(cp = catalog_cpu(cs->cat, sp->cpu_model)))
        return gp_error(err, "node '%s': unknown CPU model '%s'", sp->name, sp->cpu_model);
    grow_array((void **)&cs->nodes, &cs->nodes_cap, cs->nnodes + 1, sizeof *cs->nodes);
    cs_node *n = &cs->nodes[cs->nnodes];
    memset(n, 0, sizeof *n);
    n->spec = spec;
    strlcpy0(n->name, name, sizeof n->name);
    n->cpu_cap = n->cpu_left = sp->cpu_milli;
    n->ram_cap = n->ram_left = sp->ram_mib;
    n->gpu = gp;
    n->cpu = cp;
    size_t had = cs->ngpus;
    add_gpus(cs, (int)cs->nnodes, sp, gp);
    if (cs->ngpus > had) {
        grow_array((void **)&cs->gpu_draw_w, &cs->gpu_draw_cap, cs->ngpus, sizeof *cs->gpu_draw_w);
        memset(cs->gpu_draw_w + had, 0, (cs->ngpus - had) * sizeof *cs->gpu_draw_w);
    }
    grow_array((void **)&cs->node_draw_w, &cs->node_draw_cap, 2 * (cs->nnodes + 1),
               sizeof *cs->node_draw_w);
    cs->node_draw_w[2 * cs->nnodes] = cs->node_draw_w[2 * cs->nnodes + 1] = 0;
    for (int f = 0; f < CS_FRESH_N; f++)
        idxset_fit(&cs->fresh[f], cs->ngpus);
    idxset_fit(&cs->awake_nodes, cs->nnodes + 1);
    fresh_update_node(cs, (int)cs->nnodes);
    grow_array((void **)&cs->keys, &cs->keys_cap, cs->nnodes + 1, sizeof *cs->keys);
    key_update(cs, (int)cs->nnodes);
    cs->nnodes++;
    return 0;
}

/* Sizes the per-node and per-GPU arrays for cluster c at once: grown a
 * node at a time, 100,000 GPUs cost a dozen reallocations, each copying
 * (and faulting in) everything built so far, and left up to twice the
 * memory to touch. */
static void reserve(cstate *cs, const cluster *c)
{
    size_t ngpus = 0;
    for (size_t i = 0; i < c->nnodes; i++)
        ngpus += c->nodes[i].gpu_count > 0 ? (size_t)c->nodes[i].gpu_count : 0;
    size_t nn = c->nnodes ? c->nnodes : 1, ng = ngpus ? ngpus : 1;
    cs->nodes = xmalloc(nn * sizeof *cs->nodes);
    cs->keys = xmalloc(nn * sizeof *cs->keys);
    cs->node_draw_w = xmalloc(2 * nn * sizeof *cs->node_draw_w);
    cs->gpus = xmalloc(ng * sizeof *cs->gpus);
    cs->gpu_draw_w = xmalloc(ng * sizeof *cs->gpu_draw_w);
    cs->nodes_cap = cs->keys_cap = nn;
    cs->node_draw_cap = 2 * nn;
    cs->gpus_cap = cs->gpu_draw_cap = ng;
    for (int f = 0; f < CS_FRESH_N; f++)
        idxset_fit(&cs->fresh[f], ngpus);
    idxset_fit(&cs->awake_nodes, c->nnodes);
}

cstate *cstate_new(const cluster *c, const catalog *cat, gp_err *err)
{
    cstate *cs = xcalloc(1, sizeof *cs);
    cs->cl = c;
    cs->cat = cat;
    cs->id = new_state_id();
    cs->changed = xmalloc(CS_CHANGES_RING * sizeof *cs->changed);
    reserve(cs, c);
    for (size_t i = 0; i < c->nnodes; i++) {
        if (add_node(cs, (int)i, c->nodes[i].name, err)) {
            cstate_free(cs);
            return NULL;
        }
    }
    return cs;
}

void cstate_free(cstate *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->ngpus; i++)
        free(cs->gpus[i].tasks);
    free(cs->gpus);
    free(cs->nodes);
    free(cs->keys);
    free(cs->changed);
    free(cs->gpu_draw_w);
    free(cs->node_draw_w);
    free(cs->active);
    for (int f = 0; f < CS_FRESH_N; f++)
        idxset_free(&cs->fresh[f]);
    idxset_free(&cs->awake_nodes);
    free(cs);
}

cstate *cstate_clone(const cstate *cs)
{
    cstate *c = xmalloc(sizeof *c);
    *c = *cs;
    /* Each copy's capacity is what it holds (an empty one holds nothing,
     * however many bytes xmemdup gave it): grow_array takes it from there. */
    c->nodes = xmemdup(cs->nodes, cs->nnodes * sizeof *c->nodes);
    c->nodes_cap = cs->nnodes;
    c->keys = xmemdup(cs->keys, cs->nnodes * sizeof *c->keys);
    c->keys_cap = cs->nnodes;
    c->id = new_state_id();
    c->changed = xmemdup(cs->changed, CS_CHANGES_RING * sizeof *c->changed);
    c->active = xmemdup(cs->active, cs->nactive * sizeof *c->active);
    c->active_cap = cs->nactive;
    c->gpu_draw_w = xmemdup(cs->gpu_draw_w, cs->ngpus * sizeof *c->gpu_draw_w);
    c->gpu_draw_cap = cs->ngpus;
    c->node_draw_w = xmemdup(cs->node_draw_w, 2 * cs->nnodes * sizeof *c->node_draw_w);
    c->node_draw_cap = 2 * cs->nnodes;
    for (int f = 0; f < CS_FRESH_N; f++)
        idxset_copy(&c->fresh[f], &cs->fresh[f]);
    idxset_copy(&c->awake_nodes, &cs->awake_nodes);
    c->gpus = xmemdup(cs->gpus, cs->ngpus * sizeof *c->gpus);
    c->gpus_cap = cs->ngpus;
    for (size_t i = 0; i < cs->ngpus; i++) {
        cs_gpu *g = &c->gpus[i];
        g->tasks_cap = g->ntasks;
        g->tasks = NULL;
        if (g->ntasks)
            g->tasks = xmemdup(cs->gpus[i].tasks, (size_t)g->ntasks * sizeof *g->tasks);
    }
    return c;
}

int cstate_open_node(cstate *cs, int spec)
{
    char name[GP_NAME_MAX];
    snprintf(name, sizeof name, "%s+%zu", cs->cl->nodes[spec].name, ++cs->opened);
    /* The spec was valid when the state was built, so this cannot fail. */
    add_node(cs, spec, name, NULL);
    return (int)cs->nnodes - 1;
}

int cstate_task_tag(const task *tk)
{
    if (tk->num_gpu == 0)
        return CS_TAG_NONE;
    if (tk->num_gpu == 1 && tk->gpu_milli < 1000)
        return CS_TAG_SHARE;
    switch (tk->num_gpu) {
    case 1: return CS_TAG_1;
    case 2: return CS_TAG_2;
    case 4: return CS_TAG_4;
    case 8: return CS_TAG_8;
    default: return CS_TAG_OTHER;
    }
}

/* A GPU's allocation as the totals count it (time-shared GPUs pass 1000). */
static inline int64_t capped_milli(const cs_gpu *g)
{
    return g->alloc_milli > 1000 ? 1000 : g->alloc_milli;
}

/* Where GPU g is, or goes, in the ascending active list. */
static size_t active_pos(const cstate *cs, int g)
{
    size_t lo = 0, hi = cs->nactive;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cs->active[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void active_insert(cstate *cs, int g)
{
    grow_array((void **)&cs->active, &cs->active_cap, cs->nactive + 1, sizeof *cs->active);
    size_t at = active_pos(cs, g);
    memmove(&cs->active[at + 1], &cs->active[at], (cs->nactive - at) * sizeof *cs->active);
    cs->active[at] = g;
    cs->nactive++;
}

static void active_remove(cstate *cs, int g)
{
    size_t at = active_pos(cs, g);
    assert(at < cs->nactive && cs->active[at] == g);
    memmove(&cs->active[at], &cs->active[at + 1], (cs->nactive - at - 1) * sizeof *cs->active);
    cs->nactive--;
}

static void gpu_add_task(cs_gpu *g, int task_id)
{
    if (g->ntasks == g->tasks_cap) {
        g->tasks_cap = g->tasks_cap ? g->tasks_cap * 2 : 4;
        g->tasks = xrealloc(g->tasks, (size_t)g->tasks_cap * sizeof *g->tasks);
    }
    g->tasks[g->ntasks++] = task_id;
}

static void gpu_remove_task(cs_gpu *g, int task_id)
{
    for (int i = 0; i < g->ntasks; i++) {
        if (g->tasks[i] == task_id) {
            /* Keep arrival order: policies and explanations list tasks in it. */
            memmove(&g->tasks[i], &g->tasks[i + 1], (size_t)(g->ntasks - i - 1) * sizeof *g->tasks);
            g->ntasks--;
            return;
        }
    }
    assert(!"releasing a task from a GPU it does not run on");
}

/* The GPUs of an alloc or release are distinct GPUs of the node. */
static inline int gpus_of_node(const cstate *cs, int node_idx, const int *gpus, int ngpus)
{
    if (node_idx < 0 || (size_t)node_idx >= cs->nnodes || ngpus < 0 || ngpus > GP_NODE_MAX_GPUS)
        return 0;
    for (int i = 0; i < ngpus; i++) {
        if (gpus[i] < 0 || (size_t)gpus[i] >= cs->ngpus || cs->gpus[gpus[i]].node != node_idx)
            return 0;
        for (int j = 0; j < i; j++)
            if (gpus[j] == gpus[i])
                return 0;
    }
    return 1;
}

void cstate_alloc(cstate *cs, const task *tk, int task_id, int node_idx, const int *gpus, int ngpus)
{
    assert(gpus_of_node(cs, node_idx, gpus, ngpus));
    cs_node *n = &cs->nodes[node_idx];
    n->cpu_left -= tk->cpu_milli;
    n->ram_left -= tk->ram_mib;
    n->ntasks++;
    n->tag_count[cstate_task_tag(tk)]++;
    n->frag_valid = 0;
    if (n->asleep) {
        n->asleep = 0;
        fresh_update_node(cs, node_idx);
    }
    for (int i = 0; i < ngpus; i++) {
        cs_gpu *g = &cs->gpus[gpus[i]];
        cs->alloc_milli -= capped_milli(g);
        g->alloc_milli += tk->gpu_milli;
        cs->alloc_milli += capped_milli(g);
        g->mem_used_gib += tk->gpu_mem_gib;
        if (g->ntasks == 0)
            active_insert(cs, gpus[i]);
        gpu_add_task(g, task_id);
        g->power = GPU_ACTIVE;
        g->ever_used = 1;
        fresh_update(cs, gpus[i]);
    }
    key_update(cs, node_idx);
}

void cstate_release(cstate *cs, const task *tk, int task_id, int node_idx, const int *gpus,
                    int ngpus)
{
    assert(gpus_of_node(cs, node_idx, gpus, ngpus));
    cs_node *n = &cs->nodes[node_idx];
    assert(n->ntasks > 0 && n->tag_count[cstate_task_tag(tk)] > 0);
    n->cpu_left += tk->cpu_milli;
    n->ram_left += tk->ram_mib;
    assert(n->cpu_left <= n->cpu_cap && n->ram_left <= n->ram_cap);
    n->ntasks--;
    n->tag_count[cstate_task_tag(tk)]--;
    n->frag_valid = 0;
    for (int i = 0; i < ngpus; i++) {
        cs_gpu *g = &cs->gpus[gpus[i]];
        cs->alloc_milli -= capped_milli(g);
        g->alloc_milli -= tk->gpu_milli;
        cs->alloc_milli += capped_milli(g);
        g->mem_used_gib -= tk->gpu_mem_gib;
        assert(g->alloc_milli >= 0 && g->mem_used_gib > -GP_MEM_EPS_GIB * (1 + g->mem_gib));
        if (g->mem_used_gib < GP_MEM_EPS_GIB)
            g->mem_used_gib = 0;
        gpu_remove_task(g, task_id);
        if (g->ntasks == 0) {
            g->power = GPU_IDLE;
            active_remove(cs, gpus[i]);
            fresh_update(cs, gpus[i]);
        }
    }
    key_update(cs, node_idx);
}

void cstate_touch(cstate *cs, int node_idx)
{
    assert(node_idx >= 0 && (size_t)node_idx < cs->nnodes);
    cs->nodes[node_idx].frag_valid = 0;
    key_update(cs, node_idx);
    cs->alloc_milli = 0;
    cs->nactive = 0;
    for (size_t i = 0; i < cs->ngpus; i++) {
        cs->alloc_milli += capped_milli(&cs->gpus[i]);
        if (cs->gpus[i].ntasks > 0)
            active_insert(cs, (int)i);
    }
    for (size_t n = 0; n < cs->nnodes; n++)
        fresh_update_node(cs, (int)n);
}

void cstate_set_gpu_power(cstate *cs, int g, gpu_power p)
{
    cs->gpus[g].power = p;
    fresh_update(cs, g);
}

void cstate_set_node_asleep(cstate *cs, int node_idx, int asleep)
{
    cs->nodes[node_idx].asleep = asleep;
    fresh_update_node(cs, node_idx);
}

size_t cstate_active_gpus(const cstate *cs)
{
    return cs->nactive;
}

size_t cstate_used_gpus_ever(const cstate *cs)
{
    size_t n = 0;
    for (size_t i = 0; i < cs->ngpus; i++)
        n += cs->gpus[i].ever_used;
    return n;
}

int64_t cstate_alloc_milli(const cstate *cs)
{
    return cs->alloc_milli;
}
