/*
 * test_policy_corr.c — the correlation-family policies (SPEC §5.1):
 * how they use Pearson (known vectors, truncation to the shorter series,
 * zero variance, aggregates, progress alignment), CATS's score and
 * thresholds, the CATS §3.4 example (rho = -1: both tasks on GPU 0, GPU 1
 * sleeps), CorrGPU's ordering and its §III-B motivating example (one GPU
 * and 2.5 K USD against First's two and 5 K USD), the First / HotCloud /
 * Harmony thresholds, multi-GPU windows and the fresh-GPU preference;
 * the family's shared admission test (its operator and window), CATS's
 * first-fit and score selections, CorrGPU's soft and hard q, the wake-ups
 * a multi-GPU window counts, and an anti-correlated trace on which CATS
 * must use fewer GPUs than HotCloud and Harmony.  Layer: policy (and sim
 * for whole runs).
 */
#include "testutil.h"

#include "policy/corr_place.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "sim/sim.h"
#include "core/stats.h"
#include "core/util_series.h"
#include "core/util_series_int.h"

/* ---- fixture: one server, tasks placed by hand ------------------------------------- */

typedef struct bench {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    cstate *cs;
    double progress[32];
} bench;

static void bench_init(bench *b, int ngpus)
{
    memset(b, 0, sizeof *b);
    b->cat = catalog_new();
    catalog_add_builtin(b->cat);
    b->cl = cluster_new("c");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, "V100");
    n.gpu_count = ngpus;
    n.cpu_milli = 64000;
    n.ram_mib = 1 << 20;
    cluster_add_node(b->cl, &n);
    b->tr = trace_new("t");
    gp_err err = {{0}};
    b->cs = cstate_new(b->cl, b->cat, &err);
    assert_non_null(b->cs);
}

static void bench_free(bench *b)
{
    cstate_free(b->cs);
    trace_free(b->tr);
    cluster_free(b->cl);
    catalog_free(b->cat);
}

/* Adds a task (series of period 1 s, or constant `mean` when series is NULL). */
static int bench_task(bench *b, const float *series, size_t len, double dur, double mean)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", b->tr->ntasks);
    tk.duration_s = dur;
    tk.gpu_mem_gib = 1;
    if (series)
        task_set_util(&tk, series, len, 1);
    else
        tk.util_mean = tk.util_peak = tk.util_first = mean;
    trace_add_task(b->tr, &tk);
    task_release(&tk);
    return (int)b->tr->ntasks - 1;
}

static void bench_run(bench *b, int ti, int gpu)
{
    cstate_alloc(b->cs, &b->tr->tasks[ti], ti, b->cs->gpus[gpu].node, &gpu, 1);
}

static policy_ctx bench_ctx(bench *b)
{
    policy_ctx ctx = {.cs = b->cs, .tr = b->tr, .progress_s = b->progress};
    return ctx;
}

/* ---- Pearson as the policies use it ---------------------------------------------------- */

static void cmp(bench *b, int g, int ti, int from_start, useries_cmp *c)
{
    useries_in in;
    useries_in_init(&in, b->tr, ti);
    useries_compare(b->cs, b->tr, b->progress, g, &in, from_start, c);
    useries_in_free(&in);
}

static void test_pearson_known_vectors(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 2);
    const float x[5] = {1, 2, 3, 4, 5}, y[5] = {2, 4, 5, 4, 5}, y3[3] = {5, 4, 3};
    int a = bench_task(&b, x, 5, 5, 0);
    int in = bench_task(&b, y, 5, 5, 0);
    int in3 = bench_task(&b, y3, 3, 3, 0);
    bench_run(&b, a, 0);
    useries_cmp c;
    cmp(&b, 0, in, 0, &c);
    assert_double_equal(c.rho, 0.7745966692414834, 1e-12);    /* r([1..5],[2,4,5,4,5]) */
    assert_double_equal(c.rho, stats_pearson(x, 5, y, 5), 1e-15);
    assert_int_equal(c.n, 5);
    assert_double_equal(c.gpu_mean, 3, 1e-12);
    assert_double_equal(c.task_mean, 4, 1e-12);
    /* Unequal lengths: both truncated to the shorter (CATS Alg. 1 line 6). */
    cmp(&b, 0, in3, 0, &c);
    assert_int_equal(c.n, 3);
    assert_double_equal(c.rho, -1, 1e-12);                    /* [1,2,3] vs [5,4,3] */
    assert_double_equal(c.task_mean, 4, 1e-12);
    /* The GPU's remaining series is the shorter one: at progress 3 s only
     * [4, 5] is left. */
    b.progress[a] = 3;
    cmp(&b, 0, in, 0, &c);
    assert_int_equal(c.n, 2);
    assert_double_equal(c.rho, 1, 1e-12);                     /* [4,5] vs [2,4] */
    assert_double_equal(c.gpu_mean, 4.5, 1e-12);
    /* ... unless compared from the running task's start (CorrGPU §III-C). */
    cmp(&b, 0, in, 1, &c);
    assert_int_equal(c.n, 5);
    assert_double_equal(c.gpu_mean, 3, 1e-12);
    /* An empty GPU: no window, rho 0, the task's full mean. */
    cmp(&b, 1, in, 0, &c);
    assert_int_equal(c.n, 0);
    assert_double_equal(c.rho, 0, 0);
    assert_double_equal(c.task_mean, 4, 1e-12);
    bench_free(&b);
}

