/*
 * import_k8s.c — a Kubernetes cluster as kubectl lists it ("k8s", SPEC
 * §4.2):
 *
 *   kubectl get nodes -o json > nodes.json
 *   kubectl get pods -A -o json > pods.json
 *
 * (a List, NodeList or PodList; both lists may also be one file), with,
 * optionally, nvidia-smi CSV or DCGM metrics of the nodes next to them
 * (import_smi.c, import_dcgm.c: a file per node, with a host column or
 * label, or named after it: a file whose name contains a node's name is
 * that node's, "nvidia-smi_gpu-a-0.csv" of gpu-a-0, opsnap_match_hosts) for each
 * GPU's utilization, power, clock and memory, and a Prometheus range query
 * of the pods' utilization (import_promrange.c) for their series.
 *
 * Nodes: name; GPUs from status.allocatable (else capacity) nvidia.com/gpu
 * (or alibabacloud.com/gpu-count, as the FGD simulator's nodes have it);
 * their model from the GPU feature discovery labels nvidia.com/gpu.product
 * and nvidia.com/gpu.memory (MiB), else alibabacloud.com/gpu-card-model,
 * else from the cloud's instance type
 * (node.kubernetes.io/instance-type: a few known GPU types below, others
 * a profile named after the type); vCPU and memory from the same list.
 * Pods: requests (limits where a request is absent) summed over the
 * containers — cpu, memory, nvidia.com/gpu whole GPUs, and the shared-GPU
 * conventions of the clusters the Alibaba traces come from:
 *   alibabacloud.com/gpu-milli + gpu-count (annotations or requests), the
 *     share of each GPU in milli and how many (the openb trace's fields);
 *   aliyun.com/gpu-mem, GiB of one GPU (Alibaba's GPU sharing), its device
 *     in the annotation ALIYUN_COM_GPU_MEM_IDX;
 *   nvidia.com/gpumem (MiB) and nvidia.com/gpucores (%) of each GPU (HAMi);
 *   the GPU operator's time-slicing: a node labelled nvidia.com/gpu.replicas
 *     R counts R GPUs per physical one, and a pod asking n of them takes
 *     n/R of one GPU;
 *   MIG: a pod's nvidia.com/mig-<g>g.<m>gb instances (mixed strategy) are
 *     g/7 of one GPU (g/4 on an A30) with m GB; under the single strategy
 *     (product "A100-SXM4-40GB-MIG-1g.5gb") each nvidia.com/gpu is one such
 *     instance.  Instances are shares of a GPU, not pinned to slices.
 * A Running pod bound to a node is a task of the snapshot on that node
 * (whole GPUs on its first free devices: the API does not say which); a
 * Pending pod is a task of the queue, a trace "<name>-pending"; other
 * phases are left out and counted.  A pod's remaining time is not in the
 * API: OPSNAP_DEFAULT_REMAINING_S, which what-ifs override.
 *
 * jansson parses; a bad value is located in the text with jsonpos.h.
 */
#include "import.h"
#include "import_table.h"
#include "input.h"
#include "jsonpos.h"
#include "opsnap.h"
#include "table.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct k8s_doc {
    const char *path;
    char *text;
    size_t len;
    json_t *root;
} k8s_doc;

__attribute__((format(printf, 4, 5)))
static int k8s_fail(const k8s_doc *d, const jsonpos_path *p, gp_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = jsonpos_vfail(d->path, d->text, d->len, p, JSONPOS_DOTTED, err, fmt, ap);
    va_end(ap);
    return rc;
}

/* --- quantities ---------------------------------------------------------------- */

/* Past any real cluster's (1 EiB of memory), so that every count and
 * size converts to an integer safely. */
#define MAX_QUANTITY 1.2e18

/* A Kubernetes quantity ("64", "63500m", "527860428Ki", "1.5Gi", "2e3")
 * in base units (cores, bytes, devices), at most MAX_QUANTITY; 0 or -1. */
static int quantity(const char *s, double *out)
{
    static const struct { const char *suffix; double mult; } units[] = {
        {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
        {"Pi", 1125899906842624.0}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9},
        {"T", 1e12}, {"P", 1e15}};
    char num[64];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof num)
        return -1;
    double mult = 1;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t l = strlen(units[i].suffix);
        if (n > l && strcmp(s + n - l, units[i].suffix) == 0) {
            mult = units[i].mult;
            n -= l;
            break;
        }
    }
    memcpy(num, s, n);
    num[n] = '\0';
    double v;
    if (parse_double(num, &v) || !isfinite(v) || v < 0 || v * mult > MAX_QUANTITY)
        return -1;
    *out = v * mult;
    return 0;
}

/* Member key of object v at path p as a quantity; absent is 0 (*out
 * untouched, returns 0). */
