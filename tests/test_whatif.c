/*
 * test_whatif.c — what-ifs from a snapshot (sim/whatif.h) and the
 * simulator's pinned start: tasks in place start at t = 0 on the devices
 * the snapshot names, whatever the policy would have chosen, and the
 * arrivals are placed around them; --remaining converted by the GPU's
 * speed; the state the snapshot stands for (busy GPUs, idle share, FGD
 * fragmentation); the planner's grown cluster; pins that name what the
 * cluster lacks refused.
 */
#include "testutil.h"

#include "sim/sim.h"
#include "sim/whatif.h"

/* Two V100 servers of 2 GPUs; on the snapshot, a whole-GPU task on s1/g1
 * (where first-fit would never put it first) and a half-GPU task on s0/g1;
 * one 2-GPU task arrives at t = 10. */
typedef struct fixture {
    tu_world w;
    snapshot *sn;
    gp_trace *arrivals;
} fixture;

static void fixture_init(fixture *f)
{
    tu_world_init(&f->w);
    tu_add_node(f->w.cl, "s0", "V100", 2);
    tu_add_node(f->w.cl, "s1", "V100", 2);
    f->sn = snapshot_new("now");
    strlcpy0(f->sn->cluster_name, "c", sizeof f->sn->cluster_name);
    task tk;
    task_init(&tk);
    strlcpy0(tk.name, "whole", sizeof tk.name);
    tk.duration_s = 100;
    trace_add_task(f->sn->tasks, &tk);
    strlcpy0(tk.name, "half", sizeof tk.name);
    tk.gpu_milli = 500;
    tk.duration_s = 50;
    trace_add_task(f->sn->tasks, &tk);
    placement_row r0 = {0, 1, 1, 1000}, r1 = {1, 0, 1, 500};
    snapshot_add_row(f->sn, &r0);
    snapshot_add_row(f->sn, &r1);
    f->arrivals = trace_new("next");
    task_init(&tk);
    strlcpy0(tk.name, "pair", sizeof tk.name);
    tk.num_gpu = 2;
    tk.arrival_s = 10;
    tk.duration_s = 30;
    trace_add_task(f->arrivals, &tk);
}

static void fixture_free(fixture *f)
{
    snapshot_free(f->sn);
    trace_free(f->arrivals);
    tu_world_free(&f->w);
}

static void test_build(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    whatif w;
    whatif_opts o = {.more = 3, .more_gap_s = 5};
    gp_err err = {{0}};
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, f.arrivals, &o, &w, &err), 0);
    assert_string_equal(w.tr->name, "now+next");
    assert_int_equal(w.nplaced, 2);
    assert_int_equal(w.tr->ntasks, 2 + 3 + 1);
    assert_int_equal(w.pins[0].node, 1);
    assert_int_equal(w.pins[0].ngpus, 1);
    assert_int_equal(w.pins[0].dev[0], 1);
    assert_int_equal(w.pins[1].node, 0);
    /* N more like the snapshot's, in turn, every more_gap_s */
    assert_string_equal(w.tr->tasks[2].name, "whole+1");
    assert_string_equal(w.tr->tasks[3].name, "half+2");
    assert_string_equal(w.tr->tasks[4].name, "whole+3");
    assert_double_equal(w.tr->tasks[4].arrival_s, 10, 0);
    assert_int_equal(w.pins[4].node, -1);
    assert_string_equal(w.tr->tasks[5].name, "pair");
    assert_double_equal(w.tr->tasks[5].arrival_s, 10, 0);
    whatif_free(&w);
    /* many more: the trace grows while its own tasks are copied (the
     * sanitizer build caught a copy from the array being moved) */
    o.more = 200;
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, NULL, &o, &w, &err), 0);
    assert_int_equal(w.tr->ntasks, 202);
    assert_string_equal(w.tr->tasks[201].name, "half+200");
    assert_int_equal(w.tr->tasks[201].gpu_milli, 500);
    whatif_free(&w);
    fixture_free(&f);
}

/* The pinned tasks start where the snapshot has them; the arriving pair
 * needs two free GPUs of one server, which neither has at t = 10, so it
 * waits for the first to free up: s0 when "half" ends at t = 50. */
