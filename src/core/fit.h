/*
 * fit.h — whether a task can run on a cluster at all: the one test of what
 * fits that `gpuplan run`, the dashboard's Compare and the planner use to
 * warn that a trace does not fit a cluster before a policy fails tasks.
 *
 * A task fits a server when, the server empty, every resource it asks for
 * is there: a GPU model it allows (a GPU task), as many GPUs as it holds
 * (a shared GPU counts as one: any share fits an empty GPU), each of them
 * with the task's GPU memory d, and the server's vCPU and host RAM.  These
 * four (GPU count and share, GPU memory, vCPU, host memory) are what every
 * policy family checks when it places a task (docs/run-and-compare.md).
 * A task that fits no server can never run, whatever the policy.
 *
 * What it does not do: say whether a task fits the cluster as it is now
 * (the policies decide that against the cluster's state).  Pure.
 */
#ifndef GP_FIT_H
#define GP_FIT_H

#include <stddef.h>

#include "model.h"

/* What a server lacks for a task, in the order the test asks. */
typedef enum fit_lack {
    FIT_OK, FIT_GPU_MODEL, FIT_GPU_COUNT, FIT_GPU_MEM, FIT_CPU, FIT_RAM, FIT_NLACKS
} fit_lack;

/* Whether tk fits server n (its GPUs of profile g, NULL when unknown or
 * none) when n runs nothing; FIT_OK or the first resource short. */
fit_lack fit_task_server(const task *tk, const node *n, const gpu_profile *g);
/* The resource's name: "GPU model", "GPUs", "GPU memory", "vCPU", "host
 * memory". */
const char *fit_lack_name(fit_lack l);

#define FIT_EXAMPLES 3

typedef struct fit_report {
    size_t ntasks, misfits;         /* tasks, and those no server can take */
    size_t by_lack[FIT_NLACKS];     /* misfits by what the nearest server lacks */
    size_t example[FIT_EXAMPLES];   /* the first misfits' task indexes */
    fit_lack example_lack[FIT_EXAMPLES];
} fit_report;

/* Checks every task of tr against every server of cl (profiles from cat);
 * returns how many fit none.  For a misfit, the lack counted is that of
 * the server it came nearest on (the last test it failed). */
size_t fit_trace_cluster(const gp_trace *tr, const cluster *cl, const catalog *cat,
                         fit_report *out);
/* One line for the user: "412 of 800 tasks fit no server of cats-testbed,
 * even empty (what the nearest server lacks: vCPU 400, GPU memory 12),
 * e.g. t3 (vCPU)"; "" when all fit. */
void fit_report_text(const fit_report *r, const gp_trace *tr, const cluster *cl, char *buf,
                     size_t len);

#endif
