/*
 * export_file.c — writing a file whole or not at all (export_file.h): a
 * temporary file beside the target renamed over it, links refused,
 * devices and pipes written in place; and the in-memory scratch file for
 * libraries that write by name (memfd_create).
 */
#define _GNU_SOURCE             /* memfd_create */
#include "export_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* path's temporary sibling: ".BASE.PID.tmp" in the same directory, so the
 * rename stays on one file system. */
static char *tmp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    return xasprintf("%.*s.%s.%ld.tmp", dirlen, path, base, (long)getpid());
}

/* 1 when path is something that is written in place (a device, a pipe, a
 * socket): it exists and is neither a regular file, a directory nor a
 * link. */
static int in_place(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode) &&
           !S_ISLNK(sb.st_mode);
}

FILE *out_file_open(const char *path, gp_err *err)
{
    struct stat sb;
    int replaces = 0;           /* a regular file is there: keep its mode */
    if (lstat(path, &sb) == 0) {
        replaces = S_ISREG(sb.st_mode);
        if (S_ISLNK(sb.st_mode)) {
            gp_error(err, "%s: is a symbolic link; gpuplan does not write through a link "
                     "it did not make (remove it or give another path)", path);
            return NULL;
        }
        if (S_ISDIR(sb.st_mode)) {
            gp_error(err, "%s: is a directory", path);
            return NULL;
        }
        if (!S_ISREG(sb.st_mode)) {
            FILE *f = fopen(path, "w");
            if (!f)
                gp_error(err, "%s: cannot write: %s", path, strerror(errno));
            return f;
        }
    }
    char *tmp = tmp_name(path);
    /* O_EXCL and O_NOFOLLOW: nothing already at the temporary name (a
     * leftover, someone's link) is written through. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 && replaces)
        (void)fchmod(fd, sb.st_mode & 07777);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        gp_error(err, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    }
    free(tmp);
    return f;
}

/* The errno of the first thing that failed in finishing f, 0 when none,
 * -1 when a write failed earlier for a reason stdio no longer knows. */
static int finish(FILE *f, int sync)
{
    int e = 0;
    errno = 0;
    if (fflush(f) != 0)
        e = errno ? errno : -1;
    else if (ferror(f))
        e = -1;
    if (!e && sync && fsync(fileno(f)) != 0)
        e = errno;
    errno = 0;
    if (fclose(f) != 0 && !e)
        e = errno ? errno : -1;
    return e;
}

static int write_error(const char *path, int e, gp_err *err)
{
    if (e > 0)
        return gp_error(err, "%s: writing failed: %s", path, strerror(e));
    return gp_error(err, "%s: writing failed", path);
}

int out_file_close(FILE *f, const char *path, gp_err *err)
{
    int e;
    if (in_place(path)) {
        e = finish(f, 0);
        return e ? write_error(path, e, err) : 0;
    }
    char *tmp = tmp_name(path);
    e = finish(f, 1);
    if (!e && rename(tmp, path) != 0)
        e = errno;
    if (e)
        unlink(tmp);
    free(tmp);
    return e ? write_error(path, e, err) : 0;
}

int out_file_finish(FILE *f, const char *path, gp_err *err)
{
    int place = in_place(path);
    int e = finish(f, !place);
    if (e && !place)
        out_file_drop(path);
    return e ? write_error(path, e, err) : 0;
}

int out_file_commit(const char *path, gp_err *err)
{
    if (in_place(path))
        return 0;
    char *tmp = tmp_name(path);
    int e = rename(tmp, path) != 0 ? errno : 0;
    free(tmp);
    return e ? write_error(path, e, err) : 0;
}

void out_file_drop(const char *path)
{
    if (in_place(path))
        return;
    char *tmp = tmp_name(path);
    unlink(tmp);
    free(tmp);
}

char *out_file_tmp_name(const char *path)
{
    return in_place(path) ? xstrdup("") : tmp_name(path);
}

void out_file_discard(FILE *f, const char *path)
{
    fclose(f);
    if (in_place(path))
        return;
    char *tmp = tmp_name(path);
    unlink(tmp);
    free(tmp);
}

int out_stream_check(FILE *f, const char *name, gp_err *err)
{
    errno = 0;
    if (fflush(f) != 0)
        return write_error(name, errno ? errno : -1, err);
    if (ferror(f))
        return write_error(name, -1, err);
    return 0;
}

/* ---- the in-memory scratch file ------------------------------------------------------ */

int out_scratch_open(out_scratch *s, gp_err *err)
{
    s->fd = memfd_create("gpuplan-out", MFD_CLOEXEC);
    if (s->fd < 0)
        return gp_error(err, "cannot make a file in memory: %s", strerror(errno));
    snprintf(s->name, sizeof s->name, "/proc/self/fd/%d", s->fd);
    return 0;
}

long out_scratch_size(const out_scratch *s)
{
    struct stat sb;
    return s->fd >= 0 && fstat(s->fd, &sb) == 0 ? (long)sb.st_size : 0;
}

int out_scratch_save(const out_scratch *s, const char *path, gp_err *err)
{
    FILE *f = out_file_open(path, err);
    if (!f)
        return -1;
    char buf[65536];
    off_t at = 0;
    ssize_t n;
    while ((n = pread(s->fd, buf, sizeof buf, at)) > 0) {
        if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
            break;
        at += n;
    }
    if (n < 0) {
        int e = errno;
        out_file_discard(f, path);
        return gp_error(err, "%s: reading what was written in memory: %s", path, strerror(e));
    }
    return out_file_close(f, path, err);
}

void out_scratch_close(out_scratch *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}