static void test_pearson_zero_variance_and_aggregates(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 3);
    const float flat[4] = {3, 3, 3, 3}, p[4] = {1, 0, 1, 0}, q[4] = {0, 1, 0, 2},
                y[4] = {2, 2, 2, 1};
    int f = bench_task(&b, flat, 4, 4, 0);
    int pa = bench_task(&b, p, 4, 4, 0);
    int qa = bench_task(&b, q, 4, 4, 0);
    int in = bench_task(&b, y, 4, 4, 0);
    int none = bench_task(&b, NULL, 0, 4, 40);     /* no series: constant 40 % */
    bench_run(&b, f, 0);
    bench_run(&b, pa, 1);
    bench_run(&b, qa, 1);
    useries_cmp c;
    cmp(&b, 0, in, 0, &c);
    assert_double_equal(c.rho, 0, 0);              /* constant aggregate: SPEC §5.1 */
    cmp(&b, 0, none, 0, &c);
    assert_double_equal(c.rho, 0, 0);              /* constant incoming task */
    assert_double_equal(c.task_mean, 40, 1e-12);
    /* Aggregate of two tasks: [1,1,1,2] against [2,2,2,1] */
    cmp(&b, 1, in, 0, &c);
    assert_double_equal(c.rho, -1, 1e-12);
    assert_double_equal(c.gpu_mean, 1.25, 1e-12);
    /* A constant task adds its mean to the aggregate. */
    bench_run(&b, none, 1);
    cmp(&b, 1, in, 0, &c);
    assert_double_equal(c.rho, -1, 1e-12);
    assert_double_equal(c.gpu_mean, 41.25, 1e-12);
    bench_free(&b);
}

/* A GPU's aggregate on the incoming task's grid when the GPU's task has
 * another period, its window running past the series (which repeats).
 * The running task: samples 10, 20, 30 of 2 s each, 3 s into its run; the
 * incoming one: 1, 2, 3, 4, 5 of 1 s.  At the incoming samples k = 0..4
 * the running task is at 3 + k s, samples floor((3 + k) / 2) mod 3 =
 * 1, 2, 2, 0, 0: 20, 30, 30, 10, 10.  Mean 20; deviations 0, 10, 10, -10,
 * -10 against -2, -1, 0, 1, 2: rho = -40 / sqrt(400 * 10) = -0.632456.
 * The memo's path gives the same. */
static void test_aggregate_on_another_grid(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 1);
    static const float run_u[] = {10, 20, 30}, in_u[] = {1, 2, 3, 4, 5};
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "running");
    tk.duration_s = 100;
    tk.gpu_mem_gib = 1;
    task_set_util(&tk, run_u, 3, 2);
    trace_add_task(b.tr, &tk);
    task_release(&tk);
    int t_in = bench_task(&b, in_u, 5, 5, 0);
    bench_run(&b, 0, 0);
    b.progress[0] = 3;
    useries_cmp c;
    cmp(&b, 0, t_in, 0, &c);
    assert_int_equal(c.n, 5);
    assert_true(fabs(c.gpu_mean - 20) < 1e-12);
    assert_true(fabs(c.rho - (-40 / sqrt(4000.0))) < 1e-9);
    useries_memo *memo = useries_memo_new(b.tr);
    useries_in in;
    useries_in_init(&in, b.tr, t_in);
    for (int pass = 0; pass < 2; pass++) {     /* built, then read from the memo */
        useries_cmp m;
        useries_compare_memo(b.cs, b.tr, b.progress, 0, &in, 0, memo, &m);
        assert_true(m.rho == c.rho && m.gpu_mean == c.gpu_mean && m.n == c.n);
    }
    useries_in_free(&in);
    useries_memo_free(memo);
    bench_free(&b);
}

