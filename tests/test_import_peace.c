/*
 * test_import_peace.c — the PEACE set format (io/import_peace.c): the good
 * fixture read field by field, detection, every malformed class refused
 * with file:line:col and the store left as it was, a set missing a
 * workload's share or clock refused by name, and export → import → export
 * byte-identical to the fixture.
 */
#include "testutil.h"

#include "io/export.h"
#include "io/import.h"
#include "peace/peace.h"

extern const importer import_peace;

static const char *const good_dir = "tests/fixtures/peace/lab";
static const char *const set_files[] = {"peace.csv", "peace_workloads.csv", "peace_profiles.csv",
                                        "peace_colocations.csv", "gpus.csv"};
#define NSET_FILES (sizeof set_files / sizeof *set_files)

static int import_dir(store *st, const char *dir, const char *name, int replace, gp_err *err)
{
    import_opts opts = {.name = name, .replace = replace};
    import_result res;
    return tu_import(st, &import_peace, &dir, 1, &opts, &res, err);
}

static void test_good_set(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    const char *paths[1] = {good_dir};
    assert_ptr_equal(importer_detect(paths, 1), &import_peace);
    assert_ptr_equal(importer_find("peace"), &import_peace);
    import_opts opts = {0};
    import_result res;
    tu_import_ok(st, &import_peace, paths, 1, &opts, &res);
    assert_int_equal(res.gpu_profiles, 1);
    tu_assert_contains(res.names, "PEACE set 'lab' (3 workloads, 54 profile rows, 8 "
                                  "co-location rows)");

    peace_set *s;
    assert_int_equal(store_get_peace_set(st, "lab", &s, &err), 0);
    assert_string_equal(s->gpu, "FixGPU");
    assert_double_equal(s->cap_min_w, 40, 0);
    assert_double_equal(s->cap_max_w, 300, 0);
    assert_string_equal(s->source, good_dir);
    assert_int_equal(s->nwl, 3);
    assert_string_equal(s->wl[2].name, "Net,v2_inf");   /* a quoted name */
    assert_int_equal(s->wl[0].kind, PEACE_CUDA);
    assert_int_equal(s->wl[1].compute_hi, 1);
    assert_int_equal(s->wl[1].memory_hi, 0);
    assert_double_equal(s->wl[1].mem_gib, 3.5, 0);
    /* Line 3: Gemm_cuda,20,300,0.67,40.7,18,9,5.4,3.4,0.38,1.3,2 */
    const peace_profile *p = &s->prof[1];
    assert_int_equal(p->workload, 0);
    assert_int_equal(p->share_pct, 20);
    assert_double_equal(p->freq_mhz, 300, 0);
    assert_double_equal(p->tput, 0.67, 0);
    assert_double_equal(p->power_w, 40.7, 0);
    assert_double_equal(p->metric[PEACE_SM_ACTIVE], 18, 0);
    assert_double_equal(p->metric[PEACE_MEM_BUSY], 0.38, 0);
    assert_double_equal(p->metric[PEACE_PCIE_RX], 2, 0);
    /* Line 5: Gemm_cuda+Bert_inf+"Net,v2_inf" 40+30+30 at 900 MHz. */
    const peace_coloc *c = &s->co[3];
    assert_int_equal(c->n, 3);
    assert_int_equal(c->workload[2], 2);
    assert_int_equal(c->share_pct[0], 40);
    assert_double_equal(c->tput[1], 7.5, 0);
    assert_double_equal(c->power_w, 130, 0);
    assert_int_equal(s->co[4].share_pct[1], PEACE_NO_PARTITION);
    assert_int_equal(s->co[6].workload[0], 1);          /* kept as named: Bert first */
    assert_int_equal(s->co[7].share_pct[0], 34);        /* the equal split of three */
    peace_index *ix = peace_index_new(s, &err);
    assert_non_null(ix);
    assert_int_equal(peace_nfreqs(ix), 2);
    peace_index_free(ix);
    peace_set_free(s);

    catalog *cat;
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    assert_double_equal(catalog_gpu(cat, "FixGPU")->alpha_w_per_mhz, 0.2, 0);
    catalog_free(cat);

    /* Again: refused without --replace, replaced with it, or under a new
     * name. */
    assert_int_equal(import_dir(st, good_dir, NULL, 0, &err), -1);
    tu_assert_contains(err.msg, "a PEACE set named 'lab' already exists");
    assert_int_equal(import_dir(st, good_dir, NULL, 1, &err), 0);
    assert_int_equal(import_dir(st, good_dir, "lab2", 0, &err), 0);
    assert_int_equal(tu_count(st, STORE_PEACE), 2);
    tu_store_free(st, dir);
}

