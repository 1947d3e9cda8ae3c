/*
 * set_manifest.c — a CSV set directory's manifest.csv (set_manifest.h):
 * reading and writing it, the files each kind of export replaces, the
 * groups of files that must come from one export, and import's check.
 */
#include "set_manifest.h"
#include "csvread.h"
#include "import.h"
#include "core/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int set_file_digest(const char *path, int64_t *bytes, uint64_t *digest, gp_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gp_error(err, "%s: cannot read: %s", path, strerror(errno));
    enum { CHUNK = 1 << 16 };
    char *buf = xmalloc(CHUNK);
    uint64_t h = CORE_HASH_INIT;
    int64_t n = 0;
    size_t got;
    while ((got = fread(buf, 1, CHUNK, f)) > 0) {
        h = core_hash_bytes(h, buf, got);
        n += (int64_t)got;
    }
    int bad = ferror(f);
    fclose(f);
    free(buf);
    if (bad)
        return gp_error(err, "%s: cannot read", path);
    *bytes = n;
    *digest = h;
    return 0;
}

void set_manifest_free(set_manifest *m)
{
    free(m->e);
    m->e = NULL;
    m->n = m->cap = 0;
}

set_entry *set_manifest_find(set_manifest *m, const char *file)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->e[i].file, file) == 0)
            return &m->e[i];
    return NULL;
}

set_entry *set_manifest_add(set_manifest *m, const char *file)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->e = xrealloc(m->e, m->cap * sizeof *m->e);
    }
    set_entry *e = &m->e[m->n++];
    memset(e, 0, sizeof *e);
    strlcpy0(e->file, file, sizeof e->file);
    return e;
}

void set_manifest_write(const set_manifest *m, FILE *f)
{
    fputs("file,set,bytes,fnv1a\n", f);
    for (size_t i = 0; i < m->n; i++)
        fprintf(f, "%s,%016" PRIx64 ",%" PRId64 ",%016" PRIx64 "\n", m->e[i].file,
                m->e[i].set, m->e[i].bytes, m->e[i].digest);
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Sixteen lowercase or uppercase hex digits, as set_manifest_write puts them. */
static int hex64(const csv_reader *r, const csv_row *row, int col, uint64_t *out, gp_err *err)
{
    const char *s = row->field[col];
    uint64_t v = 0;
    size_t i = 0;
    for (; s[i]; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0 || i >= 16)
            break;
        v = v << 4 | (uint64_t)d;
    }
    if (i != 16 || s[i])
        return csv_fail(r, row, col, err, "column '%s': expected 16 hex digits, got '%s'",
                        csv_header(r)->field[col], s);
    *out = v;
    return 0;
}

/* A file of the directory itself: not empty, no '/', not "." or "..". */
static int plain_name(const char *s)
{
    return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static int manifest_row(void *ctx, const csv_reader *r, const csv_row *row, const int *c,
                        const int *o, gp_err *err)
{
    (void)o;
    set_manifest *m = ctx;
    const char *file = row->field[c[0]];
    if (!plain_name(file) || strlen(file) >= sizeof m->e->file)
        return csv_fail(r, row, c[0], err, "column 'file': expected the name of a file of "
                        "the directory, got '%s'", file);
    set_entry *dup = set_manifest_find(m, file);
    if (dup)
        return csv_fail(r, row, c[0], err, "'%s' is listed twice (first on line %ld)", file,
                        dup->line);
    set_entry e = {{0}, 0, 0, 0, row->line};
    strlcpy0(e.file, file, sizeof e.file);
    if (hex64(r, row, c[1], &e.set, err) ||
        csv_int(r, row, c[2], 0, INT64_MAX, &e.bytes, err) ||
        hex64(r, row, c[3], &e.digest, err))
        return -1;
    *set_manifest_add(m, file) = e;
    return 0;
}

int set_manifest_read(const char *dir, set_manifest *m, gp_err *err)
{
    char *path;
    if (import_dir_file(dir, SET_MANIFEST, &path, err))
        return -1;
    if (!path)
        return 0;
    static const char *const req[] = {"file", "set", "bytes", "fnv1a", NULL};
    int rc = csv_each(path, req, NULL, manifest_row, m, err);
    free(path);
    if (rc)
        set_manifest_free(m);
    return rc;
}

/* ---- kinds and groups ------------------------------------------------------------------- */

typedef struct set_kind {
    const char *kind;
    const char *files[9];
} set_kind;

static const set_kind kinds[] = {
    {"cluster", {"gpus.csv", "cpus.csv", "nodes.csv", NULL}},
    {"trace", {"trace.csv", "tasks.csv", "util.csv", NULL}},
    {"snapshot", {"gpus.csv", "cpus.csv", "nodes.csv", "trace.csv", "tasks.csv", "util.csv",
                  "placements.csv", "readings.csv", NULL}},
    {"tput", {"tput.csv", NULL}},
    {"peace", {"peace.csv", "peace_workloads.csv", "peace_profiles.csv",
               "peace_colocations.csv", NULL}},
    {"run", {"timeline.csv", "outcomes.csv", "decisions.csv", "metrics.csv", NULL}},
};

const char *const *set_kind_files(const char *kind)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i].kind, kind) == 0)
            return kinds[i].files;
    return NULL;
}

