/*
 * test_plot.c — charts people take away (src/io/plot.c and its builders):
 * an SVG and a PNG written for a run, an inflation sweep and a planner
 * sweep, each checked for size and content (the SVG well-formed and
 * naming the chart and its series; the PNG's signature, its IHDR
 * dimensions, and pixels drawn in the series' colour, read back with
 * cairo); the format taken from the name or --format; the planner's
 * one-line answer and command line; a heatmap (the Cluster screen's);
 * and the dashboard's CSV export of a table (ui/export.c).
 */
#include "testutil.h"

#include <cairo.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "io/plot.h"
#include "io/plot_run.h"
#include "plan/plan_chart.h"
#include "plan/plan_cost.h"
#include "samples/seed.h"
#include "ui/export.h"
#include "ui/export_int.h"

/* --- checking written files --------------------------------------------------- */

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Well-formed enough for a browser: every element closed in order
 * (declarations, comments and self-closing tags aside), one root. */
static void assert_xml_balanced(const char *s)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
        const char *end = strchr(p, '>');
        assert_non_null(end);
        if (p[1] == '?' || p[1] == '!')
            continue;
        int closing = p[1] == '/', selfclose = end[-1] == '/';
        const char *name = p + 1 + closing;
        size_t n = strcspn(name, " \t\n/>");
        assert_true(n > 0 && n < 32);
        if (closing) {
            assert_true(depth > 0);
            depth--;
            if (strncmp(stack[depth], name, n) != 0 || stack[depth][n] != '\0')
                fail_msg("</%.*s> closes <%s>", (int)n, name, stack[depth]);
        } else if (!selfclose) {
            assert_true(depth < 64);
            if (depth == 0)
                roots++;
            snprintf(stack[depth++], sizeof stack[0], "%.*s", (int)n, name);
        } else if (depth == 0) {
            roots++;
        }
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
}

/* An SVG of w x h naming every text in words[]. */
static void assert_svg(const char *path, int w, int h, const char *const *words, size_t nwords)
{
    gp_err err = {{0}};
    size_t len;
    char *svg = read_file(path, &len, &err);
    if (!svg)
        fail_msg("%s", err.msg);
    assert_true(len > 4000);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
    char dims[64];
    snprintf(dims, sizeof dims, "width=\"%dpt\" height=\"%dpt\"", w, h);
    tu_assert_contains(svg, dims);
    tu_assert_contains(svg, "<title>");
    tu_assert_contains(svg, "<path");
    for (size_t i = 0; i < nwords; i++)
        tu_assert_contains(svg, words[i]);
    assert_xml_balanced(svg);
    free(svg);
}

static uint32_t be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* A PNG of w x h that is not blank: some share of its pixels not white,
 * and some in colour rgb (the first series' 0x0072b2) when given. */
static void assert_png(const char *path, int w, int h, uint32_t rgb)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char head[24];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_memory_equal(head, sig, 8);
    assert_memory_equal(head + 12, "IHDR", 4);
    assert_int_equal(be32(head + 16), (uint32_t)w);
    assert_int_equal(be32(head + 20), (uint32_t)h);
    assert_true(file_size(path) > 5000);

    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(img), w);
    const unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    long inked = 0, coloured = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(data + (size_t)y * stride + 4 * x);
            inked += (px & 0xffffff) != 0xffffff;
            coloured += (px & 0xffffff) == rgb;
        }
    cairo_surface_destroy(img);
    assert_true(inked > (long)w * h / 100);
    if (rgb)
        assert_true(coloured > 100);
}

/* Writes c as path.svg and path.png in dir and checks both. */
static void write_both(const plot_chart *c, const char *dir, const char *name,
                       const char *const *words, size_t nwords)
{
    gp_err err = {{0}};
    char *svg = xasprintf("%s/%s.svg", dir, name), *png = xasprintf("%s/%s.png", dir, name);
    if (plot_write(c, svg, PLOT_SVG, PLOT_WIDTH, PLOT_HEIGHT, &err) ||
        plot_write(c, png, PLOT_PNG, 800, 400, &err))
        fail_msg("%s", err.msg);
    assert_svg(svg, PLOT_WIDTH, PLOT_HEIGHT, words, nwords);
    assert_png(png, 800, 400, 0x0072b2);
    free(svg);
    free(png);
}

