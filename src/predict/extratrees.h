/*
 * extratrees.h — Extra-Trees regression (Geurts, Ernst and Wehenkel,
 * "Extremely randomized trees", Machine Learning 63, 2006), the predictor
 * PEACE uses for co-located throughput and power (PEACE §4.1: it beat
 * random forests and AutoML on accuracy and training time).  No Debian C
 * library provides it, so it is this small module.
 *
 * Training grows `ntrees` trees on the whole sample (no bootstrap).  At a
 * node, `max_features` features are drawn without replacement among those
 * not constant at the node; for each a threshold is drawn uniformly in
 * (min, max) of that feature over the node's rows; the candidate that most
 * reduces the variance of y wins.  A node with fewer than
 * `min_samples_split` rows, constant y, or all candidate features constant
 * becomes a leaf holding the mean of its y.  Prediction averages the
 * trees' leaves.
 *
 * Deterministic for a given seed.  Trees are stored as flat node arrays,
 * so prediction walks arrays and a model serialises to one byte buffer
 * (little-endian, with a version) for the store.
 *
 * Ownership: et_train() and et_load() return a model the caller frees with
 * et_free(); et_save() returns a buffer the caller frees with free().
 */
#ifndef GP_EXTRATREES_H
#define GP_EXTRATREES_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

typedef struct et_params {
    int ntrees;                 /* M (default 100) */
    int max_features;           /* K features tried per split; 0 = all (the
                                 * paper's default for regression) */
    int min_samples_split;      /* n_min (default 2) */
    int max_depth;              /* 0 = unlimited */
    uint64_t seed;
} et_params;

void et_params_default(et_params *p);

typedef struct et_model et_model;

/* Trains on n rows of d features (row-major X[n * d]) and targets y[n].
 * Returns NULL with a message when n == 0, d < 1, a parameter is out of
 * range, or a value is not finite. */
et_model *et_train(const double *X, const double *y, size_t n, int d, const et_params *p,
                   gp_err *err);
void et_free(et_model *m);

/* The mean of the trees' predictions for the d features of x. */
double et_predict(const et_model *m, const double *x);

int et_nfeatures(const et_model *m);

/* Serialises the model; *len receives the size. */
unsigned char *et_save(const et_model *m, size_t *len);
/* Reads a buffer et_save() wrote; NULL with a message when it is not one
 * (wrong magic or version, truncated, inconsistent node indices). */
et_model *et_load(const void *buf, size_t len, gp_err *err);

#endif
