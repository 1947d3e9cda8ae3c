/*
 * test_fgd_groups.c — the policy layer: the node groups the scoring
 * policies keep across decisions (fgdscore_groups.h) are always the groups
 * one pass over every node makes, whatever happened to the state in
 * between, and a decision made from them is the one made from that pass.
 *
 * A 200-node cluster of three shapes (8- and 4-GPU A10 servers, CPU-only
 * servers) takes random allocations and releases.  After each step (or
 * after a burst longer than the state's change ring, or on a clone) the
 * kept groups, as a set of (representative, size), must equal the
 * one-pass groups; with node ranks and without; and FGD and PWR must
 * choose the same placement either way.  Random's draw from the groups
 * (the k-th feasible node in index order, over blocks of 64 nodes) must
 * be the k-th node of a filter over every node, for every k, and Random
 * must place the same with and without a candidate list, from the same
 * seed.
 */
#include "fgdtest.h"

#include <stdlib.h>

#include "core/rng.h"
#include "policy/fgdscore.h"
#include "policy/fgdscore_groups.h"
#include "policy/fgdscore_int.h"

#define NODES 200
#define TASKS 200

typedef struct fixture {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    cstate *cs;
    int on_node[TASKS];         /* -1 when not running */
    placement pl[TASKS];
} fixture;

static void fixture_init(fixture *f, rng *r)
{
    memset(f, 0, sizeof *f);
    f->cat = ft_catalog();
    f->cl = cluster_new("groups");
    for (int i = 0; i < NODES; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%02d", i);
        if (i % 10 == 9)
            ft_add_node(f->cl, name, "", 0, 64000, 131072);
        else
            ft_add_node(f->cl, name, "A10", i % 3 ? 8 : 4, 64000, 131072);
    }
    gp_err err = {{0}};
    f->cs = cstate_new(f->cl, f->cat, &err);
    assert_non_null(f->cs);
    f->tr = trace_new("t");
    static const int shares[] = {1000, 500, 250, 100};
    for (int i = 0; i < TASKS; i++) {
        int ngpu = (int)rng_below(r, 5), g = shares[rng_below(r, 4)];
        ngpu = ngpu == 3 ? 0 : ngpu;        /* some CPU-only */
        ft_add_tasks(f->tr, "t", 1, 1000 * (int64_t)rng_range(r, 1, 8), ngpu,
                     ngpu > 1 ? 1000 : g, NULL);
        f->on_node[i] = -1;
    }
}

static void fixture_free(fixture *f)
{
    cstate_free(f->cs);
    trace_free(f->tr);
    cluster_free(f->cl);
    catalog_free(f->cat);
}

/* One random change: place a waiting task with best fit (FGD's device
 * rule) on a random feasible node, or release a running one. */
static void step(fixture *f, rng *r)
{
    int ti = (int)rng_below(r, TASKS);
    const task *tk = &f->tr->tasks[ti];
    if (f->on_node[ti] >= 0) {
        cstate_release(f->cs, tk, ti, f->on_node[ti], f->pl[ti].gpus, f->pl[ti].ngpus);
        f->on_node[ti] = -1;
        return;
    }
    fgd_task t;
    fgd_task_of(tk, &t);
    int ni = (int)rng_below(r, NODES);
    if (!fgd_feasible(f->cs, ni, &t, NULL))
        return;
    fgd_devices_bestfit(f->cs, ni, &t, &f->pl[ti]);
    cstate_alloc(f->cs, tk, ti, ni, f->pl[ti].gpus, f->pl[ti].ngpus);
    f->on_node[ti] = ni;
}

typedef struct pair {
    int rep, count;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    return x->rep != y->rep ? (x->rep > y->rep) - (x->rep < y->rep)
                            : (x->count > y->count) - (x->count < y->count);
}

