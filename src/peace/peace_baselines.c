/*
 * peace_baselines.c — the policies PEACE is compared with (PEACE §4,
 * "Comparison baselines"), as the paper adapts them to a throughput goal:
 *
 *   oracle   every split under the controller; the best true throughput
 *            sum (offline, impractical: the normaliser of every result).
 *   equal    the same share for each workload (50/50; 34/33/33).
 *   nopart   MPS without limits (100/100): every workload may use every SM.
 *   mudi     Mudi-Xput: the primary workload gets the knee of its
 *            co-located throughput curve (ground truth, as the paper
 *            strengthens it), the others share the rest.  The primary is
 *            the inference workload when there is exactly one, else the
 *            workload whose knee is smallest.
 *   muxflow  the primary inference workload gets SMs equal to its SM
 *            activity (alone, largest share, top clock); without exactly
 *            one inference workload each is tried as primary and the
 *            better split kept.  Two workloads only, as in the paper.
 *   gslice   start equal; while the workloads' throughputs relative to
 *            their exclusive ones differ by more than 10 points, move 10 %
 *            of the SMs from the best-off to the worst-off workload, never
 *            beyond a workload's knee (from its profile curve).
 *
 * Shares stay on the 10 % grid of the profiles and the ground truth.
 */
#include "peace_policy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Runs the controller on one split; the sum of true throughputs. */
static double trial(const peace_env *env, const peace_combo *c, double cap_w,
                    peace_decision *d, peace_ctrl_result *res, gp_err *err)
{
    d->runs++;
    if (peace_control(env->ix, c, cap_w, &env->ctrl, res, err))
        return NAN;
    return res->tput_sum;
}

/* ---- oracle ---------------------------------------------------------------- */

static int oracle_choose(const peace_env *env, const peace_combo *g, double cap_w,
                         peace_decision *d, gp_err *err)
{
    int splits[PEACE_MAX_SPLITS][PEACE_MAX_COLOC];
    int ns = peace_splits(g->n, splits, PEACE_MAX_SPLITS);
    double best = -1;
    for (int s = 0; s < ns; s++) {
        peace_combo c;
        peace_ctrl_result r;
        peace_with_shares(g, splits[s], &c);
        double t = trial(env, &c, cap_w, d, &r, err);
        if (isnan(t))
            return -1;
        if (t > best) {
            best = t;
            d->split = c;
        }
    }
    snprintf(d->why, sizeof d->why, "best of %d splits under the controller: %.1f", ns, best);
    return 0;
}

/* ---- static splits ---------------------------------------------------------- */

static int equal_choose(const peace_env *env, const peace_combo *g, double cap_w,
                        peace_decision *d, gp_err *err)
{
    (void)env, (void)cap_w, (void)err;
    int share[PEACE_MAX_COLOC];
    for (int i = 0; i < g->n; i++)      /* 50/50; 34/33/33, the first the largest */
        share[i] = 100 / g->n + (i < 100 % g->n);
    peace_with_shares(g, share, &d->split);
    snprintf(d->why, sizeof d->why, "equal shares");
    return 0;
}

static int nopart_choose(const peace_env *env, const peace_combo *g, double cap_w,
                         peace_decision *d, gp_err *err)
{
    (void)env, (void)cap_w, (void)err;
    int share[PEACE_MAX_COLOC];
    for (int i = 0; i < g->n; i++)
        share[i] = PEACE_NO_PARTITION;
    peace_with_shares(g, share, &d->split);
    snprintf(d->why, sizeof d->why, "no partition: every workload on every SM");
    return 0;
}

/* ---- knees ------------------------------------------------------------------- */

/* Shares for workload `primary` at s, the rest split as evenly as the grid
 * allows among the others (the earlier ones get the odd 10 %). */
static void primary_split(int n, int primary, int s, int *share)
{
    int rest = 100 - s, others = n - 1;
    for (int i = 0, k = 0; i < n; i++) {
        if (i == primary) {
            share[i] = s;
            continue;
        }
        int steps = rest / PEACE_SHARE_STEP;
        share[i] = (steps / others + (k < steps % others)) * PEACE_SHARE_STEP;
        k++;
    }
}

/* The knee of workload i's throughput in group g as its share grows (the
 * others sharing the rest), from the ground truth at clock f. */
