/*
 * test_import_ops.c — an operator's cluster from the tools they run: the
 * k8s (kubectl lists, with nvidia-smi CSV), smi (nvidia-smi alone, a real
 * H100 capture), dcgm (exporter metrics, real scrapes) and promrange
 * (Prometheus range query) importers on tests/fixtures/ops: counts of
 * nodes, GPUs, pods and tasks, GPU models mapped to profiles or made from
 * what was reported, readings, shared-GPU conventions; detection; every
 * malformed class refused with file:line:column while the store stays as
 * it was; the Prometheus text reader on its own.
 */
#include "testutil.h"
#include "db/store_int.h"

#include "io/import.h"
#include "io/promtext.h"

#include <math.h>
#include <sqlite3.h>

extern const importer import_k8s;
extern const importer import_smi;
extern const importer import_dcgm;
extern const importer import_promrange;

#define F "tests/fixtures/ops/"

/* Imports one file holding text (written as fname in a scratch directory:
 * the importers take host names from file names) as name; fails the test
 * when it is refused. */
static void import_text(store *st, const importer *imp, const char *fname, const char *text,
                        const char *name)
{
    gp_err err = {{0}};
    if (tu_import_text(st, imp, fname, text, NULL, 0, name, &err))
        fail_msg("%s", err.msg);
}

static const node *find_node(const cluster *cl, const char *name)
{
    for (size_t i = 0; i < cl->nnodes; i++)
        if (strcmp(cl->nodes[i].name, name) == 0)
            return &cl->nodes[i];
    fail_msg("no node %s", name);
    return NULL;
}

/* The rows of task t: how many, and the first one. */
static int task_rows(const snapshot *sn, int t, placement_row *first)
{
    int n = 0;
    for (size_t i = 0; i < sn->nrows; i++)
        if (sn->rows[i].task == t && n++ == 0)
            *first = sn->rows[i];
    return n;
}

/* --- kubectl + nvidia-smi ---------------------------------------------------- */

static void test_k8s_with_smi(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "nodes.json", F "pods.json", F "gpu-a100-0.csv",
                           F "hami-workshop.csv"};
    assert_ptr_equal(importer_detect(paths, 4), &import_k8s);
    if (tu_import_as(st, &import_k8s, paths, 4, "lab", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.clusters, 1);
    assert_int_equal(res.nodes, 3);
    assert_int_equal(res.snapshots, 1);
    assert_int_equal(res.traces, 1);
    assert_int_equal(res.tasks, 6);                 /* 4 running, 2 pending */
    assert_int_equal(res.gpu_profiles, 0);          /* A100-40GB and T4 are built in */
    tu_assert_contains(res.names, "(skipped: 1 pods finished)");

    cluster *cl = tu_cluster(st, "lab");
    assert_int_equal(cluster_gpu_total(cl), 5);
    const node *a100 = find_node(cl, "gpu-a100-0"), *t4 = find_node(cl, "hami-workshop");
    assert_string_equal(a100->gpu_model, "A100-40GB");
    assert_int_equal(a100->gpu_count, 4);
    assert_int_equal(a100->cpu_milli, 47500);               /* "47500m" */
    assert_int_equal(a100->ram_mib, 346764832 / 1024);      /* "346764832Ki" */
    assert_string_equal(t4->gpu_model, "T4");               /* label "Tesla-T4" */
    assert_int_equal(find_node(cl, "cpu-0")->gpu_count, 0);
    cluster_free(cl);

    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "lab", &sn, &err), 0);
    assert_int_equal(sn->tasks->ntasks, 4);
    assert_int_equal(sn->nrows, 5);
    assert_int_equal(sn->nreadings, 5);
    placement_row r;
    assert_int_equal(task_rows(sn, tu_find_task(sn->tasks, "ml/resnet-train-0"), &r), 2);
    assert_int_equal(r.gpu_milli, 1000);
    int nb = tu_find_task(sn->tasks, "ml/notebook-1");
    assert_int_equal(task_rows(sn, nb, &r), 1);             /* openb annotation */
    assert_int_equal(r.gpu, 2);
    assert_int_equal(r.gpu_milli, 500);
    int ht = tu_find_task(sn->tasks, "default/gpu-test");
    assert_int_equal(task_rows(sn, ht, &r), 1);             /* HAMi gpucores 30 % */
    assert_int_equal(r.gpu_milli, 300);
    assert_double_equal(sn->tasks->tasks[ht].gpu_mem_gib, 3000 / 1024.0, 1e-9);
    const gpu_reading *g0 = snapshot_reading(sn, 0, 0);
    assert_non_null(g0);
    assert_double_equal(g0->util_pct, 97, 0);
    assert_double_equal(g0->power_w, 348.12, 1e-9);
    assert_double_equal(g0->clock_mhz, 1410, 0);
    assert_double_equal(g0->mem_used_mib, 31245, 0);
    const gpu_reading *t4r = snapshot_reading(sn, 1, 0);    /* noheader, nounits */
    assert_non_null(t4r);
    assert_double_equal(t4r->power_w, 35.12, 1e-9);
    /* a pod's utilization is its GPU's as read, one sample */
    assert_double_equal(sn->tasks->tasks[nb].util_mean, 41, 1e-6);
    snapshot_free(sn);

    gp_trace *q = tu_trace(st, "lab-pending");
    assert_int_equal(q->ntasks, 2);
    assert_int_equal(q->tasks[tu_find_task(q, "ml/resnet-train-1")].num_gpu, 4);
    assert_int_equal(q->tasks[tu_find_task(q, "ml/eval-2")].num_gpu, 1);
    trace_free(q);
    tu_store_free(st, dir);
}

