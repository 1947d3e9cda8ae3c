/*
 * test_solve_cats.c — CATS optimal (solve_cats): on hundreds of random
 * small instances (heterogeneous GPUs and servers, per-task kappa, tasks on
 * two GPUs, allowed models) the solver's minimum power equals a brute-force
 * enumeration written here, through each path (bounds + column generation
 * + branch and price, the compact MILP alone, the paper's big-M model);
 * every placement is checked (memory, v, allowed models) and its power
 * recomputed from eq. 2–4 and 14; infeasible instances are reported so; the
 * CATS hardware example (Table 3 GPUs, Table 4 tasks) gives the expected
 * optimum; the time limit is honoured; the written LP file solves to the
 * same power with glpsol; the run-comparison "Optimal" row integrates
 * the optimum over a trace's intervals.  Branch and price's own parts
 * (prefix branching, child masters, cuts, repacking, threads) are tested
 * in test_solve_bnp.c.  Layer: solve.
 */
#include "testutil.h"

#include <limits.h>
#include <signal.h>
#include <sys/time.h>

#include "catstest.h"
#include "core/rng.h"

static const gpu_profile OTHER = {0, "X", 24, 30, 250, 2, 300, 1500, 0.15, 0.8, 0, "", 1, ""};

/* ---- instances ----------------------------------------------------------------- */

static void random_inst(cats_inst *in, rng *r, size_t n)
{
    size_t nn = 1 + rng_below(r, 3), total = 0;
    int per[3];
    for (size_t i = 0; i < nn; i++) {
        per[i] = 1 + (int)rng_below(r, 3);
        if (total + (size_t)per[i] > 5)
            per[i] = (int)(5 - total);
        if (per[i] <= 0) {
            nn = i;
            break;
        }
        total += (size_t)per[i];
    }
    inst_alloc(in, n, nn, total);
    static const double sizes[] = {8, 16, 32};
    for (size_t i = 0; i < nn; i++) {
        double mem[3];
        int hetero = rng_bernoulli(r, 0.5);
        for (int d = 0; d < per[i]; d++)
            mem[d] = hetero ? sizes[rng_below(r, 3)] : 32;
        add_node(in, i, per[i], rng_bernoulli(r, 0.3) ? 0 : rng_range(r, 10, 200),
                 rng_range(r, 0, 50), rng_bernoulli(r, 0.7) ? &V100 : &OTHER, mem);
    }
    double shared_kappa = rng_range(r, 1.0, 1.6);
    int one_kappa = rng_bernoulli(r, 0.2), doubles = 0;
    for (size_t l = 0; l < n; l++) {
        cats_task *t = &in->tasks[l];
        t->mem_gib = rng_bernoulli(r, 0.3) ? rng_range(r, 0.5, 16) : 1 + (double)rng_below(r, 16);
        t->v = doubles < 1 && total >= 2 && rng_bernoulli(r, 0.15) ? (doubles++, 2) : 1;
        t->kappa = one_kappa ? shared_kappa : rng_range(r, 1.0, 1.6);
        t->util_pct = rng_range(r, 10, 90);
        t->src = (int)l;
    }
    if (rng_bernoulli(r, 0.2)) {    /* some tasks may not use some GPUs */
        in->allow = xcalloc(n * in->ngpus + 1, 1);
        for (size_t l = 0; l < n; l++)
            for (size_t g = 0; g < in->ngpus; g++)
                in->allow[l * in->ngpus + g] =
                    in->gpus[g].prof == &V100 || l % 2 == 0 ? 1 : 0;
    }
}

/* ---- brute force --------------------------------------------------------------------- */

typedef struct brute {
    const cats_inst *in;
    int gpus_of[32];
    double used[8];
    double best;
} brute;