/* --- a run and a sweep ------------------------------------------------------------ */

/* A run of policy pol: active GPUs 0..4 up and down over two hours. */
static run *sample_run(const char *pol, int64_t id, double scale)
{
    run *r = run_new(pol);
    r->id = id;
    snprintf(r->trace_name, sizeof r->trace_name, "tr");
    snprintf(r->cluster_name, sizeof r->cluster_name, "cl");
    snprintf(r->power_model, sizeof r->power_model, "cats");
    for (int k = 0; k <= 120; k++) {
        run_point p = {0};
        p.t_s = 60.0 * k;
        p.active_gpus = scale * (k % 40 < 20 ? k % 20 : 20 - k % 20) / 5;
        p.power_w = 100 + 50 * p.active_gpus;
        run_add_point(r, &p);
    }
    return r;
}

static void test_run_chart_files(void **state)
{
    (void)state;
    run *a = sample_run("cats", 7, 1), *b = sample_run("hotcloud", 8, 0.5);
    const run *runs[] = {a, b};
    plot_chart *c = plot_runs_chart(runs, 2, PLOT_M_GPUS);
    assert_int_equal(c->nseries, 2);
    assert_int_equal(plot_npoints(c), 242);
    tu_assert_contains(c->title, "active GPUs: tr on cl");
    assert_string_equal(c->x.unit, "s");
    char *dir = tu_tmpdir();
    static const char *const words[] = {"active GPUs: tr on cl", "cats (run 7)",
                                        "hotcloud (run 8)"};
    write_both(c, dir, "run", words, 3);
    plot_free(c);
    /* one run: the note says what was run */
    c = plot_runs_chart(runs, 1, PLOT_M_POWER);
    tu_assert_contains(c->note, "cats, seed 0, power model cats");
    assert_string_equal(c->y.unit, "W");
    plot_free(c);
    tu_rmrf(dir);
    free(dir);
    run_free(a);
    run_free(b);
}

/* An inflation run: allocation rising to pct_max % of the capacity. */
static run *infl_run(const char *pol, uint64_t seed, double alloc_at_50)
{
    run *r = run_new(pol);
    snprintf(r->trace_name, sizeof r->trace_name, "openb");
    snprintf(r->cluster_name, sizeof r->cluster_name, "openb");
    r->options = xstrdup("inflation=1.3 order=seeded ranks=seeded");
    r->seed = seed;
    for (int p = 0; p <= 100; p++) {
        run_point pt = {0};
        pt.t_s = p;
        pt.alloc_ratio = alloc_at_50 * p / 50 / 100;
        pt.frag = 0.1;
        run_add_point(r, &pt);
    }
    return r;
}

static void test_sweep_chart_files(void **state)
{
    (void)state;
    run *r[3] = {infl_run("fgd", 1, 40), infl_run("fgd", 2, 44), infl_run("bestfit", 1, 30)};
    assert_true(plot_run_is_inflation(r[0]));
    plot_chart *c = plot_sweep_chart((const run *const *)r, 3, PLOT_M_ALLOC);
    assert_int_equal(c->nseries, 2);
    assert_string_equal(c->series[0].name, "fgd");
    assert_string_equal(c->series[1].name, "bestfit");
    /* the mean of the two seeds at 50 % arrived */
    assert_double_equal(c->series[0].x[50], 50, 0);
    assert_double_equal(c->series[0].y[50], 42, 1e-9);
    assert_double_equal(c->series[1].y[50], 30, 1e-9);
    tu_assert_contains(c->note, "mean of 2 seeds");
    assert_string_equal(c->x.unit, "% of capacity");
    char *dir = tu_tmpdir();
    static const char *const words[] = {"allocated GPUs: openb on openb", "fgd", "bestfit"};
    write_both(c, dir, "sweep", words, 3);
    plot_free(c);
    /* frag reads the ratio in percent */
    c = plot_sweep_chart((const run *const *)r, 3, PLOT_M_FRAG);
    assert_double_equal(c->series[0].y[10], 10, 1e-9);
    plot_free(c);
    tu_rmrf(dir);
    free(dir);
    for (int i = 0; i < 3; i++)
        run_free(r[i]);
}

