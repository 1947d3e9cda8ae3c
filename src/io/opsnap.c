/*
 * opsnap.c — building an operator's snapshot (opsnap.h): servers by host,
 * GPU models to profiles, placements on free devices, the monitors'
 * readings, and the writing of it all.
 *
 * A GPU model no profile matches becomes a profile of what was reported:
 * its memory, its power limit as max_w (300 W when not reported), its top
 * SM clock as f_max (1410 MHz when not), and what a report cannot say
 * assumed from the built-in profiles of the same generation: idle at
 * 12.5 % of max_w (A100 50/400 W, H100 70/700 W, T4 10/70 W), f_min
 * 210 MHz, CATS's beta 0.91, a V100's speed (1).  `gpuplan show gpu NAME`
 * shows them; edit them in Data when the card is known better.
 */
#include "opsnap.h"
#include "core/hash.h"
#include "table.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEW_PROFILE_IDLE_SHARE 0.125
#define NEW_PROFILE_MAX_W 300.0
#define NEW_PROFILE_F_MAX 1410.0
#define NEW_PROFILE_F_MIN 210.0
#define NEW_PROFILE_MEM_GIB 16.0
#define MEM_MATCH_TOLERANCE 0.10

void opsnap_default_name(const import_opts *opts, const char *first_path, const char *fallback,
                         char *buf, size_t len)
{
    if (opts->name) {
        import_copy_utf8(buf, len, opts->name);
        return;
    }
    const char *slash = strrchr(first_path, '/');
    if (!slash || slash == first_path) {
        import_copy_utf8(buf, len, fallback);
        return;
    }
    char dir[4096];
    size_t n = (size_t)(slash - first_path);
    if (n >= sizeof dir)
        n = sizeof dir - 1;
    memcpy(dir, first_path, n);
    dir[n] = '\0';
    import_base_name(dir, buf, len);
    if (!buf[0] || strcmp(buf, ".") == 0 || strcmp(buf, "..") == 0)
        import_copy_utf8(buf, len, fallback);
}

int opsnap_host_of_file(const char *path, char *buf, size_t len, gp_err *err)
{
    static const char *const endings[] = {".apps.csv", ".csv", ".prom", ".metrics", ".txt"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
        size_t e = strlen(endings[i]);
        if (n > e && strcmp(base + n - e, endings[i]) == 0) {
            n -= e;
            break;
        }
    }
    char *host = xmalloc(n + 1);
    memcpy(host, base, n);
    host[n] = '\0';
    int rc = import_check_name_len(path, "the host named by the file's name", host, err);
    if (!rc)
        strlcpy0(buf, host, len);
    free(host);
    return rc;
}

int opsnap_check_bound(opsnap_quantity q, const char *what, double v, gp_err *why)
{
    static const struct { double max; const char *unit; } b[] = {
        [OQ_MEM_MIB] = {OPSNAP_MAX_MEM_MIB, "MiB (1 TiB per GPU)"},
        [OQ_POWER_W] = {OPSNAP_MAX_POWER_W, "W"},
        [OQ_CLOCK_MHZ] = {OPSNAP_MAX_CLOCK_MHZ, "MHz"},
        [OQ_UTIL_PCT] = {100, "%"},
    };
    if (isnan(v) || (v >= 0 && v <= b[q].max))
        return 0;
    return gp_error(why, "expected %s 0..%.0f %s, got %g", what, b[q].max, b[q].unit, v);
}

static int node_eq(const void *key, size_t v, const void *ctx);
static int gpu_eq(const void *key, size_t v, const void *ctx);

int opsnap_init(opsnap *o, store *st, const char *name, gp_err *err)
{
    memset(o, 0, sizeof *o);
    o->node_ix = hashtab_new(node_eq, o);
    o->gpu_ix = hashtab_new(gpu_eq, o);
    import_copy_utf8(o->name, sizeof o->name, name);
    if (store_load_catalog(st, &o->cat, err))
        return -1;
    o->cat_stored = o->cat->ngpus;
    o->cl = cluster_new(o->name);
    o->sn = snapshot_new(o->name);
    strlcpy0(o->sn->cluster_name, o->name, sizeof o->sn->cluster_name);
    char qname[GP_NAME_MAX + 16];
    snprintf(qname, sizeof qname, "%s-pending", o->name);
    o->queue = trace_new(qname);
    return 0;
}

