/*
 * openb_default.h — what the benchmarks of the fragmentation/power family
 * share: the Alibaba 2023 default trace and its cluster, imported from
 * ../shared/data (or $GPUPLAN_SHARED_DATA) into a temporary database.
 * load() says "skipped: ..." in err when the public data is absent, so a
 * bench can exit 0 with that message.
 */
#ifndef GP_BENCH_OPENB_DEFAULT_H
#define GP_BENCH_OPENB_DEFAULT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/store.h"
#include "db/store_int.h"
#include "io/import.h"

extern const importer import_openb;

typedef struct data {
    char dir[64];
    store *st;
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} data;

static inline int load(data *d, gp_err *err)
{
    const char *root = getenv("GPUPLAN_SHARED_DATA");
    root = root && *root ? root : "../shared/data";
    char nodes[512], pods[512], db[128];
    snprintf(nodes, sizeof nodes, "%s/alibaba-gpu-2023/openb_node_list_gpu_node.csv", root);
    snprintf(pods, sizeof pods, "%s/alibaba-gpu-2023/openb_pod_list_default.csv", root);
    if (access(nodes, R_OK) || access(pods, R_OK))
        return gp_error(err, "skipped: %s not found (public data absent)", nodes);
    strlcpy0(d->dir, "/tmp/gpuplan-bench-XXXXXX", sizeof d->dir);
    if (!mkdtemp(d->dir))
        return gp_error(err, "cannot create a temporary directory");
    snprintf(db, sizeof db, "%s/bench.db", d->dir);
    if (store_open(db, &d->st, NULL, err))
        return -1;
    catalog *builtin = catalog_new();
    catalog_add_builtin(builtin);
    for (size_t i = 0; i < builtin->ngpus; i++)
        store_put_gpu_profile(d->st, &builtin->gpus[i], err);
    for (size_t i = 0; i < builtin->ncpus; i++)
        store_put_cpu_profile(d->st, &builtin->cpus[i], err);
    catalog_free(builtin);
    const char *paths[2] = {nodes, pods};
    import_opts opts = {0};
    opts.name = "default";
    import_result res;
    memset(&res, 0, sizeof res);
    if (import_run(d->st, &import_openb, paths, 2, &opts, &res, err) ||
        store_load_catalog(d->st, &d->cat, err) ||
        store_get_cluster(d->st, "default", &d->cl, err) ||
        store_get_trace(d->st, "default", &d->tr, err))
        return -1;
    return 0;
}

static inline void unload(data *d)
{
    trace_free(d->tr);
    cluster_free(d->cl);
    catalog_free(d->cat);
    if (d->st) {
        store_close(d->st);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "warning: could not remove %s\n", d->dir);
    }
}

#endif
