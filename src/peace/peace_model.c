/*
 * peace_model.c — training, prediction, error and serialisation of
 * PEACE's six Extra-Trees models (peace_model.h).
 */
#include "peace_model.h"
#include "core/rng.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows ------------------------------------------------------------------ */

/* The representative clock of a row, -1 when it is measured at another. */
static int clock_of(const peace_index *ix, double f)
{
    for (int fi = 0; fi < peace_nfreqs(ix); fi++)
        if (fabs(peace_freq(ix, fi) - f) < 0.5)
            return fi;
    return -1;
}

static int involves(const peace_coloc *r, int w)
{
    for (int i = 0; i < r->n; i++)
        if (r->workload[i] == w)
            return 1;
    return 0;
}

static void combo_of_row(const peace_coloc *r, peace_combo *c)
{
    c->n = r->n;
    for (int i = 0; i < r->n; i++) {
        c->w[i] = r->workload[i];
        c->share[i] = r->share_pct[i];
    }
    peace_combo_canon(c);
}

/* Features exist only for shares the profiles hold: 10..90 on the grid
 * (not the no-partition rows, nor a triple's 34+33+33). */
static int on_profile_grid(const peace_coloc *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->share_pct[i] % PEACE_SHARE_STEP || r->share_pct[i] >= 100)
            return 0;
    return 1;
}

static int row_passes(const peace_index *ix, const peace_coloc *r, const peace_row_filter *f)
{
    if (!on_profile_grid(r) || clock_of(ix, r->freq_mhz) < 0)
        return 0;
    if (f->n > 0 && r->n != f->n)
        return 0;
    if (f->without >= 0 && involves(r, f->without))
        return 0;
    return f->with < 0 || involves(r, f->with);
}

size_t peace_rows(const peace_index *ix, const peace_row_filter *f, size_t *out)
{
    const peace_set *s = peace_index_set(ix);
    size_t n = 0;
    for (size_t i = 0; i < s->nco; i++)
        if (row_passes(ix, &s->co[i], f))
            out[n++] = i;
    return n;
}

size_t peace_rows_sample(size_t *rows, size_t n, double frac, uint64_t seed)
{
    if (n == 0)
        return 0;
    rng r;
    rng_seed(&r, seed);
    rng_shuffle(&r, rows, n, sizeof *rows);
    size_t keep = (size_t)llround(frac * (double)n);
    return keep < 1 ? 1 : keep > n ? n : keep;
}

/* ---- scaling --------------------------------------------------------------- */

static void scaler_fit(peace_scaler *sc, int d, const double *X, size_t n)
{
    sc->d = d;
    for (int j = 0; j < d; j++) {
        sc->lo[j] = INFINITY;
        sc->hi[j] = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            sc->lo[j] = fmin(sc->lo[j], X[i * (size_t)d + (size_t)j]);
            sc->hi[j] = fmax(sc->hi[j], X[i * (size_t)d + (size_t)j]);
        }
    }
}

static void scaler_apply(const peace_scaler *sc, double *x)
{
    for (int j = 0; j < sc->d; j++)
        x[j] = sc->hi[j] > sc->lo[j] ? (x[j] - sc->lo[j]) / (sc->hi[j] - sc->lo[j]) : 0;
}

/* ---- training -------------------------------------------------------------- */

/* The training matrices of one clock: features of every row at fi. */
typedef struct clock_data {
    double *Xp, *Xt, *yp, *yt;
    size_t n;
} clock_data;

static void clock_data_build(const peace_index *ix, const size_t *rows, size_t n, int fi,
                             clock_data *cd)
{
    const peace_set *s = peace_index_set(ix);
    size_t cap = n ? n : 1;
    cd->Xp = xmalloc(cap * PEACE_NFEAT_POWER * sizeof *cd->Xp);
    cd->Xt = xmalloc(cap * PEACE_NFEAT_TPUT * sizeof *cd->Xt);
    cd->yp = xmalloc(cap * sizeof *cd->yp);
    cd->yt = xmalloc(cap * sizeof *cd->yt);
    cd->n = 0;
    for (size_t k = 0; k < n; k++) {
        const peace_coloc *r = &s->co[rows[k]];
        if (clock_of(ix, r->freq_mhz) != fi)
            continue;
        peace_combo c;
        combo_of_row(r, &c);
        peace_features(ix, &c, fi, cd->Xp + cd->n * PEACE_NFEAT_POWER,
                       cd->Xt + cd->n * PEACE_NFEAT_TPUT);
        double sum = 0;
        for (int i = 0; i < r->n; i++)
            sum += r->tput[i];
        cd->yt[cd->n] = sum;
        cd->yp[cd->n] = r->power_w;
        cd->n++;
    }
}

