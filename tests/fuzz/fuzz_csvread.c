/*
 * fuzz_csvread.c — libFuzzer harness for the CSV reader (io/csvread.h): an
 * input is one CSV file, read with and without a header; every record goes
 * through the width check and every field through each converter (integer,
 * real, text into a short and a long buffer) and the error formatter, and
 * the file once more through csv_each() with required and optional
 * columns.  Any failure must come with a message.  Seeds: the CSV fixtures.
 */
#include "harness.h"
#include "io/csvread.h"

#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "tests/fixtures/native/lab/tasks.csv",
    "tests/fixtures/native/lab/util.csv",
    "tests/fixtures/native/lab/nodes.csv",
    "tests/fixtures/openb/openb_pod_list_lab.csv",
    "tests/fixtures/genai/pod_gpu_duty_cycle_lab.csv",
    "tests/fixtures/pai/pai_task_table.csv",
    "tests/fixtures/philly/cluster_gpu_util",
    "tests/fixtures/peace/lab/peace_colocations.csv",
    NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_seed_files(seeds);
    return 0;
}

/* Every converter on field col of row; failures must say why. */
static void convert_field(const csv_reader *r, const csv_row *row, int col)
{
    gp_err err = {{0}};
    int64_t i;
    double d;
    char small[8], big[256];
    if (csv_int(r, row, col, -1000, 1000000, &i, &err))
        fuzz_require_message(&err, "csv_int");
    err.msg[0] = '\0';
    if (csv_real(r, row, col, -1e9, 1e9, &d, &err))
        fuzz_require_message(&err, "csv_real");
    err.msg[0] = '\0';
    if (csv_text(r, row, col, small, sizeof small, &err))
        fuzz_require_message(&err, "csv_text");
    else if (strlen(small) >= sizeof small)
        abort();
    err.msg[0] = '\0';
    if (csv_text(r, row, col, big, sizeof big, &err))
        fuzz_require_message(&err, "csv_text");
    csv_fail(r, row, col, &err, "field %d", col);
    fuzz_require_message(&err, "csv_fail");
}

static void read_all(const char *path, int header)
{
    gp_err err = {{0}};
    csv_reader *r = csv_open(path, header, &err);
    if (!r) {
        fuzz_require_message(&err, "csv_open");
        return;
    }
    const csv_row *h = csv_header(r);
    if (header && h && h->n > 0) {
        if (csv_col(r, h->field[0]) < 0)
            abort();            /* a header's own first column not found */
        const char *names[] = {h->field[0], NULL};
        const char *opt[] = {h->n > 1 ? h->field[h->n - 1] : "absent", NULL};
        int idx[1], opt_idx[1];
        if (csv_require(r, names, idx, opt, opt_idx, 1, &err))
            fuzz_require_message(&err, "csv_require");
    }
    csv_row row;
    int rc;
    while ((rc = csv_next(r, &row, &err)) == 1) {
        if (header && csv_check_width(r, &row, &err))
            fuzz_require_message(&err, "csv_check_width");
        for (size_t c = 0; c < row.n && c < CSV_MAX_COLS; c++)
            convert_field(r, &row, (int)c);
        err.msg[0] = '\0';
    }
    if (rc < 0)
        fuzz_require_message(&err, "csv_next");
    csv_close(r);
}

static int each_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    (void)ctx;
    int64_t v;
    if (o[0] >= 0 && csv_int(r, row, o[0], 0, 100, &v, err))
        return -1;
    char name[16];
    return csv_text(r, row, c[0], name, sizeof name, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = fuzz_write_file("table.csv", data, size);
    read_all(path, 1);
    read_all(path, 0);
    static const char *const required[] = {"name", NULL};
    static const char *const optional[] = {"value", NULL};
    gp_err err = {{0}};
    if (csv_each(path, required, optional, each_row, NULL, &err))
        fuzz_require_message(&err, "csv_each");
    free(path);
    return 0;
}
