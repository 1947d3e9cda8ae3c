/*
 * test_solve_corrgpu.c — CorrGPU optimal (solve_corrgpu): on hundreds of
 * random small instances the solver's G* equals a brute-force enumeration
 * written here (every way to put the task copies on GPUs), through each of
 * its three paths (bounds + column generation + branch and price, the
 * compact MILP alone, the paper's G = 1, 2, ... loop); every returned
 * placement is checked against memory, conflicts and v; infeasible
 * instances are reported so; the time limit and the cancel flag are
 * honoured with a best-found solution and its gap, and a work-limited
 * stage inside a time-limited solve stops at its deadline; the LP file written for
 * a small instance solves to the same G* with glpsol.  The bin-emptying
 * search (pk_fewer_bins) is checked on its own: never an infeasible
 * packing, never more bins, and the bin it can empty emptied.
 */
#include <math.h>

#include "testutil.h"

#include "core/rng.h"
#include "solve/solve.h"
#include "solve/solve_int.h"

/* ---- instances ------------------------------------------------------------ */

static void inst_alloc(corrgpu_inst *in, size_t n, double c)
{
    memset(in, 0, sizeof *in);
    in->ntasks = n;
    in->gpu_mem_gib = c;
    in->mem_gib = xcalloc(n + 1, sizeof *in->mem_gib);
    in->v = xcalloc(n + 1, sizeof *in->v);
    in->src = xcalloc(n + 1, sizeof *in->src);
    in->conflict = xcalloc(n * n + 1, 1);
}

static void set_conflict(corrgpu_inst *in, size_t a, size_t b)
{
    in->conflict[a * in->ntasks + b] = in->conflict[b * in->ntasks + a] = 1;
}

/* n tasks, memory 1..16 GiB (some fractional), v = 2 for at most two
 * tasks, each pair conflicting with probability pc, GPUs of c GiB. */
