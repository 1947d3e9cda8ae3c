/*
 * import_smi.c — nvidia-smi's CSV ("smi", SPEC §4.2): what every GPU host
 * can print without installing anything,
 *
 *   nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,
 *       utilization.gpu,power.draw,power.limit,clocks.sm,clocks.max.sm
 *       --format=csv[,noheader][,nounits] > HOST.csv
 *   nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory
 *       --format=csv > HOST.apps.csv
 *
 * one file per host (the host is the file's name without .csv or .apps.csv), or
 * several hosts in one file with a first column "host" (a header "host,
 * index, ..." or, without a header, 11 fields).  With a header the columns
 * may come in any order and any subset that has index and name; without
 * one they are the order above.  Other columns (a full --query-gpu,
 * timestamps) are left.  Units ("81920 MiB", "35 %", "61.23 W",
 * "1410 MHz") are dropped; "[N/A]" and "[Not Supported]" are "not said".
 *
 * Makes a cluster of one server per host (its GPUs of the model reported,
 * mapped to a profile or a new one: opsnap.h), a snapshot of it with each
 * GPU's utilization, power, SM clock and memory used, and one task per
 * compute process holding its GPU (processes on one GPU share it equally;
 * each for OPSNAP_DEFAULT_REMAINING_S unless a what-if says otherwise).
 * The same readers serve the kubectl importer, which takes these files
 * next to its JSON.
 *
 * Not done: MIG instances (nvidia-smi lists the parent GPU only) and CPU
 * or RAM of the hosts (not in these outputs: the servers get none).
 */
#include "import.h"
#include "import_table.h"
#include "csvread.h"
#include "opsnap.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The --query-gpu fields this reads, in the order the noheader form has. */
enum { Q_INDEX, Q_UUID, Q_NAME, Q_MEM_TOTAL, Q_MEM_USED, Q_UTIL, Q_POWER, Q_POWER_LIMIT,
       Q_CLOCK, Q_CLOCK_MAX, Q_NFIELDS };
static const char *const query_fields[Q_NFIELDS] = {
    "index", "uuid", "name", "memory.total", "memory.used", "utilization.gpu", "power.draw",
    "power.limit", "clocks.sm", "clocks.max.sm"};

enum { A_PID, A_UUID, A_MEM, A_NFIELDS };
static const char *const app_fields[A_NFIELDS] = {"pid", "gpu_uuid", "used_memory"};

/* --- sniffing the first line --------------------------------------------------- */

/* The first line's comma-separated words, trimmed and without their unit,
 * into w (at most max). */
static int first_words(const char *path, char w[][64], int max)
{
    char line[8192];
    if (import_first_line(path, line, sizeof line))
        return 0;
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(line, ",", &save); tok && n < max;
         tok = strtok_r(NULL, ",", &save)) {
        tok += strspn(tok, " \t\"");
        size_t l = strcspn(tok, "[\"");
        while (l > 0 && tok[l - 1] == ' ')
            l--;
        if (l >= 64)
            l = 63;
        memcpy(w[n], tok, l);
        w[n++][l] = '\0';
    }
    return n;
}

static int is_host_word(const char *w)
{
    return strcasecmp(w, "host") == 0 || strcasecmp(w, "hostname") == 0;
}

static int all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* 1 when one of the n words is word. */
static int has_word(char w[][64], int n, const char *word)
{
    for (int i = 0; i < n; i++)
        if (strcmp(w[i], word) == 0)
            return 1;
    return 0;
}

#define SNIFF_WORDS 256

int smi_is_gpu_csv(const char *path)
{
    char w[SNIFF_WORDS][64];
    int n = first_words(path, w, SNIFF_WORDS);
    if (has_word(w, n, "index") && (has_word(w, n, "name") || has_word(w, n, "uuid")))
        return 1;
    /* noheader: index, GPU-uuid, name, ... with or without a host first */
    return (n == Q_NFIELDS || n == Q_NFIELDS + 1) && all_digits(w[n - Q_NFIELDS]) &&
           strncmp(w[n - Q_NFIELDS + 1], "GPU-", 4) == 0;
}

int smi_is_apps_csv(const char *path)
{
    char w[SNIFF_WORDS][64];
    int n = first_words(path, w, SNIFF_WORDS);
    if (has_word(w, n, "pid") && has_word(w, n, "gpu_uuid"))
        return 1;
    return (n == A_NFIELDS || n == A_NFIELDS + 1) && all_digits(w[n - A_NFIELDS]) &&
           strncmp(w[n - A_NFIELDS + 1], "GPU-", 4) == 0;
}

