/*
 * import_dcgm.c — DCGM exporter metrics ("dcgm", SPEC §4.2): what
 * `curl http://HOST:9400/metrics` answers on a GPU node (NVIDIA's
 * dcgm-exporter, also behind the GPU operator), in the Prometheus text
 * format (promtext.h).  Of its samples this reads, per GPU (labels
 * Hostname or hostname, gpu, UUID, modelName):
 *
 *   DCGM_FI_DEV_GPU_UTIL     utilization, %
 *   DCGM_FI_DEV_POWER_USAGE  power draw, W
 *   DCGM_FI_DEV_SM_CLOCK     SM clock, MHz
 *   DCGM_FI_DEV_FB_USED      memory used, MiB (+ FB_FREE, FB_RESERVED: the total)
 *
 * and, when the exporter maps GPUs to pods (labels pod, namespace), one
 * task per pod on its GPU.  Several files (one scrape per node) make one
 * cluster and one snapshot; a GPU named twice is an error.  Other metrics
 * are read for their syntax and left.  A host without a Hostname label is
 * named after its file.
 *
 * MIG: samples of a GPU's instances (label GPU_I_ID) are read as the GPU
 * (memory summed over them, the rest taken once).
 */
#include "import.h"
#include "import_table.h"
#include "opsnap.h"
#include "promtext.h"
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum dcgm_field { F_UTIL, F_POWER, F_CLOCK, F_FB_USED, F_FB_FREE, F_FB_RESERVED,
                          F_NFIELDS } dcgm_field;
static const char *const field_names[F_NFIELDS] = {
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK",
    "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_RESERVED"};

typedef struct dcgm_read_ctx {
    opsnap *o;
    const char *path;
    char file_host[GP_NAME_MAX];
    /* FB_FREE and FB_RESERVED per reading, summed into the total at the end */
    double *fb_extra;
    size_t first;               /* o->gpus[first..] come from this file */
} dcgm_read_ctx;

static int field_of(const char *name)
{
    for (int i = 0; i < F_NFIELDS; i++)
        if (strcmp(name, field_names[i]) == 0)
            return i;
    return -1;
}

/* The reading of (host, gpu) from this file, made when new; -1 when an
 * earlier file read that GPU. */
static long reading_of(dcgm_read_ctx *c, const char *host, int gpu, const prom_sample *s)
{
    opsnap *o = c->o;
    int i = opsnap_gpu_find(o, host, gpu);
    if (i >= 0)
        return (size_t)i >= c->first ? i : -1;
    opsnap_gpu g;
    memset(&g, 0, sizeof g);
    import_copy_utf8(g.host, sizeof g.host, host);
    g.index = gpu;
    const char *uuid = prom_label_value(s, "UUID"), *model = prom_label_value(s, "modelName");
    import_copy_utf8(g.uuid, sizeof g.uuid, uuid ? uuid : "");
    import_copy_utf8(g.product, sizeof g.product, model ? model : "");
    g.mem_total_mib = g.mem_used_mib = g.util_pct = g.power_w = NAN;
    g.power_limit_w = g.clock_mhz = g.clock_max_mhz = NAN;
    g.path = c->path;
    g.line = s->line;
    g.host_from_file = host == c->file_host;
    size_t k = opsnap_gpu_add(o, &g);
    c->fb_extra = xrealloc(c->fb_extra, o->ngpus * sizeof *c->fb_extra);
    c->fb_extra[k] = NAN;
    return (long)k;
}

/* The pod a sample names, as an app on its GPU; the pod's lines on one
 * GPU are one app (opsnap_apply_readings gathers a pod's GPUs into one
 * task).  -1 when namespace/pod is longer than a name may be. */
static int note_pod(dcgm_read_ctx *c, const prom_sample *s, const char *host, int gpu,
                    gp_err *err)
{
    opsnap *o = c->o;
    const char *pod = prom_label_value(s, "pod"), *ns = prom_label_value(s, "namespace");
    if (!pod || !pod[0])
        return 0;
    opsnap_app a;
    memset(&a, 0, sizeof a);
    char name[2 * PROM_VALUE_MAX + 2];
    snprintf(name, sizeof name, "%s%s%s", ns && ns[0] ? ns : "", ns && ns[0] ? "/" : "", pod);
    char where[4200];
    snprintf(where, sizeof where, "%s:%ld:1", c->path, s->line);
    if (import_check_name_len(where, "the pod's namespace/name", name, err))
        return -1;
    strlcpy0(a.name, name, sizeof a.name);
    strlcpy0(a.host, host, sizeof a.host);
    a.index = gpu;
    a.mem_used_mib = NAN;
    a.path = c->path;
    a.line = s->line;
    a.col = 1;
    if (o->napps && o->apps[o->napps - 1].index == gpu &&        /* the line before's */
        strcmp(o->apps[o->napps - 1].name, a.name) == 0 &&
        strcmp(o->apps[o->napps - 1].host, a.host) == 0)
        return 0;
    grow_array((void **)&o->apps, &o->apps_cap, o->napps + 1, sizeof *o->apps);
    o->apps[o->napps++] = a;
    return 0;
}

/* The bound of each field's value (opsnap.h). */
static const opsnap_quantity field_bound[F_NFIELDS] = {
    OQ_UTIL_PCT, OQ_POWER_W, OQ_CLOCK_MHZ, OQ_MEM_MIB, OQ_MEM_MIB, OQ_MEM_MIB};

