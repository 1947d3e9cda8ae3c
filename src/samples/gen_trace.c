/*
 * gen_trace.c — a Gavel-style trace over a throughput table, and a
 * cluster from "MODEL:COUNT" lists (gen_trace.h).
 */
#include "gen_trace.h"
#include "gen_trace_int.h"
#include "core/rng.h"
#include "core/tput.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gen_gavel_params_default(gen_gavel_params *p)
{
    memset(p, 0, sizeof *p);
    p->jobs = 60;
    p->jobs_per_hour = 1;
    p->seed = 42;
}

/* GPU memory of a job, GiB: our assumption (Gavel's table has none) — a
 * base per model family plus a per-sample activation cost, so larger
 * batches need more, capped at a K80's 12 GB. */
static double job_mem_gib(const gogh_jobtype *t)
{
    static const struct {
        const char *family;
        double base, per_sample;
    } fam[] = {
        {"ResNet-18", 1.0, 0.03},     {"ResNet-50", 2.0, 0.08},  {"Transformer", 2.0, 0.06},
        {"LM", 1.5, 0.1},             {"Recommendation", 1.0, 0.0005},
        {"CycleGAN", 4.0, 0},         {"A3C", 1.5, 0},
    };
    double mem = 4;
    for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
        if (strncmp(t->model, fam[i].family, strlen(fam[i].family)) == 0)
            mem = fam[i].base + fam[i].per_sample * t->batch_size;
    return fmin(mem, 11.5);
}

/* The table's scale-1 job types measured alone on every accelerator. */
static size_t usable_types(const tput_index *ix, gogh_jobtype *out, size_t cap)
{
    const char *accels[16];
    size_t na = tput_accels(ix, accels, 16), n = 0;
    gogh_jobtype *all = xmalloc((cap ? cap : 1) * sizeof *all);
    size_t nall = tput_jobtypes(ix, all, cap);
    for (size_t i = 0; i < nall; i++) {
        int ok = all[i].scale == 1;
        for (size_t a = 0; a < na && ok; a++)
            ok = tput_solo(ix, accels[a], &all[i]) > 0;
        if (ok)
            out[n++] = all[i];
    }
    free(all);
    return n;
}

static double best_solo(const tput_index *ix, const gogh_jobtype *t)
{
    const char *accels[16];
    size_t na = tput_accels(ix, accels, 16);
    double b = 0;
    for (size_t a = 0; a < na; a++)
        b = fmax(b, tput_solo(ix, accels[a], t));
    return b;
}

/* 10^x minutes, x ~ U[1.5, 3] w.p. 0.8 else U[3, 4] (Gavel's generator). */
static double gavel_duration_s(rng *r)
{
    double x = rng_bernoulli(r, 0.8) ? rng_range(r, 1.5, 3) : rng_range(r, 3, 4);
    return 60 * round(pow(10, x));
}

/* A job's draw: the trace's stream gives arrival, type and duration (the
 * order Gavel's generator draws them in); its series has a stream of its
 * own (gen_util_series). */
struct gen_gavel {
    tput_index *ix;
    gogh_jobtype *types;
    size_t ntypes;
    gen_gavel_params p;
    gen_series_params sp;
    float *series;              /* sp.max_len floats, reused per job */
    rng r;
    double t;
    size_t next;
};

static int check_params(const gen_gavel_params *p, const gen_series_params *sp, gp_err *err)
{
    if (p->jobs == 0 || p->jobs > 1000000)
        return gp_error(err, "jobs: expected 1 to 1000000, got %zu", p->jobs);
    if (!(p->jobs_per_hour >= 0) || !(p->min_frac >= 0 && p->min_frac <= 1))
        return gp_error(err, "rate must be >= 0 and min_frac in [0, 1]");
    if (sp && (sp->min_len || sp->max_len) &&
        (sp->min_len < 1 || sp->min_len > sp->max_len || sp->max_len > GEN_SERIES_MAX))
        return gp_error(err, "series: expected lengths 1 <= MIN <= MAX <= %d, got %zu-%zu",
                        GEN_SERIES_MAX, sp->min_len, sp->max_len);
    return 0;
}

gen_gavel *gen_gavel_new(const tput_catalog *tp, const gen_gavel_params *p,
                         const gen_series_params *sp, gp_err *err)
{
    if (check_params(p, sp, err))
        return NULL;
    gen_gavel *g = xcalloc(1, sizeof *g);
    g->ix = tput_index_new(tp);
    size_t cap = tp->nentries ? tp->nentries : 1;
    g->types = xmalloc(cap * sizeof *g->types);
    g->ntypes = usable_types(g->ix, g->types, cap);
    if (g->ntypes == 0) {
        gp_error(err, "table '%s' has no scale-1 job type measured alone on every one of "
                 "its accelerators", tp->name);
        gen_gavel_free(g);
        return NULL;
    }
    g->p = *p;
    if (sp)
        g->sp = *sp;
    if (g->sp.max_len)
        g->series = xmalloc(g->sp.max_len * sizeof *g->series);
    rng_seed(&g->r, p->seed);
    return g;
}