/* --- fields ----------------------------------------------------------------------- */

/* The field without surrounding spaces, into buf. */
static void trimmed(const csv_row *row, int col, char *buf, size_t len)
{
    const char *s = row->field[col];
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= len)
        n = len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* A reported number: "81920 MiB", "35 %", "61.23 W", "1410", or NAN for
 * "[N/A]", "[Not Supported]", "N/A". */
static int field_number(const csv_reader *r, const csv_row *row, int col, double *out,
                        gp_err *err)
{
    *out = NAN;
    if (col < 0)
        return 0;
    char buf[64];
    trimmed(row, col, buf, sizeof buf);
    if (buf[0] == '[' || strcasecmp(buf, "N/A") == 0)
        return 0;
    size_t n = strcspn(buf, " ");
    char unit[16] = "";
    if (buf[n]) {
        strlcpy0(unit, buf + n + 1, sizeof unit);
        buf[n] = '\0';
    }
    static const char *const units[] = {"", "MiB", "%", "W", "MHz"};
    int unit_ok = 0;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        unit_ok |= strcmp(unit, units[i]) == 0;
    if (!unit_ok || parse_double(buf, out) || !isfinite(*out) || *out < 0)
        return csv_fail(r, row, col, err, "expected a number >= 0 (with MiB, %%, W or MHz, "
                        "or [N/A]), got '%.40s'", row->field[col]);
    return 0;
}

/* The names nvidia-smi writes in its header for what was queried by
 * another: clocks.sm is printed clocks.current.sm, used_memory
 * used_gpu_memory. */
static int is_alias(const char *const *fields, int i, const char *w)
{
    if (fields == query_fields && i == Q_CLOCK)
        return strcmp(w, "clocks.current.sm") == 0;
    if (fields == app_fields && i == A_MEM)
        return strcmp(w, "used_gpu_memory") == 0;
    return 0;
}

/* Column indices of a header row: fields[i]'s column or -1; host the host
 * column or -1.  A header word is a field's name, its unit dropped. */
static void header_columns(const csv_row *row, const char *const *fields, int nf, int *col,
                           int *host)
{
    *host = -1;
    for (int i = 0; i < nf; i++)
        col[i] = -1;
    for (size_t c = 0; c < row->n; c++) {
        char w[64];
        trimmed(row, (int)c, w, sizeof w);
        w[strcspn(w, " [")] = '\0';
        if (is_host_word(w))
            *host = (int)c;
        for (int i = 0; i < nf; i++)
            if (strcmp(w, fields[i]) == 0 || is_alias(fields, i, w))
                col[i] = (int)c;
    }
}

/* The fixed columns of the noheader form (a host first when one more). */
static void fixed_columns(const csv_row *row, int nf, int *col, int *host)
{
    int h = (int)row->n == nf + 1;
    *host = h ? 0 : -1;
    for (int i = 0; i < nf; i++)
        col[i] = h + i;
}

/* 1 when row is a header: one of its fields, without its unit, is word. */
static int is_header(const csv_row *row, const char *word)
{
    for (size_t c = 0; c < row->n; c++) {
        char w[64];
        trimmed(row, (int)c, w, sizeof w);
        w[strcspn(w, " [")] = '\0';
        if (strcmp(w, word) == 0)
            return 1;
    }
    return 0;
}

/* Reads a file's rows after its header (if any): the columns found, then
 * fn for each row.  Shared by the two kinds of file. */
typedef struct smi_where {
    const char *path;           /* the file (borrowed from the import's paths) */
    const char *host;
    int host_from_file;         /* host is the file's name, not a column */
} smi_where;

typedef int (*smi_row_fn)(opsnap *o, const csv_reader *r, const csv_row *row, const int *col,
                          const smi_where *w, gp_err *err);

