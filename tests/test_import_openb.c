/*
 * test_import_openb.c — the Alibaba GPU trace 2023 importer: a good node and
 * pod list with every field checked (FGD_NOTES §0 mapping, time rules),
 * detection by header, every malformed class rejected with file:line:col and
 * the store left as it was, and the real files when ../shared/data is there.
 */
#include "testutil.h"

#include "io/import.h"

/* Registered in import.c; import.h declares only the native importer. */
extern const importer import_openb;

#define FIX "tests/fixtures/openb/"
static const char *const good_nodes = FIX "openb_node_list_lab.csv";
static const char *const good_pods = FIX "openb_pod_list_lab.csv";
static const char *const short_pods = FIX "openb_pod_list_short.csv";

#define POD_HDR "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase," \
                "creation_time,deletion_time,scheduled_time\n"
#define NODE_HDR "sn,cpu_milli,memory_mib,gpu,model\n"

static int import_paths(store *st, const char *const *paths, size_t n, const char *name,
                        import_result *res, gp_err *err)
{
    import_opts opts = {0};
    opts.name = name;
    return tu_import(st, &import_openb, paths, n, &opts, res, err);
}

static void check_nodes(const cluster *c)
{
    assert_int_equal(c->nnodes, 4);
    const node *n = c->nodes;
    assert_string_equal(n[0].name, "lab-node-0");
    assert_string_equal(n[0].gpu_model, "P100");
    assert_int_equal(n[0].gpu_count, 2);
    assert_int_equal(n[0].cpu_milli, 64000);
    assert_int_equal(n[0].ram_mib, 262144);
    assert_string_equal(n[0].cpu_model, "Xeon-E5-2682v4");
    assert_string_equal(n[1].gpu_model, "G3");
    assert_int_equal(n[1].gpu_count, 8);
    /* gpu 0 with an empty model: a CPU-only node. */
    assert_string_equal(n[2].gpu_model, "");
    assert_int_equal(n[2].gpu_count, 0);
    assert_int_equal(n[2].cpu_milli, 32000);
    assert_int_equal(n[3].cpu_milli, 48000);          /* quoted field */
    assert_string_equal(n[3].gpu_model, "V100M32");
    assert_int_equal(cluster_gpu_total(c), 14);
}

/* Expected tasks of openb_pod_list_lab.csv after the FGD_NOTES §0 mapping. */
typedef struct pod_want {
    const char *name;
    int64_t cpu, ram;
    int num_gpu, gpu_milli;
    const char *spec, *qos;
    double arrival, duration;
} pod_want;

static const pod_want lab_pods[] = {
    {"pod-a", 12000, 16384, 1, 1000, "", "LS", 0, 12537496},
    {"pod-b", 6000, 12288, 1, 460, "T4|P100", "BE", 100, 870},          /* del − sched */
    {"pod-c", 4000, 8192, 0, 0, "", "BE", 200, 300},                    /* CPU-only: milli 0 */
    {"pod-d", 32000, 65536, 8, 1000, "V100M16|V100M32", "LS", 300, 590},
    {"pod-e", 8000, 30517, 1, 1000, "", "Burstable", 400, 1000},        /* clamp; pending */
    {"pod-f", 2000, 4096, 2, 1000, "G2", "Guaranteed", 500, 0},   /* whole GPUs; no deletion */
};

static void check_pods(const gp_trace *t)
{
    assert_int_equal(t->ntasks, sizeof lab_pods / sizeof *lab_pods);
    for (size_t i = 0; i < t->ntasks; i++) {
        const task *k = &t->tasks[i];
        const pod_want *w = &lab_pods[i];
        assert_string_equal(k->name, w->name);
        assert_int_equal(k->cpu_milli, w->cpu);
        assert_int_equal(k->ram_mib, w->ram);
        assert_int_equal(k->num_gpu, w->num_gpu);
        assert_int_equal(k->gpu_milli, w->gpu_milli);
        assert_string_equal(k->gpu_spec ? k->gpu_spec : "", w->spec);
        assert_string_equal(k->qos, w->qos);
        assert_double_equal(k->arrival_s, w->arrival, 0);
        assert_double_equal(k->duration_s, w->duration, 0);
        assert_double_equal(k->gpu_mem_gib, 0, 0);
        assert_double_equal(k->kappa, GP_DEFAULT_KAPPA, 0);
        assert_int_equal(k->util.len, 0);
    }
}

