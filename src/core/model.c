/*
 * model.c — constructors, destructors and small queries for the entities of
 * model.h, and the built-in profile catalog taken from the papers.
 */
#include "model.h"
#include "suggest.h"

#include <math.h>
#include "util.h"

#include <stdlib.h>
#include <string.h>

catalog *catalog_new(void)
{
    return xcalloc(1, sizeof(catalog));
}

void catalog_free(catalog *c)
{
    if (!c)
        return;
    free(c->gpus);
    free(c->cpus);
    free(c);
}

gpu_profile *catalog_add_gpu(catalog *c, const gpu_profile *g)
{
    grow_array((void **)&c->gpus, &c->gpus_cap, c->ngpus + 1, sizeof *g);
    c->gpus[c->ngpus] = *g;
    return &c->gpus[c->ngpus++];
}

cpu_profile *catalog_add_cpu(catalog *c, const cpu_profile *p)
{
    grow_array((void **)&c->cpus, &c->cpus_cap, c->ncpus + 1, sizeof *p);
    c->cpus[c->ncpus] = *p;
    return &c->cpus[c->ncpus++];
}

const gpu_profile *catalog_gpu(const catalog *c, const char *name)
{
    for (size_t i = 0; i < c->ngpus; i++)
        if (strcmp(c->gpus[i].name, name) == 0)
            return &c->gpus[i];
    return NULL;
}

double gpu_speed(const gpu_profile *g)
{
    return g->speed > 0 ? g->speed : 1;
}

int gpu_price_known(const gpu_profile *g)
{
    return g && !isnan(g->price_usd);
}

double gpu_price_or0(const gpu_profile *g)
{
    return gpu_price_known(g) ? g->price_usd : 0;
}

const char *catalog_gpu_hint(const catalog *c, const char *name, char *buf, size_t len)
{
    suggest sg;
    suggest_init(&sg, name);
    for (size_t i = 0; i < c->ngpus; i++)
        suggest_offer(&sg, c->gpus[i].name);
    return suggest_hint(&sg, buf, len);
}

const char *catalog_cpu_hint(const catalog *c, const char *name, char *buf, size_t len)
{
    suggest sg;
    suggest_init(&sg, name);
    for (size_t i = 0; i < c->ncpus; i++)
        suggest_offer(&sg, c->cpus[i].name);
    return suggest_hint(&sg, buf, len);
}

const cpu_profile *catalog_cpu(const catalog *c, const char *name)
{
    for (size_t i = 0; i < c->ncpus; i++)
        if (strcmp(c->cpus[i].name, name) == 0)
            return &c->cpus[i];
    return NULL;
}

/*
 * Built-in GPU models.  Idle/max watts of the Alibaba 2023 models are PWR
 * Table II (G2 taken as an A10, G3 as an A100, as that paper assumes).  The
 * "V100" row is CATS §2.1: P = 23.3 W + 0.09 W/MHz * f over 135..1350 MHz,
 * beta 0.91 (CATS eq. 3 and 5); its max_w is that line at f_max.  The H100's
 * 700 W is its TDP.  Where a paper gives no slope, alpha is derived so that
 * a GPU at f_max draws max_w; beta 0.91 (measured on V100 only) is assumed
 * for all.  Frequencies are the vendors' published minimum and boost
 * clocks.  The H100's idle draw is not in any of the papers: 70 W is an
 * assumption.
 *
 * Prices.  NVIDIA publishes no list price for its data-centre GPUs sold
 * alone (V100, P100, T4, A10, A100, H100: they are sold through OEMs at
 * quoted prices; its launch announcements price whole DGX systems only),
 * and Alibaba's G2/G3 are rented, not sold.  So every price here is
 * unknown (NAN, NULL in the store) except the A100-40GB's 2,500 USD, which
 * is the figure CorrGPU §III-B assumes ("We assume P = 2.5 K USD as the
 * cost of a single 40 GB A-100 GPU", its ref. [35]): a paper's figure,
 * kept so its CapEx examples reproduce, not a list price.  Users set their
 * own (`gpuplan profile gpu MODEL price_usd=X`, or --price, --gpus M@USD).
 *
 * Speed is relative to a V100 (1).  P100's 0.94 is the geometric mean of
 * its solo throughput over the V100's on the 26 scale-1 job types of the
 * Gavel table (K80's is 0.30, for profiles that add one).  The others are
 * assumptions from the vendors' dense FP16/FP32 ratings against a V100's,
 * rounded: T4 0.5, A10 (and G2) 1.1, A100 (and G3) 2.0, H100 4.0.
 *
 * Today's models (docs/catalog.md has the table with the same sources).
 * Memory and maximum power are the vendors' datasheets: H200 SXM 141 GB,
 * up to 700 W; HGX B200 180 GB per GPU (1.44 TB for eight), 1000 W; L40S
 * 48 GB, 350 W, 1110-2520 MHz; L4 24 GB, 72 W, 795-2040 MHz; Instinct
 * MI300X 192 GB, 750 W, 2100 MHz peak engine clock.  Memory is the
 * datasheet's GB, as the H100's 80.  The H200's boost clock is the
 * H100 SXM's 1980 MHz (the same GH100 die; its datasheet gives none); the
 * B200's 1980 MHz is a third-party listing, not a datasheet figure.
 * Assumed, as the H100's are: idle power 10 % of maximum (the H100's
 * 70 of 700 W), and the 210 MHz floor of the NVIDIA rows, for all five
 * (the MI300X's included).  Speed is the H100's 4.0 scaled by the dense
 * FP16 tensor rating against the H100 SXM's 989 TFLOPS: H200 989 (4.0),
 * B200 2250 (9.1), L40S 362 (1.5), L4 121 (0.5), MI300X 1307 (5.3); an
 * assumption, as the H100's own is.  No list price: NVIDIA and AMD sell
 * these through OEMs and clouds at quoted prices, so each is unknown.
 */