void opsnap_release(opsnap *o)
{
    catalog_free(o->cat);
    cluster_free(o->cl);
    snapshot_free(o->sn);
    trace_free(o->queue);
    free(o->gpus);
    free(o->apps);
    free(o->devs);
    hashtab_free(o->node_ix);
    hashtab_free(o->gpu_ix);
    memset(o, 0, sizeof *o);
}

/* --- nodes by name, devices by index ------------------------------------------ */

static int node_eq(const void *key, size_t v, const void *ctx)
{
    const opsnap *o = ctx;
    return strcmp(o->cl->nodes[v].name, key) == 0;
}

/* A monitor reading's key: the device `index` of server `host`. */
typedef struct gpu_key {
    const char *host;
    int index;
} gpu_key;

static uint64_t gpu_hash(const char *host, int index)
{
    return core_hash_word(core_str_hash(host), (uint64_t)(unsigned)index);
}

static int gpu_eq(const void *key, size_t v, const void *ctx)
{
    const opsnap *o = ctx;
    const gpu_key *k = key;
    return o->gpus[v].index == k->index && strcmp(o->gpus[v].host, k->host) == 0;
}

/* Hashes the nodes added since the last call (nodes are only appended). */
static void hash_nodes(opsnap *o)
{
    for (; o->nhashed < o->cl->nnodes; o->nhashed++) {
        const char *name = o->cl->nodes[o->nhashed].name;
        hashtab_put(o->node_ix, core_str_hash(name), name, o->nhashed);
    }
}

int opsnap_node(opsnap *o, const char *host)
{
    hash_nodes(o);
    size_t i = hashtab_find(o->node_ix, core_str_hash(host), host);
    return i == HASHTAB_NONE ? -1 : (int)i;
}

int opsnap_gpu_find(const opsnap *o, const char *host, int index)
{
    gpu_key k = {host, index};
    size_t i = hashtab_find(o->gpu_ix, gpu_hash(host, index), &k);
    return i == HASHTAB_NONE ? -1 : (int)i;
}

size_t opsnap_gpu_add(opsnap *o, const opsnap_gpu *g)
{
    grow_array((void **)&o->gpus, &o->gpus_cap, o->ngpus + 1, sizeof *o->gpus);
    o->gpus[o->ngpus] = *g;
    gpu_key k = {g->host, g->index};
    hashtab_put(o->gpu_ix, gpu_hash(g->host, g->index), &k, o->ngpus);
    return o->ngpus++;
}

/* The load of a device (grown with the cluster). */
static opsnap_dev *dev_at(opsnap *o, int node_idx, int dev)
{
    size_t need = o->cl->nnodes * GP_NODE_MAX_GPUS;
    if (o->ndevs < need) {
        o->devs = xrealloc(o->devs, need * sizeof *o->devs);
        for (size_t i = o->ndevs; i < need; i++)
            o->devs[i] = (opsnap_dev){.reading = -1};
        o->ndevs = need;
    }
    return &o->devs[(size_t)node_idx * GP_NODE_MAX_GPUS + (size_t)dev];
}

/* --- GPU models to profiles ------------------------------------------------ */

/* 1 when the product, cut into words at anything not a letter or digit,
 * has the word w (case-insensitive). */
static int has_word(const char *product, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = product; *p;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && isalnum((unsigned char)*p))
            p++;
        if ((size_t)(p - start) == n && n > 0 && strncasecmp(start, w, n) == 0)
            return 1;
    }
    return 0;
}

/* The model word of a profile's name: "A100-40GB" -> "A100". */
static void model_word(const char *name, char *buf, size_t len)
{
    size_t n = strcspn(name, "- _");
    if (n >= len)
        n = len - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
}

static int mem_matches(const gpu_profile *g, double mem_mib)
{
    if (isnan(mem_mib))
        return 1;
    double have = g->mem_gib * 1024;
    return fabs(have - mem_mib) <= MEM_MATCH_TOLERANCE * have;
}

static const gpu_profile *match_profile(const opsnap *o, const char *product, double mem_mib)
{
    const gpu_profile *exact = catalog_gpu(o->cat, product);
    if (exact)
        return exact;
    for (size_t i = 0; i < o->cat->ngpus; i++) {
        const gpu_profile *g = &o->cat->gpus[i];
        char word[GP_NAME_MAX];
        model_word(g->name, word, sizeof word);
        if (has_word(product, word) && mem_matches(g, mem_mib))
            return g;
    }
    return NULL;
}

