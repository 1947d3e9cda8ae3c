/*
 * fuzz_import_promrange.c — libFuzzer harness for the Prometheus range-query importer (import_promrange.c): an input is the set's
 * files joined by FUZZ_SEP (harness.h), given as paths as on the command
 * line.  Seeds: the fixtures of tests/fixtures/ops/ as one set.
 */
#include "harness.h"

extern const importer import_promrange;

#define FIX "tests/fixtures/ops/"

static const fuzz_seed seeds[] = {
    {{FIX "util-range.json"}},
};

static const fuzz_set set = {
    .imp = &import_promrange,
    .files = {"util-range.json", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
