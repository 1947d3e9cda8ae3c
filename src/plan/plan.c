/*
 * plan.c — the capacity planner's incremental GPU-count sweep and two-model
 * grid (plan.h), used by the TUI's Planner screen and by `gpuplan plan`.
 */
#include "plan.h"
#include "plan_int.h"
#include "par.h"
#include "plan_par.h"
#include "plan_saved.h"
#include "core/cstate.h"
#include "policy/policy.h"
#include "power/power.h"
#include "predict/gogh_load.h"
#include "core/run.h"
#include "core/speed.h"
#include "sim/sim.h"
#include "core/runsum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

void plan_params_default(plan_params *p)
{
    memset(p, 0, sizeof *p);
    p->lo = 1;
    p->hi = 8;
    p->step = 1;
    p->per_server = 8;
    p->price = -1;
    p->lo2 = 0;
    p->hi2 = 8;
    p->step2 = 1;
    p->price2 = -1;
    p->corr_threshold = NAN;
    p->util_threshold = NAN;
    p->kappa = 0;
    p->sla_target_pct = 0;
    p->jobs = par_default_threads();
    p->shard.n = 1;
    p->util_window = -1;
}

const char *plan_metric_name(plan_metric m)
{
    static const char *const n[] = {"SLA violations %", "mean JCT", "average power W",
                                    "CapEx USD", "cost USD", "CO2e t"};
    return m < PM_NMETRICS ? n[m] : "?";
}

/* lo..hi by step, hi included, at most cap counts (the step grown to
 * fit); returns how many. */
static int counts_between(int lo, int hi, int step, int *out, int cap)
{
    hi = hi < lo ? lo : hi;
    step = step < 1 ? 1 : step;
    /* ceil((hi - lo) / step) + 1 counts, hi included, must fit. */
    while ((hi - lo + step - 1) / step + 1 > cap)
        step++;
    int n = 0;
    for (int g = lo; g <= hi && n < cap; g += step)
        out[n++] = g;
    if (out[n - 1] != hi && n < cap)
        out[n++] = hi;
    return n;
}

int plan_counts(const plan_params *p, int *out, int cap)
{
    if (p->unbounded) {
        out[0] = p->per_server > 0 ? p->per_server : 1;
        return 1;
    }
    int lo_min = p->snapshot[0] ? 0 : 1;    /* a snapshot's cluster runs as it is */
    return counts_between(p->lo < lo_min ? lo_min : p->lo, p->hi, p->step, out, cap);
}

int plan_peak_demand(store *st, const plan_params *p, int *peak, gp_err *err)
{
    snapshot *sn = NULL;
    gp_trace *tr = NULL;
    if ((p->snapshot[0] && store_get_snapshot(st, p->snapshot, &sn, err)) ||
        ((p->trace[0] || !sn) && store_get_trace(st, p->trace, &tr, err))) {
        snapshot_free(sn);
        return -1;
    }
    *peak = tr ? summary_peak_demand(tr) : 0;
    if (sn && sn->tasks->ntasks)
        *peak += (1 + p->whatif.more) * summary_peak_demand(sn->tasks);
    snapshot_free(sn);
    trace_free(tr);
    return 0;
}

int plan_grid(const plan_params *p, int *n1, int *n2, int cap)
{
    int a[PLAN_MAX_AXIS], b[PLAN_MAX_AXIS];
    int na = counts_between(p->lo < 0 ? 0 : p->lo, p->hi, p->step, a, PLAN_MAX_AXIS);
    int nb = counts_between(p->lo2 < 0 ? 0 : p->lo2, p->hi2, p->step2, b, PLAN_MAX_AXIS), n = 0;
    for (int i = 0; i < na; i++)
        for (int k = 0; k < nb && n < cap; k++) {
            if (a[i] + b[k] == 0)
                continue;   /* no GPU at all: nothing to simulate */
            n1[n] = a[i];
            n2[n++] = b[k];
        }
    return n;
}

