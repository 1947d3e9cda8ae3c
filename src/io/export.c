/*
 * export.c — native CSV and JSON writers (export.h).  The CSV columns are
 * exactly those import_native.c reads, so export → import round-trips;
 * numbers are printed with the fewest digits that read back identically.
 */
#include "export.h"
#include "export_file.h"
#include "export_set.h"
#include "core/strbuf.h"
#include "table.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

FILE *export_open(const char *dir, const char *file, gp_err *err)
{
    if (mkdir_p(dir, err))
        return NULL;
    char *path = xasprintf("%s/%s", dir, file);
    FILE *f = out_file_open(path, err);
    free(path);
    return f;
}

int export_close(FILE *f, const char *dir, const char *file, gp_err *err)
{
    char *path = xasprintf("%s/%s", dir, file);
    int rc = out_file_close(f, path, err);
    free(path);
    return rc;
}

void export_num(FILE *f, double v, int last)
{
    char b[40];
    fmt_double(b, sizeof b, v);
    fputs(b, f);
    fputc(last ? '\n' : ',', f);
}

void export_text(FILE *f, const char *s)
{
    csv_put(f, s);
    fputc(',', f);
}

static int used_gpu(const cluster *c, const char *name)
{
    for (size_t i = 0; i < c->nnodes; i++)
        if (strcmp(c->nodes[i].gpu_model, name) == 0)
            return 1;
    return 0;
}

static int used_cpu(const cluster *c, const char *name)
{
    for (size_t i = 0; i < c->nnodes; i++)
        if (strcmp(c->nodes[i].cpu_model, name) == 0)
            return 1;
    return 0;
}

/* gpus.csv: the profiles of cat (only those c uses, when c is given). */
static int write_gpus(const cluster *c, const catalog *cat, export_set *s, gp_err *err)
{
    FILE *f = export_set_open(s, "gpus.csv", err);
    if (!f)
        return -1;
    fputs("name,mem_gib,idle_w,max_w,sleep_w,f_min_mhz,f_max_mhz,alpha_w_per_mhz,beta,"
          "price_usd,tput_class,speed,price_source\n", f);
    for (size_t i = 0; i < cat->ngpus; i++) {
        const gpu_profile *g = &cat->gpus[i];
        if (c && !used_gpu(c, g->name))
            continue;
        export_text(f, g->name);
        const double v[] = {g->mem_gib, g->idle_w, g->max_w, g->sleep_w, g->f_min_mhz,
                            g->f_max_mhz, g->alpha_w_per_mhz, g->beta};
        for (int k = 0; k < 8; k++)
            export_num(f, v[k], 0);
        if (gpu_price_known(g))
            export_num(f, g->price_usd, 0);
        else
            fputc(',', f);      /* empty: unknown */
        export_text(f, g->tput_class);
        export_num(f, gpu_speed(g), 0);
        csv_put(f, g->price_source);
        fputc('\n', f);
    }
    return export_set_close(s, f, "gpus.csv", err);
}

int export_gpus_files(export_set *s, const catalog *cat, gp_err *err)
{
    return write_gpus(NULL, cat, s, err);
}

static int write_cpus(const cluster *c, const catalog *cat, export_set *s, gp_err *err)
{
    FILE *f = export_set_open(s, "cpus.csv", err);
    if (!f)
        return -1;
    fputs("name,cores,idle_w,max_w\n", f);
    for (size_t i = 0; i < cat->ncpus; i++) {
        const cpu_profile *p = &cat->cpus[i];
        if (c && !used_cpu(c, p->name))
            continue;
        export_text(f, p->name);
        fprintf(f, "%d,", p->cores);
        export_num(f, p->idle_w, 0);
        export_num(f, p->max_w, 1);
    }
    return export_set_close(s, f, "cpus.csv", err);
}

static void dev_mem_text(const node *n, char *buf, size_t len)
{
    strbuf text = STRBUF_INIT;
    for (int i = 0; n->gpu_mem_gib[0] > 0 && i < n->gpu_count && i < GP_NODE_MAX_GPUS; i++) {
        char b[40];
        fmt_double(b, sizeof b, n->gpu_mem_gib[i]);
        strbuf_sep(&text, "|");
        strbuf_puts(&text, b);
    }
    strbuf_copy_to(&text, buf, len);
    strbuf_free(&text);
}

