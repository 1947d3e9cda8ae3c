/*
 * jsonpos.h — where a value sits in a JSON text, for error messages.
 *
 * jansson parses and validates JSON (its syntax errors come with a line and
 * column) but keeps no positions for the values it builds, so an importer
 * that finds a bad value in the tree — a negative throughput, a missing
 * member — cannot say on which line it was.  This module re-walks the raw
 * text along the value's path (object keys and array indices from the root)
 * and turns the offset it reaches into a 1-based line and column.  It walks
 * the structure rather than searching the text because the same key can
 * stand at several depths; keys are compared after decoding their escapes,
 * as jansson compares them.  When a step of the path is absent (a missing
 * member) the walk stops at the deepest ancestor that exists.
 *
 * The same messages name a bad value's type in words (jsonpos_type_name).
 *
 * Not a parser: it runs on text jansson has already accepted and checks
 * nothing; on invalid text its offsets mean nothing (but stay in bounds).
 * It is linear in the text per call, for error paths only.
 *
 * Ownership: a path borrows its keys (usually from the jansson tree, which
 * must outlive the path's use); paths are plain values, copied to branch.
 */
#ifndef GP_JSONPOS_H
#define GP_JSONPOS_H

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>

#include "core/util.h"

/* Deeper than any importer's documents (Philly: job, attempts[k],
 * detail[d], gpus[g] is 7 steps). */
#define JSONPOS_MAX_DEPTH 16

typedef struct jsonpos_step {
    const char *key;            /* member name, or NULL for an array element */
    size_t index;               /* element index when key is NULL */
} jsonpos_step;

/* Steps from the root value; {0} (or {.depth = 0}) is the root. */
typedef struct jsonpos_path {
    jsonpos_step step[JSONPOS_MAX_DEPTH];
    int depth;
} jsonpos_path;

/* Appends one step; the depth must stay below JSONPOS_MAX_DEPTH (asserted). */
void jsonpos_push_key(jsonpos_path *p, const char *key);
void jsonpos_push_index(jsonpos_path *p, size_t index);
/* Removes the last step (asserted to exist). */
void jsonpos_pop(jsonpos_path *p);
/* A copy of p with one more step, for callers that branch by value. */
jsonpos_path jsonpos_key(const jsonpos_path *p, const char *key);
jsonpos_path jsonpos_index(const jsonpos_path *p, size_t index);

typedef enum jsonpos_style {
    JSONPOS_BRACKETS,           /* $["k80"]["('A3C', 1)"][0] (the root alone: $) */
    JSONPOS_DOTTED,             /* attempts[0].detail (the root alone: empty) */
} jsonpos_style;

/* Writes steps first..depth-1 of p into buf (size len, always terminated,
 * cut when too long).  Keys are written as they are, unescaped. */
void jsonpos_format(const jsonpos_path *p, int first, jsonpos_style style, char *buf,
                    size_t len);

/* The deepest step of a path found in the text. */
typedef struct jsonpos_loc {
    size_t key;                 /* offset of that member's name (its opening
                                 * quote); for an array element or the root,
                                 * the same as value */
    size_t value;               /* offset of the first byte of its value */
    int found;                  /* how many steps were found: p->depth when
                                 * the whole path exists, 0 for the root */
} jsonpos_loc;

/* Walks text[0, len) (valid JSON) along p.  A member name found twice (jansson
 * without JSON_REJECT_DUPLICATES) is taken at its first occurrence. */
jsonpos_loc jsonpos_locate(const char *text, size_t len, const jsonpos_path *p);

/* 1-based line and column of offset off (clamped to len).  Columns count
 * UTF-8 characters, not bytes, as jansson's own error columns do, so a value
 * and a syntax error on one line are counted alike. */
void jsonpos_line_col(const char *text, size_t len, size_t off, long *line, long *col);

/* The first offset at or after off that is not JSON white space (len at
 * most); a text is blank when jsonpos_skip_ws(text, len, 0) == len. */
size_t jsonpos_skip_ws(const char *text, size_t len, size_t off);

/* Removes a UTF-8 byte-order mark from the start of a NUL-terminated text
 * read from a file (jansson refuses one; editors on Windows write one), so
 * the JSON importers accept what the CSV reader accepts.  Offsets and
 * columns then count from after it, as an editor shows the text. */
void jsonpos_strip_bom(char *text, size_t *len);

/* A value's JSON type in words for messages: "an object", "an array", "a
 * string", "an integer", "a number", "true", "false" or "null". */
const char *jsonpos_type_name(const json_t *v);

/* An error at the value p names in text (the contents of file `file`):
 * "file:line:col: where: message", where is p in style ("$" at the root).
 * Returns -1. */
int jsonpos_vfail(const char *file, const char *text, size_t len, const jsonpos_path *p,
                  jsonpos_style style, gp_err *err, const char *fmt, va_list ap);

#endif
