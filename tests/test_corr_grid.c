/*
 * test_corr_grid.c — GPU aggregates on an absolute time grid (core layer,
 * core/util_series_grid.h, and its use by the correlation family in the
 * policy layer): a join then a leave gives back the aggregate bit for
 * bit; aggregates kept through random joins and leaves equal a grid built
 * afresh from the tasks left; rho and the means on a small grid against
 * values worked out by hand; a task that outlives its standalone end is
 * laid on the grid again from its progress.
 */
#include "corrtest.h"

#include "core/rng.h"
#include "core/util_series.h"
#include "core/util_series_grid.h"
#include "policy/corr_place.h"

typedef corr_fx fx;

/* A one-GPU task with series u of len samples at period p (len 0: the
 * constant mean). */
static int fx_task(fx *f, const float *u, size_t len, double p, double mean, double dur)
{
    task tk;
    task_init(&tk);
    snprintf(tk.name, sizeof tk.name, "t%zu", f->tr->ntasks);
    tk.num_gpu = 1;
    tk.gpu_milli = 1000;
    tk.duration_s = dur;
    if (len)
        task_set_util(&tk, u, len, p);
    else
        tk.util_mean = tk.util_peak = tk.util_first = mean;
    trace_add_task(f->tr, &tk);
    task_release(&tk);
    return (int)f->tr->ntasks - 1;
}

static void put(fx *f, int ti, int g)
{
    cstate_alloc(f->cs, &f->tr->tasks[ti], ti, f->cs->gpus[g].node, &g, 1);
}

static void take(fx *f, int ti, int g)
{
    cstate_release(f->cs, &f->tr->tasks[ti], ti, f->cs->gpus[g].node, &g, 1);
}

/* A copy of GPU g's cells as grid gr holds them. */
static int64_t *cells_of(const useries_grid *gr, int g, int64_t *base, size_t *len)
{
    const int64_t *c = useries_grid_cells(gr, g, base, len);
    int64_t *copy = xmalloc((*len ? *len : 1) * sizeof *copy);
    if (*len)
        memcpy(copy, c, *len * sizeof *copy);
    return copy;
}

/* ---- a join then a leave -------------------------------------------------- */

static void test_join_leave_exact(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 1);
    rng rs, *r = &rs;
    rng_seed(r, 7);
    float u[37];
    int tasks[6];
    for (int i = 0; i < 6; i++) {
        for (size_t k = 0; k < 37; k++)
            u[k] = (float)rng_range(r, 0, 100);
        /* Periods that differ from the grid's, so samples are resampled. */
        tasks[i] = fx_task(&f, u, 37 - (size_t)i, 7.0 + i, 0, 900 + 130 * i);
    }
    int c = fx_task(&f, NULL, 0, 0, 33.3, 500);
    double progress[8] = {0};
    useries_grid *gr = useries_grid_new(f.tr, 10);
    for (int i = 0; i < 3; i++)
        put(&f, tasks[i], 0);
    put(&f, c, 0);
    useries_grid_sync(gr, f.cs, progress, 0);
    int64_t base0, base1;
    size_t len0, len1;
    int64_t *before = cells_of(gr, 0, &base0, &len0);
    assert_true(len0 > 0);
    /* Each other task joins, then leaves: the same cells, bit for bit. */
    for (int i = 3; i < 6; i++) {
        put(&f, tasks[i], 0);
        useries_grid_sync(gr, f.cs, progress, 0);
        int64_t *mid = cells_of(gr, 0, &base1, &len1);
        assert_true(len1 != len0 || memcmp(mid, before, len0 * sizeof *mid) != 0);
        free(mid);
        take(&f, tasks[i], 0);
        useries_grid_sync(gr, f.cs, progress, 0);
        int64_t *after = cells_of(gr, 0, &base1, &len1);
        assert_int_equal(base1, base0);
        assert_int_equal(len1, len0);
        assert_memory_equal(after, before, len0 * sizeof *after);
        free(after);
    }
    free(before);
    useries_grid_free(gr);
    corr_fx_free(&f);
}

/* Random joins and leaves over time on several GPUs: each kept aggregate
 * equals one built afresh, at the same time, from the tasks left (every
 * task progressed at rate 1 since its start, so both anchor it there). */