int export_cluster_files(export_set *s, const cluster *c, const catalog *cat, gp_err *err)
{
    if (write_gpus(c, cat, s, err) || write_cpus(c, cat, s, err))
        return -1;
    FILE *f = export_set_open(s, "nodes.csv", err);
    if (!f)
        return -1;
    fputs("name,gpu_model,gpu_count,cpu_milli,ram_mib,cpu_model,static_w,other_w,"
          "gpu_mem_gib\n", f);
    for (size_t i = 0; i < c->nnodes; i++) {
        const node *n = &c->nodes[i];
        char mem[GP_NODE_MAX_GPUS * 24];
        export_text(f, n->name);
        export_text(f, n->gpu_model);
        fprintf(f, "%d,%lld,%lld,", n->gpu_count, (long long)n->cpu_milli,
                (long long)n->ram_mib);
        export_text(f, n->cpu_model);
        export_num(f, n->static_w, 0);
        export_num(f, n->other_w, 0);
        dev_mem_text(n, mem, sizeof mem);
        csv_put(f, mem);
        fputc('\n', f);
    }
    return export_set_close(s, f, "nodes.csv", err);
}

void export_util_header(FILE *f)
{
    fputs("task,sample,pct\n", f);
}

void export_util_rows(FILE *f, const task *k)
{
    for (size_t j = 0; j < k->util.len; j++) {
        char b[32];
        fmt_float(b, sizeof b, k->util.pct[j]);
        csv_put(f, k->name);
        fprintf(f, ",%zu,%s\n", j, b);
    }
}

static int write_util(const gp_trace *t, export_set *s, gp_err *err)
{
    FILE *f = export_set_open(s, "util.csv", err);
    if (!f)
        return -1;
    export_util_header(f);
    for (size_t i = 0; i < t->ntasks; i++)
        export_util_rows(f, &t->tasks[i]);
    return export_set_close(s, f, "util.csv", err);
}

void export_tasks_header(FILE *f)
{
    fputs("name,arrival_s,duration_s,num_gpu,gpu_milli,gpu_mem_gib,cpu_milli,ram_mib,"
          "gpu_spec,qos,kappa,model,batch_size,min_tput,util_mean,util_peak,util_first,"
          "util_period_s\n", f);
}

void export_task_row(FILE *f, const task *k)
{
    export_text(f, k->name);
    export_num(f, k->arrival_s, 0);
    export_num(f, k->duration_s, 0);
    fprintf(f, "%d,%d,", k->num_gpu, k->gpu_milli);
    export_num(f, k->gpu_mem_gib, 0);
    fprintf(f, "%lld,%lld,", (long long)k->cpu_milli, (long long)k->ram_mib);
    export_text(f, k->gpu_spec ? k->gpu_spec : "");
    export_text(f, k->qos);
    export_num(f, k->kappa, 0);
    export_text(f, k->model);
    fprintf(f, "%d,", k->batch_size);
    export_num(f, k->min_tput, 0);
    export_num(f, k->util_mean, 0);
    export_num(f, k->util_peak, 0);
    export_num(f, k->util_first, 0);
    export_num(f, k->util.period_s, 1);
}

/* trace.csv: the GPU the trace was measured on, when it says. */
static int write_trace_facts(const gp_trace *t, export_set *s, gp_err *err)
{
    if (!t->ref_gpu[0])
        return 0;
    FILE *f = export_set_open(s, "trace.csv", err);
    if (!f)
        return -1;
    fputs("ref_gpu\n", f);
    csv_put(f, t->ref_gpu);
    fputc('\n', f);
    return export_set_close(s, f, "trace.csv", err);
}

int export_trace_files(export_set *s, const gp_trace *t, gp_err *err)
{
    if (write_trace_facts(t, s, err))
        return -1;
    FILE *f = export_set_open(s, "tasks.csv", err);
    if (!f)
        return -1;
    export_tasks_header(f);
    int any_util = 0;
    for (size_t i = 0; i < t->ntasks; i++) {
        any_util |= t->tasks[i].util.len > 0;
        export_task_row(f, &t->tasks[i]);
    }
    if (export_set_close(s, f, "tasks.csv", err))
        return -1;
    return any_util ? write_util(t, s, err) : 0;
}

static int tput_files(export_set *s, const tput_catalog *c, gp_err *err)
{
    FILE *f = export_set_open(s, "tput.csv", err);
    if (!f)
        return -1;
    fputs("accel,model,batch_size,scale,co_model,co_batch_size,co_scale,tput,co_tput\n", f);
    for (size_t i = 0; i < c->nentries; i++) {
        const tput_entry *e = &c->entries[i];
        export_text(f, e->accel);
        export_text(f, e->model);
        fprintf(f, "%d,%d,", e->batch_size, e->scale);
        export_text(f, e->co_model);
        fprintf(f, "%d,%d,", e->co_batch_size, e->co_scale);
        export_num(f, e->tput, 0);
        export_num(f, e->co_tput, 1);
    }
    return export_set_close(s, f, "tput.csv", err);
}

