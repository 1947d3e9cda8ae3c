/*
 * model.h — the domain entities of SPEC §3.1: GPU and CPU profiles,
 * clusters of nodes, traces of tasks with utilization series, throughput
 * catalogs, snapshots.  Plain data with _new/_free pairs; no I/O here (the
 * store and the importers fill these), no simulation state (the engine keeps
 * its own).
 *
 * Ownership: a catalog/cluster/trace/snapshot owns every array and string it
 * points to; *_free() releases all of it.  Adders copy their arguments.
 */
#ifndef GP_MODEL_H
#define GP_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* A name is at most GP_NAME_MAX - 1 = 253 bytes: Kubernetes' limit for
 * the names of its objects (a DNS subdomain, RFC 1123), so that a node or
 * a namespace/pod an operator's cluster reports is kept whole, never cut
 * (two pods cut to one prefix would become one task). */
#define GP_NAME_MAX 254
#define GP_NODE_MAX_GPUS 16

/* A GPU model (SPEC §3.1).  Power fields feed the `cats` model (CATS eq. 1–4:
 * active = idle_w + alpha_w_per_mhz * f) and the `eopc` model (PWR eq. 2:
 * idle_w when unallocated, max_w when any share is allocated). */
typedef struct gpu_profile {
    int64_t id;                 /* store row id, 0 when not stored */
    char name[GP_NAME_MAX];
    double mem_gib;
    double idle_w;              /* P_gs / p_idle */
    double max_w;               /* TDP / p_max */
    double sleep_w;             /* drawn while asleep (CATS Alg. 3) */
    double f_min_mhz, f_max_mhz;
    double alpha_w_per_mhz;     /* dynamic slope, CATS eq. 3 */
    double beta;                /* JCT exponent, CATS eq. 5 */
    double price_usd;           /* CapEx, CorrGPU eq. 2; NAN = unknown */
    char tput_class[16];        /* Gavel accelerator (k80/p100/v100) or "" */
    /* Relative speed: how fast a task without a throughput-table job type
     * runs here, against a V100 (1).  A task's duration_s is its time alone
     * at f_max on such a reference GPU. */
    double speed;
    /* Where the price comes from and its date ("" for a user's own). */
    char price_source[128];
} gpu_profile;

/* A CPU package model: PWR eq. 1 counts whole packages of `cores` physical
 * cores, each package drawing idle_w when all its cores idle, else max_w. */
typedef struct cpu_profile {
    int64_t id;
    char name[GP_NAME_MAX];
    int cores;
    double idle_w;
    double max_w;
} cpu_profile;

/* The profile catalog: every known GPU and CPU model. */
typedef struct catalog {
    gpu_profile *gpus;
    size_t ngpus, gpus_cap;
    cpu_profile *cpus;
    size_t ncpus, cpus_cap;
} catalog;

catalog *catalog_new(void);
void catalog_free(catalog *c);
gpu_profile *catalog_add_gpu(catalog *c, const gpu_profile *g);
cpu_profile *catalog_add_cpu(catalog *c, const cpu_profile *p);
const gpu_profile *catalog_gpu(const catalog *c, const char *name);
/* " (did you mean 'x'?)" naming the catalog's GPU (CPU) profile closest to
 * a name it lacks, or "" when none is near (core/suggest.h). */
const char *catalog_gpu_hint(const catalog *c, const char *name, char *buf, size_t len);
const char *catalog_cpu_hint(const catalog *c, const char *name, char *buf, size_t len);
/* A profile's speed, 1 when it was never set. */
double gpu_speed(const gpu_profile *g);
/* 1 when the profile's price is known (not NAN). */
int gpu_price_known(const gpu_profile *g);
/* Its price, 0 when unknown: for sums that say apart what they lacked. */
double gpu_price_or0(const gpu_profile *g);
const cpu_profile *catalog_cpu(const catalog *c, const char *name);

/* The paper-derived profiles the default database starts with (issue: PWR
 * Table II, CATS §2.1, CorrGPU §III-B, H100, Xeon E5-2682 v4). */
void catalog_add_builtin(catalog *c);

