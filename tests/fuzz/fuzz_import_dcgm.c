/*
 * fuzz_import_dcgm.c — libFuzzer harness for the DCGM exporter importer (import_dcgm.c and the Prometheus text reader promtext.c): an input is the set's
 * files joined by FUZZ_SEP (harness.h), given as paths as on the command
 * line.  Seeds: the fixtures of tests/fixtures/ops/ as one set.
 */
#include "harness.h"

extern const importer import_dcgm;

#define FIX "tests/fixtures/ops/"

static const fuzz_seed seeds[] = {
    {{FIX "i-030791dc5a37cd257.prom", FIX "hami-workshop.prom"}},
};

static const fuzz_set set = {
    .imp = &import_dcgm,
    .files = {"i-030791dc5a37cd257.prom", "hami-workshop.prom", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
