/*
 * test_sim.c — the simulator (SPEC §3.3, §6) on hand-worked cases:
 * exact energy of one task, CATS eq. 5 JCT at several clocks, Alg. 4
 * raising/lowering/holding and settling, Alg. 3 sleeping GPUs then the
 * server, processor sharing on a GPU whose demand exceeds 100 %, demand
 * changing at a series boundary, FIFO queue, fail mode, the unbounded
 * pool, determinism and rewind.
 */
#include "testutil.h"

#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "sim/sim.h"
#include "sim/sim_int.h"

/* ---- builders ------------------------------------------------------------------ */

typedef struct world {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} world;

/* One server of n GPUs of `model` (static_w watts), a catalog with the
 * built-in profiles plus "TESTGPU" (V100 power, f in [fmin, 1350]). */
static void world_init(world *w, const char *model, int ngpus, double static_w, double fmin)
{
    w->cat = catalog_new();
    catalog_add_builtin(w->cat);
    gpu_profile g = *catalog_gpu(w->cat, "V100");
    strcpy(g.name, "TESTGPU");
    g.f_min_mhz = fmin;
    catalog_add_gpu(w->cat, &g);
    w->cl = cluster_new("c");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, model);
    n.gpu_count = ngpus;
    n.cpu_milli = 64000;
    n.ram_mib = 1 << 20;
    n.static_w = static_w;
    cluster_add_node(w->cl, &n);
    w->tr = trace_new("t");
}

static void world_free(world *w)
{
    trace_free(w->tr);
    cluster_free(w->cl);
    catalog_free(w->cat);
}

/* Adds a one-GPU task with a constant demand (mean) or a series. */
static void add_task(world *w, const char *name, double arrival, double dur, double mem,
                     double mean, const float *series, size_t len, double period)
{
    task tk;
    task_init(&tk);
    strcpy(tk.name, name);
    tk.arrival_s = arrival;
    tk.duration_s = dur;
    tk.gpu_mem_gib = mem;
    if (series)
        task_set_util(&tk, series, len, period);
    else
        tk.util_mean = tk.util_peak = tk.util_first = mean;
    trace_add_task(w->tr, &tk);
    task_release(&tk);
}

static sim *sim_for(world *w, const sim_config *cfg, const char *policy, const char *set)
{
    policy_spec sp;
    gp_err err = {{0}};
    if (policy_spec_parse(policy, &sp, &err))
        fail_msg("%s", err.msg);
    if (set && policy_spec_set(&sp, set, &err))
        fail_msg("%s", err.msg);
    sim *s = sim_new(cfg, w->cl, w->cat, w->tr, &sp, &err);
    if (!s)
        fail_msg("sim_new: %s", err.msg);
    return s;
}

static sim_config quiet_config(void)
{
    sim_config c;
    sim_config_default(&c);
    c.sleep = 0;
    c.dfs = 0;
    return c;
}

/* ---- energy and eq. 5 ------------------------------------------------------------ */

/* One 100 s task on one V100 of a 30 W server, sleep on (the other GPU
 * sleeps from the start, CATS §6), no DFS: 30 + 144.8 W for 100 s. */
static void test_energy_single_task(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 2, 30, 135);
    add_task(&w, "a", 0, 100, 4, 50, NULL, 0, 0);
    sim_config c = quiet_config();
    c.sleep = 1;
    sim *s = sim_for(&w, &c, "first", NULL);
    assert_int_equal(sim_run(s, NULL), 0);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_double_equal(run_metric_get(r, "energy_j", -1), (30 + 144.8) * 100, 1e-6);
    assert_double_equal(run_metric_get(r, "avg_power_w", -1), 174.8, 1e-9);
    assert_double_equal(run_metric_get(r, "avg_gpus", -1), 1, 1e-12);
    assert_double_equal(run_metric_get(r, "makespan_s", -1), 100, 1e-9);
    assert_double_equal(run_metric_get(r, "jct_mean_s", -1), 100, 1e-9);
    assert_double_equal(run_metric_get(r, "wakeups", -1), 1, 0);
    assert_double_equal(run_metric_get(r, "server_wakeups", -1), 1, 0);
    sim_free(s);
    /* Sleep off: the idle GPU draws P_gs = 23.3 W throughout. */
    c.sleep = 0;
    s = sim_for(&w, &c, "first", NULL);
    sim_run(s, NULL);
    sim_finish(s);
    assert_double_equal(run_metric_get(sim_run_record(s), "avg_power_w", -1), 174.8 + 23.3,
                        1e-9);
    sim_free(s);
    world_free(&w);
}