static void brute_dfs(brute *s, size_t l)
{
    const cats_inst *in = s->in;
    if (l == in->ntasks) {
        double w = power_of(in, s->gpus_of);
        s->best = w < s->best ? w : s->best;
        return;
    }
    const cats_task *t = &in->tasks[l];
    int G = (int)in->ngpus;
    for (int a = 0; a < G; a++) {
        if (!may_run(in, l, a) || s->used[a] + t->mem_gib > in->gpus[a].mem_gib + 1e-9)
            continue;
        s->used[a] += t->mem_gib;
        s->gpus_of[l * 2] = a;
        if (t->v == 1)
            brute_dfs(s, l + 1);
        for (int b = a + 1; b < G && t->v == 2; b++) {
            if (!may_run(in, l, b) || s->used[b] + t->mem_gib > in->gpus[b].mem_gib + 1e-9)
                continue;
            s->used[b] += t->mem_gib;
            s->gpus_of[l * 2 + 1] = b;
            brute_dfs(s, l + 1);
            s->used[b] -= t->mem_gib;
        }
        s->used[a] -= t->mem_gib;
    }
}

static double brute_force(const cats_inst *in)
{
    brute s;
    memset(&s, 0, sizeof s);
    s.in = in;
    s.best = HUGE_VAL;
    brute_dfs(&s, 0);
    return s.best;
}

/* ---- checks ------------------------------------------------------------------------------ */

typedef struct path {
    const char *name;
    int no_bounds, paper;
    size_t max_tasks;
} path;

static const path paths[] = {
    {"bounds+branch-and-price", 0, 0, 8},
    {"compact MILP", 1, 0, 8},
    {"paper big-M model", 0, 1, 5},
};

static void solve_and_compare(const cats_inst *in, double expect, const path *pa,
                              uint64_t seed)
{
    solve_opts o;
    solve_opts_default(&o);
    o.no_bounds = pa->no_bounds;
    o.paper_model = pa->paper;
    o.time_limit_s = 30;
    solve_result res;
    gp_err err = {{0}};
    if (solve_cats(in, &o, &res, &err))
        fail_msg("seed %llu, %s: %s", (unsigned long long)seed, pa->name, err.msg);
    if (!isfinite(expect)) {
        if (res.status != SOLVE_INFEASIBLE)
            fail_msg("seed %llu, %s: expected infeasible, got %s %g", (unsigned long long)seed,
                     pa->name, solve_status_name(res.status), res.objective);
        assert_true(res.why[0] != 0);       /* says why */
        assert_false(isfinite(res.bound));  /* and bounds nothing (the paper's path did) */
    } else {
        /* PuLP's tolerance in the papers, 1e-6 relative */
        if (res.status != SOLVE_OPTIMAL || fabs(res.objective - expect) > 1e-6 * expect + 1e-6)
            fail_msg("seed %llu, %s: brute force %.6f W, solver %s %.6f W (bound %.6f)",
                     (unsigned long long)seed, pa->name, expect, solve_status_name(res.status),
                     res.objective, res.bound);
        check_solution(in, &res);
    }
    solve_result_free(&res);
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_random_vs_brute_force(void **state)
{
    (void)state;
    int checked = 0, infeasible = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng r;
        rng_seed(&r, seed);
        size_t n = 1 + rng_below(&r, 7);
        cats_inst in;
        random_inst(&in, &r, n);
        double expect = brute_force(&in);
        infeasible += !isfinite(expect);
        for (size_t p = 0; p < sizeof paths / sizeof *paths; p++)
            if (n <= paths[p].max_tasks && (!paths[p].paper || seed % 3 == 0)) {
                solve_and_compare(&in, expect, &paths[p], seed);
                checked++;
            }
        cats_inst_free(&in);
    }
    assert_true(checked >= 650);
    assert_true(infeasible > 0);    /* the generator makes some of each */
}

/* One GPU class, one kappa and free servers: every GPU costs the same, so
 * the solver rounds its bounds up to whole GPUs (pk_inst.quantum); the
 * optimum must still be brute force's. */
