/*
 * test_policy_gogh.c — the allocation family's policies in the simulator,
 * on a two-GPU world worked by hand: GOGH on the table's throughputs
 * (gogh-oracle) takes the GPU of fewest watts that meets a job's minimum
 * and the faster one when the slow one does not; Gavel puts each job where
 * the sum of throughputs is highest; two jobs whose memory does not fit one
 * GPU together are never paired; the heterogeneity-blind baseline runs the
 * same rounds; a run replays exactly; and the policies say what they miss
 * (a table, trained nets).
 */
#include "testutil.h"

#include "sim/sim.h"

typedef tu_world world;

/* tu_world: one built-in V100M16 (30-300 W, class v100) and one K80 (class
 * k80, 25-150 W, 12 GiB).  The table: A (batch 32) 10 it/s alone on a V100 and
 * 5 on a K80; B (batch 64) 8 on a V100 and 1 on a K80; A next to B on a
 * V100 6 and 4, A next to A 7 and 5. */
static void world_init(world *w)
{
    tu_world_init(w);
    static const tu_tput_row rows[] = {
        {"v100", "A", 32, "", 0, 10, 0}, {"k80", "A", 32, "", 0, 5, 0},
        {"v100", "B", 64, "", 0, 8, 0},  {"k80", "B", 64, "", 0, 1, 0},
        {"v100", "A", 32, "B", 64, 6, 4}, {"v100", "A", 32, "A", 32, 7, 5},
    };
    tu_add_tput(w->tp, rows, sizeof rows / sizeof *rows);
    tu_add_node(w->cl, "v", "V100M16", 1);
    tu_add_node(w->cl, "k", "K80", 1);
}

/* A one-GPU task of job type (m, batch), arriving at 0 for dur seconds on
 * a V100, needing min_tput it/s (0 = the policy's default share). */
static void add_task(world *w, const char *m, int batch, double dur, double mem,
                     double min_tput)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", w->tr->ntasks);
    snprintf(tk.model, sizeof tk.model, "%s", m);
    tk.batch_size = batch;
    tk.duration_s = dur;
    tk.gpu_mem_gib = mem;
    tk.min_tput = min_tput;
    trace_add_task(w->tr, &tk);
    task_release(&tk);
}

static sim *new_sim(world *w, const char *spec, gp_err *err)
{
    sim_config c;
    sim_config_default(&c);
    c.tput = w->tp;
    policy_spec sp;
    if (policy_spec_parse(spec, &sp, err))
        fail_msg("%s", err->msg);
    return sim_new(&c, w->cl, w->cat, w->tr, &sp, err);
}

static run *run_policy(world *w, const char *spec)
{
    gp_err err = {{0}};
    sim *s = new_sim(w, spec, &err);
    if (!s)
        fail_msg("sim_new %s: %s", spec, err.msg);
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    return r;
}

/* The node task ti was first started on (0 the V100, 1 the K80). */
static int first_node(const run *r, int ti)
{
    for (size_t i = 0; i < r->ndecisions; i++)
        if (r->decisions[i].task == ti && r->decisions[i].node >= 0)
            return r->decisions[i].node;
    fail_msg("task %d never started", ti);
    return -1;
}

/* Problem 1 with one job A: needing 4 it/s, the K80 (5 it/s, at most
 * 150 W) draws less than the V100 (300 W) and is chosen; needing 6 it/s,
 * only the V100 (10) meets it.  On the K80 the 100 s job runs at 5/10 of
 * its V100 rate: 200 s. */
static void test_oracle_fewest_watts(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    add_task(&w, "A", 32, 100, 2, 4);
    run *r = run_policy(&w, "gogh-oracle");
    assert_int_equal(first_node(r, 0), 1);
    const run_outcome *o = tu_outcome(r, 0);
    assert_double_equal(o->end_s - o->start_s, 200, 1e-6);
    run_free(r);
    tu_world_free(&w);

    world_init(&w);
    add_task(&w, "A", 32, 100, 2, 6);
    r = run_policy(&w, "gogh-oracle");
    assert_int_equal(first_node(r, 0), 0);
    o = tu_outcome(r, 0);
    assert_double_equal(o->end_s - o->start_s, 100, 1e-6);
    run_free(r);
    tu_world_free(&w);
}

