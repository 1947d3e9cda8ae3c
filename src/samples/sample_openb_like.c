/*
 * sample_openb_like.c — the openb-like sample set (samplegen.h).
 *
 * A small cluster and pod list in the shape of the Alibaba GPU trace 2023
 * (the FGD/PWR workload, SPEC §5.3): heterogeneous GPU models, GPU sharing
 * in milli-GPU, CPU-only pods, a few multi-GPU pods, some pods restricted to
 * GPU models.  Node configurations are our own, sized like the public node
 * list (8-GPU G2/G3/V100M32 machines with 96-128 vCPU, 2-GPU T4 and P100
 * machines, small V100M16 boxes, CPU-only nodes); the pod class mix follows
 * the default trace (FGD_NOTES §0).
 *
 * FGD and PWR only place pods: no utilization series here.
 */
#include "samples_int.h"

#include <math.h>
#include <string.h>

typedef struct ob_sku {
    const char *model;          /* "" = CPU-only */
    int gpus;
    int64_t cpu_milli, ram_mib;
    int count;
} ob_sku;

/* 40 nodes, 184 GPUs.  Proportions follow the public list's dominant
 * shapes (G2 8-GPU and T4 2-GPU machines are most of it), shrunk so that
 * every model of PWR Table II appears at least once. */
static const ob_sku ob_skus[] = {
    {"G2", 8, 96000, 393216, 14},
    {"T4", 2, 96000, 524288, 9},
    {"T4", 4, 96000, 393216, 1},
    {"P100", 2, 16000, 131072, 3},
    {"P100", 2, 64000, 262144, 1},
    {"G3", 8, 128000, 786432, 2},
    {"V100M16", 4, 32000, 131072, 2},
    {"V100M16", 1, 8000, 32768, 1},
    {"V100M32", 8, 96000, 786432, 2},
    {"A10", 1, 128000, 1048576, 1},
    {"", 0, 32000, 262144, 2},
    {"", 0, 96000, 524288, 1},
    {"", 0, 64000, 524288, 1},
};

#define OB_PODS 800

/* FGD_NOTES §0, default trace: 1088 CPU-only, 3078 sharing, 3911 one-GPU,
 * 16 two-GPU, 15 four-GPU, 44 eight-GPU of 8152. */
static const int ob_class_k[6] = {0, 1, 1, 2, 4, 8};
static const int ob_class_trace[6] = {1088, 3078, 3911, 16, 15, 44};
#define OB_TRACE_TOTAL 8152

/* Largest-remainder rounding of the trace's class counts to n pods, with at
 * least one pod per class so every class is exercised. */
static void ob_class_counts(int n, int *count)
{
    int sum = 0;
    double rem[6];
    for (int c = 0; c < 6; c++) {
        double exact = (double)n * ob_class_trace[c] / OB_TRACE_TOTAL;
        count[c] = (int)exact;
        if (count[c] < 1)
            count[c] = 1;
        rem[c] = exact - floor(exact);
        sum += count[c];
    }
    while (sum < n) {
        int best = 0;
        for (int c = 1; c < 6; c++)
            if (rem[c] > rem[best])
                best = c;
        count[best]++;
        rem[best] = -1;
        sum++;
    }
}

/* Sharing pods' GPU fractions: a spread of milli values weighted towards
 * large shares, the shape of the trace's sharing pods (most ask for half a
 * GPU or more; a tail of small slices). */
static const int ob_share_milli[] = {800, 500, 300, 650, 250, 450, 600, 150, 550, 200, 350, 100};
static const double ob_share_w[] = {30, 22, 12, 9, 6, 5, 4, 4, 3, 2, 2, 1};

/* Model restrictions given to ~8 % of single-GPU pods (the trace's
 * gpuspec variant restricts a similar share), listing models the cluster
 * has; multi-GPU pods stay unrestricted so they always have a node. */
static const char *const ob_specs[] = {"T4", "G2", "P100", "V100M16|V100M32",
                                       "P100|V100M16|V100M32", "G3", "A10|G2"};
static const double ob_spec_w[] = {35, 20, 15, 12, 8, 5, 5};
#define OB_SPEC_SHARE 0.08