/* CATS eq. 5: alone at f a task takes e_min (f_max/f)^beta.  With kappa
 * 100 every task has slack, and a delta_f of 1350 MHz takes the clock to
 * f_min at the first tick (t = 0, before any progress). */
static void test_eq5_jct_at_frequencies(void **state)
{
    (void)state;
    static const double fmins[] = {1350, 1012.5, 675, 337.5, 135};
    for (size_t i = 0; i < sizeof fmins / sizeof *fmins; i++) {
        world w;
        world_init(&w, "TESTGPU", 1, 0, fmins[i]);
        add_task(&w, "a", 0, 100, 4, 50, NULL, 0, 0);
        sim_config c = quiet_config();
        c.dfs = 1;
        c.kappa = 100;
        c.delta_f_mhz = 1350;
        sim *s = sim_for(&w, &c, "first", NULL);
        sim_run(s, NULL);
        sim_finish(s);
        double expect = 100 * pow(1350 / fmins[i], 0.91);     /* eq. 5, beta 0.91 */
        assert_double_equal(tu_outcome(sim_run_record(s), 0)->jct_s, expect, 1e-6);
        assert_double_equal(run_metric_get(sim_run_record(s), "mean_freq_mhz", -1), fmins[i],
                            1e-9);
        sim_free(s);
        world_free(&w);
    }
    assert_double_equal(100 * pow(2, 0.91), 187.9, 0.05);     /* at f_max / 2 */
}

/* ---- CATS Alg. 4 -------------------------------------------------------------------- */

static void test_alg4_step(void **state)
{
    (void)state;
    static const double e[2] = {100, 300}, k12[2] = {1.2, 1.2}, k_mixed[2] = {1.2, 1.0};
    static const struct {
        double f;
        const double *kappa;
        double expect;
        const char *why;
    } cases[] = {
        {1350, k12, 1335, "slack: (1350/1350)^0.91 = 1 < 0.95*1.2 -> lower"},
        {1170, k12, 1155, "1.139 < 1.14: still slack -> lower"},
        {1155, k12, 1155, "1.153 in [1.14, 1.2]: hold (5 % band)"},
        {1050, k12, 1065, "(1350/1050)^0.91 = 1.257 > 1.2: violation -> raise"},
        {1345, k12, 1330, "slack"},
        {140, k12, 155, "far below: raise"},
        {1340, k_mixed, 1350, "kappa 1.0 task violates -> raise, capped at f_max"},
        {1350, k_mixed, 1350, "kappa 1.0 at f_max: 1 >= 0.95: hold"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double f = sim_dfs_step(cases[i].f, 135, 1350, 0.91, 15, e, cases[i].kappa, 2);
        if (fabs(f - cases[i].expect) > 1e-9)
            fail_msg("case %zu (%s): got %g, expected %g", i, cases[i].why, f,
                     cases[i].expect);
    }
    /* f_min floor and no tasks */
    const double big[1] = {100};
    assert_double_equal(sim_dfs_step(140, 135, 1350, 0.91, 15, e, big, 1), 135, 0);
    assert_double_equal(sim_dfs_step(700, 135, 1350, 0.91, 15, e, k12, 0), 700, 0);
}

/* In a run, a V100 with kappa-1.2 tasks walks down 15 MHz per tick from
 * 1350 and holds at 1155 MHz (13 ticks). */
static void test_alg4_settles_in_run(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 1, 0, 135);
    add_task(&w, "a", 0, 100, 4, 50, NULL, 0, 0);
    sim_config c = quiet_config();
    c.dfs = 1;
    sim *s = sim_for(&w, &c, "cats", NULL);
    assert_int_equal(sim_step(s), 1);
    assert_double_equal(sim_cstate(s)->gpus[0].freq_mhz, 1350, 0);
    sim_advance_until(s, 0.55);         /* ticks at 0, 0.1, ..., 0.5 */
    assert_double_equal(sim_cstate(s)->gpus[0].freq_mhz, 1350 - 6 * 15, 1e-9);
    sim_advance_until(s, 10);
    assert_double_equal(sim_cstate(s)->gpus[0].freq_mhz, 1155, 1e-9);
    sim_run(s, NULL);
    sim_finish(s);
    /* 13 ticks of 0.1 s on the way down, then 1155 MHz to the end. */
    double jct = tu_outcome(sim_run_record(s), 0)->jct_s;
    assert_true(jct > 100 * pow(1350.0 / 1170, 0.91) && jct < 100 * pow(1350.0 / 1155, 0.91));
    assert_true(jct <= 1.2 * 100);
    sim_free(s);
    world_free(&w);
}

