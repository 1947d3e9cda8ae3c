/*
 * sample_peace_v100.c — the peace-v100 sample set (samplegen.h): PEACE's
 * 16 workloads (PEACE Table 1) on a V100-SXM2-32GB, profiled alone on SM
 * shares of 10..90 % at 300, 900 and 1530 MHz, and co-located in pairs
 * and triples at every split and at 135, 300, 900 and 1530 MHz (PEACE
 * §3-4).
 *
 * MODELLED, NOT MEASURED.  Every number comes from the physical model
 * below with parameters chosen here (stated with their reasons), plus
 * seeded noise; none is copied from the paper's measurements, which are
 * not published as data.  It is a test bed with the properties PEACE's
 * evaluation relies on, not a V100.
 *
 * The GPU: 80 SMs, 900 GB/s HBM2, clocks 135..1530 MHz, 32 GiB, power
 * caps 40..300 W (PEACE §1).
 *
 * A workload w is (tput_full, par, lat, rho, fp32, occ, PCIe, mem):
 *   tput_full  items/s alone on the whole GPU at 1530 MHz: the unit of its
 *              throughput, chosen within 10..30 (a factor of 3) because
 *              PEACE maximises the plain sum of throughputs (§4)
 *   par        its parallelism: the SM share beyond which it stops
 *              speeding up
 *   lat        the share of an item's time at full GPU and top clock that
 *              is fixed latency L (launches, CPU, data loading)
 *   rho        memory time over compute time at full GPU and top clock
 * from which its compute work per item W (SM x Gcycles), memory bytes per
 * item B (GB) and latency L (s) follow (derive_workload()).
 *
 * Alone on share s at clock f (MHz), with the effective share
 *   e(s) = (s^-8 + par^-8)^(-1/8)   (a soft min(s, par): a smooth knee)
 *   compute time  tc = W / (e * 80 * f / 1000)
 *   bandwidth     bw = 900 * min(1, e / 0.5) * min(1, f / 700)
 *                      (a few SMs, or a slow core clock, cannot saturate
 *                      HBM)
 *   memory time   tm = B / bw
 *   busy time     tb = max(tc, tm) + min(tc, tm) / 4   (imperfect overlap)
 *   item time     T  = tb + L,  throughput = 1 / T
 * and the metrics of §3: SM activity e * tb / T, FP32 activity
 * fp32 * e * tc / T, occupancy occ * SM activity, bandwidth B / T, memory
 * busy bandwidth / 900, PCIe rx and tx bytes per item / T.
 *
 * Power (W) at clock f with total SM activity A (at most 1) and total
 * bandwidth Q (GB/s), V(f) = 0.7 + 0.3 f / 1530:
 *   P = 30 + 15 f/1530 + 200 A (f/1530) V(f)^2 + 50 Q / 900
 * (idle, clock-tree static, dynamic CV^2f, HBM), so two compute-heavy
 * workloads draw about 255-290 W at 1530 MHz, a busy GPU 55-75 W at
 * 300 MHz and 40-50 W at 135 MHz: caps of 60, 100 and 200 W bind at
 * different clocks.
 *
 * Co-located with a split (shares s_i summing to 100 %): compute is
 * isolated (each on its own SMs); HBM is shared — when the workloads'
 * demands exceed 900 * min(1, f/700) GB/s, every memory time stretches by
 * one factor k, solved by bisection so the demands meet the supply; and a
 * cache-interference slowdown multiplies each workload's busy time by
 * 1 + 0.25 * (the other workloads' HBM utilisation), iterated to a fixed
 * point.  No partition (all 100): every workload may use every SM, so its
 * available share is par_i / max(1, sum par) plus the SMs nobody wants;
 * contention costs 1.10 + 0.15 * min(1, sum par - 1) in busy time and in
 * usable bandwidth, and cache interference doubles.
 *
 * Noise: each profile row's throughput (with the rates that follow it),
 * percentages and power are multiplied by independent uniform factors in
 * [0.98, 1.02]; each co-location row's throughputs and power by factors in
 * [0.985, 1.015].
 *
 * Rows: profiles of every workload at shares 10..90 and 300, 900, 1530
 * MHz; co-locations of the 121 pairs that fit in 32 GiB (self-pairs
 * included) and of all 356 triples of distinct workloads that fit (PEACE
 * §4.2 tested 165; the simulator's GPU cap needs every group a placement
 * can make), each at every split of peace_splits() plus no
 * partition (and, for triples, the equal split 34+33+33), at 135 (the
 * controller's floor), 300, 900 and 1530 MHz.  A self-pair's 60+40 is its
 * 40+60 (the same combination), so it has 5 splits, not 9.
 */
