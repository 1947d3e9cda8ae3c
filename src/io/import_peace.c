/*
 * import_peace.c — a PEACE set (core/peaceset.h, SPEC §5.5) from its CSV
 * directory, the format export_peace.c writes and sample-data/peace-v100
 * is in (columns in gpuplan(1)):
 *
 *   peace.csv              gpu,cap_min_w,cap_max_w — one row: the GPU
 *                          profile measured and the power caps it accepts
 *   peace_workloads.csv    workload,kind,compute,memory,mem_gib — kind
 *                          train|inf|cuda, compute and memory hi|lo
 *                          (PEACE Table 1), peak memory in GiB
 *   peace_profiles.csv     workload,share_pct,freq_mhz,tput,power_w and the
 *                          metric columns of peace_metric_column() — one
 *                          workload alone on share_pct of the SMs
 *   peace_colocations.csv  workloads,shares_pct,freq_mhz,tputs,power_w —
 *                          2 or 3 workloads joined by '+' ("A+B"), their
 *                          shares ("70+30"; "34+33+33", the equal split of
 *                          three; "100+100" for no partition) and
 *                          throughputs in the same order
 *   gpus.csv, cpus.csv     optional profiles, read as the native set's
 *
 * The GPU must be in the database or in gpus.csv.  Every row error names
 * file:line:column; repeated rows name both lines; a set missing a
 * workload's share or clock is refused after reading (peace_set_check).
 * The set is named after the directory unless --name is given.
 *
 * Not here: what the numbers mean (core/peaceset.h) or how they were made
 * (samples/sample_peace_v100.c).
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "set_manifest.h"
#include "core/peaceset.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG 1e12                /* bound of rates and throughputs */
#define MAX_W 1e5               /* bound of watts */
#define MAX_MHZ 1e5

static const char *const set_files[] = {"peace.csv", "peace_workloads.csv",
                                        "peace_profiles.csv", "peace_colocations.csv"};
enum { F_HEAD, F_WORKLOADS, F_PROFILES, F_COLOCS, NFILES };

/* The reading state: the set, the catalog the GPU must be in, and the
 * line of every row read so far of the current table (for repeats). */
typedef struct peace_read {
    peace_set *s;
    const catalog *cat;
    long *line;
    size_t nline, line_cap;
    int head_rows;
} peace_read;

static void note_line(peace_read *pr, const csv_row *row)
{
    grow_array((void **)&pr->line, &pr->line_cap, pr->nline + 1, sizeof *pr->line);
    pr->line[pr->nline++] = row->line;
}

static int head_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                    const int *o, gp_err *err)
{
    (void)o;
    peace_read *pr = ctx;
    peace_set *s = pr->s;
    if (pr->head_rows++)
        return csv_fail(r, row, 0, err, "expected one row (the GPU and its power caps)");
    if (csv_text(r, row, c[0], s->gpu, sizeof s->gpu, err) ||
        csv_real(r, row, c[1], 0, MAX_W, &s->cap_min_w, err) ||
        csv_real(r, row, c[2], 0, MAX_W, &s->cap_max_w, err))
        return -1;
    if (!catalog_gpu(pr->cat, s->gpu))
        return csv_fail(r, row, c[0], err, "column 'gpu': no GPU profile named '%.60s' (in "
                        "the database or the directory's gpus.csv)", s->gpu);
    if (s->cap_max_w <= s->cap_min_w)
        return csv_fail(r, row, c[2], err, "column 'cap_max_w': expected more than "
                        "cap_min_w (%g), got %g", s->cap_min_w, s->cap_max_w);
    return 0;
}

/* "hi" → 1, "lo" → 0. */
static int hi_lo(const csv_reader *r, const csv_row *row, int col, int *out, gp_err *err)
{
    const char *v = row->field[col];
    if (strcmp(v, "hi") != 0 && strcmp(v, "lo") != 0)
        return csv_fail(r, row, col, err, "column '%s': expected hi or lo, got '%.40s'",
                        csv_header(r)->field[col], v);
    *out = v[0] == 'h';
    return 0;
}

