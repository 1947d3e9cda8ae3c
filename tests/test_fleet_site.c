/*
 * test_fleet_site.c — the cheapest fleet within a site's power envelope
 * (solve_fleet_within), worked by hand: the budget that does not bind
 * leaves the cheapest fleet; one that binds buys the dearer, lower-power
 * model; hosts and PUE count; a budget nothing fits is infeasible; a
 * power cap lowers the peak a GPU is provisioned at.  Layer: solve.
 */
#include "testutil.h"

#include "power/power_cap.h"
#include "solve/solve.h"

/* X: 1,000 USD, 150 W at most; Z: 1,500 USD, 100 W at most; both of speed
 * 1 (the reference), beta 1. */
static const gpu_profile X = {0, "X", 16, 50, 150, 0, 100, 1000, 0.1, 1.0, 1000, "", 1, ""};
static const gpu_profile Z = {0, "Z", 16, 30, 100, 0, 100, 1000, 0.07, 1.0, 1500, "", 1, ""};

/* Two all-GPU tasks each needing 0.4 of the reference rate: both share one
 * GPU of either model (0.5 each).  No electricity price: purchases alone. */
static int within(double site_kw, double pue, double host_w, const power_caps *caps,
                  fleet_result *fr, fleet_site *site)
{
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    tk.duration_s = 100;
    for (int i = 0; i < 2; i++) {
        snprintf(tk.name, sizeof tk.name, "t%d", i);
        trace_add_task(tr, &tk);
    }
    fleet_candidate cand[2] = {{&X, 0, -1}, {&Z, 0, -1}};
    fleet_params fp = {.hours = 1000, .min_frac = 0.4, .caps = caps};
    fleet_envelope env = {.site_kw = site_kw, .pue = pue, .host_w = host_w, .per_server = 8};
    solve_opts o;
    solve_opts_default(&o);
    gp_err err = {{0}};
    int rc = solve_fleet_within(cand, 2, tr, NULL, &fp, &env, &o, fr, site, &err);
    trace_free(tr);
    return rc;
}

static void test_budget(void **state)
{
    (void)state;
    static const struct {
        double site_kw, pue, host_w;
        int status, x, z, binds;
        double usd, peak_it_w;
    } rows[] = {
        /* 150 W fits 200 W: one X, the budget does not bind */
        {0.2, 1, 0, SOLVE_OPTIMAL, 1, 0, 0, 1000, 150},
        /* 150 W does not fit 120 W; one Z (100 W) does */
        {0.12, 1, 0, SOLVE_OPTIMAL, 0, 1, 1, 1500, 100},
        /* with a 50 W host and PUE 1.25: X (150 + 50) x 1.25 = 250 W,
         * Z (100 + 50) x 1.25 = 187.5 W within 190 */
        {0.19, 1.25, 50, SOLVE_OPTIMAL, 0, 1, 1, 1500, 150},
        /* 90 W holds no GPU of either */
        {0.09, 1, 0, SOLVE_INFEASIBLE, 0, 0, 1, 0, 0},
    };
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        fleet_result fr;
        fleet_site site;
        assert_int_equal(within(rows[k].site_kw, rows[k].pue, rows[k].host_w, NULL, &fr,
                                &site), 0);
        if ((int)fr.sol.status != rows[k].status)
            fail_msg("row %zu: status %s", k, solve_status_name(fr.sol.status));
        assert_int_equal(site.binds, rows[k].binds);
        assert_double_equal(site.cost_usd, 1000, 1e-9);    /* the unbounded fleet */
        if (rows[k].status == SOLVE_OPTIMAL) {
            assert_int_equal(fr.count[0], rows[k].x);
            assert_int_equal(fr.count[1], rows[k].z);
            assert_double_equal(fr.sol.objective, rows[k].usd, 1e-6);
            assert_double_equal(site.peak_it_w, rows[k].peak_it_w, 1e-9);
        }
        fleet_result_free(&fr);
    }
}

/* Capped at 100 W an X is provisioned at 100 W, and clocks at 500 MHz
 * (rate 0.5): alone a task gets 0.5, shared 0.25 < 0.4, so two X (2,000
 * USD, 200 W) or one Z (1,500 USD, 100 W): Z, within 120 W or not. */
static void test_budget_under_cap(void **state)
{
    (void)state;
    power_caps caps;
    gp_err err = {{0}};
    assert_int_equal(power_caps_parse("X=100", &caps, &err), 0);
    fleet_result fr;
    fleet_site site;
    assert_int_equal(within(0.12, 1, 0, &caps, &fr, &site), 0);
    assert_int_equal(fr.sol.status, SOLVE_OPTIMAL);
    assert_int_equal(fr.count[0], 0);
    assert_int_equal(fr.count[1], 1);
    assert_int_equal(site.binds, 0);
    fleet_result_free(&fr);
    /* within 210 W the capped pair of X would fit, but Z is cheaper */
    double w[2];
    fleet_candidate cand[2] = {{&X, 0, -1}, {&Z, 0, -1}};
    fleet_params fp = {.caps = &caps};
    assert_int_equal(fleet_gpu_peak_w(cand, 2, &fp, w, &err), 0);
    assert_double_equal(w[0], 100, 1e-9);
    assert_double_equal(w[1], 100, 1e-9);
    const int n[2] = {2, 1};
    fleet_envelope env = {.site_kw = 1, .pue = 1, .host_w = 10, .per_server = 8};
    assert_double_equal(fleet_peak_it_w(w, n, 2, &env), 300 + 2 * 10, 1e-9);
}

static int teardown(void **state)
{
    (void)state;
    solve_shutdown();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_budget_under_cap),
    };
    return cmocka_run_group_tests_name("fleet_site", tests, NULL, teardown);
}
