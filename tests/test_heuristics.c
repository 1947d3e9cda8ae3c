/*
 * test_heuristics.c — the plan layer's heuristic rows beside an exact model
 * (plan/heuristics.h), on small hand-made instances: a CorrGPU instance
 * that only an unbounded pool can hold (every policy opens servers, one
 * GPU per task), a CATS instance with a task too many (every row
 * incomplete, no warm start), and one that fits (every row scored by CATS
 * power, the best row the least of them), placements always in the
 * instance's numbering, each task once.
 */
#include "testutil.h"

#include "plan/heuristics.h"

typedef struct world {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} world;

/* One node of `gpus` V100s (32 GiB) and n tasks of mem GiB each, with
 * the same utilization series (every pair correlated, rho = 1). */
static void world_init(world *w, int gpus, int n, double mem)
{
    w->cat = catalog_new();
    catalog_add_builtin(w->cat);
    w->cl = cluster_new("c");
    tu_add_node(w->cl, "srv", "V100", gpus);
    w->tr = trace_new("t");
    const float series[4] = {10, 80, 20, 90};
    for (int i = 0; i < n; i++) {
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "t%d", i);
        tk.num_gpu = 1;
        tk.gpu_milli = 1000;
        tk.gpu_mem_gib = mem;
        tk.cpu_milli = 1000;
        tk.ram_mib = 1024;
        tk.duration_s = 100;
        task_set_util(&tk, series, 4, 1);
        trace_add_task(w->tr, &tk);
        task_release(&tk);
    }
}

static void world_free(world *w)
{
    trace_free(w->tr);
    cluster_free(w->cl);
    catalog_free(w->cat);
}

/* Every task of an n-task instance placed once, on a GPU the state has. */
static void assert_each_task_once(const heuristic_row *r, size_t n)
{
    assert_int_equal(r->nplace, n);
    int seen[16] = {0};
    for (size_t k = 0; k < r->nplace; k++) {
        assert_in_range(r->place[k].task, 0, (int)n - 1);
        assert_true(r->place[k].gpu >= 0);
        seen[r->place[k].task]++;
    }
    for (size_t l = 0; l < n; l++)
        assert_int_equal(seen[l], 1);
}

typedef struct corr_case {
    const char *what;
    int gpus, ntasks;
    double mem;
    int want_gpus;              /* busy GPUs of every row */
} corr_case;

static const corr_case corr_cases[] = {
    /* Two 20 GiB tasks never share a 32 GiB GPU: one GPU each, and the
     * cluster's one GPU is not enough, so the pool opens servers. */
    {"one GPU per task, servers opened", 1, 3, 20, 3},
    /* 10 GiB tasks: three fit on a GPU, the pool is not needed. */
    {"fits the cluster", 2, 2, 10, 0},
};

static void test_corrgpu_rows(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof corr_cases / sizeof *corr_cases; c++) {
        const corr_case *k = &corr_cases[c];
        world w;
        world_init(&w, k->gpus, k->ntasks, k->mem);
        corrgpu_inst ci;
        gp_err err = {{0}};
        assert_int_equal(corrgpu_inst_from_trace(w.tr, 0, 32, 0, &ci, &err), 0);
        heuristics_input in = {w.cl, w.cat, w.tr, NULL};
        heuristics *h = heuristics_corrgpu_new(&in, &ci);
        assert_true(h->n >= 5);         /* cats, corrgpu, first, hotcloud, harmony */
        for (size_t i = 0; i < h->n; i++) {
            const heuristic_row *r = &h->rows[i];
            if (!r->placed_all)
                fail_msg("%s: %s: %d tasks unplaced", k->what, r->name, r->unplaced);
            assert_each_task_once(r, ci.ntasks);
            assert_double_equal(r->value, r->gpus, 0);
            if (k->want_gpus) {
                assert_int_equal(r->gpus, k->want_gpus);
                assert_int_equal(r->servers, k->want_gpus);
                assert_int_equal(r->conflicts, 0);
            }
        }
        assert_true(heuristics_best(h, 0) >= 0);
        heuristics_free(h);
        corrgpu_inst_free(&ci);
        world_free(&w);
    }
}

static void test_cats_incomplete(void **state)
{
    (void)state;
    world w;
    world_init(&w, 2, 3, 20);           /* three 20 GiB tasks, two GPUs, bounded */
    cats_inst ci;
    gp_err err = {{0}};
    assert_int_equal(cats_inst_from_model(w.cl, w.cat, w.tr, 0, &ci, &err), 0);
    heuristics_input in = {w.cl, w.cat, w.tr, NULL};
    heuristics *h = heuristics_cats_new(&in, &ci);
    assert_true(h->n >= 5);
    for (size_t i = 0; i < h->n; i++) {
        assert_false(h->rows[i].placed_all);
        assert_int_equal(h->rows[i].unplaced, 1);
        assert_true(isnan(h->rows[i].value));
        assert_int_equal(h->rows[i].nplace, 2);
    }
    assert_int_equal(heuristics_best(h, 0), -1);
    heuristics_free(h);
    cats_inst_free(&ci);
    world_free(&w);
}

static void test_cats_scored(void **state)
{
    (void)state;
    world w;
    world_init(&w, 4, 3, 8);
    cats_inst ci;
    gp_err err = {{0}};
    assert_int_equal(cats_inst_from_model(w.cl, w.cat, w.tr, 0, &ci, &err), 0);
    heuristics_input in = {w.cl, w.cat, w.tr, NULL};
    heuristics *h = heuristics_cats_new(&in, &ci);
    int best = heuristics_best(h, 0);
    assert_true(best >= 0);
    for (size_t i = 0; i < h->n; i++) {
        const heuristic_row *r = &h->rows[i];
        assert_true(r->placed_all);
        assert_each_task_once(r, ci.ntasks);
        assert_double_equal(r->value,
                            cats_power_of(&ci, r->place, r->nplace, NULL, NULL, NULL, NULL),
                            0);
        assert_true(r->value > 0);
        assert_true(h->rows[best].value <= r->value);
    }
    heuristics_free(h);
    cats_inst_free(&ci);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corrgpu_rows),
        cmocka_unit_test(test_cats_incomplete),
        cmocka_unit_test(test_cats_scored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
