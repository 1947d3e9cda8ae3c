/*
 * sweep_curves.c — an inflation sweep's curves written as CSV or JSON
 * (sweep_curves.h).
 */
#include "sweep_curves.h"
#include "table.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

/* --- CSV ---------------------------------------------------------------------- */

static void put_num(FILE *f, double v)
{
    char buf[40];
    if (isnan(v))
        buf[0] = '\0';
    else
        fmt_double(buf, sizeof buf, v);
    fputs(buf, f);
}

static void csv_point(FILE *f, const char *pol, const sweep_curve *cv, const sweep_point *p)
{
    csv_put(f, pol);
    fprintf(f, ",%s,%s,", cv->kind, cv->metric);
    put_num(f, p->x);
    const double v[4] = {p->mean, p->sd, p->min, p->max};
    for (int i = 0; i < 4; i++) {
        fputc(',', f);
        put_num(f, v[i]);
    }
    fprintf(f, ",%d\n", p->n);
}

void sweep_curves_write_csv(FILE *f, const sweep_curves *c)
{
    fprintf(f, "policy,curve,metric,x,mean,sd,min,max,n\n");
    for (size_t p = 0; p < c->npol; p++)
        for (size_t k = 0; k < c->pol[p].ncurves; k++) {
            const sweep_curve *cv = &c->pol[p].curve[k];
            for (size_t i = 0; i < cv->n; i++)
                csv_point(f, c->pol[p].label, cv, &cv->pt[i]);
        }
}

/* --- JSON --------------------------------------------------------------------- */

/* A whole number as an integer (as it was written before jansson: "130",
 * not "130.0"), NaN as null, any other number as a real. */
static json_t *num(double v)
{
    if (isnan(v))
        return json_null();
    if (v == rint(v) && fabs(v) < 9007199254740992.0)     /* 2^53: exact */
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *num_array(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, num(v[i]));
    return a;
}

/* {"mean": [...], "sd": [...], "min": [...], "max": [...]} of one curve. */
static json_t *curve_json(const sweep_curve *cv)
{
    static const char *const keys[4] = {"mean", "sd", "min", "max"};
    json_t *o = json_object();
    for (int k = 0; k < 4; k++) {
        json_t *a = json_array();
        for (size_t i = 0; i < cv->n; i++) {
            const sweep_point *p = &cv->pt[i];
            const double v[4] = {p->mean, p->sd, p->min, p->max};
            json_array_append_new(a, num(v[k]));
        }
        json_object_set_new(o, keys[k], a);
    }
    return o;
}

static json_t *policy_json(const sweep_policy_curves *pc)
{
    json_t *o = json_object(), *percent = json_object(), *grid = json_object();
    json_object_set_new(o, "policy", json_string(pc->label));
    json_object_set_new(o, "runs", json_integer(pc->runs));
    for (size_t k = 0; k < pc->ncurves; k++) {
        const sweep_curve *cv = &pc->curve[k];
        if (!cv->csv_only)
            json_object_set_new(strcmp(cv->kind, "grid") == 0 ? grid : percent, cv->metric,
                                curve_json(cv));
    }
    json_object_set_new(o, "percent", percent);
    json_object_set_new(o, "grid", grid);
    return o;
}

int sweep_curves_write_json(FILE *f, const sweep_curves *c, gp_err *err)
{
    json_t *doc = json_object(), *seeds = json_array(), *pols = json_array();
    json_object_set_new(doc, "trace", json_string(c->trace));
    json_object_set_new(doc, "cluster", json_string(c->cluster));
    json_object_set_new(doc, "ratio", num(c->ratio));
    for (size_t k = 0; k < c->nseeds; k++)
        json_array_append_new(seeds, json_integer((json_int_t)c->seeds[k]));
    json_object_set_new(doc, "seeds", seeds);
    json_object_set_new(doc, "percent_x", num_array(c->percent_x, c->npercent));
    json_object_set_new(doc, "grid_x", num_array(c->grid_x, c->ngrid));
    for (size_t p = 0; p < c->npol; p++)
        json_array_append_new(pols, policy_json(&c->pol[p]));
    json_object_set_new(doc, "policies", pols);
    /* 17 significant digits: every double reads back the same. */
    int rc = json_dumpf(doc, f, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(doc);
    /* A failed write is the caller's to report on closing the file
     * (export_file.h); anything else is the document. */
    if (rc != 0 && !ferror(f))
        return gp_error(err, "writing JSON failed");
    fputc('\n', f);
    return 0;
}
