/*
 * harness.c — the shared part of the libFuzzer harnesses (harness.h): the
 * temporary directory, splitting an input into a set's files, the rolled-
 * back in-memory store and the seed writer.
 */
#include "harness.h"
#include "core/hash.h"
#include "db/store_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir_path[256];
static store *fuzz_db;
static uint64_t fuzz_db_digest;     /* of the store as every input finds it */

/* Listing the whole store costs more than most imports: one input in
 * DIGEST_EVERY (chosen by its bytes, so a replay checks the same) has its
 * refusal checked against the listing, for a fifth fewer inputs a second. */
#define DIGEST_EVERY 32

static void remove_tmpdir(void)
{
    if (fuzz_db) {
        store_close(fuzz_db);
        fuzz_db = NULL;
    }
    DIR *d = opendir(tmpdir_path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = xasprintf("%s/%s", tmpdir_path, e->d_name);
        unlink(p);
        free(p);
    }
    closedir(d);
    rmdir(tmpdir_path);
}

const char *fuzz_tmpdir(void)
{
    if (tmpdir_path[0])
        return tmpdir_path;
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir_path, sizeof tmpdir_path, "%s/gpuplan-fuzz-XXXXXX",
             base && base[0] ? base : "/tmp");
    if (!mkdtemp(tmpdir_path)) {
        perror(tmpdir_path);
        abort();
    }
    atexit(remove_tmpdir);
    return tmpdir_path;
}

static void write_all(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        perror(path);
        abort();                /* the harness's own failure, not a finding */
    }
}

char *fuzz_write_file(const char *name, const uint8_t *data, size_t len)
{
    char *path = xasprintf("%s/%s", fuzz_tmpdir(), name);
    write_all(path, data, len);
    return path;
}

size_t fuzz_split(const uint8_t *data, size_t size, const uint8_t **part, size_t *len,
                  size_t max)
{
    size_t n = 0, start = 0;
    for (size_t i = 0; i < size && n + 1 < max; i++) {
        if (data[i] != FUZZ_SEP)
            continue;
        part[n] = data + start;
        len[n++] = i - start;
        start = i + 1;
    }
    part[n] = data + start;
    len[n++] = size - start;
    return n;
}

void fuzz_require_message(const gp_err *err, const char *what)
{
    if (!err->msg[0]) {
        fprintf(stderr, "%s failed without a message\n", what);
        abort();
    }
}

/* A digest of every listing of the store (ids, names, counts, details). */
static uint64_t store_digest(store *st)
{
    uint64_t h = CORE_HASH_INIT;
    for (int k = 0; k < STORE_KIND_COUNT; k++) {
        store_item *items;
        size_t n;
        gp_err err = {{0}};
        if (store_list(st, (store_kind)k, &items, &n, &err)) {
            fprintf(stderr, "store_list: %s\n", err.msg);
            abort();
        }
        h = core_hash_bytes(h, &n, sizeof n);
        for (size_t i = 0; i < n; i++) {
            h = core_hash_bytes(h, &items[i].id, sizeof items[i].id);
            h = core_hash_bytes(h, items[i].name, strlen(items[i].name) + 1);
            h = core_hash_bytes(h, &items[i].count, sizeof items[i].count);
            h = core_hash_bytes(h, &items[i].count2, sizeof items[i].count2);
            h = core_hash_bytes(h, items[i].detail, strlen(items[i].detail) + 1);
        }
        free(items);
    }
    return h;
}

store *fuzz_store(void)
{
    if (fuzz_db)
        return fuzz_db;
    gp_err err = {{0}};
    if (store_open(":memory:", &fuzz_db, NULL, &err)) {
        fprintf(stderr, "store_open: %s\n", err.msg);
        abort();
    }
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    for (size_t i = 0; i < cat->ngpus; i++)
        if (store_put_gpu_profile(fuzz_db, &cat->gpus[i], &err))
            abort();
    for (size_t i = 0; i < cat->ncpus; i++)
        if (store_put_cpu_profile(fuzz_db, &cat->cpus[i], &err))
            abort();
    catalog_free(cat);
    fuzz_db_digest = store_digest(fuzz_db);
    fuzz_tmpdir();              /* so the store closes before the directory goes */
    return fuzz_db;
}

const char *fuzz_seed_dir(void)
{
    const char *d = getenv("GPUPLAN_FUZZ_SEEDS");
    return d && d[0] ? d : NULL;
}

