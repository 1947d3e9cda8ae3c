/*
 * gen_trace.h — traces and clusters generated on demand from what the
 * database holds, for what-if runs the sample sets do not cover:
 *
 *   gen_gavel_trace    jobs drawn over a throughput table the way Gavel's
 *                      simulator draws them (Narayanan et al., OSDI'20,
 *                      §7.1, after Philly): a job type uniform among the
 *                      table's scale-1 types measured alone on every one
 *                      of its accelerator classes; a duration of 10^x
 *                      minutes on a V100, x ~ U[1.5, 3] for 80 % of jobs
 *                      and U[3, 4] for the rest; Poisson arrivals.
 *   gen_cluster        servers of given GPU models and counts.
 *
 * A job's GPU memory is not in Gavel's table; it is our assumption per
 * model family and batch size (gen_trace.c), capped at a K80's 12 GB.
 *
 * Ownership: both return objects the caller frees (trace_free,
 * cluster_free); NULL with a message on bad input.
 */
#ifndef GP_GEN_TRACE_H
#define GP_GEN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/util.h"

typedef struct gen_gavel_params {
    size_t jobs;
    double jobs_per_hour;       /* Poisson rate; 0 = every job at t = 0 */
    /* A job's minimum throughput (GOGH's T-bar): this share of its best
     * solo throughput in the table; 0 = none given (policies choose). */
    double min_frac;
    uint64_t seed;
} gen_gavel_params;

void gen_gavel_params_default(gen_gavel_params *p);

/* The length bounds of the utilization series attached to each job (both
 * 0: none; else 1 <= min <= max <= GEN_SERIES_MAX). */
typedef struct gen_series_params {
    size_t min_len, max_len;
} gen_series_params;

#define GEN_SERIES_MAX 100000

/* The same jobs one at a time, so a trace of a million jobs with series
 * is written out (to the store, to CSV) without being held: */
typedef struct gen_gavel gen_gavel;
/* NULL with a message on bad parameters or a table with no usable job
 * type; sp may be NULL (no series). */
gen_gavel *gen_gavel_new(const tput_catalog *tp, const gen_gavel_params *p,
                         const gen_series_params *sp, gp_err *err);
/* The next job into *out (task_init'ed here; the caller task_release()s
 * it): 1, or 0 once every job was drawn. */
int gen_gavel_next(gen_gavel *g, task *out);
void gen_gavel_free(gen_gavel *g);

/* "MODEL:COUNT[,MODEL:COUNT...]", per_node GPUs a server (the last server
 * of a model takes the rest); models must be in cat. */
cluster *gen_cluster(const char *name, const char *spec, int per_node, const catalog *cat,
                     gp_err *err);

#endif
