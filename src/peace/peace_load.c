/*
 * peace_load.c — PEACE's inputs to a capped simulation from the store
 * (peace_load.h).
 */
#include "peace_load.h"

#include <stdlib.h>
#include <string.h>

/* How many stored sets were measured on gpu_model, into *found; the first
 * one's name into name (NULL: not wanted). */
static int sets_on(store *st, const char *gpu_model, char *name, size_t len, size_t *found,
                   gp_err *err)
{
    store_item *items;
    size_t n;
    *found = 0;
    if (store_list(st, STORE_PEACE, &items, &n, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        peace_set *s;
        if (store_get_peace_set(st, items[i].name, &s, err)) {
            rc = -1;
            break;
        }
        if (strcmp(s->gpu, gpu_model) == 0 && (*found)++ == 0 && name)
            strlcpy0(name, s->name, len);
        peace_set_free(s);
    }
    free(items);
    return rc;
}

int peace_sets_on(store *st, const char *gpu_model, size_t *n, gp_err *err)
{
    return sets_on(st, gpu_model, NULL, 0, n, err);
}

/* The one stored set measured on gpu_model, into *name. */
static int set_for_gpu(store *st, const char *gpu_model, char *name, size_t len, gp_err *err)
{
    size_t found;
    int rc = sets_on(st, gpu_model, name, len, &found, err);
    if (rc == 0 && found == 0)
        rc = gp_error(err, "no PEACE set was measured on %s (gpuplan list peace)", gpu_model);
    else if (rc == 0 && found > 1)
        rc = gp_error(err, "%zu PEACE sets were measured on %s: name one", found, gpu_model);
    return rc;
}

static int load_models(store *st, const char *model_name, peace_loaded *l, gp_err *err)
{
    store_peace_model *sm;
    if (store_get_peace_model(st, l->set->name, model_name, &sm, err)) {
        char why[sizeof err->msg];
        strlcpy0(why, err->msg, sizeof why);
        return gp_error(err, "%s; train them with 'gpuplan peace train %s'", why,
                        l->set->name);
    }
    int rc = peace_models_load(&l->models, l->ix, sm->blob, sm->len, err);
    store_peace_model_free(sm);
    l->has_models = rc == 0;
    return rc;
}

int peace_load(store *st, const char *set_name, const char *gpu_model, int need_models,
               const char *model_name, peace_loaded *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    char name[GP_NAME_MAX];
    if (!set_name) {
        if (set_for_gpu(st, gpu_model, name, sizeof name, err))
            return -1;
        set_name = name;
    }
    if (store_get_peace_set(st, set_name, &out->set, err) ||
        !(out->ix = peace_index_new(out->set, err)) ||
        (need_models && load_models(st, model_name, out, err))) {
        peace_loaded_free(out);
        return -1;
    }
    return 0;
}

void peace_loaded_free(peace_loaded *l)
{
    if (l->has_models)
        peace_models_free(&l->models);
    peace_index_free(l->ix);
    peace_set_free(l->set);
    memset(l, 0, sizeof *l);
}

int peace_split_spec(const char *text, char *policy, size_t len,
                     const peace_policy **partition, gp_err *err)
{
    const char *at = strchr(text, '@');
    size_t n = at ? (size_t)(at - text) : strlen(text);
    if (n >= len)
        return gp_error(err, "'%s': policy name too long", text);
    memcpy(policy, text, n);
    policy[n] = '\0';
    *partition = NULL;
    if (at && !(*partition = peace_policy_find(at + 1)))
        return gp_error(err, "'%s': unknown partition '%s' (peace, oracle, equal, nopart, "
                        "mudi, muxflow, gslice)", text, at + 1);
    return 0;
}

int peace_capped_model(store *st, const cluster *cl, const power_caps *caps, char *model,
                       size_t len, gp_err *err)
{
    model[0] = '\0';
    for (size_t i = 0; cl && i < cl->nnodes && !model[0]; i++) {
        const node *nd = &cl->nodes[i];
        size_t n;
        /* Reading the sets is not free: each model once. */
        if (!cluster_model_first(cl, i) || !(power_caps_for(caps, nd->gpu_model) > 0))
            continue;
        if (peace_sets_on(st, nd->gpu_model, &n, err))
            return -1;
        if (n > 0)
            snprintf(model, len, "%s", nd->gpu_model);
    }
    return 0;
}
