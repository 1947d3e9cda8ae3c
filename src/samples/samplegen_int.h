/*
 * samplegen_int.h — what samplegen.c defines beyond samplegen.h for the
 * tests and the benchmarks alone: the engine calls none of it, so it is not
 * part of samplegen.h's interface.
 */
#ifndef GP_SAMPLEGEN_INT_H
#define GP_SAMPLEGEN_INT_H

#include "samplegen.h"

void sample_set_free(sample_set *s);

/* Generates set `name` with seed into *out (zeroed first).  Returns 0, or
 * -1 with a message for an unknown set. */
int samplegen_build(const char *name, uint64_t seed, sample_set *out, gp_err *err);

#endif