static void test_series_helpers(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 1);
    const float s[3] = {10, 10, 70};
    int t = bench_task(&b, s, 3, 10, 0);
    int none = bench_task(&b, NULL, 0, 10, 0);     /* no data at all: 100 % */
    const task *tk = &b.tr->tasks[t];
    assert_double_equal(useries_pct_at(tk, 0.5), 10, 0);
    assert_double_equal(useries_pct_at(tk, 2.0), 70, 0);
    assert_double_equal(useries_pct_at(tk, 3.5), 10, 0);     /* repeats */
    double at;
    assert_int_equal(useries_next_change(tk, 0, &at), 2);     /* 10, 10 -> 70 */
    assert_double_equal(at, 2, 0);
    assert_int_equal(useries_next_change(tk, 8, &at), 9);
    assert_double_equal(at, 9, 0);
    useries_next_change(tk, 9, &at);
    assert_double_equal(at, 10, 0);                           /* capped at the duration */
    b.tr->tasks[none].util_mean = b.tr->tasks[none].util_peak = 0;
    b.tr->tasks[none].util_first = 0;
    assert_double_equal(useries_pct_at(&b.tr->tasks[none], 3), 100, 0);
    assert_double_equal(useries_summary(&b.tr->tasks[none], US_PEAK), 100, 0);
    assert_double_equal(useries_summary(tk, US_FIRST), 10, 0);
    assert_double_equal(useries_summary(tk, US_PEAK), 70, 0);
    assert_double_equal(useries_summary(tk, US_MEAN), 30, 1e-6);
    bench_free(&b);
}

/* ---- CATS ---------------------------------------------------------------------------- */

/* Six busy GPUs against an incoming [10, 30, 10, 30] (mean 20):
 *   g0 [60,40,..] rho -1, mean sum  70, dmu 0.30, score -1.30
 *   g1 [50,30,..] rho -1, mean sum  60, dmu 0.20, score -1.20
 *   g2 [90,70,..] rho -1, mean sum 100, dmu 0.60, score -1.60  <- lowest
 *   g3 [10,30,..] rho +1                          filtered (rho > 0)
 *   g4 [95,75,..] rho -1, mean sum 105             filtered (utilization)
 *   g5 constant 30: rho 0, mean sum 50, dmu 0.10, score -0.10 */
static void cats_bench(bench *b, int *in)
{
    static const float rows[5][4] = {
        {60, 40, 60, 40}, {50, 30, 50, 30}, {90, 70, 90, 70}, {10, 30, 10, 30}, {95, 75, 95, 75}};
    bench_init(b, 8);
    for (int g = 0; g < 5; g++)
        bench_run(b, bench_task(b, rows[g], 4, 4, 0), g);
    bench_run(b, bench_task(b, NULL, 0, 4, 30), 5);
    static const float y[4] = {10, 30, 10, 30};
    *in = bench_task(b, y, 4, 4, 0);
}

/* CATS's choice on the bench with Alg. 2's score (select=1) unless set1
 * says otherwise. */
static int cats_choice(bench *b, int in, const char *set1, const char *set2, explain *ex)
{
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("cats", &sp, &err), 0);
    assert_int_equal(policy_spec_set(&sp, "select=1", &err), 0);
    if (set1)
        assert_int_equal(policy_spec_set(&sp, set1, &err), 0);
    if (set2)
        assert_int_equal(policy_spec_set(&sp, set2, &err), 0);
    policy_ctx ctx = bench_ctx(b);
    placement pl;
    if (ex)
        explain_reset(ex);
    if (!sp.ops->place(&ctx, sp.params, in, &pl, ex))
        return -1;
    return pl.gpus[0];
}

static void test_cats_score_and_thresholds(void **state)
{
    (void)state;
    bench b;
    int in;
    cats_bench(&b, &in);
    explain ex;
    explain_init(&ex, NULL, 0);
    assert_int_equal(cats_choice(&b, in, NULL, NULL, &ex), 2);
    assert_int_equal(ex.ncands, 6);
    const explain_cand *c = &ex.cands[ex.chosen];
    assert_int_equal(c->gpu, 2);
    assert_double_equal(c->term[0], -1, 1e-12);                 /* rho */
    assert_double_equal(c->term[1], 0.6, 1e-12);                /* dmu, fractions */
    assert_double_equal(c->term[2], 100, 1e-9);                 /* mean sum, % */
    assert_double_equal(c->term[3], -1.6, 1e-12);               /* score */
    assert_false(ex.cands[3].eligible);                         /* rho +1 */
    tu_assert_contains(ex.cands[3].note, "rho");
    assert_false(ex.cands[4].eligible);                         /* 105 % */
    tu_assert_contains(ex.cands[4].note, "mean sum");
    assert_true(ex.cands[5].eligible);
    assert_double_equal(ex.cands[5].term[3], -0.1, 1e-12);
    tu_assert_contains(ex.summary, "cats: t6 -> srv/g2");
    /* A tighter utilization threshold drops g2: g0 is next (-1.30). */
    assert_int_equal(cats_choice(&b, in, "util_thr=99", NULL, NULL), 0);
    /* Without the delta_mu term the three rho = -1 GPUs tie: lowest index. */
    assert_int_equal(cats_choice(&b, in, "lambda2=0", NULL, NULL), 0);
    /* Without the correlation term g2 still has the largest dmu. */
    assert_int_equal(cats_choice(&b, in, "lambda1=0", NULL, NULL), 2);
    /* A threshold of -1.5 leaves nothing: a fresh GPU (g6, awake and idle). */
    assert_int_equal(cats_choice(&b, in, "corr_thr=-1", "util_thr=10", &ex), 6);
    tu_assert_contains(ex.summary, "fresh GPU");
    /* delta_mu in percent: the score is -100 dmu + rho; g2 still wins, by
     * a margin that makes rho irrelevant. */
    assert_int_equal(cats_choice(&b, in, "dmu_unit=1", NULL, &ex), 2);
    assert_double_equal(ex.cands[ex.chosen].term[1], 60, 1e-9);
    assert_double_equal(ex.cands[ex.chosen].term[3], -61, 1e-9);
    explain_free(&ex);
    bench_free(&b);
}

