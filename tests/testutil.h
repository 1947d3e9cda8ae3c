/*
 * testutil.h — helpers shared by the cmocka tests: temporary databases and
 * directories, fixture files, row counts, and locating ../shared/data.
 * Header-only (static functions) so each test program stays one file.
 */
#ifndef GP_TESTUTIL_H
#define GP_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../db/store.h"
#include "../src/model.h"
#include "../src/util.h"

/* cmocka 1.1's assert_float_equal rounds to float; compare doubles here. */
#undef assert_double_equal
#define assert_double_equal(a, b, eps) \
    do { \
        double tu_a_ = (a), tu_b_ = (b); \
        if (!(fabs(tu_a_ - tu_b_) <= (eps))) \
            fail_msg("%.17g != %.17g (tolerance %g)", tu_a_, tu_b_, (double)(eps)); \
    } while (0)

/* A fresh temporary directory (mkdtemp); caller frees the string and may
 * remove the directory with tu_rmrf(). */
static inline char *tu_tmpdir(void)
{
    char *d = xstrdup("/tmp/gpuplan-test-XXXXXX");
    if (!mkdtemp(d)) {
        free(d);
        return NULL;
    }
    return d;
}

static inline void tu_rmrf(const char *dir)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", dir);
    free(cmd);
}

/* Writes content to dir/name; asserts on failure. */
static inline void tu_write(const char *dir, const char *name, const char *content)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(content, f);
    fclose(f);
    free(p);
}

/* A new store in a temporary directory with the built-in profiles;
 * *dir receives the directory (free it and tu_rmrf it). */
static inline store *tu_store_new(char **dir)
{
    *dir = tu_tmpdir();
    assert_non_null(*dir);
    char *path = xasprintf("%s/test.db", *dir);
    store *st = NULL;
    gp_err err = {{0}};
    int created = 0;
    if (store_open(path, &st, &created, &err))
        fail_msg("store_open: %s", err.msg);
    assert_int_equal(created, 1);
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    for (size_t i = 0; i < cat->ngpus; i++)
        assert_int_equal(store_put_gpu_profile(st, &cat->gpus[i], &err), 0);
    for (size_t i = 0; i < cat->ncpus; i++)
        assert_int_equal(store_put_cpu_profile(st, &cat->cpus[i], &err), 0);
    catalog_free(cat);
    free(path);
    return st;
}

static inline void tu_store_free(store *st, char *dir)
{
    store_close(st);
    tu_rmrf(dir);
    free(dir);
}

/* How many entities of one kind the store lists. */
static inline size_t tu_count(store *st, store_kind kind)
{
    store_item *items;
    size_t n;
    gp_err err = {{0}};
    if (store_list(st, kind, &items, &n, &err))
        fail_msg("store_list: %s", err.msg);
    free(items);
    return n;
}

/* The shared public data directory ($GPUPLAN_SHARED_DATA, else
 * ../shared/data relative to the project root where tests run), or NULL
 * after printing why the caller skips. */
static inline const char *tu_shared_data(const char *must_exist)
{
    const char *d = getenv("GPUPLAN_SHARED_DATA");
    if (!d || !*d)
        d = "../shared/data";
    char *p = xasprintf("%s/%s", d, must_exist ? must_exist : "");
    int ok = access(p, R_OK) == 0;
    if (!ok)
        printf("skipped: %s not found (public data absent)\n", p);
    free(p);
    return ok ? d : NULL;
}

/* Asserts that haystack contains needle, printing both when not. */
#define tu_assert_contains(haystack, needle) \
    do { \
        if (!strstr((haystack), (needle))) \
            fail_msg("expected \"%s\" in \"%s\"", (needle), (haystack)); \
    } while (0)

#endif
