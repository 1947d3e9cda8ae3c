/*
 * export_int.h — what export.c defines beyond export.h for the tests and the
 * benchmarks alone: the dashboard calls none of it, so it is not part of
 * export.h's interface.
 */
#ifndef GP_EXPORT_INT_H
#define GP_EXPORT_INT_H

#include "export.h"

void export_view_init(export_view *v, const char *screen);
void export_view_free(export_view *v);

/* Writes dir/gpuplan-<screen>-<name>.csv per table and .svg and .png per
 * chart; appends the names written to *written (", "-separated, each
 * without the gpuplan-<screen>- they share).  0, or -1
 * with a message (what was written before stays). */
int export_view_write(const export_view *v, const char *dir, strbuf *written, gp_err *err);

#endif
