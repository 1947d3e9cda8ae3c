/*
 * textwidth.h — how many terminal columns UTF-8 text takes: the one
 * measure behind the aligned text tables (io/table.c) and every width the
 * dashboard computes (ui/textfit.c, ui/draw.c).
 *
 * A character's width is the C library's wcwidth() under the C.UTF-8
 * locale, whatever locale the program runs in: the bytes written are
 * UTF-8 in every locale, so a table lines up the same in a script run with
 * LANG=C as in a UTF-8 terminal.  CJK ideographs and most emoji are 2,
 * combining marks and zero-width characters 0, what wcwidth does not know
 * (control characters, unassigned code points) 1.  Where C.UTF-8 is
 * missing the program's own locale answers.  Sequences a terminal may
 * join (emoji with ZWJ, flags) are counted character by character.
 */
#ifndef GP_TEXTWIDTH_H
#define GP_TEXTWIDTH_H

#include <stddef.h>
#include <stdint.h>

#define TEXTWIDTH_BAD 0xFFFDu       /* what a byte that is not UTF-8 reads as */

/* Decodes the character at s (NUL-terminated, *s != 0) into *cp and
 * returns its length in bytes.  A sequence that is not UTF-8 (overlong,
 * surrogate, cut short) reads as one TEXTWIDTH_BAD taking its first byte
 * and the continuation bytes after it. */
size_t textwidth_next(const char *s, uint32_t *cp);

/* Columns of code point cp: 0, 1 or 2. */
int textwidth_char(uint32_t cp);

/* Columns of the UTF-8 string s. */
size_t textwidth(const char *s);

#endif
