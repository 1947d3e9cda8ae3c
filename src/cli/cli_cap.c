/*
 * cli_cap.c — the --gpu-cap option of run and plan (cli_cap.h).  The
 * mechanism is power/power_cap.c's; this file turns it into checks and
 * words about the cluster at hand.
 */
#include "cli_cap.h"

#include <string.h>

int cli_parse_caps(void *value, const char *arg, gp_err *err)
{
    return power_caps_parse(arg, value, err);
}

typedef void (*capped_fn)(void *ctx, const gpu_profile *p, double cap);

/* Calls fn for each capped profile of p[0..n) (NULL entries skipped). */
static void each_profile(const power_caps *c, const gpu_profile *const *p, size_t n,
                         capped_fn fn, void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        double cap = p[i] ? power_caps_for(c, p[i]->name) : 0;
        if (cap > 0)
            fn(ctx, p[i], cap);
    }
}

/* Calls fn for each distinct capped GPU model of cl, in server order. */
static void each_capped(const power_caps *c, const cluster *cl, const catalog *cat,
                        capped_fn fn, void *ctx)
{
    for (size_t i = 0; i < cl->nnodes; i++) {
        const gpu_profile *p = cluster_model_first(cl, i) ?
                               catalog_gpu(cat, cl->nodes[i].gpu_model) : NULL;
        each_profile(c, &p, 1, fn, ctx);
    }
}

typedef struct check_ctx {
    const char *peace_gpu;
    gp_err *err;
    int rc;
} check_ctx;

static void check_one(void *ctx, const gpu_profile *p, double cap)
{
    check_ctx *k = ctx;
    if (k->rc == 0 && power_cap_check(p, cap, k->peace_gpu && strcmp(k->peace_gpu, p->name) == 0,
                                      k->err))
        k->rc = -1;
}

int cli_caps_check(const power_caps *c, const cluster *cl, const catalog *cat,
                   const char *peace_gpu, gp_err *err)
{
    if (power_caps_check_models(c, cat, err))
        return -1;
    check_ctx k = {peace_gpu, err, 0};
    each_capped(c, cl, cat, check_one, &k);
    if (k.rc)
        gp_error_prefix(err, "--gpu-cap");
    return k.rc;
}

static void note_one(void *ctx, const gpu_profile *p, double cap);

typedef struct describe_ctx {
    const char *peace_gpu;
    char *buf;
    size_t len;
} describe_ctx;

static void describe_one(void *ctx, const gpu_profile *p, double cap)
{
    describe_ctx *k = ctx;
    char what[160];
    power_cap_describe(p, cap, what, sizeof what);
    size_t at = strlen(k->buf);
    if (k->peace_gpu && strcmp(k->peace_gpu, p->name) == 0)
        snprintf(k->buf + at, k->len - at, "%s%s %g W: PEACE split (where PEACE cannot hold "
                 "a GPU: %s)", at ? "; " : "", p->name, cap, what);
    else
        snprintf(k->buf + at, k->len - at, "%s%s %g W: %s", at ? "; " : "", p->name, cap, what);
}

void cli_caps_describe(const power_caps *c, const cluster *cl, const catalog *cat,
                       const char *peace_gpu, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    describe_ctx k = {peace_gpu, buf, len};
    each_capped(c, cl, cat, describe_one, &k);
    if (!buf[0])
        snprintf(buf, len, "no GPU of the cluster is capped");
}

void cli_caps_describe_profiles(const power_caps *c, const gpu_profile *const *p, size_t n,
                                char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    describe_ctx k = {NULL, buf, len};
    each_profile(c, p, n, describe_one, &k);
    if (!buf[0])
        snprintf(buf, len, "no GPU model of the plan is capped");
}

void cli_caps_notes_profiles(FILE *err_out, const power_caps *c, const gpu_profile *const *p,
                             size_t n)
{
    each_profile(c, p, n, note_one, err_out);
}

static void note_one(void *ctx, const gpu_profile *p, double cap)
{
    double f;
    power_cap_effect eff;
    gp_err err;
    if (power_cap_clock(p, cap, &f, &eff, &err) == 0 && eff == CAP_NO_EFFECT)
        fprintf(ctx, "gpuplan: note: --gpu-cap %g W has no effect on %s: it draws at most "
                "%g W\n", cap, p->name, p->max_w);
}

void cli_caps_notes(FILE *err_out, const power_caps *c, const cluster *cl, const catalog *cat)
{
    each_capped(c, cl, cat, note_one, err_out);
}
