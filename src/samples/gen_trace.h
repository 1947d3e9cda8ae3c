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

gp_trace *gen_gavel_trace(const char *name, const tput_catalog *tp, const gen_gavel_params *p,
                          gp_err *err);

/* "MODEL:COUNT[,MODEL:COUNT...]", per_node GPUs a server (the last server
 * of a model takes the rest); models must be in cat. */
cluster *gen_cluster(const char *name, const char *spec, int per_node, const catalog *cat,
                     gp_err *err);

#endif
