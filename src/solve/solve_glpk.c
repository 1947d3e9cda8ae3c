/*
 * solve_glpk.c — the GLPK plumbing every exact solver shares: terminal
 * output captured into a buffer (GLPK must never write over the TUI), the
 * time limit and cancel flag enforced from the branch-and-bound callback,
 * the heuristics' solution handed to GLPK as its first incumbent, the proven
 * bound and gap read back, LP/MPS files written on request.
 *
 * Global state: glp_term_hook() installs one hook per thread (GLPK keeps
 * it in its environment); sg_begin()/sg_end() install and remove ours
 * around each solve, sg_attach()/sg_detach() in a thread a solve starts
 * (which also frees that thread's environment).  Nothing else here is
 * global.
 *
 * Why presolve is off: GLPK's MIP presolver renumbers columns, and the
 * callback would then see the presolved problem, where the warm start
 * (glp_ios_heur_sol takes values of *that* problem's columns) cannot be
 * given.  The models are built tight already, so we solve the root LP
 * ourselves with glp_simplex and run glp_intopt on the original problem.
 */
#include "solve_int.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SG_LOG_MAX (256u * 1024u)   /* keep at most this much of GLPK's output */

const char *solve_status_name(solve_status s)
{
    switch (s) {
    case SOLVE_OPTIMAL: return "optimal";
    case SOLVE_FEASIBLE: return "feasible";
    case SOLVE_INFEASIBLE: return "infeasible";
    case SOLVE_TIMEOUT: return "timeout";
    case SOLVE_CANCELLED: return "cancelled";
    }
    return "?";
}

void solve_opts_default(solve_opts *o)
{
    memset(o, 0, sizeof *o);
}

int solve_cuts_parse(const char *s)
{
    static const char *const names[] = {"off", "root", "nodes"};     /* solve_cuts order */
    for (int k = 0; k < (int)(sizeof names / sizeof *names); k++)
        if (strcmp(s, names[k]) == 0)
            return k;
    return -1;
}

void solve_result_init(solve_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = SOLVE_TIMEOUT;
    r->objective = HUGE_VAL;
    r->bound = -HUGE_VAL;
    r->gap = HUGE_VAL;
    r->heur_objective = HUGE_VAL;
    r->lp_bound = -HUGE_VAL;
    r->why_task = -1;
}

void solve_result_free(solve_result *r)
{
    free(r->place);
    free(r->gpu_freq_mhz);
    free(r->gpu_watts);
    free(r->log);
    solve_result_init(r);
}

void solve_shutdown(void)
{
    glp_free_env();
}

/* GLPK's terminal hook: append to the buffer, never print (returning
 * nonzero tells GLPK the text was handled). */
static int sg_hook(void *info, const char *s)
{
    sg_ctx *c = info;
    size_t n = strlen(s);
    if (c->loglen + n + 1 > SG_LOG_MAX)
        return 1;
    if (c->loglen + n + 1 > c->logcap) {
        size_t cap = c->logcap ? c->logcap * 2 : 4096;
        while (cap < c->loglen + n + 1)
            cap *= 2;
        c->log = xrealloc(c->log, cap);
        c->logcap = cap;
    }
    memcpy(c->log + c->loglen, s, n + 1);
    c->loglen += n;
    return 1;
}

void sg_attach(sg_ctx *c)
{
    glp_term_hook(sg_hook, c);
}

void sg_begin(sg_ctx *c, const solve_opts *o)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->t0 = now_seconds();
    sg_attach(c);
}

void sg_detach(void)
{
    glp_term_hook(NULL, NULL);
    glp_free_env();
}

void sg_log_append(sg_ctx *c, const char *text)
{
    if (text)
        sg_hook(c, text);
}

void sg_end(sg_ctx *c, solve_result *res)
{
    glp_term_hook(NULL, NULL);
    if (res && c->o->keep_log && c->log) {
        free(res->log);
        res->log = c->log;
    } else {
        free(c->log);
    }
    c->log = NULL;
    c->loglen = c->logcap = 0;
}

static int by_work(const sg_ctx *c)
{
    return c->o->work_limit_s > 0;
}

double sg_elapsed(const sg_ctx *c)
{
    return by_work(c) ? c->work * SOLVE_WORK_S_PER_ITER : now_seconds() - c->t0;
}

double sg_remaining(const sg_ctx *c)
{
    double limit = by_work(c) ? c->o->work_limit_s : c->o->time_limit_s;
    if (limit <= 0)
        return 1e12;
    return limit - sg_elapsed(c);
}