/* The default selection, first fit (CATS §3.5 "based on the bin-packing
 * principle", §3.6 first fit): the first GPU in index order that passes
 * Alg. 1's thresholds, g0, where the score takes g2. */
static void test_cats_first_fit(void **state)
{
    (void)state;
    bench b;
    int in;
    cats_bench(&b, &in);
    explain ex;
    explain_init(&ex, NULL, 0);
    assert_int_equal(cats_choice(&b, in, "select=0", NULL, &ex), 0);
    tu_assert_contains(ex.summary, "first fit");
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("cats", &sp, &err), 0);
    policy_ctx ctx = bench_ctx(&b);
    placement pl;
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, NULL), 1);
    assert_int_equal(pl.gpus[0], 0);                            /* the default */
    /* g0 filtered by its utilization: g1 is the next that passes. */
    assert_int_equal(cats_choice(&b, in, "select=0", "util_thr=65", NULL), 1);
    explain_free(&ex);
    bench_free(&b);
}

/* CATS §3.4: t1 (12 GB, 52.23 %) at 0 s and t2 (10 GB, 42.7 %) at 1 s on
 * two 32 GB GPUs; their utilizations are exactly complementary in time
 * (rho = -1), so CATS puts t2 with t1 on GPU 0 and GPU 1 stays asleep. */
static void test_cats_paper_example(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("testbed2");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, "V100");
    n.gpu_count = 2;
    cluster_add_node(cl, &n);
    gp_trace *tr = trace_new("fig6");
    enum { LEN = 600 };
    float u1[LEN], u2[LEN];
    for (int i = 0; i < LEN; i++) {
        /* Alternating +-20 points; t2 starts one sample later, so in time
         * t2 is high exactly when t1 is low. */
        u1[i] = (float)(52.23 + (i % 2 ? -20 : 20));
        u2[i] = (float)(42.7 + (i % 2 ? -20 : 20));
    }
    static const double arrival[2] = {0, 1}, mem[2] = {12, 10};
    const float *u[2] = {u1, u2};
    for (int t = 0; t < 2; t++) {
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "t%d", t + 1);
        tk.arrival_s = arrival[t];
        tk.duration_s = LEN;
        tk.gpu_mem_gib = mem[t];
        task_set_util(&tk, u[t], LEN, 1);
        trace_add_task(tr, &tk);
        task_release(&tk);
    }
    sim_config cfg;
    sim_config_default(&cfg);       /* CATS: sleep on */
    cfg.dfs = 0;                    /* keeps progress = time, so t1 is at sample 1 at 1 s */
    cfg.explain_candidates = 1;     /* the candidates are read below */
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("cats", &sp, &err), 0);
    sim *s = sim_new(&cfg, cl, cat, tr, &sp, &err);
    assert_non_null(s);
    assert_int_equal(sim_step(s), 1);
    assert_int_equal(sim_step(s), 1);
    const explain *ex = sim_last_explain(s);
    assert_non_null(ex);
    assert_double_equal(ex->cands[ex->chosen].term[0], -1, 1e-9);
    const cstate *cs = sim_cstate(s);
    assert_int_equal(cs->gpus[0].ntasks, 2);
    assert_int_equal(cs->gpus[1].ntasks, 0);
    assert_int_equal(cs->gpus[1].power, GPU_ASLEEP);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_double_equal(run_metric_get(r, "unique_gpus", -1), 1, 0);
    assert_double_equal(run_metric_get(r, "peak_gpus", -1), 1, 0);
    /* Complementary: the sum is 94.93 % throughout, so neither slows down. */
    assert_double_equal(run_metric_get(r, "sla_violations", -1), 0, 0);
    assert_double_equal(run_metric_get(r, "jct_mean_s", 0), LEN, 1e-9);
    sim_free(s);
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
}

