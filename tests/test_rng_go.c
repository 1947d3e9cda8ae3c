/*
 * test_rng_go.c — the port of Go 1.19's math/rand (rng_go.h) against
 * figures taken once from Go itself.  For each seed this Go program
 *
 *     rand.Seed(s)
 *     4 × rand.Int63(); rand.Int31(); rand.Uint32(); rand.Intn(1000);
 *     rand.Intn(1024); rand.Float64(); rand.Perm(6);
 *     a := []int{0..9}; rand.Shuffle(len(a), swap a[i], a[j]); rand.Intn(8152)
 *
 * printed the values below (go1.19, linux/amd64).  The calls run in that
 * order on one stream, so a method that consumed one draw too many or too
 * few would shift every later figure.
 */
#include "testutil.h"

#include "core/rng_go.h"
#include "core/rng_go_int.h"

typedef struct go_case {
    int64_t seed;
    int64_t int63[4];
    int32_t int31;
    uint32_t u32;
    int intn_1000, intn_1024;
    double f64;
    int perm[6];
    int shuffled[10];
    int intn_8152;
} go_case;

static const go_case go_cases[] = {
    {0, {8717895732742165505, 2259404117704393152, 6050128673802995827, 501233450539197794},
     789387515, 1243308993u, 767, 133, 0.89716971314980098, {5, 0, 2, 4, 3, 1},
     {9, 7, 3, 8, 1, 4, 5, 0, 6, 2}, 881},
    {1, {5577006791947779410, 8674665223082153551, 6129484611666145821, 4037200794235010051},
     911902081, 2949882636u, 425, 684, 0.096969518914484562, {1, 2, 3, 0, 5, 4},
     {0, 7, 3, 6, 5, 1, 9, 8, 2, 4}, 1367},
    {42, {3440579354231278675, 608747136543856411, 5571782338101878760, 1926012586526624009},
     94099423, 1645802691u, 357, 392, 0.3830446530497163, {0, 1, 5, 4, 3, 2},
     {3, 2, 9, 1, 0, 7, 8, 5, 6, 4}, 5136},
    /* Negative seeds wrap modulo 2^31 - 1. */
    {-7, {747107023976529931, 7084732931963018726, 6995717851144434728, 814608651260322299},
     648005563, 3668605461u, 16, 666, 0.97782925118038844, {2, 3, 5, 1, 0, 4},
     {3, 6, 4, 9, 0, 5, 7, 1, 2, 8}, 1203},
    /* Seeds above 2^31 - 1 too. */
    {INT64_C(1) << 40,
     {5470237361722394362, 6322525149314491254, 1177463506020107830, 1565541666764780662},
     1787196845, 2700986220u, 38, 200, 0.21287917289821717, {5, 2, 4, 0, 1, 3},
     {2, 7, 4, 0, 9, 3, 5, 6, 8, 1}, 7516},
};

static void test_go_stream(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof go_cases / sizeof *go_cases; c++) {
        const go_case *g = &go_cases[c];
        rng_go r;
        rng_go_seed(&r, g->seed);
        for (int i = 0; i < 4; i++)
            assert_int_equal(rng_go_int63(&r), g->int63[i]);
        assert_int_equal(rng_go_int31(&r), g->int31);
        assert_int_equal(rng_go_uint32(&r), g->u32);
        assert_int_equal(rng_go_intn(&r, 1000), g->intn_1000);
        assert_int_equal(rng_go_intn(&r, 1024), g->intn_1024);
        assert_true(rng_go_float64(&r) == g->f64);
        int perm[6];
        rng_go_perm(&r, 6, perm);
        assert_memory_equal(perm, g->perm, sizeof perm);
        int a[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        rng_go_shuffle(&r, a, 10, sizeof *a);
        assert_memory_equal(a, g->shuffled, sizeof a);
        assert_int_equal(rng_go_intn(&r, 8152), g->intn_8152);
    }
}

/* Shuffling elements wider than an int moves whole elements, as Go's swap
 * callback does: the same permutation as for ints. */
static void test_go_shuffle_wide(void **state)
{
    (void)state;
    rng_go a, b;
    rng_go_seed(&a, 5);
    rng_go_seed(&b, 5);
    int small[50];
    struct wide { int id; char pad[13]; } big[50];
    for (int i = 0; i < 50; i++) {
        small[i] = i;
        big[i].id = i;
    }
    rng_go_shuffle(&a, small, 50, sizeof *small);
    rng_go_shuffle(&b, big, 50, sizeof *big);
    for (int i = 0; i < 50; i++)
        assert_int_equal(small[i], big[i].id);
    assert_int_equal(rng_go_int63(&a), rng_go_int63(&b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_stream),
        cmocka_unit_test(test_go_shuffle_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
