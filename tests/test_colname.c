/*
 * test_colname.c — ui/colname: Step's score-term headers shortened to
 * their columns (ui layer, no terminal): names that fit stay as they are,
 * the policies' long names read as the rule says, and distinct names stay
 * distinct at every width, however alike they begin.
 */
#include "testutil.h"

#include "ui/colname.h"

static const struct {
    const char *name;
    int width;
    const char *want;
} cases[] = {
    {"rho", 10, "rho"},                     /* fits: unchanged */
    {"est it/s", 10, "est it/s"},
    {"mean_sum_pct", 10, "mean_sum%"},      /* a unit becomes its sign */
    {"delta1_pct", 10, "delta1_pct"},       /* ten fit in ten */
    {"bestfit_norm", 10, "bestft_nrm"},     /* vowels from the last word back */
    {"mem_free_gib", 10, "mem_fre_gb"},
    {"gpuclustering", 10, "gpuclstrng"},
    {"gpuclustering", 6, "gpclst"},         /* no vowels left: the end is cut */
};

static void test_rule(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[1][COLNAME_MAX];
        const char *names[1] = {cases[i].name};
        colname_fit(names, 1, cases[i].width, out);
        if (strcmp(out[0], cases[i].want))
            fail_msg("'%s' in %d: '%s', expected '%s'", cases[i].name, cases[i].width, out[0],
                     cases[i].want);
    }
}

/* Every policy's terms together, and names that only differ at their end,
 * at every width from 2 to 16: each fits and no two read alike. */
static void test_distinct_stay_distinct(void **state)
{
    (void)state;
    static const char *const sets[][8] = {
        {"rho", "dmu", "mean_sum_pct", "score"},
        {"fgd", "pwr", "pwr_norm", "total", "rank"},
        {"bestfit", "bestfit_norm", "total", "rank"},
        {"sum_pct", "q_pct", "mem_free_gib"},
        {"rho", "delta1_pct", "mem_free_gib"},
        {"est it/s", "true it/s", "min it/s"},
        {"bestfit_norm", "bestfit_nor", "bestfit_no", "bestfit_n", "bestfit_"},
        {"aaaaaaaaaaaa1", "aaaaaaaaaaaa2", "aaaaaaaaaaaa3"},
    };
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        size_t n = 0;
        while (n < 8 && sets[s][n])
            n++;
        for (int w = 2; w <= 16; w++) {
            char out[8][COLNAME_MAX];
            colname_fit(sets[s], n, w, out);
            for (size_t i = 0; i < n; i++) {
                assert_true((int)strlen(out[i]) <= w);
                for (size_t k = 0; k < i; k++)
                    if (strcmp(out[i], out[k]) == 0)
                        fail_msg("width %d: '%s' and '%s' both read '%s'", w, sets[s][k],
                                 sets[s][i], out[i]);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_distinct_stay_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