/* "NVIDIA A100-SXM4-80GB" -> "A100-SXM4-80GB": the vendor and brand words
 * dropped, spaces as '-'. */
static void product_name(const char *product, char *buf, size_t len)
{
    static const char *const drop[] = {"NVIDIA", "Tesla", "GeForce"};
    const char *p = product;
    for (int again = 1; again;) {
        again = 0;
        p += strspn(p, " -_");
        for (size_t i = 0; i < sizeof drop / sizeof *drop; i++) {
            size_t n = strlen(drop[i]);
            if (strncasecmp(p, drop[i], n) == 0 && (p[n] == ' ' || p[n] == '-')) {
                p += n;
                again = 1;
            }
        }
    }
    import_copy_utf8(buf, len, *p ? p : product);
    for (char *c = buf; *c; c++)
        if (*c == ' ')
            *c = '-';
}

static const gpu_profile *new_profile(opsnap *o, const char *product, double mem_mib,
                                      double power_limit_w, double clock_max_mhz)
{
    gpu_profile g;
    memset(&g, 0, sizeof g);
    product_name(product, g.name, sizeof g.name);
    g.mem_gib = isnan(mem_mib) || mem_mib <= 0 ? NEW_PROFILE_MEM_GIB : mem_mib / 1024;
    if (catalog_gpu(o->cat, g.name)) {          /* same name, other memory */
        size_t n = strlen(g.name);
        snprintf(g.name + n, sizeof g.name - n, "-%.0fGB", g.mem_gib);
    }
    const gpu_profile *again = catalog_gpu(o->cat, g.name);
    if (again)
        return again;
    g.max_w = isnan(power_limit_w) || power_limit_w <= 0 ? NEW_PROFILE_MAX_W : power_limit_w;
    g.idle_w = NEW_PROFILE_IDLE_SHARE * g.max_w;
    g.f_max_mhz = isnan(clock_max_mhz) || clock_max_mhz <= NEW_PROFILE_F_MIN
                      ? NEW_PROFILE_F_MAX : clock_max_mhz;
    g.f_min_mhz = NEW_PROFILE_F_MIN;
    g.alpha_w_per_mhz = (g.max_w - g.idle_w) / g.f_max_mhz;
    g.beta = 0.91;
    g.speed = 1;
    g.price_usd = NAN;          /* a monitor says nothing of prices */
    return catalog_add_gpu(o->cat, &g);
}

void opsnap_profile(opsnap *o, const char *product, double mem_mib, double power_limit_w,
                    double clock_max_mhz, char *buf, size_t len)
{
    const gpu_profile *g = match_profile(o, product, mem_mib);
    if (!g)
        g = new_profile(o, product, mem_mib, power_limit_w, clock_max_mhz);
    strlcpy0(buf, g->name, len);
}

/* --- nodes from readings ------------------------------------------------------ */

void opsnap_nodes_from_readings(opsnap *o)
{
    for (size_t i = 0; i < o->ngpus; i++) {
        const opsnap_gpu *r = &o->gpus[i];
        int k = opsnap_node(o, r->host);
        if (k < 0) {
            node n;
            memset(&n, 0, sizeof n);
            strlcpy0(n.name, r->host, sizeof n.name);
            opsnap_profile(o, r->product[0] ? r->product : "unknown", r->mem_total_mib,
                           r->power_limit_w, r->clock_max_mhz, n.gpu_model,
                           sizeof n.gpu_model);
            cluster_add_node(o->cl, &n);
            k = (int)o->cl->nnodes - 1;
        }
        node *n = &o->cl->nodes[k];
        if (r->index < 0 || r->index >= GP_NODE_MAX_GPUS)
            continue;
        if (r->index + 1 > n->gpu_count)
            n->gpu_count = r->index + 1;
        /* a host of mixed cards keeps the first's model and each device's
         * own memory (as nodes.csv's gpu_mem_gib does) */
        const gpu_profile *g = catalog_gpu(o->cat, n->gpu_model);
        if (g && !mem_matches(g, r->mem_total_mib))
            n->gpu_mem_gib[r->index] = r->mem_total_mib / 1024;
    }
    /* a node's per-device memory is all its devices' or none (nodes.csv
     * writes it so): the others get the profile's */
    for (size_t k = 0; k < o->cl->nnodes; k++) {
        node *n = &o->cl->nodes[k];
        const gpu_profile *g = catalog_gpu(o->cat, n->gpu_model);
        int any = 0;
        for (int d = 0; d < n->gpu_count; d++)
            any |= n->gpu_mem_gib[d] > 0;
        for (int d = 0; any && g && d < n->gpu_count; d++)
            if (!(n->gpu_mem_gib[d] > 0))
                n->gpu_mem_gib[d] = g->mem_gib;
    }
}