static void clock_data_free(clock_data *cd)
{
    free(cd->Xp);
    free(cd->Xt);
    free(cd->yp);
    free(cd->yt);
}

static void scale_rows(const peace_scaler *sc, double *X, size_t n)
{
    for (size_t i = 0; i < n; i++)
        scaler_apply(sc, X + i * (size_t)sc->d);
}

static int train_clock(peace_models *m, const peace_index *ix, const size_t *rows, size_t n,
                       int fi, gp_err *err)
{
    clock_data cd;
    clock_data_build(ix, rows, n, fi, &cd);
    int rc = 0;
    if (cd.n == 0) {
        rc = gp_error(err, "no training row at %g MHz", peace_freq(ix, fi));
    } else {
        scaler_fit(&m->power_sc[fi], PEACE_NFEAT_POWER, cd.Xp, cd.n);
        scaler_fit(&m->tput_sc[fi], PEACE_NFEAT_TPUT, cd.Xt, cd.n);
        scale_rows(&m->power_sc[fi], cd.Xp, cd.n);
        scale_rows(&m->tput_sc[fi], cd.Xt, cd.n);
        et_params p = m->params;
        p.seed = m->params.seed * 2 * PEACE_MAX_FREQS + (uint64_t)(2 * fi);
        m->power[fi] = et_train(cd.Xp, cd.yp, cd.n, PEACE_NFEAT_POWER, &p, err);
        p.seed++;
        m->tput[fi] = m->power[fi] ? et_train(cd.Xt, cd.yt, cd.n, PEACE_NFEAT_TPUT, &p, err)
                                   : NULL;
        rc = m->tput[fi] ? 0 : -1;
        m->ntrain += cd.n;
    }
    clock_data_free(&cd);
    return rc;
}

int peace_models_train(peace_models *m, const peace_index *ix, const size_t *rows, size_t n,
                       const et_params *p, gp_err *err)
{
    memset(m, 0, sizeof *m);
    m->params = *p;
    m->nfreq = peace_nfreqs(ix);
    for (int fi = 0; fi < m->nfreq; fi++) {
        m->freq_mhz[fi] = peace_freq(ix, fi);
        if (train_clock(m, ix, rows, n, fi, err)) {
            peace_models_free(m);
            return -1;
        }
    }
    return 0;
}

void peace_models_free(peace_models *m)
{
    for (int fi = 0; fi < PEACE_MAX_FREQS; fi++) {
        et_free(m->power[fi]);
        et_free(m->tput[fi]);
        m->power[fi] = m->tput[fi] = NULL;
    }
    m->nfreq = 0;
}

/* ---- prediction ------------------------------------------------------------ */

void peace_models_predict(const peace_models *m, const peace_index *ix, const peace_combo *c,
                          int fi, double *tput_sum, double *power_w)
{
    assert(fi >= 0 && fi < m->nfreq && m->power[fi] && m->tput[fi]);
    double xp[PEACE_NFEAT_POWER], xt[PEACE_NFEAT_TPUT];
    peace_features(ix, c, fi, xp, xt);
    scaler_apply(&m->power_sc[fi], xp);
    scaler_apply(&m->tput_sc[fi], xt);
    *power_w = et_predict(m->power[fi], xp);
    *tput_sum = et_predict(m->tput[fi], xt);
}

void peace_models_mape(const peace_models *m, const peace_index *ix, const size_t *rows,
                       size_t n, double *tput_mape, double *power_mape)
{
    const peace_set *s = peace_index_set(ix);
    double et = 0, ep = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const peace_coloc *r = &s->co[rows[i]];
        int fi = clock_of(ix, r->freq_mhz);
        if (fi < 0)
            continue;
        peace_combo c;
        combo_of_row(r, &c);
        double t, p, sum = 0;
        peace_models_predict(m, ix, &c, fi, &t, &p);
        for (int j = 0; j < r->n; j++)
            sum += r->tput[j];
        if (sum <= 0 || r->power_w <= 0)
            continue;
        et += fabs(t - sum) / sum;
        ep += fabs(p - r->power_w) / r->power_w;
        k++;
    }
    *tput_mape = k ? 100 * et / (double)k : NAN;
    *power_mape = k ? 100 * ep / (double)k : NAN;
}

/* ---- serialisation ----------------------------------------------------------
 *
 * "PEACEMDL", version, nfreq; per clock: its MHz, both scalers (d, lo[],
 * hi[]), then each model as a length and et_save()'s bytes.  Numbers are
 * written in the machine's byte order of the fixed-width types, which on
 * every platform the project builds for is little-endian; et_save's own
 * bytes are little-endian by construction.
 */