/* A range query next to the lists: the pods run with their series. */
static void test_k8s_with_series(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "nodes.json", F "pods.json", F "gpu-a100-0.csv",
                           F "util-range.json"};
    assert_ptr_equal(importer_detect(paths, 4), &import_k8s);
    if (tu_import_as(st, &import_k8s, paths, 4, "lab", &res, &err))
        fail_msg("%s", err.msg);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "lab", &sn, &err), 0);
    const task *train = &sn->tasks->tasks[tu_find_task(sn->tasks, "ml/resnet-train-0")];
    assert_int_equal(train->util.len, 4);                 /* its series, not a reading */
    assert_double_equal(train->util.period_s, 60, 0);
    const task *ht = &sn->tasks->tasks[tu_find_task(sn->tasks, "default/gpu-test")];
    assert_int_equal(ht->util.len, 0);                  /* no series, no reading here */
    snapshot_free(sn);
    tu_store_free(st, dir);
}

/* The FGD simulator's example nodes and pod (alibabacloud.com conventions). */
static void test_k8s_openb_conventions(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "openb/nodes.json", F "openb/pods.json"};
    if (tu_import_as(st, &import_k8s, paths, 2, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(res.names, "cluster 'openb', snapshot 'openb', trace 'openb-pending'");
    cluster *cl = tu_cluster(st, "openb");
    assert_int_equal(cl->nnodes, 2);
    assert_int_equal(cluster_gpu_total(cl), 6);
    assert_string_equal(cl->nodes[1].gpu_model, "V100");
    cluster_free(cl);
    gp_trace *q = tu_trace(st, "openb-pending");
    assert_int_equal(q->ntasks, 1);
    assert_int_equal(q->tasks[0].num_gpu, 1);
    assert_int_equal(q->tasks[0].gpu_milli, 500);
    assert_int_equal(q->tasks[0].cpu_milli, 4000);
    assert_int_equal(q->tasks[0].ram_mib, 9216);
    trace_free(q);
    tu_store_free(st, dir);
}

/* The GPU operator's time-slicing: 8 replicas of 2 GPUs, pods of 1 and 2
 * replicas take a quarter and a half of one GPU. */
static void test_k8s_time_slicing(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_text(st, &import_k8s, "ts.json",
             "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
             " {\"kind\": \"Node\", \"metadata\": {\"name\": \"ts\", \"labels\": {"
             "\"nvidia.com/gpu.product\": \"Tesla-T4\", \"nvidia.com/gpu.replicas\": \"4\"}},"
             " \"status\": {\"allocatable\": {\"nvidia.com/gpu\": \"8\"}}},\n"
             " {\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, \"spec\": {\"nodeName\": "
             "\"ts\", \"containers\": [{\"resources\": {\"limits\": "
             "{\"nvidia.com/gpu\": \"1\"}}}]},"
             " \"status\": {\"phase\": \"Running\"}},\n"
             " {\"kind\": \"Pod\", \"metadata\": {\"name\": \"b\"}, \"spec\": {\"nodeName\": "
             "\"ts\", \"containers\": [{\"resources\": {\"limits\": "
             "{\"nvidia.com/gpu\": \"2\"}}}]},"
             " \"status\": {\"phase\": \"Running\"}}]}\n",
             "ts");
    gp_err err = {{0}};
    cluster *cl = tu_cluster(st, "ts");
    assert_int_equal(cl->nodes[0].gpu_count, 2);
    cluster_free(cl);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "ts", &sn, &err), 0);
    assert_int_equal(sn->nrows, 2);
    assert_int_equal(sn->rows[0].gpu_milli, 250);
    assert_int_equal(sn->rows[1].gpu_milli, 500);
    assert_int_equal(sn->rows[1].gpu, 0);       /* both fit on the first GPU */
    snapshot_free(sn);
    tu_store_free(st, dir);
}

