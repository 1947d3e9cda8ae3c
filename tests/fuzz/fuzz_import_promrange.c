/*
 * fuzz_import_promrange.c — libFuzzer harness for the Prometheus range-query importer (import_promrange.c): an input is the set's
 * files joined by FUZZ_SEP (harness.h), given as paths as on the command
 * line; what it accepts must survive export and import (ops_roundtrip.h).  Seeds: the fixtures of tests/fixtures/ops/ as one set.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

extern const importer import_promrange;

#define FIX "tests/fixtures/ops/"

static const fuzz_seed seeds[] = {
    {{FIX "util-range.json"}},
};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    return ops_rt_import_result(st, fuzz_tmpdir(), name, res, why, len);
}

static const fuzz_set set = {
    .imp = &import_promrange,
    .files = {"util-range.json", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
