/*
 * test_sim_scale.c — what the simulator leaves out on large traces, and
 * that the runs stay the same:
 *
 * A task alone on its GPU has no demand events (sim_events.c), and takes
 * up its series again when another task joins: the GPU's demand is then
 * what each task demands at that instant.
 *
 * a: series [100, 20] %, 10 s a sample, 20 s long, alone from t = 0 (its
 * rate 1 whatever its demand), so at t = 12 its progress is 12 s, in the
 * 20 % sample.  b: a constant 100 %, 10 s, joins at t = 12: U = 1.2, both
 * at 1/1.2.  a's last 8 s take 9.6 s (it ends at 21.6); b has done 8 s by
 * then and ends alone 2 s later (23.6, a JCT of 11.6).  A stale demand of
 * 100 % for a would give U = 2 and a's end at 28.
 *
 * A run without checkpoints (SIM_NO_REWIND, the command line's) makes the
 * same record as one with them, and refuses to rewind.
 */
#include "testutil.h"

#include "policy/policy.h"
#include "sim/sim.h"

static void add(gp_trace *tr, const char *name, double arrival, double dur, double mean,
                const float *series, size_t len)
{
    task tk;
    task_init(&tk);
    strcpy(tk.name, name);
    tk.arrival_s = arrival;
    tk.duration_s = dur;
    tk.gpu_mem_gib = 4;
    if (series)
        task_set_util(&tk, series, len, 10);
    else
        tk.util_mean = tk.util_peak = tk.util_first = mean;
    trace_add_task(tr, &tk);
    task_release(&tk);
}

typedef struct world {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} world;

static void world_init(world *w)
{
    w->cat = catalog_new();
    catalog_add_builtin(w->cat);
    w->cl = cluster_new("c");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, "V100");
    n.gpu_count = 1;
    n.cpu_milli = 64000;
    n.ram_mib = 1 << 20;
    cluster_add_node(w->cl, &n);
    w->tr = trace_new("t");
    static const float sa[2] = {100, 20};
    add(w->tr, "a", 0, 20, 0, sa, 2);
    add(w->tr, "b", 12, 10, 100, NULL, 0);
}

static void world_free(world *w)
{
    trace_free(w->tr);
    cluster_free(w->cl);
    catalog_free(w->cat);
}

static sim *hotcloud_sim(const world *w, size_t checkpoint_every)
{
    sim_config c;
    sim_config_default(&c);
    c.sleep = 0;
    c.dfs = 0;
    c.checkpoint_every = checkpoint_every;
    policy_spec sp;
    gp_err err = {{0}};
    if (policy_spec_parse("hotcloud", &sp, &err) || policy_spec_set(&sp, "q=1000", &err))
        fail_msg("%s", err.msg);
    sim *s = sim_new(&c, w->cl, w->cat, w->tr, &sp, &err);
    assert_non_null(s);
    return s;
}

static void test_lone_task_joined(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    sim *s = hotcloud_sim(&w, 0);
    sim_advance_until(s, 5);
    assert_double_equal(sim_progress(s)[0], 5, 1e-9);
    sim_run(s, NULL);
    sim_finish(s);
    assert_double_equal(tu_outcome(sim_run_record(s), 0)->jct_s, 21.6, 1e-9);
    assert_double_equal(tu_outcome(sim_run_record(s), 1)->jct_s, 11.6, 1e-9);
    sim_free(s);
    world_free(&w);
}

static void test_no_rewind(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    sim *a = hotcloud_sim(&w, 0), *b = hotcloud_sim(&w, SIM_NO_REWIND);
    assert_int_equal(sim_step(b), 1);
    gp_err err = {{0}};
    assert_int_equal(sim_rewind(b, 0, &err), -1);
    tu_assert_contains(err.msg, "no checkpoints");
    sim_run(a, NULL);
    sim_run(b, NULL);
    sim_finish(a);
    sim_finish(b);
    const run *ra = sim_run_record(a), *rb = sim_run_record(b);
    assert_int_equal(ra->noutcomes, rb->noutcomes);
    for (size_t i = 0; i < ra->noutcomes; i++)
        assert_double_equal(ra->outcomes[i].end_s, rb->outcomes[i].end_s, 0);
    assert_int_equal(ra->npoints, rb->npoints);
    sim_free(a);
    sim_free(b);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lone_task_joined),
        cmocka_unit_test(test_no_rewind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
