/*
 * test_fgd_memory.c — the policy layer: every policy of the
 * fragmentation/power family places a task only on GPUs whose free memory
 * holds the task's GPU memory (fit.h: GPU memory is one of the four
 * resources every family checks at placement).
 *
 * Three shapes, each for every family policy:
 *   - whole GPU: n0's GPU is too small, n1's is big enough; the family's
 *     tie-break alone would take n0 (the lower index);
 *   - shared GPU: one node, device 0 mostly idle but its memory taken by a
 *     running task, device 1 free; best fit alone would take device 0;
 *   - nowhere: the only GPU is too small, so no placement, and the filter
 *     says why.
 */
#include "fgdtest.h"

#include "core/rng.h"
#include "policy/fgdscore.h"
#include "policy/fgdscore_int.h"

static const char *const family[] = {"fgd",  "pwr",        "pwr+fgd",       "bestfit",
                                     "dotprod", "gpupacking", "gpuclustering", "random"};
#define NFAMILY (sizeof family / sizeof *family)

typedef struct fixture {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    cstate *cs;
    double mem;                 /* the A10's memory, GiB */
} fixture;

/* nodes A10 servers of `gpus` GPUs each; node i's first GPU has
 * first_mem[i] GiB (0 = the profile's). */
static void fixture_init(fixture *f, int nodes, int gpus, const double *first_mem)
{
    memset(f, 0, sizeof *f);
    f->cat = ft_catalog();
    f->mem = catalog_gpu(f->cat, "A10")->mem_gib;
    f->cl = cluster_new("mem");
    for (int i = 0; i < nodes; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        ft_add_node(f->cl, name, "A10", gpus, 32000, 65536);
        f->cl->nodes[i].gpu_mem_gib[0] = first_mem[i];
    }
    gp_err err = {{0}};
    f->cs = cstate_new(f->cl, f->cat, &err);
    assert_non_null(f->cs);
    f->tr = trace_new("t");
}

/* Appends one task of num_gpu GPUs at gpu_milli each and mem GiB. */
static int add_task(fixture *f, int num_gpu, int gpu_milli, double mem)
{
    ft_add_tasks(f->tr, "task", 1, 2000, num_gpu, gpu_milli, NULL);
    f->tr->tasks[f->tr->ntasks - 1].gpu_mem_gib = mem;
    return (int)f->tr->ntasks - 1;
}

static void fixture_free(fixture *f)
{
    cstate_free(f->cs);
    trace_free(f->tr);
    cluster_free(f->cl);
    catalog_free(f->cat);
}

/* Places task ti with the named policy; 1 when placed.  Random draws
 * from a seeded stream. */
static int place_with(fixture *f, const char *name, uint64_t seed, int ti, placement *pl)
{
    policy_spec ps;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse(name, &ps, &err), 0);
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    rng r;
    rng_seed(&r, seed);
    ctx.rng = &r;
    assert_int_equal(policy_prepare(&ps, f->cs, f->tr, &ctx.prep, &err), 0);
    memset(pl, 0, sizeof *pl);
    int ok = ps.ops->place(&ctx, ps.params, ti, pl, NULL);
    policy_release(&ps, ctx.prep);
    return ok;
}

static void assert_memory_holds(const fixture *f, int ti, const placement *pl)
{
    for (int k = 0; k < pl->ngpus; k++) {
        const cs_gpu *g = &f->cs->gpus[pl->gpus[k]];
        if (cs_gpu_mem_free(g) + GP_MEM_EPS_GIB < f->tr->tasks[ti].gpu_mem_gib)
            fail_msg("GPU %d (node %d) has %.1f GiB free for a %.1f GiB task", pl->gpus[k],
                     g->node, cs_gpu_mem_free(g), f->tr->tasks[ti].gpu_mem_gib);
    }
}

static void test_whole_gpu(void **state)
{
    (void)state;
    for (size_t p = 0; p < NFAMILY; p++) {
        fixture f;
        const double first[2] = {8, 0};
        fixture_init(&f, 2, 1, first);
        int ti = add_task(&f, 1, 1000, f.mem - 4);
        for (uint64_t seed = 0; seed < 8; seed++) {
            placement pl;
            if (!place_with(&f, family[p], seed, ti, &pl))
                fail_msg("%s: not placed", family[p]);
            if (pl.node != 1)
                fail_msg("%s placed a %.0f GiB task on n%d's 8 GiB GPU", family[p],
                         f.mem - 4, pl.node);
            assert_memory_holds(&f, ti, &pl);
        }
        fixture_free(&f);
    }
}

static void test_shared_gpu(void **state)
{
    (void)state;
    for (size_t p = 0; p < NFAMILY; p++) {
        fixture f;
        const double first[1] = {0};
        fixture_init(&f, 1, 2, first);
        /* Device 0: 200 milli and all but 4 GiB of its memory taken. */
        int big = add_task(&f, 1, 200, f.mem - 4);
        int g0 = f.cs->nodes[0].gpu0;
        cstate_alloc(f.cs, &f.tr->tasks[big], big, 0, &g0, 1);
        int ti = add_task(&f, 1, 300, 10);
        for (uint64_t seed = 0; seed < 8; seed++) {
            placement pl;
            if (!place_with(&f, family[p], seed, ti, &pl))
                fail_msg("%s: not placed", family[p]);
            assert_int_equal(pl.ngpus, 1);
            if (pl.gpus[0] != g0 + 1)
                fail_msg("%s shared device %d, whose memory is taken", family[p],
                         pl.gpus[0] - g0);
            assert_memory_holds(&f, ti, &pl);
        }
        fixture_free(&f);
    }
}

static void test_nowhere(void **state)
{
    (void)state;
    for (size_t p = 0; p < NFAMILY; p++) {
        fixture f;
        const double first[1] = {8};
        fixture_init(&f, 1, 1, first);
        int ti = add_task(&f, 1, 500, 12);
        placement pl;
        if (place_with(&f, family[p], 1, ti, &pl))
            fail_msg("%s placed a 12 GiB task on an 8 GiB GPU", family[p]);
        fixture_free(&f);
    }
    fixture f;
    const double first[1] = {8};
    fixture_init(&f, 1, 1, first);
    int ti = add_task(&f, 1, 500, 12);
    fgd_task t;
    fgd_task_of(&f.tr->tasks[ti], &t);
    const char *why = NULL;
    assert_int_equal(fgd_feasible(f.cs, 0, &t, &why), 0);
    assert_string_equal(why, "GPU memory short");
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_gpu),
        cmocka_unit_test(test_shared_gpu),
        cmocka_unit_test(test_nowhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
