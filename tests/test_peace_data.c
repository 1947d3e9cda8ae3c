/*
 * test_peace_data.c — PEACE's inputs (peace/peace.h) on a two-workload set
 * written by hand, with every expected number worked out in the comments:
 * sensitivities (least squares over shares 10..90), the ground truth
 * between and beyond measured clocks, canonical order, the §3 features of
 * a pair, the splits, and each way peace_set_check() refuses a set.  Then
 * the store: a set and its models round-trip, deleting a set deletes its
 * models, and a version-1 database migrates.
 */
#include "testutil.h"
#include "db/store_int.h"

#include <sqlite3.h>

#include "peace/peace.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"

/* ---- the hand-written set ------------------------------------------------------------
 *
 * A_train (index 0): tput = 5 + 0.5 s at 300 MHz, 10 + 1.0 s at 1500 MHz
 *   (s the share in percent): straight lines, so the sensitivity is the
 *   slope, 0.5 and 1.0.
 * B_inf (index 1): tput = min(s, 40) at 300 MHz, min(2 s, 120) at 1500.
 *   Sensitivity at 300: Σ(x - 50) y / Σ(x - 50)^2 over x = 10..90 with
 *   y = 10, 20, 30, 40, 40, 40, 40, 40, 40: Σ(x - 50) y = -400 - 600 - 600
 *   - 400 + 0 + 400 + 800 + 1200 + 1600 = 2000, Σ(x - 50)^2 = 6000, so 1/3.
 *   At 1500: y = 20, 40, 60, 80, 100, 120, 120, 120, 120: Σ(x - 50) y =
 *   -800 - 1200 - 1200 - 800 + 0 + 1200 + 2400 + 3600 + 4800 = 8000, so 4/3.
 * Metrics at share s: A: SM active s, occupancy s/2, FP32 10, 100 GB/s,
 *   memory busy 20, PCIe 5 and 7 MB/s; B: SM active s/2, occupancy 30,
 *   FP32 0, 50 GB/s, memory busy 10, PCIe 1 and 2 MB/s.  Power 100 + s W.
 */

enum { A = 0, B = 1 };
static const double clocks[2] = {300, 1500};

static double tput_of(int w, int s, int fi)
{
    if (w == A)
        return fi == 0 ? 5 + 0.5 * s : 10 + 1.0 * s;
    return fi == 0 ? fmin(s, 40) : fmin(2 * s, 120);
}

static peace_profile profile_of(int w, int s, int fi)
{
    peace_profile p;
    memset(&p, 0, sizeof p);
    p.workload = w;
    p.share_pct = s;
    p.freq_mhz = clocks[fi];
    p.tput = tput_of(w, s, fi);
    p.power_w = 100 + s;
    const double a[PEACE_NMETRICS] = {s, s / 2.0, 10, 100, 20, 5, 7};
    const double b[PEACE_NMETRICS] = {s / 2.0, 30, 0, 50, 10, 1, 2};
    memcpy(p.metric, w == A ? a : b, sizeof p.metric);
    return p;
}

static peace_coloc coloc_of(int n, const int *w, const int *share, double f, const double *tput,
                            double power_w)
{
    peace_coloc c;
    memset(&c, 0, sizeof c);
    c.n = n;
    for (int k = 0; k < n; k++) {
        c.workload[k] = w[k];
        c.share_pct[k] = share[k];
        c.tput[k] = tput[k];
    }
    c.freq_mhz = f;
    c.power_w = power_w;
    return c;
}

/* The set: both workloads profiled at every share and both clocks; rows of
 * A+B 70+30 at 300 and 900 MHz (named once in each order), A+A 60+40 at
 * 300, A+B without partition at 300, and A+A+B 30+30+40 at 300. */
