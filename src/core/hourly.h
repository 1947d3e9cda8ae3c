/*
 * hourly.h — a series of one value per hour (an electricity price, a grid's
 * carbon intensity, a PUE), read from a file by io/hourly_read.h, and how
 * an hour of a run's clock finds its value.
 *
 * A series of n rows repeats: hour h of the trace's clock (h = floor(t /
 * 3600), t in seconds from the trace's time 0) takes row h mod n.  So 24
 * rows are a day that every day of the run repeats, 168 a week, 8760 a
 * year.  Plain data: nothing here reads files.
 *
 * Ownership: hourly_new() returns a series the caller frees with
 * hourly_free().
 */
#ifndef GP_HOURLY_H
#define GP_HOURLY_H

#include <stddef.h>

typedef struct hourly {
    double *v;                  /* v[0..n): the value of each hour */
    size_t n;
} hourly;

/* A series of n hours, all 0. */
hourly *hourly_new(size_t n);
void hourly_free(hourly *s);

/* The value of hour h (h may be negative: it wraps the same way). */
double hourly_at(const hourly *s, long h);

/* The series' largest value (0 for none). */
double hourly_max(const hourly *s);

/* A value per hour: the series when there is one, else the constant. */
typedef struct hourly_value {
    double constant;
    const hourly *series;       /* NULL = the constant every hour */
} hourly_value;

double hourly_value_at(const hourly_value *v, long h);
double hourly_value_max(const hourly_value *v);

#endif
