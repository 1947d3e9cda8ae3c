/*
 * test_gen_trace.c — generated traces and clusters (samples/gen_trace.h):
 * a Gavel-style trace draws only job types measured on every accelerator,
 * durations within Gavel's 10^1.5 to 10^4 minutes, arrivals in order,
 * minimums as a share of the best solo throughput, the same trace for the
 * same seed; series within their bounds, the same per seed and job;
 * clusters from MODEL:COUNT lists, and their bad inputs.
 */
#include "testutil.h"

#include "samples/gen_trace.h"
#include "samples/gen_trace_int.h"

static void add(tput_catalog *c, const char *accel, const char *m, int b, double t)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.accel, sizeof e.accel, "%s", accel);
    snprintf(e.model, sizeof e.model, "%s", m);
    e.batch_size = b;
    e.scale = 1;
    e.tput = t;
    tput_catalog_add(c, &e);
}

static tput_catalog *table(void)
{
    tput_catalog *c = tput_catalog_new("t");
    add(c, "v100", "ResNet-50", 64, 4);
    add(c, "k80", "ResNet-50", 64, 1);
    add(c, "v100", "LM", 20, 10);
    add(c, "k80", "LM", 20, 3);
    add(c, "v100", "A3C", 4, 7);        /* not on the k80: never drawn */
    return c;
}

static void test_gavel_trace(void **state)
{
    (void)state;
    tput_catalog *tp = table();
    gen_gavel_params p;
    gen_gavel_params_default(&p);
    p.jobs = 500;
    p.jobs_per_hour = 10;
    p.min_frac = 0.5;
    gp_err err = {{0}};
    gp_trace *tr = gen_gavel_trace("g", tp, &p, &err);
    assert_non_null(tr);
    assert_int_equal(tr->ntasks, 500);
    size_t lm = 0;
    for (size_t i = 0; i < tr->ntasks; i++) {
        const task *tk = &tr->tasks[i];
        assert_true(strcmp(tk->model, "A3C") != 0);
        assert_true(tk->duration_s >= 60 * 31 && tk->duration_s <= 60 * 10000);
        assert_true(tk->gpu_mem_gib > 0 && tk->gpu_mem_gib <= 12);
        assert_true(i == 0 || tk->arrival_s >= tr->tasks[i - 1].arrival_s);
        if (strcmp(tk->model, "LM") == 0) {
            lm++;
            assert_double_equal(tk->min_tput, 5, 1e-12);
        } else {
            assert_double_equal(tk->min_tput, 2, 1e-12);
        }
    }
    assert_true(lm > 200 && lm < 300);        /* uniform over the two types */
    /* About 10 an hour: 499 gaps of 360 s on average. */
    assert_true(tr->tasks[499].arrival_s > 0.8 * 499 * 360);
    assert_true(tr->tasks[499].arrival_s < 1.2 * 499 * 360);
    gp_trace *again = gen_gavel_trace("g", tp, &p, &err);
    for (size_t i = 0; i < tr->ntasks; i++)
        assert_double_equal(again->tasks[i].duration_s, tr->tasks[i].duration_s, 0);
    trace_free(again);
    trace_free(tr);
    tput_catalog_free(tp);
}

static void test_gavel_trace_bad(void **state)
{
    (void)state;
    tput_catalog *tp = tput_catalog_new("empty");
    gen_gavel_params p;
    gen_gavel_params_default(&p);
    gp_err err = {{0}};
    assert_null(gen_gavel_trace("g", tp, &p, &err));
    assert_non_null(strstr(err.msg, "no scale-1 job type"));
    tput_catalog_free(tp);
}

/* Series: within their length bounds and 0..100, the same for the same
 * (seed, index), other for another index, and the generated jobs carry
 * them with a period that spans each job's run. */
static void test_series(void **state)
{
    (void)state;
    gen_series_params sp = {100, 600};
    float a[600], b[600];
    size_t lens_seen_min = 600, lens_seen_max = 0;
    for (size_t i = 0; i < 200; i++) {
        size_t n = gen_util_series(7, i, &sp, a);
        assert_true(n >= 100 && n <= 600);
        lens_seen_min = n < lens_seen_min ? n : lens_seen_min;
        lens_seen_max = n > lens_seen_max ? n : lens_seen_max;
        for (size_t k = 0; k < n; k++)
            assert_true(a[k] >= 0 && a[k] <= 100);
        assert_int_equal(gen_util_series(7, i, &sp, b), n);
        assert_memory_equal(a, b, n * sizeof *a);
    }
    assert_true(lens_seen_min < 200 && lens_seen_max > 500);    /* spread over the range */
    size_t n0 = gen_util_series(7, 0, &sp, a), n1 = gen_util_series(7, 1, &sp, b);
    assert_true(n0 != n1 || memcmp(a, b, n0 * sizeof *a) != 0);
    gen_series_params one = {5, 5};
    assert_int_equal(gen_util_series(7, 3, &one, a), 5);

    tput_catalog *tp = table();
    gen_gavel_params p;
    gen_gavel_params_default(&p);
    p.jobs = 50;
    gp_err err = {{0}};
    gen_gavel *g = gen_gavel_new(tp, &p, &sp, &err);
    assert_non_null(g);
    gp_trace *plain = gen_gavel_trace("g", tp, &p, &err);
    task tk;
    size_t i = 0;
    while (gen_gavel_next(g, &tk)) {
        assert_true(tk.util.len >= 100 && tk.util.len <= 600);
        assert_double_equal(tk.util.period_s * (double)tk.util.len, tk.duration_s, 1e-6);
        assert_true(tk.util_peak >= tk.util_mean && tk.util_peak <= 100);
        /* the series draws nothing from the jobs' stream */
        assert_double_equal(tk.duration_s, plain->tasks[i].duration_s, 0);
        assert_string_equal(tk.model, plain->tasks[i].model);
        task_release(&tk);
        i++;
    }
    assert_int_equal(i, 50);
    gen_gavel_free(g);
    trace_free(plain);
    static const gen_series_params bad[] = {{0, 5}, {6, 5}, {1, GEN_SERIES_MAX + 1}};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_null(gen_gavel_new(tp, &p, &bad[k], &err));
        assert_non_null(strstr(err.msg, "series"));
    }
    tput_catalog_free(tp);
}

static void test_cluster(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    gp_err err = {{0}};
    cluster *cl = gen_cluster("c", "V100M16:6,P100:4", 4, cat, &err);
    assert_non_null(cl);
    assert_int_equal(cl->nnodes, 3);
    assert_int_equal(cl->nodes[0].gpu_count, 4);
    assert_int_equal(cl->nodes[1].gpu_count, 2);
    assert_string_equal(cl->nodes[2].gpu_model, "P100");
    assert_int_equal(cluster_gpu_total(cl), 10);
    cluster_free(cl);
    static const char *const bad[] = {"V100M16", "V100M16:0", "V100M16:x", "NOPE:4", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_null(gen_cluster("c", bad[i], 4, cat, &err));
    assert_null(gen_cluster("c", "V100M16:4", 0, cat, &err));
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gavel_trace),
        cmocka_unit_test(test_gavel_trace_bad),
        cmocka_unit_test(test_series),
        cmocka_unit_test(test_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
