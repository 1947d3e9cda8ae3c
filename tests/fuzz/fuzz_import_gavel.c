/*
 * fuzz_import_gavel.c — libFuzzer harness for the Gavel throughput-table
 * importer (import_gavel.c): an input is the whole JSON file; what it
 * accepts must survive export as tput.csv and import (ops_roundtrip.h).  Seeds: the
 * Gavel and GOGH JSON fixtures.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

extern const importer import_gavel;

static const fuzz_seed seeds[] = {
    {{"tests/fixtures/gavel/lab_throughputs.json"}},
    {{"tests/fixtures/gogh/negative.json"}},
};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    return ops_rt_import_result(st, fuzz_tmpdir(), name, res, why, len);
}

static const fuzz_set set = {
    .imp = &import_gavel,
    .files = {"throughputs.json", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
