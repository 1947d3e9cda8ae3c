/*
 * import_gavel.c — the Gavel throughput table ("gavel", SPEC §4.2): the
 * `scheduler/simulation_throughputs.json` of the Gavel scheduler (Narayanan
 * et al., OSDI'20; the dataset GOGH, seed 004, uses) into a throughput
 * catalog named after the file unless --name is given.
 *
 * Shape: { accelerator: { job type: { "null": solo, job type: [own, other],
 * ... } } }.  A job type is the Python repr of a (str, int) tuple:
 * "('ResNet-18 (batch size 32)', 1)" — model, batch size, scale (GPUs the
 * job spans).  The real file also has models without a batch size,
 * "('A3C', 1)" and "('CycleGAN', 1)": batch_size 0 means "none".  Each
 * solo throughput becomes a tput_entry with co_model ""; each co-located
 * pair one with co_model/co_batch_size/co_scale and co_tput = the other
 * job's throughput.  Entries keep the file's order.
 *
 * jansson parses (syntax errors come with its line and column, duplicate
 * keys are refused) but keeps no positions for values, so semantic errors
 * are located by re-walking the raw text along the JSON path of the bad
 * value (jsonpos.h): a structural walk, not a plain text search, because
 * the same job-type key appears at several depths.
 *
 * Not done here: the *_unconsolidated accelerators are kept as separate
 * accelerator names, as in the file; mapping accelerators to GPU profiles is
 * the tput_class field of the profiles, not this importer's business.
 */
#include "import.h"
#include "import_table.h"
#include "jsonpos.h"
#include "core/model.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TPUT 1e9             /* iterations/s; measured values are < 1e4 */
#define MAX_BATCH (1 << 24)
#define MAX_SCALE 1024

/* The raw text, kept to locate values for error messages. */
typedef struct gavel_doc {
    const char *path;
    const char *text;
    size_t len;
} gavel_doc;

/* "file:line:col: $[...]: message", the position being that of the last
 * step of p found (a member's key, an array element); returns -1. */
__attribute__((format(printf, 4, 5)))
static int gavel_fail(const gavel_doc *d, const jsonpos_path *p, gp_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = jsonpos_vfail(d->path, d->text, d->len, p, JSONPOS_BRACKETS, err, fmt, ap);
    va_end(ap);
    return rc;
}

/* --- the table ---------------------------------------------------------- */

/* A job type as Gavel writes it (file comment). */
typedef struct job_type {
    char model[GP_NAME_MAX];
    int batch_size;              /* 0 = the model has none */
    int scale;
} job_type;

/* Decimal digits s[0..n) as 1..max, no sign or leading zero; -1 if not. */
static int parse_count(const char *s, size_t n, int max)
{
    if (n == 0 || n > 9 || s[0] == '0')
        return -1;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v <= max ? v : -1;
}