/* Files that are read together and so must come from one export: a
 * cluster's nodes and profiles, a trace's tasks and series, a snapshot's
 * placements and what they name, a PEACE set, a run.  A group marked
 * anchored binds its files only when its first is there (a cluster's
 * nodes.csv and a trace's tasks.csv belong together only in a snapshot). */
static const struct {
    int anchored;
    const char *files[5];
} groups[] = {
    {0, {"gpus.csv", "cpus.csv", "nodes.csv", NULL}},
    {0, {"trace.csv", "tasks.csv", "util.csv", NULL}},
    {1, {"placements.csv", "readings.csv", "nodes.csv", "tasks.csv", NULL}},
    {0, {"peace.csv", "peace_workloads.csv", "peace_profiles.csv", "peace_colocations.csv",
         NULL}},
    {0, {"timeline.csv", "outcomes.csv", "decisions.csv", "metrics.csv", NULL}},
};

static int present_in(const char *dir, const char *file)
{
    char *p = xasprintf("%s/%s", dir, file);
    int there = import_present(p);
    free(p);
    return there;
}

/* ---- import's check --------------------------------------------------------------------- */

/* A listed file is there and is the one its export wrote. */
static int check_entry(const char *dir, const set_entry *e, gp_err *err)
{
    char *path = xasprintf("%s/%s", dir, e->file);
    struct stat sb;
    int64_t bytes = 0;
    uint64_t digest = 0;
    int rc = 0;
    if (lstat(path, &sb) != 0 && errno == ENOENT)
        rc = gp_error(err, "%s/%s:%ld:1: lists %s, which is missing: the export that wrote "
                      "this set did not finish (export it again)", dir, SET_MANIFEST, e->line,
                      e->file);
    else if (set_file_digest(path, &bytes, &digest, err))
        rc = -1;
    else if (bytes != e->bytes || digest != e->digest)
        rc = gp_error(err, "%s: not the file the export listed in %s/%s:%ld:1 wrote (%" PRId64
                      " bytes, then %" PRId64 "): the set holds files of two exports, or one "
                      "was changed since (export it again, or remove %s to import the files "
                      "as they are)", path, dir, SET_MANIFEST, e->line, bytes, e->bytes,
                      SET_MANIFEST);
    free(path);
    return rc;
}

/* The files of one group that are present come from one export. */
static int check_group(const char *dir, set_manifest *m, const char *const *group, gp_err *err)
{
    const set_entry *first = NULL;
    const char *unlisted = NULL;
    for (size_t i = 0; group[i]; i++) {
        set_entry *e = set_manifest_find(m, group[i]);
        if (!e) {
            if (!unlisted && present_in(dir, group[i]))
                unlisted = group[i];
            continue;
        }
        if (!first)
            first = e;
        else if (e->set != first->set)
            return gp_error(err, "%s/%s:%ld:1: %s and %s (line %ld) come from two exports; "
                            "they are read together (export the set again)", dir,
                            SET_MANIFEST, e->line, e->file, first->file, first->line);
    }
    if (first && unlisted)
        return gp_error(err, "%s/%s: %s is not listed beside %s (line %ld): it is not from "
                        "the export that wrote it (export the set again, or remove %s)", dir,
                        SET_MANIFEST, unlisted, first->file, first->line, unlisted);
    return 0;
}

/* A listed file the caller hashes as it reads it: only its presence and
 * size here (its own message comes from set_manifest_check()). */
static int check_size(const char *dir, const set_entry *e, gp_err *err)
{
    char *path = xasprintf("%s/%s", dir, e->file);
    struct stat sb;
    int rc = stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (int64_t)sb.st_size != e->bytes
                 ? gp_error(err, "%s: not the file the export listed in %s/%s:%ld:1 wrote",
                            path, dir, SET_MANIFEST, e->line)
                 : 0;
    free(path);
    return rc;
}

static int listed(const char *const *files, const char *file)
{
    for (size_t i = 0; files && files[i]; i++)
        if (strcmp(files[i], file) == 0)
            return 1;
    return 0;
}

int set_manifest_check_except(const char *dir, const char *const *later, set_manifest *m,
                              gp_err *err)
{
    if (set_manifest_read(dir, m, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; !rc && i < m->n; i++)
        rc = listed(later, m->e[i].file) ? check_size(dir, &m->e[i], err)
                                         : check_entry(dir, &m->e[i], err);
    for (size_t g = 0; !rc && g < sizeof groups / sizeof *groups; g++)
        if (!groups[g].anchored || present_in(dir, groups[g].files[0]))
            rc = check_group(dir, m, groups[g].files, err);
    return rc;
}

int set_manifest_check(const char *dir, gp_err *err)
{
    set_manifest m = {0};
    int rc = set_manifest_check_except(dir, NULL, &m, err);
    set_manifest_free(&m);
    return rc;
}
