/*
 * test_energy_cost.c — the power layer's money and carbon of a run's
 * energy (power/energy_cost.h), worked by hand.
 *
 * The run: 1000 W from 0 s, 2000 W from 1800 s, 500 W from 5400 s, to
 * 7200 s.  Hour 0 draws 1000 × 0.5 + 2000 × 0.5 = 1500 Wh, hour 1
 * 2000 × 0.5 + 500 × 0.5 = 1250 Wh: 2.75 kWh.  At a flat 0.10 USD/kWh
 * and PUE 1.5 it costs 2.75 × 1.5 × 0.10 = 0.4125 USD; at an hourly
 * 0.10 then 0.30 it costs (1.5 × 0.10 + 1.25 × 0.30) × 1.5 = 0.7875 USD,
 * since the dearer hour is the one it draws less in.  Carbon at 400 then
 * 200 g/kWh: (1.5 × 400 + 1.25 × 200) × 1.5 = 1275 g.
 */
#include "testutil.h"

#include "power/energy_cost.h"

typedef struct sample {
    double t_s, w;
} sample;

static const sample RUN[] = {{0, 1000}, {1800, 2000}, {5400, 500}};

static energy_profile *profile_of(const sample *s, size_t n, double t_end, double total)
{
    return energy_profile_new(&s[0].t_s, &s[0].w, n, sizeof *s, t_end, total);
}

static void test_profile_by_hour(void **state)
{
    (void)state;
    energy_profile *p = profile_of(RUN, 3, 7200, 0);
    assert_int_equal(p->n, 2);
    assert_int_equal(p->first_hour, 0);
    assert_float_equal(p->kwh[0], 1.5, 1e-12);
    assert_float_equal(p->kwh[1], 1.25, 1e-12);
    assert_float_equal(p->covered_h[1], 1, 1e-12);
    assert_float_equal(p->peak_w[0], 2000, 0);
    assert_float_equal(p->peak_w[1], 2000, 0);
    energy_profile_free(p);
    /* the exact total rescales the sampled shape: 5.5 kWh doubles each hour */
    p = profile_of(RUN, 3, 7200, 5.5);
    assert_float_equal(p->kwh[0], 3, 1e-12);
    energy_profile_free(p);
}

typedef struct cost_case {
    const char *what;
    double price[2];            /* price[1] < 0: a flat price[0] */
    double years, kw_month;
    double usd, co2e_kg, years_usd, facility_usd, tco_usd;
} cost_case;

static void test_costs(void **state)
{
    (void)state;
    static const cost_case cases[] = {
        {"flat price", {0.10, -1}, 0, 0, 0.4125, 1.275, 0, 0, 1000},
        {"hourly price", {0.10, 0.30}, 0, 0, 0.7875, 1.275, 0, 0, 1000},
        /* a year: 4380 of each hour; 3 kW provisioned (2000 W × 1.5) */
        {"flat, a year", {0.10, -1}, 1, 10, 0.4125, 1.275, 4380 * 0.4125, 360,
         1000 + 4380 * 0.4125 + 360},
        {"hourly, a year", {0.10, 0.30}, 1, 10, 0.7875, 1.275, 4380 * 0.7875, 360,
         1000 + 4380 * 0.7875 + 360},
    };
    double carbon_v[2] = {400, 200};
    hourly carbon_s = {carbon_v, 2};
    energy_profile *p = profile_of(RUN, 3, 7200, 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const cost_case *c = &cases[i];
        double pv[2] = {c->price[0], c->price[1]};
        hourly price_s = {pv, 2};
        energy_prices pr = {{c->price[0], c->price[1] < 0 ? NULL : &price_s},
                            {0, &carbon_s}, {1.5, NULL}, c->years, c->kw_month};
        energy_cost out;
        energy_cost_compute(p, 2000, 1000, &pr, &out);
        print_message("case %s\n", c->what);
        assert_float_equal(out.it_kwh, 2.75, 1e-9);
        assert_float_equal(out.site_kwh, 4.125, 1e-9);
        assert_float_equal(out.usd, c->usd, 1e-9);
        assert_float_equal(out.co2e_kg, c->co2e_kg, 1e-9);
        assert_float_equal(out.years_usd, c->years_usd, 1e-6);
        assert_float_equal(out.facility_usd, c->facility_usd, 1e-9);
        assert_float_equal(out.tco_usd, c->tco_usd, 1e-6);
    }
    energy_profile_free(p);
}

