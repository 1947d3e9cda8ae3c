/*
 * planner_cost.c — the Planner's pricing rows (planner_cost.h).  A value
 * typed goes through plan_pricing_set(), which reads a series file with
 * io/hourly_read.h: a malformed one is refused with its file:line:col and
 * nothing changes.
 */
#include "planner_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const names[PCOST_NROWS] = {
    "Energy $/kWh", "Carbon g/kWh", "PUE", "Years (TCO)", "Facility $/kW-mo",
};

/* The CLI option each row sets, for messages. */
static const char *const opts[PCOST_NROWS] = {
    "--usd-per-kwh", "--carbon", "--pue", "--years", "--usd-per-kw-month",
};

/* The prices into the plan's parameters, as `gpuplan plan` sets them
 * (the Planner has no --hours: the horizon is the years, else each
 * point's simulated span). */
static void apply(app *a)
{
    plan_params_priced(&a->pl.cost.pr, 0, &a->pl.p);
}

void planner_cost_ensure(app *a)
{
    if (!a->pl.cost_ready) {
        plan_pricing_init(&a->pl.cost);
        a->pl.cost_ready = 1;
    }
    apply(a);
}

/* A series as shown: its file's last name and its hours. */
static void series_text(const char *path, const hourly *s, const char *extra, char *buf,
                        size_t len)
{
    const char *slash = strrchr(path, '/');
    snprintf(buf, len, "%s, %zu h%s", slash ? slash + 1 : path, s->n, extra);
}

void planner_cost_value(const app *a, int row, char *buf, size_t len)
{
    const plan_pricing *c = &a->pl.cost;
    const plan_params *p = &a->pl.p;
    if (row <= PCOST_PUE) {
        const hourly_value *v = plan_pricing_value(c, (plan_price_kind)row);
        char extra[48] = "";
        if (v->series && row == PCOST_PUE)
            snprintf(extra, sizeof extra, ", max %.2f", hourly_max(v->series));
        if (v->series)
            series_text(p->cost_src[row], v->series, extra, buf, len);
        else if (row == PCOST_PUE)
            snprintf(buf, len, "%.2f", v->constant);
        else if (v->constant <= 0)
            snprintf(buf, len, "%s", row == PCOST_PRICE ? "none (CapEx alone)" : "none");
        else
            snprintf(buf, len, row == PCOST_PRICE ? "%.3f" : "%g", v->constant);
    } else if (row == PCOST_YEARS) {
        if (c->pr.years > 0)
            snprintf(buf, len, "%g", c->pr.years);
        else
            snprintf(buf, len, "none (simulated span)");
    } else if (c->pr.usd_per_kw_month > 0) {
        snprintf(buf, len, "%g", c->pr.usd_per_kw_month);
    } else {
        snprintf(buf, len, "none");
    }
}

/* Each row's range (the CLI's) and arrow step. */
static const double lo[PCOST_NROWS] = {0, 0, 1, 0, 0};
static const double hi[PCOST_NROWS] = {1e6, 1e5, 10, 50, 1e6};
static const double step[PCOST_NROWS] = {0.01, 10, 0.05, 1, 10};

/* Sets a constant already in range, and its text for the command line. */
static void set_constant(app *a, int row, double v)
{
    plan_pricing *c = &a->pl.cost;
    char text[64];
    snprintf(text, sizeof text, "%g", v);
    if (row <= PCOST_PUE) {
        gp_err err;
        /* a number in range: cannot fail */
        (void)plan_pricing_set(c, (plan_price_kind)row, text, a->pl.p.cost_src[row], &err);
        if (row != PCOST_PUE && v <= 0)
            a->pl.p.cost_src[row][0] = '\0';
    } else if (row == PCOST_YEARS) {
        c->pr.years = v;
    } else {
        c->pr.usd_per_kw_month = v;
    }
    apply(a);
}

static double constant_of(const app *a, int row)
{
    const plan_pricing *c = &a->pl.cost;
    if (row <= PCOST_PUE)
        return plan_pricing_value(c, (plan_price_kind)row)->constant;
    return row == PCOST_YEARS ? c->pr.years : c->pr.usd_per_kw_month;
}

void planner_cost_step(app *a, int row, int dir)
{
    if (row <= PCOST_PUE && plan_pricing_value(&a->pl.cost, (plan_price_kind)row)->series) {
        app_msg(a, "%s is a series: Enter types a number or another file", names[row]);
        return;
    }
    double v = constant_of(a, row) + step[row] * dir;
    v = fmin(hi[row], fmax(lo[row], v));
    set_constant(a, row, fabs(v) < 1e-9 ? 0 : v);
}

void planner_cost_typed(app *a, int row, const char *text)
{
    /* Tab completion leaves a space after a file's name. */
    char arg[PLAN_SRC_MAX];
    snprintf(arg, sizeof arg, "%s", text);
    for (size_t n = strlen(arg); n > 0 && arg[n - 1] == ' '; n--)
        arg[n - 1] = '\0';
    gp_err err;
    if (row <= PCOST_PUE) {
        if (!arg[0])
            planner_cost_reset(a, row);
        else if (plan_pricing_set(&a->pl.cost, (plan_price_kind)row, arg,
                                  a->pl.p.cost_src[row], &err))
            app_err(a, "%s: %s: not changed", names[row], err.msg);
        apply(a);
        return;
    }
    double v;
    if (parse_double(arg, &v))
        app_err(a, "%s: expected a number, got '%s': not changed", names[row], arg);
    else if (!(v >= lo[row] && v <= hi[row]))
        app_err(a, "%s must be %g to %g (%s), not %s: not changed", names[row], lo[row],
                hi[row], opts[row], arg);
    else
        set_constant(a, row, v);
}

void planner_cost_prompt(app *a, int row, modal_done_fn done)
{
    static const char *const titles[PCOST_NROWS] = {
        "Energy USD/kWh: a number, or an hourly series file (CSV hour,usd_per_kwh; Tab "
        "completes)",
        "Carbon gCO2e/kWh: a number, or an hourly series file (CSV hour,g_co2e_per_kwh; Tab "
        "completes)",
        "PUE: a number (at least 1), or an hourly series file (CSV hour,pue; Tab completes)",
        "Years of the TCO (0: the simulated span)",
        "Facility USD per kW-month of provisioned power",
    };
    char v[PLAN_SRC_MAX + 32] = "";
    if (row <= PCOST_PUE && plan_pricing_value(&a->pl.cost, (plan_price_kind)row)->series)
        snprintf(v, sizeof v, "%s", a->pl.p.cost_src[row]);
    else if (constant_of(a, row) > 0)
        snprintf(v, sizeof v, "%g", constant_of(a, row));
    modal_prompt(a, titles[row], v, done);
    a->m.complete_paths = row <= PCOST_PUE;
}

void planner_cost_reset(app *a, int row)
{
    plan_pricing *c = &a->pl.cost;
    if (row <= PCOST_PUE) {
        gp_err err;
        (void)plan_pricing_set(c, (plan_price_kind)row, row == PCOST_PUE ? "1" : "0",
                               a->pl.p.cost_src[row], &err);
        a->pl.p.cost_src[row][0] = '\0';
    } else if (row == PCOST_YEARS) {
        c->pr.years = 0;
    } else {
        c->pr.usd_per_kw_month = 0;
    }
    apply(a);
}
