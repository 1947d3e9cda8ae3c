/*
 * fuzz_import_openb.c — libFuzzer harness for the Alibaba 2023 importer
 * (import_openb.c): an input is a node list and a pod list joined by
 * FUZZ_SEP (harness.h); the files present are given as paths, as on the
 * command line (the importer tells them apart by header).  Seeds: the
 * openb fixtures, alone and as a pair.
 */
#include "harness.h"

extern const importer import_openb;

#define FIX "tests/fixtures/openb/"

static const fuzz_seed seeds[] = {
    {{FIX "openb_node_list_lab.csv", FIX "openb_pod_list_lab.csv"}},
    {{FIX "openb_node_list_lab.csv", NULL}},
    {{NULL, FIX "openb_pod_list_short.csv"}},
};

static const fuzz_set set = {
    .imp = &import_openb,
    .files = {"openb_node_list_fuzz.csv", "openb_pod_list_fuzz.csv", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
