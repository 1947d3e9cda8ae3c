/*
 * fuzz_import_smi.c — libFuzzer harness for the nvidia-smi importer (import_smi.c: --query-gpu CSV per host and --query-compute-apps): an input is the set's
 * files joined by FUZZ_SEP (harness.h), given as paths as on the command
 * line.  Seeds: the fixtures of tests/fixtures/ops/ as one set.
 */
#include "harness.h"

extern const importer import_smi;

#define FIX "tests/fixtures/ops/"

static const fuzz_seed seeds[] = {
    {{FIX "h100-node.csv", FIX "h100-node.apps.csv"}},
};

static const fuzz_set set = {
    .imp = &import_smi,
    .files = {"h100-node.csv", "h100-node.apps.csv", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
