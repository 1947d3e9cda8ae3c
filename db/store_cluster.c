/*
 * store_cluster.c — clusters and their nodes.
 */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-device memory as "16|16|32"; "" when every device uses the profile's. */
static void format_dev_mem(const node *n, char *buf, size_t len)
{
    buf[0] = '\0';
    int any = 0;
    for (int i = 0; i < n->gpu_count && i < GP_NODE_MAX_GPUS; i++)
        any |= n->gpu_mem_gib[i] > 0;
    if (!any)
        return;
    size_t off = 0;
    for (int i = 0; i < n->gpu_count && i < GP_NODE_MAX_GPUS && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%g", i ? "|" : "",
                                n->gpu_mem_gib[i]);
}

static void parse_dev_mem(node *n, const char *s)
{
    for (int i = 0; *s && i < GP_NODE_MAX_GPUS; i++) {
        n->gpu_mem_gib[i] = strtod(s, NULL);
        const char *bar = strchr(s, '|');
        if (!bar)
            break;
        s = bar + 1;
    }
}

/* Looks up a profile id by name; 0 for an empty name. */
static int profile_id(store *s, const char *sql, const char *name, const char *what,
                      const char *node_name, int64_t *id, gp_err *err)
{
    *id = 0;
    if (!name[0])
        return 0;
    if (store_lookup_id(s, sql, name, id, err))
        return -1;
    if (!*id)
        return gp_error(err, "node '%s': unknown %s model '%s' (add the profile first)",
                        node_name, what, name);
    return 0;
}

static int insert_nodes(store *s, int64_t cid, const cluster *c, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO node(cluster_id, idx, name, gpu_profile_id,"
                      " gpu_count, cpu_milli, ram_mib, cpu_profile_id, static_w,"
                      " other_w, gpu_mem_gib) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
                      &st, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < c->nnodes && rc == 0; i++) {
        const node *n = &c->nodes[i];
        int64_t gid, pid;
        char mem[GP_NODE_MAX_GPUS * 12];
        if (profile_id(s, "SELECT id FROM gpu_profile WHERE name = ?1", n->gpu_model,
                       "GPU", n->name, &gid, err) ||
            profile_id(s, "SELECT id FROM cpu_profile WHERE name = ?1", n->cpu_model,
                       "CPU", n->name, &pid, err)) {
            rc = -1;
            break;
        }
        if (n->gpu_count > 0 && !gid) {
            rc = gp_error(err, "node '%s': has %d GPUs but no GPU model", n->name,
                          n->gpu_count);
            break;
        }
        format_dev_mem(n, mem, sizeof mem);
        sqlite3_bind_int64(st, 1, cid);
        sqlite3_bind_int64(st, 2, (int64_t)i);
        store_bind_text(st, 3, n->name);
        gid ? sqlite3_bind_int64(st, 4, gid) : sqlite3_bind_null(st, 4);
        sqlite3_bind_int(st, 5, n->gpu_count);
        sqlite3_bind_int64(st, 6, n->cpu_milli);
        sqlite3_bind_int64(st, 7, n->ram_mib);
        pid ? sqlite3_bind_int64(st, 8, pid) : sqlite3_bind_null(st, 8);
        sqlite3_bind_double(st, 9, n->static_w);
        sqlite3_bind_double(st, 10, n->other_w);
        store_bind_text(st, 11, mem);
        rc = store_step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_cluster(store *s, cluster *c, int replace, gp_err *err)
{
    int64_t old;
    if (store_lookup_id(s, "SELECT id FROM cluster WHERE name = ?1", c->name, &old, err))
        return -1;
    if (old && !replace)
        return gp_error(err, "a cluster named '%s' already exists (delete it or "
                        "import with --replace)", c->name);
    if (old && store_delete_cluster(s, c->name, err))
        return -1;
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO cluster(name, source) VALUES (?1, ?2) RETURNING id",
                      &st, err))
        return -1;
    store_bind_text(st, 1, c->name);
    store_bind_text(st, 2, c->source);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        c->id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return store_sql_error(s, err, "inserting cluster");
    return insert_nodes(s, c->id, c, err);
}

int store_put_cluster(store *s, cluster *c, int replace, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_cluster(s, c, replace, err), err);
}

static int load_nodes(store *s, cluster *c, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT n.name, coalesce(g.name, ''), n.gpu_count, n.cpu_milli,"
                      " n.ram_mib, coalesce(p.name, ''), n.static_w, n.other_w,"
                      " n.gpu_mem_gib FROM node n"
                      " LEFT JOIN gpu_profile g ON g.id = n.gpu_profile_id"
                      " LEFT JOIN cpu_profile p ON p.id = n.cpu_profile_id"
                      " WHERE n.cluster_id = ?1 ORDER BY n.idx", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, c->id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        node n;
        memset(&n, 0, sizeof n);
        strlcpy0(n.name, store_col_text(st, 0), sizeof n.name);
        strlcpy0(n.gpu_model, store_col_text(st, 1), sizeof n.gpu_model);
        n.gpu_count = sqlite3_column_int(st, 2);
        n.cpu_milli = sqlite3_column_int64(st, 3);
        n.ram_mib = sqlite3_column_int64(st, 4);
        strlcpy0(n.cpu_model, store_col_text(st, 5), sizeof n.cpu_model);
        n.static_w = sqlite3_column_double(st, 6);
        n.other_w = sqlite3_column_double(st, 7);
        parse_dev_mem(&n, store_col_text(st, 8));
        cluster_add_node(c, &n);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading nodes");
}

int store_get_cluster(store *s, const char *name, cluster **out, gp_err *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    if (store_prepare(s, "SELECT id, source FROM cluster WHERE name = ?1", &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE)
            return gp_error(err, "no cluster named '%s'", name);
        return store_sql_error(s, err, "reading cluster");
    }
    cluster *c = cluster_new(name);
    c->id = sqlite3_column_int64(st, 0);
    if (sqlite3_column_type(st, 1) != SQLITE_NULL)
        c->source = xstrdup(store_col_text(st, 1));
    sqlite3_finalize(st);
    if (load_nodes(s, c, err)) {
        cluster_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* Deletes the row named `name` from a parent table; children go by ON DELETE
 * CASCADE.  `sql` is a fixed "DELETE FROM <table> WHERE name = ?1". */
int store_delete_named(store *s, const char *sql, const char *what, const char *name,
                       gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    if (rc == 0 && sqlite3_changes(s->db) == 0)
        rc = gp_error(err, "no %s named '%s'", what, name);
    return rc;
}

int store_delete_cluster(store *s, const char *name, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, store_delete_named(s, "DELETE FROM cluster WHERE name = ?1",
                                               "cluster", name, err), err);
}
