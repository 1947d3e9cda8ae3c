/*
 * export.h — writing traces, clusters, throughput catalogs, runs and PEACE
 * sets out of the store: the native CSV set (readable back by the native
 * importer), the PEACE CSV set (by the peace importer) and JSON documents.
 */
#ifndef GP_EXPORT_H
#define GP_EXPORT_H

#include <stdio.h>

#include "core/model.h"
#include "core/run.h"
#include "core/util.h"

/* Native CSV set into dir (created if needed), each written as a set
 * (export_set.h): beside the previous export, then switched, with the
 * directory's manifest.csv listing the files.  A cluster writes nodes.csv
 * plus gpus.csv/cpus.csv of the profiles it uses (from cat); a trace writes
 * tasks.csv and util.csv; a catalog writes tput.csv. */
int export_cluster_csv(const cluster *c, const catalog *cat, const char *dir, gp_err *err);
int export_trace_csv(const gp_trace *t, const char *dir, gp_err *err);
int export_tput_csv(const tput_catalog *c, const char *dir, gp_err *err);
/* A snapshot (export_snapshot.c) on its cluster c: c's set plus tasks.csv,
 * util.csv, placements.csv and, when monitors read its GPUs, readings.csv
 * (node, gpu, util_pct, power_w, clock_mhz, mem_used_mib, mem_total_mib;
 * an empty cell where the monitor did not say). */
int export_snapshot_csv(const snapshot *sn, const cluster *c, const catalog *cat,
                        const char *dir, gp_err *err);
/* A run as timeline.csv, outcomes.csv, decisions.csv and metrics.csv.
 * c is the run's cluster: each placement's node is written by name (an
 * empty cell when nothing fit).  With c NULL (the cluster was deleted), or
 * a cluster too small for the run's nodes (replaced since), the node's
 * number in the cluster is written instead, under the column node_index. */
int export_run_csv(const run *r, const cluster *c, const char *dir, gp_err *err);

/* JSON documents (pretty-printed) to out. */
int export_cluster_json(const cluster *c, const catalog *cat, FILE *out, gp_err *err);
int export_trace_json(const gp_trace *t, FILE *out, gp_err *err);
/* The snapshot as its trace's document plus "snapshot", "cluster",
 * "time_s", "fragmentation_gpus" (frag_milli / 1000; null when NAN),
 * "placements" and "gpus" (the readings, with node names and memory
 * totals; [] for a simulated instant). */
int export_snapshot_json(const snapshot *sn, const cluster *c, const catalog *cat,
                         double frag_milli, FILE *out, gp_err *err);
int export_tput_json(const tput_catalog *c, FILE *out, gp_err *err);
/* The run's document; each outcome and decision has "node" (the name, null
 * when nothing fit) or, as export_run_csv, "node_index". */
int export_run_json(const run *r, const cluster *c, FILE *out, gp_err *err);

/* PEACE sets (export_peace.c): the set's CSV files (peace.csv,
 * peace_workloads.csv, peace_profiles.csv, peace_colocations.csv; the
 * columns import_peace.c reads) into dir, plus gpus.csv with the set's GPU
 * profile when cat has it, so the directory imports into any database; or
 * one JSON document. */
struct peace_set;
int export_peace_csv(const struct peace_set *s, const catalog *cat, const char *dir,
                     gp_err *err);
int export_peace_json(const struct peace_set *s, FILE *out, gp_err *err);

/* ---- what the exporters share (export.c) ---- */

/* Opens dir/file for writing (creating dir); NULL with a message. */
FILE *export_open(const char *dir, const char *file, gp_err *err);
/* Closes it; -1 with a message when anything failed to be written. */
int export_close(FILE *f, const char *dir, const char *file, gp_err *err);
/* One CSV cell: a number in the fewest digits that read back identically,
 * then ',' or (last) '\n'; a text cell quoted as needed, then ','. */
void export_num(FILE *f, double v, int last);
void export_text(FILE *f, const char *s);
/* tasks.csv's header and one task's row, util.csv's header and one task's
 * samples: for a writer that streams a trace (`gpuplan generate --out`). */
void export_tasks_header(FILE *f);
void export_task_row(FILE *f, const task *k);
void export_util_header(FILE *f);
void export_util_rows(FILE *f, const task *k);
/* Writes a JSON document (pretty-printed, then a newline) and releases it. */
struct json_t;
int export_json_dump(struct json_t *doc, FILE *out, gp_err *err);
/* The document export_trace_json() writes (new reference). */
struct json_t *export_trace_doc(const gp_trace *t);
/* A reading's device memory in MiB: the node's own size for the device,
 * else its profile's (0 when cat lacks it). */
double export_gpu_mem_total_mib(const node *n, int gpu, const catalog *cat);

#endif
