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
 * same power with glpsol; repacking a few GPUs at a time keeps packings
 * feasible, never dearer, and with free servers reaches the optimum; the
 * run-comparison "Optimal" row integrates the optimum over a trace's
 * intervals.
 */
#include "testutil.h"

#include <limits.h>
#include <signal.h>
#include <sys/time.h>

#include "core/rng.h"
#include "solve/solve.h"
#include "solve/solve_int.h"

static const gpu_profile V100 = {0, "V100", 32, 23.3, 144.8, 0, 135, 1350, 0.09, 0.91, 0, "v100", 1, ""};
static const gpu_profile OTHER = {0, "X", 24, 30, 250, 2, 300, 1500, 0.15, 0.8, 0, "", 1, ""};

/* ---- instances ----------------------------------------------------------------- */

static void inst_alloc(cats_inst *in, size_t ntasks, size_t nnodes, size_t ngpus)
{
    memset(in, 0, sizeof *in);
    in->tasks = xcalloc(ntasks + 1, sizeof *in->tasks);
    in->ntasks = ntasks;
    in->nodes = xcalloc(nnodes + 1, sizeof *in->nodes);
    in->nnodes = nnodes;
    in->gpus = xcalloc(ngpus + 1, sizeof *in->gpus);
}

static void add_node(cats_inst *in, size_t i, int ngpus, double static_w, double other_w,
                     const gpu_profile *p, const double *mem)
{
    cats_node *n = &in->nodes[i];
    n->static_w = static_w;
    n->other_w = other_w;
    n->gpu0 = (int)in->ngpus;
    n->ngpus = ngpus;
    for (int d = 0; d < ngpus; d++)
        in->gpus[in->ngpus++] = (cats_gpu){(int)i, d, mem[d], p};
}

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

/* Power of an assignment from eq. 2-4 and 14, written independently. */
static double power_of(const cats_inst *in, const int *gpus_of /* [l*2 + c] */)
{
    double f[8] = {0}, w = 0;
    int awake[4] = {0};
    for (size_t l = 0; l < in->ntasks; l++)
        for (int c = 0; c < in->tasks[l].v; c++) {
            int g = gpus_of[l * 2 + (size_t)c];
            const gpu_profile *p = in->gpus[g].prof;
            double need = p->f_max_mhz * pow(in->tasks[l].kappa, -1 / p->beta);
            need = need < p->f_min_mhz ? p->f_min_mhz : need;
            f[g] = need > f[g] ? need : f[g];
            awake[in->gpus[g].node] = 1;
        }
    for (size_t i = 0; i < in->nnodes; i++)
        if (awake[i])
            w += in->nodes[i].static_w + in->nodes[i].other_w;
    for (size_t g = 0; g < in->ngpus; g++) {
        const gpu_profile *p = in->gpus[g].prof;
        if (f[g] > 0)
            w += p->idle_w + p->alpha_w_per_mhz * f[g];
        else if (awake[in->gpus[g].node])
            w += p->sleep_w;
    }
    return w;
}

typedef struct brute {
    const cats_inst *in;
    int gpus_of[32];
    double used[8];
    double best;
} brute;

static int may_run(const cats_inst *in, size_t l, int g)
{
    if (in->tasks[l].kappa < 1)
        return 0;   /* would need more than f_max */
    return !in->allow || in->allow[l * in->ngpus + (size_t)g];
}

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

static void check_solution(const cats_inst *in, const solve_result *res)
{
    int *gpus_of = xcalloc(2 * in->ntasks + 2, sizeof *gpus_of);
    int *count = xcalloc(in->ntasks + 1, sizeof *count);
    double *used = xcalloc(in->ngpus + 1, sizeof *used);
    for (size_t k = 0; k < res->nplace; k++) {
        const solve_place *p = &res->place[k];
        assert_true(p->task >= 0 && (size_t)p->task < in->ntasks);
        assert_true(p->gpu >= 0 && (size_t)p->gpu < in->ngpus);
        assert_true(may_run(in, (size_t)p->task, p->gpu));
        for (int c = 0; c < count[p->task]; c++)
            assert_int_not_equal(gpus_of[p->task * 2 + c], p->gpu);
        gpus_of[p->task * 2 + count[p->task]++] = p->gpu;
        used[p->gpu] += in->tasks[p->task].mem_gib;
    }
    for (size_t l = 0; l < in->ntasks; l++)
        assert_int_equal(count[l], in->tasks[l].v);
    for (size_t g = 0; g < in->ngpus; g++)
        assert_true(used[g] <= in->gpus[g].mem_gib + 1e-9);
    if (in->ntasks <= 16)
        assert_double_equal(power_of(in, gpus_of), res->objective, 1e-6);
    free(gpus_of);
    free(count);
    free(used);
}

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