static int member_quantity(const k8s_doc *d, const jsonpos_path *p, const json_t *obj,
                           const char *key, double *out, int *found, gp_err *err)
{
    json_t *v = json_object_get(obj, key);
    if (found)
        *found = v != NULL;
    if (!v)
        return 0;
    jsonpos_path vp = jsonpos_key(p, key);
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        json_integer_value(v) <= (json_int_t)MAX_QUANTITY) {
        *out = (double)json_integer_value(v);
        return 0;
    }
    if (!json_is_string(v) || quantity(json_string_value(v), out))
        return k8s_fail(d, &vp, err, "expected a quantity (\"64\", \"500m\", \"16Gi\"), got "
                        "%s%s%s%s", jsonpos_type_name(v), json_is_string(v) ? " '" : "",
                        json_is_string(v) ? json_string_value(v) : "",
                        json_is_string(v) ? "'" : "");
    return 0;
}

/* A string member, NULL when absent; an error when present and not a string. */
static int member_string(const k8s_doc *d, const jsonpos_path *p, const json_t *obj,
                         const char *key, const char **out, gp_err *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v)) {
        jsonpos_path vp = jsonpos_key(p, key);
        return k8s_fail(d, &vp, err, "expected a string, got %s", jsonpos_type_name(v));
    }
    *out = json_string_value(v);
    return 0;
}

static json_t *member_object(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_object(v) ? v : NULL;
}

/* --- MIG ------------------------------------------------------------------------------- */

/* The first place needle is in s, letters in any case; NULL when none. */
static const char *find_nocase(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0)
            return s;
    return NULL;
}

/* A MIG profile at the end of s ("nvidia.com/mig-3g.20gb", "A100-SXM4-40GB-MIG-1g.5gb"):
 * its compute slices and memory; 0, or -1 when s names none. */
static int mig_profile(const char *s, int *slices, double *gib)
{
    const char *m = find_nocase(s, "mig-");
    if (!m)
        return -1;
    char *end;
    long g = strtol(m + 4, &end, 10);
    if (g < 1 || g > 8 || *end != 'g' || end[1] != '.')
        return -1;
    double mem = strtod(end + 2, &end);
    if (!(mem > 0) || strcasecmp(end, "gb") != 0)
        return -1;
    *slices = (int)g;
    *gib = mem;
    return 0;
}

/* Compute slices of a whole GPU of this model under MIG: 4 on an A30, 7
 * on the A100 and H100. */
static int mig_slices_per_gpu(const char *product)
{
    return find_nocase(product, "A30") ? 4 : 7;
}

/* --- nodes -------------------------------------------------------------------------- */

/* Per node, in the cluster's order: how many pods share each GPU in turn
 * (the GPU operator's time-slicing: allocatable nvidia.com/gpu counts
 * replicas, the label nvidia.com/gpu.replicas says how many per GPU). */
typedef struct k8s_slices {
    int *per_gpu;
    int *mig_milli;             /* MIG single strategy: a GPU the node counts
                                 * is this share of a physical one; 0 = none */
    size_t n, cap, mig_cap;
} k8s_slices;

/* The node's replicas per GPU, 1 without time-slicing. */
static int node_replicas(const k8s_doc *d, const jsonpos_path *mp, const json_t *labels,
                         int *out, gp_err *err)
{
    double r = 1;
    int found = 0;
    jsonpos_path lp = jsonpos_key(mp, "labels");
    *out = 1;
    if (labels && member_quantity(d, &lp, labels, "nvidia.com/gpu.replicas", &r, &found, err))
        return -1;
    if (found && (r < 1 || r > 1000 || r != floor(r))) {
        jsonpos_path rp = jsonpos_key(&lp, "nvidia.com/gpu.replicas");
        return k8s_fail(d, &rp, err, "expected 1..1000 replicas per GPU, got %g", r);
    }
    *out = (int)r;
    return 0;
}

/* GPU instance types of the clouds whose nodes may lack GFD labels. */
static const struct { const char *prefix, *product; double mem_mib; } instance_gpus[] = {
    {"p4d.", "A100-SXM4-40GB", 40960}, {"p4de.", "A100-SXM4-80GB", 81920},
    {"p5.", "H100-SXM5-80GB", 81920},  {"p3.", "V100-SXM2-16GB", 16384},
    {"g4dn.", "T4", 15360},            {"g5.", "A10G", 23028},
    {"g6.", "L4", 23034},              {"a2-highgpu-", "A100-SXM4-40GB", 40960},
    {"a2-ultragpu-", "A100-SXM4-80GB", 81920}, {"a3-highgpu-", "H100-80GB-HBM3", 81920},
    {"g2-standard-", "L4", 23034},     {"Standard_ND96asr_v4", "A100-SXM4-40GB", 40960},
};

