/*
 * test_tui_model.c — the TUI's pure logic that is not geometry: run
 * summaries computed live from run records (ui/summary.c), the planner's
 * sweep ranges, clusters and threshold mapping (ui/sweep.c), per-GPU
 * figures for the Step and Cluster screens (ui/gpuinfo.c), and the line
 * editor every prompt uses (ui/app.c).  No terminal.  The list widget has
 * its own tests (test_listview.c).
 */
#include "testutil.h"
#include "policy/policy_int.h"

#include <curses.h>

#include "core/cstate.h"
#include "power/power.h"
#include "ui/app.h"
#include "ui/gpuinfo.h"
#include "core/runsum.h"
#include "core/runsum_int.h"
#include "plan/plan.h"
#include "plan/plan_int.h"

/* --- summaries ------------------------------------------------------------ */

static run *two_step_run(void)
{
    /* 2 GPUs at 100 W for 10 s, then 4 GPUs at 300 W for 10 s. */
    run *r = run_new("x");
    run_point p = {0};
    p.t_s = 0, p.active_gpus = 2, p.power_w = 100, p.frag = 1;
    run_add_point(r, &p);
    p.t_s = 10, p.active_gpus = 4, p.power_w = 300, p.frag = 3, p.queued = 2;
    run_add_point(r, &p);
    run_outcome o = {0};
    o.task = 0, o.jct_s = 10, o.end_s = 10, o.node = 0;
    run_add_outcome(r, &o);
    o.task = 1, o.jct_s = 30, o.end_s = 15, o.sla_violated = 1;
    run_add_outcome(r, &o);
    o.task = 2, o.jct_s = 0, o.node = -1, o.sla_violated = 1;   /* never ran */
    run_add_outcome(r, &o);
    return r;
}

static void test_summary(void **state)
{
    (void)state;
    run *r = two_step_run();
    run_summary s;
    run_summarize(r, 20, &s);
    assert_double_equal(s.avg_gpus, 3, 1e-12);
    assert_double_equal(s.avg_w, 200, 1e-12);
    assert_double_equal(s.peak_gpus, 4, 0);
    assert_double_equal(s.peak_w, 300, 0);
    assert_double_equal(s.energy_kwh, 200.0 * 20 / 3.6e6, 1e-15);
    assert_double_equal(s.avg_frag, 2, 1e-12);
    assert_double_equal(s.now_queued, 2, 0);
    assert_int_equal(s.finished, 3);
    assert_int_equal(s.violations, 2);
    assert_double_equal(s.jct_mean, 20, 1e-12);    /* the task that never ran is left out */
    assert_double_equal(s.jct_p50, 20, 1e-12);
    /* Up to t = 5 only the first sample counts. */
    run_summarize(r, 5, &s);
    assert_double_equal(s.avg_gpus, 2, 1e-12);
    assert_double_equal(s.now_gpus, 2, 0);
    assert_double_equal(s.peak_w, 100, 0);
    /* t_end < 0: the last sample's time. */
    run_summarize(r, -1, &s);
    assert_double_equal(s.t_end, 10, 0);
    assert_double_equal(s.avg_gpus, 2, 1e-12);
    run_summarize(NULL, 3, &s);
    assert_double_equal(s.avg_w, 0, 0);
    run_free(r);
}

static void test_time_mean_edges(void **state)
{
    (void)state;
    double x[] = {0, 1, 2}, y[] = {5, 7, 9};
    assert_double_equal(summary_time_mean(x, y, 3, sizeof(double), 4), (5 + 7 + 9 * 2) / 4.0,
                        1e-12);
    assert_double_equal(summary_time_mean(x, y, 3, sizeof(double), 0), 9, 0);
    assert_double_equal(summary_time_mean(x, y, 0, sizeof(double), 4), 0, 0);
    assert_double_equal(summary_time_mean(x, y, 3, sizeof(double), 1.5), (5 + 7 * 0.5) / 1.5,
                        1e-12);
}

static gp_trace *small_trace(void)
{
    gp_trace *tr = trace_new("t");
    task tk;
    static const double arr[] = {0, 0, 5, 100}, dur[] = {10, 10, 10, 1};
    static const int ng[] = {1, 2, 1, 0};
    for (int i = 0; i < 4; i++) {
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "t%d", i);
        tk.arrival_s = arr[i];
        tk.duration_s = dur[i];
        tk.num_gpu = ng[i];
        tk.gpu_milli = ng[i] ? 1000 : 0;
        float u[4] = {10.0f * (float)(i + 1), 20, 30, 40};
        task_set_util(&tk, u, 4, 2.5);
        trace_add_task(tr, &tk);
        task_release(&tk);
    }
    return tr;
}

