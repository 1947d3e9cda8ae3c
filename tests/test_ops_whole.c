/*
 * test_ops_whole.c — an operator's snapshot kept whole and true (io layer:
 * the k8s, smi, dcgm and promrange importers and opsnap.c), on
 * tests/fixtures/ops/whole written in the shapes kubectl, nvidia-smi,
 * dcgm-exporter and Prometheus' query_range document:
 *   names up to Kubernetes' 253 bytes kept whole (two Kubeflow workers
 *   stay two pods, a long GKE node name imports), longer ones refused;
 *   nvidia-smi files matched to nodes by the node name in the file name,
 *   an unmatched file refused naming it, its name and the nodes;
 *   one task per pod on all its GPUs, duplicates refused with both places;
 *   range queries placed on their step by timestamp, gaps kept;
 *   readings past plausible bounds refused, the bound in the message;
 *   input quoted in messages escaped;
 *   every format's import exported and imported again equal (readings and
 *   an idle cluster's empty snapshot included).
 */
#include "testutil.h"
#include "ops_roundtrip.h"

#include "io/import.h"

#include <math.h>

extern const importer import_k8s;
extern const importer import_smi;
extern const importer import_dcgm;
extern const importer import_promrange;

#define W "tests/fixtures/ops/whole/"
#define KF_NS "kubeflow-user-example-com/"
#define KF_POD "bert-finetune-run-20261128-lr3e-5-bs32-warmup500-seed42-ablation-tokenizer-v2"
#define KF_NODE "gke-kubeflow-training-a100-highgpu-pool-7f3c9d2e-k8vx.us-central1-a.c." \
                "ml-platform-prod-381204.internal"

/* --- names ---------------------------------------------------------------------- */

/* Two Kubeflow workers whose names share their first 100 bytes stay two
 * pods with their own series, on a node whose name is 102 bytes. */
static void test_long_names_kept(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {W "nodes.json", W "pods.json", W "kubeflow-util.json"};
    if (tu_import_as(st, &import_k8s, paths, 3, "kf", &res, &err))
        fail_msg("%s", err.msg);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "kf", &sn, &err), 0);
    assert_int_equal(sn->tasks->ntasks, 2);
    const task *w0 = &sn->tasks->tasks[tu_find_task(sn->tasks, KF_NS KF_POD "-worker-0")];
    const task *w1 = &sn->tasks->tasks[tu_find_task(sn->tasks, KF_NS KF_POD "-worker-1")];
    assert_double_equal(w0->util.pct[0], 10, 1e-6);
    assert_double_equal(w1->util.pct[0], 90, 1e-6);
    snapshot_free(sn);
    cluster *cl;
    assert_int_equal(store_get_cluster(st, "kf", &cl, &err), 0);
    assert_string_equal(cl->nodes[0].name, KF_NODE);
    cluster_free(cl);

    /* the range query alone: two tasks of one GPU, not one of two at 50 % */
    const char *range[] = {W "kubeflow-util.json"};
    if (tu_import_as(st, &import_promrange, range, 1, "kf-series", &res, &err))
        fail_msg("%s", err.msg);
    gp_trace *tr;
    assert_int_equal(store_get_trace(st, "kf-series", &tr, &err), 0);
    assert_int_equal(tr->ntasks, 2);
    assert_int_equal(tr->tasks[tu_find_task(tr, KF_NS KF_POD "-worker-1")].num_gpu, 1);
    trace_free(tr);
    tu_store_free(st, dir);
}

/* A name over 253 bytes is refused with the limit, never cut. */
static void test_names_over_limit_refused(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char pod[300];
    memset(pod, 'p', 260);
    pod[260] = '\0';
    char *dcgm = xasprintf("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",namespace=\"ns\",pod=\"%.251s\"} 5\n",
                           pod);
    gp_err err = {{0}};
    assert_int_equal(tu_import_text(st, &import_dcgm, "n1.prom", dcgm, NULL, 0, "t", &err), -1);
    tu_assert_contains(err.msg, "is 254 bytes; a name is at most 253");
    free(dcgm);
    dcgm = xasprintf("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",namespace=\"ns\",pod=\"%.250s\"} 5\n", pod);
    if (tu_import_text(st, &import_dcgm, "n1.prom", dcgm, NULL, 0, "t", &err))
        fail_msg("%s", err.msg);
    free(dcgm);
    char *range = xasprintf("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
                            "\"result\":[{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\","
                            "\"namespace\":\"ns\",\"pod\":\"%s\"},\"values\":[[1,\"5\"],"
                            "[2,\"6\"]]}]}}\n", pod);
    assert_int_equal(tu_import_text(st, &import_promrange, "r.json", range, NULL, 0, "t", &err),
                     -1);
    tu_assert_contains(err.msg, "a name is at most 253");
    free(range);
    tu_store_free(st, dir);
}

