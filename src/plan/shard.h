/*
 * shard.h — splitting a sweep's work list over machines, and naming the
 * sweep so that its pieces can be put back together.
 *
 * Shard I of N (0 <= I < N) holds the jobs j of the work list with
 * j mod N = I: a partition that depends only on I, N and the list's
 * length, and deals each policy's seeds round the shards so every shard
 * gets a like mix of slow and fast policies.
 *
 * A sweep's fingerprint is a 64-bit FNV-1a hash of everything that decides
 * its runs, fed piece by piece; two shards with equal fingerprints are
 * pieces of one sweep.
 */
#ifndef GP_SHARD_H
#define GP_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "core/hash.h"
#include "core/util.h"

#define SHARD_MAX 100000

typedef struct shard {
    int i, n;                   /* shard i of n; {0, 1} = the whole list */
} shard;

/* "I/N" into the shard at value, as a cli_opt callback (--shard); 0, or
 * -1 with a message. */
int shard_parse_opt(void *value, const char *text, gp_err *err);
/* How many of `total` jobs belong to shard s. */
size_t shard_count(shard s, size_t total);
/* The job number (in the whole list) of the shard's local-th job. */
size_t shard_job(shard s, size_t local);

/* FNV-1a, 64 bits (core/hash.h). */
#define FP_INIT CORE_HASH_INIT
static inline uint64_t fp_bytes(uint64_t h, const void *p, size_t n)
{
    return core_hash_bytes(h, p, n);
}
/* A string and its terminating NUL (so "ab","c" differs from "a","bc"). */
uint64_t fp_str(uint64_t h, const char *s);
/* 16 lowercase hex digits and a NUL. */
void fp_hex(uint64_t h, char out[17]);

#endif
