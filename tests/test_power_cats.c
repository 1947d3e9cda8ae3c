/*
 * test_power_cats.c — the `cats` power model (CATS eq. 1–4) on hand-built
 * cluster states: an active V100 draws 23.3 + 0.09 f W (eq. 3) at several
 * clocks, an awake idle GPU 23.3 W, a sleeping GPU its sleep watts, an awake
 * server adds P_static + P_other (eq. 4), a sleeping server draws nothing.
 */
#include "testutil.h"

#include "core/cstate.h"
#include "core/cstate_int.h"
#include "power/power.h"

typedef struct fixture {
    catalog *cat;
    cluster *cl;
    cstate *cs;
    task tk;
} fixture;

/* One server (static 30 W, other 12 W) of three V100. */
static void setup(fixture *f)
{
    f->cat = catalog_new();
    catalog_add_builtin(f->cat);
    f->cl = cluster_new("t");
    node n;
    memset(&n, 0, sizeof n);
    strcpy(n.name, "srv");
    strcpy(n.gpu_model, "V100");
    n.gpu_count = 3;
    n.cpu_milli = 64000;
    n.ram_mib = 65536;
    n.static_w = 30;
    n.other_w = 12;
    cluster_add_node(f->cl, &n);
    gp_err err = {{0}};
    f->cs = cstate_new(f->cl, f->cat, &err);
    assert_non_null(f->cs);
    task_init(&f->tk);
    f->tk.duration_s = 10;
}

static void teardown(fixture *f)
{
    cstate_free(f->cs);
    cluster_free(f->cl);
    catalog_free(f->cat);
}

/* CATS eq. 3 with the paper's V100 constants (SPEC §3.2 defaults). */
static void test_eq3_active_gpu(void **state)
{
    (void)state;
    static const struct {
        double f_mhz, watts;
    } cases[] = {
        {1350, 23.3 + 0.09 * 1350},     /* 144.8 W: the profile's max */
        {1155, 23.3 + 0.09 * 1155},     /* where Alg. 4 settles at kappa 1.2 */
        {675, 23.3 + 0.09 * 675},
        {135, 23.3 + 0.09 * 135},       /* f_min: 35.45 W */
    };
    fixture f;
    setup(&f);
    int g = 1;
    cstate_alloc(f.cs, &f.tk, 0, 0, &g, 1);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        f.cs->gpus[1].freq_mhz = cases[i].f_mhz;
        assert_double_equal(power_cats_gpu(f.cs, 1), cases[i].watts, 1e-9);
        power_split p;
        power_cats(f.cs, &p);
        /* one active GPU, two awake idle ones, the server's 30 + 12 W */
        assert_double_equal(p.gpu_w, cases[i].watts + 2 * 23.3, 1e-9);
        assert_double_equal(p.static_w, 42, 1e-9);
        assert_double_equal(p.cpu_w, 0, 0);
        assert_double_equal(p.total_w, cases[i].watts + 2 * 23.3 + 42, 1e-9);
    }
    assert_double_equal(144.8, 23.3 + 0.09 * 1350, 1e-9);
    teardown(&f);
}

static void test_idle_and_sleep_states(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    power_split p;
    power_cats(f.cs, &p);
    assert_double_equal(p.total_w, 3 * 23.3 + 42, 1e-9);       /* all idle, awake */
    f.cs->gpus[0].power = GPU_ASLEEP;                            /* Alg. 3 line 7 */
    f.cs->gpus[1].power = GPU_ASLEEP;
    power_cats(f.cs, &p);
    assert_double_equal(power_cats_gpu(f.cs, 0), 0, 0);          /* sleep_w = 0 */
    assert_double_equal(p.total_w, 23.3 + 42, 1e-9);
    /* A profile with sleep watts: a sleeping GPU in an awake server draws them. */
    gpu_profile *v = (gpu_profile *)catalog_gpu(f.cat, "V100");
    v->sleep_w = 2.5;
    assert_double_equal(power_cats_gpu(f.cs, 0), 2.5, 1e-12);
    /* Alg. 3 lines 8-10, eq. 4 with z_i = 0: the sleeping server draws 0. */
    f.cs->gpus[2].power = GPU_ASLEEP;
    f.cs->nodes[0].asleep = 1;
    cstate_touch(f.cs, 0);          /* set by hand: the awake-server set follows */
    power_cats(f.cs, &p);
    assert_double_equal(p.total_w, 0, 0);
    assert_double_equal(power_cats_gpu(f.cs, 0), 0, 0);
    teardown(&f);
}

static void test_power_eval_dispatch(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    power_split a, b;
    power_eval(POWER_CATS, f.cs, &a);
    power_cats(f.cs, &b);
    assert_double_equal(a.total_w, b.total_w, 0);
    assert_int_equal(power_model_parse("cats"), POWER_CATS);
    assert_string_equal(power_model_name(POWER_CATS), "cats");
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eq3_active_gpu),
        cmocka_unit_test(test_idle_and_sleep_states),
        cmocka_unit_test(test_power_eval_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
