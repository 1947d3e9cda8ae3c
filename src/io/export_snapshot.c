/*
 * export_snapshot.c — a snapshot out of the store (export.h): the native
 * CSV set (its cluster's, its tasks', placements.csv, and readings.csv
 * when monitors read its GPUs) or one JSON document.  Loading the
 * snapshot, its cluster and catalog, and measuring its fragmentation are
 * the caller's.
 */
#include "export.h"
#include "export_set.h"
#include "table.h"

#include <jansson.h>
#include <math.h>

double export_gpu_mem_total_mib(const node *n, int gpu, const catalog *cat)
{
    if (gpu >= 0 && gpu < GP_NODE_MAX_GPUS && n->gpu_mem_gib[gpu] > 0)
        return n->gpu_mem_gib[gpu] * 1024.0;
    const gpu_profile *g = catalog_gpu(cat, n->gpu_model);
    return g ? g->mem_gib * 1024.0 : 0;
}

static int write_placements(export_set *set, const snapshot *sn, const cluster *c,
                            gp_err *err)
{
    FILE *f = export_set_open(set, "placements.csv", err);
    if (!f)
        return -1;
    fputs("task,node,gpu,gpu_milli\n", f);
    for (size_t i = 0; i < sn->nrows; i++) {
        const placement_row *r = &sn->rows[i];
        csv_put(f, sn->tasks->tasks[r->task].name);
        fputc(',', f);
        csv_put(f, c->nodes[r->node].name);
        fprintf(f, ",%d,%d\n", r->gpu, r->gpu_milli);
    }
    return export_set_close(set, f, "placements.csv", err);
}

/* A reading's value, an empty cell when the monitor did not say. */
static void reading_cell(FILE *f, double v, int last)
{
    if (isnan(v))
        fputs(last ? "\n" : ",", f);
    else
        export_num(f, v, last);
}

static int write_readings(export_set *set, const snapshot *sn, const cluster *c,
                          const catalog *cat, gp_err *err)
{
    FILE *f = export_set_open(set, "readings.csv", err);
    if (!f)
        return -1;
    fputs("node,gpu,util_pct,power_w,clock_mhz,mem_used_mib,mem_total_mib\n", f);
    for (size_t i = 0; i < sn->nreadings; i++) {
        const gpu_reading *r = &sn->readings[i];
        if (r->node < 0 || (size_t)r->node >= c->nnodes)
            continue;           /* a reading of no node of c: nothing to name it by */
        const node *n = &c->nodes[r->node];
        csv_put(f, n->name);
        fprintf(f, ",%d,", r->gpu);
        reading_cell(f, r->util_pct, 0);
        reading_cell(f, r->power_w, 0);
        reading_cell(f, r->clock_mhz, 0);
        reading_cell(f, r->mem_used_mib, 0);
        export_num(f, export_gpu_mem_total_mib(n, r->gpu, cat), 1);
    }
    return export_set_close(set, f, "readings.csv", err);
}

int export_snapshot_csv(const snapshot *sn, const cluster *c, const catalog *cat,
                        const char *dir, gp_err *err)
{
    export_set *set = export_set_begin(dir, "snapshot", err);
    if (!set)
        return -1;
    int rc = export_cluster_files(set, c, cat, err) ||
             export_trace_files(set, sn->tasks, err) || write_placements(set, sn, c, err) ||
             (sn->nreadings && write_readings(set, sn, c, cat, err)) ? -1 : 0;
    return export_set_end(set, rc, err);
}

static json_t *number_or_null(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *placements_json(const snapshot *sn, const cluster *c)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < sn->nrows; i++) {
        const placement_row *r = &sn->rows[i];
        json_array_append_new(arr, json_pack("{s:s, s:s, s:i, s:i}",
                                             "task", sn->tasks->tasks[r->task].name,
                                             "node", c->nodes[r->node].name,
                                             "gpu", r->gpu, "gpu_milli", r->gpu_milli));
    }
    return arr;
}

static json_t *readings_json(const snapshot *sn, const cluster *c, const catalog *cat)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < sn->nreadings; i++) {
        const gpu_reading *r = &sn->readings[i];
        if (r->node < 0 || (size_t)r->node >= c->nnodes)
            continue;
        const node *n = &c->nodes[r->node];
        json_array_append_new(arr, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:f}",
                                             "node", n->name, "model", n->gpu_model,
                                             "gpu", r->gpu,
                                             "util_pct", number_or_null(r->util_pct),
                                             "power_w", number_or_null(r->power_w),
                                             "clock_mhz", number_or_null(r->clock_mhz),
                                             "mem_used_mib", number_or_null(r->mem_used_mib),
                                             "mem_total_mib",
                                             export_gpu_mem_total_mib(n, r->gpu, cat)));
    }
    return arr;
}

int export_snapshot_json(const snapshot *sn, const cluster *c, const catalog *cat,
                         double frag_milli, FILE *out, gp_err *err)
{
    json_t *doc = export_trace_doc(sn->tasks);
    json_object_set_new(doc, "snapshot", json_string(sn->name));
    json_object_set_new(doc, "cluster", json_string(c->name));
    json_object_set_new(doc, "time_s", json_real(sn->time_s));
    json_object_set_new(doc, "fragmentation_gpus", number_or_null(frag_milli / 1000.0));
    json_object_set_new(doc, "placements", placements_json(sn, c));
    json_object_set_new(doc, "gpus", readings_json(sn, c, cat));
    return export_json_dump(doc, out, err);
}
