/*
 * infl_event.h — one event of the workload-inflation experiment
 * (sim/inflation.h): a submitted task and the cluster right after it
 * (FGD_NOTES §7).  Plain data, here so that the writers of io/ can read
 * the events the experiment in sim/ records.
 *
 * Ownership: `why` belongs to the event (sim/inflation.h frees it with
 * the run).
 */
#ifndef GP_INFL_EVENT_H
#define GP_INFL_EVENT_H

#include <stdint.h>

#include "core/model.h"

typedef struct infl_event {
    int task;                   /* trace index */
    int node;                   /* -1 when it failed */
    int gpus[GP_NODE_MAX_GPUS];  /* device indices within the node */
    int ngpus;
    int64_t arrived;            /* milli-GPU requested so far, failed tasks included */
    int64_t used;               /* milli-GPU allocated */
    double frag;                /* cluster fragmentation F (milli-GPU) */
    double cpu_w, gpu_w;        /* eopc */
    int failed;                 /* tasks failed so far */
    char *why;                  /* the explanation (setup.explain), owned */
} infl_event;

#endif
