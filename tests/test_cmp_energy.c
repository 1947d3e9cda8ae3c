/*
 * test_cmp_energy.c — Compare's energy setting (ui/cmp_energy.h, the ui
 * layer without a terminal): values typed as `gpuplan run` takes them,
 * refusals that change nothing, and a run priced by the engine function
 * `run` prices with (power/run_energy.h).
 *
 * The run is test_energy_cost.c's, worked by hand there: 1000 W from 0 s,
 * 2000 W from 1800 s, 500 W from 5400 s to 7200 s, i.e. 1.5 kWh in hour 0
 * and 1.25 kWh in hour 1.  At PUE 1.5: a flat 0.10 USD/kWh costs 0.4125
 * USD, an hourly 0.10 then 0.30 costs 0.7875 USD; carbon at 400 then 200
 * gCO2e/kWh emits 1.275 kg.
 */
#include "testutil.h"

#include "ui/cmp_energy.h"
#include "ui/settings_int.h"
#include "power/run_energy.h"

static run *hand_run(run_summary *s)
{
    static const double t[] = {0, 1800, 5400}, w[] = {1000, 2000, 500};
    run *r = run_new("first");
    for (int i = 0; i < 3; i++) {
        run_point p = {.t_s = t[i], .power_w = w[i]};
        run_add_point(r, &p);
    }
    memset(s, 0, sizeof *s);
    s->t_end = 7200;
    s->energy_kwh = 2.75;
    s->peak_w = 2000;
    return r;
}

typedef struct priced_case {
    const char *price, *carbon, *pue;   /* NULL: not typed; "@name": a series file */
    double usd, co2e_kg;
} priced_case;

static void set_ok(cmp_energy *e, cmp_energy_item item, const char *v, const char *dir)
{
    if (!v)
        return;
    char path[512];
    if (v[0] == '@')
        snprintf(path, sizeof path, "%s/%s", dir, v + 1);
    gp_err err = {{0}};
    if (cmp_energy_set(e, item, v[0] == '@' ? path : v, &err))
        fail_msg("%s: %s", v, err.msg);
}

static void test_priced_as_run(void **state)
{
    (void)state;
    static const priced_case cases[] = {
        {"0.10", NULL, "1.5", 0.4125, 0},
        {"@price.csv", NULL, "1.5", 0.7875, 0},
        {"@price.csv", "@carbon.csv", "1.5", 0.7875, 1.275},
        {"0.10", "400", NULL, 0.275, 1.1},                  /* PUE 1 when not set */
        {"@price.csv", "none", "@pue.csv", 0.7875, 0},      /* a PUE series of 1.5s */
    };
    char *dir = tu_tmpdir();
    tu_write(dir, "price.csv", "hour,usd_per_kwh\n0,0.10\n1,0.30\n");
    tu_write(dir, "carbon.csv", "hour,g_co2e_per_kwh\n0,400\n1,200\n");
    tu_write(dir, "pue.csv", "hour,pue\n0,1.5\n");
    run_summary s;
    run *r = hand_run(&s);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const priced_case *c = &cases[i];
        cmp_energy e;
        cmp_energy_init(&e);
        set_ok(&e, CMP_ENERGY_PRICE, c->price, dir);
        set_ok(&e, CMP_ENERGY_CARBON, c->carbon, dir);
        set_ok(&e, CMP_ENERGY_PUE, c->pue, dir);
        energy_cost ec, direct;
        cmp_energy_of_run(&e, r, &s, 0, &ec);
        assert_double_equal(ec.usd, c->usd, 1e-12);
        assert_double_equal(ec.co2e_kg, c->co2e_kg, 1e-12);
        /* the very figures `run` prints: the same function on the same prices */
        run_energy_cost(r, &s, 0, &e.cost.pr, 0, &direct, NULL);
        assert_memory_equal(&ec, &direct, sizeof ec);
        assert_int_equal(cmp_energy_priced(&e), 1);
        assert_int_equal(cmp_energy_has_carbon(&e), c->carbon && strcmp(c->carbon, "none"));
        cmp_energy_free(&e);
    }
    run_free(r);
    tu_rmrf(dir);
    free(dir);
}