/* --- a run's money and carbon ------------------------------------------------------ */

/* test_energy_cost.c's run: 1000 W from 0 s, 2000 W from 1800 s, 500 W
 * from 5400 s to 7200 s; hour 0 draws 1.5 kWh, hour 1 1.25 kWh. */
static run *money_run(void)
{
    static const double t[] = {0, 1800, 5400, 7200}, w[] = {1000, 2000, 500, 500};
    run *r = run_new("first");
    r->id = 7;
    snprintf(r->trace_name, sizeof r->trace_name, "tr");
    snprintf(r->cluster_name, sizeof r->cluster_name, "cl");
    for (int k = 0; k < 4; k++) {
        run_point p = {0};
        p.t_s = t[k];
        p.power_w = w[k];
        run_add_point(r, &p);
    }
    return r;
}

typedef struct money_case {
    const char *what;
    plot_money money;
    double price[2];            /* price[1] < 0: a flat price[0] */
    double carbon[2];
    double y[3];                /* the running total at 0, 3600 and 7200 s */
} money_case;

/* The running total by hour at PUE 1.5, worked by hand: its last point is
 * what `run` prints as energy_usd (0.4125, 0.7875) and co2e_kg (1.275). */
static void test_run_money_chart(void **state)
{
    (void)state;
    static const money_case cases[] = {
        {"flat 0.10 USD/kWh", PLOT_MONEY_USD, {0.10, -1}, {0, 0},
         {0, 1.5 * 1.5 * 0.10, 2.75 * 1.5 * 0.10}},
        {"hourly 0.10, 0.30 USD/kWh", PLOT_MONEY_USD, {0.10, 0.30}, {0, 0},
         {0, 1.5 * 1.5 * 0.10, (1.5 * 0.10 + 1.25 * 0.30) * 1.5}},
        {"hourly 400, 200 g/kWh", PLOT_MONEY_CO2E, {0, -1}, {400, 200},
         {0, 1.5 * 1.5 * 0.4, (1.5 * 0.4 + 1.25 * 0.2) * 1.5}},
    };
    run *r = money_run();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const money_case *c = &cases[i];
        double pv[2] = {c->price[0], c->price[1]}, cv[2] = {c->carbon[0], c->carbon[1]};
        hourly price_s = {pv, 2}, carbon_s = {cv, 2};
        energy_prices pr = {{c->price[0], c->price[1] < 0 ? NULL : &price_s},
                            {0, &carbon_s}, {1.5, NULL}, 0, 0};
        plot_chart *ch = plot_runs_money_chart((const run *const *)&r, 1, c->money, &pr);
        print_message("case %s\n", c->what);
        assert_int_equal(ch->nseries, 1);
        assert_string_equal(ch->series[0].name, "first (run 7)");
        assert_int_equal(ch->series[0].n, 3);
        for (int k = 0; k < 3; k++) {
            assert_float_equal(ch->series[0].x[k], 3600.0 * k, 1e-9);
            assert_float_equal(ch->series[0].y[k], c->y[k], 1e-9);
        }
        assert_string_equal(ch->y.unit, c->money == PLOT_MONEY_USD ? "USD" : "kg CO2e");
        plot_free(ch);
    }
    run_free(r);
}

/* --- a plan ----------------------------------------------------------------------- */

