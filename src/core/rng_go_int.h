/*
 * rng_go_int.h — what rng_go.c defines beyond rng_go.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * rng_go.h's interface.
 */
#ifndef GP_RNG_GO_INT_H
#define GP_RNG_GO_INT_H

#include "rng_go.h"

/* rand.Int31(): Int63() >> 32. */
int32_t rng_go_int31(rng_go *r);

/* rand.Uint32(): uint32(Int63() >> 31). */
uint32_t rng_go_uint32(rng_go *r);

#endif
