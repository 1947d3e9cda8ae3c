/*
 * test_frag_tally.c — the cluster's fragmentation as a running total
 * (core/frag_tally.c, the core layer): after every read it equals a tally
 * started afresh on the same state (so no change was missed), it agrees
 * with frag_cluster's node-order sum to rounding, and it is the same
 * double whatever the order in which the same allocations were made.
 * Read after every change, every few changes, after more changes than the
 * state's ring remembers, with servers opened on the way, and on a clone.
 */
#include "fgdtest.h"

#include <math.h>

#include "core/frag.h"
#include "core/frag_tally.h"
#include "core/rng.h"

/* Popularities 7/15, 5/15, 3/15: F_n values that are not sums of a few
 * powers of two, so the node-order sum rounds on its way. */
static gp_trace *odd_trace(void)
{
    gp_trace *t = trace_new("odd");
    ft_add_tasks(t, "a", 7, 2000, 1, 300, NULL);
    ft_add_tasks(t, "b", 5, 4000, 1, 700, NULL);
    ft_add_tasks(t, "c", 3, 1000, 1, 100, "T4");
    return t;
}

static cluster *mixed_cluster(int nodes)
{
    cluster *c = cluster_new("mixed");
    for (int i = 0; i < nodes; i++) {
        char name[32];
        snprintf(name, sizeof name, "n%d", i);
        ft_add_node(c, name, i % 5 == 4 ? "" : i % 2 ? "T4" : "A10", i % 5 == 4 ? 0 : 4,
                    32000, 131072);
    }
    return c;
}

/* One allocation made, to be released again. */
typedef struct live {
    int task, node, gpu;
} live;

typedef struct world {
    gp_trace *tr;
    frag_workload *w;
    cluster *cl;
    catalog *cat;
    cstate *cs;
    live *on;
    size_t non;
} world;

static void world_init(world *wd, int nodes)
{
    gp_err err = {{0}};
    wd->tr = odd_trace();
    wd->w = frag_workload_new(wd->tr);
    wd->cl = mixed_cluster(nodes);
    wd->cat = ft_catalog();
    wd->cs = cstate_new(wd->cl, wd->cat, &err);
    assert_non_null(wd->cs);
    wd->on = xcalloc(4096, sizeof *wd->on);
    wd->non = 0;
}

static void world_free(world *wd)
{
    cstate_free(wd->cs);
    catalog_free(wd->cat);
    cluster_free(wd->cl);
    frag_workload_free(wd->w);
    trace_free(wd->tr);
    free(wd->on);
}

/* One random change: a task onto a GPU with room for it, or a release. */
static void step(world *wd, rng *r)
{
    cstate *cs = wd->cs;
    if (wd->non > 0 && (wd->non >= 4096 || rng_bernoulli(r, 0.4))) {
        size_t k = rng_below(r, wd->non);
        live l = wd->on[k];
        cstate_release(cs, &wd->tr->tasks[l.task], l.task, l.node, &l.gpu, 1);
        wd->on[k] = wd->on[--wd->non];
        return;
    }
    int ti = (int)rng_below(r, wd->tr->ntasks), g = (int)rng_below(r, cs->ngpus);
    const task *tk = &wd->tr->tasks[ti];
    if (cs_gpu_idle_milli(&cs->gpus[g]) < tk->gpu_milli)
        return;
    int ni = cs->gpus[g].node;
    cstate_alloc(cs, tk, ti, ni, &g, 1);
    wd->on[wd->non++] = (live){ti, ni, g};
}

/* The tally against a fresh one and against the node-order sum. */
static void check(frag_tally *t, world *wd, const char *what, int at)
{
    double got = frag_tally_total(t, wd->w, wd->cs);
    frag_tally *fresh = frag_tally_new();
    double want = frag_tally_total(fresh, wd->w, wd->cs);
    frag_tally_free(fresh);
    if (got != want)
        fail_msg("%s, read %d: running %.17g, afresh %.17g", what, at, got, want);
    double seq = frag_cluster(wd->w, wd->cs);
    if (fabs(got - seq) > 1e-9 * fmax(1, fabs(seq)))
        fail_msg("%s, read %d: tally %.17g, node order %.17g", what, at, got, seq);
}

typedef struct tally_case {
    const char *what;
    int changes_per_read;
    int open_every;             /* open a server every this many reads, 0 = never */
} tally_case;

static const tally_case cases[] = {
    {"every change", 1, 0},
    {"every 7 changes", 7, 0},
    {"past the ring", CS_CHANGES_RING + 300, 0},
    {"servers opened", 3, 5},
};

static void test_running_equals_afresh(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const tally_case *tc = &cases[c];
        world wd;
        world_init(&wd, 40);
        rng r;
        rng_seed(&r, 7 + c);
        frag_tally *t = frag_tally_new();
        check(t, &wd, tc->what, 0);
        int reads = tc->changes_per_read > 100 ? 4 : 150;
        for (int k = 1; k <= reads; k++) {
            for (int i = 0; i < tc->changes_per_read; i++)
                step(&wd, &r);
            if (tc->open_every && k % tc->open_every == 0)
                cstate_open_node(wd.cs, k % 4);
            check(t, &wd, tc->what, k);
        }
        /* A clone is another state: the tally starts over on it. */
        cstate *orig = wd.cs;
        wd.cs = cstate_clone(orig);
        step(&wd, &r);
        check(t, &wd, tc->what, reads + 1);
        cstate_free(wd.cs);
        wd.cs = orig;
        check(t, &wd, tc->what, reads + 2);
        frag_tally_free(t);
        world_free(&wd);
    }
}

/* The same allocations made in two orders end in the same state; the
 * running totals read along the way end at the same double. */
static void test_order_independent(void **state)
{
    (void)state;
    world a, b;
    world_init(&a, 40);
    world_init(&b, 40);
    rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 300; i++)
        step(&a, &r);
    frag_tally *ta = frag_tally_new(), *tb = frag_tally_new();
    /* a: release its allocations first to last; b: build them last to first. */
    live *keep = xmemdup(a.on, a.non * sizeof *a.on);
    size_t n = a.non;
    frag_tally_total(tb, b.w, b.cs);
    for (size_t k = n; k-- > 0;) {
        cstate_alloc(b.cs, &b.tr->tasks[keep[k].task], keep[k].task, keep[k].node, &keep[k].gpu,
                     1);
        frag_tally_total(tb, b.w, b.cs);
    }
    frag_tally_total(ta, a.w, a.cs);
    assert_true(frag_tally_total(ta, a.w, a.cs) == frag_tally_total(tb, b.w, b.cs));
    for (size_t k = 0; k < n; k++) {
        cstate_release(a.cs, &a.tr->tasks[keep[k].task], keep[k].task, keep[k].node,
                       &keep[k].gpu, 1);
        frag_tally_total(ta, a.w, a.cs);
    }
    /* Back to idle: the same as a tally of the idle cluster. */
    frag_tally *idle = frag_tally_new();
    assert_true(frag_tally_total(ta, a.w, a.cs) == frag_tally_total(idle, b.w, a.cs));
    free(keep);
    frag_tally_free(idle);
    frag_tally_free(ta);
    frag_tally_free(tb);
    world_free(&a);
    world_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_running_equals_afresh),
        cmocka_unit_test(test_order_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