static void instance_gpu(const char *type, const char **product, double *mem_mib)
{
    for (size_t i = 0; i < sizeof instance_gpus / sizeof *instance_gpus; i++)
        if (strncmp(type, instance_gpus[i].prefix, strlen(instance_gpus[i].prefix)) == 0) {
            *product = instance_gpus[i].product;
            *mem_mib = instance_gpus[i].mem_mib;
            return;
        }
    *product = type;
}

/* The node's GPU model: GFD labels, else its instance type. */
static int node_gpu_model(opsnap *o, const k8s_doc *d, const jsonpos_path *p,
                          const json_t *labels, node *n, gp_err *err)
{
    jsonpos_path lp = jsonpos_key(p, "labels");
    const char *product = NULL, *type = NULL;
    double mem_mib = NAN;
    int has_mem;
    if (member_string(d, &lp, labels, "nvidia.com/gpu.product", &product, err) ||
        member_quantity(d, &lp, labels, "nvidia.com/gpu.memory", &mem_mib, &has_mem, err) ||
        (!product &&
         member_string(d, &lp, labels, "alibabacloud.com/gpu-card-model", &product, err)))
        return -1;
    if (!has_mem)
        mem_mib = NAN;
    if (!product && (member_string(d, &lp, labels, "node.kubernetes.io/instance-type", &type,
                                   err) ||
                     (!type && member_string(d, &lp, labels,
                                             "beta.kubernetes.io/instance-type", &type, err))))
        return -1;
    if (!product && type)
        instance_gpu(type, &product, &mem_mib);
    if (!product)
        product = "GPU";
    /* a MIG single-strategy product names its instances: the GPU is before */
    char parent[GP_NAME_MAX];
    const char *mig = find_nocase(product, "-MIG-");
    if (mig) {
        import_copy_utf8(parent, sizeof parent, product);
        parent[mig - product < (long)sizeof parent ? mig - product : 0] = '\0';
        product = parent;
        mem_mib = NAN;                      /* the label's is an instance's */
    }
    opsnap_profile(o, product, mem_mib, NAN, NAN, n->gpu_model, sizeof n->gpu_model);
    return 0;
}

/* The physical GPUs of a MIG node: with the mixed strategy its
 * allocatable lists nvidia.com/mig-<g>g.<m>gb instances (the label
 * nvidia.com/gpu.count, else their slices over a GPU's, gives the GPUs);
 * with the single strategy nvidia.com/gpu counts instances of the profile
 * the product label ends with (*unit_milli: the share of a GPU each is). */
static int node_mig(const k8s_doc *d, const jsonpos_path *mp, const jsonpos_path *rp,
                    const json_t *res, const json_t *labels, double *gpus, int *unit_milli,
                    gp_err *err)
{
    const char *product = labels ? json_string_value(json_object_get(labels,
                                                     "nvidia.com/gpu.product")) : NULL;
    int per_gpu = mig_slices_per_gpu(product ? product : "");
    int g;
    double gib;
    *unit_milli = 0;
    if (product && *gpus > 0 && mig_profile(product, &g, &gib) == 0) {     /* single */
        *unit_milli = 1000 * g / per_gpu;
        *gpus = ceil(*gpus * g / per_gpu);
        return 0;
    }
    if (*gpus > 0)
        return 0;
    double slices = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)res, key, v) {
        double n = 0;
        if (strncmp(key, "nvidia.com/mig-", 15) != 0 || mig_profile(key, &g, &gib))
            continue;
        if (member_quantity(d, rp, res, key, &n, NULL, err))
            return -1;
        slices += n * g;
    }
    if (slices == 0)
        return 0;
    double count = 0;
    int found = 0;
    jsonpos_path lp = jsonpos_key(mp, "labels");
    if (labels && member_quantity(d, &lp, labels, "nvidia.com/gpu.count", &count, &found, err))
        return -1;
    *gpus = found && count > 0 ? count : ceil(slices / per_gpu);
    return 0;
}

