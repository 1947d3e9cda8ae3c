/*
 * ops_roundtrip.h — the round trip of an import, shared by the unit tests
 * (test_ops_whole.c, test_roundtrip.c) and the fuzz harnesses of every
 * importer whose data has an exporter (tests/fuzz/): what an import
 * stored, exported as CSV and imported again (into the same store, inside
 * the caller's transaction), must be what it was — every field of a
 * trace's tasks and series, of a cluster's nodes and the GPU and CPU
 * profiles its export carries, of a throughput table, of a snapshot's
 * placements and readings, of a PEACE set.  Exercises the io layer's
 * exporters against its importers (native, openb, gavel, peace and the
 * operators').
 *
 * Each check returns 0, or -1 with what differs in why.
 */
#ifndef GP_OPS_ROUNDTRIP_H
#define GP_OPS_ROUNDTRIP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"
#include "core/peaceset.h"
#include "db/store.h"
#include "io/export.h"
#include "io/import.h"

/* The name the copy is imported under. */
#define OPS_RT_COPY "round-trip-copy"

static inline int ops_rt_same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static inline int ops_rt_differ(char *why, size_t len, const char *fmt, const char *what,
                                size_t i)
{
    snprintf(why, len, fmt, what, i);
    return -1;
}

static inline int ops_rt_tasks(const gp_trace *a, const gp_trace *b, char *why, size_t len)
{
    if (a->ntasks != b->ntasks)
        return ops_rt_differ(why, len, "%s: %zu tasks differ in number", "tasks", a->ntasks);
    for (size_t i = 0; i < a->ntasks; i++) {
        const task *x = &a->tasks[i], *y = &b->tasks[i];
        if (strcmp(x->name, y->name) != 0)
            return ops_rt_differ(why, len, "%s %zu: names differ", "task", i);
        if (x->num_gpu != y->num_gpu || x->gpu_milli != y->gpu_milli ||
            !ops_rt_same(x->gpu_mem_gib, y->gpu_mem_gib) ||
            !ops_rt_same(x->duration_s, y->duration_s) ||
            !ops_rt_same(x->arrival_s, y->arrival_s) || x->cpu_milli != y->cpu_milli ||
            x->ram_mib != y->ram_mib)
            return ops_rt_differ(why, len, "%s %zu: demand or times differ", "task", i);
        if (strcmp(x->gpu_spec ? x->gpu_spec : "", y->gpu_spec ? y->gpu_spec : "") != 0 ||
            strcmp(x->qos, y->qos) != 0 || !ops_rt_same(x->kappa, y->kappa) ||
            strcmp(x->model, y->model) != 0 || x->batch_size != y->batch_size ||
            !ops_rt_same(x->min_tput, y->min_tput))
            return ops_rt_differ(why, len, "%s %zu: its GPU models, QoS, SLA or job type "
                                 "differ", "task", i);
        if (!ops_rt_same(x->util_mean, y->util_mean) ||
            !ops_rt_same(x->util_peak, y->util_peak) ||
            !ops_rt_same(x->util_first, y->util_first))
            return ops_rt_differ(why, len, "%s %zu: utilization summaries differ", "task", i);
        if (x->util.len != y->util.len ||
            (x->util.len && (!ops_rt_same(x->util.period_s, y->util.period_s) ||
                             memcmp(x->util.pct, y->util.pct, x->util.len * sizeof(float)))))
            return ops_rt_differ(why, len, "%s %zu: utilization series differ", "task", i);
    }
    return 0;
}

static inline int ops_rt_nodes(const cluster *a, const cluster *b, char *why, size_t len)
{
    if (a->nnodes != b->nnodes)
        return ops_rt_differ(why, len, "%s: %zu nodes differ in number", "cluster", a->nnodes);
    for (size_t i = 0; i < a->nnodes; i++) {
        const node *x = &a->nodes[i], *y = &b->nodes[i];
        if (strcmp(x->name, y->name) != 0 || strcmp(x->gpu_model, y->gpu_model) != 0 ||
            x->gpu_count != y->gpu_count || x->cpu_milli != y->cpu_milli ||
            x->ram_mib != y->ram_mib || strcmp(x->cpu_model, y->cpu_model) != 0 ||
            !ops_rt_same(x->static_w, y->static_w) || !ops_rt_same(x->other_w, y->other_w) ||
            memcmp(x->gpu_mem_gib, y->gpu_mem_gib, sizeof x->gpu_mem_gib) != 0)
            return ops_rt_differ(why, len, "%s %zu differs", "node", i);
    }
    return 0;
}