/* ---- branch and price on the prefix counts --------------------------------------------- */

/* Ten tasks of 6-17 GiB with kappa per task on one server of eight
 * identical V100s: identical GPUs make every set partition of the tasks
 * one placement (bin b on GPU b), enumerated here in restricted-growth
 * order.  Such instances leave the root LP fractional in how many GPUs
 * the most demanding tasks lead, so branch and price branches on those
 * prefix counts, with strong branching from warm-started child masters. */
typedef struct part {
    const cats_inst *in;
    int gpus_of[32];
    double used[8];
    double best;
} part;

static void part_dfs(part *s, size_t l, int nbins)
{
    const cats_inst *in = s->in;
    if (l == in->ntasks) {
        double w = power_of(in, s->gpus_of);
        s->best = w < s->best ? w : s->best;
        return;
    }
    for (int b = 0; b <= nbins && b < (int)in->ngpus; b++) {
        if (s->used[b] + in->tasks[l].mem_gib > in->gpus[b].mem_gib + 1e-9)
            continue;
        s->used[b] += in->tasks[l].mem_gib;
        s->gpus_of[l * 2] = b;
        part_dfs(s, l + 1, b == nbins ? nbins + 1 : nbins);
        s->used[b] -= in->tasks[l].mem_gib;
    }
}

static void prefix_inst(cats_inst *in, rng *r, size_t n)
{
    inst_alloc(in, n, 1, 8);
    double mem[8] = {32, 32, 32, 32, 32, 32, 32, 32};
    add_node(in, 0, 8, 100, 20, &V100, mem);
    for (size_t l = 0; l < n; l++)
        in->tasks[l] = (cats_task){.mem_gib = rng_range(r, 6, 17), .v = 1,
                                   .kappa = rng_range(r, 1.1, 1.5),
                                   .util_pct = rng_range(r, 10, 90), .src = (int)l};
}

static void test_prefix_branching_vs_partitions(void **state)
{
    (void)state;
    int branched = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        rng r;
        rng_seed(&r, seed);
        cats_inst in;
        prefix_inst(&in, &r, 11);
        part s;
        memset(&s, 0, sizeof s);
        s.in = &in;
        s.best = HUGE_VAL;
        part_dfs(&s, 0, 0);
        /* without subset-row cuts (the default), at the root and at every
         * node */
        for (int cuts = SOLVE_CUTS_OFF; cuts <= SOLVE_CUTS_NODES; cuts++) {
            solve_opts o;
            solve_opts_default(&o);
            o.time_limit_s = 30;
            o.cuts = (solve_cuts)cuts;
            solve_result res;
            gp_err err = {{0}};
            assert_int_equal(solve_cats(&in, &o, &res, &err), 0);
            if (res.status != SOLVE_OPTIMAL || fabs(res.objective - s.best) > 1e-6 * s.best)
                fail_msg("seed %llu, cuts %d: partitions %.6f W, solver %s %.6f W (bound %.6f, "
                         "%s)", (unsigned long long)seed, cuts, s.best,
                         solve_status_name(res.status), res.objective, res.bound, res.method);
            check_solution(&in, &res);
            branched += cuts == SOLVE_CUTS_OFF && strcmp(res.method, "branch-and-price") == 0 &&
                        res.nodes > 1;
            solve_result_free(&res);
        }
        cats_inst_free(&in);
    }
    printf("prefix branching: %d of 60 instances branched\n", branched);
    assert_true(branched >= 5);     /* the path under test was taken */
}

/* A child's master copied from its parent's with the prefix bound changed
 * (cg_branch_prefix, what strong branching and the children start from)
 * reaches the LP bound of the same child's master built from scratch, on
 * both sides of every fractional prefix count N_k of the root LP.  Its
 * value re-solved without pricing (cg_resolve, what ranks a trial) is at
 * least that bound; stopped after one dual simplex pivot it is at most
 * the re-solved value, and column generation from there reaches the same
 * bound. */
static double lp_bound(cg *g, sg_ctx *c)
{
    double lb;
    int conv;
    assert_int_equal(cg_run(g, c, HUGE_VAL, &lb, &conv), 0);
    assert_true(conv);
    return lb;
}

