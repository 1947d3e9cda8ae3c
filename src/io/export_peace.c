/*
 * export_peace.c — a PEACE set as its CSV directory (the columns
 * import_peace.c reads, so export → import → export is byte-identical) or
 * as one JSON document.  Numbers are written in the fewest digits that read
 * back identically; lists in one cell are joined by '+'.
 */
#include "export.h"
#include "export_set.h"
#include "table.h"
#include "core/strbuf.h"
#include "core/peaceset.h"

#include <jansson.h>
#include <stdlib.h>

static const char *hi_lo(int hi)
{
    return hi ? "hi" : "lo";
}

static int write_head(export_set *set, const peace_set *s, gp_err *err)
{
    FILE *f = export_set_open(set, "peace.csv", err);
    if (!f)
        return -1;
    fputs("gpu,cap_min_w,cap_max_w\n", f);
    export_text(f, s->gpu);
    export_num(f, s->cap_min_w, 0);
    export_num(f, s->cap_max_w, 1);
    return export_set_close(set, f, "peace.csv", err);
}

static int write_workloads(export_set *set, const peace_set *s, gp_err *err)
{
    FILE *f = export_set_open(set, "peace_workloads.csv", err);
    if (!f)
        return -1;
    fputs("workload,kind,compute,memory,mem_gib\n", f);
    for (size_t i = 0; i < s->nwl; i++) {
        const peace_workload *w = &s->wl[i];
        export_text(f, w->name);
        fprintf(f, "%s,%s,%s,", peace_kind_name(w->kind), hi_lo(w->compute_hi),
                hi_lo(w->memory_hi));
        export_num(f, w->mem_gib, 1);
    }
    return export_set_close(set, f, "peace_workloads.csv", err);
}

static int write_profiles(export_set *set, const peace_set *s, gp_err *err)
{
    FILE *f = export_set_open(set, "peace_profiles.csv", err);
    if (!f)
        return -1;
    fputs("workload,share_pct,freq_mhz,tput,power_w", f);
    for (int m = 0; m < PEACE_NMETRICS; m++)
        fprintf(f, ",%s", peace_metric_column((peace_metric)m));
    fputc('\n', f);
    for (size_t i = 0; i < s->nprof; i++) {
        const peace_profile *p = &s->prof[i];
        export_text(f, s->wl[p->workload].name);
        fprintf(f, "%d,", p->share_pct);
        export_num(f, p->freq_mhz, 0);
        export_num(f, p->tput, 0);
        export_num(f, p->power_w, 0);
        for (int m = 0; m < PEACE_NMETRICS; m++)
            export_num(f, p->metric[m], m == PEACE_NMETRICS - 1);
    }
    return export_set_close(set, f, "peace_profiles.csv", err);
}

/* The '+'-joined cells of a co-location row: workloads, shares, tputs. */
static void coloc_cells(const peace_set *s, const peace_coloc *c, strbuf *names,
                        strbuf *shares, strbuf *tputs)
{
    for (int k = 0; k < c->n; k++) {
        char b[40];
        strbuf_sep(names, "+");
        strbuf_puts(names, s->wl[c->workload[k]].name);
        strbuf_sep(shares, "+");
        strbuf_printf(shares, "%d", c->share_pct[k]);
        strbuf_sep(tputs, "+");
        fmt_double(b, sizeof b, c->tput[k]);
        strbuf_puts(tputs, b);
    }
}

static int write_colocs(export_set *set, const peace_set *s, gp_err *err)
{
    FILE *f = export_set_open(set, "peace_colocations.csv", err);
    if (!f)
        return -1;
    fputs("workloads,shares_pct,freq_mhz,tputs,power_w\n", f);
    strbuf names = STRBUF_INIT, shares = STRBUF_INIT, tputs = STRBUF_INIT;
    for (size_t i = 0; i < s->nco; i++) {
        const peace_coloc *c = &s->co[i];
        strbuf_reset(&names);
        strbuf_reset(&shares);
        strbuf_reset(&tputs);
        coloc_cells(s, c, &names, &shares, &tputs);
        export_text(f, strbuf_str(&names));
        export_text(f, strbuf_str(&shares));
        export_num(f, c->freq_mhz, 0);
        export_text(f, strbuf_str(&tputs));
        export_num(f, c->power_w, 1);
    }
    strbuf_free(&names);
    strbuf_free(&shares);
    strbuf_free(&tputs);
    return export_set_close(set, f, "peace_colocations.csv", err);
}

int export_peace_csv(const peace_set *s, const catalog *cat, const char *dir, gp_err *err)
{
    export_set *set = export_set_begin(dir, "peace", err);
    if (!set)
        return -1;
    const gpu_profile *g = cat ? catalog_gpu(cat, s->gpu) : NULL;
    int rc = 0;
    if (g) {
        catalog *one = catalog_new();
        catalog_add_gpu(one, g);
        rc = export_gpus_files(set, one, err);
        catalog_free(one);
    }
    rc = rc || write_head(set, s, err) || write_workloads(set, s, err) ||
         write_profiles(set, s, err) || write_colocs(set, s, err) ? -1 : 0;
    return export_set_end(set, rc, err);
}

static json_t *profile_json(const peace_set *s, const peace_profile *p)
{
    json_t *o = json_pack("{s:s, s:i, s:f, s:f, s:f}", "workload", s->wl[p->workload].name,
                          "share_pct", p->share_pct, "freq_mhz", p->freq_mhz, "tput", p->tput,
                          "power_w", p->power_w);
    for (int m = 0; m < PEACE_NMETRICS; m++)
        json_object_set_new(o, peace_metric_column((peace_metric)m), json_real(p->metric[m]));
    return o;
}

static json_t *coloc_json(const peace_set *s, const peace_coloc *c)
{
    json_t *names = json_array(), *shares = json_array(), *tputs = json_array();
    for (int k = 0; k < c->n; k++) {
        json_array_append_new(names, json_string(s->wl[c->workload[k]].name));
        json_array_append_new(shares, json_integer(c->share_pct[k]));
        json_array_append_new(tputs, json_real(c->tput[k]));
    }
    return json_pack("{s:o, s:o, s:f, s:o, s:f}", "workloads", names, "shares_pct", shares,
                     "freq_mhz", c->freq_mhz, "tputs", tputs, "power_w", c->power_w);
}

int export_peace_json(const peace_set *s, FILE *out, gp_err *err)
{
    json_t *wl = json_array(), *prof = json_array(), *co = json_array();
    for (size_t i = 0; i < s->nwl; i++) {
        const peace_workload *w = &s->wl[i];
        json_array_append_new(wl, json_pack("{s:s, s:s, s:s, s:s, s:f}", "workload", w->name,
                                            "kind", peace_kind_name(w->kind), "compute",
                                            hi_lo(w->compute_hi), "memory",
                                            hi_lo(w->memory_hi), "mem_gib", w->mem_gib));
    }
    for (size_t i = 0; i < s->nprof; i++)
        json_array_append_new(prof, profile_json(s, &s->prof[i]));
    for (size_t i = 0; i < s->nco; i++)
        json_array_append_new(co, coloc_json(s, &s->co[i]));
    return export_json_dump(json_pack("{s:s, s:s, s:f, s:f, s:s, s:o, s:o, s:o}",
                                      "peace_set", s->name, "gpu", s->gpu,
                                      "cap_min_w", s->cap_min_w, "cap_max_w", s->cap_max_w,
                                      "source", s->source ? s->source : "", "workloads", wl,
                                      "profiles", prof, "colocations", co),
                            out, err);
}