static peace_set *hand_set(void)
{
    peace_set *s = peace_set_new("hand");
    strcpy(s->gpu, "V100");
    s->cap_min_w = 40;
    s->cap_max_w = 300;
    peace_workload a = {"A_train", PEACE_TRAIN, 1, 0, 10};
    peace_workload b = {"B_inf", PEACE_INF, 0, 0, 4};
    assert_int_equal(peace_set_add_workload(s, &a), A);
    assert_int_equal(peace_set_add_workload(s, &b), B);
    for (int w = 0; w < 2; w++)
        for (int fi = 0; fi < 2; fi++)
            for (int sh = 10; sh <= 90; sh += 10) {
                peace_profile p = profile_of(w, sh, fi);
                peace_set_add_profile(s, &p);
            }
    const int ab[] = {A, B}, ba[] = {B, A}, aa[] = {A, A}, aab[] = {A, A, B};
    const int s7030[] = {70, 30}, s3070[] = {30, 70}, s6040[] = {60, 40}, np[] = {100, 100},
              s334[] = {30, 30, 40};
    const peace_coloc rows[] = {
        coloc_of(2, ab, s7030, 300, (double[]){30, 20}, 150),
        coloc_of(2, ba, s3070, 900, (double[]){40, 60}, 210),   /* B named first */
        coloc_of(2, aa, s6040, 300, (double[]){25, 15}, 140),
        coloc_of(2, ab, np, 300, (double[]){18, 12}, 160),
        coloc_of(3, aab, s334, 300, (double[]){10, 11, 12}, 170),
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        peace_set_add_coloc(s, &rows[i]);
    return s;
}

static peace_index *hand_index(peace_set **s)
{
    *s = hand_set();
    gp_err err = {{0}};
    peace_index *ix = peace_index_new(*s, &err);
    if (!ix)
        fail_msg("%s", err.msg);
    return ix;
}

static peace_combo combo2(int w0, int s0, int w1, int s1)
{
    peace_combo c = {2, {w0, w1, 0}, {s0, s1, 0}};
    return c;
}

/* ---- names, splits, canonical order --------------------------------------------------- */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(peace_metric_column(PEACE_SM_ACTIVE), "sm_active_pct");
    assert_string_equal(peace_metric_column(PEACE_PCIE_RX), "pcie_rx_mbps");
    assert_int_equal(peace_metric_is_rate(PEACE_MEM_BW), 1);
    assert_int_equal(peace_metric_is_rate(PEACE_MEM_BUSY), 0);
    assert_int_equal(peace_kind_parse("cuda"), PEACE_CUDA);
    assert_int_equal(peace_kind_parse("Train"), -1);
    assert_string_equal(peace_kind_name(PEACE_INF), "inf");
}

static void test_splits(void **state)
{
    (void)state;
    int sp[PEACE_MAX_SPLITS][PEACE_MAX_COLOC];
    assert_int_equal(peace_splits(2, sp, PEACE_MAX_SPLITS), 9);
    for (int i = 0; i < 9; i++) {
        assert_int_equal(sp[i][0], 10 * (i + 1));
        assert_int_equal(sp[i][1], 100 - 10 * (i + 1));
    }
    assert_int_equal(peace_splits(3, sp, PEACE_MAX_SPLITS), 36);
    assert_int_equal(sp[0][0], 10);
    assert_int_equal(sp[0][1], 10);
    assert_int_equal(sp[0][2], 80);
    assert_int_equal(sp[35][0], 80);
    assert_int_equal(sp[35][2], 10);
    for (int i = 0; i < 36; i++) {
        assert_int_equal(sp[i][0] + sp[i][1] + sp[i][2], 100);
        if (i > 0)      /* strictly increasing in lexicographic order */
            assert_true(sp[i][0] > sp[i - 1][0] ||
                        (sp[i][0] == sp[i - 1][0] && sp[i][1] > sp[i - 1][1]));
    }
    assert_int_equal(peace_splits(3, sp, 5), 5);
    assert_int_equal(peace_splits(1, sp, PEACE_MAX_SPLITS), 0);
}