static int workload_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                        const int *o, gp_err *err)
{
    (void)o;
    peace_read *pr = ctx;
    peace_workload w;
    memset(&w, 0, sizeof w);
    if (csv_text(r, row, c[0], w.name, sizeof w.name, err))
        return -1;
    if (!w.name[0] || strchr(w.name, '+'))
        return csv_fail(r, row, c[0], err, "column 'workload': expected a name without '+', "
                        "got '%s'", w.name);
    int dup = peace_set_workload(pr->s, w.name);
    if (dup >= 0)
        return csv_fail(r, row, c[0], err, "column 'workload': '%s' is named again (first "
                        "at line %ld)", w.name, pr->line[dup]);
    int kind = peace_kind_parse(row->field[c[1]]);
    if (kind < 0)
        return csv_fail(r, row, c[1], err, "column 'kind': expected train, inf or cuda, got "
                        "'%.40s'", row->field[c[1]]);
    w.kind = (peace_kind)kind;
    if (hi_lo(r, row, c[2], &w.compute_hi, err) || hi_lo(r, row, c[3], &w.memory_hi, err) ||
        csv_real(r, row, c[4], 0, 1e6, &w.mem_gib, err))
        return -1;
    peace_set_add_workload(pr->s, &w);
    note_line(pr, row);
    return 0;
}

static int find_workload(const peace_read *pr, const csv_reader *r, const csv_row *row,
                         int col, const char *name, int *w, gp_err *err)
{
    if ((*w = peace_set_workload(pr->s, name)) < 0)
        return csv_fail(r, row, col, err, "column '%s': unknown workload '%.60s' (not in "
                        "peace_workloads.csv)", csv_header(r)->field[col], name);
    return 0;
}

static int profile_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                       const int *o, gp_err *err)
{
    (void)o;
    peace_read *pr = ctx;
    peace_profile p;
    memset(&p, 0, sizeof p);
    int64_t share;
    if (find_workload(pr, r, row, c[0], row->field[c[0]], &p.workload, err) ||
        csv_int(r, row, c[1], PEACE_SHARE_STEP, 100 - PEACE_SHARE_STEP, &share, err))
        return -1;
    if (share % PEACE_SHARE_STEP)
        return csv_fail(r, row, c[1], err, "column 'share_pct': expected a multiple of %d, "
                        "got %lld", PEACE_SHARE_STEP, (long long)share);
    p.share_pct = (int)share;
    if (csv_real(r, row, c[2], 1, MAX_MHZ, &p.freq_mhz, err) ||
        csv_real(r, row, c[3], 0, BIG, &p.tput, err) ||
        csv_real(r, row, c[4], 0, MAX_W, &p.power_w, err))
        return -1;
    for (int m = 0; m < PEACE_NMETRICS; m++)
        if (csv_real(r, row, c[5 + m], 0, peace_metric_is_rate((peace_metric)m) ? BIG : 100,
                     &p.metric[m], err))
            return -1;
    peace_set_add_profile(pr->s, &p);
    note_line(pr, row);
    return 0;
}

/* Splits a '+'-joined cell into at most PEACE_MAX_COLOC + 1 items (one
 * more than allowed, so too many is seen) pointing into buf.  Returns how
 * many, or -1 for an empty item. */
static int split_plus(const char *cell, char *buf, size_t len, char **item)
{
    strlcpy0(buf, cell, len);
    int n = 0;
    for (char *p = buf; n <= PEACE_MAX_COLOC;) {
        char *plus = strchr(p, '+');
        if (plus)
            *plus = '\0';
        if (!*p)
            return -1;
        item[n++] = p;
        if (!plus)
            break;
        p = plus + 1;
    }
    return n;
}

