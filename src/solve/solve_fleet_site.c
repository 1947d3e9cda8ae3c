/*
 * solve_fleet_site.c — the cheapest fleet within a site's power envelope
 * (solve.h, solve_fleet_within): the fleet's provisioned peak, each GPU
 * at its (capped) maximum draw and each server at its host's peak beside,
 * times the PUE, may not pass the site budget (power/site_envelope.c's
 * arithmetic, site_facility_w).
 *
 * Why a search over maximum counts rather than a row in GOGH's model: the
 * fleet solve already takes each model's maximum count, and a peak that
 * only grows with every GPU bought gives an exact branching rule.  If the
 * cheapest fleet within counts M needs n, and n is over budget, then every
 * fleet within budget and within M buys fewer than n_k of some model k
 * (one that buys at least n of every model is over too).  So the children
 * M with M_k = n_k - 1, one per model bought, cover every fleet within
 * budget; a node's solve is a lower bound on its subtree, which prunes.
 * Each node also solves for its least provisioned peak (GPUs priced at
 * their peak draw): above the budget, nothing under the node fits and it
 * is pruned; within it, that fleet is one within budget, an incumbent.
 * Nodes are taken best first.  Without a binding budget the search is the
 * one solve.
 */
#include "solve_cap.h"
#include "solve_int.h"

#include "power/site_envelope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Solves beyond this stop the search with its best fleet and bound. */
#define FLEET_SITE_NODES_MAX 2000

int fleet_gpu_peak_w(const fleet_candidate *cand, size_t ncand, const fleet_params *fp,
                     double *w, gp_err *err)
{
    power_caps none;
    memset(&none, 0, sizeof none);
    for (size_t k = 0; k < ncand; k++) {
        solve_cap c;
        if (solve_cap_of(cand[k].prof, fp->caps ? fp->caps : &none, &c, err)) {
            gp_error_prefix(err, "--gpu-cap");
            return -1;
        }
        w[k] = c.busy_w;
    }
    return 0;
}

double fleet_peak_it_w(const double *gpu_w, const int *n, size_t ncand,
                       const fleet_envelope *env)
{
    double w = 0;
    int ps = env->per_server > 0 ? env->per_server : 1;
    for (size_t k = 0; k < ncand; k++)
        w += n[k] * gpu_w[k] + ((n[k] + ps - 1) / ps) * env->host_w;
    return w;
}

/* Whether counts n fit the site budget: peak IT x PUE within it. */
static int fits(const double *gpu_w, const int *n, size_t ncand, const fleet_envelope *env)
{
    site_envelope site = {.site_kw = env->site_kw, .pue = env->pue, .host_w = env->host_w};
    return site_facility_w(&site, fleet_peak_it_w(gpu_w, n, ncand, env)) <=
           env->site_kw * 1000 * (1 + SOLVE_EPS);
}

/* One node of the search: maximum counts, and its parent's bound. */
typedef struct fs_node {
    int *max;
    double bound;
} fs_node;

typedef struct fleet_search {
    const fleet_candidate *cand;
    size_t ncand;
    const gp_trace *tr;
    const tput_catalog *tp;
    const fleet_params *fp;
    const fleet_envelope *env;
    double *gpu_w;          /* each candidate's peak draw */
    solve_opts o;
    double t0;
    fs_node *open;          /* the open nodes */
    size_t nopen, capopen;
    int **seen;             /* every maximum-count vector solved */
    size_t nseen, capseen;
    int proven;             /* every solve closed its gap */
    long solves;
    double best;
    fleet_result res;       /* the best fleet within budget, counts per candidate */
} fleet_search;

static int seen_before(fleet_search *s, const int *m)
{
    for (size_t i = 0; i < s->nseen; i++)
        if (memcmp(s->seen[i], m, s->ncand * sizeof *m) == 0)
            return 1;
    if (s->nseen == s->capseen) {
        s->capseen = s->capseen ? 2 * s->capseen : 64;
        s->seen = xrealloc(s->seen, s->capseen * sizeof *s->seen);
    }
    s->seen[s->nseen++] = xmemdup(m, s->ncand * sizeof *m);
    return 0;
}