int gen_gavel_next(gen_gavel *g, task *tk)
{
    if (g->next >= g->p.jobs)
        return 0;
    size_t i = g->next++;
    if (g->p.jobs_per_hour > 0 && i > 0)
        g->t += rng_exponential(&g->r, 3600 / g->p.jobs_per_hour);
    const gogh_jobtype *jt = &g->types[rng_below(&g->r, g->ntypes)];
    task_init(tk);
    snprintf(tk->name, sizeof tk->name, "job-%04zu", i);
    tk->arrival_s = round(g->t);
    tk->duration_s = gavel_duration_s(&g->r);
    tk->num_gpu = 1;
    tk->gpu_milli = 1000;
    tk->gpu_mem_gib = job_mem_gib(jt);
    strlcpy0(tk->model, jt->model, sizeof tk->model);
    tk->batch_size = jt->batch_size;
    if (g->p.min_frac > 0)
        tk->min_tput = g->p.min_frac * best_solo(g->ix, jt);
    if (g->series) {
        /* The series spans the job's standalone run. */
        size_t len = gen_util_series(g->p.seed, i, &g->sp, g->series);
        task_set_util(tk, g->series, len, tk->duration_s / (double)len);
    }
    return 1;
}

void gen_gavel_free(gen_gavel *g)
{
    if (!g)
        return;
    tput_index_free(g->ix);
    free(g->types);
    free(g->series);
    free(g);
}

gp_trace *gen_gavel_trace(const char *name, const tput_catalog *tp, const gen_gavel_params *p,
                          gp_err *err)
{
    gen_gavel *g = gen_gavel_new(tp, p, NULL, err);
    if (!g)
        return NULL;
    gp_trace *tr = trace_new(name);
    task tk;
    while (gen_gavel_next(g, &tk)) {
        trace_add_task(tr, &tk);
        task_release(&tk);
    }
    gen_gavel_free(g);
    return tr;
}

/* The shape of gen_util_series, drawn per job: a level a training step
 * holds (40-95 %), a dip every `cycle` samples lasting `dip_len` samples
 * down to a fraction of the level, a warm-up of a few samples and noise.
 * Our assumption of what per-minute GPU utilization of a training job
 * looks like (steady compute, periodic evaluation or checkpointing).
 * Values are rounded to 0.1 %. */
size_t gen_util_series(uint64_t seed, size_t index, const gen_series_params *sp, float *out)
{
    assert(sp->min_len >= 1 && sp->min_len <= sp->max_len);
    rng r;
    rng_seed_stream(&r, seed, (uint64_t)index + 1);
    size_t len = sp->min_len + (size_t)rng_below(&r, sp->max_len - sp->min_len + 1);
    double level = rng_range(&r, 40, 95);
    size_t cycle = 8 + (size_t)rng_below(&r, 53);
    size_t dip_len = 1 + (size_t)rng_below(&r, cycle / 4);
    double dip = rng_range(&r, 0.1, 0.5);
    size_t warm = 1 + (size_t)rng_below(&r, 5);
    double noise = rng_range(&r, 1, 6);
    size_t phase = (size_t)rng_below(&r, cycle);
    for (size_t k = 0; k < len; k++) {
        double v = level;
        if (k < warm)
            v *= (double)(k + 1) / (double)(warm + 1);
        else if ((k + phase) % cycle < dip_len)
            v *= dip;
        v += noise * rng_normal(&r);
        /* to 0.1 %, as monitors report it (and as a CSV writes it short) */
        out[k] = (float)(round(10 * (v < 0 ? 0 : v > 100 ? 100 : v)) / 10);
    }
    return len;
}

/* One "MODEL:COUNT" item into servers of per_node GPUs. */
static int add_model(cluster *cl, const char *item, int per_node, const catalog *cat,
                     gp_err *err)
{
    const char *colon = strrchr(item, ':');
    char model[GP_NAME_MAX];
    long count;
    char *end;
    if (!colon || (size_t)(colon - item) >= sizeof model)
        return gp_error(err, "'%s': expected MODEL:COUNT", item);
    memcpy(model, item, (size_t)(colon - item));
    model[colon - item] = '\0';
    count = strtol(colon + 1, &end, 10);
    if (*end || count < 1 || count > 100000)
        return gp_error(err, "'%s': the count must be 1 to 100000", item);
    if (!catalog_gpu(cat, model))
        return gp_error(err, "'%s': no GPU profile '%s' (gpuplan list gpus)", item, model);
    for (long done = 0, s = 0; done < count; s++) {
        node n;
        memset(&n, 0, sizeof n);
        snprintf(n.name, sizeof n.name, "%s-%ld", model, s);
        strlcpy0(n.gpu_model, model, sizeof n.gpu_model);
        n.gpu_count = (int)(count - done < per_node ? count - done : per_node);
        n.cpu_milli = 64000;
        n.ram_mib = 262144;
        cluster_add_node(cl, &n);
        done += n.gpu_count;
    }
    return 0;
}

cluster *gen_cluster(const char *name, const char *spec, int per_node, const catalog *cat,
                     gp_err *err)
{
    if (per_node < 1 || per_node > GP_NODE_MAX_GPUS)
        return gp_error(err, "GPUs per server: 1 to %d, got %d", GP_NODE_MAX_GPUS, per_node),
               NULL;
    cluster *cl = cluster_new(name);
    char *copy = xstrdup(spec), *save = NULL;
    int rc = 0;
    for (char *it = strtok_r(copy, ",", &save); it && rc == 0; it = strtok_r(NULL, ",", &save))
        rc = add_model(cl, it, per_node, cat, err);
    free(copy);
    if (rc == 0 && cl->nnodes == 0)
        rc = gp_error(err, "no GPUs given");
    if (rc) {
        cluster_free(cl);
        return NULL;
    }
    return cl;
}