static void prefix_pk_inst(pk_inst *p, rng *r, int n)
{
    pk_inst_init(p, n, 1, 1);
    p->cls[0].cap = 32;
    double cost = 200;
    for (int i = 0; i < n; i++) {
        p->size[i] = rng_range(r, 6, 17);
        p->rank[i] = i;
        p->task[i] = i;
        cost -= rng_range(r, 0, 8);     /* the most demanding task first */
        p->cls[0].lead_cost[i] = cost;
    }
    p->type[0].cost = 120;
    p->type[0].count = 2;
    p->type[0].per_class[0] = 8;
}

/* The root master of p (at most 16 items) with its prefix chain and no
 * bounds on it. */
static cg *open_prefix_master(const pk_inst *p)
{
    int lo[17] = {0}, hi[17];
    assert_true(p->n <= 16);
    for (int q = 0; q <= p->n; q++)
        hi[q] = INT_MAX;
    cg_cuts cuts = {0, p->n, lo, hi, NULL};
    return cg_new(p, NULL, NULL, &cuts);
}

static void test_branch_prefix_matches_fresh_master(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    int checked = 0, capped = 0, n = 12;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        rng r;
        rng_seed(&r, seed);
        pk_inst p;
        prefix_pk_inst(&p, &r, n);
        int lo0[13] = {0}, hi0[13], lo1[13], hi1[13];
        for (int q = 0; q <= n; q++)
            hi0[q] = INT_MAX;
        cg *root = open_prefix_master(&p);
        double root_lb = lp_bound(root, &c), cum = 0;
        for (int k = 1; k <= n; k++) {
            for (int col = 0; col < cg_ncols(root); col++) {
                int t, len, lead = n;
                const int *it = cg_col(root, col, &t, &len);
                for (int a = 0; a < len; a++)
                    lead = it[a] < lead ? it[a] : lead;
                cum += lead == k - 1 ? cg_value(root, col) : 0;
            }
            double f = cum - floor(cum);
            if (f < 1e-6 || f > 1 - 1e-6)
                continue;
            for (int up = 0; up < 2; up++) {
                int bound = (int)floor(cum) + (up ? 0 : 1);
                memcpy(lo1, lo0, sizeof lo1);
                memcpy(hi1, hi0, sizeof hi1);
                if (up)
                    hi1[k] = bound;
                else
                    lo1[k] = bound;
                cg_cuts child_cuts = {0, n, lo1, hi1, NULL};
                cg *fresh = cg_new(&p, NULL, NULL, &child_cuts);
                cg *warm = cg_branch_prefix(root, &p, k, bound, up);
                double a = lp_bound(fresh, &c), b = lp_bound(warm, &c);
                if (fabs(a - b) > 1e-6 * fabs(a) || b < root_lb - 1e-6)
                    fail_msg("seed %llu, N_%d %s %d: from scratch %.6f, from the parent %.6f "
                             "(root %.6f)", (unsigned long long)seed, k, up ? "<=" : ">=", bound,
                             a, b, root_lb);
                cg_free(fresh);
                cg_free(warm);
                checked++;
                double z_full, z_one;
                cg *full = cg_branch_prefix(root, &p, k, bound, up);
                cg *one = cg_branch_prefix(root, &p, k, bound, up);
                assert_int_equal(cg_resolve(full, &c, 0, &z_full), 0);
                assert_int_equal(cg_resolve(one, &c, 1, &z_one), 0);
                if (z_full < a - 1e-6 * fabs(a) || z_one > z_full + 1e-6 * fabs(z_full))
                    fail_msg("seed %llu, N_%d %s %d: LP %.6f, re-solved %.6f, one pivot %.6f",
                             (unsigned long long)seed, k, up ? "<=" : ">=", bound, a, z_full,
                             z_one);
                capped += z_one < z_full - 1e-6 * fabs(z_full);
                b = lp_bound(one, &c);
                if (fabs(a - b) > 1e-6 * fabs(a))
                    fail_msg("seed %llu, N_%d: from scratch %.6f, after one pivot %.6f",
                             (unsigned long long)seed, k, a, b);
                cg_free(full);
                cg_free(one);
            }
        }
        cg_free(root);
        pk_inst_free(&p);
    }
    sg_end(&c, NULL);
    printf("branch prefix: %d children, %d stopped by the pivot limit\n", checked, capped);
    assert_true(checked >= 20);
    assert_true(capped >= 5);       /* the stopped path was taken */
}

