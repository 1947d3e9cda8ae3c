/*
 * test_store_trace_writer.c — the store's one-task-at-a-time trace
 * writer and name set (db/store.h: store_trace_writer, store_names): tasks
 * stored in order with a series set afterwards, nothing stored when the
 * writer ends on an error or without tasks, an existing name refused
 * unless replaced; names found with their line, index and flags, and a
 * repeat reported with the first one's line.
 */
#include "testutil.h"
#include "db/store_int.h"

static task make_task(const char *name, double arrival)
{
    task k;
    task_init(&k);
    snprintf(k.name, sizeof k.name, "%s", name);
    k.arrival_s = arrival;
    k.duration_s = 100;
    k.util.period_s = 10;
    return k;
}

static void test_writer(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    store_trace_writer *w;
    assert_int_equal(store_trace_writer_new(st, "w", "here", 0, &w, &err), 0);
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "t%d", i);
        task k = make_task(name, i);
        assert_int_equal(store_trace_writer_add(w, &k, &err), 0);
        task_release(&k);
    }
    assert_int_equal(store_trace_writer_count(w), 3);
    task k = make_task("t1", 1);
    static const float pct[] = {20, 60, 40};
    task_set_util(&k, pct, 3, 0);      /* the period stays the one added */
    assert_int_equal(store_trace_writer_set_util(w, 1, &k, &err), 0);
    task_release(&k);
    assert_int_equal(store_trace_writer_end(w, 0, &err), 0);

    gp_trace *t;
    assert_int_equal(store_get_trace(st, "w", &t, &err), 0);
    assert_string_equal(t->source, "here");
    assert_int_equal(t->ntasks, 3);
    assert_string_equal(t->tasks[2].name, "t2");
    assert_int_equal(t->tasks[0].util.len, 0);
    assert_int_equal(t->tasks[1].util.len, 3);
    assert_double_equal(t->tasks[1].util.period_s, 10, 0);
    assert_double_equal(t->tasks[1].util_mean, 40, 1e-9);
    assert_double_equal(t->tasks[1].util_peak, 60, 0);
    assert_double_equal(t->tasks[1].util_first, 20, 0);
    trace_free(t);

    /* An existing name, an error, no task: nothing changes. */
    assert_int_equal(store_trace_writer_new(st, "w", NULL, 0, &w, &err), -1);
    tu_assert_contains(err.msg, "already exists");
    assert_int_equal(store_trace_writer_new(st, "w", NULL, 1, &w, &err), 0);
    k = make_task("x", 0);
    assert_int_equal(store_trace_writer_add(w, &k, &err), 0);
    task_release(&k);
    assert_int_equal(store_trace_writer_end(w, -1, &err), -1);
    assert_int_equal(store_get_trace(st, "w", &t, &err), 0);
    assert_int_equal(t->ntasks, 3);     /* the replaced trace is back */
    trace_free(t);
    assert_int_equal(store_trace_writer_new(st, "empty", NULL, 0, &w, &err), 0);
    assert_int_equal(store_trace_writer_end(w, 0, &err), -1);
    tu_assert_contains(err.msg, "at least one task");
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_store_free(st, dir);
}

static void test_names(void **state)
{
    (void)state;
    store_names *n;
    gp_err err = {{0}};
    assert_int_equal(store_names_new(&n, &err), 0);
    store_name_info info;
    assert_int_equal(store_names_add(n, "b", 2, 1, &info, &err), 0);
    assert_int_equal(store_names_add(n, "a", 3, 0, &info, &err), 0);
    assert_int_equal(store_names_add(n, "b", 7, 0, &info, &err), 1);
    assert_int_equal(info.line, 2);
    assert_int_equal(store_names_count(n), 2);
    assert_int_equal(store_names_find(n, "a", &info, &err), 1);
    assert_int_equal(info.index, 1);
    assert_int_equal(info.line, 3);
    assert_int_equal(store_names_find(n, "c", &info, &err), 0);
    assert_int_equal(store_names_set_flags(n, "a", 6, &err), 0);
    assert_int_equal(store_names_find(n, "a", &info, &err), 1);
    assert_int_equal(info.flags, 6);
    store_names_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
