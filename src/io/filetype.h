/*
 * filetype.h — what a file is that no importer reads, told from its first
 * bytes (PNG, JPEG, PDF, gzip, zip, an SQLite database, ...), so a user who
 * hands `gpuplan import` a picture hears "a PNG image" in one line rather
 * than the list of every format.  It reads through io/input.h, so a pipe
 * read once is read from its copy.  It names types; it never decides what
 * is importable (the importers' detect does).
 */
#ifndef GP_FILETYPE_H
#define GP_FILETYPE_H

#include <stddef.h>

/* "a PNG image", "a gzip archive", ...: the type of path's content, or
 * NULL when it is none of the known ones (or cannot be read). */
const char *filetype_sniff(const char *path);
/* The same for the first n bytes of a file's content. */
const char *filetype_of(const unsigned char *head, size_t n);

#endif
