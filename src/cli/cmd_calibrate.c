/*
 * cmd_calibrate.c — `gpuplan calibrate --snapshot NAME... [--gpu PROFILE]
 * [--save NAME [--force]]`: a GPU profile's power model (CATS §2.1.1
 * eq. 1) fitted to the monitor readings of stored snapshots, with the
 * error of the catalog's profile beside the fit's, and the fit kept as a
 * new profile the planner and the simulator use.  The fit is
 * power/power_fit.c; this file reads the store and prints.
 */
#include "cli.h"
#include "cli_opt.h"
#include "cmd_table.h"
#include "core/profile.h"
#include "power/power_fit.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calibrate_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_calibrate = {
    .name = "calibrate",
    .usage = "--snapshot NAME... [--gpu PROFILE] [--save NAME [--force]]",
    .summary = "Fit a GPU profile's power model to the readings of snapshots",
    .notes = "Fits P = idle_w + alpha_w_per_mhz * f on an active GPU, idle_w on an idle "
             "one (CATS eq. 1, the model the simulator uses), by least squares with both "
             "at least 0, to the power, SM clock and utilization nvidia-smi or DCGM read "
             "on the GPUs of the profile in the snapshots. A GPU is active when it holds "
             "a task or reads a utilization above 0. A second fit adds util_w * "
             "utilization to say how much utilization explains; the simulator has no "
             "such term, so --save keeps the first. Prints the error (MAPE, largest, "
             "root mean square) of the catalog's profile and of each fit.",
    .exec = calibrate_exec,
};

/* The snapshots read: the names given, a pattern ("eks-*", one snapshot
 * per DCGM scrape of a series) replaced by the stored names it matches. */
typedef struct calib_names {
    char (*v)[GP_NAME_MAX];
    size_t n;
} calib_names;

static void names_add(calib_names *nm, const char *name)
{
    nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof *nm->v);
    strlcpy0(nm->v[nm->n++], name, GP_NAME_MAX);
}

static int expand_names(store *st, const cli_list *given, calib_names *nm, gp_err *err)
{
    store_item *items = NULL;
    size_t nitems = 0;
    for (size_t i = 0; i < given->n; i++) {
        const char *g = given->v[i];
        if (!strpbrk(g, "*?[")) {
            names_add(nm, g);
            continue;
        }
        if (!items && store_list(st, STORE_SNAPSHOT, &items, &nitems, err))
            return -1;
        size_t before = nm->n;
        for (size_t k = 0; k < nitems; k++)
            if (fnmatch(g, items[k].name, 0) == 0)
                names_add(nm, items[k].name);
        if (nm->n == before) {
            free(items);
            return gp_error(err, "no snapshot matches '%s'", g);
        }
    }
    free(items);
    return 0;
}

typedef struct calib_in {
    catalog *cat;
    pf_set set;
    char model[GP_NAME_MAX];
} calib_in;

/* The one GPU profile among the nodes the snapshots have readings of,
 * into model; -1 with the list when there are several or none. */
static int only_model(store *st, const calib_names *snaps, char *model, gp_err *err)
{
    char seen[512] = "";
    int count = 0;
    for (size_t s = 0; s < snaps->n; s++) {
        snapshot *sn = NULL;
        cluster *cl = NULL;
        if (store_get_snapshot(st, snaps->v[s], &sn, err) ||
            store_get_cluster(st, sn->cluster_name, &cl, err)) {
            snapshot_free(sn);
            return -1;
        }
        for (size_t i = 0; i < sn->nreadings; i++) {
            int nd = sn->readings[i].node;
            if (nd < 0 || (size_t)nd >= cl->nnodes)
                continue;
            const char *m = cl->nodes[nd].gpu_model;
            char quoted[GP_NAME_MAX + 2];
            snprintf(quoted, sizeof quoted, "'%s'", m);
            if (strstr(seen, quoted))
                continue;
            if (count++ == 0)
                strlcpy0(model, m, GP_NAME_MAX);
            size_t l = strlen(seen);
            snprintf(seen + l, sizeof seen - l, "%s%s", l ? ", " : "", quoted);
        }
        cluster_free(cl);
        snapshot_free(sn);
    }
    if (count == 1)
        return 0;
    if (count == 0)
        return gp_error(err, "the snapshots have no GPU readings");
    return gp_error(err, "readings of several GPU profiles (%s): name one with --gpu", seen);
}