#include "samples_int.h"
#include "peace/peace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PV_SMS 80               /* V100: 80 SMs */
#define PV_HBM_GBPS 900.0       /* V100 HBM2 */
#define PV_F_MAX 1530.0         /* MHz, PEACE §1 */
#define PV_F_MIN 135.0
#define PV_F_HBM 700.0          /* below it the core clock limits HBM traffic */
#define PV_SHARE_HBM 0.5        /* a share below it cannot saturate HBM */
#define PV_KNEE 8               /* sharpness of the soft min(s, par) */
#define PV_MEM_GIB 32.0

/* Power model (W). */
#define PV_IDLE_W 30.0
#define PV_STATIC_W 15.0        /* at the top clock, proportional to f */
#define PV_DYN_W 200.0          /* full SM activity at the top clock and voltage */
#define PV_HBM_W 50.0           /* HBM at full bandwidth */
#define PV_V_LOW 0.7            /* voltage at 0 MHz, relative to the top clock's */

/* Interference. */
#define PV_CACHE 0.25           /* busy-time slowdown per unit of others' HBM use */
#define PV_NP_BASE 0.10         /* no partition: contention at sum par <= 1 */
#define PV_NP_EXTRA 0.15        /* ... growing to +0.15 when sum par >= 2 */

typedef struct pv_spec {
    const char *name;
    peace_kind kind;
    int compute_hi, memory_hi;  /* PEACE Table 1 */
    double tput_full;           /* items/s, whole GPU, 1530 MHz */
    double par, lat, rho;
    double fp32, occ;           /* FP32 share of compute; occupancy per SM activity */
    double pcie_rx_mb, pcie_tx_mb;  /* per item */
    double mem_gib;             /* peak */
} pv_spec;

/* Classes as Table 1 (at peak frequency):
 * - Hi compute, Hi memory (the four CUDA samples): parallelism near 1,
 *   bandwidth-bound at the top clock (rho > 1), little latency; the
 *   highest throughputs (kernel iterations/s).
 * - Hi compute, Lo memory: compute-bound (rho 0.25-0.4), parallelism
 *   0.85-1; training in iterations of a batch/s (the lowest), inference
 *   with more latency (batches/s).
 * - Lo compute, Lo memory: parallelism 0.3-0.45, latency 30-45 % of an
 *   item at full speed.
 * Peak memory: training and large inference models need the most; the
 * values make exactly 121 of the 136 unordered pairs (self-pairs
 * included) fit in 32 GiB, as PEACE §4.1 reports. */
