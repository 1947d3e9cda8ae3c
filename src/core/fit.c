/*
 * fit.c — the one test of whether a task can run on a cluster at all
 * (fit.h).  Pure.
 */
#include "fit.h"

#include <stdio.h>
#include <string.h>

/* The devices of n, on an empty server, that hold d GiB each. */
static int gpus_with_memory(const node *n, const gpu_profile *g, double d)
{
    int ok = 0;
    for (int k = 0; k < n->gpu_count; k++) {
        double mem = k < GP_NODE_MAX_GPUS && n->gpu_mem_gib[k] > 0 ? n->gpu_mem_gib[k]
                                                                   : g->mem_gib;
        ok += d <= mem + GP_MEM_EPS_GIB;
    }
    return ok;
}

fit_lack fit_task_server(const task *tk, const node *n, const gpu_profile *g)
{
    int need = task_gpus(tk);
    if (need > 0) {
        if (!g || n->gpu_count == 0 || !task_allows_model(tk, n->gpu_model))
            return FIT_GPU_MODEL;
        if (n->gpu_count < need)
            return FIT_GPU_COUNT;
        if (gpus_with_memory(n, g, tk->gpu_mem_gib) < need)
            return FIT_GPU_MEM;
    }
    if (tk->cpu_milli > n->cpu_milli)
        return FIT_CPU;
    if (tk->ram_mib > n->ram_mib)
        return FIT_RAM;
    return FIT_OK;
}

const char *fit_lack_name(fit_lack l)
{
    static const char *const names[FIT_NLACKS] = {
        [FIT_OK] = "nothing", [FIT_GPU_MODEL] = "GPU model", [FIT_GPU_COUNT] = "GPUs",
        [FIT_GPU_MEM] = "GPU memory", [FIT_CPU] = "vCPU", [FIT_RAM] = "host memory",
    };
    return l < FIT_NLACKS ? names[l] : "?";
}

/* FIT_OK when some server takes tk, else the lack of the server it came
 * nearest on. */
static fit_lack task_lack(const task *tk, const cluster *cl, const catalog *cat)
{
    fit_lack nearest = FIT_OK;
    for (size_t i = 0; i < cl->nnodes; i++) {
        const node *n = &cl->nodes[i];
        const gpu_profile *g = n->gpu_model[0] ? catalog_gpu(cat, n->gpu_model) : NULL;
        fit_lack l = fit_task_server(tk, n, g);
        if (l == FIT_OK)
            return FIT_OK;
        if (l > nearest)
            nearest = l;
    }
    return nearest == FIT_OK ? FIT_GPU_MODEL : nearest;    /* no server at all */
}

size_t fit_trace_cluster(const gp_trace *tr, const cluster *cl, const catalog *cat,
                         fit_report *out)
{
    memset(out, 0, sizeof *out);
    out->ntasks = tr->ntasks;
    for (size_t i = 0; i < tr->ntasks; i++) {
        fit_lack l = task_lack(&tr->tasks[i], cl, cat);
        if (l == FIT_OK)
            continue;
        if (out->misfits < FIT_EXAMPLES) {
            out->example[out->misfits] = i;
            out->example_lack[out->misfits] = l;
        }
        out->misfits++;
        out->by_lack[l]++;
    }
    return out->misfits;
}

void fit_report_text(const fit_report *r, const gp_trace *tr, const cluster *cl, char *buf,
                     size_t len)
{
    buf[0] = '\0';
    if (!r->misfits)
        return;
    size_t o = (size_t)snprintf(buf, len, "%zu of %zu tasks fit no server of %s, even empty (what the "
                                "nearest server lacks:",
                                r->misfits, r->ntasks, cl->name);
    const char *sep = " ";
    for (int l = FIT_GPU_MODEL; l < FIT_NLACKS && o < len; l++)
        if (r->by_lack[l]) {
            o += (size_t)snprintf(buf + o, len - o, "%s%s %zu", sep, fit_lack_name(l),
                                  r->by_lack[l]);
            sep = ", ";
        }
    if (o < len)
        o += (size_t)snprintf(buf + o, len - o, "), e.g.");
    size_t shown = r->misfits < FIT_EXAMPLES ? r->misfits : FIT_EXAMPLES;
    for (size_t k = 0; k < shown && o < len; k++)
        o += (size_t)snprintf(buf + o, len - o, "%s %s (%s)", k ? "," : "",
                              tr->tasks[r->example[k]].name, fit_lack_name(r->example_lack[k]));
}
