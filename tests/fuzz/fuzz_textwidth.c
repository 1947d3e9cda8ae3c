/*
 * fuzz_textwidth.c — libFuzzer harness for the display width of names read
 * from files (core/textwidth.h) and the text tables' escape of them
 * (io/table.h): an input is one name.  Decoding must always move forward
 * and stay inside the string, every character is 0 to 2 columns, and the
 * escaped form a table prints is measured without a fault.  Seeds: the
 * native fixtures, whose names include UTF-8.
 */
#include "harness.h"
#include "core/textwidth.h"
#include "io/table.h"

#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "tests/fixtures/native/lab/tasks.csv",
    "tests/fixtures/native/lab/nodes.csv",
    NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_seed_files(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    size_t len = strlen(s), cols = 0, chars = 0;
    for (size_t at = 0, k; at < len; at += k, chars++) {
        uint32_t cp;
        k = textwidth_next(s + at, &cp);
        if (k == 0 || at + k > len || cp > 0x10FFFF)
            abort();
        int w = textwidth_char(cp);
        if (w < 0 || w > 2)
            abort();
        cols += (size_t)w;
    }
    if (cols != textwidth(s) || cols > 2 * chars)
        abort();
    char *shown = text_printable(s);
    (void)textwidth(shown);
    free(shown);
    free(s);
    return 0;
}
