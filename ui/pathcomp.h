/*
 * pathcomp.h — Tab completion of file paths in a prompt line, as a shell
 * does it: the word before the cursor is completed to the longest prefix
 * its matches share, with "/" after a directory and " " after a file when
 * only one matches.  "~/" stands for $HOME.
 *
 * Pure apart from reading directories: no curses, so tests run it on a
 * temporary directory.
 */
#ifndef GP_PATHCOMP_H
#define GP_PATHCOMP_H

#include <stddef.h>

/* Completes the word ending at *cursor in text[cap] in place (the cursor
 * moves to its end).  Returns how many entries matched (0: nothing
 * changed); when several did, up to `cap_shown` bytes of their names,
 * space-separated, go to shown (may be NULL). */
int path_complete(char *text, size_t cap, size_t *cursor, char *shown, size_t cap_shown);

#endif