/* ---- CATS Alg. 3 ---------------------------------------------------------------------- */

/* a (10 s) and b (20 s) on separate GPUs (First: 80 + 80 >= 100); c
 * arrives at 100 s.  After a ends its GPU sleeps at the next tick while
 * the server stays up; after b ends its GPU and then the server sleep. */
static void test_alg3_sleeps_gpus_then_server(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 2, 30, 135);
    add_task(&w, "a", 0, 10, 4, 80, NULL, 0, 0);
    add_task(&w, "b", 0, 20, 4, 80, NULL, 0, 0);
    add_task(&w, "c", 100, 10, 4, 80, NULL, 0, 0);
    sim_config c = quiet_config();
    c.sleep = 1;
    sim *s = sim_for(&w, &c, "first", NULL);
    const cstate *cs = sim_cstate(s);
    assert_int_equal(cs->gpus[0].power, GPU_ASLEEP);       /* CATS §6: all start asleep */
    assert_int_equal(cs->nodes[0].asleep, 1);
    assert_int_equal(sim_step(s), 1);
    assert_int_equal(sim_step(s), 1);
    assert_int_equal(cs->gpus[0].power, GPU_ACTIVE);
    assert_int_equal(cs->gpus[1].power, GPU_ACTIVE);
    sim_advance_until(s, 10.0);          /* a completes at 10; the tick at 10 sleeps */
    assert_int_equal(cs->gpus[0].ntasks, 0);
    assert_int_equal(cs->gpus[0].power, GPU_ASLEEP);
    assert_int_equal(cs->nodes[0].asleep, 0);
    power_split p;
    sim_power(s, &p);
    assert_double_equal(p.total_w, 30 + 144.8, 1e-9);
    sim_advance_until(s, 20.05);
    assert_int_equal(cs->gpus[1].power, GPU_ASLEEP);
    assert_int_equal(cs->nodes[0].asleep, 1);
    sim_power(s, &p);
    assert_double_equal(p.total_w, 0, 0);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_double_equal(run_metric_get(r, "wakeups", -1), 3, 0);
    assert_double_equal(run_metric_get(r, "server_wakeups", -1), 2, 0);
    /* Energy: 2 GPUs + server for 10 s, 1 GPU + server until 20, nothing
     * while asleep, 1 GPU + server for c's 10 s. */
    double e = 10 * (30 + 2 * 144.8) + 10 * (30 + 144.8) + 10 * (30 + 144.8);
    assert_double_equal(run_metric_get(r, "energy_j", -1), e, 1e-6);
    sim_free(s);
    world_free(&w);
}

