/*
 * solve_gogh_random.c — random instances of GOGH's Problem 1, the hard case
 * that bench/bench_solve.c measures and tests/test_solve_gogh.c checks:
 * every job different, half of them on up to two GPUs, most pairs able to
 * share.  Not a model of any trace; the gavel-like sample is that.
 */
#include "solve.h"
#include "solve_int.h"

#include <string.h>

#include "core/rng.h"
#include "core/util.h"

void gogh_inst_random(gogh_inst *in, size_t n, struct rng *r)
{
    static const gogh_accel_type types[3] = {
        {.name = "v100", .theta = 2, .idle_w = 30, .max_w = 300},
        {.name = "p100", .theta = 2, .idle_w = 25, .max_w = 250},
        {.name = "k80", .theta = 2, .idle_w = 25, .max_w = 150}};
    size_t per = n / 3 + 2;
    memset(in, 0, sizeof *in);
    in->ntypes = 3;
    in->types = xmalloc(sizeof types);
    memcpy(in->types, types, sizeof types);
    in->accels = xcalloc(3 * per, sizeof *in->accels);
    for (int a = 0; a < 3; a++)             /* four per server */
        for (size_t d = 0; d < per; d++)
            in->accels[in->naccels++] = (gogh_accel){a, (int)(d / 4) + a * 1000, (int)(d % 4)};
    in->njobs = n;
    in->jobs = xcalloc(n ? n : 1, sizeof *in->jobs);
    in->solo = xcalloc(3 * n + 1, sizeof *in->solo);
    in->pair = xcalloc(3 * n * n + 1, sizeof *in->pair);
    for (size_t a = 0; a < 3; a++)          /* solo 1..10 over the type's rank */
        for (size_t j = 0; j < n; j++)
            in->solo[a * n + j] = rng_range(r, 1, 10) / (double)(1 + a);
    for (size_t a = 0; a < 3; a++)          /* 70 % of pairs, at 30..100 % each */
        for (size_t j = 0; j < n; j++)
            for (size_t k = j + 1; k < n; k++)
                if (rng_bernoulli(r, 0.7)) {
                    in->pair[(a * n + j) * n + k] = in->solo[a * n + j] * rng_range(r, 0.3, 1);
                    in->pair[(a * n + k) * n + j] = in->solo[a * n + k] * rng_range(r, 0.3, 1);
                }
    for (size_t j = 0; j < n; j++)          /* minimum 20..90 % of the v100 solo */
        in->jobs[j] = (gogh_job){in->solo[j] * rng_range(r, 0.2, 0.9),
                                 1 + (int)rng_below(r, 2), rng_range(r, 0.2, 1), (int)j};
}