/* ---- CorrGPU ------------------------------------------------------------------------- */

/* On the CATS bench: rho < 0 strictly (g5's rho 0 is out); g0, g1 and g2
 * (100 % <= q) tie on rho = -1 and g1's delta1 (60 %) beats the others';
 * g4 (105 %) is over q: soft (the default, Alg. 1 step 3) keeps it, to
 * sort last; hard drops it. */
static void test_corrgpu_ordering(void **state)
{
    (void)state;
    bench b;
    int in;
    cats_bench(&b, &in);
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("corrgpu", &sp, &err), 0);
    policy_ctx ctx = bench_ctx(&b);
    placement pl;
    explain ex;
    explain_init(&ex, NULL, 0);
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, &ex), 1);
    assert_int_equal(pl.gpus[0], 1);
    assert_double_equal(ex.cands[ex.chosen].term[1], 60, 1e-9);
    assert_false(ex.cands[5].eligible);            /* rho 0 is not < alpha = 0 */
    assert_true(ex.cands[2].eligible);             /* 100 % <= q: the shared test */
    assert_true(ex.cands[4].eligible);             /* over q, soft: sorts last */
    tu_assert_contains(ex.cands[4].note, "over q");
    /* q = 50: every candidate is over q.  Soft takes the best of them by
     * rho then delta1 (g1) rather than a new GPU; hard allocates one. */
    assert_int_equal(policy_spec_set(&sp, "q=50", &err), 0);
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, NULL), 1);
    assert_int_equal(pl.gpus[0], 1);
    assert_int_equal(policy_spec_set(&sp, "q_mode=1", &err), 0);
    explain_reset(&ex);
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, &ex), 1);
    assert_int_equal(pl.gpus[0], 6);
    assert_false(ex.cands[4].eligible);
    assert_int_equal(policy_spec_set(&sp, "q=100", &err), 0);
    assert_int_equal(policy_spec_set(&sp, "q_mode=0", &err), 0);
    /* alpha = 0.5 admits g5 but rho still sorts first; q = 101 admits g4,
     * whose delta1 (105 %) loses to g1's. */
    assert_int_equal(policy_spec_set(&sp, "alpha=0.5", &err), 0);
    assert_int_equal(policy_spec_set(&sp, "q=101", &err), 0);
    explain_reset(&ex);
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, &ex), 1);
    assert_int_equal(pl.gpus[0], 1);
    explain_free(&ex);
    bench_free(&b);
}

static run *run_policy(const sample_set *set, const char *policy)
{
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.unbounded = 1;              /* CorrGPU's CapEx setting */
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse(policy, &sp, &err), 0);
    sim *s = sim_new(&cfg, set->cl, cat, set->tr, &sp, &err);
    assert_non_null(s);
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    catalog_free(cat);
    return r;
}

/* CorrGPU §III-B on the sample set corrgpu-example: CorrGPU places both
 * tasks on one GPU (rho -0.8 < 0, 41.36 + 41.92 < 100), First needs two
 * (80 + 25 >= 100): CapEx 2.5 K against 5 K USD (eq. 2, P = 2.5 K). */
static void test_corrgpu_motivating_example(void **state)
{
    (void)state;
    sample_set set;
    gp_err err = {{0}};
    assert_int_equal(samplegen_build("corrgpu-example", SAMPLEGEN_DEFAULT_SEED, &set, &err), 0);
    const task *t1 = &set.tr->tasks[0], *t2 = &set.tr->tasks[1];
    assert_double_equal(stats_pearson(t1->util.pct, t1->util.len, t2->util.pct, t2->util.len),
                        -0.8, 0.01);
    assert_double_equal(useries_summary(t1, US_FIRST), 80, 1e-6);
    assert_double_equal(useries_summary(t2, US_FIRST), 25, 1e-6);
    static const struct {
        const char *policy;
        double gpus, capex;
    } cases[] = {
        {"corrgpu", 1, 2500}, {"first", 2, 5000}, {"harmony", 2, 5000},
        {"hotcloud", 1, 2500}, {"cats", 1, 2500},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run *r = run_policy(&set, cases[i].policy);
        if (run_metric_get(r, "unique_gpus", -1) != cases[i].gpus ||
            run_metric_get(r, "capex_usd", -1) != cases[i].capex)
            fail_msg("%s: %g GPUs, %g USD", cases[i].policy, run_metric_get(r, "unique_gpus", -1),
                     run_metric_get(r, "capex_usd", -1));
        run_free(r);
    }
    sample_set_free(&set);
}

/* ---- baselines ---------------------------------------------------------------------- */

/* A running task (first 80, mean 41.36, peak 80.8) on g0 and an incoming
 * one (25, 41.92, 61.8), the summaries of CorrGPU §III-B. */
