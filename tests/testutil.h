/*
 * testutil.h — helpers shared by the cmocka tests: temporary databases and
 * directories, fixture files, row counts, locating ../shared/data, the
 * table-driven run of an importer's malformed inputs, running an importer
 * and reading back what it stored, and glpsol.
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

#include "db/store.h"
#include "db/store_int.h"
#include "core/model.h"
#include "core/util.h"
#include "io/import.h"
#include "samples/seed.h"
#include "samples/seed_int.h"

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

/* Copies the file or directory src to dst with a UTF-8 byte-order mark in
 * front of every regular file, as spreadsheet programs save CSV. */
static inline void tu_copy_with_bom(const char *src, const char *dst)
{
    char *cmd = xasprintf("cp -R '%s' '%s' && find '%s' -type f -exec sh -c 'for f; do "
                          "{ printf \"\\357\\273\\277\"; cat \"$f\"; } > \"$f.bom\" && "
                          "mv \"$f.bom\" \"$f\"; done' sh {} +", src, dst, dst);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* Ways an input can be there and yet unreadable. */
typedef enum tu_unreadable {
    TU_LOOP,                    /* a symbolic link to itself (any user) */
    TU_DIRECTORY,               /* a directory where a file is expected */
    TU_NO_PERMISSION,           /* mode 000 (not for root, who reads anyway) */
    TU_UNREADABLE_COUNT
} tu_unreadable;

/* Makes the file at path unreadable in the given way: 0, or -1 after
 * saying why the case is skipped (mode 000 when running as root). */
static inline int tu_make_unreadable(const char *path, tu_unreadable how)
{
    if (how == TU_NO_PERMISSION && geteuid() == 0) {
        printf("skipped: mode 000 does not keep root from reading %s\n", path);
        return -1;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *cmd = how == TU_LOOP ? xasprintf("rm -rf '%s' && ln -s '%s' '%s'", path, base, path)
              : how == TU_DIRECTORY ? xasprintf("rm -rf '%s' && mkdir '%s'", path, path)
              : xasprintf("chmod 000 '%s'", path);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    return 0;
}

/* The words an importer's message must hold for a file made unreadable. */
static inline const char *tu_unreadable_words(tu_unreadable how)
{
    return how == TU_DIRECTORY ? "is a directory (expected a file)" : "cannot read";
}

/* Asserts that the store's traces a and b hold the same tasks, field by
 * field (utilization series included). */
static inline void tu_assert_same_trace(store *st, const char *a, const char *b)
{
    gp_err err = {{0}};
    gp_trace *ta, *tb;
    if (store_get_trace(st, a, &ta, &err) || store_get_trace(st, b, &tb, &err))
        fail_msg("store_get_trace: %s", err.msg);
    assert_int_equal(ta->ntasks, tb->ntasks);
    for (size_t i = 0; i < ta->ntasks; i++) {
        const task *x = &ta->tasks[i], *y = &tb->tasks[i];
        assert_string_equal(x->name, y->name);
        assert_double_equal(x->arrival_s, y->arrival_s, 0);
        assert_double_equal(x->duration_s, y->duration_s, 0);
        assert_int_equal(x->num_gpu, y->num_gpu);
        assert_int_equal(x->gpu_milli, y->gpu_milli);
        assert_double_equal(x->gpu_mem_gib, y->gpu_mem_gib, 0);
        assert_string_equal(x->gpu_spec ? x->gpu_spec : "", y->gpu_spec ? y->gpu_spec : "");
        assert_double_equal(x->util_mean, y->util_mean, 0);
        assert_int_equal(x->util.len, y->util.len);
        if (x->util.len)
            assert_memory_equal(x->util.pct, y->util.pct, x->util.len * sizeof(float));
    }
    trace_free(ta);
    trace_free(tb);
}

/* A node of `ngpus` GPUs of profile `model` with room to spare in CPU and
 * RAM, added to cl. */
static inline void tu_add_node(cluster *cl, const char *name, const char *model, int ngpus)
{
    node n;
    memset(&n, 0, sizeof n);
    strlcpy0(n.name, name, sizeof n.name);
    strlcpy0(n.gpu_model, model, sizeof n.gpu_model);
    n.gpu_count = ngpus;
    n.cpu_milli = 64000;
    n.ram_mib = 1 << 20;
    cluster_add_node(cl, &n);
}

/* One row of a throughput table: job (m, batch, scale 1) on accel alone
 * (co = "") or next to (co, co_batch), with the pair's two throughputs. */
typedef struct tu_tput_row {
    const char *accel, *m;
    int b;
    const char *co;
    int cb;
    double t, ct;
} tu_tput_row;

static inline void tu_add_tput(tput_catalog *tp, const tu_tput_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tput_entry e;
        memset(&e, 0, sizeof e);
        strlcpy0(e.accel, rows[i].accel, sizeof e.accel);
        strlcpy0(e.model, rows[i].m, sizeof e.model);
        strlcpy0(e.co_model, rows[i].co, sizeof e.co_model);
        e.batch_size = rows[i].b;
        e.scale = 1;
        e.co_batch_size = rows[i].cb;
        e.co_scale = rows[i].co[0] ? 1 : 0;
        e.tput = rows[i].t;
        e.co_tput = rows[i].ct;
        tput_catalog_add(tp, &e);
    }
}

/* What a simulation on heterogeneous GPUs reads: the built-in profiles
 * plus a K80 (class k80, speed 0.3, 12 GiB, 25-150 W), an empty cluster
 * "c", an empty trace "t" and an empty throughput table "tp". */
typedef struct tu_world {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    tput_catalog *tp;
} tu_world;

static inline void tu_world_init(tu_world *w)
{
    memset(w, 0, sizeof *w);
    w->cat = catalog_new();
    catalog_add_builtin(w->cat);
    gpu_profile k80 = *catalog_gpu(w->cat, "V100M16");
    strlcpy0(k80.name, "K80", sizeof k80.name);
    strlcpy0(k80.tput_class, "k80", sizeof k80.tput_class);
    k80.speed = 0.3;
    k80.mem_gib = 12;
    k80.idle_w = 25;
    k80.max_w = 150;
    k80.alpha_w_per_mhz = (k80.max_w - k80.idle_w) / k80.f_max_mhz;
    catalog_add_gpu(w->cat, &k80);
    w->cl = cluster_new("c");
    w->tr = trace_new("t");
    w->tp = tput_catalog_new("tp");
}

static inline void tu_world_free(tu_world *w)
{
    trace_free(w->tr);
    cluster_free(w->cl);
    catalog_free(w->cat);
    tput_catalog_free(w->tp);
}

/* The outcome of task ti in run r (fails the test when there is none). */
static inline const run_outcome *tu_outcome(const run *r, int ti)
{
    for (size_t i = 0; i < r->noutcomes; i++)
        if (r->outcomes[i].task == ti)
            return &r->outcomes[i];
    fail_msg("no outcome for task %d", ti);
    return NULL;
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

/* A new store in a temporary directory seeded with the sample sets, as
 * the CLI makes on first use (run from the project root); *dir as for
 * tu_store_new. */
static inline store *tu_sample_store(char **dir)
{
    *dir = tu_tmpdir();
    assert_non_null(*dir);
    char *path = xasprintf("%s/test.db", *dir);
    store *st = NULL;
    gp_err err = {{0}};
    int created = 0;
    if (store_open(path, &st, &created, &err) || seed_from_dir(st, "sample-data", &err))
        fail_msg("%s", err.msg);
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

/* ---- importing ------------------------------------------------------------
 * The sequence every importer test repeats: run an importer on some paths
 * into a store, stop on its message if it fails, read back what it made. */

/* Runs importer imp on paths[0..n) into st; opts NULL means the defaults,
 * res NULL that the counts are not wanted.  0, or -1 with err set. */
static inline int tu_import(store *st, const importer *imp, const char *const *paths, size_t n,
                            const import_opts *opts, import_result *res, gp_err *err)
{
    import_opts defaults = {0};
    import_result unused;
    return import_run(st, imp, paths, n, opts ? opts : &defaults, res ? res : &unused, err);
}

/* tu_import that must succeed: the test fails with the importer's message. */
static inline void tu_import_ok(store *st, const importer *imp, const char *const *paths,
                                size_t n, const import_opts *opts, import_result *res)
{
    gp_err err = {{0}};
    if (tu_import(st, imp, paths, n, opts, res, &err))
        fail_msg("import with %s: %s", imp->format, err.msg);
}

/* Runs imp on paths[0..n) naming what it makes `name` (the other options
 * the defaults); 0, or -1 with err set. */
static inline int tu_import_as(store *st, const importer *imp, const char *const *paths,
                               size_t n, const char *name, import_result *res, gp_err *err)
{
    import_opts opts = {0};
    opts.name = name;
    return tu_import(st, imp, paths, n, &opts, res, err);
}

/* Writes text as fname in a scratch directory (the operators' importers
 * take host names from file names) and imports it, after the paths
 * before[0..nbefore) (at most 7), as `name`; the importer's 0 or -1. */
static inline int tu_import_text(store *st, const importer *imp, const char *fname,
                                 const char *text, const char *const *before, size_t nbefore,
                                 const char *name, gp_err *err)
{
    char *tmp = tu_tmpdir();
    assert_non_null(tmp);
    assert_true(nbefore < 8);
    tu_write(tmp, fname, text);
    char *path = xasprintf("%s/%s", tmp, fname);
    const char *paths[8];
    for (size_t i = 0; i < nbefore; i++)
        paths[i] = before[i];
    paths[nbefore] = path;
    int rc = tu_import_as(st, imp, paths, nbefore + 1, name, NULL, err);
    free(path);
    tu_rmrf(tmp);
    free(tmp);
    return rc;
}

/* The index of the task called name in tr, which must hold it. */
static inline int tu_find_task(const gp_trace *tr, const char *name)
{
    for (size_t i = 0; i < tr->ntasks; i++)
        if (strcmp(tr->tasks[i].name, name) == 0)
            return (int)i;
    fail_msg("no task %s", name);
    return -1;
}

/* The stored trace / cluster `name`, which must be there; caller frees. */
static inline gp_trace *tu_trace(store *st, const char *name)
{
    gp_err err = {{0}};
    gp_trace *t = NULL;
    if (store_get_trace(st, name, &t, &err))
        fail_msg("store_get_trace '%s': %s", name, err.msg);
    return t;
}

static inline cluster *tu_cluster(store *st, const char *name)
{
    gp_err err = {{0}};
    cluster *c = NULL;
    if (store_get_cluster(st, name, &c, &err))
        fail_msg("store_get_cluster '%s': %s", name, err.msg);
    return c;
}

/* Asserts that the store holds trace `name` with ntasks tasks. */
static inline void tu_assert_trace_tasks(store *st, const char *name, size_t ntasks)
{
    gp_trace *t = tu_trace(st, name);
    assert_int_equal(t->ntasks, ntasks);
    trace_free(t);
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

/* ---- malformed-input tables -------------------------------------------
 * Importer tests list their malformed inputs as data: each case is one file
 * written into a fresh directory, and importing it must fail with a message
 * holding `expect` while leaving the store exactly as it was. */

typedef struct tu_bad_case {
    const char *what;           /* names the case in failure messages */
    const char *file;           /* written into the case's fresh directory */
    const char *content;
    const char *expect;         /* substring of the error message */
} tu_bad_case;

/* One case being run, as its import function sees it. */
typedef struct tu_bad_run {
    const tu_bad_case *c;
    const char *dir;            /* the case's fresh directory */
    const char *path;           /* dir/file, already written */
    const void *arg;            /* as given to tu_run_bad_cases() */
} tu_bad_run;

/* Imports one case, with whatever else it needs (good files of other kinds,
 * told by arg or by the file name).  Returns the importer's result (0 or
 * -1), err its message. */
typedef int (*tu_bad_import)(store *st, const tu_bad_run *r, gp_err *err);

/* Every listing of the store (all kinds), to see that nothing changed. */
typedef struct tu_listing {
    store_item *items[STORE_KIND_COUNT];
    size_t n[STORE_KIND_COUNT];
} tu_listing;

static inline void tu_listing_take(store *st, tu_listing *l)
{
    gp_err err = {{0}};
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        if (store_list(st, (store_kind)k, &l->items[k], &l->n[k], &err))
            fail_msg("store_list: %s", err.msg);
}

static inline void tu_listing_free(tu_listing *l)
{
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        free(l->items[k]);
}

/* Asserts that st lists the same entities (names, counts, details) as
 * before; what names the case. */
static inline void tu_assert_store_unchanged(store *st, const tu_listing *before,
                                             const char *what)
{
    tu_listing now;
    tu_listing_take(st, &now);
    for (int k = 0; k < STORE_KIND_COUNT; k++) {
        if (now.n[k] != before->n[k])
            fail_msg("case '%s': %zu %s entities, expected %zu", what, now.n[k],
                     store_kind_name((store_kind)k), before->n[k]);
        for (size_t i = 0; i < now.n[k]; i++) {
            const store_item *a = &now.items[k][i], *b = &before->items[k][i];
            if (a->id != b->id || strcmp(a->name, b->name) != 0 || a->count != b->count ||
                a->count2 != b->count2 || strcmp(a->detail, b->detail) != 0 ||
                strcmp(a->created, b->created) != 0)
                fail_msg("case '%s': %s '%s' changed", what, store_kind_name((store_kind)k),
                         b->name);
        }
    }
    tu_listing_free(&now);
}

/* Runs each of the n cases against st, or (st NULL) against a new store
 * with the built-in profiles made for the run: c->file is written into a
 * fresh temporary directory, import() must fail with c->expect in its
 * message, and the store must be as it was.  arg is passed on to import(). */
static inline void tu_run_bad_cases_n(store *st, const tu_bad_case *cases, size_t n,
                                      tu_bad_import import, const void *arg)
{
    char *st_dir = NULL;
    if (!st)
        st = tu_store_new(&st_dir);
    for (size_t i = 0; i < n; i++) {
        const tu_bad_case *c = &cases[i];
        tu_listing before;
        tu_listing_take(st, &before);
        char *dir = tu_tmpdir();
        assert_non_null(dir);
        tu_write(dir, c->file, c->content);
        char *path = xasprintf("%s/%s", dir, c->file);
        gp_err err = {{0}};
        tu_bad_run r = {c, dir, path, arg};
        if (import(st, &r, &err) == 0)
            fail_msg("case '%s': import succeeded", c->what);
        if (!strstr(err.msg, c->expect))
            fail_msg("case '%s': expected \"%s\" in \"%s\"", c->what, c->expect, err.msg);
        tu_assert_store_unchanged(st, &before, c->what);
        tu_listing_free(&before);
        free(path);
        tu_rmrf(dir);
        free(dir);
    }
    if (st_dir)
        tu_store_free(st, st_dir);
}

/* tu_run_bad_cases_n() over a whole array of cases. */
#define tu_run_bad_cases(st, cases, import, arg) \
    tu_run_bad_cases_n((st), (cases), sizeof (cases) / sizeof *(cases), (import), (arg))

/* 1 when glpsol (Debian glpk-utils) can be run; otherwise says the test
 * is skipped. */
static inline int tu_have_glpsol(void)
{
    if (system("command -v glpsol >/dev/null 2>&1") == 0)
        return 1;
    printf("skipped: glpsol not installed (Debian package glpk-utils)\n");
    return 0;
}

/* Solves a model file with glpsol (flag "--lp" or "--freemps", optionally
 * followed by more options) and returns the value of its "Objective:  obj
 * = V" line (NaN without one); output files go to dir. */
static inline double tu_glpsol_objective(const char *dir, const char *flag, const char *model)
{
    char *out = xasprintf("%s/glpsol.out", dir);
    char *cmd = xasprintf("glpsol %s '%s' -o '%s' >/dev/null 2>&1", flag, model, out);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    char line[512];
    double v = NAN;
    while (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Objective:");
        if (p && (p = strchr(p, '=')))
            v = strtod(p + 1, NULL);
    }
    fclose(f);
    free(cmd);
    free(out);
    return v;
}

/* Each of files in turn, in a fresh copy of the set good_dir (copied to
 * scratch/set), made unreadable each way: importing the directory must
 * fail with a message naming the file and why. */
static inline void tu_check_unreadable_files(store *st, const char *scratch, const char *good_dir,
                                             const importer *imp, const char *const *files,
                                             size_t nfiles)
{
    for (size_t f = 0; f < nfiles; f++) {
        for (int how = 0; how < TU_UNREADABLE_COUNT; how++) {
            char *set = xasprintf("%s/set", scratch);
            char *cmd = xasprintf("rm -rf '%s' && cp -R '%s' '%s'", set, good_dir, set);
            assert_int_equal(system(cmd), 0);
            char *path = xasprintf("%s/%s", set, files[f]);
            if (tu_make_unreadable(path, (tu_unreadable)how) == 0) {
                gp_err err = {{0}};
                import_opts opts = {.name = "x"};
                import_result res;
                const char *paths[1] = {set};
                if (import_run(st, imp, paths, 1, &opts, &res, &err) == 0)
                    fail_msg("%s made unreadable (way %d): import succeeded", files[f], how);
                tu_assert_contains(err.msg, path);
                tu_assert_contains(err.msg, tu_unreadable_words((tu_unreadable)how));
            }
            free(path);
            free(cmd);
            free(set);
        }
    }
}

#endif