static size_t listed(fgd_groups *g, const cstate *cs, const int *rank, int ordered, pair *out)
{
    int rep[NODES * 2], count[NODES * 2];
    size_t n = fgd_groups_list(g, cs, rank, ordered, rep, count);
    for (size_t i = 0; i < n; i++)
        out[i] = (pair){rep[i], count[i]};
    qsort(out, n, sizeof *out, cmp_pair);
    return n;
}

static void assert_same_groups(fgd_groups *kept, fgd_groups *once, const cstate *cs,
                               const int *rank)
{
    pair a[NODES * 2], b[NODES * 2];
    size_t na = listed(kept, cs, rank, 0, a), nb = listed(once, cs, rank, 1, b);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
}

/* The same decision from the kept groups (no explanation) and from one
 * pass (an explanation that lists candidates). */
static void assert_same_decision(fixture *f, const char *name, void *prep, const int *rank,
                                 int ti)
{
    policy_spec ps;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse(name, &ps, &err), 0);
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    ctx.node_rank = rank;
    ctx.prep = prep;
    placement a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    explain ex;
    explain_init(&ex, NULL, 0);
    ex.want_cands = 1;
    int oka = ps.ops->place(&ctx, ps.params, ti, &a, NULL);
    int okb = ps.ops->place(&ctx, ps.params, ti, &b, &ex);
    explain_free(&ex);
    assert_int_equal(oka, okb);
    if (oka) {
        assert_int_equal(a.node, b.node);
        assert_int_equal(a.ngpus, b.ngpus);
        assert_memory_equal(a.gpus, b.gpus, (size_t)a.ngpus * sizeof *a.gpus);
    }
}

static void check_run(int ranked)
{
    rng r;
    rng_seed(&r, 7 + (uint64_t)ranked);
    fixture f;
    fixture_init(&f, &r);
    int rank[NODES];
    for (int i = 0; i < NODES; i++)
        rank[i] = (i * 37 + 11) % NODES;        /* a permutation */
    const int *rk = ranked ? rank : NULL;
    fgd_groups *kept = fgd_groups_new(), *once = fgd_groups_new();
    policy_spec fgd, pwr;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("fgd", &fgd, &err), 0);
    assert_int_equal(policy_spec_parse("pwr", &pwr, &err), 0);
    void *pf = NULL, *pp = NULL;
    assert_int_equal(policy_prepare(&fgd, f.cs, f.tr, &pf, &err), 0);
    assert_int_equal(policy_prepare(&pwr, f.cs, f.tr, &pp, &err), 0);
    for (int s = 0; s < 1500; s++) {
        step(&f, &r);
        assert_same_groups(kept, once, f.cs, rk);
        if (s % 50 == 0) {
            int ti = (int)rng_below(&r, TASKS);
            assert_same_decision(&f, "fgd", pf, rk, ti);
            assert_same_decision(&f, "pwr", pp, rk, ti);
        }
    }
    /* More changes than the ring remembers, then a clone of the state. */
    for (int s = 0; s < 3 * CS_CHANGES_RING; s++)
        step(&f, &r);
    assert_same_groups(kept, once, f.cs, rk);
    cstate *c = cstate_clone(f.cs);
    assert_same_groups(kept, once, c, rk);
    cstate_free(c);
    step(&f, &r);
    assert_same_groups(kept, once, f.cs, rk);
    policy_release(&fgd, pf);
    policy_release(&pwr, pp);
    fgd_groups_free(kept);
    fgd_groups_free(once);
    fixture_free(&f);
}

static void test_unranked(void **state)
{
    (void)state;
    check_run(0);
}

static void test_ranked(void **state)
{
    (void)state;
    check_run(1);
}

/* Equal ranks make the order of the groups matter to the tie-break: the
 * list is then always the one-pass one. */
