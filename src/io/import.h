/*
 * import.h — the importer interface and registry (SPEC §4.2).
 *
 * An importer reads one or more input files into model objects and writes
 * them to the store inside one transaction: either everything lands or
 * nothing does.  Errors name file, line, column and what was expected.
 * Each format is one file (import_<format>.c) exporting one const
 * importer, declared in import_table.h and listed once in import.c.
 */
#ifndef GP_IMPORT_H
#define GP_IMPORT_H

#include <stddef.h>

#include "db/store.h"
#include "core/util.h"

typedef struct import_opts {
    const char *name;           /* name of the trace/cluster/catalog made; NULL
                                 * = derived from the file name */
    const char *cluster;        /* importers that need a cluster (snapshots) */
    int replace;                /* replace an existing entity of that name */
    double period_s;            /* series sample period override, 0 = default */
    /* "FILE=NODE": the node a monitor's file (nvidia-smi, DCGM) beside
     * kubectl's lists is of, when its name does not say (k8s) */
    const char *const *node_of;
    size_t nnode_of;
    /* Told how far a long import is (0..1) now and then; may be NULL.
     * Importers that stream (the native set's trace) call it. */
    void (*progress)(void *ctx, double frac);
    void *progress_ctx;
} import_opts;

/* What an import wrote, for the user. */
typedef struct import_result {
    size_t clusters, nodes, traces, tasks, samples, gpu_profiles, cpu_profiles,
           tput_entries, snapshots;
    /* "trace 'x', cluster 'y'", the names escaped (text_printable): room
     * for several whole 253-byte names */
    char names[2048];
} import_result;

typedef struct importer {
    const char *format;         /* "native", "openb", ... (the --format word) */
    const char *summary;        /* one line for --help */
    const char *inputs;         /* what paths it takes, for --help */
    /* How sure it is that these paths are its format: 0 (no) .. 100.
     * Looks at names and header lines only. */
    int (*detect)(const char *const *paths, size_t npaths);
    int (*run)(store *st, const char *const *paths, size_t npaths,
               const import_opts *opts, import_result *res, gp_err *err);
} importer;

/* NULL-terminated table of every importer. */
extern const importer *const importers[];
/* The native set importer, also used directly to seed new databases. */
extern const importer import_native;

const importer *importer_find(const char *format);
/* The importer with the highest detect() score, or NULL when none is > 0. */
const importer *importer_detect(const char *const *paths, size_t npaths);

/* Runs imp inside one store transaction (rolled back on any failure). */
int import_run(store *st, const importer *imp, const char *const *paths, size_t npaths,
               const import_opts *opts, import_result *res, gp_err *err);

/* Helpers shared by importers. */
/* The base name of path without directory and extension, into buf. */
void import_base_name(const char *path, char *buf, size_t len);
/* A detect() score for formats of one to max_paths files: the lowest of
 * score_file() over the paths (every file must look right), 0 for another
 * number of paths. */
int import_detect_each(const char *const *paths, size_t npaths, size_t max_paths,
                       int (*score_file)(const char *path));
/* The first line of a file (without newline, without a UTF-8 byte-order
 * mark) into buf; 0 or -1. */
int import_first_line(const char *path, char *buf, size_t len);
/* Up to len - 1 bytes from the start of a file into buf, NUL-terminated
 * (empty when it cannot be read), for format detection; returns how many. */
size_t import_read_head(const char *path, char *buf, size_t len);
/* 1 when path names a directory. */
int import_is_dir(const char *path);
/* 1 when there is an entry at path, readable or not (for detect()). */
int import_present(const char *path);
/* The file `file` of a directory input: 0 with *path set (the caller frees
 * it) when it can be read, 0 with *path NULL when there is no such entry,
 * -1 with a message naming it when it is there but cannot be read
 * (permission, I/O error, a directory, a broken link) — an input that is
 * present is never taken for absent. */
int import_dir_file(const char *dir, const char *file, char **path, gp_err *err);
/* Copies s into dst (size len, at least 1), cut when too long between UTF-8
 * characters, so a name or a word from the input stays valid UTF-8. */
void import_copy_utf8(char *dst, size_t len, const char *s);
/* 0 when name fits a stored name (at most GP_NAME_MAX - 1 bytes), else -1
 * with "WHAT 'name' is N bytes; a name is at most 253" after the prefix
 * where (a file:line:col; NULL for none), the name escaped: importers refuse a long name
 * rather than cut it, as a cut one could be another's. */
int import_check_name_len(const char *where, const char *what, const char *name, gp_err *err);
/* A name with the line of the row it came from and the position of what
 * the row made among its kind: for duplicate checks and lookups by name.
 * The name is borrowed (from the model object, once its array has stopped
 * growing). */
typedef struct import_name {
    const char *name;
    long line;
    size_t index;
} import_name;
/* Sorts v by name (then line) and fails naming the second row of a
 * repeated name: "path:line:1: duplicate WHAT name 'x' (first on line N;
 * expected unique names)".  O(n log n). */
int import_check_unique(const char *path, const char *what, import_name *v, size_t n,
                        gp_err *err);
/* The message of import_check_unique for a name repeated on line `line`
 * (streamed importers find repeats as they read); returns -1. */
int import_duplicate_error(const char *path, const char *what, const char *name, long line,
                           long first_line, gp_err *err);
/* The entry named name in v (sorted by import_check_unique), or NULL. */
const import_name *import_find_name(const import_name *v, size_t n, const char *name);
/* Store what an importer made (inside the caller's transaction) and
 * account for it in res: counts and the "kind 'name'" note. */
int import_put_cluster(store *st, cluster *c, int replace, import_result *res, gp_err *err);
int import_put_trace(store *st, gp_trace *t, int replace, import_result *res, gp_err *err);
int import_put_tput(store *st, tput_catalog *c, int replace, import_result *res, gp_err *err);
/* The native set's gpus.csv and cpus.csv in dir, when present, stored as
 * the native importer stores them (inside the caller's transaction) and
 * counted in res: for formats that may carry the profiles they use. */
int import_native_profiles(store *st, const char *dir, import_result *res, gp_err *err);
/* Appends "kind 'name'" to res->names, the name escaped for a terminal. */
void import_note(import_result *res, const char *kind, const char *name);
/* Appends " (skipped: 2 never started, 1 unfinished)" to res->names: "count
 * reason" for each nonzero count[i] of the n, in order; nothing when all
 * are 0.  For importers that leave out rows they cannot use. */
void import_note_skipped(import_result *res, const size_t *count, const char *const *reason,
                         size_t n);

#endif