/* A run from 01:30 to 02:30 of the trace's clock: half of hour 1 and half
 * of hour 2, each at 1000 W; a 3-hour series prices them at its rows 1
 * and 2, and a year repeats each hour's mean (1 kW) at rows 1, 2, 0, ... */
static void test_offset_and_partial_hours(void **state)
{
    (void)state;
    static const sample s[] = {{5400, 1000}};
    energy_profile *p = profile_of(s, 1, 9000, 0);
    assert_int_equal(p->first_hour, 1);
    assert_int_equal(p->n, 2);
    assert_float_equal(p->covered_h[0], 0.5, 1e-12);
    double pv[3] = {1, 2, 4};
    hourly price_s = {pv, 3};
    energy_prices pr = {{0, &price_s}, {0, NULL}, {1, NULL}, 3.0 / HOURS_PER_YEAR, 0};
    energy_cost out;
    energy_cost_compute(p, 1000, 0, &pr, &out);
    assert_float_equal(out.usd, 0.5 * 2 + 0.5 * 4, 1e-12);
    assert_float_equal(out.years_usd, 2 + 4 + 1, 1e-12);
    assert_float_equal(out.years_site_kwh, 3, 1e-12);
    energy_profile_free(p);
}

/* A constant draw over 3.5 hours of the series 0.1, 0.3 with PUE 1.5:
 * (0.1 + 0.3 + 0.1 + 0.5 x 0.3) x 1.5 / 3.5 per IT kWh. */
static void test_flat_price(void **state)
{
    (void)state;
    double pv[2] = {0.1, 0.3};
    hourly price_s = {pv, 2};
    energy_prices pr = {{0, &price_s}, {200, NULL}, {1.5, NULL}, 0, 0};
    assert_float_equal(energy_flat_usd_per_kwh(&pr, 0, 3.5), 0.65 * 1.5 / 3.5, 1e-12);
    assert_float_equal(energy_flat_usd_per_kwh(&pr, 1, 1), 0.45, 1e-12);
    assert_float_equal(energy_flat_usd_per_kwh(&pr, 0, 0), 0.3, 1e-12);
    assert_float_equal(energy_flat_g_per_kwh(&pr, 0, 2), 300, 1e-12);
}

/* Hours over a budget: the peaks are 2000 W in both hours; at PUE 1.5
 * 3000 W of facility power; with PUE 1.2 then 1.6, 2400 and 3200 W. */
static void test_hours_over(void **state)
{
    (void)state;
    energy_profile *p = profile_of(RUN, 3, 7200, 0);
    hourly_value flat = {1.5, NULL};
    assert_int_equal(energy_hours_over(p, &flat, 3000), 0);
    assert_int_equal(energy_hours_over(p, &flat, 2999), 2);
    double pv[2] = {1.2, 1.6};
    hourly pue_s = {pv, 2};
    hourly_value series = {0, &pue_s};
    assert_int_equal(energy_hours_over(p, &series, 3000), 1);
    energy_profile_free(p);
}

static void test_no_span(void **state)
{
    (void)state;
    static const sample s[] = {{10, 500}};
    energy_profile *p = profile_of(s, 1, 10, 0);
    assert_int_equal(p->n, 0);
    energy_prices pr = {{0.1, NULL}, {300, NULL}, {1.2, NULL}, 1, 0};
    energy_cost out;
    energy_cost_compute(p, 500, 0, &pr, &out);
    assert_float_equal(out.usd, 0, 0);
    assert_float_equal(out.years_usd, 0, 0);
    energy_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_by_hour),
        cmocka_unit_test(test_costs),
        cmocka_unit_test(test_offset_and_partial_hours),
        cmocka_unit_test(test_flat_price),
        cmocka_unit_test(test_hours_over),
        cmocka_unit_test(test_no_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
