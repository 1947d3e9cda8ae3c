/*
 * import_native_int.h — what the native set's importer (import_native.c)
 * shares with its streamed trace reader (import_native_trace.c), and the
 * one entry tests use to compare the streamed import with the whole-set
 * parse.  Not for other importers.
 */
#ifndef GP_IMPORT_NATIVE_INT_H
#define GP_IMPORT_NATIVE_INT_H

#include "csvread.h"
#include "import.h"
#include "core/model.h"

/* tasks.csv's required and optional columns, in the order
 * native_task_parse() reads their indices. */
extern const char *const native_task_req[];
extern const char *const native_task_opt[];
/* One row of tasks.csv into k (task_init'ed by the caller, who
 * task_release()s it in every case); 0 or -1 naming file, line, column. */
int native_task_parse(const csv_reader *r, const csv_row *row, const int *c, const int *o,
                      task *k, gp_err *err);
/* The refusal of util.csv's first row of a task without util_period_s
 * (csv_fail's format: the task's name, then its line in tasks.csv). */
#define NATIVE_NO_PERIOD "column 'task': '%s' has samples but no util_period_s (tasks.csv " \
                         "line %ld; expected the series' sample period in seconds)"
/* util.csv's columns, and one row's sample number and percent. */
extern const char *const native_util_req[];
int native_util_parse(const csv_reader *r, const csv_row *row, const int *c, int64_t *sample,
                      double *pct, gp_err *err);

/* The streamed trace: native_trace_check() reads tasks.csv and util.csv
 * (util_path may be NULL) once, checking everything the whole-set parse
 * checks, keeping only the task names (in a store_names); then, under the
 * write lock, native_trace_write() reads them again into the store as
 * trace `name`.  Memory stays bounded by one task's series and SQLite's
 * caches however long the files.  Both return 0 or -1 with a message; the
 * object is freed by native_trace_free() (NULL is fine). */
typedef struct native_trace native_trace;
int native_trace_check(const char *tasks_path, const char *util_path, const import_opts *opts,
                       native_trace **out, gp_err *err);
/* ref_gpu: the GPU the trace was measured on ("" = not stated). */
int native_trace_write(native_trace *nt, store *st, const char *name, const char *source,
                       const char *ref_gpu, int replace, import_result *res, gp_err *err);
void native_trace_free(native_trace *nt);

/* The trace of the native set in dir parsed whole into memory, as a
 * snapshot's tasks are (tests compare it with the streamed import). */
int native_parse_trace(const char *dir, const char *name, gp_trace **out, gp_err *err);

#endif