#define HEAD "gpu,cap_min_w,cap_max_w\n"
#define WORKLOADS "workload,kind,compute,memory,mem_gib\n"
#define PROFILES "workload,share_pct,freq_mhz,tput,power_w,sm_active_pct,sm_occupancy_pct," \
                 "fp32_active_pct,mem_bw_gbps,mem_busy_pct,pcie_tx_mbps,pcie_rx_mbps\n"
#define COLOCS "workloads,shares_pct,freq_mhz,tputs,power_w\n"
/* A profile row's columns after workload, share and clock. */
#define PROW ",1,50,10,5,2,3,1,1,1\n"

static const tu_bad_case bad_cases[] = {
    /* peace.csv */
    {"unknown GPU", "peace.csv", HEAD "NoGPU,40,300\n",
     "peace.csv:2:1: column 'gpu': no GPU profile named 'NoGPU' (in the database or the "
     "directory's gpus.csv)"},
    {"caps crossed", "peace.csv", HEAD "FixGPU,300,40\n",
     "peace.csv:2:3: column 'cap_max_w': expected more than cap_min_w (300), got 40"},
    {"NaN cap", "peace.csv", HEAD "FixGPU,nan,300\n",
     "peace.csv:2:2: column 'cap_min_w': expected a finite number, got 'nan'"},
    {"negative cap", "peace.csv", HEAD "FixGPU,-5,300\n",
     "peace.csv:2:2: column 'cap_min_w': -5 is out of range [0, 100000]"},
    {"two rows", "peace.csv", HEAD "FixGPU,40,300\nFixGPU,40,250\n",
     "peace.csv:3:1: expected one row (the GPU and its power caps)"},
    {"no row", "peace.csv", HEAD, "peace.csv:2:1: no rows (expected one row: the GPU and its "
     "power caps)"},
    {"missing column", "peace.csv", "gpu,cap_min_w\nFixGPU,40\n",
     "peace.csv:1:1: missing column 'cap_max_w' in the header"},
    {"empty file", "peace.csv", "", "peace.csv:1:1: empty file (expected a header line)"},
    /* peace_workloads.csv */
    {"unknown kind", "peace_workloads.csv", WORKLOADS "Gemm_cuda,serve,hi,lo,6\n",
     "peace_workloads.csv:2:2: column 'kind': expected train, inf or cuda, got 'serve'"},
    {"class word", "peace_workloads.csv", WORKLOADS "Gemm_cuda,cuda,high,lo,6\n",
     "peace_workloads.csv:2:3: column 'compute': expected hi or lo, got 'high'"},
    {"memory class", "peace_workloads.csv", WORKLOADS "Gemm_cuda,cuda,hi,,6\n",
     "peace_workloads.csv:2:4: column 'memory': expected hi or lo, got ''"},
    {"plus in a name", "peace_workloads.csv", WORKLOADS "A+B,cuda,hi,lo,6\n",
     "peace_workloads.csv:2:1: column 'workload': expected a name without '+', got 'A+B'"},
    {"a name twice", "peace_workloads.csv",
     WORKLOADS "Gemm_cuda,cuda,hi,lo,6\nBert_inf,inf,hi,lo,3\nGemm_cuda,cuda,hi,lo,6\n",
     "peace_workloads.csv:4:1: column 'workload': 'Gemm_cuda' is named again (first at line "
     "2)"},
    {"negative memory", "peace_workloads.csv", WORKLOADS "Gemm_cuda,cuda,hi,lo,-1\n",
     "peace_workloads.csv:2:5: column 'mem_gib': -1 is out of range [0, 1e+06]"},
    /* peace_profiles.csv */
    {"unknown workload", "peace_profiles.csv", PROFILES "Nope,10,300" PROW,
     "peace_profiles.csv:2:1: column 'workload': unknown workload 'Nope' (not in "
     "peace_workloads.csv)"},
    {"share 35", "peace_profiles.csv", PROFILES "Gemm_cuda,35,300" PROW,
     "peace_profiles.csv:2:2: column 'share_pct': expected a multiple of 10, got 35"},
    {"share 100", "peace_profiles.csv", PROFILES "Gemm_cuda,100,300" PROW,
     "peace_profiles.csv:2:2: column 'share_pct': 100 is out of range [10, 90]"},
    {"infinite throughput", "peace_profiles.csv",
     PROFILES "Gemm_cuda,10,300,inf,50,10,5,2,3,1,1,1\n",
     "peace_profiles.csv:2:4: column 'tput': expected a finite number, got 'inf'"},
    {"negative power", "peace_profiles.csv", PROFILES "Gemm_cuda,10,300,1,-50,10,5,2,3,1,1,1\n",
     "peace_profiles.csv:2:5: column 'power_w': -50 is out of range [0, 100000]"},
    {"activity over 100", "peace_profiles.csv",
     PROFILES "Gemm_cuda,10,300,1,50,101,5,2,3,1,1,1\n",
     "peace_profiles.csv:2:6: column 'sm_active_pct': 101 is out of range [0, 100]"},
    {"clock 0", "peace_profiles.csv", PROFILES "Gemm_cuda,10,0" PROW,
     "peace_profiles.csv:2:3: column 'freq_mhz': 0 is out of range [1, 100000]"},
    {"repeated profile", "peace_profiles.csv",
     PROFILES "Gemm_cuda,10,300" PROW "Gemm_cuda,20,300" PROW "Gemm_cuda,10,300" PROW,
     "peace_profiles.csv:4:1: the same workload, share and clock as line 2"},
    {"metric column missing", "peace_profiles.csv",
     "workload,share_pct,freq_mhz,tput,power_w\nGemm_cuda,10,300,1,50\n",
     "peace_profiles.csv:1:1: missing column 'sm_active_pct' in the header"},
    {"truncated row", "peace_profiles.csv", PROFILES "Gemm_cuda,10,300,1,50\n",
     "peace_profiles.csv:2:6: row has 5 fields, expected 12 (truncated row?)"},
    /* peace_colocations.csv */
    {"unknown workload in a row", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Nope,70+30,300,1+2,70\n",
     "peace_colocations.csv:2:1: column 'workloads': unknown workload 'Nope' (not in "
     "peace_workloads.csv)"},
    {"one workload", "peace_colocations.csv", COLOCS "Gemm_cuda,100,300,1,70\n",
     "peace_colocations.csv:2:1: column 'workloads': expected 2 or 3 workloads joined by '+', "
     "got 'Gemm_cuda'"},
    {"four workloads", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Gemm_cuda+Bert_inf+Bert_inf,10+20+30+40,300,1+1+1+1,70\n",
     "column 'workloads': expected 2 or 3 workloads joined by '+'"},
    {"empty name in a list", "peace_colocations.csv", COLOCS "Gemm_cuda+,70+30,300,1+2,70\n",
     "peace_colocations.csv:2:1: column 'workloads': expected 2 or 3 workloads joined by '+', "
     "got 'Gemm_cuda+'"},
    {"three shares for two", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,70+20+10,300,1+2,70\n",
     "peace_colocations.csv:2:2: column 'shares_pct': expected 2 values (one per workload), "
     "got 3 in '70+20+10'"},
    {"share 35", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,35+65,300,1+2,70\n",
     "peace_colocations.csv:2:2: column 'shares_pct': expected shares of 10..90 in steps of "
     "10 summing to 100, the equal split (50+50, 34+33+33) or all 100 (no partition), got "
     "'35+65'"},
    {"share 0", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,0+100,300,1+2,70\n",
     "column 'shares_pct': expected shares of 10..90 in steps of 10 summing to 100"},
    {"shares sum 80", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,70+10,300,1+2,70\n",
     "peace_colocations.csv:2:2: column 'shares_pct': expected shares of 10..90 in steps of "
     "10 summing to 100, the equal split (50+50, 34+33+33) or all 100 (no partition), got "
     "'70+10'"},
    {"unequal 34", "peace_colocations.csv",
     COLOCS "\"Gemm_cuda+Bert_inf+Net,v2_inf\",34+34+32,300,1+2+3,70\n",
     "column 'shares_pct': expected shares of 10..90 in steps of 10 summing to 100"},
    {"34+66", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,34+66,300,1+2,70\n",
     "column 'shares_pct': expected shares of 10..90 in steps of 10 summing to 100"},
    {"partition with 100", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,100+50,300,1+2,70\n",
     "column 'shares_pct': expected shares of 10..90 in steps of 10 summing to 100"},
    {"fractional share", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,69.5+30.5,300,1+2,70\n",
     "column 'shares_pct': expected shares of 10..90 in steps of 10 summing to 100"},
    {"three throughputs for two", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,70+30,300,1+2+3,70\n",
     "peace_colocations.csv:2:4: column 'tputs': expected 2 values (one per workload), got 3 "
     "in '1+2+3'"},
    {"one throughput for two", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,70+30,300,1.5,70\n",
     "column 'tputs': expected 2 values (one per workload), got 1 in '1.5'"},
    {"NaN throughput", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,70+30,300,nan+1,70\n",
     "peace_colocations.csv:2:4: column 'tputs': expected 2 numbers in [0, 1e+12] joined by "
     "'+', got 'nan+1'"},
    {"negative throughput", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,70+30,300,-1+1,70\n",
     "column 'tputs': expected 2 numbers in [0, 1e+12] joined by '+', got '-1+1'"},
    {"infinite power", "peace_colocations.csv", COLOCS "Gemm_cuda+Bert_inf,70+30,300,1+1,inf\n",
     "peace_colocations.csv:2:5: column 'power_w': expected a finite number, got 'inf'"},
    {"repeated row in another order", "peace_colocations.csv",
     COLOCS "Gemm_cuda+Bert_inf,70+30,300,1+2,70\nGemm_cuda+Bert_inf,30+70,300,1+2,70\n"
            "Bert_inf+Gemm_cuda,30+70,300,2+1,71\n",
     "peace_colocations.csv:4:1: the same workloads, shares and clock as line 2"},
    {"unknown column", "peace_colocations.csv",
     "workloads,shares_pct,freq_mhz,tputs,power_w,note\n",
     "peace_colocations.csv:1:6: unknown column 'note'"},
    /* gpus.csv, read as the native set's */
    {"bad GPU profile", "gpus.csv", "name,mem_gib,idle_w,max_w,f_min_mhz,f_max_mhz\n"
                                    "FixGPU,32,50,40,135,1530\n",
     "gpus.csv:2:4: column 'max_w': 40 is out of range [50, 100000]"},
};

