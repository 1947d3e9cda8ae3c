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
