/*
 * sample_gavel_like.c — the gavel-like sample set (samplegen.h).
 *
 * A throughput table in the shape of Gavel's simulation_throughputs.json
 * (the dataset GOGH §3.1 uses): per accelerator (k80, p100, v100) and job
 * type (model, batch size, scale 1 — GOGH fixes the replication factor at
 * 1), the solo throughput in iterations/s and, for every colocated pair,
 * [own, other].  Job types are drawn from GOGH Table 2's applications plus
 * Gavel's CycleGAN and A3C.  Values are generated from a small model, not
 * copied: a nominal V100 speed per type, per-family speed ratios of the
 * older GPUs, and colocation slowdown from each job's GPU intensity and
 * memory, all jittered by the seed.
 *
 * GOGH reads throughputs, not utilization: no series here.
 */
#include "samples_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct gv_job {
    const char *model;
    int batch;                  /* 0: the job type has no batch size */
    double v100_tput;           /* nominal it/s on a V100, our choice */
    double p100_ratio, k80_ratio;   /* speed relative to the V100 */
    double intensity;           /* share of a V100 the job keeps busy */
    double mem_gib;             /* footprint */
} gv_job;

/* Magnitudes chosen in the ranges Gavel measured for these families:
 * larger batches run fewer iterations/s; compute-bound CNNs and CycleGAN
 * gain most from newer GPUs, memory-bound Recommendation and the CPU-heavy
 * A3C least. */
static const gv_job gv_jobs[] = {
    {"ResNet-18", 32, 30.0, 0.75, 0.22, 0.55, 2.5},
    {"ResNet-18", 128, 18.0, 0.70, 0.20, 0.80, 6.0},
    {"ResNet-50", 64, 4.5, 0.60, 0.15, 0.90, 9.0},
    {"Transformer", 32, 10.5, 0.72, 0.30, 0.60, 4.0},
    {"Transformer", 128, 5.5, 0.65, 0.25, 0.85, 10.0},
    {"LM", 20, 65.0, 0.85, 0.27, 0.50, 3.0},
    {"Recommendation", 1024, 15.0, 0.90, 0.50, 0.45, 2.0},
    {"Recommendation", 4096, 4.5, 0.85, 0.45, 0.70, 5.0},
    {"CycleGAN", 0, 4.4, 0.55, 0.12, 0.90, 4.0},
    {"A3C", 0, 7.0, 0.80, 0.45, 0.35, 1.5},
};
#define GV_NJOBS ((int)(sizeof gv_jobs / sizeof *gv_jobs))

typedef struct gv_accel {
    const char *name;           /* Gavel's accelerator key = tput_class */
    const char *profile;        /* gpuplan GPU profile */
    double mem_gib;
    double load;                /* intensity multiplier: slower GPU, busier */
} gv_accel;

static const gv_accel gv_accels[3] = {
    {"k80", "K80", 12, 1.30},
    {"p100", "P100", 16, 1.15},
    {"v100", "V100M16", 16, 1.00},
};

static double gv_speed(const gv_job *j, int a)
{
    return a == 0 ? j->k80_ratio : a == 1 ? j->p100_ratio : 1.0;
}

static tput_entry gv_entry(const char *accel, const gv_job *j, const gv_job *co, double tput,
                           double co_tput)
{
    tput_entry e;
    memset(&e, 0, sizeof e);
    strlcpy0(e.accel, accel, sizeof e.accel);
    strlcpy0(e.model, j->model, sizeof e.model);
    e.batch_size = j->batch;
    e.scale = 1;
    if (co) {
        strlcpy0(e.co_model, co->model, sizeof e.co_model);
        e.co_batch_size = co->batch;
        e.co_scale = 1;
        e.co_tput = co_tput;
    }
    e.tput = tput;
    return e;
}

