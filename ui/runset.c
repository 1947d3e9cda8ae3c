/*
 * runset.c — policies simulated side by side in lockstep (runset.h).
 * The TUI's only caller of sim_new/sim_step/sim_rewind; no curses here.
 */
#include "runset.h"
#include "runset_int.h"
#include "predict/gogh_load.h"
#include "plan/optimal.h"
#include "engine.h"
#include "core/runsum.h"

#include <stdlib.h>
#include <string.h>

void runset_init(runset *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->speed = 1;
    rs->power_model = -1;
}

static void slot_clear(rs_slot *s)
{
    if (s->sim)
        sim_free(s->sim);
    run_free(s->saved);
    memset(s, 0, sizeof *s);
    s->power_model = -1;
}

void runset_clear(runset *rs)
{
    for (int i = 0; i < rs->n; i++)
        slot_clear(&rs->slot[i]);
    trace_free(rs->tr);
    cluster_free(rs->cl);
    catalog_free(rs->cat);
    tput_catalog_free(rs->tp);
    gogh_nets_free(rs->nets);
    peace_loaded_free(&rs->peace);
    free(rs->pins);
    double speed = rs->speed;
    runset_init(rs);
    rs->speed = speed > 0 ? speed : 1;
}

double runset_trace_span(const gp_trace *tr)
{
    double last = 0, longest = 0;
    for (size_t i = 0; tr && i < tr->ntasks; i++) {
        if (tr->tasks[i].arrival_s > last)
            last = tr->tasks[i].arrival_s;
        if (tr->tasks[i].duration_s > longest)
            longest = tr->tasks[i].duration_s;
    }
    return last + longest;
}

/* "name[:value][@partition] [key=value ...] [predict=NAME]": the policy
 * spec syntax of the command line with per-option overrides after spaces,
 * and the slot's utilization predictor (util_predict.h). */
static int parse_label(const char *label, rs_slot *s, int capped, gp_err *err)
{
    char buf[256], name[GP_NAME_MAX];
    strlcpy0(buf, label, sizeof buf);
    char *save = NULL;
    char *tok = strtok_r(buf, " ", &save);
    if (!tok)
        return gp_error(err, "empty policy");
    if (peace_split_spec(tok, name, sizeof name, &s->part, err) ||
        policy_spec_parse(name, &s->spec, err))
        return -1;
    if (s->part && !capped)
        return gp_error(err, "'%s': a partition needs a GPU power cap (c in the setup)", tok);
    if (!s->part && capped)
        s->part = peace_policy_with_role(PEACE_ROLE_METHOD);
    while ((tok = strtok_r(NULL, " ", &save))) {
        if (strncmp(tok, "predict=", 8) == 0 ? upred_parse(tok + 8, &s->predict, err)
                                             : policy_spec_set(&s->spec, tok, err))
            return -1;
    }
    strlcpy0(s->spec.label, label, sizeof s->spec.label);
    return 0;
}

static int load_inputs(runset *rs, store *st, const char *trace, const char *cluster_nm,
                       gp_err *err)
{
    strlcpy0(rs->trace_name, trace, sizeof rs->trace_name);
    strlcpy0(rs->cluster_name, cluster_nm, sizeof rs->cluster_name);
    if (store_get_trace(st, trace, &rs->tr, err) ||
        store_get_cluster(st, cluster_nm, &rs->cl, err) || store_load_catalog(st, &rs->cat, err) ||
        store_find_tput_for(st, NULL, trace, &rs->tp, err) ||
        gogh_nets_find(st, NULL, rs->tp, &rs->nets, err))
        return -1;
    rs->t_end_hint = runset_trace_span(rs->tr);
    /* A run at the default speed takes about half a minute to watch. */
    rs->speed = rs->t_end_hint > 30 ? rs->t_end_hint / 30 : 1;
    return 0;
}

