/*
 * policy.h — the placement-policy interface (SPEC §5) and its registry.
 *
 * A policy is one file (policy_<name>.c) exporting one const policy_ops,
 * listed once in policy.c's table.  Policies are pure: given the cluster
 * state, the trace and the incoming task they return a placement or "none
 * fits", and optionally explain the decision (every candidate with its
 * score terms and the choice) for the Step view and the placement log.
 * Anything a policy wants to precompute from the trace or cluster (FGD's
 * typical tasks) goes in its prepare() result, which is read-only during
 * the run; randomness comes from the run's rng in the context.  That keeps
 * a run reproducible and lets the simulator rewind by copying its state.
 */
#ifndef GP_POLICY_H
#define GP_POLICY_H

#include <stddef.h>

#include "core/cstate.h"
#include "core/model.h"
#include "core/util.h"

struct rng;

#define POLICY_MAX_OPTS 8
#define EXPLAIN_MAX_TERMS 6

/* A tunable of a policy, with the paper's default. */
typedef struct policy_option {
    const char *key;
    double def;
    double min, max;
    const char *help;
} policy_option;

/* What a policy sees when placing. */
typedef struct policy_ctx {
    const cstate *cs;
    const gp_trace *tr;
    const double *progress_s;   /* per task: standalone seconds done; NULL = none */
    double now_s;
    struct rng *rng;            /* the run's random stream (Random policy) */
    const void *prep;           /* the policy's prepare() result, or NULL */
    /* Tie-break rank of each node (lower wins among equal scores; the
     * published FGD simulator's node order, FGD_NOTES §1.3); NULL = node
     * index order. */
    const int *node_rank;
} policy_ctx;

/* Where a task goes: one node and ngpus GPUs of it (global GPU indices). */
typedef struct placement {
    int node;
    int ngpus;
    int gpus[GP_NODE_MAX_GPUS];
} placement;

/* One candidate considered: a GPU (gpu >= 0) or a whole node (gpu < 0). */
typedef struct explain_cand {
    int node;
    int gpu;
    double term[EXPLAIN_MAX_TERMS];
    int eligible;               /* 0 = filtered out; note says why */
    char note[48];
} explain_cand;

/* A decision explained: the term names, every candidate, the choice. */
typedef struct explain {
    const char *term_name[EXPLAIN_MAX_TERMS];
    int nterms;
    explain_cand *cands;
    size_t ncands, cands_cap;
    int chosen;                 /* index into cands, -1 when nothing fit */
    char summary[256];          /* one line, kept in the run's placement log */
} explain;

typedef struct policy_ops {
    const char *name;           /* the --policy word, e.g. "cats" */
    const char *title;          /* "CATS (correlation-aware, ICS'26)" */
    const char *family;         /* "correlation" or "fragmentation" */
    const char *power_model;    /* the default power model: "cats" or "eopc" */
    const policy_option *options;   /* terminated by a NULL key; may be NULL */
    /* Optional: precomputes read-only data for a run; NULL result = none. */
    void *(*prepare)(const cstate *cs, const gp_trace *tr, const double *params,
                     gp_err *err);
    void (*release)(void *prep);
    /* Places trace task `ti`: 1 with *out filled, 0 when nothing fits.
     * Fills *ex when ex is non-NULL. */
    int (*place)(const policy_ctx *ctx, const double *params, int ti, placement *out,
                 explain *ex);
} policy_ops;

/* The i-th policy of the table (in table order), NULL past the end:
 *     for (size_t i = 0; (p = policy_nth(i)); i++) ... */
const policy_ops *policy_nth(size_t i);
/* The i-th policy of one family ("correlation", "fragmentation"). */
const policy_ops *policy_family_nth(const char *family, size_t i);

const policy_ops *policy_find(const char *name);

/* A policy with its option values, as named on the command line:
 * "cats", "corrgpu:0.1" (the first option's value after ':'), and
 * per-option overrides "cats.lambda1=2" applied with policy_spec_set(). */
typedef struct policy_spec {
    const policy_ops *ops;
    double params[POLICY_MAX_OPTS];
    char label[GP_NAME_MAX];    /* what the user wrote, for tables */
} policy_spec;

int policy_spec_parse(const char *text, policy_spec *out, gp_err *err);
/* Sets one option by key ("lambda1=2"); -1 with a message when unknown or
 * out of range. */
int policy_spec_set(policy_spec *sp, const char *assignment, gp_err *err);
/* Writes "key=value ..." of every option into buf (the run's options). */
void policy_spec_format(const policy_spec *sp, char *buf, size_t len);
/* Index of an option key, -1 when the policy has none by that name. */
int policy_option_index(const policy_ops *ops, const char *key);

/* Explanation helpers. */
void explain_init(explain *ex, const char *const *term_names, int nterms);
void explain_free(explain *ex);
void explain_reset(explain *ex);
/* Appends a candidate and returns it (terms zeroed, eligible = 1). */
explain_cand *explain_add(explain *ex, int node, int gpu);

#endif