static void run_plan(store *st, plan *pl, const char *policies)
{
    plan_params p;
    plan_params_default(&p);
    snprintf(p.trace, sizeof p.trace, "corrgpu-example");
    snprintf(p.gpu, sizeof p.gpu, "A100-40GB");
    p.lo = 1;
    p.hi = 4;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", policies);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        snprintf(p.policies[p.npolicies++], GP_NAME_MAX, "%s", t);
    memset(pl, 0, sizeof *pl);
    gp_err err = {{0}};
    if (plan_start(pl, st, &p, &err))
        fail_msg("%s", err.msg);
    while (plan_tick(pl, 1))
        ;
    assert_int_equal(pl->state, PLAN_DONE);
}

static void test_plan_chart_files(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan pl;
    run_plan(st, &pl, "corrgpu,first");
    char answer[160];
    plan_answer(&pl, &pl.p, 1, answer, sizeof answer);
    assert_string_equal(answer, "CorrGPU: 1 × A100-40GB, 2,500 USD");
    plan_answer(&pl, &pl.p, 0, answer, sizeof answer);
    assert_string_equal(answer, "CorrGPU: 1 x A100-40GB, 2,500 USD");

    plot_chart *c = plan_chart(&pl, PM_SLA, &pl.p);
    assert_int_equal(c->nseries, 2);
    assert_int_equal(plot_npoints(c), 8);
    assert_int_equal(c->nhlines, 1);                /* the SLA target */
    assert_double_equal(c->hlines[0].y, 0, 0);
    assert_int_equal(c->nmarkers, 2);               /* each policy's fewest GPUs */
    assert_string_equal(c->markers[0].label, "corrgpu: fewest 1");
    assert_true(c->x.integer);
    tu_assert_contains(c->note, "CorrGPU: 1 × A100-40GB, 2,500 USD");
    static const char *const words[] = {"SLA violations by GPU count: corrgpu-example on "
                                        "A100-40GB", "corrgpu", "first", "2,500 USD"};
    write_both(c, dir, "plan", words, 4);
    plot_free(c);

    /* The answer follows the live sliders: with every task's SLA at
     * kappa 1 CorrGPU's one GPU no longer meets it, First's two do. */
    plan_params strict = pl.p;
    strict.kappa = 1;
    plan_answer(&pl, &strict, 1, answer, sizeof answer);
    assert_string_equal(answer, "First: 2 × A100-40GB, 5,000 USD");
    plan_free(&pl);
    tu_store_free(st, dir);
}

/* plot plan --metric tco|co2e: each point's cost over the years (CapEx,
 * and its average draw x hours x the price, PUE 1.3 included) and its
 * tonnes CO2e, the axis naming the horizon. */
static void test_plan_money_chart(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_sample_store(&dir);
    plan pl;
    run_plan(st, &pl, "first");
    energy_prices pr = {{0.10, NULL}, {400, NULL}, {1.3, NULL}, 3, 0};
    plan_params live = pl.p;
    plan_params_priced(&pr, 0, &live);
    assert_float_equal(live.hours, 3 * 8760, 0);
    assert_float_equal(live.usd_per_kwh, 0.13, 1e-12);
    plot_chart *tco = plan_chart(&pl, PM_COST, &live);
    plot_chart *co2 = plan_chart(&pl, PM_CO2E, &live);
    assert_string_equal(tco->y.label, "TCO over 3 years");
    assert_string_equal(tco->y.unit, "USD");
    assert_string_equal(co2->y.label, "CO2e over 3 years");
    assert_string_equal(co2->y.unit, "t");
    assert_int_equal(tco->series[0].n, 4);
    for (size_t k = 0; k < tco->series[0].n; k++) {
        const plan_result *r = plan_result_at(&pl, (int)k, 0);
        double kwh = r->avg_w / 1000 * 3 * 8760;
        assert_float_equal(tco->series[0].y[k], 2500.0 * r->gpus + kwh * 0.13, 1e-6);
        assert_float_equal(co2->series[0].y[k], kwh * 1.3 * 400 / 1e6, 1e-9);
    }
    plot_free(tco);
    plot_free(co2);
    plan_free(&pl);
    tu_store_free(st, dir);
}

/* The prices as given (a series' path, not its mean), the years instead
 * of their hours, the facility cost and the envelope. */
