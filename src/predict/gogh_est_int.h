/*
 * gogh_est_int.h — what gogh_catalog.c defines beyond gogh_est.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of gogh_est.h's interface.
 */
#ifndef GP_GOGH_EST_INT_H
#define GP_GOGH_EST_INT_H

#include "gogh_est.h"

const char *gogh_est_mode_name(gogh_est_mode m);   /* "oracle", "p1", "p1p2" */
int gogh_est_mode_parse(const char *s);            /* -1 when unknown */

/* 1 when j's throughputs come from estimates (a job type new to the mode,
 * or one the table does not have), 0 when from the table. */
int gogh_estimator_estimates(gogh_estimator *e, const gogh_jobtype *j);

#endif