static int read_node(opsnap *o, k8s_slices *sl, const k8s_doc *d, const jsonpos_path *p,
                     const json_t *item, gp_err *err)
{
    jsonpos_path mp = jsonpos_key(p, "metadata"), sp = jsonpos_key(p, "status");
    const json_t *meta = member_object(item, "metadata"), *status = member_object(item, "status");
    const char *name = NULL;
    if (!meta || member_string(d, &mp, meta, "name", &name, err) || !name || !name[0])
        return k8s_fail(d, meta ? &mp : p, err, "expected metadata.name, the node's name");
    if (strlen(name) >= GP_NAME_MAX) {
        gp_err why;
        import_check_name_len(NULL, "the node's name", name, &why);
        return k8s_fail(d, &mp, err, "%s", why.msg);
    }
    if (opsnap_node(o, name) >= 0) {
        char *shown = text_printable(name);
        k8s_fail(d, &mp, err, "node '%s' is listed twice", shown);
        free(shown);
        return -1;
    }
    node n;
    memset(&n, 0, sizeof n);
    strlcpy0(n.name, name, sizeof n.name);
    const json_t *res = status ? member_object(status, "allocatable") : NULL;
    const char *which = "allocatable";
    if (!res && status) {
        res = member_object(status, "capacity");
        which = "capacity";
    }
    double gpus = 0, cpu = 0, mem = 0;
    const json_t *labels = member_object(meta, "labels");
    int replicas, mig_milli = 0;
    if (node_replicas(d, &mp, labels, &replicas, err))
        return -1;
    if (res) {
        jsonpos_path rp = jsonpos_key(&sp, which);
        int has_gpus;
        if (member_quantity(d, &rp, res, "nvidia.com/gpu", &gpus, &has_gpus, err) ||
            (!has_gpus &&
             member_quantity(d, &rp, res, "alibabacloud.com/gpu-count", &gpus, NULL, err)) ||
            member_quantity(d, &rp, res, "cpu", &cpu, NULL, err) ||
            member_quantity(d, &rp, res, "memory", &mem, NULL, err))
            return -1;
        gpus /= replicas;       /* time slices of the physical GPUs */
        if (node_mig(d, &mp, &rp, res, labels, &gpus, &mig_milli, err))
            return -1;
        if (gpus != floor(gpus) || gpus > GP_NODE_MAX_GPUS) {
            jsonpos_path gp = jsonpos_key(&rp, "nvidia.com/gpu");
            return k8s_fail(d, &gp, err, "expected 0..%d whole GPUs (times the %d replicas "
                            "of each), got %g", GP_NODE_MAX_GPUS, replicas, gpus * replicas);
        }
    }
    n.gpu_count = (int)gpus;
    n.cpu_milli = (int64_t)llround(fmin(cpu, 1e15) * 1000);
    n.ram_mib = (int64_t)(mem / 1048576.0);
    if (n.gpu_count > 0 && labels && node_gpu_model(o, d, &mp, labels, &n, err))
        return -1;
    if (n.gpu_count > 0 && !n.gpu_model[0])
        opsnap_profile(o, "GPU", NAN, NAN, NAN, n.gpu_model, sizeof n.gpu_model);
    cluster_add_node(o->cl, &n);
    grow_array((void **)&sl->per_gpu, &sl->cap, sl->n + 1, sizeof *sl->per_gpu);
    grow_array((void **)&sl->mig_milli, &sl->mig_cap, sl->n + 1, sizeof *sl->mig_milli);
    sl->per_gpu[sl->n] = replicas;
    sl->mig_milli[sl->n++] = mig_milli;
    return 0;
}

/* --- pods ----------------------------------------------------------------------------- */

/* What a pod asks for, summed over its containers. */
typedef struct pod_ask {
    double cpu, mem, gpus;
    double milli, count;            /* alibabacloud.com/gpu-milli, gpu-count */
    double gpu_mem_gib;             /* aliyun.com/gpu-mem */
    double hami_mem_mib, hami_cores;
    double mig_slices, mig_gib;     /* nvidia.com/mig-<g>g.<m>gb instances */
} pod_ask;

/* Adds one resource map (requests or limits) of a container; only keys
 * not in skip (those the requests already gave) are added. */
static int add_resources(const k8s_doc *d, const jsonpos_path *p, const json_t *res,
                         const json_t *skip, pod_ask *a, gp_err *err)
{
    static const char *const keys[] = {
        "cpu", "memory", "nvidia.com/gpu", "alibabacloud.com/gpu-milli",
        "alibabacloud.com/gpu-count", "aliyun.com/gpu-mem", "nvidia.com/gpumem",
        "nvidia.com/gpucores"};
    double *slot[] = {&a->cpu, &a->mem, &a->gpus, &a->milli, &a->count, &a->gpu_mem_gib,
                      &a->hami_mem_mib, &a->hami_cores};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (skip && json_object_get(skip, keys[i]))
            continue;
        double v = 0;
        if (member_quantity(d, p, res, keys[i], &v, NULL, err))
            return -1;
        *slot[i] += v;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)res, key, v) {
        int g;
        double gib, n = 0;
        if (strncmp(key, "nvidia.com/mig-", 15) != 0 || mig_profile(key, &g, &gib) ||
            (skip && json_object_get(skip, key)))
            continue;
        if (member_quantity(d, p, res, key, &n, NULL, err))
            return -1;
        a->mig_slices += n * g;
        a->mig_gib += n * gib;
    }
    return 0;
}