static void test_threshold_baselines(void **state)
{
    (void)state;
    static const struct {
        const char *policy, *set;
        int gpu;
    } cases[] = {
        {"first", NULL, 1},          /* 80 + 25 = 105 >= 100: fresh */
        {"first", "q=110", 0},       /* 105 < 110 */
        {"first", "q=105", 0},       /* 105 <= 105: the shared admission test */
        {"hotcloud", NULL, 0},       /* 83.28 < 100 */
        {"hotcloud", "q=80", 1},
        {"harmony", NULL, 1},        /* 142.6 >= 100 */
        {"harmony", "q=150", 0},
        {"hotcloud", "pctl=100", 1}, /* peak-based HotCloud: Harmony's 142.6 */
        {"hotcloud", "pctl=50", 0},  /* a constant task's median is its mean */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bench b;
        bench_init(&b, 2);
        int r = bench_task(&b, NULL, 0, 10, 0), in = bench_task(&b, NULL, 0, 10, 0);
        b.tr->tasks[r].util_first = 80;
        b.tr->tasks[r].util_mean = 41.36;
        b.tr->tasks[r].util_peak = 80.8;
        b.tr->tasks[in].util_first = 25;
        b.tr->tasks[in].util_mean = 41.92;
        b.tr->tasks[in].util_peak = 61.8;
        bench_run(&b, r, 0);
        policy_spec sp;
        gp_err err = {{0}};
        assert_int_equal(policy_spec_parse(cases[i].policy, &sp, &err), 0);
        if (cases[i].set)
            assert_int_equal(policy_spec_set(&sp, cases[i].set, &err), 0);
        policy_ctx ctx = bench_ctx(&b);
        placement pl;
        assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, NULL), 1);
        if (pl.gpus[0] != cases[i].gpu)
            fail_msg("case %zu (%s %s): GPU %d", i, cases[i].policy,
                     cases[i].set ? cases[i].set : "", pl.gpus[0]);
        bench_free(&b);
    }
}

/* ---- windows and fresh GPUs ---------------------------------------------------------- */

static void test_windows_and_fresh(void **state)
{
    (void)state;
    bench b;
    bench_init(&b, 4);
    int r = bench_task(&b, NULL, 0, 10, 10);
    int in = bench_task(&b, NULL, 0, 10, 10);
    b.tr->tasks[in].num_gpu = 2;
    bench_run(&b, r, 1);
    placement pl;
    assert_int_equal(corr_window(b.cs, &b.tr->tasks[in], 1, &pl), CORR_FITS);
    assert_int_equal(pl.ngpus, 2);
    assert_int_equal(pl.gpus[1], 2);
    assert_int_equal(corr_window(b.cs, &b.tr->tasks[in], 3, &pl), CORR_NO_ROOM);
    b.tr->tasks[in].gpu_mem_gib = 31.5;    /* g1 holds 1 GiB of 32 */
    assert_int_equal(corr_window(b.cs, &b.tr->tasks[in], 1, &pl), CORR_MEMORY);
    b.tr->tasks[in].gpu_spec = xstrdup("A100-40GB");
    assert_int_equal(corr_window(b.cs, &b.tr->tasks[in], 1, &pl), CORR_MODEL);
    free(b.tr->tasks[in].gpu_spec);
    b.tr->tasks[in].gpu_spec = NULL;
    b.tr->tasks[in].gpu_mem_gib = 1;
    /* HotCloud: the window from the busy g1 (g1, g2). */
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("hotcloud", &sp, &err), 0);
    policy_ctx ctx = bench_ctx(&b);
    assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, NULL), 1);
    assert_int_equal(pl.gpus[0], 1);
    assert_int_equal(pl.gpus[1], 2);
    /* Fresh windows: two consecutive empty devices -> g2, g3; one empty
     * device preferred awake over asleep. */
    assert_int_equal(corr_fresh(b.cs, &b.tr->tasks[in], &pl), 1);
    assert_int_equal(pl.gpus[0], 2);
    b.tr->tasks[in].num_gpu = 1;
    cstate_set_gpu_power(b.cs, 0, GPU_ASLEEP);
    assert_int_equal(corr_fresh(b.cs, &b.tr->tasks[in], &pl), 1);
    assert_int_equal(pl.gpus[0], 2);
    cstate_set_gpu_power(b.cs, 2, GPU_ASLEEP);
    cstate_set_gpu_power(b.cs, 3, GPU_ASLEEP);
    assert_int_equal(corr_fresh(b.cs, &b.tr->tasks[in], &pl), 1);
    assert_int_equal(pl.gpus[0], 0);       /* all asleep: lowest index */
    bench_free(&b);
}

/* ---- the shared admission test ------------------------------------------------------ */