static void test_good_lists(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[2] = {good_nodes, good_pods};
    if (import_paths(st, paths, 2, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.clusters, 1);
    assert_int_equal(res.nodes, 4);
    assert_int_equal(res.traces, 1);
    assert_int_equal(res.tasks, 6);
    assert_string_equal(res.names, "cluster 'openb_node_list_lab', trace 'openb_pod_list_lab'");
    cluster *c;
    gp_trace *t;
    c = tu_cluster(st, "openb_node_list_lab");
    t = tu_trace(st, "openb_pod_list_lab");
    check_nodes(c);
    check_pods(t);
    assert_string_equal(t->source, good_pods);
    cluster_free(c);
    trace_free(t);
    tu_store_free(st, dir);
}

/* --name names both; the 5-column variant imports with times 0; order of
 * the paths does not matter. */
static void test_name_and_short_list(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *paths[2] = {short_pods, good_nodes};
    if (import_paths(st, paths, 2, "lab", &res, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(res.names, "cluster 'lab', trace 'lab'");
    gp_trace *t = tu_trace(st, "lab");
    assert_int_equal(t->ntasks, 3);
    assert_int_equal(t->tasks[1].num_gpu, 4);
    assert_int_equal(t->tasks[1].gpu_milli, 1000);
    assert_int_equal(t->tasks[2].num_gpu, 0);
    assert_int_equal(t->tasks[2].gpu_milli, 0);
    for (size_t i = 0; i < t->ntasks; i++) {
        assert_double_equal(t->tasks[i].arrival_s, 0, 0);
        assert_double_equal(t->tasks[i].duration_s, 0, 0);
        assert_string_equal(t->tasks[i].qos, "");
        assert_null(t->tasks[i].gpu_spec);
    }
    trace_free(t);
    cluster *c = tu_cluster(st, "lab");
    check_nodes(c);
    cluster_free(c);
    tu_store_free(st, dir);
}

/* Files saved by spreadsheet programs start with a UTF-8 byte-order mark. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    tu_write(dir, "nodes.csv", "\xEF\xBB\xBF" NODE_HDR "n0,1000,1024,1,T4\n");
    char *path = xasprintf("%s/nodes.csv", dir);
    const char *paths[1] = {path};
    assert_int_equal(import_openb.detect(paths, 1), 95);
    if (import_paths(st, paths, 1, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1);
    free(path);
    /* the pod list too, imported as without */
    char *bom = xasprintf("%s/bom.csv", dir);
    tu_copy_with_bom(good_pods, bom);
    const char *plain[1] = {good_pods}, *marked[1] = {bom};
    if (import_paths(st, plain, 1, "plain", &res, &err) ||
        import_paths(st, marked, 1, "bom", &res, &err))
        fail_msg("%s", err.msg);
    tu_assert_same_trace(st, "plain", "bom");
    free(bom);
    tu_store_free(st, dir);
}

static void test_detect(void **state)
{
    (void)state;
    const char *both[2] = {good_nodes, good_pods};
    const char *one[1] = {short_pods};
    const char *other[1] = {"tests/fixtures/native/lab/tasks.csv"};
    assert_ptr_equal(importer_detect(both, 2), &import_openb);
    assert_ptr_equal(importer_detect(one, 1), &import_openb);
    assert_int_equal(import_openb.detect(both, 2), 95);
    assert_int_equal(import_openb.detect(other, 1), 0);
    const char *mixed[2] = {good_nodes, "tests/fixtures/native/lab/tasks.csv"};
    assert_int_equal(import_openb.detect(mixed, 2), 0);
    assert_true(strlen(import_openb.summary) > 0 && strlen(import_openb.inputs) > 0);
}

/* A failed write after a successful one rolls back both: the cluster is
 * written, the trace name collides, and nothing stays. */
static void test_rollback_on_write_failure(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *pods[1] = {good_pods};
    assert_int_equal(import_paths(st, pods, 1, "dup", &res, &err), 0);
    const char *both[2] = {good_nodes, good_pods};
    assert_int_equal(import_paths(st, both, 2, "dup", &res, &err), -1);
    tu_assert_contains(err.msg, "a trace named 'dup' already exists");
    assert_int_equal(tu_count(st, STORE_CLUSTER), 0);
    assert_int_equal(tu_count(st, STORE_TRACE), 1);
    tu_store_free(st, dir);
}

/* Malformed cases: the file is written at run time and imported alone, or
 * with the good file of the other kind (one table each). */
static const tu_bad_case bad_alone[] = {
    {"missing column", "pods.csv", "name,cpu_milli,memory_mib,num_gpu\np,1,1,0\n",
     "pods.csv:1:1: missing column 'gpu_milli' in the header"},
    {"missing node column", "nodes.csv", "sn,cpu_milli,gpu,model\nn,1,0,\n",
     "nodes.csv:1:1: missing column 'memory_mib' in the header"},
    {"not an openb header", "x.csv", "a,b,c\n1,2,3\n",
     "x.csv:1:1: expected an openb node list header (sn,cpu_milli,memory_mib,gpu,model) "
     "or pod list header"},
    {"unknown header column", "nodes.csv",
     "sn,cpu_milli,memory_mib,gpu,model,colour\nn,1,1,0,,red\n",
     "nodes.csv:1:6: unknown column 'colour'"},
    {"non-numeric", "pods.csv", POD_HDR "p,lots,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:2:2: column 'cpu_milli': expected an integer, got 'lots'"},
    {"NaN", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,nan,5,0\n",
     "pods.csv:2:9: column 'creation_time': expected a finite number, got 'nan'"},
    {"inf", "nodes.csv", NODE_HDR "n,1,inf,0,\n",
     "nodes.csv:2:3: column 'memory_mib': expected an integer, got 'inf'"},
    {"inf time", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,0,inf,0\n",
     "pods.csv:2:10: column 'deletion_time': expected a finite number, got 'inf'"},
    {"negative", "pods.csv", POD_HDR "p,-1,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:2:2: column 'cpu_milli': -1 is out of range [0, 1000000000000]"},
    {"negative time", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,0,-5,0\n",
     "pods.csv:2:10: column 'deletion_time': -5 is out of range [0, 1e+10]"},
    {"negative share", "pods.csv", POD_HDR "p,1,1,1,-20,,LS,Running,0,5,0\n",
     "pods.csv:2:5: column 'gpu_milli': -20 for a pod with 1 GPUs (expected a share of "
     "1..1000 milli-GPU)"},
    {"huge count", "pods.csv", POD_HDR "p,1,1,99,1000,,LS,Running,0,5,0\n",
     "pods.csv:2:4: column 'num_gpu': 99 is out of range [0, 16]"},
    {"huge integer", "pods.csv", POD_HDR "p,1,1,1,99999999999999999999999,,LS,Running,0,5,0\n",
     "pods.csv:2:5: column 'gpu_milli': expected an integer, got '99999999999999999999999'"},
    {"huge node gpus", "nodes.csv", NODE_HDR "n,1,1,64,T4\n",
     "nodes.csv:2:4: column 'gpu': 64 is out of range [0, 16]"},
    {"empty file", "pods.csv", "", "pods.csv:1:1: empty file (expected a header line)"},
    {"node header only", "nodes.csv", NODE_HDR,
     "nodes.csv:2:1: no rows (expected node rows after the header)"},
    {"wrong encoding in nodes", "nodes.csv", NODE_HDR "n,1,1,1,T\xff\n",
     "nodes.csv:2:10: invalid UTF-8 byte 0xff"},
    {"deleted before scheduled", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,10,20,30\n",
     "pods.csv:2:10: column 'deletion_time': 20 is before scheduled_time 30 (expected a "
     "non-negative duration)"},
    {"scheduled before created", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,50,90,40\n",
     "pods.csv:2:11: column 'scheduled_time': 40 is before creation_time 50"},
    {"pending deleted before created", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Pending,50,40,\n",
     "pods.csv:2:10: column 'deletion_time': 40 is before creation_time 50"},
    {"empty creation time", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Pending,,40,\n",
     "pods.csv:2:9: column 'creation_time': expected seconds, got an empty field"},
    {"bad gpu_spec", "pods.csv", POD_HDR "p,1,1,1,500,T4||P100,LS,Running,0,5,0\n",
     "pods.csv:2:6: column 'gpu_spec': expected GPU model names separated by '|', got "
     "'T4||P100'"},
    {"duplicate pod", "pods.csv",
     POD_HDR "p,1,1,0,0,,LS,Running,0,5,0\nq,1,1,0,0,,LS,Running,0,5,0\n"
             "p,1,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:4:1: duplicate pod name 'p' (first on line 2; expected unique names)"},
    {"empty pod name", "pods.csv", POD_HDR ",1,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:2:1: column 'name': expected a pod name"},
    {"unknown gpu model", "nodes.csv", NODE_HDR "n,1,1,2,Z9\n",
     "nodes.csv:2:5: column 'model': unknown GPU model 'Z9' (expected a GPU profile in the "
     "database"},
    {"gpus without model", "nodes.csv", NODE_HDR "n,1,1,2,\n",
     "nodes.csv:2:5: column 'model': expected a GPU model for 2 GPUs"},
    {"unterminated quote", "pods.csv", POD_HDR "\"p,1,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:2:1: unterminated quoted field"},
};

/* Pod lists imported with the good node list. */
static const tu_bad_case bad_with_nodes[] = {
    {"truncated row", "pods.csv", POD_HDR "p,1,1,1,1000,,LS,Running,0,5\n",
     "pods.csv:2:11: row has 10 fields, expected 11 (truncated row?)"},
    {"extra column", "pods.csv", POD_HDR "p,1,1,1,1000,,LS,Running,0,5,0,surprise\n",
     "pods.csv:2:12: row has 12 fields, expected 11 (extra column?)"},
    {"header only", "pods.csv", POD_HDR,
     "pods.csv:2:1: no rows (expected pod rows after the header)"},
    {"wrong encoding", "pods.csv", POD_HDR "p\xe9,1,1,0,0,,LS,Running,0,5,0\n",
     "pods.csv:2:2: invalid UTF-8 byte 0xe9 (expected UTF-8 text)"},
};

/* Node lists (and a second pod list) imported with the good pod list. */
static const tu_bad_case bad_with_pods[] = {
    {"truncated node row", "nodes.csv", NODE_HDR "n0,1000,1,2\n",
     "nodes.csv:2:5: row has 4 fields, expected 5 (truncated row?)"},
    {"duplicate node", "nodes.csv", NODE_HDR "n,1,1,0,\nn,1,1,0,\n",
     "nodes.csv:3:1: duplicate node name 'n' (first on line 2"},
    {"second pod list", "pods.csv", POD_HDR "p,1,1,0,0,,LS,Running,0,5,0\n",
     "a second pod list (expected at most one node list and one pod list)"},
};

/* The case's file, with the good list of the other kind (arg) if any. */
static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    const char *paths[2] = {r->path, r->arg};
    import_result res;
    return import_paths(st, paths, r->arg ? 2 : 1, NULL, &res, err);
}

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, bad_alone, import_bad, NULL);
    tu_run_bad_cases(NULL, bad_with_nodes, import_bad, good_nodes);
    tu_run_bad_cases(NULL, bad_with_pods, import_bad, good_pods);
}

