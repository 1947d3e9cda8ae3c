/*
 * hourly_read.h — reading an hourly series (core/hourly.h) from a CSV file
 * of two columns, `hour` and the value's column (`usd_per_kwh`,
 * `g_co2e_per_kwh` or `pue`), one row per hour from 0 with no gap
 * (docs/formats.md).  Every error names file, line and column; on error
 * nothing is returned.
 *
 * Not here: how the series maps onto a run's clock (core/hourly.h) or
 * what it prices (power/energy_cost.h).
 */
#ifndef GP_HOURLY_READ_H
#define GP_HOURLY_READ_H

#include "core/hourly.h"
#include "core/util.h"

/* The most rows a series may have: ten years of hours. */
#define HOURLY_MAX_ROWS 87840

/* What one kind of series holds: its value column and the values allowed. */
typedef struct hourly_kind {
    const char *column;         /* "usd_per_kwh", ... */
    double min, max;            /* allowed range of the values */
} hourly_kind;

extern const hourly_kind HOURLY_PRICE;   /* usd_per_kwh, [0, 1e6] */
extern const hourly_kind HOURLY_CARBON;  /* g_co2e_per_kwh, [0, 1e5] */
extern const hourly_kind HOURLY_PUE;     /* pue, [1, 10] */

/* Reads path as a series of that kind: 0 with *out (allocated, the caller
 * frees it with hourly_free), or -1 with a message naming file:line:col
 * (a missing or unknown column, a row of more or fewer fields, an hour
 * out of sequence, a value that is not a number or is out of range, no
 * rows) and *out untouched. */
int hourly_read(const char *path, const hourly_kind *kind, hourly **out, gp_err *err);

#endif