static void test_plan_cli_options_cost(void **state)
{
    (void)state;
    plan_params p;
    plan_params_default(&p);
    snprintf(p.trace, sizeof p.trace, "pai-like");
    snprintf(p.gpu, sizeof p.gpu, "V100");
    energy_prices pr = {{0.125, NULL}, {0, NULL}, {1.3, NULL}, 3, 150};
    plan_params_priced(&pr, 0, &p);
    snprintf(p.cost_src[0], PLAN_SRC_MAX, "sample-data/price_usd_per_kwh.csv");
    snprintf(p.cost_src[2], PLAN_SRC_MAX, "1.3");
    p.site.site_kw = 40;
    p.site.host_w = 500;
    strbuf b = STRBUF_INIT;
    plan_cli_options(&p, &b);
    assert_string_equal(strbuf_str(&b), "--trace pai-like --gpu V100 --from 1 --to 8 --step 1 "
                        "--usd-per-kwh sample-data/price_usd_per_kwh.csv --pue 1.3 --years 3 "
                        "--usd-per-kw-month 150 --site-kw 40 --host-w 500");
    strbuf_free(&b);
}

static void test_plan_cli_options(void **state)
{
    (void)state;
    plan_params p;
    plan_params_default(&p);
    snprintf(p.trace, sizeof p.trace, "pai-like");
    snprintf(p.gpu, sizeof p.gpu, "V100");
    p.lo = 8, p.hi = 64, p.step = 8;
    p.sla_target_pct = 5;
    p.kappa = 1.5;
    snprintf(p.policies[p.npolicies++], GP_NAME_MAX, "cats");
    snprintf(p.policies[p.npolicies++], GP_NAME_MAX, "corrgpu:0.2");
    strbuf b = STRBUF_INIT;
    plan_cli_options(&p, &b);
    assert_string_equal(strbuf_str(&b), "--trace pai-like --gpu V100 --from 8 --to 64 "
                        "--step 8 --kappa 1.5 --sla-target 5 --policy cats,corrgpu:0.2");
    strbuf_free(&b);
    assert_string_equal(plan_metric_word(PM_COST), "cost");
    assert_string_equal(plan_metric_word(PM_CO2E), "co2e");
}

/* From a snapshot: --from-snapshot first, the trace only when one arrives,
 * the what-if's options when set. */
static void test_plan_cli_options_snapshot(void **state)
{
    (void)state;
    plan_params p;
    plan_params_default(&p);
    snprintf(p.snapshot, sizeof p.snapshot, "lab");
    snprintf(p.gpu, sizeof p.gpu, "H100");
    p.lo = 0, p.hi = 4;
    strbuf b = STRBUF_INIT;
    plan_cli_options(&p, &b);
    assert_string_equal(strbuf_str(&b), "--from-snapshot lab --gpu H100 --from 0 --to 4 --step 1");
    strbuf_free(&b);
    snprintf(p.trace, sizeof p.trace, "lab-pending");
    p.whatif.remaining_s = 600;
    p.whatif.more = 8;
    p.whatif.more_gap_s = 30;
    plan_cli_options(&p, &b);
    assert_string_equal(strbuf_str(&b), "--from-snapshot lab --trace lab-pending --gpu H100 "
                        "--from 0 --to 4 --step 1 --remaining 600 --more 8 --more-gap 30");
    strbuf_free(&b);
}

/* --- formats and errors ------------------------------------------------------------ */