static void random_inst(corrgpu_inst *in, rng *r, size_t n, double c, double pc)
{
    inst_alloc(in, n, c);
    int doubles = 0;
    for (size_t i = 0; i < n; i++) {
        in->mem_gib[i] = rng_bernoulli(r, 0.3) ? rng_range(r, 1, 16) : 1 + (double)rng_below(r, 16);
        in->v[i] = doubles < 2 && rng_bernoulli(r, 0.15) ? (doubles++, 2) : 1;
        in->src[i] = (int)i;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (rng_bernoulli(r, pc))
                set_conflict(in, a, b);
}

/* ---- brute force ------------------------------------------------------------ */

typedef struct brute {
    const corrgpu_inst *in;
    int nitems;
    int item_task[64];
    int bin_of[64];
    double used[64];
    int best;
} brute;

/* May item k go to bin b (memory, conflicts, distinct GPUs for copies)? */
static int brute_fits(const brute *s, int k, int b)
{
    const corrgpu_inst *in = s->in;
    int t = s->item_task[k];
    if (s->used[b] + in->mem_gib[t] > in->gpu_mem_gib + 1e-9)
        return 0;
    for (int q = 0; q < k; q++) {
        int u = s->item_task[q];
        if (s->bin_of[q] == b && (u == t || in->conflict[(size_t)u * in->ntasks + (size_t)t]))
            return 0;
    }
    return 1;
}

/* Every assignment of items to bins, bins opened in order (no relabelled
 * duplicates), pruned once it uses as many bins as the best so far. */
static void brute_dfs(brute *s, int k, int nbins)
{
    if (nbins >= s->best)
        return;
    if (k == s->nitems) {
        s->best = nbins;
        return;
    }
    for (int b = 0; b <= nbins; b++) {
        if (!brute_fits(s, k, b))
            continue;
        s->bin_of[k] = b;
        s->used[b] += s->in->mem_gib[s->item_task[k]];
        brute_dfs(s, k + 1, b == nbins ? nbins + 1 : nbins);
        s->used[b] -= s->in->mem_gib[s->item_task[k]];
    }
}

/* The fewest GPUs, or -1 when no placement exists. */
static int brute_force(const corrgpu_inst *in)
{
    brute s;
    memset(&s, 0, sizeof s);
    s.in = in;
    for (size_t t = 0; t < in->ntasks; t++)
        for (int c = 0; c < in->v[t]; c++)
            s.item_task[s.nitems++] = (int)t;
    s.best = s.nitems + 1;
    brute_dfs(&s, 0, 0);
    return s.best > s.nitems ? -1 : s.best;
}

/* ---- checks --------------------------------------------------------------------- */

/* The placement is feasible and uses exactly res->objective GPUs. */
static void check_placement(const corrgpu_inst *in, const solve_result *res)
{
    int *count = xcalloc(in->ntasks + 1, sizeof *count), ngpu = 0;
    double *used = xcalloc(res->nplace + 1, sizeof *used);
    for (size_t k = 0; k < res->nplace; k++) {
        const solve_place *p = &res->place[k];
        assert_true(p->task >= 0 && (size_t)p->task < in->ntasks);
        assert_true(p->gpu >= 0 && (size_t)p->gpu < res->nplace);
        count[p->task]++;
        used[p->gpu] += in->mem_gib[p->task];
        ngpu = p->gpu + 1 > ngpu ? p->gpu + 1 : ngpu;
        for (size_t q = 0; q < k; q++)
            if (res->place[q].gpu == p->gpu) {
                assert_int_not_equal(res->place[q].task, p->task);
                assert_false(in->conflict[(size_t)res->place[q].task * in->ntasks +
                                          (size_t)p->task]);
            }
    }
    for (size_t t = 0; t < in->ntasks; t++)
        assert_int_equal(count[t], in->v[t]);
    for (int g = 0; g < ngpu; g++)
        assert_true(used[g] <= in->gpu_mem_gib + 1e-9);
    assert_int_equal(ngpu, (int)lround(res->objective));
    assert_int_equal(res->gpus_used, ngpu);
    free(count);
    free(used);
}

typedef struct path {
    const char *name;
    int no_bounds, paper;
    size_t max_tasks;       /* the paper's loop is slow: small ones only */
} path;

static const path paths[] = {
    {"bounds+branch-and-price", 0, 0, 8},
    {"compact MILP", 1, 0, 8},
    {"paper loop", 0, 1, 5},
};

static void solve_and_compare(const corrgpu_inst *in, int expect, const path *pa,
                              uint64_t seed)
{
    solve_opts o;
    solve_opts_default(&o);
    o.no_bounds = pa->no_bounds;
    o.paper_model = pa->paper;
    o.time_limit_s = 30;
    solve_result res;
    gp_err err = {{0}};
    assert_int_equal(solve_corrgpu(in, &o, &res, &err), 0);
    if (expect < 0) {
        if (res.status != SOLVE_INFEASIBLE)
            fail_msg("seed %llu, %s: expected infeasible, got %s", (unsigned long long)seed,
                     pa->name, solve_status_name(res.status));
        assert_true(res.why[0] != 0);
        assert_false(isfinite(res.bound));
    } else {
        if (res.status != SOLVE_OPTIMAL || lround(res.objective) != expect)
            fail_msg("seed %llu, %s: brute force %d GPUs, solver %s %g (bound %g)",
                     (unsigned long long)seed, pa->name, expect,
                     solve_status_name(res.status), res.objective, res.bound);
        assert_double_equal(res.gap, 0, 1e-12);
        assert_double_equal(res.bound, res.objective, 1e-9);
        check_placement(in, &res);
    }
    solve_result_free(&res);
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_random_vs_brute_force(void **state)
{
    (void)state;
    int checked = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        rng r;
        rng_seed(&r, seed);
        size_t n = 1 + rng_below(&r, 8);
        double c = seed % 3 == 0 ? 16 : 32;
        double pc = rng_range(&r, 0.1, 0.9);
        corrgpu_inst in;
        random_inst(&in, &r, n, c, pc);
        int expect = brute_force(&in);
        for (size_t p = 0; p < sizeof paths / sizeof *paths; p++)
            if (n <= paths[p].max_tasks && (!paths[p].paper || seed % 4 == 0)) {
                solve_and_compare(&in, expect, &paths[p], seed);
                checked++;
            }
        corrgpu_inst_free(&in);
    }
    assert_true(checked >= 850);  /* 400 instances, two or three paths each */
}

static void test_infeasible(void **state)
{
    (void)state;
    corrgpu_inst in;
    inst_alloc(&in, 3, 32);
    in.mem_gib[0] = 8;
    in.mem_gib[1] = 40;     /* larger than any GPU */
    in.mem_gib[2] = 4;
    in.v[0] = in.v[1] = in.v[2] = 1;
    assert_int_equal(brute_force(&in), -1);
    for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
        solve_and_compare(&in, -1, &paths[p], 0);
        /* every path names the task and the reason, and bounds nothing */
        solve_opts o;
        solve_opts_default(&o);
        o.no_bounds = paths[p].no_bounds;
        o.paper_model = paths[p].paper;
        solve_result res;
        gp_err err = {{0}};
        assert_int_equal(solve_corrgpu(&in, &o, &res, &err), 0);
        assert_int_equal(res.why_task, 1);
        tu_assert_contains(res.why, "memory: it needs 40.0 GiB, a GPU has 32.0 GiB");
        assert_false(isfinite(res.bound));
        solve_result_free(&res);
    }
    corrgpu_inst_free(&in);
}

