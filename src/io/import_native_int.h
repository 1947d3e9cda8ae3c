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

/* The streamed trace: native_trace_new() only notes the files (util_path
 * may be NULL); native_trace_write(), inside the import's transaction,
 * reads tasks.csv and util.csv once, checking everything the whole-set
 * parse checks and storing each task as it is read, into trace `name`;
 * at its first refusal it returns -1 and the caller rolls the
 * transaction back.  Memory stays bounded by one task's series and
 * SQLite's caches however long the files.  The object is freed by
 * native_trace_free() (NULL is fine). */
typedef struct native_trace native_trace;
native_trace *native_trace_new(const char *tasks_path, const char *util_path,
                               const import_opts *opts);
/* ref_gpu: the GPU the trace was measured on ("" = not stated).  0, or -1
 * with a message naming file, line and column. */
int native_trace_write(native_trace *nt, store *st, const char *name, const char *source,
                       const char *ref_gpu, int replace, import_result *res, gp_err *err);
/* After a native_trace_write() that returned 0: the size and FNV-1a
 * digest of tasks.csv (util 0) or util.csv (util 1), hashed as they were
 * read, for the set's manifest; -1 when that file was not read whole. */
int native_trace_digest(const native_trace *nt, int util, int64_t *bytes, uint64_t *digest);
void native_trace_free(native_trace *nt);

/* The trace of the native set in dir parsed whole into memory, as a
 * snapshot's tasks are (tests compare it with the streamed import). */
int native_parse_trace(const char *dir, const char *name, gp_trace **out, gp_err *err);

#endif