/* The cluster a run's node numbers name nodes of: NULL when it is gone, or
 * when it was replaced by one too small for them (the numbers are then
 * written as they are stored). */
static const cluster *run_cluster(const run *r, const cluster *c)
{
    if (!c)
        return NULL;
    for (size_t i = 0; i < r->noutcomes; i++)
        if (r->outcomes[i].node >= (int)c->nnodes)
            return NULL;
    for (size_t i = 0; i < r->ndecisions; i++)
        if (r->decisions[i].node >= (int)c->nnodes)
            return NULL;
    return c;
}

/* A placement's node: its name, empty when nothing fit; its number when
 * the cluster is gone. */
static void put_node(FILE *f, const cluster *c, int at)
{
    if (!c)
        fprintf(f, "%d,", at);
    else
        export_text(f, at >= 0 ? c->nodes[at].name : "");
}

static int run_files(export_set *s, const run *r, const cluster *c, gp_err *err)
{
    FILE *f = export_set_open(s, "timeline.csv", err);
    if (!f)
        return -1;
    fputs("t_s,active_gpus,awake_gpus,active_servers,power_w,gpu_w,cpu_w,static_w,frag,"
          "alloc_ratio,queued,mean_freq_mhz\n", f);
    for (size_t i = 0; i < r->npoints; i++) {
        const run_point *p = &r->points[i];
        const double v[] = {p->t_s, p->active_gpus, p->awake_gpus, p->active_servers,
                            p->power_w, p->gpu_w, p->cpu_w, p->static_w, p->frag,
                            p->alloc_ratio, p->queued, p->mean_freq_mhz};
        for (int k = 0; k < 12; k++)
            export_num(f, v[k], k == 11);
    }
    if (export_set_close(s, f, "timeline.csv", err) ||
        !(f = export_set_open(s, "outcomes.csv", err)))
        return -1;
    fprintf(f, "task,wait_s,start_s,end_s,jct_s,slowdown,sla_violated,%s,gpus\n",
            c ? "node" : "node_index");
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        fprintf(f, "%d,", o->task);
        const double v[] = {o->wait_s, o->start_s, o->end_s, o->jct_s, o->slowdown};
        for (int k = 0; k < 5; k++)
            export_num(f, v[k], 0);
        fprintf(f, "%d,", o->sla_violated);
        put_node(f, c, o->node);
        csv_put(f, o->gpus);
        fputc('\n', f);
    }
    if (export_set_close(s, f, "outcomes.csv", err) ||
        !(f = export_set_open(s, "decisions.csv", err)))
        return -1;
    fprintf(f, "decision,t_s,task,%s,gpus,reason\n", c ? "node" : "node_index");
    for (size_t i = 0; i < r->ndecisions; i++) {
        const run_decision *d = &r->decisions[i];
        fprintf(f, "%d,", run_decision_number(d));
        export_num(f, d->t_s, 0);
        fprintf(f, "%d,", d->task);
        put_node(f, c, d->node);
        export_text(f, d->gpus);
        csv_put(f, d->reason ? d->reason : "");
        fputc('\n', f);
    }
    if (export_set_close(s, f, "decisions.csv", err) ||
        !(f = export_set_open(s, "metrics.csv", err)))
        return -1;
    fputs("key,value\n", f);
    for (size_t i = 0; i < r->nmetrics; i++) {
        export_text(f, r->metrics[i].key);
        export_num(f, r->metrics[i].value, 1);
    }
    return export_set_close(s, f, "metrics.csv", err);
}

/* ---- the sets, each written as a whole (export_set.h) ---------------------- */

int export_cluster_csv(const cluster *c, const catalog *cat, const char *dir, gp_err *err)
{
    export_set *s = export_set_begin(dir, "cluster", err);
    return s ? export_set_end(s, export_cluster_files(s, c, cat, err), err) : -1;
}

int export_trace_csv(const gp_trace *t, const char *dir, gp_err *err)
{
    export_set *s = export_set_begin(dir, "trace", err);
    return s ? export_set_end(s, export_trace_files(s, t, err), err) : -1;
}

int export_tput_csv(const tput_catalog *c, const char *dir, gp_err *err)
{
    export_set *s = export_set_begin(dir, "tput", err);
    return s ? export_set_end(s, tput_files(s, c, err), err) : -1;
}