static int colocated_knee(const peace_env *env, const peace_combo *g, int i, double f)
{
    int x[9], n = 0;
    double y[9];
    for (int s = PEACE_SHARE_STEP; s <= 100 - PEACE_SHARE_STEP * (g->n - 1);
         s += PEACE_SHARE_STEP) {
        int share[PEACE_MAX_COLOC];
        primary_split(g->n, i, s, share);
        peace_combo c;
        peace_with_shares(g, share, &c);
        double t[PEACE_MAX_COLOC], p;
        if (peace_truth(env->ix, &c, f, t, &p))
            continue;
        /* c is canonical: find i's entry by workload and share. */
        for (int k = 0; k < c.n; k++)
            if (c.w[k] == g->w[i] && c.share[k] == s) {
                x[n] = s;
                y[n++] = t[k];
                break;
            }
    }
    return n ? peace_knee(x, y, n) : 100 / g->n;
}

/* The knee of workload w's profile curve (alone) at representative clock fi. */
static int profile_knee(const peace_index *ix, int w, int fi)
{
    int x[9], n = 0;
    double y[9];
    for (int s = PEACE_SHARE_STEP; s < 100; s += PEACE_SHARE_STEP) {
        const peace_profile *p = peace_profile_at(ix, w, s, fi);
        x[n] = s;
        y[n++] = p ? p->tput : 0;
    }
    return peace_knee(x, y, n);
}

static int inference_count(const peace_index *ix, const peace_combo *g, int *which)
{
    const peace_set *s = peace_index_set(ix);
    int n = 0;
    for (int i = 0; i < g->n; i++)
        if (s->wl[g->w[i]].kind == PEACE_INF) {
            *which = i;
            n++;
        }
    return n;
}

/* The clock the controller settles at under the equal split. */
static double equal_clock(const peace_env *env, const peace_combo *g, double cap_w,
                          peace_decision *d, gp_err *err)
{
    peace_decision tmp;
    peace_ctrl_result r;
    equal_choose(env, g, cap_w, &tmp, err);
    return isnan(trial(env, &tmp.split, cap_w, d, &r, err)) ? NAN : r.freq_mhz;
}

/* ---- Mudi-Xput --------------------------------------------------------------- */

static int mudi_choose(const peace_env *env, const peace_combo *g, double cap_w,
                       peace_decision *d, gp_err *err)
{
    double f = equal_clock(env, g, cap_w, d, err);
    if (isnan(f))
        return -1;
    int knee[PEACE_MAX_COLOC], primary = 0, inf;
    for (int i = 0; i < g->n; i++) {
        knee[i] = colocated_knee(env, g, i, f);
        if (knee[i] < knee[primary])
            primary = i;
    }
    if (inference_count(env->ix, g, &inf) == 1)
        primary = inf;
    int s = knee[primary], share[PEACE_MAX_COLOC];
    if (s > 100 - PEACE_SHARE_STEP * (g->n - 1))
        s = 100 - PEACE_SHARE_STEP * (g->n - 1);
    primary_split(g->n, primary, s, share);
    peace_with_shares(g, share, &d->split);
    snprintf(d->why, sizeof d->why, "primary %s at its knee %d %% (at %.0f MHz)",
             peace_index_set(env->ix)->wl[g->w[primary]].name, s, f);
    return 0;
}

/* ---- MuxFlow ----------------------------------------------------------------- */

/* Workload w's SM activity alone on the largest profiled share at the top
 * clock, on the share grid. */
static int activity_share(const peace_index *ix, int w)
{
    const peace_profile *p = peace_profile_at(ix, w, 90, peace_nfreqs(ix) - 1);
    double a = p ? p->metric[PEACE_SM_ACTIVE] : 50;
    int s = (int)lround(a / PEACE_SHARE_STEP) * PEACE_SHARE_STEP;
    return s < PEACE_SHARE_STEP ? PEACE_SHARE_STEP : s > 90 ? 90 : s;
}

static int muxflow_choose(const peace_env *env, const peace_combo *g, double cap_w,
                          peace_decision *d, gp_err *err)
{
    int inf, share[PEACE_MAX_COLOC];
    if (inference_count(env->ix, g, &inf) == 1) {
        primary_split(g->n, inf, activity_share(env->ix, g->w[inf]), share);
        peace_with_shares(g, share, &d->split);
        snprintf(d->why, sizeof d->why, "inference workload first, at its SM activity");
        return 0;
    }
    double best = -1;
    for (int i = 0; i < g->n; i++) {
        peace_combo c;
        peace_ctrl_result r;
        primary_split(g->n, i, activity_share(env->ix, g->w[i]), share);
        peace_with_shares(g, share, &c);
        double t = trial(env, &c, cap_w, d, &r, err);
        if (isnan(t))
            return -1;
        if (t > best) {
            best = t;
            d->split = c;
        }
    }
    snprintf(d->why, sizeof d->why, "each workload tried as primary at its SM activity");
    return 0;
}

/* ---- GSlice ------------------------------------------------------------------ */

