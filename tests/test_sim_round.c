/*
 * test_sim_round.c — the allocation family's rounds in the simulator
 * (sim_round.c), hand-worked: arrivals wait for the next round, a freed
 * GPU waits for the round after the completion, a task moved every round
 * loses restart_s each time, measurements reach the policy once per
 * (accelerator, partner), a task nothing ever places fails, two tasks at
 * most share a GPU, and a rewound run repeats itself.  The test policies
 * are policy_ops written here, so each case isolates one rule.
 */
#include "testutil.h"

#include "sim/sim.h"

typedef tu_world world;

/* One server of n V100M16 GPUs; a table with job A (batch 32) at 10 it/s
 * alone on a V100. */
static void world_init(world *w, int ngpus)
{
    tu_world_init(w);
    tu_add_node(w->cl, "srv", "V100M16", ngpus);
    static const tu_tput_row rows[] = {{"v100", "A", 32, "", 0, 10, 0}};
    tu_add_tput(w->tp, rows, 1);
}

static void add_task(world *w, const char *model, double arrival, double dur, double mem)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", w->tr->ntasks);
    snprintf(tk.model, sizeof tk.model, "%s", model);
    tk.batch_size = 32;
    tk.arrival_s = arrival;
    tk.duration_s = dur;
    tk.gpu_mem_gib = mem;
    trace_add_task(w->tr, &tk);
    task_release(&tk);
}

/* ---- test policies ---------------------------------------------------------------- */

static const policy_option round_opts[] = {
    {"round", OPT_ROUND_S, 360, 1, 1e6, "round"},
    {"restart", OPT_RESTART_S, 60, 0, 1e6, "restart"},
    {NULL, 0, 0, 0, 0, NULL},
};

/* Every job on GPU (round % 2): a move every round. */
static int mover(const alloc_ctx *ctx, const double *params, alloc_out *out, gp_err *err)
{
    (void)params;
    (void)err;
    for (size_t i = 0; i < ctx->njobs; i++) {
        out->pl[i].node = 0;
        out->pl[i].ngpus = 1;
        out->pl[i].gpus[0] = ctx->round % 2;
    }
    return 0;
}

/* Places nothing, ever. */
static int never(const alloc_ctx *ctx, const double *params, alloc_out *out, gp_err *err)
{
    (void)ctx;
    (void)params;
    (void)out;
    (void)err;
    return 0;
}

/* Every job on GPU 0, whatever fits: the contract has to refuse a third. */
static int crowd(const alloc_ctx *ctx, const double *params, alloc_out *out, gp_err *err)
{
    (void)params;
    (void)err;
    for (size_t i = 0; i < ctx->njobs; i++) {
        out->pl[i].node = 0;
        out->pl[i].ngpus = 1;
        out->pl[i].gpus[0] = 0;
    }
    return 0;
}

/* What the measuring policy saw: observations per round. */
static size_t seen_obs[16];
static double seen_tput;

/* Keeps every job on GPU 0 and records the measurements it is given. */
static int watcher(const alloc_ctx *ctx, const double *params, alloc_out *out, gp_err *err)
{
    if (ctx->round < 16)
        seen_obs[ctx->round] = ctx->nobs;
    if (ctx->nobs)
        seen_tput = ctx->obs[0].tput;
    return crowd(ctx, params, out, err);
}

static policy_ops test_ops(const char *name,
                           int (*fn)(const alloc_ctx *, const double *, alloc_out *, gp_err *))
{
    policy_ops o;
    memset(&o, 0, sizeof o);
    o.name = name;
    o.title = name;
    o.family = FAMILY_ALLOCATION;
    o.power = POWER_CATS;
    o.options = round_opts;
    o.allocate = fn;
    return o;
}

static sim *sim_with(world *w, const policy_ops *ops)
{
    policy_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.ops = ops;
    sp.params[0] = 360;
    sp.params[1] = 60;
    strcpy(sp.label, ops->name);
    sim_config c;
    sim_config_default(&c);
    c.tput = w->tp;
    gp_err err = {{0}};
    sim *s = sim_new(&c, w->cl, w->cat, w->tr, &sp, &err);
    if (!s)
        fail_msg("sim_new: %s", err.msg);
    return s;
}

static run *run_all(sim *s)
{
    sim_run(s, NULL);
    sim_finish(s);
    return sim_take_run(s);
}

/* ---- cases ------------------------------------------------------------------------- */

/* Blind on one GPU, tasks of 10 GiB (no pair fits 16): t0 starts at the
 * round at 0; t1 arrives at 100 and waits; t0 ends at 500; the round at
 * 720 starts t1, which ends at 1220. */
static void test_waits_for_rounds(void **state)
{
    (void)state;
    world w;
    world_init(&w, 1);
    add_task(&w, "", 0, 500, 10);
    add_task(&w, "", 100, 500, 10);
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("blind", &sp, &err), 0);
    sim_config c;
    sim_config_default(&c);
    sim *s = sim_new(&c, w.cl, w.cat, w.tr, &sp, &err);
    assert_non_null(s);
    run *r = run_all(s);
    assert_double_equal(tu_outcome(r, 0)->end_s, 500, 1e-9);
    assert_double_equal(tu_outcome(r, 1)->start_s, 720, 1e-9);
    assert_double_equal(tu_outcome(r, 1)->end_s, 1220, 1e-9);
    assert_double_equal(tu_outcome(r, 1)->wait_s, 620, 1e-9);
    run_free(r);
    sim_free(s);
    tu_world_free(&w);
}