/* ---- contention (SPEC §3.3) ---------------------------------------------------------- */

/* Two constant 75 % tasks on one GPU (HotCloud with q = 200 lets them
 * share): U = 1.5, each advances at 1/1.5.  b (50 s) ends at 75 s; then a
 * runs alone at rate 1 and ends at 75 + (100 - 50) = 125 s. */
static void test_processor_sharing(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 2, 0, 135);
    add_task(&w, "a", 0, 100, 4, 75, NULL, 0, 0);
    add_task(&w, "b", 0, 50, 4, 75, NULL, 0, 0);
    sim_config c = quiet_config();
    sim *s = sim_for(&w, &c, "hotcloud", "q=200");
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_int_equal(tu_outcome(r, 0)->node, 0);
    assert_string_equal(tu_outcome(r, 0)->gpus, tu_outcome(r, 1)->gpus);
    assert_double_equal(tu_outcome(r, 1)->jct_s, 75, 1e-9);
    assert_double_equal(tu_outcome(r, 0)->jct_s, 125, 1e-9);
    assert_double_equal(tu_outcome(r, 0)->slowdown, 1.25, 1e-12);
    assert_int_equal(tu_outcome(r, 0)->sla_violated, 1);      /* 125 > 1.2 * 100 */
    assert_int_equal(tu_outcome(r, 1)->sla_violated, 1);      /* 75 > 60 */
    sim_free(s);
    /* Below 100 % nobody slows down: 40 % + 50 %. */
    w.tr->tasks[0].util_mean = 40;
    w.tr->tasks[1].util_mean = 50;
    s = sim_for(&w, &c, "hotcloud", "q=200");
    sim_run(s, NULL);
    sim_finish(s);
    assert_double_equal(tu_outcome(sim_run_record(s), 0)->jct_s, 100, 1e-9);
    sim_free(s);
    world_free(&w);
}

/* a's series is 100 % for 10 s then 0 %; b is a constant 50 %.  Together
 * U = 1.5 until a's progress reaches 10 s at t = 15 (rate 2/3); then
 * U = 0.5 and both finish their last 10 s at t = 25. */
static void test_demand_changes_at_sample_boundary(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 1, 0, 135);
    const float sa[2] = {100, 0};
    add_task(&w, "a", 0, 20, 4, 0, sa, 2, 10);
    add_task(&w, "b", 0, 20, 4, 50, NULL, 0, 0);
    sim_config c = quiet_config();
    sim *s = sim_for(&w, &c, "hotcloud", "q=1000");
    sim_step(s);
    sim_step(s);
    sim_advance_until(s, 15);
    assert_double_equal(sim_progress(s)[0], 10, 1e-9);
    assert_double_equal(sim_progress(s)[1], 10, 1e-9);
    sim_run(s, NULL);
    sim_finish(s);
    assert_double_equal(tu_outcome(sim_run_record(s), 0)->jct_s, 25, 1e-9);
    assert_double_equal(tu_outcome(sim_run_record(s), 1)->jct_s, 25, 1e-9);
    sim_free(s);
    world_free(&w);
}

/* A series shorter than the task repeats: [100, 0] every 10 s over 40 s,
 * alone (U <= 1 throughout): exactly 40 s. */
static void test_series_repeats(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100", 1, 0, 135);
    const float sa[2] = {100, 0};
    add_task(&w, "a", 0, 40, 4, 0, sa, 2, 10);
    add_task(&w, "b", 0, 40, 4, 100, NULL, 0, 0);
    sim_config c = quiet_config();
    sim *s = sim_for(&w, &c, "hotcloud", "q=1000");
    sim_run(s, NULL);
    sim_finish(s);
    /* U = 2 while a is in a 100 % sample (rate 1/2), 1 otherwise: a's four
     * samples take 20, 10, 20, 10 s... b shares the same clock: 60 s. */
    assert_double_equal(tu_outcome(sim_run_record(s), 0)->jct_s, 60, 1e-9);
    assert_double_equal(tu_outcome(sim_run_record(s), 1)->jct_s, 60, 1e-9);
    sim_free(s);
    world_free(&w);
}

