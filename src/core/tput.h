/*
 * tput.h — looking things up in a throughput table (model.h's
 * tput_catalog, Gavel's shape): a job type's throughput on an accelerator
 * class alone, and two job types' throughputs when they share one.  The
 * simulator's progress rates, GOGH's solver and its estimators all read
 * the table through this, so "what the table says" has one meaning.
 *
 * A same-type pair (j with another job of j's own type) has one entry
 * whose two throughputs belong to the two jobs: the first job named gets
 * the entry's own throughput, the second its co-located one — so ask once
 * per pair of jobs and give each its half, never once per job.
 *
 * Ownership: tput_index_new() returns an index that borrows the table
 * (which must outlive it); free it with tput_index_free().
 */
#ifndef GP_TPUT_H
#define GP_TPUT_H

#include <stddef.h>

#include "model.h"

/* A job type: Gavel's ('<model> (batch size N)', scale). */
typedef struct gogh_jobtype {
    char model[GP_NAME_MAX];
    int batch_size;
    int scale;
} gogh_jobtype;

/* The job type a task names (model, batch size; scale 1 unless it spans
 * more GPUs); 0 when the task names no model. */
int tput_jobtype_of(const task *tk, gogh_jobtype *out);

typedef struct tput_index tput_index;

tput_index *tput_index_new(const tput_catalog *c);
void tput_index_free(tput_index *ix);

/* j alone on accelerator class accel, iterations/s; 0 when not measured. */
double tput_solo(const tput_index *ix, const char *accel, const gogh_jobtype *j);
/* j next to k on accel: j's throughput, and k's in *tk (may be NULL); 0
 * (and *tk 0) when the pair was not measured there. */
double tput_pair(const tput_index *ix, const char *accel, const gogh_jobtype *j,
                 const gogh_jobtype *k, double *tk);
/* 1 when the table has j at all (alone on some accelerator). */
int tput_known(const tput_index *ix, const gogh_jobtype *j);

/* The accelerator classes of the table, in first-seen order; returns how
 * many (pointers into the table, at most cap). */
size_t tput_accels(const tput_index *ix, const char **out, size_t cap);
/* The distinct job types of the table (scale included), in first-seen
 * order; returns how many (at most cap). */
size_t tput_jobtypes(const tput_index *ix, gogh_jobtype *out, size_t cap);

#endif
