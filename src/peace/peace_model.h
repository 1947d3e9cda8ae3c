/*
 * peace_model.h — PEACE's Colocation Modeler and Partition Predictor
 * (PEACE §3, §4.1): for each representative clock f, one Extra-Trees model
 * of the GPU's power, Power_f(W, P) = g_f(metrics), and one of the
 * throughput sum, Xput_f(W, P) = h_f(metrics, sum of xput_w, {sens_w}) —
 * six models for a V100's three clocks — trained on ground-truth rows of
 * co-located workloads, features min-max scaled as the paper does.
 *
 * Which rows train a model is the caller's choice (peace_rows selects them
 * and peace_rows_sample draws the paper's ~30 %); a model never sees rows
 * of workloads left out of them, which is how the "unseen workload" setting
 * of §4.2 is made.
 *
 * Ownership: peace_models_train() and peace_models_load() fill a
 * peace_models the caller releases with peace_models_free(); the models
 * borrow nothing (the index is passed again to predict).
 */
#ifndef GP_PEACE_MODEL_H
#define GP_PEACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "peace.h"
#include "predict/extratrees.h"

/* Min-max scaling of one model's features (x - lo) / (hi - lo), fitted on
 * its training rows; a feature constant there scales to 0. */
typedef struct peace_scaler {
    int d;
    double lo[PEACE_NFEAT_TPUT], hi[PEACE_NFEAT_TPUT];
} peace_scaler;

typedef struct peace_models {
    int nfreq;
    double freq_mhz[PEACE_MAX_FREQS];   /* the index's representative clocks */
    et_model *power[PEACE_MAX_FREQS];
    et_model *tput[PEACE_MAX_FREQS];
    peace_scaler power_sc[PEACE_MAX_FREQS];
    peace_scaler tput_sc[PEACE_MAX_FREQS];
    size_t ntrain;              /* rows trained on, over every clock */
    et_params params;
} peace_models;

/* Which co-location rows: partitioned rows on the profiles' share grid
 * (features exist only there: not no-partition rows, whose shares are
 * 100, nor a triple's 34+33+33) at a representative clock, of n
 * workloads (0 = any), not involving workload `without` and, when `with`
 * >= 0, involving it (-1 = no condition). */
typedef struct peace_row_filter {
    int n;
    int without, with;
} peace_row_filter;

/* The rows of ix's set that pass f, in set order, into out (room for
 * every row of the set); returns how many. */
size_t peace_rows(const peace_index *ix, const peace_row_filter *f, size_t *out);
/* Keeps a random fraction frac of rows[0..n) (at least one), shuffled
 * deterministically by seed, moving the others behind them; returns how
 * many were kept.  rows[kept..n) are then the held-out rows. */
size_t peace_rows_sample(size_t *rows, size_t n, double frac, uint64_t seed);

/* Trains the six (2 × clocks) models on rows[0..n).  0, or -1 with a
 * message when a clock has no training row. */
int peace_models_train(peace_models *m, const peace_index *ix, const size_t *rows, size_t n,
                       const et_params *p, gp_err *err);
void peace_models_free(peace_models *m);

/* The predicted throughput sum and power of combination c (partitioned)
 * at representative clock fi. */
void peace_models_predict(const peace_models *m, const peace_index *ix, const peace_combo *c,
                          int fi, double *tput_sum, double *power_w);

/* Mean absolute percentage error of both predictions over rows (held out
 * from training), in percent. */
void peace_models_mape(const peace_models *m, const peace_index *ix, const size_t *rows,
                       size_t n, double *tput_mape, double *power_mape);

/* One byte buffer holding every model and scaler (for the store); the
 * caller frees it.  _load refuses a buffer made for other clocks than ix's. */
unsigned char *peace_models_save(const peace_models *m, size_t *len);
int peace_models_load(peace_models *m, const peace_index *ix, const void *buf, size_t len,
                      gp_err *err);

#endif
