/*
 * test_pathcomp.c — Tab completion of paths in prompts (ui/pathcomp.c) on
 * a temporary directory: one match (a file gets a space, a directory a
 * slash), several (their common prefix), none, hidden files, the word
 * before the cursor only, and ~/ for $HOME.
 */
#include "testutil.h"

#include <sys/stat.h>

#include "ui/pathcomp.h"

static void touch(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    free(p);
}

static void test_complete(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    touch(dir, "openb_node_list_gpu_node.csv");
    touch(dir, "openb_pod_list_default.csv");
    touch(dir, ".hidden");
    char *sub = xasprintf("%s/pai-data", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    static const struct { const char *typed, *want; int matches; } cases[] = {
        {"openb_n", "openb_node_list_gpu_node.csv ", 1},
        {"openb_", "openb_", 2},            /* nothing shared beyond what is typed */
        {"o", "openb_", 2},
        {"pai", "pai-data/", 1},
        {"zzz", "zzz", 0},
        {".h", ".hidden ", 1},
    };
    char text[512], shown[256];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, "%s/%s", dir, cases[i].typed);
        size_t cur = strlen(text);
        int m = path_complete(text, sizeof text, &cur, shown, sizeof shown);
        char *want = xasprintf("%s/%s", dir, cases[i].want);
        if (m != cases[i].matches || strcmp(text, want) != 0)
            fail_msg("'%s': %d matches, '%s'; wanted %d, '%s'", cases[i].typed, m, text,
                     cases[i].matches, want);
        assert_int_equal(cur, strlen(want));
        free(want);
    }
    /* Several: their names are listed; hidden ones are not. */
    snprintf(text, sizeof text, "%s/", dir);
    size_t cur = strlen(text);
    assert_int_equal(path_complete(text, sizeof text, &cur, shown, sizeof shown), 3);
    assert_null(strstr(shown, ".hidden"));
    assert_non_null(strstr(shown, "pai-data"));
    /* Only the word before the cursor; the rest of the line stays. */
    snprintf(text, sizeof text, "%s/pa name=x", dir);
    cur = strlen(dir) + 3;
    assert_int_equal(path_complete(text, sizeof text, &cur, NULL, 0), 1);
    char *want = xasprintf("%s/pai-data/ name=x", dir);
    assert_string_equal(text, want);
    free(want);
    /* ~/ is $HOME. */
    const char *old_home = getenv("HOME");
    char *saved = old_home ? xstrdup(old_home) : NULL;
    setenv("HOME", dir, 1);
    snprintf(text, sizeof text, "~/openb_p");
    cur = strlen(text);
    assert_int_equal(path_complete(text, sizeof text, &cur, NULL, 0), 1);
    assert_string_equal(text, "~/openb_pod_list_default.csv ");
    if (saved)
        setenv("HOME", saved, 1);
    free(saved);
    free(sub);
    tu_rmrf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete),
    };
    return cmocka_run_group_tests_name("pathcomp", tests, NULL, NULL);
}
