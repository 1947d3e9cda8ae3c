/*
 * test_plan_site.c — the plan layer against a site's power envelope
 * (plan/plan_site.h) for a grid of two GPU models, worked by hand
 * (docs/site-and-cost.md, "Two models: the capacity line").
 *
 * cats-testbed on V100 (144.8 W) and A100-40GB (400 W), four a server, a
 * 100 W host, a 1.4 kW site at PUE 1.25: 1120 W for IT.  An A100 server
 * peaks at 4 x 400 + 100 = 1700 W, more than the site: the A100 beside n1
 * V100 are one partly filled server, floor((1120 - V100 peak - 100) / 400):
 *   n1 = 0: 1020 / 400 -> 2;  1: 144.8 + 100 = 244.8 W, 775.2 / 400 -> 1;
 *   2: 389.6 W -> 1;  3: 534.4 W -> 1;  4: 679.2 W, 340.8 / 400 -> 0;
 *   5: two servers, 724 + 200 = 924 W, 96 / 400 -> 0;  6: 1068.8 W -> 0.
 * At 1500 USD a V100 and 1000 an A100, First's cheapest point without
 * violations is 2 V100 + 3 A100 (6000 USD): over the site, which holds
 * one A100 beside two V100.  The cheapest that fits is 5 V100 (7500).
 */
#include "testutil.h"

#include "plan/plan_site.h"

static void run_grid(store *st, plan *pl)
{
    plan_params p;
    plan_params_default(&p);
    snprintf(p.trace, sizeof p.trace, "cats-testbed");
    snprintf(p.gpu, sizeof p.gpu, "V100");
    snprintf(p.gpu2, sizeof p.gpu2, "A100-40GB");
    p.lo = 0, p.hi = 6, p.lo2 = 0, p.hi2 = 3;
    p.per_server = 4;
    p.price = 1500, p.price2 = 1000;
    p.site = (site_envelope){1.4, 1.25, 0, 0, 100};
    snprintf(p.policies[p.npolicies++], GP_NAME_MAX, "first");
    p.jobs = 1;
    memset(pl, 0, sizeof *pl);
    gp_err err = {{0}};
    if (plan_start(pl, st, &p, &err))
        fail_msg("%s", err.msg);
    while (plan_tick(pl, 1))
        ;
    assert_int_equal(pl->state, PLAN_DONE);
}

/* The point of the grid at (n1, n2). */
static const plan_result *at(const plan *pl, int n1, int n2)
{
    for (int c = 0; c < pl->ncounts; c++)
        if (pl->counts[c] == n1 && pl->counts2[c] == n2)
            return plan_result_at(pl, c, 0);
    fail_msg("no point %d+%d", n1, n2);
    return NULL;
}

static void test_grid_capacity_line(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan pl;
    run_grid(st, &pl);
    static const int most[7] = {2, 1, 1, 1, 0, 0, 0};
    for (int n1 = 0; n1 <= 6; n1++) {
        site_mix m;
        plan_site_mix_at(&pl, &pl.p, n1, &m);
        assert_int_equal(m.n2, most[n1]);
        assert_int_equal(m.limit, SITE_LIMIT_SITE);
        for (int n2 = n1 ? 0 : 1; n2 <= 3; n2++)
            assert_int_equal(plan_fits_site(&pl, at(&pl, n1, n2), &pl.p), n2 <= most[n1]);
    }
    char line[512];
    plan_site_line(&pl, &pl.p, line, sizeof line);
    assert_string_equal(line, "most A100-40GB beside each count of V100: 0: 2 (site), "
                        "1: 1 (site), 2: 1 (site), 3: 1 (site), 4: 0 (site), 5: 0 (site), "
                        "6: 0 (site)");
    plan_site_answer(&pl, &pl.p, line, sizeof line);
    assert_string_equal(line, "binding (cheapest meeting SLA): first the site (2+3 needed; "
                        "within: 5+0)");
    /* At 2.5 kW (2000 W for IT) two V100 leave 1610.4 W: no whole A100
     * server (1700 W), a partly filled one of floor(1510.4 / 400) = 3:
     * 2+3 fits, and the SLA binds. */
    plan_params live = pl.p;
    live.site.site_kw = 2.5;
    plan_site_answer(&pl, &live, line, sizeof line);
    assert_string_equal(line, "binding (cheapest meeting SLA): first SLA (2+3 fit)");
    plan_free(&pl);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_capacity_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
