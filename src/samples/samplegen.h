/*
 * samplegen.h — the deterministic generator of the project's sample data
 * (SPEC §4.3): five small scenarios, each a native CSV set (the format of
 * import_native.c), that together make the default database.
 *
 *   cats-testbed     CATS Table 3/4: 14 tasks on one 6×V100 server
 *   corrgpu-example  CorrGPU §III-B: two anti-correlated tasks, A100 40 GB
 *   pai-like         3000 PAI-like training tasks on 32 8×V100 servers
 *   openb-like       a 40-node Alibaba-2023-like cluster and 800 pods
 *   gavel-like       a Gavel-shaped throughput table, K80/P100/V100 servers
 *                    and 40 jobs
 *   peace-v100       PEACE's 16 workloads on a V100-SXM2-32GB: profiles
 *                    alone and co-located ground truth, modelled
 *
 * The same (set, seed) always gives byte-identical files on one platform.
 * Each set draws from its own random stream (rng_seed_stream keyed by the
 * set's name), so sets are independent of each other and of the order in
 * which they are written.
 *
 * Ownership: samplegen_build() fills a sample_set whose objects the caller
 * releases with sample_set_free().
 */
#ifndef GP_SAMPLEGEN_H
#define GP_SAMPLEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/util.h"

/* The seed sample-data/ was generated with. */
#define SAMPLEGEN_DEFAULT_SEED 2026

/* One generated scenario, in memory.  Any pointer may be NULL when the set
 * has no such part (e.g. no throughput table).  `profiles` holds only the
 * profiles the set adds to the built-in catalog (catalog_add_builtin). */
struct peace_set;
typedef struct sample_set {
    catalog *profiles;
    cluster *cl;
    gp_trace *tr;
    tput_catalog *tp;
    struct peace_set *peace;    /* PEACE's workloads and ground truth (core/peaceset.h) */
} sample_set;

typedef struct samplegen_info {
    const char *name;           /* also the directory and entity name */
    const char *summary;        /* one line for --help and listings */
} samplegen_info;

/* The known sets, in the order `gpuplan samples` writes them. */
extern const samplegen_info samplegen_sets[];
extern const size_t samplegen_nsets;

/* 1 when name is a known set. */
int samplegen_known(const char *name);

/* The pai-like generator with another task count (benchmarks want 5000,
 * SPEC §9); `pai-like` itself is samplegen_pai_like(3000, seed, out).  The
 * cluster stays 32 servers of 8 V100. */
void samplegen_pai_like(size_t ntasks, uint64_t seed, sample_set *out);

/* Generates set `name` and writes it as a native CSV set into dir (created
 * if needed; native files already there are replaced, stale ones removed).
 * Returns 0, or -1 with a message. */
int samplegen_write(const char *name, const char *dir, uint64_t seed, gp_err *err);

#endif