static const pv_spec pv_specs[] = {
    {"FWT_cuda", PEACE_CUDA, 1, 1, 28, 1.00, 0.03, 1.5, 0.85, 0.55, 2.0, 2.0, 4},
    {"Reduction_cuda", PEACE_CUDA, 1, 1, 30, 1.00, 0.03, 2.0, 0.60, 0.50, 4.0, 0.1, 3},
    {"Transpose_cuda", PEACE_CUDA, 1, 1, 26, 0.95, 0.04, 1.8, 0.10, 0.45, 3.0, 3.0, 6},
    {"Sorting_cuda", PEACE_CUDA, 1, 1, 20, 0.95, 0.05, 1.3, 0.30, 0.60, 2.0, 2.0, 14.5},
    {"Gemm_cuda", PEACE_CUDA, 1, 0, 24, 1.00, 0.02, 0.25, 0.95, 0.70, 1.0, 1.0, 11.5},
    {"ViT_train", PEACE_TRAIN, 1, 0, 10, 0.95, 0.06, 0.35, 0.75, 0.65, 6.0, 0.2, 16.5},
    {"Bert_inf", PEACE_INF, 1, 0, 18, 0.90, 0.10, 0.30, 0.70, 0.55, 0.5, 0.1, 5},
    {"Bert_train", PEACE_TRAIN, 1, 0, 10, 1.00, 0.05, 0.40, 0.70, 0.70, 1.5, 0.1, 21},
    {"Whisper_inf", PEACE_INF, 1, 0, 12, 0.85, 0.12, 0.35, 0.65, 0.50, 3.0, 0.2, 16.5},
    {"Wav2Vec2_inf", PEACE_INF, 1, 0, 15, 0.90, 0.10, 0.30, 0.70, 0.50, 2.5, 0.1, 8},
    {"ALBERT_train", PEACE_TRAIN, 1, 0, 11, 1.00, 0.05, 0.30, 0.75, 0.70, 1.5, 0.1, 18},
    {"ViT_inf", PEACE_INF, 0, 0, 24, 0.40, 0.35, 0.30, 0.60, 0.35, 6.0, 0.1, 3.5},
    {"ResNet50_train", PEACE_TRAIN, 0, 0, 14, 0.45, 0.30, 0.45, 0.55, 0.40, 10.0, 0.2, 14.5},
    {"ResNet50_inf", PEACE_INF, 0, 0, 27, 0.35, 0.40, 0.35, 0.50, 0.30, 6.0, 0.1, 3},
    {"MobileNet_train", PEACE_TRAIN, 0, 0, 16, 0.30, 0.40, 0.50, 0.45, 0.30, 8.0, 0.2, 7},
    {"MobileNet_inf", PEACE_INF, 0, 0, 30, 0.30, 0.45, 0.40, 0.40, 0.25, 4.0, 0.1, 2},
};
#define PV_NWL ((int)(sizeof pv_specs / sizeof *pv_specs))

/* The model's quantities of one workload. */
typedef struct pv_wl {
    const pv_spec *spec;
    double work;                /* W: SM x Gcycles per item */
    double bytes;               /* B: GB per item */
    double lat_s;               /* L */
} pv_wl;

static double eff_share(const pv_spec *w, double s)
{
    return pow(pow(s, -PV_KNEE) + pow(w->par, -PV_KNEE), -1.0 / PV_KNEE);
}

static double hbm_gbps(double e, double f)
{
    return PV_HBM_GBPS * fmin(1, e / PV_SHARE_HBM) * fmin(1, f / PV_F_HBM);
}

/* W, B and L from the spec: at the whole GPU and top clock an item takes
 * 1 / tput_full, of which lat is latency and the rest max + min / 4 of
 * compute and memory times in ratio rho. */
static pv_wl derive_workload(const pv_spec *w)
{
    double t = 1 / w->tput_full, busy = t * (1 - w->lat), tc, tm;
    if (w->rho <= 1) {
        tc = busy / (1 + w->rho / 4);
        tm = w->rho * tc;
    } else {
        tm = busy / (1 + 1 / (4 * w->rho));
        tc = tm / w->rho;
    }
    double e = eff_share(w, 1);
    pv_wl m = {w, tc * e * PV_SMS * PV_F_MAX / 1000, tm * hbm_gbps(e, PV_F_MAX), t * w->lat};
    return m;
}

/* One workload's item at effective share e, clock f, memory stretch k and
 * busy-time slowdown slow. */
typedef struct pv_item {
    double tc, tm, busy, t;
} pv_item;

static pv_item item_time(const pv_wl *m, double e, double f, double k, double slow)
{
    pv_item it;
    it.tc = m->work / (e * PV_SMS * f / 1000);
    it.tm = m->bytes / hbm_gbps(e, f) * k;
    it.busy = (fmax(it.tc, it.tm) + fmin(it.tc, it.tm) / 4) * slow;
    it.t = it.busy + m->lat_s;
    return it;
}

