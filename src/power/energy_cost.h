/*
 * energy_cost.h — what a run's energy costs in money and carbon, hour by
 * hour, and a fleet's total cost of ownership over years
 * (docs/site-and-cost.md).
 *
 * A run's IT draw (its timeline: watts that hold until the next sample) is
 * cut into the hours of the trace's clock (hour h = [3600 h, 3600 (h+1))
 * seconds from the trace's time 0).  The facility draws IT × PUE; each
 * hour's facility energy is priced at that hour's USD/kWh and weighed at
 * that hour's gCO2e/kWh, each a constant or a series repeating over the
 * clock (core/hourly.h).
 *
 * Over N years, the run's hourly mean draw, from its first hour to its
 * last, repeats back to back: hour j of the years (0 <= j < 8760 N, the
 * trace's hour first + j for the series) draws the mean of the run's hour
 * first + (j mod hours).  A run of a few hours stands for every day of
 * the years; a daily price series then meets the same hours each day
 * only when the run covers whole days.
 *
 * TCO = purchase + energy over the years + facility cost per kW-month of
 * provisioned power (the run's peak IT draw × the largest PUE) × 12 N.
 * An unknown purchase price stays unknown: the caller says so beside the
 * known part (docs/speed-and-prices.md).  Pure: no I/O.
 *
 * Ownership: energy_profile_new() returns a profile freed with
 * energy_profile_free().
 */
#ifndef GP_ENERGY_COST_H
#define GP_ENERGY_COST_H

#include <stddef.h>

#include "core/hourly.h"

#define HOURS_PER_YEAR 8760.0

/* The prices of an hour of energy, and the horizon of the TCO. */
typedef struct energy_prices {
    hourly_value usd_per_kwh;   /* of facility energy */
    hourly_value g_co2e_per_kwh;
    hourly_value pue;           /* >= 1 */
    double years;               /* TCO horizon; 0 = the run alone */
    double usd_per_kw_month;    /* facility cost of provisioned power; 0 = none */
} energy_prices;

/* A run's IT energy by hour of the trace's clock. */
typedef struct energy_profile {
    long first_hour;            /* the hour of kwh[0] */
    size_t n;                   /* hours, first to last the run covers */
    double *kwh;                /* IT energy in each */
    double *covered_h;          /* the part of each hour the run covers, (0, 1] */
    double *peak_w;             /* the highest IT draw sampled in each */
} energy_profile;

/* The profile of a timeline: n samples (t_s, watts) read with a stride in
 * bytes (fields of run_point), each holding until the next, the last
 * until t_end.  When total_kwh > 0 the hours are scaled to sum to it (the
 * simulator's exact energy; the timeline, sampled, gives the shape).  A
 * timeline of no span gives a profile of no hours. */
energy_profile *energy_profile_new(const double *t_s, const double *w, size_t n,
                                   size_t stride, double t_end, double total_kwh);
void energy_profile_free(energy_profile *p);

typedef struct energy_cost {
    /* the run itself */
    double it_kwh, site_kwh;    /* site = IT × PUE */
    double usd, co2e_kg;
    /* over the years (0 when years is 0) */
    double years;
    double years_site_kwh, years_usd, years_co2e_kg;
    double provisioned_kw;      /* peak IT × max PUE */
    double facility_usd;        /* provisioned_kw × usd_per_kw_month × 12 × years */
    double tco_usd;             /* capex_known + years_usd + facility_usd */
} energy_cost;

/* What a constant IT draw pays per IT kWh over the hours [first_hour,
 * first_hour + hours) of the clock: the mean of price x PUE over them (a
 * partial last hour weighs its part); with hours <= 0, over a year from
 * first_hour.  And the same mean of gCO2e/kWh x PUE.  For figures known
 * only as an average draw (a plan's points, a fleet's watts). */
double energy_flat_usd_per_kwh(const energy_prices *pr, long first_hour, double hours);
double energy_flat_g_per_kwh(const energy_prices *pr, long first_hour, double hours);

/* The hours of p whose sampled peak IT draw x that hour's PUE exceeds
 * budget_w of facility power. */
int energy_hours_over(const energy_profile *p, const hourly_value *pue, double budget_w);

/* Money and carbon of it_kwh of IT energy drawn in hour h of the clock:
 * facility energy it_kwh x PUE(h), priced at price(h), weighed at
 * carbon(h).  What energy_cost_compute() adds up hour by hour; a chart of
 * the running total calls it too. */
void energy_hour_cost(const energy_prices *pr, long h, double it_kwh, double *usd,
                      double *g_co2e);

/* Prices profile p under pr; peak_it_w is the run's peak IT draw and
 * capex_known the purchase price of its GPUs whose price is known. */
void energy_cost_compute(const energy_profile *p, double peak_it_w, double capex_known,
                         const energy_prices *pr, energy_cost *out);

#endif