/* MIG: instances of a mixed-strategy node and of a single-strategy one are
 * shares of one GPU of the parent model, with the instance's memory. */
static void test_k8s_mig(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_text(st, &import_k8s, "mig.json",
             "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
             " {\"kind\": \"Node\", \"metadata\": {\"name\": \"mixed\", \"labels\": {"
             "\"nvidia.com/gpu.product\": \"A100-SXM4-40GB\", \"nvidia.com/gpu.count\": \"2\","
             " \"nvidia.com/mig.strategy\": \"mixed\"}}, \"status\": {\"allocatable\": {"
             "\"nvidia.com/mig-1g.5gb\": \"7\", \"nvidia.com/mig-3g.20gb\": \"2\"}}},\n"
             " {\"kind\": \"Node\", \"metadata\": {\"name\": \"single\", \"labels\": {"
             "\"nvidia.com/gpu.product\": \"A100-SXM4-40GB-MIG-1g.5gb\","
             " \"nvidia.com/mig.strategy\": \"single\"}}, \"status\": {\"allocatable\": {"
             "\"nvidia.com/gpu\": \"14\"}}},\n"
             " {\"kind\": \"Pod\", \"metadata\": {\"name\": \"m\"}, \"spec\": {\"nodeName\":"
             " \"mixed\", \"containers\": [{\"resources\": {\"limits\": "
             "{\"nvidia.com/mig-3g.20gb\": \"1\"}}}]}, \"status\": {\"phase\": \"Running\"}},\n"
             " {\"kind\": \"Pod\", \"metadata\": {\"name\": \"s\"}, \"spec\": {\"nodeName\":"
             " \"single\", \"containers\": [{\"resources\": {\"limits\": "
             "{\"nvidia.com/gpu\": \"1\"}}}]}, \"status\": {\"phase\": \"Running\"}}]}\n",
             "mig");
    gp_err err = {{0}};
    cluster *cl = tu_cluster(st, "mig");
    assert_int_equal(cl->nodes[0].gpu_count, 2);            /* the gpu.count label */
    assert_int_equal(cl->nodes[1].gpu_count, 2);            /* 14 instances of 1/7 */
    assert_string_equal(cl->nodes[0].gpu_model, "A100-40GB");
    assert_string_equal(cl->nodes[1].gpu_model, "A100-40GB");
    cluster_free(cl);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "mig", &sn, &err), 0);
    assert_int_equal(sn->nrows, 2);
    assert_int_equal(sn->rows[0].gpu_milli, 429);           /* 3 of 7 slices */
    assert_double_equal(sn->tasks->tasks[0].gpu_mem_gib, 20, 1e-9);
    assert_int_equal(sn->rows[1].gpu_milli, 142);           /* 1 of 7 */
    snapshot_free(sn);
    tu_store_free(st, dir);
}

/* --- nvidia-smi alone ------------------------------------------------------------ */

/* A real H100 capture: a full --query-gpu header, three processes. */
static void test_smi_h100_capture(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "h100-node.csv", F "h100-node.apps.csv"};
    assert_ptr_equal(importer_detect(paths, 2), &import_smi);
    if (tu_import_as(st, &import_smi, paths, 2, "h100", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1);
    assert_int_equal(res.tasks, 3);
    assert_int_equal(res.gpu_profiles, 0);      /* "NVIDIA H100 80GB HBM3" is H100 */
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "h100", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 1);
    assert_double_equal(sn->readings[0].util_pct, 100, 0);
    assert_double_equal(sn->readings[0].power_w, 631.95, 1e-9);
    assert_double_equal(sn->readings[0].clock_mhz, 1980, 0);     /* clocks.current.sm */
    assert_double_equal(sn->readings[0].mem_used_mib, 19818, 0);
    for (size_t i = 0; i < sn->nrows; i++)
        assert_int_equal(sn->rows[i].gpu_milli, 333);             /* three share it */
    int burn = tu_find_task(sn->tasks, "h100-node-pid11345");
    assert_double_equal(sn->tasks->tasks[burn].gpu_mem_gib, 15690 / 1024.0, 1e-9);
    snapshot_free(sn);
    cluster *cl = tu_cluster(st, "h100");
    assert_string_equal(cl->nodes[0].name, "h100-node");
    assert_string_equal(cl->nodes[0].gpu_model, "H100");
    cluster_free(cl);
    tu_store_free(st, dir);
}

