/*
 * hash.h — the one byte and string hash: 64-bit FNV-1a.
 *
 * Used wherever a hash is kept or shown (a sweep's fingerprint, a sample
 * set's generator stream) and wherever a table needs one, so every copy
 * agrees: changing it changes stored fingerprints and sample data, which
 * the tests pin.  Not a cryptographic hash; hashtab.h spreads its bits
 * before using them as a slot.
 */
#ifndef GP_HASH_H
#define GP_HASH_H

#include <stddef.h>
#include <stdint.h>

#define CORE_HASH_INIT 0xcbf29ce484222325ULL    /* FNV-1a offset basis */
#define CORE_HASH_PRIME 0x100000001b3ULL

/* h continued over n bytes at p (start with CORE_HASH_INIT). */
uint64_t core_hash_bytes(uint64_t h, const void *p, size_t n);

/* The hash of the bytes of s (without its NUL). */
uint64_t core_str_hash(const char *s);

/* h continued over one word taken whole (one FNV step, not eight): cheaper
 * than core_hash_bytes for keys made of integers. */
static inline uint64_t core_hash_word(uint64_t h, uint64_t w)
{
    return (h ^ w) * CORE_HASH_PRIME;
}

#endif