static void test_equal_ranks(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 3);
    fixture f;
    fixture_init(&f, &r);
    int rank[NODES];
    for (int i = 0; i < NODES; i++)
        rank[i] = i / 4;
    fgd_groups *kept = fgd_groups_new(), *once = fgd_groups_new();
    for (int s = 0; s < 300; s++) {
        step(&f, &r);
        int rep[NODES], count[NODES], rep1[NODES], count1[NODES];
        size_t n = fgd_groups_list(kept, f.cs, rank, 0, rep, count);
        size_t n1 = fgd_groups_list(once, f.cs, rank, 1, rep1, count1);
        assert_int_equal(n, n1);
        assert_memory_equal(rep, rep1, n * sizeof *rep);
        assert_memory_equal(count, count1, n * sizeof *count);
    }
    fgd_groups_free(kept);
    fgd_groups_free(once);
    fixture_free(&f);
}

static int pass_feasible(const cstate *cs, int ni, const void *arg)
{
    return fgd_feasible(cs, ni, arg, NULL);
}

/* The groups' count and k-th feasible node against a filter of every node. */
static void assert_same_nth(fgd_groups *g, const fixture *f, int ti)
{
    fgd_task t;
    fgd_task_of(&f->tr->tasks[ti], &t);
    size_t n = fgd_groups_filter(g, f->cs, pass_feasible, &t), nb = 0;
    int brute[NODES * 2];
    for (size_t i = 0; i < f->cs->nnodes; i++)
        if (fgd_feasible(f->cs, (int)i, &t, NULL))
            brute[nb++] = (int)i;
    assert_int_equal(n, nb);
    for (size_t k = 0; k < n; k++)
        if (fgd_groups_nth(g, k) != brute[k])
            fail_msg("task %d: feasible node %zu of %zu is %d, the groups say %d", ti, k, n,
                     brute[k], fgd_groups_nth(g, k));
    assert_int_equal(fgd_groups_nth(g, n), -1);
}

/* Random from the same seed with and without a candidate list. */
static void assert_same_random(fixture *f, void *prep, int ti, uint64_t seed)
{
    policy_spec ps;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("random", &ps, &err), 0);
    rng ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    rng_seed(&ra, seed);
    rng_seed(&rb, seed);
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    ctx.prep = prep;
    placement a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    explain ex;
    explain_init(&ex, NULL, 0);
    ex.want_cands = 1;
    ctx.rng = &ra;
    int oka = ps.ops->place(&ctx, ps.params, ti, &a, NULL);
    ctx.rng = &rb;
    int okb = ps.ops->place(&ctx, ps.params, ti, &b, &ex);
    explain_free(&ex);
    assert_int_equal(oka, okb);
    assert_memory_equal(ra.s, rb.s, sizeof ra.s);    /* as many draws */
    if (oka) {
        assert_int_equal(a.node, b.node);
        assert_int_equal(a.ngpus, b.ngpus);
        assert_memory_equal(a.gpus, b.gpus, (size_t)a.ngpus * sizeof *a.gpus);
    }
}

static void test_random_draw(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 5);
    fixture f;
    fixture_init(&f, &r);
    fgd_groups *g = fgd_groups_new();
    policy_spec rnd;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("random", &rnd, &err), 0);
    void *prep = NULL;
    assert_int_equal(policy_prepare(&rnd, f.cs, f.tr, &prep, &err), 0);
    for (int s = 0; s < 1500; s++) {
        step(&f, &r);
        int ti = (int)rng_below(&r, TASKS);
        assert_same_nth(g, &f, ti);
        if (s % 10 == 0)
            assert_same_random(&f, prep, ti, (uint64_t)s);
    }
    for (int s = 0; s < 3 * CS_CHANGES_RING; s++)
        step(&f, &r);
    assert_same_nth(g, &f, 0);
    assert_same_random(&f, prep, 1, 99);
    policy_release(&rnd, prep);
    fgd_groups_free(g);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unranked),
        cmocka_unit_test(test_ranked),
        cmocka_unit_test(test_equal_ranks),
        cmocka_unit_test(test_random_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
