/*
 * heuristics.h — the correlation family's policies on the instance an exact
 * model solves (SPEC §5.2): the rows printed beside the optimum by
 * `gpuplan solve` and, the best feasible one, the solver's warm start.
 *
 * Every policy of the family places the instance's tasks one after another
 * on an empty cluster, as if all were submitted at once (the snapshot the
 * exact models solve, CorrGPU eq. 7), deciding on the trace or on a
 * predictor's view of it, and is scored on the true trace the way the
 * exact model scores: CATS power with idle GPUs and servers asleep and
 * every active GPU at the lowest clock its tasks' SLAs allow (CATS Alg. 3–4
 * settled); CorrGPU's GPU count on an unbounded pool of the cluster's
 * servers (CorrGPU §V), with the pairs it co-locates against the
 * correlation threshold.
 *
 * Not here: the exact models (solve/), the table printed (cli/cmd_solve.c).
 *
 * Ownership: heuristics_*_new() return a table the caller frees with
 * heuristics_free(); each row owns its placements.
 */
#ifndef GP_HEURISTICS_H
#define GP_HEURISTICS_H

#include <stddef.h>

#include "core/model.h"
#include "predict/util_predict.h"
#include "solve/solve.h"

/* One policy's placement of the instance. */
typedef struct heuristic_row {
    const char *name;           /* the policy's (static) */
    int placed_all;             /* every task placed */
    int unplaced;               /* tasks that fitted nowhere */
    double value;               /* the model's objective (W for CATS, GPUs
                                 * for CorrGPU); NaN unless placed_all */
    int gpus, servers;          /* busy ones */
    int conflicts;              /* CorrGPU: co-located pairs with rho > alpha */
    solve_place *place;         /* in the instance's numbering */
    size_t nplace;
} heuristic_row;

typedef struct heuristics {
    heuristic_row *rows;        /* in the family's table order */
    size_t n;
} heuristics;

/* What the heuristics run on: the cluster and catalog the instance was
 * made from, the true trace, and what the policies know of utilization
 * (NULL or oracle: the truth). */
typedef struct heuristics_input {
    const cluster *cl;
    const catalog *cat;
    const gp_trace *tr;
    const upred_spec *predict;
} heuristics_input;

/* Every policy of the family on the CATS instance ci (made from in),
 * scored by CATS power (cats_power_of). */
heuristics *heuristics_cats_new(const heuristics_input *in, const cats_inst *ci);
/* Every policy of the family on the CorrGPU instance ci (its tasks taken
 * from in->tr), on an unbounded pool of in->cl's servers, scored by the
 * GPUs it uses and its conflicts under ci's threshold. */
heuristics *heuristics_corrgpu_new(const heuristics_input *in, const corrgpu_inst *ci);
void heuristics_free(heuristics *h);

/* The row of least value among those that placed every task (and, with
 * no_conflicts, co-located no conflicting pair), or -1. */
int heuristics_best(const heuristics *h, int no_conflicts);

#endif