void fuzz_write_seed(const char *name, const void *data, size_t len)
{
    gp_err err = {{0}};
    if (mkdir_p(fuzz_seed_dir(), &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    char *path = xasprintf("%s/%s", fuzz_seed_dir(), name);
    write_all(path, data, len);
    free(path);
}

/* A seed's file name: its first fixture path with '/' made '_'. */
static char *seed_name(const char *path, size_t k)
{
    char *name = xasprintf("seed%zu-%s", k, path);
    for (char *p = name; *p; p++)
        if (*p == '/')
            *p = '_';
    return name;
}

/* Reads a fixture, or exits with a message (seed mode runs before fuzzing,
 * from the project root). */
static char *read_fixture(const char *path, size_t *len)
{
    gp_err err = {{0}};
    char *text = read_file(path, len, &err);
    if (!text) {
        fprintf(stderr, "seeds: %s (run from the project root)\n", err.msg);
        exit(1);
    }
    return text;
}

void fuzz_seed_files(const char *const *paths)
{
    if (!fuzz_seed_dir())
        return;
    for (size_t k = 0; paths[k]; k++) {
        size_t len;
        char *text = read_fixture(paths[k], &len);
        char *name = seed_name(paths[k], k);
        fuzz_write_seed(name, text, len);
        free(name);
        free(text);
    }
    exit(0);
}

static size_t set_nfiles(const fuzz_set *set)
{
    size_t n = 0;
    while (n < FUZZ_MAX_FILES && set->files[n])
        n++;
    return n;
}

/* Joins the fixtures path[0..n) (NULL = absent) with FUZZ_SEP into one seed. */
static void write_bundle(const char *const *path, size_t n, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t flen = 0;
        char *text = path[i] ? read_fixture(path[i], &flen) : NULL;
        buf = xrealloc(buf, len + flen + 1);
        if (i > 0)
            buf[len++] = (char)FUZZ_SEP;
        if (text)
            memcpy(buf + len, text, flen);
        len += flen;
        free(text);
    }
    fuzz_write_seed(name, buf, len);
    free(buf);
}

void fuzz_set_init(const fuzz_set *set)
{
    if (!fuzz_seed_dir())
        return;
    size_t n = set_nfiles(set);
    for (size_t k = 0; set->seed_dirs && set->seed_dirs[k]; k++) {
        const char *path[FUZZ_MAX_FILES] = {0};
        char *owned[FUZZ_MAX_FILES] = {0};
        for (size_t i = 0; i < n; i++) {
            owned[i] = xasprintf("%s/%s", set->seed_dirs[k], set->files[i]);
            if (access(owned[i], R_OK) == 0)
                path[i] = owned[i];
        }
        char *name = seed_name(set->seed_dirs[k], k);
        write_bundle(path, n, name);
        free(name);
        for (size_t i = 0; i < n; i++)
            free(owned[i]);
    }
    for (size_t k = 0; k < set->nseeds; k++) {
        const char *first = NULL;
        for (size_t i = 0; i < n && !first; i++)
            first = set->seeds[k].path[i];
        char *name = seed_name(first ? first : "empty", k);
        write_bundle(set->seeds[k].path, n, name);
        free(name);
    }
    exit(0);
}

void fuzz_set_run(const fuzz_set *set, const uint8_t *data, size_t size)
{
    size_t n = set_nfiles(set);
    const uint8_t *part[FUZZ_MAX_FILES];
    size_t len[FUZZ_MAX_FILES];
    size_t nparts = fuzz_split(data, size, part, len, n);
    char *paths[FUZZ_MAX_FILES];
    size_t npaths = 0;
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", fuzz_tmpdir(), set->files[i]);
        unlink(path);
        if (i < nparts && len[i] > 0) {
            write_all(path, part[i], len[i]);
            paths[npaths++] = path;
        } else {
            free(path);
        }
    }
    const char *dir[1] = {fuzz_tmpdir()};
    const char *const *args = set->as_dir ? dir : (const char *const *)paths;
    size_t nargs = set->as_dir ? 1 : npaths;
    if (nargs > 0) {
        importer_detect(args, nargs);
        store *st = fuzz_store();
        gp_err err = {{0}};
        if (store_begin(st, &err))
            abort();
        import_opts opts = {0};
        opts.name = set->name;
        import_result res;
        int rc = import_run(st, set->imp, args, nargs, &opts, &res, &err);
        char why[1200];
        if (!rc && set->check && set->check(st, set->name, &res, why, sizeof why)) {
            fprintf(stderr, "%s: accepted, but its round trip differs: %s\n",
                    set->imp->format, why);
            abort();
        }
        if (rc) {
            fuzz_require_message(&err, set->imp->format);
            if (core_hash_bytes(0, data, size) % DIGEST_EVERY == 0 && store_digest(st) != fuzz_db_digest) {
                fprintf(stderr, "%s: refused (%s) but changed the store\n", set->imp->format,
                        err.msg);
                abort();
            }
        }
        if (getenv("GPUPLAN_FUZZ_VERBOSE"))
            fprintf(stderr, "%s: %s\n", set->imp->format, rc ? err.msg : res.names);
        store_rollback(st);
    }
    for (size_t i = 0; i < npaths; i++)
        free(paths[i]);
}
