/*
 * import_openb.c — the Alibaba GPU cluster trace 2023, "openb" (SPEC §4.2;
 * columns in ../shared/data/README.md; cite the FGD paper, Weng et al.,
 * USENIX ATC'23, when using it).
 *
 * Takes a node list (`sn,cpu_milli,memory_mib,gpu,model`) and/or a pod list
 * (`name,cpu_milli,memory_mib,num_gpu,gpu_milli` plus the optional
 * `gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time`; the
 * multigpu20 variant has only the first five).  Files are told apart by
 * their header, not their name.  The node list becomes a cluster, the pod
 * list a trace; both are named after their file unless --name is given.
 *
 * Mapping (FGD_NOTES §0):
 *  - node: gpu_model = `model` (a profile that must exist in the store; empty
 *    with gpu 0 = CPU-only node), cpu_model Xeon-E5-2682v4 (the CPU the PWR
 *    paper assumes, §V-A), ram_mib = memory_mib.
 *  - pod: num_gpu == 0 → CPU-only (gpu_milli 0 whatever the file says);
 *    num_gpu 1 → gpu_milli = min(gpu_milli, 1000), a share of one GPU;
 *    num_gpu > 1 → whole GPUs (gpu_milli 1000): PWR §III models a task's
 *    demand as D ∈ [0, 1) ∪ Z+, a task "cannot demand to both (1) share a
 *    GPU with other tasks and (2) fully utilize one or multiple GPUs", as
 *    the native set does (no multi-GPU pod of the 2023 files asks for less
 *    than 1000 per GPU; one that does is read as whole GPUs, so what is
 *    imported exports and imports again as it was).  A GPU pod whose
 *    gpu_milli is 0 or negative is an error (it asks for a GPU and no share
 *    of it).  gpu_spec "A|B" is kept as the allowed models.  GPU memory is
 *    not in this trace: gpu_mem_gib 0.  Row order is kept.
 *  - times (see pod_times()): arrival = creation_time; duration =
 *    deletion_time − scheduled_time; a pod never scheduled (Pending in the
 *    trace) gets deletion_time − creation_time, how long it asked for its
 *    resources; a missing deletion_time gives 0 (unknown); without time
 *    columns (multigpu20) arrival and duration are 0 — the FGD experiments
 *    ignore time anyway (tasks only arrive).  Times out of order are errors.
 *
 * Node and pod names must be unique within their file, and a list with no
 * rows is an error.  A node with gpu 0 and a model keeps the model as given.
 *
 * Not done here: pod_phase is accepted but not kept (the model has no field
 * for it; the time rules look at which times are present instead); gpu_spec
 * model names are not checked against the catalog (an unknown name simply
 * never matches a node).
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "core/model.h"

#include <stdlib.h>
#include <string.h>

#define OPENB_NODE_HEADER "sn,cpu_milli,memory_mib,gpu,model"
#define OPENB_POD_HEADER_SHORT "name,cpu_milli,memory_mib,num_gpu,gpu_milli"
#define OPENB_POD_HEADER \
    OPENB_POD_HEADER_SHORT ",gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
#define OPENB_CPU_MODEL "Xeon-E5-2682v4"   /* PWR §V-A; a built-in profile */
#define BIG 1e12                            /* bound for counts and sizes */
#define MAX_TIME_S 1e10                     /* ~317 years of seconds */

/* Remembers the line of row n; its name is filled in once parsing is done
 * (the item arrays move while they grow). */
static void push_line(import_name **v, size_t *cap, size_t n, long line)
{
    grow_array((void **)v, cap, n + 1, sizeof **v);
    (*v)[n] = (import_name){NULL, line, n};
}

/* --- node list ---------------------------------------------------------- */

