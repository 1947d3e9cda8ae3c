/*
 * test_eopc.c — the eopc power model (SPEC §3.2, FGD_NOTES §6): CPU
 * packages by busy cores (two vCPUs per core, 16-core packages), GPUs at
 * max W with any allocation, hand-worked nodes, and the default Alibaba
 * cluster empty (230,100 W = 55,665 CPU + 174,435 GPU) and full
 * (1,474,110 W) when ../shared/data is there.
 */
#include "fgdtest.h"
#include "core/cstate_int.h"

#include <math.h>

#include "power/power.h"

typedef struct eopc_case {
    const char *what;
    const char *model;
    int gpus;
    int64_t cap, left;
    int idle[8];
    double cpu_w, gpu_w;
} eopc_case;

static const eopc_case cases[] = {
    /* 96 vCPU = 48 cores = 3 packages, all idle: 3 × 15 W; 8 idle A10-class. */
    {"idle G2 node", "G2", 8, 96000, 96000, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
     45, 240},
    /* 1 vCPU taken: floor(95/2) = 47 idle cores, 1 working → 1 package at 120 W;
     * a device with 1 milli taken draws max W. */
    {"one busy core and device", "G2", 8, 96000, 95000,
     {999, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, 2 * 15 + 120, 7 * 30 + 150},
    /* 33 cores working need 3 packages. */
    {"33 working cores", "G2", 8, 96000, 30000, {0, 0, 0, 0, 0, 0, 0, 0}, 3 * 120, 8 * 150},
    /* 64 vCPU = 32 cores = 2 packages; 2 T4 (10/70 W). */
    {"T4 node, half the cores", "T4", 2, 64000, 32000, {1000, 500}, 15 + 120, 10 + 70},
    /* Odd vCPU: ceil(33/2) = 17 cores (2 packages) but floor(33/2) = 16 idle
     * cores, so an empty node already has one working core. */
    {"odd vCPU count", "P100", 1, 33000, 33000, {1000}, 15 + 120, 25},
    {"CPU-only node", "", 0, 32000, 0, {0}, 120, 0},
};

static void test_hand_cases(void **state)
{
    (void)state;
    catalog *cat = ft_catalog();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const eopc_case *e = &cases[i];
        cluster *cl = cluster_new("one");
        ft_add_node(cl, "n", e->model, e->gpus, e->cap, 65536);
        gp_err err = {{0}};
        cstate *cs = cstate_new(cl, cat, &err);
        assert_non_null(cs);
        ft_set_node(cs, 0, e->left, e->idle);
        double c, g;
        power_eopc_node(cs, 0, &c, &g);
        if (c != e->cpu_w || g != e->gpu_w)
            fail_msg("%s: cpu %g gpu %g, expected %g %g", e->what, c, g, e->cpu_w, e->gpu_w);
        power_split ps;
        power_eopc(cs, &ps);
        assert_double_equal(ps.total_w, e->cpu_w + e->gpu_w, 0);
        assert_double_equal(ps.static_w, 0, 0);
        cstate_free(cs);
        cluster_free(cl);
    }
    catalog_free(cat);
}

/* The integer package count equals the simulator's float expression
 * (ceil(cap / 1000 / 2), floor(left / 1000 / 2), ceil(· / 16)). */
static void test_integer_cpu_count(void **state)
{
    (void)state;
    cs_node n;
    memset(&n, 0, sizeof n);
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        n.cpu_cap = (int64_t)(x % 300000);
        int64_t left = n.cpu_cap ? (int64_t)((x >> 20) % (uint64_t)(n.cpu_cap + 1)) : 0;
        double cores = ceil((double)n.cpu_cap / 1000 / 2);
        double working = cores - floor((double)left / 1000 / 2);
        double pk = ceil(cores / 16), act = ceil(working / 16);
        double want = 15 * (pk - act) + 120 * act;
        if (power_eopc_cpu(&n, left) != want)
            fail_msg("cap %lld left %lld: %g, expected %g", (long long)n.cpu_cap,
                     (long long)left, power_eopc_cpu(&n, left), want);
    }
}

static void test_default_cluster(void **state)
{
    (void)state;
    ft_openb o;
    if (ft_openb_load(&o, "openb_pod_list_default.csv"))
        return;
    assert_int_equal(o.cl->nnodes, 1213);
    assert_int_equal(cluster_gpu_total(o.cl), 6212);
    gp_err err = {{0}};
    cstate *cs = cstate_new(o.cl, o.cat, &err);
    assert_non_null(cs);
    power_split ps;
    power_eopc(cs, &ps);
    assert_double_equal(ps.cpu_w, 55665, 0);
    assert_double_equal(ps.gpu_w, 174435, 0);
    assert_double_equal(ps.total_w, 230100, 0);
    /* Everything busy: no CPU left, every device with an allocation. */
    for (size_t i = 0; i < cs->nnodes; i++)
        cs->nodes[i].cpu_left = 0;
    for (size_t i = 0; i < cs->ngpus; i++)
        cs->gpus[i].alloc_milli = 1000;
    for (size_t i = 0; i < cs->nnodes; i++)
        cstate_touch(cs, (int)i);
    power_eopc(cs, &ps);
    assert_double_equal(ps.total_w, 1474110, 0);
    cstate_free(cs);
    ft_openb_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_integer_cpu_count),
        cmocka_unit_test(test_default_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
