/*
 * util_predict.h — what a scheduler knows of a task's future GPU
 * utilization: the layer between a trace and the correlation-family
 * policies (CATS, CorrGPU, First, HotCloud, Harmony).  Those policies
 * schedule by each task's utilization series; a real scheduler has only a
 * prediction of it (CATS §3.1, §5: HotCloud runs on Yeung et al.'s
 * predictions, with the RMSLE of 0.154 CATS quotes).  A predictor turns
 * the true trace into the trace the policy sees; the simulator keeps
 * running the truth.
 *
 *   oracle           the true series (what every run did before predictors)
 *   profile:N        only the first N seconds of each task are observed
 *                    (a profiling run); the prediction repeats them
 *   profile:N:mean   the same, then held at their mean for the rest of the
 *                    task's duration
 *   history          the sample-by-sample mean series of the earlier tasks
 *                    of the same job type (the task's model name) that have
 *                    completed, standalone, by the task's arrival; a trace
 *                    without job types pools all earlier tasks; with no
 *                    completed task yet, a constant at the task's whole
 *                    share (100 % for a whole GPU: nothing known, nothing
 *                    assumed)
 *   noisy:E          every sample times exp(E z), z standard normal and
 *                    independent per sample, capped at 100 %: a
 *                    multiplicative log-normal error whose RMSLE is E (for
 *                    samples well above 1 %, where log(1 + u) ~ log u)
 *   bias:X           every sample times 1 + X/100 (X signed, percent),
 *                    capped at 100 %: a predictor that over- (X > 0) or
 *                    under-estimates by X %
 *   requested        a constant at the task's requested share (gpu_milli /
 *                    10 %, a whole GPU = 100 %): what a scheduler that
 *                    trusts the request knows (the PAI trace's requested
 *                    GPU utilization, CATS §3.3)
 *
 * The papers' baselines ran on other knowledge than their own policies
 * (CATS §4: HotCloud on Yeung et al.'s predictions); `run
 * --predict-policy POLICY=NAME` gives one policy its own predictor to
 * study that setting, at the price of a comparison in which the policies
 * no longer know the same.
 *
 * Only tasks that carry a series are predicted; a task without one is
 * scheduled by its summaries as before.  Durations, memory and shares are
 * not predicted.  The predicted summaries (first, mean, peak) follow the
 * predicted series.
 *
 * Ownership: upred_trace_new() returns a new trace the caller frees with
 * trace_free().
 */
#ifndef GP_UTIL_PREDICT_H
#define GP_UTIL_PREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/util.h"

typedef enum upred_kind {
    UPRED_ORACLE,
    UPRED_PROFILE,
    UPRED_HISTORY,
    UPRED_NOISY,
    UPRED_BIAS,
    UPRED_REQUESTED,
} upred_kind;

typedef struct upred_spec {
    upred_kind kind;
    double arg;                 /* profile: seconds observed; noisy: RMSLE;
                                 * bias: percent */
    int hold_mean;              /* profile: hold the mean after the window */
} upred_spec;

/* "oracle", "profile:600", "profile:600:mean", "history", "noisy:0.154",
 * "bias:+20", "requested" into *out; NULL or "" is oracle.  -1 with a message naming the accepted
 * forms. */
int upred_parse(const char *text, upred_spec *out, gp_err *err);

/* The spec back as text, as upred_parse() reads it. */
void upred_format(const upred_spec *p, char *buf, size_t len);

/* The trace a policy sees under predictor p: a copy of truth whose tasks'
 * series are predictions.  seed drives noisy's errors (the same seed gives
 * the same prediction). */
gp_trace *upred_trace_new(const gp_trace *truth, const upred_spec *p, uint64_t seed);

#endif