int export_run_csv(const run *r, const cluster *c, const char *dir, gp_err *err)
{
    export_set *s = export_set_begin(dir, "run", err);
    return s ? export_set_end(s, run_files(s, r, run_cluster(r, c), err), err) : -1;
}

/* ---- JSON ---------------------------------------------------------------- */

static int dump(json_t *doc, FILE *out, gp_err *err)
{
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                  JSON_REAL_PRECISION(17));
    json_decref(doc);
    /* A write that failed is the caller's to report, on closing the file
     * whose name it knows (export_file.h); anything else is the document. */
    if (rc != 0 && !ferror(out))
        return gp_error(err, "writing JSON failed");
    fputc('\n', out);
    return 0;
}

int export_json_dump(json_t *doc, FILE *out, gp_err *err)
{
    return dump(doc, out, err);
}

static json_t *gpu_json(const gpu_profile *g)
{
    /* an unknown price is null: JSON has no NaN */
    json_t *price = gpu_price_known(g) ? json_real(g->price_usd) : json_null();
    return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:s, s:f, s:s}",
                     "name", g->name, "mem_gib", g->mem_gib, "idle_w", g->idle_w,
                     "max_w", g->max_w, "sleep_w", g->sleep_w, "f_min_mhz", g->f_min_mhz,
                     "f_max_mhz", g->f_max_mhz, "alpha_w_per_mhz", g->alpha_w_per_mhz,
                     "beta", g->beta, "price_usd", price, "tput_class", g->tput_class,
                     "speed", gpu_speed(g), "price_source", g->price_source);
}

int export_cluster_json(const cluster *c, const catalog *cat, FILE *out, gp_err *err)
{
    json_t *gpus = json_array(), *cpus = json_array(), *nodes = json_array();
    for (size_t i = 0; i < cat->ngpus; i++)
        if (used_gpu(c, cat->gpus[i].name))
            json_array_append_new(gpus, gpu_json(&cat->gpus[i]));
    for (size_t i = 0; i < cat->ncpus; i++) {
        const cpu_profile *p = &cat->cpus[i];
        if (used_cpu(c, p->name))
            json_array_append_new(cpus, json_pack("{s:s, s:i, s:f, s:f}", "name", p->name,
                                                  "cores", p->cores, "idle_w", p->idle_w,
                                                  "max_w", p->max_w));
    }
    for (size_t i = 0; i < c->nnodes; i++) {
        const node *n = &c->nodes[i];
        json_t *o = json_pack("{s:s, s:s, s:i, s:I, s:I, s:s, s:f, s:f}", "name", n->name,
                              "gpu_model", n->gpu_model, "gpu_count", n->gpu_count,
                              "cpu_milli", (json_int_t)n->cpu_milli, "ram_mib",
                              (json_int_t)n->ram_mib, "cpu_model", n->cpu_model,
                              "static_w", n->static_w, "other_w", n->other_w);
        if (n->gpu_count > 0 && n->gpu_mem_gib[0] > 0) {
            json_t *mem = json_array();
            for (int k = 0; k < n->gpu_count && k < GP_NODE_MAX_GPUS; k++)
                json_array_append_new(mem, json_real(n->gpu_mem_gib[k]));
            json_object_set_new(o, "gpu_mem_gib", mem);
        }
        json_array_append_new(nodes, o);
    }
    return dump(json_pack("{s:s, s:o, s:o, s:o}", "cluster", c->name, "gpu_profiles", gpus,
                          "cpu_profiles", cpus, "nodes", nodes), out, err);
}

struct json_t *export_trace_doc(const gp_trace *t)
{
    json_t *tasks = json_array();
    for (size_t i = 0; i < t->ntasks; i++) {
        const task *k = &t->tasks[i];
        json_t *o = json_pack("{s:s, s:f, s:f, s:i, s:i, s:f, s:I, s:I, s:s, s:s, s:f, s:s,"
                              " s:i, s:f, s:f, s:f, s:f}",
                              "name", k->name, "arrival_s", k->arrival_s,
                              "duration_s", k->duration_s, "num_gpu", k->num_gpu,
                              "gpu_milli", k->gpu_milli, "gpu_mem_gib", k->gpu_mem_gib,
                              "cpu_milli", (json_int_t)k->cpu_milli,
                              "ram_mib", (json_int_t)k->ram_mib,
                              "gpu_spec", k->gpu_spec ? k->gpu_spec : "", "qos", k->qos,
                              "kappa", k->kappa, "model", k->model,
                              "batch_size", k->batch_size, "min_tput", k->min_tput,
                              "util_mean", k->util_mean, "util_peak", k->util_peak,
                              "util_first", k->util_first);
        if (k->util.len) {
            json_t *series = json_array();
            for (size_t j = 0; j < k->util.len; j++)
                json_array_append_new(series, json_real(k->util.pct[j]));
            json_object_set_new(o, "util_period_s", json_real(k->util.period_s));
            json_object_set_new(o, "util", series);
        }
        json_array_append_new(tasks, o);
    }
    return json_pack("{s:s, s:s, s:o}", "trace", t->name, "source",
                     t->source ? t->source : "", "tasks", tasks);
}

