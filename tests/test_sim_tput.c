/*
 * test_sim_tput.c — the simulator on heterogeneous GPUs (sim_tput.c),
 * hand-worked: a typed task timed by its measured throughput on a K80, a
 * measured pair on one V100 (each job its own half, the same-type pair
 * included), a typed task past the table's pairs sharing by demand, an
 * untyped task at its GPU's relative speed on a mixed cluster, speeds
 * that stay absolute on a homogeneous cluster, an explicit reference,
 * Amdahl's law for two tasks on a V100 and on an A100, and the count of
 * job types the table lacks.  Layer: sim.
 */
#include "testutil.h"

#include "sim/sim.h"

typedef tu_world world;

/* tu_world (a K80 of speed 0.3, class k80); the table: job A
 * (batch 32) 10 it/s alone on a V100, 2.5 on a K80; B (batch 64) 8 on a
 * V100; A next to B on a V100 6 and 4; A next to A 7 and 5. */
static void world_init(world *w)
{
    tu_world_init(w);
    static const tu_tput_row rows[] = {
        {"v100", "A", 32, "", 0, 10, 0},  {"k80", "A", 32, "", 0, 2.5, 0},
        {"v100", "B", 64, "", 0, 8, 0},   {"v100", "A", 32, "B", 64, 6, 4},
        {"v100", "A", 32, "A", 32, 7, 5},
    };
    tu_add_tput(w->tp, rows, sizeof rows / sizeof *rows);
}

/* A one-GPU task of model m ("" = untyped) using its whole GPU. */
static void add_task(world *w, const char *m, int batch, double arrival, double dur)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", w->tr->ntasks);
    snprintf(tk.model, sizeof tk.model, "%s", m);
    tk.batch_size = batch;
    tk.arrival_s = arrival;
    tk.duration_s = dur;
    tk.gpu_mem_gib = 2;
    trace_add_task(w->tr, &tk);
    task_release(&tk);
}

/* Runs First with a threshold that never refuses (so tasks share the first
 * GPU that holds their memory), sleep and DFS off, and returns the run;
 * *unknown gets sim_tput_unknown(). */
static run *run_first(world *w, int with_table, double ref_speed, size_t *unknown)
{
    sim_config c;
    sim_config_default(&c);
    c.sleep = 0;
    c.dfs = 0;
    c.tput = with_table ? w->tp : NULL;
    c.ref_speed = ref_speed;
    policy_spec sp;
    gp_err err = {{0}};
    if (policy_spec_parse("first:10000", &sp, &err))
        fail_msg("%s", err.msg);
    sim *s = sim_new(&c, w->cl, w->cat, w->tr, &sp, &err);
    if (!s)
        fail_msg("sim_new: %s", err.msg);
    int first;
    if (unknown)
        *unknown = sim_tput_unknown(s, &first);
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    return r;
}

static double jct(const run *r, int ti)
{
    const run_outcome *o = tu_outcome(r, ti);
    return o->end_s - o->start_s;
}

/* A 100 s job (on a V100) alone on a K80 runs at 2.5 / 10 it/s of its
 * reference: 400 s. */