/* --- nvidia-smi files to nodes ------------------------------------------------------ */

static void test_smi_file_name_contains_node(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {W "nodes-ab.json", W "nvidia-smi_gpu-a-0.csv"};
    if (tu_import_as(st, &import_k8s, paths, 2, "lab", &res, &err))
        fail_msg("%s", err.msg);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "lab", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 2);
    assert_double_equal(sn->readings[0].power_w, 312.45, 1e-9);
    snapshot_free(sn);

    /* --node-of says which node a file is of, whatever its name */
    const char *node_of[] = {W "nvidia-smi_gpu-a-0.csv=gpu-a-1"};
    import_opts opts = {0};
    opts.name = "told";
    opts.node_of = node_of;
    opts.nnode_of = 1;
    if (import_run(st, &import_k8s, paths, 2, &opts, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(store_get_snapshot(st, "told", &sn, &err), 0);
    assert_int_equal(sn->nreadings, 2);
    assert_int_equal(sn->readings[0].node, 1);
    snapshot_free(sn);

    /* a file naming no node: an error naming it, its name and the nodes */
    const char *csv = "index, name, utilization.gpu [%]\n0, NVIDIA A100-SXM4-40GB, 5 %\n";
    const char *lists[] = {W "nodes-ab.json"};
    assert_int_equal(tu_import_text(st, &import_k8s, "smi_b-7.csv", csv, lists, 1, "t", &err), -1);
    tu_assert_contains(err.msg, "smi_b-7.csv: no node is named 'smi_b-7'");
    tu_assert_contains(err.msg, "the nodes are gpu-a-0, gpu-a-1");
    tu_store_free(st, dir);
}

/* --- one task per pod ------------------------------------------------------------------ */

static void test_dcgm_pod_on_two_gpus(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {W "gpu-a-1.prom"};
    if (tu_import_as(st, &import_dcgm, paths, 1, "d", &res, &err))
        fail_msg("%s", err.msg);
    snapshot *sn;
    assert_int_equal(store_get_snapshot(st, "d", &sn, &err), 0);
    assert_int_equal(sn->tasks->ntasks, 1);
    assert_string_equal(sn->tasks->tasks[0].name, "ml/llama-ft-master-0");
    assert_int_equal(sn->tasks->tasks[0].num_gpu, 2);
    assert_int_equal(sn->nrows, 2);
    assert_int_equal(sn->rows[0].gpu_milli + sn->rows[1].gpu_milli, 2000);
    snapshot_free(sn);

    /* the same pod in a second scrape of another node: refused, both places */
    const char *other = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"gpu-a-0\",namespace=\"ml\","
                        "pod=\"llama-ft-master-0\"} 7\n";
    assert_int_equal(tu_import_text(st, &import_dcgm, "gpu-a-0.prom", other, paths, 1, "t",
                                    &err), -1);
    tu_assert_contains(err.msg, "gpu-a-0.prom:1:1: 'ml/llama-ft-master-0' is on two nodes "
                       "(first at " W "gpu-a-1.prom:3:1;");
    tu_store_free(st, dir);
}

#define POD_ITEM(name) \
    "  {\"kind\": \"Pod\", \"metadata\": {\"name\": \"" name "\", \"namespace\": \"ml\"},\n" \
    "   \"spec\": {\"nodeName\": \"gpu-a-0\", \"containers\": [{\"resources\": {}}]},\n" \
    "   \"status\": {\"phase\": \"Running\"}}"

static void test_k8s_duplicate_pod(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    const char *text = "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
                       POD_ITEM("etl-7") ",\n" POD_ITEM("serve-2") ",\n" POD_ITEM("etl-7")
                       "]}\n";
    const char *lists[] = {W "nodes-ab.json"};
    assert_int_equal(tu_import_text(st, &import_k8s, "pods.json", text, lists, 1, "t", &err), -1);
    tu_assert_contains(err.msg, "pods.json:8:40: pod 'ml/etl-7' is listed twice (first at ");
    tu_assert_contains(err.msg, "pods.json:2:40;");
    tu_store_free(st, dir);
}

static void test_promrange_duplicate_series(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    const char *text =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
        "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"Hostname\":\"h\",\"gpu\":\"0\","
        "\"pod\":\"p\"},\"values\":[[60,\"5\"],[120,\"6\"]]},\n"
        "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"Hostname\":\"h\",\"gpu\":\"0\","
        "\"pod\":\"p\"},\"values\":[[60,\"5\"],[120,\"6\"]]}]}}\n";
    assert_int_equal(tu_import_text(st, &import_promrange, "r.json", text, NULL, 0, "t", &err), -1);
    tu_assert_contains(err.msg, "r.json:3:1: data.result[1]: a second utilization series of "
                       "'p' on the same GPU (first at ");
    tu_assert_contains(err.msg, "r.json:2:1;");
    tu_store_free(st, dir);
}

/* --- range queries on their step ------------------------------------------------------- */

static void test_promrange_on_timestamps(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[] = {W "range-gap.json"};
    if (tu_import_as(st, &import_promrange, paths, 1, "g", &res, &err))
        fail_msg("%s", err.msg);
    gp_trace *tr;
    assert_int_equal(store_get_trace(st, "g", &tr, &err), 0);
    const task *etl = &tr->tasks[tu_find_task(tr, "ml/etl-7")];
    assert_double_equal(etl->util.period_s, 60, 0);
    assert_int_equal(etl->util.len, 7);             /* 0..360 s: the gap kept */
    assert_double_equal(etl->util.pct[1], 30, 1e-6);
    assert_double_equal(etl->util.pct[3], 30, 1e-6);        /* the gap holds */
    assert_double_equal(etl->util.pct[5], 70, 1e-6);        /* at 300 s, not 120 s */
    assert_double_equal(etl->duration_s, 420, 0);
    const task *serve = &tr->tasks[tu_find_task(tr, "ml/serve-2")];
    assert_double_equal(serve->arrival_s, 120, 0);
    trace_free(tr);

    /* a first gap of 1.76e9 s is not the step: the step is 60 s and the
     * series would span 29 million of them */
    const char *text =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
        "{\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"pod\":\"p\"},"
        "\"values\":[[0,\"5\"],[1764288000,\"6\"],[1764288060,\"7\"]]}]}}\n";
    assert_int_equal(tu_import_text(st, &import_promrange, "r.json", text, NULL, 0, "t", &err), -1);
    tu_assert_contains(err.msg, "steps of 60 s");
    tu_store_free(st, dir);
}

/* --- bounds ---------------------------------------------------------------------------- */

static void test_reading_bounds(void **state)
{
    (void)state;
    static const struct { const importer *imp; const char *file, *text, *expect; } cases[] = {
        {&import_smi, "h.csv", "index, name, memory.total [MiB]\n0, NVIDIA X, 1e308 MiB\n",
         "h.csv:2:3: expected memory.total 0..1048576 MiB (1 TiB per GPU), got 1e+308"},
        {&import_smi, "h.csv", "index, name, power.limit [W]\n0, NVIDIA X, 1e308 W\n",
         "h.csv:2:3: expected power.limit 0..2000 W, got 1e+308"},
        {&import_smi, "h.csv", "index, name, clocks.max.sm [MHz]\n0, NVIDIA X, 1e12 MHz\n",
         "h.csv:2:3: expected clocks.max.sm 0..5000 MHz, got 1e+12"},
        {&import_smi, "h.csv", "index, name, power.draw [W]\n0, NVIDIA X, 2500 W\n",
         "expected power.draw 0..2000 W, got 2500"},
        {&import_dcgm, "n.prom", "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 1e308\n",
         "n.prom:1:34: expected DCGM_FI_DEV_POWER_USAGE 0..2000 W, got 1e+308"},
        {&import_dcgm, "n.prom", "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\"} 1e12\n",
         "expected DCGM_FI_DEV_SM_CLOCK 0..5000 MHz"},
        {&import_dcgm, "n.prom", "DCGM_FI_DEV_FB_USED{gpu=\"0\"} 2e6\n",
         "expected DCGM_FI_DEV_FB_USED 0..1048576 MiB"},
    };
    char *dir;
    store *st = tu_store_new(&dir);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gp_err err = {{0}};
        if (tu_import_text(st, cases[i].imp, cases[i].file, cases[i].text, NULL, 0, "t", &err) == 0)
            fail_msg("case %zu: accepted", i);
        if (!strstr(err.msg, cases[i].expect))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].expect);
    }
    tu_store_free(st, dir);
}