static int on_sample(void *ctx, const prom_sample *s, gp_err *err)
{
    dcgm_read_ctx *c = ctx;
    int f = field_of(s->name);
    if (f < 0)
        return 0;
    const char *gpu = prom_label_value(s, "gpu");
    const char *host = prom_label_value(s, "Hostname");
    if (!host)
        host = prom_label_value(s, "hostname");
    if (!host || !host[0])
        host = c->file_host;
    else if (strlen(host) >= GP_NAME_MAX)
        return gp_error(err, "%s:%ld:1: %s: expected a Hostname of at most %d bytes "
                        "(Kubernetes' limit), got %zu", c->path, s->line, s->name,
                        GP_NAME_MAX - 1, strlen(host));
    char *end;
    long idx = gpu ? strtol(gpu, &end, 10) : -1;
    if (!gpu || !gpu[0] || *end || idx < 0 || idx >= GP_NODE_MAX_GPUS)
        return gp_error(err, "%s:%ld:1: %s: expected a label gpu=\"0\"..\"%d\"", c->path,
                        s->line, s->name, GP_NODE_MAX_GPUS - 1);
    if (!isfinite(s->value) || s->value < 0 || (f == F_UTIL && s->value > 100))
        return gp_error(err, "%s:%ld:%ld: %s: expected a value %s, got %g", c->path, s->line,
                        s->value_col, s->name, f == F_UTIL ? "0..100" : ">= 0", s->value);
    gp_err why;
    if (opsnap_check_bound(field_bound[f], s->name, s->value, &why))
        return gp_error(err, "%s:%ld:%ld: %s", c->path, s->line, s->value_col, why.msg);
    long i = reading_of(c, host, (int)idx, s);
    if (i < 0) {
        char *shown = text_printable(host);
        gp_error(err, "%s:%ld:1: GPU %ld of %s was read from an earlier file too", c->path,
                 s->line, idx, shown);
        free(shown);
        return -1;
    }
    opsnap_gpu *g = &c->o->gpus[i];
    double *slot[F_NFIELDS] = {&g->util_pct, &g->power_w, &g->clock_mhz, &g->mem_used_mib,
                               &c->fb_extra[i], &c->fb_extra[i]};
    /* a MIG instance's sample (GPU_I_ID): memory adds up over the GPU's
     * instances, the rest is the GPU's, read once */
    const char *instance = prom_label_value(s, "GPU_I_ID");
    int mig = instance && instance[0];
    if (f == F_FB_FREE || f == F_FB_RESERVED || (mig && f == F_FB_USED))
        *slot[f] = (isnan(*slot[f]) ? 0 : *slot[f]) + s->value;
    else if (isnan(*slot[f]))
        *slot[f] = s->value;
    else if (!mig) {
        char *shown = text_printable(host);
        gp_error(err, "%s:%ld:1: %s of GPU %ld on %s is given twice", c->path, s->line,
                 s->name, idx, shown);
        free(shown);
        return -1;
    }
    return note_pod(c, s, host, (int)idx, err);
}

int dcgm_read(opsnap *o, const char *path, gp_err *err)
{
    dcgm_read_ctx c = {o, path, "", NULL, o->ngpus};
    if (opsnap_host_of_file(path, c.file_host, sizeof c.file_host, err))
        return -1;
    int rc = prom_each(path, on_sample, &c, err);
    for (size_t i = c.first; !rc && i < o->ngpus; i++) {
        opsnap_gpu *g = &o->gpus[i];
        if (!isnan(g->mem_used_mib) && !isnan(c.fb_extra[i]))
            g->mem_total_mib = g->mem_used_mib + c.fb_extra[i];
        gp_err why;
        /* MIG instances add up: their sum is bounded too */
        if (opsnap_check_bound(OQ_MEM_MIB, "DCGM_FI_DEV_FB_USED + FB_FREE + FB_RESERVED",
                               g->mem_total_mib, &why))
            rc = gp_error(err, "%s:%ld:1: %s", path, g->line, why.msg);
    }
    free(c.fb_extra);
    return rc;
}

int dcgm_is_text(const char *path)
{
    char head[8192];
    import_read_head(path, head, sizeof head);
    return strstr(head, "DCGM_FI_") != NULL && head[strspn(head, " \t\r\n")] != '{';
}

static int dcgm_run(store *st, const char *const *paths, size_t npaths,
                    const import_opts *opts, import_result *res, gp_err *err)
{
    char name[GP_NAME_MAX];
    opsnap_default_name(opts, paths[0], "dcgm", name, sizeof name);
    opsnap o;
    if (opsnap_init(&o, st, name, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < npaths && !rc; i++)
        rc = dcgm_read(&o, paths[i], err);
    if (!rc && o.ngpus == 0)
        rc = gp_error(err, "dcgm: no DCGM_FI_DEV_* sample with a gpu label in %s%s", paths[0],
                      npaths > 1 ? " ..." : "");
    size_t unmatched;
    if (!rc) {
        opsnap_nodes_from_readings(&o);
        rc = opsnap_apply_readings(&o, &unmatched, err);
    }
    if (!rc)
        rc = opsnap_store(&o, st, opts->replace, res, err);
    opsnap_release(&o);
    return rc;
}

static int dcgm_score_file(const char *path)
{
    return !import_is_dir(path) && dcgm_is_text(path) ? 95 : 0;
}

static int dcgm_detect(const char *const *paths, size_t npaths)
{
    return import_detect_each(paths, npaths, 4096, dcgm_score_file);
}

const importer import_dcgm = {
    .format = "dcgm",
    .summary = "DCGM exporter metrics (Prometheus text): each GPU's utilization, power, SM "
               "clock and memory, and the pods on them, as a cluster and a snapshot",
    .inputs = "one scrape per node: curl -s http://NODE:9400/metrics > NODE.prom",
    .detect = dcgm_detect,
    .run = dcgm_run,
};
