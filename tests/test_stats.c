/*
 * test_stats.c — the shared statistics (stats.h) on hand-computed cases and
 * the seeded random numbers (rng.h): reference outputs, determinism, bounds
 * and the moments of the distributions.
 */
#include "testutil.h"

#include "core/rng.h"
#include "core/rng_int.h"
#include "core/stats.h"
#include "core/stats_int.h"

/* ---- Pearson ------------------------------------------------------------- */

typedef struct pearson_case {
    const char *what;
    float a[8];
    size_t na;
    float b[8];
    size_t nb;
    double want;
} pearson_case;

/* Hand-computed: for a = 1..5, b = 2,4,5,4,5 the deviations are
 * (-2,-1,0,1,2) and (-2,0,1,0,1): sum of products 6, sums of squares 10 and
 * 6, r = 6 / sqrt(60) = 0.774596669241483. */
static const pearson_case pearson_cases[] = {
    {"textbook", {1, 2, 3, 4, 5}, 5, {2, 4, 5, 4, 5}, 5, 0.774596669241483},
    {"truncated to the shorter (CATS Alg. 1)", {1, 2, 3, 4, 5, 100, -7}, 7,
     {2, 4, 5, 4, 5}, 5, 0.774596669241483},
    {"truncation on the other side", {2, 4, 5, 4, 5}, 5, {1, 2, 3, 4, 5, 0}, 6,
     0.774596669241483},
    {"perfect positive", {1, 2, 3}, 3, {2, 4, 6}, 3, 1},
    {"perfect positive, affine", {10, 30, 20, 40}, 4, {1.5f, 3.5f, 2.5f, 4.5f}, 4, 1},
    {"perfect negative", {1, 2, 3}, 3, {3, 2, 1}, 3, -1},
    /* CorrGPU-like alternation: t1 high when t2 low. */
    {"anti-phase", {80, 20, 80, 20}, 4, {25, 60, 25, 60}, 4, -1},
    /* Deviations (1,-1,1,-1) and (1,1,-1,-1): orthogonal. */
    {"uncorrelated", {1, 0, 1, 0}, 4, {1, 1, 0, 0}, 4, 0},
    /* (-1, 0, 1) against (1, -2, 1): products sum to 0. */
    {"uncorrelated, curved", {1, 2, 3}, 3, {3, 1, 3}, 3, 0},
    /* Deviations (-1.5,-.5,.5,1.5) and (-.5,-.5,.5,.5): r = 2 / sqrt(5 * 1). */
    {"steps", {1, 2, 3, 4}, 4, {0, 0, 1, 1}, 4, 0.894427190999916},
    {"zero variance on the left", {5, 5, 5, 5}, 4, {1, 2, 3, 4}, 4, 0},
    {"zero variance on the right", {1, 2, 3, 4}, 4, {7, 7, 7, 7}, 4, 0},
    {"zero variance after truncation", {1, 2, 3}, 3, {4, 4, 9, 9}, 2, 0},
    {"one sample", {1}, 1, {2}, 1, 0},
    {"one sample after truncation", {1, 2, 3}, 3, {4}, 1, 0},
    {"empty", {0}, 0, {1, 2}, 2, 0},
};

static void test_pearson_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pearson_cases / sizeof *pearson_cases; i++) {
        const pearson_case *c = &pearson_cases[i];
        double r = stats_pearson(c->a, c->na, c->b, c->nb);
        if (fabs(r - c->want) > 1e-12)
            fail_msg("%s: got %.17g, want %.17g", c->what, r, c->want);
        /* Symmetric in its arguments. */
        assert_double_equal(stats_pearson(c->b, c->nb, c->a, c->na), r, 1e-12);
    }
}

/* A constant that is not exact in binary must still give exactly zero
 * variance (the shifted sums make every deviation 0), so the result is the
 * documented 0 and not noise divided by noise. */
static void test_pearson_constant_is_zero(void **state)
{
    (void)state;
    enum { N = 1000 };
    float c[N], x[N];
    for (int i = 0; i < N; i++) {
        c[i] = 41.36f;
        x[i] = (float)(i % 17) + 0.1f * (float)(i % 5);
    }
    assert_true(stats_pearson(c, N, x, N) == 0);
    assert_true(stats_pearson(x, N, c, N) == 0);
    assert_true(stats_pearson(c, N, c, N) == 0);
}

/* Large offsets (here 1e4 + small swings) lose no digits: the result
 * equals the one on the centred data. */