/* Copies the good set to dir/set, replacing `file` with content unless it
 * is NULL (then the file is removed); returns the copy's path. */
static char *good_copy(const char *dir, const char *file, const char *content)
{
    char *set = xasprintf("%s/set", dir);
    char *cmd = xasprintf("rm -rf '%s' && cp -R '%s' '%s'", set, good_dir, set);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    if (content) {
        tu_write(set, file, content);
    } else {
        char *p = xasprintf("%s/%s", set, file);
        assert_int_equal(remove(p), 0);
        free(p);
    }
    return set;
}

/* The good set with one file replaced by the case's, imported. */
static int import_bad(store *st, const tu_bad_run *r, gp_err *err)
{
    char *set = good_copy(r->dir, r->c->file, r->c->content);
    int rc = import_dir(st, set, "bad", 0, err);
    free(set);
    return rc;
}

static void test_malformed(void **state)
{
    (void)state;
    tu_run_bad_cases(NULL, bad_cases, import_bad, NULL);
}

/* The good profiles without the rows that start with `prefix` and hold
 * `field` (NULL: any). */
static char *profiles_without(const char *prefix, const char *field)
{
    size_t len;
    gp_err err = {{0}};
    char *path = xasprintf("%s/peace_profiles.csv", good_dir);
    char *text = read_file(path, &len, &err);
    assert_non_null(text);
    char *out = xcalloc(len + 1, 1), *o = out;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        size_t n = (size_t)(end - line);
        char *copy = xstrndup(line, n);
        int drop = strncmp(line, prefix, strlen(prefix)) == 0 && (!field || strstr(copy, field));
        free(copy);
        if (!drop) {
            memcpy(o, line, n);
            o += n;
        }
        line = end;
    }
    free(text);
    free(path);
    return out;
}

