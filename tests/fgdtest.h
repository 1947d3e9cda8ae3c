/*
 * fgdtest.h — helpers for the fragmentation/power family tests: small
 * hand-made clusters and traces, setting a node's idle list directly, and
 * loading the Alibaba 2023 (openb) files through the openb importer into a
 * temporary store.  Header-only (static functions), like testutil.h.
 */
#ifndef GP_FGDTEST_H
#define GP_FGDTEST_H

#include "testutil.h"

#include "core/cstate.h"
#include "core/cstate_int.h"
#include "io/import.h"

extern const importer import_openb;

/* A node of `gpus` devices of `model` ("" = none), cpu milli-cores. */
static inline void ft_add_node(cluster *c, const char *name, const char *model, int gpus,
                               int64_t cpu_milli, int64_t ram_mib)
{
    node n;
    memset(&n, 0, sizeof n);
    strlcpy0(n.name, name, sizeof n.name);
    strlcpy0(n.gpu_model, model, sizeof n.gpu_model);
    n.gpu_count = gpus;
    n.cpu_milli = cpu_milli;
    n.ram_mib = ram_mib;
    strlcpy0(n.cpu_model, "Xeon-E5-2682v4", sizeof n.cpu_model);
    cluster_add_node(c, &n);
}

/* Appends `count` copies of a task (num_gpu 0 = CPU-only; spec may be NULL). */
static inline void ft_add_tasks(gp_trace *t, const char *prefix, int count, int64_t cpu,
                                int num_gpu, int gpu_milli, const char *spec)
{
    for (int i = 0; i < count; i++) {
        task k;
        task_init(&k);
        snprintf(k.name, sizeof k.name, "%s-%03zu", prefix, t->ntasks);
        k.cpu_milli = cpu;
        k.ram_mib = 1024;
        k.num_gpu = num_gpu;
        k.gpu_milli = num_gpu ? gpu_milli : 0;
        if (spec)
            k.gpu_spec = xstrdup(spec);
        trace_add_task(t, &k);
        task_release(&k);
    }
}

/* Sets node ni's CPU left and each device's idle share (FGD's L[i]). */
static inline void ft_set_node(cstate *cs, int ni, int64_t cpu_left, const int *idle)
{
    cs_node *n = &cs->nodes[ni];
    n->cpu_left = cpu_left;
    for (int d = 0; d < n->ngpus; d++)
        cs->gpus[n->gpu0 + d].alloc_milli = 1000 - idle[d];
    cstate_touch(cs, ni);
}

static inline catalog *ft_catalog(void)
{
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    return cat;
}

/* The openb node list and one pod list of ../shared/data, imported into a
 * temporary store and read back; NULL (after printing why) when the data
 * is absent.  *dir receives the store's directory for tu_store_free(). */
typedef struct ft_openb {
    store *st;
    char *dir;
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
} ft_openb;

static inline int ft_openb_load(ft_openb *o, const char *pod_file)
{
    memset(o, 0, sizeof *o);
    const char *d = tu_shared_data("alibaba-gpu-2023/openb_node_list_gpu_node.csv");
    if (!d)
        return -1;
    char *nodes = xasprintf("%s/alibaba-gpu-2023/openb_node_list_gpu_node.csv", d);
    char *pods = xasprintf("%s/alibaba-gpu-2023/%s", d, pod_file);
    const char *paths[] = {nodes, pods};
    o->st = tu_store_new(&o->dir);
    import_opts opts = {0};
    opts.name = "openb";
    import_result res;
    memset(&res, 0, sizeof res);
    gp_err err = {{0}};
    if (import_run(o->st, &import_openb, paths, 2, &opts, &res, &err) ||
        store_get_cluster(o->st, "openb", &o->cl, &err) ||
        store_get_trace(o->st, "openb", &o->tr, &err) ||
        store_load_catalog(o->st, &o->cat, &err))
        fail_msg("openb import: %s", err.msg);
    free(nodes);
    free(pods);
    return 0;
}

static inline void ft_openb_free(ft_openb *o)
{
    trace_free(o->tr);
    cluster_free(o->cl);
    catalog_free(o->cat);
    if (o->st)
        tu_store_free(o->st, o->dir);
}

#endif
