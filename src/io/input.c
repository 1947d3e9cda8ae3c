/*
 * input.c — inputs read once (input.h): pipes and FIFOs copied into memory
 * before a format is detected, and the importers' readers served from the
 * copies.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A FIFO that has not produced data for this long is said to be waited on. */
#define INPUT_WAIT_NOTICE_MS 1000

typedef struct input_copy {
    char *path;
    char *data;
    size_t len;
} input_copy;

static input_copy *copies;
static size_t ncopies, copies_cap;

static const input_copy *find_copy(const char *path)
{
    for (size_t i = 0; i < ncopies; i++)
        if (strcmp(copies[i].path, path) == 0)
            return &copies[i];
    return NULL;
}

/* Reads fd to its end; the first second without data calls waiting once.
 * A FIFO is opened without blocking (so the notice can be given while no
 * writer has opened it) and polled. */
static int read_all(int fd, const char *path, input_wait_fn waiting, void *ctx,
                    input_copy *c, gp_err *err)
{
    size_t cap = 65536;
    c->data = xmalloc(cap);
    c->len = 0;
    int told = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, INPUT_WAIT_NOTICE_MS);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return gp_error(err, "%s: %s", path, strerror(errno));
        if (r == 0) {
            if (!told && c->len == 0 && waiting)
                waiting(ctx, path);
            told = 1;
            continue;
        }
        if (c->len + 1 >= cap)
            c->data = xrealloc(c->data, cap *= 2);
        ssize_t n = read(fd, c->data + c->len, cap - c->len - 1);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n < 0)
            return gp_error(err, "%s: %s", path, strerror(errno));
        if (n == 0)
            break;
        c->len += (size_t)n;
    }
    c->data[c->len] = '\0';
    return 0;
}

static int preload_one(const char *path, input_wait_fn waiting, void *ctx, gp_err *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode) || find_copy(path))
        return 0;               /* a missing path is the importer's to name */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return gp_error(err, "%s: %s", path, strerror(errno));
    input_copy c = {xstrdup(path), NULL, 0};
    int rc = read_all(fd, path, waiting, ctx, &c, err);
    close(fd);
    if (rc) {
        free(c.path);
        free(c.data);
        return -1;
    }
    grow_array((void **)&copies, &copies_cap, ncopies + 1, sizeof *copies);
    copies[ncopies++] = c;
    return 0;
}

int input_preload(const char *const *paths, size_t npaths, input_wait_fn waiting, void *ctx,
                  gp_err *err)
{
    for (size_t i = 0; i < npaths; i++)
        if (preload_one(paths[i], waiting, ctx, err))
            return -1;
    return 0;
}

void input_release(void)
{
    for (size_t i = 0; i < ncopies; i++) {
        free(copies[i].path);
        free(copies[i].data);
    }
    free(copies);
    copies = NULL;
    ncopies = copies_cap = 0;
}

FILE *input_open(const char *path)
{
    const input_copy *c = find_copy(path);
    if (!c)
        return fopen(path, "rb");
    if (c->len == 0)                /* fmemopen refuses a size of 0 */
        return fopen("/dev/null", "rb");
    return fmemopen(c->data, c->len, "rb");
}

char *input_read_file(const char *path, size_t *len, gp_err *err)
{
    const input_copy *c = find_copy(path);
    if (!c)
        return read_file(path, len, err);
    char *text = xmalloc(c->len + 1);
    memcpy(text, c->data, c->len);
    text[c->len] = '\0';
    *len = c->len;
    return text;
}
