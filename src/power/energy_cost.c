/*
 * energy_cost.c — money and carbon of a run's energy by hour, and the TCO
 * over years (energy_cost.h).  Pure.
 */
#include "energy_cost.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"

static double field(const double *base, size_t i, size_t stride)
{
    return *(const double *)(const void *)((const char *)base + i * stride);
}

/* Adds watts w held over [a, b) seconds to the hours it spans. */
static void add_span(energy_profile *p, double a, double b, double w)
{
    while (b > a) {
        long h = (long)floor(a / 3600);
        double end = fmin(b, 3600.0 * (double)(h + 1));
        size_t k = (size_t)(h - p->first_hour);
        p->kwh[k] += w * (end - a) / 3.6e6;
        p->covered_h[k] += (end - a) / 3600;
        if (w > p->peak_w[k])
            p->peak_w[k] = w;
        a = end;
    }
}

energy_profile *energy_profile_new(const double *t_s, const double *w, size_t n,
                                   size_t stride, double t_end, double total_kwh)
{
    energy_profile *p = xcalloc(1, sizeof *p);
    if (n == 0 || !(t_end > field(t_s, 0, stride)))
        return p;
    double t0 = field(t_s, 0, stride);
    p->first_hour = (long)floor(t0 / 3600);
    long last = (long)ceil(t_end / 3600) - 1;
    p->n = (size_t)(last - p->first_hour + 1);
    p->kwh = xcalloc(p->n, sizeof *p->kwh);
    p->covered_h = xcalloc(p->n, sizeof *p->covered_h);
    p->peak_w = xcalloc(p->n, sizeof *p->peak_w);
    for (size_t i = 0; i < n; i++) {
        double a = field(t_s, i, stride);
        double b = i + 1 < n ? field(t_s, i + 1, stride) : t_end;
        add_span(p, fmax(a, t0), fmin(b, t_end), field(w, i, stride));
    }
    double sum = 0;
    for (size_t k = 0; k < p->n; k++)
        sum += p->kwh[k];
    if (total_kwh > 0 && sum > 0)
        for (size_t k = 0; k < p->n; k++)
            p->kwh[k] *= total_kwh / sum;
    return p;
}

void energy_profile_free(energy_profile *p)
{
    if (!p)
        return;
    free(p->kwh);
    free(p->covered_h);
    free(p->peak_w);
    free(p);
}

int energy_hours_over(const energy_profile *p, const hourly_value *pue, double budget_w)
{
    int n = 0;
    for (size_t k = 0; k < p->n; k++)
        n += p->peak_w[k] * hourly_value_at(pue, p->first_hour + (long)k) > budget_w;
    return n;
}

void energy_hour_cost(const energy_prices *pr, long h, double it_kwh, double *usd,
                      double *g_co2e)
{
    double site = it_kwh * hourly_value_at(&pr->pue, h);
    *usd = site * hourly_value_at(&pr->usd_per_kwh, h);
    *g_co2e = site * hourly_value_at(&pr->g_co2e_per_kwh, h);
}

/* Facility energy, money and carbon of it_kwh drawn in hour h, added. */
static void add_hour(const energy_prices *pr, long h, double it_kwh, double *site_kwh,
                     double *usd, double *g)
{
    double u, c;
    energy_hour_cost(pr, h, it_kwh, &u, &c);
    *site_kwh += it_kwh * hourly_value_at(&pr->pue, h);
    *usd += u;
    *g += c;
}

/* The years: hour j draws the mean of the run's hour j mod n. */
static void price_years(const energy_profile *p, const energy_prices *pr, energy_cost *c)
{
    long hours = lround(pr->years * HOURS_PER_YEAR);
    double g = 0;
    for (long j = 0; j < hours && p->n > 0; j++) {
        size_t k = (size_t)(j % (long)p->n);
        double kw = p->covered_h[k] > 0 ? p->kwh[k] / p->covered_h[k] : 0;
        add_hour(pr, p->first_hour + j, kw, &c->years_site_kwh, &c->years_usd, &g);
    }
    c->years_co2e_kg = g / 1000;
}

/* The mean of v x PUE over [first, first + hours). */
static double flat_mean(const hourly_value *v, const hourly_value *pue, long first,
                        double hours)
{
    if (!(hours > 0))
        hours = HOURS_PER_YEAR;
    double sum = 0, left = hours;
    for (long h = first; left > 0; h++, left -= 1)
        sum += fmin(left, 1) * hourly_value_at(v, h) * hourly_value_at(pue, h);
    return sum / hours;
}

double energy_flat_usd_per_kwh(const energy_prices *pr, long first_hour, double hours)
{
    return flat_mean(&pr->usd_per_kwh, &pr->pue, first_hour, hours);
}

double energy_flat_g_per_kwh(const energy_prices *pr, long first_hour, double hours)
{
    return flat_mean(&pr->g_co2e_per_kwh, &pr->pue, first_hour, hours);
}

void energy_cost_compute(const energy_profile *p, double peak_it_w, double capex_known,
                         const energy_prices *pr, energy_cost *out)
{
    energy_cost c = {0};
    double g = 0;
    for (size_t k = 0; k < p->n; k++) {
        c.it_kwh += p->kwh[k];
        add_hour(pr, p->first_hour + (long)k, p->kwh[k], &c.site_kwh, &c.usd, &g);
    }
    c.co2e_kg = g / 1000;
    c.years = pr->years;
    if (pr->years > 0)
        price_years(p, pr, &c);
    c.provisioned_kw = peak_it_w / 1000 * hourly_value_max(&pr->pue);
    c.facility_usd = c.provisioned_kw * pr->usd_per_kw_month * 12 * pr->years;
    c.tco_usd = capex_known + c.years_usd + c.facility_usd;
    *out = c;
}
