/*
 * corrtest.h — the fixture the correlation family's tests share: servers of
 * four V100, an empty trace to add tasks to by hand, and the cluster state
 * over them.  Header-only (static functions), like testutil.h.
 */
#ifndef GP_CORRTEST_H
#define GP_CORRTEST_H

#include "testutil.h"

#include "core/cstate.h"

typedef struct corr_fx {
    catalog *cat;
    cluster *cl;
    gp_trace *tr;
    cstate *cs;
    double *progress; /* a test's own per-task progress, freed with the rest */
} corr_fx;

/* nodes servers named s0, s1, ... of 4 V100 each, room for any CPU and RAM. */
static inline void corr_fx_init(corr_fx *f, int nodes)
{
    memset(f, 0, sizeof *f);
    f->cat = catalog_new();
    catalog_add_builtin(f->cat);
    f->cl = cluster_new("c");
    for (int i = 0; i < nodes; i++) {
        node n;
        memset(&n, 0, sizeof n);
        snprintf(n.name, sizeof n.name, "s%d", i);
        strcpy(n.gpu_model, "V100");
        n.gpu_count = 4;
        n.cpu_milli = 64000;
        n.ram_mib = 1 << 20;
        cluster_add_node(f->cl, &n);
    }
    f->tr = trace_new("t");
    gp_err err = {{0}};
    f->cs = cstate_new(f->cl, f->cat, &err);
    assert_non_null(f->cs);
}

static inline void corr_fx_free(corr_fx *f)
{
    cstate_free(f->cs);
    trace_free(f->tr);
    cluster_free(f->cl);
    catalog_free(f->cat);
    free(f->progress);
}

#endif