static int slot_start(runset *rs, rs_slot *s, uint64_t seed, gp_err *err)
{
    if (!s->spec.ops)
        return gp_error(err, "policy '%s' is not in this build", s->spec.label);
    sim_config cfg;
    sim_config_default(&cfg);
    if (seed)
        cfg.seed = seed;
    cfg.power_model = s->power_model;
    cfg.tput = rs->tp;
    cfg.nets = rs->nets;
    cfg.pins = rs->pins;
    cfg.predict = s->predict;
    cfg.explain_candidates = 1;     /* the Step screen lists them */
    cfg.caps = rs->caps;
    if (rs->peace.ix && s->part)
        cfg.peace = (sim_peace){.cap_w = power_caps_for(&rs->caps, rs->peace.set->gpu),
                                .ix = rs->peace.ix,
                                .models = rs->peace.has_models ? &rs->peace.models : NULL,
                                .partition = s->part};
    rs->cfg = cfg;
    s->stored_id = 0;
    s->sim = sim_new(&cfg, rs->cl, rs->cat, rs->tr, &s->spec, err);
    if (!s->sim)
        gp_error_prefix(err, "%s", s->spec.label);
    return s->sim ? 0 : -1;
}

/* The Optimal row when it is wanted (optimal.h); a few seconds at most,
 * and nothing when it cannot be proven or found in that time. */
#define RS_OPTIMAL_LIMIT_S 5

static void runset_optimal(runset *rs)
{
    policy_spec specs[RS_MAX];
    rs->has_opt = 0;
    for (int i = 0; i < rs->n; i++) {
        if (!rs->slot[i].spec.ops)
            return;
        specs[i] = rs->slot[i].spec;
    }
    gp_err ignore;
    if (power_caps_any(&rs->caps))
        return;                 /* CATS eq. 6-14 know no power cap */
    if (rs->n > 0 && optimal_row_wanted(&rs->cfg, rs->cl, rs->cat, rs->tr, specs,
                                            (size_t)rs->n))
        rs->has_opt = optimal_row_compute(&rs->cfg, rs->cl, rs->cat, rs->tr,
                                          RS_OPTIMAL_LIMIT_S, &rs->opt, &ignore) == 0;
}

/* PEACE's set measured on a capped GPU model of the cluster, and its
 * models when a slot's partition needs them; none is fine (the caps are
 * clock clamps) unless a label names its partition. */
static int load_peace(runset *rs, store *st, gp_err *err)
{
    int need = 0, named = 0;
    char model[GP_NAME_MAX];
    for (int i = 0; i < rs->n; i++) {
        need |= rs->slot[i].part && rs->slot[i].part->needs_models;
        named |= strchr(rs->slot[i].spec.label, '@') != NULL;
    }
    if (peace_capped_model(st, rs->cl, &rs->caps, model, sizeof model, err))
        return -1;
    if (!model[0])
        return named ? gp_error(err, "a partition needs a PEACE set measured on a capped "
                                "GPU model of the cluster") : 0;
    if (peace_load(st, NULL, model, need, "default", &rs->peace, err))
        return -1;
    const gpu_profile *g = catalog_gpu(rs->cat, rs->peace.set->gpu);
    return peace_check_cap(rs->peace.set, g ? g->idle_w : 0,
                           power_caps_for(&rs->caps, rs->peace.set->gpu), err);
}

int runset_start(runset *rs, store *st, const char *trace, const char *cluster_nm,
                 const char *const *labels, int n, const power_caps *caps, int model,
                 gp_err *err)
{
    runset_clear(rs);
    if (n < 1 || n > RS_MAX)
        return gp_error(err, "choose 1 to %d policies", RS_MAX);
    if (caps)
        rs->caps = *caps;
    int capped = power_caps_any(&rs->caps);
    rs->power_model = model;
    int rc = load_inputs(rs, st, trace, cluster_nm, err);
    for (int i = 0; i < n && !rc; i++) {
        rs->slot[rs->n].power_model = model;
        rc = parse_label(labels[i], &rs->slot[rs->n++], capped, err);
    }
    if (!rc && capped)
        rc = power_caps_check_models(&rs->caps, rs->cat, err);
    if (!rc && capped)
        rc = load_peace(rs, st, err);
    for (int i = 0; i < rs->n && !rc; i++)
        rc = slot_start(rs, &rs->slot[i], 0, err);
    if (rc)
        runset_clear(rs);
    else
        runset_optimal(rs);
    return rc;
}

