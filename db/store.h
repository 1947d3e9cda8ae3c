/*
 * store.h — the SQLite store (SPEC §4.1).  All SQL of the project lives in
 * db/; everything else talks to the database through these functions.
 *
 * Every write function runs inside its own SAVEPOINT, so it is atomic on its
 * own and nests inside a larger store_begin()/store_commit() (an importer
 * writing several entities makes them one transaction that way).  Every
 * statement is prepared with bound parameters; no SQL is built from user
 * strings.
 *
 * Functions return 0 on success and -1 on failure with a message in *err.
 * Objects returned through out-parameters are owned by the caller.
 */
#ifndef GP_STORE_H
#define GP_STORE_H

#include <stdint.h>

#include "core/model.h"
#include "core/run.h"
#include "core/util.h"

typedef struct store store;

/* The schema version this build creates and understands. */
#define STORE_SCHEMA_VERSION 6

/* Where the default database lives: $GPUPLAN_DB, else
 * $XDG_DATA_HOME/gpuplan/gpuplan.db, else ~/.local/share/gpuplan/gpuplan.db.
 * Returns an allocated string. */
char *store_default_path(void);

/* Writers wait for each other: a write takes the database's write lock
 * when it starts (never upgrading a read, which SQLite would refuse at
 * once) and, while another program holds it, waits up to STORE_WAIT_S
 * seconds; after STORE_WAIT_NOTICE_S it tells store_open_opts.on_wait, once
 * per store.  Past the bound the write fails with a message saying so. */
#define STORE_WAIT_S 600
#define STORE_WAIT_NOTICE_S 0.25

/* Told that a write is waiting for another program's (path: the database). */
typedef void (*store_wait_fn)(const char *path, void *ctx);

typedef struct store_open_opts {
    /* Fills a database that had no schema, inside the transaction that
     * creates it, so no other program sees it empty; NULL = nothing. */
    int (*init)(store *s, void *ctx, gp_err *err);
    void *init_ctx;
    store_wait_fn on_wait;      /* NULL = wait silently */
    void *wait_ctx;
} store_open_opts;

/* Opens (creating if needed, with parent directories) and migrates the
 * database at path.  *created is set to 1 when the file had no schema yet.
 * Refused: a file that is not an SQLite database, one whose schema version
 * gpuplan never wrote (negative or newer), and another program's database
 * (version 0 with tables of its own).  A database in a directory that
 * cannot be written, or a read-only file, opens for reading only (SQLite
 * cannot create its journal there); writes then fail naming why.  o may
 * be NULL (the defaults). */
int store_open_with(const char *path, const store_open_opts *o, store **out, int *created,
                    gp_err *err);
/* How long a write waits for another program's from now on, in seconds
 * (STORE_WAIT_S at first): a front end that must not freeze (the
 * dashboard) waits less and says so itself. */
void store_set_wait_limit(store *s, double seconds);
/* SQLite's data_version of this connection: it changes when another
 * program (another connection) commits a write, and only then, so a
 * front end that shows lists (the dashboard) compares it from one moment
 * to the next to know when to read them again.  0 or -1 with a message. */
int store_data_version(store *s, int64_t *version, gp_err *err);
/* 0 when the store can be written, else -1 with why: a command that
 * computes before it saves asks first. */
int store_check_writable(store *s, gp_err *err);
void store_close(store *s);
const char *store_path(const store *s);
/* The SQLite library version in use. */
const char *store_sqlite_version(void);

/* Groups several writes into one transaction (nestable).  The write lock
 * is taken by the first write, not by store_begin(): what a caller reads
 * and computes before its first write does not hold other writers back. */
int store_begin(store *s, gp_err *err);
int store_commit(store *s, gp_err *err);
void store_rollback(store *s);

/* Profiles.  put inserts or, when the name exists, updates in place (so
 * nodes that use the profile see the new values); sets ->id. */
int store_put_gpu_profile(store *s, gpu_profile *g, gp_err *err);
int store_put_cpu_profile(store *s, cpu_profile *p, gp_err *err);
int store_load_catalog(store *s, catalog **out, gp_err *err);
/* Refuses (with a message) while a node uses the profile. */
int store_delete_gpu_profile(store *s, const char *name, gp_err *err);
int store_delete_cpu_profile(store *s, const char *name, gp_err *err);

/* Clusters.  Nodes name their GPU/CPU models, which must exist.  With
 * replace == 0 an existing name is an error; with replace == 1 the old
 * cluster (and the runs made on it) is deleted first. */