/* A host column; GPU models without a profile become profiles. */
static void test_smi_hosts_new_profiles(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    /* L4 is a built-in profile: removed, so the scrape's L4 is a model
     * without one, as the captures were when they were taken */
    assert_int_equal(store_delete_gpu_profile(st, "L4", &err), 0);
    const char *paths[] = {F "smi-hosts.csv", F "box-1.apps.csv"};
    if (tu_import_as(st, &import_smi, paths, 2, "boxes", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 2);
    assert_int_equal(res.gpu_profiles, 2);
    assert_string_equal(res.names, "GPU profile 'RTX-3090', GPU profile 'L4', cluster "
                                   "'boxes', snapshot 'boxes'");
    catalog *cat;
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    const gpu_profile *l4 = catalog_gpu(cat, "L4");
    assert_non_null(l4);
    assert_double_equal(l4->mem_gib, 23034 / 1024.0, 1e-9);
    assert_double_equal(l4->max_w, 72, 0);                  /* power.limit */
    assert_double_equal(l4->f_max_mhz, 2040, 0);            /* clocks.max.sm */
    assert_double_equal(l4->idle_w, 0.125 * 72, 1e-9);
    catalog_free(cat);
    cluster *cl;    /* box-1 mixes an RTX 3090 and an A6000 of 48 GiB */
    cl = tu_cluster(st, "boxes");
    assert_string_equal(cl->nodes[0].gpu_model, "RTX-3090");
    /* every device's memory or none (nodes.csv writes it so): the 3090 its
     * profile's, so the export imports back the same */
    assert_double_equal(cl->nodes[0].gpu_mem_gib[0], 24576 / 1024.0, 1e-3);
    assert_double_equal(cl->nodes[0].gpu_mem_gib[1], 49140 / 1024.0, 1e-3); /* stored to 4 places */
    cluster_free(cl);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "boxes", &sn, &err), 0);
    assert_int_equal(sn->tasks->ntasks, 1);
    assert_int_equal(sn->rows[0].node, 0);
    assert_int_equal(sn->rows[0].gpu, 1);                   /* by its uuid */
    snapshot_free(sn);
    tu_store_free(st, dir);
}

/* A host name with dots keeps them: only the file's ending is dropped. */
static void test_smi_dotted_host(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_text(st, &import_smi, "ip-10-0-0-1.ec2.internal.csv",
             "index, name\n0, NVIDIA L4\n1, NVIDIA L4\n",
             "ec2");
    cluster *cl = tu_cluster(st, "ec2");
    assert_string_equal(cl->nodes[0].name, "ip-10-0-0-1.ec2.internal");
    assert_int_equal(cl->nodes[0].gpu_count, 2);
    cluster_free(cl);
    tu_store_free(st, dir);
}

/* --- DCGM ------------------------------------------------------------------------- */

static void test_dcgm_scrapes(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    /* L4 is built in: removed, so its memory comes from the scrape */
    assert_int_equal(store_delete_gpu_profile(st, "L4", &err), 0);
    const char *paths[] = {F "i-030791dc5a37cd257.prom", F "hami-workshop.prom"};
    assert_ptr_equal(importer_detect(paths, 2), &import_dcgm);
    if (tu_import_as(st, &import_dcgm, paths, 2, "scrape", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 2);
    assert_int_equal(res.tasks, 1);                 /* the pod a series names */
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "scrape", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 2);
    const gpu_reading *l4 = snapshot_reading(sn, 0, 0);
    assert_double_equal(l4->power_w, 16.365, 1e-9);
    assert_double_equal(l4->clock_mhz, 210, 0);
    assert_double_equal(l4->util_pct, 0, 0);
    assert_string_equal(sn->tasks->tasks[0].name, "default/gpu-test");
    assert_int_equal(sn->rows[0].node, 1);
    snapshot_free(sn);
    cluster *cl = tu_cluster(st, "scrape");
    assert_string_equal(cl->nodes[0].name, "i-030791dc5a37cd257");
    assert_string_equal(cl->nodes[1].gpu_model, "T4");
    cluster_free(cl);
    catalog *cat;       /* L4: FB used + free + reserved = 23033 MiB */
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    assert_double_equal(catalog_gpu(cat, "L4")->mem_gib, 23033 / 1024.0, 1e-9);
    catalog_free(cat);
    /* the same node scraped twice is refused at the second file's sample */
    const char *twice[] = {F "hami-workshop.prom", F "hami-workshop.prom"};
    assert_int_equal(tu_import_as(st, &import_dcgm, twice, 2, "twice", &res, &err), -1);
    tu_assert_contains(err.msg, "hami-workshop.prom:3:1: GPU 0 of hami-workshop was read "
                                "from an earlier file too");
    tu_store_free(st, dir);
}

