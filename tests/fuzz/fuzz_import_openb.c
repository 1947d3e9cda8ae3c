/*
 * fuzz_import_openb.c — libFuzzer harness for the Alibaba 2023 importer
 * (import_openb.c): an input is a node list and a pod list joined by
 * FUZZ_SEP (harness.h); the files present are given as paths, as on the
 * command line (the importer tells them apart by header); what it accepts
 * must survive export and import (ops_roundtrip.h).  Seeds: the
 * openb fixtures, alone and as a pair.
 */
#include "harness.h"
#include "tests/ops_roundtrip.h"

extern const importer import_openb;

#define FIX "tests/fixtures/openb/"

static const fuzz_seed seeds[] = {
    {{FIX "openb_node_list_lab.csv", FIX "openb_pod_list_lab.csv"}},
    {{FIX "openb_node_list_lab.csv", NULL}},
    {{NULL, FIX "openb_pod_list_short.csv"}},
};

/* What is accepted, exported and imported again, is the same. */
static int round_trip(store *st, const char *name, const import_result *res, char *why,
                      size_t len)
{
    return ops_rt_import_result(st, fuzz_tmpdir(), name, res, why, len);
}

static const fuzz_set set = {
    .imp = &import_openb,
    .files = {"openb_node_list_fuzz.csv", "openb_pod_list_fuzz.csv", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
    .name = "fz",
    .check = round_trip,
};

FUZZ_SET_ENTRY_POINTS(set)
