/*
 * test_plan_saved.c — a capacity plan's points in the database: the
 * store's round trip (a NaN mean, every JCT to the bit, a job saved twice),
 * the plan's fingerprint (what changes it and what does not), a plan run in
 * two shards into one database read back equal to the plan run whole, and
 * a damaged point refused with a message.
 */
#include "testutil.h"

#include <math.h>
#include <sqlite3.h>

#include "db/store_plan.h"
#include "plan/plan.h"
#include "plan/plan_saved.h"

static void base_params(plan_params *p)
{
    plan_params_default(p);
    snprintf(p->trace, sizeof p->trace, "cats-testbed");
    snprintf(p->gpu, sizeof p->gpu, "V100");
    p->lo = 1;
    p->hi = 6;
    p->jobs = 1;
    snprintf(p->policies[p->npolicies++], GP_NAME_MAX, "cats");
    snprintf(p->policies[p->npolicies++], GP_NAME_MAX, "first");
}

/* Runs the plan to its end (saving what it simulates when save). */
static void run_to_end(store *st, plan *pl, const plan_params *p, int save)
{
    memset(pl, 0, sizeof *pl);
    gp_err err = {{0}};
    if (plan_start(pl, st, p, &err))
        fail_msg("%s", err.msg);
    int n;
    while (plan_tick(pl, 1))
        ;
    if (save && plan_saved_put(pl, st, &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(pl->state, PLAN_DONE);
}

static void fingerprint_of(store *st, const plan_params *p, char out[17])
{
    plan pl;
    memset(&pl, 0, sizeof pl);
    gp_err err = {{0}};
    if (plan_start(&pl, st, p, &err))
        fail_msg("%s", err.msg);
    memcpy(out, pl.fingerprint, 17);
    plan_free(&pl);
}

typedef struct got {
    store_plan_point pts[4];
    int n;
} got;

static int keep_point(void *ctx, store_plan_point *pt, gp_err *err)
{
    (void)err;
    got *g = ctx;
    assert_true(g->n < 4);
    g->pts[g->n++] = *pt;
    return 0;
}

static void test_point_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    double jct[3] = {-1, 1e7 + 0.123456789, 1.0 / 3};
    store_sweep sw = {.fingerprint = "00112233aabbccdd", .kind = "plan", .what = "a plan",
                      .njobs = 4};
    store_plan_point pt = {.job = 2, .gpus = 8, .gpus2 = 3, .ran = 2, .jct_mean = NAN,
                           .jct_p95 = 12.5, .avg_w = 300.25, .span_s = 3600, .ntasks = 3,
                           .jct = jct};
    assert_int_equal(store_put_plan_point(st, &sw, &pt, &err), 0);
    pt.job = 0;
    pt.ntasks = 0;
    assert_int_equal(store_put_plan_point(st, &sw, &pt, &err), 0);
    pt.avg_w = 1;               /* the same job again replaces it */
    assert_int_equal(store_put_plan_point(st, &sw, &pt, &err), 0);

    got g = {.n = 0};
    assert_int_equal(store_get_plan_points(st, "00112233aabbccdd", keep_point, &g, &err), 0);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.pts[0].job, 0);      /* in job order */
    assert_int_equal(g.pts[0].ntasks, 0);
    assert_true(g.pts[0].avg_w == 1);
    const store_plan_point *b = &g.pts[1];
    assert_int_equal(b->job, 2);
    assert_int_equal(b->gpus, 8);
    assert_int_equal(b->gpus2, 3);
    assert_int_equal(b->ran, 2);
    assert_true(isnan(b->jct_mean));
    assert_true(b->jct_p95 == 12.5 && b->avg_w == 300.25 && b->span_s == 3600);
    assert_int_equal(b->ntasks, 3);
    assert_memory_equal(b->jct, jct, sizeof jct);
    for (int i = 0; i < g.n; i++)
        free(g.pts[i].jct);

    g.n = 0;                    /* another plan has none */
    assert_int_equal(store_get_plan_points(st, "ffffffffffffffff", keep_point, &g, &err), 0);
    assert_int_equal(g.n, 0);
    tu_store_free(st, dir);
}

static void test_no_table_no_points(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    got g = {.n = 0};
    assert_int_equal(store_get_plan_points(st, "00112233aabbccdd", keep_point, &g, &err), 0);
    assert_int_equal(g.n, 0);
    tu_store_free(st, dir);
}

/* What is applied on reading (prices, κ, SLA target, threads, shard)
 * leaves the fingerprint; what decides a simulation changes it. */