/* A MIG GPU's instances: memory summed, the rest read once. */
static void test_dcgm_mig_instances(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    import_text(st, &import_dcgm, "m.prom",
             "DCGM_FI_DEV_FB_USED{gpu=\"0\",GPU_I_ID=\"1\",Hostname=\"m\"} 1000\n"
             "DCGM_FI_DEV_FB_USED{gpu=\"0\",GPU_I_ID=\"2\",Hostname=\"m\"} 3000\n"
             "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",GPU_I_ID=\"1\",Hostname=\"m\"} 120\n"
             "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",GPU_I_ID=\"2\",Hostname=\"m\"} 120\n",
             "mig");
    gp_err err = {{0}};
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "mig", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 1);
    assert_double_equal(sn->readings[0].mem_used_mib, 4000, 0);
    assert_double_equal(sn->readings[0].power_w, 120, 0);
    snapshot_free(sn);
    tu_store_free(st, dir);
}

/* The exporter's README sample: no Hostname (the file names the host), a
 * space after a comma, empty pod labels, a sentinel temperature. */
static void test_dcgm_readme_sample(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "dcgm-exporter-readme.prom"};
    if (tu_import_as(st, &import_dcgm, paths, 1, "readme", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1);
    assert_int_equal(res.tasks, 0);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "readme", &sn, &err), 0);
    assert_double_equal(sn->readings[0].clock_mhz, 139, 0);
    assert_true(isnan(sn->readings[0].util_pct));
    snapshot_free(sn);
    cluster *cl = tu_cluster(st, "readme");
    assert_string_equal(cl->nodes[0].name, "dcgm-exporter-readme");
    cluster_free(cl);
    tu_store_free(st, dir);
}

/* A real 8 x H100 scrape on EKS (power and utilization of each GPU) whose
 * third GPU runs a pod: the node, its eight GPUs read, the pod on GPU 2. */
static void test_dcgm_real_pod(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "ip-100-64-147-149.prom"};
    assert_ptr_equal(importer_detect(paths, 1), &import_dcgm);
    if (tu_import_as(st, &import_dcgm, paths, 1, "eks", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1);
    assert_int_equal(res.tasks, 1);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "eks", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 8);
    assert_double_equal(snapshot_reading(sn, 0, 2)->power_w, 110.786, 1e-9);
    assert_double_equal(snapshot_reading(sn, 0, 7)->power_w, 68.495, 1e-9);
    assert_double_equal(snapshot_reading(sn, 0, 2)->util_pct, 0, 0);
    assert_true(isnan(snapshot_reading(sn, 0, 2)->clock_mhz));  /* not sampled */
    int t = tu_find_task(sn->tasks, "dynamo-workload/vllm-agg-0-vllmdecodeworker-dkb9q");
    placement_row row;
    assert_int_equal(task_rows(sn, t, &row), 1);
    assert_int_equal(row.gpu, 2);
    assert_int_equal(row.gpu_milli, 1000);
    snapshot_free(sn);
    cluster *cl = tu_cluster(st, "eks");
    const node *n = find_node(cl, "ip-100-64-147-149.ec2.internal");
    assert_string_equal(n->gpu_model, "H100");
    assert_int_equal(n->gpu_count, 8);
    cluster_free(cl);
    tu_store_free(st, dir);
}

/* A real g4dn.xlarge node (GPU feature discovery labels, capacity as
 * printed; no allocatable): one T4 from "Tesla-T4", 4 vCPUs, its memory. */
static void test_k8s_real_t4_node(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "g4dn-t4-node.json"};
    assert_ptr_equal(importer_detect(paths, 1), &import_k8s);
    if (tu_import_as(st, &import_k8s, paths, 1, "g4", &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1);
    assert_int_equal(res.tasks, 0);
    cluster *cl = tu_cluster(st, "g4");
    const node *n = find_node(cl, "ip-10-0-220-29.ap-southeast-1.compute.internal");
    assert_string_equal(n->gpu_model, "T4");
    assert_int_equal(n->gpu_count, 1);
    assert_int_equal(n->cpu_milli, 4000);
    assert_int_equal(n->ram_mib, 16116152 / 1024);
    cluster_free(cl);
    tu_store_free(st, dir);
}

