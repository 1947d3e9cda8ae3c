/*
 * clspec.c — clusters from a few words (clspec.h): the flag parser and
 * the builder.  No I/O: storing the cluster is the caller's.
 */
#include "clspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set_int(const char *flag, const char *v, int lo, int hi, int *out, gp_err *err)
{
    int64_t n;
    if (parse_int64(v, &n) || n < lo || n > hi)
        return gp_error(err, "%s: expected a whole number from %d to %d, got '%s'", flag, lo,
                        hi, v);
    *out = (int)n;
    return 0;
}

static int set_name(const char *flag, const char *v, char *out, gp_err *err)
{
    if (!*v || strlen(v) >= GP_NAME_MAX)
        return gp_error(err, "%s: expected a name of 1 to %d characters", flag, GP_NAME_MAX - 1);
    strlcpy0(out, v, GP_NAME_MAX);
    return 0;
}

static int new_group(clspec *s, const char *model, gp_err *err)
{
    if (s->ngroups == CLSPEC_MAX_GROUPS)
        return gp_error(err, "at most %d --gpu groups", CLSPEC_MAX_GROUPS);
    clspec_group *g = &s->group[s->ngroups++];
    memset(g, 0, sizeof *g);
    g->servers = 1;
    g->per_server = 8;
    g->cpus = 128;
    g->ram_gib = 1024;
    return set_name("--gpu", model, g->gpu, err);
}

/* One flag with its value, applied to the spec. */
static int apply_flag(clspec *s, const char *flag, const char *v, gp_err *err)
{
    if (strcmp(flag, "--gpu") == 0)
        return new_group(s, v, err);
    if (s->ngroups == 0)
        return gp_error(err, "%s: give --gpu MODEL first (each --gpu starts a group of servers)",
                        flag);
    clspec_group *g = &s->group[s->ngroups - 1];
    if (strcmp(flag, "--servers") == 0)
        return set_int(flag, v, 1, CLSPEC_MAX_SERVERS, &g->servers, err);
    if (strcmp(flag, "--per-server") == 0)
        return set_int(flag, v, 1, GP_NODE_MAX_GPUS, &g->per_server, err);
    if (strcmp(flag, "--cpus") == 0)
        return set_int(flag, v, 1, 1 << 20, &g->cpus, err);
    if (strcmp(flag, "--ram-gib") == 0)
        return set_int(flag, v, 1, 1 << 24, &g->ram_gib, err);
    if (strcmp(flag, "--cpu") == 0)
        return set_name(flag, v, g->cpu, err);
    return gp_error(err, "unknown option '%s'", flag);
}

int clspec_parse(int argc, char *const *argv, clspec *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (argc < 1 || argv[0][0] == '-')
        return gp_error(err, "expected the cluster's name first");
    if (set_name("name", argv[0], out->name, err))
        return -1;
    if (strchr(out->name, '/'))
        return gp_error(err, "a cluster's name cannot contain '/': '%s'", out->name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            return gp_error(err, "unexpected argument '%s'", a);
        char flag[32];
        const char *eq = strchr(a, '='), *v;
        if (eq) {
            snprintf(flag, sizeof flag, "%.*s", (int)(eq - a), a);
            v = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
            if (i + 1 >= argc)
                return gp_error(err, "%s: missing its value", flag);
            v = argv[++i];
        }
        if (apply_flag(out, flag, v, err))
            return -1;
    }
    if (out->ngroups == 0)
        return gp_error(err, "no servers: give --gpu MODEL [--servers N] [--per-server N]");
    return 0;
}

int clspec_parse_text(const char *text, clspec *out, gp_err *err)
{
    char *copy = xstrdup(text), *save = NULL, *words[64];
    int n = 0;
    for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == 64) {
            free(copy);
            return gp_error(err, "too many words");
        }
        words[n++] = t;
    }
    int rc = clspec_parse(n, words, out, err);
    free(copy);
    return rc;
}

cluster *clspec_build(const clspec *s, const catalog *cat, gp_err *err)
{
    long total = 0;
    for (int k = 0; k < s->ngroups; k++) {
        const clspec_group *g = &s->group[k];
        if (!catalog_gpu(cat, g->gpu)) {
            char hint[300];
            gp_error(err, "--gpu: no GPU profile named '%s'%s (gpuplan list gpus)", g->gpu,
                     catalog_gpu_hint(cat, g->gpu, hint, sizeof hint));
            return NULL;
        }
        if (g->cpu[0] && !catalog_cpu(cat, g->cpu)) {
            char hint[300];
            gp_error(err, "--cpu: no CPU profile named '%s'%s (gpuplan list cpus)", g->cpu,
                     catalog_cpu_hint(cat, g->cpu, hint, sizeof hint));
            return NULL;
        }
        total += g->servers;
    }
    if (total > CLSPEC_MAX_SERVERS) {
        gp_error(err, "%ld servers: at most %d", total, CLSPEC_MAX_SERVERS);
        return NULL;
    }
    int digits = total > 1000 ? 5 : total > 100 ? 3 : 2;
    cluster *c = cluster_new(s->name);
    long next = 0;
    for (int k = 0; k < s->ngroups; k++) {
        const clspec_group *g = &s->group[k];
        for (int i = 0; i < g->servers; i++) {
            node n;
            memset(&n, 0, sizeof n);
            snprintf(n.name, sizeof n.name, "%s-%0*ld", g->gpu, digits, next++);
            strlcpy0(n.gpu_model, g->gpu, sizeof n.gpu_model);
            n.gpu_count = g->per_server;
            n.cpu_milli = (int64_t)g->cpus * 1000;
            n.ram_mib = (int64_t)g->ram_gib * 1024;
            strlcpy0(n.cpu_model, g->cpu, sizeof n.cpu_model);
            cluster_add_node(c, &n);
        }
    }
    return c;
}