static inline int ops_rt_compare(const snapshot *a, const snapshot *b, char *why, size_t len)
{
    if (ops_rt_tasks(a->tasks, b->tasks, why, len))
        return -1;
    if (a->nrows != b->nrows)
        return ops_rt_differ(why, len, "%s: %zu rows differ in number", "placements",
                             a->nrows);
    for (size_t i = 0; i < a->nrows; i++)
        if (memcmp(&a->rows[i], &b->rows[i], sizeof a->rows[i]) != 0)
            return ops_rt_differ(why, len, "%s %zu differs", "placement", i);
    if (a->nreadings != b->nreadings)
        return ops_rt_differ(why, len, "%s: %zu readings differ in number", "readings",
                             a->nreadings);
    for (size_t i = 0; i < a->nreadings; i++) {
        const gpu_reading *x = &a->readings[i], *y = &b->readings[i];
        if (x->node != y->node || x->gpu != y->gpu || !ops_rt_same(x->util_pct, y->util_pct) ||
            !ops_rt_same(x->power_w, y->power_w) || !ops_rt_same(x->clock_mhz, y->clock_mhz) ||
            !ops_rt_same(x->mem_used_mib, y->mem_used_mib))
            return ops_rt_differ(why, len, "%s %zu differs", "reading", i);
    }
    return 0;
}

/* Imports the native set in dir as OPS_RT_COPY (replacing an earlier copy). */
static inline int ops_rt_import(store *st, const char *dir, char *why, size_t len)
{
    extern const importer import_native;
    import_opts opts = {0};
    opts.name = OPS_RT_COPY;
    opts.replace = 1;
    import_result res;
    gp_err err = {{0}};
    const char *paths[] = {dir};
    if (import_run(st, &import_native, paths, 1, &opts, &res, &err)) {
        snprintf(why, len, "the export is refused: %s", err.msg);
        return -1;
    }
    return 0;
}

/* The snapshot `name` (and its cluster) exported into dir (made empty by
 * the caller) and imported again equal it. */
static inline int ops_rt_snapshot(store *st, const char *name, const char *dir, char *why,
                                  size_t len)
{
    gp_err err = {{0}};
    snapshot *sn = NULL, *sn2 = NULL;
    cluster *cl = NULL, *cl2 = NULL;
    catalog *cat = NULL;
    int rc = -1;
    if (store_get_snapshot(st, name, &sn, &err) ||
        store_get_cluster(st, sn->cluster_name, &cl, &err) ||
        store_load_catalog(st, &cat, &err)) {
        snprintf(why, len, "loading: %s", err.msg);
        goto out;
    }
    if (export_snapshot_csv(sn, cl, cat, dir, &err)) {
        snprintf(why, len, "export: %s", err.msg);
        goto out;
    }
    if (ops_rt_import(st, dir, why, len))
        goto out;
    if (store_get_snapshot(st, OPS_RT_COPY, &sn2, &err) ||
        store_get_cluster(st, OPS_RT_COPY, &cl2, &err)) {
        snprintf(why, len, "loading the copy: %s", err.msg);
        goto out;
    }
    rc = ops_rt_nodes(cl, cl2, why, len) || ops_rt_compare(sn, sn2, why, len) ? -1 : 0;
out:
    snapshot_free(sn);
    snapshot_free(sn2);
    cluster_free(cl);
    cluster_free(cl2);
    catalog_free(cat);
    return rc;
}

