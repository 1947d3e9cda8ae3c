/*
 * textfit_int.h — what textfit.c defines beyond textfit.h for the tests and
 * the benchmarks alone: the dashboard calls none of it, so it is not part of
 * textfit.h's interface.
 */
#ifndef GP_TEXTFIT_INT_H
#define GP_TEXTFIT_INT_H

#include "textfit.h"

/* Display columns of the UTF-8 string s. */
int textfit_width(const char *s);

#endif
