/*
 * peace.h — what PEACE's predictors, selector and controller read from a
 * set (core/peaceset.h: the workloads, their profiles and the co-location
 * rows of PEACE §3, SPEC §5.5): an index for lookups, each workload's
 * throughput sensitivity (the least-squares slope of throughput against SM
 * share, §3), the feature vectors of a co-location (§3: raw metrics
 * summed, percentages averaged across the co-located workloads), the SM
 * splits, and the ground truth at any clock (linear in the clock between
 * measured rows), which the simulated frequency controller and the Oracle
 * run on.
 *
 * Not here: the set itself and its checks (core/peaceset.h), training and
 * prediction (peace_model.h), choosing a split (peace_select.h), the
 * controller and the baselines, files and the store.
 *
 * Ownership: a peace_index borrows its set, which must outlive it.
 */
#ifndef GP_PEACE_H
#define GP_PEACE_H

#include "core/peaceset.h"

/* The splits of 100 % into n shares of at least PEACE_SHARE_STEP, in
 * PEACE_SHARE_STEP steps (9 for two workloads, 36 for three), in
 * lexicographic order of the shares.  Returns how many (at most cap). */
int peace_splits(int n, int (*out)[PEACE_MAX_COLOC], int cap);

typedef struct peace_index peace_index;

/* Builds the lookups of a checked set (peace_set_check first); NULL with a
 * message when the set is not usable. */
peace_index *peace_index_new(const peace_set *s, gp_err *err);
void peace_index_free(peace_index *ix);
const peace_set *peace_index_set(const peace_index *ix);

/* The representative clocks: those of the profile rows, ascending. */
int peace_nfreqs(const peace_index *ix);
double peace_freq(const peace_index *ix, int fi);

/* Workload w alone on share_pct (10..90) at representative clock fi. */
const peace_profile *peace_profile_at(const peace_index *ix, int w, int share_pct, int fi);
/* Its throughput sensitivity at clock fi: the least-squares slope of
 * throughput against share over 10..90 %, in items/s per percent (§3). */
double peace_sensitivity(const peace_index *ix, int w, int fi);

/* The co-location groups the set measured: distinct workload multisets of
 * n workloads (n = 2 or 3) that have rows, in canonical order.  Returns
 * how many; fills out (cap entries, each with its workloads and n; the
 * shares are not set). */
size_t peace_groups(const peace_index *ix, int n, peace_combo *out, size_t cap);

/* The ground truth of combination c at clock f MHz: each workload's
 * throughput (tput[i] in c's canonical order) and the GPU's power,
 * linear in f between the clocks measured for c, held constant beyond
 * them.  0, or -1 when the set has no row for c. */
int peace_truth(const peace_index *ix, const peace_combo *c, double f, double *tput,
                double *power_w);
/* The clocks measured for c: lowest and highest; -1 when none. */
int peace_truth_range(const peace_index *ix, const peace_combo *c, double *f_lo, double *f_hi);

/* Features of combination c (partitioned, every share profiled: not the
 * equal split of three) at representative clock fi,
 * §3: per metric, the co-located workloads' profile values at their own
 * shares, summed for rates and averaged for percentages; for throughput
 * the same plus the sum of the workloads' profiled throughputs at their
 * shares and the sum of their sensitivities.  Unscaled (the models scale). */
#define PEACE_NFEAT_POWER PEACE_NMETRICS
#define PEACE_NFEAT_TPUT (PEACE_NMETRICS + 2)
void peace_features(const peace_index *ix, const peace_combo *c, int fi, double *power_x,
                    double *tput_x);

#endif