/* Subset-row cuts (cg_separate): on twelve items with leader costs, the
 * LP bound after each round of cuts (pricing with their duals) rises, or
 * stays, without passing the optimum found by enumerating partitions, and
 * the last LP meets every cut, columns priced after it included. */
typedef struct pk_part {
    const pk_inst *p;
    double used[16];
    int lead[16];
    double best;
} pk_part;

static double pk_part_cost(const pk_part *s, int nbins)
{
    double w = 0;
    for (int b = 0; b < nbins; b++)
        w += s->p->cls[0].lead_cost[s->lead[b]];
    int per = s->p->type[0].per_class[0];
    return w + s->p->type[0].cost * ((nbins + per - 1) / per);
}

static void pk_part_dfs(pk_part *s, int i, int nbins)
{
    const pk_inst *p = s->p;
    if (nbins > p->type[0].count * p->type[0].per_class[0])
        return;
    if (i == p->n) {
        double w = pk_part_cost(s, nbins);
        s->best = w < s->best ? w : s->best;
        return;
    }
    for (int b = 0; b <= nbins && b < 16; b++) {
        if (s->used[b] + p->size[i] > p->cls[0].cap + 1e-9)
            continue;
        s->used[b] += p->size[i];
        if (b == nbins)
            s->lead[b] = i;     /* items in order: a new bin's first is its leader */
        pk_part_dfs(s, i + 1, b == nbins ? nbins + 1 : nbins);
        s->used[b] -= p->size[i];
    }
}

static void test_subset_row_cuts(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    int n = 12, cuts_seen = 0, rose = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        rng r;
        rng_seed(&r, seed);
        pk_inst p;
        prefix_pk_inst(&p, &r, n);
        pk_part s;
        memset(&s, 0, sizeof s);
        s.p = &p;
        s.best = HUGE_VAL;
        pk_part_dfs(&s, 0, 0);
        cg *g = open_prefix_master(&p);
        double lb = lp_bound(g, &c), lb0 = lb;
        for (int round = 0; round < 5 && cg_separate(g, 4, 0.05) > 0; round++) {
            double next = lp_bound(g, &c);
            if (next < lb - 1e-6 * fabs(lb) || next > s.best + 1e-6 * s.best)
                fail_msg("seed %llu, round %d: bound %.6f after %.6f, optimum %.6f",
                         (unsigned long long)seed, round, next, lb, s.best);
            lb = next;
        }
        for (int k = 0; k < cg_ncuts(g); k++) {     /* the last LP meets every cut */
            const int *S = cg_cut(g, k);
            double lhs = 0;
            for (int col = 0; col < cg_ncols(g); col++) {
                int t, len, in = 0;
                const int *it = cg_col(g, col, &t, &len);
                for (int a = 0; a < len; a++)
                    in += it[a] == S[0] || it[a] == S[1] || it[a] == S[2];
                lhs += in >= 2 ? cg_value(g, col) : 0;
            }
            if (lhs > 1 + 1e-6)
                fail_msg("seed %llu: cut {%d, %d, %d} at %.6f", (unsigned long long)seed, S[0],
                         S[1], S[2], lhs);
        }
        cuts_seen += cg_ncuts(g);
        rose += lb > lb0 + 1e-6 * fabs(lb0);
        cg_free(g);
        pk_inst_free(&p);
    }
    sg_end(&c, NULL);
    printf("subset-row cuts: %d cuts, the bound rose on %d of 30 instances\n", cuts_seen, rose);
    assert_true(cuts_seen >= 10);
    assert_true(rose >= 3);
}

/* ---- repacking a few GPUs at a time (solve_lns.c) ------------------------------------ */

/* From one GPU per task, repacking a few GPUs at a time never leaves a
 * packing infeasible or dearer than its start, and always finds a cheaper
 * one; with free servers (where a neighbourhood's costs are the
 * instance's own) it never goes below the optimum that branch and price
 * proves from the same start.  (It repacks at most half the GPUs at once,
 * so it need not reach it.) */
static void singletons(const pk_inst *p, pk_sol *s)
{
    s->nbins = p->n;
    for (int i = 0; i < p->n; i++) {
        s->bin_of[i] = i;
        s->bin_class[i] = 0;
    }
    assert_true(isfinite(pk_eval(p, s)));
}