/* Refused after reading, by the set check or for a missing file: the
 * message names what is missing and the store keeps nothing. */
static void test_incomplete_set(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *no_share = profiles_without("Bert_inf,40,900,", NULL);
    char *no_clock = profiles_without("\"Net,v2_inf\",", ",900,");
    const struct {
        const char *file;
        char *content;
        const char *expect;
    } cases[] = {
        {"peace_profiles.csv", no_share, "/set: workload 'Bert_inf': no profile at share 40 % "
                                         "and 900 MHz"},
        {"peace_profiles.csv", no_clock, "/set: workload 'Net,v2_inf': no profile at share 10 % "
                                         "and 900 MHz"},
        {"peace_workloads.csv", WORKLOADS "Gemm_cuda,cuda,hi,lo,6\n",
         "peace_profiles.csv:20:1: column 'workload': unknown workload 'Bert_inf'"},
        {"peace_colocations.csv", NULL, "/set: no peace_colocations.csv (a PEACE set is "
                                        "peace.csv, peace_workloads.csv, peace_profiles.csv and "
                                        "peace_colocations.csv)"},
        {"peace_workloads.csv", NULL, "/set: no peace_workloads.csv"},
        {"gpus.csv", NULL, "peace.csv:2:1: column 'gpu': no GPU profile named 'FixGPU'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *set = good_copy(dir, cases[i].file, cases[i].content);
        gp_err err = {{0}};
        assert_int_equal(import_dir(st, set, NULL, 0, &err), -1);
        if (!strstr(err.msg, cases[i].expect))
            fail_msg("case %zu: expected \"%s\" in \"%s\"", i, cases[i].expect, err.msg);
        assert_int_equal(tu_count(st, STORE_PEACE), 0);
        assert_int_equal(tu_count(st, STORE_GPU), 15);      /* the built-ins only */
        free(set);
    }
    free(no_share);
    free(no_clock);
    tu_store_free(st, dir);
}

/* A set on a GPU the database knows needs no gpus.csv. */
/* Every file of the set with a byte-order mark imports as without. */
static void test_byte_order_mark(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *bom = xasprintf("%s/bom", dir);
    tu_copy_with_bom(good_dir, bom);
    gp_err err = {{0}};
    if (import_dir(st, good_dir, "plain", 0, &err) || import_dir(st, bom, "bom", 0, &err))
        fail_msg("%s", err.msg);
    peace_set *a, *b;
    assert_int_equal(store_get_peace_set(st, "plain", &a, &err), 0);
    assert_int_equal(store_get_peace_set(st, "bom", &b, &err), 0);
    assert_string_equal(a->gpu, b->gpu);
    assert_int_equal(a->nwl, b->nwl);
    assert_int_equal(a->nprof, b->nprof);
    assert_int_equal(a->nco, b->nco);
    for (size_t w = 0; w < a->nwl; w++)
        assert_string_equal(a->wl[w].name, b->wl[w].name);
    peace_set_free(a);
    peace_set_free(b);
    free(bom);
    tu_store_free(st, dir);
}

/* A file of the input directory that is there but cannot be read is an
 * error naming it, whether the set could do without it (gpus.csv) or not
 * (peace.csv, peace_profiles.csv): before, an unreadable optional file was skipped and the
 * import succeeded without it. */
static void test_unreadable_files(void **state)
{
    (void)state;
    static const char *const files[] = {"gpus.csv", "peace.csv", "peace_profiles.csv"};
    char *dir;
    store *st = tu_store_new(&dir);
    tu_check_unreadable_files(st, dir, good_dir, &import_peace, files, sizeof files / sizeof *files);
    assert_int_equal(tu_count(st, STORE_PEACE), 0);
    tu_store_free(st, dir);
}

static void test_gpu_from_database(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    char *set = good_copy(dir, "peace.csv", HEAD "V100M32,40,300\n");
    char *p = xasprintf("%s/gpus.csv", set);
    assert_int_equal(remove(p), 0);
    gp_err err = {{0}};
    if (import_dir(st, set, "on-v100", 0, &err))
        fail_msg("%s", err.msg);
    peace_set *s;
    assert_int_equal(store_get_peace_set(st, "on-v100", &s, &err), 0);
    assert_string_equal(s->gpu, "V100M32");
    peace_set_free(s);
    free(p);
    free(set);
    tu_store_free(st, dir);
}

static int same_file(const char *d1, const char *d2, const char *file)
{
    char *p1 = xasprintf("%s/%s", d1, file), *p2 = xasprintf("%s/%s", d2, file);
    size_t l1 = 0, l2 = 0;
    gp_err err = {{0}};
    char *a = read_file(p1, &l1, &err), *b = read_file(p2, &l2, &err);
    int same = a && b && l1 == l2 && memcmp(a, b, l1) == 0;
    free(a);
    free(b);
    free(p1);
    free(p2);
    return same;
}

/* The fixture is written as the exporter writes: export gives it back
 * byte for byte, and the export imports (as another set) and exports again
 * identically; JSON is valid. */
static void test_export_round_trip(void **state)
{
    (void)state;
    char *dir;
    store *st = tu_store_new(&dir);
    gp_err err = {{0}};
    assert_int_equal(import_dir(st, good_dir, NULL, 0, &err), 0);
    peace_set *s;
    catalog *cat;
    assert_int_equal(store_get_peace_set(st, "lab", &s, &err), 0);
    assert_int_equal(store_load_catalog(st, &cat, &err), 0);
    char *out = xasprintf("%s/out", dir), *out2 = xasprintf("%s/out2", dir);
    if (export_peace_csv(s, cat, out, &err))
        fail_msg("%s", err.msg);
    for (size_t f = 0; f < NSET_FILES; f++)
        if (!same_file(good_dir, out, set_files[f]))
            fail_msg("exported %s differs from the fixture", set_files[f]);
    const char *paths[1] = {out};
    assert_ptr_equal(importer_detect(paths, 1), &import_peace);
    if (import_dir(st, out, "copy", 0, &err))
        fail_msg("%s", err.msg);
    peace_set *copy;
    assert_int_equal(store_get_peace_set(st, "copy", &copy, &err), 0);
    assert_int_equal(export_peace_csv(copy, cat, out2, &err), 0);
    for (size_t f = 0; f < NSET_FILES; f++)
        if (!same_file(out, out2, set_files[f]))
            fail_msg("%s changed in a second round trip", set_files[f]);
    char *json = xasprintf("%s/set.json", dir);
    FILE *j = fopen(json, "w");
    assert_non_null(j);
    assert_int_equal(export_peace_json(s, j, &err), 0);
    fclose(j);
    size_t len;
    char *text = read_file(json, &len, &err);
    tu_assert_contains(text, "\"workloads\": [\n        \"Gemm_cuda\",\n        \"Bert_inf\"");
    tu_assert_contains(text, "\"sm_active_pct\": 18");
    free(text);
    free(json);
    peace_set_free(copy);
    peace_set_free(s);
    catalog_free(cat);
    free(out);
    free(out2);
    tu_store_free(st, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_set),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_incomplete_set),
        cmocka_unit_test(test_gpu_from_database),
        cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_export_round_trip),
    };
    return cmocka_run_group_tests_name("import_peace", tests, NULL, NULL);
}
