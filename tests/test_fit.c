/*
 * test_fit.c — the one test of whether a task can run on a cluster at all
 * (core layer, src/core/fit.c): each resource that counts (GPU model, GPU
 * count, GPU memory per device, vCPU, host memory) refuses a task that
 * asks for more than an empty server has, and the trace report counts the
 * tasks no server takes by what the nearest server lacks.
 */
#include "testutil.h"

#include "core/fit.h"

static node server(const char *gpu, int ngpus, int64_t cpu_milli, int64_t ram_mib)
{
    node n;
    memset(&n, 0, sizeof n);
    snprintf(n.name, sizeof n.name, "s");
    snprintf(n.gpu_model, sizeof n.gpu_model, "%s", gpu);
    n.gpu_count = ngpus;
    n.cpu_milli = cpu_milli;
    n.ram_mib = ram_mib;
    return n;
}

static void test_fit_server(void **state)
{
    (void)state;
    gpu_profile v100 = {.name = "V100", .mem_gib = 16};
    static const struct {
        int num_gpu, gpu_milli;
        double mem_gib;
        int64_t cpu_milli, ram_mib;
        const char *spec;
        fit_lack want;
    } cases[] = {
        {1, 1000, 8, 4000, 1024, NULL, FIT_OK},
        {1, 500, 8, 4000, 1024, NULL, FIT_OK},          /* a share fits an empty GPU */
        {1, 1000, 8, 4000, 1024, "A100-40GB", FIT_GPU_MODEL},
        {1, 1000, 8, 4000, 1024, "A100-40GB|V100", FIT_OK},
        {8, 1000, 8, 4000, 1024, NULL, FIT_GPU_COUNT},
        {1, 1000, 20, 4000, 1024, NULL, FIT_GPU_MEM},
        {1, 1000, 16, 4000, 1024, NULL, FIT_OK},        /* exactly the GPU's memory */
        {1, 1000, 8, 64000, 1024, NULL, FIT_CPU},
        {1, 1000, 8, 4000, 1 << 20, NULL, FIT_RAM},
        {0, 0, 0, 64000, 1024, NULL, FIT_CPU},          /* CPU-only */
        {0, 0, 0, 1000, 1024, NULL, FIT_OK},
    };
    node n = server("V100", 4, 32000, 256 * 1024);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        task tk;
        task_init(&tk);
        tk.num_gpu = cases[i].num_gpu;
        tk.gpu_milli = cases[i].gpu_milli;
        tk.gpu_mem_gib = cases[i].mem_gib;
        tk.cpu_milli = cases[i].cpu_milli;
        tk.ram_mib = cases[i].ram_mib;
        tk.gpu_spec = (char *)cases[i].spec;
        fit_lack got = fit_task_server(&tk, &n, &v100);
        if (got != cases[i].want)
            fail_msg("case %zu: %s, wanted %s", i, fit_lack_name(got),
                     fit_lack_name(cases[i].want));
    }
}

/* A trace of three tasks on two servers: one fits the larger server, one
 * wants more vCPU than either has, one a model neither carries. */
static void test_fit_report(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("lab");
    node a = server("V100", 2, 8000, 65536), b = server("V100", 8, 32000, 65536);
    cluster_add_node(cl, &a);
    cluster_add_node(cl, &b);
    gp_trace *tr = trace_new("t");
    static const struct {
        const char *name;
        int num_gpu;
        int64_t cpu;
        const char *spec;
    } tasks[] = {{"wide", 4, 16000, NULL}, {"cpu", 1, 64000, NULL}, {"model", 1, 1000, "H100"}};
    for (size_t i = 0; i < 3; i++) {
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "%s", tasks[i].name);
        tk.num_gpu = tasks[i].num_gpu;
        tk.cpu_milli = tasks[i].cpu;
        tk.gpu_spec = (char *)tasks[i].spec;
        trace_add_task(tr, &tk);
    }
    fit_report r;
    assert_int_equal(fit_trace_cluster(tr, cl, cat, &r), 2);
    assert_int_equal(r.by_lack[FIT_CPU], 1);
    assert_int_equal(r.by_lack[FIT_GPU_MODEL], 1);
    char text[256];
    fit_report_text(&r, tr, cl, text, sizeof text);
    if (!strstr(text, "2 of 3 tasks fit no server of lab") || !strstr(text, "cpu (vCPU)") ||
        !strstr(text, "model (GPU model)"))
        fail_msg("report: %s", text);
    trace_free(tr);
    cluster_free(cl);
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_server),
        cmocka_unit_test(test_fit_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