/* The same for a trace. */
static inline int ops_rt_trace(store *st, const char *name, const char *dir, char *why,
                               size_t len)
{
    gp_err err = {{0}};
    gp_trace *tr = NULL, *tr2 = NULL;
    int rc = -1;
    if (store_get_trace(st, name, &tr, &err)) {
        snprintf(why, len, "loading: %s", err.msg);
        goto out;
    }
    if (export_trace_csv(tr, dir, &err)) {
        snprintf(why, len, "export: %s", err.msg);
        goto out;
    }
    if (ops_rt_import(st, dir, why, len))
        goto out;
    if (store_get_trace(st, OPS_RT_COPY, &tr2, &err)) {
        snprintf(why, len, "loading the copy: %s", err.msg);
        goto out;
    }
    rc = ops_rt_tasks(tr, tr2, why, len);
    if (!rc && strcmp(tr->ref_gpu, tr2->ref_gpu) != 0)
        rc = ops_rt_differ(why, len, "%s: the reference GPU differs (%zu tasks)", "trace",
                           tr->ntasks);
out:
    trace_free(tr);
    trace_free(tr2);
    return rc;
}

static inline int ops_rt_gpu_same(const gpu_profile *x, const gpu_profile *y)
{
    return strcmp(x->name, y->name) == 0 && ops_rt_same(x->mem_gib, y->mem_gib) &&
           ops_rt_same(x->idle_w, y->idle_w) && ops_rt_same(x->max_w, y->max_w) &&
           ops_rt_same(x->sleep_w, y->sleep_w) && ops_rt_same(x->f_min_mhz, y->f_min_mhz) &&
           ops_rt_same(x->f_max_mhz, y->f_max_mhz) &&
           ops_rt_same(x->alpha_w_per_mhz, y->alpha_w_per_mhz) && ops_rt_same(x->beta, y->beta) &&
           gpu_price_known(x) == gpu_price_known(y) &&
           (!gpu_price_known(x) || x->price_usd == y->price_usd) &&
           strcmp(x->tput_class, y->tput_class) == 0 && gpu_speed(x) == gpu_speed(y) &&
           strcmp(x->price_source, y->price_source) == 0;
}

/* The store's profiles before (a) and after (b) a copy's import: the
 * profiles the export carried, read again, must not have changed. */
static inline int ops_rt_catalog(const catalog *a, const catalog *b, char *why, size_t len)
{
    if (a->ngpus != b->ngpus || a->ncpus != b->ncpus)
        return ops_rt_differ(why, len, "%s: %zu GPU profiles differ in number", "catalog",
                             a->ngpus);
    for (size_t i = 0; i < a->ngpus; i++) {
        const gpu_profile *y = catalog_gpu(b, a->gpus[i].name);
        if (!y || !ops_rt_gpu_same(&a->gpus[i], y))
            return ops_rt_differ(why, len, "%s %zu differs", "GPU profile", i);
    }
    for (size_t i = 0; i < a->ncpus; i++) {
        const cpu_profile *x = &a->cpus[i], *y = catalog_cpu(b, x->name);
        if (!y || x->cores != y->cores || !ops_rt_same(x->idle_w, y->idle_w) ||
            !ops_rt_same(x->max_w, y->max_w))
            return ops_rt_differ(why, len, "%s %zu differs", "CPU profile", i);
    }
    return 0;
}

/* The cluster `name` with the profiles it uses, exported into dir and
 * imported again: the same nodes, and the store's profiles unchanged. */
static inline int ops_rt_cluster(store *st, const char *name, const char *dir, char *why,
                                 size_t len)
{
    gp_err err = {{0}};
    cluster *cl = NULL, *cl2 = NULL;
    catalog *cat = NULL, *cat2 = NULL;
    int rc = -1;
    if (store_get_cluster(st, name, &cl, &err) || store_load_catalog(st, &cat, &err)) {
        snprintf(why, len, "loading: %s", err.msg);
        goto out;
    }
    if (export_cluster_csv(cl, cat, dir, &err)) {
        snprintf(why, len, "export: %s", err.msg);
        goto out;
    }
    if (ops_rt_import(st, dir, why, len))
        goto out;
    if (store_get_cluster(st, OPS_RT_COPY, &cl2, &err) || store_load_catalog(st, &cat2, &err)) {
        snprintf(why, len, "loading the copy: %s", err.msg);
        goto out;
    }
    rc = ops_rt_nodes(cl, cl2, why, len) || ops_rt_catalog(cat, cat2, why, len) ? -1 : 0;
out:
    cluster_free(cl);
    cluster_free(cl2);
    catalog_free(cat);
    catalog_free(cat2);
    return rc;
}

