/*
 * fuzz_jsonpos.c — libFuzzer harness for the JSON position helpers
 * (io/jsonpos.h).  An input is a JSON text.  When jansson accepts it, every
 * value of the tree (up to MAX_VALUES, at most JSONPOS_MAX_DEPTH deep) must
 * be found by jsonpos_locate() along its path, at an offset where a value
 * of its type begins, with a line and column inside the text.  Whatever
 * jansson says, a walk along a path made of the input's own bytes must stay
 * inside the text (the header's promise for text jansson refuses), and the
 * path must format into a short buffer.  A text with a NUL byte is not
 * walked: jansson skips a NUL between tokens where the walk cannot, and the
 * importers refuse such text before parsing it (test_fuzz_findings.c).
 * Seeds: the JSON fixtures.
 */
#include "harness.h"
#include "io/jsonpos.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 256

static const char *const seeds[] = {
    "tests/fixtures/gavel/lab_throughputs.json",
    "tests/fixtures/gogh/negative.json",
    "tests/fixtures/philly/cluster_job_log",
    NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_seed_files(seeds);
    return 0;
}

/* The bytes a value of v's type may begin with. */
static int starts_like(const json_t *v, char c)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return c == '{';
    case JSON_ARRAY: return c == '[';
    case JSON_STRING: return c == '"';
    case JSON_INTEGER:
    case JSON_REAL: return c == '-' || (c >= '0' && c <= '9');
    case JSON_TRUE: return c == 't';
    case JSON_FALSE: return c == 'f';
    case JSON_NULL: return c == 'n';
    }
    return 0;
}

static void check_value(const char *text, size_t len, const jsonpos_path *p, const json_t *v)
{
    jsonpos_loc loc = jsonpos_locate(text, len, p);
    if (loc.found != p->depth || loc.value >= len || loc.key > loc.value ||
        !starts_like(v, text[loc.value])) {
        char where[128];
        jsonpos_format(p, 0, JSONPOS_BRACKETS, where, sizeof where);
        fprintf(stderr, "%s (%s) located at %zu, %d of %d steps\n", where,
                jsonpos_type_name(v), loc.value, loc.found, p->depth);
        abort();
    }
    long line, col;
    jsonpos_line_col(text, len, loc.value, &line, &col);
    if (line < 1 || col < 1 || (size_t)line > len || (size_t)col > len)
        abort();
}

/* Visits v and its children depth-first; *budget bounds the work. */
static void walk(const char *text, size_t len, jsonpos_path *p, const json_t *v, int *budget)
{
    if ((*budget)-- <= 0)
        return;
    check_value(text, len, p, v);
    if (p->depth + 1 >= JSONPOS_MAX_DEPTH)
        return;
    if (json_is_object(v)) {
        const char *key;
        json_t *child;
        json_object_foreach((json_t *)v, key, child) {
            jsonpos_push_key(p, key);
            walk(text, len, p, child, budget);
            jsonpos_pop(p);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *child;
        json_array_foreach(v, i, child) {
            jsonpos_push_index(p, i);
            walk(text, len, p, child, budget);
            jsonpos_pop(p);
        }
    }
}

/* A path from the input's bytes: each byte a step, an index when even and a
 * one-letter key when odd. */
static void arbitrary_path(const uint8_t *data, size_t size, jsonpos_path *p, char *keys)
{
    p->depth = 0;
    for (size_t i = 0; i < size && p->depth < JSONPOS_MAX_DEPTH - 1; i += 7) {
        uint8_t b = data[i];
        if (b % 2 == 0) {
            jsonpos_push_index(p, b / 2 % 8);
        } else {
            char *k = keys + 2 * p->depth;
            k[0] = (char)('a' + b / 2 % 26);
            k[1] = '\0';
            jsonpos_push_key(p, k);
        }
    }
}

static void check_bounds(const char *text, size_t len, const jsonpos_path *p)
{
    jsonpos_loc loc = jsonpos_locate(text, len, p);
    if (loc.value > len || loc.key > len || loc.found < 0 || loc.found > p->depth)
        abort();
    long line, col;
    jsonpos_line_col(text, len, loc.value, &line, &col);
    jsonpos_line_col(text, len, len + 10, &line, &col);
    if (jsonpos_skip_ws(text, len, loc.value) > len)
        abort();
    char small[12];
    jsonpos_format(p, 0, JSONPOS_BRACKETS, small, sizeof small);
    jsonpos_format(p, p->depth > 0 ? 1 : 0, JSONPOS_DOTTED, small, sizeof small);
    if (strlen(small) >= sizeof small)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes, so reading past the end is caught. */
    char *text = malloc(size ? size : 1);
    memcpy(text, data, size);
    json_error_t jerr;
    json_t *root = memchr(text, '\0', size) ? NULL :
                   json_loadb(text, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (root) {
        jsonpos_path p = {.depth = 0};
        int budget = MAX_VALUES;
        walk(text, size, &p, root, &budget);
        json_decref(root);
    }
    jsonpos_path p;
    char keys[2 * JSONPOS_MAX_DEPTH];
    arbitrary_path(data, size, &p, keys);
    check_bounds(text, size, &p);
    free(text);
    return 0;
}