/* ---- full cluster --------------------------------------------------------------------- */

/* One 16 GB GPU, two 10 GB tasks: the second waits (FIFO) until the first
 * completes; in fail mode it fails instead. */
static void test_queue_and_fail(void **state)
{
    (void)state;
    world w;
    world_init(&w, "V100M16", 1, 0, 135);
    add_task(&w, "a", 0, 100, 10, 30, NULL, 0, 0);
    add_task(&w, "b", 1, 50, 10, 30, NULL, 0, 0);
    add_task(&w, "c", 2, 50, 1, 30, NULL, 0, 0);        /* fits, but FIFO waits */
    sim_config c = quiet_config();
    sim *s = sim_for(&w, &c, "hotcloud", NULL);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_double_equal(tu_outcome(r, 1)->wait_s, 99, 1e-9);
    assert_double_equal(tu_outcome(r, 1)->start_s, 100, 1e-9);
    assert_double_equal(tu_outcome(r, 2)->start_s, 100, 1e-9);     /* behind b, then shares */
    assert_double_equal(run_metric_get(r, "failed_tasks", -1), 0, 0);
    assert_true(strstr(r->decisions[1].reason, "queued") != NULL);
    sim_free(s);
    c.full = SIM_FAIL;
    s = sim_for(&w, &c, "hotcloud", NULL);
    sim_run(s, NULL);
    sim_finish(s);
    r = sim_run_record(s);
    assert_double_equal(run_metric_get(r, "failed_tasks", -1), 1, 0);
    assert_int_equal(tu_outcome(r, 1)->node, -1);
    assert_double_equal(tu_outcome(r, 2)->start_s, 2, 1e-9);
    sim_free(s);
    world_free(&w);
}

/* The unbounded pool opens copies of the server when nothing fits
 * (CorrGPU's CapEx setting); a task larger than any GPU fails at once. */
static void test_unbounded_pool(void **state)
{
    (void)state;
    world w;
    world_init(&w, "A100-40GB", 1, 0, 210);
    strcpy(w.tr->ref_gpu, "A100-40GB");     /* durations measured there */
    for (int i = 0; i < 3; i++)
        add_task(&w, "x", 0, 100, 30, 80, NULL, 0, 0);
    add_task(&w, "huge", 0, 100, 50, 80, NULL, 0, 0);
    sim_config c = quiet_config();
    c.unbounded = 1;
    sim *s = sim_for(&w, &c, "first", NULL);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_double_equal(run_metric_get(r, "unique_gpus", -1), 3, 0);
    assert_double_equal(run_metric_get(r, "capex_usd", -1), 3 * 2500, 0);
    assert_double_equal(run_metric_get(r, "opened_servers", -1), 2, 0);
    assert_double_equal(run_metric_get(r, "failed_tasks", -1), 1, 0);
    assert_int_equal(tu_outcome(r, 3)->node, -1);
    assert_double_equal(tu_outcome(r, 2)->jct_s, 100, 1e-9);
    sim_free(s);
    world_free(&w);
}

/* ---- determinism and rewind ---------------------------------------------------------- */

static void load_pai(world *w, size_t ntasks)
{
    sample_set set;
    samplegen_pai_like(ntasks, 7, &set);
    w->cat = catalog_new();
    catalog_add_builtin(w->cat);
    w->cl = set.cl;
    w->tr = set.tr;
    set.cl = NULL;
    set.tr = NULL;
    sample_set_free(&set);
}