static int read_ask(const k8s_doc *d, const jsonpos_path *p, const json_t *pod, pod_ask *a,
                    gp_err *err)
{
    memset(a, 0, sizeof *a);
    jsonpos_path sp = jsonpos_key(p, "spec"), cp = jsonpos_key(&sp, "containers");
    const json_t *spec = member_object(pod, "spec");
    json_t *containers = spec ? json_object_get(spec, "containers") : NULL;
    if (!json_is_array(containers))
        return k8s_fail(d, spec ? &sp : p, err, "expected spec.containers, an array");
    size_t i;
    json_t *c;
    json_array_foreach(containers, i, c) {
        jsonpos_path ip = jsonpos_index(&cp, i), rp = jsonpos_key(&ip, "resources");
        const json_t *res = member_object(c, "resources");
        if (!res)
            continue;
        const json_t *req = member_object(res, "requests"), *lim = member_object(res, "limits");
        jsonpos_path qp = jsonpos_key(&rp, "requests"), lp = jsonpos_key(&rp, "limits");
        if ((req && add_resources(d, &qp, req, NULL, a, err)) ||
            (lim && add_resources(d, &lp, lim, req, a, err)))
            return -1;
    }
    /* the openb convention may be annotations rather than resources */
    const json_t *ann = member_object(member_object(pod, "metadata"), "annotations");
    jsonpos_path ap = jsonpos_key(p, "metadata");
    ap = jsonpos_key(&ap, "annotations");
    if (ann && a->milli == 0 &&
        (member_quantity(d, &ap, ann, "alibabacloud.com/gpu-milli", &a->milli, NULL, err) ||
         member_quantity(d, &ap, ann, "alibabacloud.com/gpu-count", &a->count, NULL, err)))
        return -1;
    return 0;
}

/* The task a pod's ask makes: whole GPUs, or a share by one of the
 * conventions (file comment); dev_mem_gib is its node's device memory. */
static int ask_task(const k8s_doc *d, const jsonpos_path *p, const pod_ask *a,
                    double dev_mem_gib, task *tk, gp_err *err)
{
    if (a->gpus > GP_NODE_MAX_GPUS || a->count > GP_NODE_MAX_GPUS || a->milli > 1e6 ||
        a->hami_cores > 1e6)
        return k8s_fail(d, p, err, "expected 1..%d whole GPUs or a share of one GPU "
                        "(1..1000 milli), got %g GPU(s)", GP_NODE_MAX_GPUS,
                        fmax(a->gpus, a->count));
    tk->cpu_milli = (int64_t)llround(fmin(a->cpu, 1e15) * 1000);
    tk->ram_mib = (int64_t)(a->mem / 1048576.0);
    tk->num_gpu = (int)a->gpus;
    tk->gpu_milli = 1000;
    if (a->milli > 0) {                                 /* openb */
        tk->num_gpu = a->count > 0 ? (int)a->count : 1;
        tk->gpu_milli = (int)llround(a->milli);
    } else if (a->gpu_mem_gib > 0) {                    /* Alibaba GPU sharing */
        tk->num_gpu = 1;
        /* "8" is 8 GiB as the device plugin counts; "8Gi" came as bytes */
        tk->gpu_mem_gib = a->gpu_mem_gib > 4096 ? a->gpu_mem_gib / 1073741824.0
                                                : a->gpu_mem_gib;
        tk->gpu_milli = dev_mem_gib > 0 ? (int)ceil(1000 * tk->gpu_mem_gib / dev_mem_gib) : 1000;
    } else if (a->hami_cores > 0 || a->hami_mem_mib > 0) { /* HAMi */
        if (tk->num_gpu < 1)
            tk->num_gpu = 1;
        tk->gpu_milli = a->hami_cores > 0 ? (int)llround(a->hami_cores * 10) : 1000;
        tk->gpu_mem_gib = a->hami_mem_mib / 1024;
    }
    if (tk->gpu_milli < 1 || tk->gpu_milli > 1000 || tk->num_gpu < 0 ||
        tk->num_gpu > GP_NODE_MAX_GPUS || (tk->gpu_milli < 1000 && tk->num_gpu > 1))
        return k8s_fail(d, p, err, "expected 1..%d whole GPUs or a share of one GPU "
                        "(1..1000 milli), got %d GPU(s) of %d milli", GP_NODE_MAX_GPUS,
                        tk->num_gpu, tk->gpu_milli);
    if (tk->num_gpu == 0)
        tk->gpu_milli = 0;
    return 0;
}

