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
#include "power/site_envelope.h"

typedef struct cli_cost {
    energy_prices pr;           /* constants and series, as parsed */
    hourly *price, *carbon, *pue;   /* owned series (NULL = the constant) */
    int asked;                  /* any of the options was given */
    double site_kw;             /* run: a site budget to count hours over; 0 = none */
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

/* run: the site budget whose hours over are counted. */
#define CLI_SITE_BUDGET_OPT(c) \
    OPT_DOUBLE("site-kw", 0, "KW", &(c)->site_kw, 0, 1e9, "the site's power budget in kW " \
               "of facility power: count the hours whose peak draw x PUE exceeds it", \
               .min_open = 1, .def = "none")

/* The facility's power envelope (power/site_envelope.h); its PUE is
 * --pue's largest hour, set by cli_cost_site(). */
#define CLI_SITE_OPTS(e) \
    OPT_DOUBLE("site-kw", 0, "KW", &(e)->site_kw, 0, 1e9, "the site's power budget in kW of " \
               "facility power (IT x PUE): how many GPUs it holds at peak draw", \
               .min_open = 1, .def = "none"), \
    OPT_DOUBLE("rack-kw", 0, "KW", &(e)->rack_kw, 0, 1e6, "with --site-kw: each rack's IT " \
               "power budget in kW", .min_open = 1, .def = "none"), \
    OPT_INT("servers-per-rack", 0, "N", &(e)->servers_per_rack, 1, 1000, "with --rack-kw: " \
            "server slots of a rack", .def = "as many as its budget holds"), \
    OPT_DOUBLE("host-w", 0, "W", &(e)->host_w, 0, 1e6, "a server's peak watts beside its " \
               "GPUs (CPUs, fans, NICs), counted in the envelope", .def = "0")

/* Sets e's PUE from the options (the largest hour of a series). */
void cli_cost_site(const cli_cost *c, site_envelope *e);

/* Whether a carbon intensity was given (a series or a constant > 0). */
int cli_cost_has_carbon(const cli_cost *c);

/* The run's columns: energy_usd, co2e_kg and, with --years, the years'
 * energy_usd, facility_usd and tco_usd. */
void cli_cost_cols(const cli_cost *c, table *t);
void cli_cost_cells(const cli_cost *c, table *t, const run *r);
/* The line under a table that says how the figures were priced. */
void cli_cost_note(const cli_cost *c, FILE *out);

#endif