/* --- escaping --------------------------------------------------------------------------- */

static void test_messages_escaped(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    const char *nodes = "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
                        " {\"kind\": \"Node\", \"metadata\": {\"name\": \"n\\u001b[2J\"}},\n"
                        " {\"kind\": \"Node\", \"metadata\": {\"name\": \"n\\u001b[2J\"}}]}\n";
    assert_int_equal(tu_import_text(st, &import_k8s, "k.json", nodes, NULL, 0, "t", &err), -1);
    tu_assert_contains(err.msg, "node 'n\\x1b[2J' is listed twice");
    assert_null(strchr(err.msg, '\x1b'));
    const char *prom = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"h\\n\x1b]0;x\x07\"} 1\n"
                       "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"h\\n\x1b]0;x\x07\"} 2\n";
    assert_int_equal(tu_import_text(st, &import_dcgm, "n.prom", prom, NULL, 0, "t", &err), -1);
    tu_assert_contains(err.msg, "on h\\n\\x1b]0;x\\x07 is given twice");
    /* what an import made, named back to the terminal */
    import_result res;
    const char *paths[] = {W "gpu-a-1.prom"};
    assert_int_equal(tu_import_as(st, &import_dcgm, paths, 1, "a\x1b[31mb", &res, &err), 0);
    tu_assert_contains(res.names, "snapshot 'a\\x1b[31mb'");
    assert_null(strchr(res.names, '\x1b'));
    tu_store_free(st, dir);
}

