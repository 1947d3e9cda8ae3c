/*
 * test_corr_cheap.c — the correlation family's cheap tests before a
 * comparison (policy layer, with core/util_series underneath): the
 * incoming task's least window mean and a task's least sample, by table;
 * corr_surely_over never rejects a window whose exact load is within q,
 * even with q set to that load to the last bit; the lazy comparison's
 * means equal the full one's bit for bit and it skips rho exactly when
 * the means are over; and every policy of the family places, and
 * summarises its decision, as it does when the explanation lists every
 * candidate (the full path), on random states with ties, mixed sample
 * periods and finished tasks; under either grid (corr_place.h).
 */
#include "corrtest.h"

#include "core/rng.h"
#include "core/util_series.h"
#include "policy/corr_place.h"
#include "policy/policy.h"

/* ---- fixture: servers of 4 V100, tasks by hand ------------------------------- */

typedef corr_fx fx;

/* A task of v GPUs: with len > 0 a series shaped like a training job's (a
 * level, a warm-up, dips), on period p; else a constant among a few
 * values, so that equal keys (ties) happen. */
static int fx_task(fx *f, rng *r, int v, size_t len, double p, double dur)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", f->tr->ntasks);
    tk.num_gpu = v;
    tk.gpu_milli = 1000;
    tk.gpu_mem_gib = 1 + (double)rng_below(r, 6);
    tk.duration_s = dur;
    if (len) {
        float *u = xmalloc(len * sizeof *u);
        double level = rng_range(r, 20, 95);
        for (size_t k = 0; k < len; k++) {
            double x = k < 2 ? level / 3 : k % 9 == 0 ? level / 5 : level + rng_range(r, -5, 5);
            u[k] = (float)(x < 0 ? 0 : x);
        }
        task_set_util(&tk, u, len, p);
        free(u);
    } else {
        static const double levels[] = {20, 35, 50, 65};
        tk.util_mean = tk.util_peak = tk.util_first = levels[rng_below(r, 4)];
    }
    trace_add_task(f->tr, &tk);
    task_release(&tk);
    return (int)f->tr->ntasks - 1;
}

/* A random busy cluster: ntasks tasks, the first `placed` of them on
 * random GPUs (1 to 3 a GPU where memory allows) at random progress, some
 * past their end; periods 30 or 60 s, or none. */
static void fx_fill(fx *f, rng *r, int ntasks, int placed)
{
    for (int i = 0; i < ntasks; i++) {
        int kind = (int)rng_below(r, 3);
        int v = rng_below(r, 5) == 0 ? 2 : 1;
        double dur = rng_range(r, 600, 20000);
        if (kind == 2)
            fx_task(f, r, v, 0, 0, dur);
        else
            fx_task(f, r, v, 10 + rng_below(r, 200), kind ? 60 : 30, dur);
    }
    f->progress = xcalloc(f->tr->ntasks, sizeof *f->progress);
    for (int ti = 0; ti < placed; ti++) {
        const task *tk = &f->tr->tasks[ti];
        int g = (int)rng_below(r, f->cs->ngpus);
        placement pl;
        if (corr_window(f->cs, tk, g, &pl) != CORR_FITS)
            continue;
        cstate_alloc(f->cs, tk, ti, pl.node, pl.gpus, pl.ngpus);
        double x = rng_uniform(r);
        f->progress[ti] = x < 0.1 ? tk->duration_s : x * tk->duration_s;
    }
}

/* ---- the floors, by table ---------------------------------------------------- */

