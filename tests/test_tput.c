/*
 * test_tput.c — throughput-table lookups (core/tput.h) on a table written
 * here: solo entries, a pair stored one way and asked the other, a
 * same-type pair whose two halves go to the two jobs, what is not there,
 * and the lists of accelerators and job types.
 */
#include "testutil.h"

#include "core/tput.h"

static void add(tput_catalog *c, const char *accel, const char *m, int b, const char *co,
                int cb, double t, double ct)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.accel, sizeof e.accel, "%s", accel);
    snprintf(e.model, sizeof e.model, "%s", m);
    e.batch_size = b;
    e.scale = 1;
    if (co) {
        snprintf(e.co_model, sizeof e.co_model, "%s", co);
        e.co_batch_size = cb;
        e.co_scale = 1;
    }
    e.tput = t;
    e.co_tput = ct;
    tput_catalog_add(c, &e);
}

static gogh_jobtype jt(const char *m, int b)
{
    gogh_jobtype t;
    memset(&t, 0, sizeof t);
    snprintf(t.model, sizeof t.model, "%s", m);
    t.batch_size = b;
    t.scale = 1;
    return t;
}

static void test_lookups(void **state)
{
    (void)state;
    tput_catalog *c = tput_catalog_new("t");
    add(c, "v100", "ResNet-18", 64, NULL, 0, 10, 0);
    add(c, "k80", "ResNet-18", 64, NULL, 0, 3, 0);
    add(c, "v100", "LM", 20, NULL, 0, 8, 0);
    add(c, "v100", "ResNet-18", 64, "LM", 20, 6, 5);
    add(c, "v100", "LM", 20, "LM", 20, 4.5, 4.0);       /* same type: two halves */
    tput_index *ix = tput_index_new(c);
    gogh_jobtype r = jt("ResNet-18", 64), lm = jt("LM", 20), nope = jt("LM", 10);
    assert_double_equal(tput_solo(ix, "v100", &r), 10, 0);
    assert_double_equal(tput_solo(ix, "k80", &r), 3, 0);
    assert_double_equal(tput_solo(ix, "p100", &r), 0, 0);
    assert_double_equal(tput_solo(ix, "v100", &nope), 0, 0);
    double tk;
    assert_double_equal(tput_pair(ix, "v100", &r, &lm, &tk), 6, 0);
    assert_double_equal(tk, 5, 0);
    assert_double_equal(tput_pair(ix, "v100", &lm, &r, &tk), 5, 0);   /* asked the other way */
    assert_double_equal(tk, 6, 0);
    assert_double_equal(tput_pair(ix, "v100", &lm, &lm, &tk), 4.5, 0);
    assert_double_equal(tk, 4.0, 0);                    /* the second job's half */
    assert_double_equal(tput_pair(ix, "k80", &r, &lm, &tk), 0, 0);
    assert_double_equal(tk, 0, 0);
    assert_int_equal(tput_known(ix, &lm), 1);
    assert_int_equal(tput_known(ix, &nope), 0);
    const char *acc[8];
    assert_int_equal(tput_accels(ix, acc, 8), 2);
    assert_string_equal(acc[0], "v100");
    assert_string_equal(acc[1], "k80");
    gogh_jobtype types[8];
    assert_int_equal(tput_jobtypes(ix, types, 8), 2);
    tput_index_free(ix);
    tput_catalog_free(c);
}

static void test_task_jobtype(void **state)
{
    (void)state;
    task k;
    task_init(&k);
    gogh_jobtype t;
    assert_int_equal(tput_jobtype_of(&k, &t), 0);
    snprintf(k.model, sizeof k.model, "Transformer");
    k.batch_size = 128;
    k.num_gpu = 2;
    assert_int_equal(tput_jobtype_of(&k, &t), 1);
    assert_string_equal(t.model, "Transformer");
    assert_int_equal(t.batch_size, 128);
    assert_int_equal(t.scale, 2);
    task_release(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_task_jobtype),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