/* The saved run's policy spec: its policy name and recorded options. */
/* The saved run's policy spec: its policy with the options it recorded
 * (key=value; the simulator's own settings among them are skipped, but
 * for the GPU cap and partition, which the set and the slot keep). */
static void saved_spec(runset *rs, const run *r, rs_slot *s)
{
    gp_err ignore;
    memset(&s->spec, 0, sizeof s->spec);
    if (policy_spec_parse(r->policy, &s->spec, &ignore))
        s->spec.ops = NULL;
    char *opts = xstrdup(r->options ? r->options : ""), *save = NULL;
    for (char *tok = strtok_r(opts, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (strncmp(tok, "gpu_cap=", 8) == 0)
            power_caps_parse(tok + 8, &rs->caps, &ignore);
        else if (strncmp(tok, "partition=", 10) == 0)
            s->part = peace_policy_find(tok + 10);
        else if (s->spec.ops)
            policy_spec_set(&s->spec, tok, &ignore);    /* not the policy's: skipped */
    }
    free(opts);
    strlcpy0(s->spec.label, r->name[0] ? r->name : r->policy, sizeof s->spec.label);
    /* Re-simulated, it is measured as it was saved. */
    s->power_model = power_model_parse(r->power_model);
}

/* An inflation experiment's run (sim/inflation.h): its timeline is sampled
 * by the share of the tasks arrived, not by simulated time. */
static int is_inflation_run(const run *r)
{
    return r->options && strstr(r->options, "inflation=") != NULL;
}

/* 1 when every saved run is an inflation run; -1 when they are mixed. */
static int saved_by_arrival(const runset *rs)
{
    int infl = 0;
    for (int i = 0; i < rs->n; i++)
        infl += rs->slot[i].saved && is_inflation_run(rs->slot[i].saved);
    return infl == 0 ? 0 : infl == rs->n ? 1 : -1;
}

int runset_open_saved(runset *rs, store *st, const int64_t *ids, int n, gp_err *err)
{
    runset_clear(rs);
    if (n < 1 || n > RS_MAX)
        return gp_error(err, "choose 1 to %d runs", RS_MAX);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        rs_slot *s = &rs->slot[rs->n++];
        rc = store_get_run(st, ids[i], &s->saved, err);
        if (rc)
            break;
        if (i > 0 && (strcmp(s->saved->trace_name, rs->slot[0].saved->trace_name) ||
                      strcmp(s->saved->cluster_name, rs->slot[0].saved->cluster_name)))
            rc = gp_error(err, "runs #%lld and #%lld were made on different traces or "
                          "clusters", (long long)rs->slot[0].saved->id, (long long)ids[i]);
        else
            saved_spec(rs, s->saved, s);
    }
    if (!rc && (rs->by_arrival = saved_by_arrival(rs)) < 0)
        rc = gp_error(err, "inflation runs (by tasks arrived) and timed runs cannot share "
                      "the charts' axis: open them apart");
    if (!rc)
        rc = load_inputs(rs, st, rs->slot[0].saved->trace_name,
                         rs->slot[0].saved->cluster_name, err);
    if (!rc && power_caps_any(&rs->caps)) {
        gp_err later;       /* without PEACE's inputs the runs show, only restart fails */
        if (load_peace(rs, st, &later))
            memset(&rs->caps, 0, sizeof rs->caps);
    }
    if (rc) {
        runset_clear(rs);
        return -1;
    }
    for (int i = 0; i < rs->n; i++)
        if (runset_time(rs, i) > rs->t)
            rs->t = runset_time(rs, i);
    if (rs->by_arrival) {
        rs->t_end_hint = rs->t;     /* the axis ends at the last % arrived */
        return 0;                   /* no Optimal row: it is an optimum over time */
    }
    runset_optimal(rs);
    return 0;
}

