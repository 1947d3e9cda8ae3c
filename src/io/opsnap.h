/*
 * opsnap.h — an operator's snapshot being built from what a live cluster
 * reports (kubectl, nvidia-smi, DCGM): the servers and their GPUs, the
 * tasks running on them and where, the tasks waiting, and what the
 * monitors read on each GPU.  The kubectl, nvidia-smi and DCGM importers
 * fill one of these and store it in one go; this file holds what they
 * share: servers by host name, GPU models mapped to profiles (unknown ones
 * made from what was reported), placements on free devices, the readings
 * of the monitors (nvidia-smi CSV, DCGM text) and the writing.
 *
 * Not a parser: the formats are read by import_k8s.c, import_smi.c and
 * import_dcgm.c with jansson, libcsv (csvread.h) and promtext.h.
 *
 * Ownership: an opsnap owns its catalog, cluster, snapshot and queue;
 * opsnap_release() frees them.
 */
#ifndef GP_OPSNAP_H
#define GP_OPSNAP_H

#include "import.h"
#include "core/hashtab.h"
#include "core/model.h"

/* A running task's standalone time left when nothing says (a pod or a
 * process does not tell how long it will run): one hour.  What-ifs state
 * their own with --remaining. */
#define OPSNAP_DEFAULT_REMAINING_S 3600.0

/* What a monitor said about one GPU of a host (nvidia-smi --query-gpu or
 * DCGM), before it is matched to a node of the cluster. */
typedef struct opsnap_gpu {
    char host[GP_NAME_MAX];
    int index;
    char uuid[64];
    char product[GP_NAME_MAX];  /* "" when not said */
    double mem_total_mib;       /* NAN when not said, as below */
    double mem_used_mib;
    double util_pct;
    double power_w;
    double power_limit_w;
    double clock_mhz;
    double clock_max_mhz;
    /* Where it was read, for messages: the file (borrowed from the
     * import's paths) and line; host_from_file when host is the file's
     * name rather than a host column or label (then a kubectl node whose
     * name the file's contains is its node: opsnap_match_hosts). */
    const char *path;
    long line;
    int host_from_file;
} opsnap_gpu;

/* A process on a GPU (nvidia-smi --query-compute-apps) or a pod a DCGM
 * series names. */
typedef struct opsnap_app {
    char name[GP_NAME_MAX];     /* "pid-1234", or the pod's namespace/name */
    char host[GP_NAME_MAX];     /* "" = find the GPU by uuid */
    char uuid[64];
    int index;                  /* device index when host is set */
    double mem_used_mib;        /* NAN when not said */
    const char *path;           /* where it was read (borrowed), for messages */
    long line, col;
} opsnap_app;

/* What one device of the cluster holds while the snapshot is built. */
typedef struct opsnap_dev {
    int tasks;                  /* placed there */
    int milli;                  /* shares they hold */
    double mem_gib;             /* memory they asked for */
    int reading;                /* index into sn->readings, -1 none */
    int apps;                   /* processes a monitor saw there */
} opsnap_dev;

typedef struct opsnap {
    char name[GP_NAME_MAX];
    catalog *cat;               /* the stored profiles, then new ones */
    size_t cat_stored;          /* cat->gpus[0..cat_stored) are in the store */
    cluster *cl;
    snapshot *sn;
    gp_trace *queue;            /* tasks waiting (pending pods) */
    opsnap_gpu *gpus;           /* monitor readings, in the order read */
    size_t ngpus, gpus_cap;
    opsnap_app *apps;
    size_t napps, apps_cap;
    /* Kept as the snapshot grows, so that a cluster of thousands of
     * servers imports in linear time: each device's load
     * (node * GP_NODE_MAX_GPUS + device), node names hashed to their index. */
    opsnap_dev *devs;
    size_t ndevs;
    hashtab *node_ix;           /* node name -> index in cl->nodes */
    size_t nhashed;             /* nodes put there so far */
    hashtab *gpu_ix;            /* (host, index) -> index in gpus */
} opsnap;

/* The name of what an import makes when --name is not given: the
 * directory holding the first file ("lab/nodes.json" -> "lab"), else
 * fallback.  Into buf. */
void opsnap_default_name(const import_opts *opts, const char *first_path, const char *fallback,
                         char *buf, size_t len);

/* The host a monitor's file is of: its name without the directory and
 * the ending .apps.csv, .csv, .prom, .metrics or .txt (a host name may have
 * dots: "ip-10-0-0-1.ec2.internal.csv").  Into buf (GP_NAME_MAX bytes);
 * -1 with a message when it is longer than a name may be (never cut). */
int opsnap_host_of_file(const char *path, char *buf, size_t len, gp_err *err);

/* Plausibility bounds of a monitor's readings, past any GPU made (an
 * H100/B200 has 80-192 GiB, draws up to 1 kW and clocks under 2.5 GHz), so
 * that a corrupt reading cannot make a profile of 1e308 W: memory at most
 * 1 TiB per GPU, power at most 2 kW, clocks at most 5 GHz, utilization
 * 0-100 %. */
