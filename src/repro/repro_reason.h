/*
 * repro_reason.h — what `reproduce` measures to explain a row, instead of
 * stating why a result should come out one way:
 *
 *   repro_fluid_gpus   the fluid lower bound of a trace's placement: the
 *                      GPUs its work needs on average if every GPU could
 *                      be filled to 100 % of mean utilization,
 *                      sum(mean x duration x GPUs) / span;
 *   repro_tally        over one simulated run, how many candidates each of
 *                      the policy's filters rejected (memory or room, the
 *                      correlation threshold, the utilization threshold),
 *                      how many decisions opened a GPU running nothing, and
 *                      the terms the policy scored with (what it knew).
 *
 * The tally reads the explanations the policies already write (policy.h:
 * explain); it does not change a decision.
 */
#ifndef GP_REPRO_REASON_H
#define GP_REPRO_REASON_H

#include <stddef.h>

#include "core/model.h"
#include "policy/policy.h"

/* sum(util_mean / 100 x duration_s x GPUs) over the GPU tasks, divided by
 * the span from the first arrival to the last standalone finish; 0 for an
 * empty trace. */
double repro_fluid_gpus(const gp_trace *tr);

typedef struct repro_tally {
    size_t decisions;
    size_t candidates;          /* GPUs looked at, over every decision */
    size_t by_fit;              /* rejected: memory, GPU model, too few GPUs after it */
    size_t by_corr;             /* rejected by the correlation threshold */
    size_t by_util;             /* rejected by the utilization threshold */
    size_t by_other;            /* rejected for a reason not classed above */
    size_t fresh;               /* decisions that opened a GPU running nothing */
    char terms[80];             /* the terms of the explanation: what it read */
} repro_tally;

/* Adds one decision's explanation (its candidates must have been kept:
 * sim_config.explain_candidates). */
void repro_tally_add(repro_tally *t, const explain *ex);

/* "rejected 1200 of 5400 candidates (memory 10, correlation 900,
 * utilization 290); 60 of 3000 decisions opened a GPU; read rho, dmu". */
void repro_tally_text(const repro_tally *t, const char *who, char *buf, size_t len);

#endif
