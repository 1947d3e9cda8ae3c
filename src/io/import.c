/*
 * import.c — the importer registry, format detection and the transaction
 * wrapper every import runs in.
 */
#include "import.h"
#include "import_table.h"
#include "input.h"
#include "table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const importer *const importers[] = {
    &import_native,
    &import_openb,
    &import_genai,
    &import_gavel,
    &import_philly,
    &import_pai,
    &import_peace,
    &import_k8s,
    &import_smi,
    &import_dcgm,
    &import_promrange,
    NULL,
};

const importer *importer_find(const char *format)
{
    for (size_t i = 0; importers[i]; i++)
        if (strcasecmp(importers[i]->format, format) == 0)
            return importers[i];
    return NULL;
}

const importer *importer_detect(const char *const *paths, size_t npaths)
{
    const importer *best = NULL;
    int best_score = 0;
    for (size_t i = 0; importers[i]; i++) {
        int s = importers[i]->detect(paths, npaths);
        if (s > best_score) {
            best_score = s;
            best = importers[i];
        }
    }
    return best;
}

/* Names are at most GP_NAME_MAX - 1 bytes, and a longer one is refused
 * rather than cut: a cut name could be another entity's, which --replace
 * would then replace.  Without --name, the importers name things after
 * their paths. */
static int import_check_name(const import_opts *opts, const char *const *paths,
                             size_t npaths, gp_err *err)
{
    if (opts->name) {
        size_t n = strlen(opts->name);
        if (n >= GP_NAME_MAX) {
            char start[24], *shown;
            import_copy_utf8(start, sizeof start, opts->name);
            shown = text_printable(start);
            gp_error(err, "--name: a name is at most %d bytes; '%s...' has %zu",
                     GP_NAME_MAX - 1, shown, n);
            free(shown);
            return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < npaths; i++) {
        char base[4 * GP_NAME_MAX];
        import_base_name(paths[i], base, sizeof base);
        if (strlen(base) >= GP_NAME_MAX)
            return gp_error(err, "%s: a name is at most %d bytes and this file's has %zu; "
                            "give one with --name", paths[i], GP_NAME_MAX - 1, strlen(base));
    }
    return 0;
}

int import_run(store *st, const importer *imp, const char *const *paths, size_t npaths,
               const import_opts *opts, import_result *res, gp_err *err)
{
    memset(res, 0, sizeof *res);
    /* The transaction takes the write lock at the importer's first write.
     * Most importers parse their files whole first, so a long parse holds
     * nobody back; the native trace is read once, written as it is read
     * and rolled back at the first refusal, holding the lock while it
     * reads (other writers wait, readers do not: docs/writes.md). */
    if (store_check_writable(st, err) || import_check_name(opts, paths, npaths, err) ||
        store_begin(st, err))
        return -1;
    if (imp->run(st, paths, npaths, opts, res, err)) {
        store_rollback(st);
        return -1;
    }
    return store_commit(st, err);
}

int import_detect_each(const char *const *paths, size_t npaths, size_t max_paths,
                       int (*score_file)(const char *path))
{
    if (npaths < 1 || npaths > max_paths)
        return 0;
    int score = 100;
    for (size_t i = 0; i < npaths; i++) {
        int s = score_file(paths[i]);
        if (s < score)
            score = s;
    }
    return score;
}

void import_base_name(const char *path, char *buf, size_t len)
{
    size_t l = strlen(path);
    while (l > 1 && path[l - 1] == '/')
        l--;
    const char *start = path;
    for (size_t i = 0; i < l; i++)
        if (path[i] == '/')
            start = path + i + 1;
    size_t n = (size_t)(path + l - start);
    const char *dot = memchr(start, '.', n);
    if (dot && dot != start)
        n = (size_t)(dot - start);
    if (n >= len)
        n = len - 1;
    memcpy(buf, start, n);
    buf[n] = '\0';
}

size_t import_read_head(const char *path, char *buf, size_t len)
{
    size_t n = 0;
    FILE *f = input_open(path);
    if (f) {
        n = fread(buf, 1, len - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return n;
}

int import_first_line(const char *path, char *buf, size_t len)
{
    FILE *f = input_open(path);
    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\r\n")] = '\0';
    if (strncmp(buf, "\xEF\xBB\xBF", 3) == 0)      /* as csvread.c drops it */
        memmove(buf, buf + 3, strlen(buf + 3) + 1);
    return 0;
}

int import_is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int import_present(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

int import_dir_file(const char *dir, const char *file, char **path, gp_err *err)
{
    char *p = xasprintf("%s/%s", dir, file);
    struct stat sb;
    *path = NULL;
    if (lstat(p, &sb) != 0 && errno == ENOENT) {
        free(p);
        return 0;
    }
    FILE *f = fopen(p, "rb");
    int rc = 0;
    if (!f)
        rc = gp_error(err, "%s: cannot read: %s", p, strerror(errno));
    else if (fstat(fileno(f), &sb) != 0 || S_ISDIR(sb.st_mode))
        rc = gp_error(err, "%s: is a directory (expected a file)", p);
    if (f)
        fclose(f);
    if (rc) {
        free(p);
        return -1;
    }
    *path = p;
    return 0;
}

void import_copy_utf8(char *dst, size_t len, const char *s)
{
    size_t n = strlen(s);
    if (n >= len) {
        n = len - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int cmp_import_name(const void *a, const void *b)
{
    const import_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

int import_check_unique(const char *path, const char *what, import_name *v, size_t n,
                        gp_err *err)
{
    if (n < 2)
        return 0;
    qsort(v, n, sizeof *v, cmp_import_name);
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i].name, v[i - 1].name) == 0)
            return import_duplicate_error(path, what, v[i].name, v[i].line, v[i - 1].line,
                                          err);
    return 0;
}

int import_duplicate_error(const char *path, const char *what, const char *name, long line,
                           long first_line, gp_err *err)
{
    char *shown = text_printable(name);
    gp_error(err, "%s:%ld:1: duplicate %s name '%s' (first on line %ld; expected unique "
             "names)", path, line, what, shown, first_line);
    free(shown);
    return -1;
}

static int cmp_name_key(const void *key, const void *elem)
{
    return strcmp(key, ((const import_name *)elem)->name);
}

const import_name *import_find_name(const import_name *v, size_t n, const char *name)
{
    return n ? bsearch(name, v, n, sizeof *v, cmp_name_key) : NULL;
}

int import_put_cluster(store *st, cluster *c, int replace, import_result *res, gp_err *err)
{
    if (store_put_cluster(st, c, replace, err))
        return -1;
    res->clusters++;
    res->nodes += c->nnodes;
    import_note(res, "cluster", c->name);
    return 0;
}

int import_put_trace(store *st, gp_trace *t, int replace, import_result *res, gp_err *err)
{
    if (store_put_trace(st, t, replace, err))
        return -1;
    res->traces++;
    res->tasks += t->ntasks;
    for (size_t i = 0; i < t->ntasks; i++)
        res->samples += t->tasks[i].util.len;
    import_note(res, "trace", t->name);
    return 0;
}

int import_put_tput(store *st, tput_catalog *c, int replace, import_result *res, gp_err *err)
{
    if (store_put_tput_catalog(st, c, replace, err))
        return -1;
    res->tput_entries += c->nentries;
    import_note(res, "throughput catalog", c->name);
    return 0;
}

int import_check_name_len(const char *where, const char *what, const char *name, gp_err *err)
{
    size_t n = strlen(name);
    if (n < GP_NAME_MAX)
        return 0;
    char *shown = text_printable(name);
    gp_error(err, "%s%s%s '%s' is %zu bytes; a name is at most %d (Kubernetes' limit)",
             where ? where : "", where ? ": " : "", what, shown, n, GP_NAME_MAX - 1);
    free(shown);
    return -1;
}

void import_note(import_result *res, const char *kind, const char *name)
{
    size_t off = strlen(res->names);
    char *shown = text_printable(name);
    snprintf(res->names + off, sizeof res->names - off, "%s%s '%s'", off ? ", " : "",
             kind, shown);
    free(shown);
}

void import_note_skipped(import_result *res, const size_t *count, const char *const *reason,
                         size_t n)
{
    size_t off = strlen(res->names);
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (!count[i])
            continue;
        snprintf(res->names + off, sizeof res->names - off, "%s%zu %s",
                 any ? ", " : " (skipped: ", count[i], reason[i]);
        off = strlen(res->names);
        any = 1;
    }
    if (any)
        snprintf(res->names + off, sizeof res->names - off, ")");
}