/* Servers of per_server GPUs of prof, numbered from *next. */
static void add_servers(cluster *c, const gpu_profile *prof, int gpus, int per_server,
                        int *next)
{
    for (int left = gpus; left > 0; left -= per_server) {
        node n;
        memset(&n, 0, sizeof n);
        snprintf(n.name, sizeof n.name, "s%d", (*next)++);
        strlcpy0(n.gpu_model, prof->name, sizeof n.gpu_model);
        n.gpu_count = left < per_server ? left : per_server;
        /* CPU and RAM are not what the planner asks about: plenty of both. */
        n.cpu_milli = 1024 * 1000;
        n.ram_mib = (int64_t)4 << 20;
        cluster_add_node(c, &n);
    }
}

cluster *plan_cluster_mixed(const gpu_profile *p1, int n1, const gpu_profile *p2, int n2,
                            int per_server)
{
    if (per_server < 1)
        per_server = 1;
    if (per_server > GP_NODE_MAX_GPUS)
        per_server = GP_NODE_MAX_GPUS;
    cluster *c = cluster_new("planner");
    int next = 0;
    add_servers(c, p1, n1, per_server, &next);
    if (p2)
        add_servers(c, p2, n2, per_server, &next);
    return c;
}

cluster *plan_cluster(const gpu_profile *prof, int gpus, int per_server)
{
    return plan_cluster_mixed(prof, gpus, NULL, 0, per_server);
}

void plan_apply_thresholds(policy_spec *sp, double corr, double util_pct)
{
    if (!isnan(corr))
        policy_spec_set_role(sp, OPT_CORR_THRESHOLD, corr);
    if (!isnan(util_pct))
        policy_spec_set_role(sp, OPT_UTIL_THRESHOLD, util_pct);
}

/* The reference speed the user set: --ref-speed, else with a snapshot
 * and no --ref-gpu the speed its remaining times were converted at. */
static double plan_ref_speed_set(const plan *sw)
{
    if (sw->p.ref_speed > 0 || sw->p.ref_gpu[0] || !sw->base)
        return sw->p.ref_speed;
    return whatif_ref_speed(&sw->p.whatif, sw->base, sw->cat);
}

/* The caps name known models and each model swept can take its cap
 * (power_cap_check: not below idle, not below the lowest clock's draw). */
static int check_caps(const plan *sw, gp_err *err)
{
    const gpu_profile *prof[2] = {&sw->prof, sw->grid ? &sw->prof2 : NULL};
    if (power_caps_check_models(&sw->p.caps, sw->cat, err))
        return -1;
    for (int i = 0; i < 2; i++) {
        double cap = prof[i] ? power_caps_for(&sw->p.caps, prof[i]->name) : 0;
        if (cap > 0 && power_cap_check(prof[i], cap, 0, err)) {
            gp_error_prefix(err, "--gpu-cap");
            return -1;
        }
    }
    return 0;
}

/* The snapshot's what-if: its cluster as the base, its trace and pins. */
static int load_snapshot(plan *sw, store *st, gp_err *err)
{
    snapshot *sn = NULL;
    gp_trace *arrivals = NULL;
    whatif w;
    int rc = -1;
    if (store_get_snapshot(st, sw->p.snapshot, &sn, err) ||
        store_get_cluster(st, sn->cluster_name, &sw->base, err) ||
        (sw->p.trace[0] && store_get_trace(st, sw->p.trace, &arrivals, err)) ||
        whatif_build(sn, sw->base, sw->cat, arrivals, &sw->p.whatif, &w, err))
        goto out;
    sw->tr = w.tr;
    sw->pins = w.pins;
    rc = 0;
out:
    snapshot_free(sn);
    trace_free(arrivals);
    return rc;
}