static void push(fleet_search *s, const int *m, double bound)
{
    if (s->nopen == s->capopen) {
        s->capopen = s->capopen ? 2 * s->capopen : 64;
        s->open = xrealloc(s->open, s->capopen * sizeof *s->open);
    }
    s->open[s->nopen++] = (fs_node){xmemdup(m, s->ncand * sizeof *m), bound};
}

/* A node of this bound holds no fleet cheaper than the best (by more
 * than rounding, or than the gap asked for). */
static int prunable(const fleet_search *s, double bound)
{
    double tol = fmax(SOLVE_EPS * (1 + fabs(s->best)), s->o.mip_gap * fabs(s->best));
    return isfinite(s->best) && bound >= s->best - tol;
}

/* Best first: the open node of least bound. */
static fs_node pop_least(fleet_search *s)
{
    size_t best = 0;
    for (size_t i = 1; i < s->nopen; i++)
        if (s->open[i].bound < s->open[best].bound)
            best = i;
    fs_node nd = s->open[best];
    s->open[best] = s->open[--s->nopen];
    return nd;
}

/* What a node's solve minimises: the fleet's cost, or its provisioned
 * peak (each GPU priced at its peak draw and its share of a host, no
 * energy): a lower bound on the peak of every fleet within the counts. */
typedef enum fs_goal { FS_COST, FS_PEAK } fs_goal;

/* The true cost of counts r->count (per candidate) and its placement's
 * draw, for a fleet solved for its peak. */
static double true_cost(const fleet_search *s, const fleet_result *r)
{
    double usd = s->fp->usd_per_kwh * s->fp->hours / 1000 * r->power_w;
    for (size_t k = 0; k < s->ncand; k++)
        usd += r->count[k] * (s->cand[k].price_usd >= 0 ? s->cand[k].price_usd
                                                        : gpu_price_or0(s->cand[k].prof));
    return usd;
}

/* The fleet within maximum counts m (models at 0 left out) that is
 * cheapest, or of least peak, into *r with its counts per candidate. */
static int solve_node(fleet_search *s, const int *m, fs_goal goal, fleet_result *r,
                      gp_err *err)
{
    fleet_candidate *c = xcalloc(s->ncand + 1, sizeof *c);
    size_t *idx = xcalloc(s->ncand + 1, sizeof *idx), nc = 0;
    int ps = s->env->per_server > 0 ? s->env->per_server : 1;
    for (size_t k = 0; k < s->ncand; k++)
        if (m[k] > 0) {
            c[nc] = s->cand[k];
            c[nc].max_count = m[k];
            if (goal == FS_PEAK)
                c[nc].price_usd = s->gpu_w[k] + s->env->host_w / ps;
            idx[nc++] = k;
        }
    fleet_params fp = *s->fp;
    if (goal == FS_PEAK)
        fp.usd_per_kwh = 0;
    memset(r, 0, sizeof *r);
    solve_result_init(&r->sol);
    r->sol.status = SOLVE_INFEASIBLE;
    int rc = 0, *count = xcalloc(s->ncand + 1, sizeof *count);
    if (nc > 0) {
        gogh_inst in;
        solve_opts o = s->o;
        if (o.time_limit_s > 0)
            o.time_limit_s = fmax(0.01, s->o.time_limit_s - (now_seconds() - s->t0));
        rc = fleet_inst_from_model(c, nc, s->tr, s->tp, &fp, &in, err);
        if (rc == 0) {
            solve_result_free(&r->sol);
            rc = solve_fleet(&in, &o, r, err);
            gogh_inst_free(&in);
        }
        for (size_t i = 0; rc == 0 && r->sol.has_solution && i < nc; i++)
            count[idx[i]] = r->count[i];
    }
    free(r->count);
    r->count = count;
    r->ntypes = s->ncand;
    if (rc == 0 && goal == FS_PEAK && r->sol.has_solution) {
        r->capex_usd = 0;
        for (size_t k = 0; k < s->ncand; k++)
            r->capex_usd += count[k] * (s->cand[k].price_usd >= 0 ? s->cand[k].price_usd
                                                                  : gpu_price_or0(s->cand[k].prof));
        r->energy_usd = s->fp->usd_per_kwh * s->fp->hours / 1000 * r->power_w;
        r->sol.objective = true_cost(s, r);
        r->sol.status = SOLVE_FEASIBLE;     /* a fleet within budget, not the cheapest */
    }
    free(c);
    free(idx);
    return rc;
}