static int node_row(const csv_reader *r, const csv_row *row, const int *c, const catalog *cat,
                    node *n, gp_err *err)
{
    int64_t gpus;
    memset(n, 0, sizeof *n);
    if (csv_check_width(r, row, err) || csv_text(r, row, c[0], n->name, sizeof n->name, err) ||
        csv_int(r, row, c[1], 0, (int64_t)BIG, &n->cpu_milli, err) ||
        csv_int(r, row, c[2], 0, (int64_t)BIG, &n->ram_mib, err) ||
        csv_int(r, row, c[3], 0, GP_NODE_MAX_GPUS, &gpus, err) ||
        csv_text(r, row, c[4], n->gpu_model, sizeof n->gpu_model, err))
        return -1;
    n->gpu_count = (int)gpus;
    strlcpy0(n->cpu_model, OPENB_CPU_MODEL, sizeof n->cpu_model);
    if (!n->name[0])
        return csv_fail(r, row, c[0], err, "column 'sn': expected a node name");
    if (gpus > 0 && !n->gpu_model[0])
        return csv_fail(r, row, c[4], err, "column 'model': expected a GPU model for %d GPUs",
                        n->gpu_count);
    if (n->gpu_model[0] && !catalog_gpu(cat, n->gpu_model))
        return csv_fail(r, row, c[4], err, "column 'model': unknown GPU model '%s' (expected "
                        "a GPU profile in the database; add it with `gpuplan profile`)",
                        n->gpu_model);
    return 0;
}