/* The throughput table `name`, the same way. */
static inline int ops_rt_tput(store *st, const char *name, const char *dir, char *why,
                              size_t len)
{
    gp_err err = {{0}};
    tput_catalog *a = NULL, *b = NULL;
    int rc = -1;
    if (store_get_tput_catalog(st, name, &a, &err)) {
        snprintf(why, len, "loading: %s", err.msg);
        goto out;
    }
    if (export_tput_csv(a, dir, &err)) {
        snprintf(why, len, "export: %s", err.msg);
        goto out;
    }
    if (ops_rt_import(st, dir, why, len))
        goto out;
    if (store_get_tput_catalog(st, OPS_RT_COPY, &b, &err)) {
        snprintf(why, len, "loading the copy: %s", err.msg);
        goto out;
    }
    rc = 0;
    if (a->nentries != b->nentries)
        rc = ops_rt_differ(why, len, "%s: %zu entries differ in number", "throughput table",
                           a->nentries);
    for (size_t i = 0; !rc && i < a->nentries; i++) {
        const tput_entry *x = &a->entries[i], *y = &b->entries[i];
        if (strcmp(x->accel, y->accel) != 0 || strcmp(x->model, y->model) != 0 ||
            x->batch_size != y->batch_size || x->scale != y->scale ||
            strcmp(x->co_model, y->co_model) != 0 || x->co_batch_size != y->co_batch_size ||
            x->co_scale != y->co_scale || !ops_rt_same(x->tput, y->tput) ||
            !ops_rt_same(x->co_tput, y->co_tput))
            rc = ops_rt_differ(why, len, "%s %zu differs", "throughput entry", i);
    }
out:
    tput_catalog_free(a);
    tput_catalog_free(b);
    return rc;
}

static inline int ops_rt_peace_same(const peace_set *a, const peace_set *b, char *why,
                                    size_t len)
{
    if (strcmp(a->gpu, b->gpu) != 0 || !ops_rt_same(a->cap_min_w, b->cap_min_w) ||
        !ops_rt_same(a->cap_max_w, b->cap_max_w))
        return ops_rt_differ(why, len, "%s: GPU or caps differ (%zu workloads)", "PEACE set",
                             a->nwl);
    if (a->nwl != b->nwl || a->nprof != b->nprof || a->nco != b->nco)
        return ops_rt_differ(why, len, "%s: %zu workloads, or the rows, differ in number",
                             "PEACE set", a->nwl);
    for (size_t i = 0; i < a->nwl; i++) {
        const peace_workload *x = &a->wl[i], *y = &b->wl[i];
        if (strcmp(x->name, y->name) != 0 || x->kind != y->kind ||
            x->compute_hi != y->compute_hi || x->memory_hi != y->memory_hi ||
            !ops_rt_same(x->mem_gib, y->mem_gib))
            return ops_rt_differ(why, len, "%s %zu differs", "workload", i);
    }
    for (size_t i = 0; i < a->nprof; i++) {
        const peace_profile *x = &a->prof[i], *y = &b->prof[i];
        int same = x->workload == y->workload && x->share_pct == y->share_pct &&
                   ops_rt_same(x->freq_mhz, y->freq_mhz) && ops_rt_same(x->tput, y->tput) &&
                   ops_rt_same(x->power_w, y->power_w);
        for (int m = 0; same && m < PEACE_NMETRICS; m++)
            same = ops_rt_same(x->metric[m], y->metric[m]);
        if (!same)
            return ops_rt_differ(why, len, "%s %zu differs", "profile row", i);
    }
    for (size_t i = 0; i < a->nco; i++) {
        const peace_coloc *x = &a->co[i], *y = &b->co[i];
        int same = x->n == y->n && ops_rt_same(x->freq_mhz, y->freq_mhz) &&
                   ops_rt_same(x->power_w, y->power_w);
        for (int k = 0; same && k < x->n && k < PEACE_MAX_COLOC; k++)
            same = x->workload[k] == y->workload[k] && x->share_pct[k] == y->share_pct[k] &&
                   ops_rt_same(x->tput[k], y->tput[k]);
        if (!same)
            return ops_rt_differ(why, len, "%s %zu differs", "co-location row", i);
    }
    return 0;
}

