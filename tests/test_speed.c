/*
 * test_speed.c — Amdahl's law for a task on a faster or slower GPU
 * (core/speed.h), worked by hand for one task on a V100 and an A100, and
 * the reference a run names.  Layer: core.
 */
#include "testutil.h"

#include "core/speed.h"

/* A 100 s task busy 50 % of the time on its V100.
 *   V100 (s = 1):  k = 0.5/1 + 0.5 = 1:     100 s, busy 50 %.
 *   A100 (s = 2):  k = 0.5/2 + 0.5 = 0.75:  75 s, busy 25/75 = 33.3 %;
 *   a sample of 80 % reads 80 / (2 * 0.75) = 53.3 %. */
static void test_one_task_v100_a100(void **state)
{
    (void)state;
    task tk;
    task_init(&tk);
    tk.duration_s = 100;
    tk.util_mean = 50;
    double u = speed_gpu_fraction(&tk);
    assert_double_equal(u, 0.5, 1e-12);
    assert_double_equal(tk.duration_s * speed_stretch(u, 1), 100, 1e-9);
    assert_double_equal(speed_util(50, u, 1), 50, 1e-9);
    assert_double_equal(tk.duration_s * speed_stretch(u, 2), 75, 1e-9);
    assert_double_equal(speed_rate(u, 2), 1 / 0.75, 1e-12);
    assert_double_equal(speed_util(50, u, 2), 100.0 / 3, 1e-9);
    assert_double_equal(speed_util(80, u, 2), 160.0 / 3, 1e-9);
    task_release(&tk);
}

/* No utilization data: all GPU work, a pure speed ratio.  A slower GPU
 * caps a sample busier than the mean at 100 %. */
static void test_edges(void **state)
{
    (void)state;
    task tk;
    task_init(&tk);
    assert_double_equal(speed_gpu_fraction(&tk), 1, 0);
    assert_double_equal(speed_rate(1, 2), 2, 1e-12);
    assert_double_equal(speed_util(100, 1, 2), 100, 1e-12);
    assert_double_equal(speed_util(100, 0.5, 0.5), 100, 1e-12);    /* 100/0.75 capped */
    assert_double_equal(speed_rate(0, 4), 1, 1e-12);                /* no GPU work */
    task_release(&tk);
}

/* The reference: a stated speed, a named profile, the trace's, a V100. */
static void test_reference(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    gp_trace *tr = trace_new("t");
    char name[GP_NAME_MAX];
    double speed;
    gp_err err = {{0}};
    assert_int_equal(speed_ref_resolve(cat, tr, NULL, 0, name, sizeof name, &speed, &err), 0);
    assert_string_equal(name, "V100");
    assert_double_equal(speed, 1, 0);
    strlcpy0(tr->ref_gpu, "A100-40GB", sizeof tr->ref_gpu);
    assert_int_equal(speed_ref_resolve(cat, tr, NULL, 0, name, sizeof name, &speed, &err), 0);
    assert_string_equal(name, "A100-40GB");
    assert_double_equal(speed, 2, 0);
    assert_int_equal(speed_ref_resolve(cat, tr, "T4", 0, name, sizeof name, &speed, &err), 0);
    assert_double_equal(speed, 0.5, 0);
    assert_int_equal(speed_ref_resolve(cat, tr, "T4", 3, name, sizeof name, &speed, &err), 0);
    assert_string_equal(name, "");
    assert_double_equal(speed, 3, 0);
    assert_int_equal(speed_ref_resolve(cat, tr, "Z9", 0, name, sizeof name, &speed, &err), -1);
    tu_assert_contains(err.msg, "'Z9' is not a GPU profile");
    tu_assert_contains(err.msg, "--ref-gpu");
    char line[128];
    speed_ref_describe("V100", 1, line, sizeof line);
    assert_string_equal(line, "speeds relative to V100 (speed 1)");
    trace_free(tr);
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_task_v100_a100),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