/* A server.  GPU and CPU models are named, not pointed to, so a cluster can
 * be built before the catalog is loaded; an empty gpu_model means no GPUs. */
typedef struct node {
    char name[GP_NAME_MAX];
    char gpu_model[GP_NAME_MAX];
    int gpu_count;              /* w_i */
    int64_t cpu_milli;          /* vCPU capacity in milli-cores */
    int64_t ram_mib;
    char cpu_model[GP_NAME_MAX];
    double static_w;            /* P_static (CATS eq. 1) */
    double other_w;             /* P_other */
    /* Per-device memory when the devices differ (the CATS testbed mixes 16
     * and 32 GB V100s in one server); 0 = the profile's mem_gib. */
    double gpu_mem_gib[GP_NODE_MAX_GPUS];
} node;

typedef struct cluster {
    int64_t id;
    char name[GP_NAME_MAX];
    char *source;               /* where it was imported from, may be NULL */
    node *nodes;
    size_t nnodes, nodes_cap;
} cluster;

cluster *cluster_new(const char *name);
void cluster_free(cluster *c);
node *cluster_add_node(cluster *c, const node *n);
int64_t cluster_gpu_total(const cluster *c);
/* 1 when server i has GPUs and no server before it has GPUs of its model:
 * walking the servers, each GPU model is met once. */
int cluster_model_first(const cluster *c, size_t i);
/* The relative speed every GPU of the cluster shares (1 when it has no
 * GPU), 0 when they differ. */
double cluster_common_speed(const cluster *cl, const catalog *cat);

/* A utilization series: percent 0..100 sampled every period_s seconds of the
 * task's own (standalone) progress. */
typedef struct util_series {
    float *pct;
    size_t len;
    double period_s;
} util_series;

/* A task (SPEC §3.1).  GPU demand follows the Alibaba 2023 convention:
 * num_gpu == 0 is CPU-only; num_gpu == 1 with gpu_milli < 1000 shares one
 * GPU; otherwise num_gpu whole GPUs (gpu_milli == 1000). */
typedef struct task {
    char name[GP_NAME_MAX];
    double arrival_s;
    double duration_s;          /* e_min: alone, at f_max */
    int num_gpu;
    int gpu_milli;              /* share of each requested GPU, 0..1000 */
    double gpu_mem_gib;         /* d */
    int64_t cpu_milli;
    int64_t ram_mib;
    char *gpu_spec;             /* allowed models "A|B", NULL or "" = any */
    char qos[16];
    double kappa;               /* SLA factor, default 1.2 */
    char model[GP_NAME_MAX];    /* for the throughput catalog */
    int batch_size;
    double min_tput;
    double util_mean, util_peak, util_first;  /* summaries, percent */
    util_series util;           /* may be empty (len 0) */
} task;

#define GP_DEFAULT_KAPPA 1.2

/* The task's SLA factor: override when positive (a run's --kappa), else
 * its own, else the default. */
double task_kappa(const task *tk, double override);
/* SPEC §3.3: a task violates its SLA when its JCT exceeds kappa times its
 * standalone duration.  The tolerance forgives the rounding of a task that
 * completes exactly on time (DFS aims there, CATS Alg. 4). */
int sla_violated(double jct_s, double kappa, double e_min_s);

/* Memory fits with this tolerance, so that a task exactly the size of a GPU
 * fits it (CATS Alg. 1 line 5 writes d < c; CorrGPU Alg. 1 line 6 d <= C)
 * whatever rounding its GiB went through. */
#define GP_MEM_EPS_GIB 1e-9

/* GPUs a task holds: 0 for a CPU-only task, one for a share, else num_gpu. */
int task_gpus(const task *tk);
/* Its share of each GPU it holds, in milli (0..1000; 0 for CPU-only). */
int task_gpu_share(const task *tk);
/* Its GPU demand in milli-GPUs: share times GPUs. */
int64_t task_gpu_milli(const task *tk);

typedef struct gp_trace {
    int64_t id;
    char name[GP_NAME_MAX];
    char *source;
    /* The GPU model its durations and utilizations were measured on (a
     * profile name; "" = not stated, the default reference: core/speed.h). */
    char ref_gpu[GP_NAME_MAX];
    task *tasks;
    size_t ntasks, tasks_cap;
} gp_trace;

