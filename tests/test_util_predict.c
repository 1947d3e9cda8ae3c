/*
 * test_util_predict.c — the utilization predictors (util_predict.h) on
 * hand-worked series: their names, profile:N repeated and held at its mean,
 * history per job type and pooled, noisy's RMSLE and seeding, bias and
 * requested; and a run in
 * which HotCloud decides on a profile's prediction while the simulator
 * runs the true series (the co-located tasks slow each other down, which
 * the prediction did not foresee).
 */
#include "testutil.h"

#include "predict/util_predict.h"
#include "sim/sim.h"

/* ---- names --------------------------------------------------------------- */

typedef struct name_case {
    const char *text;
    int ok;
    upred_kind kind;
    double arg;
    int hold;
    const char *back;           /* upred_format's text */
} name_case;

static const name_case name_cases[] = {
    {"oracle", 1, UPRED_ORACLE, 0, 0, "oracle"},
    {"", 1, UPRED_ORACLE, 0, 0, "oracle"},
    {"profile:600", 1, UPRED_PROFILE, 600, 0, "profile:600"},
    {"profile:90.5:mean", 1, UPRED_PROFILE, 90.5, 1, "profile:90.5:mean"},
    {"history", 1, UPRED_HISTORY, 0, 0, "history"},
    {"noisy:0.154", 1, UPRED_NOISY, 0.154, 0, "noisy:0.154"},
    {"noisy:0", 1, UPRED_NOISY, 0, 0, "noisy:0"},
    {"bias:+20", 1, UPRED_BIAS, 20, 0, "bias:+20"},
    {"bias:-12.5", 1, UPRED_BIAS, -12.5, 0, "bias:-12.5"},
    {"bias:0", 1, UPRED_BIAS, 0, 0, "bias:+0"},
    {"requested", 1, UPRED_REQUESTED, 0, 0, "requested"},
    {"bias:", 0, 0, 0, 0, NULL},
    {"bias:-100", 0, 0, 0, 0, NULL},
    {"bias:20%", 0, 0, 0, 0, NULL},
    {"profile", 0, 0, 0, 0, NULL},
    {"profile:0", 0, 0, 0, 0, NULL},
    {"profile:-5", 0, 0, 0, 0, NULL},
    {"profile:60:median", 0, 0, 0, 0, NULL},
    {"noisy:", 0, 0, 0, 0, NULL},
    {"noisy:-0.1", 0, 0, 0, 0, NULL},
    {"noisy:0.1:x", 0, 0, 0, 0, NULL},
    {"psychic", 0, 0, 0, 0, NULL},
};

static void test_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof name_cases / sizeof *name_cases; i++) {
        const name_case *c = &name_cases[i];
        upred_spec p;
        gp_err err = {{0}};
        int rc = upred_parse(c->text, &p, &err);
        if (!c->ok) {
            if (rc == 0)
                fail_msg("'%s' accepted", c->text);
            tu_assert_contains(err.msg, "noisy:RMSLE");
            continue;
        }
        if (rc != 0)
            fail_msg("'%s': %s", c->text, err.msg);
        assert_int_equal(p.kind, c->kind);
        assert_double_equal(p.arg, c->arg, 0);
        assert_int_equal(p.hold_mean, c->hold);
        char buf[48];
        upred_format(&p, buf, sizeof buf);
        assert_string_equal(buf, c->back);
    }
}

/* ---- predictions ----------------------------------------------------------- */

static void add_task(gp_trace *t, const char *name, const char *model, double arrival,
                     double duration, const float *s, size_t len)
{
    task k;
    task_init(&k);
    strlcpy0(k.name, name, sizeof k.name);
    strlcpy0(k.model, model, sizeof k.model);
    k.arrival_s = arrival;
    k.duration_s = duration;
    k.gpu_mem_gib = 1;
    if (s)
        task_set_util(&k, s, len, 60);
    else
        k.util_mean = k.util_peak = k.util_first = 40;
    trace_add_task(t, &k);
    task_release(&k);
}

static void assert_series(const task *tk, const float *want, size_t n)
{
    assert_int_equal(tk->util.len, n);
    for (size_t i = 0; i < n; i++)
        assert_float_equal(tk->util.pct[i], want[i], 1e-5);
}