static void test_bad_paths(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    const char *three[3] = {good_nodes, good_pods, short_pods};
    assert_int_equal(import_paths(st, three, 3, NULL, &res, &err), -1);
    tu_assert_contains(err.msg, "openb: expected a node list and/or a pod list CSV, got 3");
    const char *missing[1] = {"tests/fixtures/openb/nope.csv"};
    assert_int_equal(import_paths(st, missing, 1, NULL, &res, &err), -1);
    tu_assert_contains(err.msg, "nope.csv: cannot open");
    const char *d[1] = {dir};
    assert_int_equal(import_paths(st, d, 1, NULL, &res, &err), -1);
    tu_assert_contains(err.msg, "is a directory");
    assert_int_equal(tu_count(st, STORE_TRACE), 0);
    tu_store_free(st, dir);
}

/* Task classes of a trace, as FGD_NOTES §0 counts them. */
static void count_classes(const gp_trace *t, size_t cls[6])
{
    memset(cls, 0, 6 * sizeof *cls);
    for (size_t i = 0; i < t->ntasks; i++) {
        const task *k = &t->tasks[i];
        if (k->num_gpu == 0)
            cls[0]++;
        else if (k->gpu_milli < 1000)
            cls[1]++;
        else
            cls[k->num_gpu == 1 ? 2 : k->num_gpu == 2 ? 3 : k->num_gpu == 4 ? 4 : 5]++;
    }
}

