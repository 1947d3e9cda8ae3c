/*
 * scr_compare_energy.c — Compare's energy key (E): a menu of the price,
 * the carbon intensity, the PUE and the TCO's years and facility cost,
 * then a prompt for the one chosen,
 * typed as `gpuplan run --usd-per-kwh X|FILE` takes it (Tab completes a
 * file's path); and the setting to and from the settings file.  What the
 * setting holds and prices is cmp_energy.h's; the table's cells are
 * scr_compare.c's.
 */
#include "app.h"
#include "settings.h"

#include <stdio.h>
#include <string.h>

/* What each item's prompt asks. */
static const char *const prompt_titles[CMP_ENERGY_NITEMS] = {
    "Energy price: USD per kWh, or an hourly series file (CSV hour,usd_per_kwh; Tab "
    "completes); empty for none",
    "Carbon intensity: gCO2e per kWh, or an hourly series file (CSV hour,g_co2e_per_kwh; "
    "Tab completes); empty for none",
    "PUE (facility over IT energy, at least 1), or an hourly series file (CSV hour,pue; Tab "
    "completes); empty for 1",
    "TCO years: the run's hourly draw repeated over N years, priced hour by hour (as run "
    "--years); empty for no TCO",
    "Facility cost, USD per kW-month of provisioned power (peak IT x PUE), in the TCO; empty "
    "for none",
};

/* The reader's message with the typed path's directories left out (the
 * prompt showed them), so file:line:col and what is wrong fit the status
 * line; "not changed" when there is room for it too. */
static void refused(app *a, const char *typed, const char *msg)
{
    const char *slash = strrchr(typed, '/');
    size_t dir = slash ? (size_t)(slash + 1 - typed) : 0;
    if (dir && strncmp(msg, typed, dir) == 0)
        msg += dir;
    if ((int)strlen(msg) + (int)strlen(" (not changed)") + 2 <= a->cols)
        app_err(a, "%s (not changed)", msg);
    else
        app_err(a, "%s", msg);
}

/* The value typed for item: set, or refused with the reader's message and
 * nothing changed. */
static void energy_typed(app *a, int ok, const char *text, cmp_energy_item item)
{
    static const char *const short_names[CMP_ENERGY_NITEMS] = {"price", "carbon", "PUE",
                                                                "TCO years", "facility cost"};
    if (!ok)
        return;
    gp_err err;
    if (cmp_energy_set(&a->cmp.energy, item, text, &err)) {
        refused(a, text, err.msg);
        return;
    }
    char now[CMP_ENERGY_TEXT_MAX + 32];
    cmp_energy_describe_item(&a->cmp.energy, item, now, sizeof now);
    app_msg(a, "energy: %s%s%s", a->cmp.energy.text[item][0] ? "" : short_names[item],
            a->cmp.energy.text[item][0] ? "" : " ", now);
}

static void price_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    energy_typed(a, ok, text, CMP_ENERGY_PRICE);
}

static void carbon_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    energy_typed(a, ok, text, CMP_ENERGY_CARBON);
}

static void pue_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    energy_typed(a, ok, text, CMP_ENERGY_PUE);
}

static void years_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    energy_typed(a, ok, text, CMP_ENERGY_YEARS);
}

static void kw_month_typed(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    energy_typed(a, ok, text, CMP_ENERGY_KW_MONTH);
}

static void item_chosen(app *a, int ok, const char *text, int choice)
{
    (void)text;
    static const modal_done_fn typed[CMP_ENERGY_NITEMS] = {price_typed, carbon_typed,
                                                            pue_typed, years_typed,
                                                            kw_month_typed};
    if (!ok || choice < 0 || choice >= CMP_ENERGY_NITEMS)
        return;
    modal_prompt(a, prompt_titles[choice], a->cmp.energy.text[choice], typed[choice]);
    a->m.complete_paths = choice <= CMP_ENERGY_PUE;     /* the others take no file */
}

ui_rc compare_energy_key(app *a, int key)
{
    (void)key;
    char items[CMP_ENERGY_NITEMS][96];
    const char *ptrs[CMP_ENERGY_NITEMS];
    for (int k = 0; k < CMP_ENERGY_NITEMS; k++) {
        char now[CMP_ENERGY_TEXT_MAX + 32];
        cmp_energy_describe_item(&a->cmp.energy, (cmp_energy_item)k, now, sizeof now);
        snprintf(items[k], sizeof items[k], "%-18s %s", cmp_energy_item_name((cmp_energy_item)k),
                 now);
        ptrs[k] = items[k];
    }
    modal_menu(a, "Energy: what each run's $energy, CO2e and TCO$ are priced at", ptrs,
               CMP_ENERGY_NITEMS, 0, item_chosen);
    return UI_DONE;
}

void compare_energy_settings(const app *a, ui_settings *s)
{
    for (int k = 0; k < CMP_ENERGY_NITEMS; k++)
        strlcpy0(s->energy[k], a->cmp.energy.text[k], sizeof s->energy[k]);
}

void compare_energy_apply(app *a, const ui_settings *s)
{
    for (int k = 0; k < CMP_ENERGY_NITEMS; k++) {
        gp_err err;
        if (s->energy[k][0] && cmp_energy_set(&a->cmp.energy, (cmp_energy_item)k, s->energy[k],
                                              &err))
            app_err(a, "energy setting ignored: %s", err.msg);
    }
}
