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

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_init(&set);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_set_run(&set, data, size);
    return 0;
}
