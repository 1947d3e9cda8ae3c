/*
 * gogh_bytes.c — GOGH's trained nets as one byte buffer for the store
 * (gogh_nets_save, gogh_nets_load), and the checks that make a buffer from
 * a database safe to load.
 *
 * FANN saves a network only to a file, in a text format its own parser
 * reads back with fscanf and few checks; a database is outside input, so
 * the networks are stored here by their shape and weights instead, and
 * gogh_net_new() rebuilds them (the activation functions are part of the
 * version: changing them is a new version).
 *
 * Byte format, version 1 (every field little-endian; a string is a u32
 * length, then that many bytes without a NUL):
 *     "GPGN", u32 version 1
 *     params   f64 val_frac, f64 test_frac, u32 hidden, u32 layers,
 *              u32 epochs, f64 learning_rate, u64 seed
 *     Psi      u32 nfam, nfam strings, f64 log2 batch lo, f64 hi,
 *              f64 log2 scale hi
 *     u32 naccel, naccel strings
 *     u32 ntypes, each: string model, i32 batch size, i32 scale, u32 split
 *     P1, P2   each: u32 inputs, u32 nweights, nweights f64 (FANN's
 *              connection order)
 * Nothing follows P2.  gogh_nets_load() refuses a buffer that is not this
 * with a message: wrong magic or version, truncated or trailing bytes,
 * parameters or counts out of range, a name empty, too long or holding a
 * control byte, a repeated family, accelerator or type, a split other than
 * 0 to 2 or fewer than two training types, inputs or weight counts that do
 * not fit the shape, a number that is not finite, a weight beyond
 * WEIGHT_MAX or one a float cannot hold (FANN's weights are floats).  Counts are checked
 * against the bytes left before anything is allocated for them.  Nets
 * saved, loaded and saved again give the same bytes (weights are FANN's
 * numbers, which f64 holds exactly).
 */
#include "gogh_int.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOGH_MAGIC "GPGN"
#define GOGH_VERSION 1u
/* The smallest a job type takes: an empty-name length, batch, scale, split. */
#define TYPE_MIN_BYTES 16u
/* Trained weights are small; a forged huge one would overflow FANN's
 * float to infinity. */
#define WEIGHT_MAX 1e30

/* ---- writing ------------------------------------------------------------------------ */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
} wbuf;

static void w_bytes(wbuf *b, const void *v, size_t n)
{
    grow_array((void **)&b->p, &b->cap, b->n + n, 1);
    memcpy(b->p + b->n, v, n);
    b->n += n;
}

static void w_u32(wbuf *b, uint32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24)};
    w_bytes(b, le, 4);
}

static void w_u64(wbuf *b, uint64_t v)
{
    w_u32(b, (uint32_t)v);
    w_u32(b, (uint32_t)(v >> 32));
}

static void w_f64(wbuf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    w_u64(b, bits);
}

static void w_str(wbuf *b, const char *s)
{
    size_t n = strlen(s);
    w_u32(b, (uint32_t)n);
    w_bytes(b, s, n);
}

static void w_net(wbuf *b, const gogh_net *net)
{
    size_t n = gogh_net_nweights(net);
    double *w = xmalloc(n * sizeof *w);
    gogh_net_get_weights(net, w);
    w_u32(b, (uint32_t)gogh_net_inputs(net));
    w_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        w_f64(b, w[i]);
    free(w);
}

unsigned char *gogh_nets_save(const gogh_nets *n, size_t *len)
{
    assert(n && len && n->p1 && n->p2);
    wbuf b = {NULL, 0, 0};
    const gogh_train_params *p = &n->params;
    w_bytes(&b, GOGH_MAGIC, 4);
    w_u32(&b, GOGH_VERSION);
    w_f64(&b, p->val_frac);
    w_f64(&b, p->test_frac);
    w_u32(&b, (uint32_t)p->hidden);
    w_u32(&b, (uint32_t)p->layers);
    w_u32(&b, (uint32_t)p->epochs);
    w_f64(&b, p->learning_rate);
    w_u64(&b, p->seed);
    w_u32(&b, (uint32_t)n->psi.nfam);
    for (int f = 0; f < n->psi.nfam; f++)
        w_str(&b, n->psi.fam[f]);
    w_f64(&b, n->psi.log_batch_lo);
    w_f64(&b, n->psi.log_batch_hi);
    w_f64(&b, n->psi.log_scale_hi);
    w_u32(&b, (uint32_t)n->naccel);
    for (int a = 0; a < n->naccel; a++)
        w_str(&b, n->accel[a]);
    w_u32(&b, (uint32_t)n->ntypes);
    for (size_t i = 0; i < n->ntypes; i++) {
        w_str(&b, n->types[i].model);
        w_u32(&b, (uint32_t)n->types[i].batch_size);
        w_u32(&b, (uint32_t)n->types[i].scale);
        w_u32(&b, n->split[i]);
    }
    w_net(&b, n->p1);
    w_net(&b, n->p2);
    *len = b.n;
    return b.p;
}