static void test_kept_equals_rebuilt(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 2);
    rng rs, *r = &rs;
    rng_seed(r, 11);
    enum { NT = 60 };
    float u[50];
    for (int i = 0; i < NT; i++) {
        size_t len = 5 + (size_t)rng_range(r, 0, 45);
        for (size_t k = 0; k < len; k++)
            u[k] = (float)rng_range(r, 0, 100);
        if (i % 7 == 3)
            fx_task(&f, NULL, 0, 0, rng_range(r, 1, 90), rng_range(r, 100, 3000));
        else
            fx_task(&f, u, len, rng_range(r, 3, 40), 0, rng_range(r, 100, 3000));
    }
    double start[NT], progress[NT];
    int where[NT];
    for (int i = 0; i < NT; i++)
        where[i] = -1;
    useries_grid *gr = useries_grid_new(f.tr, 12.5);
    double now = 0;
    for (int step = 0; step < 400; step++) {
        now += rng_range(r, 0, 40);
        for (int i = 0; i < NT; i++)
            progress[i] = where[i] >= 0 ? now - start[i] : 0;
        int i = (int)rng_range(r, 0, NT - 0.001);
        if (where[i] >= 0) {
            take(&f, i, where[i]);
            where[i] = -1;
        } else {
            where[i] = (int)rng_range(r, 0, 7.999);
            start[i] = now;
            progress[i] = 0;
            put(&f, i, where[i]);
        }
        /* Only tasks within their standalone time: none is anchored again. */
        for (int k = 0; k < NT; k++)
            if (where[k] >= 0 && progress[k] >= f.tr->tasks[k].duration_s - 1) {
                take(&f, k, where[k]);
                where[k] = -1;
            }
        useries_grid_sync(gr, f.cs, progress, now);
        useries_grid *fresh = useries_grid_new(f.tr, 12.5);
        useries_grid_sync(fresh, f.cs, progress, now);
        for (int g = 0; g < 8; g++) {
            int64_t b1, b2;
            size_t l1, l2;
            const int64_t *c1 = useries_grid_cells(gr, g, &b1, &l1);
            const int64_t *c2 = useries_grid_cells(fresh, g, &b2, &l2);
            /* The kept one may hold cells before now; compare from now on. */
            int64_t end1 = b1 + (int64_t)l1, end2 = b2 + (int64_t)l2;
            if (f.cs->gpus[g].ntasks == 0) {
                assert_true(l2 == 0 || end2 <= b2);
                continue;
            }
            assert_int_equal(end1, end2);
            assert_true(b1 <= b2);
            assert_memory_equal(c1 + (b2 - b1), c2, l2 * sizeof *c1);
        }
        useries_grid_free(fresh);
    }
    useries_grid_free(gr);
    corr_fx_free(&f);
}

/* ---- rho and the means by hand ------------------------------------------- */

static void test_rho_by_hand(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 1);
    static const float a[] = {10, 20, 30, 40}, b[] = {10, 30, 20, 40};
    int ta = fx_task(&f, a, 4, 10, 0, 40);
    int tb = fx_task(&f, b, 4, 10, 0, 40);
    double progress[2] = {0, 0};
    assert_double_equal(useries_grid_step(f.tr), 10, 0);
    useries_grid *gr = useries_grid_new(f.tr, useries_grid_step(f.tr));
    put(&f, ta, 0);
    useries_grid_sync(gr, f.cs, progress, 0);
    /* At 0: x = 10 20 30 40, y = 10 30 20 40; deviations -15 -5 5 15 and
     * -15 5 -5 15: cov 400, variances 500 and 500, rho 0.8. */
    useries_in in;
    useries_in_init(&in, f.tr, tb);
    useries_grid_in_attach(&in, gr, f.tr, tb);
    useries_cmp c;
    useries_compare(f.cs, f.tr, progress, 0, &in, 0, &c);
    assert_int_equal(c.n, 4);
    assert_double_equal(c.rho, 0.8, 1e-12);
    assert_double_equal(c.gpu_mean, 25, 1e-12);
    assert_double_equal(c.task_mean, 25, 1e-12);
    useries_in_free(&in);
    /* At 10 s: the GPU's aggregate from grid point 1, x = 20 30 40, and
     * the task's first three samples y = 10 30 20: means 30 and 20,
     * deviations -10 0 10 and -10 10 0: cov 100, variances 200 and 200,
     * rho 0.5. */
    progress[ta] = 10;
    useries_grid_sync(gr, f.cs, progress, 10);
    useries_in_init(&in, f.tr, tb);
    useries_grid_in_attach(&in, gr, f.tr, tb);
    useries_compare(f.cs, f.tr, progress, 0, &in, 0, &c);
    assert_int_equal(c.n, 3);
    assert_double_equal(c.rho, 0.5, 1e-12);
    assert_double_equal(c.gpu_mean, 30, 1e-12);
    assert_double_equal(c.task_mean, 20, 1e-12);
    /* The lazy comparison leaves rho out past the bound, the means kept. */
    int skipped;
    useries_compare_lazy(f.cs, f.tr, progress, 0, &in, 0, NULL, 49, &skipped, &c);
    assert_true(skipped);
    assert_double_equal(c.rho, 0, 0);
    assert_double_equal(c.gpu_mean, 30, 1e-12);
    useries_in_free(&in);
    useries_grid_free(gr);
    corr_fx_free(&f);
}