static int collect(store *st, const calib_names *snaps, calib_in *in, gp_err *err)
{
    for (size_t s = 0; s < snaps->n; s++) {
        snapshot *sn = NULL;
        cluster *cl = NULL;
        int rc = store_get_snapshot(st, snaps->v[s], &sn, err) ||
                 store_get_cluster(st, sn->cluster_name, &cl, err);
        if (!rc)
            power_fit_collect(sn, cl, in->model, &in->set);
        cluster_free(cl);
        snapshot_free(sn);
        if (rc)
            return -1;
    }
    return 0;
}

static void num_cell(table *t, double v)
{
    if (isfinite(v))
        table_cell(t, "%.4g", v);
    else
        table_cell(t, "%s", "");
}

/* One row: the model's parameters, its error on the readings, a note. */
static void model_row(table *t, const char *what, const char *name, const pf_params *m,
                      int nparam, const pf_set *s, const char *note)
{
    pf_error e;
    power_fit_error(m, s->v, s->n, &e);
    table_row(t);
    table_cell(t, "%s", what);
    table_cell(t, "%s", name);
    num_cell(t, m->p[PF_IDLE]);
    num_cell(t, m->p[PF_ALPHA]);
    num_cell(t, nparam > 2 ? m->p[PF_UTIL] : NAN);
    table_cell(t, "%zu", e.n);
    table_cell(t, "%.2f", e.mape_pct);
    table_cell(t, "%.1f", e.max_abs_w);
    table_cell(t, "%.1f", e.rmse_w);
    table_cell(t, "%s", note);
}

/* "idle_w held at 0 by its bound" for the parameters at their bound. */
static void bound_note(const pf_fit *f, const char *extra, char *buf, size_t len)
{
    snprintf(buf, len, "%s", extra);
    for (int j = 0; j < f->nparam; j++) {
        size_t l = strlen(buf);
        if (f->at_bound[j])
            snprintf(buf + l, len - l, "%s%s held at 0 by its bound", l ? "; " : "",
                     power_fit_param_name(j));
    }
}

static int save_profile(store *st, const calib_in *in, const pf_fit *f, const char *name,
                        int force, gp_err *err)
{
    if (catalog_gpu(in->cat, name) && !force)
        return gp_error(err, "a GPU profile named '%s' exists (--force replaces it)", name);
    gpu_profile g = *catalog_gpu(in->cat, in->model);
    g.id = 0;
    strlcpy0(g.name, name, sizeof g.name);
    g.idle_w = f->m.p[PF_IDLE];
    g.alpha_w_per_mhz = f->m.p[PF_ALPHA];
    if (g.max_w < g.idle_w)
        return gp_error(err, "the fitted idle_w %.4g W is above %s's max_w %.4g W: not saved",
                        g.idle_w, in->model, g.max_w);
    if (gpu_profile_check(&g, err) || store_put_gpu_profile(st, &g, err))
        return -1;
    return 0;
}

static void print_intro(cli_ctx *ctx, const calib_in *in, const calib_names *snaps)
{
    FILE *o = ctx->format == FMT_TABLE ? ctx->out : stderr;
    fprintf(o, "GPU profile '%s': %zu reading(s) from %zu snapshot(s)", in->model, in->set.n,
            snaps->n);
    if (in->set.no_power + in->set.no_util + in->set.no_clock)
        fprintf(o, "; left out: %zu without power, %zu without utilization, %zu active "
                   "without a clock", in->set.no_power, in->set.no_util, in->set.no_clock);
    fprintf(o, "\n");
}

