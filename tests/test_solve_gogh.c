/*
 * test_solve_gogh.c — GOGH Problem 1 (solve_gogh): on hundreds of random
 * small instances the solver's minimum power equals a brute-force
 * enumeration written here (every accelerator idle, one job, or a pair),
 * every answer is checked against eq. 2b–2f and its power recomputed;
 * infeasible instances are reported so; the written LP file solves to the
 * same power with glpsol; the model is built from a throughput catalog.
 */
#include "testutil.h"

#include "core/rng.h"
#include "solve/solve.h"

/* ---- instances --------------------------------------------------------------- */

static void random_inst(gogh_inst *in, rng *r, size_t J)
{
    memset(in, 0, sizeof *in);
    in->ntypes = 2;
    in->types = xcalloc(2, sizeof *in->types);
    in->types[0] = (gogh_accel_type){"v100", 2, 30, 300};
    in->types[1] = (gogh_accel_type){"k80", rng_bernoulli(r, 0.5) ? 1 : 2, 25, 150};
    in->accels = xcalloc(4, sizeof *in->accels);
    for (int a = 0; a < 2; a++) {
        int cnt = 1 + (int)rng_below(r, 2);
        for (int d = 0; d < cnt; d++)
            in->accels[in->naccels++] = (gogh_accel){a, a, d};
    }
    in->njobs = J;
    in->jobs = xcalloc(J, sizeof *in->jobs);
    in->solo = xcalloc(2 * J, sizeof *in->solo);
    in->pair = xcalloc(2 * J * J, sizeof *in->pair);
    for (size_t a = 0; a < 2; a++)
        for (size_t j = 0; j < J; j++)
            in->solo[a * J + j] = rng_bernoulli(r, 0.85) ? rng_range(r, 1, 10) : 0;
    for (size_t a = 0; a < 2; a++)
        for (size_t j = 0; j < J; j++)
            for (size_t k = j + 1; k < J; k++)
                if (rng_bernoulli(r, 0.7)) {
                    in->pair[(a * J + j) * J + k] = in->solo[a * J + j] * rng_range(r, 0.3, 1);
                    in->pair[(a * J + k) * J + j] = in->solo[a * J + k] * rng_range(r, 0.3, 1);
                }
    for (size_t j = 0; j < J; j++) {
        double best = fmax(in->solo[j], in->solo[J + j]);
        in->jobs[j].dmax = 1 + (int)rng_below(r, 2);
        in->jobs[j].min_tput = rng_bernoulli(r, 0.2) ? 0 : best * rng_range(r, 0, 1.3);
        in->jobs[j].util = rng_range(r, 0.2, 1);
        in->jobs[j].src = (int)j;
    }
}

/* ---- brute force --------------------------------------------------------------- */

/* What accelerator g runs: -1 idle, else jobs j and k (k = -1: j alone). */
typedef struct choice {
    int j, k;
} choice;

static double solo_of(const gogh_inst *in, size_t a, int j)
{
    return in->solo[a * in->njobs + (size_t)j];
}

static double pair_of(const gogh_inst *in, size_t a, int j, int k)
{
    return in->pair[(a * in->njobs + (size_t)j) * in->njobs + (size_t)k];
}

/* Throughput of job x on accelerator type a running choice c (0 if absent). */
static double tput(const gogh_inst *in, size_t a, choice c, int x)
{
    if (c.j != x && c.k != x)
        return 0;
    if (c.k < 0)
        return solo_of(in, a, x);
    return pair_of(in, a, x, x == c.j ? c.k : c.j);
}

/* gamma_a(load), written independently of solve_gogh.c. */
static double watts(const gogh_inst *in, size_t a, choice c)
{
    if (c.j < 0)
        return 0;
    double load = in->jobs[c.j].util * tput(in, a, c, c.j) / solo_of(in, a, c.j);
    if (c.k >= 0)
        load += in->jobs[c.k].util * tput(in, a, c, c.k) / solo_of(in, a, c.k);
    load = load > 1 ? 1 : load;
    return in->types[a].idle_w + (in->types[a].max_w - in->types[a].idle_w) * load;
}

static int runnable(const gogh_inst *in, size_t a, choice c)
{
    if (c.j < 0)
        return 1;
    if (solo_of(in, a, c.j) <= 0)
        return 0;
    if (c.k < 0)
        return 1;
    return in->types[a].theta >= 2 && solo_of(in, a, c.k) > 0 && pair_of(in, a, c.j, c.k) > 0 &&
           pair_of(in, a, c.k, c.j) > 0;
}