#define GSLICE_ROUNDS 20
#define GSLICE_GAP 0.10         /* "significantly deviates": 10 points */

/* Workload i's throughput relative to its exclusive one (alone on the
 * largest profiled share at the clock nearest f). */
static double relative(const peace_env *env, const peace_combo *c, const peace_ctrl_result *r,
                       int k)
{
    int fi = peace_nearest_freq(env->ix, r->freq_mhz);
    const peace_profile *p = peace_profile_at(env->ix, c->w[k], 90, fi);
    return p && p->tput > 0 ? r->tput[k] / p->tput : 0;
}

/* One feedback round: 1 and a new split when a move is warranted. */
static int gslice_move(const peace_env *env, const peace_combo *c, const peace_ctrl_result *r,
                       const int *knee, peace_combo *next)
{
    int lo = -1, hi = -1;
    for (int k = 0; k < c->n; k++) {
        double v = relative(env, c, r, k);
        if (c->share[k] + PEACE_SHARE_STEP <= knee[k] &&
            (lo < 0 || v < relative(env, c, r, lo)))
            lo = k;
        if (c->share[k] - PEACE_SHARE_STEP >= PEACE_SHARE_STEP &&
            (hi < 0 || v > relative(env, c, r, hi)))
            hi = k;
    }
    if (lo < 0 || hi < 0 || lo == hi ||
        relative(env, c, r, hi) - relative(env, c, r, lo) <= GSLICE_GAP)
        return 0;
    *next = *c;
    next->share[lo] += PEACE_SHARE_STEP;
    next->share[hi] -= PEACE_SHARE_STEP;
    peace_combo_canon(next);
    return 1;
}

static int same_split(const peace_combo *a, const peace_combo *b)
{
    return memcmp(a->share, b->share, sizeof a->share) == 0 && memcmp(a->w, b->w, sizeof a->w) == 0;
}

static int gslice_choose(const peace_env *env, const peace_combo *g, double cap_w,
                         peace_decision *d, gp_err *err)
{
    int share[PEACE_MAX_COLOC], top = peace_nfreqs(env->ix) - 1;
    for (int i = 0; i < g->n; i++)      /* equal on the grid: 50/50, 40/30/30 */
        share[i] = (100 / PEACE_SHARE_STEP / g->n + (i < (100 / PEACE_SHARE_STEP) % g->n)) *
                   PEACE_SHARE_STEP;
    peace_combo c, seen[GSLICE_ROUNDS + 1];
    peace_with_shares(g, share, &c);
    int knee[PEACE_MAX_COLOC], rounds = 0;
    for (int i = 0; i < c.n; i++)
        knee[i] = profile_knee(env->ix, c.w[i], top);
    seen[0] = c;
    while (rounds < GSLICE_ROUNDS) {
        peace_ctrl_result r;
        peace_combo next;
        if (isnan(trial(env, &c, cap_w, d, &r, err)))
            return -1;
        if (!gslice_move(env, &c, &r, knee, &next))
            break;
        int cycle = 0;
        for (int k = 0; k <= rounds && !cycle; k++)
            cycle = same_split(&seen[k], &next);
        if (cycle)
            break;
        c = seen[++rounds] = next;
    }
    d->split = c;
    snprintf(d->why, sizeof d->why, "settled after %d moves", rounds);
    return 0;
}

/* ---- the table's entries ----------------------------------------------------- */

const peace_policy peace_policy_oracle = {
    .name = "oracle",
    .title = "Oracle (every split under the controller, offline)",
    .role = PEACE_ROLE_ORACLE,
    .max_workloads = PEACE_MAX_COLOC,
    .choose = oracle_choose,
};

const peace_policy peace_policy_equal = {
    .name = "equal",
    .title = "Equal partition",
    .max_workloads = PEACE_MAX_COLOC,
    .choose = equal_choose,
};

const peace_policy peace_policy_nopart = {
    .name = "nopart",
    .title = "No partition (MPS without limits)",
    .max_workloads = PEACE_MAX_COLOC,
    .choose = nopart_choose,
};

const peace_policy peace_policy_mudi = {
    .name = "mudi",
    .title = "Mudi-Xput (knee of the co-located throughput curve)",
    .max_workloads = PEACE_MAX_COLOC,
    .choose = mudi_choose,
};

const peace_policy peace_policy_muxflow = {
    .name = "muxflow",
    .title = "MuxFlow (the inference workload gets its SM activity)",
    .max_workloads = 2,
    .choose = muxflow_choose,
};

const peace_policy peace_policy_gslice = {
    .name = "gslice",
    .title = "GSlice (feedback toward exclusive throughput, capped at knees)",
    .max_workloads = PEACE_MAX_COLOC,
    .choose = gslice_choose,
};
