/*
 * plan_site.c — the plan's answer against the power envelope
 * (plan_site.h).
 */
#include "plan_site.h"

#include <math.h>
#include <stdio.h>

#include "core/strbuf.h"
#include "core/util.h"

void plan_site_capacity(const plan *pl, const plan_params *live, site_capacity *cap)
{
    site_capacity_of(&live->site, pl->p.per_server, pl->prof.max_w, cap);
}

void plan_site_mix_at(const plan *pl, const plan_params *live, int n1, site_mix *m)
{
    site_capacity_mix(&live->site, pl->p.per_server, pl->prof.max_w, n1, pl->prof2.max_w, m);
}

static const char *limit_name(site_limit l)
{
    return l == SITE_LIMIT_RACK ? "the racks" : "the site";
}

/* The first model's counts of the grid, ascending, each once. */
static int grid_n1(const plan *pl, int *out, int cap)
{
    int n = 0;
    for (int c = 0; c < pl->ncounts && n < cap; c++)
        if (n == 0 || pl->counts[c] > out[n - 1])
            out[n++] = pl->counts[c];
    return n;
}

void plan_site_line(const plan *pl, const plan_params *live, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!site_has_budget(&live->site) || !pl->grid || pl->base)
        return;
    int n1[PLAN_MAX_AXIS];
    int k = grid_n1(pl, n1, PLAN_MAX_AXIS);
    strbuf b = STRBUF_INIT;
    strbuf_printf(&b, "most %s beside each count of %s:", pl->prof2.name, pl->prof.name);
    for (int i = 0; i < k; i++) {
        site_mix m;
        plan_site_mix_at(pl, live, n1[i], &m);
        if (m.n2 < 0)
            strbuf_printf(&b, " %d: over %s%s", n1[i], limit_name(m.limit),
                          i + 1 < k ? "," : "");
        else
            strbuf_printf(&b, " %d: %d (%s)%s", n1[i], m.n2, m.limit == SITE_LIMIT_RACK ?
                          "racks" : "site", i + 1 < k ? "," : "");
    }
    snprintf(buf, len, "%s", strbuf_str(&b));
    strbuf_free(&b);
}

/* The cheapest point of policy j meeting the SLA target that fits the
 * envelope; -1 when none does. */
static int cheapest_fitting(const plan *pl, int j, const plan_params *live)
{
    int best = -1;
    double best_cost = INFINITY;
    for (int c = 0; c < pl->ncounts; c++) {
        const plan_result *r = plan_result_at(pl, c, j);
        if (!r->done || !plan_fits_site(pl, r, live) ||
            !plan_meets_target(plan_value(pl, r, PM_SLA, live), live->sla_target_pct))
            continue;
        double cost = plan_value(pl, r, PM_COST, live);
        if (cost < best_cost - GP_ROUND_EPS) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

/* A grid: per policy, whether its cheapest point meeting the SLA fits, or
 * which limit of the capacity line it is over, and then the cheapest that
 * fits. */
static void grid_answer(const plan *pl, const plan_params *live, strbuf *b)
{
    strbuf_puts(b, "binding (cheapest meeting SLA):");
    for (int j = 0; j < live->npolicies; j++) {
        int c = plan_best(pl, j, live);
        const plan_result *r = c >= 0 ? plan_result_at(pl, c, j) : NULL;
        if (!r) {
            strbuf_printf(b, " %s SLA (none swept meets it)", live->policies[j]);
            continue;
        }
        if (plan_fits_site(pl, r, live)) {
            strbuf_printf(b, " %s SLA (%d+%d fit)", live->policies[j], r->gpus, r->gpus2);
            continue;
        }
        site_mix m;
        plan_site_mix_at(pl, live, r->gpus, &m);
        strbuf_printf(b, " %s %s (%d+%d needed", live->policies[j], limit_name(m.limit),
                      r->gpus, r->gpus2);
        int f = cheapest_fitting(pl, j, live);
        if (f >= 0)
            strbuf_printf(b, "; within: %d+%d)", plan_result_at(pl, f, j)->gpus,
                          plan_result_at(pl, f, j)->gpus2);
        else
            strbuf_puts(b, "; none swept within)");
    }
}

void plan_site_answer(const plan *pl, const plan_params *live, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!site_has_budget(&live->site))
        return;
    strbuf b = STRBUF_INIT;
    if (pl->grid && !pl->base) {
        grid_answer(pl, live, &b);
        snprintf(buf, len, "%s", strbuf_str(&b));
        strbuf_free(&b);
        return;
    }
    if (pl->grid)
        return;
    site_capacity cap;
    plan_site_capacity(pl, live, &cap);
    const char *limit = limit_name(cap.limit);
    strbuf_printf(&b, "site holds %d %s (%s bind%s); binding:", cap.gpus, pl->prof.name, limit,
                  cap.limit == SITE_LIMIT_RACK ? "" : "s");
    for (int j = 0; j < live->npolicies; j++) {
        int c = plan_best(pl, j, live);
        const plan_result *r = c >= 0 ? plan_result_at(pl, c, j) : NULL;
        if (!r)
            strbuf_printf(&b, " %s SLA (none swept meets it)", live->policies[j]);
        else if (plan_fits_site(pl, r, live))
            strbuf_printf(&b, " %s SLA (%d fit)", live->policies[j], r->gpus);
        else
            strbuf_printf(&b, " %s %s (%d needed)", live->policies[j], limit, r->gpus);
    }
    snprintf(buf, len, "%s", strbuf_str(&b));
    strbuf_free(&b);
}
