/*
 * test_power_fit.c — the power layer's fit of CATS eq. 1 (power_fit.c).
 * A worked example: readings drawn from the paper's V100 (eq. 3: 23.3 W
 * idle, 0.09 W/MHz, clocks 135-1350 MHz as in CATS §2.1.1) plus seeded
 * Gaussian noise of 2 W give back 23.3 W within 1 W and 0.09 W/MHz within
 * 0.002; with a utilization term of 40 W, that too within 3 W.  Then the
 * readings that cannot be fitted (too few, one clock and no idle GPU, no
 * active GPU, one utilization) are refused with what varies, a bound
 * holds a parameter at 0 and says so, and the collection from a snapshot
 * tells active GPUs from idle ones.
 */
#include "testutil.h"

#include "core/rng.h"
#include "power/power_fit.h"

/* n readings of idle + alpha f + util_w u + noise: a quarter idle (no
 * clock, u = 0), the rest active at clocks uniform in [135, 1350] MHz and
 * utilization uniform in [5, 100] %. */
static void generate(pf_set *s, size_t n, double idle, double alpha, double util_w,
                     double noise_w, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    s->v = xcalloc(n, sizeof *s->v);
    s->n = s->cap = n;
    for (size_t i = 0; i < n; i++) {
        pf_reading *x = &s->v[i];
        x->active = i % 4 != 0;
        x->clock_mhz = x->active ? rng_range(&r, 135, 1350) : 0;
        x->util = x->active ? rng_range(&r, 0.05, 1.0) : 0;
        x->power_w = idle + alpha * x->clock_mhz + util_w * x->util + noise_w * rng_normal(&r);
    }
}

static void test_recovers_v100(void **state)
{
    (void)state;
    pf_set s = {0};
    generate(&s, 200, 23.3, 0.09, 0, 2.0, 7);
    pf_fit f;
    gp_err err = {{0}};
    assert_int_equal(power_fit(s.v, s.n, 0, &f, &err), 0);
    assert_true(fabs(f.m.p[PF_IDLE] - 23.3) < 1.0);
    assert_true(fabs(f.m.p[PF_ALPHA] - 0.09) < 0.002);
    assert_int_equal(f.at_bound[PF_IDLE] + f.at_bound[PF_ALPHA], 0);
    pf_error e;
    power_fit_error(&f.m, s.v, s.n, &e);
    assert_int_equal(e.n, 200);
    assert_true(e.rmse_w < 2.5);
    pf_set_free(&s);
}

static void test_recovers_util_slope(void **state)
{
    (void)state;
    pf_set s = {0};
    generate(&s, 400, 23.3, 0.09, 40, 2.0, 11);
    pf_fit f2, f3;
    gp_err err = {{0}};
    assert_int_equal(power_fit(s.v, s.n, 1, &f3, &err), 0);
    assert_true(fabs(f3.m.p[PF_IDLE] - 23.3) < 1.0);
    assert_true(fabs(f3.m.p[PF_ALPHA] - 0.09) < 0.002);
    assert_true(fabs(f3.m.p[PF_UTIL] - 40) < 3.0);
    /* Without the term, eq. 1 explains less: a larger error. */
    assert_int_equal(power_fit(s.v, s.n, 0, &f2, &err), 0);
    pf_error e2, e3;
    power_fit_error(&f2.m, s.v, s.n, &e2);
    power_fit_error(&f3.m, s.v, s.n, &e3);
    assert_true(e3.mape_pct < e2.mape_pct);
    pf_set_free(&s);
}

/* The catalog's own model scores as eq. 1 says: exact on its own draws. */
static void test_error_of_profile(void **state)
{
    (void)state;
    gpu_profile g = {0};
    g.idle_w = 23.3;
    g.alpha_w_per_mhz = 0.09;
    pf_params m = pf_params_of(&g);
    pf_reading r[2] = {{23.3 + 0.09 * 1000, 1000, 0.5, 1}, {30, 0, 0, 0}};
    pf_error e;
    power_fit_error(&m, r, 2, &e);
    assert_true(fabs(e.max_abs_w - 6.7) < 1e-9);            /* the idle one: 30 - 23.3 */
    assert_true(fabs(e.mape_pct - 100 * (6.7 / 30) / 2) < 1e-9);
}