static double gpu_power(double f, double activity, double gbps)
{
    double v = PV_V_LOW + (1 - PV_V_LOW) * f / PV_F_MAX;
    return PV_IDLE_W + PV_STATIC_W * f / PV_F_MAX +
           PV_DYN_W * fmin(1, activity) * (f / PV_F_MAX) * v * v + PV_HBM_W * gbps / PV_HBM_GBPS;
}

/* Up to three workloads on the GPU at one clock. */
typedef struct pv_run {
    int n;
    const pv_wl *m[PEACE_MAX_COLOC];
    double e[PEACE_MAX_COLOC];          /* effective shares */
    double slow[PEACE_MAX_COLOC];       /* busy-time slowdown */
    double f, hbm_cap;                  /* GB/s the clock lets through */
    pv_item it[PEACE_MAX_COLOC];
    double tput[PEACE_MAX_COLOC];
} pv_run;

static double demand(pv_run *r, double k)
{
    double d = 0;
    for (int i = 0; i < r->n; i++) {
        r->it[i] = item_time(r->m[i], r->e[i], r->f, k, r->slow[i]);
        d += r->m[i]->bytes / r->it[i].t;
    }
    return d;
}

/* The memory stretch k >= 1 at which the demands meet the supply. */
static double stretch(pv_run *r)
{
    if (demand(r, 1) <= r->hbm_cap)
        return 1;
    double lo = 1, hi = 2;
    while (demand(r, hi) > r->hbm_cap)
        hi *= 2;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (demand(r, mid) > r->hbm_cap)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Runs the n workloads m[] with shares share_pct (percent, all 100 for
 * no partition) at clock f; returns the GPU's power and fills r. */
static double run_together(pv_run *r, int n, const pv_wl *const *m, const int *share_pct,
                           double f)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->f = f;
    memcpy(r->m, m, (size_t)n * sizeof *m);
    int unpartitioned = 1;
    for (int i = 0; i < r->n; i++)
        unpartitioned &= share_pct[i] == PEACE_NO_PARTITION;
    double cache = PV_CACHE, penalty = 1, par_sum = 0;
    for (int i = 0; i < r->n; i++)
        par_sum += r->m[i]->spec->par;
    for (int i = 0; i < r->n; i++) {
        const pv_spec *w = r->m[i]->spec;
        double avail = unpartitioned ? w->par / fmax(1, par_sum) + fmax(0, 1 - par_sum)
                                     : share_pct[i] / 100.0;
        r->e[i] = eff_share(w, avail);
    }
    if (unpartitioned) {
        penalty = 1 + PV_NP_BASE + PV_NP_EXTRA * fmin(1, fmax(0, par_sum - 1));
        cache *= 2;
    }
    r->hbm_cap = PV_HBM_GBPS * fmin(1, r->f / PV_F_HBM) / penalty;
    double use[PEACE_MAX_COLOC] = {0};      /* HBM utilisation, 0..1 */
    for (int iter = 0; iter < 8; iter++) {
        for (int i = 0; i < r->n; i++) {
            double others = 0;
            for (int j = 0; j < r->n; j++)
                others += j != i ? use[j] : 0;
            r->slow[i] = penalty * (1 + cache * others);
        }
        demand(r, stretch(r));
        for (int i = 0; i < r->n; i++) {
            r->tput[i] = 1 / r->it[i].t;
            use[i] = r->m[i]->bytes * r->tput[i] / PV_HBM_GBPS;
        }
    }
    double activity = 0, gbps = 0;
    for (int i = 0; i < r->n; i++) {
        activity += r->e[i] * r->it[i].busy / r->it[i].t;
        gbps += r->m[i]->bytes * r->tput[i];
    }
    return gpu_power(r->f, activity, gbps);
}

/* Rounds to `digits` significant digits: short, stable CSV numbers. */
static double round_sig(double v, int digits)
{
    if (v == 0 || !isfinite(v))
        return v;
    double k = pow(10, digits - 1 - (int)floor(log10(fabs(v))));
    return round(v * k) / k;
}

static double jitter(rng *r, double amplitude)
{
    return 1 + amplitude * (2 * rng_uniform(r) - 1);
}

