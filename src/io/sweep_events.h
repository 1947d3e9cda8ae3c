/*
 * sweep_events.h — the event log of an inflation sweep (`gpuplan sweep
 * inflation --events`): one tab-separated line per submitted task of every
 * run, under one header line.
 *
 * Not here: the events themselves (sim/inflation.c), the curves
 * (sweep_curves.h).
 */
#ifndef GP_SWEEP_EVENTS_H
#define GP_SWEEP_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/infl_event.h"
#include "core/model.h"

/* The header line; with_why adds the explanation column. */
void sweep_events_header(FILE *f, int with_why);

/* The events ev[0..n) of one run (policy label, seed) on trace tr and
 * cluster cl of gpu_milli capacity: policy, seed, event, task, node, gpus,
 * arrived_milli, used_milli, frag_milli, frag_ratio_pct, eopc_w,
 * eopc_cpu_w, eopc_gpu_w, failed and, when the event has one, why. */
void sweep_events_write(FILE *f, const char *label, uint64_t seed, const gp_trace *tr,
                        const cluster *cl, int64_t gpu_milli, const infl_event *ev, size_t n);

#endif
