/*
 * cmp_energy.h — Compare's energy setting: what a kWh costs, what it
 * emits and the PUE, each a constant or an hourly series file, as `gpuplan
 * run --usd-per-kwh X|FILE --carbon X|FILE --pue X|FILE` reads them
 * (cli/cli_cost.h), and each run's `$energy` and `CO2e` cells priced by
 * the one function `run` prices with (power/run_energy.h).
 *
 * The setting is kept as typed (a number or a path), so the settings file
 * remembers it and a series is read again at the next start.  No curses:
 * tests set, refuse and price without a terminal.
 *
 * Ownership: cmp_energy_init() / cmp_energy_free(); the setting owns the
 * series it read.
 */
#ifndef GP_CMP_ENERGY_H
#define GP_CMP_ENERGY_H

#include "cli/cli_cost.h"
#include "core/runsum.h"

#define CMP_ENERGY_TEXT_MAX 512

typedef enum cmp_energy_item {
    CMP_ENERGY_PRICE, CMP_ENERGY_CARBON, CMP_ENERGY_PUE,
    CMP_ENERGY_YEARS, CMP_ENERGY_KW_MONTH,      /* the TCO's horizon and facility cost */
    CMP_ENERGY_NITEMS
} cmp_energy_item;

typedef struct cmp_energy {
    cli_cost cost;                                      /* as parsed */
    char text[CMP_ENERGY_NITEMS][CMP_ENERGY_TEXT_MAX];  /* as typed; "" = not set */
    unsigned gen;               /* counts the changes, for the cells' cache */
} cmp_energy;

/* What a run's priced figures depend on: the record, how much of its
 * timeline, the horizon and the setting's generation. */
typedef struct cmp_energy_key {
    const run *rec;
    size_t npoints;
    double t_end;
    unsigned gen;
} cmp_energy_key;

void cmp_energy_init(cmp_energy *e);
void cmp_energy_free(cmp_energy *e);

/* What item is, in a few words ("price, USD/kWh"), for menus and help. */
const char *cmp_energy_item_name(cmp_energy_item item);

/* Sets item from text: a number, or an hourly series file (empty or
 * "none": not set).  A value out of range, or a file the series reader
 * refuses, is an error with its message (file:line:col) and leaves e as
 * it was. */
int cmp_energy_set(cmp_energy *e, cmp_energy_item item, const char *text, gp_err *err);

/* 1 when a price is set (the $energy cells have figures), resp. a carbon
 * intensity (the CO2e cells), a TCO horizon with a price (the TCO$ cells). */
int cmp_energy_priced(const cmp_energy *e);
int cmp_energy_has_carbon(const cmp_energy *e);
int cmp_energy_has_tco(const cmp_energy *e);

/* One item as set: "0.125 USD/kWh", "PUE 1.3", "gCO2e/kWh series
 * carbon.csv" (a path's last part), or "not set". */
void cmp_energy_describe_item(const cmp_energy *e, cmp_energy_item item, char *buf,
                              size_t len);

/* Run r's energy cost and emissions up to its summary s's horizon (a
 * finished run's own summary, or a live run's up to where it is), and its
 * TCO with capex_known the price of its GPUs whose price is known. */
void cmp_energy_of_run(const cmp_energy *e, const run *r, const run_summary *s,
                       double capex_known, energy_cost *out);

#endif