/* Workload w alone on share s % at clock f, measured with noise. */
static peace_profile profile_row(rng *r, const pv_wl *m, int w, int s, double f)
{
    pv_run run;
    double power = run_together(&run, 1, &m, &s, f);
    const pv_item *it = &run.it[0];
    const pv_spec *sp = m->spec;
    double nt = jitter(r, 0.02), np = jitter(r, 0.02), nw = jitter(r, 0.02);
    double tput = run.tput[0] * nt, active = fmin(100, 100 * run.e[0] * it->busy / it->t * np);
    peace_profile p;
    memset(&p, 0, sizeof p);
    p.workload = w;
    p.share_pct = s;
    p.freq_mhz = f;
    p.tput = round_sig(tput, 4);
    p.power_w = round_to(power * nw, 1);
    p.metric[PEACE_SM_ACTIVE] = round_to(active, 2);
    p.metric[PEACE_SM_OCCUPANCY] = round_to(sp->occ * active, 2);
    p.metric[PEACE_FP32_ACTIVE] =
        round_to(fmin(100, 100 * sp->fp32 * run.e[0] * it->tc / it->t * np), 2);
    p.metric[PEACE_MEM_BW] = round_sig(m->bytes * tput, 4);
    p.metric[PEACE_MEM_BUSY] = round_to(fmin(100, 100 * m->bytes * tput / PV_HBM_GBPS), 2);
    p.metric[PEACE_PCIE_TX] = round_sig(sp->pcie_tx_mb * tput, 4);
    p.metric[PEACE_PCIE_RX] = round_sig(sp->pcie_rx_mb * tput, 4);
    return p;
}

static void add_coloc(rng *r, peace_set *set, const pv_wl *models, int n, const int *w,
                      const int *share, double f)
{
    pv_run run;
    const pv_wl *m[PEACE_MAX_COLOC];
    for (int i = 0; i < n; i++)
        m[i] = &models[w[i]];
    double power = run_together(&run, n, m, share, f);
    peace_coloc c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.freq_mhz = f;
    for (int i = 0; i < n; i++) {
        c.workload[i] = w[i];
        c.share_pct[i] = share[i];
        c.tput[i] = round_sig(run.tput[i] * jitter(r, 0.015), 4);
    }
    c.power_w = round_to(power * jitter(r, 0.015), 1);
    peace_set_add_coloc(set, &c);
}

static const double pv_profile_mhz[] = {300, 900, 1530};
static const double pv_coloc_mhz[] = {PV_F_MIN, 300, 900, 1530};
#define PV_NCOLOC_MHZ 4

/* 1 when split sh of workloads w names a combination a mirror split
 * already does: a self-pair's 60+40 is its 40+60. */
static int mirrored(int n, const int *w, const int *sh)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (w[i] == w[j] && sh[i] > sh[j])
                return 1;
    return 0;
}

/* A group at every split (n = 2: the 9 of peace_splits(), 5 for a
 * self-pair; n = 3: its 36 and the equal split) and no partition, at every
 * co-location clock. */
static void add_group(rng *r, peace_set *set, const pv_wl *models, int n, const int *w)
{
    int split[PEACE_MAX_SPLITS + 2][PEACE_MAX_COLOC];
    int ns = peace_splits(n, split, PEACE_MAX_SPLITS);
    if (n == 3)
        peace_equal_split(n, split[ns++]);
    for (int i = 0; i < n; i++)
        split[ns][i] = PEACE_NO_PARTITION;
    ns++;
    for (int fi = 0; fi < PV_NCOLOC_MHZ; fi++)
        for (int k = 0; k < ns; k++)
            if (!mirrored(n, w, split[k]))
                add_coloc(r, set, models, n, w, split[k], pv_coloc_mhz[fi]);
}

static int fits(const int *w, int n)
{
    double gib = 0;
    for (int i = 0; i < n; i++)
        gib += pv_specs[w[i]].mem_gib;
    return gib <= PV_MEM_GIB;
}

int sample_peace_nworkloads(void)
{
    return PV_NWL;
}