/* --- Prometheus range query ---------------------------------------------------------- */

static void test_promrange(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "util-range.json"};
    assert_ptr_equal(importer_detect(paths, 1), &import_promrange);
    if (tu_import_as(st, &import_promrange, paths, 1, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.tasks, 2);
    assert_int_equal(res.samples, 7);
    gp_trace *tr = tu_trace(st, "util-range");
    const task *train = &tr->tasks[tu_find_task(tr, "ml/resnet-train-0")];
    assert_int_equal(train->num_gpu, 2);                      /* two series */
    assert_double_equal(train->duration_s, 240, 0);           /* 4 samples, step 60 s */
    assert_double_equal(train->util.pct[0], 94, 1e-6);        /* (95 + 93) / 2 */
    assert_double_equal(train->util.period_s, 60, 0);
    const task *nb = &tr->tasks[tu_find_task(tr, "ml/notebook-1")];
    assert_double_equal(nb->arrival_s, 60, 0);
    assert_double_equal(nb->util.pct[1], 12, 1e-6);         /* NaN repeats */
    assert_double_equal(nb->gpu_mem_gib, 9120 / 1024.0, 1e-9);
    trace_free(tr);
    tu_store_free(st, dir);
}

/* --- malformed ---------------------------------------------------------------------- */

static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    import_result res;
    const char *paths[] = {r->path};
    return tu_import_as(st, r->arg, paths, 1, "bad", &res, err);
}

static const tu_bad_case smi_cases[] = {
    {"a word for a number", "h.csv",
     "index, uuid, name, utilization.gpu [%]\n0, GPU-a, NVIDIA L4, lots %\n",
     "h.csv:2:4: expected a number >= 0 (with MiB, %, W or MHz, or [N/A]), got 'lots %'"},
    {"utilization over 100", "h.csv", "index, name, utilization.gpu [%]\n0, NVIDIA L4, 130 %\n",
     "h.csv:2:3: expected a utilization 0..100 %"},
    {"a GPU twice", "h.csv", "index, name\n0, NVIDIA L4\n0, NVIDIA L4\n",
     "h.csv:3:1: GPU 0 of h is listed twice"},
    {"a bad index", "h.csv", "index, name\nzero, NVIDIA L4\n",
     "h.csv:2:1: expected a GPU index 0..15"},
    {"a huge index", "h.csv", "index, name\n99999999999999999999999, NVIDIA L4\n",
     "h.csv:2:1: expected a GPU index 0..15"},
    {"too few fields", "h.csv", "index, name, power.draw [W]\n0, NVIDIA L4\n",
     "h.csv:2:"},
};

static const tu_bad_case dcgm_cases[] = {
    {"unclosed quote", "n.prom", "DCGM_FI_DEV_GPU_UTIL{gpu=\"0} 12\n",
     "n.prom:1:32: expected '\"' closing the label value"},
    {"no value", "n.prom", "# TYPE x gauge\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\"}\n",
     "n.prom:2:30: expected a space before the value"},
    {"invalid UTF-8", "n.prom",
     "# TYPE x gauge\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\",pod=\"p\xe9\"} 1\n",
     "n.prom:2:36: invalid UTF-8 byte 0xe9 (expected UTF-8 text)"},
    {"a word for a value", "n.prom", "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} high\n",
     "n.prom:1:34: expected a number, NaN, +Inf or -Inf, got 'high'"},
    {"no gpu label", "n.prom", "DCGM_FI_DEV_GPU_UTIL{Hostname=\"n\"} 3\n",
     "n.prom:1:1: DCGM_FI_DEV_GPU_UTIL: expected a label gpu=\"0\"..\"15\""},
    {"utilization over 100", "n.prom", "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 150\n",
     "n.prom:1:31: DCGM_FI_DEV_GPU_UTIL: expected a value 0..100, got 150"},
    {"a metric twice", "n.prom",
     "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 1\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 2\n",
     "n.prom:2:1: DCGM_FI_DEV_GPU_UTIL of GPU 0 on n is given twice"},
    {"a label without =", "n.prom", "DCGM_FI_DEV_GPU_UTIL{gpu \"0\"} 1\n",
     "n.prom:1:26: expected '=' after label 'gpu'"},
};

#define NODE(alloc) \
    "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n" \
    " {\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"},\n" \
    "  \"status\": {\"allocatable\": " alloc "}}"
