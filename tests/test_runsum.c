/*
 * test_runsum.c — one summary of a run for every front end (core/runsum.h)
 * and the dashboard's run set (ui/runset.h) that feeds it: a finished run
 * is summarised by its own metrics whatever the horizon asked; End in
 * slices and playback end exactly where running to the end does, their
 * clocks stopped at the runs' end; one power model for every row;
 * percentages printed so they never contradict their verdict; a run that
 * failed tasks never the best of jct_vs_best; a GPU
 * profile's CATS slope following an edit of max_w.  Reads the sample sets
 * in sample-data/ (run from the project root).
 */
#include "testutil.h"

#include "core/profile.h"
#include "core/profile_int.h"
#include "core/runsum.h"
#include "io/import.h"
#include "ui/runset.h"
#include "ui/runset_int.h"

/* --- percentages that agree with their verdict ---------------------------- */

static void test_fmt_pct(void **state)
{
    (void)state;
    static const struct {
        double value, target;
        int decimals;
        const char *want;
    } cases[] = {
        {1.03, 1.0, 1, "1.03"},         /* "1.0" would fail a <= 1.0 target */
        {0.97, 1.0, 1, "1.0"},          /* rounds up to the target and meets it */
        {1.0, 1.0, 1, "1.0"},
        {7.142857, 7.1, 1, "7.14"},     /* 1 of 14 tasks */
        {7.142857, 7.14, 2, "7.143"},
        {7.142857, 7.2, 2, "7.14"},
        {5.0, 1.0, 1, "5.0"},
        {1.00001, 1.0, 1, ">1.0000"},   /* closer than four decimals tell */
        {NAN, 1.0, 1, "-"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[32];
        summary_fmt_pct(cases[i].value, cases[i].target, cases[i].decimals, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("case %zu: %g against %g: '%s', wanted '%s'", i, cases[i].value,
                     cases[i].target, buf, cases[i].want);
    }
}

/* --- a run that failed tasks is never the best ------------------------------ */

static run *finished(const char *name, double jct_mean, double completed, double failed)
{
    run *r = run_new(name);
    run_set_metric(r, "makespan_s", 100);
    run_set_metric(r, "jct_mean_s", jct_mean);
    run_set_metric(r, "completed", completed);
    run_set_metric(r, "failed_tasks", failed);
    return r;
}

static void test_best_skips_failed(void **state)
{
    (void)state;
    static const struct {
        double jct[3], completed[3], failed[3];
        double want;            /* INFINITY: no run can be best */
    } cases[] = {
        /* FGD on openb-like over cats-testbed: fast on the 283 it kept. */
        {{100, 300, 250}, {283, 800, 800}, {517, 0, 0}, 250},
        {{100, 300, 250}, {800, 800, 800}, {0, 0, 0}, 100},
        {{100, 300, 250}, {799, 799, 0}, {1, 1, 800}, INFINITY},
        {{0, 300, 250}, {0, 800, 800}, {0, 0, 0}, 250},     /* ran nothing */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run *rs[3];
        for (int k = 0; k < 3; k++)
            rs[k] = finished("p", cases[i].jct[k], cases[i].completed[k], cases[i].failed[k]);
        double got = run_best_jct(rs, 3);
        if (!(got == cases[i].want))
            fail_msg("case %zu: best %g, wanted %g", i, got, cases[i].want);
        for (int k = 0; k < 3; k++)
            run_free(rs[k]);
    }
}

/* --- a finished run's own figures ------------------------------------------- */

static void test_final_summary(void **state)
{
    (void)state;
    run *r = run_new("x");
    run_point p = {0};
    p.t_s = 0, p.active_gpus = 4, p.power_w = 400;
    run_add_point(r, &p);
    p.t_s = 10, p.active_gpus = 0, p.power_w = 100;
    run_add_point(r, &p);
    run_summary s;
    run_summarize(r, 50, &s);
    assert_int_equal(run_is_final(r), 0);
    assert_int_equal(s.final, 0);
    assert_double_equal(s.avg_gpus, 4 * 10 / 50.0, 1e-12);  /* live: up to t_end */
    assert_true(isnan(s.capex_usd));
    run_set_metric(r, "makespan_s", 10);
    run_set_metric(r, "avg_gpus", 4);
    run_set_metric(r, "avg_power_w", 400);
    run_set_metric(r, "energy_j", 4000);
    run_set_metric(r, "sla_violations", 3);
    run_set_metric(r, "capex_usd", 2500);
    assert_int_equal(run_is_final(r), 1);
    /* However far a clock ran past the end, the figures are the run's. */
    for (double t = -1; t < 1000; t += 333) {
        run_summarize(r, t, &s);
        assert_int_equal(s.final, 1);
        assert_double_equal(s.avg_gpus, 4, 0);
        assert_double_equal(s.avg_w, 400, 0);
        assert_double_equal(s.energy_kwh, 4000 / 3.6e6, 1e-15);
        assert_int_equal(s.violations, 3);
        assert_double_equal(s.capex_usd, 2500, 0);
        assert_double_equal(s.t_end, 10, 0);
    }
    run_free(r);
}

/* --- the CATS slope follows max_w ------------------------------------------- */

static void test_follow_slope(void **state)
{
    (void)state;
    gpu_profile old = {0};
    snprintf(old.name, sizeof old.name, "H100");
    old.idle_w = 70, old.max_w = 700, old.f_max_mhz = 1980, old.f_min_mhz = 210;
    old.alpha_w_per_mhz = gpu_profile_derived_alpha(&old);
    gpu_profile g = old;
    gp_err err;
    g.max_w = 600;
    assert_int_equal(gpu_profile_follow_slope(&old, &g, &err), 0);
    assert_double_equal(g.alpha_w_per_mhz, 530.0 / 1980, 1e-12);
    /* At f_max the model draws the new max_w. */
    assert_double_equal(g.idle_w + g.alpha_w_per_mhz * g.f_max_mhz, 600, 1e-9);
    char changes[256];
    profile_changes(&old, &g, gpu_profile_fields, changes, sizeof changes);
    assert_string_equal(changes, "max_w 700 -> 600; alpha_w_per_mhz 0.318182 -> 0.267677");
    /* Another field: the slope stays. */
    g = old;
    g.price_usd = 9;
    assert_int_equal(gpu_profile_follow_slope(&old, &g, &err), 0);
    assert_double_equal(g.alpha_w_per_mhz, old.alpha_w_per_mhz, 0);
    /* A measured slope is not guessed at. */
    old.alpha_w_per_mhz = 0.5;
    g = old;
    g.max_w = 650;
    assert_int_equal(gpu_profile_follow_slope(&old, &g, &err), -1);
    assert_non_null(strstr(err.msg, "measured"));
    /* A new profile without a slope gets the derived one. */
    g = old;
    g.alpha_w_per_mhz = 0;
    assert_int_equal(gpu_profile_follow_slope(NULL, &g, &err), 0);
    assert_double_equal(g.alpha_w_per_mhz, gpu_profile_derived_alpha(&g), 0);
}

/* --- the run set: however the runs reach their end, the same figures ---------- */

static store *sample_store(char **dir)
{
    store *st = tu_store_new(dir);
    gp_err err = {{0}};
    import_opts opts = {0};
    import_result res;
    memset(&res, 0, sizeof res);
    const char *paths[1] = {"sample-data/pai-like"};
    if (import_run(st, &import_native, paths, 1, &opts, &res, &err))
        fail_msg("import: %s", err.msg);
    return st;
}

static void start(runset *rs, store *st, int model)
{
    static const char *const labels[] = {"cats", "hotcloud"};
    gp_err err;
    runset_init(rs);
    if (runset_start(rs, st, "pai-like", "pai-like", labels, 2, 0, model, &err))
        fail_msg("runset_start: %s", err.msg);
}

/* Slot i of a and b have the same summary, and a's clock stops at the end. */
static void same_figures(const runset *a, const runset *b)
{
    double end = 0;
    for (int i = 0; i < a->n; i++) {
        run_summary x, y;
        run_summarize(runset_record(a, i), a->t, &x);
        run_summarize(runset_record(b, i), -1, &y);
        assert_int_equal(x.final, 1);
        assert_double_equal(x.avg_gpus, y.avg_gpus, 0);
        assert_double_equal(x.avg_w, y.avg_w, 0);
        assert_double_equal(x.energy_kwh, y.energy_kwh, 0);
        assert_double_equal(x.jct_p95, y.jct_p95, 0);
        assert_int_equal(x.violations, y.violations);
        assert_double_equal(runset_time(a, i), x.t_end, 0);
        if (x.t_end > end)
            end = x.t_end;
    }
    assert_double_equal(a->t, end, 0);
}

static void test_runset_ends(void **state)
{
    (void)state;
    char *dir;
    store *st = sample_store(&dir);
    runset all, sliced, played;
    start(&all, st, -1);
    runset_finish_all(&all);
    /* End in slices far shorter than the run. */
    start(&sliced, st, -1);
    int slices = 0;
    while (!runset_finish_slice(&sliced, 1e-4))
        slices++;
    assert_true(slices > 1);
    assert_double_equal(runset_progress(&sliced), 1, 0);
    same_figures(&sliced, &all);
    /* Played at a speed no frame keeps up with: the clock waits for the
     * runs and stops at their end. */
    start(&played, st, -1);
    played.playing = 1;
    played.speed = 1e9;
    while (played.playing)
        runset_tick(&played, 0.25);
    same_figures(&played, &all);
    runset_clear(&all);
    runset_clear(&sliced);
    runset_clear(&played);
    tu_store_free(st, dir);
}

/* A jump in slices far shorter than it ends where a jump at once does:
 * the focused run at decision k, the other at its time; back again too. */
static void test_runset_seek(void **state)
{
    (void)state;
    char *dir;
    store *st = sample_store(&dir);
    runset once, sliced;
    gp_err err;
    start(&once, st, -1);
    start(&sliced, st, -1);
    for (size_t k = 600; ; k = 250) {
        assert_int_equal(runset_goto(&once, k, &err), 0);
        assert_int_equal(runset_seek_begin(&sliced, k, 0, &err), 0);
        int slices = 0;
        while (!runset_seek_slice(&sliced, 1e-4))
            slices++;
        if (k == 600)
            assert_true(slices > 1);
        assert_double_equal(runset_seek_progress(&sliced), 1, 0);
        for (int i = 0; i < once.n; i++) {
            assert_int_equal(runset_decisions(&sliced, i), runset_decisions(&once, i));
            assert_double_equal(runset_time(&sliced, i), runset_time(&once, i), 0);
        }
        assert_int_equal(runset_decisions(&sliced, 0), k);
        assert_double_equal(sliced.t, once.t, 0);
        if (k == 250)
            break;
    }
    /* Stopped midway: the focused run where it got to, none ahead of it. */
    assert_int_equal(runset_seek_begin(&sliced, 2000, 0, &err), 0);
    runset_seek_slice(&sliced, 1e-4);
    runset_seek_stop(&sliced);
    assert_true(runset_decisions(&sliced, 0) < 2000);
    assert_true(runset_time(&sliced, 1) <= runset_time(&sliced, 0));
    assert_int_equal(sliced.seeking, 0);
    runset_clear(&once);
    runset_clear(&sliced);
    tu_store_free(st, dir);
}

static void test_runset_power_model(void **state)
{
    (void)state;
    char *dir;
    store *st = sample_store(&dir);
    runset rs;
    static const char *const labels[] = {"cats", "fgd"};
    gp_err err;
    runset_init(&rs);
    assert_int_equal(runset_start(&rs, st, "pai-like", "pai-like", labels, 2, 0, -1, &err), 0);
    assert_int_equal(runset_mixed_power(&rs), 1);
    assert_string_equal(runset_record(&rs, 1)->power_model, "eopc");
    assert_int_equal(runset_start(&rs, st, "pai-like", "pai-like", labels, 2, 0, POWER_CATS,
                                  &err), 0);
    assert_int_equal(runset_mixed_power(&rs), 0);
    assert_string_equal(runset_record(&rs, 1)->power_model, "cats");
    /* Restarting keeps the model. */
    assert_int_equal(runset_restart(&rs, st, &err), 0);
    assert_string_equal(runset_record(&rs, 1)->power_model, "cats");
    runset_clear(&rs);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_pct),
        cmocka_unit_test(test_best_skips_failed),
        cmocka_unit_test(test_final_summary),
        cmocka_unit_test(test_follow_slope),
        cmocka_unit_test(test_runset_ends),
        cmocka_unit_test(test_runset_seek),
        cmocka_unit_test(test_runset_power_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
