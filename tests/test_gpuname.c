/*
 * test_gpuname.c — core/gpuname: GPUs and nodes named one way for every
 * screen, --explain and the exports (node/gN, node/g0,g1, a node alone;
 * never g-1).
 */
#include "testutil.h"

#include "core/gpuname.h"

static void test_names(void **state)
{
    (void)state;
    char b[64];
    gpu_name(b, sizeof b, "testbed", 0);
    assert_string_equal(b, "testbed/g0");
    gpu_name(b, sizeof b, "ob-node-14", -1);      /* a node-level candidate */
    assert_string_equal(b, "ob-node-14");
    static const struct {
        const char *devs, *want;
    } list[] = {
        {"0", "n/g0"}, {"0,1", "n/g0,g1"}, {"2,3,4,5", "n/g2,g3,g4,g5"}, {"", "n"},
    };
    for (size_t i = 0; i < sizeof list / sizeof *list; i++) {
        gpus_name(b, sizeof b, "n", list[i].devs);
        assert_string_equal(b, list[i].want);
    }
    gpus_name(b, 8, "a-long-node", "0");             /* cut to the buffer, terminated */
    assert_int_equal(strlen(b), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