int runset_restart(runset *rs, store *st, gp_err *err)
{
    (void)st;
    if (rs->n == 0)
        return gp_error(err, "nothing to restart: choose a trace, a cluster and policies");
    for (int i = 0; i < rs->n; i++) {
        rs_slot *s = &rs->slot[i];
        uint64_t seed = s->saved ? s->saved->seed : rs->cfg.seed;
        if (s->sim) {
            sim_free(s->sim);
            s->sim = NULL;
        }
        if (slot_start(rs, s, seed, err))
            return -1;
        run_free(s->saved);
        s->saved = NULL;
    }
    /* Re-simulated, an inflation run's policy plays in time like any. */
    if (rs->by_arrival) {
        rs->by_arrival = 0;
        rs->t_end_hint = runset_trace_span(rs->tr);
    }
    rs->t = 0;
    rs->playing = 0;
    return 0;
}

int runset_live(const runset *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].sim)
            return 1;
    return 0;
}

int runset_done(const runset *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].sim && !sim_done(rs->slot[i].sim))
            return 0;
    return 1;
}

const run *runset_record(const runset *rs, int i)
{
    if (i < 0 || i >= rs->n)
        return NULL;
    const rs_slot *s = &rs->slot[i];
    return s->sim ? sim_run_record(s->sim) : s->saved;
}

sim *runset_focus_sim(const runset *rs)
{
    if (rs->focus < 0 || rs->focus >= rs->n)
        return NULL;
    return rs->slot[rs->focus].sim;
}

size_t runset_decisions(const runset *rs, int i)
{
    if (i < 0 || i >= rs->n)
        return 0;
    if (rs->slot[i].sim)
        return sim_decisions(rs->slot[i].sim);
    const run *r = rs->slot[i].saved;
    return r ? r->ndecisions : 0;
}

/* The time of a record's last sample (a finished run's end). */
static double last_sample(const run *r)
{
    return r && r->npoints ? r->points[r->npoints - 1].t_s : 0;
}

double runset_time(const runset *rs, int i)
{
    if (i < 0 || i >= rs->n)
        return 0;
    const sim *s = rs->slot[i].sim;
    if (!s)
        return last_sample(rs->slot[i].saved);
    /* A finished run's clock stops at its end, however far playback went. */
    if (sim_done(s) && run_is_final(sim_run_record(s)))
        return last_sample(sim_run_record(s));
    return sim_now(s);
}

/* Every sim that has finished gets its summary metrics, the figures
 * `gpuplan run` prints for it, the placement's GPUs with DFS off included
 * (sim_finish_placement: a DFS run's twin is simulated once more); a
 * rewind clears them again.  A twin that fails leaves place_gpus unset,
 * shown as "-". */
static void finish_done(runset *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].sim && sim_done(rs->slot[i].sim)) {
            gp_err err;
            (void)sim_finish_placement(rs->slot[i].sim, &err);
        }
}

/* The latest time any live sim has reached. */
static double max_sim_time(const runset *rs)
{
    double t = 0;
    for (int i = 0; i < rs->n; i++)
        if (runset_time(rs, i) > t)
            t = runset_time(rs, i);
    return t;
}

/* Wall time a frame of playback may spend simulating, and the decisions
 * between looks at the clock. */
#define RS_TICK_BUDGET_S 0.05
#define RS_TICK_DECISIONS 8

/* Brings a sim towards t within budget_s of wall time from t0; 1 when it
 * got there. */
static int advance_within(sim *s, double t, double t0, double budget_s)
{
    while (!sim_done(s)) {
        if (sim_advance_bounded(s, t, RS_TICK_DECISIONS))
            return 1;
        if (now_seconds() - t0 >= budget_s)
            return 0;
    }
    return 1;
}

