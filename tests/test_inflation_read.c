/*
 * test_inflation_read.c — the io layer's readers of the inflation
 * experiment's order and rank files (io/inflation_read.h), table-driven:
 * good files (tab- and comma-separated, headers, plain lists, a clone's
 * suffix, quotes, CRLF, a byte-order mark, a header of more than 32
 * columns, blank lines) give the expected indices and ranks; malformed
 * ones (unknown names, short rows, bad and out-of-range ranks, duplicates,
 * missing nodes, broken quoting, empty files) fail with a message naming
 * the physical file:line:col of the fault, blank lines counted.
 */
#include "testutil.h"

#include "core/strbuf.h"
#include "io/inflation_read.h"

/* ---- fixtures --------------------------------------------------------------- */

static gp_trace *three_tasks(void)
{
    gp_trace *t = trace_new("f");
    for (int i = 0; i < 3; i++) {
        task tk;
        task_init(&tk);
        snprintf(tk.name, sizeof tk.name, "p-%03d", i);
        tk.num_gpu = 1;
        tk.gpu_milli = 500;
        trace_add_task(t, &tk);
        task_release(&tk);
    }
    return t;
}

static cluster *two_nodes(void)
{
    cluster *cl = cluster_new("c");
    tu_add_node(cl, "a", "T4", 2);
    tu_add_node(cl, "b", "T4", 2);
    return cl;
}

/* A header of 39 other columns, then trace_pod (the 40th), then one row. */
static char *wide_order(void)
{
    strbuf b = STRBUF_INIT;
    for (int i = 0; i < 39; i++)
        strbuf_printf(&b, "c%d\t", i);
    strbuf_puts(&b, "trace_pod\n");
    for (int i = 0; i < 39; i++)
        strbuf_puts(&b, "x\t");
    strbuf_puts(&b, "p-001\n");
    return strbuf_take(&b);
}

/* ---- the order ---------------------------------------------------------------- */

typedef struct order_case {
    const char *what;
    const char *content;        /* NULL: wide_order() */
    int n;                      /* indices wanted; -1: an error */
    int want[4];
    const char *expect;         /* substring of the error */
} order_case;

static const order_case order_cases[] = {
    {"published TSV with a clone", "event\tpod\ttrace_pod\n0\tp-002\tp-002\n1\tp-000\tp-000\n"
     "2\tp-001-tuned-0\tp-001\n", 3, {2, 0, 1}, NULL},
    {"plain list, clone, blank line", "p-001\np-001-tuned-7\n\n", 2, {1, 1}, NULL},
    {"byte-order mark before the header", "\xEF\xBB\xBFname\np-001\n", 1, {1}, NULL},
    {"byte-order mark before a plain list", "\xEF\xBB\xBFp-002\np-000\n", 2, {2, 0}, NULL},
    {"quoted CSV", "trace_pod,x\n\"p-002\",1\n\"p-000\",\"a,b\"\n", 2, {2, 0}, NULL},
    {"CRLF line ends", "pod\r\np-001\r\np-000\r\n", 2, {1, 0}, NULL},
    {"an empty name is skipped", "pod,x\n,1\np-000,2\n", 1, {0}, NULL},
    {"trace_pod preferred over pod", "pod,trace_pod\np-000-x,p-002\n", 1, {2}, NULL},
    {"a header of more than 32 columns", NULL, 1, {1}, NULL},
    {"unknown task after blank lines", "p-001\n\n\nq-9\n", -1, {0}, "bad:4:1: task 'q-9'"},
    {"unknown task in the third column", "event\tpod\ttrace_pod\n0\tp-000\tq-9\n", -1, {0},
     "bad:2:3:"},
    {"a row without the name column", "event,pod,trace_pod\n0,p-001\n", -1, {0},
     "bad:2:3: row has 2 fields"},
    {"empty file", "", -1, {0}, "bad:1:1: no task names"},
    {"a header alone", "event\ttrace_pod\n\n", -1, {0}, "no task names"},
    {"unterminated quote", "pod\np-000\n\"p-001\n", -1, {0}, "bad:3:1: unterminated"},
    {"invalid UTF-8", "pod\np-\xff\n", -1, {0}, "bad:2:3: invalid UTF-8"},
};