static void test_fingerprint(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan_params p;
    base_params(&p);
    char fp0[17], fp[17];
    fingerprint_of(st, &p, fp0);
    fingerprint_of(st, &p, fp);
    assert_string_equal(fp, fp0);

    plan_params q = p;
    q.price = 99;
    q.kappa = 1.7;
    q.sla_target_pct = 5;
    q.usd_per_kwh = 0.2;
    q.jobs = 2;
    q.shard.i = 1;
    q.shard.n = 3;
    fingerprint_of(st, &q, fp);
    assert_string_equal(fp, fp0);

    q = p;
    q.hi = 7;
    fingerprint_of(st, &q, fp);
    assert_string_not_equal(fp, fp0);
    q = p;
    q.corr_threshold = 0.3;
    fingerprint_of(st, &q, fp);
    assert_string_not_equal(fp, fp0);
    q = p;
    q.per_server = 4;
    fingerprint_of(st, &q, fp);
    assert_string_not_equal(fp, fp0);
    q = p;
    snprintf(q.policies[1], GP_NAME_MAX, "hotcloud");
    fingerprint_of(st, &q, fp);
    assert_string_not_equal(fp, fp0);
    tu_store_free(st, dir);
}

static void assert_same_results(const plan *a, const plan *b)
{
    assert_int_equal(a->njobs, b->njobs);
    for (int i = 0; i < a->njobs; i++) {
        const plan_result *x = &a->res[i], *y = &b->res[i];
        assert_true(x->done && y->done);
        assert_int_equal(x->policy, y->policy);
        assert_int_equal(x->gpus, y->gpus);
        assert_int_equal(x->ran, y->ran);
        assert_int_equal(x->ntasks, y->ntasks);
        assert_true(x->jct_mean == y->jct_mean || (isnan(x->jct_mean) && isnan(y->jct_mean)));
        assert_true(x->jct_p95 == y->jct_p95 || (isnan(x->jct_p95) && isnan(y->jct_p95)));
        assert_true(x->avg_w == y->avg_w && x->span_s == y->span_s);
        assert_memory_equal(x->jct, y->jct, x->ntasks * sizeof *x->jct);
    }
}

/* Two shards save their halves; a plan without a shard then reads every
 * job and simulates none, and its results equal the plan run whole. */
static void test_shards_read_back(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan_params p;
    base_params(&p);
    plan whole, half, read;
    run_to_end(st, &whole, &p, 0);
    assert_int_equal(whole.nloaded, 0);
    assert_int_equal(whole.npending, whole.njobs);

    for (int i = 0; i < 2; i++) {
        plan_params s = p;
        s.shard.i = i;
        s.shard.n = 2;
        run_to_end(st, &half, &s, 1);
        assert_int_equal(half.npending, (whole.njobs - i + 1) / 2);
        for (int k = 0; k < half.npending; k++)
            assert_int_equal(half.pending[k] % 2, i);
        plan_free(&half);
    }
    run_to_end(st, &read, &p, 0);
    assert_int_equal(read.nloaded, read.njobs);
    assert_int_equal(read.npending, 0);
    assert_true(plan_progress(&read) == 1);
    assert_int_equal(plan_current_job(&read), -1);
    assert_same_results(&whole, &read);
    plan_free(&read);
    plan_free(&whole);
    tu_store_free(st, dir);
}

/* Runs sql on the test database behind the store's back. */
static void damage(const char *dir, const char *sql)
{
    char *path = xasprintf("%s/test.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(path);
}

static void expect_refused(store *st, const plan_params *p, const char *msg)
{
    plan pl;
    memset(&pl, 0, sizeof pl);
    gp_err err = {{0}};
    assert_int_equal(plan_start(&pl, st, p, &err), -1);
    tu_assert_contains(err.msg, msg);
    plan_free(&pl);
}

/* A point whose JCTs do not match the trace (a damaged database) is an
 * error naming the point, not a silently wrong plan. */
static void test_damaged_point_refused(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan_params p;
    base_params(&p);
    p.shard.n = 2;
    plan pl;
    run_to_end(st, &pl, &p, 1);
    plan_free(&pl);
    p.shard.n = 1;
    damage(dir, "UPDATE plan_point SET jct = zeroblob(3) WHERE job = 2");
    expect_refused(st, &p, "plan point 2: 3 bytes of JCTs for 14 tasks");
    damage(dir, "UPDATE plan_point SET ntasks = 1, jct = zeroblob(8) WHERE job = 0");
    expect_refused(st, &p, "saved plan point 0 does not fit plan");
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_round_trip),
        cmocka_unit_test(test_no_table_no_points),
        cmocka_unit_test(test_fingerprint),
        cmocka_unit_test(test_shards_read_back),
        cmocka_unit_test(test_damaged_point_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
