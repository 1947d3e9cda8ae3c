/*
 * fuzz_import_peace.c — libFuzzer harness for the PEACE set importer
 * (import_peace.c): an input is the set's six files joined by FUZZ_SEP
 * (harness.h), in the order below, written into a directory that is
 * imported as a whole.  Seeds: the peace fixture.
 */
#include "harness.h"

extern const importer import_peace;

static const char *const seed_dirs[] = {"tests/fixtures/peace/lab", NULL};

static const fuzz_set set = {
    .imp = &import_peace,
    .files = {"peace.csv", "peace_workloads.csv", "peace_profiles.csv",
              "peace_colocations.csv", "gpus.csv", "cpus.csv", NULL},
    .as_dir = 1,
    .seed_dirs = seed_dirs,
};

FUZZ_SET_ENTRY_POINTS(set)
