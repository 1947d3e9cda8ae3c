/*
 * clspec.h — a cluster described in a few words instead of a CSV file:
 *
 *   NAME --gpu H100 --servers 24 --per-server 8 [--cpus 128] [--ram-gib 1024]
 *        [--cpu MODEL] [--gpu A100-40GB --servers 4 ...]
 *
 * Each --gpu starts a group of identical servers; the options after it
 * (until the next --gpu) describe that group's servers.  The same words
 * make a cluster from the command line (`gpuplan cluster create`) and from
 * the dashboard's Data screen, so both accept exactly the same things.
 *
 * Parsing is pure; building checks the models against a catalog.
 * Ownership: clspec_build() returns a cluster the caller frees.
 */
#ifndef GP_CLSPEC_H
#define GP_CLSPEC_H

#include "model.h"
#include "util.h"

#define CLSPEC_MAX_GROUPS 8
#define CLSPEC_MAX_SERVERS 100000

typedef struct clspec_group {
    char gpu[GP_NAME_MAX];      /* GPU profile */
    int servers;                /* default 1 */
    int per_server;             /* GPUs per server, default 8 */
    int cpus;                   /* vCPUs per server, default 128 */
    int ram_gib;                /* RAM per server, default 1024 */
    char cpu[GP_NAME_MAX];      /* CPU profile, "" = none */
} clspec_group;

typedef struct clspec {
    char name[GP_NAME_MAX];
    clspec_group group[CLSPEC_MAX_GROUPS];
    int ngroups;
} clspec;

/* The flags a group takes, for usage messages. */
#define CLSPEC_USAGE "NAME --gpu MODEL [--servers N] [--per-server N] [--cpus N] " \
                     "[--ram-gib N] [--cpu MODEL] [--gpu MODEL ...]"

/* Parses argv (the name first, then the flags; "--flag=value" too) into
 * *out.  0, or -1 with err saying which word is wrong. */
int clspec_parse(int argc, char *const *argv, clspec *out, gp_err *err);
/* Splits text on spaces and parses it (the dashboard's prompt). */
int clspec_parse_text(const char *text, clspec *out, gp_err *err);

/* The cluster the spec describes, its GPU and CPU models checked against
 * cat; servers are named MODEL-NN in order.  NULL with err. */
cluster *clspec_build(const clspec *s, const catalog *cat, gp_err *err);

#endif
