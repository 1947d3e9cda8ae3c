/*
 * cli_whatif.h — `--from-snapshot NAME` of run, plan and solve: the
 * options every one of them takes for it, loading the what-if (the
 * snapshot, its cluster, the arrivals) and the line that describes the
 * state it starts from.
 */
#ifndef GP_CLI_WHATIF_H
#define GP_CLI_WHATIF_H

#include <stdio.h>

#include "cli.h"
#include "sim/whatif.h"

typedef struct cli_whatif {
    const char *snapshot;       /* --from-snapshot, NULL = none */
    whatif_opts o;              /* --remaining, --more, --more-gap */
} cli_whatif;

/* The option rows, for a command's table (between its own rows). */
#define CLI_WHATIF_OPTS(w) \
    OPT_STRING("from-snapshot", 0, "NAME", &(w)->snapshot, "start from this snapshot: its " \
               "tasks in place on its cluster, then the trace (if any) arrives"), \
    OPT_DOUBLE("remaining", 0, "S", &(w)->o.remaining_s, 0, INFINITY, "with --from-snapshot: " \
               "standalone seconds each task in place has left", .def = "its duration"), \
    OPT_INT("more", 0, "N", &(w)->o.more, 0, 100000, "with --from-snapshot: N more tasks like " \
            "the snapshot's arrive"), \
    OPT_DOUBLE("more-gap", 0, "S", &(w)->o.more_gap_s, 0, INFINITY, "with --more: seconds " \
               "between their arrivals", .def = "0")

/* Loads the catalog, the snapshot's cluster (which cluster_name, when
 * given, must be) and the trace trace_name (NULL = none) into in, and the
 * what-if into w: in->tr is then the what-if's trace (owned by w; in->tr
 * must not be freed through in).  0 or -1 with a message. */
int cli_whatif_load(store *st, const cli_whatif *cw, const char *cluster_name,
                    const char *trace_name, cli_inputs *in, whatif *w, gp_err *err);
/* Releases what cli_whatif_load() loaded (in and w). */
void cli_whatif_free(cli_inputs *in, whatif *w);

/* "from snapshot 'lab' on cluster 'lab': 5 tasks in place on 3 of 5 GPUs
 * (1.7 GPUs idle, FGD fragmentation 1.2 GPUs), 2 arriving" */
int cli_whatif_describe(FILE *out, const cli_whatif *cw, const cli_inputs *in,
                        const whatif *w, gp_err *err);

/* A stored snapshot as show and export present it: with its cluster, the
 * catalog and how its state looks (whatif_look_at with nothing arriving;
 * look.frag_milli is NAN when it cannot be measured). */
typedef struct cli_snapview {
    snapshot *sn;
    cluster *cl;
    catalog *cat;
    whatif_look look;
} cli_snapview;

/* 0, or -1 with a message (nothing to free then). */
int cli_snapview_load(store *st, const char *name, cli_snapview *v, gp_err *err);
void cli_snapview_free(cli_snapview *v);

#endif
