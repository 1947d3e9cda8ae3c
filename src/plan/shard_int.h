/*
 * shard_int.h — what shard.c defines beyond shard.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * shard.h's interface.
 */
#ifndef GP_SHARD_INT_H
#define GP_SHARD_INT_H

#include "shard.h"

/* "I/N" into *out (a --shard callback's parser); 0, or -1 with a message. */
int shard_parse(const char *text, shard *out, gp_err *err);

#endif
