/*
 * help_terms.h — what every column and term of Step, Cluster and the
 * Planner means: the Help screen (?) lists them per screen, and Step's
 * one-line legend takes the short gloss of the terms its table shows.
 * Definitions say what the number is and, for a policy's score term, the
 * section of its paper it follows.
 */
#ifndef GP_HELP_TERMS_H
#define GP_HELP_TERMS_H

#include <stddef.h>

typedef struct help_term {
    const char *name;           /* as the screen shows it ("dmu", "F a -> b") */
    const char *gloss;          /* a few words for a legend */
    const char *text;           /* the definition */
} help_term;

/* The terms of screen scr (an app.h ui_scr), *n of them; NULL with *n = 0
 * for a screen without any. */
const help_term *help_terms(int scr, size_t *n);
/* The term named name on Step, or NULL. */
const help_term *help_step_term(const char *name);

#endif