/* Keeps r (counts per candidate) as the best fleet when it is cheaper. */
static void keep(fleet_search *s, fleet_result *r)
{
    if (!(r->sol.objective < s->best)) {
        fleet_result_free(r);
        return;
    }
    fleet_result_free(&s->res);
    s->best = r->sol.objective;
    s->res = *r;
}

/* The least peak within max: 0 when no fleet within it fits the budget
 * (the subtree is pruned), else 1; a least-peak fleet that fits is kept
 * as a fleet within budget. */
static int peak_allows(fleet_search *s, const int *max, int *rc, gp_err *err)
{
    fleet_result r;
    *rc = solve_node(s, max, FS_PEAK, &r, err);
    s->solves++;
    if (*rc || !r.sol.has_solution) {
        if (*rc == 0)
            s->proven &= r.sol.status == SOLVE_INFEASIBLE;
        fleet_result_free(&r);
        return 0;
    }
    if (fits(s->gpu_w, r.count, s->ncand, s->env)) {
        keep(s, &r);
        return 1;
    }
    /* the solve's bound on the peak, hosts counted by their share */
    double it_w = r.sol.bound, pue = s->env->pue >= 1 ? s->env->pue : 1;
    fleet_result_free(&r);
    return it_w * pue <= s->env->site_kw * 1000 * (1 + SOLVE_EPS);
}

/* One node: bound its peak, solve its cost, then keep it, prune it or
 * branch on the models bought. */
static int expand(fleet_search *s, int *max, fleet_site *root, gp_err *err)
{
    fleet_result r;
    int rc = solve_node(s, max, FS_COST, &r, err);
    s->solves++;
    int *n = r.count;
    if (rc == 0 && root && r.sol.has_solution) {
        root->found = 1;
        root->cost_usd = r.sol.objective;
        root->peak_it_w = fleet_peak_it_w(s->gpu_w, n, s->ncand, s->env);
        root->binds = !fits(s->gpu_w, n, s->ncand, s->env);
    }
    if (rc == 0 && r.sol.has_solution) {
        s->proven &= r.sol.status == SOLVE_OPTIMAL;
        double lb = r.sol.status == SOLVE_OPTIMAL ? r.sol.objective : r.sol.bound;
        int prc = 0;
        if (prunable(s, lb)) {
            fleet_result_free(&r);
        } else if (fits(s->gpu_w, n, s->ncand, s->env)) {
            keep(s, &r);
        } else if (!peak_allows(s, max, &prc, err)) {
            fleet_result_free(&r);
        } else {
            for (size_t k = 0; k < s->ncand; k++)
                if (n[k] > 0) {
                    int v = max[k];
                    max[k] = n[k] - 1;
                    push(s, max, lb);
                    max[k] = v;
                }
            fleet_result_free(&r);
        }
        rc = prc;
    } else {
        if (rc == 0)
            s->proven &= r.sol.status == SOLVE_INFEASIBLE;
        fleet_result_free(&r);
    }
    return rc;
}

