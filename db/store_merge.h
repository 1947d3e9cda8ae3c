/*
 * store_merge.h — runs that belong to a sweep, and merging the databases
 * of a sweep's shards into one.
 *
 * A sweep (`gpuplan sweep`) is identified by a fingerprint of everything
 * that decides its runs (inputs, policies, seeds, options); its work list
 * is jobs 0..njobs-1 and each saved run is tagged with its sweep and job.
 * A capacity plan (`gpuplan plan`) is a sweep of kind "plan" whose jobs
 * are saved as points, not runs (store_plan.h).  A shard (`--shard I/N`)
 * saves the jobs i with i mod N = I in a database of its own, usually a
 * copy of the target.  A shard's sweep is that of its newest tagged run
 * or plan point (the copy may hold older ones); `gpuplan merge` refuses
 * shards of different sweeps and copies into the target every run (or
 * point) of the sweep whose job the target lacks, so a merge repeated
 * changes nothing.
 *
 * The tables (sweep, sweep_run, plan_point) are created on first use (IF
 * NOT EXISTS): a database that never saw a sweep or a sharded plan has none.
 */
#ifndef GP_STORE_MERGE_H
#define GP_STORE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define STORE_FINGERPRINT_LEN 17    /* 16 hex digits and the NUL */

/* What a sweep is: its fingerprint, kind ("inflation"), a one-line
 * description for people, and the size of its work list. */
typedef struct store_sweep {
    char fingerprint[STORE_FINGERPRINT_LEN];
    const char *kind;
    const char *what;
    int64_t njobs;
} store_sweep;

/* Saves run r (store_put_run) tagged as job `job` of sweep sw, in one
 * savepoint.  0, or -1 with a message. */
int store_put_sweep_run(store *s, const store_sweep *sw, int64_t job, run *r, gp_err *err);

/* What a merge did. */
typedef struct store_merge_report {
    size_t added;               /* runs (a plan's: points) copied into the target */
    size_t present;             /* those of the shards the target already had */
    char fingerprint[STORE_FINGERPRINT_LEN];   /* the sweep merged ("" when none new) */
    char kind[16];              /* its kind: "inflation", "plan" */
    char what[256];
    int64_t njobs;              /* its work list */
    int64_t jobs_held;          /* its distinct jobs in the target after the merge */
} store_merge_report;

/* Merges the shards' databases (paths) into s, one transaction per shard.
 * The target must hold the traces and clusters the runs name (by name)
 * and be of the shards' schema version.  0, or -1 with a message naming
 * the shard. */
int store_merge(store *s, const char *const *paths, size_t n, store_merge_report *rep,
                gp_err *err);

#endif