#define POD(res) \
    ",\n {\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"},\n" \
    "  \"spec\": {\"nodeName\": \"n1\", \"containers\": [{\"resources\": " res "}]},\n" \
    "  \"status\": {\"phase\": \"Running\"}}"

static const tu_bad_case k8s_cases[] = {
    {"a word for a quantity", "k.json", NODE("{\"nvidia.com/gpu\": \"two\"}") "]}\n",
     "k.json:3:30: items[0].status.allocatable.nvidia.com/gpu: expected a quantity "
     "(\"64\", \"500m\", \"16Gi\"), got a string 'two'"},
    {"truncated", "k.json", NODE("{\"nvidia.com/gpu\": \"2\"}") "\n",
     "k.json:4:1: ']' expected near end of file (expected kubectl's JSON)"},
    {"17 GPUs on a node", "k.json", NODE("{\"nvidia.com/gpu\": \"17\"}") "]}\n",
     "k.json:3:30: items[0].status.allocatable.nvidia.com/gpu: expected 0..16 whole GPUs"},
    {"a node twice", "k.json",
     NODE("{}") ",\n {\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}]}\n",
     "k.json:4:19: items[1].metadata: node 'n1' is listed twice"},
    {"a node without a name", "k.json",
     "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n {\"kind\": \"Node\", "
     "\"metadata\": {}}]}\n",
     "k.json:2:19: items[0].metadata: expected metadata.name"},
    {"more GPUs than the node has", "k.json",
     NODE("{\"nvidia.com/gpu\": \"2\"}") POD("{\"requests\": {\"nvidia.com/gpu\": \"4\"}}") "]}\n",
     "k.json:4:18: items[1].metadata: p: node n1 has no 4 GPU(s) with room"},
    {"a share of two GPUs", "k.json",
     NODE("{\"nvidia.com/gpu\": \"2\"}")
     POD("{\"requests\": {\"nvidia.com/gpu\": \"2\", \"nvidia.com/gpucores\": \"50\"}}") "]}\n",
     "k.json:4:2: items[1]: expected 1..16 whole GPUs or a share of one GPU"},
    {"an absurd quantity", "k.json",
     NODE("{\"nvidia.com/gpu\": \"2\", \"cpu\": \"1e300\"}") "]}\n",
     "k.json:3:53: items[0].status.allocatable.cpu: expected a quantity"},
    {"1e9 GPUs for a pod", "k.json",
     NODE("{\"nvidia.com/gpu\": \"2\"}")
     POD("{\"requests\": {\"nvidia.com/gpu\": \"1e9\"}}") "]}\n",
     "k.json:4:2: items[1]: expected 1..16 whole GPUs or a share of one GPU"},
    {"not a list", "k.json", "{\"apiVersion\": \"v1\", \"kind\": \"Node\"}\n",
     "k.json:1:1: $: expected a kubectl List"},
};

#define RANGE(values) \
    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n" \
    "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"pod\":\"p\"},\n" \
    " \"values\":" values "}]}}\n"

static const tu_bad_case range_cases[] = {
    {"a word for a value", "r.json", RANGE("[[1,\"5\"],[2,\"high\"]]"),
     "r.json:3:23: data.result[0].values[1][1]: expected a value >= 0 as a string"},
    {"time going back", "r.json", RANGE("[[2,\"5\"],[1,\"6\"]]"),
     "r.json:3:20: data.result[0].values[1]: expected timestamps in increasing order"},
    {"utilization over 100", "r.json", RANGE("[[1,\"500\"]]"),
     "r.json:3:15: data.result[0].values[0][1]: expected a utilization 0..100 %"},
    {"an instant query", "r.json",
     "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}\n",
     "r.json:1:29: data.resultType: expected resultType \"matrix\""},
    {"a failed query", "r.json",
     "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid expression\"}\n",
     "r.json:1:1: $: the query failed: invalid expression"},
    {"another metric", "r.json",
     "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
     "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"1\"]]}]}}\n",
     "r.json:2:12: data.result[0].metric.__name__: expected DCGM_FI_DEV_GPU_UTIL"},
};

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, smi_cases, import_bad, &import_smi);
    tu_run_bad_cases(NULL, dcgm_cases, import_bad, &import_dcgm);
    tu_run_bad_cases(NULL, k8s_cases, import_bad, &import_k8s);
    tu_run_bad_cases(NULL, range_cases, import_bad, &import_promrange);
}