typedef struct refused_case {
    cmp_energy_item item;
    const char *text;           /* "@name": a file of the temporary directory */
    const char *file;           /* its contents, or NULL: no such file */
    const char *msg;            /* in the error */
} refused_case;

static void test_refused_changes_nothing(void **state)
{
    (void)state;
    static const refused_case cases[] = {
        {CMP_ENERGY_PRICE, "-1", NULL, "out of range"},
        {CMP_ENERGY_PUE, "0.5", NULL, "at least 1"},
        {CMP_ENERGY_PRICE, "@gap.csv", "hour,usd_per_kwh\n0,0.1\n2,0.3\n", "gap.csv:3:1"},
        {CMP_ENERGY_PRICE, "@word.csv", "hour,usd_per_kwh\n0,0.1\n1,cheap\n", "word.csv:3:2"},
        {CMP_ENERGY_CARBON, "@wrong.csv", "hour,usd_per_kwh\n0,0.1\n", "wrong.csv:1:"},
        {CMP_ENERGY_PRICE, "@missing.csv", NULL, "missing.csv"},
    };
    char *dir = tu_tmpdir();
    tu_write(dir, "price.csv", "hour,usd_per_kwh\n0,0.10\n1,0.30\n");
    run_summary s;
    run *r = hand_run(&s);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const refused_case *c = &cases[i];
        cmp_energy e;
        cmp_energy_init(&e);
        set_ok(&e, CMP_ENERGY_PRICE, "@price.csv", dir);
        set_ok(&e, CMP_ENERGY_CARBON, "400", dir);
        set_ok(&e, CMP_ENERGY_PUE, "1.5", dir);
        char path[512], before[CMP_ENERGY_NITEMS][CMP_ENERGY_TEXT_MAX];
        memcpy(before, e.text, sizeof before);
        if (c->text[0] == '@') {
            snprintf(path, sizeof path, "%s/%s", dir, c->text + 1);
            if (c->file)
                tu_write(dir, c->text + 1, c->file);
        }
        gp_err err = {{0}};
        assert_int_equal(cmp_energy_set(&e, c->item, c->text[0] == '@' ? path : c->text, &err),
                         -1);
        tu_assert_contains(err.msg, c->msg);
        assert_memory_equal(e.text, before, sizeof before);
        energy_cost ec;
        cmp_energy_of_run(&e, r, &s, 0, &ec);
        assert_double_equal(ec.usd, 0.7875, 1e-12);        /* still the series */
        assert_double_equal(ec.co2e_kg, 2.75 * 400 * 1.5 / 1000, 1e-12);
        cmp_energy_free(&e);
    }
    run_free(r);
    tu_rmrf(dir);
    free(dir);
}

/* The TCO over a year, worked in docs/site-and-cost.md: each of the two
 * hours comes 4380 times, 4380 x 0.7875 = 3449.25 USD of energy; the
 * 2000 W peak at PUE 1.5 provisions 3 kW, at 10 USD/kW-month 360 USD; with
 * 1000 USD of GPUs the TCO is 4809.25 USD. */