static void test_pearson_offset_invariant(void **state)
{
    (void)state;
    enum { N = 4096 };
    float *a = xmalloc(N * sizeof *a), *b = xmalloc(N * sizeof *b);
    float *ao = xmalloc(N * sizeof *a), *bo = xmalloc(N * sizeof *b);
    rng r;
    rng_seed(&r, 5);
    for (int i = 0; i < N; i++) {
        a[i] = (float)(rng_uniform(&r) * 8);
        b[i] = (float)(a[i] * 0.5 + rng_uniform(&r) * 8);
        ao[i] = a[i] + 10000;
        bo[i] = b[i] + 10000;
    }
    double r0 = stats_pearson(a, N, b, N), r1 = stats_pearson(ao, N, bo, N);
    assert_true(r0 > 0.3 && r0 < 0.6);
    /* Adding 1e4 to a float keeps ~3 of its 7 digits of the swing. */
    assert_double_equal(r0, r1, 1e-3);
    free(a);
    free(b);
    free(ao);
    free(bo);
}

/* ---- mean, peak, stddev ------------------------------------------------- */

static void test_mean_peak_stddev(void **state)
{
    (void)state;
    const float x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    assert_double_equal(stats_mean(x, 8), 5, 1e-12);
    assert_double_equal(stats_peak(x, 8), 9, 0);
    assert_double_equal(stats_stddev(x, 8), 2, 1e-12);  /* population sd */
    const float neg[] = {-3, -1, -2};
    assert_double_equal(stats_peak(neg, 3), -1, 0);
    assert_double_equal(stats_mean(neg, 3), -2, 1e-12);
    assert_double_equal(stats_mean(x, 0), 0, 0);
    assert_double_equal(stats_peak(x, 0), 0, 0);
    assert_double_equal(stats_stddev(x, 1), 0, 0);
    const float flat[] = {41.36f, 41.36f, 41.36f};
    assert_true(stats_stddev(flat, 3) == 0);
}

/* ---- percentile ---------------------------------------------------------- */

typedef struct pct_case {
    double p, want;
} pct_case;

static void test_percentile(void **state)
{
    (void)state;
    /* Unsorted on purpose; NumPy's default (linear) gives these. */
    const double x[] = {40, 15, 50, 35, 20};
    const pct_case cases[] = {
        {0, 15}, {100, 50}, {50, 35}, {25, 20}, {40, 29}, {90, 46}, {99, 49.6},
        {-5, 15}, {250, 50},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double v = stats_percentile(x, 5, cases[i].p);
        if (fabs(v - cases[i].want) > 1e-9)
            fail_msg("p%g: got %.17g, want %g", cases[i].p, v, cases[i].want);
    }
    /* The input is left as it was. */
    assert_double_equal(x[0], 40, 0);
    assert_double_equal(x[2], 50, 0);
    const double one[] = {7.5};
    assert_double_equal(stats_percentile(one, 1, 50), 7.5, 0);
    assert_double_equal(stats_percentile(one, 1, 99), 7.5, 0);
    assert_double_equal(stats_percentile(one, 0, 50), 0, 0);
    const double sorted[] = {1, 2, 3, 4};
    assert_double_equal(stats_percentile_sorted(sorted, 4, 50), 2.5, 1e-12);
    assert_double_equal(stats_percentile_sorted(sorted, 4, NAN), 1, 0);
}

/* ---- rng ----------------------------------------------------------------- */

/* splitmix64(0) is the published first output 0xe220a8397b1dcdaf; the
 * xoshiro256** outputs that follow were computed independently from the
 * reference algorithm. */
static void test_rng_reference(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 0);
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
    assert_true(rng_u64(&r) == 0x99ec5f36cb75f2b4ULL);
    assert_true(rng_u64(&r) == 0xbf6e1f784956452aULL);
    assert_true(rng_u64(&r) == 0x1a5f849d4933e6e0ULL);
}

