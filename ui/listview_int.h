/*
 * listview_int.h — what listview.c defines beyond listview.h for the tests
 * and the benchmarks alone: the dashboard calls none of it, so it is not part
 * of listview.h's interface.
 */
#ifndef GP_LISTVIEW_INT_H
#define GP_LISTVIEW_INT_H

#include "listview.h"

/* 1 when the three numbers agree: the cursor (and the first row) inside a
 * non-empty list, the first row not after the cursor, all 0 when empty. */
int lv_valid(const listview *lv);

/* Viewers: the first row shown (and the cursor with it) moved by delta /
 * put at first, kept so that no empty lines show below the last row. */
void lv_scroll(listview *lv, long delta, int rows);

#endif