static void assert_runs_equal(const run *a, const run *b)
{
    assert_int_equal(a->ndecisions, b->ndecisions);
    for (size_t i = 0; i < a->ndecisions; i++) {
        assert_int_equal(a->decisions[i].task, b->decisions[i].task);
        assert_int_equal(a->decisions[i].node, b->decisions[i].node);
        assert_string_equal(a->decisions[i].gpus, b->decisions[i].gpus);
        assert_double_equal(a->decisions[i].t_s, b->decisions[i].t_s, 0);
        assert_string_equal(a->decisions[i].reason, b->decisions[i].reason);
    }
    assert_int_equal(a->noutcomes, b->noutcomes);
    for (size_t i = 0; i < a->noutcomes; i++) {
        assert_int_equal(a->outcomes[i].task, b->outcomes[i].task);
        assert_double_equal(a->outcomes[i].end_s, b->outcomes[i].end_s, 0);
    }
    assert_int_equal(a->npoints, b->npoints);
    for (size_t i = 0; i < a->npoints; i++) {
        assert_double_equal(a->points[i].t_s, b->points[i].t_s, 0);
        assert_double_equal(a->points[i].power_w, b->points[i].power_w, 0);
        assert_double_equal(a->points[i].active_gpus, b->points[i].active_gpus, 0);
    }
}

static void test_determinism(void **state)
{
    (void)state;
    world w;
    load_pai(&w, 300);
    sim_config c;
    sim_config_default(&c);
    c.keep_explain = 1;
    sim *a = sim_for(&w, &c, "cats", NULL), *b = sim_for(&w, &c, "cats", NULL);
    sim_run(a, NULL);
    sim_run(b, NULL);
    sim_finish(a);
    sim_finish(b);
    assert_runs_equal(sim_run_record(a), sim_run_record(b));
    const run *ra = sim_run_record(a), *rb = sim_run_record(b);
    assert_int_equal(ra->nmetrics, rb->nmetrics);
    for (size_t i = 0; i < ra->nmetrics; i++)
        assert_double_equal(ra->metrics[i].value, rb->metrics[i].value, 0);
    assert_double_equal(run_metric_get(ra, "completed", -1), 300, 0);
    sim_free(a);
    sim_free(b);
    world_free(&w);
}

static void snapshot_state(sim *s, double *freq, int *ntasks, double *prog, size_t nt)
{
    const cstate *cs = sim_cstate(s);
    for (size_t g = 0; g < cs->ngpus; g++) {
        freq[g] = cs->gpus[g].freq_mhz;
        ntasks[g] = cs->gpus[g].ntasks * 4 + (int)cs->gpus[g].power;
    }
    memcpy(prog, sim_progress(s), nt * sizeof *prog);
}

/* Step to k, rewind to j < k, step to k again: the same state and record;
 * the same through a thinned checkpoint list and with checkpoints off. */