/* The device an Alibaba GPU-sharing pod was given, -1 when not said. */
static int pod_device(const json_t *pod)
{
    const json_t *ann = member_object(member_object(pod, "metadata"), "annotations");
    json_t *v = ann ? json_object_get(ann, "ALIYUN_COM_GPU_MEM_IDX") : NULL;
    double idx;
    if (!json_is_string(v) || quantity(json_string_value(v), &idx))
        return -1;
    return idx < GP_NODE_MAX_GPUS ? (int)idx : GP_NODE_MAX_GPUS;   /* past any node's */
}

enum { SKIP_FINISHED, SKIP_NO_NODE, SKIP_N };

/* Where each pod that became a task was (its document and item), to
 * refuse a pod listed twice naming both places: two tasks of one name
 * would be one pod counted twice, and the snapshot's export could not be
 * read back. */
typedef struct pod_pos {
    char *name;                 /* namespace/name, owned */
    size_t doc, item;
} pod_pos;

typedef struct k8s_pods {
    pod_pos *v;
    size_t n, cap;
    size_t doc, item;           /* of the pod being read */
} k8s_pods;

static void note_pod(k8s_pods *pods, const char *name)
{
    grow_array((void **)&pods->v, &pods->cap, pods->n + 1, sizeof *pods->v);
    pods->v[pods->n++] = (pod_pos){xstrdup(name), pods->doc, pods->item};
}

static int cmp_pod_pos(const void *a, const void *b)
{
    const pod_pos *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->doc != y->doc ? (x->doc < y->doc ? -1 : 1)
                            : (x->item < y->item ? -1 : x->item > y->item);
}

/* "file:line:col" of items[item].metadata.name of a document, into buf. */
static void pod_where(const k8s_doc *d, size_t item, char *buf, size_t len)
{
    jsonpos_path p = jsonpos_key(&(jsonpos_path){0}, "items");
    p = jsonpos_index(&p, item);
    p = jsonpos_key(&p, "metadata");
    p = jsonpos_key(&p, "name");
    jsonpos_loc loc = jsonpos_locate(d->text, d->len, &p);
    long line, col;
    jsonpos_line_col(d->text, d->len, loc.value, &line, &col);
    snprintf(buf, len, "%s:%ld:%ld", d->path, line, col);
}

/* Fails on a pod listed twice (O(n log n)), naming both places. */
static int check_pods_unique(k8s_pods *pods, const k8s_doc *docs, gp_err *err)
{
    if (pods->n > 1)
        qsort(pods->v, pods->n, sizeof *pods->v, cmp_pod_pos);
    for (size_t i = 1; i < pods->n; i++) {
        const pod_pos *a = &pods->v[i - 1], *b = &pods->v[i];
        if (strcmp(a->name, b->name) != 0)
            continue;
        char first[4200], second[4200];
        pod_where(&docs[a->doc], a->item, first, sizeof first);
        pod_where(&docs[b->doc], b->item, second, sizeof second);
        char *shown = text_printable(a->name);
        gp_error(err, "%s: pod '%s' is listed twice (first at %s; expected one item per "
                 "pod)", second, shown, first);
        free(shown);
        return -1;
    }
    return 0;
}

static void free_pods(k8s_pods *pods)
{
    for (size_t i = 0; i < pods->n; i++)
        free(pods->v[i].name);
    free(pods->v);
}

