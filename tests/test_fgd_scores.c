/*
 * test_fgd_scores.c — the fragmentation/power family's scores worked by
 * hand (FGD_NOTES §4–5) on a 2-node, 4-GPU cluster of A10s with known idle
 * lists: each policy's integer scores, normalised scores, the node chosen
 * (ties to the lower rank) and the device; the single-feasible-node
 * shortcut; the normalisation rules; the filter; the FGD fast path against
 * a brute-force F_n; explanations; and the policy registry names.
 *
 * The cluster: node 0 has CPU left 16000 of 32000 and idle [1000, 400];
 * node 1 CPU left 32000 and idle [700, 1000].  The task asks 4000 milli-CPU
 * and 300 milli of one GPU.  FGD's target workload is one class
 * (4000, g 500, 1 GPU) with p = 1.  Ranks: node 1 before node 0.
 */
#include "fgdtest.h"
#include "core/cstate_int.h"

#include <math.h>

#include "policy/fgdscore.h"
#include "policy/fgdscore_int.h"
#include "core/frag.h"
#include "core/frag_int.h"
#include "core/rng.h"

extern const policy_ops policy_fgd, policy_bestfit, policy_dotprod, policy_gpupacking,
    policy_gpuclustering, policy_random, policy_pwr, policy_pwr_fgd;

typedef struct fixture {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;               /* task 0: the incoming task; task 1: the workload class */
    cstate *cs;
    int rank[2];
} fixture;

static fixture *fixture_new(void)
{
    fixture *f = xcalloc(1, sizeof *f);
    f->cat = ft_catalog();
    f->cl = cluster_new("two");
    ft_add_node(f->cl, "n0", "A10", 2, 32000, 65536);
    ft_add_node(f->cl, "n1", "A10", 2, 32000, 65536);
    gp_err err = {{0}};
    f->cs = cstate_new(f->cl, f->cat, &err);
    assert_non_null(f->cs);
    const int idle0[2] = {1000, 400}, idle1[2] = {700, 1000};
    ft_set_node(f->cs, 0, 16000, idle0);
    ft_set_node(f->cs, 1, 32000, idle1);
    f->cs->nodes[0].tag_count[CS_TAG_SHARE] = 1;   /* a sharing task runs on n0 */
    f->cs->nodes[1].tag_count[CS_TAG_1] = 1;       /* a one-GPU task runs on n1 */
    cstate_touch(f->cs, 0);
    cstate_touch(f->cs, 1);
    f->tr = trace_new("t");
    ft_add_tasks(f->tr, "task", 1, 4000, 1, 300, NULL);
    /* The workload class: 19 copies of (4000, 500) outnumber the task so the
     * 95 % cut keeps only them, p = 1. */
    ft_add_tasks(f->tr, "class", 19, 4000, 1, 500, NULL);
    f->rank[0] = 1;
    f->rank[1] = 0;
    return f;
}

static void fixture_free(fixture *f)
{
    cstate_free(f->cs);
    trace_free(f->tr);
    cluster_free(f->cl);
    catalog_free(f->cat);
    free(f);
}

/* Raw score of node ni for task 0 with one scorer. */
static int64_t score_of(fixture *f, fgd_prep *p, fgd_score_fn fn, int ni, int *dev)
{
    fgd_task t;
    fgd_task_of(&f->tr->tasks[0], &t);
    fgd_eval ev = {f->cs, &t, p};
    return fn(&ev, ni, dev, NULL, 0);
}

/* One policy's expected decision. */
typedef struct score_case {
    const char *name;
    fgd_score_fn fn;
    fgd_norm norm;
    int64_t raw[2];
    int64_t normed[2];
    int node, device;           /* the decision (device index within the node) */
} score_case;

