/*
 * fuzz_import_smi.c — libFuzzer harness for the nvidia-smi importer (import_smi.c: --query-gpu CSV per host and --query-compute-apps): an input is the set's
 * files joined by FUZZ_SEP (harness.h), given as paths as on the command
 * line; what it accepts must survive export and import (ops_roundtrip.h).  Seeds: the fixtures of tests/fixtures/ops/ as one set.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

extern const importer import_smi;

#define FIX "tests/fixtures/ops/"

static const fuzz_seed seeds[] = {
    {{FIX "h100-node.csv", FIX "h100-node.apps.csv"}},
};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    return ops_rt_import_result(st, fuzz_tmpdir(), name, res, why, len);
}

static const fuzz_set set = {
    .imp = &import_smi,
    .files = {"h100-node.csv", "h100-node.apps.csv", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
