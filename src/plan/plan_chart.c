/*
 * plan_chart.c — the planner's chart and one-line answer (plan_chart.h),
 * read from a plan's results with plan_value(), plan_best() and
 * plan_meets_target() so they agree with the table `gpuplan plan` prints.
 */
#include "plan_chart.h"
#include "plan_cost.h"
#include "core/strbuf.h"
#include "policy/corr_place.h"
#include "power/energy_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void plan_metric_axis(plan_metric m, const char **label, const char **unit)
{
    static const char *const labels[PM_NMETRICS][2] = {
        [PM_SLA] = {"SLA violations", "% of tasks"},
        [PM_JCT] = {"mean JCT", "s"},
        [PM_POWER] = {"average power", "W"},
        [PM_CAPEX] = {"CapEx", "USD"},
        [PM_COST] = {"CapEx + energy", "USD"},
        [PM_CO2E] = {"CO2e", "t"},
    };
    *label = m < PM_NMETRICS ? labels[m][0] : "?";
    *unit = m < PM_NMETRICS ? labels[m][1] : "";
}

void plan_policy_short(const plan *pl, int j, char *buf, size_t len)
{
    const policy_ops *ops = pl->spec[j].ops;
    const char *t = ops && ops->title ? ops->title : pl->p.policies[j];
    const char *paren = strstr(t, " (");
    snprintf(buf, len, "%.*s", paren ? (int)(paren - t) : (int)strlen(t), t);
}

