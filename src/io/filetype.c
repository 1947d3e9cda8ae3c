/*
 * filetype.c — a file's type from its magic number (see filetype.h).  The
 * table holds types a user may plausibly pick by mistake next to a trace:
 * images and plots, documents, archives, databases, programs.
 */
#include "filetype.h"
#include "input.h"

#include <stdio.h>
#include <string.h>

static const struct magic {
    size_t off;
    const char *bytes;
    size_t len;
    const char *what;
} magics[] = {
    {0, "\x89PNG\r\n\x1a\n", 8, "a PNG image"},
    {0, "\xff\xd8\xff", 3, "a JPEG image"},
    {0, "GIF8", 4, "a GIF image"},
    {0, "%PDF-", 5, "a PDF document"},
    {0, "\x1f\x8b", 2, "a gzip archive (uncompress it first)"},
    {0, "BZh", 3, "a bzip2 archive (uncompress it first)"},
    {0, "\xfd" "7zXZ", 5, "an xz archive (uncompress it first)"},
    {0, "\x28\xb5\x2f\xfd", 4, "a zstd archive (uncompress it first)"},
    {0, "PK\x03\x04", 4, "a zip archive or an Office document"},
    {0, "SQLite format 3", 16, "an SQLite database (a gpuplan database merges with "
                               "`gpuplan merge`)"},
    {0, "\x7f" "ELF", 4, "a program (ELF)"},
    {257, "ustar", 5, "a tar archive (unpack it first)"},
    {0, "PAR1", 4, "a Parquet file (export it to CSV first)"},
};

/* 1 when the n bytes at head hold the text s. */
static int holds(const unsigned char *head, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(head + i, s, k) == 0)
            return 1;
    return 0;
}

const char *filetype_of(const unsigned char *head, size_t n)
{
    for (size_t i = 0; i < sizeof magics / sizeof *magics; i++) {
        const struct magic *m = &magics[i];
        if (n >= m->off + m->len && memcmp(head + m->off, m->bytes, m->len) == 0)
            return m->what;
    }
    /* SVG is text: an XML prologue or an <svg element at the start. */
    if (n >= 4 && (memcmp(head, "<svg", 4) == 0 ||
                   (memcmp(head, "<?xm", 4) == 0 && holds(head, n, "<svg"))))
        return "an SVG image";
    return NULL;
}

const char *filetype_sniff(const char *path)
{
    FILE *f = input_open(path);
    if (!f)
        return NULL;
    unsigned char head[512];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return filetype_of(head, n);
}