static void test_uniform_vs_brute_force(void **state)
{
    (void)state;
    int checked = 0;
    for (uint64_t seed = 1001; seed <= 1150; seed++) {
        rng r;
        rng_seed(&r, seed);
        size_t n = 1 + rng_below(&r, 7);
        cats_inst in;
        random_inst(&in, &r, n);
        for (size_t i = 0; i < in.nnodes; i++)
            in.nodes[i].static_w = in.nodes[i].other_w = 0;
        for (size_t g = 0; g < in.ngpus; g++)
            in.gpus[g] = (cats_gpu){in.gpus[g].node, in.gpus[g].dev, 32, &V100};
        for (size_t l = 0; l < n; l++)
            in.tasks[l].kappa = in.tasks[0].kappa;
        free(in.allow);
        in.allow = NULL;
        double expect = brute_force(&in);
        for (size_t p = 0; p < 2; p++) {    /* bounds + branch and price; compact MILP */
            solve_and_compare(&in, expect, &paths[p], seed);
            checked++;
        }
        cats_inst_free(&in);
    }
    assert_int_equal(checked, 300);
}

/* Every path says which task fits nowhere and why. */
static void check_why(const cats_inst *in, int which, const char *why)
{
    for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
        solve_opts o;
        solve_opts_default(&o);
        o.no_bounds = paths[p].no_bounds;
        o.paper_model = paths[p].paper;
        solve_result res;
        gp_err err = {{0}};
        assert_int_equal(solve_cats(in, &o, &res, &err), 0);
        assert_int_equal(res.status, SOLVE_INFEASIBLE);
        if (res.why_task != which || !strstr(res.why, why))
            fail_msg("%s: expected task %d, '%s'; got task %d, '%s'", paths[p].name, which, why,
                     res.why_task, res.why);
        solve_result_free(&res);
    }
}