void sample_openb_like(rng *r, sample_set *out)
{
    out->profiles = catalog_new();
    out->cl = cluster_new("openb-like");
    int idx = 0;
    for (size_t s = 0; s < sizeof ob_skus / sizeof *ob_skus; s++)
        for (int c = 0; c < ob_skus[s].count; c++) {
            char name[GP_NAME_MAX];
            sample_name(name, sizeof name, "ob-node-%02d", idx++);
            /* PWR §V-A: every node's CPU is the Xeon E5-2682 v4 (EOPC
             * counts its packages); no other server watts in EOPC. */
            node n = sample_node(name, ob_skus[s].model, ob_skus[s].gpus,
                                 ob_skus[s].cpu_milli, ob_skus[s].ram_mib, "Xeon-E5-2682v4");
            cluster_add_node(out->cl, &n);
        }

    int count[6];
    ob_class_counts(OB_PODS, count);
    int cls[OB_PODS], n = 0;
    for (int c = 0; c < 6; c++)
        for (int i = 0; i < count[c]; i++)
            cls[n++] = c;
    rng_shuffle(r, cls, OB_PODS, sizeof *cls);

    /* Requests per class (choices in the trace's ranges): CPU-only pods
     * 4-32 vCPU; GPU pods 2-24 vCPU per pod, 8-11 vCPU per GPU for
     * multi-GPU pods so they fit 96-vCPU 8-GPU machines. */
    static const int64_t cpu_only_cpu[] = {4000, 8000, 12000, 16000, 32000};
    static const int64_t share_cpu[] = {2000, 4000, 6000, 8000, 12000};
    static const int64_t whole_cpu[] = {4000, 8000, 12000, 16000, 24000};
    static const int64_t ram_gib[] = {8, 16, 24, 32, 48, 64};
    double clock = 0;
    out->tr = trace_new("openb-like");
    /* the pod list says neither which model ran a pod nor how busy it was: its durations are taken at the default reference */
    strlcpy0(out->tr->ref_gpu, "V100", sizeof out->tr->ref_gpu);
    for (int i = 0; i < OB_PODS; i++) {
        task k;
        task_init(&k);
        sample_name(k.name, sizeof k.name, "ob-pod-%03d", i);
        /* FGD ignores times (FGD_NOTES §0); arrivals are Poisson with a 5 min
         * mean gap and lifetimes log-normal around 2 h, so the set also
         * replays in time order. */
        clock += rng_exponential(r, 300);
        k.arrival_s = round(clock);
        k.duration_s = round(clampd(rng_lognormal(r, log(7200), 1.2), 60, 7 * 86400.0));
        int c = cls[i], kk = ob_class_k[c];
        k.num_gpu = kk;
        if (c == 0) {
            k.gpu_milli = 0;
            k.cpu_milli = cpu_only_cpu[rng_below(r, 5)];
        } else if (c == 1) {
            k.gpu_milli = ob_share_milli[sample_pick_weighted(r, ob_share_w, 12)];
            k.cpu_milli = share_cpu[rng_below(r, 5)];
        } else {
            k.gpu_milli = 1000;
            k.cpu_milli = kk == 1 ? whole_cpu[rng_below(r, 5)]
                                  : kk * (8000 + 1000 * (int64_t)rng_below(r, 4));
        }
        k.ram_mib = ram_gib[rng_below(r, 6)] * 1024 * (kk > 1 ? kk / 2 : 1);
        if (kk == 1 && rng_bernoulli(r, OB_SPEC_SHARE))
            k.gpu_spec = xstrdup(ob_specs[sample_pick_weighted(r, ob_spec_w, 7)]);
        /* QoS classes of the trace: latency-sensitive and best-effort about
         * 57/42, a few burstable. */
        static const char *const qos[] = {"LS", "BE", "Burstable"};
        static const double qos_w[] = {57, 41, 2};
        strlcpy0(k.qos, qos[sample_pick_weighted(r, qos_w, 3)], sizeof k.qos);
        trace_add_task(out->tr, &k);
        task_release(&k);
    }
}
