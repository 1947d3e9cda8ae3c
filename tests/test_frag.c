/*
 * test_frag.c — FGD's target workload and node/cluster fragmentation
 * (FGD_NOTES §2–3): the typical-task rules (order, ties, the 95 % cut,
 * popularity), F_n for every case of §3 on hand-worked nodes with the
 * expected buckets, the fast statistics path against the direct one, the
 * incremental cluster sum, and the default Alibaba trace's typical tasks
 * (35 classes, 7766 tasks) when ../shared/data is there.
 */
#include "fgdtest.h"

#include "core/frag.h"
#include "core/frag_int.h"
#include "core/rng.h"

/* A×4 sharing (4000, 500), B×2 two whole GPUs (8000), C×1 CPU-only (2000),
 * D×1 sharing restricted to T4 (1000, 200): p = .5, .25, .125, .125. */
static gp_trace *small_trace(void)
{
    gp_trace *t = trace_new("small");
    ft_add_tasks(t, "a", 4, 4000, 1, 500, NULL);
    ft_add_tasks(t, "b", 2, 8000, 2, 1000, NULL);
    ft_add_tasks(t, "c", 1, 2000, 0, 0, NULL);
    ft_add_tasks(t, "d", 1, 1000, 1, 200, "T4");
    return t;
}

static void test_workload_small(void **state)
{
    (void)state;
    gp_trace *t = small_trace();
    frag_workload *w = frag_workload_new(t);
    assert_int_equal(w->n, 4);
    assert_int_equal(w->total, 8);
    /* Count descending; C and D tie at 1: the larger key (cpu 2000) first. */
    const int64_t cpu[] = {4000, 8000, 2000, 1000};
    const int g[] = {500, 1000, 0, 200}, k[] = {1, 2, 0, 1}, cnt[] = {4, 2, 1, 1};
    const double p[] = {0.5, 0.25, 0.125, 0.125};
    for (int m = 0; m < 4; m++) {
        assert_int_equal(w->cls[m].cpu_milli, cpu[m]);
        assert_int_equal(w->cls[m].g, g[m]);
        assert_int_equal(w->cls[m].k, k[m]);
        assert_int_equal(w->cls[m].count, cnt[m]);
        assert_double_equal(w->cls[m].p, p[m], 0);
    }
    assert_string_equal(w->cls[3].gpu_type, "T4");
    assert_null(w->cls[0].spec);
    frag_workload_free(w);
    trace_free(t);
}

/* 19 X and 1 Y: the cut at 95 % (19 of 20) stops after X, whose
 * popularity is renormalised to (19/20)/(19/20) = 1. */
static void test_workload_cut(void **state)
{
    (void)state;
    gp_trace *t = trace_new("cut");
    ft_add_tasks(t, "x", 19, 1000, 1, 1000, NULL);
    ft_add_tasks(t, "y", 1, 9000, 0, 0, NULL);
    frag_workload *w = frag_workload_new(t);
    assert_int_equal(w->n, 1);
    assert_int_equal(w->total, 19);
    assert_double_equal(w->cls[0].p, 1.0, 0);
    frag_workload_free(w);
    trace_free(t);
    /* An empty trace gives an empty workload and zero fragmentation. */
    t = trace_new("empty");
    w = frag_workload_new(t);
    assert_int_equal(w->n, 0);
    frag_workload_free(w);
    trace_free(t);
}

/* One F_n case of FGD_NOTES §3. */
typedef struct frag_case {
    const char *what;
    int node;                   /* 0 = A10, 1 = T4, 2 = CPU-only */
    int64_t cpu_left;
    int idle[4];
    double f;
    double b[FRAG_NBUCKETS];    /* q1 q2 q3 q4 xl xr na */
} frag_case;

