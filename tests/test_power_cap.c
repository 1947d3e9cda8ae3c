/*
 * test_power_cap.c — a power cap as a clock clamp (power/power_cap.h) and
 * its application in the simulator (sim/, cfg.caps), worked by hand on
 * CATS's V100 (§2.1: P = 23.3 + 0.09 f W over 135..1350 MHz, beta 0.91):
 *
 *   cap 100 W:  f_cap = (100 - 23.3) / 0.09        = 852.222 MHz
 *               rate  = (852.222 / 1350)^0.91      = 0.657960
 *   a 100 s task alone on it ends at 100 / 0.657960 = 151.985 s
 *   drawing 100 W, so 15,198.5 J against 144.8 W x 100 s = 14,480 J
 *   uncapped: the cap lowers the draw but costs energy on this curve
 *   (idle_w is paid for longer; beta < 1).
 *
 * Layers: power (the clamp, the lists) and sim (applying it).
 */
#include "testutil.h"

#include "power/power_cap.h"
#include "sim/sim.h"

static gpu_profile v100(void)
{
    gpu_profile p = {.mem_gib = 32, .idle_w = 23.3, .max_w = 144.8, .f_min_mhz = 135,
                     .f_max_mhz = 1350, .alpha_w_per_mhz = 0.09, .beta = 0.91};
    snprintf(p.name, sizeof p.name, "V100");
    return p;
}

static void test_clamp_by_hand(void **state)
{
    (void)state;
    gpu_profile p = v100();
    double f;
    power_cap_effect eff;
    gp_err err = {{0}};
    assert_int_equal(power_cap_clock(&p, 100, &f, &eff, &err), 0);
    assert_int_equal(eff, CAP_CLAMP);
    assert_double_equal(f, 852.2222222, 1e-6);
    assert_double_equal(power_at_clock(&p, f), 100, 1e-9);
    assert_double_equal(power_clock_rate(&p, f), 0.6579598, 1e-6);
    assert_double_equal(power_clock_rate(&p, 1350), 1, 1e-12);
}

static void test_cap_edges(void **state)
{
    (void)state;
    gpu_profile p = v100();
    double f;
    power_cap_effect eff;
    gp_err err = {{0}};
    /* below idle: an error naming the idle draw */
    assert_int_equal(power_cap_clock(&p, 20, &f, &eff, &err), -1);
    tu_assert_contains(err.msg, "idle draw of 23.3 W");
    /* at or above the maximum: no effect, the clock stays at f_max */
    static const double no_effect[] = {144.8, 200, 1e5};
    for (size_t i = 0; i < sizeof no_effect / sizeof *no_effect; i++) {
        assert_int_equal(power_cap_clock(&p, no_effect[i], &f, &eff, &err), 0);
        assert_int_equal(eff, CAP_NO_EFFECT);
        assert_double_equal(f, 1350, 0);
    }
    /* between idle and P(f_min) = 35.45 W: no clock holds it */
    assert_int_equal(power_cap_clock(&p, 30, &f, &eff, &err), 0);
    assert_int_equal(eff, CAP_BELOW_CLOCKS);
    assert_double_equal(f, 135, 0);
    char line[160];
    power_cap_describe(&p, 200, line, sizeof line);
    tu_assert_contains(line, "no effect: cap 200 W >= max 144.8 W");
    power_cap_describe(&p, 100, line, sizeof line);
    tu_assert_contains(line, "clock clamp to 852 MHz");
}

typedef struct parse_case {
    const char *text;
    int rc;
    double all_w;
    size_t n;
    const char *model1;
    double w1;
    const char *msg;            /* part of the error */
} parse_case;