static void test_violations_and_demand(void **state)
{
    (void)state;
    gp_trace *tr = small_trace();
    run *r = run_new("x");
    run_outcome o = {0};
    o.task = 0, o.jct_s = 11, o.node = 0;           /* 1.1 e_min: within 1.2 */
    run_add_outcome(r, &o);
    o.task = 1, o.jct_s = 13;                       /* 1.3 e_min: violates */
    run_add_outcome(r, &o);
    assert_int_equal(run_violations(r, tr, 0), 1);      /* each task's kappa (1.2) */
    assert_int_equal(run_violations(r, tr, 1.05), 2);   /* a stricter what-if */
    assert_int_equal(run_violations(r, tr, 2), 0);
    /* t0 (1 GPU) and t1 (2 GPUs) overlap from 0 to 10, t2 joins at 5. */
    assert_int_equal(summary_peak_demand(tr), 4);
    assert_int_equal(summary_peak_demand(NULL), 0);
    run_free(r);
    trace_free(tr);
}

/* --- the planner's sweep ------------------------------------------------------- */

static void test_sweep_counts(void **state)
{
    (void)state;
    plan_params p;
    plan_params_default(&p);
    int c[PLAN_MAX_COUNTS];
    p.lo = 2, p.hi = 8, p.step = 3;
    assert_int_equal(plan_counts(&p, c, PLAN_MAX_COUNTS), 3);    /* 2 5 8 */
    assert_int_equal(c[0], 2);
    assert_int_equal(c[1], 5);
    assert_int_equal(c[2], 8);
    p.hi = 9;                                                       /* hi always included */
    assert_int_equal(plan_counts(&p, c, PLAN_MAX_COUNTS), 4);
    assert_int_equal(c[3], 9);
    p.lo = 1, p.hi = 1000, p.step = 1;                              /* step grows to fit */
    int n = plan_counts(&p, c, 10);
    assert_true(n <= 10);
    assert_int_equal(c[0], 1);
    assert_int_equal(c[n - 1], 1000);
    p.lo = 9, p.hi = 3;                                             /* inverted: just lo */
    assert_int_equal(plan_counts(&p, c, PLAN_MAX_COUNTS), 1);
    p.unbounded = 1, p.per_server = 4;
    assert_int_equal(plan_counts(&p, c, PLAN_MAX_COUNTS), 1);
    assert_int_equal(c[0], 4);
}

static void test_sweep_cluster(void **state)
{
    (void)state;
    gpu_profile g = {0};
    snprintf(g.name, sizeof g.name, "V100");
    cluster *c = plan_cluster(&g, 19, 8);
    assert_int_equal(c->nnodes, 3);
    assert_int_equal(c->nodes[0].gpu_count, 8);
    assert_int_equal(c->nodes[2].gpu_count, 3);
    assert_int_equal(cluster_gpu_total(c), 19);
    assert_string_equal(c->nodes[1].gpu_model, "V100");
    cluster_free(c);
    c = plan_cluster(&g, 40, 99);              /* clamped to GP_NODE_MAX_GPUS */
    assert_int_equal(c->nodes[0].gpu_count, GP_NODE_MAX_GPUS);
    cluster_free(c);
}

static void test_thresholds(void **state)
{
    (void)state;
    static const policy_option opts[] = {
        {"corr_thr", OPT_CORR_THRESHOLD, 0, -1, 1, ""},
        {"util_thr", OPT_UTIL_THRESHOLD, 100, 0, 400, ""},
        {"lambda1", OPT_WEIGHT, 1, 0, 10, ""},
        {"util_mode", OPT_SWITCH, 0, 0, 1, ""},
        {0},
    };
    /* Names that once looked like thresholds but have other roles. */
    static const policy_option named_alike[] = {
        {"alpha", OPT_WEIGHT, 0.1, 0, 1, ""},
        {"q_util_rho", OPT_TUNING, 1, 0, 1, ""},
        {0},
    };
    policy_ops corr = {.name = "c", .family = FAMILY_CORRELATION, .options = opts};
    policy_ops alike = {.name = "g", .family = FAMILY_FRAGMENTATION, .options = named_alike};
    policy_spec sp = {.ops = &corr, .params = {0, 100, 1, 0}};
    plan_apply_thresholds(&sp, 0.3, 80);
    assert_double_equal(sp.params[0], 0.3, 0);
    assert_double_equal(sp.params[1], 80, 0);
    assert_double_equal(sp.params[2], 1, 0);        /* a weight: untouched */
    assert_double_equal(sp.params[3], 0, 0);        /* a switch: untouched */
    plan_apply_thresholds(&sp, NAN, NAN);          /* "policy default": unchanged */
    assert_double_equal(sp.params[0], 0.3, 0);
    plan_apply_thresholds(&sp, 5, 900);            /* clamped to the option range */
    assert_double_equal(sp.params[0], 1, 0);
    assert_double_equal(sp.params[1], 400, 0);
    assert_double_equal(sp.params[3], 0, 0);
    policy_spec g = {.ops = &alike, .params = {0.1, 1}};
    plan_apply_thresholds(&g, -0.2, 10);           /* no threshold roles: nothing */
    assert_double_equal(g.params[0], 0.1, 0);
    assert_double_equal(g.params[1], 1, 0);
}

