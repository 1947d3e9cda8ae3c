/*
 * util_series_grid.h — GPU aggregates on an absolute time grid, kept as
 * tasks join and leave (the correlation family's `grid=absolute` reading,
 * docs/correlation.md).
 *
 * The resampled reading (util_series.h, useries_compare) rebuilds a GPU's
 * aggregate at every decision on the incoming task's own sample period
 * from each co-runner's progress.  This one lays each running task's
 * series once on a grid of fixed step D in wall-clock time, the way a
 * monitor samples a GPU ("the percentage of time that GPU kernels were
 * active during the previous sampling period", CorrGPU §III): task l,
 * first seen running at time t with progress p, is anchored at
 * a = t - p (its start, had it run alone), and every cell
 * [c D, (c + 1) D) its run [a, a + duration) overlaps carries its sample
 * at progress max(0, c D - a).  A GPU's aggregate is the sum
 * of its tasks' contributions, added when a task joins and subtracted when
 * it leaves; a task that outlives its standalone end (slowed by sharing
 * or DFS) is anchored again from its progress then.
 *
 * Values are fixed point (USERIES_GRID_SCALE units per percent) so that
 * sums are exact integers: a join then a leave gives back the same
 * aggregate, bit for bit, whatever happened between, and the order in
 * which tasks were added does not matter.  A comparison at time now
 * reads the grid from the cell holding now, over the incoming task's
 * samples laid as if it started now, cut to the shorter (CATS Alg. 1
 * line 6); the means come from running prefix sums, rho from one
 * dot product over that window.
 */
#ifndef GP_UTIL_SERIES_GRID_H
#define GP_UTIL_SERIES_GRID_H

#include <stdint.h>

#include "util_series.h"

/* Fixed-point units per percent (a resolution of about 0.001 %). */
#define USERIES_GRID_SCALE 1024

/* The longest window a task is sampled over, in grid steps. */
#define USERIES_GRID_MAX_CELLS (1u << 22)

/* The grid step of trace tr: the median sample period of its tasks that
 * carry a series (one monitoring period for a trace whose series share
 * one), else USERIES_NOMINAL_PERIOD_S. */
double useries_grid_step(const gp_trace *tr);

useries_grid *useries_grid_new(const gp_trace *tr, double step_s);
void useries_grid_free(useries_grid *g);

/* Brings the aggregates up to date with state cs at time now_s: adds the
 * tasks that joined a GPU since the last call, subtracts those that left
 * (from the state's record of changed nodes, or every GPU when the state
 * is another one or time went back), anchors again the tasks past their
 * standalone end.  progress[l] is task l's standalone seconds done (NULL:
 * 0).  Called once per decision before any comparison. */
void useries_grid_sync(useries_grid *g, const cstate *cs, const double *progress, double now_s);

/* The incoming task ti sampled on grid g from now_s (the time of the last
 * sync), into a buffer of g that in points to: after it, useries_compare
 * and useries_compare_lazy through in compare on the grid (unless
 * from_start).  One incoming task at a time: the next attach to g
 * overwrites it. */
void useries_grid_in_attach(useries_in *in, useries_grid *g, const gp_trace *tr, int ti);

/* useries_compare_lazy on the grid: GPU gi against the attached incoming
 * task, from the cell holding the last sync's time. */
void useries_grid_compare(const useries_grid *g, const useries_in *in, int gi, double rho_over,
                          int *skipped, useries_cmp *out);

/* The aggregate of GPU gpu as the grid holds it: *base is the absolute
 * grid index of cells[0], *len the number of cells.  For tests. */
const int64_t *useries_grid_cells(const useries_grid *g, int gpu, int64_t *base, size_t *len);

#endif