/* eq. 2b, 2c, 2e for the whole assignment; its power or HUGE_VAL. */
static double evaluate(const gogh_inst *in, const choice *ch)
{
    double w = 0;
    for (size_t j = 0; j < in->njobs; j++) {
        int cnt = 0;
        double t = 0;
        for (size_t g = 0; g < in->naccels; g++) {
            double x = tput(in, (size_t)in->accels[g].type, ch[g], (int)j);
            if (ch[g].j == (int)j || ch[g].k == (int)j) {
                cnt++;
                t += x;
            }
        }
        if (cnt < 1 || cnt > in->jobs[j].dmax || t < in->jobs[j].min_tput - 1e-9)
            return HUGE_VAL;
    }
    for (size_t g = 0; g < in->naccels; g++)
        w += watts(in, (size_t)in->accels[g].type, ch[g]);
    return w;
}

static void brute_dfs(const gogh_inst *in, size_t g, choice *ch, double *best)
{
    if (g == in->naccels) {
        double w = evaluate(in, ch);
        *best = w < *best ? w : *best;
        return;
    }
    size_t a = (size_t)in->accels[g].type;
    int J = (int)in->njobs;
    for (int j = -1; j < J; j++)
        for (int k = j; k < (j < 0 ? 0 : J); k++) {   /* idle once; j alone; j with k */
            choice c = {j, k == j ? -1 : k};
            if (!runnable(in, a, c))
                continue;
            ch[g] = c;
            brute_dfs(in, g + 1, ch, best);
        }
}

static double brute_force(const gogh_inst *in)
{
    choice ch[8];
    double best = HUGE_VAL;
    brute_dfs(in, 0, ch, &best);
    return best;
}

/* The answer's placements as choices, checked and priced. */
static void check_answer(const gogh_inst *in, const solve_result *res)
{
    choice ch[8];
    for (size_t g = 0; g < in->naccels; g++)
        ch[g] = (choice){-1, -1};
    for (size_t q = 0; q < res->nplace; q++) {
        const solve_place *p = &res->place[q];
        assert_true(p->gpu >= 0 && (size_t)p->gpu < in->naccels);
        choice *c = &ch[p->gpu];
        if (c->j < 0)
            c->j = p->task;
        else {
            assert_int_equal(c->k, -1);     /* eq. 2d/2f: at most two */
            c->k = p->task;
        }
    }
    for (size_t g = 0; g < in->naccels; g++)
        assert_true(runnable(in, (size_t)in->accels[g].type, ch[g]));
    assert_double_equal(evaluate(in, ch), res->objective, 1e-6);
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_random_vs_brute_force(void **state)
{
    (void)state;
    int infeasible = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng r;
        rng_seed(&r, seed);
        gogh_inst in;
        random_inst(&in, &r, 1 + rng_below(&r, 5));
        double expect = brute_force(&in);
        solve_opts o;
        solve_opts_default(&o);
        o.no_warm_start = seed % 2;
        solve_result res;
        gp_err err = {{0}};
        assert_int_equal(solve_gogh(&in, &o, &res, &err), 0);
        if (!isfinite(expect)) {
            infeasible++;
            if (res.status != SOLVE_INFEASIBLE)
                fail_msg("seed %llu: expected infeasible, got %s %g", (unsigned long long)seed,
                         solve_status_name(res.status), res.objective);
        } else {
            if (res.status != SOLVE_OPTIMAL || fabs(res.objective - expect) > 1e-6)
                fail_msg("seed %llu: brute force %.6f W, solver %s %.6f W",
                         (unsigned long long)seed, expect, solve_status_name(res.status),
                         res.objective);
            check_answer(&in, &res);
        }
        solve_result_free(&res);
        gogh_inst_free(&in);
    }
    assert_true(infeasible > 0 && infeasible < 250);
}

