/*
 * test_gogh_est.c — GOGH's throughput estimation (predict/gogh_est.h): Psi
 * of known names (families, batch scaling, the empty job), the split by job
 * type, determinism for a seed, the estimator's three modes (the oracle is
 * the table; P1 answers known types from the table and new or unknown ones
 * from the network; P2 brings an estimate closer to the truth after an
 * observation on a table where v100 = 3 × k80 exactly), the byte format's
 * round trip and malformed buffers, the store's round trip, and training on
 * the real Gavel table when ../shared/data has it.
 *
 * Tables: the gavel-like sample (10 job types on k80/p100/v100, read with
 * the native importer into a temporary store) and tables built here.  Nets
 * are small and train for few epochs so the whole file takes seconds.
 */
#include "testutil.h"
#include "predict/gogh_est_int.h"
#include "db/store_int.h"

#include <sqlite3.h>

#include "core/rng.h"
#include "io/import.h"
#include "predict/gogh_int.h"

/* ---- tables ----------------------------------------------------------------------- */

static gogh_jobtype jt(const char *model, int batch, int scale)
{
    gogh_jobtype t;
    memset(&t, 0, sizeof t);
    snprintf(t.model, sizeof t.model, "%s", model);
    t.batch_size = batch;
    t.scale = scale;
    return t;
}

static void add(tput_catalog *c, const char *accel, const gogh_jobtype *j,
                const gogh_jobtype *k, double t, double ct)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.accel, sizeof e.accel, "%s", accel);
    snprintf(e.model, sizeof e.model, "%s", j->model);
    e.batch_size = j->batch_size;
    e.scale = j->scale;
    if (k) {
        snprintf(e.co_model, sizeof e.co_model, "%s", k->model);
        e.co_batch_size = k->batch_size;
        e.co_scale = k->scale;
    }
    e.tput = t;
    e.co_tput = ct;
    tput_catalog_add(c, &e);
}

/* The gavel-like sample's throughput table, read by the native importer. */
static tput_catalog *sample_table(void)
{
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_opts opts = {0};
    import_result res;
    memset(&res, 0, sizeof res);
    const char *paths[1] = {"sample-data/gavel-like"};
    if (import_run(st, &import_native, paths, 1, &opts, &res, &err))
        fail_msg("import: %s", err.msg);
    tput_catalog *tp;
    if (store_get_tput_catalog(st, "gavel-like", &tp, &err))
        fail_msg("%s", err.msg);
    tu_store_free(st, dir);
    return tp;
}

/* Sixteen job types (four families × four batch sizes) on k80, p100 and
 * v100 where every throughput on p100 is 2 × and on v100 3 × the k80 one,
 * alone and in pairs (a pair's slowdown drawn from seed). */
static const double exact_ratio[3] = {1, 2, 3};
static const char *const exact_accels[3] = {"k80", "p100", "v100"};

static tput_catalog *exact_table(uint64_t seed)
{
    static const char *const fam[4] = {"ResNet-18", "ResNet-50", "LM", "Transformer"};
    static const double fam_speed[4] = {40, 12, 60, 20};
    gogh_jobtype t[16];
    double solo[16];
    for (int i = 0; i < 16; i++) {
        t[i] = jt(fam[i / 4], 16 << (i % 4), 1);
        solo[i] = fam_speed[i / 4] / (1 << (i % 4)) * (1 + 0.1 * (i % 3));
    }
    rng r;
    rng_seed(&r, seed);
    tput_catalog *c = tput_catalog_new("exact");
    for (int i = 0; i < 16; i++) {
        for (int a = 0; a < 3; a++)
            add(c, exact_accels[a], &t[i], NULL, exact_ratio[a] * solo[i], 0);
        for (int k = i; k < 16; k++) {
            double fi = rng_range(&r, 0.4, 0.9), fk = rng_range(&r, 0.4, 0.9);
            for (int a = 0; a < 3; a++)
                add(c, exact_accels[a], &t[i], &t[k], exact_ratio[a] * fi * solo[i],
                    exact_ratio[a] * fk * solo[k]);
        }
    }
    return c;
}

static gogh_train_params small_params(int epochs)
{
    gogh_train_params p;
    gogh_train_params_default(&p);
    p.hidden = 12;
    p.layers = 1;
    p.epochs = epochs;
    return p;
}