int sg_should_stop(const sg_ctx *c)
{
    if ((c->o->cancel && *c->o->cancel) || (c->halt && atomic_load(c->halt)))
        return SOLVE_CANCELLED;
    if (sg_remaining(c) <= 0)
        return SOLVE_TIMEOUT;
    if (c->deadline > 0 && now_seconds() >= c->deadline)
        return SOLVE_TIMEOUT;
    return -1;
}

void sg_stage(const sg_ctx *c, double work_s, solve_opts *o, sg_ctx *sub)
{
    *o = *c->o;
    o->time_limit_s = 0;
    o->work_limit_s = work_s;
    o->write_lp = o->write_mps = NULL;
    *sub = *c;
    sub->deadline = sg_deadline(c);
    sub->o = o;
    sub->t0 = now_seconds();
    sub->work = 0;
}

double sg_deadline(const sg_ctx *c)
{
    double own = !by_work(c) && c->o->time_limit_s > 0 ? c->t0 + c->o->time_limit_s : 0;
    if (c->deadline > 0 && (own <= 0 || c->deadline < own))
        return c->deadline;
    return own;
}

double sg_gap(double obj, double bound)
{
    if (!isfinite(obj) || !isfinite(bound))
        return HUGE_VAL;
    double g = fabs(obj - bound) / (fabs(obj) + DBL_EPSILON);
    return g < 1e-12 ? 0 : g;
}

/* GLPK takes limits in integer milliseconds; under a work limit its own
 * clock is off (iteration limits and the callback stop it instead) but for
 * a deadline: one LP of GLPK's branch and bound has no iteration limit,
 * and the integer master of branch and price's root once ran ten minutes
 * in one (the first 256 pai-like tasks for CorrGPU, 60 s asked). */
static int ms_left(const sg_ctx *c)
{
    double ms = by_work(c) ? (c->deadline > 0 ? (c->deadline - now_seconds()) * 1000.0 : HUGE_VAL)
                           : sg_remaining(c) * 1000.0;
    if (ms >= (double)INT_MAX)
        return INT_MAX;
    return ms < 1 ? 1 : (int)ms;
}

/* Simplex iterations left under a work limit (INT_MAX without one). */
static int it_left(const sg_ctx *c)
{
    if (!by_work(c))
        return INT_MAX;
    double it = sg_remaining(c) / SOLVE_WORK_S_PER_ITER;
    return it >= (double)INT_MAX ? INT_MAX : it < 1 ? 1 : (int)it;
}

/* GLPK's simplex polls no flag, so it runs in slices, each resuming from
 * the basis the last one left, and the cancel flag is read between them:
 * SG_SLICE_MS of wall time, or under a work limit SG_SLICE_ITERS
 * iterations (a count, so that the slices, and with them the simplex's
 * path, are the same on any machine). */
#define SG_SLICE_MS 100
#define SG_SLICE_ITERS 2000
/* Slices of pivots under a time limit (sg_ctx.pivot_slices) are shorter:
 * with 2,000 pivots a slice, an interrupt of 256 pai-like tasks with
 * per-task kappa waited up to 0.67 s for the root's search beside the
 * tree; with 250, 0.06 s. */
#define SG_PIVOT_SLICE 250
#define SG_STALL_ITERS SG_SLICE_ITERS

int sg_simplex(sg_ctx *c, glp_prob *P, glp_smcp *sp)
{
    int rc;
    double last_z = NAN;
    int z_since = 0;                    /* the pivot count when z last moved */
    int cap = sp->it_lim, done = 0;     /* the caller's own limit */
    for (;;) {
        int ms = ms_left(c), it = it_left(c);
        it = it < cap - done ? it : cap - done;
        int slice_by_time = !by_work(c) && !c->pivot_slices;
        int slice_its = by_work(c) ? SG_SLICE_ITERS : SG_PIVOT_SLICE;
        sp->tm_lim = slice_by_time && ms > SG_SLICE_MS ? SG_SLICE_MS : ms;
        sp->it_lim = !slice_by_time && it > slice_its ? slice_its : it;
        int at = glp_get_it_cnt(P);
        rc = glp_simplex(P, sp);
        c->work += glp_get_it_cnt(P) - at;
        done += glp_get_it_cnt(P) - at;
        int sliced = slice_by_time ? rc == GLP_ETMLIM && ms > SG_SLICE_MS
                                   : rc == GLP_EITLIM && it > slice_its;
        if (!sliced || sg_should_stop(c) >= 0)
            break;
        /* SG_STALL_ITERS primal pivots without the objective moving are
         * the primal simplex going round a degenerate vertex (seen on a
         * column-generation master of 92 rows whose basis was optimal
         * within tolerances: 5,000 pivots a slice until the time limit);
         * the dual simplex from the same basis ends it.  Counted in
         * pivots, not slices, so that whether it happens does not depend
         * on how many pivots a loaded machine fits in 100 ms. */
        if (glp_get_status(P) == GLP_FEAS) {
            double z = glp_get_obj_val(P);
            int now = glp_get_it_cnt(P);
            if (z != last_z) {
                last_z = z;
                z_since = now;
            } else if (sp->meth == GLP_PRIMAL && now - z_since >= SG_STALL_ITERS) {
                sp->meth = GLP_DUALP;
            }
        }
    }
    return rc;
}