/* Through the family's plumbing: corr_grid_attach without a workspace
 * makes a grid for the decision, and the window's terms read it. */
static void test_window_terms_on_grid(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 1);
    static const float a[] = {10, 20, 30, 40}, b[] = {10, 30, 20, 40};
    int ta = fx_task(&f, a, 4, 10, 0, 40);
    int tb = fx_task(&f, b, 4, 10, 0, 40);
    double progress[2] = {10, 0};
    put(&f, ta, 0);
    policy_ctx ctx = {.cs = f.cs, .tr = f.tr, .progress_s = progress, .now_s = 10};
    useries_in in;
    useries_in_init(&in, f.tr, tb);
    corr_grid_attach(&ctx, &in, CORR_GRID_ABSOLUTE);
    placement pl = {.node = 0, .ngpus = 1, .gpus = {0}};
    corr_terms t;
    corr_window_compare(&ctx, &pl, &in, 0, &t);
    assert_double_equal(t.rho, 0.5, 1e-12);
    assert_double_equal(t.load, 50, 1e-12);
    useries_in_free(&in);
    corr_fx_free(&f);
}

/* A task still running past its standalone end (slowed) is laid on the
 * grid again from its progress, instead of counting nothing. */
static void test_overrun_anchored_again(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 1);
    static const float a[] = {10, 20, 30, 40}, b[] = {10, 30, 20, 40};
    int ta = fx_task(&f, a, 4, 10, 0, 40);
    int tb = fx_task(&f, b, 4, 10, 0, 40);
    double progress[2] = {0, 0};
    useries_grid *gr = useries_grid_new(f.tr, 10);
    put(&f, ta, 0);
    useries_grid_sync(gr, f.cs, progress, 0);
    /* At 60 s it has done 20 s only: its last 20 s lie on points 6 and 7. */
    progress[ta] = 20;
    useries_grid_sync(gr, f.cs, progress, 60);
    useries_in in;
    useries_in_init(&in, f.tr, tb);
    useries_grid_in_attach(&in, gr, f.tr, tb);
    useries_cmp c;
    useries_compare(f.cs, f.tr, progress, 0, &in, 0, &c);
    assert_int_equal(c.n, 2);
    assert_double_equal(c.gpu_mean, 35, 1e-12);
    useries_in_free(&in);
    useries_grid_free(gr);
    corr_fx_free(&f);
}

/* A co-runner that ends within the cell holding now still counts there:
 * the window starts at that cell, not at the next grid point. */
static void test_ending_within_the_cell(void **state)
{
    (void)state;
    fx f;
    corr_fx_init(&f, 1);
    int ta = fx_task(&f, NULL, 0, 0, 100, 100);
    int tb = fx_task(&f, NULL, 0, 0, 100, 600);
    double progress[2] = {0, 0};
    useries_grid *gr = useries_grid_new(f.tr, 60);
    put(&f, ta, 0);
    useries_grid_sync(gr, f.cs, progress, 0);
    progress[ta] = 61;
    useries_grid_sync(gr, f.cs, progress, 61);
    useries_in in;
    useries_in_init(&in, f.tr, tb);
    useries_grid_in_attach(&in, gr, f.tr, tb);
    useries_cmp c;
    useries_compare(f.cs, f.tr, progress, 0, &in, 0, &c);
    assert_int_equal(c.n, 1);
    assert_double_equal(c.gpu_mean + c.task_mean, 200, 0);
    useries_in_free(&in);
    useries_grid_free(gr);
    corr_fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_leave_exact),
        cmocka_unit_test(test_kept_equals_rebuilt),
        cmocka_unit_test(test_rho_by_hand),
        cmocka_unit_test(test_window_terms_on_grid),
        cmocka_unit_test(test_overrun_anchored_again),
        cmocka_unit_test(test_ending_within_the_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
