/*
 * inflation_read.h — the explicit arrival order and node ranks of the
 * workload-inflation experiment (sim/inflation.h), read from the files the
 * published simulator's logs give (FGD_NOTES §1.3, §9): tab- or
 * comma-separated, with or without a header, a UTF-8 byte-order mark
 * allowed.  Every error names file, line and column.
 *
 * Not here: drawing a seeded order or ranks, running the experiment.
 *
 * Ownership: inflation_read_order() returns an allocated array the caller
 * frees; inflation_read_ranks() fills the caller's.
 */
#ifndef GP_INFLATION_READ_H
#define GP_INFLATION_READ_H

#include <stddef.h>

#include "core/model.h"
#include "core/util.h"

/* Reads an arrival order: a table whose first line names a `trace_pod`
 * (preferred), `pod`, `name` or `task` column of trace task names (a
 * "-tuned-N" clone suffix names its original), or a plain list of names
 * (the first field of each line).  A line with an empty name is skipped.
 * Returns 0 with the trace indices (allocated) and their count, or -1 with
 * a message. */
int inflation_read_order(const char *path, const gp_trace *tr, int **order, size_t *n,
                         gp_err *err);

/* Reads node ranks: a table whose first line names a `node` (or `name`)
 * column and a `tie_rank` (or `rank`) column of integers >= 0, or the
 * node names in rank order (the first field of each line; so also a
 * table without a rank column).  Every node of cl must appear once.
 * rank has cl->nnodes entries.  0, or -1 with a message. */
int inflation_read_ranks(const char *path, const cluster *cl, int *rank, gp_err *err);

#endif