/* State the callback sees. */
typedef struct sg_cb {
    sg_ctx *c;
    sg_mip *m;
    int start_given;
    int stopped;            /* SOLVE_* or -1 */
    double work0;           /* the work clock when glp_intopt began */
    int it0;                /* P's iteration count then */
    double last_call;       /* wall seconds of the solve at the last callback */
    double longest_step;    /* the longest wall time between two callbacks */
} sg_cb;

/* Branch and bound's work so far onto the clock: its iterations and nodes. */
static void count_tree(sg_cb *cb, glp_tree *T)
{
    int a, n, t;
    glp_ios_tree_size(T, &a, &n, &t);
    cb->c->work = cb->work0 + (glp_get_it_cnt(glp_ios_get_prob(T)) - cb->it0) +
                  (double)t * SOLVE_WORK_ITERS_PER_NODE;
}

/* SOLVE_TIMEOUT when the next step of branch and bound would likely end
 * past the wall-time limit: GLPK is only stopped between steps, and one
 * step (a cut round at the root of a large model, with its LP) can take
 * seconds, so the limit is kept by not starting a step longer than the
 * time left, judged by the longest one so far.  Not under a work limit,
 * whose stopping point must not depend on the machine. */
static int step_would_overrun(sg_cb *cb)
{
    if (by_work(cb->c) || cb->c->o->time_limit_s <= 0)
        return -1;
    double t = now_seconds() - cb->c->t0;
    if (t - cb->last_call > cb->longest_step)
        cb->longest_step = t - cb->last_call;
    cb->last_call = t;
    return sg_remaining(cb->c) < cb->longest_step ? SOLVE_TIMEOUT : -1;
}

static void sg_callback(glp_tree *T, void *info)
{
    sg_cb *cb = info;
    count_tree(cb, T);
    int stop = sg_should_stop(cb->c);
    if (stop < 0)
        stop = step_would_overrun(cb);
    if (stop >= 0) {
        cb->stopped = stop;
        glp_ios_terminate(T);
        return;
    }
    if (glp_ios_reason(T) == GLP_IHEUR && cb->m->start_x && !cb->start_given) {
        glp_ios_heur_sol(T, cb->m->start_x);
        cb->start_given = 1;
    }
    /* The best local bound over the active subproblems is a valid global
     * lower bound at any moment; keep the largest one seen, since the
     * tree is gone when glp_intopt returns on a time limit. */
    int best = glp_ios_best_node(T);
    if (best) {
        double b = glp_ios_node_bound(T, best);
        if (b > cb->m->bound)
            cb->m->bound = b;
    }
    int a, n, t;
    glp_ios_tree_size(T, &a, &n, &t);
    cb->m->nodes = t;
}

/* Rounds a bound up to a multiple of the objective's quantum (with a
 * tolerance). */
static double round_bound(const sg_mip *m, double b)
{
    if (m->quantum > 0 && isfinite(b))
        return m->quantum * solve_quanta(b, m->quantum);
    return b;
}

static int lp_root(sg_ctx *c, glp_prob *P, sg_mip *m, gp_err *err)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = c->o->keep_log ? GLP_MSG_ON : GLP_MSG_ERR;
    sp.presolve = GLP_OFF;
    int rc = sg_simplex(c, P, &sp);
    if (rc == GLP_ETMLIM || rc == GLP_EITLIM) {
        int stop = sg_should_stop(c);
        m->status = stop >= 0 ? stop : SOLVE_TIMEOUT;
        return 1;
    }
    if (rc != 0)
        return gp_error(err, "GLPK: the LP relaxation failed (glp_simplex code %d)", rc);
    int st = glp_get_status(P);
    if (st == GLP_NOFEAS) {
        m->status = SOLVE_INFEASIBLE;
        return 1;
    }
    if (st != GLP_OPT)
        return gp_error(err, "GLPK: the LP relaxation ended with status %d", st);
    m->lp_obj = glp_get_obj_val(P);
    return 0;
}

