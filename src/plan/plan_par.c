/*
 * plan_par.c — plan_par.h: the planner's jobs on par.h's pool, run from a
 * background thread so that plan_tick() never blocks.
 *
 * The background thread is the pool's caller: it takes each job's result
 * in job order into `finished` (under the mutex); plan_par_tick() on the
 * plan's thread copies what is finished into sw->res.  The plan's own
 * fields are written by the plan's thread only.
 */
#include "plan_par.h"
#include "par.h"
#include "sim/sim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEPS_PER_CANCEL_CHECK 256

struct plan_par {
    plan *sw;                   /* read-only for the workers */
    int threads;
    pthread_t tid;
    pthread_mutex_t mu;
    int cancel;                 /* set by the plan's thread */
    int over;                   /* the pool returned */
    int rc;
    gp_err err;
    plan_result *finished;      /* [npending], taken in the order of pending */
    int ntaken;                 /* results in finished[] */
    int nmoved;                 /* of those, copied into sw->res */
};

static int cancelled(struct plan_par *pp)
{
    pthread_mutex_lock(&pp->mu);
    int c = pp->cancel;
    pthread_mutex_unlock(&pp->mu);
    return c;
}

/* One job to its end, as plan_tick() steps it, checking for cancel. */
static int job_work(void *ctx, size_t i, void **out, gp_err *err)
{
    struct plan_par *pp = ctx;
    cluster *cl = NULL;
    int job = pp->sw->pending[i];
    struct sim *s = plan_job_sim(pp->sw, job, &cl, err);
    int rc = s ? 0 : -1;
    for (size_t k = 1; rc == 0 && sim_step(s); k++)
        if (k % STEPS_PER_CANCEL_CHECK == 0 && cancelled(pp))
            rc = gp_error(err, "cancelled");
    plan_result *r = NULL;
    if (rc == 0) {
        if (!sim_done(s))
            sim_run(s, NULL);
        r = xmalloc(sizeof *r);
        *r = pp->sw->res[job];
        plan_job_result(pp->sw, s, r);
    }
    sim_free(s);
    cluster_free(cl);
    *out = r;
    return rc;
}

static int job_take(void *ctx, size_t i, void *result, gp_err *err)
{
    (void)err;
    struct plan_par *pp = ctx;
    pthread_mutex_lock(&pp->mu);
    pp->finished[i] = *(plan_result *)result;
    pp->ntaken = (int)i + 1;
    pthread_mutex_unlock(&pp->mu);
    free(result);
    return 0;
}

static void job_drop(void *ctx, size_t i, void *result)
{
    (void)ctx;
    (void)i;
    plan_result *r = result;
    free(r->jct);
    free(r);
}

static void *background(void *arg)
{
    struct plan_par *pp = arg;
    par_job job = {job_work, job_take, job_drop, pp};
    gp_err e = {{0}};
    int rc = par_run(&job, (size_t)pp->sw->npending, pp->threads, &e);
    pthread_mutex_lock(&pp->mu);
    pp->rc = rc;
    pp->err = e;
    pp->over = 1;
    pthread_mutex_unlock(&pp->mu);
    return NULL;
}

void plan_par_start(plan *sw)
{
    if (sw->p.jobs <= 1 || sw->npending <= 1 || sw->nets)
        return;
    struct plan_par *pp = xcalloc(1, sizeof *pp);
    pp->sw = sw;
    pp->threads = sw->p.jobs;
    pp->finished = xcalloc((size_t)sw->npending, sizeof *pp->finished);
    pthread_mutex_init(&pp->mu, NULL);
    if (pthread_create(&pp->tid, NULL, background, pp) != 0) {
        pthread_mutex_destroy(&pp->mu);     /* no thread: plan_tick steps as before */
        free(pp->finished);
        free(pp);
        return;
    }
    sw->par = pp;
}

/* Copies the results finished since the last call into sw->res; returns
 * 1 once the pool returned. */
static int move_finished(plan *sw)
{
    struct plan_par *pp = sw->par;
    pthread_mutex_lock(&pp->mu);
    for (; pp->nmoved < pp->ntaken; pp->nmoved++) {
        sw->res[sw->pending[pp->nmoved]] = pp->finished[pp->nmoved];
        pp->finished[pp->nmoved].jct = NULL;
    }
    sw->job = pp->nmoved;
    int over = pp->over;
    pthread_mutex_unlock(&pp->mu);
    return over;
}

static void join_free(plan *sw)
{
    struct plan_par *pp = sw->par;
    pthread_join(pp->tid, NULL);
    for (int i = pp->nmoved; i < pp->ntaken; i++)
        free(pp->finished[i].jct);
    pthread_mutex_destroy(&pp->mu);
    free(pp->finished);
    free(pp);
    sw->par = NULL;
}

int plan_par_tick(plan *sw, double budget_s)
{
    double t0 = now_seconds();
    int over;
    while (!(over = move_finished(sw)) && now_seconds() - t0 < budget_s) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    sw->elapsed = now_seconds() - sw->t_start;
    if (!over)
        return 1;
    struct plan_par *pp = sw->par;
    int failed = pp->rc != 0;
    if (failed)
        snprintf(sw->err, sizeof sw->err, "%s", pp->err.msg);
    join_free(sw);
    sw->state = failed ? PLAN_FAILED : PLAN_DONE;
    return 0;
}

void plan_par_stop(plan *sw)
{
    if (!sw->par)
        return;
    pthread_mutex_lock(&sw->par->mu);
    sw->par->cancel = 1;
    pthread_mutex_unlock(&sw->par->mu);
    move_finished(sw);
    join_free(sw);
}