static void test_real_data(void **state)
{
    (void)state;
    const char *data = tu_shared_data("alibaba-gpu-2023/openb_node_list_gpu_node.csv");
    if (!data)
        skip();
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    import_result res;
    char *nodes = xasprintf("%s/alibaba-gpu-2023/openb_node_list_gpu_node.csv", data);
    char *pods = xasprintf("%s/alibaba-gpu-2023/openb_pod_list_default.csv", data);
    const char *paths[2] = {nodes, pods};
    if (import_paths(st, paths, 2, NULL, &res, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(res.nodes, 1213);
    assert_int_equal(res.tasks, 8152);
    cluster *c;
    gp_trace *t;
    c = tu_cluster(st, "openb_node_list_gpu_node");
    assert_int_equal(cluster_gpu_total(c), 6212);           /* FGD_NOTES §0 */
    int64_t cpu = 0;
    for (size_t i = 0; i < c->nnodes; i++)
        cpu += c->nodes[i].cpu_milli;
    assert_int_equal(cpu, 107018000);
    cluster_free(c);
    t = tu_trace(st, "openb_pod_list_default");
    size_t cls[6];
    count_classes(t, cls);
    const size_t want[6] = {1088, 3078, 3911, 16, 15, 44};  /* FGD_NOTES §0 */
    for (int i = 0; i < 6; i++)
        assert_int_equal(cls[i], want[i]);
    trace_free(t);
    free(nodes);
    free(pods);

    /* The other lists: counts reported, the all-node list adds CPU-only nodes. */
    static const char *const others[] = {"openb_node_list_all_node", "openb_pod_list_cpu050",
                                         "openb_pod_list_gpushare40",
                                         "openb_pod_list_gpuspec10",
                                         "openb_pod_list_multigpu20"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        char *p = xasprintf("%s/alibaba-gpu-2023/%s.csv", data, others[i]);
        const char *one[1] = {p};
        if (import_paths(st, one, 1, NULL, &res, &err))
            fail_msg("%s: %s", others[i], err.msg);
        printf("%s: %zu nodes, %zu tasks\n", others[i], res.nodes, res.tasks);
        free(p);
    }
    assert_int_equal(tu_count(st, STORE_TRACE), 5);
    assert_int_equal(tu_count(st, STORE_CLUSTER), 2);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_lists),
        cmocka_unit_test(test_name_and_short_list),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_rollback_on_write_failure),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_real_data),
    };
    return cmocka_run_group_tests_name("import_openb", tests, NULL, NULL);
}