static int read_rows(opsnap *o, const char *path, const char *const *fields, int nf,
                     const char *header_word, int need_header_col, smi_row_fn fn, gp_err *err)
{
    csv_reader *r = csv_open(path, 0, err);
    if (!r)
        return -1;
    char file_host[GP_NAME_MAX];
    if (opsnap_host_of_file(path, file_host, sizeof file_host, err)) {
        csv_close(r);
        return -1;
    }
    csv_row row;
    int col[Q_NFIELDS], host = -1, first = 1, rc, fail = 0;
    while (!fail && (rc = csv_next(r, &row, err)) == 1) {
        if (first && is_header(&row, header_word)) {
            header_columns(&row, fields, nf, col, &host);
            first = 0;
            if (col[0] < 0 || (need_header_col >= 0 && col[need_header_col] < 0))
                fail = csv_fail(r, &row, 0, err, "expected a header with '%s' and '%s'",
                                fields[0], fields[need_header_col >= 0 ? need_header_col : 0]);
            continue;
        }
        if (first) {
            if ((int)row.n != nf && (int)row.n != nf + 1) {
                fail = csv_fail(r, &row, 0, err, "expected %d fields (%s, ...) or a header, "
                                "got %zu", nf, fields[0], row.n);
                break;
            }
            fixed_columns(&row, nf, col, &host);
            first = 0;
        }
        int want = 0;
        for (int i = 0; i < nf; i++)
            want = col[i] > want ? col[i] : want;
        want = host > want ? host : want;
        if ((int)row.n <= want) {
            fail = csv_fail(r, &row, (int)row.n - 1, err, "expected %d fields, got %zu",
                            want + 1, row.n);
            break;
        }
        char h[GP_NAME_MAX + 1];
        if (host >= 0)
            trimmed(&row, host, h, sizeof h);
        else
            strlcpy0(h, file_host, sizeof h);
        smi_where w = {path, h, host < 0};
        if (!h[0])
            fail = csv_fail(r, &row, host, err, "expected a host name");
        else if (strlen(h) >= GP_NAME_MAX)
            fail = csv_fail(r, &row, host, err, "expected a host name of at most %d bytes "
                            "(Kubernetes' limit), got one longer", GP_NAME_MAX - 1);
        else
            fail = fn(o, r, &row, col, &w, err);
    }
    csv_close(r);
    return fail || rc < 0 ? -1 : 0;
}

/* --- the two kinds of row --------------------------------------------------------- */

/* The bound of each --query-gpu number (opsnap.h), and its words. */
static const struct { opsnap_quantity q; const char *what; } bounds[Q_NFIELDS] = {
    [Q_MEM_TOTAL] = {OQ_MEM_MIB, "memory.total"}, [Q_MEM_USED] = {OQ_MEM_MIB, "memory.used"},
    [Q_UTIL] = {OQ_UTIL_PCT, "utilization.gpu"}, [Q_POWER] = {OQ_POWER_W, "power.draw"},
    [Q_POWER_LIMIT] = {OQ_POWER_W, "power.limit"}, [Q_CLOCK] = {OQ_CLOCK_MHZ, "clocks.sm"},
    [Q_CLOCK_MAX] = {OQ_CLOCK_MHZ, "clocks.max.sm"}};

static int gpu_row(opsnap *o, const csv_reader *r, const csv_row *row, const int *col,
                   const smi_where *w, gp_err *err)
{
    opsnap_gpu g;
    memset(&g, 0, sizeof g);
    strlcpy0(g.host, w->host, sizeof g.host);
    g.path = w->path;
    g.line = row->line;
    g.host_from_file = w->host_from_file;
    int64_t index;
    char idx[32];
    trimmed(row, col[Q_INDEX], idx, sizeof idx);
    if (!all_digits(idx) || strlen(idx) > 2 || (index = atoll(idx)) >= GP_NODE_MAX_GPUS)
        return csv_fail(r, row, col[Q_INDEX], err, "expected a GPU index 0..%d, got '%.20s'",
                        GP_NODE_MAX_GPUS - 1, row->field[col[Q_INDEX]]);
    g.index = (int)index;
    if (col[Q_UUID] >= 0)
        trimmed(row, col[Q_UUID], g.uuid, sizeof g.uuid);
    if (col[Q_NAME] >= 0)
        trimmed(row, col[Q_NAME], g.product, sizeof g.product);
    double *v[] = {NULL, NULL, NULL, &g.mem_total_mib, &g.mem_used_mib, &g.util_pct,
                   &g.power_w, &g.power_limit_w, &g.clock_mhz, &g.clock_max_mhz};
    for (int i = Q_MEM_TOTAL; i < Q_NFIELDS; i++)
        if (field_number(r, row, col[i], v[i], err))
            return -1;
    if (!isnan(g.util_pct) && g.util_pct > 100)
        return csv_fail(r, row, col[Q_UTIL], err, "expected a utilization 0..100 %%, got "
                        "'%.20s'", row->field[col[Q_UTIL]]);
    for (int i = Q_MEM_TOTAL; i < Q_NFIELDS; i++) {
        gp_err why;
        if (opsnap_check_bound(bounds[i].q, bounds[i].what, *v[i], &why))
            return csv_fail(r, row, col[i], err, "%s", why.msg);
    }
    if (opsnap_gpu_find(o, g.host, g.index) >= 0)
        return csv_fail(r, row, col[Q_INDEX], err, "GPU %d of %s is listed twice", g.index,
                        g.host);
    opsnap_gpu_add(o, &g);
    return 0;
}