static void test_typed_on_k80(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "k", "K80", 1);
    add_task(&w, "A", 32, 0, 100);
    run *r = run_first(&w, 1, 0, NULL);
    assert_double_equal(jct(r, 0), 400, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* A (60 s) and B (100 s) share one V100 from t = 0: A at 6/10, B at 4/8.
 * A finishes at 100 s; B has done 50 s and runs alone at 1: 150 s. */
static void test_measured_pair(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "v", "V100M16", 1);
    add_task(&w, "A", 32, 0, 60);
    add_task(&w, "B", 64, 0, 100);
    run *r = run_first(&w, 1, 0, NULL);
    assert_double_equal(jct(r, 0), 100, 1e-9);
    assert_double_equal(jct(r, 1), 150, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* Two A jobs (70 s and 100 s): the lower index gets 7/10, the other 5/10.
 * The first ends at 100 s; the second has done 50 s, then alone: 150 s.
 * Given one rate for both (the first's), it would end at ~130 s. */
static void test_same_type_pair_halves(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "v", "V100M16", 1);
    add_task(&w, "A", 32, 0, 70);
    add_task(&w, "A", 32, 0, 100);
    run *r = run_first(&w, 1, 0, NULL);
    assert_double_equal(jct(r, 0), 100, 1e-9);
    assert_double_equal(jct(r, 1), 150, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* Three A jobs on one V100: no measured triple, so each runs at its solo
 * rate shared by demand, 1/3, until the first ends. */
static void test_beyond_pairs_shares_by_demand(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "v", "V100M16", 1);
    add_task(&w, "A", 32, 0, 10);
    add_task(&w, "A", 32, 0, 100);
    add_task(&w, "A", 32, 0, 100);
    run *r = run_first(&w, 1, 0, NULL);
    assert_double_equal(jct(r, 0), 30, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* Untyped work on a mixed cluster: a 30 s task (measured on a V100) on the
 * K80 at speed 0.3 takes 100 s; with no table a typed task falls back to
 * its GPU's speed too. */
static void test_untyped_speed_on_mixed(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "k", "K80", 1);
    tu_add_node(w.cl, "v", "V100M16", 1);
    add_task(&w, "", 0, 0, 30);
    add_task(&w, "A", 32, 200, 30);
    run *r = run_first(&w, 0, 0, NULL);
    assert_double_equal(jct(r, 0), 100, 1e-9);
    assert_double_equal(jct(r, 1), 100, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* Speeds are absolute: a cluster of K80s only is still as slow as a K80
 * (a 30 s task measured on a V100 takes 100 s; read against the cluster's
 * own GPUs, as before, it took 30).  A trace measured on the K80 itself,
 * or a reference speed of 0.3, gives 30 s again. */
static void test_speed_is_absolute(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "k", "K80", 2);
    add_task(&w, "", 0, 0, 30);
    run *r = run_first(&w, 0, 0, NULL);
    assert_double_equal(jct(r, 0), 100, 1e-9);
    run_free(r);
    r = run_first(&w, 0, 0.3, NULL);
    assert_double_equal(jct(r, 0), 30, 1e-9);
    run_free(r);
    strlcpy0(w.tr->ref_gpu, "K80", sizeof w.tr->ref_gpu);
    r = run_first(&w, 0, 0, NULL);
    assert_double_equal(jct(r, 0), 30, 1e-9);
    run_free(r);
    tu_world_free(&w);
}

/* Amdahl's law (core/speed.h) in the simulator, worked by hand: two
 * 100 s tasks busy 60 % of the time on the V100 they were measured on
 * share one GPU.
 *   V100 (s = 1): demand 0.6 + 0.6 = 1.2 > 1, each runs at 1/1.2: 120 s.
 *   A100 (speed 2, s = 2): each lasts 0.6*100/2 + 0.4*100 = 70 s alone
 *   (k = 0.7) and keeps the GPU busy 30/70 = 42.9 % of it; together
 *   85.7 % < 100 %, so neither slows: 70 s.  Had the utilization not been
 *   scaled, 120 % would slow them to 84 s. */
static void test_amdahl_v100_a100(void **state)
{
    (void)state;
    const char *const gpu[2] = {"V100M16", "A100-40GB"};
    const double want[2] = {120, 70};
    for (int m = 0; m < 2; m++) {
        world w;
        world_init(&w);
        tu_add_node(w.cl, "n", gpu[m], 1);
        for (int k = 0; k < 2; k++) {
            add_task(&w, "", 0, 0, 100);
            w.tr->tasks[k].util_mean = 60;
        }
        run *r = run_first(&w, 0, 0, NULL);
        assert_double_equal(jct(r, 0), want[m], 1e-9);
        assert_double_equal(jct(r, 1), want[m], 1e-9);
        run_free(r);
        tu_world_free(&w);
    }
}

/* A job type the table lacks is counted and runs at its GPU's speed. */
static void test_unknown_type_counted(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "k", "K80", 1);
    tu_add_node(w.cl, "v", "V100M16", 1);
    add_task(&w, "C", 16, 0, 30);
    add_task(&w, "A", 32, 200, 30);
    size_t unknown;
    run *r = run_first(&w, 1, 0, &unknown);
    assert_int_equal(unknown, 1);
    assert_double_equal(jct(r, 0), 100, 1e-9);        /* the K80's speed, 0.3 */
    assert_double_equal(jct(r, 1), 120, 1e-9);        /* the table's 2.5 of 10 it/s */
    run_free(r);
    tu_world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typed_on_k80),
        cmocka_unit_test(test_measured_pair),
        cmocka_unit_test(test_same_type_pair_halves),
        cmocka_unit_test(test_beyond_pairs_shares_by_demand),
        cmocka_unit_test(test_untyped_speed_on_mixed),
        cmocka_unit_test(test_speed_is_absolute),
        cmocka_unit_test(test_amdahl_v100_a100),
        cmocka_unit_test(test_unknown_type_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
