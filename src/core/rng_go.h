/*
 * rng_go.h — Go 1.19's math/rand stream, bit for bit: the additive lagged
 * Fibonacci source (rngSource: 607 words, tap 273, seeded through the
 * Lehmer generator and the rngCooked table) and the few methods of
 * rand.Rand that the published FGD simulator draws with (FGD_NOTES §9).
 *
 * It exists so that `sweep inflation --seeds 42-51` gives the published
 * runs' arrival orders and node ranks, and so their curves, exactly.  For
 * anything else use rng.h: this stream is slower to seed (607 words) and
 * its only virtue is being Go's.
 *
 * Like rng.h there is no global state: the caller owns an rng_go value.
 * Every method consumes exactly the draws its Go namesake consumes, so a
 * sequence of calls here and the same sequence in Go stay in step.
 */
#ifndef GP_RNG_GO_H
#define GP_RNG_GO_H

#include <stddef.h>
#include <stdint.h>

#define RNG_GO_LEN 607

typedef struct rng_go {
    uint64_t vec[RNG_GO_LEN];   /* Go keeps int64; unsigned gives the same wrap-around */
    int tap, feed;
} rng_go;

/* rand.Seed(seed) (rngSource.Seed). */
void rng_go_seed(rng_go *r, int64_t seed);

/* rand.Int63(): 63 random bits.  rand.Int() is the same on 64-bit Go. */
int64_t rng_go_int63(rng_go *r);

/* rand.Intn(n) for 0 < n <= 2^31 - 1 (Int31n: a mask for powers of two,
 * else rejection above the largest multiple of n). */
int rng_go_intn(rng_go *r, int n);

/* rand.Float64(): Int63() / 2^63, drawn again if it rounds to 1. */
double rng_go_float64(rng_go *r);

/* rand.Perm(n): out[0..n) a permutation of 0..n-1. */
void rng_go_perm(rng_go *r, int n, int *out);

/* rand.Shuffle(n, swap) on n elements of `size` bytes (Fisher–Yates from
 * the end, each index by Lemire's multiply-shift int31n).  n < 2^31. */
void rng_go_shuffle(rng_go *r, void *base, size_t n, size_t size);

#endif