int runset_tick(runset *rs, double wall_dt)
{
    if (!rs->playing || !runset_live(rs))
        return 0;
    double target = rs->t + wall_dt * rs->speed, behind = -1;
    int going = 0;
    for (int i = 0; i < rs->n; i++)
        going += rs->slot[i].sim && !sim_done(rs->slot[i].sim);
    for (int i = 0; i < rs->n; i++) {
        sim *s = rs->slot[i].sim;
        if (!s || sim_done(s))
            continue;
        double share = RS_TICK_BUDGET_S / (going ? going : 1);
        if (!advance_within(s, target, now_seconds(), share) &&
            (behind < 0 || sim_now(s) < behind))
            behind = sim_now(s);
    }
    finish_done(rs);
    /* When the machine cannot simulate as fast as the speed asks, the
     * clock waits for the slowest run instead of the frame waiting. */
    rs->t = behind >= 0 && behind < target ? behind : target;
    if (runset_done(rs)) {
        rs->playing = 0;
        rs->t = max_sim_time(rs);
    }
    return 1;
}

/* Decisions of r made at or before t. */
static size_t decisions_until(const run *r, double t)
{
    size_t k = 0;
    while (k < r->ndecisions && r->decisions[k].t_s <= t)
        k++;
    return k;
}

static sim *focus_live(runset *rs, gp_err *err)
{
    sim *f = runset_focus_sim(rs);
    if (!f)
        gp_error(err, rs->n ? "a saved run: press r to re-simulate it for stepping"
                            : "no comparison running: choose policies and press Enter");
    return f;
}

int runset_goto(runset *rs, size_t k, gp_err *err)
{
    if (runset_seek_begin(rs, k, 0, err))
        return -1;
    while (!runset_seek_slice(rs, 1.0))
        ;
    return 0;
}

int runset_seek_begin(runset *rs, size_t k, int rewind, gp_err *err)
{
    sim *f = focus_live(rs, err);
    if (!f)
        return -1;
    rs->playing = 0;
    if ((k < sim_decisions(f) || rewind) && sim_rewind(f, k, err))
        return -1;
    rs->seeking = 1;
    rs->seek_target = k;
    rs->seek_from = sim_decisions(f);
    return 0;
}

int runset_seek_next(runset *rs, gp_err *err)
{
    sim *f = focus_live(rs, err);
    if (!f)
        return -1;
    rs->playing = 0;
    if (!sim_step(f))
        return gp_error(err, "%s: no more placements (the run is over)",
                        rs->slot[rs->focus].spec.label);
    return runset_seek_begin(rs, sim_decisions(f), 0, err);
}

/* Brings sim s towards simulated time t until the wall clock reaches
 * deadline, a few decisions at a time (one instant can hold thousands of
 * arrivals); back first when may_rewind and it is past t.  1 once there:
 * every event at t processed too, as sim_advance_until does (at t = 0
 * the others place their first arrivals when the focused one does). */
static int follow_slice(sim *s, double t, double deadline, int may_rewind)
{
    if (may_rewind && sim_now(s) > t) {
        gp_err ignore;
        sim_rewind(s, decisions_until(sim_run_record(s), t), &ignore);
    }
    for (;;) {
        if (sim_done(s) || sim_advance_bounded(s, t, 16))
            return 1;
        if (now_seconds() >= deadline)
            return 0;
    }
}

int runset_seek_slice(runset *rs, double budget_s)
{
    sim *f = runset_focus_sim(rs);
    if (!rs->seeking || !f) {
        rs->seeking = 0;
        return 1;
    }
    double t0 = now_seconds();
    /* The focused run takes half the slice, the others the rest: they keep
     * up with it, and a stop leaves them near its time. */
    while (sim_decisions(f) < rs->seek_target && now_seconds() - t0 < budget_s / 2 &&
           sim_step(f))
        ;
    int reached = sim_decisions(f) >= rs->seek_target || sim_done(f);
    double t = sim_now(f);
    int behind = 0;
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].sim && i != rs->focus)
            behind += !follow_slice(rs->slot[i].sim, t, t0 + budget_s, reached);
    finish_done(rs);
    rs->t = t;
    if (!reached || behind)
        return 0;
    rs->seeking = 0;
    return 1;
}

