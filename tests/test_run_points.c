/*
 * test_run_points.c — which timeline points a saved run keeps
 * (run_points_keep, core/run.h): all of a short timeline; of a long one
 * the first, the last and each bucket's power and GPU extremes, worked out
 * by hand on twelve points; and on a long timeline, at most the limit,
 * increasing, with the global peaks kept.
 */
#include "testutil.h"

#include "core/run.h"

static run_point pt(double t, double power_w, double gpus)
{
    run_point p;
    memset(&p, 0, sizeof p);
    p.t_s = t;
    p.power_w = power_w;
    p.active_gpus = gpus;
    return p;
}

static void test_short_kept_whole(void **state)
{
    (void)state;
    run_point p[6];
    for (int i = 0; i < 6; i++)
        p[i] = pt(i, 100 + i, i);
    size_t keep[6];
    assert_int_equal(run_points_keep(p, 6, 6, keep), 6);
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(keep[i], i);
    assert_int_equal(run_points_keep(p, 0, 6, keep), 0);
}

/* Twelve points, at most ten: two buckets of the ten inner points, [1, 6)
 * and [6, 11).  Bucket one: power lowest at 4 (110), highest at 2 (300);
 * GPUs lowest at 1 (1, before 5's tie), highest at 3 (5).  Bucket two:
 * power lowest at 8 (90), highest at 9 (400); GPUs all 4, so 6 (the
 * earliest) for both.  With the first and the last: 0 1 2 3 4 6 8 9 11. */
static void test_hand_worked(void **state)
{
    (void)state;
    static const double power[12] = {100, 150, 300, 120, 110, 200, 250, 250, 90, 400, 250, 50};
    static const double gpus[12] = {0, 1, 2, 5, 3, 1, 4, 4, 4, 4, 4, 0};
    run_point p[12];
    for (int i = 0; i < 12; i++)
        p[i] = pt(i, power[i], gpus[i]);
    size_t keep[10];
    static const size_t want[] = {0, 1, 2, 3, 4, 6, 8, 9, 11};
    assert_int_equal(run_points_keep(p, 12, 10, keep), 9);
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(keep[i], want[i]);
}

static void test_long_bounded(void **state)
{
    (void)state;
    size_t n = 100000;
    run_point *p = xmalloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = pt((double)i, 1000 + 500 * sin((double)i / 700), (double)(i % 97));
    p[54321].power_w = 99999;       /* a lone spike */
    size_t *keep = xmalloc(RUN_SAVED_POINTS_MAX * sizeof *keep);
    size_t k = run_points_keep(p, n, RUN_SAVED_POINTS_MAX, keep);
    assert_true(k <= RUN_SAVED_POINTS_MAX && k > RUN_SAVED_POINTS_MAX / 2);
    assert_int_equal(keep[0], 0);
    assert_int_equal(keep[k - 1], n - 1);
    int spike = 0;
    for (size_t i = 0; i < k; i++) {
        assert_true(i == 0 || keep[i] > keep[i - 1]);
        spike |= keep[i] == 54321;
    }
    assert_true(spike);
    free(keep);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_kept_whole),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_long_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