#define MODELS_MAGIC "PEACEMDL"
#define MODELS_VERSION 1u

typedef struct writer {
    unsigned char *buf;
    size_t len, cap;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    grow_array((void **)&w->buf, &w->cap, w->len + n, 1);
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void put_u32(writer *w, uint32_t v)
{
    put(w, &v, sizeof v);
}

static void put_scaler(writer *w, const peace_scaler *sc)
{
    put_u32(w, (uint32_t)sc->d);
    put(w, sc->lo, (size_t)sc->d * sizeof *sc->lo);
    put(w, sc->hi, (size_t)sc->d * sizeof *sc->hi);
}

static void put_model(writer *w, const et_model *em)
{
    size_t n;
    unsigned char *b = et_save(em, &n);
    put_u32(w, (uint32_t)n);
    put(w, b, n);
    free(b);
}

unsigned char *peace_models_save(const peace_models *m, size_t *len)
{
    writer w = {0};
    put(&w, MODELS_MAGIC, 8);
    put_u32(&w, MODELS_VERSION);
    put_u32(&w, (uint32_t)m->nfreq);
    for (int fi = 0; fi < m->nfreq; fi++) {
        put(&w, &m->freq_mhz[fi], sizeof m->freq_mhz[fi]);
        put_scaler(&w, &m->power_sc[fi]);
        put_scaler(&w, &m->tput_sc[fi]);
        put_model(&w, m->power[fi]);
        put_model(&w, m->tput[fi]);
    }
    *len = w.len;
    return w.buf;
}

typedef struct reader {
    const unsigned char *p;
    size_t left;
} reader;

static int get(reader *r, void *out, size_t n)
{
    if (r->left < n)
        return -1;
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return 0;
}

static int get_scaler(reader *r, peace_scaler *sc, int d)
{
    uint32_t got;
    if (get(r, &got, sizeof got) || got != (uint32_t)d)
        return -1;
    sc->d = d;
    return get(r, sc->lo, (size_t)d * sizeof *sc->lo) || get(r, sc->hi, (size_t)d * sizeof *sc->hi);
}

static et_model *get_model(reader *r, int d, gp_err *err)
{
    uint32_t n;
    if (get(r, &n, sizeof n) || r->left < n) {
        gp_error(err, "PEACE models: truncated");
        return NULL;
    }
    et_model *em = et_load(r->p, n, err);
    r->p += n;
    r->left -= n;
    if (em && et_nfeatures(em) != d) {
        gp_error(err, "PEACE models: a model of %d features where %d are expected",
                 et_nfeatures(em), d);
        et_free(em);
        return NULL;
    }
    return em;
}

static int load_clock(peace_models *m, reader *r, const peace_index *ix, int fi, gp_err *err)
{
    if (get(r, &m->freq_mhz[fi], sizeof m->freq_mhz[fi]) ||
        fabs(m->freq_mhz[fi] - peace_freq(ix, fi)) > 0.5)
        return gp_error(err, "PEACE models: trained for other clocks than the set's");
    if (get_scaler(r, &m->power_sc[fi], PEACE_NFEAT_POWER) ||
        get_scaler(r, &m->tput_sc[fi], PEACE_NFEAT_TPUT))
        return gp_error(err, "PEACE models: bad feature scaling");
    if (!(m->power[fi] = get_model(r, PEACE_NFEAT_POWER, err)) ||
        !(m->tput[fi] = get_model(r, PEACE_NFEAT_TPUT, err)))
        return -1;
    return 0;
}

int peace_models_load(peace_models *m, const peace_index *ix, const void *buf, size_t len,
                      gp_err *err)
{
    memset(m, 0, sizeof *m);
    reader r = {buf, len};
    char magic[8];
    uint32_t version, nfreq;
    if (get(&r, magic, 8) || memcmp(magic, MODELS_MAGIC, 8) || get(&r, &version, 4) ||
        version != MODELS_VERSION || get(&r, &nfreq, 4))
        return gp_error(err, "PEACE models: not a model file of this version");
    if ((int)nfreq != peace_nfreqs(ix))
        return gp_error(err, "PEACE models: trained for %u clocks, the set has %d", nfreq,
                        peace_nfreqs(ix));
    m->nfreq = (int)nfreq;
    for (int fi = 0; fi < m->nfreq; fi++) {
        if (load_clock(m, &r, ix, fi, err)) {
            peace_models_free(m);
            return -1;
        }
    }
    return 0;
}
