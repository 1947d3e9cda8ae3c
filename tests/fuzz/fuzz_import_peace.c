/*
 * fuzz_import_peace.c — libFuzzer harness for the PEACE set importer
 * (import_peace.c): an input is the set's six files joined by FUZZ_SEP
 * (harness.h), in the order below, written into a directory that is
 * imported as a whole; what it accepts must survive export and import
 * (ops_roundtrip.h).  Seeds: the peace fixture.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

extern const importer import_peace;

static const char *const seed_dirs[] = {"tests/fixtures/peace/lab", NULL};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    (void)res;
    return ops_rt_peace_result(st, fuzz_tmpdir(), name, why, len);
}

static const fuzz_set set = {
    .imp = &import_peace,
    .files = {"peace.csv", "peace_workloads.csv", "peace_profiles.csv",
              "peace_colocations.csv", "gpus.csv", "cpus.csv", NULL},
    .as_dir = 1,
    .seed_dirs = seed_dirs,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
