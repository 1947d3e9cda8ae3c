/*
 * export_set.c — a CSV set written beside the old one and switched as a
 * whole, the manifest last (export_set.h).
 */
#include "export_set.h"
#include "export_file.h"
#include "set_manifest.h"
#include "core/hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct export_set {
    char *dir;
    const char *const *owned;   /* the files this kind of export replaces */
    uint64_t id;
    set_manifest done;          /* the files written, under temporary names */
};

/* An id no other export is likely to have: the clock, the process and a
 * count, hashed. */
static uint64_t new_set_id(void)
{
    static unsigned count;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t h = core_hash_word(CORE_HASH_INIT, (uint64_t)ts.tv_sec);
    h = core_hash_word(h, (uint64_t)ts.tv_nsec);
    h = core_hash_word(h, (uint64_t)getpid());
    h = core_hash_word(h, ++count);
    return h ^ h >> 29;
}

export_set *export_set_begin(const char *dir, const char *kind, gp_err *err)
{
    const char *const *owned = set_kind_files(kind);
    if (!owned) {
        gp_error(err, "export: no set of kind '%s'", kind);
        return NULL;
    }
    if (mkdir_p(dir, err))
        return NULL;
    export_set *s = xcalloc(1, sizeof *s);
    s->dir = xstrdup(dir);
    s->owned = owned;
    s->id = new_set_id();
    return s;
}

FILE *export_set_open(export_set *s, const char *file, gp_err *err)
{
    char *path = xasprintf("%s/%s", s->dir, file);
    FILE *f = out_file_open(path, err);
    free(path);
    return f;
}

int export_set_close(export_set *s, FILE *f, const char *file, gp_err *err)
{
    char *path = xasprintf("%s/%s", s->dir, file);
    int rc = out_file_finish(f, path, err);
    if (!rc) {
        char *tmp = out_file_tmp_name(path);
        set_entry *e = set_manifest_add(&s->done, file);
        e->set = s->id;
        rc = set_file_digest(tmp[0] ? tmp : path, &e->bytes, &e->digest, err);
        free(tmp);
    }
    free(path);
    return rc;
}

static void drop_written(export_set *s)
{
    for (size_t i = 0; i < s->done.n; i++) {
        char *path = xasprintf("%s/%s", s->dir, s->done.e[i].file);
        out_file_drop(path);
        free(path);
    }
}

static int owned(const export_set *s, const char *file)
{
    for (size_t i = 0; s->owned[i]; i++)
        if (strcmp(s->owned[i], file) == 0)
            return 1;
    return 0;
}

static int present(const export_set *s, const char *file)
{
    char *path = xasprintf("%s/%s", s->dir, file);
    struct stat sb;
    int there = lstat(path, &sb) == 0;
    free(path);
    return there;
}

/* The directory's manifest after this export: the rows of the files other
 * exports wrote that are still there (an unreadable old manifest lists
 * none: those files then import unchecked, as before there was one), then
 * this export's. */
static void next_manifest(export_set *s, set_manifest *next)
{
    set_manifest old = {0};
    gp_err ignored = {{0}};
    if (set_manifest_read(s->dir, &old, &ignored) == 0)
        for (size_t i = 0; i < old.n; i++)
            if (!owned(s, old.e[i].file) && !set_manifest_find(&s->done, old.e[i].file) &&
                present(s, old.e[i].file))
                *set_manifest_add(next, old.e[i].file) = old.e[i];
    set_manifest_free(&old);
    for (size_t i = 0; i < s->done.n; i++)
        *set_manifest_add(next, s->done.e[i].file) = s->done.e[i];
}

/* Writes the manifest under its temporary name; 0 or -1. */
static int write_manifest(export_set *s, gp_err *err)
{
    set_manifest next = {0};
    next_manifest(s, &next);
    char *path = xasprintf("%s/%s", s->dir, SET_MANIFEST);
    FILE *f = out_file_open(path, err);
    int rc = -1;
    if (f) {
        set_manifest_write(&next, f);
        rc = out_file_finish(f, path, err);
    }
    free(path);
    set_manifest_free(&next);
    return rc;
}

/* The files of the previous export of this kind that this one did not
 * write (a trace's util.csv when the new trace has no series). */
static int remove_stale(export_set *s, gp_err *err)
{
    for (size_t i = 0; s->owned[i]; i++) {
        if (set_manifest_find(&s->done, s->owned[i]))
            continue;
        char *path = xasprintf("%s/%s", s->dir, s->owned[i]);
        int e = unlink(path) != 0 && errno != ENOENT ? errno : 0;
        if (e)
            gp_error(err, "%s: cannot remove it (it is the previous export's): %s", path,
                     strerror(e));
        free(path);
        if (e)
            return -1;
    }
    return 0;
}

static int commit(export_set *s, gp_err *err)
{
    /* Everything that needs space is written before anything is renamed:
     * a full disk stops the export here, the old set untouched. */
    if (write_manifest(s, err)) {
        drop_written(s);
        return -1;
    }
    char *manifest = xasprintf("%s/%s", s->dir, SET_MANIFEST);
    int rc = 0;
    for (size_t i = 0; !rc && i < s->done.n; i++) {
        char *path = xasprintf("%s/%s", s->dir, s->done.e[i].file);
        rc = out_file_commit(path, err);
        free(path);
    }
    if (!rc)
        rc = remove_stale(s, err);
    /* The manifest last: until it is in place, the old one does not match
     * the new files and import refuses the mixture. */
    if (!rc)
        rc = out_file_commit(manifest, err);
    if (rc) {
        drop_written(s);
        out_file_drop(manifest);
    }
    free(manifest);
    return rc;
}

int export_set_end(export_set *s, int rc, gp_err *err)
{
    if (rc)
        drop_written(s);
    else
        rc = commit(s, err);
    set_manifest_free(&s->done);
    free(s->dir);
    free(s);
    return rc;
}
