/*
 * test_solve_fleet.c — the cheapest fleet (solve_fleet): on hundreds of
 * random small instances its cost equals an enumeration written here of
 * every count of every GPU model (bought GPUs cost their price whether
 * they run or not) and every assignment of jobs to the bought GPUs (idle,
 * one job, or a pair); the counts and the CapEx/energy split add up to the
 * cost; infeasible instances are reported so; and the instance is built
 * from profiles, a trace and a throughput table.
 */
#include "testutil.h"

#include "core/rng.h"
#include "solve/solve.h"

enum { MAX_TYPES = 2, MAX_COUNT = 2, MAX_GPUS = MAX_TYPES * MAX_COUNT };

/* Two GPU models with random power and price, at most two of each, one to
 * four jobs, energy priced so that it weighs about as much as purchases. */
static void random_fleet(gogh_inst *in, rng *r, size_t J, int *max_count)
{
    memset(in, 0, sizeof *in);
    in->objective = GOGH_MIN_COST;
    in->usd_per_w = rng_bernoulli(r, 0.2) ? 0 : rng_range(r, 0.5, 10);
    in->ntypes = MAX_TYPES;
    in->types = xcalloc(MAX_TYPES, sizeof *in->types);
    in->accels = xcalloc(MAX_GPUS, sizeof *in->accels);
    for (int a = 0; a < MAX_TYPES; a++) {
        double idle = rng_range(r, 10, 50);
        in->types[a] = (gogh_accel_type){.theta = rng_bernoulli(r, 0.2) ? 1 : 2,
                                         .idle_w = idle, .max_w = idle + rng_range(r, 50, 250),
                                         .price_usd = rng_bernoulli(r, 0.1) ? 0
                                                                            : rng_range(r, 100, 3000)};
        snprintf(in->types[a].name, sizeof in->types[a].name, "gpu%d", a);
        max_count[a] = 1 + (int)rng_below(r, MAX_COUNT);
        for (int d = 0; d < max_count[a]; d++)
            in->accels[in->naccels++] = (gogh_accel){a, a, d};
    }
    in->njobs = J;
    in->jobs = xcalloc(J, sizeof *in->jobs);
    in->solo = xcalloc(MAX_TYPES * J, sizeof *in->solo);
    in->pair = xcalloc(MAX_TYPES * J * J, sizeof *in->pair);
    for (size_t a = 0; a < MAX_TYPES; a++)
        for (size_t j = 0; j < J; j++) {
            in->solo[a * J + j] = rng_bernoulli(r, 0.85) ? rng_range(r, 1, 10) : 0;
            for (size_t k = 0; k < j; k++)
                if (rng_bernoulli(r, 0.7)) {
                    in->pair[(a * J + j) * J + k] = in->solo[a * J + j] * rng_range(r, 0.3, 1);
                    in->pair[(a * J + k) * J + j] = in->solo[a * J + k] * rng_range(r, 0.3, 1);
                }
        }
    for (size_t j = 0; j < J; j++) {
        double best = fmax(in->solo[j], in->solo[J + j]);
        in->jobs[j] = (gogh_job){rng_bernoulli(r, 0.2) ? 0 : best * rng_range(r, 0, 1.3),
                                 1 + (int)rng_below(r, 2), rng_range(r, 0.2, 1), (int)j};
    }
}

/* ---- enumeration ----------------------------------------------------------------- */

/* What a bought GPU runs: j = -1 idle, else j alone (k = -1) or j with k. */
typedef struct run_on {
    int j, k;
} run_on;

static double solo(const gogh_inst *in, int a, int j)
{
    return in->solo[(size_t)a * in->njobs + (size_t)j];
}

static double paired(const gogh_inst *in, int a, int j, int k)
{
    return in->pair[((size_t)a * in->njobs + (size_t)j) * in->njobs + (size_t)k];
}

/* Job x's throughput on a GPU of type a running c. */
static double tput_of(const gogh_inst *in, int a, run_on c, int x)
{
    if (c.j != x && c.k != x)
        return 0;
    return c.k < 0 ? solo(in, a, x) : paired(in, a, x, x == c.j ? c.k : c.j);
}

static int can_run(const gogh_inst *in, int a, run_on c)
{
    if (c.j < 0)
        return 1;
    if (solo(in, a, c.j) <= 0)
        return 0;
    return c.k < 0 || (in->types[a].theta >= 2 && solo(in, a, c.k) > 0 &&
                       paired(in, a, c.j, c.k) > 0 && paired(in, a, c.k, c.j) > 0);
}

/* gamma_a of what the GPU runs (0 W idle). */
static double draw(const gogh_inst *in, int a, run_on c)
{
    if (c.j < 0)
        return 0;
    double load = 0;
    for (int x = c.j, n = 0; n < 2 && x >= 0; x = c.k, n++)
        load += in->jobs[x].util * tput_of(in, a, c, x) / solo(in, a, x);
    const gogh_accel_type *t = &in->types[a];
    return t->idle_w + (t->max_w - t->idle_w) * fmin(1, load);
}

