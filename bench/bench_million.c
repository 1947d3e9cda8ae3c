/*
 * bench_million.c — a million tasks end to end, through the gpuplan
 * program as a user runs it (./gpuplan, built by `make`):
 *   1. `generate trace --series 100-600 --out DIR`: $BENCH_TASKS jobs
 *      (default 1,000,000) with training-like series, as a native CSV set;
 *   2. `import DIR`: the streamed native import (time, peak RSS);
 *   3. `run` on a cluster of $BENCH_GPUS V100s (default 100,000) with each
 *      policy of $BENCH_POLICIES (default fgd,cats): time, peak RSS and
 *      what the saved run added to the database.  A run still going after
 *      $BENCH_RUN_LIMIT seconds (default 1200) is stopped and reported so.
 * Arrivals are Poisson at a rate that keeps the cluster about busy (a
 * Gavel job holds its GPU about 17 hours on average).  Each figure is one
 * line; every step's peak RSS is its own process's (wait4).  The targets
 * (1M tasks × 100k GPUs: cats under 10 minutes, fgd under 3, under 4 GB)
 * are read against these lines, not checked here.  Skips with a message
 * when ./gpuplan is missing.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

#define PROGRAM "./gpuplan"

typedef struct step {
    double secs;
    long peak_kib;
    int status;                 /* exit code, -1 when stopped or killed */
} step;

static size_t env_size(const char *name, size_t def)
{
    const char *v = getenv(name);
    long n = v ? atol(v) : 0;
    return n > 0 ? (size_t)n : def;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Runs argv (output to /dev/null unless show), stopping it after limit_s
 * seconds (0 = none). */
static step run_prog(char *const *argv, double limit_s, int show)
{
    step r = {0, 0, -1};
    fflush(stdout);     /* or the child's stdout would repeat what is buffered */
    double t0 = now_seconds();
    pid_t pid = fork();
    if (pid < 0)
        return r;
    if (pid == 0) {
        int null_fd = show ? -1 : open("/dev/null", O_WRONLY);
        if (null_fd >= 0)
            dup2(null_fd, STDOUT_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    for (;;) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid)
            break;
        if (limit_s > 0 && now_seconds() - t0 > limit_s) {
            kill(pid, SIGTERM);
            wait4(pid, &status, 0, &ru);
            r.secs = now_seconds() - t0;
            r.peak_kib = ru.ru_maxrss;
            return r;
        }
        sleep_ms(100);
    }
    r.secs = now_seconds() - t0;
    r.peak_kib = ru.ru_maxrss;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

static double file_mib(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (double)sb.st_size / (1 << 20) : 0;
}

/* The database with its write-ahead log, MiB. */
static double db_mib(const char *db)
{
    char *wal = xasprintf("%s-wal", db);
    double m = file_mib(db) + file_mib(wal);
    free(wal);
    return m;
}

static void report(const char *what, const step *s)
{
    printf("%-44s %9.1f s   peak RSS %8.1f MiB%s\n", what, s->secs, s->peak_kib / 1024.0,
           s->status == 0 ? "" : "   (did not finish)");
    fflush(stdout);
}

/* One policy's run: its line and the saved run's size. */
static void bench_run(const char *db, const char *policy, size_t gpus, double limit_s)
{
    double before = db_mib(db);
    char *argv[] = {PROGRAM, "--db", (char *)db, "run", "--trace", "million", "--cluster",
                    "million", "--policy", (char *)policy, NULL};
    step s = run_prog(argv, limit_s, 0);
    char *what = xasprintf("run %s, %zu GPUs", policy, gpus);
    report(what, &s);
    free(what);
    if (s.status == 0)
        printf("%-44s %9.1f MiB\n", "  saved run (database growth)", db_mib(db) - before);
}

int main(void)
{
    if (access(PROGRAM, X_OK) != 0) {
        printf("bench_million: skipped (no %s: run `make` first)\n", PROGRAM);
        return 0;
    }
    size_t tasks = env_size("BENCH_TASKS", 1000000), gpus = env_size("BENCH_GPUS", 100000);
    double limit_s = (double)env_size("BENCH_RUN_LIMIT", 1200);
    const char *policies = getenv("BENCH_POLICIES") ? getenv("BENCH_POLICIES") : "fgd,cats";
    char tmpl[] = "/tmp/gpuplan-million-XXXXXX";
    if (!mkdtemp(tmpl)) {
        printf("bench_million: skipped (no temporary directory)\n");
        return 0;
    }
    char *db = xasprintf("%s/db.sqlite", tmpl), *dir = xasprintf("%s/set", tmpl);
    char *jobs = xasprintf("%zu", tasks), *rate = xasprintf("%.0f", gpus / 17.0 + 1);
    char *spec = xasprintf("V100:%zu", gpus);
    printf("bench_million: %zu tasks, series of 100-600 samples, %zu GPUs (in %s)\n", tasks,
           gpus, tmpl);

    char *seed[] = {PROGRAM, "--db", db, "list", "traces", NULL};
    char *gen[] = {PROGRAM, "--db", db, "generate", "trace", "--tput", "gavel-like", "--jobs",
                   jobs, "--rate", rate, "--series", "100-600", "--out", dir, NULL};
    char *imp[] = {PROGRAM, "--db", db, "import", "--name", "million", dir, NULL};
    char *cl[] = {PROGRAM, "--db", db, "generate", "cluster", "--gpus", spec, "--per-node",
                  "8", "--name", "million", NULL};
    int ok = run_prog(seed, 0, 0).status == 0;
    step s = {0, 0, -1};
    if (ok) {
        s = run_prog(gen, 0, 0);
        report("generate (native CSV set)", &s);
        ok = s.status == 0;
    }
    if (ok) {
        char *t = xasprintf("%s/tasks.csv", dir), *u = xasprintf("%s/util.csv", dir);
        printf("%-44s %9.1f MiB\n", "  tasks.csv + util.csv", file_mib(t) + file_mib(u));
        free(t);
        free(u);
        double before = db_mib(db);
        s = run_prog(imp, 0, 0);
        report("import (streamed)", &s);
        ok = s.status == 0;
        if (ok)
            printf("%-44s %9.1f MiB\n", "  the trace in the database", db_mib(db) - before);
    }
    if (ok)
        ok = run_prog(cl, 0, 0).status == 0;
    char *list = xstrdup(policies), *save = NULL;
    for (char *p = strtok_r(list, ",", &save); ok && p; p = strtok_r(NULL, ",", &save))
        bench_run(db, p, gpus, limit_s);
    if (!ok)
        printf("bench_million: a step failed; see above\n");
    char *rm = xasprintf("rm -rf '%s'", tmpl);
    if (system(rm) != 0)
        printf("bench_million: could not remove %s\n", tmpl);
    free(rm);
    free(list);
    free(db);
    free(dir);
    free(jobs);
    free(rate);
    free(spec);
    return 0;
}
