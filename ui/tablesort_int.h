/*
 * tablesort_int.h — what tablesort.c defines beyond tablesort.h for the
 * tests and the benchmarks alone: the dashboard calls none of it, so it is not
 * part of tablesort.h's interface.
 */
#ifndef GP_TABLESORT_INT_H
#define GP_TABLESORT_INT_H

#include "tablesort.h"

/* <0, 0, >0 as cell a sorts before, with or after b (ascending). */
int tablesort_cmp(const char *a, const char *b);
/* The value a cell shows, for sorting; 0 when it shows none (NAN out). */
int tablesort_value(const char *s, double *v);

#endif
