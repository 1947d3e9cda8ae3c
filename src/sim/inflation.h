/*
 * inflation.h — the Monte Carlo workload-inflation experiment of the FGD
 * and PWR papers (SPEC §5.3; FGD_NOTES §1, §7): a trace's tasks, shuffled
 * with the seed and inflated with random clones to 130 % of the cluster's
 * GPU capacity, are submitted one by one to a placement policy on an empty
 * cluster (a task that fits nowhere fails and is not retried); after every
 * task the allocated and arrived GPU, the cluster fragmentation and the
 * eopc power are recorded.  From these events two kinds of curves:
 *   - the FGD paper's, per integer percent (0..130) of arrived GPU
 *     capacity, computed as its analysis scripts do (rounding included);
 *   - the PWR paper's, at the 201 points x = 0, 0.005, ..., 1 of requested
 *     capacity, interpolated as its notebook does;
 * and their mean and spread over seeds.
 *
 * An explicit arrival order and explicit node tie-break ranks replace the
 * random ones, so that a run can be replayed against another simulator's
 * log event by event.
 *
 * Random streams.  By default (INFL_RNG_GO) the order and ranks are drawn
 * as the published simulator draws them, from Go 1.19's math/rand seeded
 * with the seed (rng_go.h, FGD_NOTES §9), so seed 42 gives the published
 * seed-42 run event for event.  INFL_RNG_XOSHIRO keeps the project's own
 * streams (rng.h): stream 0 shuffles, stream 1 draws the clones, stream 2
 * permutes the node ranks.  Either way stream 3 of rng.h is the policy's
 * (Random), whose published draws are not documented, and the order and
 * ranks are the same for every policy of a seed.
 *
 * Not here: output formats and the store (cmd_sweep.c), the policies, the
 * order and rank files (io/inflation_read.h).
 *
 * Ownership: infl_run_one() fills a caller-owned infl_run whose arrays it
 * allocates (infl_run_free()).
 */
#ifndef GP_INFLATION_H
#define GP_INFLATION_H

#include <stddef.h>
#include <stdint.h>

#include "core/infl_event.h"
#include "core/model.h"
#include "policy/policy.h"
#include "core/run.h"
#include "core/util.h"

#define INFL_NPCT 131           /* arrived 0..130 % */
#define INFL_NGRID 201          /* x = 0, 0.005, ..., 1 */
#define INFL_DEFAULT_RATIO 1.3

/* Per-percent curves (FGD paper). */
enum { INFL_P_ALLOC, INFL_P_FRAG, INFL_P_FRAG_RATIO, INFL_P_EOPC, INFL_P_EOPC_CPU,
       INFL_P_EOPC_GPU, INFL_P_GRAR, INFL_P_FAILED, INFL_NPM };
/* Grid curves (PWR paper). */
enum { INFL_G_EOPC, INFL_G_EOPC_CPU, INFL_G_EOPC_GPU, INFL_G_GRAR, INFL_G_FRAG_RATIO,
       INFL_G_FAILED, INFL_G_USED, INFL_G_ARRIVED, INFL_NGM };

extern const char *const infl_pct_names[INFL_NPM];
extern const char *const infl_grid_names[INFL_NGM];

/* Where a seed's arrival order and node ranks come from. */
typedef enum infl_rng {
    INFL_RNG_GO,                /* the published simulator's Go stream (default) */
    INFL_RNG_XOSHIRO,           /* the project's xoshiro256** streams */
} infl_rng;

/* "go" or "xoshiro" → *out; -1 for anything else. */
int infl_rng_parse(const char *name, infl_rng *out);
const char *infl_rng_name(infl_rng k);

/* What is run: the cluster, the trace and how the arrival order and node
 * ranks are made. */
typedef struct infl_setup {
    const cluster *cl;
    const catalog *cat;
    const gp_trace *tr;
    double ratio;               /* inflation target / GPU capacity (1.3) */
    const int *order;           /* explicit arrival order (trace indices), or NULL */
    size_t norder;
    const int *node_rank;       /* explicit tie-break rank per node, or NULL */
    int explain;                /* keep each decision's one-line explanation */
    infl_rng rng;               /* stream of the seeded order and ranks */
} infl_setup;

/* infl_event (core/infl_event.h): one submitted task and the cluster
 * right after it. */

/* One run's curves; NaN where the run has no value. */
typedef struct infl_curves {
    double pct[INFL_NPM][INFL_NPCT];
    double grid[INFL_NGM][INFL_NGRID];
} infl_curves;

typedef struct infl_run {
    infl_event *ev;             /* the events, when kept */
    size_t nev;
    size_t ntasks;              /* tasks submitted */
    size_t nclones;             /* tasks added by the inflation */
    size_t failed;
    int64_t gpu_milli;          /* cluster capacity */
    int ngpus;
    double wall_s;              /* placement loop */
    infl_curves cv;
} infl_run;

/* Runs one policy for one seed.  keep_events: keep r->ev (else only the
 * curves are kept).  0, or -1 with a message. */
int infl_run_one(const infl_setup *s, const policy_spec *pol, uint64_t seed, int keep_events,
                 infl_run *r, gp_err *err);
void infl_run_free(infl_run *r);

/* Mean and spread of one curve point over seeds (NaN values skipped). */
typedef struct infl_stat {
    double mean, sd, min, max;  /* sd: sample standard deviation */
    int n;
} infl_stat;

/* Accumulates runs' curves point by point. */
typedef struct infl_agg {
    int nruns;
    double sum[INFL_NPM + INFL_NGM][INFL_NGRID];
    double sumsq[INFL_NPM + INFL_NGM][INFL_NGRID];
    double min[INFL_NPM + INFL_NGM][INFL_NGRID];
    double max[INFL_NPM + INFL_NGM][INFL_NGRID];
    int n[INFL_NPM + INFL_NGM][INFL_NGRID];
    double failed_sum, clones_sum, wall_sum;
} infl_agg;

void infl_agg_init(infl_agg *a);
void infl_agg_add(infl_agg *a, const infl_run *r);
infl_stat infl_agg_pct(const infl_agg *a, int metric, int pct);
/* The grid's GRAR mean is mean(used) / mean(arrived), as the PWR notebook
 * computes it; its spread is that of the per-seed ratios. */
infl_stat infl_agg_grid(const infl_agg *a, int metric, int point);

/* x of grid point i (i · 0.005, as numpy.arange computes it). */
double infl_grid_x(int i);

/* The run record of one policy-seed: one timeline point per arrived
 * percent that has events (t_s = percent, alloc_ratio = allocated share,
 * frag = fragment ratio, power_w/cpu_w/gpu_w = mean eopc, queued = tasks
 * failed so far), the summary metrics (alloc_pct_at_100, frag_ratio_at_100,
 * eopc_w_at_50, grar_at_100, failed_tasks, ...) and, with placements (and
 * r->ev kept), one decision per submitted task: seq = event, the trace
 * index, node and devices, and the explanation when there is one. */
run *infl_to_run(const infl_setup *s, const policy_spec *pol, uint64_t seed,
                 const infl_run *r, int placements);

#endif