gp_trace *trace_new(const char *name);
void trace_free(gp_trace *t);
/* Appends a copy of *tk (its strings and series are duplicated). */
task *trace_add_task(gp_trace *t, const task *tk);
/* A zeroed task with the defaults of SPEC §3.1 (kappa 1.2, one whole GPU). */
void task_init(task *tk);
/* Sets the series (copied) and refreshes mean/peak/first from it. */
void task_set_util(task *tk, const float *pct, size_t len, double period_s);
void task_release(task *tk);
/* 1 when the task may run on a GPU of this model (gpu_spec empty or lists it). */
int task_allows_model(const task *tk, const char *model);

/* Names with their index in some array, sorted by name (ties by index)
 * so that a name is found by binary search and equal names keep their
 * order.  The names are borrowed. */
typedef struct name_idx {
    const char *name;
    int idx;
} name_idx;
void name_idx_sort(name_idx *v, size_t n);
/* The index of the first entry called name in sorted v (n entries), or -1. */
int name_idx_find(const name_idx *v, size_t n, const char *name);
/* The trace's tasks sorted by name (tr->ntasks entries, allocated; the
 * caller frees). */
name_idx *trace_names_sorted(const gp_trace *tr);

/* A throughput catalog (Gavel shape): per accelerator and job type, the solo
 * throughput and, for colocated pairs, both jobs' throughputs. */
typedef struct tput_entry {
    char accel[32];             /* e.g. "v100", "k80_unconsolidated" */
    char model[GP_NAME_MAX];    /* e.g. "ResNet-18" */
    int batch_size;
    int scale;                  /* GPUs the job spans */
    char co_model[GP_NAME_MAX]; /* "" for the solo entry */
    int co_batch_size;
    int co_scale;
    double tput;                /* iterations/s of this job */
    double co_tput;             /* of the colocated job (0 when solo) */
} tput_entry;

typedef struct tput_catalog {
    int64_t id;
    char name[GP_NAME_MAX];
    char *source;
    tput_entry *entries;
    size_t nentries, entries_cap;
} tput_catalog;

tput_catalog *tput_catalog_new(const char *name);
void tput_catalog_free(tput_catalog *c);
tput_entry *tput_catalog_add(tput_catalog *c, const tput_entry *e);
/* Counts of distinct accelerators and distinct (model, batch, scale) jobs. */
size_t tput_catalog_accels(const tput_catalog *c);
size_t tput_catalog_job_types(const tput_catalog *c);

/* A snapshot: a cluster plus the tasks running on it at one instant. */
typedef struct placement_row {
    int task;                   /* index into the snapshot's trace */
    int node;                   /* index into the cluster's nodes */
    int gpu;                    /* device index within the node, -1 = none */
    int gpu_milli;              /* share held on that device */
} placement_row;

/* What a monitor (nvidia-smi, DCGM) read on one GPU of a snapshot's
 * cluster at its instant; NAN where the source did not say. */
typedef struct gpu_reading {
    int node;                   /* index into the cluster's nodes */
    int gpu;                    /* device index within the node */
    double util_pct;
    double power_w;
    double clock_mhz;           /* SM clock */
    double mem_used_mib;
} gpu_reading;

typedef struct snapshot {
    int64_t id;
    char name[GP_NAME_MAX];
    double time_s;
    char cluster_name[GP_NAME_MAX];
    gp_trace *tasks;               /* owned: the running tasks */
    placement_row *rows;
    size_t nrows, rows_cap;
    gpu_reading *readings;         /* owned; none for a simulated instant */
    size_t nreadings, readings_cap;
} snapshot;

snapshot *snapshot_new(const char *name);
void snapshot_free(snapshot *s);
void snapshot_add_row(snapshot *s, const placement_row *r);
void snapshot_add_reading(snapshot *s, const gpu_reading *r);
/* The reading of device gpu of node, or NULL. */
const gpu_reading *snapshot_reading(const snapshot *s, int node_idx, int gpu);

#endif
