/*
 * tablesort.h — ordering a table's rows by one of its columns, as htop
 * and k9s do: a key picks the next column, another reverses the order,
 * and the header marks the column (draw_header_sorted).
 *
 * Cells are compared as they are shown: numbers by value (with the
 * k/M/G/T of chart_fmt and clock times such as 1d 02:15:00 understood),
 * text alphabetically; a cell without a value ("-", "") sorts last either
 * way.  Pure: tests run it without a terminal.
 */
#ifndef GP_TABLESORT_H
#define GP_TABLESORT_H

#include <stddef.h>

/* Zeroed, the table's own order. */
typedef struct table_sort {
    int by;                     /* 1 + the column the rows are ordered by; 0: none */
    int desc;
} table_sort;

/* The text of row's cell in column col. */
typedef const char *(*tablesort_cell_fn)(const void *ctx, size_t row, int col, char *buf,
                                         size_t len);

/* order[n] gets the rows in display order (stable: equal rows keep the
 * table's own order). */
void tablesort_order(size_t n, table_sort s, tablesort_cell_fn cell, const void *ctx,
                     size_t *order);
/* The next sort: the next column of ncols (after the last, the table's own
 * order again), or the same column reversed when reverse is 1. */
void tablesort_next(table_sort *s, int ncols, int reverse);

#endif
