/*
 * test_repro.c — the reproduction layer (repro.h): its table of papers,
 * rows (a figure not run prints as "-"; reasons are formatted; verdicts),
 * and CorrGPU's motivating example run on the generated sample set in a
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
    repro_add(&o, "cats", "exp", "GPUs", "37.32", 92.594, "%.2f", repro_verdict(0),
              "%d of %d", 1, 2);
    repro_add(&o, "cats", "exp", "W", "301", 557.1, "%.1f", REPRO_MEASURED, NULL);
    repro_not_run(&o, "fgd", "inflation", "no trace named 'default'");
    assert_int_equal(o.n, 3);
    assert_string_equal(o.rows[0].ours_text, "92.59");
    assert_string_equal(o.rows[0].verdict, "differs");
    assert_string_equal(o.rows[0].reason, "1 of 2");
    assert_string_equal(o.rows[1].reason, "");
    assert_string_equal(o.rows[2].ours_text, "-");
    assert_true(isnan(o.rows[2].ours));
    assert_string_equal(o.rows[2].verdict, "not run");
    tu_assert_contains(o.rows[2].reason, "default");
    assert_string_equal(repro_verdict(1), "holds");
    repro_out_free(&o);
    assert_int_equal(o.n, 0);
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
        cmocka_unit_test(test_corrgpu_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