/* --- round trips ----------------------------------------------------------------------- */

/* Imports paths as "rt"; the snapshot (when snap) and trace named (when
 * not NULL) exported and imported again are what they were. */
static void round_trip(const importer *imp, const char *const *paths, size_t n, int snap,
                       const char *trace)
{
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    if (tu_import_as(st, imp, paths, n, "rt", &res, &err))
        fail_msg("%s: %s", paths[0], err.msg);
    char why[1200];
    char *out = tu_tmpdir();
    char *sdir = xasprintf("%s/snapshot", out), *tdir = xasprintf("%s/trace", out);
    if (snap && ops_rt_snapshot(st, "rt", sdir, why, sizeof why))
        fail_msg("%s: snapshot: %s", paths[0], why);
    if (trace && ops_rt_trace(st, trace, tdir, why, sizeof why))
        fail_msg("%s: trace %s: %s", paths[0], trace, why);
    free(sdir);
    free(tdir);
    tu_rmrf(out);
    free(out);
    tu_store_free(st, dir);
}

#define OPS "tests/fixtures/ops/"

static void test_round_trips(void **state)
{
    (void)state;
    const char *k8s[] = {OPS "nodes.json", OPS "pods.json", OPS "gpu-a100-0.csv",
                         OPS "hami-workshop.csv", OPS "util-range.json"};
    round_trip(&import_k8s, k8s, 5, 1, "rt-pending");
    const char *kf[] = {W "nodes.json", W "pods.json", W "kubeflow-util.json",
                        W "nvidia-smi_gpu-a-0.csv", W "gpu-a-1.prom"};
    round_trip(&import_k8s, kf, 5, 1, NULL);
    const char *smi[] = {OPS "h100-node.csv", OPS "h100-node.apps.csv"};
    round_trip(&import_smi, smi, 2, 1, NULL);
    const char *smi_hosts[] = {OPS "smi-hosts.csv", OPS "box-1.apps.csv"};
    round_trip(&import_smi, smi_hosts, 2, 1, NULL);
    const char *dcgm[] = {OPS "ip-100-64-147-149.prom", OPS "i-030791dc5a37cd257.prom",
                          W "gpu-a-1.prom"};
    round_trip(&import_dcgm, dcgm, 3, 1, NULL);
    const char *range[] = {OPS "util-range.json"};
    round_trip(&import_promrange, range, 1, 0, "rt");
    const char *gap[] = {W "range-gap.json"};
    round_trip(&import_promrange, gap, 1, 0, "rt");
    /* an idle cluster: a snapshot without tasks, its readings kept */
    const char *idle[] = {W "nvidia-smi_gpu-a-0.csv"};
    round_trip(&import_smi, idle, 1, 1, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_names_kept),
        cmocka_unit_test(test_names_over_limit_refused),
        cmocka_unit_test(test_smi_file_name_contains_node),
        cmocka_unit_test(test_dcgm_pod_on_two_gpus),
        cmocka_unit_test(test_k8s_duplicate_pod),
        cmocka_unit_test(test_promrange_duplicate_series),
        cmocka_unit_test(test_promrange_on_timestamps),
        cmocka_unit_test(test_reading_bounds),
        cmocka_unit_test(test_messages_escaped),
        cmocka_unit_test(test_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