static void test_infeasible(void **state)
{
    (void)state;
    static const double mem[2] = {32, 16};
    struct {
        double mem, kappa;
        int v;
        int allowed;        /* may use the node's GPU model */
        double util;
        const char *why;
    } cases[] = {
        {40, 1.2, 1, 1, 50, "memory: it needs 40.0 GiB, the largest GPU it may use has 32.0"},
        {8, 0.9, 1, 1, 50, "kappa 0.9 < 1"},
        {8, 1.2, 1, 0, 50, "model constraint"},
        {20, 1.2, 2, 1, 50, "it needs 2 GPUs, only 1 of those it may use can hold it"},
        {8, 1.2, 1, 1, 95, "utilization: its mean 95.0 % is above the cap of 90.0 %"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        cats_inst in;
        inst_alloc(&in, 2, 1, 2);
        add_node(&in, 0, 2, 50, 10, &V100, mem);
        in.tasks[0] = (cats_task){4, 1, 1.2, 50, 0};
        in.tasks[1] = (cats_task){cases[k].mem, cases[k].v, cases[k].kappa, cases[k].util, 1};
        in.allow = xcalloc(2 * in.ngpus, 1);
        for (size_t g = 0; g < in.ngpus; g++) {
            in.allow[g] = 1;
            in.allow[in.ngpus + g] = (unsigned char)cases[k].allowed;
        }
        if (cases[k].util > 90)
            in.util_cap_pct = 90;
        for (size_t p = 0; p < sizeof paths / sizeof *paths; p++)
            solve_and_compare(&in, HUGE_VAL, &paths[p], k);
        check_why(&in, 1, cases[k].why);
        cats_inst_free(&in);
    }
    /* each task fits a GPU, all of them together do not (the search proves it) */
    cats_inst in;
    inst_alloc(&in, 5, 1, 2);
    add_node(&in, 0, 2, 50, 10, &V100, mem);
    for (size_t l = 0; l < 5; l++)
        in.tasks[l] = (cats_task){11, 1, 1.1 + 0.05 * (double)l, 50, (int)l};
    for (size_t p = 0; p < sizeof paths / sizeof *paths; p++)
        solve_and_compare(&in, HUGE_VAL, &paths[p], 99);
    check_why(&in, -1, "together they do not fit");
    cats_inst_free(&in);
}

/* CATS §5: the six V100s of Table 3 in one server, the 14 tasks of Table 4,
 * kappa 1.2 (CATS §2.1).  49.86 GB need two GPUs; both 32 GB GPUs hold them,
 * each at f = 1350 * 1.2^(-1/0.91) = 1104.9 MHz: 2 * (23.3 + 0.09 f) W. */
static void test_hardware_example(void **state)
{
    (void)state;
    static const double mem[6] = {16, 16, 32, 32, 16, 32};
    static const double task_mem[14] = {6.28, 6.30, 2.20, 1.80, 3.90, 1.60, 2.20,
                                        3.50, 6.28, 6.30, 2.20, 1.80, 3.90, 1.60};
    for (size_t stage = 0; stage < 2; stage++) {
        size_t n = stage == 0 ? 14 : 8;     /* all tasks; stage 1 (t1..t8) */
        cats_inst in;
        inst_alloc(&in, n, 1, 6);
        add_node(&in, 0, 6, 0, 0, &V100, mem);
        for (size_t l = 0; l < n; l++)
            in.tasks[l] = (cats_task){task_mem[l], 1, 1.2, 45, (int)l};
        solve_opts o;
        solve_opts_default(&o);
        solve_result res;
        gp_err err = {{0}};
        assert_int_equal(solve_cats(&in, &o, &res, &err), 0);
        assert_int_equal(res.status, SOLVE_OPTIMAL);
        double f = 1350 * pow(1.2, -1 / 0.91);
        int gpus = stage == 0 ? 2 : 1;
        assert_int_equal(res.gpus_used, gpus);
        assert_double_equal(res.objective, gpus * (23.3 + 0.09 * f), 1e-6);
        if (n <= 8)     /* 6^14 assignments would take hours */
            assert_double_equal(res.objective, brute_force(&in), 1e-6);
        check_solution(&in, &res);
        for (size_t g = 0; g < 6; g++)
            assert_true(res.gpu_freq_mhz[g] == 0 || fabs(res.gpu_freq_mhz[g] - f) < 1e-6);
        solve_result_free(&res);
        cats_inst_free(&in);
    }
}

static void big_inst(cats_inst *in, size_t n)
{
    rng r;
    rng_seed(&r, 5);
    size_t nodes = n / 8 + 2;
    inst_alloc(in, n, nodes, nodes * 8);
    double mem[8];
    for (int d = 0; d < 8; d++)
        mem[d] = 32;
    for (size_t i = 0; i < nodes; i++)
        add_node(in, i, 8, 200, 100, &V100, mem);
    for (size_t l = 0; l < n; l++)
        in->tasks[l] = (cats_task){1 + (double)rng_below(&r, 16), 1, rng_range(&r, 1.1, 1.5), 50,
                                   (int)l};
}

static void test_time_limit(void **state)
{
    (void)state;
    cats_inst in;
    big_inst(&in, 256);
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = 0.5;
    solve_result res;
    gp_err err = {{0}};
    double t0 = now_seconds();
    assert_int_equal(solve_cats(&in, &o, &res, &err), 0);
    double took = now_seconds() - t0;
    if (took > o.time_limit_s + 1.5)
        fail_msg("a 0.5 s limit took %.2f s", took);
    assert_true(res.has_solution);
    check_solution(&in, &res);
    assert_true(res.bound <= res.objective + 1e-6);
    if (res.status == SOLVE_FEASIBLE)
        assert_true(res.gap > 0 && isfinite(res.bound));
    else
        assert_int_equal(res.status, SOLVE_OPTIMAL);
    solve_result_free(&res);
    cats_inst_free(&in);
}

/* One solve of big_inst's tasks at relative gap G (0 = prove); the answer
 * is checked and, when not proven, within G of its bound. */
static void solve_at_gap(const cats_inst *in, double gap, int no_bounds, solve_cuts cuts,
                         solve_result *res)
{
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = 60;
    o.cuts = cuts;
    o.mip_gap = gap;
    o.no_bounds = no_bounds;
    gp_err err = {{0}};
    assert_int_equal(solve_cats(in, &o, res, &err), 0);
    assert_true(res->has_solution);
    check_solution(in, res);
    assert_true(res->bound <= res->objective + 1e-6);
    if (res->status != SOLVE_OPTIMAL) {
        assert_int_equal(res->status, SOLVE_FEASIBLE);
        if (res->gap > gap + 1e-12)
            fail_msg("gap %g asked, %s stopped at %g", gap, res->method, res->gap);
    }
}

/* --gap stops each stage of the default path where it is met: the
 * combinatorial bounds, the root's column generation, branch and price
 * (fewer nodes than proving takes), and the compact MILP alone.  Every
 * bound stays below the proven optimum.  64 tasks: with strong branching
 * ranked by pseudo-costs 40 are proven in 5 nodes whose bounds meet no
 * gap of the list before the last, and since the root repacks GPUs 48
 * are too (every gap down to 1e-5 met at the root); 64 stop in branch and
 * price at 2-8 of the 9 nodes proving takes (with cuts at the root,
 * --cuts root, it takes 3, and every gap down to 1e-4 is met there). */
static void test_gap_stops_every_path(void **state)
{
    (void)state;
    cats_inst in;
    big_inst(&in, 64);
    int saw_bounds = 0, saw_colgen = 0, saw_early_bnp = 0;
    for (int cuts = SOLVE_CUTS_OFF; cuts <= SOLVE_CUTS_ROOT; cuts++) {
        solve_result proven;
        solve_at_gap(&in, 0, 0, (solve_cuts)cuts, &proven);
        assert_int_equal(proven.status, SOLVE_OPTIMAL);
        static const double gaps[] = {0.5, 0.05, 0.01, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6};
        for (size_t k = 0; k < sizeof gaps / sizeof *gaps; k++) {
            solve_result res;
            solve_at_gap(&in, gaps[k], 0, (solve_cuts)cuts, &res);
            assert_true(res.bound <= proven.objective + 1e-6);
            saw_bounds |= strcmp(res.method, "bounds") == 0;
            saw_colgen |= strcmp(res.method, "colgen") == 0 && res.status == SOLVE_FEASIBLE;
            saw_early_bnp |= strcmp(res.method, "branch-and-price") == 0 &&
                             res.status == SOLVE_FEASIBLE && res.nodes < proven.nodes;
            solve_result_free(&res);
        }
        solve_result_free(&proven);
    }
    assert_true(saw_bounds);
    assert_true(saw_colgen);
    assert_true(saw_early_bnp);
    solve_result res;
    solve_at_gap(&in, 0.01, 1, SOLVE_CUTS_OFF, &res);
    assert_string_equal(res.method, "milp");
    solve_result_free(&res);
    cats_inst_free(&in);
}

/* The cancel flag, set by an alarm the way gpuplan solve's Ctrl-C sets it. */
static volatile int alarm_cancel;

static void on_alarm(int sig)
{
    (void)sig;
    alarm_cancel = 1;
}

/* An interrupt while GLPK works on the compact model of 512 tasks (its
 * build, then a root LP of minutes) stops the solve with the heuristics'
 * placement: GLPK's simplex runs in slices between which the flag is read.
 * Before, the root LP ran on to the time limit. */
static void test_cancel_in_compact_model(void **state)
{
    (void)state;
    cats_inst in;
    big_inst(&in, 512);
    solve_opts o;
    solve_opts_default(&o);
    o.no_bounds = 1;
    o.time_limit_s = 600;
    alarm_cancel = 0;
    o.cancel = &alarm_cancel;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {1, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
    solve_result res;
    gp_err err = {{0}};
    assert_int_equal(solve_cats(&in, &o, &res, &err), 0);
    assert_true(alarm_cancel);
    assert_int_equal(res.status, SOLVE_CANCELLED);
    assert_true(res.has_solution);
    check_solution(&in, &res);
    solve_result_free(&res);
    cats_inst_free(&in);
}

static void test_lp_file_round_trip(void **state)
{
    (void)state;
    if (!tu_have_glpsol())
        return;
    char *dir = tu_tmpdir();
    for (int paper = 0; paper <= 1; paper++)
        for (uint64_t seed = 21; seed <= 24; seed++) {
            rng r;
            rng_seed(&r, seed);
            cats_inst in;
            random_inst(&in, &r, 5);
            char *lp = xasprintf("%s/c.lp", dir), *mps = xasprintf("%s/c.mps", dir);
            solve_opts o;
            solve_opts_default(&o);
            o.paper_model = paper;
            o.write_lp = lp;
            o.write_mps = mps;
            solve_result res;
            gp_err err = {{0}};
            assert_int_equal(solve_cats(&in, &o, &res, &err), 0);
            if (res.status == SOLVE_OPTIMAL) {
                double tol = 1e-6 * res.objective + 1e-6;
                assert_double_equal(tu_glpsol_objective(dir, "--lp", lp), res.objective, tol);
                assert_double_equal(tu_glpsol_objective(dir, "--freemps", mps), res.objective, tol);
            }
            solve_result_free(&res);
            free(lp);
            free(mps);
            cats_inst_free(&in);
        }
    tu_rmrf(dir);
    free(dir);
}

/* Two tasks of 20 GB on a server of two 32 GB V100s (static 100 W):
 * A runs [0, 120) (kappa 1.2, 100 s), B [60, 210) (kappa 1.5, 100 s);
 * together they need both GPUs. */
static void test_for_run(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_gpu(cat, &V100);
    cluster *cl = cluster_new("c");
    node nd;
    memset(&nd, 0, sizeof nd);
    strlcpy0(nd.name, "n0", sizeof nd.name);
    strlcpy0(nd.gpu_model, "V100", sizeof nd.gpu_model);
    nd.gpu_count = 2;
    nd.static_w = 100;
    cluster_add_node(cl, &nd);
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    tk.gpu_mem_gib = 20;
    tk.duration_s = 100;
    tk.kappa = 1.2;
    strlcpy0(tk.name, "A", sizeof tk.name);
    trace_add_task(tr, &tk);
    tk.arrival_s = 60;
    tk.kappa = 1.5;
    strlcpy0(tk.name, "B", sizeof tk.name);
    trace_add_task(tr, &tk);
    solve_opts o;
    solve_opts_default(&o);
    solve_run_row row;
    gp_err err = {{0}};
    assert_int_equal(solve_cats_for_run(cl, cat, tr, 0, &o, &row, &err), 0);
    double ga = 23.3 + 0.09 * 1350 * pow(1.2, -1 / 0.91);
    double gb = 23.3 + 0.09 * 1350 * pow(1.5, -1 / 0.91);
    double energy = 60 * (100 + ga) + 60 * (100 + ga + gb) + 90 * (100 + gb);
    assert_double_equal(row.energy_j, energy, 1e-6);
    assert_double_equal(row.span_s, 210, 1e-9);
    assert_double_equal(row.mean_power_w, energy / 210, 1e-9);
    assert_double_equal(row.peak_power_w, 100 + ga + gb, 1e-9);
    assert_double_equal(row.peak_gpus, 2, 0);
    assert_int_equal(row.intervals, 3);
    assert_int_equal(row.proven, 1);
    trace_free(tr);
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
        cmocka_unit_test(test_uniform_vs_brute_force),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_hardware_example),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_gap_stops_every_path),
        cmocka_unit_test(test_cancel_in_compact_model),
        cmocka_unit_test(test_lp_file_round_trip),
        cmocka_unit_test(test_for_run),
    };
    return cmocka_run_group_tests_name("solve_cats", tests, NULL, teardown);
}
