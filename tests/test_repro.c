/*
 * test_repro.c — the reproduction layer (repro.h, repro_reason.h): its
 * table of papers, rows (a figure not run prints as "-"; reasons are
 * formatted; tolerances printed), the verdict of a figure against a claim
 * (a table of cases), the fluid bound and the filter tally, and CorrGPU's motivating example run on the generated sample set in a
 * temporary store: one GPU and 2,500 USD against First's two and 5,000
 * USD, every row holding.
 */
#include "testutil.h"

#include "repro/repro.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"

static void test_papers(void **state)
{
    (void)state;
    static const char *const names[] = {"corrgpu", "cats", "fgd", "gogh", "peace"};
    size_t n = 0;
    const repro_paper *p;
    for (size_t i = 0; (p = repro_paper_nth(i)); i++, n++) {
        assert_true(n < 5);
        assert_string_equal(p->name, names[i]);
        assert_ptr_equal(repro_paper_find(names[i]), p);
        assert_non_null(p->run);
        assert_true(strlen(p->experiments) > 0);
    }
    assert_int_equal(n, 5);
    assert_null(repro_paper_find("all"));
}

static void test_rows(void **state)
{
    (void)state;
    repro_out o;
    repro_out_init(&o, NULL, 0);
    const repro_claim c = {REPRO_FIGURE, 37.32, 0, 5};
    repro_add_claim(&o, "cats", "exp", "GPUs", "37.32", &c, 92.594, "%.2f", "%d of %d", 1, 2);
    repro_add(&o, "cats", "exp", "W", "301", 557.1, "%.1f", REPRO_MEASURED, NULL);
    repro_not_run(&o, "fgd", "inflation", "no trace named 'default'");
    assert_int_equal(o.n, 3);
    assert_string_equal(o.rows[0].ours_text, "92.59");
    assert_string_equal(o.rows[0].verdict, "direction");
    assert_string_equal(o.rows[0].tolerance, "+-5");
    assert_string_equal(o.rows[1].tolerance, "-");
    assert_string_equal(o.rows[0].reason, "1 of 2");
    assert_string_equal(o.rows[1].reason, "");
    assert_string_equal(o.rows[2].ours_text, "-");
    assert_true(isnan(o.rows[2].ours));
    assert_string_equal(o.rows[2].verdict, "not run");
    tu_assert_contains(o.rows[2].reason, "default");
    repro_out_free(&o);
    assert_int_equal(o.n, 0);
}

/* The verdict rule, one case a row: a figure holds only when direction
 * and size agree within the tolerance, `direction` when only the sign
 * does; a bound holds when met. */