/* --- placements ------------------------------------------------------------- */

static double device_mem_gib(const opsnap *o, int node_idx, int dev)
{
    const node *n = &o->cl->nodes[node_idx];
    if (n->gpu_mem_gib[dev] > 0)
        return n->gpu_mem_gib[dev];
    const gpu_profile *g = catalog_gpu(o->cat, n->gpu_model);
    return g ? g->mem_gib : 0;
}

static int device_fits(opsnap *o, const task *tk, int node_idx, int dev)
{
    const opsnap_dev *d = dev_at(o, node_idx, dev);
    return d->milli + task_gpu_share(tk) <= 1000 &&
           d->mem_gib + tk->gpu_mem_gib <= device_mem_gib(o, node_idx, dev) + GP_MEM_EPS_GIB;
}

/* Records a task's row and its load on the device. */
static void add_row(opsnap *o, const placement_row *r, double mem_gib)
{
    snapshot_add_row(o->sn, r);
    if (r->gpu < 0)
        return;
    opsnap_dev *d = dev_at(o, r->node, r->gpu);
    d->tasks++;
    d->milli += r->gpu_milli;
    d->mem_gib += mem_gib;
}

/* The first want devices of the node with room for tk, into devs. */
static int free_devices(opsnap *o, const task *tk, int node_idx, int *devs, int want)
{
    int n = 0;
    const node *nd = &o->cl->nodes[node_idx];
    for (int d = 0; d < nd->gpu_count && n < want; d++)
        if (device_fits(o, tk, node_idx, d))
            devs[n++] = d;
    return n;
}

int opsnap_place(opsnap *o, const task *tk, int node_idx, const int *devs, int ndev,
                 gp_err *err)
{
    const node *nd = &o->cl->nodes[node_idx];
    int want = task_gpus(tk), chosen[GP_NODE_MAX_GPUS];
    char *task_shown = NULL, *node_shown = NULL;
    int rc = 0;
    if (ndev > 0) {
        for (int k = 0; k < ndev && !rc; k++)
            if (devs[k] < 0 || devs[k] >= nd->gpu_count)
                rc = gp_error(err, "%s: GPU %d of node %s does not exist (it has %d)",
                              task_shown = text_printable(tk->name), devs[k],
                              node_shown = text_printable(nd->name), nd->gpu_count);
        memcpy(chosen, devs, (size_t)ndev * sizeof *devs);
    } else if (want > 0 && free_devices(o, tk, node_idx, chosen, want) < want) {
        rc = gp_error(err, "%s: node %s has no %d GPU(s) with room for %d milli-GPU and "
                      "%.2f GiB each", task_shown = text_printable(tk->name),
                      node_shown = text_printable(nd->name), want, task_gpu_share(tk),
                      tk->gpu_mem_gib);
    }
    free(task_shown);
    free(node_shown);
    if (rc)
        return rc;
    int n = ndev > 0 ? ndev : want;
    trace_add_task(o->sn->tasks, tk);
    placement_row r = {(int)o->sn->tasks->ntasks - 1, node_idx, -1, 0};
    if (n == 0)
        add_row(o, &r, 0);
    for (int k = 0; k < n; k++) {
        r.gpu = chosen[k];
        r.gpu_milli = task_gpu_share(tk);
        add_row(o, &r, tk->gpu_mem_gib);
    }
    return 0;
}

/* --- readings ----------------------------------------------------------------- */

/* The reading a uuid names, or NULL. */
static const opsnap_gpu *gpu_by_uuid(const opsnap *o, const char *uuid)
{
    for (size_t i = 0; i < o->ngpus; i++)
        if (uuid[0] && strcmp(o->gpus[i].uuid, uuid) == 0)
            return &o->gpus[i];
    return NULL;
}