/* A model name: printable, no quote or parenthesis, no outer spaces. */
static int valid_model(const char *s, size_t n)
{
    if (n == 0 || n >= GP_NAME_MAX || s[0] == ' ' || s[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || strchr("'\"()", s[i]))
            return 0;
    return 1;
}

/* "('<model> (batch size N)', S)" or "('<model>', S)"; 0 or -1. */
static int parse_job_type(const char *s, job_type *jt)
{
    static const char batch[] = " (batch size ";
    size_t n = strlen(s);
    const char *q = strrchr(s, '\'');             /* closing quote of the name */
    if (n < 7 || strncmp(s, "('", 2) != 0 || s[n - 1] != ')' || q <= s + 1 ||
        strncmp(q, "', ", 3) != 0)
        return -1;
    jt->scale = parse_count(q + 3, (size_t)(s + n - 1 - (q + 3)), MAX_SCALE);
    const char *name = s + 2, *b = strstr(name, batch);
    size_t name_len = (size_t)(q - name);
    jt->batch_size = 0;
    if (b && b < q) {
        if (q[-1] != ')')
            return -1;
        const char *digits = b + sizeof batch - 1;
        jt->batch_size = parse_count(digits, (size_t)(q - 1 - digits), MAX_BATCH);
        name_len = (size_t)(b - name);
        if (jt->batch_size < 0)
            return -1;
    }
    if (jt->scale < 0 || !valid_model(name, name_len))
        return -1;
    memcpy(jt->model, name, name_len);
    jt->model[name_len] = '\0';
    return 0;
}

static int job_key(const gavel_doc *d, const jsonpos_path *p, const char *key, job_type *jt,
                   gp_err *err)
{
    if (parse_job_type(key, jt))
        return gavel_fail(d, p, err, "expected a job type \"('<model> (batch size N)', "
                          "scale)\" or \"('<model>', scale)\" with N 1..%d and scale "
                          "1..%d", MAX_BATCH, MAX_SCALE);
    return 0;
}

/* A throughput: a finite number in [0, MAX_TPUT]. */
static int throughput(const gavel_doc *d, const jsonpos_path *p, const json_t *v, double *out,
                      gp_err *err)
{
    if (!json_is_number(v))
        return gavel_fail(d, p, err, "expected a throughput (a number >= 0), got %s",
                          jsonpos_type_name(v));
    double x = json_number_value(v);
    if (!isfinite(x) || x < 0 || x > MAX_TPUT)
        return gavel_fail(d, p, err, "expected a throughput in [0, %g] iterations/s, got %g",
                          MAX_TPUT, x);
    *out = x + 0.0;             /* no -0 */
    return 0;
}

static void entry_init(tput_entry *e, const char *accel, const job_type *jt)
{
    memset(e, 0, sizeof *e);
    strlcpy0(e->accel, accel, sizeof e->accel);
    strlcpy0(e->model, jt->model, sizeof e->model);
    e->batch_size = jt->batch_size;
    e->scale = jt->scale;
}

/* One co-located pair: [own, other]. */
static int parse_pair(const gavel_doc *d, const jsonpos_path *p, const char *accel,
                      const job_type *jt, const char *co_key, const json_t *v,
                      tput_catalog *c, gp_err *err)
{
    job_type co;
    tput_entry e;
    entry_init(&e, accel, jt);
    if (job_key(d, p, co_key, &co, err))
        return -1;
    if (!json_is_array(v) || json_array_size(v) != 2)
        return gavel_fail(d, p, err, "expected [own, other] throughputs (an array of 2 "
                          "numbers), got %s%s", jsonpos_type_name(v),
                          json_is_array(v) ? (json_array_size(v) < 2 ? " of fewer" :
                                              " of more") : "");
    jsonpos_path own = jsonpos_index(p, 0), other = jsonpos_index(p, 1);
    if (throughput(d, &own, json_array_get(v, 0), &e.tput, err) ||
        throughput(d, &other, json_array_get(v, 1), &e.co_tput, err))
        return -1;
    strlcpy0(e.co_model, co.model, sizeof e.co_model);
    e.co_batch_size = co.batch_size;
    e.co_scale = co.scale;
    tput_catalog_add(c, &e);
    return 0;
}

/* One job type: its solo throughput ("null"), then its pairs. */
static int parse_job(const gavel_doc *d, const jsonpos_path *p, const char *accel,
                     const char *key, json_t *v, tput_catalog *c, gp_err *err)
{
    job_type jt;
    if (job_key(d, p, key, &jt, err))
        return -1;
    if (!json_is_object(v))
        return gavel_fail(d, p, err, "expected an object of \"null\" and co-located job "
                          "types, got %s", jsonpos_type_name(v));
    json_t *solo = json_object_get(v, "null");
    if (!solo)
        return gavel_fail(d, p, err, "missing key \"null\" (expected the solo throughput)");
    tput_entry e;
    entry_init(&e, accel, &jt);
    jsonpos_path sp = jsonpos_key(p, "null");
    if (throughput(d, &sp, solo, &e.tput, err))
        return -1;
    tput_catalog_add(c, &e);
    const char *co_key;
    json_t *pair;
    json_object_foreach(v, co_key, pair) {
        jsonpos_path pp = jsonpos_key(p, co_key);
        if (strcmp(co_key, "null") != 0 &&
            parse_pair(d, &pp, accel, &jt, co_key, pair, c, err))
            return -1;
    }
    return 0;
}

/* Accelerator names as Gavel writes them: k80, v100_unconsolidated, ... */
static int valid_accel(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof ((tput_entry *)0)->accel)
        return 0;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == n;
}

static int parse_accel(const gavel_doc *d, const jsonpos_path *p, const char *accel, json_t *v,
                       tput_catalog *c, gp_err *err)
{
    if (!valid_accel(accel))
        return gavel_fail(d, p, err, "expected an accelerator name (1..31 letters, digits, "
                          "'_', '-' or '.')");
    if (!json_is_object(v) || json_object_size(v) == 0)
        return gavel_fail(d, p, err, "expected a non-empty object of job types, got %s%s",
                          jsonpos_type_name(v), json_is_object(v) ? " with no members" : "");
    const char *key;
    json_t *job;
    json_object_foreach(v, key, job) {
        jsonpos_path jp = jsonpos_key(p, key);
        if (parse_job(d, &jp, accel, key, job, c, err))
            return -1;
    }
    return 0;
}

