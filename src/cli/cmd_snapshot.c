/*
 * cmd_snapshot.c — `gpuplan snapshot --run ID --at T`: the state of a saved
 * run at one instant kept as a snapshot (the cluster with the tasks running
 * on it and their placements), so an operator can inspect it in the
 * Cluster screen, show it or export it.  Derived from the run's per-task
 * outcomes; nothing is re-simulated.
 */
#include "cli.h"
#include "cmd_table.h"
#include "cli_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int snapshot_exec(cli_ctx *ctx, int argc, char **argv);

const cli_cmd cmd_snapshot = {
    .name = "snapshot",
    .usage = "--run ID --at SECONDS [--name NAME] [--replace]",
    .summary = "Save a run's cluster state at one instant as a snapshot",
    .notes = "An instant past the run's last event is an error. "
             "Tasks running at that instant (started, not yet ended) are kept with their "
             "placements; servers a run opened beyond its cluster (--unbounded) are left out, "
             "with a count on stderr.",
    .exec = snapshot_exec,
};

/* Adds the placement rows of one running task: one per device it holds. */
static void add_rows(snapshot *sn, int task_idx, const task *tk, const run_outcome *o)
{
    placement_row r = {task_idx, o->node, -1, 0};
    if (tk->num_gpu == 0 || !o->gpus[0]) {
        snapshot_add_row(sn, &r);
        return;
    }
    char devs[sizeof o->gpus], *save = NULL;
    strlcpy0(devs, o->gpus, sizeof devs);
    for (char *tok = strtok_r(devs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        r.gpu = atoi(tok);
        r.gpu_milli = tk->gpu_milli;
        snapshot_add_row(sn, &r);
    }
}

/* Fills sn with the tasks of r running at t; returns how many servers
 * beyond the cluster were skipped. */
static size_t collect(const run *r, const gp_trace *tr, const cluster *cl, double t,
                      snapshot *sn)
{
    size_t skipped = 0;
    for (size_t i = 0; i < r->noutcomes; i++) {
        const run_outcome *o = &r->outcomes[i];
        if (o->node < 0 || o->start_s > t || o->end_s <= t || (size_t)o->task >= tr->ntasks)
            continue;
        if ((size_t)o->node >= cl->nnodes) {
            skipped++;
            continue;
        }
        const task *tk = &tr->tasks[o->task];
        trace_add_task(sn->tasks, tk);
        add_rows(sn, (int)sn->tasks->ntasks - 1, tk, o);
    }
    return skipped;
}

/* The run's last event: its last completion or timeline sample. */
static double run_end_time(const run *r)
{
    double end = 0;
    for (size_t i = 0; i < r->noutcomes; i++)
        if (r->outcomes[i].end_s > end)
            end = r->outcomes[i].end_s;
    for (size_t i = 0; i < r->npoints; i++)
        if (r->points[i].t_s > end)
            end = r->points[i].t_s;
    return end;
}

static int make_snapshot(cli_ctx *ctx, int64_t id, double at, const char *name, int replace)
{
    store *st = cli_store(ctx);
    if (!st)
        return EXIT_RUNTIME;
    gp_err err = {{0}};
    run *r = NULL;
    gp_trace *tr = NULL;
    cluster *cl = NULL;
    snapshot *sn = NULL;
    int rc = EXIT_RUNTIME;
    if (store_get_run(st, id, &r, &err) || store_get_trace(st, r->trace_name, &tr, &err) ||
        store_get_cluster(st, r->cluster_name, &cl, &err))
        goto out;
    double end = run_end_time(r);
    if (at > end) {
        gp_error(&err, "--at %g: past the end of run %lld (its last event is at t=%g s)", at,
                 (long long)id, end);
        goto out;
    }
    char defname[GP_NAME_MAX];
    snprintf(defname, sizeof defname, "%s-%lld-t%g", r->policy, (long long)id, at);
    sn = snapshot_new(name ? name : defname);
    strlcpy0(sn->cluster_name, cl->name, sizeof sn->cluster_name);
    sn->time_s = at;
    size_t skipped = collect(r, tr, cl, at, sn);
    if (store_put_snapshot(st, sn, replace, &err))
        goto out;
    if (skipped)
        fprintf(stderr, "gpuplan snapshot: %zu task(s) on servers opened beyond cluster '%s' "
                        "left out\n", skipped, cl->name);
    fprintf(ctx->out, "snapshot '%s': %zu running task(s) on cluster '%s' at t=%gs\n",
            sn->name, sn->tasks->ntasks, cl->name, at);
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        cli_fail(&err);
    snapshot_free(sn);
    cluster_free(cl);
    trace_free(tr);
    run_free(r);
    return rc;
}

static int snapshot_exec(cli_ctx *ctx, int argc, char **argv)
{
    int64_t id = 0;
    double at = 0;
    const char *name = NULL;
    int replace = 0, code;
    const cli_opt opts[] = {
        OPT_INT64("run", 0, "ID", &id, 1, INFINITY, "a saved run (gpuplan list runs)",
                  .required = 1),
        OPT_DOUBLE("at", 0, "SECONDS", &at, 0, INFINITY,
                   "the instant, in the run's simulated time", .required = 1),
        OPT_NAME("name", 0, "NAME", &name, "the snapshot's name",
                   .def = "<policy>-<id>-t<SECONDS>"),
        OPT_FLAG("replace", 0, &replace, "replace a snapshot of that name"),
        OPT_END(),
    };
    if (cli_parse(ctx, &cmd_snapshot, opts, argc, argv, NULL, &code))
        return code;
    return make_snapshot(ctx, id, at, name, replace);
}