/* ---- reading ------------------------------------------------------------------------ */

/* A cursor over the buffer; the first problem found is kept in err and
 * every later read returns zeros, so a reader checks once at the end of a
 * section. */
typedef struct rbuf {
    const unsigned char *p;
    size_t len, at;
    int failed;
    gp_err *err;
} rbuf;

__attribute__((format(printf, 2, 3)))
static void r_fail(rbuf *b, const char *fmt, ...);

static const unsigned char *r_take(rbuf *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (n > b->len - b->at) {
        r_fail(b, "truncated: %zu bytes needed at offset %zu, %zu left", n, b->at,
               b->len - b->at);
        return NULL;
    }
    const unsigned char *q = b->p + b->at;
    b->at += n;
    return q;
}

static uint32_t r_u32(rbuf *b)
{
    const unsigned char *q = r_take(b, 4);
    return q ? (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                   (uint32_t)q[3] << 24
             : 0;
}

static uint64_t r_u64(rbuf *b)
{
    uint64_t lo = r_u32(b);
    return lo | (uint64_t)r_u32(b) << 32;
}

/* A finite double; what names it in the message. */
static double r_f64(rbuf *b, const char *what)
{
    uint64_t bits = r_u64(b);
    double v;
    memcpy(&v, &bits, sizeof v);
    if (!b->failed && !isfinite(v))
        r_fail(b, "%s is not a finite number", what);
    return b->failed ? 0 : v;
}

/* A u32 count in [lo, hi]. */
static uint32_t r_count(rbuf *b, const char *what, uint32_t lo, uint32_t hi)
{
    uint32_t v = r_u32(b);
    if (!b->failed && (v < lo || v > hi))
        r_fail(b, "%s is %u; expected %u to %u", what, v, lo, hi);
    return b->failed ? 0 : v;
}

/* A name into out[n]: 1 to n-1 bytes, none below 0x20. */
static void r_str(rbuf *b, char *out, size_t n, const char *what)
{
    uint32_t len = r_u32(b);
    out[0] = '\0';
    if (!b->failed && (len < 1 || len >= n)) {
        r_fail(b, "%s is %u bytes long; expected 1 to %zu", what, len, n - 1);
        return;
    }
    const unsigned char *q = r_take(b, len);
    for (uint32_t i = 0; q && i < len; i++)
        if (q[i] < 0x20) {
            r_fail(b, "%s holds control byte 0x%02x", what, q[i]);
            return;
        }
    if (q) {
        memcpy(out, q, len);
        out[len] = '\0';
    }
}

static void r_fail(rbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    char msg[GP_ERR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gp_error(b->err, "GOGH nets: %s", msg);
    b->failed = 1;
}

static void read_params(rbuf *b, gogh_train_params *p)
{
    p->val_frac = r_f64(b, "the validation fraction");
    p->test_frac = r_f64(b, "the test fraction");
    p->hidden = (int)r_count(b, "the hidden layer size", 1, GOGH_MAX_HIDDEN);
    p->layers = (int)r_count(b, "the number of hidden layers", 1, GOGH_MAX_LAYERS);
    p->epochs = (int)r_count(b, "the number of epochs", 0, GOGH_MAX_EPOCHS);
    p->learning_rate = r_f64(b, "the learning rate");
    p->seed = r_u64(b);
    gp_err why = {{0}};
    if (!b->failed && gogh_train_params_check(p, &why))
        r_fail(b, "%s", why.msg);
}

static void read_psi(rbuf *b, gogh_psi_enc *e)
{
    e->nfam = (int)r_count(b, "the number of model families", 0, GOGH_MAX_FAMILIES);
    for (int f = 0; f < e->nfam; f++) {
        r_str(b, e->fam[f], sizeof e->fam[f], "a family name");
        for (int g = 0; g < f && !b->failed; g++)
            if (strcmp(e->fam[g], e->fam[f]) == 0)
                r_fail(b, "family '%s' is listed twice", e->fam[f]);
    }
    e->log_batch_lo = r_f64(b, "the batch range");
    e->log_batch_hi = r_f64(b, "the batch range");
    e->log_scale_hi = r_f64(b, "the scale range");
    if (!b->failed && (e->log_batch_lo > e->log_batch_hi || e->log_batch_lo < 0 ||
                       e->log_batch_hi > 31 || e->log_scale_hi < 0 || e->log_scale_hi > 31))
        r_fail(b, "the batch and scale ranges (%g to %g, %g) are not log2 ranges of sizes",
               e->log_batch_lo, e->log_batch_hi, e->log_scale_hi);
}

static void read_accels(rbuf *b, gogh_nets *n)
{
    n->naccel = (int)r_count(b, "the number of accelerator classes", 2, GOGH_MAX_ACCELS);
    for (int a = 0; a < n->naccel; a++) {
        r_str(b, n->accel[a], sizeof n->accel[a], "an accelerator name");
        if (!b->failed && gogh_nets_accel(n, n->accel[a]) != a)
            r_fail(b, "accelerator '%s' is listed twice", n->accel[a]);
    }
}

static void read_types(rbuf *b, gogh_nets *n)
{
    uint32_t nt = r_count(b, "the number of job types", 3, GOGH_MAX_TYPES);
    if (!b->failed && nt > (b->len - b->at) / TYPE_MIN_BYTES)
        r_fail(b, "truncated: %u job types cannot fit in %zu bytes", nt, b->len - b->at);
    if (b->failed)
        return;
    n->types = xcalloc(nt, sizeof *n->types);
    n->split = xcalloc(nt, sizeof *n->split);
    size_t ntrain = 0;
    for (uint32_t i = 0; i < nt && !b->failed; i++) {
        gogh_jobtype *t = &n->types[i];
        r_str(b, t->model, sizeof t->model, "a model name");
        t->batch_size = (int)r_count(b, "a batch size", 0, INT32_MAX);
        t->scale = (int)r_count(b, "a job type's scale", 1, 1);
        n->split[i] = (unsigned char)r_count(b, "a job type's split", 0, 2);
        ntrain += n->split[i] == 0;
        n->ntypes = i + 1;
        if (!b->failed && gogh_nets_type(n, t) != (int)i)
            r_fail(b, "job type '%s' batch %d is listed twice", t->model, t->batch_size);
    }
    if (!b->failed && ntrain < 2)
        r_fail(b, "%zu job types in the training split; the nets need at least 2", ntrain);
}

/* A network of the nets' shape with nin inputs; NULL after r_fail. */
static gogh_net *read_net(rbuf *b, const gogh_nets *n, int nin, const char *name)
{
    const gogh_train_params *p = &n->params;
    uint32_t in = r_u32(b), nw = r_u32(b);
    size_t want = gogh_net_count_weights(nin, p->hidden, p->layers);
    if (!b->failed && (in != (uint32_t)nin || nw != want))
        r_fail(b, "%s has %u inputs and %u weights; its shape needs %d and %zu", name, in, nw,
               nin, want);
    if (!b->failed && nw > (b->len - b->at) / 8)
        r_fail(b, "truncated: %s's %u weights need %zu bytes, %zu left", name, nw,
               (size_t)nw * 8, b->len - b->at);
    if (b->failed)
        return NULL;
    double *w = xmalloc((size_t)nw * sizeof *w);
    for (uint32_t i = 0; i < nw && !b->failed; i++) {
        w[i] = r_f64(b, "a weight");
        if (fabs(w[i]) > WEIGHT_MAX)
            r_fail(b, "%s's weight %u is %g, beyond +-%g", name, i, w[i], WEIGHT_MAX);
        /* FANN keeps floats: a double no float equals would load as
         * another number and save as other bytes. */
        else if (!b->failed && (double)(float)w[i] != w[i])
            r_fail(b, "%s's weight %u is %.17g, which a network's float cannot hold", name,
                   i, w[i]);
    }
    gogh_net *net = NULL;
    if (!b->failed) {
        net = gogh_net_new(nin, p->hidden, p->layers, NULL);
        gogh_net_set_weights(net, w);
    }
    free(w);
    return net;
}

gogh_nets *gogh_nets_load(const void *buf, size_t len, gp_err *err)
{
    rbuf b = {buf, buf ? len : 0, 0, 0, err};
    const unsigned char *magic = r_take(&b, 4);
    if (magic && memcmp(magic, GOGH_MAGIC, 4) != 0)
        r_fail(&b, "bad magic (not GOGH nets)");
    uint32_t version = r_u32(&b);
    if (!b.failed && version != GOGH_VERSION)
        r_fail(&b, "version %u; this program reads version %u", version, GOGH_VERSION);
    gogh_nets *n = xcalloc(1, sizeof *n);
    read_params(&b, &n->params);
    read_psi(&b, &n->psi);
    read_accels(&b, n);
    read_types(&b, n);
    if (!b.failed)
        n->p1 = read_net(&b, n, gogh_p1_inputs(n), "P1");
    if (!b.failed)
        n->p2 = read_net(&b, n, gogh_p2_inputs(n), "P2");
    if (!b.failed && b.at != b.len)
        r_fail(&b, "%zu bytes follow the nets", b.len - b.at);
    if (b.failed) {
        gogh_nets_free(n);
        return NULL;
    }
    return n;
}