/* 12345.6 as "12,346". */
static void thousands(double v, char *buf, size_t len)
{
    char digits[48];
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t n = strlen(digits), o = 0;
    if (v < 0 && o + 1 < len)
        buf[o++] = '-';
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

/* The policy whose best point costs least; -1 when none meets the target. */
static int cheapest_policy(const plan *pl, const plan_params *live, int *point)
{
    int best = -1;
    double best_cost = INFINITY;
    for (int j = 0; j < pl->p.npolicies; j++) {
        int c = plan_best(pl, j, live);
        if (c < 0)
            continue;
        double cost = plan_value(pl, plan_result_at(pl, c, j), PM_COST, live);
        if (cost < best_cost) {
            best_cost = cost;
            best = j;
            *point = c;
        }
    }
    return best;
}

int plan_answer_result(const plan *pl, const plan_params *live)
{
    int c = -1, j = cheapest_policy(pl, live, &c);
    return j < 0 ? -1 : c * pl->p.npolicies + j;
}

void plan_answer(const plan *pl, const plan_params *live, int utf8, char *buf, size_t len)
{
    int c = -1, j = cheapest_policy(pl, live, &c);
    const char *times = utf8 ? "×" : "x";
    if (j < 0) {
        snprintf(buf, len, "no policy meets SLA violations <= %g %% in the range swept",
                 live->sla_target_pct);
        return;
    }
    const plan_result *r = plan_result_at(pl, c, j);
    char name[64], usd[48];
    plan_policy_short(pl, j, name, sizeof name);
    thousands(plan_value(pl, r, PM_COST, live), usd, sizeof usd);
    /* Never "0 USD" for GPUs nobody priced: say so instead. */
    if (plan_price_unknown(pl, r, live))
        snprintf(usd, sizeof usd, "price unknown");
    else
        snprintf(usd + strlen(usd), sizeof usd - strlen(usd), " USD");
    if (pl->grid)
        snprintf(buf, len, "%s: %d %s %s + %d %s %s, %s", name, r->gpus, times,
                 pl->prof.name, r->gpus2, times, pl->prof2.name, usd);
    else
        snprintf(buf, len, "%s: %d %s %s, %s", name, r->gpus, times, pl->prof.name, usd);
    if (plan_nonmonotonic(pl, j, live)) {
        int s = plan_stable(pl, j, live);
        size_t n = strlen(buf);
        if (s >= 0)
            snprintf(buf + n, len - n, "; not monotonic: every count from %d meets it",
                     plan_result_at(pl, s, j)->gpus);
        else
            snprintf(buf + n, len - n, "; not monotonic: the largest count swept misses it");
    }
}

/* One model: the metric against the GPU count, the fewest meeting the
 * target marked. */
static void count_series(plot_chart *ch, const plan *pl, plan_metric m,
                         const plan_params *live)
{
    for (int j = 0; j < pl->p.npolicies; j++) {
        int s = plot_series_add(ch, pl->p.policies[j]);
        for (int c = 0; c < pl->ncounts; c++) {
            const plan_result *r = plan_result_at(pl, c, j);
            if (r->done)
                plot_point(ch, s, r->gpus, plan_value(pl, r, m, live));
        }
        int b = plan_best(pl, j, live);
        if (b >= 0) {
            const plan_result *r = plan_result_at(pl, b, j);
            char lab[48];
            snprintf(lab, sizeof lab, "%s: fewest %d", pl->p.policies[j], r->gpus);
            plot_marker_add(ch, s, r->gpus, plan_value(pl, r, m, live), lab);
        }
        /* A curve that misses the target again after its first crossing:
         * the stable answer is marked too. */
        int st = plan_stable(pl, j, live);
        if (plan_nonmonotonic(pl, j, live) && st >= 0) {
            const plan_result *r = plan_result_at(pl, st, j);
            char lab[48];
            snprintf(lab, sizeof lab, "%s: stable %d", pl->p.policies[j], r->gpus);
            plot_marker_add(ch, s, r->gpus, plan_value(pl, r, m, live), lab);
        }
    }
}

/* A grid: each point's metric against its cost, the cheapest meeting the
 * target marked. */
static void grid_series(plot_chart *ch, const plan *pl, plan_metric m,
                        const plan_params *live)
{
    ch->style = PLOT_POINTS;
    for (int j = 0; j < pl->p.npolicies; j++) {
        int s = plot_series_add(ch, pl->p.policies[j]);
        for (int c = 0; c < pl->ncounts; c++) {
            const plan_result *r = plan_result_at(pl, c, j);
            if (r->done)
                plot_point(ch, s, plan_value(pl, r, PM_COST, live), plan_value(pl, r, m, live));
        }
        int b = plan_best(pl, j, live);
        if (b >= 0) {
            const plan_result *r = plan_result_at(pl, b, j);
            char lab[48];
            snprintf(lab, sizeof lab, "%s: cheapest %d+%d", pl->p.policies[j], r->gpus,
                     r->gpus2);
            plot_marker_add(ch, s, plan_value(pl, r, PM_COST, live), plan_value(pl, r, m, live),
                            lab);
        }
    }
}

/* The money and carbon axes say their horizon: "TCO over 3 years",
 * "CO2e over the simulated span". */
static const char *horizon_label(plan_metric m, const plan_params *live, const char *label,
                                 char *buf, size_t len)
{
    if (m != PM_COST && m != PM_CO2E)
        return label;
    char h[48];
    plan_horizon_text(live, h, sizeof h);
    snprintf(buf, len, "%s over %s", m == PM_COST && live->years > 0 ? "TCO" : label, h);
    return buf;
}

plot_chart *plan_chart(const plan *pl, plan_metric m, const plan_params *live)
{
    const char *label, *unit;
    char lab_buf[96], cost_buf[96];
    plan_metric_axis(m, &label, &unit);
    label = horizon_label(m, live, label, lab_buf, sizeof lab_buf);
    const char *cost_label = horizon_label(PM_COST, live, "CapEx + energy", cost_buf,
                                           sizeof cost_buf);
    plot_chart *ch = plot_new("");
    ch->y_from_zero = 1;
    if (pl->grid) {
        snprintf(ch->title, sizeof ch->title, "%s against cost: %s on %s + %s", label,
                 pl->p.trace, pl->prof.name, pl->prof2.name);
        plot_axes(ch, cost_label, "USD", label, unit);
        grid_series(ch, pl, m, live);
    } else {
        if (pl->p.snapshot[0])
            snprintf(ch->title, sizeof ch->title, "%s by GPU count: %s added to snapshot %s",
                     label, pl->prof.name, pl->p.snapshot);
        else
            snprintf(ch->title, sizeof ch->title, "%s by GPU count: %s on %s", label,
                     pl->p.trace, pl->prof.name);
        plot_axes(ch, pl->p.unbounded ? "GPUs ever used"
                      : pl->p.snapshot[0] ? "GPUs added" : "GPUs in the cluster", "GPUs",
                  label, unit);
        ch->x.integer = 1;
        count_series(ch, pl, m, live);
    }
    if (m == PM_SLA) {
        char lab[64];
        snprintf(lab, sizeof lab, "SLA target %g %%", live->sla_target_pct);
        plot_hline_add(ch, live->sla_target_pct, lab);
    }
    char answer[224];
    plan_answer(pl, live, 1, answer, sizeof answer);
    snprintf(ch->note, sizeof ch->note, "cheapest meeting SLA violations <= %g %%: %s",
             live->sla_target_pct, answer);
    return ch;
}

const char *plan_metric_word(plan_metric m)
{
    static const char *const words[PM_NMETRICS] = {"sla", "jct", "power", "capex", "cost",
                                                   "co2e"};
    return m < PM_NMETRICS ? words[m] : "sla";
}

/* The prices as given (a number or a series' path), the horizon and the
 * envelope: the options plan_params_priced() and the site read. */
static void cost_options(const plan_params *p, strbuf *b)
{
    static const char *const opts[3] = {"--usd-per-kwh", "--carbon", "--pue"};
    for (int k = 0; k < 3; k++)
        if (p->cost_src[k][0])
            strbuf_printf(b, " %s %s", opts[k], p->cost_src[k]);
    /* A plan set without the texts (a test's) gives its flat price. */
    if (!p->cost_src[0][0] && p->usd_per_kwh > 0)
        strbuf_printf(b, " --usd-per-kwh %g", p->usd_per_kwh);
    if (p->years > 0)
        strbuf_printf(b, " --years %g", p->years);
    if (p->hours > 0 && p->hours != p->years * HOURS_PER_YEAR)
        strbuf_printf(b, " --hours %g", p->hours);
    if (p->usd_per_kw_month > 0)
        strbuf_printf(b, " --usd-per-kw-month %g", p->usd_per_kw_month);
    if (!site_has_budget(&p->site))
        return;
    strbuf_printf(b, " --site-kw %g", p->site.site_kw);
    if (p->site.host_w > 0)
        strbuf_printf(b, " --host-w %g", p->site.host_w);
    if (p->site.rack_kw > 0)
        strbuf_printf(b, " --rack-kw %g", p->site.rack_kw);
    if (p->site.rack_kw > 0 && p->site.servers_per_rack > 0)
        strbuf_printf(b, " --servers-per-rack %d", p->site.servers_per_rack);
}

void plan_cli_options(const plan_params *p, strbuf *b)
{
    plan_params d;
    plan_params_default(&d);
    if (p->snapshot[0])
        strbuf_printf(b, "--from-snapshot %s ", p->snapshot);
    if (p->trace[0])
        strbuf_printf(b, "--trace %s ", p->trace);
    strbuf_printf(b, "--gpu %s", p->gpu);
    if (p->unbounded)
        strbuf_puts(b, " --unbounded");
    else
        strbuf_printf(b, " --from %d --to %d --step %d", p->lo, p->hi, p->step);
    if (p->per_server != d.per_server)
        strbuf_printf(b, " --per-server %d", p->per_server);
    if (p->price >= 0)
        strbuf_printf(b, " --price %g", p->price);
    if (p->gpu2[0] && !p->unbounded) {
        strbuf_printf(b, " --gpu2 %s --from2 %d --to2 %d --step2 %d", p->gpu2, p->lo2, p->hi2,
                      p->step2);
        if (p->price2 >= 0)
            strbuf_printf(b, " --price2 %g", p->price2);
    }
    cost_options(p, b);
    if (p->kappa > 0)
        strbuf_printf(b, " --kappa %g", p->kappa);
    if (p->sla_target_pct != d.sla_target_pct)
        strbuf_printf(b, " --sla-target %g", p->sla_target_pct);
    if (!isnan(p->corr_threshold))
        strbuf_printf(b, " --corr-threshold %g", p->corr_threshold);
    if (!isnan(p->util_threshold))
        strbuf_printf(b, " --util-threshold %g", p->util_threshold);
    if (p->npolicies > 0) {
        strbuf_puts(b, " --policy ");
        for (int j = 0; j < p->npolicies; j++)
            strbuf_printf(b, "%s%s", j ? "," : "", p->policies[j]);
    }
    if (p->snapshot[0] && p->whatif.remaining_s > 0)
        strbuf_printf(b, " --remaining %g", p->whatif.remaining_s);
    if (p->snapshot[0] && p->whatif.more > 0)
        strbuf_printf(b, " --more %d --more-gap %g", p->whatif.more, p->whatif.more_gap_s);
    if (power_caps_any(&p->caps)) {
        char caps[POWER_CAPS_MAX * (GP_NAME_MAX + 32)];
        power_caps_format(&p->caps, caps, sizeof caps);
        strbuf_printf(b, " --gpu-cap %s", caps);
    }
    if (p->util_window >= 0)
        strbuf_printf(b, " --util-window %s",
                      p->util_window == CORR_WIN_WHOLE ? "whole" : "remaining");
    if (p->tput[0])
        strbuf_printf(b, " --tput %s", p->tput);
    if (p->nets[0])
        strbuf_printf(b, " --gogh-nets %s", p->nets);
}
