/*
 * rng_int.h — what rng.c defines beyond rng.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * rng.h's interface.
 */
#ifndef GP_RNG_INT_H
#define GP_RNG_INT_H

#include "rng.h"

/* Advances the stream by 2^128 draws (the xoshiro256 jump): calling it k
 * times on copies of one state gives k non-overlapping sub-streams. */
void rng_jump(rng *r);

#endif
