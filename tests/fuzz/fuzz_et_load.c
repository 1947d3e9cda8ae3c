/*
 * fuzz_et_load.c — libFuzzer harness for et_load() (predict/extratrees.h),
 * which parses model bytes kept in the database: any input must either be
 * refused with a message, or load into a model that predicts without
 * reading outside its nodes, never gives NaN (its leaves are finite), and
 * saves back to exactly the bytes it came from (the format has one
 * encoding per model).  Built and run by `make fuzz`.
 *
 * Seeds (GPUPLAN_FUZZ_SEEDS, harness.h): et_save() of small models trained
 * here, so the corpus gets past the header at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "predict/extratrees.h"

/* Feature vectors longer than this are not tried (a header may claim up
 * to INT_MAX features without any node using them). */
#define FUZZ_MAX_FEATURES 4096

/* Trains a model of ntrees trees on d features of a small made-up table
 * and writes its bytes as a seed. */
static void write_model_seed(int ntrees, int d, int max_depth)
{
    double X[32 * 3], y[32];
    for (int i = 0; i < 32; i++) {
        for (int f = 0; f < d; f++)
            X[i * d + f] = (i * (f + 3)) % 17 - 4.5;
        y[i] = X[i * d] * 2 + (i % 5);
    }
    et_params p;
    et_params_default(&p);
    p.ntrees = ntrees;
    p.max_depth = max_depth;
    p.seed = 7;
    gp_err err = {{0}};
    et_model *m = et_train(X, y, 32, d, &p, &err);
    if (!m) {
        fprintf(stderr, "et_train: %s\n", err.msg);
        exit(1);
    }
    size_t len;
    unsigned char *b = et_save(m, &len);
    char name[32];
    snprintf(name, sizeof name, "model-%d-%d-%d", ntrees, d, max_depth);
    fuzz_write_seed(name, b, len);
    free(b);
    et_free(m);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (fuzz_seed_dir()) {
        write_model_seed(1, 1, 2);
        write_model_seed(2, 3, 3);
        write_model_seed(3, 2, 0);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_err err = {{0}};
    et_model *m = et_load(data, size, &err);
    if (!m) {
        if (!err.msg[0])
            abort();            /* refused without saying why */
        return 0;
    }
    int d = et_nfeatures(m);
    if (d <= FUZZ_MAX_FEATURES) {
        static double x[FUZZ_MAX_FEATURES];
        static const double probes[] = {0, -1e300, 1e300, NAN};
        for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
            for (int f = 0; f < d; f++)
                x[f] = f % 2 ? probes[k] : (double)data[(size_t)f % size] - 128;
            if (isnan(et_predict(m, x)))
                abort();
        }
    }
    size_t len;
    unsigned char *again = et_save(m, &len);
    if (len != size || memcmp(again, data, size) != 0)
        abort();                /* loaded, but not the model those bytes encode */
    free(again);
    et_free(m);
    return 0;
}
