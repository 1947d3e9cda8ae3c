/*
 * rng.h — the project's seeded pseudo-random numbers: xoshiro256** (Blackman
 * and Vigna, 2018) seeded through splitmix64, with the few distributions the
 * sample generator and the simulator draw from.
 *
 * There is no global state: every stream is an `rng` value the caller owns
 * and passes explicitly, so two runs with the same seed draw the same
 * numbers in the same order, and independent streams never interfere.  The
 * integer stream is bit-exact on every platform; the real-valued draws use
 * libm (log, sqrt), so they are exact on one platform and may differ in the
 * last bit across C libraries.
 *
 * Not for cryptography.
 */
#ifndef GP_RNG_H
#define GP_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];              /* xoshiro256** state, never all zero */
    double spare;               /* the second normal of the last polar pair */
    int has_spare;
} rng;

/* Seeds the stream: the four state words are four splitmix64 outputs from
 * seed, as the xoshiro authors recommend (any seed, including 0, is fine). */
void rng_seed(rng *r, uint64_t seed);

/* Seeds an independent stream number `stream` of seed: the same (seed,
 * stream) pair always gives the same numbers, different streams do not
 * overlap in practice.  Used to give each sample set or each policy its own
 * stream so adding draws to one never shifts another. */
void rng_seed_stream(rng *r, uint64_t seed, uint64_t stream);

/* The next 64 random bits. */
uint64_t rng_u64(rng *r);

/* Uniform double in [0, 1) with 53 random bits. */
double rng_uniform(rng *r);

/* Uniform double in [lo, hi). */
double rng_range(rng *r, double lo, double hi);

/* Uniform integer in [0, n) without modulo bias (rejection of the low
 * 2^64 mod n values).  n must be > 0. */
uint64_t rng_below(rng *r, uint64_t n);

/* 1 with probability p, else 0. */
int rng_bernoulli(rng *r, double p);

/* Standard normal N(0, 1) by Marsaglia's polar method; the second value of
 * each pair is kept in the state for the next call. */
double rng_normal(rng *r);

/* Exponential with the given mean (> 0): -mean * ln(1 - U). */
double rng_exponential(rng *r, double mean);

/* Log-normal: exp(mu + sigma * N(0, 1)); its median is exp(mu). */
double rng_lognormal(rng *r, double mu, double sigma);

/* Fisher–Yates shuffle of n elements of `size` bytes each. */
void rng_shuffle(rng *r, void *base, size_t n, size_t size);

#endif
