/*
 * fuzz_gogh_nets.c — libFuzzer harness for gogh_nets_load()
 * (predict/gogh_est.h), which parses GOGH's nets kept in the database: any
 * input must either be refused with a message, or load into nets that save
 * back to exactly the bytes they came from (the format has one encoding).
 * Not built by make; with clang:
 *
 *   clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I. -Isrc \
 *       -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=700 tests/fuzz/fuzz_gogh_nets.c \
 *       src/predict/gogh_*.c src/core/*.c -lfann -lm -o fuzz_gogh_nets
 *   ./fuzz_gogh_nets -max_total_time=600 CORPUS_DIR
 *
 * A corpus of saved nets (gogh_nets_save() of small trained nets) gets past
 * the header quickly; libFuzzer finds the magic on its own too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "predict/gogh_est.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