static void test_bad_input(void **state)
{
    (void)state;
    corrgpu_inst in;
    inst_alloc(&in, 1, 32);
    in.mem_gib[0] = NAN;
    in.v[0] = 1;
    solve_opts o;
    solve_opts_default(&o);
    solve_result res;
    gp_err err = {{0}};
    assert_int_equal(solve_corrgpu(&in, &o, &res, &err), -1);
    tu_assert_contains(err.msg, "memory");
    solve_result_free(&res);
    corrgpu_inst_free(&in);
}

/* A hard instance: 512 tasks, half the pairs in conflict. */
static void big_inst(corrgpu_inst *in)
{
    rng r;
    rng_seed(&r, 7);
    random_inst(in, &r, 512, 32, 0.5);
    for (size_t i = 0; i < in->ntasks; i++)
        in->v[i] = 1;
}

static void test_time_limit(void **state)
{
    (void)state;
    corrgpu_inst in;
    big_inst(&in);
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = 0.5;
    solve_result res;
    gp_err err = {{0}};
    double t0 = now_seconds();
    assert_int_equal(solve_corrgpu(&in, &o, &res, &err), 0);
    double took = now_seconds() - t0;
    if (took > o.time_limit_s + 1.5)
        fail_msg("a 0.5 s limit took %.2f s", took);
    assert_true(res.has_solution);
    check_placement(&in, &res);
    if (res.status == SOLVE_FEASIBLE) {
        assert_true(res.gap > 0);
        assert_true(res.bound < res.objective);
        assert_true(res.bound >= 1);
    } else {
        assert_int_equal(res.status, SOLVE_OPTIMAL);
    }
    solve_result_free(&res);
    corrgpu_inst_free(&in);
}

static void test_cancel(void **state)
{
    (void)state;
    corrgpu_inst in;
    big_inst(&in);
    volatile int cancel = 1;
    solve_opts o;
    solve_opts_default(&o);
    o.cancel = &cancel;
    solve_result res;
    gp_err err = {{0}};
    double t0 = now_seconds();
    assert_int_equal(solve_corrgpu(&in, &o, &res, &err), 0);
    assert_true(now_seconds() - t0 < 5);
    /* the heuristics ran; nothing after them */
    assert_true(res.status == SOLVE_CANCELLED || res.status == SOLVE_OPTIMAL);
    assert_true(res.has_solution);
    check_placement(&in, &res);
    solve_result_free(&res);
    corrgpu_inst_free(&in);
}

static void test_lp_file_round_trip(void **state)
{
    (void)state;
    if (!tu_have_glpsol())
        return;
    char *dir = tu_tmpdir();
    for (int paper = 0; paper <= 1; paper++)
        for (uint64_t seed = 11; seed <= 14; seed++) {
            rng r;
            rng_seed(&r, seed);
            corrgpu_inst in;
            random_inst(&in, &r, 7, 32, 0.5);
            char *lp = xasprintf("%s/m%d.lp", dir, paper);
            char *mps = xasprintf("%s/m%d.mps", dir, paper);
            solve_opts o;
            solve_opts_default(&o);
            o.paper_model = paper;
            o.write_lp = lp;
            o.write_mps = mps;
            solve_result res;
            gp_err err = {{0}};
            assert_int_equal(solve_corrgpu(&in, &o, &res, &err), 0);
            assert_int_equal(res.status, SOLVE_OPTIMAL);
            assert_double_equal(tu_glpsol_objective(dir, "--lp", lp), res.objective, 1e-6);
            assert_double_equal(tu_glpsol_objective(dir, "--freemps", mps), res.objective, 1e-6);
            solve_result_free(&res);
            free(lp);
            free(mps);
            corrgpu_inst_free(&in);
        }
    tu_rmrf(dir);
    free(dir);
}