#define OPSNAP_MAX_MEM_MIB (1024.0 * 1024.0)
#define OPSNAP_MAX_POWER_W 2000.0
#define OPSNAP_MAX_CLOCK_MHZ 5000.0
typedef enum opsnap_quantity { OQ_MEM_MIB, OQ_POWER_W, OQ_CLOCK_MHZ, OQ_UTIL_PCT } opsnap_quantity;
/* 0 when v (NAN = not said) is within the bound of its quantity, else -1
 * with "expected QUANTITY 0..BOUND UNIT, got v" in why. */
int opsnap_check_bound(opsnap_quantity q, const char *what, double v, gp_err *why);

/* Matches the readings whose host is a file's name to the nodes of a
 * kubectl list: the node opts->node_of names for the file ("FILE=NODE",
 * FILE as given), else a node of that very name, else the node whose name the
 * file's name contains ("nvidia-smi_gpu-a-0.csv" -> node gpu-a-0), the
 * longest when several do and one is longest; -1 with a message naming
 * the file, the name derived from it and the nodes there are when none
 * does or two equally long ones do. */
int opsnap_match_hosts(opsnap *o, const import_opts *opts, gp_err *err);

/* Loads the store's profiles; name names the cluster, snapshot and queue. */
int opsnap_init(opsnap *o, store *st, const char *name, gp_err *err);
void opsnap_release(opsnap *o);

/* The index of the node named host, -1 when none. */
int opsnap_node(opsnap *o, const char *host);

/* The monitor reading of GPU index of host: its index in o->gpus, -1 when
 * none; and appending one (copied), which returns its index. */
int opsnap_gpu_find(const opsnap *o, const char *host, int index);
size_t opsnap_gpu_add(opsnap *o, const opsnap_gpu *g);

/* The name of the profile for a reported GPU model (product as nvidia-smi,
 * DCGM or the node label says it, e.g. "NVIDIA A100-SXM4-80GB",
 * "NVIDIA-H100-80GB-HBM3", "Tesla-T4") with mem_mib of memory (NAN when
 * unknown): a profile of that exact name; else one whose name's model
 * (A100, H100, T4 ...) the product names, with the same memory within 10 %
 * when known; else a new profile named after the product, of that memory,
 * power limit and top clock (NAN: assumed, see opsnap.c).  Into buf. */
void opsnap_profile(opsnap *o, const char *product, double mem_mib, double power_limit_w,
                    double clock_max_mhz, char *buf, size_t len);

/* Adds nodes for the hosts the readings name that the cluster lacks (a
 * node of as many GPUs as its highest device index + 1, of the model the
 * readings report); for importers whose input lists hosts only this way. */
void opsnap_nodes_from_readings(opsnap *o);

/* Places tk (copied) on node: on devices devs[0..ndev) when ndev > 0,
 * else on the first task_gpus(tk) devices with room for its share and
 * memory (its share on each).  -1 with a message when they are not there. */
int opsnap_place(opsnap *o, const task *tk, int node, const int *devs, int ndev,
                 gp_err *err);

/* Turns the monitor readings into the snapshot's readings (GPUs of nodes
 * the cluster has; others are counted in *unmatched) and places the apps
 * not already running as tasks: one task per app name (a process, a pod)
 * on all the GPUs it was seen on, apps sharing a GPU share it equally.
 * An app seen on two nodes, or on one GPU in two files, is an error naming
 * both places (-1).  Every placed task without a series gets its GPU's
 * utilization as a one-sample series. */
int opsnap_apply_readings(opsnap *o, size_t *unmatched, gp_err *err);

/* Stores the new profiles, the cluster, the snapshot and (when not empty)
 * the queue as a trace "<name>-pending"; counts them in res. */
int opsnap_store(opsnap *o, store *st, int replace, import_result *res, gp_err *err);

/* Reads a monitor's file into o: nvidia-smi --query-gpu CSV,
 * --query-compute-apps CSV (import_smi.c) or DCGM exporter text
 * (import_dcgm.c).  1 when the file is of that kind (by its first line),
 * 0 when not. */
int smi_is_gpu_csv(const char *path);
int smi_is_apps_csv(const char *path);
int smi_read_gpus(opsnap *o, const char *path, gp_err *err);
int smi_read_apps(opsnap *o, const char *path, gp_err *err);
int dcgm_is_text(const char *path);
int dcgm_read(opsnap *o, const char *path, gp_err *err);
/* A Prometheus range query of DCGM utilization (import_promrange.c): 1
 * when path is one; its tasks (one per pod, with its series, period_s 0 =
 * the query's step) appended to tr. */
int promrange_is_json(const char *path);
int promrange_read(const char *path, double period_s, gp_trace *tr, gp_err *err);
/* Gives each task of the snapshot and the queue without a series the
 * series of the task of the same name in series (a pod's measured
 * utilization); returns how many got one. */
size_t opsnap_take_series(opsnap *o, const gp_trace *series);

/* Reads any of the three by its kind; -1 with a message naming the file
 * when it is none of them. */
int opsnap_read_monitor(opsnap *o, const char *path, gp_err *err);

#endif