static int load(plan *sw, store *st, gp_err *err)
{
    if (store_load_catalog(st, &sw->cat, err) ||
        (sw->p.snapshot[0] ? load_snapshot(sw, st, err)
                           : store_get_trace(st, sw->p.trace, &sw->tr, err)))
        return -1;
    if (store_find_tput_for(st, sw->p.tput[0] ? sw->p.tput : NULL, sw->p.trace, &sw->tp, err) ||
        gogh_nets_find(st, sw->p.nets[0] ? sw->p.nets : NULL, sw->tp, &sw->nets, err))
        return -1;
    if (speed_ref_resolve(sw->cat, sw->tr, sw->p.ref_gpu, plan_ref_speed_set(sw), sw->ref_name,
                          sizeof sw->ref_name, &sw->ref_speed, err))
        return -1;
    const gpu_profile *g = catalog_gpu(sw->cat, sw->p.gpu);
    if (!g) {
        char hint[300];
        return gp_error(err, "no GPU profile named '%s'%s", sw->p.gpu,
                        catalog_gpu_hint(sw->cat, sw->p.gpu, hint, sizeof hint));
    }
    sw->prof = *g;
    if (sw->p.gpu2[0]) {
        const gpu_profile *g2 = catalog_gpu(sw->cat, sw->p.gpu2);
        if (!g2) {
            char hint[300];
            return gp_error(err, "no GPU profile named '%s'%s", sw->p.gpu2,
                            catalog_gpu_hint(sw->cat, sw->p.gpu2, hint, sizeof hint));
        }
        if (sw->p.unbounded)
            return gp_error(err, "the unbounded pool is for one GPU model, not a grid");
        sw->prof2 = *g2;
        sw->grid = 1;
    }
    for (int j = 0; j < sw->p.npolicies; j++) {
        if (policy_spec_parse(sw->p.policies[j], &sw->spec[j], err))
            return -1;
        plan_apply_thresholds(&sw->spec[j], sw->p.corr_threshold, sw->p.util_threshold);
        if (sw->p.util_window >= 0)
            policy_spec_set_role(&sw->spec[j], OPT_UTIL_WINDOW, sw->p.util_window);
    }
    return check_caps(sw, err);
    return 0;
}

/* The jobs left to simulate: the shard's, less those already read. */
static void list_pending(plan *sw)
{
    const shard *sh = &sw->p.shard;
    int n = sh->n > 0 ? sh->n : 1;
    sw->pending = xmalloc(((size_t)sw->njobs + 1) * sizeof *sw->pending);
    sw->npending = 0;
    for (int i = 0; i < sw->njobs; i++)
        if (!sw->res[i].done && i % n == sh->i)
            sw->pending[sw->npending++] = i;
}

int plan_params_check(const plan_params *p, gp_err *err)
{
    int grid = p->gpu2[0] != '\0';
    if (p->npolicies < 1)
        return gp_error(err, "choose at least one policy");
    if (grid && p->unbounded)
        return gp_error(err, "the unbounded pool is for one GPU model, not a grid");
    if (p->per_server < 1 || p->per_server > GP_NODE_MAX_GPUS)
        return gp_error(err, "GPUs per server must be 1 to %d, not %d", GP_NODE_MAX_GPUS,
                        p->per_server);
    if (p->unbounded)
        return 0;
    if (!grid && !p->snapshot[0] && p->lo < 1)
        return gp_error(err, "GPUs from (--from) must be at least 1 with one GPU model, "
                        "not %d", p->lo);
    if (p->lo < 0 || p->step < 1)
        return gp_error(err, "GPUs from must be at least 0 and the step at least 1");
    if (p->hi < p->lo)
        return gp_error(err, "the range %d to %d runs backwards: GPUs to (--to) must not be "
                        "below GPUs from (--from)", p->lo, p->hi);
    if (grid && (p->lo2 < 0 || p->step2 < 1))
        return gp_error(err, "2nd GPUs from must be at least 0 and the 2nd step at least 1");
    if (grid && p->hi2 < p->lo2)
        return gp_error(err, "the second model's range %d to %d runs backwards: --to2 must "
                        "not be below --from2", p->lo2, p->hi2);
    return 0;
}

