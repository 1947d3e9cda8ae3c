/*
 * seed.h — filling a new database: the built-in profile catalog and every
 * set found in the sample-data directory, native or PEACE (SPEC §4.3).
 */
#ifndef GP_SEED_H
#define GP_SEED_H

#include "db/store.h"
#include "core/util.h"

/* Where the sample sets are: $GPUPLAN_SAMPLES, else sample-data/ next to the
 * program (or one level up, for build-asan/), else the installed
 * ../share/gpuplan/sample-data.  Returns an allocated path or NULL. */
char *seed_sample_dir(void);

/* Stores the built-in profiles and imports every sample set (a
 * subdirectory of the sample directory, in the format its files tell),
 * all in one transaction.  GOGH's nets are trained by the first command
 * that needs them (gogh_nets_find), not here. */
int seed_default(store *st, gp_err *err);

#endif
