/*
 * cli_whatif.c — `--from-snapshot` of run, plan and solve (cli_whatif.h):
 * loading the what-if and describing the state it starts from.
 */
#include "cli_whatif.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_whatif_load(store *st, const cli_whatif *cw, const char *cluster_name,
                    const char *trace_name, cli_inputs *in, whatif *w, gp_err *err)
{
    memset(in, 0, sizeof *in);
    memset(w, 0, sizeof *w);
    snapshot *sn = NULL;
    gp_trace *arrivals = NULL;
    int rc = -1;
    if (store_get_snapshot(st, cw->snapshot, &sn, err) ||
        store_load_catalog(st, &in->cat, err) ||
        store_get_cluster(st, sn->cluster_name, &in->cl, err) ||
        (trace_name && store_get_trace(st, trace_name, &arrivals, err)))
        goto out;
    if (cluster_name && strcmp(cluster_name, sn->cluster_name) != 0) {
        gp_error(err, "snapshot '%s' is of cluster '%s', not '%s' (leave --cluster out)",
                 sn->name, sn->cluster_name, cluster_name);
        goto out;
    }
    if (whatif_build(sn, in->cl, in->cat, arrivals, &cw->o, w, err))
        goto out;
    if (w->tr->ntasks == 0) {
        gp_error(err, "snapshot '%s' has no task and nothing arrives (give --trace or --more)",
                 sn->name);
        goto out;
    }
    in->tr = w->tr;
    rc = 0;
out:
    snapshot_free(sn);
    trace_free(arrivals);
    return rc;
}

void cli_whatif_free(cli_inputs *in, whatif *w)
{
    if (in->tr == w->tr)
        in->tr = NULL;
    cli_inputs_free(in);
    whatif_free(w);
}

int cli_whatif_describe(FILE *out, const cli_whatif *cw, const cli_inputs *in,
                        const whatif *w, gp_err *err)
{
    whatif_look lk;
    if (whatif_look_at(w, in->cl, in->cat, &lk, err))
        return -1;
    fprintf(out, "from snapshot '%s' on cluster '%s': %zu task(s) in place on %d of %d GPUs "
            "(%.1f GPUs idle, FGD fragmentation %.1f GPUs), %zu arriving\n", cw->snapshot,
            in->cl->name, w->nplaced, lk.busy_gpus, lk.gpus, lk.idle_milli / 1000.0,
            lk.frag_milli / 1000.0, w->tr->ntasks - w->nplaced);
    return 0;
}

/* The snapshot's tasks in place and nothing arriving: its own tasks are the
 * workload FGD measures its fragmentation against. */
static void look_at_snapshot(cli_snapview *v)
{
    whatif w;
    whatif_opts o = {0};
    gp_err err;
    v->look.frag_milli = NAN;
    if (whatif_build(v->sn, v->cl, v->cat, NULL, &o, &w, &err))
        return;
    if (whatif_look_at(&w, v->cl, v->cat, &v->look, &err))
        v->look.frag_milli = NAN;
    whatif_free(&w);
}

int cli_snapview_load(store *st, const char *name, cli_snapview *v, gp_err *err)
{
    memset(v, 0, sizeof *v);
    if (store_get_snapshot(st, name, &v->sn, err) ||
        store_get_cluster(st, v->sn->cluster_name, &v->cl, err) ||
        store_load_catalog(st, &v->cat, err)) {
        cli_snapview_free(v);
        return -1;
    }
    look_at_snapshot(v);
    return 0;
}

void cli_snapview_free(cli_snapview *v)
{
    snapshot_free(v->sn);
    cluster_free(v->cl);
    catalog_free(v->cat);
    memset(v, 0, sizeof *v);
}
