/*
 * export_set.h — writing a CSV set into a directory as a set: every file
 * of the new set is written beside the old ones under a temporary name,
 * then the directory's new manifest (set_manifest.h) under its own; only
 * when all of them are written, synced and closed without error are they
 * renamed into place, the manifest last, and the files of the previous
 * export of the same kind that this one does not write removed.  An export
 * that fails part-way (a full disk, a file size limit) leaves the previous
 * set whole; one killed while renaming leaves files its manifest does not
 * list, which import refuses.
 *
 * Usage: s = export_set_begin(dir, "trace"); f = export_set_open(s,
 * "tasks.csv"); ...; export_set_close(s, f, "tasks.csv"); ...;
 * rc = export_set_end(s, rc) (commits when rc is 0, else gives up).
 *
 * Not here: what goes into the files (export.c, export_snapshot.c,
 * export_peace.c); writing one file whole (export_file.c).
 */
#ifndef GP_EXPORT_SET_H
#define GP_EXPORT_SET_H

#include <stdio.h>

#include "core/model.h"
#include "core/util.h"

typedef struct export_set export_set;

/* Starts a set of kind (set_kind_files) in dir, made if needed; NULL with
 * a message. */
export_set *export_set_begin(const char *dir, const char *kind, gp_err *err);
/* Opens file of the set for writing (under its temporary name). */
FILE *export_set_open(export_set *s, const char *file, gp_err *err);
/* Finishes it (checked, synced, closed) and notes its digest; 0 or -1. */
int export_set_close(export_set *s, FILE *f, const char *file, gp_err *err);
/* rc == 0: puts the set in place as above and returns 0, or -1 with a
 * message; rc != 0: removes what was written and returns rc.  Frees s. */
int export_set_end(export_set *s, int rc, gp_err *err);

/* The files of a cluster (gpus.csv, cpus.csv of the profiles it uses,
 * nodes.csv), of a trace (trace.csv when it names its GPU, tasks.csv,
 * util.csv when it has series), and gpus.csv of every profile of cat,
 * into a set begun by the caller: for exports made of several. */
int export_cluster_files(export_set *s, const cluster *c, const catalog *cat, gp_err *err);
int export_trace_files(export_set *s, const gp_trace *t, gp_err *err);
int export_gpus_files(export_set *s, const catalog *cat, gp_err *err);

#endif
