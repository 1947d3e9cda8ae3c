/*
 * plan_saved.c — plan_saved.h: the plan's fingerprint, and its results to
 * and from the database's plan points (db/store_plan.h).
 *
 * The fingerprint hashes values, not memory: structs have padding, and a
 * hash of padding would differ between two runs of the same plan.
 */
#include "plan_saved.h"
#include "shard.h"
#include "core/strbuf.h"
#include "db/store_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fp_f64(uint64_t h, double v)
{
    return fp_bytes(h, &v, sizeof v);
}

static uint64_t fp_i64(uint64_t h, int64_t v)
{
    return fp_bytes(h, &v, sizeof v);
}

static uint64_t fp_task(uint64_t h, const task *k)
{
    h = fp_str(fp_str(fp_str(fp_str(h, k->name), k->gpu_spec ? k->gpu_spec : ""), k->qos),
               k->model);
    const double d[] = {k->arrival_s, k->duration_s, k->gpu_mem_gib, k->kappa, k->min_tput,
                        k->util_mean, k->util_peak, k->util_first, k->util.period_s};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        h = fp_f64(h, d[i]);
    const int64_t n[] = {k->num_gpu, k->gpu_milli, k->cpu_milli, k->ram_mib, k->batch_size,
                         (int64_t)k->util.len};
    for (size_t i = 0; i < sizeof n / sizeof *n; i++)
        h = fp_i64(h, n[i]);
    return fp_bytes(h, k->util.pct, k->util.len * sizeof *k->util.pct);
}

static uint64_t fp_gpu(uint64_t h, const gpu_profile *g)
{
    h = fp_str(fp_str(h, g->name), g->tput_class);
    const double d[] = {g->mem_gib, g->idle_w, g->max_w, g->sleep_w, g->f_min_mhz,
                        g->f_max_mhz, g->alpha_w_per_mhz, g->beta, g->speed};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        h = fp_f64(h, d[i]);
    return h;
}

static uint64_t fp_catalog(uint64_t h, const catalog *c)
{
    for (size_t i = 0; i < c->ngpus; i++)
        h = fp_gpu(h, &c->gpus[i]);
    for (size_t i = 0; i < c->ncpus; i++) {
        const cpu_profile *p = &c->cpus[i];
        h = fp_f64(fp_f64(fp_i64(fp_str(h, p->name), p->cores), p->idle_w), p->max_w);
    }
    return h;
}

static uint64_t fp_tput(uint64_t h, const tput_catalog *tp)
{
    if (!tp)
        return fp_str(h, "no table");
    h = fp_str(h, tp->name);
    for (size_t i = 0; i < tp->nentries; i++) {
        const tput_entry *e = &tp->entries[i];
        h = fp_str(fp_str(fp_str(h, e->accel), e->model), e->co_model);
        h = fp_i64(fp_i64(fp_i64(fp_i64(h, e->batch_size), e->scale), e->co_batch_size),
                   e->co_scale);
        h = fp_f64(fp_f64(h, e->tput), e->co_tput);
    }
    return h;
}

/* The snapshot's cluster and where its tasks sit. */
static uint64_t fp_base(uint64_t h, const plan *sw)
{
    if (!sw->base)
        return fp_str(h, "no snapshot");
    for (size_t i = 0; i < sw->base->nnodes; i++) {
        const node *n = &sw->base->nodes[i];
        h = fp_str(fp_str(fp_str(h, n->name), n->gpu_model), n->cpu_model);
        h = fp_i64(fp_i64(fp_i64(h, n->gpu_count), n->cpu_milli), n->ram_mib);
        h = fp_f64(fp_f64(h, n->static_w), n->other_w);
        for (int g = 0; g < GP_NODE_MAX_GPUS; g++)
            h = fp_f64(h, n->gpu_mem_gib[g]);
    }
    for (size_t t = 0; sw->pins && t < sw->tr->ntasks; t++) {
        const sim_pin *p = &sw->pins[t];
        h = fp_i64(fp_i64(h, p->node), p->ngpus);
        for (int g = 0; g < p->ngpus && g < GP_NODE_MAX_GPUS; g++)
            h = fp_i64(h, p->dev[g]);
    }
    const whatif_opts *w = &sw->p.whatif;
    return fp_f64(fp_f64(fp_i64(fp_f64(h, w->remaining_s), w->more), w->more_gap_s),
                  w->ref_speed);
}

