/*
 * test_suggest.c — core/suggest: which typed names get a "did you mean"
 * and which do not (case, one or two typos, a swap; nothing for a name
 * that is merely short and different), and the distance it rests on.
 */
#include "testutil.h"

#include "core/suggest.h"

static const char *const known[] = {"cats", "corrgpu", "first", "bestfit", "fgd", "pwr-fgd",
                                    "V100", "A100-40GB", "pai-like", "openb-like",
                                    "cats-testbed", "run", "plan", "sweep", "noon"};

static const struct {
    const char *typed;
    const char *want;           /* NULL: no suggestion */
} cases[] = {
    {"CATS", "cats"},                   /* case only */
    {"v100", "V100"},
    {"a100-40gb", "A100-40GB"},
    {"pai_like", "pai-like"},           /* one replaced */
    {"corgpu", "corrgpu"},              /* one dropped */
    {"bestfitt", "bestfit"},            /* one doubled */
    {"frist", "first"},                 /* a swap is one edit */
    {"open-like", "openb-like"},
    {"cats-tesbed", "cats-testbed"},
    {"plna", "plan"},
    {"fdg", "fgd"},                     /* three letters: one edit */
    {"fxx", NULL},                      /* three letters, two edits: too far */
    {"nope", NULL},                     /* four letters, two edits from noon */
    {"x", NULL},
    {"swept", "sweep"},
    {"gogh", NULL},
    {"kubernetes", NULL},
    {"", NULL},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        suggest sg;
        suggest_init(&sg, cases[i].typed);
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            suggest_offer(&sg, known[k]);
        const char *got = suggest_best(&sg);
        if (!cases[i].want && got)
            fail_msg("'%s': suggested '%s', expected none", cases[i].typed, got);
        if (cases[i].want && (!got || strcmp(got, cases[i].want)))
            fail_msg("'%s': suggested '%s', expected '%s'", cases[i].typed,
                     got ? got : "(none)", cases[i].want);
    }
}

/* A case-only match beats a closer-looking typo of another name, and the
 * first of two equally close names wins. */
static void test_ranking(void **state)
{
    (void)state;
    suggest sg;
    suggest_init(&sg, "Plan");
    suggest_offer(&sg, "plat");
    suggest_offer(&sg, "plan");
    assert_string_equal(suggest_best(&sg), "plan");
    suggest_init(&sg, "fgx");
    suggest_offer(&sg, "fgd");
    suggest_offer(&sg, "fga");
    assert_string_equal(suggest_best(&sg), "fgd");
    /* the typed name itself is not a suggestion */
    suggest_init(&sg, "cats");
    suggest_offer(&sg, "cats");
    assert_null(suggest_best(&sg));
    char buf[64];
    assert_string_equal(suggest_hint(&sg, buf, sizeof buf), "");
    suggest_offer(&sg, "Cats");
    assert_string_equal(suggest_hint(&sg, buf, sizeof buf), " (did you mean 'Cats'?)");
}

static void test_distance(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        int limit, want;
    } d[] = {
        {"kitten", "sitting", 5, 3}, {"kitten", "sitting", 2, 3},   /* cut at limit + 1 */
        {"ab", "ba", 2, 1},         {"abc", "ABC", 2, 0},   {"", "abc", 5, 3},
        {"abc", "", 1, 2},          {"flaw", "lawn", 3, 2}, {"same", "same", 0, 0},
    };
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        assert_int_equal(suggest_distance(d[i].a, d[i].b, d[i].limit), d[i].want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