/* A running task at 90 % for its first half and 10 % for its second, 2 s
 * into its 4 s (whole-series mean 50, remaining 10), and an incoming
 * constant 60 %: the remaining window admits it (10 + 60 = 70), the whole
 * series does not (50 + 60 = 110); every mean-reading policy follows the
 * window it is given, and the operator is <= for all. */
static void test_admission_window_and_operator(void **state)
{
    (void)state;
    assert_true(corr_admits(100, 100));
    assert_false(corr_admits(100.000001, 100));
    assert_true(corr_admits(99.5, 100));
    static const struct {
        const char *policy;
        int whole_gpu, remaining_gpu;
    } cases[] = {
        {"hotcloud", 1, 0}, {"cats", 1, 0}, {"corrgpu", 1, 1},   /* corrgpu: rho 0 !< 0 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        for (int whole = 0; whole < 2; whole++) {
            bench b;
            bench_init(&b, 2);
            static const float x[4] = {90, 90, 10, 10};
            int r = bench_task(&b, x, 4, 4, 0);
            int in = bench_task(&b, NULL, 0, 2, 60);
            bench_run(&b, r, 0);
            b.progress[r] = 2;
            policy_spec sp;
            gp_err err = {{0}};
            assert_int_equal(policy_spec_parse(cases[i].policy, &sp, &err), 0);
            assert_int_equal(policy_spec_set_role(&sp, OPT_UTIL_WINDOW, whole), 1);
            policy_ctx ctx = bench_ctx(&b);
            placement pl;
            assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, NULL), 1);
            int want = whole ? cases[i].whole_gpu : cases[i].remaining_gpu;
            if (pl.gpus[0] != want)
                fail_msg("%s, %s window: GPU %d, expected %d", cases[i].policy,
                         whole ? "whole" : "remaining", pl.gpus[0], want);
            bench_free(&b);
        }
    }
    /* First and Harmony sum constants (first sample, peak): no window. */
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("first", &sp, &err), 0);
    assert_int_equal(policy_spec_set_role(&sp, OPT_UTIL_WINDOW, 1), 0);
}

/* ---- multi-GPU windows count the GPUs they wake --------------------------------------- */

/* Busy g0, idle g1, busy g2 and g3; an incoming two-GPU task fits the
 * windows (g0, g1) and (g2, g3) alike, but the first wakes g1, a GPU newly
 * opened: every policy takes (g2, g3). */
static void test_multi_gpu_wakeups(void **state)
{
    (void)state;
    static const char *const specs[][2] = {
        {"cats", NULL}, {"cats", "select=1"}, {"corrgpu", NULL}, {"first", NULL},
        {"hotcloud", NULL}, {"harmony", "q=200"},
    };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        bench b;
        bench_init(&b, 4);
        static const float busy[4] = {60, 20, 60, 20}, inc[4] = {20, 60, 20, 60};
        int x = bench_task(&b, busy, 4, 4, 0);
        int y = bench_task(&b, busy, 4, 4, 0);
        int z = bench_task(&b, busy, 4, 4, 0);
        int in = bench_task(&b, inc, 4, 4, 0);
        b.tr->tasks[in].num_gpu = 2;
        bench_run(&b, x, 0);
        bench_run(&b, y, 2);
        bench_run(&b, z, 3);
        cstate_set_gpu_power(b.cs, 1, GPU_ASLEEP);
        policy_spec sp;
        gp_err err = {{0}};
        assert_int_equal(policy_spec_parse(specs[i][0], &sp, &err), 0);
        if (specs[i][1])
            assert_int_equal(policy_spec_set(&sp, specs[i][1], &err), 0);
        policy_ctx ctx = bench_ctx(&b);
        placement pl;
        explain ex;
        explain_init(&ex, NULL, 0);
        assert_int_equal(sp.ops->place(&ctx, sp.params, in, &pl, &ex), 1);
        if (pl.ngpus != 2 || pl.gpus[0] != 2 || pl.gpus[1] != 3)
            fail_msg("%s %s: took g%d,g%d, expected the window that wakes nothing", specs[i][0],
                     specs[i][1] ? specs[i][1] : "", pl.gpus[0], pl.gpus[1]);
        tu_assert_contains(ex.summary, "opens 0");
        /* The window from g0 is counted as opening one GPU. */
        assert_int_equal(ex.cands[0].gpu, 0);
        tu_assert_contains(ex.cands[0].note, "opens 1");
        explain_free(&ex);
        bench_free(&b);
    }
}

/* ---- an anti-correlated trace --------------------------------------------------------- */