void sample_gavel_like(rng *r, sample_set *out)
{
    /* K80, from NVIDIA's published board specification: a board carries two
     * GK210 GPUs with 12 GB each and 300 W for the board, clocks 562 MHz
     * base to 875 MHz boost; a cloud "K80 GPU" (and Gavel's k80) is one
     * GK210, so 12 GiB and 150 W.  Idle: ~25 W per GPU in the P8 state
     * (NVIDIA developer forum reports for K80s).  Price: half the board's
     * 5,000 USD launch price. */
    out->profiles = catalog_new();
    gpu_profile k80 = {0};
    strlcpy0(k80.name, "K80", sizeof k80.name);
    k80.mem_gib = 12;
    k80.idle_w = 25;
    k80.max_w = 150;
    k80.f_min_mhz = 562;
    k80.f_max_mhz = 875;
    k80.alpha_w_per_mhz = (k80.max_w - k80.idle_w) / k80.f_max_mhz;  /* as built-ins */
    k80.beta = 0.91;            /* CATS eq. 5, assumed for every model */
    k80.price_usd = 2500;
    strlcpy0(k80.price_source, "half the K80 board's launch list price (USD 5,000, NVIDIA, "
             "17 Nov 2014)", sizeof k80.price_source);
    strlcpy0(k80.tput_class, "k80", sizeof k80.tput_class);
    k80.speed = 0.30;           /* Gavel's k80 over v100, geometric mean (model.c) */
    catalog_add_gpu(out->profiles, &k80);

    /* Equal numbers of each type as in Gavel's simulated 36:36:36 cluster
     * (v100:p100:k80), at one third of its size: three 4-GPU servers per
     * type, 36 GPUs.  V100s are the 16 GB kind of Gavel's measurements
     * (built-in V100M16, class v100).  GOGH's power is per accelerator
     * (gamma_a), so no server watts. */
    out->cl = cluster_new("gavel-like");
    for (int a = 2; a >= 0; a--)
        for (int s = 0; s < 3; s++) {
            char name[GP_NAME_MAX];
            snprintf(name, sizeof name, "%s-%d", gv_accels[a].name, s);
            node n = sample_node(name, gv_accels[a].profile, 4, 32000, 262144, "");
            cluster_add_node(out->cl, &n);
        }

    /* Solo throughput per accelerator: nominal x ratio x 8 % log-normal
     * jitter (measurement spread). */
    double solo[3][GV_NJOBS];
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < GV_NJOBS; j++)
            solo[a][j] = gv_jobs[j].v100_tput * gv_speed(&gv_jobs[j], a) *
                         exp(0.08 * rng_normal(r));

    out->tp = tput_catalog_new("gavel-like");
    for (int a = 0; a < 3; a++) {
        const gv_accel *ac = &gv_accels[a];
        for (int j = 0; j < GV_NJOBS; j++) {
            tput_entry e = gv_entry(ac->name, &gv_jobs[j], NULL, round_to(solo[a][j], 4), 0);
            tput_catalog_add(out->tp, &e);
        }
        /* Colocated pairs, each unordered pair drawn once and written in
         * both orders as Gavel does.  Two jobs whose footprints exceed the
         * GPU's memory cannot share it: [0, 0] as in Gavel's table.
         * Otherwise each keeps 95 % of its solo speed (MPS overhead) while
         * their intensities fit the GPU, and a proportional share beyond:
         * speed = 0.95 / max(1, k_j + k_o), with 5 % jitter. */
        double pair[GV_NJOBS][GV_NJOBS];
        for (int j = 0; j < GV_NJOBS; j++)
            for (int o = j; o < GV_NJOBS; o++) {
                const gv_job *J = &gv_jobs[j], *O = &gv_jobs[o];
                double kj = fmin(1, J->intensity * ac->load), ko = fmin(1, O->intensity * ac->load);
                double share = 0.95 / fmax(1, kj + ko);
                int fits = J->mem_gib + O->mem_gib <= ac->mem_gib;
                double sj = fmin(1, share * exp(0.05 * rng_normal(r)));
                double so = j == o ? sj : fmin(1, share * exp(0.05 * rng_normal(r)));
                pair[j][o] = fits ? round_to(solo[a][j] * sj, 4) : 0;
                pair[o][j] = fits ? round_to(solo[a][o] * so, 4) : 0;
            }
        for (int j = 0; j < GV_NJOBS; j++)
            for (int o = 0; o < GV_NJOBS; o++) {
                tput_entry e = gv_entry(ac->name, &gv_jobs[j], &gv_jobs[o], pair[j][o],
                                        pair[o][j]);
                tput_catalog_add(out->tp, &e);
            }
    }

    /* 40 jobs naming table job types uniformly; Poisson arrivals with a
     * 5 min mean gap (about one per GOGH round of 360 s); durations
     * log-normal, median 2 h, within [20 min, 12 h]; the minimum throughput
     * is 10-50 % of the job's V100 solo throughput, so some jobs can meet it
     * on a K80 or shared and the rest need a newer or a whole GPU. */
    out->tr = trace_new("gavel-like");
    /* typed tasks are timed by the table, whose reference is its V100 column */
    strlcpy0(out->tr->ref_gpu, "V100", sizeof out->tr->ref_gpu);
    double clock = 0;
    for (int i = 0; i < 40; i++) {
        int j = (int)rng_below(r, GV_NJOBS);
        task k;
        task_init(&k);
        sample_name(k.name, sizeof k.name, "job-%02d", i);
        k.arrival_s = round(clock);
        clock += rng_exponential(r, 300);
        k.duration_s = round(clampd(rng_lognormal(r, log(7200), 0.8), 1200, 43200));
        k.gpu_mem_gib = gv_jobs[j].mem_gib;
        strlcpy0(k.model, gv_jobs[j].model, sizeof k.model);
        k.batch_size = gv_jobs[j].batch;
        k.min_tput = round_to(rng_range(r, 0.1, 0.5) * solo[2][j], 3);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
}
