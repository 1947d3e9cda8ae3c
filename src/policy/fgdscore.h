/*
 * fgdscore.h — what the fragmentation/power policy family (SPEC §5.3:
 * FGD, BestFit, DotProd, GpuPacking, GpuClustering, Random, PWR and
 * PWR+FGD) shares, following the published FGD simulator (FGD_NOTES §4–5):
 *   - the task as the family sees it (per-GPU share g, count k, tag);
 *   - the feasibility filter;
 *   - the per-run workspace every family policy gets from prepare();
 *   - the node scores of each policy, as integers;
 *   - normalisation, weighting of combined scores, the node-rank tie-break
 *     and the device choice, in one decision driver with explanations.
 * Each policy file is then a table of score terms plus its options.
 *
 * Not here: the fragmentation measure (frag.c) and the power model
 * (power_eopc.c), which the scores call.
 *
 * Ownership and threads: fgd_prep_new() returns a workspace owned by the
 * caller (free with fgd_prep_free()).  It holds scratch arrays and caches
 * that place() updates, so one workspace serves one run at a time; a run's
 * prepare() result must not be shared between concurrently running
 * simulations.  Results never depend on the cache contents.
 */
#ifndef GP_FGDSCORE_H
#define GP_FGDSCORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/cstate.h"
#include "core/frag.h"
#include "policy.h"

/* A task as the family sees it (FGD_NOTES §0). */
typedef struct fgd_task {
    int64_t cpu;                /* milli-cores */
    int64_t ram;                /* MiB; a filter only */
    double mem;                 /* GPU memory per GPU, GiB (0 = not stated) */
    int g;                      /* per-GPU share, 0..1000 (0 = CPU-only) */
    int k;                      /* GPU count (0 = CPU-only) */
    int share;                  /* k == 1 and g < 1000 */
    int tag;                    /* GpuClustering tag (cstate CS_TAG_*) */
    const task *tk;             /* the trace task (GPU type constraint) */
    int key;                    /* score-class id for the memo, -1 = none */
} fgd_task;

/* The per-run workspace (the prepare() result of every family policy). */
typedef struct fgd_prep fgd_prep;

/* --- score terms ----------------------------------------------------------- */

/* How a term's raw scores become the values that are weighted and summed. */
typedef enum fgd_norm {
    FGD_NORM_NONE,              /* used as they are (FGD, DotProd, ...) */
    FGD_NORM_MINMAX,            /* (s - min) * 100 / (max - min); all equal → 0 */
    FGD_NORM_PWR,               /* the same, but all equal → 100 (PWR's quirk) */
} fgd_norm;

/* What a scorer is given. */
typedef struct fgd_eval {
    const cstate *cs;
    const fgd_task *t;
    fgd_prep *prep;
} fgd_eval;

/* A node's integer score for the task (the node is feasible).  When dev is
 * non-NULL the scorer stores the device index (within the node) it would
 * choose for a sharing task, or -1 to leave the choice to the default rule.
 * note (may be NULL) receives a short explanation. */
typedef int64_t (*fgd_score_fn)(const fgd_eval *ev, int node_idx, int *dev, char *note,
                                size_t note_len);

int64_t fgd_score_fgd(const fgd_eval *ev, int node_idx, int *dev, char *note, size_t len);
int64_t fgd_score_pwr(const fgd_eval *ev, int node_idx, int *dev, char *note, size_t len);
int64_t fgd_score_bestfit(const fgd_eval *ev, int node_idx, int *dev, char *note, size_t len);
int64_t fgd_score_dotprod(const fgd_eval *ev, int node_idx, int *dev, char *note, size_t len);
int64_t fgd_score_gpupacking(const fgd_eval *ev, int node_idx, int *dev, char *note, size_t len);
int64_t fgd_score_gpuclustering(const fgd_eval *ev, int node_idx, int *dev, char *note,
                                size_t len);

/* One scoring plugin of a policy. */
typedef struct fgd_term {
    const char *name;           /* "fgd", "pwr", ... (explanations) */
    fgd_score_fn score;
    fgd_norm norm;
    int64_t weight;             /* the simulator's plugin weight */
    int picks_device;           /* uses its own device choice (FGD, PWR) */
    const char *norm_name;      /* explanation name of the normalised value */
} fgd_term;

#define FGD_MAX_TERMS 2

/* The decision of a scored policy: filter, score every feasible node with
 * each term, normalise, weight and sum, pick by rank, choose the device by
 * the highest-weighted term that picks devices (else best fit).  A single
 * feasible node is taken without scoring.  Returns 1 with *out filled, 0
 * when no node fits.  Explains into ex when non-NULL. */
int fgd_place_scored(const policy_ctx *ctx, const fgd_term *terms, int nterms, int ti,
                     placement *out, explain *ex);

/* Random (FGD_NOTES §5): a uniformly random feasible node, a random
 * eligible device for a sharing task. */
int fgd_place_random(const policy_ctx *ctx, int ti, placement *out, explain *ex);

/* What every policy of the family declares (policy.h): the FGD and PWR
 * papers measure with eopc, which has no sleep state and no clock, so
 * CATS's power manager does not run; the workspace is the family's. */
#define FGD_FAMILY_TRAITS \
    .family = FAMILY_FRAGMENTATION, .power = POWER_EOPC, .sleep = 0, .dfs = 0, \
    .release = fgd_release

/* prepare()/release() for family policies (need_workload as above). */
int fgd_prepare_plain(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                      const double *params, void **prep, gp_err *err);
int fgd_prepare_frag(const cstate *cs, const gp_trace *tr, const policy_inputs *in,
                     const double *params, void **prep, gp_err *err);
void fgd_release(void *prep);

#endif
