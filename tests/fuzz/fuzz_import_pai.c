/*
 * fuzz_import_pai.c — libFuzzer harness for the Alibaba PAI 2020 importer
 * (import_pai.c): an input is the task, job, instance and sensor tables
 * joined by FUZZ_SEP (harness.h), written into a directory that is
 * imported as a whole, so the joins between tables are fuzzed.  Seeds: the
 * pai fixtures.
 */
#include "harness.h"

extern const importer import_pai;

static const char *const seed_dirs[] = {"tests/fixtures/pai", NULL};

static const fuzz_set set = {
    .imp = &import_pai,
    .files = {"pai_task_table.csv", "pai_job_table.csv", "pai_instance_table.csv",
              "pai_sensor_table.csv", NULL},
    .as_dir = 1,
    .seed_dirs = seed_dirs,
};

FUZZ_SET_ENTRY_POINTS(set)