static int coloc_workloads(const peace_read *pr, const csv_reader *r, const csv_row *row,
                           int col, peace_coloc *c, gp_err *err)
{
    char buf[PEACE_MAX_COLOC * GP_NAME_MAX + 8], *item[PEACE_MAX_COLOC + 1];
    const char *cell = row->field[col];
    c->n = strlen(cell) < sizeof buf ? split_plus(cell, buf, sizeof buf, item) : -1;
    if (c->n < 2 || c->n > PEACE_MAX_COLOC)
        return csv_fail(r, row, col, err, "column 'workloads': expected 2 or 3 workloads "
                        "joined by '+', got '%.80s'", cell);
    for (int k = 0; k < c->n; k++)
        if (find_workload(pr, r, row, col, item[k], &c->workload[k], err))
            return -1;
    return 0;
}

/* A '+'-list of c->n numbers in [0, max] into out. */
static int coloc_numbers(const csv_reader *r, const csv_row *row, int col, const peace_coloc *c,
                         double max, double *out, gp_err *err)
{
    char buf[256], *item[PEACE_MAX_COLOC + 1];
    const char *cell = row->field[col], *name = csv_header(r)->field[col];
    int n = strlen(cell) < sizeof buf ? split_plus(cell, buf, sizeof buf, item) : -1;
    if (n > 0 && n != c->n)
        return csv_fail(r, row, col, err, "column '%s': expected %d values (one per workload),"
                        " got %d in '%.80s'", name, c->n, n, cell);
    for (int k = 0; k < n; k++)
        if (parse_double(item[k], &out[k]) || out[k] < 0 || out[k] > max)
            n = -1;
    if (n < 0)
        return csv_fail(r, row, col, err, "column '%s': expected %d numbers in [0, %g] joined "
                        "by '+', got '%.80s'", name, c->n, max, cell);
    return 0;
}

static int coloc_shares(const csv_reader *r, const csv_row *row, int col, peace_coloc *c,
                        gp_err *err)
{
    double v[PEACE_MAX_COLOC];
    if (coloc_numbers(r, row, col, c, PEACE_NO_PARTITION, v, err))
        return -1;
    int whole = 1;
    for (int k = 0; k < c->n; k++) {
        c->share_pct[k] = (int)v[k];
        whole &= v[k] == c->share_pct[k];
    }
    if (!whole || !peace_split_valid(c->n, c->share_pct))
        return csv_fail(r, row, col, err, "column 'shares_pct': expected shares of %d..%d in "
                        "steps of %d summing to 100, the equal split (50+50, 34+33+33) or all "
                        "%d (no partition), got '%.40s'", PEACE_SHARE_STEP,
                        100 - PEACE_SHARE_STEP, PEACE_SHARE_STEP, PEACE_NO_PARTITION,
                        row->field[col]);
    return 0;
}

static int coloc_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                     const int *o, gp_err *err)
{
    (void)o;
    peace_read *pr = ctx;
    peace_coloc co;
    memset(&co, 0, sizeof co);
    if (coloc_workloads(pr, r, row, c[0], &co, err) || coloc_shares(r, row, c[1], &co, err) ||
        csv_real(r, row, c[2], 1, MAX_MHZ, &co.freq_mhz, err) ||
        coloc_numbers(r, row, c[3], &co, BIG, co.tput, err) ||
        csv_real(r, row, c[4], 0, MAX_W, &co.power_w, err))
        return -1;
    peace_set_add_coloc(pr->s, &co);
    note_line(pr, row);
    return 0;
}

/* A repeated row of the table just read ("file:line:1: ..."). */
static int refuse_repeat(const peace_read *pr, const char *path, int coloc, gp_err *err)
{
    size_t first, dup;
    if (!peace_set_duplicate(pr->s, coloc, &first, &dup))
        return 0;
    return gp_error(err, "%s:%ld:1: the same %s as line %ld", path, pr->line[dup],
                    coloc ? "workloads, shares and clock" : "workload, share and clock",
                    pr->line[first]);
}

