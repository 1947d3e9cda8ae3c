/*
 * fuzz_et_load.c — libFuzzer harness for et_load() (predict/extratrees.h),
 * which parses model bytes kept in the database: any input must either be
 * refused with a message, or load into a model that predicts without
 * reading outside its nodes, never gives NaN (its leaves are finite), and
 * saves back to exactly the bytes it came from (the format has one
 * encoding per model).  Not built by make; with clang:
 *
 *   clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I. -Isrc \
 *       -D_DEFAULT_SOURCE tests/fuzz/fuzz_et_load.c src/predict/extratrees.c \
 *       src/core/util.c src/core/rng.c -lm -o fuzz_et_load
 *   ./fuzz_et_load -max_total_time=600 CORPUS_DIR
 *
 * A corpus of saved models (et_save() of small trained models) gets past
 * the header quickly; libFuzzer finds the magic on its own too.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "predict/extratrees.h"

/* Feature vectors longer than this are not tried (a header may claim up
 * to INT_MAX features without any node using them). */
#define FUZZ_MAX_FEATURES 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