/* Samples of 60 s: profile:150 observes two of them. */
static void test_profile(void **state)
{
    (void)state;
    gp_trace *t = trace_new("p");
    const float s[] = {10, 30, 80, 80, 80};
    add_task(t, "a", "", 0, 360, s, 5);
    add_task(t, "b", "", 0, 100, NULL, 0);     /* no series: left as it is */
    upred_spec p = {UPRED_PROFILE, 150, 0};
    gp_trace *v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){10, 30}, 2);
    assert_double_equal(v->tasks[0].util_mean, 20, 1e-9);
    assert_double_equal(v->tasks[0].util_peak, 30, 1e-9);
    assert_int_equal(v->tasks[1].util.len, 0);
    assert_double_equal(v->tasks[1].util_mean, 40, 0);
    trace_free(v);
    /* Held at the mean (20) to the task's 360 s: six samples. */
    p.hold_mean = 1;
    v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){10, 30, 20, 20, 20, 20}, 6);
    trace_free(v);
    /* A window shorter than a sample still observes the first one. */
    p = (upred_spec){UPRED_PROFILE, 5, 0};
    v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){10}, 1);
    /* The truth is untouched. */
    assert_series(&t->tasks[0], s, 5);
    trace_free(v);
    trace_free(t);
}

/* Tasks x1 (type x, done at 100 s) and x2 (type x, done at 500 s), y1
 * (type y, done at 150 s); then x3 arrives at 200 s, y2 at 600 s, x4 at
 * 600 s.  x3 sees only x1; x4 sees x1, x2 (and x3, done at 460 s); y2 sees
 * y1; x1 sees nothing. */
static void test_history(void **state)
{
    (void)state;
    gp_trace *t = trace_new("h");
    add_task(t, "x1", "x", 0, 100, (const float[]){10, 20}, 2);
    add_task(t, "x2", "x", 50, 450, (const float[]){30, 40, 50}, 3);
    add_task(t, "y1", "y", 10, 140, (const float[]){90}, 1);
    add_task(t, "x3", "x", 200, 260, (const float[]){50, 60}, 2);
    add_task(t, "y2", "y", 600, 100, (const float[]){5, 5}, 2);
    add_task(t, "x4", "x", 600, 100, (const float[]){1}, 1);
    upred_spec p = {UPRED_HISTORY, 0, 0};
    gp_trace *v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){100}, 1);      /* nothing known */
    assert_series(&v->tasks[3], (const float[]){10, 20}, 2);
    assert_series(&v->tasks[4], (const float[]){90}, 1);
    /* x1, x2, x3: (10+30+50)/3, (20+40+60)/3, 50/1. */
    assert_series(&v->tasks[5], (const float[]){30, 40, 50}, 3);
    trace_free(v);
    /* Without job types every earlier completed task counts: x3 sees x1
     * and y1. */
    for (size_t i = 0; i < t->ntasks; i++)
        t->tasks[i].model[0] = '\0';
    v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[3], (const float[]){50, 20}, 2);
    trace_free(v);
    trace_free(t);
}

/* log(pred / truth) has mean 0 and standard deviation E over many samples
 * (below the cap); the same seed gives the same prediction. */
static void test_noisy(void **state)
{
    (void)state;
    gp_trace *t = trace_new("n");
    float s[2000];
    for (size_t i = 0; i < 2000; i++)
        s[i] = (float)(20 + (i % 7));
    add_task(t, "a", "", 0, 120000, s, 2000);
    upred_spec p = {UPRED_NOISY, 0.154, 0};
    gp_trace *v = upred_trace_new(t, &p, 7), *w = upred_trace_new(t, &p, 7);
    gp_trace *o = upred_trace_new(t, &p, 8);
    double sum = 0, sumsq = 0;
    for (size_t i = 0; i < 2000; i++) {
        double e = log(v->tasks[0].util.pct[i] / s[i]);
        sum += e;
        sumsq += e * e;
    }
    double mean = sum / 2000, rms = sqrt(sumsq / 2000);
    assert_true(fabs(mean) < 0.015);
    assert_true(fabs(rms - 0.154) < 0.01);
    assert_memory_equal(v->tasks[0].util.pct, w->tasks[0].util.pct, 2000 * sizeof(float));
    assert_true(memcmp(v->tasks[0].util.pct, o->tasks[0].util.pct, 2000 * sizeof(float)) != 0);
    trace_free(v);
    trace_free(w);
    trace_free(o);
    /* Capped at 100 %. */
    gp_trace *hi = trace_new("hi");
    add_task(hi, "h", "", 0, 60, (const float[]){99}, 1);
    p.arg = 2;
    for (uint64_t seed = 1; seed < 20; seed++) {
        v = upred_trace_new(hi, &p, seed);
        assert_true(v->tasks[0].util.pct[0] <= 100);
        trace_free(v);
    }
    trace_free(hi);
    trace_free(t);
}