static int parse_table(const gavel_doc *d, json_t *root, tput_catalog *c, gp_err *err)
{
    jsonpos_path p = {.depth = 0};
    if (!json_is_object(root) || json_object_size(root) == 0)
        return gavel_fail(d, &p, err, "expected a non-empty object of accelerator types "
                          "(k80, p100, v100, ...), got %s%s", jsonpos_type_name(root),
                          json_is_object(root) ? " with no members" : "");
    const char *accel;
    json_t *jobs;
    json_object_foreach(root, accel, jobs) {
        jsonpos_path ap = jsonpos_key(&p, accel);
        if (parse_accel(d, &ap, accel, jobs, c, err))
            return -1;
    }
    return 0;
}

/* --- the import --------------------------------------------------------- */

static json_t *load_json(const gavel_doc *d, gp_err *err)
{
    if (jsonpos_skip_ws(d->text, d->len, 0) == d->len) {
        gp_error(err, "%s:1:1: empty file (expected a JSON object of accelerator types)",
                 d->path);
        return NULL;
    }
    /* Checked before jansson so the message names the bad byte itself, in
     * the words the CSV importers use. */
    const char *enc = utf_other_encoding(d->text, d->len);
    if (enc) {
        gp_error(err, "%s:1:1: the file is %s text (expected UTF-8; iconv -f %s -t UTF-8 "
                 "converts it)", d->path, enc, enc);
        return NULL;
    }
    size_t bad;
    if (!utf8_valid(d->text, d->len, &bad)) {
        long line, col;
        jsonpos_line_col(d->text, d->len, bad, &line, &col);
        gp_error(err, "%s:%ld:%ld: invalid UTF-8 byte 0x%02x (expected UTF-8 text)", d->path,
                 line, col, (unsigned char)d->text[bad]);
        return NULL;
    }
    /* jansson skips a NUL byte between tokens, or calls it the end of file. */
    const char *nul = memchr(d->text, '\0', d->len);
    if (nul) {
        long line, col;
        jsonpos_line_col(d->text, d->len, (size_t)(nul - d->text), &line, &col);
        gp_error(err, "%s:%ld:%ld: NUL byte (expected JSON text)", d->path, line, col);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES, &je);
    /* jansson's column is that of the end of the bad token, and 0 at the
     * start of a line (end of file after a newline): columns here are 1-based. */
    if (!root)
        gp_error(err, "%s:%d:%d: %s (expected valid JSON)", d->path, je.line,
                 je.column > 0 ? je.column : 1, je.text);
    return root;
}

static int gavel_run(store *st, const char *const *paths, size_t npaths,
                     const import_opts *opts, import_result *res, gp_err *err)
{
    if (npaths != 1)
        return gp_error(err, "gavel: expected one JSON file, got %zu paths", npaths);
    if (import_is_dir(paths[0]))
        return gp_error(err, "%s: is a directory (expected Gavel's throughput JSON)",
                        paths[0]);
    gavel_doc d = {paths[0], NULL, 0};
    char *text = read_file(d.path, &d.len, err);
    if (!text)
        return -1;
    jsonpos_strip_bom(text, &d.len);
    d.text = text;
    char name[GP_NAME_MAX];
    import_base_name(d.path, name, sizeof name);
    tput_catalog *c = tput_catalog_new(opts->name ? opts->name : name);
    c->source = xstrdup(d.path);
    json_t *root = load_json(&d, err);
    int rc = root ? parse_table(&d, root, c, err) : -1;
    if (!rc)
        rc = import_put_tput(st, c, opts->replace, res, err);
    json_decref(root);
    tput_catalog_free(c);
    free(text);
    return rc;
}

/* 95 when the file starts like Gavel's table (an object whose members hold
 * job-type keys), 60 for a *throughput*.json name, else 0. */
static int gavel_detect(const char *const *paths, size_t npaths)
{
    if (npaths != 1 || import_is_dir(paths[0]))
        return 0;
    char head[4096];
    size_t n = import_read_head(paths[0], head, sizeof head);
    jsonpos_strip_bom(head, &n);
    const char *s = head + strspn(head, " \t\r\n");
    if (*s == '{' && strstr(s, "\"('") && strstr(s, "\"null\""))
        return 95;
    char base[256];
    import_base_name(paths[0], base, sizeof base);
    size_t l = strlen(paths[0]);
    if (strstr(base, "throughput") && l > 5 && strcmp(paths[0] + l - 5, ".json") == 0)
        return 60;
    return 0;
}

const importer import_gavel = {
    .format = "gavel",
    .summary = "Gavel throughput table (simulation_throughputs.json; GOGH): solo and "
               "co-located throughputs per accelerator",
    .inputs = "one JSON file: {accelerator: {\"('<model> (batch size N)', scale)\": "
              "{\"null\": solo, job type: [own, other]}}}",
    .detect = gavel_detect,
    .run = gavel_run,
};
