/*
 * test_hashtab.c — core/hashtab.h and core/hash.h (layer: core only): put,
 * find, growth, removal by backward shift, keys of equal hash told apart
 * by the caller's equality, the set of 64-bit values, clearing; and the
 * FNV-1a values the fingerprints and sample streams depend on.
 */
#include "testutil.h"

#include "core/hash.h"
#include "core/hashtab.h"

/* Keys are the caller's: an array of strings, the value an index in it. */
typedef struct names {
    char **s;
    size_t n;
} names;

static int name_eq(const void *key, size_t v, const void *ctx)
{
    const names *ns = ctx;
    return strcmp(ns->s[v], key) == 0;
}

/* Every key hashes to the same value: the table must probe past the
 * others and ask name_eq. */
static uint64_t colliding(const char *s)
{
    (void)s;
    return 42;
}

/* The same, on the last slot whatever the size (h * 2^64/phi = ~0), so
 * every run wraps round to slot 0 and removal shifts across the end. */
static uint64_t colliding_last(const char *s)
{
    (void)s;
    return 0x0e217c1e66c88cc3ULL;
}

static void test_fnv_values(void **state)
{
    (void)state;
    /* The published FNV-1a test vectors (64-bit). */
    static const struct {
        const char *s;
        uint64_t h;
    } cases[] = {
        {"", 0xcbf29ce484222325ULL},
        {"a", 0xaf63dc4c8601ec8cULL},
        {"foobar", 0x85944171f73967e8ULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_true(core_str_hash(cases[i].s) == cases[i].h);
        assert_true(core_hash_bytes(CORE_HASH_INIT, cases[i].s, strlen(cases[i].s)) == cases[i].h);
    }
    assert_true(core_hash_word(CORE_HASH_INIT, 'a') == 0xaf63dc4c8601ec8cULL);
}

/* Puts n keys "k0".."k{n-1}" with hash fn, checks each is found, removes
 * every third, checks again, then puts them back. */
static void exercise(size_t n, uint64_t (*hash)(const char *))
{
    names ns = {xcalloc(n, sizeof(char *)), n};
    hashtab *t = hashtab_new(name_eq, &ns);
    for (size_t i = 0; i < n; i++) {
        ns.s[i] = xasprintf("k%zu", i);
        assert_true(hashtab_find(t, hash(ns.s[i]), ns.s[i]) == HASHTAB_NONE);
        assert_true(hashtab_put(t, hash(ns.s[i]), ns.s[i], i) == HASHTAB_NONE);
        assert_true(hashtab_put(t, hash(ns.s[i]), ns.s[i], i + 1) == i);   /* kept */
    }
    assert_int_equal(hashtab_count(t), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(hashtab_find(t, hash(ns.s[i]), ns.s[i]), i);
    assert_true(hashtab_find(t, hash("absent"), "absent") == HASHTAB_NONE);
    size_t removed = 0;
    for (size_t i = 0; i < n; i += 3, removed++)
        assert_int_equal(hashtab_del(t, hash(ns.s[i]), ns.s[i]), i);
    assert_true(n == 0 || hashtab_del(t, hash(ns.s[0]), ns.s[0]) == HASHTAB_NONE);
    assert_int_equal(hashtab_count(t), n - removed);
    for (size_t i = 0; i < n; i++)
        assert_true(hashtab_find(t, hash(ns.s[i]), ns.s[i]) == (i % 3 ? i : HASHTAB_NONE));
    for (size_t i = 0; i < n; i += 3)
        assert_true(hashtab_put(t, hash(ns.s[i]), ns.s[i], i) == HASHTAB_NONE);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(hashtab_find(t, hash(ns.s[i]), ns.s[i]), i);
    hashtab_clear(t);
    assert_int_equal(hashtab_count(t), 0);
    for (size_t i = 0; i < n; i++)
        assert_true(hashtab_find(t, hash(ns.s[i]), ns.s[i]) == HASHTAB_NONE);
    hashtab_free(t);
    for (size_t i = 0; i < n; i++)
        free(ns.s[i]);
    free(ns.s);
}

static void test_strings(void **state)
{
    (void)state;
    /* Sizes around the growth points (16 slots, then doubling at half). */
    static const size_t sizes[] = {0, 1, 7, 8, 9, 17, 100, 20000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        exercise(sizes[i], core_str_hash);
}

static void test_colliding(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 9, 40, 300};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        exercise(sizes[i], colliding);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        exercise(sizes[i], colliding_last);
}

/* A set of 64-bit values (no equality function: the hash is the key),
 * 0 among them, with every other one removed; then cleared. */
static void test_set(void **state)
{
    (void)state;
    hashtab *t = hashtab_new(NULL, NULL);
    uint64_t v[6000];
    for (size_t i = 0; i < 6000; i++) {
        v[i] = i * 0x10001ULL;              /* neighbours, 0 included */
        assert_true(hashtab_put(t, v[i], NULL, 7) == HASHTAB_NONE);
    }
    assert_true(hashtab_put(t, v[5], NULL, 7) == 7);
    for (size_t i = 0; i < 6000; i += 2)
        assert_int_equal(hashtab_del(t, v[i], NULL), 7);
    for (size_t i = 0; i < 6000; i++)
        assert_true(hashtab_find(t, v[i], NULL) == (i % 2 ? 7 : HASHTAB_NONE));
    assert_int_equal(hashtab_count(t), 3000);
    /* Cleared after a few entries, the big table shrinks and works on. */
    hashtab_clear(t);
    for (uint64_t k = 0; k < 3; k++)
        assert_true(hashtab_put(t, k, NULL, (size_t)k) == HASHTAB_NONE);
    hashtab_clear(t);
    for (uint64_t k = 0; k < 100; k++)
        assert_true(hashtab_put(t, k, NULL, (size_t)k) == HASHTAB_NONE);
    for (uint64_t k = 0; k < 100; k++)
        assert_int_equal(hashtab_find(t, k, NULL), k);
    assert_true(hashtab_find(t, v[1], NULL) == HASHTAB_NONE);
    hashtab_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fnv_values),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_colliding),
        cmocka_unit_test(test_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