/* Reads table f of the set in dir, each row through fn. */
static int read_table(const char *dir, int f, csv_row_fn fn, peace_read *pr, gp_err *err)
{
    static const char *const head[] = {"gpu", "cap_min_w", "cap_max_w", NULL};
    static const char *const workloads[] = {"workload", "kind", "compute", "memory", "mem_gib",
                                            NULL};
    static const char *const colocs[] = {"workloads", "shares_pct", "freq_mhz", "tputs",
                                         "power_w", NULL};
    const char *profiles[6 + PEACE_NMETRICS] = {"workload", "share_pct", "freq_mhz", "tput",
                                                "power_w"};
    for (int m = 0; m < PEACE_NMETRICS; m++)
        profiles[5 + m] = peace_metric_column((peace_metric)m);
    const char *const *cols[NFILES] = {head, workloads, profiles, colocs};
    char *path = xasprintf("%s/%s", dir, set_files[f]);
    pr->nline = 0;
    int rc = csv_each(path, cols[f], NULL, fn, pr, err);
    if (rc == 0 && f == F_HEAD && pr->head_rows == 0)
        rc = gp_error(err, "%s:2:1: no rows (expected one row: the GPU and its power caps)",
                      path);
    if (rc == 0 && (f == F_PROFILES || f == F_COLOCS))
        rc = refuse_repeat(pr, path, f == F_COLOCS, err);
    free(path);
    return rc;
}

static int read_set(const char *dir, peace_read *pr, gp_err *err)
{
    const csv_row_fn fns[NFILES] = {head_row, workload_row, profile_row, coloc_row};
    for (int f = 0; f < NFILES; f++) {
        char *path;
        if (import_dir_file(dir, set_files[f], &path, err))
            return -1;
        int missing = !path;
        free(path);
        if (missing)
            return gp_error(err, "%s: no %s (a PEACE set is peace.csv, peace_workloads.csv, "
                            "peace_profiles.csv and peace_colocations.csv)", dir, set_files[f]);
    }
    for (int f = 0; f < NFILES; f++)
        if (read_table(dir, f, fns[f], pr, err))
            return -1;
    if (peace_set_check(pr->s, err)) {
        gp_error_prefix(err, "%s", dir);
        return -1;
    }
    return 0;
}

static int peace_run(store *st, const char *const *paths, size_t npaths,
                     const import_opts *opts, import_result *res, gp_err *err)
{
    if (npaths != 1 || !import_is_dir(paths[0]))
        return gp_error(err, "peace: expected one directory holding the PEACE set");
    const char *dir = paths[0];
    if (set_manifest_check(dir, err))
        return -1;
    char name[GP_NAME_MAX];
    if (opts->name)
        strlcpy0(name, opts->name, sizeof name);
    else
        import_base_name(dir, name, sizeof name);
    catalog *cat = NULL;
    if (import_native_profiles(st, dir, res, err) || store_load_catalog(st, &cat, err))
        return -1;
    peace_read pr = {peace_set_new(name), cat, NULL, 0, 0, 0};
    pr.s->source = xstrdup(dir);
    int rc = read_set(dir, &pr, err);
    if (rc == 0)
        rc = store_put_peace_set(st, pr.s, opts->replace, err);
    if (rc == 0) {
        import_note(res, "PEACE set", name);
        size_t off = strlen(res->names);
        snprintf(res->names + off, sizeof res->names - off, " (%zu workloads, %zu profile "
                 "rows, %zu co-location rows)", pr.s->nwl, pr.s->nprof, pr.s->nco);
    }
    free(pr.line);
    peace_set_free(pr.s);
    catalog_free(cat);
    return rc;
}

static int peace_detect(const char *const *paths, size_t npaths)
{
    if (npaths != 1 || !import_is_dir(paths[0]))
        return 0;
    char *p = xasprintf("%s/%s", paths[0], set_files[F_HEAD]);
    int ok = import_present(p);
    free(p);
    /* Above the native set's 90: a PEACE directory may carry gpus.csv. */
    return ok ? 95 : 0;
}

const importer import_peace = {
    .format = "peace",
    .summary = "a PEACE set: workloads profiled alone on SM shares and co-located ground "
               "truth (SPEC 5.5)",
    .inputs = "DIR holding peace.csv peace_workloads.csv peace_profiles.csv "
              "peace_colocations.csv (and optionally gpus.csv cpus.csv)",
    .detect = peace_detect,
    .run = peace_run,
};