static int read_pod(opsnap *o, const k8s_slices *sl, const k8s_doc *d,
                    const jsonpos_path *p, const json_t *item, size_t *skipped,
                    k8s_pods *pods, gp_err *err)
{
    jsonpos_path mp = jsonpos_key(p, "metadata"), sp = jsonpos_key(p, "spec");
    jsonpos_path stp = jsonpos_key(p, "status");
    const json_t *meta = member_object(item, "metadata"), *spec = member_object(item, "spec");
    const json_t *status = member_object(item, "status");
    const char *name = NULL, *ns = NULL, *node_name = NULL, *phase = NULL;
    if (!meta || member_string(d, &mp, meta, "name", &name, err) || !name)
        return k8s_fail(d, meta ? &mp : p, err, "expected metadata.name, the pod's name");
    if (member_string(d, &mp, meta, "namespace", &ns, err) ||
        (spec && member_string(d, &sp, spec, "nodeName", &node_name, err)) ||
        (status && member_string(d, &stp, status, "phase", &phase, err)))
        return -1;
    int running = phase && strcmp(phase, "Running") == 0;
    if (!running && !(phase && strcmp(phase, "Pending") == 0)) {
        skipped[SKIP_FINISHED]++;
        return 0;
    }
    int nd = node_name ? opsnap_node(o, node_name) : -1;
    if (running && nd < 0) {
        skipped[SKIP_NO_NODE]++;
        return 0;
    }
    pod_ask a;
    if (read_ask(d, p, item, &a, err))
        return -1;
    task tk;
    task_init(&tk);
    char *full = xasprintf("%s%s%s", ns ? ns : "", ns ? "/" : "", name);
    if (strlen(full) >= GP_NAME_MAX) {
        gp_err why;
        import_check_name_len(NULL, "the pod's namespace/name", full, &why);
        free(full);
        return k8s_fail(d, &mp, err, "%s", why.msg);
    }
    strlcpy0(tk.name, full, sizeof tk.name);
    free(full);
    tk.duration_s = OPSNAP_DEFAULT_REMAINING_S;
    double dev_mem = 0;
    if (nd >= 0) {
        const gpu_profile *g = catalog_gpu(o->cat, o->cl->nodes[nd].gpu_model);
        dev_mem = g ? g->mem_gib : 0;
    }
    /* MIG instances are a share of one GPU: their slices, their memory */
    if (a.mig_slices > 0 && a.gpus == 0) {
        const char *model = nd >= 0 ? o->cl->nodes[nd].gpu_model : "";
        a.hami_cores = fmin(100, 100.0 * a.mig_slices / mig_slices_per_gpu(model));
        a.hami_mem_mib = a.mig_gib * 1024;
        a.gpus = 1;
    }
    if (nd >= 0 && sl->mig_milli[nd] > 0 && a.gpus > 0 && a.hami_cores == 0) {
        a.hami_cores = fmin(100, a.gpus * sl->mig_milli[nd] / 10.0);
        a.gpus = 1;
    }
    /* on a time-sliced node, n replicas are n slices of one GPU */
    if (nd >= 0 && sl->per_gpu[nd] > 1 && a.gpus > 0 && a.milli == 0 && a.gpu_mem_gib == 0 &&
        a.hami_cores == 0 && a.hami_mem_mib == 0) {
        a.hami_cores = fmin(100, 100.0 * a.gpus / sl->per_gpu[nd]);
        a.gpus = 1;
    }
    if (ask_task(d, p, &a, dev_mem, &tk, err))
        return -1;
    note_pod(pods, tk.name);
    if (!running) {
        trace_add_task(o->queue, &tk);
        return 0;
    }
    int dev = tk.num_gpu == 1 ? pod_device(item) : -1;
    gp_err why;
    if (opsnap_place(o, &tk, nd, &dev, dev >= 0 ? 1 : 0, &why))
        return k8s_fail(d, &mp, err, "%s", why.msg);
    return 0;
}

/* --- documents ------------------------------------------------------------------------ */

static int load_doc(k8s_doc *d, const char *path, gp_err *err)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    if (!(d->text = input_read_file(path, &d->len, err)))
        return -1;
    json_error_t je;
    d->root = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES, &je);
    if (!d->root)
        return gp_error(err, "%s:%d:%d: %s (expected kubectl's JSON)", path, je.line,
                        je.column > 0 ? je.column : 1, je.text);
    jsonpos_path root = {.depth = 0};
    if (!json_is_object(d->root) || !json_is_array(json_object_get(d->root, "items")))
        return k8s_fail(d, &root, err, "expected a kubectl List: an object with \"items\"");
    return 0;
}

static void free_doc(k8s_doc *d)
{
    json_decref(d->root);
    free(d->text);
}

/* "Node", "Pod" or "" for an item: its kind, else the list's. */
static const char *item_kind(const json_t *root, const json_t *item)
{
    const char *k = json_string_value(json_object_get(item, "kind"));
    if (k)
        return k;
    const char *lk = json_string_value(json_object_get(root, "kind"));
    if (lk && strcmp(lk, "NodeList") == 0)
        return "Node";
    if (lk && strcmp(lk, "PodList") == 0)
        return "Pod";
    return "";
}

/* Every item of kind `kind` of every document. */
static int read_items(opsnap *o, k8s_slices *sl, k8s_doc *docs, size_t n, const char *kind,
                      size_t *skipped, k8s_pods *pods, gp_err *err)
{
    for (size_t k = 0; k < n; k++) {
        jsonpos_path ip = jsonpos_key(&(jsonpos_path){0}, "items");
        size_t i;
        json_t *item;
        json_array_foreach(json_object_get(docs[k].root, "items"), i, item) {
            jsonpos_path p = jsonpos_index(&ip, i);
            if (!json_is_object(item))
                return k8s_fail(&docs[k], &p, err, "expected an object, got %s",
                                jsonpos_type_name(item));
            if (strcmp(item_kind(docs[k].root, item), kind) != 0)
                continue;
            pods->doc = k;
            pods->item = i;
            int rc = kind[0] == 'N' ? read_node(o, sl, &docs[k], &p, item, err)
                                    : read_pod(o, sl, &docs[k], &p, item, skipped, pods, err);
            if (rc)
                return -1;
        }
    }
    return 0;
}