/* Where an app runs: node and device, 0; -1 when its GPU is unknown. */
static int app_device(opsnap *o, const opsnap_app *a, int *node_idx, int *dev)
{
    const char *host = a->host;
    *dev = a->index;
    if (!host[0]) {
        const opsnap_gpu *g = gpu_by_uuid(o, a->uuid);
        if (!g)
            return -1;
        host = g->host;
        *dev = g->index;
    }
    *node_idx = opsnap_node(o, host);
    return *node_idx >= 0 && *dev >= 0 && *dev < o->cl->nodes[*node_idx].gpu_count ? 0 : -1;
}

/* Apps sorted by name, then by where they were read: the apps of one
 * process or pod side by side. */
static const opsnap_app *sort_apps;

static int cmp_app(const void *a, const void *b)
{
    const opsnap_app *x = &sort_apps[*(const size_t *)a], *y = &sort_apps[*(const size_t *)b];
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int app_twice(const opsnap_app *first, const opsnap_app *second, const char *why,
                     gp_err *err)
{
    char *shown = text_printable(second->name);
    gp_error(err, "%s:%ld:%ld: '%s' %s (first at %s:%ld:%ld; expected one task per process "
             "or pod)", second->path ? second->path : "?", second->line, second->col, shown,
             why, first->path ? first->path : "?", first->line, first->col);
    free(shown);
    return -1;
}

/* One task for the apps order[0..n) (one name) on their devices. */
static int place_app_group(opsnap *o, const size_t *order, size_t n, const int *node_of,
                           const int *dev_of, gp_err *err)
{
    const opsnap_app *a0 = &o->apps[order[0]];
    int devs[GP_NODE_MAX_GPUS], ndev = 0, node_idx = node_of[order[0]], sharing = 1;
    double mem_mib = NAN;
    for (size_t k = 0; k < n; k++) {
        const opsnap_app *a = &o->apps[order[k]];
        if (node_of[order[k]] != node_idx)
            return app_twice(a0, a, "is on two nodes", err);
        int dev = dev_of[order[k]], seen = 0;
        for (int j = 0; j < ndev; j++)
            seen |= devs[j] == dev;
        if (seen) {
            /* DCGM repeats a pod on every metric line of its GPU: the same
             * file says it again; another file says it twice */
            const opsnap_app *first = NULL;
            for (size_t j = 0; j < k && !first; j++)
                if (dev_of[order[j]] == dev)
                    first = &o->apps[order[j]];
            if (first->path != a->path || (a->line == first->line))
                return app_twice(first, a, "is listed twice on one GPU", err);
            continue;
        }
        devs[ndev++] = dev;
        int here = dev_at(o, node_idx, dev)->apps;
        sharing = here > sharing ? here : sharing;
        if (!isnan(a->mem_used_mib) && !(a->mem_used_mib <= mem_mib))
            mem_mib = a->mem_used_mib;
    }
    task tk;
    task_init(&tk);
    strlcpy0(tk.name, a0->name, sizeof tk.name);
    tk.duration_s = OPSNAP_DEFAULT_REMAINING_S;
    tk.num_gpu = ndev;
    /* a process alone on its GPUs holds them whole; processes on one GPU
     * share it equally (a share is of one GPU: a task of several GPUs
     * holds them whole) */
    tk.gpu_milli = ndev == 1 && sharing > 1 ? 1000 / sharing : 1000;
    tk.gpu_mem_gib = isnan(mem_mib) ? 0 : mem_mib / 1024;
    trace_add_task(o->sn->tasks, &tk);
    for (int j = 0; j < ndev; j++) {
        placement_row r = {(int)o->sn->tasks->ntasks - 1, node_idx, devs[j], tk.gpu_milli};
        add_row(o, &r, tk.gpu_mem_gib);
    }
    return 0;
}

static int place_apps(opsnap *o, size_t *unmatched, gp_err *err)
{
    size_t cap = o->napps ? o->napps : 1;
    int *node_of = xmalloc(cap * sizeof *node_of), *dev_of = xmalloc(cap * sizeof *dev_of);
    size_t *order = xmalloc(cap * sizeof *order), n = 0;
    for (size_t i = 0; i < o->napps; i++) {
        if (app_device(o, &o->apps[i], &node_of[i], &dev_of[i]))
            (*unmatched)++;
        else if (dev_at(o, node_of[i], dev_of[i])->tasks == 0)   /* else a pod says what runs there */
            order[n++] = i;
    }
    sort_apps = o->apps;
    if (n > 1)
        qsort(order, n, sizeof *order, cmp_app);
    /* the apps of each device, once per name, to share it */
    for (size_t i = 0; i < n; i++) {
        int same = 0;
        for (size_t j = i; j-- > 0 && strcmp(o->apps[order[j]].name, o->apps[order[i]].name) == 0;)
            same |= node_of[order[j]] == node_of[order[i]] && dev_of[order[j]] == dev_of[order[i]];
        if (!same)
            dev_at(o, node_of[order[i]], dev_of[order[i]])->apps++;
    }
    int rc = 0;
    for (size_t i = 0, j; i < n && !rc; i = j) {
        for (j = i + 1; j < n && strcmp(o->apps[order[j]].name, o->apps[order[i]].name) == 0;)
            j++;
        rc = place_app_group(o, order + i, j - i, node_of, dev_of, err);
    }
    free(node_of);
    free(dev_of);
    free(order);
    return rc;
}

/* Tasks without a series get their GPU's utilization, split evenly among
 * the tasks there, as one sample; tasks that did not ask for an amount of
 * GPU memory (whole GPUs) get their share of what the GPU has in use. */
static void fill_from_readings(opsnap *o)
{
    for (size_t i = 0; i < o->sn->nrows; i++) {
        const placement_row *r = &o->sn->rows[i];
        task *tk = &o->sn->tasks->tasks[r->task];
        const opsnap_dev *d = r->gpu >= 0 ? dev_at(o, r->node, r->gpu) : NULL;
        if (!d || d->reading < 0)
            continue;
        const gpu_reading *g = &o->sn->readings[d->reading];
        int n = d->tasks;
        if (!isnan(g->mem_used_mib) && tk->gpu_mem_gib == 0)
            tk->gpu_mem_gib = g->mem_used_mib / 1024 / n;
        if (isnan(g->util_pct) || tk->util.len)
            continue;
        float pct = (float)(g->util_pct / n);
        task_set_util(tk, &pct, 1, tk->duration_s > 0 ? tk->duration_s : 1);
    }
}

int opsnap_apply_readings(opsnap *o, size_t *unmatched, gp_err *err)
{
    *unmatched = 0;
    for (size_t i = 0; i < o->ngpus; i++) {
        const opsnap_gpu *g = &o->gpus[i];
        int k = opsnap_node(o, g->host);
        if (k < 0 || g->index < 0 || g->index >= o->cl->nodes[k].gpu_count ||
            dev_at(o, k, g->index)->reading >= 0) {
            (*unmatched)++;
            continue;
        }
        gpu_reading r = {k, g->index, g->util_pct, g->power_w, g->clock_mhz, g->mem_used_mib};
        dev_at(o, k, g->index)->reading = (int)o->sn->nreadings;
        snapshot_add_reading(o->sn, &r);
    }
    if (place_apps(o, unmatched, err))
        return -1;
    fill_from_readings(o);
    return 0;
}

/* --- monitors' files to kubectl nodes ---------------------------------------------- */

/* "a, b, c and 7 more": the first nodes' names, escaped, into buf. */
static void list_nodes(const opsnap *o, char *buf, size_t len)
{
    size_t off = 0, shown_n = o->cl->nnodes < 8 ? o->cl->nnodes : 8;
    buf[0] = '\0';
    for (size_t i = 0; i < shown_n && off < len; i++) {
        char *shown = text_printable(o->cl->nodes[i].name);
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", shown);
        free(shown);
    }
    if (o->cl->nnodes > shown_n && off < len)
        snprintf(buf + off, len - off, " and %zu more", o->cl->nnodes - shown_n);
}

/* The node --node-of names for file path: its index, -2 when none is
 * named for it, -1 with a message when the node named is not there. */
static int node_named_for(opsnap *o, const import_opts *opts, const char *path, gp_err *err)
{
    size_t n = strlen(path);
    for (size_t i = 0; opts && i < opts->nnode_of; i++) {
        const char *a = opts->node_of[i];
        if (strncmp(a, path, n) != 0 || a[n] != '=')
            continue;
        int k = opsnap_node(o, a + n + 1);
        if (k >= 0)
            return k;
        char *shown = text_printable(a + n + 1), *file = text_printable(path);
        gp_error(err, "--node-of %s=%s: no node of that name in the lists", file, shown);
        free(shown);
        free(file);
        return -1;
    }
    return -2;
}

/* The node a file's name names: exact, else the longest contained. */
static int host_node(opsnap *o, const import_opts *opts, const opsnap_gpu *g, gp_err *err)
{
    int k = node_named_for(o, opts, g->path ? g->path : "", err);
    if (k != -2)
        return k;
    k = opsnap_node(o, g->host);
    if (k >= 0)
        return k;
    int best = -1, tie = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < o->cl->nnodes; i++) {
        const char *name = o->cl->nodes[i].name;
        size_t n = strlen(name);
        if (n == 0 || n < best_len || !strstr(g->host, name))
            continue;
        if (n == best_len)
            tie = (int)i;
        else
            tie = -1;
        best = (int)i;
        best_len = n;
    }
    if (best >= 0 && tie < 0)
        return best;
    char nodes[1024], *file = text_printable(g->path ? g->path : "?");
    char *host = text_printable(g->host);
    list_nodes(o, nodes, sizeof nodes);
    if (best >= 0)
        gp_error(err, "%s: the file's name '%s' contains the names of nodes %s and %s "
                 "alike; name the file after one, or give a host column", file, host,
                 o->cl->nodes[tie].name, o->cl->nodes[best].name);
    else
        gp_error(err, "%s: no node is named '%s' (from the file's name) or has its name in "
                 "it; the nodes are %s (name the file after one, give a host column or "
                 "--node-of FILE=NODE)",
                 file, host, nodes);
    free(file);
    free(host);
    return -1;
}

