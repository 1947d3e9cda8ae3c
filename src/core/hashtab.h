/*
 * hashtab.h — the one hash table: from a key to a size_t value, the keys
 * kept by the caller.
 *
 * Ownership: the table owns its slots only.  It never copies, frees or
 * even stores a key: it keeps the key's 64-bit hash and a value (most
 * often the key's index in the caller's own array), and asks the caller's
 * equality function whether a key equals the one of a stored value.  So
 * the caller's keys must outlive their entries, and may move (an array
 * grown by realloc) as long as the function finds them by value.
 *
 * Open addressing with linear probing, a power-of-two number of slots at
 * most half full, the slot taken from the hash by Fibonacci hashing (so a
 * weak hash of small integers still spreads).  Removal shifts the probe
 * run back, so there are no tombstones.  Nothing depends on the order of
 * the slots: a caller that lists its keys does so from its own array.
 */
#ifndef GP_HASHTAB_H
#define GP_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

#define HASHTAB_NONE ((size_t)-1)   /* "no value"; never stored */

/* 1 when key equals the key of stored value v.  ctx is the one given to
 * hashtab_new.  Called only for a stored value of the same hash. */
typedef int (*hashtab_eq)(const void *key, size_t v, const void *ctx);

typedef struct hashtab hashtab;

/* An empty table.  eq NULL: keys are equal when their hashes are (a set
 * of 64-bit values, key arguments unused). */
hashtab *hashtab_new(hashtab_eq eq, const void *ctx);
void hashtab_free(hashtab *t);

size_t hashtab_count(const hashtab *t);

/* The value stored for key (of hash h), or HASHTAB_NONE. */
size_t hashtab_find(const hashtab *t, uint64_t h, const void *key);

/* Stores value v for key (of hash h) unless the key is there already.
 * Returns HASHTAB_NONE when it stored v, else the value already there
 * (left as it was).  v must not be HASHTAB_NONE. */
size_t hashtab_put(hashtab *t, uint64_t h, const void *key, size_t v);

/* Removes key; returns its value, or HASHTAB_NONE when it was absent. */
size_t hashtab_del(hashtab *t, uint64_t h, const void *key);

/* Removes every entry, keeping the slots for reuse. */
void hashtab_clear(hashtab *t);

#endif
