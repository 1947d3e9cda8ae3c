/*
 * fuzz_import_native.c — libFuzzer harness for the native CSV set importer
 * (import_native.c) and the set's manifest (set_manifest.c): an input is
 * the set's seven files and manifest.csv joined by FUZZ_SEP
 * (harness.h), in the order below, written into a directory that is
 * imported as a whole, so the files' cross-references (nodes naming
 * profiles, util naming tasks, placements naming nodes and tasks) are
 * fuzzed together; what it accepts must survive export and import
 * (ops_roundtrip.h).  Seeds: the native fixtures.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

static const char *const seed_dirs[] = {
    "tests/fixtures/native/lab",
    "tests/fixtures/gogh/few-types",
    "tests/fixtures/gogh/foreign",
    "tests/fixtures/gogh/nan",
    "tests/fixtures/gogh/negative",
    "tests/fixtures/gogh/one-accel",
    NULL,
};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    return ops_rt_import_result(st, fuzz_tmpdir(), name, res, why, len);
}

static const fuzz_set set = {
    .imp = &import_native,
    .files = {"gpus.csv", "cpus.csv", "nodes.csv", "tasks.csv", "util.csv", "tput.csv",
              "placements.csv", "manifest.csv"},
    .as_dir = 1,
    .seed_dirs = seed_dirs,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
