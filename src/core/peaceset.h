/*
 * peaceset.h — a PEACE set as data (PEACE §3, SPEC §5.5): GPU workloads,
 * each profiled alone on an SM share (MPS's
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) of 10 %..90 % at a few representative
 * clocks (V100: 300, 900 and 1530 MHz) — its throughput, power and the
 * DCGM/nvidia-smi metrics of §3 — and ground-truth rows of co-located
 * workloads: which workloads, which SM split, which clock, and the
 * throughput of each and the GPU's power.
 *
 * It sits in core/ because the importers (io/) and the store (db/) build
 * and check sets below the PEACE engine (peace/), which only reads them.
 * What a set must hold to be usable (peace_set_check) is part of the data:
 * the store takes only checked sets, and the importers report the same
 * faults with their file positions.
 *
 * Not here: the lookups, sensitivities, ground truth and features derived
 * from a set (peace/peace.h), models, policies, files and the store.
 *
 * Ownership: a peace_set owns its arrays and strings (peace_set_free).
 */
#ifndef GP_PEACESET_H
#define GP_PEACESET_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/util.h"

#define PEACE_MAX_COLOC 3       /* workloads on one GPU (PEACE §4.2: 2 and 3) */
#define PEACE_MAX_FREQS 8       /* representative clocks of a set */
#define PEACE_SHARE_STEP 10     /* SM shares are multiples of 10 % (§3) */
#define PEACE_NO_PARTITION 100  /* every workload's share 100: MPS without limits */
#define PEACE_MAX_SPLITS 64     /* splits of 100 % into at most three shares */

/* The per-workload metrics of §3, in CSV column order. */
typedef enum peace_metric {
    PEACE_SM_ACTIVE,            /* SM warp activity, % of time */
    PEACE_SM_OCCUPANCY,         /* resident warps over the maximum, % */
    PEACE_FP32_ACTIVE,          /* FP32 pipe activity, % */
    PEACE_MEM_BW,               /* memory bandwidth used, GB/s */
    PEACE_MEM_BUSY,             /* memory (DRAM) busy, % */
    PEACE_PCIE_TX,              /* PCIe transmitted, MB/s */
    PEACE_PCIE_RX,              /* PCIe received, MB/s */
    PEACE_NMETRICS
} peace_metric;

/* The CSV column of a metric ("sm_active_pct", ...). */
const char *peace_metric_column(peace_metric m);
/* 1 for a rate (bandwidth, PCIe: summed across co-located workloads), 0
 * for a percentage (averaged), as §3 aggregates them. */
int peace_metric_is_rate(peace_metric m);

typedef enum peace_kind { PEACE_TRAIN, PEACE_INF, PEACE_CUDA } peace_kind;

const char *peace_kind_name(peace_kind k);      /* "train", "inf", "cuda" */
int peace_kind_parse(const char *s);            /* -1 when unknown */

typedef struct peace_workload {
    char name[GP_NAME_MAX];     /* e.g. "ALBERT_train" */
    peace_kind kind;
    int compute_hi, memory_hi;  /* the class of Table 1 */
    double mem_gib;             /* peak GPU memory: co-locations must fit */
} peace_workload;

/* A workload alone on share_pct of the SMs at freq_mhz. */
typedef struct peace_profile {
    int workload;               /* index into the set's workloads */
    int share_pct;              /* 10..90 */
    double freq_mhz;
    double tput;                /* items/s, the workload's own unit */
    double power_w;             /* the GPU's */
    double metric[PEACE_NMETRICS];
} peace_profile;

/* Workloads on one GPU with an SM split, measured at one clock. */
typedef struct peace_coloc {
    int n;                      /* 2..PEACE_MAX_COLOC */
    int workload[PEACE_MAX_COLOC];
    int share_pct[PEACE_MAX_COLOC];     /* sum 100, or all PEACE_NO_PARTITION */
    double freq_mhz;
    double tput[PEACE_MAX_COLOC];       /* each workload's, its own unit */
    double power_w;
} peace_coloc;

typedef struct peace_set {
    int64_t id;                 /* store row id, 0 when not stored */
    char name[GP_NAME_MAX];
    char gpu[GP_NAME_MAX];      /* the GPU profile measured (clocks, idle W) */
    double cap_min_w, cap_max_w;        /* the power caps the GPU accepts */
    char *source;
    peace_workload *wl;
    size_t nwl, wl_cap;
    peace_profile *prof;
    size_t nprof, prof_cap;
    peace_coloc *co;
    size_t nco, co_cap;
} peace_set;