static gogh_nets *train(const tput_catalog *tp, const gogh_train_params *p,
                        gogh_train_report *rep)
{
    gp_err err = {{0}};
    gogh_nets *n = gogh_nets_train(tp, p, rep, &err);
    if (!n)
        fail_msg("gogh_nets_train: %s", err.msg);
    return n;
}

static gogh_estimator *estimator(gogh_est_mode m, const tput_catalog *tp, const gogh_nets *n)
{
    gp_err err = {{0}};
    gogh_estimator *e = gogh_estimator_new(m, tp, n, &err);
    if (!e)
        fail_msg("gogh_estimator_new: %s", err.msg);
    return e;
}

/* ---- Psi ------------------------------------------------------------------------------ */

typedef struct psi_case {
    const char *model;
    int batch, scale;
    int family;                 /* index of the one-hot bit, -1 none */
    double batch_x, scale_x;    /* the two scaled features */
} psi_case;

static void test_psi(void **state)
{
    (void)state;
    /* Families as a table would list them; batches 16..256 (log2 4..8),
     * scales up to 8 (log2 3). */
    gogh_psi_enc e;
    memset(&e, 0, sizeof e);
    static const char *const fams[] = {"ResNet-18", "ResNet-50", "LM", "A3C"};
    e.nfam = 4;
    for (int f = 0; f < 4; f++)
        snprintf(e.fam[f], sizeof e.fam[f], "%s", fams[f]);
    e.log_batch_lo = 4;
    e.log_batch_hi = 8;
    e.log_scale_hi = 3;
    static const psi_case cases[] = {
        {"ResNet-18", 16, 1, 0, 0, 0},
        {"ResNet-18", 256, 1, 0, 1, 0},
        {"ResNet-50", 64, 1, 1, 0.5, 0},
        {"LM", 32, 2, 2, 0.25, 1.0 / 3},
        {"LM", 128, 8, 2, 0.75, 1},
        {"A3C", 0, 1, 3, 0, 0},                         /* no batch size */
        {"ResNet-18 (batch size 32)", 32, 1, 0, 0.25, 0},       /* Gavel's long name */
        {"CycleGAN", 0, 1, -1, 0, 0},                   /* a family the table lacks */
        {"Transformer", 512, 4, -1, 1.25, 2.0 / 3},     /* beyond the range: not clamped */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const psi_case *c = &cases[i];
        gogh_jobtype t = jt(c->model, c->batch, c->scale);
        double psi[GOGH_MAX_PSI];
        gogh_psi(&e, &t, psi);
        for (int f = 0; f < 4; f++)
            if (psi[f] != (f == c->family))
                fail_msg("%s batch %d: family bit %d is %g", c->model, c->batch, f, psi[f]);
        assert_double_equal(psi[4], c->batch_x, 1e-12);
        assert_double_equal(psi[5], c->scale_x, 1e-12);
    }
    double zero[GOGH_MAX_PSI];
    gogh_psi(&e, NULL, zero);                           /* j0 (§2.3) */
    for (int i = 0; i < gogh_psi_dim(&e); i++)
        assert_double_equal(zero[i], 0, 0);
    char fam[GP_NAME_MAX];
    gogh_family_of("Recommendation (batch size 8192)", fam, sizeof fam);
    assert_string_equal(fam, "Recommendation");
}

/* The encoding training makes from the sample: its seven families, the
 * log2 range of its batch sizes (5 .. 8192, Gavel's), scale 1 only. */
