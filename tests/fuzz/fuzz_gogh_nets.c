/*
 * fuzz_gogh_nets.c — libFuzzer harness for gogh_nets_load()
 * (predict/gogh_est.h), which parses GOGH's nets kept in the database: any
 * input must either be refused with a message, or load into nets that save
 * back to exactly the bytes they came from (the format has one encoding).
 * Built and run by `make fuzz`.
 *
 * Seeds (GPUPLAN_FUZZ_SEEDS, harness.h): gogh_nets_save() of small nets
 * trained here on a made-up table, so the corpus gets past the header at
 * once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "predict/gogh_est.h"

static void add_entry(tput_catalog *c, const char *accel, const char *model, int batch,
                      double tput)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.accel, sizeof e.accel, "%s", accel);
    snprintf(e.model, sizeof e.model, "%s", model);
    e.batch_size = batch;
    e.scale = 1;
    e.tput = tput;
    tput_catalog_add(c, &e);
}

/* Twelve job types alone on three accelerators, each twice as fast as the
 * one before: enough types for training's three splits. */
static tput_catalog *seed_table(void)
{
    static const char *const accel[3] = {"k80", "p100", "v100"};
    static const char *const model[3] = {"ResNet-18", "LM", "Transformer"};
    tput_catalog *c = tput_catalog_new("seed");
    for (int t = 0; t < 12; t++)
        for (int a = 0; a < 3; a++)
            add_entry(c, accel[a], model[t % 3], 16 << (t / 3), (a + 1) * 40.0 / (t + 1));
    return c;
}

static void write_nets_seed(int hidden, int layers)
{
    tput_catalog *tp = seed_table();
    gogh_train_params p;
    gogh_train_params_default(&p);
    p.hidden = hidden;
    p.layers = layers;
    p.epochs = 2;
    gogh_train_report rep;
    gp_err err = {{0}};
    gogh_nets *n = gogh_nets_train(tp, &p, &rep, &err);
    if (!n) {
        fprintf(stderr, "gogh_nets_train: %s\n", err.msg);
        exit(1);
    }
    size_t len = 0;
    unsigned char *b = gogh_nets_save(n, &len);
    char name[32];
    snprintf(name, sizeof name, "nets-%d-%d", hidden, layers);
    fuzz_write_seed(name, b, len);
    free(b);
    gogh_nets_free(n);
    tput_catalog_free(tp);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (fuzz_seed_dir()) {
        write_nets_seed(2, 1);
        write_nets_seed(3, 2);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_err err = {{0}};
    gogh_nets *n = gogh_nets_load(data, size, &err);
    if (!n) {
        if (!err.msg[0])
            abort();            /* refused without saying why */
        return 0;
    }
    size_t len = 0;
    unsigned char *again = gogh_nets_save(n, &len);
    if (len != size || memcmp(again, data, size) != 0)
        abort();                /* a second encoding of the same nets */
    free(again);
    gogh_nets_free(n);
    return 0;
}
