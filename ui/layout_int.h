/*
 * layout_int.h — what layout.c defines beyond layout.h for the tests and the
 * benchmarks alone: the dashboard calls none of it, so it is not part of
 * layout.h's interface.
 */
#ifndef GP_LAYOUT_INT_H
#define GP_LAYOUT_INT_H

#include "layout.h"

rect layout_take_left(rect *r, int w);
rect layout_take_right(rect *r, int w);
/* Cell (i, j) of r cut into nrows × ncols nearly equal parts (the extra
 * rows/columns go to the first parts). */
rect layout_grid(rect r, int nrows, int ncols, int i, int j);

#endif