static int app_row(opsnap *o, const csv_reader *r, const csv_row *row, const int *col,
                   const smi_where *w, gp_err *err)
{
    const char *host = w->host;
    opsnap_app a;
    memset(&a, 0, sizeof a);
    char pid[32];
    trimmed(row, col[A_PID], pid, sizeof pid);
    if (!all_digits(pid))
        return csv_fail(r, row, col[A_PID], err, "expected a process id, got '%.20s'",
                        row->field[col[A_PID]]);
    if (strlen(host) + 4 + strlen(pid) >= GP_NAME_MAX)
        return csv_fail(r, row, col[A_PID], err, "expected a process's name '<host>-pid<pid>' "
                        "of at most %d bytes (Kubernetes' limit)", GP_NAME_MAX - 1);
    snprintf(a.name, sizeof a.name, "%s-pid%s", host, pid);
    a.path = w->path;
    a.line = row->line;
    a.col = col[A_PID] + 1;
    if (col[A_UUID] >= 0)
        trimmed(row, col[A_UUID], a.uuid, sizeof a.uuid);
    if (strncmp(a.uuid, "GPU-", 4) != 0)
        return csv_fail(r, row, col[A_UUID], err, "expected a GPU uuid (GPU-...), got "
                        "'%.40s'", col[A_UUID] >= 0 ? row->field[col[A_UUID]] : "");
    a.index = -1;
    gp_err why;
    if (field_number(r, row, col[A_MEM], &a.mem_used_mib, err))
        return -1;
    if (opsnap_check_bound(OQ_MEM_MIB, "used_memory", a.mem_used_mib, &why))
        return csv_fail(r, row, col[A_MEM], err, "%s", why.msg);
    grow_array((void **)&o->apps, &o->apps_cap, o->napps + 1, sizeof *o->apps);
    o->apps[o->napps++] = a;
    return 0;
}

int smi_read_gpus(opsnap *o, const char *path, gp_err *err)
{
    return read_rows(o, path, query_fields, Q_NFIELDS, "index", Q_NAME, gpu_row, err);
}

int smi_read_apps(opsnap *o, const char *path, gp_err *err)
{
    return read_rows(o, path, app_fields, A_NFIELDS, "pid", A_UUID, app_row, err);
}

/* --- the importer ------------------------------------------------------------------- */

static int smi_run(store *st, const char *const *paths, size_t npaths,
                   const import_opts *opts, import_result *res, gp_err *err)
{
    char name[GP_NAME_MAX];
    opsnap_default_name(opts, paths[0], "smi", name, sizeof name);
    opsnap o;
    if (opsnap_init(&o, st, name, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < npaths && !rc; i++)
        rc = opsnap_read_monitor(&o, paths[i], err);
    if (!rc && o.ngpus == 0)
        rc = gp_error(err, "smi: no --query-gpu file among the paths (expected one per host)");
    size_t unmatched = 0;
    if (!rc) {
        opsnap_nodes_from_readings(&o);
        rc = opsnap_apply_readings(&o, &unmatched, err);
    }
    if (!rc)
        rc = opsnap_store(&o, st, opts->replace, res, err);
    if (!rc && unmatched) {
        size_t n[] = {unmatched};
        const char *why[] = {"processes on GPUs not listed"};
        import_note_skipped(res, n, why, 1);
    }
    opsnap_release(&o);
    return rc;
}

static int smi_score_file(const char *path)
{
    return smi_is_gpu_csv(path) || smi_is_apps_csv(path) ? 95 : 0;
}

static int smi_detect(const char *const *paths, size_t npaths)
{
    int any_gpu = 0;
    for (size_t i = 0; i < npaths; i++)
        any_gpu |= smi_is_gpu_csv(paths[i]);
    return any_gpu ? import_detect_each(paths, npaths, 4096, smi_score_file) : 0;
}

const importer import_smi = {
    .format = "smi",
    .summary = "nvidia-smi CSV of each host: the GPUs with their utilization, power and "
               "clocks, and the processes on them, as a cluster and a snapshot",
    .inputs = "HOST.csv per host from nvidia-smi --query-gpu=index,uuid,name,memory.total,"
              "memory.used,utilization.gpu,power.draw,power.limit,clocks.sm,clocks.max.sm "
              "--format=csv (or one file with a host column), and optionally HOST.apps.csv "
              "from --query-compute-apps=pid,gpu_uuid,used_memory --format=csv",
    .detect = smi_detect,
    .run = smi_run,
};