/* What glp_intopt's return code and the MIP status mean for us. */
static void read_mip(sg_mip *m, glp_prob *P, int rc, const sg_cb *cb)
{
    int st = glp_mip_status(P);
    m->has_solution = st == GLP_OPT || st == GLP_FEAS;
    if (m->has_solution)
        m->obj = glp_mip_obj_val(P);
    if (rc == 0 && st == GLP_OPT) {
        m->status = SOLVE_OPTIMAL;
        return;
    }
    if (rc == 0 && st == GLP_NOFEAS) {
        m->status = SOLVE_INFEASIBLE;
        return;
    }
    if (cb->stopped >= 0)
        m->status = cb->stopped;
    else
        m->status = SOLVE_TIMEOUT;  /* GLP_ETMLIM, or gave up */
}

static double start_objective(glp_prob *P, const double *x)
{
    double z = glp_get_obj_coef(P, 0);
    for (int j = 1; j <= glp_get_num_cols(P); j++)
        z += glp_get_obj_coef(P, j) * x[j];
    return z;
}

int sg_solve(sg_ctx *c, glp_prob *P, sg_mip *m, gp_err *err)
{
    m->has_solution = 0;
    m->obj = HUGE_VAL;
    m->bound = -HUGE_VAL;
    m->lp_obj = -HUGE_VAL;
    m->nodes = 0;
    double start_obj = m->start_x ? start_objective(P, m->start_x) : HUGE_VAL;
    int stop = sg_should_stop(c);
    if (stop >= 0) {
        m->status = stop;
        return 0;
    }
    int r = lp_root(c, P, m, err);
    if (r < 0)
        return -1;
    if (r > 0)
        return 0;
    m->bound = round_bound(m, fmax(m->lp_obj, m->known_lb));
    if (m->start_x && m->bound >= start_obj - SOLVE_EPS * fabs(start_obj) - SOLVE_EPS) {
        /* The root bound already proves the start optimal; its values are
         * the caller's (has_solution stays 0: nothing new in P). */
        m->status = SOLVE_OPTIMAL;
        return 0;
    }
    glp_iocp ip;
    glp_init_iocp(&ip);
    ip.msg_lev = c->o->keep_log ? GLP_MSG_ON : GLP_MSG_ERR;
    ip.tm_lim = ms_left(c);
    ip.out_frq = 2000;
    ip.presolve = GLP_OFF;
    ip.mip_gap = c->o->mip_gap > 0 ? c->o->mip_gap : 0;
    ip.gmi_cuts = ip.mir_cuts = ip.cov_cuts = ip.clq_cuts = m->cuts ? GLP_ON : GLP_OFF;
    sg_cb cb = {c, m, 0, -1, c->work, glp_get_it_cnt(P), now_seconds() - c->t0, 0};
    ip.cb_func = sg_callback;
    ip.cb_info = &cb;
    int rc = glp_intopt(P, &ip);
    c->work = fmax(c->work, cb.work0 + (glp_get_it_cnt(P) - cb.it0) +
                                (double)m->nodes * SOLVE_WORK_ITERS_PER_NODE);
    if (rc != 0 && rc != GLP_ETMLIM && rc != GLP_ESTOP && rc != GLP_EMIPGAP)
        return gp_error(err, "GLPK: branch and bound failed (glp_intopt code %d)", rc);
    read_mip(m, P, rc == GLP_EMIPGAP ? 0 : rc, &cb);
    if (m->status == SOLVE_OPTIMAL && ip.mip_gap <= 0)
        m->bound = m->obj;
    if (rc == GLP_EMIPGAP && m->has_solution) {
        /* GLPK stopped because its own bound was within mip_gap, by its
         * measure: the callback's last reading may lag behind that. */
        m->bound = fmax(m->bound, m->obj - ip.mip_gap * (fabs(m->obj) + DBL_EPSILON));
    }
    m->bound = round_bound(m, fmax(m->bound, m->known_lb));
    if (m->has_solution && m->bound >= m->obj - SOLVE_EPS * fabs(m->obj) - SOLVE_EPS)
        m->status = SOLVE_OPTIMAL;
    return 0;
}

int sg_write(sg_ctx *c, glp_prob *P, gp_err *err)
{
    const solve_opts *o = c->o;
    if (o->write_lp && glp_write_lp(P, NULL, o->write_lp) != 0)
        return gp_error(err, "%s: cannot write the LP file", o->write_lp);
    if (o->write_mps && glp_write_mps(P, GLP_MPS_FILE, NULL, o->write_mps) != 0)
        return gp_error(err, "%s: cannot write the MPS file", o->write_mps);
    return 0;
}