static void test_format_of(void **state)
{
    (void)state;
    static const struct { const char *path, *fmt; int rc; plot_format want; } cases[] = {
        {"a.svg", NULL, 0, PLOT_SVG},       {"dir/b.PNG", NULL, 0, PLOT_PNG},
        {"c.png", "svg", 0, PLOT_SVG},      {"noext", "png", 0, PLOT_PNG},
        {"d.pdf", NULL, -1, PLOT_SVG},      {"e.svg", "jpeg", -1, PLOT_SVG},
        {"x.d/noext", NULL, -1, PLOT_SVG},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        plot_format f = PLOT_SVG;
        gp_err err = {{0}};
        assert_int_equal(plot_format_of(cases[i].path, cases[i].fmt, &f, &err), cases[i].rc);
        if (cases[i].rc == 0)
            assert_int_equal(f, cases[i].want);
        else
            assert_true(err.msg[0] != '\0');
    }
    assert_int_equal(plot_metric_parse("jct"), PLOT_M_JCT);
    assert_int_equal(plot_metric_parse("nope"), -1);
}

static void test_write_errors(void **state)
{
    (void)state;
    plot_chart *c = plot_new("empty");
    gp_err err = {{0}};
    assert_int_equal(plot_write(c, "/nonexistent-dir/x.svg", PLOT_SVG, 400, 300, &err), -1);
    tu_assert_contains(err.msg, "/nonexistent-dir/x.svg");
    assert_int_equal(plot_write(c, "/nonexistent-dir/x.png", PLOT_PNG, 400, 300, &err), -1);
    tu_assert_contains(err.msg, "/nonexistent-dir/x.png");
    assert_int_equal(plot_write(c, "x.png", PLOT_PNG, 10, 10, &err), -1);
    tu_assert_contains(err.msg, "200x150");
    plot_free(c);
}