typedef struct degen_case {
    const char *what;
    pf_reading r[6];
    size_t n;
    int with_util;
    const char *says;           /* in the message */
} degen_case;

static const degen_case degen_cases[] = {
    {"two readings, two parameters", {{100, 1000, .5, 1}, {50, 0, 0, 0}}, 2, 0,
     "too few readings"},
    {"one clock, none idle",
     {{200, 1410, .9, 1}, {210, 1410, .95, 1}, {190, 1410, .8, 1}, {205, 1410, 1, 1}}, 4, 0,
     "one clock and none is idle"},
    {"all idle", {{50, 0, 0, 0}, {51, 0, 0, 0}, {52, 0, 0, 0}, {49, 0, 0, 0}}, 4, 0,
     "no GPU is active"},
    {"one utilization",
     {{200, 1410, .5, 1}, {150, 900, .5, 1}, {50, 0, .5, 0}, {120, 600, .5, 1}}, 4, 1,
     "one utilization"},
};

static void test_degenerate(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof degen_cases / sizeof *degen_cases; i++) {
        const degen_case *c = &degen_cases[i];
        pf_fit f;
        gp_err err = {{0}};
        int rc = power_fit(c->r, c->n, c->with_util, &f, &err);
        if (rc != -1 || !strstr(err.msg, c->says) || !strstr(err.msg, "reading(s):"))
            fail_msg("%s: rc %d, message '%s'", c->what, rc, err.msg);
    }
}

/* Draws below what a clock's share explains push the intercept below 0:
 * the bound holds idle_w at 0 and says so. */
static void test_bound_active(void **state)
{
    (void)state;
    pf_reading r[4] = {{15, 200, 1, 1}, {95, 600, 1, 1}, {175, 1000, 1, 1}, {255, 1400, 1, 1}};
    pf_fit f;
    gp_err err = {{0}};
    assert_int_equal(power_fit(r, 4, 0, &f, &err), 0);    /* unbounded: -25 + 0.2 f */
    assert_int_equal(f.at_bound[PF_IDLE], 1);
    assert_true(f.m.p[PF_IDLE] == 0);
    assert_true(f.m.p[PF_ALPHA] > 0.15 && f.m.p[PF_ALPHA] < 0.2);
    assert_int_equal(f.at_bound[PF_ALPHA], 0);
}

/* From a snapshot: a device holding a task is active even at 0 %, one
 * without a task at 0 % is idle, readings of another model and without
 * power or clock are left out and counted. */
static void test_collect(void **state)
{
    (void)state;
    cluster *cl = cluster_new("c");
    node n = {0};
    strcpy(n.name, "a");
    strcpy(n.gpu_model, "A100");
    n.gpu_count = 4;
    cluster_add_node(cl, &n);
    strcpy(n.name, "b");
    strcpy(n.gpu_model, "T4");
    cluster_add_node(cl, &n);
    snapshot *sn = snapshot_new("s");
    placement_row row = {0, 0, 1, 1000};
    snapshot_add_row(sn, &row);
    gpu_reading rd[] = {
        {0, 0, 0, 50, 210, 0},        /* idle */
        {0, 1, 0, 90, 1410, 0},       /* holds a task */
        {0, 2, 40, 200, NAN, 0},      /* active, no clock */
        {0, 3, 40, NAN, 1410, 0},     /* no power */
        {1, 0, 90, 60, 1590, 0},      /* a T4 */
    };
    for (size_t i = 0; i < sizeof rd / sizeof *rd; i++)
        snapshot_add_reading(sn, &rd[i]);
    pf_set s = {0};
    assert_int_equal(power_fit_collect(sn, cl, "A100", &s), 2);
    assert_int_equal(s.v[0].active, 0);
    assert_int_equal(s.v[1].active, 1);
    assert_true(s.v[1].clock_mhz == 1410);
    assert_int_equal(s.no_clock, 1);
    assert_int_equal(s.no_power, 1);
    pf_set_free(&s);
    snapshot_free(sn);
    cluster_free(cl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_v100),
        cmocka_unit_test(test_recovers_util_slope),
        cmocka_unit_test(test_error_of_profile),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_bound_active),
        cmocka_unit_test(test_collect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