/* The search's answer: the best fleet, its status and the least bound of
 * what was left open. */
static void finish(fleet_search *s, fleet_result *res)
{
    double open_bound = HUGE_VAL;
    for (size_t i = 0; i < s->nopen; i++)
        open_bound = fmin(open_bound, s->open[i].bound);
    *res = s->res;
    solve_result *r = &res->sol;
    if (!res->count) {
        res->ntypes = s->ncand;
        res->count = xcalloc(s->ncand + 1, sizeof *res->count);
    }
    r->time_s = now_seconds() - s->t0;
    snprintf(r->method, sizeof r->method, "site search");
    if (!r->has_solution) {
        r->status = s->o.cancel && *s->o.cancel ? SOLVE_CANCELLED
                    : s->nopen || !s->proven    ? SOLVE_TIMEOUT
                                                : SOLVE_INFEASIBLE;
        return;
    }
    /* an open node whose bound is not below the best holds nothing better */
    r->bound = fmin(r->objective, open_bound);
    r->gap = r->objective > 0 ? (r->objective - r->bound) / r->objective : 0;
    r->status = prunable(s, open_bound) && s->proven ? SOLVE_OPTIMAL : SOLVE_FEASIBLE;
    if (r->status == SOLVE_OPTIMAL) {
        r->bound = r->objective;
        r->gap = 0;
    }
}

static void search_free(fleet_search *s)
{
    for (size_t i = 0; i < s->nopen; i++)
        free(s->open[i].max);
    for (size_t i = 0; i < s->nseen; i++)
        free(s->seen[i]);
    free(s->open);
    free(s->seen);
    free(s->gpu_w);
}

int solve_fleet_within(const fleet_candidate *cand, size_t ncand, const gp_trace *tr,
                       const tput_catalog *tp, const fleet_params *fp,
                       const fleet_envelope *env, const solve_opts *o, fleet_result *res,
                       fleet_site *info, gp_err *err)
{
    fleet_search s = {.cand = cand, .ncand = ncand, .tr = tr, .tp = tp, .fp = fp, .env = env,
                      .o = *o, .t0 = now_seconds(), .proven = 1, .best = HUGE_VAL};
    memset(res, 0, sizeof *res);
    solve_result_init(&res->sol);
    solve_result_init(&s.res.sol);
    memset(info, 0, sizeof *info);
    s.gpu_w = xcalloc(ncand + 1, sizeof *s.gpu_w);
    if (ncand == 0 || fleet_gpu_peak_w(cand, ncand, fp, s.gpu_w, err)) {
        search_free(&s);
        return ncand == 0 ? gp_error(err, "no GPU profile to buy") : -1;
    }
    /* the root: every candidate at its own maximum, the envelope unheeded,
     * so that the answer says whether the budget binds */
    int *max = xcalloc(ncand + 1, sizeof *max);
    for (size_t k = 0; k < ncand; k++)
        max[k] = cand[k].max_count > 0 ? cand[k].max_count : fleet_could_use(tr, fp->ntasks);
    seen_before(&s, max);
    int rc = expand(&s, max, info, err);
    free(max);
    while (rc == 0 && s.nopen > 0 && (long)s.nseen < FLEET_SITE_NODES_MAX &&
           !(o->time_limit_s > 0 && now_seconds() - s.t0 >= o->time_limit_s) &&
           !(o->cancel && *o->cancel)) {
        fs_node nd = pop_least(&s);
        if (!prunable(&s, nd.bound) && !seen_before(&s, nd.max))
            rc = expand(&s, nd.max, NULL, err);
        free(nd.max);
    }
    if (rc == 0)
        finish(&s, res);
    else
        fleet_result_free(&s.res);
    info->solves = s.solves;
    if (rc == 0 && res->sol.has_solution)
        info->peak_it_w = fleet_peak_it_w(s.gpu_w, res->count, ncand, env);
    search_free(&s);
    return rc;
}