static void test_pinned_start(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    whatif w;
    whatif_opts o = {0};
    gp_err err = {{0}};
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, f.arrivals, &o, &w, &err), 0);
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.pins = w.pins;
    cfg.sleep = 0;
    cfg.dfs = 0;
    policy_spec sp;
    assert_int_equal(policy_spec_parse("first", &sp, &err), 0);
    sim *s = sim_new(&cfg, f.w.cl, f.w.cat, w.tr, &sp, &err);
    if (!s)
        fail_msg("%s", err.msg);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    const run_outcome *whole = tu_outcome(r, 0), *half = tu_outcome(r, 1);
    const run_outcome *pair = tu_outcome(r, 2);
    assert_double_equal(whole->start_s, 0, 0);
    assert_int_equal(whole->node, 1);
    assert_string_equal(whole->gpus, "1");
    assert_int_equal(half->node, 0);
    assert_string_equal(half->gpus, "1");
    assert_double_equal(whole->end_s, 100, 1e-6);
    /* s0 holds "half" on g1 until 50: the pair gets s0 at 50 */
    assert_double_equal(pair->start_s, 50, 1e-6);
    assert_int_equal(pair->node, 0);
    tu_assert_contains(r->decisions[0].reason, "in place at the start");
    sim_free(s);
    whatif_free(&w);
    fixture_free(&f);
}

static void test_remaining_by_speed(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    /* s1 becomes an H100 (speed 4) in a cluster of mixed speeds: the
     * reference is a V100's (1), so 60 s left on it are 240 V100 s */
    strlcpy0(f.w.cl->nodes[1].gpu_model, "H100", sizeof f.w.cl->nodes[1].gpu_model);
    whatif w;
    whatif_opts o = {.remaining_s = 60};
    gp_err err = {{0}};
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, NULL, &o, &w, &err), 0);
    assert_double_equal(w.tr->tasks[0].duration_s, 240, 1e-9);
    assert_double_equal(w.tr->tasks[1].duration_s, 60, 1e-9);
    assert_double_equal(whatif_ref_speed(&o, f.w.cl, f.w.cat), 1, 0);
    whatif_free(&w);
    /* a stated reference speed (run's --ref-speed) is the one used */
    o.ref_speed = 2;
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, NULL, &o, &w, &err), 0);
    assert_double_equal(w.tr->tasks[0].duration_s, 120, 1e-9);
    whatif_free(&w);
    fixture_free(&f);
}

static void test_look_and_plus(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    whatif w;
    whatif_opts o = {0};
    gp_err err = {{0}};
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, f.arrivals, &o, &w, &err), 0);
    whatif_look lk;
    assert_int_equal(whatif_look_at(&w, f.w.cl, f.w.cat, &lk, &err), 0);
    assert_int_equal(lk.gpus, 4);
    assert_int_equal(lk.busy_gpus, 2);
    assert_int_equal(lk.idle_milli, 2500);
    assert_true(lk.frag_milli >= 0 && lk.frag_milli <= lk.idle_milli);
    cluster *extra = cluster_new("planner");
    tu_add_node(extra, "s0", "H100", 8);
    cluster *grown = whatif_cluster_plus(f.w.cl, extra);
    assert_int_equal(grown->nnodes, 3);
    assert_string_equal(grown->nodes[2].name, "new-s0");
    assert_int_equal(cluster_gpu_total(grown), 12);
    cluster_free(grown);
    cluster_free(extra);
    whatif_free(&w);
    fixture_free(&f);
}

static void test_bad_pins(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    gp_err err = {{0}};
    whatif w;
    whatif_opts o = {0};
    f.sn->rows[0].node = 7;
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, NULL, &o, &w, &err), -1);
    tu_assert_contains(err.msg, "snapshot now: task whole is on node 7, which cluster c lacks");
    f.sn->rows[0].node = 1;
    assert_int_equal(whatif_build(f.sn, f.w.cl, f.w.cat, NULL, &o, &w, &err), 0);
    w.pins[0].dev[0] = 5;               /* past the node's 2 GPUs */
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.pins = w.pins;
    policy_spec sp;
    assert_int_equal(policy_spec_parse("first", &sp, &err), 0);
    assert_null(sim_new(&cfg, f.w.cl, f.w.cat, w.tr, &sp, &err));
    tu_assert_contains(err.msg, "task whole starts on GPU 5 of s1, which has 2");
    whatif_free(&w);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build),
        cmocka_unit_test(test_pinned_start),
        cmocka_unit_test(test_remaining_by_speed),
        cmocka_unit_test(test_look_and_plus),
        cmocka_unit_test(test_bad_pins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
