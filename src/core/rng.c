/*
 * rng.c — xoshiro256** with splitmix64 seeding and the distributions of
 * rng.h.  The generator is the public-domain reference algorithm of
 * Blackman and Vigna ("Scrambled linear pseudorandom number generators",
 * 2018), rewritten here; nothing else in the project keeps random state.
 */
#include "rng.h"
#include "rng_int.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64 (Steele, Lea, Flood 2014): a good 64-bit mixer whose outputs
 * are equidistributed, so no seed gives the all-zero xoshiro state. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    r->spare = 0;
    r->has_spare = 0;
}

void rng_seed_stream(rng *r, uint64_t seed, uint64_t stream)
{
    /* Mix the stream number through splitmix64 once so that neighbouring
     * (seed, stream) pairs land far apart in seed space. */
    uint64_t x = stream ^ 0x6a09e667f3bcc909ULL;
    rng_seed(r, seed ^ splitmix64(&x));
}

uint64_t rng_u64(rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void rng_jump(rng *r)
{
    static const uint64_t jump[] = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL,
                                    0xa9582618e03fc9aaULL, 0x39abdc4529b1661cULL};
    uint64_t t[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 64; b++) {
            if (jump[i] & (UINT64_C(1) << b))
                for (int k = 0; k < 4; k++)
                    t[k] ^= r->s[k];
            rng_u64(r);
        }
    memcpy(r->s, t, sizeof t);
    r->has_spare = 0;
}

double rng_uniform(rng *r)
{
    return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

double rng_range(rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_uniform(r);
}

uint64_t rng_below(rng *r, uint64_t n)
{
    assert(n > 0);
    /* 2^64 mod n values at the bottom of the range would be drawn once more
     * than the others by a plain `% n`; reject them. */
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_u64(r);
        if (x >= threshold)
            return x % n;
    }
}

int rng_bernoulli(rng *r, double p)
{
    return rng_uniform(r) < p;
}

double rng_normal(rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2 * rng_uniform(r) - 1;
        v = 2 * rng_uniform(r) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double m = sqrt(-2 * log(s) / s);
    r->spare = v * m;
    r->has_spare = 1;
    return u * m;
}

double rng_exponential(rng *r, double mean)
{
    assert(mean > 0);
    /* 1 - U is in (0, 1], so the logarithm is finite. */
    return -mean * log1p(-rng_uniform(r));
}

double rng_lognormal(rng *r, double mu, double sigma)
{
    return exp(mu + sigma * rng_normal(r));
}

void rng_shuffle(rng *r, void *base, size_t n, size_t size)
{
    unsigned char *a = base;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)rng_below(r, i);
        if (j == i - 1)
            continue;
        unsigned char *p = a + (i - 1) * size, *q = a + j * size;
        for (size_t b = 0; b < size; b++) {
            unsigned char t = p[b];
            p[b] = q[b];
            q[b] = t;
        }
    }
}
