/*
 * export.h — writing traces, clusters, throughput catalogs and runs out of
 * the store: the native CSV set (readable back by the native importer) and
 * JSON documents.
 */
#ifndef GP_EXPORT_H
#define GP_EXPORT_H

#include <stdio.h>

#include "core/model.h"
#include "core/run.h"
#include "core/util.h"

/* Native CSV set into dir (created if needed).  A cluster writes nodes.csv
 * plus gpus.csv/cpus.csv of the profiles it uses (from cat); a trace writes
 * tasks.csv and util.csv; a catalog writes tput.csv. */
int export_cluster_csv(const cluster *c, const catalog *cat, const char *dir, gp_err *err);
int export_trace_csv(const gp_trace *t, const char *dir, gp_err *err);
int export_tput_csv(const tput_catalog *c, const char *dir, gp_err *err);
/* A snapshot as its cluster's set plus tasks.csv, util.csv and
 * placements.csv (reads the cluster and catalog from the store). */
struct store;
int export_snapshot_csv(struct store *st, const snapshot *sn, const char *dir, gp_err *err);
/* A run as timeline.csv, outcomes.csv, decisions.csv and metrics.csv. */
int export_run_csv(const run *r, const char *dir, gp_err *err);

/* JSON documents (pretty-printed) to out. */
int export_cluster_json(const cluster *c, const catalog *cat, FILE *out, gp_err *err);
int export_trace_json(const gp_trace *t, FILE *out, gp_err *err);
int export_tput_json(const tput_catalog *c, FILE *out, gp_err *err);
int export_run_json(const run *r, FILE *out, gp_err *err);

#endif
