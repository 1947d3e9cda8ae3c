/*
 * seed_int.h — what seed.c defines beyond seed.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * seed.h's interface.
 */
#ifndef GP_SEED_INT_H
#define GP_SEED_INT_H

#include "seed.h"

/* The same from an explicit directory (tests, `gpuplan import`). */
int seed_from_dir(store *st, const char *dir, gp_err *err);

#endif