/* Four tasks of an hour, 60 s samples, arriving two samples apart (so
 * that their phases line up in time):
 *   A [80,20] mean 50    B [50,10] mean 30 (with A: rho +1)
 *   C [20,80] mean 50    D [50,90] mean 70 (with B: rho -1)
 * HotCloud packs A+B by their means (80 %): C (50) and D (70) then fit
 * nowhere together — three GPUs, one of them over 100 % at every peak.
 * CATS keeps B off A (rho +1), so C joins A (rho -1, 100 %) and D joins B
 * (rho -1, 100 %): two GPUs, never over 100 %.  Harmony's peaks (80, 50,
 * 80, 90) pair with nothing: four. */
static gp_trace *anticorrelated_trace(void)
{
    static const float u[4][2] = {{80, 20}, {50, 10}, {20, 80}, {50, 90}};
    gp_trace *tr = trace_new("anti");
    for (int t = 0; t < 4; t++) {
        float s[60];
        for (int k = 0; k < 60; k++)
            s[k] = u[t][k % 2];
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "%c", 'A' + t);
        tk.arrival_s = 120.0 * t;
        tk.duration_s = 3600;
        tk.gpu_mem_gib = 1;
        task_set_util(&tk, s, 60, 60);
        trace_add_task(tr, &tk);
        task_release(&tk);
    }
    return tr;
}

static run *run_on(const cluster *cl, const gp_trace *tr, const char *policy, int dfs)
{
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.dfs = dfs;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse(policy, &sp, &err), 0);
    sim *s = sim_new(&cfg, cl, cat, tr, &sp, &err);
    assert_non_null(s);
    sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    assert_int_equal(sim_placement_gpus(&cfg, cl, cat, tr, &sp, r, &err), 0);
    catalog_free(cat);
    return r;
}

static void test_anticorrelated_trace(void **state)
{
    (void)state;
    cluster *cl = cluster_new("one-server");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, "V100");
    n.gpu_count = 8;
    n.cpu_milli = 64000;
    n.ram_mib = 1 << 20;
    cluster_add_node(cl, &n);
    gp_trace *tr = anticorrelated_trace();
    run *cats = run_on(cl, tr, "cats", 0), *hot = run_on(cl, tr, "hotcloud", 0),
        *harm = run_on(cl, tr, "harmony", 0);
    assert_double_equal(run_metric_get(cats, "unique_gpus", -1), 2, 0);
    assert_double_equal(run_metric_get(hot, "unique_gpus", -1), 3, 0);
    assert_double_equal(run_metric_get(harm, "unique_gpus", -1), 4, 0);
    double gc = run_metric_get(cats, "place_gpus", -1), gh = run_metric_get(hot, "place_gpus", -1),
           gm = run_metric_get(harm, "place_gpus", -1);
    if (!(gc < gh && gc < gm))
        fail_msg("placement: CATS %g GPUs, HotCloud %g, Harmony %g", gc, gh, gm);
    /* CATS's GPUs never exceed 100 %: no task slows down.  GPU 0 runs
     * from 0 (A) to 3840 s (C), GPU 1 from 120 (B) to 3960 s (D), the
     * span: 7680 GPU-seconds over 3960 s.  The fluid bound is the four
     * means' sum, 2 GPUs, for an hour of the span. */
    assert_double_equal(gc, 7680.0 / 3960, 1e-9);
    assert_double_equal(run_metric_get(cats, "gpu_hours", -1), 7680.0 / 3600, 1e-9);
    assert_double_equal(run_metric_get(cats, "fluid_gpus", -1), 2 * 3600.0 / 3960, 1e-9);
    /* With DFS on, the placement metric comes from the DFS-off twin: the
     * same two GPUs, however far DFS stretched the tasks. */
    run *dfs = run_on(cl, tr, "cats", 1);
    assert_double_equal(run_metric_get(dfs, "dfs", -1), 1, 0);
    assert_double_equal(run_metric_get(dfs, "place_gpus", -1), gc, 1e-9);
    assert_true(run_metric_get(dfs, "avg_gpus", -1) >= run_metric_get(dfs, "fluid_gpus", 0));
    run_free(dfs);
    run_free(cats);
    run_free(hot);
    run_free(harm);
    trace_free(tr);
    cluster_free(cl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pearson_known_vectors),
        cmocka_unit_test(test_pearson_zero_variance_and_aggregates),
        cmocka_unit_test(test_series_helpers),
        cmocka_unit_test(test_aggregate_on_another_grid),
        cmocka_unit_test(test_cats_score_and_thresholds),
        cmocka_unit_test(test_cats_first_fit),
        cmocka_unit_test(test_cats_paper_example),
        cmocka_unit_test(test_corrgpu_ordering),
        cmocka_unit_test(test_corrgpu_motivating_example),
        cmocka_unit_test(test_threshold_baselines),
        cmocka_unit_test(test_windows_and_fresh),
        cmocka_unit_test(test_admission_window_and_operator),
        cmocka_unit_test(test_multi_gpu_wakeups),
        cmocka_unit_test(test_anticorrelated_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
