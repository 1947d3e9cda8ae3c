/*
 * export_file.h — the files gpuplan writes (exports, sweep curves and event
 * logs, run timelines, LP and MPS models): whole or not at all, every
 * write checked, every message naming the file.
 *
 * A regular file is written to a temporary file beside it (".NAME.PID.tmp",
 * created exclusively and never through a link) and renamed over it once
 * every byte has been written, flushed, synced and closed without error;
 * on any failure the temporary file is removed and whatever was at the
 * path stays as it was.  A symbolic link at the path is refused: gpuplan
 * did not make it and writing through it would write wherever it points.
 * A device or a pipe (/dev/stdout, a FIFO) is written in place, with every
 * write checked all the same.
 *
 * Not here: what goes into the files (export.c, the commands).
 */
#ifndef GP_EXPORT_FILE_H
#define GP_EXPORT_FILE_H

#include <stdio.h>

#include "core/util.h"

/* Opens path for writing as above; NULL with a message naming it. */
FILE *out_file_open(const char *path, gp_err *err);
/* Finishes what out_file_open(path) opened: checks that everything was
 * written, closes f and puts the file in place.  0, or -1 with a message
 * naming path (and then nothing is left at path but what was there). */
int out_file_close(FILE *f, const char *path, gp_err *err);
/* Gives up on what out_file_open(path) opened: closes f and removes the
 * temporary file; path is left as it was. */
void out_file_discard(FILE *f, const char *path);
/* The two halves of out_file_close, for a set of files replaced together
 * (export_set.c): out_file_finish checks, syncs and closes f, keeping what
 * was written under its temporary name (0, or -1 with a message naming
 * path, the temporary file then removed); out_file_commit renames it over
 * path (0 or -1).  out_file_drop removes a finished temporary file. */
int out_file_finish(FILE *f, const char *path, gp_err *err);
int out_file_commit(const char *path, gp_err *err);
void out_file_drop(const char *path);
/* The temporary name out_file_open(path) writes (allocated; "" for a
 * device or pipe written in place). */
char *out_file_tmp_name(const char *path);
/* Checks a stream gpuplan does not own (stdout): flushed without error;
 * -1 with a message naming it as `name` otherwise. */
int out_stream_check(FILE *f, const char *name, gp_err *err);

/* For a library that writes a file by name and does not report a failed
 * last write (GLPK: glp_write_lp ignores its fclose): a file in memory it
 * writes to by name, copied to the real path afterwards with every write
 * checked. */
typedef struct out_scratch {
    int fd;                     /* -1 when closed */
    char name[40];              /* /proc/self/fd/N: hand this to the library */
} out_scratch;

/* 0, or -1 with a message. */
int out_scratch_open(out_scratch *s, gp_err *err);
/* The scratch's size in bytes (0: the library wrote nothing). */
long out_scratch_size(const out_scratch *s);
/* Copies the scratch to path (as out_file_open/out_file_close); 0 or -1. */
int out_scratch_save(const out_scratch *s, const char *path, gp_err *err);
void out_scratch_close(out_scratch *s);

#endif
