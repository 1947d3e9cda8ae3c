/*
 * test_site_envelope.c — the power layer's facility envelope
 * (power/site_envelope.h), worked by hand (docs/site-and-cost.md):
 *
 * A 2 MW site at PUE 1.3 has 2000 / 1.3 = 1538.46 kW for IT.  A server
 * of eight H100 (700 W each) and a 2000 W host peaks at 7600 W: the site
 * alone holds floor(1538461.5 / 7600) = 202 full servers, and the 3261.5 W
 * left over a last one of floor((3261.5 - 2000) / 700) = 1 GPU: 1617.
 * (A 5 kW site at PUE 1.5: 3333 W, a host and one GPU.)  With
 * 40 kW racks of 8 slots a rack holds floor(40000 / 7600) = 5 servers
 * (3 slots stranded) and the site feeds floor(1538461.5 / 40000) = 38
 * racks: 190 servers, 1520 GPUs: the racks bind.  With 80 kW racks, 8
 * servers a rack and 19 racks hold 152 servers; with 60 kW racks of 8
 * slots, 7 a rack in 25 racks = 175.  Without a rack budget, or with one
 * that strands nothing, the site binds.
 *
 * Two models (a grid's mixed clusters): H100 (700 W) and A100-40GB
 * (400 W), eight a server, a 2000 W host, a 200 kW site at PUE 1.25:
 * 160 kW for IT.  An A100 server peaks at 8 x 400 + 2000 = 5200 W.
 *   n1 = 0:   floor(160000 / 5200) = 30 servers (156000 W), the 4000 W
 *             left hold a host and floor(2000 / 400) = 5: 245 A100.
 *   n1 = 16:  2 H100 servers, 16 x 700 + 2 x 2000 = 15200 W; 144800 W
 *             left: 27 A100 servers (140400 W), 4400 - 2000 = 2400 W:
 *             6 more, 222.
 *   n1 = 100: 13 H100 servers (the last of 4), 70000 + 26000 = 96000 W;
 *             64000 W left: 12 A100 servers (62400 W), 1600 W: no host,
 *             96.
 *   n1 = 168: 21 servers, 159600 W; 400 W left: 0.
 *   n1 = 169: 22 servers, 162300 W: over the site by itself.
 * With 40 kW racks of 8 slots the site feeds floor(160000 / 40000) = 4
 * racks; a rack holds floor(40000 / 7600) = 5 H100 servers or
 * floor(40000 / 5200) = 7 A100 servers (56 GPUs).
 *   n1 = 0:   4 racks x 56 = 224 < 245: the racks bind.
 *   n1 = 16:  2 servers take 1 rack, 3 x 56 = 168 < 222: racks.
 *   n1 = 100: 13 servers take 3 racks, 56 < 96: racks.
 *   n1 = 168: 21 servers need 5 racks of 4: over the racks.
 */
#include "testutil.h"

#include "power/site_envelope.h"

typedef struct env_case {
    const char *what;
    site_envelope e;
    int per_server;
    double gpu_max_w;
    int site_servers, racks, per_rack, servers, gpus;
    site_limit limit;
} env_case;

static void test_capacity(void **state)
{
    (void)state;
    static const env_case cases[] = {
        {"site alone", {2000, 1.3, 0, 0, 2000}, 8, 700, 202, 0, 0, 203, 1617, SITE_LIMIT_SITE},
        {"40 kW racks", {2000, 1.3, 40, 8, 2000}, 8, 700, 202, 38, 5, 190, 1520,
         SITE_LIMIT_RACK},
        {"60 kW racks", {2000, 1.3, 60, 8, 2000}, 8, 700, 202, 25, 7, 175, 1400,
         SITE_LIMIT_RACK},
        {"80 kW racks, slots bind", {2000, 1.3, 80, 8, 2000}, 8, 700, 202, 19, 8, 152, 1216,
         SITE_LIMIT_RACK},
        /* 7600 W x 5 = 38 kW racks strand nothing: 40 racks of 5 = 200 < 202 */
        {"38 kW racks", {2000, 1.3, 38, 5, 2000}, 8, 700, 202, 40, 5, 200, 1600,
         SITE_LIMIT_RACK},
        /* PUE 1: a 76 kW site holds exactly ten servers (a whole number) */
        {"exact fit", {76, 1, 0, 0, 2000}, 8, 700, 10, 0, 0, 10, 80, SITE_LIMIT_SITE},
        {"one GPU", {5, 1.5, 0, 0, 2000}, 8, 700, 0, 0, 0, 1, 1, SITE_LIMIT_SITE},
        {"not even a host", {2, 1.5, 0, 0, 2000}, 8, 700, 0, 0, 0, 0, 0, SITE_LIMIT_SITE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const env_case *c = &cases[i];
        print_message("case %s\n", c->what);
        site_capacity cap;
        assert_true(site_has_budget(&c->e));
        site_capacity_of(&c->e, c->per_server, c->gpu_max_w, &cap);
        assert_float_equal(cap.server_peak_w, 7600, 1e-9);
        assert_int_equal(cap.site_servers, c->site_servers);
        assert_int_equal(cap.racks, c->racks);
        assert_int_equal(cap.per_rack, c->per_rack);
        assert_int_equal(cap.servers, c->servers);
        assert_int_equal(cap.gpus, c->gpus);
        assert_int_equal(cap.limit, c->limit);
    }
}

typedef struct mix_case {
    double rack_kw;
    int n1;
    int n2, site_n2, rack_n2;
    site_limit limit;
} mix_case;

static void test_capacity_mix(void **state)
{
    (void)state;
    static const mix_case cases[] = {
        {0, 0, 245, 245, -1, SITE_LIMIT_SITE},
        {0, 16, 222, 222, -1, SITE_LIMIT_SITE},
        {0, 100, 96, 96, -1, SITE_LIMIT_SITE},
        {0, 168, 0, 0, -1, SITE_LIMIT_SITE},
        {0, 169, -1, -1, -1, SITE_LIMIT_SITE},
        {40, 0, 224, 245, 224, SITE_LIMIT_RACK},
        {40, 16, 168, 222, 168, SITE_LIMIT_RACK},
        {40, 100, 56, 96, 56, SITE_LIMIT_RACK},
        {40, 168, -1, 0, -1, SITE_LIMIT_RACK},
        {40, 169, -1, -1, -1, SITE_LIMIT_SITE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const mix_case *c = &cases[i];
        site_envelope e = {200, 1.25, c->rack_kw, c->rack_kw > 0 ? 8 : 0, 2000};
        site_mix m;
        print_message("case racks %g kW, n1 %d\n", c->rack_kw, c->n1);
        site_capacity_mix(&e, 8, 700, c->n1, 400, &m);
        assert_int_equal(m.site_n2, c->site_n2);
        assert_int_equal(m.rack_n2, c->rack_n2);
        assert_int_equal(m.n2, c->n2);
        assert_int_equal(m.limit, c->limit);
    }
    /* The line ends where the first model alone fills the site: 168
     * H100, as the one-model capacity counts them. */
    site_envelope e = {200, 1.25, 0, 0, 2000};
    site_capacity cap;
    site_capacity_of(&e, 8, 700, &cap);
    assert_int_equal(cap.gpus, 168);
}

static void test_facility_w(void **state)
{
    (void)state;
    site_envelope e = {0, 1.25, 0, 0, 0};
    assert_float_equal(site_facility_w(&e, 8000), 10000, 1e-9);
    assert_false(site_has_budget(&e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_capacity_mix),
        cmocka_unit_test(test_facility_w),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