static void test_lp_file_round_trip(void **state)
{
    (void)state;
    if (!tu_have_glpsol())
        return;
    char *dir = tu_tmpdir();
    char *lp = xasprintf("%s/g.lp", dir);
    int checked = 0;
    for (uint64_t seed = 31; seed <= 40; seed++) {
        rng r;
        rng_seed(&r, seed);
        gogh_inst in;
        random_inst(&in, &r, 5);
        solve_opts o;
        solve_opts_default(&o);
        o.write_lp = lp;
        solve_result res;
        gp_err err = {{0}};
        assert_int_equal(solve_gogh(&in, &o, &res, &err), 0);
        if (res.status == SOLVE_OPTIMAL) {
            assert_double_equal(tu_glpsol_objective(dir, "--lp", lp), res.objective,
                                1e-6 * res.objective + 1e-6);
            checked++;
        }
        solve_result_free(&res);
        gogh_inst_free(&in);
    }
    assert_true(checked > 0);
    free(lp);
    tu_rmrf(dir);
    free(dir);
}

/* From model objects: a V100 server, two jobs of the catalog, one colocated
 * pair measured; min throughput half the best solo. */
static void test_from_catalog(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("c");
    node nd;
    memset(&nd, 0, sizeof nd);
    strlcpy0(nd.name, "n0", sizeof nd.name);
    strlcpy0(nd.gpu_model, "V100M16", sizeof nd.gpu_model);
    nd.gpu_count = 2;
    cluster_add_node(cl, &nd);
    tput_catalog *tp = tput_catalog_new("t");
    tput_entry e;
    memset(&e, 0, sizeof e);
    strlcpy0(e.accel, "v100", sizeof e.accel);
    e.scale = e.co_scale = 1;
    strlcpy0(e.model, "ResNet-18", sizeof e.model);
    e.batch_size = 32;
    e.tput = 10;
    tput_catalog_add(tp, &e);
    strlcpy0(e.model, "LM", sizeof e.model);
    e.batch_size = 20;
    e.tput = 4;
    tput_catalog_add(tp, &e);
    strlcpy0(e.co_model, "ResNet-18", sizeof e.co_model);
    e.co_batch_size = 32;
    e.tput = 3;         /* LM beside ResNet-18 */
    e.co_tput = 8;      /* ResNet-18 beside LM */
    tput_catalog_add(tp, &e);
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    strlcpy0(tk.model, "ResNet-18", sizeof tk.model);
    tk.batch_size = 30;     /* not in the table: nearest batch, 32 */
    trace_add_task(tr, &tk);
    strlcpy0(tk.model, "LM", sizeof tk.model);
    tk.batch_size = 20;
    trace_add_task(tr, &tk);
    gogh_inst in;
    gp_err err = {{0}};
    assert_int_equal(gogh_inst_from_model(cl, cat, tr, tp, 0, 0.5, &in, &err), 0);
    assert_int_equal((int)in.njobs, 2);
    assert_int_equal((int)in.naccels, 2);
    assert_double_equal(in.solo[0], 10, 0);
    assert_double_equal(in.pair[0 * 2 + 1], 8, 0);     /* j = 0 beside k = 1 */
    assert_double_equal(in.pair[1 * 2 + 0], 3, 0);
    assert_double_equal(in.jobs[0].min_tput, 5, 1e-12);
    assert_double_equal(in.jobs[1].min_tput, 2, 1e-12);
    solve_opts o;
    solve_opts_default(&o);
    solve_result res;
    assert_int_equal(solve_gogh(&in, &o, &res, &err), 0);
    assert_int_equal(res.status, SOLVE_OPTIMAL);
    /* one GPU running the pair: load 8/10 + 3/4 capped at 1: 300 W, less
     * than two GPUs alone (2 * 300 W) */
    assert_double_equal(res.objective, 300, 1e-9);
    assert_int_equal(res.gpus_used, 1);
    assert_double_equal(res.objective, brute_force(&in), 1e-9);
    solve_result_free(&res);
    /* an unknown model is an error that names it */
    strlcpy0(tr->tasks[1].model, "Nope", sizeof tr->tasks[1].model);
    gogh_inst bad;
    assert_int_equal(gogh_inst_from_model(cl, cat, tr, tp, 0, 0.5, &bad, &err), -1);
    tu_assert_contains(err.msg, "Nope");
    gogh_inst_free(&in);
    trace_free(tr);
    tput_catalog_free(tp);
    cluster_free(cl);
    catalog_free(cat);
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
        cmocka_unit_test(test_random_vs_brute_force),
        cmocka_unit_test(test_lp_file_round_trip),
        cmocka_unit_test(test_from_catalog),
    };
    return cmocka_run_group_tests_name("solve_gogh", tests, NULL, teardown);
}
