/*
 * inflation_read.c — the inflation experiment's order and rank files
 * (inflation_read.h) on the project's CSV reader (csvread.h): libcsv
 * splits the fields, the reader keeps the physical line of each row, drops
 * a byte-order mark and skips blank lines; this file decides the layout
 * (tab- or comma-separated, header or plain list) and maps names to tasks
 * and nodes.
 */
#include "inflation_read.h"
#include "csvread.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- layout ------------------------------------------------------------------ */

/* Tab-separated when the first line holds a tab (the published logs are
 * TSV), else comma-separated. */
static int sniff_delim(const char *path, char *delim, gp_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gp_error(err, "%s: cannot open: %s", path, strerror(errno));
    int c;
    *delim = ',';
    while ((c = getc(f)) != EOF && c != '\n')
        if (c == '\t') {
            *delim = '\t';
            break;
        }
    fclose(f);
    return 0;
}

/* The file opened with its delimiter and its first row read: 1 with the
 * row, 0 for a file without one, -1 with a message. */
static int open_first(const char *path, csv_reader **r, csv_row *first, gp_err *err)
{
    char delim = ',';
    if (sniff_delim(path, &delim, err) || !(*r = csv_open_delim(path, 0, delim, err)))
        return -1;
    return csv_next(*r, first, err);
}

/* The field of row named by the first of names that it holds (names in
 * order of preference), or -1. */
static int named_col(const csv_row *row, const char *const *names)
{
    for (size_t k = 0; names[k]; k++)
        for (size_t i = 0; i < row->n; i++)
            if (strcmp(row->field[i], names[k]) == 0)
                return (int)i;
    return -1;
}

/* Field col of row, or an error naming the field that is missing. */
static int field_at(const csv_reader *r, const csv_row *row, int col, const char *what,
                    const char **out, gp_err *err)
{
    if ((size_t)col >= row->n)
        return csv_fail(r, row, (int)row->n, err, "row has %zu fields, expected %s in field %d",
                        row->n, what, col + 1);
    *out = row->field[col];
    return 0;
}

/* --- task names ---------------------------------------------------------------- */

/* A trace task by name; a clone's "-tuned-N" suffix names its original
 * (the published simulator's clone names, FGD_NOTES §1.2). */
static int task_by_name(const name_idx *v, size_t n, const char *name)
{
    int i = name_idx_find(v, n, name);
    const char *t = strstr(name, "-tuned-");
    if (i < 0 && t) {
        char base[GP_NAME_MAX];
        size_t l = (size_t)(t - name) < sizeof base - 1 ? (size_t)(t - name) : sizeof base - 1;
        memcpy(base, name, l);
        base[l] = '\0';
        i = name_idx_find(v, n, base);
    }
    return i;
}

/* --- the order ------------------------------------------------------------------- */

typedef struct order_read {
    const gp_trace *tr;
    name_idx *names;
    int *out;
    size_t n, cap;
} order_read;

static int order_row(const csv_reader *r, const csv_row *row, int col, order_read *o,
                     gp_err *err)
{
    const char *name = "";
    if (field_at(r, row, col, "a task name", &name, err))
        return -1;
    if (!name[0])
        return 0;
    int ti = task_by_name(o->names, o->tr->ntasks, name);
    if (ti < 0)
        return csv_fail(r, row, col, err, "task '%s' is not in trace '%s' (expected a task "
                        "name of the trace)", name, o->tr->name);
    grow_array((void **)&o->out, &o->cap, o->n + 1, sizeof *o->out);
    o->out[o->n++] = ti;
    return 0;
}

int inflation_read_order(const char *path, const gp_trace *tr, int **order, size_t *n,
                         gp_err *err)
{
    static const char *const cols[] = {"trace_pod", "pod", "name", "task", NULL};
    csv_reader *r = NULL;
    csv_row row;
    int rc = open_first(path, &r, &row, err);
    order_read o = {tr, trace_names_sorted(tr), NULL, 0, 0};
    int col = rc == 1 ? named_col(&row, cols) : -1;
    if (rc == 1 && col < 0) {
        col = 0;                /* a plain list: the first line is a name */
        rc = order_row(r, &row, col, &o, err) ? -1 : 1;
    }
    while (rc == 1 && (rc = csv_next(r, &row, err)) == 1)
        if (order_row(r, &row, col, &o, err))
            rc = -1;
    if (rc == 0 && o.n == 0)
        rc = gp_error(err, "%s:1:1: no task names (expected one per line, or a column "
                      "named trace_pod, pod, name or task)", path);
    csv_close(r);
    free(o.names);
    if (rc < 0) {
        free(o.out);
        return -1;
    }
    *order = o.out;
    *n = o.n;
    return 0;
}

/* --- the ranks ------------------------------------------------------------------- */

static int node_by_name(const cluster *cl, const char *name)
{
    for (size_t i = 0; i < cl->nnodes; i++)
        if (strcmp(cl->nodes[i].name, name) == 0)
            return (int)i;
    return -1;
}

typedef struct rank_read {
    const cluster *cl;
    int *rank;
    int ncol, rcol;             /* rcol -1: ranks in line order */
    int next;                   /* the line-order rank of the next row */
    long last_line;
} rank_read;

static int rank_row(const csv_reader *r, const csv_row *row, rank_read *k, gp_err *err)
{
    const char *name = "", *text = "";
    int64_t rv = k->next++;
    k->last_line = row->line;
    if (k->rcol >= 0) {
        if (field_at(r, row, k->rcol, "a rank", &text, err))
            return -1;
        if (parse_int64(text, &rv) || rv < 0 || rv > INT_MAX)
            return csv_fail(r, row, k->rcol, err, "expected an integer rank from 0 to %d, "
                            "got '%.40s'", INT_MAX, text);
    }
    if (field_at(r, row, k->ncol, "a node name", &name, err))
        return -1;
    int ni = node_by_name(k->cl, name);
    if (ni < 0)
        return csv_fail(r, row, k->ncol, err, "node '%s' is not in cluster '%s'", name,
                        k->cl->name);
    if (k->rank[ni] >= 0)
        return csv_fail(r, row, k->ncol, err, "node '%s' ranked twice", name);
    k->rank[ni] = (int)rv;
    return 0;
}

int inflation_read_ranks(const char *path, const cluster *cl, int *rank, gp_err *err)
{
    static const char *const node_cols[] = {"node", "name", NULL};
    static const char *const rank_cols[] = {"tie_rank", "rank", NULL};
    for (size_t i = 0; i < cl->nnodes; i++)
        rank[i] = -1;
    csv_reader *r = NULL;
    csv_row row;
    int rc = open_first(path, &r, &row, err);
    rank_read k = {cl, rank, -1, -1, 0, 0};
    if (rc == 1) {
        k.last_line = row.line;
        if ((k.ncol = named_col(&row, node_cols)) >= 0) {
            k.rcol = named_col(&row, rank_cols);
        } else {
            k.ncol = 0;         /* node names in rank order */
            rc = rank_row(r, &row, &k, err) ? -1 : 1;
        }
    }
    while (rc == 1 && (rc = csv_next(r, &row, err)) == 1)
        if (rank_row(r, &row, &k, err))
            rc = -1;
    for (size_t i = 0; rc == 0 && i < cl->nnodes; i++)
        if (rank[i] < 0)
            rc = gp_error(err, "%s:%ld:1: node '%s' has no rank (expected every node of "
                          "cluster '%s')", path, k.last_line + 1, cl->nodes[i].name,
                          cl->name);
    csv_close(r);
    return rc < 0 ? -1 : 0;
}
