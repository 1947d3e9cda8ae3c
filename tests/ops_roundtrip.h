/*
 * ops_roundtrip.h — the round trip of an operator's import, shared by the
 * unit tests (test_ops_whole.c) and the fuzz harnesses of the operator
 * importers (tests/fuzz/): what an import stored, exported as the native
 * CSV set and imported again (into the same store, inside the caller's
 * transaction), must be what it was — the snapshot's tasks, placements and
 * readings, its cluster's nodes, a trace's tasks and series.  Exercises the
 * io layer's exporters and native importer against the operator importers.
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
            x->ram_mib != y->ram_mib ||
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
out:
    trace_free(tr);
    trace_free(tr2);
    return rc;
}

/* Empties dir of a native set (it is reused from one fuzz input to the
 * next: a file left from an earlier export must not be read). */
static inline void ops_rt_clear(const char *dir)
{
    static const char *const files[] = {"gpus.csv", "cpus.csv", "nodes.csv", "tasks.csv",
                                        "util.csv", "tput.csv", "placements.csv",
                                        "readings.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *p = xasprintf("%s/%s", dir, files[i]);
        unlink(p);
        free(p);
    }
    rmdir(dir);
}

/* The round trip of what an import named `name` made (res: a snapshot
 * `name`; a trace `name`, or `name`-pending beside a snapshot), exported
 * under the scratch directory tmp. */
static inline int ops_rt_import_result(store *st, const char *tmp, const char *name,
                                       const import_result *res, char *why, size_t len)
{
    char *sdir = xasprintf("%s/rt-snapshot", tmp), *tdir = xasprintf("%s/rt-trace", tmp);
    char *trace = res->snapshots ? xasprintf("%s-pending", name) : xstrdup(name);
    ops_rt_clear(sdir);
    ops_rt_clear(tdir);
    int rc = 0;
    if (res->snapshots)
        rc = ops_rt_snapshot(st, name, sdir, why, len);
    if (!rc && res->traces)
        rc = ops_rt_trace(st, trace, tdir, why, len);
    ops_rt_clear(sdir);
    ops_rt_clear(tdir);
    free(sdir);
    free(tdir);
    free(trace);
    return rc;
}

#endif