/* The planner's documented default, --util-threshold 100, once also set
 * CATS's util_mode switch to 1 (its name holds "util"), which on
 * cats-testbed at 5 GPUs took SLA violations from 7.14 % to 28.57 %. */
static void test_thresholds_cats(void **state)
{
    (void)state;
    gp_err err = {{0}};
    policy_spec sp;
    assert_int_equal(policy_spec_parse("cats", &sp, &err), 0);
    plan_apply_thresholds(&sp, 0, 100);
    for (int i = 0; sp.ops->options[i].key; i++) {
        const policy_option *o = &sp.ops->options[i];
        double want = o->role == OPT_UTIL_THRESHOLD ? 100 : o->role == OPT_CORR_THRESHOLD ? 0
                                                                                            : o->def;
        assert_double_equal(sp.params[i], want, 0);
    }
    assert_double_equal(sp.params[policy_option_index(sp.ops, "util_mode")], 0, 0);
    assert_int_equal(policy_spec_parse("corrgpu", &sp, &err), 0);
    plan_apply_thresholds(&sp, 0.25, 90);
    assert_double_equal(sp.params[policy_option_index(sp.ops, "alpha")], 0.25, 0);
    assert_double_equal(sp.params[policy_option_index(sp.ops, "q")], 90, 0);
    assert_double_equal(sp.params[policy_option_index(sp.ops, "from_start")], 0, 0);
}

/* --- per-GPU figures ------------------------------------------------------------- */

static void test_gpuinfo(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    gpu_profile gp = {0};
    snprintf(gp.name, sizeof gp.name, "G");
    gp.mem_gib = 16, gp.idle_w = 20, gp.max_w = 200, gp.sleep_w = 2;
    gp.f_min_mhz = 100, gp.f_max_mhz = 1100, gp.alpha_w_per_mhz = 0.1;
    catalog_add_gpu(cat, &gp);
    cluster *cl = cluster_new("c");
    node n = {0};
    snprintf(n.name, sizeof n.name, "n0");
    snprintf(n.gpu_model, sizeof n.gpu_model, "G");
    n.gpu_count = 2, n.cpu_milli = 64000, n.ram_mib = 1 << 20;
    cluster_add_node(cl, &n);
    gp_err err;
    cstate *cs = cstate_new(cl, cat, &err);
    assert_non_null(cs);
    gp_trace *tr = small_trace();
    int g0 = 0;
    cstate_alloc(cs, &tr->tasks[0], 0, 0, &g0, 1);
    cstate_alloc(cs, &tr->tasks[2], 2, 0, &g0, 1);
    double prog[4] = {0, 0, 5.0, 0};                /* t2 is at its third sample */
    /* t0 at sample 0 (10 %) + t2 at sample 2 (30 %). */
    assert_double_equal(gpu_util_now(cs, tr, prog, 0), 40, 1e-9);
    assert_double_equal(gpu_util_now(cs, tr, NULL, 0), 10 + 30, 1e-9);
    assert_double_equal(task_util_at(&tr->tasks[0], 1e9), 40, 0);    /* past the end */
    float agg[16];
    size_t m = gpu_agg_series(cs, tr, prog, 0, agg, 16);
    /* t0: 10 20 30 40, t2 from sample 2: 30 40 (ends at 10 s) */
    assert_int_equal(m, 4);
    assert_double_equal(agg[0], 40, 1e-6);
    assert_double_equal(agg[1], 60, 1e-6);
    assert_double_equal(agg[2], 30, 1e-6);
    assert_int_equal(gpu_agg_series(cs, tr, prog, 1, agg, 16), 0);
    /* Power (CATS eq. 1–3) and the heatmap levels. */
    cs->gpus[0].power = GPU_ACTIVE;
    cs->gpus[0].freq_mhz = 1000;
    cs->gpus[1].power = GPU_ASLEEP;
    assert_double_equal(gpu_watts(cs, 0, 0), 20 + 0.1 * 1000, 1e-9);
    assert_double_equal(gpu_watts(cs, 1, 0), 2, 1e-9);
    assert_double_equal(gpu_watts(cs, 0, 1), 200, 0);           /* eopc */
    assert_double_equal(gpu_watts(cs, 1, 1), 20, 0);
    assert_int_equal(gpu_heat_level(cs, tr, prog, 0, HEAT_ALLOC), 4);   /* 2000 milli */
    assert_int_equal(gpu_heat_level(cs, tr, prog, 0, HEAT_UTIL), 2);    /* 40 % */
    assert_int_equal(gpu_heat_level(cs, tr, prog, 0, HEAT_POWER), 3);
    assert_int_equal(gpu_heat_level(cs, tr, prog, 1, HEAT_POWER), -1);
    assert_int_equal(gpu_heat_level(cs, tr, prog, 1, HEAT_FREQ), -1);
    assert_int_equal(gpu_heat_level(cs, tr, prog, 0, HEAT_FREQ), 2);    /* 90 % of range */
    assert_int_equal(gpu_heat_level(cs, tr, prog, 1, HEAT_ALLOC), 0);
    /* A task with no series and no mean (a pod no monitor read) is
     * unread: its 0 % is not a reading. */
    assert_int_equal(gpu_util_unread(cs, tr, 0), 0);
    tr->tasks[1].util.len = 0;
    tr->tasks[1].util_mean = 0;
    int g1 = 1;
    cstate_alloc(cs, &tr->tasks[1], 1, 0, &g1, 1);
    assert_int_equal(gpu_util_unread(cs, tr, 1), 1);
    assert_int_equal(gpu_util_unread(cs, tr, 0), 0);
    cstate_free(cs);
    cluster_free(cl);
    catalog_free(cat);
    trace_free(tr);
}

