/*
 * shard.c — shard.h: the I/N partition of a work list and the FNV-1a
 * fingerprint of a sweep.
 */
#include "shard.h"
#include "shard_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int shard_parse(const char *text, shard *out, gp_err *err)
{
    char *end;
    long i = strtol(text, &end, 10);
    if (end == text || *end != '/')
        return gp_error(err, "expected I/N, e.g. 0/4, got '%s'", text);
    const char *ns = end + 1;
    long n = strtol(ns, &end, 10);
    if (end == ns || *end || n < 1 || n > SHARD_MAX || i < 0 || i >= n)
        return gp_error(err, "expected I/N with 0 <= I < N <= %d, e.g. 0/4, got '%s'",
                        SHARD_MAX, text);
    out->i = (int)i;
    out->n = (int)n;
    return 0;
}

int shard_parse_opt(void *value, const char *text, gp_err *err)
{
    return shard_parse(text, value, err);
}

size_t shard_count(shard s, size_t total)
{
    return (size_t)s.i < total ? (total - (size_t)s.i + (size_t)s.n - 1) / (size_t)s.n : 0;
}

size_t shard_job(shard s, size_t local)
{
    return (size_t)s.i + local * (size_t)s.n;
}

uint64_t fp_str(uint64_t h, const char *s)
{
    const char *e = s;
    while (*e)
        e++;
    return fp_bytes(h, s, (size_t)(e - s) + 1);
}

void fp_hex(uint64_t h, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, h);
}
