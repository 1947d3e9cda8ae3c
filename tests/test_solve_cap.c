/*
 * test_solve_cap.c — a GPU power cap in the exact models (solve_cap.c):
 * the cheapest fleet under a cap that halves a model's rate, worked by
 * hand; a cap with no effect leaves the fleet's and CATS's instances and
 * answers identical; a cap no clock holds is run's error; CATS forbids a
 * task whose SLA clock is above a capped model's ceiling, and counts a
 * heuristic's placement that ignores it.  Layer: solve (over power).
 */
#include "testutil.h"

#include "catstest.h"
#include "solve/solve_cap.h"

/* A profile made for hand arithmetic: 50 W idle + 0.1 W/MHz up to
 * 1000 MHz (150 W), beta 1, so the rate is f / 1000; 1,000 USD. */
static const gpu_profile X = {0, "X", 16, 50, 150, 0, 100, 1000, 0.1, 1.0, 1000, "", 1, ""};

/* Two tasks without utilization data (all GPU work, demand 100 %), each
 * needing 0.4 of its reference rate (X is the reference, speed 1). */
static gp_trace *two_tasks(void)
{
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    tk.duration_s = 100;
    for (int i = 0; i < 2; i++) {
        snprintf(tk.name, sizeof tk.name, "t%d", i);
        trace_add_task(tr, &tk);
    }
    return tr;
}

/* The fleet of X for two_tasks() at 0.1 USD/kWh over 1,000 h (0.1 USD a
 * watt) under caps (NULL: none). */
static int fleet_of(const power_caps *caps, gogh_inst *in, fleet_result *fr, gp_err *err)
{
    fleet_candidate cand[1] = {{&X, 0, -1}};
    gp_trace *tr = two_tasks();
    fleet_params fp = {.usd_per_kwh = 0.1, .hours = 1000, .min_frac = 0.4, .caps = caps};
    int rc = fleet_inst_from_model(cand, 1, tr, NULL, &fp, in, err);
    trace_free(tr);
    if (rc)
        return rc;
    solve_opts o;
    solve_opts_default(&o);
    return solve_fleet(in, &o, fr, err);
}

/* Worked by hand.  Uncapped, a task alone runs at rate 1 and two share
 * one X at 0.5 each >= 0.4: one X, busy (load 0.5 + 0.5 = 1) at 150 W,
 * 1,000 + 0.1 x 150 = 1,015 USD.
 * At 100 W: f_cap = (100 - 50) / 0.1 = 500 MHz, rate (500/1000)^1 = 0.5.
 * Alone a task gets 0.5 >= 0.4, shared 0.25 < 0.4: two X, each busy at
 * the capped 100 W, 2 x 1,000 + 0.1 x 200 = 2,020 USD. */
static void test_fleet_cap_halves_rate(void **state)
{
    (void)state;
    power_caps caps;
    gp_err err = {{0}};
    assert_int_equal(power_caps_parse("100", &caps, &err), 0);
    solve_cap c;
    assert_int_equal(solve_cap_of(&X, &caps, &c, &err), 0);
    assert_int_equal(c.effect, CAP_CLAMP);
    assert_double_equal(c.f_mhz, 500, 1e-9);
    assert_double_equal(c.rate, 0.5, 1e-12);
    assert_double_equal(c.busy_w, 100, 1e-9);
    char line[256];
    solve_cap_describe(&c, line, sizeof line);
    tu_assert_contains(line, "X 100 W: clock clamp to 500 MHz: throughput x 0.500 (-50.0 %), "
                             "busy draw 150 -> 100 W (-33.3 %)");

    const power_caps *with[2] = {NULL, &caps};
    const int gpus[2] = {1, 2};
    const double cost[2] = {1015, 2020}, watts[2] = {150, 200};
    for (int k = 0; k < 2; k++) {
        gogh_inst in;
        fleet_result fr;
        assert_int_equal(fleet_of(with[k], &in, &fr, &err), 0);
        assert_int_equal(fr.sol.status, SOLVE_OPTIMAL);
        assert_int_equal(fr.count[0], gpus[k]);
        assert_double_equal(fr.power_w, watts[k], 1e-6);
        assert_double_equal(fr.sol.objective, cost[k], 1e-6);
        assert_double_equal(fr.capex_usd, 1000.0 * gpus[k], 1e-9);
        /* the minimum is the job's, not lowered with the GPU */
        assert_double_equal(in.jobs[0].min_tput, 0.4, 1e-12);
        fleet_result_free(&fr);
        gogh_inst_free(&in);
    }
}

/* A cap at or above the maximum changes nothing: the same instance (every
 * throughput and watt), the same fleet. */
static void test_fleet_cap_no_effect(void **state)
{
    (void)state;
    gp_err err = {{0}};
    gogh_inst base;
    fleet_result fb;
    assert_int_equal(fleet_of(NULL, &base, &fb, &err), 0);
    static const char *const caps_text[] = {"150", "200", "Y=60"};
    for (size_t k = 0; k < sizeof caps_text / sizeof *caps_text; k++) {
        power_caps caps;
        assert_int_equal(power_caps_parse(caps_text[k], &caps, &err), 0);
        gogh_inst in;
        fleet_result fr;
        assert_int_equal(fleet_of(&caps, &in, &fr, &err), 0);
        size_t J = in.njobs, A = in.ntypes;
        assert_int_equal(memcmp(in.solo, base.solo, A * J * sizeof *in.solo), 0);
        assert_int_equal(memcmp(in.pair, base.pair, A * J * J * sizeof *in.pair), 0);
        assert_true(in.types[0].max_w == base.types[0].max_w);
        assert_int_equal(fr.count[0], fb.count[0]);
        assert_true(fr.sol.objective == fb.sol.objective);
        assert_true(fr.power_w == fb.power_w);
        fleet_result_free(&fr);
        gogh_inst_free(&in);
    }
    fleet_result_free(&fb);
    gogh_inst_free(&base);
}