#define CORRGPU_PRICE "CorrGPU sec. III-B: the paper's assumed price (its ref. 35), " \
                      "not a list price"
static const gpu_profile builtin_gpus[] = {
    /* name        mem  idle   max   sleep fmin  fmax  alpha beta  price  class  speed */
    {0, "V100",     32, 23.3, 144.8, 0, 135, 1350, 0.09, 0.91, NAN,  "v100", 1.0, ""},
    {0, "V100M16",  16, 30,   300,   0, 135, 1350, 0,    0.91, NAN,  "v100", 1.0, ""},
    {0, "V100M32",  32, 30,   300,   0, 135, 1350, 0,    0.91, NAN,  "v100", 1.0, ""},
    {0, "P100",     16, 25,   250,   0, 544, 1328, 0,    0.91, NAN,  "p100", 0.94, ""},
    {0, "T4",       16, 10,   70,    0, 300, 1590, 0,    0.91, NAN,  "",     0.5, ""},
    {0, "A10",      24, 30,   150,   0, 210, 1695, 0,    0.91, NAN,  "",     1.1, ""},
    {0, "G2",       24, 30,   150,   0, 210, 1695, 0,    0.91, NAN,  "",     1.1, ""},
    {0, "G3",       80, 50,   400,   0, 210, 1410, 0,    0.91, NAN,  "",     2.0, ""},
    {0, "A100-40GB", 40, 50,  400,   0, 210, 1410, 0,    0.91, 2500, "",     2.0, CORRGPU_PRICE},
    {0, "H100",     80, 70,   700,   0, 210, 1980, 0,    0.91, NAN,  "",     4.0, ""},
    {0, "H200",    141, 70,   700,   0, 210, 1980, 0,    0.91, NAN,  "",     4.0, ""},
    {0, "B200",    180, 100,  1000,  0, 210, 1980, 0,    0.91, NAN,  "",     9.1, ""},
    {0, "L40S",     48, 35,   350,   0, 210, 2520, 0,    0.91, NAN,  "",     1.5, ""},
    {0, "L4",       24, 7.2,  72,    0, 210, 2040, 0,    0.91, NAN,  "",     0.5, ""},
    {0, "MI300X",  192, 75,   750,   0, 210, 2100, 0,    0.91, NAN,  "",     5.3, ""},
};

/* PWR §V-A: Intel Xeon E5-2682 v4, 16 cores, 15 W idle, 120 W TDP. */
static const cpu_profile builtin_cpus[] = {
    {0, "Xeon-E5-2682v4", 16, 15, 120},
};

