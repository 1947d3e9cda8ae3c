/*
 * hash.c — 64-bit FNV-1a (hash.h).
 */
#include "hash.h"

uint64_t core_hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * CORE_HASH_PRIME;
    return h;
}

uint64_t core_str_hash(const char *s)
{
    uint64_t h = CORE_HASH_INIT;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * CORE_HASH_PRIME;
    return h;
}