int store_put_cluster(store *s, cluster *c, int replace, gp_err *err);
int store_get_cluster(store *s, const char *name, cluster **out, gp_err *err);
int store_delete_cluster(store *s, const char *name, gp_err *err);

int store_put_trace(store *s, gp_trace *t, int replace, gp_err *err);
/* A trace written one task at a time, for traces too large to hold (a
 * streamed import, a generated million jobs): _new writes the trace row
 * (replace as store_put_trace) inside a savepoint it holds until _end,
 * which releases it when rc is 0 and at least one task was added, else
 * rolls everything back; _end frees w in every case.  Tasks are numbered
 * in the order added; _set_util gives task idx (already added) the series
 * of k and its summaries (mean, peak, first), its period staying as
 * added.  Each returns 0, or -1 with a message naming the task. */
typedef struct store_trace_writer store_trace_writer;
int store_trace_writer_new(store *s, const char *name, const char *source, int replace,
                           store_trace_writer **out, gp_err *err);
int store_trace_writer_add(store_trace_writer *w, const task *k, gp_err *err);
/* States the GPU the trace was measured on (gp_trace.ref_gpu). */
int store_trace_writer_set_ref_gpu(store_trace_writer *w, const char *ref_gpu, gp_err *err);
int store_trace_writer_set_util(store_trace_writer *w, size_t idx, const task *k,
                                gp_err *err);
int store_trace_writer_end(store_trace_writer *w, int rc, gp_err *err);

/* A set of names with the line each came from, its position in the order
 * added and a few flag bits (store_trace_names.c), held in a private
 * temporary database, so it costs a bounded cache however many names: a
 * streamed import's duplicate checks and lookups.  Functions return 0 or
 * -1 with a message; _add returns 1 (and the first one's info) when the
 * name is already there, _find 1 when found and 0 when not. */
typedef struct store_names store_names;
typedef struct store_name_info {
    int64_t line, index;
    int flags;
} store_name_info;
int store_names_new(store_names **out, gp_err *err);
void store_names_free(store_names *n);
int store_names_add(store_names *n, const char *name, int64_t line, int flags,
                    store_name_info *first, gp_err *err);
int store_names_find(store_names *n, const char *name, store_name_info *out, gp_err *err);
int store_names_set_flags(store_names *n, const char *name, int flags, gp_err *err);
int64_t store_names_count(const store_names *n);
int store_get_trace(store *s, const char *name, gp_trace **out, gp_err *err);
int store_delete_trace(store *s, const char *name, gp_err *err);

int store_put_tput_catalog(store *s, tput_catalog *c, int replace, gp_err *err);
int store_get_tput_catalog(store *s, const char *name, tput_catalog **out, gp_err *err);
int store_delete_tput_catalog(store *s, const char *name, gp_err *err);
/* The throughput table a run of trace `trace` is timed by: the one named
 * `name` (an error when there is none; "none" = no table), else, with name
 * NULL, the one named like the trace when there is one.  0 with *out set
 * (NULL = no table), or -1 with a message. */
int store_find_tput_for(store *s, const char *name, const char *trace, tput_catalog **out,
                        gp_err *err);

/* Snapshots reference an existing cluster by name; their running tasks are
 * stored as a trace named after the snapshot ("snapshot:<name>"). */
int store_put_snapshot(store *s, snapshot *sn, int replace, gp_err *err);
int store_get_snapshot(store *s, const char *name, snapshot **out, gp_err *err);
int store_delete_snapshot(store *s, const char *name, gp_err *err);

/* Runs are identified by id (names repeat: one per policy).  put sets ->id
 * and ->created. */
int store_put_run(store *s, run *r, gp_err *err);
int store_get_run(store *s, int64_t id, run **out, gp_err *err);
int store_delete_run(store *s, int64_t id, gp_err *err);

/* PEACE sets (core/peaceset.h; SPEC §5.5).  A set names an existing GPU
 * profile.  put stores a set that passed peace_set_check() (the schema
 * refuses what it would not), with replace as for clusters; sets ->id.  get
 * returns a set peace_index_new() accepts.  Deleting a set deletes its
 * models. */
struct peace_set;
int store_put_peace_set(store *s, struct peace_set *ps, int replace, gp_err *err);
int store_get_peace_set(store *s, const char *name, struct peace_set **out, gp_err *err);
int store_delete_peace_set(store *s, const char *name, gp_err *err);

/* A trained PEACE model kept with its set: a name unique within the set,
 * a text description of its parameters and the model itself as bytes
 * (whatever its module serialises; the store does not look inside). */
