/*
 * store_cluster.c — clusters and their nodes.
 */
#include "store_int.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Per-device memory as "16|16|32"; "" when every device uses the profile's.
 * Returns an allocated string. */
static char *format_dev_mem(const node *n)
{
    strbuf b = STRBUF_INIT;
    int any = 0;
    for (int i = 0; i < n->gpu_count && i < GP_NODE_MAX_GPUS; i++)
        any |= n->gpu_mem_gib[i] > 0;
    for (int i = 0; any && i < n->gpu_count && i < GP_NODE_MAX_GPUS; i++) {
        strbuf_sep(&b, "|");
        strbuf_printf(&b, "%g", n->gpu_mem_gib[i]);
    }
    return strbuf_take(&b);
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
static int profile_id(store *s, store_kind kind, const char *name, const char *node_name,
                      int64_t *id, gp_err *err)
{
    *id = 0;
    if (!name[0])
        return 0;
    if (store_find_id(s, kind, name, id, err))
        return -1;
    char hint[300];
    if (!*id)
        return gp_error(err, "node '%s': unknown %s model '%s'%s (add the profile first)",
                        node_name, kind == STORE_GPU ? "GPU" : "CPU", name,
                        store_name_hint(s, kind, name, hint, sizeof hint));
    return 0;
}

static int bind_node(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    const node *n = &((const cluster *)obj)->nodes[i];
    int64_t gid, pid;
    if (profile_id(s, STORE_GPU, n->gpu_model, n->name, &gid, err) ||
        profile_id(s, STORE_CPU, n->cpu_model, n->name, &pid, err))
        return -1;
    if (n->gpu_count > 0 && !gid)
        return gp_error(err, "node '%s': has %d GPUs but no GPU model", n->name,
                        n->gpu_count);
    sqlite3_bind_int64(st, 2, (int64_t)i);
    store_bind_text(st, 3, n->name);
    gid ? sqlite3_bind_int64(st, 4, gid) : sqlite3_bind_null(st, 4);
    sqlite3_bind_int(st, 5, n->gpu_count);
    sqlite3_bind_int64(st, 6, n->cpu_milli);
    sqlite3_bind_int64(st, 7, n->ram_mib);
    pid ? sqlite3_bind_int64(st, 8, pid) : sqlite3_bind_null(st, 8);
    sqlite3_bind_double(st, 9, n->static_w);
    sqlite3_bind_double(st, 10, n->other_w);
    sqlite3_bind_text(st, 11, format_dev_mem(n), -1, free);
    return 0;
}

static int insert_cluster(store *s, cluster *c, int replace, gp_err *err)
{
    if (store_insert_named(s, STORE_CLUSTER, c->name, c->source, replace, &c->id, err))
        return -1;
    return store_write_rows(s, "INSERT INTO node(cluster_id, idx, name, gpu_profile_id,"
                            " gpu_count, cpu_milli, ram_mib, cpu_profile_id, static_w,"
                            " other_w, gpu_mem_gib) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
                            c->id, c, c->nnodes, bind_node, NULL, err);
}

int store_put_cluster(store *s, cluster *c, int replace, gp_err *err)
{
    assert(c);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_cluster(s, c, replace, err), err);
}

static void read_node(sqlite3_stmt *st, void *obj)
{
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
    cluster_add_node(obj, &n);
}

static int load_nodes(store *s, void *obj, gp_err *err)
{
    const cluster *c = obj;
    return store_read_rows(s, "SELECT n.name, coalesce(g.name, ''), n.gpu_count, n.cpu_milli,"
                           " n.ram_mib, coalesce(p.name, ''), n.static_w, n.other_w,"
                           " n.gpu_mem_gib FROM node n"
                           " LEFT JOIN gpu_profile g ON g.id = n.gpu_profile_id"
                           " LEFT JOIN cpu_profile p ON p.id = n.cpu_profile_id"
                           " WHERE n.cluster_id = ?1 ORDER BY n.idx",
                           c->id, read_node, obj, "reading nodes", err);
}

static void *cluster_from_row(sqlite3_stmt *st, const char *name)
{
    cluster *c = cluster_new(name);
    c->id = sqlite3_column_int64(st, 0);
    c->source = store_col_strdup(st, 1);
    return c;
}

static void free_cluster(void *c)
{
    cluster_free(c);
}

static const store_entity cluster_entity = {
    .kind = STORE_CLUSTER,
    .sql = "SELECT id, source FROM cluster WHERE name = ?1",
    .from_row = cluster_from_row,
    .load_children = load_nodes,
    .free = free_cluster,
};

int store_get_cluster(store *s, const char *name, cluster **out, gp_err *err)
{
    void *c;
    int rc = store_load_named(s, &cluster_entity, name, &c, err);
    *out = c;
    return rc;
}

int store_delete_cluster(store *s, const char *name, gp_err *err)
{
    return store_delete_entity(s, STORE_CLUSTER, name, err);
}