static void test_judge(void **state)
{
    (void)state;
    static const struct {
        repro_claim c;
        double ours;
        const char *verdict;
    } cases[] = {
        /* CATS Fig. 8a: -39.75 % +-15 */
        {{REPRO_FIGURE, -39.75, 0, 15}, -30.0, "holds"},
        {{REPRO_FIGURE, -39.75, 0, 15}, -54.75, "holds"},        /* at the edge */
        {{REPRO_FIGURE, -39.75, 0, 15}, -4.2, "direction"},
        {{REPRO_FIGURE, -39.75, 0, 15}, -80.0, "direction"},
        {{REPRO_FIGURE, -39.75, 0, 15}, +67.2, "differs"},
        {{REPRO_FIGURE, -39.75, 0, 15}, 0.0, "differs"},         /* no change is no sign */
        /* close in size but across the neutral value: not a holds */
        {{REPRO_FIGURE, 5.0, 0, 10}, -3.0, "differs"},
        /* a ratio around 1 (JCT HotCloud / CATS 0.87 +-0.1) */
        {{REPRO_FIGURE, 0.87, 1, 0.1}, 0.88, "holds"},
        {{REPRO_FIGURE, 0.87, 1, 0.1}, 0.98, "direction"},
        {{REPRO_FIGURE, 0.87, 1, 0.1}, 1.02, "differs"},
        /* the old loose verdicts: a 16.7 % saving against 50 % +-17 */
        {{REPRO_FIGURE, 50, 0, 17}, 16.7, "direction"},
        /* PEACE's margin 35 +-17.5: +0.2 agrees in sign only */
        {{REPRO_FIGURE, 35, 0, 17.5}, 0.2, "direction"},
        /* no direction (a count, an error): within the tolerance or not */
        {{REPRO_FIGURE, 14, NAN, 0}, 14, "holds"},
        {{REPRO_FIGURE, 14, NAN, 0}, 13, "differs"},
        {{REPRO_FIGURE, 0.1675, NAN, 0.05}, 0.81, "differs"},
        {{REPRO_FIGURE, 0.1675, NAN, 0.05}, 0.20, "holds"},
        /* a paper figure at the neutral value claims only a size */
        {{REPRO_FIGURE, 0, 0, 1}, 0.5, "holds"},
        {{REPRO_FIGURE, 0, 0, 1}, 2, "differs"},
        /* bounds */
        {{REPRO_AT_MOST, 1.2, NAN, 0}, 1.123, "holds"},
        {{REPRO_AT_MOST, 1.2, NAN, 0}, 1.2, "holds"},
        {{REPRO_AT_MOST, 1.2, NAN, 0}, 1.3, "differs"},
        {{REPRO_AT_LEAST, 13, NAN, 0}, 14, "holds"},
        {{REPRO_AT_LEAST, 13, NAN, 0}, 12.9, "differs"},
        /* not measured */
        {{REPRO_FIGURE, -39.75, 0, 15}, NAN, "differs"},
        {{REPRO_AT_MOST, 1.2, NAN, 0}, NAN, "differs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *v = repro_judge(&cases[i].c, cases[i].ours);
        if (strcmp(v, cases[i].verdict) != 0)
            fail_msg("case %zu: %g against %g: %s, expected %s", i, cases[i].ours,
                     cases[i].c.paper, v, cases[i].verdict);
    }
    static const struct {
        repro_claim c;
        const char *text;
    } texts[] = {
        {{REPRO_FIGURE, -39.75, 0, 15}, "+-15"},
        {{REPRO_FIGURE, 14, NAN, 0}, "exact"},
        {{REPRO_AT_MOST, 1.2, NAN, 0}, "<= 1.2"},
        {{REPRO_AT_LEAST, 13, NAN, 0}, ">= 13"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        char buf[24];
        repro_claim_text(&texts[i].c, buf, sizeof buf);
        assert_string_equal(buf, texts[i].text);
    }
}

/* The fluid bound: two tasks at 50 % over the same hour need half a GPU
 * each, one GPU in all; a two-GPU task counts twice. */
static void test_fluid_bound(void **state)
{
    (void)state;
    gp_trace *tr = trace_new("t");
    static const struct {
        double arrival, duration, mean;
        int gpus;
    } tasks[] = {{0, 3600, 50, 1}, {0, 3600, 50, 1}, {1800, 1800, 40, 2}};
    for (size_t i = 0; i < 3; i++) {
        task k;
        task_init(&k);
        snprintf(k.name, sizeof k.name, "t%zu", i);
        k.arrival_s = tasks[i].arrival;
        k.duration_s = tasks[i].duration;
        k.util_mean = tasks[i].mean;
        k.num_gpu = tasks[i].gpus;
        k.gpu_milli = 1000;
        trace_add_task(tr, &k);
        task_release(&k);
    }
    /* (0.5 * 3600 * 2 + 0.4 * 1800 * 2) / 3600 = 1.4 */
    assert_double_equal(repro_fluid_gpus(tr), 1.4, 1e-9);
    trace_free(tr);
}

/* The tally classes each rejected candidate by the filter its note names
 * and counts a fallback to an empty GPU as a decision that opened one. */
static void test_tally(void **state)
{
    (void)state;
    explain_cand cands[5];
    memset(cands, 0, sizeof cands);
    static const char *const notes[5] = {"memory", "rho 0.12 > 0", "mean sum 120.0% > 100%",
                                         "mean 101.0% >= q 100%", "fresh GPU (wakes it)"};
    for (int i = 0; i < 5; i++) {
        snprintf(cands[i].note, sizeof cands[i].note, "%s", notes[i]);
        cands[i].eligible = i == 4;
    }
    explain ex;
    memset(&ex, 0, sizeof ex);
    static const char *const terms[2] = {"rho", "dmu"};
    ex.term_name[0] = terms[0];
    ex.term_name[1] = terms[1];
    ex.nterms = 2;
    ex.cands = cands;
    ex.ncands = 5;
    ex.chosen = 4;
    repro_tally t;
    memset(&t, 0, sizeof t);
    repro_tally_add(&t, &ex);
    ex.ncands = 2;
    ex.chosen = -1;
    repro_tally_add(&t, &ex);
    assert_int_equal(t.decisions, 2);
    assert_int_equal(t.candidates, 6);
    assert_int_equal(t.by_fit, 2);
    assert_int_equal(t.by_corr, 2);
    assert_int_equal(t.by_util, 2);
    assert_int_equal(t.fresh, 1);
    assert_string_equal(t.terms, "rho, dmu");
    char buf[256];
    repro_tally_text(&t, "CATS", buf, sizeof buf);
    tu_assert_contains(buf, "CATS rejected 6 of 6 candidates");
    tu_assert_contains(buf, "1 of 2 placements opened an empty GPU");
}

/* The generated corrgpu-example set in a temporary store; the other sets
 * are missing, so their experiments are reported as not run. */
static void test_corrgpu_example(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    sample_set set;
    gp_err err = {{0}};
    assert_int_equal(samplegen_build("corrgpu-example", SAMPLEGEN_DEFAULT_SEED, &set, &err), 0);
    assert_int_equal(store_put_cluster(st, set.cl, 0, &err), 0);
    assert_int_equal(store_put_trace(st, set.tr, 0, &err), 0);
    repro_out o;
    repro_out_init(&o, st, 0);
    repro_paper_find("corrgpu")->run(&o);
    size_t motivating = 0, not_run = 0;
    for (size_t i = 0; i < o.n; i++) {
        not_run += o.rows[i].verdict == REPRO_NOT_RUN;
        if (strncmp(o.rows[i].experiment, "motivating example", 18) != 0)
            continue;
        motivating++;
        if (o.rows[i].verdict != REPRO_HOLDS)
            fail_msg("%s: %s against the paper's %s (%s)", o.rows[i].quantity,
                     o.rows[i].ours_text, o.rows[i].theirs, o.rows[i].reason);
    }
    assert_int_equal(motivating, 4);
    assert_int_equal(not_run, 2);       /* cats-testbed and pai-like */
    repro_out_free(&o);
    sample_set_free(&set);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_papers),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_fluid_bound),
        cmocka_unit_test(test_tally),
        cmocka_unit_test(test_corrgpu_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
