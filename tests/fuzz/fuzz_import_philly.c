/*
 * fuzz_import_philly.c — libFuzzer harness for the Philly importer
 * (import_philly.c): an input is the JSON job log and the CSV utilization
 * file joined by FUZZ_SEP (harness.h), written into a trace-data directory
 * that is imported as a whole.  Seeds: the philly fixtures.
 */
#include "harness.h"

extern const importer import_philly;

static const char *const seed_dirs[] = {"tests/fixtures/philly", NULL};

static const fuzz_set set = {
    .imp = &import_philly,
    .files = {"cluster_job_log", "cluster_gpu_util", NULL},
    .as_dir = 1,
    .seed_dirs = seed_dirs,
};

FUZZ_SET_ENTRY_POINTS(set)
