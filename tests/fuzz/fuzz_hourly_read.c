/*
 * fuzz_hourly_read.c — libFuzzer harness for the hourly series reader
 * (io/hourly_read.h): an input is one series file, read as each kind
 * (price, carbon, PUE).  A refusal must come with a message and return no
 * series; an accepted series has at least one hour, each value in its
 * kind's range.  Seeds: the sample price and carbon series.
 */
#include "harness.h"
#include "io/hourly_read.h"

#include <stdlib.h>

static const char *const seeds[] = {
    "sample-data/price_usd_per_kwh.csv",
    "sample-data/carbon_g_per_kwh.csv",
    NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_seed_files(seeds);
    return 0;
}

static void read_as(const char *path, const hourly_kind *kind)
{
    gp_err err = {{0}};
    hourly *s = NULL;
    if (hourly_read(path, kind, &s, &err)) {
        fuzz_require_message(&err, "hourly_read");
        if (s)
            abort();            /* something returned on error */
        return;
    }
    if (!s || s->n == 0)
        abort();
    for (size_t i = 0; i < s->n; i++)
        if (!(s->v[i] >= kind->min && s->v[i] <= kind->max))
            abort();
    hourly_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = fuzz_write_file("series.csv", data, size);
    read_as(path, &HOURLY_PRICE);
    read_as(path, &HOURLY_CARBON);
    read_as(path, &HOURLY_PUE);
    free(path);
    return 0;
}
