/*
 * peace_load.h — what a simulation under a GPU power cap needs of PEACE,
 * loaded from the store: a PEACE set (named, or the one measured on the
 * cluster's GPU model), its index, and its trained models when the
 * partition policy needs them.  The CLI's `run` and the dashboard's
 * Compare screen share it.
 *
 * Ownership: peace_load() fills a peace_loaded that peace_loaded_free()
 * releases; the simulator borrows its index and models (sim_peace).
 */
#ifndef GP_PEACE_LOAD_H
#define GP_PEACE_LOAD_H

#include "db/store.h"
#include "power/power_cap.h"
#include "peace_model.h"
#include "peace_policy.h"

typedef struct peace_loaded {
    peace_set *set;
    peace_index *ix;
    peace_models models;
    int has_models;
} peace_loaded;

/* Loads set `set_name`, or when it is NULL the one PEACE set measured on
 * GPU profile `gpu_model` (an error when there is none, or more than one:
 * name it), and, when `need_models`, its models `model_name` ("train them
 * with 'gpuplan peace train SET'" when absent).  0, or -1 with a message. */
/* How many stored PEACE sets were measured on GPU profile gpu_model. */
int peace_sets_on(store *st, const char *gpu_model, size_t *n, gp_err *err);

/* The first GPU model of cluster cl that caps caps and a PEACE set was
 * measured on, into model ("" when none: its caps are clock clamps).
 * Each model's sets are read once.  0, or -1 with a message. */
int peace_capped_model(store *st, const cluster *cl, const power_caps *caps, char *model,
                       size_t len, gp_err *err);

int peace_load(store *st, const char *set_name, const char *gpu_model, int need_models,
               const char *model_name, peace_loaded *out, gp_err *err);
void peace_loaded_free(peace_loaded *l);

/* "cats", "cats:0.1@nopart": a placement policy and, after '@', the
 * partition policy of its GPUs under the cap; *partition is NULL when the
 * text names none.  0, or -1 with a message. */
int peace_split_spec(const char *text, char *policy, size_t len,
                     const peace_policy **partition, gp_err *err);

#endif
