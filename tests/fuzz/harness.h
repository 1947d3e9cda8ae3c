/*
 * harness.h — what the libFuzzer harnesses of tests/fuzz/ share: a private
 * temporary directory for the files an importer reads, the splitting of one
 * fuzz input into the several files of a set, an in-memory store every
 * import is rolled back from, and the writing of seed inputs built from
 * tests/fixtures/.
 *
 * A set of files travels in one input as its files' contents joined by
 * FUZZ_SEP in the set's fixed order of names; an empty part is an absent
 * file, and the last part runs to the end of the input.  The byte 0xFF never
 * occurs in UTF-8, so no valid input loses a character to the split (the
 * readers refuse invalid UTF-8 anyway, which stays reachable through other
 * bytes).
 *
 * Seeds: run with GPUPLAN_FUZZ_SEEDS=DIR from the project root, a harness
 * writes its seed inputs (the fixtures, bundled into its input format) into
 * DIR and exits, so the corpus is derived from tests/fixtures/ and never
 * copied into the tree.  `make fuzz` (tests/fuzz/run.sh) does that first.
 *
 * The harnesses assert that nothing crashes, leaks or trips a sanitizer,
 * that a refused input comes with a message and (checked for one input in
 * 32) leaves the store's listings as they were, and, for a set with a
 * check (the operator importers' round trip), that an accepted input
 * passes it.
 */
#ifndef GP_FUZZ_HARNESS_H
#define GP_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "io/import.h"

#define FUZZ_SEP 0xFF
#define FUZZ_MAX_FILES 8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One seed of a file-list set: a fixture path per file of the set (NULL =
 * the file is absent). */
typedef struct fuzz_seed {
    const char *path[FUZZ_MAX_FILES];
} fuzz_seed;

/* An importer fuzzed through a set of files. */
typedef struct fuzz_set {
    const importer *imp;
    const char *files[FUZZ_MAX_FILES];  /* names in input order, NULL-terminated */
    int as_dir;                 /* the importer is given the directory (1)
                                 * or the files present, in order (0) */
    const char *const *seed_dirs;   /* as_dir: fixture directories holding
                                     * the set's files (NULL-terminated) */
    const fuzz_seed *seeds;     /* !as_dir: explicit seeds */
    size_t nseeds;
    /* When set: the import is named so (--name), and every input it
     * accepts must pass check (inside the import's transaction), else it
     * is a finding: the operator harnesses check that what was imported,
     * exported and imported again is the same (tests/ops_roundtrip.h). */
    const char *name;
    int (*check)(store *st, const char *name, const import_result *res, char *why,
                 size_t len);
} fuzz_set;

/* The harness's temporary directory (made on first use, removed at exit). */
const char *fuzz_tmpdir(void);

/* Writes data[0, len) to file `name` of the temporary directory; returns
 * its path (an allocated string). */
char *fuzz_write_file(const char *name, const uint8_t *data, size_t len);

/* Splits data at FUZZ_SEP into at most max parts (the last runs to the end);
 * returns how many; part[i]/len[i] point into data. */
size_t fuzz_split(const uint8_t *data, size_t size, const uint8_t **part, size_t *len,
                  size_t max);

/* Aborts (a finding) when a call that returned failure left err empty. */
void fuzz_require_message(const gp_err *err, const char *what);

/* The in-memory store with the built-in profiles, opened once. */
store *fuzz_store(void);

/* LLVMFuzzerInitialize of an importer harness: writes the seeds and exits
 * when GPUPLAN_FUZZ_SEEDS is set. */
void fuzz_set_init(const fuzz_set *set);

/* LLVMFuzzerTestOneInput of an importer harness: writes the set's files,
 * runs format detection and the import (inside a transaction that is then
 * rolled back, so every input starts from the same store).  With
 * GPUPLAN_FUZZ_VERBOSE set it prints what the import said, to replay an
 * input by hand. */
void fuzz_set_run(const fuzz_set *set, const uint8_t *data, size_t size);

/* The two libFuzzer entry points of an importer harness fuzzed through
 * the fuzz_set named `set`. */
#define FUZZ_SET_ENTRY_POINTS(set)                                      \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                   \
    {                                                                   \
        (void)argc;                                                     \
        (void)argv;                                                     \
        fuzz_set_init(&(set));                                          \
        return 0;                                                       \
    }                                                                   \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)        \
    {                                                                   \
        fuzz_set_run(&(set), data, size);                               \
        return 0;                                                       \
    }

/* When GPUPLAN_FUZZ_SEEDS is set: copies each of the NULL-terminated
 * fixture files there as one seed and exits.  For single-file harnesses. */
void fuzz_seed_files(const char *const *paths);

/* The seed directory asked for, or NULL. */
const char *fuzz_seed_dir(void);

/* Writes one seed file into the seed directory. */
void fuzz_write_seed(const char *name, const void *data, size_t len);

#endif