static void test_floors(void **state)
{
    (void)state;
    static const struct {
        float pct[6];
        size_t len;
        double mean_floor, floor;
    } cases[] = {
        {{10, 90, 50}, 3, 10, 10},              /* the first sample is the least mean */
        {{90, 10, 10, 90}, 4, 110.0 / 3, 10},   /* the least mean is that of 3 samples */
        {{40, 40}, 2, 40, 40},
        {{0, 100, 100, 100, 100, 0}, 6, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gp_trace *tr = trace_new("t");
        task tk;
        task_init(&tk);
        tk.num_gpu = 1;
        tk.duration_s = 600;
        task_set_util(&tk, cases[i].pct, cases[i].len, 60);
        trace_add_task(tr, &tk);
        task_release(&tk);
        useries_in in;
        useries_in_init(&in, tr, 0);
        assert_double_equal(in.mean_floor, cases[i].mean_floor, 1e-12);
        assert_double_equal(useries_floor(&tr->tasks[0]), cases[i].floor, 0);
        useries_in_free(&in);
        trace_free(tr);
    }
    /* Without a series: the constant it runs at. */
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    tk.num_gpu = 1;
    tk.duration_s = 600;
    tk.util_mean = 37.5;
    trace_add_task(tr, &tk);
    task_release(&tk);
    useries_in in;
    useries_in_init(&in, tr, 0);
    assert_double_equal(in.mean_floor, 37.5, 0);
    assert_double_equal(useries_floor(&tr->tasks[0]), 37.5, 0);
    useries_in_free(&in);
    trace_free(tr);
}

/* ---- corr_surely_over is never wrong ---------------------------------------- */

static void test_surely_over_sound(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 12);
    rng r;
    rng_seed(&r, 11);
    fx_fill(&f, &r, 160, 110);
    policy_spec sp;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("cats", &sp, &err), 0);
    void *prep = NULL;
    assert_int_equal(policy_prepare(&sp, f.cs, f.tr, &prep, &err), 0);
    policy_ctx ctx = {.cs = f.cs, .tr = f.tr, .progress_s = f.progress, .prep = prep};
    int fired = 0, windows = 0;
    for (int ti = 110; ti < 160; ti++) {
      for (int grid = 0; grid < 2; grid++) {
        /* On the absolute grid too (corr_grid_attach): its cells are fixed
         * point and the incoming task is sampled on the grid's step. */
        useries_in in;
        useries_in_init(&in, f.tr, ti);
        corr_grid_attach(&ctx, &in, grid ? CORR_GRID_ABSOLUTE : CORR_GRID_RESAMPLED);
        for (size_t a = 0; a < f.cs->nactive; a++) {
            placement pl;
            if (corr_window(f.cs, &f.tr->tasks[ti], f.cs->active[a], &pl) != CORR_FITS)
                continue;
            for (int from_start = 0; from_start < 2; from_start++) {
                corr_terms t;
                corr_window_compare(&ctx, &pl, &in, from_start, &t);
                windows++;
                /* At the load itself, and one bit above, the window passes. */
                assert_false(corr_surely_over(&ctx, &pl, &in, from_start, t.load));
                assert_false(corr_surely_over(&ctx, &pl, &in, from_start,
                                              nextafter(t.load, INFINITY)));
                for (double q = 0; q <= 200; q += 5)
                    if (corr_surely_over(&ctx, &pl, &in, from_start, q)) {
                        assert_true(t.load > q);
                        fired++;
                    }
            }
        }
        useries_in_free(&in);
      }
    }
    /* Without the workspace it says nothing. */
    policy_ctx bare = ctx;
    bare.prep = NULL;
    useries_in in;
    useries_in_init(&in, f.tr, 150);
    placement pl;
    assert_int_equal(corr_window(f.cs, &f.tr->tasks[150], f.cs->active[0], &pl), CORR_FITS);
    assert_false(corr_surely_over(&bare, &pl, &in, 0, -1000));
    useries_in_free(&in);
    assert_true(windows > 1000);
    assert_true(fired > windows);      /* it does reject, at the low thresholds */
    policy_release(&sp, prep);
    corr_fx_free(&f);
}

/* ---- the lazy comparison ----------------------------------------------------- */

static void test_lazy_means_equal(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 12);
    rng r;
    rng_seed(&r, 5);
    fx_fill(&f, &r, 120, 80);
    useries_memo *memo = useries_memo_new(f.tr);
    int skips = 0, full = 0;
    for (int ti = 80; ti < 120; ti++) {
        useries_in in;
        useries_in_init(&in, f.tr, ti);
        for (size_t a = 0; a < f.cs->nactive; a++) {
            int g = f.cs->active[a];
            useries_cmp want, got;
            useries_compare_memo(f.cs, f.tr, f.progress, g, &in, 0, memo, &want);
            static const double overs[] = {-INFINITY, 60, 100, 140, INFINITY};
            for (size_t k = 0; k < sizeof overs / sizeof *overs; k++) {
                int skipped;
                useries_compare_lazy(f.cs, f.tr, f.progress, g, &in, 0,
                                     k % 2 ? memo : NULL, overs[k], &skipped, &got);
                assert_memory_equal(&got.gpu_mean, &want.gpu_mean, sizeof got.gpu_mean);
                assert_memory_equal(&got.task_mean, &want.task_mean, sizeof got.task_mean);
                assert_int_equal(got.n, want.n);
                int over = in.pct && want.gpu_mean + want.task_mean > overs[k];
                assert_int_equal(skipped, over);
                if (!skipped)
                    assert_memory_equal(&got.rho, &want.rho, sizeof got.rho);
                skips += skipped;
                full += !skipped;
            }
        }
        useries_in_free(&in);
    }
    assert_true(skips > 0 && full > 0);
    useries_memo_free(memo);
    corr_fx_free(&f);
}