static void test_order(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    gp_trace *t = three_tasks();
    for (size_t c = 0; c < sizeof order_cases / sizeof *order_cases; c++) {
        const order_case *k = &order_cases[c];
        char *content = k->content ? xstrdup(k->content) : wide_order();
        const char *file = k->n < 0 ? "bad" : "good";
        tu_write(dir, file, content);
        char *path = xasprintf("%s/%s", dir, file);
        int *o = NULL;
        size_t n = 0;
        gp_err err = {{0}};
        int rc = inflation_read_order(path, t, &o, &n, &err);
        if (k->n < 0) {
            if (rc != -1)
                fail_msg("%s: read, wanted an error", k->what);
            tu_assert_contains(err.msg, k->expect);
        } else {
            if (rc != 0)
                fail_msg("%s: %s", k->what, err.msg);
            assert_int_equal(n, (size_t)k->n);
            for (int i = 0; i < k->n; i++)
                if (o[i] != k->want[i])
                    fail_msg("%s: index %d is %d, wanted %d", k->what, i, o[i], k->want[i]);
            free(o);
        }
        free(path);
        free(content);
    }
    trace_free(t);
    tu_rmrf(dir);
    free(dir);
}

/* ---- the ranks ---------------------------------------------------------------- */

typedef struct rank_case {
    const char *what;
    const char *content;
    int ok;
    int want[2];                /* ranks of a and b */
    const char *expect;
} rank_case;

static const rank_case rank_cases[] = {
    {"published TSV", "sim_node_name\ttie_rank\tnode\n0000-b\t0\tb\n0001-a\t1\ta\n", 1, {1, 0},
     NULL},
    {"plain list in rank order", "b\na\n", 1, {1, 0}, NULL},
    {"node column alone: line order", "node\nb\n\na\n", 1, {1, 0}, NULL},
    {"byte-order mark, CSV, CRLF", "\xEF\xBB\xBFnode,tie_rank\r\na,5\r\nb,3\r\n", 1, {5, 3},
     NULL},
    {"rank column named rank", "rank,name\n7,a\n2,b\n", 1, {7, 2}, NULL},
    {"a fractional rank", "node,tie_rank\na,1.5\nb,2\n", 0, {0},
     "bad:2:2: expected an integer rank"},
    {"a word for a rank", "node\ttie_rank\n\na\tx\n", 0, {0}, "bad:3:2: expected an integer"},
    {"a negative rank", "node,tie_rank\na,-1\nb,0\n", 0, {0}, "bad:2:2:"},
    {"a rank past int", "node,tie_rank\na,99999999999\nb,0\n", 0, {0}, "bad:2:2:"},
    {"a row without the rank", "node,tie_rank\na\n", 0, {0}, "bad:2:2: row has 1 fields"},
    {"unknown node after a blank line", "node\na\n\nc\n", 0, {0},
     "bad:4:1: node 'c' is not in cluster 'c'"},
    {"ranked twice", "node\nb\nb\n", 0, {0}, "bad:3:1: node 'b' ranked twice"},
    {"a node missing", "b\n", 0, {0}, "node 'a' has no rank"},
    {"empty file", "", 0, {0}, "bad:1:1: node 'a' has no rank"},
    {"text after a closing quote", "node\n\"a\"x\n", 0, {0}, "bad:2:1: malformed"},
};

static void test_ranks(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    cluster *cl = two_nodes();
    for (size_t c = 0; c < sizeof rank_cases / sizeof *rank_cases; c++) {
        const rank_case *k = &rank_cases[c];
        const char *file = k->ok ? "good" : "bad";
        tu_write(dir, file, k->content);
        char *path = xasprintf("%s/%s", dir, file);
        int rank[2];
        gp_err err = {{0}};
        int rc = inflation_read_ranks(path, cl, rank, &err);
        if (!k->ok) {
            if (rc != -1)
                fail_msg("%s: read, wanted an error", k->what);
            tu_assert_contains(err.msg, k->expect);
        } else {
            if (rc != 0)
                fail_msg("%s: %s", k->what, err.msg);
            if (rank[0] != k->want[0] || rank[1] != k->want[1])
                fail_msg("%s: ranks %d %d, wanted %d %d", k->what, rank[0], rank[1],
                         k->want[0], k->want[1]);
        }
        free(path);
    }
    cluster_free(cl);
    tu_rmrf(dir);
    free(dir);
}

static void test_missing_file(void **state)
{
    (void)state;
    gp_trace *t = three_tasks();
    cluster *cl = two_nodes();
    int *o, rank[2];
    size_t n;
    gp_err err = {{0}};
    assert_int_equal(inflation_read_order("/nonexistent/order.tsv", t, &o, &n, &err), -1);
    tu_assert_contains(err.msg, "/nonexistent/order.tsv: cannot open");
    assert_int_equal(inflation_read_ranks("/nonexistent/ranks.tsv", cl, rank, &err), -1);
    tu_assert_contains(err.msg, "/nonexistent/ranks.tsv: cannot open");
    cluster_free(cl);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
