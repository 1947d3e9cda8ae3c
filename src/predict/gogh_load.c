/*
 * gogh_load.c — the GOGH nets of a run from the store (gogh_load.h).
 */
#include "gogh_load.h"

#include <stddef.h>

int gogh_nets_find(store *st, const char *name, const tput_catalog *tput, gogh_nets **out,
                   gp_err *err)
{
    *out = NULL;
    store_gogh_nets *sn;
    if (store_find_gogh_nets_for(st, name, tput ? tput->name : NULL, &sn, err))
        return -1;
    if (!sn)
        return 0;
    gogh_nets *n = gogh_nets_load(sn->blob, sn->len, err);
    store_gogh_nets_free(sn);
    if (!n)
        return -1;
    *out = n;
    return 0;
}