static void test_split_valid(void **state)
{
    (void)state;
    int eq[PEACE_MAX_COLOC];
    peace_equal_split(2, eq);
    assert_true(eq[0] == 50 && eq[1] == 50);
    peace_equal_split(3, eq);
    assert_true(eq[0] == 34 && eq[1] == 33 && eq[2] == 33);
    static const struct {
        int n, share[PEACE_MAX_COLOC], valid;
    } cases[] = {
        {2, {70, 30, 0}, 1},   {2, {100, 100, 0}, 1}, {3, {34, 33, 33}, 1},
        {3, {33, 34, 33}, 1},  {3, {10, 10, 80}, 1},  {3, {100, 100, 100}, 1},
        {2, {70, 20, 0}, 0},   {2, {100, 50, 0}, 0},  {2, {35, 65, 0}, 0},
        {3, {34, 34, 32}, 0},  {2, {0, 100, 0}, 0},   {3, {33, 33, 33}, 0},
        {1, {100, 0, 0}, 0},   {2, {34, 66, 0}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (peace_split_valid(cases[i].n, cases[i].share) != cases[i].valid)
            fail_msg("case %zu: expected %d", i, cases[i].valid);
}

static void test_canonical_order(void **state)
{
    (void)state;
    peace_combo ab = combo2(A, 70, B, 30), ba = combo2(B, 30, A, 70);
    peace_combo_canon(&ab);
    peace_combo_canon(&ba);
    assert_memory_equal(&ab, &ba, sizeof ab);
    assert_int_equal(ba.w[0], A);
    assert_int_equal(ba.share[0], 70);
    peace_combo aa = combo2(A, 60, A, 40);
    peace_combo_canon(&aa);
    assert_int_equal(aa.share[0], 40);      /* same workload: by share */
    peace_combo np = combo2(B, 100, A, 100);
    assert_int_equal(peace_combo_unpartitioned(&np), 1);
    assert_int_equal(peace_combo_unpartitioned(&ab), 0);
}

/* ---- the index ------------------------------------------------------------------------ */

static void test_lookups_and_sensitivity(void **state)
{
    (void)state;
    peace_set *s;
    peace_index *ix = hand_index(&s);
    assert_ptr_equal(peace_index_set(ix), s);
    assert_int_equal(peace_nfreqs(ix), 2);
    assert_double_equal(peace_freq(ix, 1), 1500, 0);
    const peace_profile *p = peace_profile_at(ix, A, 40, 1);
    assert_double_equal(p->tput, 50, 0);                    /* 10 + 1.0 * 40 */
    assert_double_equal(peace_profile_at(ix, B, 90, 0)->tput, 40, 0);
    assert_double_equal(peace_sensitivity(ix, A, 0), 0.5, 1e-12);
    assert_double_equal(peace_sensitivity(ix, A, 1), 1.0, 1e-12);
    assert_double_equal(peace_sensitivity(ix, B, 0), 1.0 / 3, 1e-12);
    assert_double_equal(peace_sensitivity(ix, B, 1), 4.0 / 3, 1e-12);
    peace_index_free(ix);
    peace_set_free(s);
}

static void test_truth(void **state)
{
    (void)state;
    peace_set *s;
    peace_index *ix = hand_index(&s);
    double t[PEACE_MAX_COLOC], w, lo, hi;
    peace_combo c = combo2(B, 30, A, 70);   /* either order finds A+B 70/30 */
    assert_int_equal(peace_truth_range(ix, &c, &lo, &hi), 0);
    assert_double_equal(lo, 300, 0);
    assert_double_equal(hi, 900, 0);
    /* Half-way between 300 (30, 20; 150 W) and 900 (A 60, B 40; 210 W),
     * in canonical order A then B even though the 900 row named B first. */
    assert_int_equal(peace_truth(ix, &c, 600, t, &w), 0);
    assert_double_equal(t[0], 45, 1e-12);
    assert_double_equal(t[1], 30, 1e-12);
    assert_double_equal(w, 180, 1e-12);
    /* A quarter of the way: 30 + 0.25 * 30. */
    assert_int_equal(peace_truth(ix, &c, 450, t, &w), 0);
    assert_double_equal(t[0], 37.5, 1e-12);
    /* Beyond the measured clocks: held at the nearest row. */
    assert_int_equal(peace_truth(ix, &c, 135, t, &w), 0);
    assert_double_equal(t[0], 30, 0);
    assert_double_equal(w, 150, 0);
    assert_int_equal(peace_truth(ix, &c, 1530, t, NULL), 0);
    assert_double_equal(t[1], 40, 0);
    assert_int_equal(peace_truth(ix, &c, 900, t, &w), 0);
    assert_double_equal(w, 210, 0);
    /* One row only: every clock gives it. */
    peace_combo aa = combo2(A, 40, A, 60);
    assert_int_equal(peace_truth(ix, &aa, 1000, t, &w), 0);
    assert_double_equal(t[0], 15, 0);       /* the share-40 instance */
    assert_double_equal(t[1], 25, 0);
    peace_combo none = combo2(A, 50, B, 50);
    assert_int_equal(peace_truth(ix, &none, 300, t, &w), -1);
    assert_int_equal(peace_truth_range(ix, &none, &lo, &hi), -1);
    peace_combo np = combo2(B, 100, A, 100);
    assert_int_equal(peace_truth(ix, &np, 300, t, &w), 0);
    assert_double_equal(t[0], 18, 0);
    peace_index_free(ix);
    peace_set_free(s);
}

static void test_groups(void **state)
{
    (void)state;
    peace_set *s;
    peace_index *ix = hand_index(&s);
    peace_combo g[4];
    /* Pairs: A+A and A+B (whatever the split, partitioned or not). */
    assert_int_equal(peace_groups(ix, 2, g, 4), 2);
    assert_int_equal(g[0].w[0], A);
    assert_int_equal(g[0].w[1], A);
    assert_int_equal(g[1].w[1], B);
    assert_int_equal(g[1].share[0], 0);
    assert_int_equal(peace_groups(ix, 3, g, 4), 1);
    assert_int_equal(g[0].n, 3);
    assert_int_equal(g[0].w[2], B);
    assert_int_equal(peace_groups(ix, 2, g, 1), 2);     /* counts beyond cap */
    assert_int_equal(peace_groups(ix, 4, g, 4), 0);
    peace_index_free(ix);
    peace_set_free(s);
}

/* A 70 % + B 30 % at 300 MHz: SM active mean(70, 15) = 42.5, occupancy
 * mean(35, 30) = 32.5, FP32 mean(10, 0) = 5, bandwidth 100 + 50 = 150,
 * memory busy mean(20, 10) = 15, PCIe 5 + 1 = 6 and 7 + 2 = 9; throughput
 * (5 + 35) + 30 = 70; sensitivity 0.5 + 1/3. */
static void test_features(void **state)
{
    (void)state;
    peace_set *s;
    peace_index *ix = hand_index(&s);
    double px[PEACE_NFEAT_POWER], tx[PEACE_NFEAT_TPUT];
    peace_combo c = combo2(B, 30, A, 70);
    peace_features(ix, &c, 0, px, tx);
    const double want[PEACE_NFEAT_TPUT] = {42.5, 32.5, 5, 150, 15, 6, 9, 70, 0.5 + 1.0 / 3};
    for (int i = 0; i < PEACE_NFEAT_TPUT; i++)
        assert_double_equal(tx[i], want[i], 1e-12);
    for (int i = 0; i < PEACE_NFEAT_POWER; i++)
        assert_double_equal(px[i], want[i], 1e-12);
    /* At 1500 MHz: throughput (10 + 70) + min(60, 120) = 140, sensitivity
     * 1 + 4/3; the metrics do not depend on the clock here. */
    peace_features(ix, &c, 1, NULL, tx);
    assert_double_equal(tx[PEACE_NMETRICS], 140, 1e-12);
    assert_double_equal(tx[PEACE_NMETRICS + 1], 1 + 4.0 / 3, 1e-12);
    peace_index_free(ix);
    peace_set_free(s);
}

/* ---- what check() refuses ------------------------------------------------------------- */

typedef struct bad_set {
    const char *what;
    void (*spoil)(peace_set *s);
    const char *expect;
} bad_set;

static void one_workload(peace_set *s) { s->nwl = 1; s->nprof = 0; s->nco = 0; }
static void caps_crossed(peace_set *s) { s->cap_min_w = 300; }
static void same_name(peace_set *s) { strcpy(s->wl[B].name, "A_train"); }
static void negative_memory(peace_set *s) { s->wl[A].mem_gib = -1; }
/* Row 22 (index 21) is B at share 40 and 300 MHz: A's 18 rows come first,
 * then B's at 300 MHz from share 10. */
static void missing_profile(peace_set *s)
{
    s->prof[21] = s->prof[--s->nprof];
}
static void repeated_profile(peace_set *s) { s->prof[21] = s->prof[20]; }
static void odd_share(peace_set *s) { s->prof[3].share_pct = 35; }
static void nan_tput(peace_set *s) { s->prof[3].tput = NAN; }
static void busy_over_100(peace_set *s) { s->prof[3].metric[PEACE_MEM_BUSY] = 101; }
static void no_profiles(peace_set *s) { s->nprof = 0; }
static void nine_clocks(peace_set *s)
{
    for (int i = 0; i < 9; i++)
        s->prof[i].freq_mhz = 100 + i;
}
static void shares_90(peace_set *s) { s->co[0].share_pct[1] = 20; }
static void mixed_np(peace_set *s) { s->co[3].share_pct[1] = 50; }
static void unknown_wl(peace_set *s) { s->co[0].workload[1] = 5; }
static void one_in_row(peace_set *s) { s->co[0].n = 1; }
static void negative_power(peace_set *s) { s->co[2].power_w = -3; }
/* B+A 30+70 at 300 MHz is A+B 70+30 at 300 named the other way. */
static void repeated_coloc(peace_set *s)
{
    const int ba[] = {B, A}, sh[] = {30, 70};
    peace_coloc c = coloc_of(2, ba, sh, 300, (double[]){1, 2}, 99);
    peace_set_add_coloc(s, &c);
}

static const bad_set bad_sets[] = {
    {"one workload", one_workload, "needs at least two workloads, has 1"},
    {"caps crossed", caps_crossed, "power caps 300..300 W"},
    {"a name twice", same_name, "workload 'A_train' is named twice"},
    {"negative memory", negative_memory, "workload 'A_train': memory -1 GiB"},
    {"missing profile", missing_profile, "workload 'B_inf': no profile at share 40 % and 300 MHz"},
    {"repeated profile", repeated_profile, "profile row 22 repeats row 21 (workload 'B_inf' at "
                                           "share 30 % and 300 MHz)"},
    {"share 35", odd_share, "profile row 4 (workload 'A_train'): share 35 % is not one of"},
    {"NaN throughput", nan_tput, "profile row 4 (workload 'A_train' at share 40 % and 300 "
                                 "MHz): a value is negative, not finite"},
    {"percentage above 100", busy_over_100, "a percentage above 100"},
    {"no profiles", no_profiles, "no profile rows"},
    {"nine clocks", nine_clocks, "profiles at more than 8 clocks"},
    {"shares 90", shares_90, "co-location row 1 (A_train+B_inf 70+20 at 300 MHz): the shares "
                             "are not 10..90 in steps of 10 summing to 100"},
    {"100 with 50", mixed_np, "co-location row 4 (A_train+B_inf 100+50 at 300 MHz): the "
                              "shares are not"},
    {"unknown workload", unknown_wl, "co-location row 1 (A_train+? 70+30 at 300 MHz): unknown "
                                     "workload"},
    {"one workload in a row", one_in_row, "co-location row 1 (A_train 70 at 300 MHz): expected "
                                          "2 or 3 workloads"},
    {"negative power", negative_power, "co-location row 3 (A_train+A_train 60+40 at 300 MHz): "
                                       "the power is negative"},
    {"repeated row", repeated_coloc, "co-location row 6 (B_inf+A_train 30+70 at 300 MHz): "
                                     "repeats row 1"},
};

static void test_check_refuses(void **state)
{
    (void)state;
    peace_set *s = hand_set();
    gp_err err = {{0}};
    if (peace_set_check(s, &err))
        fail_msg("the good set: %s", err.msg);
    size_t first, dup;
    assert_int_equal(peace_set_duplicate(s, 1, &first, &dup), 0);
    peace_set_free(s);
    for (size_t i = 0; i < sizeof bad_sets / sizeof *bad_sets; i++) {
        s = hand_set();
        bad_sets[i].spoil(s);
        memset(&err, 0, sizeof err);
        if (peace_set_check(s, &err) == 0)
            fail_msg("case '%s': accepted", bad_sets[i].what);
        if (!strstr(err.msg, bad_sets[i].expect))
            fail_msg("case '%s': expected \"%s\" in \"%s\"", bad_sets[i].what,
                     bad_sets[i].expect, err.msg);
        assert_null(peace_index_new(s, &err));
        peace_set_free(s);
    }
}

/* The earliest repeat in the set's order is reported, with the row it
 * repeats: rows 2 and 4 repeat row 0 (B+A 50/50 is A+B 50/50), row 3
 * repeats row 1 (B 60 + A 40); row 2 comes first, so (0, 2). */
static void test_duplicate_order(void **state)
{
    (void)state;
    peace_set *s = peace_set_new("d");
    peace_workload a = {"A", PEACE_CUDA, 1, 1, 1}, b = {"B", PEACE_CUDA, 1, 1, 1};
    peace_set_add_workload(s, &a);
    peace_set_add_workload(s, &b);
    const int ab[] = {A, B}, ba[] = {B, A}, s55[] = {50, 50}, s4060[] = {40, 60},
              s6040[] = {60, 40};
    const peace_coloc rows[] = {
        coloc_of(2, ab, s55, 300, (double[]){1, 1}, 1),
        coloc_of(2, ab, s4060, 300, (double[]){1, 1}, 1),
        coloc_of(2, ba, s55, 300, (double[]){1, 1}, 1),
        coloc_of(2, ba, s6040, 300, (double[]){1, 1}, 1),
        coloc_of(2, ab, s55, 300, (double[]){1, 1}, 1),
    };
    for (size_t i = 0; i < 5; i++)
        peace_set_add_coloc(s, &rows[i]);
    size_t first, dup;
    assert_int_equal(peace_set_duplicate(s, 1, &first, &dup), 1);
    assert_int_equal(first, 0);
    assert_int_equal(dup, 2);
    peace_set_free(s);
}

/* ---- the store ------------------------------------------------------------------------ */

static void assert_same_set(const peace_set *a, const peace_set *b)
{
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->gpu, b->gpu);
    assert_double_equal(a->cap_min_w, b->cap_min_w, 0);
    assert_double_equal(a->cap_max_w, b->cap_max_w, 0);
    assert_int_equal(a->nwl, b->nwl);
    assert_int_equal(a->nprof, b->nprof);
    assert_int_equal(a->nco, b->nco);
    for (size_t i = 0; i < a->nwl; i++) {
        const peace_workload *x = &a->wl[i], *y = &b->wl[i];
        assert_string_equal(x->name, y->name);
        assert_true(x->kind == y->kind && x->compute_hi == y->compute_hi &&
                    x->memory_hi == y->memory_hi && x->mem_gib == y->mem_gib);
    }
    for (size_t i = 0; i < a->nprof; i++)
        assert_memory_equal(&a->prof[i], &b->prof[i], sizeof a->prof[i]);  /* no padding */
    for (size_t i = 0; i < a->nco; i++) {
        const peace_coloc *x = &a->co[i], *y = &b->co[i];
        assert_int_equal(x->n, y->n);
        assert_true(x->freq_mhz == y->freq_mhz && x->power_w == y->power_w);
        for (int k = 0; k < x->n; k++)
            assert_true(x->workload[k] == y->workload[k] && x->share_pct[k] == y->share_pct[k] &&
                        x->tput[k] == y->tput[k]);
    }
}

static void test_store_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    peace_set *s = hand_set();
    s->source = xstrdup("by hand");
    if (store_put_peace_set(st, s, 0, &err))
        fail_msg("%s", err.msg);
    assert_true(s->id > 0);
    peace_set *back;
    if (store_get_peace_set(st, "hand", &back, &err))
        fail_msg("%s", err.msg);
    assert_same_set(s, back);
    assert_string_equal(back->source, "by hand");
    peace_index *ix = peace_index_new(back, &err);
    assert_non_null(ix);
    peace_index_free(ix);
    peace_set_free(back);

    /* The listing: workloads, profile rows, then co-location rows in the
     * detail. */
    store_item *items;
    size_t n;
    assert_int_equal(store_list(st, STORE_PEACE, &items, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(items[0].count, 2);
    assert_int_equal(items[0].count2, 36);
    tu_assert_contains(items[0].detail, "5 co-location rows, V100, caps 40-300 W");
    free(items);

    /* Taken names, replacing, an unknown GPU, a set check refuses. */
    assert_int_equal(store_put_peace_set(st, s, 0, &err), -1);
    tu_assert_contains(err.msg, "a PEACE set named 'hand' already exists");
    s->cap_max_w = 250;
    assert_int_equal(store_put_peace_set(st, s, 1, &err), 0);
    assert_int_equal(tu_count(st, STORE_PEACE), 1);
    strcpy(s->gpu, "NoSuchGPU");
    assert_int_equal(store_put_peace_set(st, s, 1, &err), -1);
    tu_assert_contains(err.msg, "unknown GPU model 'NoSuchGPU'");
    strcpy(s->gpu, "V100");
    s->nwl = 1;
    assert_int_equal(store_put_peace_set(st, s, 1, &err), -1);
    tu_assert_contains(err.msg, "needs at least two workloads");
    s->nwl = 2;
    assert_int_equal(store_get_peace_set(st, "hand", &back, &err), 0);
    assert_double_equal(back->cap_max_w, 250, 0);       /* the failed puts left it */
    peace_set_free(back);

    /* The GPU profile cannot go while the set uses it. */
    assert_int_equal(store_delete_gpu_profile(st, "V100", &err), -1);
    tu_assert_contains(err.msg, "is used by 1 node(s) or PEACE set(s)");
    assert_int_equal(store_delete_peace_set(st, "hand", &err), 0);
    assert_int_equal(store_delete_peace_set(st, "hand", &err), -1);
    tu_assert_contains(err.msg, "no PEACE set named 'hand'");
    assert_int_equal(store_get_peace_set(st, "hand", &back, &err), -1);
    assert_null(back);
    assert_int_equal(store_kind_parse("peace"), STORE_PEACE);
    assert_string_equal(store_kind_name(STORE_PEACE), "peace");
    peace_set_free(s);
    tu_store_free(st, dir);
}

static void test_store_models(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    peace_set *s = hand_set();
    assert_int_equal(store_put_peace_set(st, s, 0, &err), 0);
    unsigned char bytes[] = {0, 1, 2, 255, 0, 7};
    store_peace_model m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "tput-300");
    m.params = "ntrees=100 seed=1";
    m.blob = bytes;
    m.len = sizeof bytes;
    if (store_put_peace_model(st, "hand", &m, &err))
        fail_msg("%s", err.msg);
    assert_true(m.id > 0);
    assert_true(m.created[0] != '\0');
    store_peace_model e;
    memset(&e, 0, sizeof e);
    strcpy(e.name, "empty");
    assert_int_equal(store_put_peace_model(st, "hand", &e, &err), 0);

    store_peace_model *back;
    assert_int_equal(store_get_peace_model(st, "hand", "tput-300", &back, &err), 0);
    assert_int_equal(back->len, sizeof bytes);
    assert_memory_equal(back->blob, bytes, sizeof bytes);
    assert_string_equal(back->params, "ntrees=100 seed=1");
    assert_int_equal(back->id, m.id);
    store_peace_model_free(back);

    /* Retraining replaces the model of that name. */
    m.params = "ntrees=50";
    m.len = 2;
    assert_int_equal(store_put_peace_model(st, "hand", &m, &err), 0);
    store_peace_model *list;
    size_t n;
    assert_int_equal(store_list_peace_models(st, "hand", &list, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(list[0].name, "empty");
    assert_int_equal(list[0].len, 0);
    assert_string_equal(list[1].params, "ntrees=50");
    assert_int_equal(list[1].len, 2);
    assert_null(list[1].blob);
    store_peace_models_free(list, n);

    assert_int_equal(store_get_peace_model(st, "hand", "nope", &back, &err), -1);
    tu_assert_contains(err.msg, "no PEACE model named 'nope' in set 'hand'");
    assert_int_equal(store_put_peace_model(st, "nope", &m, &err), -1);
    tu_assert_contains(err.msg, "no PEACE set named 'nope'");

    /* Deleting (or replacing) the set deletes its models. */
    assert_int_equal(store_put_peace_set(st, s, 1, &err), 0);
    assert_int_equal(store_list_peace_models(st, "hand", &list, &n, &err), 0);
    assert_int_equal(n, 0);
    store_peace_models_free(list, n);
    assert_int_equal(store_put_peace_model(st, "hand", &m, &err), 0);
    assert_int_equal(store_delete_peace_set(st, "hand", &err), 0);
    assert_int_equal(store_list_peace_models(st, "hand", &list, &n, &err), -1);
    int64_t left = -1;
    sqlite3 *db;
    char *path = xasprintf("%s/test.db", dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM peace_model", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    left = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    assert_int_equal(left, 0);
    free(path);
    peace_set_free(s);
    tu_store_free(st, dir);
}

/* A database made by the version-1 schema (schema.sql, as the previous
 * build created it) with a trace in it opens, migrates to version 2 and
 * keeps the trace. */
extern const char store_schema_sql[];

static void test_migrates_version_1(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/v1.db", dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, store_schema_sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 1;"
                                      " INSERT INTO trace(name) VALUES ('old')",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    store *st;
    gp_err err = {{0}};
    int created = -1;
    if (store_open(path, &st, &created, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(created, 0);
    assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
    assert_true(STORE_SCHEMA_VERSION >= 2);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    assert_int_equal(tu_count(st, STORE_PEACE), 0);
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    for (size_t i = 0; i < cat->ngpus; i++)
        assert_int_equal(store_put_gpu_profile(st, &cat->gpus[i], &err), 0);
    catalog_free(cat);
    peace_set *s = hand_set();
    assert_int_equal(store_put_peace_set(st, s, 0, &err), 0);
    peace_set_free(s);
    store_close(st);
    /* Opened again, nothing more to migrate. */
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    assert_int_equal(tu_count(st, STORE_PEACE), 1);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* ---- the peace-v100 sample set ------------------------------------------------------
 *
 * The properties that make the modelled set a fair test of PEACE, measured
 * on the generator's output (the committed sample-data/peace-v100 is that
 * output: test_samplegen).  Each is printed with its number. */

typedef struct pv_stats {
    size_t pairs, moved;                /* best split at 300 vs 1530 MHz */
    double np_ratio_sum, np_ratio_max;  /* no partition / best split */
    double eq_ratio_sum;                /* 50/50 / best split */
    size_t ratios;
    double power_lo[4], power_hi[4];    /* over every row at 135, 300, 900, 1530 */
} pv_stats;

static const double pv_clocks[4] = {135, 300, 900, 1530};

/* The best partitioned split of pair g at clock f (index into splits). */
static int best_split(const peace_index *ix, const peace_combo *g, double f,
                      int (*sp)[PEACE_MAX_COLOC], int nsp, double *best)
{
    int arg = -1;
    *best = -1;
    for (int k = 0; k < nsp; k++) {
        peace_combo c = {2, {g->w[0], g->w[1], 0}, {sp[k][0], sp[k][1], 0}};
        double t[PEACE_MAX_COLOC], w;
        assert_int_equal(peace_truth(ix, &c, f, t, &w), 0);
        if (t[0] + t[1] > *best) {
            *best = t[0] + t[1];
            arg = k;
        }
    }
    return arg;
}

static void pv_measure(const peace_set *s, const peace_index *ix, pv_stats *st)
{
    memset(st, 0, sizeof *st);
    int sp[PEACE_MAX_SPLITS][PEACE_MAX_COLOC];
    int nsp = peace_splits(2, sp, PEACE_MAX_SPLITS);
    peace_combo g[200];
    st->pairs = peace_groups(ix, 2, g, 200);
    for (size_t i = 0; i < st->pairs; i++) {
        double b300, b1530, best, t[PEACE_MAX_COLOC], w;
        st->moved += best_split(ix, &g[i], 300, sp, nsp, &b300) !=
                     best_split(ix, &g[i], 1530, sp, nsp, &b1530);
        for (int fi = 0; fi < 4; fi++) {
            best_split(ix, &g[i], pv_clocks[fi], sp, nsp, &best);
            peace_combo np = {2, {g[i].w[0], g[i].w[1], 0}, {100, 100, 0}};
            peace_combo eq = {2, {g[i].w[0], g[i].w[1], 0}, {50, 50, 0}};
            assert_int_equal(peace_truth(ix, &np, pv_clocks[fi], t, &w), 0);
            double r = (t[0] + t[1]) / best;
            st->np_ratio_sum += r;
            st->np_ratio_max = fmax(st->np_ratio_max, r);
            assert_int_equal(peace_truth(ix, &eq, pv_clocks[fi], t, &w), 0);
            st->eq_ratio_sum += (t[0] + t[1]) / best;
            st->ratios++;
        }
    }
    for (int fi = 0; fi < 4; fi++) {
        st->power_lo[fi] = 1e9;
        for (size_t i = 0; i < s->nco; i++)
            if (s->co[i].freq_mhz == pv_clocks[fi]) {
                st->power_lo[fi] = fmin(st->power_lo[fi], s->co[i].power_w);
                st->power_hi[fi] = fmax(st->power_hi[fi], s->co[i].power_w);
            }
    }
}

static void test_peace_v100(void **state)
{
    (void)state;
    sample_set ss;
    gp_err err = {{0}};
    assert_int_equal(samplegen_build("peace-v100", SAMPLEGEN_DEFAULT_SEED, &ss, &err), 0);
    const peace_set *s = ss.peace;
    peace_index *ix = peace_index_new(s, &err);
    if (!ix)
        fail_msg("%s", err.msg);
    /* PEACE Table 1 and §4: 16 workloads; 121 of the 136 pairs fit in 32
     * GiB; every triple that fits (356; the paper tested 165); profiles at
     * 300, 900 and 1530 MHz. */
    assert_int_equal(s->nwl, 16);
    assert_int_equal(peace_groups(ix, 2, NULL, 0), 121);
    assert_int_equal(peace_groups(ix, 3, NULL, 0), 356);
    int fit = 0;
    for (size_t a = 0; a < s->nwl; a++)
        for (size_t b = a; b < s->nwl; b++)
            fit += s->wl[a].mem_gib + s->wl[b].mem_gib <= 32;
    assert_int_equal(fit, 121);
    assert_int_equal(peace_nfreqs(ix), 3);
    assert_double_equal(peace_freq(ix, 2), 1530, 0);
    assert_int_equal(s->nprof, 16 * 9 * 3);
    /* Pairs at 9 splits and no partition, self-pairs at 5 (a self-pair's
     * 60+40 is its 40+60) and no partition, triples at 36, the equal split
     * and no partition; each at 4 clocks. */
    int self = 0;
    for (size_t w = 0; w < s->nwl; w++)
        self += 2 * s->wl[w].mem_gib <= 32;
    assert_int_equal(self, 12);
    assert_int_equal(s->nco, (size_t)((121 - self) * 10 + self * 6 + 356 * 38) * 4);
    const catalog *cat = ss.profiles;
    assert_non_null(catalog_gpu(cat, s->gpu));

    /* Units: every workload's throughput at 90 % of the SMs and the top
     * clock within a factor of 3.5 of the others (PEACE sums them). */
    double lo = 1e9, hi = 0;
    for (size_t w = 0; w < s->nwl; w++) {
        double t = peace_profile_at(ix, (int)w, 90, 2)->tput;
        lo = fmin(lo, t);
        hi = fmax(hi, t);
    }
    print_message("peace-v100: throughput at 90 %% and 1530 MHz %.3g..%.3g items/s (x%.2f)\n",
                  lo, hi, hi / lo);
    assert_true(hi / lo <= 3.5);
    /* Classes: Hi compute scales with the SMs up to 90 %, Lo compute does
     * not (PEACE Table 1). */
    for (size_t w = 0; w < s->nwl; w++) {
        double gain = peace_profile_at(ix, (int)w, 90, 0)->tput /
                      peace_profile_at(ix, (int)w, 50, 0)->tput;
        if (s->wl[w].compute_hi ? gain < 1.4 : gain > 1.25)
            fail_msg("%s: 90 %% / 50 %% of the SMs = %.2f at 300 MHz", s->wl[w].name, gain);
    }

    pv_stats st;
    pv_measure(s, ix, &st);
    print_message("peace-v100: best split at 300 MHz differs from 1530 MHz for %zu of %zu "
                  "pairs (%.0f %%)\n", st.moved, st.pairs, 100.0 * st.moved / st.pairs);
    print_message("peace-v100: no partition reaches %.1f %% of the best split on average "
                  "(at most %.1f %%); 50/50 %.1f %%\n", 100 * st.np_ratio_sum / st.ratios,
                  100 * st.np_ratio_max, 100 * st.eq_ratio_sum / st.ratios);
    for (int fi = 0; fi < 4; fi++)
        print_message("peace-v100: power at %4.0f MHz %.1f..%.1f W\n", pv_clocks[fi],
                      st.power_lo[fi], st.power_hi[fi]);
    /* Figure 1: the optimum moves with the clock, for many pairs. */
    assert_true(st.moved * 3 >= st.pairs);
    /* §4.2: no partition is clearly worse (64-85 % of Oracle there). */
    assert_true(st.np_ratio_sum / st.ratios < 0.9 && st.np_ratio_max < 1);
    /* Caps of 60, 100 and 200 W bind at different clocks: a busy GPU
     * draws 45-80 W at 300 MHz and up to 250-300 W at 1530 MHz. */
    assert_true(st.power_hi[1] >= 45 && st.power_hi[1] <= 80);
    assert_true(st.power_hi[3] >= 250 && st.power_hi[3] <= 300);
    assert_true(st.power_lo[0] > 30 && st.power_hi[0] < 60);
    /* Two compute-heavy workloads at the top clock (Gemm and ALBERT, equal
     * split): 250-300 W. */
    peace_combo c = {2, {peace_set_workload(s, "Gemm_cuda"), peace_set_workload(s, "ALBERT_train"),
                         0}, {50, 50, 0}};
    double t[PEACE_MAX_COLOC], w;
    assert_int_equal(peace_truth(ix, &c, 1530, t, &w), 0);
    print_message("peace-v100: Gemm_cuda + ALBERT_train 50/50 at 1530 MHz: %.1f W\n", w);
    assert_true(w >= 250 && w <= 300);
    peace_index_free(ix);
    sample_set_free(&ss);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_splits),
        cmocka_unit_test(test_split_valid),
        cmocka_unit_test(test_canonical_order),
        cmocka_unit_test(test_lookups_and_sensitivity),
        cmocka_unit_test(test_truth),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_check_refuses),
        cmocka_unit_test(test_duplicate_order),
        cmocka_unit_test(test_store_round_trip),
        cmocka_unit_test(test_store_models),
        cmocka_unit_test(test_migrates_version_1),
        cmocka_unit_test(test_peace_v100),
    };
    return cmocka_run_group_tests_name("peace_data", tests, NULL, NULL);
}
