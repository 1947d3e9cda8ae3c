/*
 * fuzz_inflation_read.c — libFuzzer harness for the inflation experiment's
 * order and rank readers (io/inflation_read.h): an input is one file, read
 * as an arrival order against a three-task trace (p-000, p-001, p-002) and
 * as node ranks against a three-node cluster (node-a, node-b, node-c).  A
 * refused file must come with a message naming the file; an accepted
 * order must hold trace indices only, accepted ranks one value >= 0 per
 * node.  Seeds: the order and rank files of tests/fixtures/inflation/.
 */
#include "harness.h"
#include "io/inflation_read.h"

#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "tests/fixtures/inflation/arrival_order.tsv",
    "tests/fixtures/inflation/order_list.txt",
    "tests/fixtures/inflation/node_tiebreak_rank.tsv",
    "tests/fixtures/inflation/ranks.csv",
    NULL,
};

static gp_trace *the_trace;
static cluster *the_cluster;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_seed_files(seeds);
    the_trace = trace_new("t");
    for (int i = 0; i < 3; i++) {
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "p-%03d", i);
        tk.num_gpu = 1;
        tk.gpu_milli = 500;
        trace_add_task(the_trace, &tk);
        task_release(&tk);
    }
    the_cluster = cluster_new("c");
    for (int i = 0; i < 3; i++) {
        node n;
        memset(&n, 0, sizeof n);
        snprintf(n.name, sizeof n.name, "node-%c", 'a' + i);
        strcpy(n.gpu_model, "T4");
        n.gpu_count = 2;
        cluster_add_node(the_cluster, &n);
    }
    return 0;
}

/* A refused file's message must name it. */
static void require_path(const gp_err *err, const char *path, const char *what)
{
    fuzz_require_message(err, what);
    if (strncmp(err->msg, path, strlen(path)) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = fuzz_write_file("order.tsv", data, size);
    gp_err err = {{0}};
    int *order = NULL;
    size_t n = 0;
    if (inflation_read_order(path, the_trace, &order, &n, &err)) {
        require_path(&err, path, "inflation_read_order");
    } else {
        if (n == 0)
            abort();            /* an empty order is refused */
        for (size_t i = 0; i < n; i++)
            if (order[i] < 0 || (size_t)order[i] >= the_trace->ntasks)
                abort();
        free(order);
    }
    int rank[3];
    memset(&err, 0, sizeof err);
    if (inflation_read_ranks(path, the_cluster, rank, &err)) {
        require_path(&err, path, "inflation_read_ranks");
    } else {
        for (int i = 0; i < 3; i++)
            if (rank[i] < 0)
                abort();
    }
    free(path);
    return 0;
}
