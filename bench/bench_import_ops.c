/*
 * bench_import_ops.c — importing an operator's cluster at scale: kubectl
 * lists of N servers of 8 H100s each with 8 one-GPU pods per server, and
 * one nvidia-smi CSV of every GPU (a host column), for N = 500, 1000, 2000,
 * 4000, through the k8s importer into a fresh store.  Prints the time per
 * import and per pod: flat per pod when the import is linear in the
 * cluster (nodes and readings are hashed by name, devices keep their own
 * load).  Times are the minimum over repeats.  Not a test: it checks only
 * that each import succeeds with the counts it should.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "db/store.h"
#include "db/store_int.h"
#include "io/import.h"

extern const importer import_k8s;

enum { GPUS_PER_NODE = 8, REPEATS = 3 };

static void write_inputs(const char *dir, int nodes)
{
    char path[512];
    snprintf(path, sizeof path, "%s/nodes.json", dir);
    FILE *n = fopen(path, "w");
    snprintf(path, sizeof path, "%s/pods.json", dir);
    FILE *p = fopen(path, "w");
    snprintf(path, sizeof path, "%s/smi.csv", dir);
    FILE *s = fopen(path, "w");
    if (!n || !p || !s) {
        perror("bench_import_ops: writing inputs");
        exit(1);
    }
    fputs("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n", n);
    fputs("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n", p);
    fputs("host, index, uuid, name, memory.total [MiB], memory.used [MiB], utilization.gpu "
          "[%], power.draw [W], power.limit [W], clocks.current.sm [MHz], clocks.max.sm "
          "[MHz]\n", s);
    for (int i = 0; i < nodes; i++) {
        fprintf(n, "%s{\"kind\": \"Node\", \"metadata\": {\"name\": \"gpu-%05d\", \"labels\": "
                "{\"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\", "
                "\"nvidia.com/gpu.memory\": \"81559\"}}, \"status\": {\"allocatable\": "
                "{\"cpu\": \"192\", \"memory\": \"2Ti\", \"nvidia.com/gpu\": \"%d\"}}}\n",
                i ? "," : "", i, GPUS_PER_NODE);
        for (int k = 0; k < GPUS_PER_NODE; k++) {
            fprintf(p, "%s{\"kind\": \"Pod\", \"metadata\": {\"name\": \"job-%05d-%d\", "
                    "\"namespace\": \"ml\"}, \"spec\": {\"nodeName\": \"gpu-%05d\", "
                    "\"containers\": [{\"resources\": {\"requests\": {\"cpu\": \"8\", "
                    "\"memory\": \"64Gi\", \"nvidia.com/gpu\": \"1\"}}}]}, \"status\": "
                    "{\"phase\": \"Running\"}}\n", i || k ? "," : "", i, k, i);
            fprintf(s, "gpu-%05d, %d, GPU-%08d-%d, NVIDIA H100 80GB HBM3, 81559 MiB, "
                    "40000 MiB, %d %%, 600.00 W, 700.00 W, 1980 MHz, 1980 MHz\n", i, k, i, k,
                    50 + (i + k) % 50);
        }
    }
    fputs("]}\n", n);
    fputs("]}\n", p);
    fclose(n);
    fclose(p);
    fclose(s);
}

static store *fresh_store(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bench.db", dir);
    unlink(path);
    store *st;
    gp_err err = {{0}};
    int created;
    if (store_open(path, &st, &created, &err)) {
        fprintf(stderr, "bench_import_ops: %s\n", err.msg);
        exit(1);
    }
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    for (size_t i = 0; i < cat->ngpus; i++)
        store_put_gpu_profile(st, &cat->gpus[i], &err);
    catalog_free(cat);
    return st;
}

static double import_once(const char *dir, int nodes)
{
    char p[3][512];
    snprintf(p[0], sizeof p[0], "%s/nodes.json", dir);
    snprintf(p[1], sizeof p[1], "%s/pods.json", dir);
    snprintf(p[2], sizeof p[2], "%s/smi.csv", dir);
    const char *paths[] = {p[0], p[1], p[2]};
    store *st = fresh_store(dir);
    import_opts opts = {0};
    opts.name = "bench";
    import_result res;
    gp_err err = {{0}};
    double t0 = now_seconds();
    int rc = import_run(st, &import_k8s, paths, 3, &opts, &res, &err);
    double t = now_seconds() - t0;
    store_close(st);
    if (rc || res.nodes != (size_t)nodes || res.tasks != (size_t)nodes * GPUS_PER_NODE) {
        fprintf(stderr, "bench_import_ops: %s (%zu nodes, %zu tasks)\n", rc ? err.msg : "",
                res.nodes, res.tasks);
        exit(1);
    }
    return t;
}

int main(void)
{
    char dir[] = "/tmp/gpuplan-bench-ops-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_import_ops: mkdtemp");
        return 1;
    }
    static const int sizes[] = {500, 1000, 2000, 4000};
    printf("k8s import (nodes.json, pods.json, nvidia-smi CSV), %d GPUs and pods a server\n",
           GPUS_PER_NODE);
    printf("%8s %8s %10s %12s\n", "servers", "pods", "import_s", "us_per_pod");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        write_inputs(dir, sizes[i]);
        double best = 1e30;
        for (int r = 0; r < REPEATS; r++) {
            double t = import_once(dir, sizes[i]);
            best = t < best ? t : best;
        }
        int pods = sizes[i] * GPUS_PER_NODE;
        printf("%8d %8d %10.3f %12.1f\n", sizes[i], pods, best, 1e6 * best / pods);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
