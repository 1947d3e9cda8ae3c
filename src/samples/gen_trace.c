/*
 * gen_trace.c — a Gavel-style trace over a throughput table, and a
 * cluster from "MODEL:COUNT" lists (gen_trace.h).
 */
#include "gen_trace.h"
#include "core/rng.h"
#include "core/tput.h"

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

gp_trace *gen_gavel_trace(const char *name, const tput_catalog *tp, const gen_gavel_params *p,
                          gp_err *err)
{
    if (p->jobs == 0 || p->jobs > 1000000)
        return gp_error(err, "jobs: expected 1 to 1000000, got %zu", p->jobs), NULL;
    if (!(p->jobs_per_hour >= 0) || !(p->min_frac >= 0 && p->min_frac <= 1))
        return gp_error(err, "rate must be >= 0 and min_frac in [0, 1]"), NULL;
    tput_index *ix = tput_index_new(tp);
    size_t cap = tp->nentries ? tp->nentries : 1;
    gogh_jobtype *types = xmalloc(cap * sizeof *types);
    size_t nt = usable_types(ix, types, cap);
    if (nt == 0) {
        free(types);
        tput_index_free(ix);
        return gp_error(err, "table '%s' has no scale-1 job type measured alone on every one "
                        "of its accelerators", tp->name), NULL;
    }
    rng r;
    rng_seed(&r, p->seed);
    gp_trace *tr = trace_new(name);
    double t = 0;
    for (size_t i = 0; i < p->jobs; i++) {
        if (p->jobs_per_hour > 0 && i > 0)
            t += rng_exponential(&r, 3600 / p->jobs_per_hour);
        const gogh_jobtype *jt = &types[rng_below(&r, nt)];
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "job-%04zu", i);
        tk.arrival_s = round(t);
        tk.duration_s = gavel_duration_s(&r);
        tk.num_gpu = 1;
        tk.gpu_milli = 1000;
        tk.gpu_mem_gib = job_mem_gib(jt);
        strlcpy0(tk.model, jt->model, sizeof tk.model);
        tk.batch_size = jt->batch_size;
        if (p->min_frac > 0)
            tk.min_tput = p->min_frac * best_solo(ix, jt);
        trace_add_task(tr, &tk);
        task_release(&tk);
    }
    free(types);
    tput_index_free(ix);
    return tr;
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