typedef struct store_peace_model {
    int64_t id;
    char name[GP_NAME_MAX];
    char created[32];
    char *params;               /* owned; "" when none */
    unsigned char *blob;        /* owned; NULL in listings */
    size_t len;                 /* the model's size in bytes, also in listings */
} store_peace_model;

/* Stores model m->name of set `set`, replacing one of that name (a model
 * is retrained, not versioned); sets m->id and m->created. */
int store_put_peace_model(store *s, const char *set, store_peace_model *m, gp_err *err);
/* Loads model `name` of set `set` with its bytes; "no PEACE model named
 * 'x' in set 'y'" when there is none.  Free with store_peace_model_free(). */
int store_get_peace_model(store *s, const char *set, const char *name,
                          store_peace_model **out, gp_err *err);
void store_peace_model_free(store_peace_model *m);
/* The models of set `set`, by name, without their bytes (len is set);
 * free with store_peace_models_free(). */
int store_list_peace_models(store *s, const char *set, store_peace_model **out, size_t *n,
                            gp_err *err);
void store_peace_models_free(store_peace_model *m, size_t n);

/* GOGH's trained estimation nets (predict/gogh_est.h; SPEC §5.4): a name
 * unique in the store, the throughput catalog they were trained on, a text
 * of their parameters, the figures of their training report and the nets
 * as bytes (gogh_nets_save(); the store does not look inside).  Deleting
 * the catalog deletes its nets.  The store keeps the report's figures in
 * its own types, so db/ needs nothing of predict/. */
typedef struct store_gogh_err {
    double loss, mae;           /* NaN for a split without rows */
    int64_t rows;
} store_gogh_err;

typedef struct store_gogh_nets {
    int64_t id;
    char name[GP_NAME_MAX];
    char tput[GP_NAME_MAX];     /* the throughput catalog */
    char created[32];
    char *params;               /* owned; "" when none */
    store_gogh_err p1[3], p2[3];        /* train, validation, test */
    int64_t types[3];           /* job types in each split */
    double p1_s, p2_s;          /* training times */
    unsigned char *blob;        /* owned; NULL in listings */
    size_t len;                 /* the nets' size in bytes, also in listings */
} store_gogh_nets;

/* Stores nets n->name trained on catalog n->tput (which must exist),
 * replacing nets of that name (nets are retrained, not versioned); sets
 * n->id and n->created. */
int store_put_gogh_nets(store *s, store_gogh_nets *n, gp_err *err);
/* Loads nets `name` with their bytes; "no GOGH nets named 'x'" when there
 * are none.  Free with store_gogh_nets_free(). */
int store_get_gogh_nets(store *s, const char *name, store_gogh_nets **out, gp_err *err);
void store_gogh_nets_free(store_gogh_nets *n);
/* The nets a run uses: those named `name` ("none": none, *out NULL), else
 * with name NULL those of table `tput` named like it or, failing that, its
 * only ones (*out NULL when it has none or several). */
int store_find_gogh_nets_for(store *s, const char *name, const char *tput,
                             store_gogh_nets **out, gp_err *err);
/* Every stored nets (those of catalog tput only, when not NULL; an unknown
 * catalog is an error), by name, without their bytes (len is set); free
 * with store_gogh_nets_list_free(). */
int store_list_gogh_nets(store *s, const char *tput, store_gogh_nets **out, size_t *n,
                         gp_err *err);
void store_gogh_nets_list_free(store_gogh_nets *n, size_t count);
/* "no GOGH nets named 'x'" when there are none. */
int store_delete_gogh_nets(store *s, const char *name, gp_err *err);

/* One line of a listing. */
typedef enum store_kind {
    STORE_GPU, STORE_CPU, STORE_CLUSTER, STORE_TRACE, STORE_TPUT,
    STORE_SNAPSHOT, STORE_RUN, STORE_PEACE, STORE_KIND_COUNT
} store_kind;

typedef struct store_item {
    int64_t id;
    char name[GP_NAME_MAX];
    int64_t count;              /* nodes, tasks, entries, tasks, tasks; workloads */
    int64_t count2;             /* GPUs of a cluster, series of a trace, accelerators,
                                 * decisions of a run, profile rows of a PEACE set */
    char detail[160];           /* a one-line summary */
    char created[32];
} store_item;

/* Lists every entity of one kind, ordered by name (runs by id). */
int store_list(store *s, store_kind kind, store_item **items, size_t *n, gp_err *err);
const char *store_kind_name(store_kind kind);
/* Parses "gpu", "cpu", "cluster", "trace", "tput", "snapshot", "run",
 * "peace" (and plurals); -1 when unknown. */
int store_kind_parse(const char *word);

#endif
