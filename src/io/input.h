/*
 * input.h — every input read once.  A pipe, a FIFO or process substitution
 * (`gpuplan import <(kubectl get pods -A -o json)`) can be read only once,
 * but detecting a format reads a file's head and the importer then reads it
 * again.  input_preload() reads each such path (anything but a regular file
 * or a directory) wholly into memory first; every reader of the importers
 * (CSV, JSON, the Prometheus text, the first line and head used to detect)
 * opens paths through input_open()/input_read_file(), which hand out that
 * copy.  Regular files are read from disk as before.
 *
 * The copies are process-wide (the CLI imports one set of paths per run);
 * input_release() frees them.
 */
#ifndef GP_INPUT_H
#define GP_INPUT_H

#include <stdio.h>

#include "core/util.h"

/* Called when a path has given no data for a second (a FIFO with no
 * writer yet); the read goes on waiting. */
typedef void (*input_wait_fn)(void *ctx, const char *path);

/* Reads every path that is not a regular file or a directory into memory.
 * 0, or -1 with a message naming the path. */
int input_preload(const char *const *paths, size_t npaths, input_wait_fn waiting, void *ctx,
                  gp_err *err);
void input_release(void);

/* A stream of path: its preloaded copy (fmemopen), else the file; NULL
 * with errno set when it cannot be opened. */
FILE *input_open(const char *path);
/* The whole of path, NUL-terminated, as core's read_file. */
char *input_read_file(const char *path, size_t *len, gp_err *err);

#endif