/* The swept points, the servers' size and the policies as run. */
static uint64_t fp_work(uint64_t h, const plan *sw, strbuf *what)
{
    const plan_params *p = &sw->p;
    h = fp_i64(fp_i64(fp_i64(h, sw->grid), p->unbounded), p->per_server);
    for (int c = 0; c < sw->ncounts; c++)
        h = fp_i64(fp_i64(h, sw->counts[c]), sw->counts2[c]);
    strbuf_puts(what, " policies=");
    for (int j = 0; j < p->npolicies; j++) {
        char opts[256];
        policy_spec_format(&sw->spec[j], opts, sizeof opts);
        h = fp_str(fp_str(fp_str(h, sw->spec[j].ops->name), sw->spec[j].label), opts);
        strbuf_printf(what, "%s%s", j ? "," : "", sw->spec[j].label);
    }
    char pred[64], caps[POWER_CAPS_MAX * (GP_NAME_MAX + 32)];
    upred_format(&p->predict, pred, sizeof pred);
    power_caps_format(&p->caps, caps, sizeof caps);
    if (power_caps_any(&p->caps))
        strbuf_printf(what, " gpu_cap=%s", caps);
    h = fp_str(h, caps);        /* the window is in the policies' options */
    /* Speeds relative to a named GPU by Amdahl's law (core/speed.h): points
     * saved under the earlier reading, against the cluster's own GPUs,
     * are not these. */
    h = fp_f64(fp_str(fp_str(h, "speed: amdahl"), sw->ref_name), sw->ref_speed);
    return fp_str(fp_tput(fp_str(h, pred), sw->tp),
                  sw->nets ? p->nets[0] ? p->nets : "trained" : "no nets");
}

void plan_identify(plan *sw)
{
    const plan_params *p = &sw->p;
    strbuf what = STRBUF_INIT;
    strbuf_printf(&what, "plan trace=%s(%zu tasks)%s%s gpu=%s%s%s counts=%d..%d (%d points)%s",
                  p->trace[0] ? p->trace : "-", sw->tr->ntasks, p->snapshot[0] ? " snapshot=" : "",
                  p->snapshot, p->gpu, sw->grid ? "+" : "", sw->grid ? p->gpu2 : "",
                  sw->ncounts ? sw->counts[0] : 0, sw->ncounts ? sw->counts[sw->ncounts - 1] : 0,
                  sw->ncounts, p->unbounded ? " unbounded" : "");
    uint64_t h = fp_str(fp_str(FP_INIT, "plan " GP_VERSION), p->trace);
    for (size_t t = 0; t < sw->tr->ntasks; t++)
        h = fp_task(h, &sw->tr->tasks[t]);
    h = fp_str(fp_gpu(fp_gpu(fp_catalog(h, sw->cat), &sw->prof), &sw->prof2), p->snapshot);
    h = fp_work(fp_base(h, sw), sw, &what);
    fp_hex(h, sw->fingerprint);
    strbuf_copy_to(&what, sw->what, sizeof sw->what);
    strbuf_free(&what);
}

/* The database's view of a plan: its fingerprint, kind and work list. */
static store_sweep sweep_of(const plan *sw)
{
    store_sweep id;
    memcpy(id.fingerprint, sw->fingerprint, sizeof id.fingerprint);
    id.kind = "plan";
    id.what = sw->what;
    id.njobs = sw->njobs;
    return id;
}

typedef struct load_ctx {
    plan *sw;
    int n;
} load_ctx;

/* One saved point into its result; a point that does not fit the plan
 * (which the fingerprint rules out but for a damaged database) is an
 * error, not a silent skip. */
static int take_point(void *ctx, store_plan_point *pt, gp_err *err)
{
    load_ctx *lc = ctx;
    plan *sw = lc->sw;
    if (pt->job < 0 || pt->job >= sw->njobs || pt->ntasks != sw->tr->ntasks) {
        free(pt->jct);
        return gp_error(err, "saved plan point %lld does not fit plan %s", (long long)pt->job,
                        sw->fingerprint);
    }
    plan_result *r = &sw->res[pt->job];
    free(r->jct);
    r->gpus = pt->gpus;
    r->gpus2 = pt->gpus2;
    r->ntasks = pt->ntasks;
    r->ran = (size_t)pt->ran;
    r->jct_mean = pt->jct_mean;
    r->jct_p95 = pt->jct_p95;
    r->avg_w = pt->avg_w;
    r->span_s = pt->span_s;
    r->jct = pt->jct;
    r->done = 1;
    sw->stored[pt->job] = 1;
    lc->n++;
    return 0;
}

int plan_saved_load(plan *sw, store *st, int *n, gp_err *err)
{
    load_ctx lc = {sw, 0};
    int rc = store_get_plan_points(st, sw->fingerprint, take_point, &lc, err);
    *n = lc.n;
    return rc;
}

static int put_one(plan *sw, store *st, int job, gp_err *err)
{
    const plan_result *r = &sw->res[job];
    store_plan_point pt = {
        .job = job, .gpus = r->gpus, .gpus2 = r->gpus2, .ran = (int64_t)r->ran,
        .jct_mean = r->jct_mean, .jct_p95 = r->jct_p95, .avg_w = r->avg_w,
        .span_s = r->span_s, .ntasks = r->ntasks, .jct = r->jct,
    };
    store_sweep id = sweep_of(sw);
    if (store_begin(st, err))
        return -1;
    if (store_put_plan_point(st, &id, &pt, err)) {
        store_rollback(st);
        return -1;
    }
    return store_commit(st, err);
}

int plan_saved_put(plan *sw, store *st, int *n, gp_err *err)
{
    *n = 0;
    for (int i = 0; i < sw->njobs; i++) {
        if (!sw->res[i].done || sw->stored[i])
            continue;
        if (put_one(sw, st, i, err))
            return -1;
        sw->stored[i] = 1;
        ++*n;
    }
    return 0;
}
