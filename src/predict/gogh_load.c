/*
 * gogh_load.c — the GOGH nets of a run from the store (gogh_load.h).
 */
#include "gogh_load.h"

#include <stdlib.h>
#include <string.h>

void gogh_first_use_params(gogh_train_params *p)
{
    /* 60 epochs, not gogh_est.h's 500: the first GOGH run waits for them,
     * and on gavel-like's 26 job types the P1 test MAE is the same at 60
     * and 500 epochs (0.068; validation picks an early epoch) and P1 +
     * P2's 0.084 against 0.077.  `gpuplan estimate train --tput
     * gavel-like` trains the full 500. */
    gogh_train_params_default(p);
    p->epochs = 60;
}

/* Nets for table tp, which has none yet: trained now and stored under its
 * name.  A table too small to train on has none (*out NULL, no error: the
 * policies that need nets say so), and a store that cannot be written
 * keeps them in memory for this command. */
static int train_first_use(store *st, const tput_catalog *tp, const gogh_progress *prog,
                           gogh_nets **out, gp_err *err)
{
    gogh_train_params p;
    gogh_first_use_params(&p);
    gogh_train_report rep;
    gp_err why = {{0}};
    gogh_nets *n = gogh_nets_train_shown(tp, &p, prog, &rep, &why);
    if (!n)
        return 0;
    gp_err ro = {{0}};
    if (store_check_writable(st, &ro) == 0 &&
        gogh_nets_store(st, tp->name, tp->name, n, &p, &rep, err)) {
        gogh_nets_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

int gogh_nets_find_shown(store *st, const char *name, const tput_catalog *tput,
                         const gogh_progress *prog, gogh_nets **out, gp_err *err)
{
    *out = NULL;
    store_gogh_nets *sn;
    if (store_find_gogh_nets_for(st, name, tput ? tput->name : NULL, &sn, err))
        return -1;
    if (!sn) {
        if (name || !tput)
            return 0;
        store_gogh_nets *l;
        size_t have;
        if (store_list_gogh_nets(st, tput->name, &l, &have, err))
            return -1;
        store_gogh_nets_list_free(l, have);
        return have == 0 ? train_first_use(st, tput, prog, out, err) : 0;
    }
    gogh_nets *n = gogh_nets_load(sn->blob, sn->len, err);
    store_gogh_nets_free(sn);
    if (!n)
        return -1;
    *out = n;
    return 0;
}

int gogh_nets_find(store *st, const char *name, const tput_catalog *tput, gogh_nets **out,
                   gp_err *err)
{
    return gogh_nets_find_shown(st, name, tput, NULL, out, err);
}

static void report_to_store(const gogh_train_report *rep, store_gogh_nets *sn)
{
    for (int s = 0; s < 3; s++) {
        sn->p1[s] = (store_gogh_err){rep->p1[s].loss, rep->p1[s].mae, (int64_t)rep->p1[s].rows};
        sn->p2[s] = (store_gogh_err){rep->p2[s].loss, rep->p2[s].mae, (int64_t)rep->p2[s].rows};
        sn->types[s] = (int64_t)rep->types[s];
    }
    sn->p1_s = rep->p1_s;
    sn->p2_s = rep->p2_s;
}

int gogh_nets_store(store *st, const char *name, const char *tput, const gogh_nets *n,
                    const gogh_train_params *p, const gogh_train_report *rep, gp_err *err)
{
    store_gogh_nets sn;
    memset(&sn, 0, sizeof sn);
    strlcpy0(sn.name, name, sizeof sn.name);
    strlcpy0(sn.tput, tput, sizeof sn.tput);
    sn.params = xasprintf("hidden=%d layers=%d epochs=%d rate=%g val=%g test=%g seed=%llu",
                          p->hidden, p->layers, p->epochs, p->learning_rate, p->val_frac,
                          p->test_frac, (unsigned long long)p->seed);
    report_to_store(rep, &sn);
    sn.blob = gogh_nets_save(n, &sn.len);
    int rc = store_put_gogh_nets(st, &sn, err);
    free(sn.params);
    free(sn.blob);
    return rc;
}
