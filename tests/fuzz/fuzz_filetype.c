/*
 * fuzz_filetype.c — libFuzzer harness for telling a file's type from its
 * first bytes (io/filetype.h), which `gpuplan import` runs on any file no
 * importer reads: an input is a file's content.  filetype_of() must not
 * read past the n bytes it is given (an exact-size copy, so AddressSanitizer
 * sees an over-read), must name a type as "a ..." or "an ..." or give
 * NULL, and must give what filetype_sniff() gives for the same bytes
 * written to a file (which reads at most its first 512).  Seeds: one
 * short file of each known type, written from the magic numbers here, and
 * a native fixture (which is none of them).
 */
#include "harness.h"
#include "io/filetype.h"

#include <stdlib.h>
#include <string.h>

/* Sniffing reads this much of a file (filetype.c). */
#define SNIFF_BYTES 512

static const struct seed {
    const char *name;
    const char *bytes;
    size_t len;
} seeds[] = {
    {"png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16},
    {"jpeg", "\xff\xd8\xff\xe0\0\x10JFIF", 10},
    {"pdf", "%PDF-1.7\n", 9},
    {"gzip", "\x1f\x8b\x08\0\0\0\0\0", 8},
    {"zip", "PK\x03\x04\x14\0", 6},
    {"sqlite", "SQLite format 3\0\x10\0", 19},
    {"svg", "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>", 63},
    {"parquet", "PAR1\x15\x04", 6},
};

static void write_seeds(void)
{
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
        fuzz_write_seed(seeds[i].name, seeds[i].bytes, seeds[i].len);
    /* A tar header: "ustar" at offset 257. */
    char tar[SNIFF_BYTES] = "data.csv";
    memcpy(tar + 257, "ustar\0" "00", 8);
    fuzz_write_seed("tar", tar, sizeof tar);
    static const char *const fixtures[] = {"tests/fixtures/native/lab/tasks.csv", NULL};
    fuzz_seed_files(fixtures);      /* exits */
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (fuzz_seed_dir())
        write_seeds();
    return 0;
}

static int names_a_type(const char *what)
{
    return what == NULL || strncmp(what, "a ", 2) == 0 || strncmp(what, "an ", 3) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *head = malloc(size ? size : 1);
    memcpy(head, data, size);
    const char *what = filetype_of(head, size);
    free(head);
    if (!names_a_type(what))
        abort();
    char *path = fuzz_write_file("input", data, size);
    const char *sniffed = filetype_sniff(path);
    free(path);
    size_t n = size < SNIFF_BYTES ? size : SNIFF_BYTES;
    head = malloc(n ? n : 1);
    memcpy(head, data, n);
    const char *first = filetype_of(head, n);
    free(head);
    if (sniffed != first)
        abort();
    return 0;
}