int opsnap_match_hosts(opsnap *o, const import_opts *opts, gp_err *err)
{
    const char *done_path = NULL;
    int node_idx = -1;
    for (size_t i = 0; i < o->ngpus; i++) {
        opsnap_gpu *g = &o->gpus[i];
        if (!g->host_from_file)
            continue;
        if (!done_path || g->path != done_path) {   /* once per file */
            if ((node_idx = host_node(o, opts, g, err)) < 0)
                return -1;
            done_path = g->path;
        }
        strlcpy0(g->host, o->cl->nodes[node_idx].name, sizeof g->host);
    }
    /* the readings' index is by host: rebuilt for the new names */
    hashtab_clear(o->gpu_ix);
    for (size_t i = 0; i < o->ngpus; i++) {
        gpu_key k = {o->gpus[i].host, o->gpus[i].index};
        hashtab_put(o->gpu_ix, gpu_hash(k.host, k.index), &k, i);
    }
    return 0;
}

/* --- measured series ------------------------------------------------------------- */

static size_t take_series(gp_trace *tr, const gp_trace *series)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        task *tk = &tr->tasks[i];
        for (size_t k = 0; k < series->ntasks && !tk->util.len; k++) {
            const task *s = &series->tasks[k];
            if (strcmp(s->name, tk->name) == 0 && s->util.len) {
                task_set_util(tk, s->util.pct, s->util.len, s->util.period_s);
                n++;
            }
        }
    }
    return n;
}