/* A failure in the second file leaves nothing of the first. */
static void test_all_or_nothing(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    tu_listing before;
    tu_listing_take(st, &before);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {F "nodes.json", F "bad/nodes-bad-quantity.json"};
    assert_int_equal(tu_import_as(st, &import_k8s, paths, 2, "x", &res, &err), -1);
    tu_assert_contains(err.msg, "nodes-bad-quantity.json:3:31:");
    tu_assert_store_unchanged(st, &before, "second file bad");
    tu_listing_free(&before);
    tu_store_free(st, dir);
}

/* A version-4 database (before GPU readings) opens at the current version
 * and takes a snapshot with readings. */
static void test_migrates_version_4(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    char *path = xasprintf("%s/v4.db", dir);
    store *st;
    gp_err err = {{0}};
    int created = -1;
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    store_close(st);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DROP TABLE snapshot_gpu;"
                                      " ALTER TABLE trace DROP COLUMN ref_gpu;"
                                      " PRAGMA user_version = 4;",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(store_open(path, &st, &created, &err), 0);
    assert_int_equal(created, 0);
    assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    for (size_t i = 0; i < cat->ngpus; i++)
        assert_int_equal(store_put_gpu_profile(st, &cat->gpus[i], &err), 0);
    catalog_free(cat);
    import_result res;
    const char *paths[] = {F "h100-node.csv"};
    if (tu_import_as(st, &import_smi, paths, 1, "h", &res, &err))
        fail_msg("%s", err.msg);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "h", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 1);
    snapshot_free(sn);
    store_close(st);
    free(path);
    tu_rmrf(dir);
    free(dir);
}

/* --- detection ------------------------------------------------------------------------ */

static void test_detect(void **state)
{
    (void)state;
    const char *smi_noheader[] = {F "hami-workshop.csv"};
    const char *smi_host[] = {F "smi-hosts.csv"};
    const char *apps_alone[] = {F "box-1.apps.csv"};
    const char *k8s_alone[] = {F "openb/nodes.json"};
    const char *native[] = {"tests/fixtures/native/lab"};
    assert_ptr_equal(importer_detect(smi_noheader, 1), &import_smi);
    assert_ptr_equal(importer_detect(smi_host, 1), &import_smi);
    assert_null(importer_detect(apps_alone, 1));    /* processes without their GPUs */
    assert_ptr_equal(importer_detect(k8s_alone, 1), &import_k8s);
    assert_ptr_not_equal(importer_detect(native, 1), &import_k8s);
}

/* --- the text reader --------------------------------------------------------------------- */

typedef struct got {
    prom_sample s[4];
    int n;
} got;

static int keep(void *ctx, const prom_sample *s, gp_err *err)
{
    (void)err;
    got *g = ctx;
    if (g->n < 4)
        g->s[g->n] = *s;
    g->n++;
    return 0;
}

static void test_promtext(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    tu_write(dir, "m.prom",
             "# HELP x a comment\n\n"
             "  up 1\n"
             "x{a=\"q\\\"uote\\\\\\n\" , b=\"\"} -Inf 1700000000000\r\n"
             "y{} NaN\n");
    char *path = xasprintf("%s/m.prom", dir);
    got g = {.n = 0};
    gp_err err = {{0}};
    if (prom_each(path, keep, &g, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.s[0].name, "up");
    assert_int_equal(g.s[0].line, 3);
    assert_double_equal(g.s[0].value, 1, 0);
    assert_int_equal(g.s[1].nlabels, 2);
    assert_string_equal(prom_label_value(&g.s[1], "a"), "q\"uote\\\n");
    assert_string_equal(prom_label_value(&g.s[1], "b"), "");
    assert_null(prom_label_value(&g.s[1], "c"));
    assert_true(isinf(g.s[1].value) && g.s[1].value < 0);
    assert_true(isnan(g.s[2].value));
    free(path);
    tu_rmrf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_k8s_with_smi),
        cmocka_unit_test(test_k8s_with_series),
        cmocka_unit_test(test_k8s_openb_conventions),
        cmocka_unit_test(test_k8s_time_slicing),
        cmocka_unit_test(test_k8s_mig),
        cmocka_unit_test(test_smi_h100_capture),
        cmocka_unit_test(test_smi_hosts_new_profiles),
        cmocka_unit_test(test_smi_dotted_host),
        cmocka_unit_test(test_dcgm_scrapes),
        cmocka_unit_test(test_dcgm_mig_instances),
        cmocka_unit_test(test_dcgm_readme_sample),
        cmocka_unit_test(test_dcgm_real_pod),
        cmocka_unit_test(test_k8s_real_t4_node),
        cmocka_unit_test(test_promrange),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_all_or_nothing),
        cmocka_unit_test(test_migrates_version_4),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_promtext),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