static void test_parse(void **state)
{
    (void)state;
    static const parse_case cases[] = {
        {"200", 0, 200, 0, NULL, 0, NULL},
        {"none", 0, 0, 0, NULL, 0, NULL},
        {"", 0, 0, 0, NULL, 0, NULL},
        {"V100=150", 0, 0, 1, "V100", 150, NULL},
        {"V100=150,A100-40GB=250", 0, 0, 2, "A100-40GB", 250, NULL},
        {"0", -1, 0, 0, NULL, 0, "col 1: '0' is not watts"},
        {"-5", -1, 0, 0, NULL, 0, "is not watts"},
        {"abc", -1, 0, 0, NULL, 0, "is not watts"},
        {"nan", -1, 0, 0, NULL, 0, "is not watts"},
        {"V100=", -1, 0, 0, NULL, 0, "col 6: expected watts"},
        {"=100", -1, 0, 0, NULL, 0, "col 1: expected a GPU model"},
        {"V100=150,A100", -1, 0, 0, NULL, 0, "col 10: expected MODEL=W"},
        {"V100=150,", -1, 0, 0, NULL, 0, "col 10: expected MODEL=W"},
        {"V100=1,V100=2", -1, 0, 0, NULL, 0, "V100 is capped twice"},
        {"V100=150x", -1, 0, 0, NULL, 0, "'150x' is not watts"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const parse_case *c = &cases[i];
        power_caps caps;
        gp_err err = {{0}};
        int rc = power_caps_parse(c->text, &caps, &err);
        if (rc != c->rc)
            fail_msg("'%s': rc %d, expected %d (%s)", c->text, rc, c->rc, err.msg);
        if (rc) {
            tu_assert_contains(err.msg, c->msg);
            assert_false(power_caps_any(&caps));    /* nothing half-parsed */
            continue;
        }
        assert_double_equal(caps.all_w, c->all_w, 0);
        assert_int_equal(caps.n, c->n);
        if (c->model1) {
            assert_double_equal(power_caps_for(&caps, c->model1), c->w1, 0);
            assert_double_equal(power_caps_for(&caps, "H100"), 0, 0);    /* not named */
        }
        char back[256];
        power_caps_format(&caps, back, sizeof back);
        power_caps again;
        assert_int_equal(power_caps_parse(back, &again, &err), 0);
        assert_memory_equal(&caps, &again, sizeof caps);
    }
}

/* One V100 server of n GPUs and n 100 s tasks arriving at 0. */
static sim *one_gpu_sim(const char *caps_text, int dfs, catalog **cat, cluster **cl,
                        gp_trace **tr, gp_err *err)
{
    *cat = catalog_new();
    gpu_profile p = v100();
    catalog_add_gpu(*cat, &p);
    *cl = cluster_new("one");
    node n = {.gpu_count = 1, .cpu_milli = 64000, .ram_mib = 65536};
    snprintf(n.name, sizeof n.name, "n0");
    snprintf(n.gpu_model, sizeof n.gpu_model, "V100");
    cluster_add_node(*cl, &n);
    *tr = trace_new("one");
    task k;
    task_init(&k);
    snprintf(k.name, sizeof k.name, "t0");
    k.duration_s = 100;
    k.gpu_mem_gib = 4;
    k.util_mean = k.util_peak = k.util_first = 50;
    k.kappa = 1.05;             /* DFS would raise a capped clock to f_max */
    trace_add_task(*tr, &k);
    task_release(&k);
    policy_spec sp;
    assert_int_equal(policy_spec_parse("first", &sp, err), 0);
    sim_config cfg;
    sim_config_default(&cfg);
    cfg.sleep = 0;
    cfg.dfs = dfs;
    cfg.power_model = POWER_CATS;
    assert_int_equal(power_caps_parse(caps_text, &cfg.caps, err), 0);
    return sim_new(&cfg, *cl, *cat, *tr, &sp, err);
}

static void run_one(const char *caps_text, int dfs, double *end, double *energy_gpu,
                    double *mhz)
{
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    gp_err err = {{0}};
    sim *s = one_gpu_sim(caps_text, dfs, &cat, &cl, &tr, &err);
    if (!s)
        fail_msg("%s", err.msg);
    sim_run(s, NULL);
    sim_finish(s);
    const run *r = sim_run_record(s);
    assert_int_equal(r->noutcomes, 1);
    *end = r->outcomes[0].end_s;
    *energy_gpu = run_metric_get(r, "energy_gpu_j", -1);
    *mhz = run_metric_get(r, "mean_freq_mhz", -1);
    sim_free(s);
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
}

static void test_sim_clamp(void **state)
{
    (void)state;
    double end, ej, mhz;
    run_one("none", 0, &end, &ej, &mhz);
    assert_double_equal(end, 100, 1e-9);
    assert_double_equal(ej, 14480, 1e-6);
    run_one("100", 0, &end, &ej, &mhz);
    assert_double_equal(end, 151.98496637, 1e-6);
    assert_double_equal(ej, 15198.496637, 1e-4);
    assert_double_equal(mhz, 852.2222222, 1e-6);
    run_one("V100=100", 0, &end, &ej, &mhz);     /* the same, named by model */
    assert_double_equal(end, 151.98496637, 1e-6);
    run_one("H100=100", 0, &end, &ej, &mhz);     /* another model's cap: none here */
    assert_double_equal(end, 100, 1e-9);
    run_one("200", 0, &end, &ej, &mhz);          /* no effect */
    assert_double_equal(end, 100, 1e-9);
    /* DFS never raises a clock above the ceiling: at f_cap the task's
     * predicted 152 s exceeds kappa x 100 s, so Alg. 4 asks for more. */
    run_one("100", 1, &end, &ej, &mhz);
    assert_double_equal(mhz, 852.2222222, 1e-6);
    assert_double_equal(end, 151.98496637, 1e-6);
}

/* What the Cluster screen reads of a GPU under the cap (sim_gpu_cap): the
 * mechanism and the clock the simulator holds it at. */
static void test_sim_gpu_cap(void **state)
{
    (void)state;
    static const struct {
        const char *caps;
        int capped;
        power_cap_effect effect;
        double mhz;
    } cases[] = {
        {"none", 0, CAP_CLAMP, 0},
        {"100", 1, CAP_CLAMP, 852.2222222},
        {"V100=100", 1, CAP_CLAMP, 852.2222222},
        {"200", 1, CAP_NO_EFFECT, 1350},
        {"H100=100", 0, CAP_CLAMP, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        catalog *cat;
        cluster *cl;
        gp_trace *tr;
        gp_err err = {{0}};
        sim *s = one_gpu_sim(cases[i].caps, 0, &cat, &cl, &tr, &err);
        assert_non_null(s);
        sim_cap_gpu c;
        assert_int_equal(sim_gpu_cap(s, 0, &c), cases[i].capped);
        if (cases[i].capped) {
            assert_int_equal(c.effect, cases[i].effect);
            assert_double_equal(c.clock_mhz, cases[i].mhz, 1e-6);
            assert_false(c.peace_model);
            assert_false(c.peace_held);
        }
        sim_free(s);
        trace_free(tr);
        cluster_free(cl);
        catalog_free(cat);
    }
}

static void test_sim_refuses(void **state)
{
    (void)state;
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    gp_err err = {{0}};
    assert_null(one_gpu_sim("20", 0, &cat, &cl, &tr, &err));
    tu_assert_contains(err.msg, "idle draw of 23.3 W");
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
    assert_null(one_gpu_sim("30", 0, &cat, &cl, &tr, &err));
    tu_assert_contains(err.msg, "35.45 W V100 draws at its lowest clock");
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clamp_by_hand),
        cmocka_unit_test(test_cap_edges),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_sim_clamp),
        cmocka_unit_test(test_sim_gpu_cap),
        cmocka_unit_test(test_sim_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
