/*
 * sweep_curves.h — the file of an inflation sweep's mean curves with their
 * spread (`gpuplan sweep inflation --out`), as CSV (one row per policy,
 * curve kind, metric and point) or as JSON (jansson), from plain rows the
 * caller fills (the statistics are computed in sim/inflation.c).
 *
 * Not here: the statistics, the comparison table, the event log.
 *
 * Ownership: everything is borrowed from the caller.
 */
#ifndef GP_SWEEP_CURVES_H
#define GP_SWEEP_CURVES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/util.h"

/* One point of a curve over seeds; NaN where the runs have no value. */
typedef struct sweep_point {
    double x;
    double mean, sd, min, max;
    int n;                      /* runs with a value */
} sweep_point;

typedef struct sweep_curve {
    const char *kind;           /* "percent" (FGD paper) or "grid" (PWR paper) */
    const char *metric;
    const sweep_point *pt;
    size_t n;
    int csv_only;               /* a derived curve the JSON file leaves out */
} sweep_curve;

typedef struct sweep_policy_curves {
    const char *label;
    int runs;
    const sweep_curve *curve;
    size_t ncurves;
} sweep_policy_curves;

typedef struct sweep_curves {
    const char *trace, *cluster;
    double ratio;
    const uint64_t *seeds;
    size_t nseeds;
    const double *percent_x;    /* the x of the percent curves */
    size_t npercent;
    const double *grid_x;       /* and of the grid curves */
    size_t ngrid;
    const sweep_policy_curves *pol;
    size_t npol;
} sweep_curves;

/* CSV: policy,curve,metric,x,mean,sd,min,max,n with every number in its
 * shortest form that reads back the same double, empty for NaN. */
void sweep_curves_write_csv(FILE *f, const sweep_curves *c);

/* JSON: {"trace", "cluster", "ratio", "seeds", "percent_x", "grid_x",
 * "policies": [{"policy", "runs", "percent": {METRIC: {"mean": [...],
 * "sd", "min", "max"}}, "grid": {...}}]}; a whole number is written as an
 * integer, any other as the 17 significant digits that read back the same
 * double, NaN as null.  0, or -1 with a message. */
int sweep_curves_write_json(FILE *f, const sweep_curves *c, gp_err *err);

#endif