static void test_lns_repacks(void **state)
{
    (void)state;
    solve_opts o;
    solve_opts_default(&o);
    sg_ctx c;
    sg_begin(&c, &o);
    int improved = 0, reached = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rng r;
        rng_seed(&r, seed);
        pk_inst p;
        prefix_pk_inst(&p, &r, 12);
        int free_servers = seed % 2 == 0;
        if (free_servers)
            p.type[0].cost = 0;
        pk_sol s, check;
        pk_sol_init(&s, &p);
        pk_sol_init(&check, &p);
        singletons(&p, &s);
        double start = s.cost;
        pk_lns(&p, &c, &s, -HUGE_VAL, 60, NULL);
        pk_sol_copy(&check, &s, &p);
        double again = pk_eval(&p, &check);
        if (!isfinite(again) || fabs(again - s.cost) > 1e-9 * again || s.cost > start + 1e-9)
            fail_msg("seed %llu: start %.6f, repacked %.6f, evaluated %.6f",
                     (unsigned long long)seed, start, s.cost, again);
        improved += s.cost < start - 1e-9;
        if (free_servers) {
            singletons(&p, &check);
            long nodes;
            int complete;
            double root;
            pk_bnp(&p, &c, &check, &nodes, &complete, &root);
            assert_true(complete);
            if (s.cost < check.cost - 1e-6 * check.cost)
                fail_msg("seed %llu: repacked %.6f, below the optimum %.6f",
                         (unsigned long long)seed, s.cost, check.cost);
            reached += s.cost <= check.cost + 1e-6 * check.cost;
        }
        pk_sol_free(&s);
        pk_sol_free(&check);
        pk_inst_free(&p);
    }
    sg_end(&c, NULL);
    assert_int_equal(improved, 40);
    printf("repacking: the optimum on %d of 20 instances with free servers\n", reached);
}

/* With a second thread (solve_opts.threads = 2) the root's search for
 * packings and the dives below it run beside the tree and are taken at
 * fixed nodes: under a work limit two runs give the same packing, bound
 * and tree, and a proven optimum is the one-thread solve's. */
typedef struct bnp_run {
    double cost, lb;
    long nodes;
    int complete;
    int bin_of[64];
} bnp_run;

static bnp_run bnp_with_threads(const pk_inst *p, int threads)
{
    solve_opts o;
    solve_opts_default(&o);
    o.work_limit_s = 10;
    o.threads = threads;
    sg_ctx c;
    sg_begin(&c, &o);
    pk_sol s;
    pk_sol_init(&s, p);
    s.nbins = 0;
    for (int i = 0; i < p->n; i++)
        s.bin_of[i] = -1;
    s.cost = pk_complete(p, &s);
    assert_true(isfinite(s.cost));
    bnp_run r;
    double root;
    r.lb = pk_bnp(p, &c, &s, &r.nodes, &r.complete, &root);
    r.cost = s.cost;
    assert_true(p->n <= 64);
    memcpy(r.bin_of, s.bin_of, (size_t)p->n * sizeof(int));
    pk_sol_free(&s);
    sg_end(&c, NULL);
    return r;
}

static void test_threads_beside_tree(void **state)
{
    (void)state;
    long most = 0;
    int proven = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        rng r;
        rng_seed(&r, seed);
        pk_inst p;
        prefix_pk_inst(&p, &r, 48);
        p.type[0].count = 10;
        bnp_run a = bnp_with_threads(&p, 2), b = bnp_with_threads(&p, 2),
                one = bnp_with_threads(&p, 1);
        if (a.cost != b.cost || a.lb != b.lb || a.nodes != b.nodes ||
            memcmp(a.bin_of, b.bin_of, (size_t)p.n * sizeof(int)) != 0)
            fail_msg("seed %llu: %.9f / %.9f (%ld nodes), then %.9f / %.9f (%ld nodes)",
                     (unsigned long long)seed, a.cost, a.lb, a.nodes, b.cost, b.lb, b.nodes);
        if (a.complete && one.complete && fabs(a.cost - one.cost) > 1e-9 * one.cost)
            fail_msg("seed %llu: two threads prove %.9f, one %.9f", (unsigned long long)seed,
                     a.cost, one.cost);
        most = a.nodes > most ? a.nodes : most;
        proven += a.complete && one.complete;
        pk_inst_free(&p);
    }
    /* the root's search is taken at node 40 and a dive's four nodes after
     * it starts: trees this deep take both beside them */
    assert_true(most > 50);
    assert_true(proven >= 1);
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
        cmocka_unit_test(test_prefix_branching_vs_partitions),
        cmocka_unit_test(test_branch_prefix_matches_fresh_master),
        cmocka_unit_test(test_subset_row_cuts),
        cmocka_unit_test(test_lns_repacks),
        cmocka_unit_test(test_threads_beside_tree),
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