/* One 1000 s task moved at every round (360 s apart), 60 s to restart:
 * 360 done by the move at 360, resumes at 420; 660 by 720, resumes at
 * 780; 960 by 1080, resumes at 1140 and ends at 1180. */
static void test_moves_cost_restart(void **state)
{
    (void)state;
    world w;
    world_init(&w, 2);
    add_task(&w, "", 0, 1000, 4);
    policy_ops ops = test_ops("mover", mover);
    sim *s = sim_with(&w, &ops);
    run *r = run_all(s);
    assert_double_equal(tu_outcome(r, 0)->end_s, 1180, 1e-9);
    assert_double_equal(tu_outcome(r, 0)->start_s, 0, 1e-9);
    assert_double_equal(run_metric_get(r, "moves", -1), 3, 0);
    assert_int_equal(r->ndecisions, 4);       /* the start and three moves */
    assert_non_null(strstr(r->decisions[1].reason, "round 2"));
    run_free(r);
    sim_free(s);
    tu_world_free(&w);
}

/* A task no round places fails once nothing runs or arrives. */
static void test_never_placed_fails(void **state)
{
    (void)state;
    world w;
    world_init(&w, 1);
    add_task(&w, "", 0, 100, 4);
    policy_ops ops = test_ops("never", never);
    sim *s = sim_with(&w, &ops);
    run *r = run_all(s);
    assert_double_equal(run_metric_get(r, "failed_tasks", -1), 1, 0);
    assert_non_null(strstr(r->decisions[0].reason, "never placed"));
    run_free(r);
    sim_free(s);
    tu_world_free(&w);
}

/* Three tasks asked onto one GPU: two run, the third waits with the
 * contract's reason, and runs after a completion. */
static void test_two_per_gpu(void **state)
{
    (void)state;
    world w;
    world_init(&w, 1);
    add_task(&w, "", 0, 100, 2);
    add_task(&w, "", 0, 100, 2);
    add_task(&w, "", 0, 100, 2);
    policy_ops ops = test_ops("crowd", crowd);
    sim *s = sim_with(&w, &ops);
    run *r = run_all(s);
    assert_non_null(strstr(r->decisions[2].reason, "already runs two tasks"));
    assert_double_equal(tu_outcome(r, 2)->start_s, 360, 1e-9);
    assert_double_equal(run_metric_get(r, "failed_tasks", -1), 0, 0);
    run_free(r);
    sim_free(s);
    tu_world_free(&w);
}

/* A typed task alone on a V100: the round after its start measures it at
 * the table's 10 it/s; later rounds add nothing new. */
static void test_measurements(void **state)
{
    (void)state;
    world w;
    world_init(&w, 1);
    add_task(&w, "A", 0, 2000, 2);
    add_task(&w, "", 1000, 100, 2);           /* a later arrival: one more round */
    memset(seen_obs, 0, sizeof seen_obs);
    policy_ops ops = test_ops("watcher", watcher);
    sim *s = sim_with(&w, &ops);
    run *r = run_all(s);
    assert_int_equal(seen_obs[1], 0);
    assert_int_equal(seen_obs[2], 1);
    assert_int_equal(seen_obs[3], 1);         /* measured again, nothing new */
    assert_double_equal(seen_tput, 10, 1e-9);
    run_free(r);
    sim_free(s);
    tu_world_free(&w);
}

/* Rewinding into a run of rounds and replaying gives the same decisions
 * and metrics. */
static void test_rewind_replays(void **state)
{
    (void)state;
    world w;
    world_init(&w, 2);
    for (int i = 0; i < 12; i++)
        add_task(&w, i % 2 ? "A" : "", 200.0 * i, 700 + 90 * i, 4);
    policy_ops ops = test_ops("mover", mover);
    sim *s = sim_with(&w, &ops);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    size_t nd = r->ndecisions;
    char *last = xstrdup(r->decisions[nd - 1].reason);
    double jct = run_metric_get(r, "jct_mean_s", -1);
    gp_err err = {{0}};
    assert_int_equal(sim_rewind(s, nd / 2, &err), 0);
    sim_run(s, NULL);
    sim_finish(s);
    r = sim_run_record(s);
    assert_int_equal(r->ndecisions, nd);
    assert_string_equal(r->decisions[nd - 1].reason, last);
    assert_double_equal(run_metric_get(r, "jct_mean_s", -1), jct, 0);
    free(last);
    sim_free(s);
    tu_world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waits_for_rounds),
        cmocka_unit_test(test_moves_cost_restart),
        cmocka_unit_test(test_never_placed_fails),
        cmocka_unit_test(test_two_per_gpu),
        cmocka_unit_test(test_measurements),
        cmocka_unit_test(test_rewind_replays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