typedef struct fleet_try {
    const gogh_inst *in;
    int type[MAX_GPUS];     /* the type of each bought GPU */
    int ngpus;
    run_on on[MAX_GPUS];
    double best;            /* energy cost of the best assignment */
} fleet_try;

static void assign(fleet_try *f, int g)
{
    const gogh_inst *in = f->in;
    if (g == f->ngpus) {
        double watts = 0;
        for (int h = 0; h < f->ngpus; h++)
            watts += draw(in, f->type[h], f->on[h]);
        for (size_t j = 0; j < in->njobs; j++) {
            int n = 0;
            double t = 0;
            for (int h = 0; h < f->ngpus; h++) {
                n += f->on[h].j == (int)j || f->on[h].k == (int)j;
                t += tput_of(in, f->type[h], f->on[h], (int)j);
            }
            if (n < 1 || n > in->jobs[j].dmax || t < in->jobs[j].min_tput - 1e-9)
                return;
        }
        f->best = fmin(f->best, in->usd_per_w * watts);
        return;
    }
    int J = (int)in->njobs;
    for (int j = -1; j < J; j++)
        for (int k = j; k < (j < 0 ? 0 : J); k++) {
            f->on[g] = (run_on){j, k == j ? -1 : k};
            if (can_run(in, f->type[g], f->on[g]))
                assign(f, g + 1);
        }
}

/* The least price + energy over every count vector and assignment. */
static double enumerate(const gogh_inst *in, const int *max_count)
{
    double best = HUGE_VAL;
    for (int c0 = 0; c0 <= max_count[0]; c0++)
        for (int c1 = 0; c1 <= max_count[1]; c1++) {
            fleet_try f = {.in = in, .best = HUGE_VAL};
            for (int k = 0; k < c0; k++)
                f.type[f.ngpus++] = 0;
            for (int k = 0; k < c1; k++)
                f.type[f.ngpus++] = 1;
            assign(&f, 0);
            double price = c0 * in->types[0].price_usd + c1 * in->types[1].price_usd;
            best = fmin(best, price + f.best);
        }
    return best;
}

/* ---- tests ------------------------------------------------------------------------- */

static void check_split(const gogh_inst *in, const fleet_result *fr, const int *max_count)
{
    double capex = 0, watts = 0;
    for (size_t a = 0; a < in->ntypes; a++) {
        assert_true(fr->count[a] >= 0 && fr->count[a] <= max_count[a]);
        capex += fr->count[a] * in->types[a].price_usd;
    }
    for (size_t g = 0; g < in->naccels; g++)
        watts += fr->sol.gpu_watts[g];
    assert_double_equal(fr->capex_usd, capex, 1e-6);
    assert_double_equal(fr->power_w, watts, 1e-6);
    assert_double_equal(fr->capex_usd + fr->energy_usd, fr->sol.objective,
                        1e-6 * (1 + fr->sol.objective));
}

static void test_random_vs_enumeration(void **state)
{
    (void)state;
    int infeasible = 0, bought_both = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng r;
        rng_seed_stream(&r, 20240605, seed);
        gogh_inst in;
        int max_count[MAX_TYPES];
        random_fleet(&in, &r, 1 + rng_below(&r, 4), max_count);
        double expect = enumerate(&in, max_count);
        solve_opts o;
        solve_opts_default(&o);
        o.no_warm_start = seed % 2;
        fleet_result fr;
        gp_err err = {{0}};
        assert_int_equal(solve_fleet(&in, &o, &fr, &err), 0);
        if (!isfinite(expect)) {
            infeasible++;
            if (fr.sol.status != SOLVE_INFEASIBLE)
                fail_msg("seed %llu: expected infeasible, got %s %g", (unsigned long long)seed,
                         solve_status_name(fr.sol.status), fr.sol.objective);
        } else {
            if (fr.sol.status != SOLVE_OPTIMAL ||
                fabs(fr.sol.objective - expect) > 1e-6 * (1 + expect))
                fail_msg("seed %llu: enumeration %.6f USD, solver %s %.6f USD",
                         (unsigned long long)seed, expect, solve_status_name(fr.sol.status),
                         fr.sol.objective);
            check_split(&in, &fr, max_count);
            bought_both += fr.count[0] > 0 && fr.count[1] > 0;
        }
        fleet_result_free(&fr);
        gogh_inst_free(&in);
    }
    assert_true(infeasible > 0 && infeasible < 250);
    assert_true(bought_both > 0);   /* mixed fleets do win sometimes */
}

/* From profiles, a trace and a table: a job that needs 8 it/s gets 10 on a
 * V100-class GPU and 5 on a P100: one V100M16 ($9,000, 300 W) beats two
 * P100s ($2 x 5,000, 250 W each) on price; an expensive electricity price
 * makes no difference to the choice, but shows in the split. */
