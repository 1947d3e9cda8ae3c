/*
 * suggest.h — "did you mean ...": the known name closest to one a user
 * typed, when it differs only in case or by one or two characters.
 *
 * Every lookup of a name (commands, policies, GPU profiles, traces,
 * clusters, ...) offers its known names one at a time to a `suggest`, so
 * the candidates can come from a table, a list or a database query alike
 * and nothing is copied.  It does not print: the caller words the message
 * and appends suggest_hint().
 */
#ifndef GP_SUGGEST_H
#define GP_SUGGEST_H

#include <stddef.h>

/* The most edits (insert, delete, replace, swap two neighbours) between a
 * typed name and a suggestion. */
#define SUGGEST_MAX_EDITS 2

typedef struct suggest {
    const char *given;          /* borrowed: lives as long as the suggest */
    char best[256];             /* the closest name so far, "" when none */
    int cost;                   /* its distance; a case-only difference is 0 */
} suggest;

void suggest_init(suggest *sg, const char *given);
/* Considers name: kept when it is closer than the best so far (the first
 * offered wins a tie, so a table's order decides).  The name the user
 * typed itself, byte for byte, is never suggested. */
void suggest_offer(suggest *sg, const char *name);
/* The closest name, or NULL when none is close enough. */
const char *suggest_best(const suggest *sg);
/* " (did you mean 'x'?)" when there is a suggestion, else "". */
const char *suggest_hint(const suggest *sg, char *buf, size_t len);

/* The edit distance between a and b ignoring ASCII case (optimal string
 * alignment: a swap of two neighbours is one edit), or limit + 1 when it
 * is more than limit. */
int suggest_distance(const char *a, const char *b, int limit);

#endif