static int parse_nodes(csv_reader *r, const catalog *cat, cluster *cl, gp_err *err)
{
    static const char *const req[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model", NULL};
    int c[5];
    if (csv_require(r, req, c, NULL, NULL, 0, err))
        return -1;
    import_name *lines = NULL;
    size_t lines_cap = 0;
    csv_row row;
    int rc;
    while ((rc = csv_next(r, &row, err)) == 1) {
        node n;
        if (node_row(r, &row, c, cat, &n, err)) {
            rc = -1;
            break;
        }
        push_line(&lines, &lines_cap, cl->nnodes, row.line);
        cluster_add_node(cl, &n);
    }
    if (rc == 0 && cl->nnodes == 0)
        rc = gp_error(err, "%s:2:1: no rows (expected node rows after the header)",
                      csv_name(r));
    for (size_t i = 0; rc == 0 && i < cl->nnodes; i++)
        lines[i].name = cl->nodes[i].name;
    if (rc == 0)
        rc = import_check_unique(csv_name(r), "node", lines, cl->nnodes, err);
    free(lines);
    return rc;
}

/* --- pod list ----------------------------------------------------------- */

/* Column indices of a pod list; optional ones are -1 when absent. */
enum { P_NAME, P_CPU, P_MEM, P_NUM_GPU, P_GPU_MILLI, P_NREQ };
enum { P_SPEC, P_QOS, P_PHASE, P_CREATED, P_DELETED, P_SCHEDULED, P_NOPT };

/* An optional time column: *present = 0 when the column is absent or the
 * field empty, else the seconds (0..MAX_TIME_S; negative is an error). */
static int opt_time(const csv_reader *r, const csv_row *row, int col, double *out,
                    int *present, gp_err *err)
{
    *present = col >= 0 && row->field[col][0] != '\0';
    *out = 0;
    return *present ? csv_real(r, row, col, 0, MAX_TIME_S, out, err) : 0;
}

/* arrival and duration from creation/scheduled/deletion (rules in the file
 * comment).  Out-of-order times would give negative durations: errors. */
static int pod_times(const csv_reader *r, const csv_row *row, const int *o, task *k,
                     gp_err *err)
{
    double created, scheduled, deleted;
    int has_c, has_s, has_d;
    if (o[P_CREATED] >= 0 && !row->field[o[P_CREATED]][0])
        return csv_fail(r, row, o[P_CREATED], err,
                        "column 'creation_time': expected seconds, got an empty field");
    if (opt_time(r, row, o[P_CREATED], &created, &has_c, err) ||
        opt_time(r, row, o[P_SCHEDULED], &scheduled, &has_s, err) ||
        opt_time(r, row, o[P_DELETED], &deleted, &has_d, err))
        return -1;
    if (has_s && scheduled < created)
        return csv_fail(r, row, o[P_SCHEDULED], err, "column 'scheduled_time': %.0f is "
                        "before creation_time %.0f (expected scheduled >= created)",
                        scheduled, created);
    double start = has_s ? scheduled : created;
    if (has_d && deleted < start)
        return csv_fail(r, row, o[P_DELETED], err, "column 'deletion_time': %.0f is before "
                        "%s %.0f (expected a non-negative duration)", deleted,
                        has_s ? "scheduled_time" : "creation_time", start);
    k->arrival_s = created;
    k->duration_s = has_d ? deleted - start : 0;
    return 0;
}

/* num_gpu/gpu_milli per FGD_NOTES §0. */
static int pod_gpus(const csv_reader *r, const csv_row *row, const int *c, task *k,
                    gp_err *err)
{
    int64_t num, milli;
    if (csv_int(r, row, c[P_NUM_GPU], 0, GP_NODE_MAX_GPUS, &num, err) ||
        csv_int(r, row, c[P_GPU_MILLI], INT64_MIN, INT64_MAX, &milli, err))
        return -1;
    k->num_gpu = (int)num;
    if (num == 0) {
        k->gpu_milli = 0;
        return 0;
    }
    if (milli <= 0)
        return csv_fail(r, row, c[P_GPU_MILLI], err, "column 'gpu_milli': %lld for a pod "
                        "with %d GPUs (expected a share of 1..1000 milli-GPU)",
                        (long long)milli, k->num_gpu);
    k->gpu_milli = milli > 1000 || num > 1 ? 1000 : (int)milli;
    return 0;
}

/* "A|B": allowed models; empty = any.  Empty alternatives are typos. */
static int pod_spec(const csv_reader *r, const csv_row *row, int col, task *k, gp_err *err)
{
    if (col < 0 || !row->field[col][0])
        return 0;
    const char *s = row->field[col];
    size_t n = strlen(s);
    if (s[0] == '|' || s[n - 1] == '|' || strstr(s, "||"))
        return csv_fail(r, row, col, err, "column 'gpu_spec': expected GPU model names "
                        "separated by '|', got '%.40s'", s);
    k->gpu_spec = xstrdup(s);
    return 0;
}

static int pod_row(const csv_reader *r, const csv_row *row, const int *c, const int *o,
                   task *k, gp_err *err)
{
    task_init(k);
    if (csv_check_width(r, row, err) ||
        csv_text(r, row, c[P_NAME], k->name, sizeof k->name, err) ||
        csv_int(r, row, c[P_CPU], 0, (int64_t)BIG, &k->cpu_milli, err) ||
        csv_int(r, row, c[P_MEM], 0, (int64_t)BIG, &k->ram_mib, err) ||
        pod_gpus(r, row, c, k, err) ||
        (o[P_QOS] >= 0 && csv_text(r, row, o[P_QOS], k->qos, sizeof k->qos, err)) ||
        pod_times(r, row, o, k, err) || pod_spec(r, row, o[P_SPEC], k, err))
        return -1;
    if (!k->name[0])
        return csv_fail(r, row, c[P_NAME], err, "column 'name': expected a pod name");
    return 0;
}

static int parse_pods(csv_reader *r, gp_trace *t, gp_err *err)
{
    static const char *const req[] = {"name", "cpu_milli", "memory_mib", "num_gpu",
                                      "gpu_milli", NULL};
    static const char *const opt[] = {"gpu_spec", "qos", "pod_phase", "creation_time",
                                      "deletion_time", "scheduled_time", NULL};
    int c[P_NREQ], o[P_NOPT];
    if (csv_require(r, req, c, opt, o, 0, err))
        return -1;
    import_name *lines = NULL;
    size_t lines_cap = 0;
    csv_row row;
    int rc;
    while ((rc = csv_next(r, &row, err)) == 1) {
        task k;
        if (pod_row(r, &row, c, o, &k, err)) {
            task_release(&k);
            rc = -1;
            break;
        }
        push_line(&lines, &lines_cap, t->ntasks, row.line);
        trace_add_task(t, &k);
        task_release(&k);
    }
    if (rc == 0 && t->ntasks == 0)
        rc = gp_error(err, "%s:2:1: no rows (expected pod rows after the header)",
                      csv_name(r));
    for (size_t i = 0; rc == 0 && i < t->ntasks; i++)
        lines[i].name = t->tasks[i].name;
    if (rc == 0)
        rc = import_check_unique(csv_name(r), "pod", lines, t->ntasks, err);
    free(lines);
    return rc;
}

/* --- the import --------------------------------------------------------- */

typedef struct openb_set {
    cluster *cl;
    gp_trace *tr;
} openb_set;

/* Parses one file, a node list or a pod list by its header. */
static int parse_file(const char *path, const char *name_opt, const catalog *cat,
                      openb_set *s, gp_err *err)
{
    if (import_is_dir(path))
        return gp_error(err, "%s: is a directory (expected an openb node or pod list CSV)",
                        path);
    csv_reader *r = csv_open(path, 1, err);
    if (!r)
        return -1;
    int is_node = csv_col(r, "sn") >= 0;
    int is_pod = csv_col(r, "num_gpu") >= 0;
    char name[GP_NAME_MAX];
    if (name_opt)
        strlcpy0(name, name_opt, sizeof name);
    else
        import_base_name(path, name, sizeof name);
    int rc;
    if (is_node == is_pod)
        rc = csv_fail(r, csv_header(r), 0, err, "expected an openb node list header (%s) "
                      "or pod list header (%s)", OPENB_NODE_HEADER, OPENB_POD_HEADER);
    else if ((is_node && s->cl) || (is_pod && s->tr))
        rc = gp_error(err, "%s: a second %s list (expected at most one node list and one "
                      "pod list)", path, is_node ? "node" : "pod");
    else if (is_node) {
        s->cl = cluster_new(name);
        s->cl->source = xstrdup(path);
        rc = parse_nodes(r, cat, s->cl, err);
    } else {
        s->tr = trace_new(name);
        s->tr->source = xstrdup(path);
        rc = parse_pods(r, s->tr, err);
    }
    csv_close(r);
    return rc;
}

static int write_set(store *st, const openb_set *s, int replace, import_result *res,
                     gp_err *err)
{
    if ((s->cl && import_put_cluster(st, s->cl, replace, res, err)) ||
        (s->tr && import_put_trace(st, s->tr, replace, res, err)))
        return -1;
    return 0;
}

/* The node list names CPU Xeon-E5-2682v4: check it up front for a clear
 * message rather than the store's per-node one. */
static int check_cpu_profile(const catalog *cat, const openb_set *s, gp_err *err)
{
    if (s->cl && s->cl->nnodes && !catalog_cpu(cat, OPENB_CPU_MODEL))
        return gp_error(err, "openb: the node list needs the CPU profile '%s' (the PWR "
                        "paper's Xeon E5-2682 v4), which is not in the database",
                        OPENB_CPU_MODEL);
    return 0;
}

static int openb_run(store *st, const char *const *paths, size_t npaths,
                     const import_opts *opts, import_result *res, gp_err *err)
{
    if (npaths < 1 || npaths > 2)
        return gp_error(err, "openb: expected a node list and/or a pod list CSV, got %zu "
                        "paths", npaths);
    catalog *cat;
    if (store_load_catalog(st, &cat, err))
        return -1;
    openb_set s = {0};
    int rc = 0;
    for (size_t i = 0; i < npaths && !rc; i++)
        rc = parse_file(paths[i], opts->name, cat, &s, err);
    if (!rc)
        rc = check_cpu_profile(cat, &s, err);
    if (!rc)
        rc = write_set(st, &s, opts->replace, res, err);
    catalog_free(cat);
    cluster_free(s.cl);
    trace_free(s.tr);
    return rc;
}

/* 95 for an exact openb header, 60 for an openb file name with another
 * header (so run() explains what is wrong), 0 otherwise; every path must be
 * an openb file. */
static int path_score(const char *path)
{
    char line[512], base[GP_NAME_MAX];
    if (import_is_dir(path))
        return 0;
    if (import_first_line(path, line, sizeof line) == 0) {
        if (strcmp(line, OPENB_NODE_HEADER) == 0 || strcmp(line, OPENB_POD_HEADER) == 0 ||
            strcmp(line, OPENB_POD_HEADER_SHORT) == 0)
            return 95;
    }
    import_base_name(path, base, sizeof base);
    if (strncmp(base, "openb_node_list", 15) == 0 || strncmp(base, "openb_pod_list", 14) == 0)
        return 60;
    return 0;
}

static int openb_detect(const char *const *paths, size_t npaths)
{
    return import_detect_each(paths, npaths, 2, path_score);
}

const importer import_openb = {
    .format = "openb",
    .summary = "Alibaba GPU cluster trace 2023 (openb node and pod lists; FGD/PWR papers)",
    .inputs = "openb_node_list_*.csv (a cluster) and/or openb_pod_list_*.csv (a trace), "
              "told apart by header",
    .detect = openb_detect,
    .run = openb_run,
};