static const frag_case cases[] = {
    /* A fits (frag 300 → q2 150, q3 800); B lacks GPU (q2 475); C fits
     * (xl 237.5); D's type not allowed on an A10 (na 237.5). */
    {"fit, lack GPU, CPU-only fits, no access", 0, 10000, {1000, 300, 600, 0}, 1100,
     {0, 625, 800, 0, 237.5, 0, 237.5}},
    /* CPU 3000: A lacks CPU (q4), B lacks both (q1). */
    {"lack CPU, lack both", 0, 3000, {1000, 300, 600, 0}, 1900,
     {475, 0, 0, 950, 237.5, 0, 237.5}},
    /* CPU 1500: the CPU-only class lacks CPU too (xr). */
    {"CPU-only class lacks CPU", 0, 1500, {1000, 300, 600, 0}, 1900,
     {475, 0, 0, 950, 0, 237.5, 237.5}},
    /* T4: every GPU class fits; only devices below each g are fragment. */
    {"all fit on the allowed type", 1, 10000, {1000, 1000, 150, 0}, 400,
     {0, 131.25, 1750, 0, 268.75, 0, 0}},
    {"no idle GPU", 1, 10000, {0, 0, 0, 0}, 0, {0}},
    {"node without GPUs", 2, 10000, {0, 0, 0, 0}, 0, {0}},
};

static cluster *three_nodes(void)
{
    cluster *c = cluster_new("three");
    ft_add_node(c, "a10", "A10", 4, 16000, 65536);
    ft_add_node(c, "t4", "T4", 4, 16000, 65536);
    ft_add_node(c, "cpu", "", 0, 16000, 65536);
    return c;
}

static void test_node_cases(void **state)
{
    (void)state;
    gp_trace *t = small_trace();
    frag_workload *w = frag_workload_new(t);
    cluster *cl = three_nodes();
    catalog *cat = ft_catalog();
    gp_err err = {{0}};
    cstate *cs = cstate_new(cl, cat, &err);
    assert_non_null(cs);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const frag_case *fc = &cases[i];
        ft_set_node(cs, fc->node, fc->cpu_left, fc->idle);
        double f = frag_node(w, cs, fc->node);
        if (f != fc->f)
            fail_msg("%s: F_n %.17g, expected %g", fc->what, f, fc->f);
        /* The bucket split through the statistics path. */
        const cs_node *n = &cs->nodes[fc->node];
        unsigned char acc[4];
        int cnt[4], sum[4];
        double b[FRAG_NBUCKETS];
        frag_access(w, n->gpu ? n->gpu->name : "", acc);
        frag_stats(w, fc->idle, n->ngpus, cnt, sum);
        int64_t total = 0;
        for (int d = 0; d < n->ngpus; d++)
            total += fc->idle[d];
        assert_double_equal(frag_from_stats(w, acc, cnt, sum, total, fc->cpu_left, b), f, 0);
        for (int q = 0; q < FRAG_NBUCKETS; q++)
            if (b[q] != fc->b[q])
                fail_msg("%s: bucket %d is %g, expected %g", fc->what, q, b[q], fc->b[q]);
    }
    cstate_free(cs);
    catalog_free(cat);
    cluster_free(cl);
    frag_workload_free(w);
    trace_free(t);
}

/* The statistics path gives the very same double as the direct one on
 * random states (the FGD score relies on it for exact replay). */
static void test_stats_path_identical(void **state)
{
    (void)state;
    gp_trace *t = small_trace();
    ft_add_tasks(t, "e", 3, 6000, 1, 330, NULL);
    ft_add_tasks(t, "f", 2, 12000, 4, 1000, "A10|T4");
    frag_workload *w = frag_workload_new(t);
    cluster *cl = three_nodes();
    catalog *cat = ft_catalog();
    gp_err err = {{0}};
    cstate *cs = cstate_new(cl, cat, &err);
    rng r;
    rng_seed(&r, 7);
    for (int it = 0; it < 2000; it++) {
        int ni = (int)rng_below(&r, 2), idle[4];
        for (int d = 0; d < 4; d++)
            idle[d] = (int)rng_below(&r, 11) * 100 - (int)rng_below(&r, 2) * 30;
        for (int d = 0; d < 4; d++)
            idle[d] = idle[d] < 0 ? 0 : idle[d];
        int64_t cpu = (int64_t)rng_below(&r, 16001);
        const cs_node *n = &cs->nodes[ni];
        unsigned char acc[8];
        int cnt[8], sum[8];
        frag_access(w, n->gpu->name, acc);
        frag_stats(w, idle, 4, cnt, sum);
        double direct = frag_node_raw(w, n, idle, cpu);
        double fast = frag_from_stats(w, acc, cnt, sum,
                                      (int64_t)idle[0] + idle[1] + idle[2] + idle[3], cpu, NULL);
        assert_true(direct == fast);
    }
    cstate_free(cs);
    catalog_free(cat);
    cluster_free(cl);
    frag_workload_free(w);
    trace_free(t);
}