/* The output of GLPK never reaches stdout: it is in the result's log. */
static void test_log_captured(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 3);
    corrgpu_inst in;
    random_inst(&in, &r, 8, 32, 0.5);
    solve_opts o;
    solve_opts_default(&o);
    o.no_bounds = 1;
    o.keep_log = 1;
    solve_result res;
    gp_err err = {{0}};
    assert_int_equal(solve_corrgpu(&in, &o, &res, &err), 0);
    assert_non_null(res.log);
    assert_true(strlen(res.log) > 0);
    solve_result_free(&res);
    corrgpu_inst_free(&in);
}


/* ---- the bin-emptying search (solve_pack_ls.c) ------------------------------ */

/* One class of GPUs of cap GiB, cost 1 a GPU, as solve_corrgpu builds. */
static void unit_pk_inst(pk_inst *p, int n, double cap)
{
    pk_inst_init(p, n, 1, 0);
    p->cls[0].cap = cap;
    p->quantum = 1;
    for (int i = 0; i < n; i++) {
        p->task[i] = i;
        p->cls[0].lead_cost[i] = 1;
    }
}

/* Items in bins 0..nbins-1 only, and nbins what pk_eval counts. */
static void assert_packing(const pk_inst *p, pk_sol *s)
{
    for (int i = 0; i < p->n; i++)
        assert_true(s->bin_of[i] >= 0 && s->bin_of[i] < s->nbins);
    assert_true(pk_eval(p, s) == s->nbins);
}

static void test_fewer_bins_random(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    int removed_any = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rng r;
        rng_seed(&r, seed);
        int n = 20 + (int)rng_below(&r, 60);
        pk_inst p;
        unit_pk_inst(&p, n, 32);
        for (int i = 0; i < n; i++)
            p.size[i] = rng_bernoulli(&r, 0.3) ? rng_range(&r, 1, 16)
                                               : 1 + (double)rng_below(&r, 16);
        for (int i = 0; i < n; i++)
            for (int k = i + 1; k < n; k++)
                if (rng_bernoulli(&r, 0.4))
                    pk_set_conflict(&p, i, k);
        pk_sol s;
        pk_sol_init(&s, &p);
        /* one bin per item: the worst start, with bins to empty */
        for (int i = 0; i < n; i++) {
            s.bin_of[i] = i;
            s.bin_class[i] = 0;
        }
        s.nbins = n;
        int lb = pk_count_bound(&p);
        int removed = pk_fewer_bins(&p, &c, &s, lb, 5, 20000, seed);
        assert_packing(&p, &s);
        assert_int_equal(s.nbins, n - removed);
        assert_true(s.nbins >= lb);
        removed_any += removed > 0;
        pk_sol_free(&s);
        pk_inst_free(&p);
    }
    assert_int_equal(removed_any, 40);
    sg_end(&c, NULL);
}

/* Four items of 10 GiB on GPUs of 32, items 0 and 1 in conflict, each on
 * its own GPU: two GPUs hold them (0, 2, 3 together and 1 alone, or the
 * like), and the search finds that; asked for no fewer than four it
 * changes nothing. */
static void test_fewer_bins_empties(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    pk_inst p;
    unit_pk_inst(&p, 4, 32);
    for (int i = 0; i < 4; i++)
        p.size[i] = 10;
    pk_set_conflict(&p, 0, 1);
    pk_sol s;
    pk_sol_init(&s, &p);
    for (int i = 0; i < 4; i++) {
        s.bin_of[i] = i;
        s.bin_class[i] = 0;
    }
    s.nbins = 4;
    assert_int_equal(pk_fewer_bins(&p, &c, &s, 4, 5, 1000, 1), 0);
    assert_int_equal(s.nbins, 4);
    assert_int_equal(pk_fewer_bins(&p, &c, &s, 1, 5, 100000, 1), 2);
    assert_int_equal(s.nbins, 2);
    assert_packing(&p, &s);
    assert_true(s.bin_of[0] != s.bin_of[1]);
    pk_sol_free(&s);
    pk_inst_free(&p);
    sg_end(&c, NULL);
}

/* A search that keeps removing bins runs past its move cap: 1,500 items
 * of 1 GiB, ten to a 32 GiB bin, take more than 1,024 moves (where the cap
 * is first looked at) to reach the memory bound of 47 bins, so a cap of
 * one move alone would stop them short of it.  Where nothing can be
 * removed (four items in conflict, one to a bin) the cap still ends the
 * search. */
