/*
 * fuzz_import_genai.c — libFuzzer harness for the Alibaba GenAI series
 * importer (import_genai.c): an input is the duty-cycle file and the
 * memory file joined by FUZZ_SEP (harness.h), given as paths (the
 * importer tells them apart by name).  Seeds: the genai fixtures.
 */
#include "harness.h"

extern const importer import_genai;

#define FIX "tests/fixtures/genai/"

static const fuzz_seed seeds[] = {
    {{FIX "pod_gpu_duty_cycle_lab.csv", FIX "pod_gpu_memory_used_bytes_lab.csv"}},
    {{FIX "pod_gpu_duty_cycle_lab.csv", NULL}},
};

static const fuzz_set set = {
    .imp = &import_genai,
    .files = {"pod_gpu_duty_cycle_fuzz.csv", "pod_gpu_memory_used_bytes_fuzz.csv", NULL},
    .seeds = seeds,
    .nseeds = sizeof seeds / sizeof *seeds,
};

FUZZ_SET_ENTRY_POINTS(set)