void sample_peace_workload(int i, const char **name, double *mem_gib, double *sm_active_pct)
{
    const pv_spec *sp = &pv_specs[i];
    pv_wl m = derive_workload(sp);
    double e = eff_share(sp, 1);
    pv_item it = item_time(&m, e, PV_F_MAX, 1, 1);
    *name = sp->name;
    *mem_gib = sp->mem_gib;
    *sm_active_pct = 100 * e * it.busy / it.t;
}

/* Every triple of distinct workloads that fits in memory, in
 * lexicographic order (PEACE §4.2 tested 165 of them; the simulator's GPU
 * cap needs every group a placement can make). */
static int all_triples(int (*out)[3])
{
    int n = 0;
    for (int a = 0; a < PV_NWL; a++)
        for (int b = a + 1; b < PV_NWL; b++)
            for (int c = b + 1; c < PV_NWL; c++) {
                const int t[3] = {a, b, c};
                if (fits(t, 3))
                    memcpy(out[n++], t, sizeof t);
            }
    return n;
}

/* The V100 of PEACE §4 as a GPU profile: 32 GiB, 135..1530 MHz (§1), 300
 * W board power; idle is the model's 30 W plus its static part at the
 * lowest clock, rounded; the CATS slope reaches max_w at f_max as the
 * built-in profiles do. */
void sample_peace_gpu(catalog *cat)
{
    gpu_profile g = {0};
    strlcpy0(g.name, "V100-SXM2-32GB", sizeof g.name);
    g.mem_gib = PV_MEM_GIB;
    g.idle_w = 31;
    g.max_w = 300;
    g.f_min_mhz = PV_F_MIN;
    g.f_max_mhz = PV_F_MAX;
    g.alpha_w_per_mhz = round_sig((g.max_w - g.idle_w) / g.f_max_mhz, 4);
    g.beta = 0.91;              /* CATS eq. 5, as every built-in profile */
    strlcpy0(g.tput_class, "v100", sizeof g.tput_class);
    g.speed = 1;                /* the reference itself */
    g.price_usd = NAN;          /* NVIDIA publishes no list price (core/model.c) */
    catalog_add_gpu(cat, &g);
}

void sample_peace_v100(rng *r, sample_set *out)
{
    out->profiles = catalog_new();
    sample_peace_gpu(out->profiles);
    peace_set *set = peace_set_new("peace-v100");
    strlcpy0(set->gpu, "V100-SXM2-32GB", sizeof set->gpu);
    set->cap_min_w = 40;        /* PEACE §1: caps from 40 W to 300 W */
    set->cap_max_w = 300;
    pv_wl models[PV_NWL];
    for (int w = 0; w < PV_NWL; w++) {
        const pv_spec *sp = &pv_specs[w];
        peace_workload wl;
        memset(&wl, 0, sizeof wl);
        strlcpy0(wl.name, sp->name, sizeof wl.name);
        wl.kind = sp->kind;
        wl.compute_hi = sp->compute_hi;
        wl.memory_hi = sp->memory_hi;
        wl.mem_gib = sp->mem_gib;
        peace_set_add_workload(set, &wl);
        models[w] = derive_workload(sp);
    }
    for (int w = 0; w < PV_NWL; w++)
        for (size_t fi = 0; fi < sizeof pv_profile_mhz / sizeof *pv_profile_mhz; fi++)
            for (int s = PEACE_SHARE_STEP; s < 100; s += PEACE_SHARE_STEP) {
                peace_profile p = profile_row(r, &models[w], w, s, pv_profile_mhz[fi]);
                peace_set_add_profile(set, &p);
            }
    for (int a = 0; a < PV_NWL; a++)
        for (int b = a; b < PV_NWL; b++) {
            const int pair[2] = {a, b};
            if (fits(pair, 2))
                add_group(r, set, models, 2, pair);
        }
    int (*triples)[3] = xmalloc(PV_NWL * PV_NWL * PV_NWL * sizeof *triples);
    int nt = all_triples(triples);
    for (int t = 0; t < nt; t++)
        add_group(r, set, models, 3, triples[t]);
    free(triples);
    out->peace = set;
}