static void test_from_model(void **state)
{
    (void)state;
    gpu_profile v100 = {0, "V100M16", 16, 30, 300, 0, 135, 1350, 0, 0.91, 9000, "v100", 1, ""};
    gpu_profile p100 = {0, "P100", 16, 25, 250, 0, 544, 1328, 0, 0.91, 5000, "p100", 0.94, ""};
    fleet_candidate cand[2] = {{&p100, 0, -1}, {&v100, 3, -1}};
    tput_catalog *tp = tput_catalog_new("t");
    tput_entry e;
    memset(&e, 0, sizeof e);
    e.scale = 1;
    strlcpy0(e.model, "A", sizeof e.model);
    e.batch_size = 1;
    strlcpy0(e.accel, "v100", sizeof e.accel);
    e.tput = 10;
    tput_catalog_add(tp, &e);
    strlcpy0(e.accel, "p100", sizeof e.accel);
    e.tput = 5;
    tput_catalog_add(tp, &e);
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    strlcpy0(tk.name, "a", sizeof tk.name);
    strlcpy0(tk.model, "A", sizeof tk.model);
    tk.batch_size = 1;
    tk.num_gpu = 2;
    tk.min_tput = 8;
    trace_add_task(tr, &tk);
    fleet_params fp = {.usd_per_kwh = 0.1, .hours = 1000, .min_frac = 0.5};
    gogh_inst in;
    gp_err err = {{0}};
    assert_int_equal(fleet_inst_from_model(cand, 2, tr, tp, &fp, &in, &err), 0);
    assert_int_equal((int)in.ntypes, 2);
    assert_int_equal((int)in.naccels, 2 + 3);  /* P100: the job's D_j; V100M16: 3 */
    assert_double_equal(in.usd_per_w, 0.1, 1e-12);
    solve_opts o;
    solve_opts_default(&o);
    fleet_result fr;
    assert_int_equal(solve_fleet(&in, &o, &fr, &err), 0);
    assert_int_equal(fr.sol.status, SOLVE_OPTIMAL);
    assert_int_equal(fr.count[0], 0);
    assert_int_equal(fr.count[1], 1);
    assert_double_equal(fr.capex_usd, 9000, 1e-9);
    assert_double_equal(fr.energy_usd, 30, 1e-9);  /* 300 W x 1000 h x $0.1/kWh */
    fleet_result_free(&fr);
    gogh_inst_free(&in);
    /* a profile without a throughput class cannot be priced for jobs */
    gpu_profile t4 = {0, "T4", 16, 10, 70, 0, 300, 1590, 0, 0.91, 2000, "", 0.5, ""};
    fleet_candidate bad[1] = {{&t4, 0, -1}};
    assert_int_equal(fleet_inst_from_model(bad, 1, tr, tp, &fp, &in, &err), -1);
    tu_assert_contains(err.msg, "T4");
    trace_free(tr);
    tput_catalog_free(tp);
}

/* Without a table, at the profiles' speeds (core/speed.h), worked by hand:
 * two tasks with no utilization data (all GPU work, demand 100 %) measured
 * on a V100; V100 at 10,000 USD, A100 (speed 2) at 15,000.
 *   Needing half their reference rate: both on one V100 share it by demand
 *   (rate 1 / 2 = 0.5 each): one V100, 10,000 USD.
 *   Needing 0.8: a shared V100 gives 0.5, so two V100s (20,000) or one
 *   A100, where each runs at 2 and demands 100 / (2 * 0.5) = 100 %,
 *   sharing at 2 / 2 = 1 >= 0.8: one A100, 15,000 USD. */
static void test_by_speed(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    fleet_candidate cand[2] = {{catalog_gpu(cat, "V100"), 0, 10000},
                               {catalog_gpu(cat, "A100-40GB"), 0, 15000}};
    gp_trace *tr = trace_new("t");
    task tk;
    task_init(&tk);
    tk.duration_s = 100;
    for (int i = 0; i < 2; i++) {
        snprintf(tk.name, sizeof tk.name, "t%d", i);
        trace_add_task(tr, &tk);
    }
    const double need[2] = {0.5, 0.8}, usd[2] = {10000, 15000};
    const int v100[2] = {1, 0}, a100[2] = {0, 1};
    for (int c = 0; c < 2; c++) {
        fleet_params fp = {.min_frac = need[c], .ref = catalog_gpu(cat, "V100")};
        gogh_inst in;
        gp_err err = {{0}};
        assert_int_equal(fleet_inst_from_model(cand, 2, tr, NULL, &fp, &in, &err), 0);
        assert_double_equal(in.solo[1 * in.njobs + 0], 2, 1e-12);   /* A100: twice as fast */
        solve_opts o;
        solve_opts_default(&o);
        fleet_result fr;
        assert_int_equal(solve_fleet(&in, &o, &fr, &err), 0);
        assert_int_equal(fr.sol.status, SOLVE_OPTIMAL);
        assert_int_equal(fr.count[0], v100[c]);
        assert_int_equal(fr.count[1], a100[c]);
        assert_double_equal(fr.capex_usd, usd[c], 1e-9);
        fleet_result_free(&fr);
        gogh_inst_free(&in);
    }
    trace_free(tr);
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
        cmocka_unit_test(test_random_vs_enumeration),
        cmocka_unit_test(test_from_model),
        cmocka_unit_test(test_by_speed),
    };
    return cmocka_run_group_tests_name("solve_fleet", tests, NULL, teardown);
}
