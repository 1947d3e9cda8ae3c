/*
 * test_solve_bnp.c — branch and price and its parts (solve_bnp.c,
 * solve_colgen.c, solve_pack.c, solve_lns.c, subset-row cuts), layer
 * solve: CATS instances whose GPUs are all alike, solved to the optimum
 * found by enumerating set partitions while branching on prefix counts;
 * a child's master copied from its parent's reaches the bound of one built
 * from scratch; subset-row cuts raise the bound without passing the
 * optimum; repacking a few GPUs at a time keeps packings feasible, never
 * dearer, and with free servers never goes below the optimum; a second
 * thread beside the tree gives the same answer run after run.
 */
#include "catstest.h"

#include <limits.h>

#include "core/rng.h"

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
    s.cost = pk_first_fit(p, &s);
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

static int teardown(void **state)
{
    (void)state;
    solve_shutdown();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_branching_vs_partitions),
        cmocka_unit_test(test_branch_prefix_matches_fresh_master),
        cmocka_unit_test(test_subset_row_cuts),
        cmocka_unit_test(test_lns_repacks),
        cmocka_unit_test(test_threads_beside_tree),
    };
    return cmocka_run_group_tests_name("solve_bnp", tests, NULL, teardown);
}