/* Two thresholds alike, NAN (the policy's own) equal to NAN. */
static int same_threshold(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

int plan_params_same_sweep(const plan_params *a, const plan_params *b)
{
    int grid = a->gpu2[0] != '\0';
    if (strcmp(a->trace, b->trace) || strcmp(a->gpu, b->gpu) || strcmp(a->gpu2, b->gpu2) ||
        strcmp(a->snapshot, b->snapshot) || strcmp(a->tput, b->tput) ||
        strcmp(a->nets, b->nets) || a->unbounded != b->unbounded ||
        a->per_server != b->per_server || a->npolicies != b->npolicies ||
        !same_threshold(a->corr_threshold, b->corr_threshold) ||
        !same_threshold(a->util_threshold, b->util_threshold) ||
        a->predict.kind != b->predict.kind || a->predict.arg != b->predict.arg ||
        a->predict.hold_mean != b->predict.hold_mean || a->util_window != b->util_window ||
        memcmp(&a->caps, &b->caps, sizeof a->caps) != 0 ||
        memcmp(&a->whatif, &b->whatif, sizeof a->whatif) != 0)
        return 0;
    for (int j = 0; j < a->npolicies; j++)
        if (strcmp(a->policies[j], b->policies[j]))
            return 0;
    if (a->unbounded)
        return 1;
    if (a->lo != b->lo || a->hi != b->hi || a->step != b->step)
        return 0;
    return !grid || (a->lo2 == b->lo2 && a->hi2 == b->hi2 && a->step2 == b->step2);
}

int plan_start(plan *sw, store *st, const plan_params *p, gp_err *err)
{
    if (plan_params_check(p, err))
        return -1;
    plan_free(sw);
    sw->p = *p;
    if (load(sw, st, err)) {
        plan_free(sw);
        return -1;
    }
    if (sw->grid)
        sw->ncounts = plan_grid(p, sw->counts, sw->counts2, PLAN_MAX_POINTS);
    else
        sw->ncounts = plan_counts(p, sw->counts, PLAN_MAX_COUNTS);
    sw->njobs = sw->ncounts * p->npolicies;
    sw->res = xcalloc((size_t)sw->njobs, sizeof *sw->res);
    for (int i = 0; i < sw->njobs; i++) {
        sw->res[i].policy = i % p->npolicies;
        sw->res[i].gpus = sw->counts[i / p->npolicies];
        sw->res[i].gpus2 = sw->counts2[i / p->npolicies];
    }
    sw->stored = xcalloc((size_t)sw->njobs + 1, 1);
    plan_identify(sw);
    if (plan_saved_load(sw, st, &sw->nloaded, err)) {
        plan_free(sw);
        return -1;
    }
    list_pending(sw);
    sw->state = sw->npending ? PLAN_RUNNING : PLAN_DONE;
    sw->t_start = now_seconds();
    if (sw->npending)
        plan_par_start(sw);
    return 0;
}

struct sim *plan_job_sim(const plan *sw, int i, cluster **cl, gp_err *err)
{
    const plan_result *r = &sw->res[i];
    *cl = plan_cluster_mixed(&sw->prof, r->gpus, sw->grid ? &sw->prof2 : NULL, r->gpus2,
                             sw->p.per_server);
    if (sw->base) {             /* GPUs added to the snapshot's cluster */
        cluster *added = *cl;
        *cl = whatif_cluster_plus(sw->base, added);
        cluster_free(added);
    }
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.checkpoint_every = SIM_NO_REWIND;  /* a plan's runs are never rewound */
    cfg.pins = sw->pins;
    cfg.ref_gpu = sw->ref_name;     /* resolved once, in load() */
    cfg.ref_speed = sw->ref_speed;
    cfg.unbounded = sw->p.unbounded;
    cfg.tput = sw->tp;
    cfg.nets = sw->nets;
    cfg.predict = sw->p.predict;
    cfg.caps = sw->p.caps;
    gp_err e;
    sim *s = sim_new(&cfg, *cl, sw->cat, sw->tr, &sw->spec[r->policy], &e);
    if (!s)
        gp_error(err, "%s: %s", sw->spec[r->policy].label, e.msg);
    return s;
}

/* GPUs ever used on servers past the first base_nodes: what an unbounded
 * pool added to a snapshot's cluster. */
static int gpus_used_beyond(const cstate *cs, size_t base_nodes)
{
    int n = 0;
    for (size_t g = 0; g < cs->ngpus; g++)
        n += cs->gpus[g].ever_used && (size_t)cs->gpus[g].node >= base_nodes;
    return n;
}

void plan_job_result(const plan *sw, struct sim *s, plan_result *r)
{
    sim_finish(s);
    const run *rec = sim_run_record(s);
    r->ntasks = sw->tr->ntasks;
    r->jct = xmalloc((r->ntasks ? r->ntasks : 1) * sizeof *r->jct);
    for (size_t i = 0; i < r->ntasks; i++)
        r->jct[i] = -1;
    double *ran = xmalloc((rec->noutcomes ? rec->noutcomes : 1) * sizeof *ran);
    double sum = 0;
    for (size_t i = 0; i < rec->noutcomes; i++) {
        const run_outcome *o = &rec->outcomes[i];
        if (o->node < 0 || o->task < 0 || (size_t)o->task >= r->ntasks)
            continue;
        r->jct[o->task] = o->jct_s;
        ran[r->ran++] = o->jct_s;
        sum += o->jct_s;
    }
    r->jct_mean = r->ran ? sum / (double)r->ran : NAN;
    r->jct_p95 = r->ran ? stats_percentile(ran, r->ran, 95) : NAN;
    free(ran);
    double t_end = rec->npoints ? rec->points[rec->npoints - 1].t_s : 0;
    r->span_s = rec->npoints ? t_end - rec->points[0].t_s : 0;
    r->avg_w = rec->npoints ? summary_time_mean(&rec->points[0].t_s, &rec->points[0].power_w,
                                                rec->npoints, sizeof(run_point), t_end)
                            : 0;
    if (sw->p.unbounded)
        r->gpus = sw->base ? gpus_used_beyond(sim_cstate(s), sw->base->nnodes)
                           : (int)cstate_used_gpus_ever(sim_cstate(s));
    r->done = 1;
}

static int job_begin(plan *sw)
{
    gp_err err;
    sw->sim = plan_job_sim(sw, sw->pending[sw->job], &sw->cl, &err);
    sw->steps = 0;
    if (!sw->sim) {
        snprintf(sw->err, sizeof sw->err, "%s", err.msg);
        return -1;
    }
    return 0;
}

static void job_end(plan *sw)
{
    plan_job_result(sw, sw->sim, &sw->res[sw->pending[sw->job]]);
    sim_free(sw->sim);
    sw->sim = NULL;
    cluster_free(sw->cl);
    sw->cl = NULL;
    sw->job++;
}

int plan_tick(plan *sw, double budget_s)
{
    if (sw->state != PLAN_RUNNING)
        return 0;
    if (sw->par)
        return plan_par_tick(sw, budget_s);
    double t0 = now_seconds();
    while (sw->job < sw->npending) {
        if (!sw->sim && job_begin(sw)) {
            sw->state = PLAN_FAILED;
            return 0;
        }
        int more = 1;
        for (int k = 0; k < 16 && more; k++) {
            more = sim_step(sw->sim);
            sw->steps += (size_t)more;
        }
        if (!more) {
            if (!sim_done(sw->sim))
                sim_run(sw->sim, NULL);
            job_end(sw);
        }
        if (now_seconds() - t0 >= budget_s)
            break;
    }
    sw->elapsed = now_seconds() - sw->t_start;
    if (sw->job >= sw->npending) {
        sw->state = PLAN_DONE;
        return 0;
    }
    return 1;
}

void plan_cancel(plan *sw)
{
    if (sw->state != PLAN_RUNNING)
        return;
    plan_par_stop(sw);
    if (sw->sim)
        sim_free(sw->sim);
    sw->sim = NULL;
    cluster_free(sw->cl);
    sw->cl = NULL;
    sw->state = PLAN_CANCELLED;
}

void plan_free(plan *sw)
{
    plan_cancel(sw);
    for (int i = 0; sw->res && i < sw->njobs; i++)
        free(sw->res[i].jct);
    free(sw->res);
    free(sw->pending);
    free(sw->stored);
    trace_free(sw->tr);
    cluster_free(sw->base);
    free(sw->pins);
    catalog_free(sw->cat);
    tput_catalog_free(sw->tp);
    gogh_nets_free(sw->nets);
    memset(sw, 0, sizeof *sw);
}

int plan_current_job(const plan *sw)
{
    if (sw->npending == 0)
        return -1;
    return sw->pending[sw->job < sw->npending ? sw->job : sw->npending - 1];
}

double plan_progress(const plan *sw)
{
    if (sw->npending == 0)
        return sw->state == PLAN_DONE;
    double part = 0;
    if (sw->sim && sw->tr && sw->tr->ntasks)
        part = (double)sw->steps / (double)sw->tr->ntasks;
    if (part > 0.99)
        part = 0.99;
    return ((double)sw->job + part) / (double)sw->npending;
}

static double sla_pct(const plan *sw, const plan_result *r, double kappa)
{
    if (!r->ntasks)
        return 0;
    size_t v = 0;
    for (size_t i = 0; i < r->ntasks; i++) {
        const task *tk = &sw->tr->tasks[i];
        /* A task that never ran violates. */
        v += r->jct[i] < 0 || sla_violated(r->jct[i], task_kappa(tk, kappa), tk->duration_s);
    }
    return 100.0 * (double)v / (double)r->ntasks;
}

/* The price of one GPU of model 1 or 2 under the live sliders; NAN when
 * neither the slider nor the profile knows it. */
static double price_of(const plan *sw, int second, const plan_params *live)
{
    double set = second ? live->price2 : live->price;
    const gpu_profile *g = second ? &sw->prof2 : &sw->prof;
    return set >= 0 ? set : g->price_usd;
}

int plan_price_unknown(const plan *sw, const plan_result *r, const plan_params *live)
{
    return (r->gpus > 0 && isnan(price_of(sw, 0, live))) ||
           (sw->grid && r->gpus2 > 0 && isnan(price_of(sw, 1, live)));
}

/* GPUs of unknown price count 0 here, so that counts still order by cost;
 * plan_price_unknown() says when a figure leaves them out. */
static double capex(const plan *sw, const plan_result *r, const plan_params *live)
{
    double price = price_of(sw, 0, live), price2 = price_of(sw, 1, live);
    return r->gpus * (isnan(price) ? 0 : price) +
           (sw->grid ? r->gpus2 * (isnan(price2) ? 0 : price2) : 0);
}

double plan_hours(const plan_result *r, const plan_params *live)
{
    return live->hours > 0 ? live->hours : r->span_s / 3600;
}

/* Servers of per_server GPUs that n GPUs fill (as plan_cluster builds). */
static int servers_of(int n, int per_server)
{
    return per_server > 0 ? (n + per_server - 1) / per_server : n;
}

double plan_point_peak_w(const plan *sw, const plan_result *r, const plan_params *live)
{
    int per = sw->p.per_server;
    double w = r->gpus * sw->prof.max_w + servers_of(r->gpus, per) * live->site.host_w;
    if (sw->grid)
        w += r->gpus2 * sw->prof2.max_w + servers_of(r->gpus2, per) * live->site.host_w;
    for (size_t i = 0; sw->base && i < sw->base->nnodes; i++) {
        const node *nd = &sw->base->nodes[i];
        const gpu_profile *g = catalog_gpu(sw->cat, nd->gpu_model);
        w += nd->gpu_count * (g ? g->max_w : 0) + live->site.host_w;
    }
    return w;
}

int plan_fits_site(const plan *sw, const plan_result *r, const plan_params *live)
{
    const site_envelope *e = &live->site;
    if (!site_has_budget(e))
        return 1;
    if (sw->grid && !sw->base) {
        /* the capacity line: each model's own peak and servers */
        site_mix m;
        site_capacity_mix(e, sw->p.per_server, sw->prof.max_w, r->gpus, sw->prof2.max_w, &m);
        return r->gpus2 <= m.n2;
    }
    if (site_facility_w(e, plan_point_peak_w(sw, r, live)) > e->site_kw * 1000 * (1 + 1e-12))
        return 0;
    if (!(e->rack_kw > 0))
        return 1;
    /* servers in racks: as many a rack as the most demanding server allows */
    double peak = sw->p.per_server * fmax(sw->prof.max_w, sw->grid ? sw->prof2.max_w : 0);
    site_capacity cap;
    site_capacity_of(e, 1, peak, &cap);
    int servers = servers_of(r->gpus, sw->p.per_server) +
                  (sw->grid ? servers_of(r->gpus2, sw->p.per_server) : 0) +
                  (sw->base ? (int)sw->base->nnodes : 0);
    return servers <= cap.servers;
}

/* Average watts over the horizon (the simulated span when none is set),
 * and the facility's cost of the point's provisioned power over it. */
static double energy_usd(const plan *sw, const plan_result *r, const plan_params *live)
{
    double hours = plan_hours(r, live);
    double usd = live->usd_per_kwh > 0 ? r->avg_w / 1000 * hours * live->usd_per_kwh : 0;
    if (live->usd_per_kw_month > 0)
        usd += site_facility_w(&live->site, plan_point_peak_w(sw, r, live)) / 1000 *
               live->usd_per_kw_month * 12 * hours / 8760;
    return usd;
}

double plan_value(const plan *sw, const plan_result *r, plan_metric m,
                   const plan_params *live)
{
    if (!r || !r->done)
        return NAN;
    switch (m) {
    case PM_SLA:
        return sla_pct(sw, r, live->kappa);
    case PM_JCT:
        return r->jct_mean;
    case PM_POWER:
        return r->avg_w;
    case PM_CAPEX:
        return capex(sw, r, live);
    case PM_COST:
        return capex(sw, r, live) + energy_usd(sw, r, live);
    case PM_CO2E:   /* g_co2e_per_kwh holds the PUE's share (plan_cost.h) */
        return r->avg_w / 1000 * plan_hours(r, live) * live->g_co2e_per_kwh / 1e6;
    default:
        return NAN;
    }
}

const plan_result *plan_result_at(const plan *sw, int c, int j)
{
    if (!sw->res || c < 0 || c >= sw->ncounts || j < 0 || j >= sw->p.npolicies)
        return NULL;
    return &sw->res[c * sw->p.npolicies + j];
}

int plan_meets_target(double sla_pct, double target_pct)
{
    return !isnan(sla_pct) && sla_pct <= target_pct + GP_ROUND_EPS;
}

/* The cheapest point meeting the target (grid). */
static int cheapest(const plan *sw, int j, const plan_params *live)
{
    int best = -1;
    double best_cost = HUGE_VAL;
    for (int c = 0; c < sw->ncounts; c++) {
        const plan_result *r = plan_result_at(sw, c, j);
        double cost = plan_value(sw, r, PM_COST, live);
        if (plan_meets_target(plan_value(sw, r, PM_SLA, live), live->sla_target_pct) &&
            cost < best_cost - GP_ROUND_EPS) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

int plan_best(const plan *sw, int j, const plan_params *live)
{
    if (sw->grid)
        return cheapest(sw, j, live);
    for (int c = 0; c < sw->ncounts; c++) {
        const plan_result *r = plan_result_at(sw, c, j);
        if (plan_meets_target(plan_value(sw, r, PM_SLA, live), live->sla_target_pct))
            return c;
    }
    return -1;
}

int plan_stable(const plan *sw, int j, const plan_params *live)
{
    if (sw->grid)
        return -1;
    int stable = -1;
    for (int c = sw->ncounts - 1; c >= 0; c--) {
        const plan_result *r = plan_result_at(sw, c, j);
        if (!plan_meets_target(plan_value(sw, r, PM_SLA, live), live->sla_target_pct))
            break;
        stable = c;
    }
    return stable;
}

int plan_nonmonotonic(const plan *sw, int j, const plan_params *live)
{
    return !sw->grid && plan_best(sw, j, live) != plan_stable(sw, j, live);
}

/* How well a point serves: SLA violations, then mean JCT (a point where
 * nothing ran has no JCT and serves worst). */
typedef struct service {
    double sla, jct;
} service;

static service service_of(const plan *sw, const plan_result *r, const plan_params *live)
{
    double jct = plan_value(sw, r, PM_JCT, live);
    return (service){plan_value(sw, r, PM_SLA, live), isnan(jct) ? HUGE_VAL : jct};
}

/* -1 when a serves better than b, 1 when worse, 0 when alike (within
 * rounding). */
static int cmp_service(service a, service b)
{
    if (fabs(a.sla - b.sla) > GP_ROUND_EPS)
        return a.sla < b.sla ? -1 : 1;
    if (a.jct == b.jct || fabs(a.jct - b.jct) <= GP_ROUND_EPS * (1 + fabs(b.jct)))
        return 0;
    return a.jct < b.jct ? -1 : 1;
}

int plan_on_frontier(const plan *sw, int c, int j, const plan_params *live)
{
    const plan_result *r = plan_result_at(sw, c, j);
    if (!r || !r->done)
        return 0;
    double cost = plan_value(sw, r, PM_COST, live);
    service sv = service_of(sw, r, live);
    for (int k = 0; k < sw->ncounts; k++) {
        const plan_result *o = plan_result_at(sw, k, j);
        if (k == c || !o->done)
            continue;
        double oc = plan_value(sw, o, PM_COST, live);
        int cmp = cmp_service(service_of(sw, o, live), sv);
        int cheaper = oc < cost - GP_ROUND_EPS, as_cheap = oc <= cost + GP_ROUND_EPS;
        if (as_cheap && cmp <= 0 && (cheaper || cmp < 0))
            return 0;
    }
    return 1;
}
