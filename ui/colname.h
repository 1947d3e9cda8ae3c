/*
 * colname.h — table headers shortened to their columns' width by one rule
 * that keeps distinct names distinct (pure: no curses, so tests run it
 * without a terminal).
 *
 * A policy names its score terms ("mean_sum_pct", "bestfit_norm"); cut at
 * ten characters two of them could read alike, or as something else
 * ("bestfit_no").  The rule, in order, until the name fits:
 *   1. a unit suffix becomes its sign: "_pct" → "%";
 *   2. vowels go, from the last word back to the first, each word keeping
 *      its first letter ("bestfit_norm" → "bestft_nrm");
 *   3. the end is cut;
 * and a name that then equals an earlier one of the same table ends in a
 * digit (2, 3, ...) instead of its last character.  The Help screen and
 * the legend give every name in full with what it is.
 */
#ifndef GP_COLNAME_H
#define GP_COLNAME_H

#include <stddef.h>

/* The longest name colname_fit writes, with its terminating NUL. */
#define COLNAME_MAX 32

/* names[0..n) shortened to at most width bytes each (width 1 to
 * COLNAME_MAX - 1) into out[0..n).  ASCII names; a byte >= 0x80 is kept
 * as it is and counts one. */
void colname_fit(const char *const *names, size_t n, int width, char (*out)[COLNAME_MAX]);

#endif
