/*
 * cmp_energy.c — Compare's energy setting and its cells (cmp_energy.h).
 * Reading a value is cli_cost.c's, the arithmetic power/run_energy.c's;
 * this file keeps what was typed and refuses what they refuse.
 */
#include "cmp_energy.h"

#include <stdio.h>
#include <string.h>

#include "power/run_energy.h"

void cmp_energy_init(cmp_energy *e)
{
    memset(e, 0, sizeof *e);
    cli_cost_init(&e->cost);
}

void cmp_energy_free(cmp_energy *e)
{
    cli_cost_free(&e->cost);
    cmp_energy_init(e);
}

const char *cmp_energy_item_name(cmp_energy_item item)
{
    static const char *const names[CMP_ENERGY_NITEMS] = {
        "price, USD/kWh", "carbon, gCO2e/kWh", "PUE", "TCO years", "USD/kW-month"};
    return names[item];
}

/* The option parser of item, as `gpuplan run` reads it. */
static int parse_item(cli_cost *c, cmp_energy_item item, const char *text, gp_err *err)
{
    switch (item) {
    case CMP_ENERGY_PRICE:
        return cli_cost_parse_price(c, text, err);
    case CMP_ENERGY_CARBON:
        return cli_cost_parse_carbon(c, text, err);
    case CMP_ENERGY_PUE:
        return cli_cost_parse_pue(c, text, err);
    case CMP_ENERGY_YEARS:
        return cli_cost_parse_years(c, text, err);
    default:
        return cli_cost_parse_kw_month(c, text, err);
    }
}

/* The hourly value of price, carbon or PUE (NULL for the TCO's items). */
static hourly_value *value_of(cli_cost *c, cmp_energy_item item)
{
    if (item > CMP_ENERGY_PUE)
        return NULL;
    return item == CMP_ENERGY_PRICE ? &c->pr.usd_per_kwh
         : item == CMP_ENERGY_CARBON ? &c->pr.g_co2e_per_kwh : &c->pr.pue;
}

static hourly **owned_of(cli_cost *c, cmp_energy_item item)
{
    return item == CMP_ENERGY_PRICE ? &c->price
         : item == CMP_ENERGY_CARBON ? &c->carbon : &c->pue;
}

/* Frees item's series when its value is no longer one (a number typed
 * over a file). */
static void drop_unused_series(cli_cost *c, cmp_energy_item item)
{
    if (!value_of(c, item))
        return;
    hourly **owned = owned_of(c, item);
    if (!value_of(c, item)->series && *owned) {
        hourly_free(*owned);
        *owned = NULL;
    }
}

/* The value of item when it is not set: no price, no carbon, PUE 1, the
 * run alone, no facility cost (as `run` without the option). */
static void unset_item(cli_cost *c, cmp_energy_item item)
{
    if (item == CMP_ENERGY_YEARS || item == CMP_ENERGY_KW_MONTH) {
        *(item == CMP_ENERGY_YEARS ? &c->pr.years : &c->pr.usd_per_kw_month) = 0;
        return;
    }
    hourly_value *v = value_of(c, item);
    v->series = NULL;
    v->constant = item == CMP_ENERGY_PUE ? 1 : 0;
    drop_unused_series(c, item);
}

int cmp_energy_set(cmp_energy *e, cmp_energy_item item, const char *text, gp_err *err)
{
    if ((int)item < 0 || item >= CMP_ENERGY_NITEMS)
        return gp_error(err, "no such energy setting");
    while (*text == ' ')
        text++;
    char typed[CMP_ENERGY_TEXT_MAX];
    if (strlen(text) >= sizeof typed)
        return gp_error(err, "at most %zu characters", sizeof typed - 1);
    strlcpy0(typed, text, sizeof typed);
    size_t n = strlen(typed);
    while (n > 0 && typed[n - 1] == ' ')    /* path completion leaves a space */
        typed[--n] = '\0';
    if (!typed[0] || strcmp(typed, "none") == 0) {
        unset_item(&e->cost, item);
        e->text[item][0] = '\0';
        e->gen++;
        return 0;
    }
    /* A copy takes the new value, so a refused one changes nothing: on
     * success the parser has freed the series it replaced (the same
     * pointer e held). */
    cli_cost next = e->cost;
    if (parse_item(&next, item, typed, err))
        return -1;
    drop_unused_series(&next, item);
    e->cost = next;
    strlcpy0(e->text[item], typed, sizeof e->text[item]);
    e->gen++;
    return 0;
}

int cmp_energy_priced(const cmp_energy *e)
{
    return e->text[CMP_ENERGY_PRICE][0] != '\0';
}

int cmp_energy_has_carbon(const cmp_energy *e)
{
    return e->text[CMP_ENERGY_CARBON][0] != '\0';
}

int cmp_energy_has_tco(const cmp_energy *e)
{
    return cmp_energy_priced(e) && e->cost.pr.years > 0;
}

void cmp_energy_describe_item(const cmp_energy *e, cmp_energy_item item, char *buf,
                              size_t len)
{
    static const char *const units[CMP_ENERGY_NITEMS] = {"USD/kWh", "gCO2e/kWh", "PUE",
                                                          "years of TCO", "USD/kW-month"};
    const char *t = e->text[item], *slash = strrchr(t, '/');
    const hourly_value *v = item == CMP_ENERGY_PRICE ? &e->cost.pr.usd_per_kwh
                          : item == CMP_ENERGY_CARBON ? &e->cost.pr.g_co2e_per_kwh
                          : item == CMP_ENERGY_PUE ? &e->cost.pr.pue : NULL;
    if (!t[0])
        snprintf(buf, len, "not set");
    else if (v && v->series)
        snprintf(buf, len, "%s series %s", units[item], slash ? slash + 1 : t);
    else if (item == CMP_ENERGY_PUE)
        snprintf(buf, len, "PUE %s", t);
    else
        snprintf(buf, len, "%s %s", t, units[item]);
}

void cmp_energy_of_run(const cmp_energy *e, const run *r, const run_summary *s,
                       double capex_known, energy_cost *out)
{
    run_energy_cost(r, s, capex_known, &e->cost.pr, 0, out, NULL);
}