peace_set *peace_set_new(const char *name);
void peace_set_free(peace_set *s);
/* Adders copy their argument; add_workload returns the new index. */
int peace_set_add_workload(peace_set *s, const peace_workload *w);
void peace_set_add_profile(peace_set *s, const peace_profile *p);
void peace_set_add_coloc(peace_set *s, const peace_coloc *c);
/* Index of a workload by name, -1 when absent. */
int peace_set_workload(const peace_set *s, const char *name);

/* Whether the set is usable: at least two workloads; every workload
 * profiled at every share 10..90 at every profile clock (the clocks of
 * the profile rows, at most PEACE_MAX_FREQS); finite, non-negative
 * values; every co-location row of known workloads with a split that sums
 * to 100 in steps of PEACE_SHARE_STEP (or is all PEACE_NO_PARTITION, or
 * the equal split: peace_split_valid), no duplicate (workloads, split,
 * clock) row; cap_min_w < cap_max_w.
 * 0, or -1 with a message naming what is missing. */
int peace_set_check(const peace_set *s, gp_err *err);
/* The first row, in the set's order, that repeats an earlier one: among
 * the co-location rows (coloc = 1) the same workloads, split and clock in
 * any order of naming; among the profile rows (coloc = 0) the same
 * workload, share and clock.  1 with *dup its index and *first the
 * earlier row's, else 0.  (Importers name both rows' lines with it.) */
int peace_set_duplicate(const peace_set *s, int coloc, size_t *first, size_t *dup);

/* A co-location without a clock: workloads and their shares, kept in
 * canonical order (by workload index, then share) so that lookups do not
 * depend on the order they were named in. */
typedef struct peace_combo {
    int n;
    int w[PEACE_MAX_COLOC];
    int share[PEACE_MAX_COLOC];
} peace_combo;

/* The equal split of 100 % among n (2 or 3) workloads, larger shares
 * first: 50+50, 34+33+33.  For three workloads it is not in steps of
 * PEACE_SHARE_STEP, so peace_splits() does not produce it, but a set may
 * measure it (the Equal baseline of PEACE §4.2). */
void peace_equal_split(int n, int *share);
/* 1 when the n (2..PEACE_MAX_COLOC) shares may be a co-location row's:
 * each 10..90 in steps of PEACE_SHARE_STEP summing to 100, the equal split
 * in any order, or all PEACE_NO_PARTITION. */
int peace_split_valid(int n, const int *share);

/* Sorts c into canonical order. */
void peace_combo_canon(peace_combo *c);
/* 1 when every share is PEACE_NO_PARTITION. */
int peace_combo_unpartitioned(const peace_combo *c);
/* Orders canonical combinations: by size, then workloads, then shares, so
 * that the combinations of one workload group are adjacent. */
int peace_combo_cmp(const peace_combo *a, const peace_combo *b);

/* The profiled shares: 10, 20, ..., 90 % (§3), at slots 0..PEACE_NSHARES-1. */
#define PEACE_NSHARES (100 / PEACE_SHARE_STEP - 1)

static inline int peace_share_profiled(int share_pct)
{
    return share_pct >= PEACE_SHARE_STEP && share_pct < 100 &&
           share_pct % PEACE_SHARE_STEP == 0;
}

static inline int peace_share_slot(int share_pct)
{
    return share_pct / PEACE_SHARE_STEP - 1;
}

/* The profile clocks of s, ascending, into freqs (PEACE_MAX_FREQS
 * entries) and *nf; -1 with a message when there are more. */
int peace_set_freqs(const peace_set *s, double *freqs, int *nf, gp_err *err);
/* The slot of clock f among the nf ascending freqs, -1 when absent. */
int peace_freq_slot(const double *freqs, int nf, double f);

/* A row as its canonical combination and clock; row is its index in the
 * set, perm[k] the row's position of canonical entry k.  A profile row is
 * the combination of its one workload at its share. */
typedef struct peace_row_key {
    peace_combo c;
    double f;
    size_t row;
    int perm[PEACE_MAX_COLOC];
} peace_row_key;

/* The keys of the set's co-location rows (coloc = 1) or profile rows,
 * sorted by combination, then clock, then row; *n of them, caller frees. */
peace_row_key *peace_row_keys_sorted(const peace_set *s, int coloc, size_t *n);

#endif