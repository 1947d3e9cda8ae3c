/*
 * cli_cost.h — the options that price energy and carbon and set the TCO
 * horizon (--usd-per-kwh, --carbon, --pue, --years, --usd-per-kw-month),
 * shared by run, plan and solve fleet; each of the first three takes a
 * number or an hourly series file (io/hourly_read.h).  And the columns a
 * run's row gets from them (power/energy_cost.h).
 */
#ifndef GP_CLI_COST_H
#define GP_CLI_COST_H

#include <math.h>

#include "cli.h"
#include "cli_opt.h"
#include "core/run.h"
#include "io/table.h"
#include "power/energy_cost.h"

typedef struct cli_cost {
    energy_prices pr;           /* constants and series, as parsed */
    hourly *price, *carbon, *pue;   /* owned series (NULL = the constant) */
    int asked;                  /* any of the options was given */
} cli_cost;

/* Defaults: no price, no carbon, PUE 1, the run alone. */
void cli_cost_init(cli_cost *c);
void cli_cost_free(cli_cost *c);

int cli_cost_parse_price(void *value, const char *arg, gp_err *err);
int cli_cost_parse_carbon(void *value, const char *arg, gp_err *err);
int cli_cost_parse_pue(void *value, const char *arg, gp_err *err);
int cli_cost_parse_years(void *value, const char *arg, gp_err *err);
int cli_cost_parse_kw_month(void *value, const char *arg, gp_err *err);

/* The option rows, for a command's table: what energy costs ... */
#define CLI_COST_ENERGY_OPTS(c) \
    OPT_CALLBACK("usd-per-kwh", 0, "X|FILE", (c), cli_cost_parse_price, "electricity " \
                 "price: USD per kWh, or an hourly series (CSV hour,usd_per_kwh) repeating " \
                 "from hour 0 of the trace", .def = "0"), \
    OPT_CALLBACK("carbon", 0, "G|FILE", (c), cli_cost_parse_carbon, "grid carbon intensity: " \
                 "gCO2e per kWh, or an hourly series (CSV hour,g_co2e_per_kwh)", .def = "0"), \
    OPT_CALLBACK("pue", 0, "X|FILE", (c), cli_cost_parse_pue, "power usage effectiveness " \
                 "(facility over IT energy, at least 1), or an hourly series (CSV hour,pue)", \
                 .def = "1")

/* ... and the TCO's horizon and facility cost. */
#define CLI_COST_TCO_OPTS(c) \
    OPT_CALLBACK("years", 0, "N", (c), cli_cost_parse_years, "TCO horizon: the run's " \
                 "hourly draw repeated over N years, priced hour by hour", .def = "0, the " \
                 "run alone"), \
    OPT_CALLBACK("usd-per-kw-month", 0, "X", (c), cli_cost_parse_kw_month, "facility cost " \
                 "per kW-month of provisioned power (peak IT draw x PUE) in the TCO", \
                 .def = "0")

#define CLI_COST_OPTS(c) CLI_COST_ENERGY_OPTS(c), CLI_COST_TCO_OPTS(c)

/* Whether a carbon intensity was given (a series or a constant > 0). */
int cli_cost_has_carbon(const cli_cost *c);

/* The run's columns: energy_usd, co2e_kg and, with --years, the years'
 * energy_usd, facility_usd and tco_usd. */
void cli_cost_cols(const cli_cost *c, table *t);
void cli_cost_cells(const cli_cost *c, table *t, const run *r);
/* The line under a table that says how the figures were priced. */
void cli_cost_note(const cli_cost *c, FILE *out);

#endif