size_t opsnap_take_series(opsnap *o, const gp_trace *series)
{
    return take_series(o->sn->tasks, series) + take_series(o->queue, series);
}

/* --- reading a monitor's file by its kind --------------------------------------- */

int opsnap_read_monitor(opsnap *o, const char *path, gp_err *err)
{
    if (smi_is_gpu_csv(path))
        return smi_read_gpus(o, path, err);
    if (smi_is_apps_csv(path))
        return smi_read_apps(o, path, err);
    if (dcgm_is_text(path))
        return dcgm_read(o, path, err);
    return gp_error(err, "%s:1:1: expected nvidia-smi --query-gpu or --query-compute-apps CSV, "
                    "or DCGM exporter metrics", path);
}

/* --- writing ------------------------------------------------------------------- */

int opsnap_store(opsnap *o, store *st, int replace, import_result *res, gp_err *err)
{
    for (size_t i = o->cat_stored; i < o->cat->ngpus; i++) {
        if (store_put_gpu_profile(st, &o->cat->gpus[i], err))
            return -1;
        res->gpu_profiles++;
        import_note(res, "GPU profile", o->cat->gpus[i].name);
    }
    if (import_put_cluster(st, o->cl, replace, res, err) ||
        store_put_snapshot(st, o->sn, replace, err))
        return -1;
    res->snapshots++;
    res->tasks += o->sn->tasks->ntasks;
    import_note(res, "snapshot", o->sn->name);
    if (o->queue->ntasks && import_put_trace(st, o->queue, replace, res, err))
        return -1;
    return 0;
}
