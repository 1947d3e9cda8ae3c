/*
 * bench_import.c — the native importer on generated sets of n tasks with
 * 20 utilization samples each (util.csv is where a lookup per row would
 * turn quadratic), at n and 2n: a linear import takes about twice as long
 * at 2n, a quadratic one four times.  Then one tasks.csv whose field is 64
 * MiB: refused at CSV_FIELD_MAX, and the peak resident size grows by about
 * that much, not by the field.  Times are minima over repeats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "db/store.h"
#include "db/store_int.h"
#include "io/csvread.h"
#include "io/import.h"

enum { REPEATS = 3, SAMPLES = 20 };

static void write_set(const char *dir, size_t n)
{
    char *p = xasprintf("%s/tasks.csv", dir);
    FILE *f = fopen(p, "w");
    fputs("name,arrival_s,duration_s,util_period_s\n", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "t%zu,%zu,600,30\n", i, i);
    fclose(f);
    free(p);
    p = xasprintf("%s/util.csv", dir);
    f = fopen(p, "w");
    fputs("task,sample,pct\n", f);
    for (size_t i = 0; i < n; i++)
        for (int s = 0; s < SAMPLES; s++)
            fprintf(f, "t%zu,%d,%zu\n", i, s, (i + (size_t)s) % 100);
    fclose(f);
    free(p);
}

/* Seconds to import the set in dir (best of REPEATS, replacing). */
static double time_import(store *st, const char *dir)
{
    double best = 1e30;
    for (int r = 0; r < REPEATS; r++) {
        import_opts o = {.name = "bench", .replace = 1};
        import_result res;
        gp_err err;
        double t0 = now_seconds();
        if (import_run(st, &import_native, &dir, 1, &o, &res, &err)) {
            fprintf(stderr, "bench_import: %s\n", err.msg);
            exit(1);
        }
        double t = now_seconds() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* A 64 MiB field: the error, its time and what it added to the peak. */
static void big_field(store *st, const char *dir)
{
    char *p = xasprintf("%s/tasks.csv", dir);
    FILE *f = fopen(p, "w");
    fputs("name,arrival_s,duration_s\n\"", f);
    char block[4096];       /* small, so it does not raise the peak itself */
    memset(block, 'a', sizeof block);
    for (int i = 0; i < 64 * 256; i++)
        fwrite(block, 1, sizeof block, f);
    fputs("\",0,1\n", f);
    fclose(f);
    long before = peak_kib();
    import_opts o = {.name = "big"};
    import_result res;
    gp_err err;
    double t0 = now_seconds();
    int rc = import_run(st, &import_native, &dir, 1, &o, &res, &err);
    printf("64 MiB field: %s in %.3f s, peak resident +%ld KiB (limit %u KiB)\n",
           rc ? err.msg : "accepted (!)", now_seconds() - t0, peak_kib() - before,
           CSV_FIELD_MAX / 1024);
    unlink(p);
    free(p);
}

int main(void)
{
    char dir[] = "/tmp/gpuplan-bench-import-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char *db = xasprintf("%s/bench.db", dir), *set = xasprintf("%s/set", dir);
    mkdir(set, 0755);
    store *st;
    int created;
    gp_err err;
    if (store_open(db, &st, &created, &err)) {
        fprintf(stderr, "bench_import: %s\n", err.msg);
        return 1;
    }
    big_field(st, set);     /* first: the imports below raise the peak */
    const size_t n = 20000;
    write_set(set, n);
    double t1 = time_import(st, set);
    write_set(set, 2 * n);
    double t2 = time_import(st, set);
    printf("native import, %zu tasks x %d samples: %.3f s; %zu tasks: %.3f s; ratio %.2f "
           "(linear ~2, quadratic ~4)\n", n, SAMPLES, t1, 2 * n, t2, t2 / t1);
    store_close(st);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    free(db);
    free(set);
    return rc == 0 ? 0 : 1;
}
