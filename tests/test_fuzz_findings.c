/*
 * test_fuzz_findings.c — what fuzzing the parsers turned up, one case each,
 * so a fix stays fixed (the inputs that crashed a harness are replayed by
 * `make fuzz` from tests/fuzz/regressions/; these are the findings that
 * were wrong answers, not crashes).
 *
 * A NUL byte in an input file: the CSV reader cut the field at it ("ab\0cd"
 * read as the name "ab", "1\0 00" as 1) and jansson skips one between JSON
 * tokens (a Gavel table with a NUL after a value imported as if it were not
 * there) or reports it as the end of the file.  Every reader now refuses
 * it at its line and column, and the store stays as it was.
 */
#include "testutil.h"

#include "io/import.h"

extern const importer import_gavel;
extern const importer import_philly;
extern const importer import_genai;

typedef struct nul_case {
    const char *what;
    const importer *imp;
    const char *file;           /* written into a fresh directory */
    int pass_dir;               /* import the directory, not the file */
    const char *content;
    size_t len;                 /* content's bytes, NUL included */
    const char *expect;         /* in the error message */
} nul_case;

#define BYTES(s) s, sizeof s - 1

static const nul_case cases[] = {
    {"native task name", &import_native, "tasks.csv", 1,
     BYTES("name,arrival_s,duration_s\nab\0cd,0,100\n"), "tasks.csv:2:3: NUL byte"},
    {"native number", &import_native, "tasks.csv", 1,
     BYTES("name,arrival_s,duration_s\nab,0,1\0 00\n"), "tasks.csv:2:7: NUL byte"},
    {"genai container", &import_genai, "pod_gpu_duty_cycle_x.csv", 0,
     BYTES("value,timestamp_anon,container_ip\n50,0,10.0.0.1\n50,57,10.0\0.0.1\n"),
     "pod_gpu_duty_cycle_x.csv:3:11: NUL byte"},
    {"gavel after a value", &import_gavel, "t.json", 0,
     BYTES("{\"k80\": {\"('A3C', 1)\": {\"null\": 4\0}}}"), "t.json:1:34: NUL byte"},
    {"gavel after a colon", &import_gavel, "t.json", 0,
     BYTES("{\"k80\": {\"('A3C', 1)\": {\"null\":\0 4}}}"), "t.json:1:32: NUL byte"},
    {"philly job log", &import_philly, "cluster_job_log", 0,
     BYTES("[\n\0]\n"), "cluster_job_log:2:1: NUL byte"},
};

static void write_bytes(const char *dir, const char *name, const char *data, size_t len)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(p);
}

static void test_nul_bytes_refused(void **state)
{
    (void)state;
    char *st_dir;
    store *st = tu_store_new(&st_dir);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const nul_case *c = &cases[i];
        tu_listing before;
        tu_listing_take(st, &before);
        char *dir = tu_tmpdir();
        assert_non_null(dir);
        write_bytes(dir, c->file, c->content, c->len);
        char *file = xasprintf("%s/%s", dir, c->file);
        const char *paths[1] = {c->pass_dir ? dir : file};
        import_opts opts = {0};
        opts.name = "nul";
        import_result res;
        gp_err err = {{0}};
        if (import_run(st, c->imp, paths, 1, &opts, &res, &err) == 0)
            fail_msg("case '%s': imported (%s)", c->what, res.names);
        if (!strstr(err.msg, c->expect))
            fail_msg("case '%s': expected \"%s\" in \"%s\"", c->what, c->expect, err.msg);
        tu_assert_store_unchanged(st, &before, c->what);
        tu_listing_free(&before);
        free(file);
        tu_rmrf(dir);
        free(dir);
    }
    tu_store_free(st, st_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nul_bytes_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
