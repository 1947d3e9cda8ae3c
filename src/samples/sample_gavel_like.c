/*
 * sample_gavel_like.c — the gavel-like sample set (samplegen.h).
 *
 * A throughput table in the shape of Gavel's simulation_throughputs.json
 * (the dataset GOGH §3.1 uses): per accelerator (k80, p100, v100) and job
 * type (model, batch size, scale 1 — GOGH fixes the replication factor at
 * 1), the solo throughput in iterations/s and, for every colocated pair,
 * [own, other].  Its job types are the 26 scale-1 types of Gavel's table
 * (seven families at Gavel's batch sizes: GOGH Table 2's applications
 * plus CycleGAN and A3C), enough for GOGH's nets to learn from a split of
 * them.  Values are generated from a small model, not copied: a nominal
 * V100 speed per family and batch, per-type speed ratios of the older
 * GPUs, and colocation slowdown from each job's GPU intensity and memory,
 * all jittered by the seed.
 *
 * GOGH reads throughputs, not utilization: no series here.
 */
#include "samples_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct gv_job {
    char model[GP_NAME_MAX];
    int batch;                  /* 0: the job type has no batch size */
    double v100_tput;           /* nominal it/s on a V100, our choice */
    double p100_ratio, k80_ratio;   /* speed relative to the V100 */
    double intensity;           /* share of a V100 the job keeps busy */
    double mem_gib;             /* footprint */
} gv_job;

/* The job types of Gavel's table, by family: its 26 scale-1 types are
 * these families at these batch sizes (the names and batch sizes are the
 * table's; every number is our model).  Per family: the nominal V100
 * speed at the reference batch, the older GPUs' speed ratios (compute-
 * bound CNNs and CycleGAN gain most from newer GPUs, memory-bound
 * Recommendation and the CPU-heavy A3C least), the intensity at the
 * reference batch, and the footprint as a base plus a per-sample cost
 * (gen_trace.c's job_mem_gib, capped at a K80's 12 GB). */
typedef struct gv_family {
    const char *model;
    int batches[5];
    int nbatches;
    int ref_batch;
    double v100_tput, p100_ratio, k80_ratio, intensity;
    double mem_base, mem_per_sample;
} gv_family;

static const gv_family gv_families[] = {
    {"ResNet-18", {16, 32, 64, 128, 256}, 5, 32, 30.0, 0.75, 0.22, 0.55, 1.0, 0.03},
    {"ResNet-50", {16, 32, 64, 128}, 4, 64, 4.5, 0.60, 0.15, 0.90, 2.0, 0.08},
    {"Transformer", {16, 32, 64, 128, 256}, 5, 32, 10.5, 0.72, 0.30, 0.60, 2.0, 0.06},
    {"LM", {5, 10, 20, 40, 80}, 5, 20, 65.0, 0.85, 0.27, 0.50, 1.5, 0.1},
    {"Recommendation", {512, 1024, 2048, 4096, 8192}, 5, 1024, 15.0, 0.90, 0.50, 0.45, 1.0,
     0.0005},
    {"CycleGAN", {0}, 1, 0, 4.4, 0.55, 0.12, 0.90, 4.0, 0},
    {"A3C", {0}, 1, 0, 7.0, 0.80, 0.45, 0.35, 1.5, 0},
};
#define GV_NJOBS 26

/* Every job type of every family: a larger batch runs fewer iterations/s
 * (sublinearly: (ref/b)^0.85), keeps the GPU busier ((b/ref)^0.3) and
 * needs more memory; the older GPUs' ratios vary by 10 % per type. */
static void gv_job_types(rng *r, gv_job *out)
{
    int n = 0;
    for (size_t f = 0; f < sizeof gv_families / sizeof *gv_families; f++) {
        const gv_family *F = &gv_families[f];
        for (int k = 0; k < F->nbatches; k++) {
            gv_job *j = &out[n++];
            int b = F->batches[k];
            double rel = b ? (double)b / F->ref_batch : 1;
            strlcpy0(j->model, F->model, sizeof j->model);
            j->batch = b;
            j->v100_tput = round_to(F->v100_tput * pow(rel, -0.85), 3);
            j->p100_ratio = fmin(0.98, F->p100_ratio * exp(0.1 * rng_normal(r)));
            j->k80_ratio = fmin(0.9, F->k80_ratio * exp(0.1 * rng_normal(r)));
            j->intensity = fmin(1, F->intensity * pow(rel, 0.3));
            j->mem_gib = round_to(fmin(11.5, F->mem_base + F->mem_per_sample * b), 2);
        }
    }
}

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

    gv_job gv_jobs[GV_NJOBS];
    gv_job_types(r, gv_jobs);
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
     * is 40-60 % of the job's V100 solo throughput, around the half of its
     * best solo one GOGH's policies assume when a job gives none
     * (min_frac 0.5), so a K80 meets it only for the few types that run
     * near half a V100's speed there, and sharing a newer GPU often does. */
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
        k.min_tput = round_to(rng_range(r, 0.4, 0.6) * solo[2][j], 3);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
}