static int report(cli_ctx *ctx, store *st, calib_in *in, const calib_names *snaps,
                  const char *save, int force, gp_err *err)
{
    pf_fit f2, f3;
    gp_err err3 = {{0}};
    if (power_fit(in->set.v, in->set.n, 0, &f2, err))
        return -1;
    int have3 = power_fit(in->set.v, in->set.n, 1, &f3, &err3) == 0;
    if (save && save_profile(st, in, &f2, save, force, err))
        return -1;
    print_intro(ctx, in, snaps);
    table *t = table_new();
    static const char *const cols[] = {"model", "profile", "idle_w", "alpha_w_per_mhz",
                                       "util_w", "readings", "mape_pct", "max_err_w",
                                       "rmse_w", "note"};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        table_col(t, cols[c], c >= 2 && c <= 8);
    pf_params cat = pf_params_of(catalog_gpu(in->cat, in->model));
    char note[256];
    model_row(t, "catalog", in->model, &cat, 2, &in->set, "");
    bound_note(&f2, save ? "saved" : "", note, sizeof note);
    model_row(t, "fit eq. 1", save ? save : "", &f2.m, 2, &in->set, note);
    if (have3) {
        bound_note(&f3, "not saved: the simulator has no utilization term", note, sizeof note);
        model_row(t, "fit eq. 1 + util", "", &f3.m, 3, &in->set, note);
    }
    table_print(t, ctx->format, ctx->out, NULL);
    table_free(t);
    if (!have3)
        fprintf(stderr, "gpuplan calibrate: no fit with utilization: %s\n", err3.msg);
    return 0;
}

static int calibrate_exec(cli_ctx *ctx, int argc, char **argv)
{
    cli_list snaps = {0};
    const char *gpu = NULL, *save = NULL;
    int force = 0, code;
    const cli_opt opts[] = {
        OPT_LIST("snapshot", 0, "NAME", &snaps,
                 "a stored snapshot with GPU readings (repeat for more; a pattern "
                 "such as 'scrape-*' takes every snapshot it matches)", .required = 1),
        OPT_NAME("gpu", 0, "PROFILE", &gpu, "the GPU profile to fit",
                 .def = "the only one the readings are of"),
        OPT_NAME("save", 0, "NAME", &save, "store the fit as a new GPU profile NAME"),
        OPT_FLAG("force", 0, &force, "let --save replace a profile of that name"),
        OPT_END(),
    };
    if (cli_parse(ctx, &cmd_calibrate, opts, argc, argv, NULL, &code)) {
        cli_list_free(&snaps);
        return code;
    }
    store *st = cli_store(ctx);
    calib_in in = {0};
    calib_names names = {0};
    gp_err err = {{0}};
    int rc = EXIT_RUNTIME;
    if (!st)
        goto out;
    if (store_load_catalog(st, &in.cat, &err))
        goto fail;
    if (gpu && !catalog_gpu(in.cat, gpu)) {
        char hint[300];
        gp_error(&err, "no GPU profile named '%s'%s", gpu,
                 catalog_gpu_hint(in.cat, gpu, hint, sizeof hint));
        goto fail;
    }
    if (expand_names(st, &snaps, &names, &err))
        goto fail;
    if (gpu)
        strlcpy0(in.model, gpu, sizeof in.model);
    else if (only_model(st, &names, in.model, &err))
        goto fail;
    if (collect(st, &names, &in, &err) ||
        report(ctx, st, &in, &names, save, force, &err))
        goto fail;
    rc = EXIT_OK;
    goto out;
fail:
    rc = cli_fail(&err);
out:
    free(names.v);
    pf_set_free(&in.set);
    catalog_free(in.cat);
    cli_list_free(&snaps);
    return rc;
}