double runset_seek_progress(const runset *rs)
{
    const sim *f = runset_focus_sim(rs);
    if (!rs->seeking || !f)
        return 1;
    size_t d = sim_decisions(f);
    double span = (double)rs->seek_target - (double)rs->seek_from;
    double pf = span > 0 ? ((double)d - (double)rs->seek_from) / span : 1;
    double t = sim_now(f), po = 0;
    int n = 0;
    for (int i = 0; i < rs->n; i++) {
        const sim *s = rs->slot[i].sim;
        if (!s || i == rs->focus)
            continue;
        n++;
        po += t > 0 && sim_now(s) < t ? sim_now(s) / t : 1;
    }
    return n ? (pf + po / n) / 2 : pf;
}

void runset_seek_stop(runset *rs)
{
    rs->seeking = 0;
    finish_done(rs);
    sim *f = runset_focus_sim(rs);
    if (f)
        rs->t = sim_now(f);
}

int runset_settle(runset *rs, gp_err *err)
{
    sim *f = runset_focus_sim(rs);
    /* A finished run stays finished: viewing must not undo "run to end". */
    if (!f || rs->playing || sim_done(f))
        return 0;
    const run *r = sim_run_record(f);
    size_t k = sim_decisions(f);
    if (k == 0 || k > r->ndecisions || sim_now(f) <= r->decisions[k - 1].t_s)
        return 0;
    return runset_seek_begin(rs, k, 1, err) ? -1 : 1;
}

void runset_finish_all(runset *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].sim)
            sim_run(rs->slot[i].sim, NULL);
    finish_done(rs);
    rs->playing = 0;
    rs->t = max_sim_time(rs);
}

/* Advances one sim for about budget_s of wall time from t0, a placement
 * decision at a time: a stretch of simulated time can hold thousands of
 * arrivals (openb's first instant does), a decision is one policy call. */
static void slice_one(sim *s, double t0, double budget_s)
{
    while (now_seconds() - t0 < budget_s && sim_step(s))
        ;
}

int runset_finish_slice(runset *rs, double budget_s)
{
    rs->playing = 0;
    int going = 0;
    for (int i = 0; i < rs->n; i++)
        going += rs->slot[i].sim && !sim_done(rs->slot[i].sim);
    /* Every run still going gets its share of the frame, so all advance. */
    for (int i = 0; i < rs->n && going; i++)
        if (rs->slot[i].sim && !sim_done(rs->slot[i].sim))
            slice_one(rs->slot[i].sim, now_seconds(), budget_s / going);
    finish_done(rs);
    if (runset_done(rs)) {
        rs->t = max_sim_time(rs);
        return 1;
    }
    /* The header's clock: the earliest among the runs still going. */
    double t = -1;
    for (int i = 0; i < rs->n; i++) {
        const sim *s = rs->slot[i].sim;
        if (s && !sim_done(s) && (t < 0 || sim_now(s) < t))
            t = sim_now(s);
    }
    rs->t = t;
    return 0;
}

double runset_progress(const runset *rs)
{
    double sum = 0;
    int n = 0;
    size_t tasks = rs->tr ? rs->tr->ntasks : 0;
    for (int i = 0; i < rs->n; i++) {
        const sim *s = rs->slot[i].sim;
        if (!s)
            continue;
        n++;
        /* Decisions, not simulated time: the work is in the placements,
         * and a trace's arrivals bunch up. */
        double f = tasks ? (double)sim_decisions(s) / (double)tasks : 1;
        sum += sim_done(s) ? 1 : f < 0.99 ? f : 0.99;
    }
    return n ? sum / n : 1;
}