void catalog_add_builtin(catalog *c)
{
    for (size_t i = 0; i < sizeof builtin_gpus / sizeof *builtin_gpus; i++) {
        gpu_profile g = builtin_gpus[i];
        if (g.alpha_w_per_mhz == 0 && g.f_max_mhz > 0)
            g.alpha_w_per_mhz = (g.max_w - g.idle_w) / g.f_max_mhz;
        catalog_add_gpu(c, &g);
    }
    for (size_t i = 0; i < sizeof builtin_cpus / sizeof *builtin_cpus; i++)
        catalog_add_cpu(c, &builtin_cpus[i]);
}

cluster *cluster_new(const char *name)
{
    cluster *c = xcalloc(1, sizeof *c);
    strlcpy0(c->name, name, sizeof c->name);
    return c;
}

void cluster_free(cluster *c)
{
    if (!c)
        return;
    free(c->source);
    free(c->nodes);
    free(c);
}

node *cluster_add_node(cluster *c, const node *n)
{
    grow_array((void **)&c->nodes, &c->nodes_cap, c->nnodes + 1, sizeof *n);
    c->nodes[c->nnodes] = *n;
    return &c->nodes[c->nnodes++];
}

int64_t cluster_gpu_total(const cluster *c)
{
    int64_t n = 0;
    for (size_t i = 0; i < c->nnodes; i++)
        n += c->nodes[i].gpu_count;
    return n;
}

int cluster_model_first(const cluster *c, size_t i)
{
    if (c->nodes[i].gpu_count == 0)
        return 0;
    for (size_t k = 0; k < i; k++)
        if (c->nodes[k].gpu_count > 0 &&
            strcmp(c->nodes[k].gpu_model, c->nodes[i].gpu_model) == 0)
            return 0;
    return 1;
}

double cluster_common_speed(const cluster *cl, const catalog *cat)
{
    double speed = 0;
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *n = &cl->nodes[i];
        if (n->gpu_count <= 0)
            continue;
        double v = gpu_speed(catalog_gpu(cat, n->gpu_model));
        if (speed > 0 && v != speed)
            return 0;
        speed = v;
    }
    return speed > 0 ? speed : 1;
}

gp_trace *trace_new(const char *name)
{
    gp_trace *t = xcalloc(1, sizeof *t);
    strlcpy0(t->name, name, sizeof t->name);
    return t;
}

void task_release(task *tk)
{
    free(tk->gpu_spec);
    free(tk->util.pct);
    tk->gpu_spec = NULL;
    tk->util.pct = NULL;
    tk->util.len = 0;
}

void trace_free(gp_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ntasks; i++)
        task_release(&t->tasks[i]);
    free(t->tasks);
    free(t->source);
    free(t);
}

static int cmp_name_idx(const void *a, const void *b)
{
    const name_idx *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

void name_idx_sort(name_idx *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_name_idx);
}