/* bias:X scales every sample (capped at 100 %); requested is a constant at
 * the task's requested share. */
static void test_bias_and_requested(void **state)
{
    (void)state;
    gp_trace *t = trace_new("b");
    add_task(t, "a", "", 0, 180, (const float[]){10, 50, 90}, 3);
    add_task(t, "half", "", 0, 180, (const float[]){10, 50, 90}, 3);
    t->tasks[1].gpu_milli = 500;
    upred_spec p = {UPRED_BIAS, 20, 0};
    gp_trace *v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){12, 60, 100}, 3);
    assert_double_equal(v->tasks[0].util_mean, 172 / 3.0, 1e-5);
    trace_free(v);
    p = (upred_spec){UPRED_REQUESTED, 0, 0};
    v = upred_trace_new(t, &p, 1);
    assert_series(&v->tasks[0], (const float[]){100}, 1);
    assert_series(&v->tasks[1], (const float[]){50}, 1);
    trace_free(v);
    trace_free(t);
}

/* ---- deciding on predictions, running the truth ----------------------------- */

/* One V100 server of two GPUs.  a (20 % for its first minute, then 90 %)
 * arrives first; b (50 % throughout) a second later.  HotCloud (mean sum
 * below 100 %) sees a's true mean of 83 % and opens GPU 1 for b; under
 * profile:60 it sees a at 20 % and puts b next to a on GPU 0, where the
 * true 140 % slows both: b then takes longer than its 600 s. */
static void test_decide_on_prediction(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("c");
    tu_add_node(cl, "srv", "V100", 2);
    gp_trace *t = trace_new("t");
    float a[10] = {20, 90, 90, 90, 90, 90, 90, 90, 90, 90};
    float b[10] = {50, 50, 50, 50, 50, 50, 50, 50, 50, 50};
    add_task(t, "a", "", 0, 600, a, 10);
    add_task(t, "b", "", 1, 600, b, 10);
    const char *preds[2] = {"oracle", "profile:60"};
    const char *want_gpu[2] = {"1", "0"};
    const char *want_name[2] = {"hotcloud", "hotcloud (profile:60)"};
    for (int k = 0; k < 2; k++) {
        gp_err err = {{0}};
        sim_config cfg;
        sim_config_default(&cfg);
        cfg.sleep = 0;
        assert_int_equal(upred_parse(preds[k], &cfg.predict, &err), 0);
        policy_spec ps;
        assert_int_equal(policy_spec_parse("hotcloud", &ps, &err), 0);
        sim *s = sim_new(&cfg, cl, cat, t, &ps, &err);
        if (!s)
            fail_msg("%s", err.msg);
        sim_run(s, NULL);
        sim_finish(s);
        run *r = sim_take_run(s);
        sim_free(s);
        const run_outcome *ob = tu_outcome(r, 1);
        assert_string_equal(ob->gpus, want_gpu[k]);
        assert_string_equal(r->name, want_name[k]);
        if (k == 0)
            assert_double_equal(ob->jct_s, 600, 1e-6);
        else
            assert_true(ob->jct_s > 600 * 1.1);    /* the truth ran, not the prediction */
        if (k == 1)
            tu_assert_contains(r->options, "predict=profile:60");
        run_free(r);
    }
    trace_free(t);
    cluster_free(cl);
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_noisy),
        cmocka_unit_test(test_bias_and_requested),
        cmocka_unit_test(test_decide_on_prediction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