static const score_case cases[] = {
    /* FGD: F_before n0 = 400 (its 400 device is below g 500), n1 = 0.
     * n0 dev 0 → [700, 400]: F 400, s = 50; dev 1 → [1000, 100]: F 100,
     * s = trunc(100 σ(0.3)) = 57.  n1 dev 0 → [400, 1000]: F 400,
     * trunc(100 σ(−0.4)) = 40; dev 1 → [700, 700]: F 0, 50. */
    {"fgd", fgd_score_fgd, FGD_NORM_NONE, {57, 50}, {57, 50}, 0, 1},
    /* BestFit: (1 − [0.5 (c − 4000)/128000 + 0.5 (T − 300)/8000]) · 100:
     * n0 (12000, 1100) → 88.4375; n1 (28000, 1400) → 80.3125; min-max
     * normalised 100 and 0; device: smallest idle >= 300 → n0 dev 1. */
    {"bestfit", fgd_score_bestfit, FGD_NORM_MINMAX, {88, 80}, {100, 0}, 0, 1},
    /* DotProd: 100 (1 − dot/2): n0 dot = .125·.03125 + .175·.0375 =
     * .01046875 → 99.48; n1 .25·.03125 + .2125·.0375 = .01578125 → 99.21.
     * Tie at 99: rank gives n1, best fit its dev 0 (700). */
    {"dotprod", fgd_score_dotprod, FGD_NORM_NONE, {99, 99}, {99, 99}, 1, 0},
    /* GpuPacking: both nodes have a used device with room: case 1,
     * 100 − floor(idle·100/1000)/10: n0 uses its 400 device → 96; n1 its
     * 700 device → 93. */
    {"gpupacking", fgd_score_gpupacking, FGD_NORM_NONE, {96, 93}, {96, 93}, 0, 1},
    /* GpuClustering: base 25 (8000 − T)/8000: n0 20, n1 19; n0 holds only
     * sharing tasks (+75), n1 only a one-GPU task (+0). */
    {"gpuclustering", fgd_score_gpuclustering, FGD_NORM_NONE, {95, 19}, {95, 19}, 0, 1},
    /* PWR (A10 30/150 W, one 16-core package): n0 16 cores, 8 busy →
     * 120 W CPU; dev 0 would wake (−120 W), dev 1 is busy already (0).
     * n1 all 16 cores idle (15 W) → one busy package (120 W): −105 W for
     * dev 0 (busy already), −225 W for dev 1.  Normalised 100 and 0. */
    {"pwr", fgd_score_pwr, FGD_NORM_PWR, {0, -105}, {100, 0}, 0, 1},
};

static void test_each_score(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    fgd_prep *p = fgd_prep_new(f->cs, f->tr, 1);
    assert_int_equal(fgd_prep_workload(p)->n, 1);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const score_case *c = &cases[i];
        int64_t raw[2], normed[2];
        for (int ni = 0; ni < 2; ni++) {
            raw[ni] = score_of(f, p, c->fn, ni, NULL);
            if (raw[ni] != c->raw[ni])
                fail_msg("%s: node %d raw %lld, expected %lld", c->name, ni, (long long)raw[ni],
                         (long long)c->raw[ni]);
        }
        fgd_normalise(raw, 2, c->norm, normed);
        for (int ni = 0; ni < 2; ni++)
            if (normed[ni] != c->normed[ni])
                fail_msg("%s: node %d normalised %lld, expected %lld", c->name, ni,
                         (long long)normed[ni], (long long)c->normed[ni]);
        /* The decision through the driver: weight, rank, device. */
        const fgd_term term = {c->name, c->fn, c->norm, 1000,
                               c->fn == fgd_score_fgd || c->fn == fgd_score_pwr, NULL};
        policy_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.cs = f->cs;
        ctx.tr = f->tr;
        ctx.prep = p;
        ctx.node_rank = f->rank;
        placement pl;
        assert_int_equal(fgd_place_scored(&ctx, &term, 1, 0, &pl, NULL), 1);
        if (pl.node != c->node || pl.ngpus != 1 || f->cs->gpus[pl.gpus[0]].dev != c->device)
            fail_msg("%s: chose node %d device %d, expected node %d device %d", c->name,
                     pl.node, f->cs->gpus[pl.gpus[0]].dev, c->node, c->device);
    }
    fgd_prep_free(p);
    fixture_free(f);
}

/* The FGD score's device loop equals the hypothetical states' F_n. */
static void test_fgd_device_scores(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    fgd_prep *p = fgd_prep_new(f->cs, f->tr, 1);
    const frag_workload *w = fgd_prep_workload(p);
    const cs_node *n0 = &f->cs->nodes[0];
    const int before[2] = {1000, 400}, dev0[2] = {700, 400}, dev1[2] = {1000, 100};
    assert_double_equal(frag_node_raw(w, n0, before, 16000), 400, 0);
    assert_double_equal(frag_node_raw(w, n0, dev0, 12000), 400, 0);
    assert_double_equal(frag_node_raw(w, n0, dev1, 12000), 100, 0);
    assert_int_equal((int)(100 / (1 + exp(-0.3))), 57);
    assert_int_equal((int)(100 / (1 + exp(0.4))), 40);
    int dev = -1;
    assert_int_equal(score_of(f, p, fgd_score_fgd, 0, &dev), 57);
    assert_int_equal(dev, 1);
    /* The memo returns the same. */
    assert_int_equal(score_of(f, p, fgd_score_fgd, 0, &dev), 57);
    assert_int_equal(dev, 1);
    assert_int_equal(score_of(f, p, fgd_score_fgd, 1, &dev), 50);
    assert_int_equal(dev, 1);
    fgd_prep_free(p);
    fixture_free(f);
}

/* Random states: FGD's incremental statistics give the brute-force score
 * (F_n recomputed on a copy) for sharing and whole-GPU tasks alike. */