int name_idx_find(const name_idx *v, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {   /* the first entry not below name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(v[lo].name, name) == 0 ? v[lo].idx : -1;
}

name_idx *trace_names_sorted(const gp_trace *tr)
{
    name_idx *v = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *v);
    for (size_t i = 0; i < tr->ntasks; i++)
        v[i] = (name_idx){tr->tasks[i].name, (int)i};
    name_idx_sort(v, tr->ntasks);
    return v;
}

void task_init(task *tk)
{
    memset(tk, 0, sizeof *tk);
    tk->num_gpu = 1;
    tk->gpu_milli = 1000;
    tk->kappa = GP_DEFAULT_KAPPA;
}

task *trace_add_task(gp_trace *t, const task *tk)
{
    grow_array((void **)&t->tasks, &t->tasks_cap, t->ntasks + 1, sizeof *tk);
    task *d = &t->tasks[t->ntasks++];
    *d = *tk;
    d->gpu_spec = tk->gpu_spec ? xstrdup(tk->gpu_spec) : NULL;
    d->util.pct = NULL;
    d->util.len = 0;
    if (tk->util.len) {
        d->util.pct = xmemdup(tk->util.pct, tk->util.len * sizeof(float));
        d->util.len = tk->util.len;
    }
    return d;
}

void task_set_util(task *tk, const float *pct, size_t len, double period_s)
{
    free(tk->util.pct);
    tk->util.pct = NULL;
    tk->util.len = 0;
    tk->util.period_s = period_s;
    if (len == 0)
        return;
    tk->util.pct = xmemdup(pct, len * sizeof(float));
    tk->util.len = len;
    double sum = 0, peak = pct[0];
    for (size_t i = 0; i < len; i++) {
        sum += pct[i];
        if (pct[i] > peak)
            peak = pct[i];
    }
    tk->util_mean = sum / (double)len;
    tk->util_peak = peak;
    tk->util_first = pct[0];
}

double task_kappa(const task *tk, double override)
{
    if (override > 0)
        return override;
    return tk->kappa > 0 ? tk->kappa : GP_DEFAULT_KAPPA;
}

int sla_violated(double jct_s, double kappa, double e_min_s)
{
    return jct_s > kappa * e_min_s * (1 + 1e-12) + 1e-9;
}

int task_gpus(const task *tk)
{
    return tk->num_gpu > 0 ? tk->num_gpu : 0;
}

/* FGD_NOTES §0: num_gpu == 0 is CPU-only whatever gpu_milli says, and the
 * share is clamped to 0..1000. */
int task_gpu_share(const task *tk)
{
    if (tk->num_gpu <= 0)
        return 0;
    return tk->gpu_milli < 0 ? 0 : tk->gpu_milli > 1000 ? 1000 : tk->gpu_milli;
}

int64_t task_gpu_milli(const task *tk)
{
    return (int64_t)task_gpu_share(tk) * task_gpus(tk);
}

int task_allows_model(const task *tk, const char *model)
{
    const char *s = tk->gpu_spec;
    if (!s || !*s)
        return 1;
    size_t ml = strlen(model);
    while (*s) {
        const char *bar = strchr(s, '|');
        size_t l = bar ? (size_t)(bar - s) : strlen(s);
        if (l == ml && strncmp(s, model, l) == 0)
            return 1;
        if (!bar)
            break;
        s = bar + 1;
    }
    return 0;
}

tput_catalog *tput_catalog_new(const char *name)
{
    tput_catalog *c = xcalloc(1, sizeof *c);
    strlcpy0(c->name, name, sizeof c->name);
    return c;
}

void tput_catalog_free(tput_catalog *c)
{
    if (!c)
        return;
    free(c->entries);
    free(c->source);
    free(c);
}

tput_entry *tput_catalog_add(tput_catalog *c, const tput_entry *e)
{
    grow_array((void **)&c->entries, &c->entries_cap, c->nentries + 1, sizeof *e);
    c->entries[c->nentries] = *e;
    return &c->entries[c->nentries++];
}

/* Quadratic scans: catalogs hold a few thousand entries and these counts are
 * only for listings. */
size_t tput_catalog_accels(const tput_catalog *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nentries; i++) {
        size_t j = 0;
        while (j < i && strcmp(c->entries[j].accel, c->entries[i].accel) != 0)
            j++;
        n += (j == i);
    }
    return n;
}

static int same_job(const tput_entry *a, const tput_entry *b)
{
    return strcmp(a->model, b->model) == 0 && a->batch_size == b->batch_size &&
           a->scale == b->scale;
}

size_t tput_catalog_job_types(const tput_catalog *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nentries; i++) {
        if (c->entries[i].co_model[0])
            continue;
        size_t j = 0;
        while (j < i && (c->entries[j].co_model[0] || !same_job(&c->entries[j], &c->entries[i])))
            j++;
        n += (j == i);
    }
    return n;
}

snapshot *snapshot_new(const char *name)
{
    snapshot *s = xcalloc(1, sizeof *s);
    strlcpy0(s->name, name, sizeof s->name);
    s->tasks = trace_new(name);
    return s;
}

void snapshot_free(snapshot *s)
{
    if (!s)
        return;
    trace_free(s->tasks);
    free(s->rows);
    free(s->readings);
    free(s);
}

void snapshot_add_row(snapshot *s, const placement_row *r)
{
    grow_array((void **)&s->rows, &s->rows_cap, s->nrows + 1, sizeof *r);
    s->rows[s->nrows++] = *r;
}

void snapshot_add_reading(snapshot *s, const gpu_reading *r)
{
    grow_array((void **)&s->readings, &s->readings_cap, s->nreadings + 1, sizeof *r);
    s->readings[s->nreadings++] = *r;
}

const gpu_reading *snapshot_reading(const snapshot *s, int node_idx, int gpu)
{
    for (size_t i = 0; i < s->nreadings; i++)
        if (s->readings[i].node == node_idx && s->readings[i].gpu == gpu)
            return &s->readings[i];
    return NULL;
}