/* frag_cluster recomputes only the node an allocation touched. */
static void test_cluster_incremental(void **state)
{
    (void)state;
    gp_trace *t = small_trace();
    frag_workload *w = frag_workload_new(t);
    cluster *cl = three_nodes();
    catalog *cat = ft_catalog();
    gp_err err = {{0}};
    cstate *cs = cstate_new(cl, cat, &err);
    double f0 = frag_cluster(w, cs);
    for (size_t i = 0; i < cs->nnodes; i++)
        assert_int_equal(cs->nodes[i].frag_valid, 1);
    assert_double_equal(f0, frag_node(w, cs, 0) + frag_node(w, cs, 1), 0);
    /* A sharing task of 500 on device 1 of the T4 node. */
    int gpu = cs->nodes[1].gpu0 + 1;
    cstate_alloc(cs, &t->tasks[0], 0, 1, &gpu, 1);
    assert_int_equal(cs->nodes[0].frag_valid, 1);
    assert_int_equal(cs->nodes[1].frag_valid, 0);
    /* A stale value left in the untouched node's cache proves it is reused. */
    double keep = cs->nodes[0].frag_cache;
    cs->nodes[0].frag_cache = keep + 1000;
    double f1 = frag_cluster(w, cs);
    assert_double_equal(f1, keep + 1000 + frag_node(w, cs, 1), 0);
    cs->nodes[0].frag_valid = 0;
    assert_double_equal(frag_cluster(w, cs), keep + frag_node(w, cs, 1), 0);
    cstate_free(cs);
    catalog_free(cat);
    cluster_free(cl);
    frag_workload_free(w);
    trace_free(t);
}

/* FGD_NOTES §2 on the default trace: 35 classes covering 7766 tasks, the
 * first (cpu 3152, g 810, one GPU) with 1047 tasks; and §3's empty-cluster
 * fragment ratio of 13.94 %. */
static void test_default_trace(void **state)
{
    (void)state;
    ft_openb o;
    if (ft_openb_load(&o, "openb_pod_list_default.csv"))
        return;
    assert_int_equal(o.tr->ntasks, 8152);
    frag_workload *w = frag_workload_new(o.tr);
    assert_int_equal(w->n, 35);
    assert_int_equal(w->total, 7766);
    assert_int_equal(w->cls[0].cpu_milli, 3152);
    assert_int_equal(w->cls[0].g, 810);
    assert_int_equal(w->cls[0].k, 1);
    assert_int_equal(w->cls[0].count, 1047);
    assert_double_equal(w->cls[0].p, (1047.0 / 8152) / (7766.0 / 8152), 0);
    double psum = 0;
    for (size_t m = 0; m < w->n; m++)
        psum += w->cls[m].p;
    assert_double_equal(psum, 1.0, 1e-12);
    gp_err err = {{0}};
    cstate *cs = cstate_new(o.cl, o.cat, &err);
    assert_non_null(cs);
    double f = frag_cluster(w, cs);
    double ratio = 100 * f / 6212000.0;
    assert_double_equal(ratio, 13.94, 0.005);
    cstate_free(cs);
    frag_workload_free(w);
    ft_openb_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_small),
        cmocka_unit_test(test_workload_cut),
        cmocka_unit_test(test_node_cases),
        cmocka_unit_test(test_stats_path_identical),
        cmocka_unit_test(test_cluster_incremental),
        cmocka_unit_test(test_default_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
