/*
 * promtext.h — reading the Prometheus text exposition format (what DCGM
 * exporter's /metrics answers): one sample a line,
 *
 *   metric_name{label="value",...} value [timestamp]
 *
 * with "# HELP" / "# TYPE" comments and blank lines skipped.  Errors name
 * file:line:column and what was expected.
 *
 * Hand-written because no Debian library reads it, and kept to the lines
 * an exporter writes: label values with the \\, \" and \n escapes; values
 * as decimal numbers, NaN, +Inf, -Inf.  Histograms and summaries are just
 * more samples here.
 */
#ifndef GP_PROMTEXT_H
#define GP_PROMTEXT_H

#include <stddef.h>

#include "core/util.h"

#define PROM_MAX_LABELS 24
#define PROM_NAME_MAX 128
#define PROM_VALUE_MAX 256

typedef struct prom_label {
    char key[PROM_NAME_MAX];
    char value[PROM_VALUE_MAX];
} prom_label;

typedef struct prom_sample {
    char name[PROM_NAME_MAX];
    prom_label labels[PROM_MAX_LABELS];
    size_t nlabels;
    double value;
    long line;                  /* 1-based, for messages */
    long value_col;             /* 1-based column of the value */
} prom_sample;

/* Called for every sample; returns 0, or -1 with a message. */
typedef int (*prom_fn)(void *ctx, const prom_sample *s, gp_err *err);

/* Reads path sample by sample; 0, or -1 with the first error (of the
 * format, or fn's). */
int prom_each(const char *path, prom_fn fn, void *ctx, gp_err *err);
/* The value of a label, NULL when the sample has none of that key. */
const char *prom_label_value(const prom_sample *s, const char *key);

#endif