static void test_fewer_bins_runs_on_while_it_gains(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    int n = 1500;
    pk_inst p;
    unit_pk_inst(&p, n, 32);
    for (int i = 0; i < n; i++)
        p.size[i] = 1;
    pk_sol s;
    pk_sol_init(&s, &p);
    for (int i = 0; i < n; i++)
        s.bin_of[i] = i / 10;
    for (int b = 0; b < n / 10; b++)
        s.bin_class[b] = 0;
    s.nbins = n / 10;
    int lb = pk_count_bound(&p);
    assert_int_equal(lb, 47);
    assert_int_equal(pk_fewer_bins(&p, &c, &s, lb, 60, 1, 1), n / 10 - lb);
    assert_int_equal(s.nbins, lb);
    assert_packing(&p, &s);
    pk_sol_free(&s);
    pk_inst_free(&p);

    unit_pk_inst(&p, 4, 32);
    pk_sol_init(&s, &p);
    for (int i = 0; i < 4; i++) {
        p.size[i] = 1;
        s.bin_of[i] = i;
        s.bin_class[i] = 0;
        for (int k = 0; k < i; k++)
            pk_set_conflict(&p, i, k);
    }
    s.nbins = 4;
    assert_int_equal(pk_fewer_bins(&p, &c, &s, 1, 60, 1, 1), 0);
    assert_int_equal(s.nbins, 4);
    pk_sol_free(&s);
    pk_inst_free(&p);
    sg_end(&c, NULL);
}

static int teardown(void **state)
{
    (void)state;
    solve_shutdown();
    return 0;
}

/* A work-limited stage started inside a time-limited solve (the root's
 * integer master, a repacking) inherits the solve's wall-clock deadline:
 * its work budget alone let one run ten minutes past a 60 s limit. */
static void test_stage_inherits_deadline(void **state)
{
    (void)state;
    solve_opts outer;
    solve_opts_default(&outer);
    outer.time_limit_s = 5;
    sg_ctx c;
    sg_begin(&c, &outer);
    double dl = sg_deadline(&c);
    assert_true(fabs(dl - (c.t0 + 5)) < 1e-9);
    solve_opts inner;
    sg_ctx stage;
    sg_stage(&c, 100, &inner, &stage);
    assert_true(inner.work_limit_s == 100 && inner.time_limit_s == 0);
    assert_true(sg_deadline(&stage) == dl);
    assert_int_equal(sg_should_stop(&stage), -1);
    stage.deadline = 0;
    assert_true(sg_deadline(&stage) == 0);     /* work only: no deadline of its own */
    stage.deadline = dl;
    stage.deadline = now_seconds() - 0.001;    /* the solve's time is up */
    assert_int_equal(sg_should_stop(&stage), SOLVE_TIMEOUT);
    /* a time limit of the stage's own, earlier than the deadline, wins */
    inner.work_limit_s = 0;
    inner.time_limit_s = 1;
    stage.deadline = dl;
    assert_true(fabs(sg_deadline(&stage) - (stage.t0 + 1)) < 1e-9);
    sg_end(&c, NULL);
}

/* A search beside branch and price's tree stops, nested stages and all,
 * once the tree sets its halt flag (solve_bnp.c: the tree has proven its
 * packing). */
static void test_stage_inherits_halt(void **state)
{
    (void)state;
    solve_opts outer;
    solve_opts_default(&outer);
    sg_ctx c;
    sg_begin(&c, &outer);
    atomic_int halt;
    atomic_init(&halt, 0);
    c.halt = &halt;
    solve_opts inner;
    sg_ctx stage;
    sg_stage(&c, 100, &inner, &stage);
    assert_int_equal(sg_should_stop(&c), -1);
    assert_int_equal(sg_should_stop(&stage), -1);
    atomic_store(&halt, 1);
    assert_int_equal(sg_should_stop(&c), SOLVE_CANCELLED);
    assert_int_equal(sg_should_stop(&stage), SOLVE_CANCELLED);
    sg_end(&c, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_vs_brute_force),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_stage_inherits_deadline),
        cmocka_unit_test(test_stage_inherits_halt),
        cmocka_unit_test(test_lp_file_round_trip),
        cmocka_unit_test(test_log_captured),
        cmocka_unit_test(test_fewer_bins_random),
        cmocka_unit_test(test_fewer_bins_empties),
        cmocka_unit_test(test_fewer_bins_runs_on_while_it_gains),
    };
    return cmocka_run_group_tests_name("solve_corrgpu", tests, NULL, teardown);
}