static int is_json(const char *path)
{
    char line[256];
    return import_first_line(path, line, sizeof line) == 0 &&
           line[strspn(line, " \t")] == '{';
}

static int k8s_run(store *st, const char *const *paths, size_t npaths,
                   const import_opts *opts, import_result *res, gp_err *err)
{
    char name[GP_NAME_MAX];
    opsnap_default_name(opts, paths[0], "k8s", name, sizeof name);
    opsnap o;
    if (opsnap_init(&o, st, name, err))
        return -1;
    k8s_doc *docs = xcalloc(npaths, sizeof *docs);
    size_t ndocs = 0, skipped[SKIP_N + 1] = {0};
    k8s_slices sl = {NULL, NULL, 0, 0, 0};
    gp_trace *series = trace_new("series");
    int rc = 0;
    for (size_t i = 0; i < npaths && !rc; i++) {
        if (promrange_is_json(paths[i]))
            rc = promrange_read(paths[i], opts->period_s, series, err);
        else if (is_json(paths[i]))
            rc = load_doc(&docs[ndocs++], paths[i], err);
        else
            rc = opsnap_read_monitor(&o, paths[i], err);
    }
    k8s_pods pods = {0};
    if (!rc)
        rc = read_items(&o, &sl, docs, ndocs, "Node", skipped, &pods, err);
    if (!rc && o.cl->nnodes == 0)
        rc = gp_error(err, "k8s: no Node in %s (expected kubectl get nodes -o json)", paths[0]);
    if (!rc)
        rc = read_items(&o, &sl, docs, ndocs, "Pod", skipped, &pods, err);
    if (!rc)
        rc = check_pods_unique(&pods, docs, err);
    free_pods(&pods);
    if (!rc)
        rc = opsnap_match_hosts(&o, opts, err);
    if (!rc) {
        opsnap_take_series(&o, series);     /* before a reading's one sample */
        rc = opsnap_apply_readings(&o, &skipped[SKIP_N], err);
    }
    if (!rc)
        rc = opsnap_store(&o, st, opts->replace, res, err);
    if (!rc) {
        static const char *const why[] = {"pods finished", "pods on nodes not listed",
                                          "readings of GPUs not listed"};
        import_note_skipped(res, skipped, why, SKIP_N + 1);
    }
    for (size_t i = 0; i < ndocs; i++)
        free_doc(&docs[i]);
    free(docs);
    free(sl.per_gpu);
    free(sl.mig_milli);
    trace_free(series);
    opsnap_release(&o);
    return rc;
}

#define K8S_LIST_SCORE 96

/* K8S_LIST_SCORE for a kubectl list of nodes or pods, 90 for a monitor's file or a
 * range query that comes with one (their own importers score those
 * alone higher). */
static int k8s_score_file(const char *path)
{
    if (import_is_dir(path))
        return 0;
    if (promrange_is_json(path))
        return 90;
    if (!is_json(path))
        return smi_is_gpu_csv(path) || smi_is_apps_csv(path) || dcgm_is_text(path) ? 90 : 0;
    char head[4096];
    size_t n = 0;
    FILE *f = input_open(path);
    if (f) {
        n = fread(head, 1, sizeof head - 1, f);
        fclose(f);
    }
    head[n] = '\0';
    int list = strstr(head, "\"List\"") || strstr(head, "\"NodeList\"") ||
               strstr(head, "\"PodList\"");
    int items = strstr(head, "\"Node\"") || strstr(head, "\"Pod\"") ||
                strstr(head, "\"NodeList\"") || strstr(head, "\"PodList\"");
    return list && items && strstr(head, "\"apiVersion\"") ? K8S_LIST_SCORE : 0;
}

/* Every path a kubectl list or what may come with one, one a list at least. */
static int k8s_detect(const char *const *paths, size_t npaths)
{
    int any_list = 0;
    for (size_t i = 0; i < npaths; i++)
        any_list |= k8s_score_file(paths[i]) == K8S_LIST_SCORE;
    return any_list ? import_detect_each(paths, npaths, 4096, k8s_score_file) : 0;
}

const importer import_k8s = {
    .format = "k8s",
    .summary = "Kubernetes nodes and pods as kubectl lists them (GPU models from node "
               "labels, whole and shared GPU requests): a cluster, a snapshot of the running "
               "pods and a trace of the pending ones",
    .inputs = "kubectl get nodes -o json > nodes.json; kubectl get pods -A -o json > "
              "pods.json; optionally nvidia-smi CSV or DCGM metrics per node (NODE.csv, "
              "NODE.prom) and a Prometheus range query of the pods' utilization (util.json)",
    .detect = k8s_detect,
    .run = k8s_run,
};