static void test_fgd_fast_path(void **state)
{
    (void)state;
    catalog *cat = ft_catalog();
    cluster *cl = cluster_new("r");
    ft_add_node(cl, "n", "T4", 4, 64000, 65536);
    gp_trace *tr = trace_new("r");
    ft_add_tasks(tr, "a", 5, 4000, 1, 250, NULL);
    ft_add_tasks(tr, "b", 4, 8000, 1, 600, NULL);
    ft_add_tasks(tr, "c", 3, 16000, 2, 1000, NULL);
    ft_add_tasks(tr, "d", 2, 2000, 0, 0, NULL);
    ft_add_tasks(tr, "e", 2, 6000, 1, 400, "T4");
    gp_err err = {{0}};
    cstate *cs = cstate_new(cl, cat, &err);
    fgd_prep *p = fgd_prep_new(cs, tr, 1);
    const frag_workload *w = fgd_prep_workload(p);
    rng r;
    rng_seed(&r, 3);
    for (int it = 0; it < 3000; it++) {
        int idle[4];
        for (int d = 0; d < 4; d++)
            idle[d] = (int)rng_below(&r, 21) * 50;
        int64_t cpu = 16000 + (int64_t)rng_below(&r, 48001);
        ft_set_node(cs, 0, cpu, idle);
        int ti = (int)rng_below(&r, tr->ntasks);
        fgd_task t;
        fgd_task_of(&tr->tasks[ti], &t);
        if (!fgd_feasible(cs, 0, &t, NULL))
            continue;
        fgd_eval ev = {cs, &t, p};
        int dev = -1;
        int64_t s = fgd_score_fgd(&ev, 0, &dev, NULL, 0);
        double f0 = frag_node_raw(w, &cs->nodes[0], idle, cpu);
        int64_t best = -1;
        int best_dev = -1;
        for (int d = 0; d < 4; d++) {
            int after[4];
            memcpy(after, idle, sizeof after);
            if (t.share) {
                if (idle[d] < t.g)
                    continue;
                after[d] -= t.g;
            } else if (d > 0) {
                break;
            } else {
                placement pl;
                fgd_devices_bestfit(cs, 0, &t, &pl);
                for (int i = 0; i < pl.ngpus; i++)
                    after[cs->gpus[pl.gpus[i]].dev] -= t.g;
            }
            double f1 = frag_node_raw(w, &cs->nodes[0], after, cpu - t.cpu);
            int64_t sd = (int64_t)(1.0 / (1.0 + exp(-((f0 - f1) / 1000))) * 100);
            if (best_dev < 0 || sd > best) {
                best = sd;
                best_dev = d;
            }
        }
        assert_int_equal(s, best);
        if (t.share)
            assert_int_equal(dev, best_dev);
    }
    fgd_prep_free(p);
    cstate_free(cs);
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
}

static void test_normalise(void **state)
{
    (void)state;
    const int64_t eq[3] = {-7, -7, -7}, raw[4] = {-300, -100, 0, -250};
    int64_t out[4];
    fgd_normalise(eq, 3, FGD_NORM_MINMAX, out);
    assert_int_equal(out[0], 0);
    fgd_normalise(eq, 3, FGD_NORM_PWR, out);
    assert_int_equal(out[2], 100);
    fgd_normalise(raw, 4, FGD_NORM_PWR, out);
    /* (s − min) · 100 / (max − min) in integers: 0, 66, 100, 16. */
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 66);
    assert_int_equal(out[2], 100);
    assert_int_equal(out[3], 16);
    fgd_normalise(raw, 4, FGD_NORM_NONE, out);
    assert_int_equal(out[3], -250);
    const int cand[3] = {0, 1, 2}, rank[3] = {2, 0, 1};
    const int64_t tot[3] = {5, 5, 4};
    assert_int_equal(fgd_pick(cand, tot, 3, rank), 1);
    assert_int_equal(fgd_pick(cand, tot, 3, NULL), 0);
}

/* PWR+FGD at alpha 0.1: 100 · PWR_norm + 900 · FGD = 61300 for n0 and
 * 45000 for n1; FGD (the heavier) picks the device. */
