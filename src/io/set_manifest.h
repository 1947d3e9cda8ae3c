/*
 * set_manifest.h — the manifest of a CSV set directory (manifest.csv): which
 * export wrote each file of the directory, so that a set is imported only
 * whole.
 *
 * `gpuplan export --out DIR` writes every file of a set beside the old ones
 * under temporary names, then the new manifest under its own, and only then
 * renames the files into place and the manifest last (export_set.c).  The
 * manifest lists each file with the id of the export that wrote it, its
 * size and an FNV-1a digest of its bytes:
 *
 *     file,set,bytes,fnv1a
 *     tasks.csv,5f0c1e2d3b4a6978,48213,9ae1c2d3e4f50617
 *
 * Import reads it first (set_manifest_check) and refuses a directory whose
 * files do not match it — an export that stopped part-way, a file replaced
 * by hand — or whose files of one set come from two exports (tasks.csv of
 * one, util.csv of another).  A directory without a manifest (written
 * before there was one, or by hand) imports as it always did.
 *
 * Several sets may share a directory (a cluster, a trace and a throughput
 * table exported into one): each file's row says which export wrote it,
 * and the files that must come from one export are those of a group below.
 */
#ifndef GP_SET_MANIFEST_H
#define GP_SET_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/util.h"

#define SET_MANIFEST "manifest.csv"

/* One row: a file of the directory and the export that wrote it. */
typedef struct set_entry {
    char file[64];
    uint64_t set;               /* the export's id */
    int64_t bytes;
    uint64_t digest;            /* FNV-1a over its bytes */
    long line;                  /* in manifest.csv, 0 for a new row */
} set_entry;

typedef struct set_manifest {
    set_entry *e;
    size_t n, cap;
} set_manifest;

/* The file digest and size of path; 0, or -1 with a message. */
int set_file_digest(const char *path, int64_t *bytes, uint64_t *digest, gp_err *err);

/* Reads dir's manifest into m (zeroed by the caller): 0 with m->n == 0 when
 * there is none; -1 with file:line:col when it is malformed.  Free with
 * set_manifest_free. */
int set_manifest_read(const char *dir, set_manifest *m, gp_err *err);
void set_manifest_free(set_manifest *m);
/* The row of file, or NULL. */
set_entry *set_manifest_find(set_manifest *m, const char *file);
/* Appends a row (file copied). */
set_entry *set_manifest_add(set_manifest *m, const char *file);
/* Writes m as CSV to f. */
void set_manifest_write(const set_manifest *m, FILE *f);

/* The files an export of one kind replaces ("trace": trace.csv, tasks.csv,
 * util.csv; "cluster", "snapshot", "tput", "peace", "run"): every one it
 * does not write this time is removed, so nothing of the previous export
 * of that kind is left beside the new one.  NULL-terminated; NULL for an
 * unknown kind. */
const char *const *set_kind_files(const char *kind);

/* Import's check of a directory input, before any of its files is read:
 * 0 when it has no manifest or matches it; -1 with a message naming the
 * file at fault otherwise. */
int set_manifest_check(const char *dir, gp_err *err);
/* The same check into m (zeroed by the caller, who frees it), except that
 * the files named in the NULL-terminated `later` (NULL: none) are only
 * checked to be there with their listed size: the caller hashes them as
 * it reads them, so each is read once, and compares their digests with
 * m's rows.  On any refusal, its own or the caller's, set_manifest_check()
 * gives the message (it names the first file at fault in the manifest's
 * order). */
int set_manifest_check_except(const char *dir, const char *const *later, set_manifest *m,
                              gp_err *err);

#endif
