/*
 * test_filetype.c — io/filetype: the types import names in one line for a
 * file no importer reads (io layer).  Each magic number is told, every
 * shorter head of it is not (and is read only as far as it goes), and
 * text a user means to import (CSV, JSON) is no type.
 */
#include "testutil.h"

#include "io/filetype.h"

#include <stdlib.h>

static const struct {
    const char *head;
    size_t len;
    const char *want;           /* the start of the answer; NULL: none */
} cases[] = {
    {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "a PNG image"},
    {"\xff\xd8\xff\xe0\0\x10JFIF", 10, "a JPEG image"},
    {"%PDF-1.7\n", 9, "a PDF document"},
    {"\x1f\x8b\x08\0", 4, "a gzip archive"},
    {"PK\x03\x04\x14\0", 6, "a zip archive"},
    {"SQLite format 3\0\x10\0", 18, "an SQLite database"},
    {"<svg xmlns=\"http://www.w3.org/2000/svg\">", 40, "an SVG image"},
    {"<?xml version=\"1.0\"?>\n<svg>", 27, "an SVG image"},
    {"name,arrival_s,duration_s\nt1,0,10\n", 35, NULL},
    {"{\"items\": []}", 13, NULL},
    {"<?xml version=\"1.0\"?>\n<html>", 28, NULL},
    {"", 0, NULL},
};

static void test_types(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* An exact-size copy: a read past it is a sanitizer error. */
        unsigned char *h = malloc(cases[i].len ? cases[i].len : 1);
        memcpy(h, cases[i].head, cases[i].len);
        const char *what = filetype_of(h, cases[i].len);
        if (!cases[i].want && what)
            fail_msg("case %zu: '%s', expected none", i, what);
        if (cases[i].want && (!what || strncmp(what, cases[i].want, strlen(cases[i].want))))
            fail_msg("case %zu: '%s', expected '%s'", i, what ? what : "(none)",
                     cases[i].want);
        /* A head cut short of the magic is not the type. */
        if (cases[i].want && strncmp(cases[i].want, "an SVG", 6) != 0)
            assert_null(filetype_of(h, 1));
        free(h);
    }
}

/* A tar archive's magic is at byte 257: a shorter head is not one. */
static void test_tar_offset(void **state)
{
    (void)state;
    unsigned char h[512] = {0};
    memcpy(h + 257, "ustar", 5);
    assert_non_null(filetype_of(h, sizeof h));
    assert_null(filetype_of(h, 261));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_tar_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