/* The PEACE set `name` (with its GPU's profile), exported into dir and
 * imported again: the same set, the store's profiles unchanged. */
static inline int ops_rt_peace(store *st, const char *name, const char *dir, char *why,
                               size_t len)
{
    extern const importer import_peace;
    gp_err err = {{0}};
    peace_set *a = NULL, *b = NULL;
    catalog *cat = NULL, *cat2 = NULL;
    int rc = -1;
    if (store_get_peace_set(st, name, &a, &err) || store_load_catalog(st, &cat, &err)) {
        snprintf(why, len, "loading: %s", err.msg);
        goto out;
    }
    if (export_peace_csv(a, cat, dir, &err)) {
        snprintf(why, len, "export: %s", err.msg);
        goto out;
    }
    import_opts opts = {0};
    opts.name = OPS_RT_COPY;
    opts.replace = 1;
    import_result res;
    const char *paths[] = {dir};
    if (import_run(st, &import_peace, paths, 1, &opts, &res, &err)) {
        snprintf(why, len, "the export is refused: %s", err.msg);
        goto out;
    }
    if (store_get_peace_set(st, OPS_RT_COPY, &b, &err) || store_load_catalog(st, &cat2, &err)) {
        snprintf(why, len, "loading the copy: %s", err.msg);
        goto out;
    }
    rc = ops_rt_peace_same(a, b, why, len) || ops_rt_catalog(cat, cat2, why, len) ? -1 : 0;
out:
    peace_set_free(a);
    peace_set_free(b);
    catalog_free(cat);
    catalog_free(cat2);
    return rc;
}

/* Empties dir of a CSV set (it is reused from one fuzz input to the
 * next: a file left from an earlier export must not be read). */
static inline void ops_rt_clear(const char *dir)
{
    static const char *const files[] = {"gpus.csv", "cpus.csv", "nodes.csv", "tasks.csv",
                                        "util.csv", "tput.csv", "placements.csv",
                                        "readings.csv", "trace.csv", "peace.csv",
                                        "peace_workloads.csv", "peace_profiles.csv",
                                        "peace_colocations.csv", "manifest.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *p = xasprintf("%s/%s", dir, files[i]);
        unlink(p);
        free(p);
    }
    rmdir(dir);
}

/* Runs check on a fresh directory `sub` under tmp, removed after. */
static inline int ops_rt_in(store *st, const char *tmp, const char *sub, const char *name,
                            int (*check)(store *, const char *, const char *, char *, size_t),
                            char *why, size_t len)
{
    char *dir = xasprintf("%s/%s", tmp, sub);
    ops_rt_clear(dir);
    int rc = check(st, name, dir, why, len);
    ops_rt_clear(dir);
    free(dir);
    return rc;
}

/* The round trip of what an import named `name` made (res: a snapshot
 * `name` on its cluster `name`; a trace `name`, or `name`-pending beside a
 * snapshot; a cluster, a throughput table), exported under the scratch
 * directory tmp. */
static inline int ops_rt_import_result(store *st, const char *tmp, const char *name,
                                       const import_result *res, char *why, size_t len)
{
    char *trace = res->snapshots ? xasprintf("%s-pending", name) : xstrdup(name);
    int rc = 0;
    if (res->snapshots)
        rc = ops_rt_in(st, tmp, "rt-snapshot", name, ops_rt_snapshot, why, len);
    else if (res->clusters)
        rc = ops_rt_in(st, tmp, "rt-cluster", name, ops_rt_cluster, why, len);
    if (!rc && res->traces)
        rc = ops_rt_in(st, tmp, "rt-trace", trace, ops_rt_trace, why, len);
    if (!rc && res->tput_entries)
        rc = ops_rt_in(st, tmp, "rt-tput", name, ops_rt_tput, why, len);
    free(trace);
    return rc;
}

/* The round trip of a PEACE set import named `name`. */
static inline int ops_rt_peace_result(store *st, const char *tmp, const char *name,
                                      char *why, size_t len)
{
    return ops_rt_in(st, tmp, "rt-peace", name, ops_rt_peace, why, len);
}

#endif
