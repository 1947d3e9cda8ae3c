/*
 * par.c — the thread pool of par.h: workers claim job indices in order,
 * the caller waits for each index in turn and takes its result.
 *
 * One mutex guards the slots and the counters; `ready` wakes the caller
 * when a slot is filled, `room` wakes workers when a result was taken (the
 * window moved) or the run stops.
 */
#include "par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SLOT_WAITING, SLOT_DONE };

typedef struct slot {
    int state;
    int rc;
    void *result;
    char *msg;                  /* the failure's message, allocated */
} slot;

typedef struct pool {
    const par_job *job;
    size_t n, window;
    slot *slots;
    size_t next;                /* the next index a worker claims */
    size_t taken;               /* indices below this were taken */
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t ready, room;
} pool;

int par_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > PAR_MAX_THREADS ? PAR_MAX_THREADS : (int)n;
}

/* The old path: each job computed and taken in turn. */
static int run_serial(const par_job *job, size_t n, gp_err *err)
{
    for (size_t i = 0; i < n; i++) {
        void *res = NULL;
        if (job->work(job->ctx, i, &res, err))
            return -1;
        if (job->take(job->ctx, i, res, err))
            return -1;
    }
    return 0;
}

/* Waits for a job index inside the window; returns 0 with *i, or -1 when
 * there is no more work.  Called with the mutex held. */
static int claim(pool *p, size_t *i)
{
    while (!p->stop && p->next < p->n && p->next >= p->taken + p->window)
        pthread_cond_wait(&p->room, &p->mu);
    if (p->stop || p->next >= p->n)
        return -1;
    *i = p->next++;
    return 0;
}

static void *worker(void *arg)
{
    pool *p = arg;
    size_t i;
    pthread_mutex_lock(&p->mu);
    while (claim(p, &i) == 0) {
        pthread_mutex_unlock(&p->mu);
        gp_err e = {{0}};
        void *res = NULL;
        int rc = p->job->work(p->job->ctx, i, &res, &e);
        pthread_mutex_lock(&p->mu);
        slot *s = &p->slots[i];
        s->rc = rc;
        s->result = res;
        s->msg = rc ? xstrdup(e.msg) : NULL;
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&p->ready);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Takes the results in index order on the calling thread. */
static int take_in_order(pool *p, gp_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < p->n && rc == 0; i++) {
        slot *s = &p->slots[i];
        pthread_mutex_lock(&p->mu);
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&p->ready, &p->mu);
        pthread_mutex_unlock(&p->mu);
        if (s->rc)
            rc = gp_error(err, "%s", s->msg);
        else
            rc = p->job->take(p->job->ctx, i, s->result, err);
        s->result = NULL;       /* taken (or, on failure, nothing to take) */
        pthread_mutex_lock(&p->mu);
        p->taken = i + 1;
        if (rc)
            p->stop = 1;
        pthread_cond_broadcast(&p->room);
        pthread_mutex_unlock(&p->mu);
    }
    return rc;
}

/* After the workers stopped: results computed but not taken, messages. */
static void drop_rest(pool *p)
{
    for (size_t i = 0; i < p->n; i++) {
        slot *s = &p->slots[i];
        if (s->state == SLOT_DONE && s->rc == 0 && s->result && p->job->drop)
            p->job->drop(p->job->ctx, i, s->result);
        free(s->msg);
    }
}

int par_run(const par_job *job, size_t n, int threads, gp_err *err)
{
    if (threads > PAR_MAX_THREADS)
        threads = PAR_MAX_THREADS;
    if ((size_t)threads > n)
        threads = (int)n;
    if (threads <= 1)
        return run_serial(job, n, err);
    pool p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.n = n;
    p.window = (size_t)threads * PAR_WINDOW_PER_THREAD;
    p.slots = xcalloc(n, sizeof *p.slots);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.ready, NULL);
    pthread_cond_init(&p.room, NULL);
    pthread_t tid[PAR_MAX_THREADS];
    int started = 0;
    for (int t = 0; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, &p) == 0)
            started++;
    int rc;
    if (started == 0) {         /* no thread to be had: the caller does it all */
        rc = run_serial(job, n, err);
    } else {
        rc = take_in_order(&p, err);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
    }
    drop_rest(&p);
    pthread_cond_destroy(&p.room);
    pthread_cond_destroy(&p.ready);
    pthread_mutex_destroy(&p.mu);
    free(p.slots);
    return rc;
}