/* --- line editing ---------------------------------------------------------- */

static void type(char *t, size_t cap, size_t *cur, const char *keys)
{
    for (; *keys; keys++)
        lineedit_key(t, cap, cur, (unsigned char)*keys);
}

static void test_lineedit(void **state)
{
    (void)state;
    char t[16] = "";
    size_t cur = 0;
    type(t, sizeof t, &cur, "cats");
    assert_string_equal(t, "cats");
    lineedit_key(t, sizeof t, &cur, KEY_LEFT);
    lineedit_key(t, sizeof t, &cur, KEY_LEFT);
    type(t, sizeof t, &cur, "XY");
    assert_string_equal(t, "caXYts");
    lineedit_key(t, sizeof t, &cur, KEY_BACKSPACE);
    assert_string_equal(t, "caXts");
    lineedit_key(t, sizeof t, &cur, KEY_DC);
    assert_string_equal(t, "caXs");
    lineedit_key(t, sizeof t, &cur, KEY_HOME);
    lineedit_key(t, sizeof t, &cur, KEY_DC);
    assert_string_equal(t, "aXs");
    lineedit_key(t, sizeof t, &cur, KEY_END);
    type(t, sizeof t, &cur, " word");
    lineedit_key(t, sizeof t, &cur, 23);        /* ^W */
    assert_string_equal(t, "aXs ");
    lineedit_key(t, sizeof t, &cur, 21);        /* ^U */
    assert_string_equal(t, "");
    /* UTF-8: backspace removes a whole character. */
    type(t, sizeof t, &cur, "a\xC3\xA9");
    lineedit_key(t, sizeof t, &cur, KEY_BACKSPACE);
    assert_string_equal(t, "a");
    /* Full buffer: further keys are ignored, never overflow. */
    type(t, sizeof t, &cur, "0123456789abcdefghij");
    assert_int_equal(strlen(t), sizeof t - 1);
    lineedit_key(t, sizeof t, &cur, KEY_F(5));  /* not text */
    assert_int_equal(strlen(t), sizeof t - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_time_mean_edges),
        cmocka_unit_test(test_violations_and_demand),
        cmocka_unit_test(test_sweep_counts),
        cmocka_unit_test(test_sweep_cluster),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_thresholds_cats),
        cmocka_unit_test(test_gpuinfo),
        cmocka_unit_test(test_lineedit),
    };
    return cmocka_run_group_tests_name("tui_model", tests, NULL, NULL);
}
