/*
 * util_series_int.h — what util_series.c defines beyond util_series.h for
 * the tests and the benchmarks alone: the engine calls none of it, so it is
 * not part of util_series.h's interface.
 */
#ifndef GP_UTIL_SERIES_INT_H
#define GP_UTIL_SERIES_INT_H

#include "util_series.h"

/* Percent demand at standalone progress p (seconds). */
double useries_pct_at(const task *tk, double progress_s);

#endif