static void test_rewind(void **state)
{
    (void)state;
    world w;
    load_pai(&w, 400);
    size_t nt = w.tr->ntasks, ng = (size_t)cluster_gpu_total(w.cl);
    double *f1 = xmalloc(ng * sizeof *f1), *f2 = xmalloc(ng * sizeof *f2);
    int *n1 = xmalloc(ng * sizeof *n1), *n2 = xmalloc(ng * sizeof *n2);
    double *p1 = xmalloc(nt * sizeof *p1), *p2 = xmalloc(nt * sizeof *p2);
    static const size_t every[] = {64, 3, 0};
    for (size_t e = 0; e < 3; e++) {
        sim_config c;
        sim_config_default(&c);
        c.keep_explain = 1;
        c.checkpoint_every = every[e];
        sim *s = sim_for(&w, &c, "cats", NULL);
        for (int i = 0; i < 300; i++)
            assert_int_equal(sim_step(s), 1);
        snapshot_state(s, f1, n1, p1, nt);
        double t1 = sim_now(s);
        run *copy = run_new("x");
        const run *r = sim_run_record(s);
        for (size_t i = 0; i < r->ndecisions; i++)
            run_add_decision(copy, &r->decisions[i]);
        for (size_t i = 0; i < r->noutcomes; i++)
            run_add_outcome(copy, &r->outcomes[i]);
        for (size_t i = 0; i < r->npoints; i++)
            run_add_point(copy, &r->points[i]);
        char last[256];
        strcpy(last, sim_last_explain(s)->summary);
        gp_err err = {{0}};
        assert_int_equal(sim_rewind(s, 120, &err), 0);
        assert_int_equal(sim_decisions(s), 120);
        assert_int_equal(sim_run_record(s)->ndecisions, 120);
        assert_true(sim_now(s) <= t1);
        for (int i = 120; i < 300; i++)
            assert_int_equal(sim_step(s), 1);
        snapshot_state(s, f2, n2, p2, nt);
        assert_memory_equal(f1, f2, ng * sizeof *f1);
        assert_memory_equal(n1, n2, ng * sizeof *n1);
        assert_memory_equal(p1, p2, nt * sizeof *p1);
        assert_double_equal(sim_now(s), t1, 0);
        assert_runs_equal(copy, sim_run_record(s));
        assert_string_equal(last, sim_last_explain(s)->summary);
        /* back to the start, and forward past the end */
        assert_int_equal(sim_rewind(s, 0, &err), 0);
        assert_null(sim_last_explain(s));
        assert_int_equal(sim_run_record(s)->ndecisions, 0);
        assert_int_equal(sim_rewind(s, 100000, &err), -1);
        run_free(copy);
        sim_free(s);
    }
    free(f1);
    free(f2);
    free(n1);
    free(n2);
    free(p1);
    free(p2);
    world_free(&w);
}

/* Every policy of the family completes a small pai-like run, and the
 * metric keys the TUI and docs/run-and-compare.md use are present. */
static void test_metric_keys(void **state)
{
    (void)state;
    world w;
    load_pai(&w, 200);
    static const char *const keys[] = {
        "avg_gpus", "peak_gpus", "avg_power_w", "peak_power_w", "energy_j", "unique_gpus",
        "capex_usd", "ctd_s", "jct_p50_s", "jct_p95_s", "jct_p99_s", "jct_mean_s", "norm_jct",
        "sla_violations", "failed_tasks", "makespan_s", "wakeups", "avg_servers",
        "mean_freq_mhz"};
    static const char *const pols[] = {"cats", "corrgpu", "first", "hotcloud", "harmony"};
    for (size_t p = 0; p < 5; p++) {
        sim_config c;
        sim_config_default(&c);
        sim *s = sim_for(&w, &c, pols[p], NULL);
        sim_run(s, NULL);
        sim_finish(s);
        const run *r = sim_run_record(s);
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (run_metric_get(r, keys[k], -1) < 0)
                fail_msg("%s: metric %s missing", pols[p], keys[k]);
        assert_double_equal(run_metric_get(r, "completed", -1), 200, 0);
        assert_true(r->npoints > 100 && r->npoints < 3000);
        assert_true(run_metric_get(r, "peak_gpus", 0) >= run_metric_get(r, "avg_gpus", 0));
        run *taken = sim_take_run(s);
        assert_int_equal(sim_step(s), 0);
        run_free(taken);
        sim_free(s);
    }
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_energy_single_task),
        cmocka_unit_test(test_eq5_jct_at_frequencies),
        cmocka_unit_test(test_alg4_step),
        cmocka_unit_test(test_alg4_settles_in_run),
        cmocka_unit_test(test_alg3_sleeps_gpus_then_server),
        cmocka_unit_test(test_processor_sharing),
        cmocka_unit_test(test_demand_changes_at_sample_boundary),
        cmocka_unit_test(test_series_repeats),
        cmocka_unit_test(test_queue_and_fail),
        cmocka_unit_test(test_unbounded_pool),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_rewind),
        cmocka_unit_test(test_metric_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
