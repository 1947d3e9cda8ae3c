/*
 * fuzz_import_gavel.c — libFuzzer harness for the Gavel throughput-table
 * importer (import_gavel.c): an input is the whole JSON file.  Seeds: the
 * Gavel and GOGH JSON fixtures.
 */
#include "harness.h"

extern const importer import_gavel;

static const fuzz_seed seeds[] = {
    {{"tests/fixtures/gavel/lab_throughputs.json"}},
    {{"tests/fixtures/gogh/negative.json"}},
};

static const fuzz_set set = {
    .imp = &import_gavel,
    .files = {"throughputs.json", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