int export_trace_json(const gp_trace *t, FILE *out, gp_err *err)
{
    return dump(export_trace_doc(t), out, err);
}

int export_tput_json(const tput_catalog *c, FILE *out, gp_err *err)
{
    json_t *entries = json_array();
    for (size_t i = 0; i < c->nentries; i++) {
        const tput_entry *e = &c->entries[i];
        json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:f}", "accel", e->accel, "model",
                              e->model, "batch_size", e->batch_size, "scale", e->scale,
                              "tput", e->tput);
        if (e->co_model[0]) {
            json_object_set_new(o, "co_model", json_string(e->co_model));
            json_object_set_new(o, "co_batch_size", json_integer(e->co_batch_size));
            json_object_set_new(o, "co_scale", json_integer(e->co_scale));
            json_object_set_new(o, "co_tput", json_real(e->co_tput));
        }
        json_array_append_new(entries, o);
    }
    return dump(json_pack("{s:s, s:o}", "catalog", c->name, "entries", entries), out, err);
}

/* A placement's node in a run's document: "node" (its name, null when
 * nothing fit), or "node_index" when the cluster is gone. */
static void json_node(json_t *o, const cluster *c, int at)
{
    if (!c)
        json_object_set_new(o, "node_index", json_integer(at));
    else
        json_object_set_new(o, "node", at >= 0 ? json_string(c->nodes[at].name)
                                               : json_null());
}

int export_run_json(const run *r, const cluster *cl, FILE *out, gp_err *err)
{
    const cluster *c = run_cluster(r, cl);
    json_t *metrics = json_object(), *points = json_array(), *outcomes = json_array(),
           *decisions = json_array();
    for (size_t i = 0; i < r->nmetrics; i++)
        json_object_set_new(metrics, r->metrics[i].key, json_real(r->metrics[i].value));
    for (size_t i = 0; i < r->npoints; i++) {
        const run_point *p = &r->points[i];
        json_array_append_new(points, json_pack(
            "{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
            "t_s", p->t_s, "active_gpus", p->active_gpus, "awake_gpus", p->awake_gpus,
            "active_servers", p->active_servers, "power_w", p->power_w, "gpu_w", p->gpu_w,
            "cpu_w", p->cpu_w, "static_w", p->static_w, "frag", p->frag,
            "alloc_ratio", p->alloc_ratio, "queued", p->queued,
            "mean_freq_mhz", p->mean_freq_mhz));
    }
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        json_t *j = json_pack(
            "{s:i, s:f, s:f, s:f, s:f, s:f, s:b, s:s}", "task", o->task,
            "wait_s", o->wait_s, "start_s", o->start_s, "end_s", o->end_s, "jct_s", o->jct_s,
            "slowdown", o->slowdown, "sla_violated", o->sla_violated, "gpus", o->gpus);
        json_node(j, c, o->node);
        json_array_append_new(outcomes, j);
    }
    for (size_t i = 0; i < r->ndecisions; i++) {
        const run_decision *d = &r->decisions[i];
        json_t *j = json_pack(
            "{s:i, s:f, s:i, s:s, s:s?}", "decision", run_decision_number(d), "t_s", d->t_s,
            "task", d->task, "gpus", d->gpus, "reason", d->reason);
        json_node(j, c, d->node);
        json_array_append_new(decisions, j);
    }
    return dump(json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:s, s:o, s:o,"
                          " s:o, s:o}",
                          "id", (json_int_t)r->id, "name", r->name, "policy", r->policy,
                          "options", r->options ? r->options : "", "trace", r->trace_name,
                          "cluster", r->cluster_name, "seed", (json_int_t)r->seed,
                          "engine_version", r->engine_version, "power_model", r->power_model,
                          "created", r->created, "metrics", metrics, "timeline", points,
                          "outcomes", outcomes, "decisions", decisions), out, err);
}
