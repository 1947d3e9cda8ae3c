/*
 * seed.c — first-use filling of the database from the built-in catalog and
 * the sample sets.
 */
#include "seed.h"
#include "seed_int.h"
#include "io/import.h"
#include "core/model.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return xstrdup(buf);
}

char *seed_sample_dir(void)
{
    const char *env = getenv("GPUPLAN_SAMPLES");
    if (env && *env)
        return xstrdup(env);
    char *dir = exe_dir();
    if (!dir)
        return NULL;
    static const char *const rel[] = {"sample-data", "../sample-data",
                                      "../share/gpuplan/sample-data"};
    char *found = NULL;
    for (size_t i = 0; i < 3 && !found; i++) {
        char *p = xasprintf("%s/%s", dir, rel[i]);
        if (import_is_dir(p))
            found = p;
        else
            free(p);
    }
    free(dir);
    return found;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Subdirectories of dir, sorted so seeding is deterministic. */
static char **list_sets(const char *dir, size_t *n, gp_err *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        gp_error(err, "%s: cannot read the sample directory", dir);
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        if (import_is_dir(p)) {
            grow_array((void **)&names, &cap, *n + 1, sizeof *names);
            names[(*n)++] = p;
        } else {
            free(p);
        }
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names ? names : xcalloc(1, sizeof *names);
}

static int put_builtin(store *st, gp_err *err)
{
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    int rc = 0;
    for (size_t i = 0; i < cat->ngpus && !rc; i++)
        rc = store_put_gpu_profile(st, &cat->gpus[i], err);
    for (size_t i = 0; i < cat->ncpus && !rc; i++)
        rc = store_put_cpu_profile(st, &cat->cpus[i], err);
    catalog_free(cat);
    return rc;
}

static int import_sets(store *st, const char *dir, gp_err *err)
{
    size_t n;
    char **sets = list_sets(dir, &n, err);
    if (!sets)
        return -1;
    int rc = 0;
    import_opts opts = {0};
    for (size_t i = 0; i < n && !rc; i++) {
        import_result res;
        const char *paths[1] = {sets[i]};
        /* A native set, or a PEACE set (which may carry native profiles). */
        const importer *imp = importer_detect(paths, 1);
        rc = (imp ? imp : &import_native)->run(st, paths, 1, &opts, &res, err);
    }
    for (size_t i = 0; i < n; i++)
        free(sets[i]);
    free(sets);
    return rc;
}

int seed_from_dir(store *st, const char *dir, gp_err *err)
{
    if (store_begin(st, err))
        return -1;
    if (put_builtin(st, err) || (dir && import_sets(st, dir, err))) {
        store_rollback(st);
        gp_error_prefix(err, "creating the default database");
        return -1;
    }
    return store_commit(st, err);
}

int seed_default(store *st, gp_err *err)
{
    char *dir = seed_sample_dir();
    if (!dir)
        fprintf(stderr, "gpuplan: no sample-data directory found (set GPUPLAN_SAMPLES); "
                        "starting with the built-in profiles only\n");
    /* GOGH's nets are not trained here: that was two thirds of a new
     * database's CPU time, paid before the first command showed anything.
     * The first command that looks them up trains them (gogh_load.h). */
    int rc = seed_from_dir(st, dir, err);
    free(dir);
    return rc;
}
