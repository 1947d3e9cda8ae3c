/*
 * par.h — independent jobs on several threads, their results taken in a
 * fixed order by the calling thread.
 *
 * What a sweep, a plan or a run of several policies needs to use every
 * core and stay deterministic: each job (a simulation) owns its inputs'
 * copies, its rng, state and run record and computes on a worker thread;
 * the calling thread alone takes the results, in job order 0, 1, 2, ...,
 * whatever order they finish in — so the one SQLite writer commits runs
 * in the same order, and accumulators add in the same order, for any
 * number of threads.  With one thread the jobs run in the caller, one
 * after another (the path before threads).
 *
 * Memory stays bounded: workers start a job only while fewer than
 * PAR_WINDOW_PER_THREAD × threads results wait to be taken.
 *
 * Errors: the first failing job in job order (or the first refusal of
 * take) ends the run with its message; jobs not yet started are skipped,
 * results computed but not taken are handed to drop (when given).
 */
#ifndef GP_PAR_H
#define GP_PAR_H

#include <stddef.h>

#include "core/util.h"

#define PAR_WINDOW_PER_THREAD 2
#define PAR_MAX_THREADS 256

/* Computes job i on a worker thread into *result (owned by the caller of
 * par_run until take or drop).  Touches nothing shared but read-only
 * inputs.  0, or -1 with a message. */
typedef int (*par_work_fn)(void *ctx, size_t i, void **result, gp_err *err);
/* Takes job i's result on the calling thread (and frees it).  0, or -1
 * with a message to stop. */
typedef int (*par_take_fn)(void *ctx, size_t i, void *result, gp_err *err);
/* Frees a result that was computed but never taken. */
typedef void (*par_drop_fn)(void *ctx, size_t i, void *result);

typedef struct par_job {
    par_work_fn work;
    par_take_fn take;
    par_drop_fn drop;           /* may be NULL */
    void *ctx;
} par_job;

/* Runs jobs 0..n-1 on `threads` threads (1: in the caller).  0, or -1
 * with the message of the first failure in job order. */
int par_run(const par_job *job, size_t n, int threads, gp_err *err);

/* The number of online cores (at least 1): the default of -j. */
int par_default_threads(void);

#endif