/* ---- every policy places as the full scan did -------------------------------- */

static int same_placement(const placement *a, const placement *b)
{
    return a->node == b->node && a->ngpus == b->ngpus &&
           !memcmp(a->gpus, b->gpus, (size_t)a->ngpus * sizeof *a->gpus);
}

static void test_same_placements(void **state)
{
    (void)state;
    static const char *const specs[][3] = {
        {"cats", NULL, NULL},
        {"cats", "select=1", NULL},
        {"cats", "window=1", NULL},
        {"cats", "util_thr=70", "from_start=1"},
        {"cats", "util_mode=1", "util_thr=60"},
        {"corrgpu", NULL, NULL},
        {"corrgpu", "q=60", NULL},
        {"corrgpu", "q=60", "q_mode=1"},
        {"corrgpu", "q=70", "window=1"},
        {"corrgpu", "alpha=0.3", "q=40"},
        {"hotcloud", NULL, NULL},
        {"hotcloud", "q=70", NULL},
        {"hotcloud", "window=1", "q=80"},
        {"first", NULL, NULL},
        {"harmony", NULL, NULL},
        {"cats", "grid=1", NULL},
        {"cats", "grid=1", "util_thr=70"},
        {"corrgpu", "grid=1", "q=60"},
        {"corrgpu", "grid=1", "q_mode=1"},
        {"hotcloud", "grid=1", NULL},
        {"hotcloud", "grid=1", "q=70"},
    };
    for (int seed = 1; seed <= 3; seed++) {
        fx f;
        corr_fx_init(&f, 16);
        rng r;
        rng_seed(&r, (uint64_t)seed);
        fx_fill(&f, &r, 200, 150);
        for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
            policy_spec sp;
            gp_err err = {{0}};
            assert_int_equal(policy_spec_parse(specs[s][0], &sp, &err), 0);
            for (int k = 1; k < 3; k++)
                if (specs[s][k])
                    assert_int_equal(policy_spec_set(&sp, specs[s][k], &err), 0);
            void *prep = NULL;
            assert_int_equal(policy_prepare(&sp, f.cs, f.tr, &prep, &err), 0);
            policy_ctx ctx = {.cs = f.cs, .tr = f.tr, .progress_s = f.progress, .prep = prep};
            /* The simulator's explanation keeps the summary alone unless
             * the candidates are asked for. */
            explain ex, sum;
            explain_init(&ex, NULL, 0);
            explain_init(&sum, NULL, 0);
            sum.want_cands = 0;
            for (int ti = 150; ti < 200; ti++) {
                placement fast, slow, bare;
                memset(&fast, 0, sizeof fast);
                memset(&slow, 0, sizeof slow);
                memset(&bare, 0, sizeof bare);
                explain_reset(&ex);
                explain_reset(&sum);
                int a = sp.ops->place(&ctx, sp.params, ti, &fast, &sum);
                int b = sp.ops->place(&ctx, sp.params, ti, &slow, &ex);
                int c = sp.ops->place(&ctx, sp.params, ti, &bare, NULL);
                if (a != b || a != c || (a && (!same_placement(&fast, &slow) ||
                                               !same_placement(&bare, &slow))))
                    fail_msg("%s %s %s, seed %d, task %d: g%d with the summary alone, g%d "
                             "with the candidates", specs[s][0], specs[s][1] ? specs[s][1] : "",
                             specs[s][2] ? specs[s][2] : "", seed, ti, a ? fast.gpus[0] : -1,
                             b ? slow.gpus[0] : -1);
                assert_string_equal(sum.summary, ex.summary);
            }
            explain_free(&sum);
            explain_free(&ex);
            policy_release(&sp, prep);
        }
        corr_fx_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floors),
        cmocka_unit_test(test_surely_over_sound),
        cmocka_unit_test(test_lazy_means_equal),
        cmocka_unit_test(test_same_placements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