/* Gavel, max-sum throughput on A and B: A on the K80 and B on the V100
 * (5 + 8 = 13 it/s, or 0.5 + 1 of each job's best) beats the swap
 * (10 + 1) and the pair on the V100 (6 + 4). */
static void test_gavel_max_throughput(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    add_task(&w, "A", 32, 100, 2, 0);
    add_task(&w, "B", 64, 100, 2, 0);
    run *r = run_policy(&w, "gavel");
    assert_int_equal(first_node(r, 0), 1);
    assert_int_equal(first_node(r, 1), 0);
    run_free(r);
    tu_world_free(&w);
}

/* Two A jobs needing 4 it/s: sharing the V100 (7 and 5 it/s) draws less
 * than the V100 and the K80 (5) apart — but at 10 and 8 GiB they do not
 * fit the 16 GiB V100 together, so they start at once on the two GPUs
 * (and no start is refused for memory: the round knew). */
static void test_memory_keeps_pairs_apart(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    add_task(&w, "A", 32, 100, 10, 4);
    add_task(&w, "A", 32, 100, 8, 4);
    run *r = run_policy(&w, "gogh-oracle");
    for (size_t i = 0; i < r->ndecisions; i++)
        if (r->decisions[i].reason && strstr(r->decisions[i].reason, "invalid placement"))
            fail_msg("refused start: %s", r->decisions[i].reason);
    assert_double_equal(tu_outcome(r, 0)->start_s, 0, 1e-9);
    assert_double_equal(tu_outcome(r, 1)->start_s, 0, 1e-9);
    assert_int_not_equal(first_node(r, 0), first_node(r, 1));
    run_free(r);
    tu_world_free(&w);

    /* At 6 and 8 GiB they fit: one V100 for both. */
    world_init(&w);
    add_task(&w, "A", 32, 100, 6, 4);
    add_task(&w, "A", 32, 100, 8, 4);
    r = run_policy(&w, "gogh-oracle");
    assert_int_equal(first_node(r, 0), 0);
    assert_int_equal(first_node(r, 1), 0);
    run_free(r);
    tu_world_free(&w);
}

/* The blind baseline ignores throughputs: first fit by memory puts A on
 * the first GPU with room, the V100, however slow the K80 would be. */
static void test_blind_first_fit(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    add_task(&w, "B", 64, 100, 2, 0);
    run *r = run_policy(&w, "blind");
    assert_int_equal(first_node(r, 0), 0);
    run_free(r);
    tu_world_free(&w);
}

/* Ten jobs of both types: two runs agree to the bit (the solver's work
 * clock, not the machine's, ends a round's solve). */
static void test_replays_exactly(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    tu_add_node(w.cl, "v2", "V100M16", 2);
    for (int i = 0; i < 10; i++)
        add_task(&w, i % 2 ? "A" : "B", i % 2 ? 32 : 64, 300 + 100 * i, 3, 0);
    for (int k = 0; k < 2; k++) {
        const char *spec = k ? "gavel" : "gogh-oracle";
        run *a = run_policy(&w, spec), *b = run_policy(&w, spec);
        assert_int_equal(a->noutcomes, b->noutcomes);
        for (size_t i = 0; i < a->noutcomes; i++)
            assert_memory_equal(&a->outcomes[i], &b->outcomes[i], sizeof a->outcomes[i]);
        assert_int_equal(a->ndecisions, b->ndecisions);
        run_free(a);
        run_free(b);
    }
    tu_world_free(&w);
}

/* What the policies need and say they miss. */
static void test_needs(void **state)
{
    (void)state;
    world w;
    world_init(&w);
    add_task(&w, "A", 32, 100, 2, 0);
    gp_err err = {{0}};
    sim *s = new_sim(&w, "gogh", &err);
    assert_null(s);
    assert_non_null(strstr(err.msg, "gpuplan estimate train"));
    tput_catalog_free(w.tp);
    w.tp = NULL;
    memset(&err, 0, sizeof err);
    s = new_sim(&w, "gogh-oracle", &err);
    assert_null(s);
    assert_non_null(strstr(err.msg, "throughput table"));
    tu_world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_fewest_watts),
        cmocka_unit_test(test_gavel_max_throughput),
        cmocka_unit_test(test_memory_keeps_pairs_apart),
        cmocka_unit_test(test_blind_first_fit),
        cmocka_unit_test(test_replays_exactly),
        cmocka_unit_test(test_needs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