static void test_tco(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "price.csv", "hour,usd_per_kwh\n0,0.10\n1,0.30\n");
    run_summary s;
    run *r = hand_run(&s);
    cmp_energy e;
    cmp_energy_init(&e);
    set_ok(&e, CMP_ENERGY_YEARS, "1", dir);
    assert_false(cmp_energy_has_tco(&e));          /* no price, no TCO */
    set_ok(&e, CMP_ENERGY_PRICE, "@price.csv", dir);
    set_ok(&e, CMP_ENERGY_PUE, "1.5", dir);
    set_ok(&e, CMP_ENERGY_KW_MONTH, "10", dir);
    assert_true(cmp_energy_has_tco(&e));
    energy_cost ec;
    cmp_energy_of_run(&e, r, &s, 1000, &ec);
    assert_double_equal(ec.years_usd, 3449.25, 1e-6);
    assert_double_equal(ec.facility_usd, 360, 1e-9);
    assert_double_equal(ec.tco_usd, 4809.25, 1e-6);
    gp_err err = {{0}};
    assert_int_equal(cmp_energy_set(&e, CMP_ENERGY_YEARS, "51", &err), -1);   /* as --years */
    tu_assert_contains(err.msg, "years in [0, 50]");
    assert_string_equal(e.text[CMP_ENERGY_YEARS], "1");
    set_ok(&e, CMP_ENERGY_YEARS, "", dir);
    assert_false(cmp_energy_has_tco(&e));
    assert_double_equal(e.cost.pr.years, 0, 0);
    cmp_energy_free(&e);
    run_free(r);
    tu_rmrf(dir);
    free(dir);
}

/* A number typed over a series, and none, take its place. */
static void test_replace_and_clear(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "price.csv", "hour,usd_per_kwh\n0,0.10\n1,0.30\n");
    cmp_energy e;
    cmp_energy_init(&e);
    set_ok(&e, CMP_ENERGY_PRICE, "@price.csv", dir);
    char d[CMP_ENERGY_TEXT_MAX + 32];
    cmp_energy_describe_item(&e, CMP_ENERGY_PRICE, d, sizeof d);
    assert_string_equal(d, "USD/kWh series price.csv");
    set_ok(&e, CMP_ENERGY_PRICE, "0.2 ", dir);     /* a completed path's space */
    assert_null(e.cost.price);
    assert_null(e.cost.pr.usd_per_kwh.series);
    cmp_energy_describe_item(&e, CMP_ENERGY_PRICE, d, sizeof d);
    assert_string_equal(d, "0.2 USD/kWh");
    set_ok(&e, CMP_ENERGY_PUE, "1.3", dir);
    cmp_energy_describe_item(&e, CMP_ENERGY_PUE, d, sizeof d);
    assert_string_equal(d, "PUE 1.3");
    set_ok(&e, CMP_ENERGY_PRICE, "none", dir);
    set_ok(&e, CMP_ENERGY_PUE, "", dir);
    assert_int_equal(cmp_energy_priced(&e), 0);
    assert_double_equal(e.cost.pr.pue.constant, 1, 0);
    cmp_energy_describe_item(&e, CMP_ENERGY_PRICE, d, sizeof d);
    assert_string_equal(d, "not set");
    cmp_energy_free(&e);
    tu_rmrf(dir);
    free(dir);
}

/* The settings file keeps the setting as typed, and only when set. */
static void test_settings_keys(void **state)
{
    (void)state;
    ui_settings s;
    memset(&s, 0, sizeof s);
    gp_err err = {{0}};
    assert_int_equal(settings_parse("energy_price = sample-data/price_usd_per_kwh.csv\n"
                                    "energy_pue = 1.3\nenergy_years = 3\n", &s, &err), 0);
    assert_string_equal(s.energy[CMP_ENERGY_YEARS], "3");
    assert_string_equal(s.energy[CMP_ENERGY_PRICE], "sample-data/price_usd_per_kwh.csv");
    assert_string_equal(s.energy[CMP_ENERGY_CARBON], "");
    assert_string_equal(s.energy[CMP_ENERGY_PUE], "1.3");
    char *text = settings_format(&s);
    tu_assert_contains(text, "energy_price = sample-data/price_usd_per_kwh.csv\n");
    assert_null(strstr(text, "energy_carbon"));
    ui_settings back;
    memset(&back, 0, sizeof back);
    assert_int_equal(settings_parse(text, &back, &err), 0);
    assert_true(settings_equal(&s, &back));
    back.energy[CMP_ENERGY_PUE][0] = '\0';
    assert_false(settings_equal(&s, &back));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priced_as_run),
        cmocka_unit_test(test_refused_changes_nothing),
        cmocka_unit_test(test_tco),
        cmocka_unit_test(test_replace_and_clear),
        cmocka_unit_test(test_settings_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
