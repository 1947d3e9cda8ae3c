/*
 * hashtab.c — open addressing with linear probing and backward-shift
 * removal (hashtab.h).
 */
#include "hashtab.h"
#include "util.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MIN_BITS 4                          /* 16 slots */
#define FIB 0x9E3779B97F4A7C15ULL           /* 2^64 / golden ratio */

typedef struct slot {
    uint64_t h;
    size_t v;                               /* HASHTAB_NONE: empty */
} slot;

struct hashtab {
    hashtab_eq eq;
    const void *ctx;
    slot *s;
    size_t count;
    unsigned bits;                          /* 2^bits slots */
};

static size_t nslots(const hashtab *t)
{
    return (size_t)1 << t->bits;
}

/* The slot where a probe for hash h starts. */
static size_t home(const hashtab *t, uint64_t h)
{
    return (size_t)((h * FIB) >> (64 - t->bits));
}

static void slots_alloc(hashtab *t, unsigned bits)
{
    t->bits = bits;
    t->s = xmalloc(nslots(t) * sizeof *t->s);
    for (size_t i = 0; i < nslots(t); i++)
        t->s[i].v = HASHTAB_NONE;
}

hashtab *hashtab_new(hashtab_eq eq, const void *ctx)
{
    hashtab *t = xcalloc(1, sizeof *t);
    t->eq = eq;
    t->ctx = ctx;
    slots_alloc(t, MIN_BITS);
    return t;
}

void hashtab_free(hashtab *t)
{
    if (!t)
        return;
    free(t->s);
    free(t);
}

size_t hashtab_count(const hashtab *t)
{
    return t->count;
}

/* The slot holding key, or the empty slot ending its probe run. */
static size_t probe(const hashtab *t, uint64_t h, const void *key)
{
    size_t mask = nslots(t) - 1, i = home(t, h);
    for (; t->s[i].v != HASHTAB_NONE; i = (i + 1) & mask)
        if (t->s[i].h == h && (!t->eq || t->eq(key, t->s[i].v, t->ctx)))
            break;
    return i;
}

size_t hashtab_find(const hashtab *t, uint64_t h, const void *key)
{
    return t->s[probe(t, h, key)].v;
}

/* Doubles the slots; the stored hashes place the entries again. */
static void grow(hashtab *t)
{
    slot *old = t->s;
    size_t nold = nslots(t);
    slots_alloc(t, t->bits + 1);
    size_t mask = nslots(t) - 1;
    for (size_t k = 0; k < nold; k++) {
        if (old[k].v == HASHTAB_NONE)
            continue;
        size_t i = home(t, old[k].h);
        while (t->s[i].v != HASHTAB_NONE)
            i = (i + 1) & mask;
        t->s[i] = old[k];
    }
    free(old);
}

size_t hashtab_put(hashtab *t, uint64_t h, const void *key, size_t v)
{
    assert(v != HASHTAB_NONE);
    size_t i = probe(t, h, key);
    if (t->s[i].v != HASHTAB_NONE)
        return t->s[i].v;
    if (2 * (t->count + 1) > nslots(t)) {
        grow(t);
        i = probe(t, h, key);
    }
    t->s[i] = (slot){h, v};
    t->count++;
    return HASHTAB_NONE;
}

/* 1 when slot j (occupied, home k) may move back to the hole at i: its
 * home is not in the cyclic range (i, j]. */
static int may_fill(size_t i, size_t j, size_t k)
{
    return i <= j ? (k <= i || k > j) : (k <= i && k > j);
}

size_t hashtab_del(hashtab *t, uint64_t h, const void *key)
{
    size_t i = probe(t, h, key), v = t->s[i].v, mask = nslots(t) - 1;
    if (v == HASHTAB_NONE)
        return v;
    /* Backward shift: pull later members of the run into the hole so
     * that every probe still meets its key before an empty slot. */
    for (size_t j = (i + 1) & mask; t->s[j].v != HASHTAB_NONE; j = (j + 1) & mask)
        if (may_fill(i, j, home(t, t->s[j].h))) {
            t->s[i] = t->s[j];
            i = j;
        }
    t->s[i].v = HASHTAB_NONE;
    t->count--;
    return v;
}

void hashtab_clear(hashtab *t)
{
    if (!t->count)
        return;
    /* A table cleared for every decision (FGD's node groups) should cost
     * what it held, not the most it ever held: 32 times too big or more,
     * it shrinks to 4 to 8 times (the next fill grows it if need be). */
    unsigned bits = t->bits;
    while (bits > MIN_BITS && ((size_t)1 << (bits - 1)) >= 4 * t->count)
        bits--;
    t->count = 0;
    if (bits + 2 < t->bits) {
        free(t->s);
        slots_alloc(t, bits);
        return;
    }
    for (size_t i = 0; i < nslots(t); i++)
        t->s[i].v = HASHTAB_NONE;
}