static void test_psi_of_sample(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_train_params p = small_params(1);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    assert_int_equal(n->psi.nfam, 7);
    assert_int_equal(n->naccel, 3);
    assert_double_equal(n->psi.log_batch_lo, log2(5), 1e-12);
    assert_double_equal(n->psi.log_batch_hi, 13, 1e-12);
    assert_double_equal(n->psi.log_scale_hi, 0, 0);
    assert_int_equal(n->ntypes, 26);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* ---- the split ---------------------------------------------------------------------- */

/* For several seeds and fractions: every type in exactly one split, the
 * counts as reported, no held-out type among the known ones or in a
 * training row's types, and the rows of each split built from its own
 * types only. */
static void test_split(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    static const double fracs[][2] = {{0.15, 0.15}, {0.3, 0.2}, {0, 0.4}, {0.1, 0}};
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (size_t f = 0; f < sizeof fracs / sizeof *fracs; f++) {
            gogh_train_params p = small_params(1);
            p.seed = seed;
            p.val_frac = fracs[f][0];
            p.test_frac = fracs[f][1];
            gogh_train_report rep;
            gogh_nets *n = train(tp, &p, &rep);
            size_t count[3] = {0, 0, 0};
            for (size_t i = 0; i < n->ntypes; i++) {
                assert_true(n->split[i] <= 2);
                count[n->split[i]]++;
                assert_int_equal(gogh_nets_split_of(n, &n->types[i]), n->split[i]);
                for (size_t k = 0; k < i; k++)
                    assert_false(strcmp(n->types[i].model, n->types[k].model) == 0 &&
                                 n->types[i].batch_size == n->types[k].batch_size);
            }
            gogh_hist *h = gogh_hist_new(n, tp);
            for (size_t i = 0; i < h->ntrain; i++)
                assert_int_equal(n->split[h->train[i]], 0);
            for (int s = 0; s < 3; s++) {
                assert_int_equal(count[s], rep.types[s]);
                assert_int_equal(rep.p1[s].rows, count[s] * 3 * (h->ntrain + 1));
            }
            assert_int_equal(count[1], fracs[f][0] > 0 ? (size_t)llround(26 * fracs[f][0]) : 0);
            gogh_hist_free(h);
            gogh_nets_free(n);
        }
    gogh_jobtype absent = jt("BERT", 32, 1);
    gogh_train_params p = small_params(1);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    assert_int_equal(gogh_nets_split_of(n, &absent), -1);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* ---- determinism and the byte format ---------------------------------------------- */

static unsigned char *saved(const gogh_nets *n, size_t *len)
{
    unsigned char *b = gogh_nets_save(n, len);
    assert_non_null(b);
    return b;
}

/* Every estimate P1 gives on the table's types, alone and in pairs. */
static double *all_estimates(const tput_catalog *tp, const gogh_nets *n, size_t *count)
{
    gogh_estimator *e = estimator(GOGH_EST_P1, tp, n);
    tput_index *ix = tput_index_new(tp);
    gogh_jobtype t[32];
    size_t nt = tput_jobtypes(ix, t, 32);
    double *v = xmalloc(3 * nt * (nt + 1) * 2 * sizeof *v);
    *count = 0;
    for (int a = 0; a < 3; a++)
        for (size_t j = 0; j < nt; j++)
            for (size_t k = 0; k <= nt; k++) {
                double tk;
                v[(*count)++] = gogh_estimate(e, n->accel[a], &t[j], k < nt ? &t[k] : NULL, &tk);
                v[(*count)++] = tk;
            }
    tput_index_free(ix);
    gogh_estimator_free(e);
    return v;
}

static void test_determinism(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_train_params p = small_params(30);
    gogh_train_report r1, r2, r3;
    gogh_nets *a = train(tp, &p, &r1), *b = train(tp, &p, &r2);
    p.seed = 7;
    gogh_nets *c = train(tp, &p, &r3);
    size_t la, lb, lc;
    unsigned char *ba = saved(a, &la), *bb = saved(b, &lb), *bc = saved(c, &lc);
    assert_int_equal(la, lb);
    assert_memory_equal(ba, bb, la);
    assert_true(la != lc || memcmp(ba, bc, la) != 0);
    for (int s = 0; s < 3; s++) {
        assert_double_equal(r1.p1[s].mae, r2.p1[s].mae, 0);
        assert_double_equal(r1.p2[s].loss, r2.p2[s].loss, 0);
    }
    size_t na, nb;
    double *ea = all_estimates(tp, a, &na), *eb = all_estimates(tp, b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(ea, eb, na * sizeof *ea);
    free(ea);
    free(eb);
    free(ba);
    free(bb);
    free(bc);
    gogh_nets_free(a);
    gogh_nets_free(b);
    gogh_nets_free(c);
    tput_catalog_free(tp);
}

/* Saved, loaded and saved again: the same bytes and the same estimates;
 * eval on the loaded nets gives the training report's figures. */
static void test_save_load(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_train_params p = small_params(20);
    gogh_train_report rep, again;
    gogh_nets *n = train(tp, &p, &rep);
    size_t len, len2;
    unsigned char *b = saved(n, &len);
    gp_err err = {{0}};
    gogh_nets *m = gogh_nets_load(b, len, &err);
    if (!m)
        fail_msg("gogh_nets_load: %s", err.msg);
    unsigned char *b2 = saved(m, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(b, b2, len);
    size_t c1, c2;
    double *e1 = all_estimates(tp, n, &c1), *e2 = all_estimates(tp, m, &c2);
    assert_int_equal(c1, c2);
    assert_memory_equal(e1, e2, c1 * sizeof *e1);
    assert_int_equal(gogh_nets_eval(m, tp, &again, &err), 0);
    for (int s = 0; s < 3; s++) {
        assert_int_equal(again.types[s], rep.types[s]);
        assert_double_equal(again.p1[s].mae, rep.p1[s].mae, 1e-12);
        assert_double_equal(again.p2[s].loss, rep.p2[s].loss, 1e-12);
    }
    free(e1);
    free(e2);
    free(b);
    free(b2);
    gogh_nets_free(n);
    gogh_nets_free(m);
    tput_catalog_free(tp);
}

/* Malformed buffers, each made from good bytes by one edit at offset at
 * (from the end when negative). */
typedef enum edit_op { SET_BYTE, CUT_AT, APPEND_BYTE, NAN_LAST } edit_op;

typedef struct bad_bytes {
    const char *what;
    edit_op op;
    long at;
    unsigned char value;
    const char *expect;
} bad_bytes;

/* Offsets of version 1 (gogh_bytes.c): magic 0, version 4, params 8..51
 * (hidden at 24, layers at 28, epochs at 32), nfam at 52, the first
 * family's name at 60. */
static const bad_bytes bad_cases[] = {
    {"empty", CUT_AT, 0, 0, "truncated"},
    {"magic", SET_BYTE, 0, 'X', "bad magic"},
    {"version", SET_BYTE, 4, 2, "version 2; this program reads version 1"},
    {"no hidden neurons", SET_BYTE, 24, 0, "the hidden layer size is 0"},
    {"too many layers", SET_BYTE, 28, 99, "the number of hidden layers is 99"},
    {"families beyond the limit", SET_BYTE, 52, 200, "the number of model families is 200"},
    {"a family name with a control byte", SET_BYTE, 60, 7, "control byte 0x07"},
    {"truncated in the middle", CUT_AT, 300, 0, "truncated"},
    {"one byte short", CUT_AT, -1, 0, "truncated"},
    {"trailing byte", APPEND_BYTE, 0, 0, "1 bytes follow the nets"},
    {"NaN weight", NAN_LAST, 0, 0, "a weight is not a finite number"},
    /* A float widened to a double has its low mantissa bits zero. */
    {"a weight no float holds", SET_BYTE, -8, 1, "which a network's float cannot hold"},
};

static unsigned char *edited(const unsigned char *good, size_t len, const bad_bytes *c,
                             size_t *out_len)
{
    unsigned char *b = xmalloc(len + 1);
    memcpy(b, good, len);
    size_t at = c->at < 0 ? len - (size_t)-c->at : (size_t)c->at;
    *out_len = len;
    switch (c->op) {
    case SET_BYTE:
        b[at] = c->value;
        break;
    case CUT_AT:
        *out_len = at;
        break;
    case APPEND_BYTE:
        b[len] = c->value;
        *out_len = len + 1;
        break;
    case NAN_LAST:
        memset(b + len - 8, 0xff, 8);
        break;
    }
    return b;
}

static void test_malformed(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_train_params p = small_params(1);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    size_t len;
    unsigned char *good = saved(n, &len);
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        size_t blen;
        unsigned char *b = edited(good, len, &bad_cases[i], &blen);
        gp_err err = {{0}};
        gogh_nets *m = gogh_nets_load(b, blen, &err);
        if (m)
            fail_msg("case '%s': loaded", bad_cases[i].what);
        if (!strstr(err.msg, bad_cases[i].expect))
            fail_msg("case '%s': expected \"%s\" in \"%s\"", bad_cases[i].what,
                     bad_cases[i].expect, err.msg);
        free(b);
    }
    gp_err err = {{0}};
    assert_null(gogh_nets_load(NULL, 0, &err));
    /* Every truncation of a good buffer is refused (no read past the end:
     * the sanitizer build checks). */
    for (size_t cut = 0; cut < len; cut += 1 + cut / 8)
        assert_null(gogh_nets_load(good, cut, &err));
    free(good);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* ---- the estimator ------------------------------------------------------------------- */

/* The oracle is the table, alone and in pairs, either way round; a type the
 * table lacks is 0 without nets and counted. */
static void test_oracle(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_estimator *e = estimator(GOGH_EST_ORACLE, tp, NULL);
    tput_index *ix = tput_index_new(tp);
    gogh_jobtype t[16];
    size_t nt = tput_jobtypes(ix, t, 16);
    const char *acc[4];
    size_t na = tput_accels(ix, acc, 4);
    for (size_t a = 0; a < na; a++)
        for (size_t j = 0; j < nt; j++) {
            assert_double_equal(gogh_estimate(e, acc[a], &t[j], NULL, NULL),
                                tput_solo(ix, acc[a], &t[j]), 0);
            for (size_t k = 0; k < nt; k++) {
                double tk, want_k, want = tput_pair(ix, acc[a], &t[j], &t[k], &want_k);
                assert_double_equal(gogh_estimate(e, acc[a], &t[j], &t[k], &tk), want, 0);
                assert_double_equal(tk, want_k, 0);
            }
        }
    gogh_jobtype bert = jt("BERT", 32, 1);
    assert_double_equal(gogh_estimate(e, "v100", &bert, NULL, NULL), 0, 0);
    gogh_observe(e, "v100", &t[0], NULL, 1, 0);         /* ignored */
    assert_double_equal(gogh_estimate(e, "v100", &t[0], NULL, NULL),
                        tput_solo(ix, "v100", &t[0]), 0);
    gogh_est_stats st;
    gogh_estimator_stats(e, &st);
    assert_int_equal(st.unknown_types, 1);
    assert_int_equal(st.unanswerable, 1);
    assert_int_equal(st.from_table, na * nt * (nt + 1) + 1);
    assert_int_equal(gogh_estimator_estimates(e, &bert), 1);
    assert_int_equal(gogh_estimator_estimates(e, &t[0]), 0);
    tput_index_free(ix);
    gogh_estimator_free(e);
    tput_catalog_free(tp);
}

/* P1 mode: a training type alone or with another is the table; a held-out
 * type, a pair holding one and a type the table lacks are P1's estimates
 * (what gogh_p1_estimate gives, never negative), and said to be. */
static void test_p1_mode(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gogh_train_params p = small_params(30);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    gogh_estimator *e = estimator(GOGH_EST_P1, tp, n);
    gogh_hist *h = gogh_hist_new(n, tp);
    int known = -1, held = -1;
    for (size_t i = 0; i < n->ntypes; i++)
        if (n->split[i] == 0 && known < 0)
            known = (int)i;
        else if (n->split[i] != 0 && held < 0)
            held = (int)i;
    const gogh_jobtype *K = &n->types[known], *H = &n->types[held];
    double tk, tk_p1;
    for (int a = 0; a < n->naccel; a++) {
        const char *acc = n->accel[a];
        assert_double_equal(gogh_estimate(e, acc, K, NULL, NULL), tput_solo(h->ix, acc, K), 0);
        gogh_job jh, jk, none;
        gogh_job_new(h, H, &jh);
        gogh_job_known(h, K, &jk);
        gogh_job_empty(&none);
        double want[2];
        gogh_p1_estimate(h, a, &jh, &none, want);
        assert_double_equal(gogh_estimate(e, acc, H, NULL, NULL), want[0], 0);
        gogh_p1_estimate(h, a, &jh, &jk, want);
        assert_double_equal(gogh_estimate(e, acc, H, K, &tk), want[0], 0);
        assert_double_equal(tk, want[1], 0);
        /* Asked the other way round: the same two numbers, swapped. */
        assert_double_equal(gogh_estimate(e, acc, K, H, &tk_p1), want[1], 0);
        assert_double_equal(tk_p1, want[0], 0);
        assert_true(want[0] >= 0 && want[1] >= 0);
    }
    gogh_jobtype bert = jt("BERT", 48, 1);
    double b = gogh_estimate(e, "v100", &bert, NULL, NULL);
    assert_true(b >= 0 && isfinite(b));
    gogh_est_stats st;
    gogh_estimator_stats(e, &st);
    assert_int_equal(st.unknown_types, 1);
    assert_int_equal(st.from_table, (size_t)n->naccel);
    assert_int_equal(st.from_p1, 3 * (size_t)n->naccel + 1);
    assert_int_equal(gogh_estimator_estimates(e, H), 1);
    assert_int_equal(gogh_estimator_estimates(e, K), 0);
    assert_int_equal(gogh_estimator_estimates(e, &bert), 1);
    /* Observations change nothing in P1 mode. */
    double before = gogh_estimate(e, "v100", H, NULL, NULL);
    gogh_observe(e, "k80", H, NULL, 1000, 0);
    assert_double_equal(gogh_estimate(e, "v100", H, NULL, NULL), before, 0);
    gogh_hist_free(h);
    gogh_estimator_free(e);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* The estimator refuses what it cannot do. */
static void test_estimator_errors(void **state)
{
    (void)state;
    tput_catalog *tp = sample_table();
    gp_err err = {{0}};
    assert_null(gogh_estimator_new(GOGH_EST_P1P2, tp, NULL, &err));
    tu_assert_contains(err.msg, "needs trained nets");
    gogh_train_params p = small_params(1);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    tput_catalog *other = tput_catalog_new("other");
    gogh_jobtype foo = jt("Foo", 8, 1);
    add(other, "k80", &foo, NULL, 1, 0);
    add(other, "v100", &foo, NULL, 2, 0);
    assert_null(gogh_estimator_new(GOGH_EST_P1, other, n, &err));
    tu_assert_contains(err.msg, "none of the job types the nets were trained on");
    assert_int_equal(gogh_nets_eval(n, other, &rep, &err), -1);
    assert_int_equal(gogh_est_mode_parse("p1p2"), GOGH_EST_P1P2);
    assert_int_equal(gogh_est_mode_parse("oracle"), GOGH_EST_ORACLE);
    assert_int_equal(gogh_est_mode_parse("P1"), -1);
    assert_string_equal(gogh_est_mode_name(GOGH_EST_P1), "p1");
    tput_catalog_free(other);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* On the exact table: for every held-out type, alone, observing its k80
 * throughput moves its p100 and v100 estimates toward the truth (2 × and
 * 3 × the observation) in total; the measured class answers the
 * measurement; a refinement is counted per other class. */
static void test_p2_refines(void **state)
{
    (void)state;
    tput_catalog *tp = exact_table(3);
    gogh_train_params p = small_params(150);
    p.hidden = 16;
    p.val_frac = 0.2;
    p.test_frac = 0.2;
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    gogh_estimator *e = estimator(GOGH_EST_P1P2, tp, n);
    tput_index *ix = tput_index_new(tp);
    double before = 0, after = 0;
    size_t held = 0;
    for (size_t i = 0; i < n->ntypes; i++) {
        const gogh_jobtype *t = &n->types[i];
        if (n->split[i] == 0)
            continue;
        held++;
        double truth_k80 = tput_solo(ix, "k80", t);
        for (int a = 1; a < 3; a++)
            before += fabs(gogh_estimate(e, exact_accels[a], t, NULL, NULL) -
                           tput_solo(ix, exact_accels[a], t));
        gogh_observe(e, "k80", t, NULL, truth_k80, 0);
        assert_double_equal(gogh_estimate(e, "k80", t, NULL, NULL), truth_k80, 0);
        for (int a = 1; a < 3; a++)
            after += fabs(gogh_estimate(e, exact_accels[a], t, NULL, NULL) -
                          exact_ratio[a] * truth_k80);
    }
    print_message("P2 on the exact table: |error| %.3f before, %.3f after (%zu types)\n",
                  before, after, held);
    assert_true(held >= 4);
    assert_true(after < before);
    gogh_est_stats st;
    gogh_estimator_stats(e, &st);
    assert_int_equal(st.refinements, 2 * held);
    assert_int_equal(st.observations, held);
    tput_index_free(ix);
    gogh_estimator_free(e);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

/* ---- training's refusals ------------------------------------------------------------ */

static void test_train_errors(void **state)
{
    (void)state;
    gogh_train_params p = small_params(1);
    gogh_train_report rep;
    gp_err err = {{0}};
    tput_catalog *tp = sample_table();
    p.val_frac = 0.5;
    p.test_frac = 0.45;
    assert_null(gogh_nets_train(tp, &p, &rep, &err));
    tu_assert_contains(err.msg, "too few to split");
    p = small_params(1);
    p.hidden = 0;
    assert_null(gogh_nets_train(tp, &p, &rep, &err));
    tu_assert_contains(err.msg, "hidden layers of 1 to");
    p = small_params(1);
    tp->entries[5].tput = NAN;
    assert_null(gogh_nets_train(tp, &p, &rep, &err));
    tu_assert_contains(err.msg, "expected finite numbers >= 0");
    tp->entries[5].tput = -1;
    assert_null(gogh_nets_train(tp, &p, &rep, &err));
    tu_assert_contains(err.msg, "expected finite numbers >= 0");
    tput_catalog_free(tp);
    /* One accelerator class: nothing for P2 to refine from. */
    tput_catalog *one = tput_catalog_new("one");
    for (int i = 0; i < 8; i++) {
        gogh_jobtype t = jt("LM", 5 << i, 1);
        add(one, "v100", &t, NULL, 10.0 / (i + 1), 0);
    }
    assert_null(gogh_nets_train(one, &p, &rep, &err));
    tu_assert_contains(err.msg, "1 accelerator class;");
    tput_catalog_free(one);
}

/* ---- the store ------------------------------------------------------------------------- */

static void test_store_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    tput_catalog *tp = sample_table();
    assert_int_equal(store_put_tput_catalog(st, tp, 0, &err), 0);
    store_gogh_nets sn;
    memset(&sn, 0, sizeof sn);
    snprintf(sn.name, sizeof sn.name, "n1");
    snprintf(sn.tput, sizeof sn.tput, "gavel-like");
    sn.params = "hidden=12";
    unsigned char bytes[] = {1, 2, 3, 0, 5};
    sn.blob = bytes;
    sn.len = sizeof bytes;
    for (int s = 0; s < 3; s++) {
        sn.p1[s] = (store_gogh_err){0.1 * s, 0.2 * s, 10 + s};
        sn.p2[s] = (store_gogh_err){0.3 * s, 0.4 * s, 20 + s};
        sn.types[s] = 5 - s;
    }
    sn.p2[1] = (store_gogh_err){NAN, NAN, 0};           /* an empty split */
    sn.p1_s = 1.5;
    sn.p2_s = 2.5;
    assert_int_equal(store_put_gogh_nets(st, &sn, &err), 0);
    assert_true(sn.id > 0 && sn.created[0]);
    store_gogh_nets *got;
    assert_int_equal(store_get_gogh_nets(st, "n1", &got, &err), 0);
    assert_string_equal(got->tput, "gavel-like");
    assert_string_equal(got->params, "hidden=12");
    assert_int_equal(got->len, sizeof bytes);
    assert_memory_equal(got->blob, bytes, sizeof bytes);
    for (int s = 0; s < 3; s++) {
        assert_int_equal(got->types[s], 5 - s);
        assert_double_equal(got->p1[s].mae, 0.2 * s, 0);
        assert_int_equal(got->p1[s].rows, 10 + s);
    }
    assert_true(isnan(got->p2[1].loss) && isnan(got->p2[1].mae));
    assert_double_equal(got->p2[2].loss, 0.6, 1e-15);
    assert_double_equal(got->p2_s, 2.5, 0);
    store_gogh_nets_free(got);
    /* Replaced under the same name; listed; filtered by catalog. */
    sn.p1_s = 9;
    assert_int_equal(store_put_gogh_nets(st, &sn, &err), 0);
    snprintf(sn.name, sizeof sn.name, "n0");
    assert_int_equal(store_put_gogh_nets(st, &sn, &err), 0);
    store_gogh_nets *list;
    size_t count;
    assert_int_equal(store_list_gogh_nets(st, NULL, &list, &count, &err), 0);
    assert_int_equal(count, 2);
    assert_string_equal(list[0].name, "n0");
    assert_null(list[1].blob);
    assert_int_equal(list[1].len, sizeof bytes);
    assert_double_equal(list[1].p1_s, 9, 0);
    assert_double_equal(list[1].p1[2].mae, 0.4, 1e-15);
    store_gogh_nets_list_free(list, count);
    assert_int_equal(store_list_gogh_nets(st, "nope", &list, &count, &err), -1);
    tu_assert_contains(err.msg, "no throughput catalog named 'nope'");
    /* Errors: unknown catalog, unknown nets. */
    snprintf(sn.tput, sizeof sn.tput, "nope");
    assert_int_equal(store_put_gogh_nets(st, &sn, &err), -1);
    tu_assert_contains(err.msg, "no throughput catalog named 'nope'");
    assert_int_equal(store_get_gogh_nets(st, "zz", &got, &err), -1);
    tu_assert_contains(err.msg, "no GOGH nets named 'zz'");
    assert_int_equal(store_delete_gogh_nets(st, "zz", &err), -1);
    tu_assert_contains(err.msg, "no GOGH nets named 'zz'");
    /* Deleted one by one, and with their catalog. */
    assert_int_equal(store_delete_gogh_nets(st, "n0", &err), 0);
    assert_int_equal(store_delete_tput_catalog(st, "gavel-like", &err), 0);
    assert_int_equal(store_list_gogh_nets(st, NULL, &list, &count, &err), 0);
    assert_int_equal(count, 0);
    free(list);
    tput_catalog_free(tp);
    tu_store_free(st, dir);
}

/* A version-3 database (schema.sql, the PEACE and profile-speed
 * migrations, as the previous build left it) with a throughput table opens
 * at the current version, keeps the table and takes nets for it. */
extern const char store_schema_sql[];

static void test_migrates_version_3(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/v3.db", dir);
    store *st;
    gp_err err = {{0}};
    int created = -1;
    /* Made at version 4, then taken back to what version 3 had. */
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    store_close(st);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DROP TABLE gogh_nets_error; DROP TABLE gogh_nets;"
                                      " DROP TABLE snapshot_gpu;"
                                      " ALTER TABLE trace DROP COLUMN ref_gpu;"
                                      " PRAGMA user_version = 3;"
                                      " INSERT INTO tput_catalog(name) VALUES ('old');"
                                      " INSERT INTO tput_entry(catalog_id, accel, model,"
                                      "  batch_size, scale, tput) VALUES (1, 'v100', 'LM', 5,"
                                      "  1, 3.5)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    assert_int_equal(created, 0);
    assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
    assert_int_equal(tu_count(st, STORE_TPUT), 1);
    store_gogh_nets sn;
    memset(&sn, 0, sizeof sn);
    snprintf(sn.name, sizeof sn.name, "n");
    snprintf(sn.tput, sizeof sn.tput, "old");
    unsigned char one = 1;
    sn.blob = &one;
    sn.len = 1;
    for (int s = 0; s < 3; s++)
        sn.p1[s].loss = sn.p1[s].mae = sn.p2[s].loss = sn.p2[s].mae = NAN;
    assert_int_equal(store_put_gogh_nets(st, &sn, &err), 0);
    store_close(st);
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    store_gogh_nets *got;
    assert_int_equal(store_get_gogh_nets(st, "n", &got, &err), 0);
    store_gogh_nets_free(got);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* ---- the real Gavel table ------------------------------------------------------------ */

/* Trained briefly on the real table: its 26 scale-1 types split 18/4/4 on
 * six accelerator classes; every figure finite, and P1 on held-out types
 * better than answering 0 (whose MAE is the mean normalised throughput,
 * about 0.38 there). */
static void test_real_gavel(void **state)
{
    (void)state;
    const char *data = tu_shared_data("gavel/simulation_throughputs.json");
    if (!data)
        return;
    extern const importer import_gavel;
    char *dir, *path = xasprintf("%s/gavel/simulation_throughputs.json", data);
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_opts opts = {0};
    import_result res;
    memset(&res, 0, sizeof res);
    const char *paths[1] = {path};
    assert_int_equal(import_run(st, &import_gavel, paths, 1, &opts, &res, &err), 0);
    tput_catalog *tp;
    assert_int_equal(store_get_tput_catalog(st, "simulation_throughputs", &tp, &err), 0);
    gogh_train_params p = small_params(10);
    gogh_train_report rep;
    gogh_nets *n = train(tp, &p, &rep);
    assert_int_equal(n->naccel, 6);
    assert_int_equal(rep.types[0], 18);
    assert_int_equal(rep.types[1], 4);
    assert_int_equal(rep.types[2], 4);
    for (int s = 0; s < 3; s++)
        assert_true(isfinite(rep.p1[s].mae) && isfinite(rep.p2[s].mae));
    assert_true(rep.p1[1].mae < 0.3);
    print_message("real Gavel table, 10 epochs: P1 MAE %.4f/%.4f/%.4f, P2 %.4f/%.4f/%.4f\n",
                  rep.p1[0].mae, rep.p1[1].mae, rep.p1[2].mae, rep.p2[0].mae, rep.p2[1].mae,
                  rep.p2[2].mae);
    gogh_nets_free(n);
    tput_catalog_free(tp);
    tu_store_free(st, dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_psi),
        cmocka_unit_test(test_psi_of_sample),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_save_load),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_p1_mode),
        cmocka_unit_test(test_estimator_errors),
        cmocka_unit_test(test_p2_refines),
        cmocka_unit_test(test_train_errors),
        cmocka_unit_test(test_store_round_trip),
        cmocka_unit_test(test_migrates_version_3),
        cmocka_unit_test(test_real_gavel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
