/*
 * test_par.c — the thread pool (plan/par.h) and the shard partition
 * (plan/shard.h): results are taken in job order whatever order jobs
 * finish in, for any thread count; the first failure in job order is the
 * one reported, later results are dropped, not leaked; shards partition
 * the work list.
 */
#include "testutil.h"

#include <time.h>

#include "plan/par.h"
#include "plan/shard.h"
#include "plan/shard_int.h"

#define NJOBS 40

typedef struct jobs {
    int fail_at;                /* job that fails, -1 none */
    size_t taken[NJOBS];        /* job numbers in the order taken */
    size_t ntaken;
    int dropped;
    long sum;
} jobs;

/* Later jobs finish sooner: a pool that took results as they come would
 * take them out of order. */
static int work(void *ctx, size_t i, void **out, gp_err *err)
{
    jobs *j = ctx;
    struct timespec nap = {0, (long)(NJOBS - i) * 20000L};
    nanosleep(&nap, NULL);
    if ((int)i == j->fail_at)
        return gp_error(err, "job %zu failed", i);
    long *v = xmalloc(sizeof *v);
    *v = (long)i * (long)i;
    *out = v;
    return 0;
}

static int take(void *ctx, size_t i, void *result, gp_err *err)
{
    (void)err;
    jobs *j = ctx;
    j->taken[j->ntaken++] = i;
    j->sum += *(long *)result;
    free(result);
    return 0;
}

static void drop(void *ctx, size_t i, void *result)
{
    (void)i;
    ((jobs *)ctx)->dropped++;
    free(result);
}

static void test_order_any_threads(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 5; threads++) {
        jobs j = {.fail_at = -1};
        par_job job = {work, take, drop, &j};
        gp_err err = {{0}};
        assert_int_equal(par_run(&job, NJOBS, threads, &err), 0);
        assert_int_equal(j.ntaken, NJOBS);
        for (size_t i = 0; i < NJOBS; i++)
            assert_int_equal(j.taken[i], i);
        assert_int_equal(j.sum, (NJOBS - 1) * NJOBS * (2 * NJOBS - 1) / 6);
        assert_int_equal(j.dropped, 0);
    }
}

static void test_first_failure_in_order(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 4; threads += 3) {
        jobs j = {.fail_at = 7};
        par_job job = {work, take, drop, &j};
        gp_err err = {{0}};
        assert_int_equal(par_run(&job, NJOBS, threads, &err), -1);
        assert_string_equal(err.msg, "job 7 failed");
        assert_int_equal(j.ntaken, 7);          /* 0..6, in order */
        /* Jobs after 7 computed meanwhile were dropped (ASan: not leaked);
         * the window bounds how many. */
        assert_true(j.dropped <= threads * PAR_WINDOW_PER_THREAD);
    }
}

static void test_no_jobs(void **state)
{
    (void)state;
    jobs j = {.fail_at = -1};
    par_job job = {work, take, drop, &j};
    gp_err err = {{0}};
    assert_int_equal(par_run(&job, 0, 4, &err), 0);
    assert_int_equal(j.ntaken, 0);
    assert_true(par_default_threads() >= 1);
}

static void test_shards_partition(void **state)
{
    (void)state;
    shard s;
    gp_err err = {{0}};
    assert_int_equal(shard_parse("2/4", &s, &err), 0);
    assert_int_equal(s.i, 2);
    assert_int_equal(s.n, 4);
    assert_int_equal(shard_parse("4/4", &s, &err), -1);
    assert_int_equal(shard_parse("-1/4", &s, &err), -1);
    assert_int_equal(shard_parse("1/0", &s, &err), -1);
    assert_int_equal(shard_parse("1", &s, &err), -1);
    assert_int_equal(shard_parse("1/4x", &s, &err), -1);
    /* Every job of a 10-job list in exactly one of 4 shards. */
    int seen[10] = {0};
    size_t total = 0;
    for (int i = 0; i < 4; i++) {
        shard sh = {i, 4};
        size_t n = shard_count(sh, 10);
        total += n;
        for (size_t l = 0; l < n; l++) {
            size_t job = shard_job(sh, l);
            assert_true(job < 10);
            assert_int_equal(job % 4, (size_t)i);
            seen[job]++;
        }
    }
    assert_int_equal(total, 10);
    for (int k = 0; k < 10; k++)
        assert_int_equal(seen[k], 1);
    assert_int_equal(shard_count((shard){5, 8}, 3), 0);    /* more shards than jobs */
}

static void test_fingerprint(void **state)
{
    (void)state;
    char a[17], b[17];
    fp_hex(fp_str(fp_str(FP_INIT, "ab"), "c"), a);
    fp_hex(fp_str(fp_str(FP_INIT, "a"), "bc"), b);
    assert_int_equal(strlen(a), 16);
    assert_string_not_equal(a, b);          /* pieces, not their concatenation */
    fp_hex(fp_str(fp_str(FP_INIT, "ab"), "c"), b);
    assert_string_equal(a, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_any_threads),
        cmocka_unit_test(test_first_failure_in_order),
        cmocka_unit_test(test_no_jobs),
        cmocka_unit_test(test_shards_partition),
        cmocka_unit_test(test_fingerprint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