int runset_mixed_power(const runset *rs)
{
    const char *first = NULL;
    for (int i = 0; i < rs->n; i++) {
        const run *r = runset_record(rs, i);
        if (!r)
            continue;
        if (first && strcmp(first, r->power_model) != 0)
            return 1;
        first = r->power_model;
    }
    return 0;
}

/* A deep copy of a run record, so a live sim's record can be saved (the
 * store sets id and created on what it saves) while the sim goes on. */
static run *run_copy(const run *src)
{
    run *r = run_new(src->policy);
    strlcpy0(r->name, src->name, sizeof r->name);
    r->options = src->options ? xstrdup(src->options) : NULL;
    strlcpy0(r->trace_name, src->trace_name, sizeof r->trace_name);
    strlcpy0(r->cluster_name, src->cluster_name, sizeof r->cluster_name);
    r->seed = src->seed;
    strlcpy0(r->engine_version, src->engine_version, sizeof r->engine_version);
    strlcpy0(r->power_model, src->power_model, sizeof r->power_model);
    for (size_t i = 0; i < src->npoints; i++)
        run_add_point(r, &src->points[i]);
    for (size_t i = 0; i < src->noutcomes; i++)
        run_add_outcome(r, &src->outcomes[i]);
    for (size_t i = 0; i < src->ndecisions; i++)
        run_add_decision(r, &src->decisions[i]);
    for (size_t i = 0; i < src->nmetrics; i++)
        run_set_metric(r, src->metrics[i].key, src->metrics[i].value);
    return r;
}

/* The error of a save with nothing new: which saved runs hold them. */
static int already_saved(const runset *rs, gp_err *err)
{
    char ids[128] = "";
    for (int i = 0; i < rs->n; i++)
        if (rs->slot[i].stored_id) {
            size_t l = strlen(ids);
            snprintf(ids + l, sizeof ids - l, "%s#%lld", l ? ", " : "",
                     (long long)rs->slot[i].stored_id);
        }
    return gp_error(err, "already saved (runs %s); r restarts them", ids);
}

int runset_unsaved(const runset *rs)
{
    int n = 0;
    for (int i = 0; i < rs->n; i++)
        n += rs->slot[i].sim && !rs->slot[i].stored_id && runset_decisions(rs, i) > 0;
    return n;
}

int runset_save(runset *rs, store *st, int *saved, gp_err *err)
{
    *saved = 0;
    if (!runset_live(rs))
        return gp_error(err, "nothing to save: no live runs");
    /* A run record names its trace and cluster, not the tasks a snapshot
     * had in place: saved, it would replay later as a plain run of the
     * snapshot's tasks, all arriving at t = 0. */
    if (rs->pins)
        return gp_error(err, "runs from a snapshot are not saved: they would replay without "
                        "its tasks in place");
    if (!runset_done(rs))
        return gp_error(err, "the runs are not finished: play them to the end (End) first");
    for (int i = 0; i < rs->n; i++) {
        sim *s = rs->slot[i].sim;
        if (!s || rs->slot[i].stored_id)
            continue;
        if (sim_finish_placement(s, err))
            return -1;
        run *r = run_copy(sim_run_record(s));
        if (!r->trace_name[0])
            strlcpy0(r->trace_name, rs->trace_name, sizeof r->trace_name);
        if (!r->cluster_name[0])
            strlcpy0(r->cluster_name, rs->cluster_name, sizeof r->cluster_name);
        if (!r->options) {
            char opts[256];
            policy_spec_format(&rs->slot[i].spec, opts, sizeof opts);
            r->options = xstrdup(opts);
        }
        int rc = store_put_run(st, r, err);
        rs->slot[i].stored_id = rc ? 0 : r->id;
        run_free(r);
        if (rc)
            return -1;
        (*saved)++;
    }
    if (*saved == 0)
        return already_saved(rs, err);
    return 0;
}