/* A time axis over two days reads in hours. */
static void test_time_axis_unit(void **state)
{
    (void)state;
    plot_chart *c = plot_new("t");
    plot_axes(c, "simulated time", "s", "active GPUs", "GPUs");
    int s = plot_series_add(c, "a");
    plot_point(c, s, 0, 1);
    plot_point(c, s, 36 * 3600, 2);
    char *dir = tu_tmpdir(), *path = xasprintf("%s/t.svg", dir);
    gp_err err = {{0}};
    assert_int_equal(plot_write(c, path, PLOT_SVG, 600, 300, &err), 0);
    assert_true(file_size(path) > 1000);
    plot_free(c);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* A heatmap of 40 servers of up to 8 GPUs, every level used. */
static void test_heatmap_files(void **state)
{
    (void)state;
    plot_chart *c = plot_new("GPU allocation by server: test");
    plot_axes(c, "GPU on the server", "", "server", "");
    plot_heat *h = plot_heat_new(c, 40, 8);
    static const char *const names[PLOT_HEAT_LEVELS] = {"asleep", "0", "up to 1/3",
                                                        "up to 2/3", "full", "over"};
    for (int i = 0; i < PLOT_HEAT_LEVELS; i++)
        snprintf(h->level_name[i], sizeof h->level_name[i], "%s", names[i]);
    for (int r = 0; r < 40; r++) {
        snprintf(h->row_name[r], sizeof h->row_name[r], "node-%02d", r);
        for (int k = 0; k < (r % 4 == 3 ? 4 : 8); k++)    /* every 4th has 4 GPUs */
            h->cell[r * 8 + k] = (signed char)((r + k) % 6 - 1);
    }
    assert_int_equal(h->cell[3 * 8 + 5], PLOT_HEAT_NOCELL);
    assert_int_equal(plot_npoints(c), 320);
    char *dir = tu_tmpdir(), *svg = xasprintf("%s/h.svg", dir), *png = xasprintf("%s/h.png", dir);
    gp_err err = {{0}};
    assert_int_equal(plot_write(c, svg, PLOT_SVG, PLOT_WIDTH, PLOT_HEIGHT, &err), 0);
    assert_int_equal(plot_write(c, png, PLOT_PNG, PLOT_WIDTH, PLOT_HEIGHT, &err), 0);
    static const char *const words[] = {"GPU allocation by server: test",
                                        "levels: asleep; 0; up to 1/3; up to 2/3; full; over"};
    assert_svg(svg, PLOT_WIDTH, PLOT_HEIGHT, words, 2);
    assert_png(png, PLOT_WIDTH, PLOT_HEIGHT, 0x2171b5);    /* level 3, "full" */
    plot_free(c);
    free(svg);
    free(png);
    tu_rmrf(dir);
    free(dir);
}

/* --- the dashboard's CSV ----------------------------------------------------------- */

static void test_export_csv(void **state)
{
    (void)state;
    export_view v;
    export_view_init(&v, "planner");
    table *t = export_add_table(&v, "results");
    table_col(t, "gpus", 1);
    table_col(t, "policy", 0);
    table_col(t, "note", 0);
    table_row(t);
    table_cell(t, "%d", 4);
    table_cell(t, "%s", "corrgpu");
    table_cell(t, "%s", "a, \"quoted\" note");
    char *dir = tu_tmpdir();
    char *sub = xasprintf("%s/new/dir", dir);
    strbuf written = STRBUF_INIT;
    gp_err err = {{0}};
    assert_int_equal(export_view_write(&v, sub, &written, &err), 0);
    assert_string_equal(strbuf_str(&written), "results.csv");
    char *path = xasprintf("%s/gpuplan-planner-results.csv", sub);
    size_t len;
    char *csv = read_file(path, &len, &err);
    assert_non_null(csv);
    assert_string_equal(csv, "gpus,policy,note\n4,corrgpu,\"a, \"\"quoted\"\" note\"\n");
    free(csv);
    free(path);
    strbuf_free(&written);
    export_view_free(&v);
    free(sub);
    tu_rmrf(dir);
    free(dir);
}

/* The planner's "fewest" labels of policies whose answers are at one or
 * neighbouring counts do not overprint each other: each label moves a line
 * up (or below its point at the top edge); a lone label stays above its
 * point, centred. */
static void test_marker_labels_apart(void **state)
{
    (void)state;
    static const struct {
        int n;
        double px[4], py[4], w[4];
    } cases[] = {
        {2, {100, 100}, {200, 200}, {90, 90}},               /* one point */
        {3, {100, 110, 120}, {200, 200, 201}, {90, 90, 90}}, /* neighbouring counts */
        {2, {100, 105}, {30, 30}, {80, 80}},                 /* at the top edge */
        {4, {50, 60, 300, 310}, {150, 150, 150, 150}, {70, 70, 70, 70}},
    };
    const double h = 12, left = 40, right = 600, top = 20;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double tx[4], ty[4];
        plot_place_labels(cases[c].n, cases[c].px, cases[c].py, cases[c].w, h, left, right, top,
                          tx, ty);
        for (int i = 0; i < cases[c].n; i++) {
            assert_true(tx[i] >= left && tx[i] + cases[c].w[i] <= right);
            assert_true(ty[i] - h >= top);
            for (int j = 0; j < i; j++) {
                int apart = tx[i] >= tx[j] + cases[c].w[j] || tx[j] >= tx[i] + cases[c].w[i] ||
                            ty[i] - h >= ty[j] || ty[j] - h >= ty[i];
                if (!apart)
                    fail_msg("case %zu: labels %d and %d overlap (%g,%g) (%g,%g)", c, j, i,
                             tx[j], ty[j], tx[i], ty[i]);
            }
        }
    }
    /* A lone label: centred just above its point. */
    double px = 300, py = 200, w = 60, tx, ty;
    plot_place_labels(1, &px, &py, &w, h, left, right, top, &tx, &ty);
    assert_double_equal(tx, 270, 1e-9);
    assert_double_equal(ty, 188, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_chart_files),
        cmocka_unit_test(test_sweep_chart_files),
        cmocka_unit_test(test_run_money_chart),
        cmocka_unit_test(test_plan_chart_files),
        cmocka_unit_test(test_plan_money_chart),
        cmocka_unit_test(test_plan_cli_options),
        cmocka_unit_test(test_plan_cli_options_cost),
        cmocka_unit_test(test_plan_cli_options_snapshot),
        cmocka_unit_test(test_format_of),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_time_axis_unit),
        cmocka_unit_test(test_heatmap_files),
        cmocka_unit_test(test_export_csv),
        cmocka_unit_test(test_marker_labels_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