static void test_rng_determinism(void **state)
{
    (void)state;
    rng a, b, c;
    rng_seed(&a, 2026);
    rng_seed(&b, 2026);
    rng_seed(&c, 2027);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_u64(&a), y = rng_u64(&b), z = rng_u64(&c);
        assert_true(x == y);
        differ += x != z;
    }
    assert_true(differ > 990);
    /* Mixed draws stay in step too (the polar method's spare included). */
    rng_seed(&a, 9);
    rng_seed(&b, 9);
    for (int i = 0; i < 1000; i++) {
        assert_true(rng_normal(&a) == rng_normal(&b));
        assert_true(rng_below(&a, 13) == rng_below(&b, 13));
    }
    /* Streams of one seed differ from each other and from the plain seed. */
    rng_seed_stream(&a, 9, 1);
    rng_seed_stream(&b, 9, 2);
    rng_seed(&c, 9);
    uint64_t x = rng_u64(&a), y = rng_u64(&b), z = rng_u64(&c);
    assert_true(x != y && x != z && y != z);
    rng_seed_stream(&b, 9, 1);
    assert_true(rng_u64(&b) == x);
    /* A jump lands elsewhere, the same way every time. */
    rng_seed(&a, 3);
    rng_seed(&b, 3);
    rng_jump(&a);
    rng_jump(&b);
    rng_seed(&c, 3);
    x = rng_u64(&a);
    assert_true(x == rng_u64(&b));
    assert_true(x != rng_u64(&c));
}

static void test_rng_uniform_bounds(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 11);
    enum { DRAWS = 70000, N = 7 };
    int hist[N] = {0};
    for (int i = 0; i < DRAWS; i++) {
        uint64_t v = rng_below(&r, N);
        assert_true(v < N);
        hist[v]++;
        double u = rng_uniform(&r);
        assert_true(u >= 0 && u < 1);
        double w = rng_range(&r, -2, 3);
        assert_true(w >= -2 && w < 3);
    }
    /* Each face ~10000 ± 100 (1 sd); 6 sd is a loose but real check. */
    for (int k = 0; k < N; k++)
        assert_in_range(hist[k], 10000 - 600, 10000 + 600);
    for (int i = 0; i < 100; i++)
        assert_true(rng_below(&r, 1) == 0);
    /* Near 2^64 the rejection threshold is large; results stay below n. */
    const uint64_t big = (UINT64_C(1) << 63) + 1;
    for (int i = 0; i < 1000; i++)
        assert_true(rng_below(&r, big) < big);
}

/* Moments over many draws, with tolerances of 5-7 standard errors. */
static void test_rng_distributions(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 12345);
    enum { N = 200000 };
    double s = 0, ss = 0, e = 0, below = 0;
    int ones = 0;
    for (int i = 0; i < N; i++) {
        double z = rng_normal(&r);
        s += z;
        ss += z * z;
        e += rng_exponential(&r, 3);
        below += rng_lognormal(&r, log(5), 0.7) < 5;
        ones += rng_bernoulli(&r, 0.25);
    }
    double mean = s / N, var = ss / N - mean * mean;
    assert_double_equal(mean, 0, 0.01);             /* se 0.0022 */
    assert_double_equal(var, 1, 0.02);              /* se 0.0032 */
    assert_double_equal(e / N, 3, 0.05);            /* se 0.0067 */
    assert_double_equal(below / N, 0.5, 0.01);      /* median exp(mu) */
    assert_double_equal((double)ones / N, 0.25, 0.01);
}

static void test_rng_shuffle(void **state)
{
    (void)state;
    enum { N = 50 };
    int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = b[i] = i;
    rng r1, r2;
    rng_seed(&r1, 4);
    rng_seed(&r2, 4);
    rng_shuffle(&r1, a, N, sizeof *a);
    rng_shuffle(&r2, b, N, sizeof *b);
    assert_memory_equal(a, b, sizeof a);
    int seen[N] = {0}, moved = 0;
    for (int i = 0; i < N; i++) {
        assert_in_range(a[i], 0, N - 1);
        seen[a[i]]++;
        moved += a[i] != i;
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    assert_true(moved > N / 2);
    /* Wide elements move whole. */
    double d[3] = {1.5, 2.5, 3.5};
    rng_shuffle(&r1, d, 3, sizeof *d);
    assert_double_equal(d[0] + d[1] + d[2], 7.5, 0);
    rng_shuffle(&r1, d, 0, sizeof *d);
    rng_shuffle(&r1, d, 1, sizeof *d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pearson_cases),
        cmocka_unit_test(test_pearson_constant_is_zero),
        cmocka_unit_test(test_pearson_offset_invariant),
        cmocka_unit_test(test_mean_peak_stddev),
        cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_rng_reference),
        cmocka_unit_test(test_rng_determinism),
        cmocka_unit_test(test_rng_uniform_bounds),
        cmocka_unit_test(test_rng_distributions),
        cmocka_unit_test(test_rng_shuffle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