static void test_combination(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    policy_spec ps;
    gp_err err = {{0}};
    assert_int_equal(policy_spec_parse("pwr+fgd:0.1", &ps, &err), 0);
    assert_ptr_equal(ps.ops, &policy_pwr_fgd);
    assert_double_equal(ps.params[0], 0.1, 0);
    void *prep;
    assert_int_equal(policy_prepare(&ps, f->cs, f->tr, &prep, &err), 0);
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    ctx.prep = prep;
    ctx.node_rank = f->rank;
    explain ex;
    explain_init(&ex, NULL, 0);
    placement pl;
    assert_int_equal(ps.ops->place(&ctx, ps.params, 0, &pl, &ex), 1);
    assert_int_equal(pl.node, 0);
    assert_int_equal(f->cs->gpus[pl.gpus[0]].dev, 1);
    /* Explanation: fgd, pwr, pwr normalised, total, rank. */
    assert_int_equal(ex.nterms, 5);
    assert_string_equal(ex.term_name[3], "total");
    assert_true(ex.chosen >= 0);
    const explain_cand *c = &ex.cands[ex.chosen];
    assert_int_equal(c->node, 0);
    assert_double_equal(c->term[0], 57, 0);
    assert_double_equal(c->term[2], 100, 0);
    assert_double_equal(c->term[3], 61300, 0);
    tu_assert_contains(ex.summary, "n0");
    explain_free(&ex);
    policy_release(&ps, prep);
    assert_int_equal(policy_spec_parse("pwr+fgd:1.5", &ps, &err), -1);
    fixture_free(f);
}

/* One feasible node is taken without scoring; none: the task fails. */
static void test_filter(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    const int idle1[2] = {700, 1000};
    ft_set_node(f->cs, 1, 2000, idle1);                 /* n1: CPU short */
    fgd_task t;
    fgd_task_of(&f->tr->tasks[0], &t);
    const char *why = NULL;
    assert_int_equal(fgd_feasible(f->cs, 1, &t, &why), 0);
    assert_string_equal(why, "CPU short");
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    ctx.node_rank = f->rank;
    policy_spec ps = {.ops = &policy_dotprod};
    gp_err err = {{0}};
    assert_int_equal(policy_prepare(&ps, f->cs, f->tr, &ctx.prep, &err), 0);
    placement pl;
    assert_int_equal(policy_dotprod.place(&ctx, NULL, 0, &pl, NULL), 1);
    assert_int_equal(pl.node, 0);
    /* A GPU type the cluster lacks fits nowhere. */
    free(f->tr->tasks[0].gpu_spec);
    f->tr->tasks[0].gpu_spec = xstrdup("T4|V100M16");
    assert_int_equal(policy_dotprod.place(&ctx, NULL, 0, &pl, NULL), 0);
    fgd_task_of(&f->tr->tasks[0], &t);
    assert_int_equal(fgd_feasible(f->cs, 0, &t, &why), 0);
    assert_string_equal(why, "GPU type not allowed");
    policy_release(&ps, ctx.prep);
    fixture_free(f);
}

/* Random: a feasible node and a device with room, the same for the same
 * seed; whole-GPU tasks take the first free devices. */
static void test_random(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    policy_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cs = f->cs;
    ctx.tr = f->tr;
    policy_spec ps = {.ops = &policy_random};
    gp_err err = {{0}};
    assert_int_equal(policy_prepare(&ps, f->cs, f->tr, &ctx.prep, &err), 0);
    int seen[2] = {0, 0};
    for (uint64_t seed = 0; seed < 40; seed++) {
        rng r1, r2;
        rng_seed(&r1, seed);
        rng_seed(&r2, seed);
        placement a, b;
        ctx.rng = &r1;
        assert_int_equal(policy_random.place(&ctx, NULL, 0, &a, NULL), 1);
        ctx.rng = &r2;
        assert_int_equal(policy_random.place(&ctx, NULL, 0, &b, NULL), 1);
        assert_int_equal(a.node, b.node);
        assert_int_equal(a.gpus[0], b.gpus[0]);
        seen[a.node]++;
        assert_true(cs_gpu_idle_milli(&f->cs->gpus[a.gpus[0]]) >= 300);
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
    policy_release(&ps, ctx.prep);
    fixture_free(f);
}

static void test_registry(void **state)
{
    (void)state;
    const policy_ops *all[] = {&policy_fgd, &policy_bestfit, &policy_dotprod,
                               &policy_gpupacking, &policy_gpuclustering, &policy_random,
                               &policy_pwr, &policy_pwr_fgd};
    const char *names[] = {"fgd", "bestfit", "dotprod", "gpupacking", "gpuclustering",
                           "random", "pwr", "pwr+fgd"};
    for (int i = 0; i < 8; i++) {
        assert_string_equal(all[i]->name, names[i]);
        assert_ptr_equal(policy_find(names[i]), all[i]);
        assert_int_equal(all[i]->family, FAMILY_FRAGMENTATION);
        assert_int_equal(all[i]->power, POWER_EOPC);
        assert_int_equal(all[i]->sleep, 0);
        assert_int_equal(all[i]->dfs, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_score),     cmocka_unit_test(test_fgd_device_scores),
        cmocka_unit_test(test_fgd_fast_path),  cmocka_unit_test(test_normalise),
        cmocka_unit_test(test_combination),    cmocka_unit_test(test_filter),
        cmocka_unit_test(test_random),         cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
