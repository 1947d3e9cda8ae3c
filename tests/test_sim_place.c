/*
 * test_sim_place.c — the sim layer's placement step (sim/sim_place.h), the
 * one the simulator, the inflation experiment and the solve heuristics
 * share, driven by a scripted policy: a placement allocated under the id
 * given; nothing fits on a bounded pool; an unbounded pool opens a copy of
 * the first server that can host the task (the hook told of it) and asks
 * again, but never for a CPU-only task; an answer that breaks the contract
 * is refused with a message and nothing allocated; the explanation is
 * reset before every ask; and which server could host a task at all.
 */
#include "testutil.h"

#include "sim/sim_place.h"

/* The scripted policy: the first free GPU of the last node, or nothing
 * when script says so; `bad` answers with a GPU of another node. */
typedef struct script {
    int asks;
    int refuse_first;           /* 1: "nothing fits" at the first ask */
    int bad;
} script;

static script the_script;

static int scripted_place(const policy_ctx *ctx, const double *params, int ti, placement *out,
                          explain *ex)
{
    (void)params;
    (void)ti;
    the_script.asks++;
    if (ex) {
        assert_string_equal(ex->summary, "");   /* reset before the ask */
        snprintf(ex->summary, sizeof ex->summary, "ask %d", the_script.asks);
    }
    if (the_script.refuse_first && the_script.asks == 1)
        return 0;
    const cstate *cs = ctx->cs;
    int n = (int)cs->nnodes - 1;
    out->node = n;
    out->ngpus = 1;
    for (int g = cs->nodes[n].gpu0; g < cs->nodes[n].gpu0 + cs->nodes[n].ngpus; g++)
        if (cs->gpus[g].ntasks == 0) {
            out->gpus[0] = g;
            if (the_script.bad)
                out->node = n > 0 ? 0 : 1;
            return 1;
        }
    return 0;
}

static const policy_ops scripted = {
    .name = "scripted", .family = FAMILY_CORRELATION, .place = scripted_place,
};

typedef struct opened_log {
    int calls, node;
    size_t first_gpu;
} opened_log;

static void on_opened(void *owner, int ni, size_t first_gpu)
{
    opened_log *o = owner;
    o->calls++;
    o->node = ni;
    o->first_gpu = first_gpu;
}

typedef struct step_case {
    const char *what;
    int unbounded, refuse_first, bad, cpu_only;
    sim_place_result want;
    int want_asks, want_opened;
} step_case;

static const step_case cases[] = {
    {"placed at the first ask", 0, 0, 0, 0, SIM_PLACE_PLACED, 1, 0},
    {"bounded: nothing fits", 0, 1, 0, 0, SIM_PLACE_NO_ROOM, 1, 0},
    {"unbounded: a server opened, asked again", 1, 1, 0, 0, SIM_PLACE_PLACED, 2, 1},
    {"unbounded, CPU-only: no server opened", 1, 1, 0, 1, SIM_PLACE_NO_ROOM, 1, 0},
    {"an answer off the contract", 0, 0, 1, 0, SIM_PLACE_INVALID, 1, 0},
};

static void test_step(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const step_case *k = &cases[c];
        catalog *cat = catalog_new();
        catalog_add_builtin(cat);
        cluster *cl = cluster_new("c");
        tu_add_node(cl, "a", "V100", 2);
        tu_add_node(cl, "b", "V100", 2);
        gp_trace *tr = trace_new("t");
        task tk;
        task_init(&tk);
        strcpy(tk.name, "x");
        tk.num_gpu = k->cpu_only ? 0 : 1;
        tk.gpu_milli = k->cpu_only ? 0 : 1000;
        tk.gpu_mem_gib = 4;
        tk.cpu_milli = 1000;
        tk.ram_mib = 1024;
        trace_add_task(tr, &tk);
        task_release(&tk);
        gp_err err = {{0}};
        cstate *cs = cstate_new(cl, cat, &err);
        assert_non_null(cs);
        policy_spec sp;
        memset(&sp, 0, sizeof sp);
        sp.ops = &scripted;
        explain ex;
        explain_init(&ex, NULL, 0);
        snprintf(ex.summary, sizeof ex.summary, "stale");
        opened_log log = {0, -1, 0};
        sim_placer p;
        sim_place_init(&p, &sp, cs, cl, cat, tr, NULL);
        p.unbounded = k->unbounded;
        p.ex = &ex;
        p.opened = on_opened;
        p.owner = &log;
        the_script = (script){0, k->refuse_first, k->bad};
        placement pl;
        sim_place_result r = sim_place_task(&p, 0, 7, &pl, &err);
        if (r != k->want)
            fail_msg("%s: result %d, wanted %d (%s)", k->what, r, k->want, err.msg);
        assert_int_equal(the_script.asks, k->want_asks);
        assert_int_equal(log.calls, k->want_opened);
        assert_int_equal(cs->nnodes, 2 + (size_t)k->want_opened);
        if (k->want_opened) {
            assert_int_equal(log.node, 2);          /* the copy of server a */
            assert_int_equal(log.first_gpu, 4);
            assert_int_equal(pl.node, 2);
        }
        int busy = 0;
        for (size_t g = 0; g < cs->ngpus; g++)
            for (int i = 0; i < cs->gpus[g].ntasks; i++) {
                assert_int_equal(cs->gpus[g].tasks[i], 7);   /* the id given */
                busy++;
            }
        assert_int_equal(busy, r == SIM_PLACE_PLACED);
        if (r == SIM_PLACE_INVALID)
            assert_true(err.msg[0] != '\0');
        explain_free(&ex);
        cstate_free(cs);
        trace_free(tr);
        cluster_free(cl);
        catalog_free(cat);
    }
}

typedef struct host_case {
    const char *what;
    int num_gpu;
    double mem_gib;
    const char *allow;          /* the task's allowed GPU models ("" = any) */
    int want;
} host_case;

static const host_case host_cases[] = {
    {"the first that fits", 1, 10, "", 0},
    {"memory only the second has", 1, 24, "", 1},
    {"more GPUs than the first has", 4, 10, "", 1},
    {"a model only the second is", 1, 10, "A100-40GB", 1},
    {"too much memory everywhere", 1, 200, "", -1},
    {"CPU-only", 0, 0, "", 0},
};

static void test_host(void **state)
{
    (void)state;
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("c");
    tu_add_node(cl, "t4", "T4", 2);             /* 16 GiB */
    tu_add_node(cl, "a100", "A100-40GB", 4);
    for (size_t c = 0; c < sizeof host_cases / sizeof *host_cases; c++) {
        const host_case *k = &host_cases[c];
        task tk;
        task_init(&tk);
        tk.num_gpu = k->num_gpu;
        tk.gpu_milli = k->num_gpu ? 1000 : 0;
        tk.gpu_mem_gib = k->mem_gib;
        tk.cpu_milli = 1000;
        tk.ram_mib = 1024;
        tk.gpu_spec = k->allow[0] ? xstrdup(k->allow) : NULL;
        int got = sim_place_host(cl, cat, &tk);
        if (got != k->want)
            fail_msg("%s: server %d, wanted %d", k->what, got, k->want);
        task_release(&tk);
    }
    cluster_free(cl);
    catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