/* A cap no clock holds is run's error, and no instance is left behind. */
static void test_cap_refused(void **state)
{
    (void)state;
    static const struct {
        const char *cap, *msg;
    } rows[] = {
        {"40", "a 40 W cap is below X's idle draw of 50 W"},
        {"55", "a 55 W cap is below the 60 W X draws at its lowest clock (100 MHz)"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        power_caps caps;
        gp_err err = {{0}};
        assert_int_equal(power_caps_parse(rows[k].cap, &caps, &err), 0);
        gogh_inst in;
        fleet_result fr;
        memset(&fr, 0, sizeof fr);
        assert_int_equal(fleet_of(&caps, &in, &fr, &err), -1);
        tu_assert_contains(err.msg, "--gpu-cap");
        tu_assert_contains(err.msg, rows[k].msg);
    }
}

/* ---- CATS ------------------------------------------------------------------------ */

/* One server of two V100s (CATS's: 23.3 W + 0.09 W/MHz over 135-1350 MHz,
 * beta 0.91) and two one-GPU tasks of the given kappas. */
static void two_v100(cats_inst *in, double k0, double k1)
{
    const double mem[2] = {32, 32};
    inst_alloc(in, 2, 1, 2);
    add_node(in, 0, 2, 50, 10, &V100, mem);
    const double kappa[2] = {k0, k1};
    for (size_t l = 0; l < 2; l++)
        in->tasks[l] = (cats_task){.mem_gib = 20, .v = 1, .kappa = kappa[l], .src = (int)l};
}

static double cats_optimum(const cats_inst *in, int *status)
{
    solve_opts o;
    solve_opts_default(&o);
    solve_result r;
    gp_err err = {{0}};
    assert_int_equal(solve_cats(in, &o, &r, &err), 0);
    *status = r.status;
    double v = r.has_solution ? r.objective : NAN;
    solve_result_free(&r);
    return v;
}

/* At 100 W a V100's ceiling is (100 - 23.3) / 0.09 = 852.2 MHz.  A task of
 * kappa 2 needs 1350 x 2^(-1/0.91) = 630.3 MHz: the cap leaves it, and the
 * optimum, alone.  One of kappa 1.2 needs 1350 x 1.2^(-1/0.91) = 1104.9
 * MHz: no capped V100 may run it, so the instance is infeasible. */
static void test_cats_cap(void **state)
{
    (void)state;
    power_caps caps;
    gp_err err = {{0}};
    assert_int_equal(power_caps_parse("V100=100", &caps, &err), 0);
    assert_double_equal(cats_freq_req(&V100, 2), 630.3, 0.1);
    assert_double_equal(cats_freq_req(&V100, 1.2), 1104.9, 0.1);

    cats_inst in;
    int status, forbidden = -1;
    two_v100(&in, 2, 2);
    double uncapped = cats_optimum(&in, &status);
    assert_int_equal(cats_inst_cap(&in, &caps, &forbidden, &err), 0);
    assert_int_equal(forbidden, 0);
    assert_null(in.allow);                      /* no effect: the same instance */
    assert_true(cats_optimum(&in, &status) == uncapped);
    cats_inst_free(&in);

    two_v100(&in, 1.2, 2);
    assert_true(isfinite(cats_optimum(&in, &status)));
    assert_int_equal(cats_inst_cap(&in, &caps, &forbidden, &err), 0);
    assert_int_equal(forbidden, 1);             /* task 0 on the V100 model */
    assert_non_null(in.allow);
    assert_int_equal(in.allow[0 * 2 + 0] + in.allow[0 * 2 + 1], 0);
    assert_int_equal(in.allow[1 * 2 + 0] + in.allow[1 * 2 + 1], 2);
    cats_optimum(&in, &status);
    assert_int_equal(status, SOLVE_INFEASIBLE);
    /* a placement that ignores the cap is counted */
    const solve_place pl[2] = {{.task = 0, .gpu = 1}, {.task = 1, .gpu = 0}};
    assert_int_equal(cats_places_forbidden(&in, pl, 2), 1);
    assert_int_equal(cats_places_forbidden(&in, pl + 1, 1), 0);
    cats_inst_free(&in);

    /* a cap at or above the maximum (144.8 W) has no effect; below idle is
     * the error run gives */
    assert_int_equal(power_caps_parse("200", &caps, &err), 0);
    two_v100(&in, 1.2, 2);
    assert_int_equal(cats_inst_cap(&in, &caps, &forbidden, &err), 0);
    assert_null(in.allow);
    assert_int_equal(power_caps_parse("20", &caps, &err), 0);
    assert_int_equal(cats_inst_cap(&in, &caps, &forbidden, &err), -1);
    tu_assert_contains(err.msg, "a 20 W cap is below V100's idle draw of 23.3 W");
    cats_inst_free(&in);
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
        cmocka_unit_test(test_fleet_cap_halves_rate),
        cmocka_unit_test(test_fleet_cap_no_effect),
        cmocka_unit_test(test_cap_refused),
        cmocka_unit_test(test_cats_cap),
    };
    return cmocka_run_group_tests_name("solve_cap", tests, NULL, teardown);
}
