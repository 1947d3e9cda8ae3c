/*
 * peace_policy.c — the table of SM-split policies, running one under the
 * controller, and the helpers they share (peace_policy.h).
 */
#include "peace_policy.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static const peace_policy *const policies[] = {
    &peace_policy_peace, &peace_policy_oracle, &peace_policy_equal, &peace_policy_nopart,
    &peace_policy_mudi, &peace_policy_muxflow, &peace_policy_gslice, NULL,
};

const peace_policy *peace_policy_nth(size_t i)
{
    return i < sizeof policies / sizeof *policies - 1 ? policies[i] : NULL;
}

const peace_policy *peace_policy_find(const char *name)
{
    const peace_policy *p;
    for (size_t i = 0; (p = peace_policy_nth(i)); i++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

const peace_policy *peace_policy_with_role(peace_role r)
{
    const peace_policy *p;
    for (size_t i = 0; (p = peace_policy_nth(i)); i++)
        if (p->role == r)
            return p;
    return NULL;
}

int peace_policy_run(const peace_policy *p, const peace_env *env, const peace_combo *g,
                     double cap_w, peace_decision *d, peace_ctrl_result *res, gp_err *err)
{
    memset(d, 0, sizeof *d);
    d->fi = -1;
    d->pred_tput = d->pred_power = NAN;
    if (g->n > p->max_workloads)
        return gp_error(err, "%s places at most %d workloads, not %d", p->name,
                        p->max_workloads, g->n);
    if (p->needs_models && !env->models)
        return gp_error(err, "%s needs trained models", p->name);
    if (p->choose(env, g, cap_w, d, err))
        return -1;
    d->runs++;
    return peace_control(env->ix, &d->split, cap_w, &env->ctrl, res, err);
}

void peace_with_shares(const peace_combo *g, const int *share, peace_combo *out)
{
    *out = *g;
    for (int i = 0; i < g->n; i++)
        out->share[i] = share[i];
    peace_combo_canon(out);
}

int peace_knee(const int *x, const double *y, int n)
{
    assert(n > 0);
    double lo = y[0], hi = y[0];
    for (int i = 1; i < n; i++) {
        lo = fmin(lo, y[i]);
        hi = fmax(hi, y[i]);
    }
    if (n < 3 || hi - lo <= 0.01 * fabs(hi))
        return hi - lo <= 0.01 * fabs(hi) ? x[0] : x[n - 1];
    int best = n - 1;
    double best_gap = 0.05;     /* below this the curve is "about linear" */
    for (int i = 0; i < n; i++) {
        double xn = (double)(x[i] - x[0]) / (double)(x[n - 1] - x[0]);
        double gap = (y[i] - lo) / (hi - lo) - xn;
        if (gap > best_gap) {
            best_gap = gap;
            best = i;
        }
    }
    return x[best];
}

int peace_nearest_freq(const peace_index *ix, double f)
{
    int best = 0;
    for (int fi = 1; fi < peace_nfreqs(ix); fi++)
        if (fabs(peace_freq(ix, fi) - f) < fabs(peace_freq(ix, best) - f))
            best = fi;
    return best;
}
