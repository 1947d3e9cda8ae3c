/*
 * store_list.c — one-line listings of every entity kind, for `gpuplan list`
 * and the TUI's Data screen.  Each kind is one fixed query returning
 * (id, name, count, count2, detail, created).
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    const char *sql;
} kinds[STORE_KIND_COUNT] = {
    [STORE_GPU] = {"gpu",
        "SELECT id, name, 0, 0, printf('%g GiB, %g-%g W, %g-%g MHz, beta %g, %s, speed %g%s',"
        " mem_gib, idle_w, max_w, f_min_mhz, f_max_mhz, beta,"
        " CASE WHEN price_usd IS NULL THEN 'price unknown' ELSE printf('$%g', price_usd) END,"
        " speed,"
        " CASE tput_class WHEN '' THEN '' ELSE ', class ' || tput_class END), ''"
        " FROM gpu_profile ORDER BY name"},
    [STORE_CPU] = {"cpu",
        "SELECT id, name, 0, 0, printf('%d cores, %g-%g W per package', cores, idle_w,"
        " max_w), '' FROM cpu_profile ORDER BY name"},
    [STORE_CLUSTER] = {"cluster",
        "SELECT c.id, c.name, count(n.idx), coalesce(sum(n.gpu_count), 0),"
        " coalesce((SELECT group_concat(m, ' ') FROM (SELECT DISTINCT g.name AS m"
        "  FROM node n2 JOIN gpu_profile g ON g.id = n2.gpu_profile_id"
        "  WHERE n2.cluster_id = c.id ORDER BY g.name)), ''), c.created"
        " FROM cluster c LEFT JOIN node n ON n.cluster_id = c.id"
        " GROUP BY c.id ORDER BY c.name"},
    [STORE_TRACE] = {"trace",
        "SELECT t.id, t.name, count(k.idx), count(k.util), coalesce(t.source, ''), t.created"
        " FROM trace t LEFT JOIN task k ON k.trace_id = t.id"
        " WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.trace_id = t.id)"
        " GROUP BY t.id ORDER BY t.name"},
    [STORE_TPUT] = {"tput",
        "SELECT c.id, c.name, count(e.rowid), count(DISTINCT e.accel),"
        " coalesce(c.source, ''), c.created FROM tput_catalog c"
        " LEFT JOIN tput_entry e ON e.catalog_id = c.id GROUP BY c.id ORDER BY c.name"},
    [STORE_SNAPSHOT] = {"snapshot",
        "SELECT s.id, s.name, (SELECT count(*) FROM task k WHERE k.trace_id = s.trace_id),"
        " 0, printf('cluster %s at t=%gs', c.name, s.time_s), s.created FROM snapshot s"
        " JOIN cluster c ON c.id = s.cluster_id ORDER BY s.name"},
    [STORE_RUN] = {"run",
        /* An inflation run keeps no per-task outcomes: its task count is a metric. */
        "SELECT r.id, r.name, max((SELECT count(*) FROM run_outcome o WHERE o.run_id = r.id),"
        " coalesce((SELECT CAST(m.value AS INTEGER) FROM run_metric m"
        "  WHERE m.run_id = r.id AND m.key = 'tasks'), 0)),"
        " (SELECT count(*) FROM run_decision d WHERE d.run_id = r.id),"
        " printf('%s on %s / %s, seed %d', r.policy, t.name, c.name, r.seed), r.created"
        " FROM run r JOIN trace t ON t.id = r.trace_id JOIN cluster c ON c.id = r.cluster_id"
        " ORDER BY r.id"},
    [STORE_PEACE] = {"peace",
        "SELECT p.id, p.name, (SELECT count(*) FROM peace_workload w WHERE w.set_id = p.id),"
        " (SELECT count(*) FROM peace_profile f WHERE f.set_id = p.id),"
        " printf('%d co-location rows, %s, caps %g-%g W',"
        "  (SELECT count(*) FROM peace_coloc c WHERE c.set_id = p.id), g.name, p.cap_min_w,"
        "  p.cap_max_w), p.created"
        " FROM peace_set p JOIN gpu_profile g ON g.id = p.gpu_profile_id ORDER BY p.name"},
};

const char *store_kind_name(store_kind kind)
{
    assert(kind >= 0 && kind < STORE_KIND_COUNT);
    return kinds[kind].name;
}

int store_kind_parse(const char *word)
{
    static const struct { const char *w; store_kind k; } alias[] = {
        {"gpu", STORE_GPU}, {"gpus", STORE_GPU}, {"cpu", STORE_CPU}, {"cpus", STORE_CPU},
        {"cluster", STORE_CLUSTER}, {"clusters", STORE_CLUSTER},
        {"trace", STORE_TRACE}, {"traces", STORE_TRACE},
        {"tput", STORE_TPUT}, {"tputs", STORE_TPUT}, {"throughput", STORE_TPUT}, {"throughputs", STORE_TPUT},
        {"snapshot", STORE_SNAPSHOT}, {"snapshots", STORE_SNAPSHOT},
        {"run", STORE_RUN}, {"runs", STORE_RUN},
        {"peace", STORE_PEACE}, {"peace-set", STORE_PEACE}, {"peace-sets", STORE_PEACE},
    };
    for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
        if (strcasecmp(word, alias[i].w) == 0)
            return (int)alias[i].k;
    return -1;
}

int store_list(store *s, store_kind kind, store_item **items, size_t *n, gp_err *err)
{
    assert(kind >= 0 && kind < STORE_KIND_COUNT && items && n);
    sqlite3_stmt *st;
    *items = NULL;
    *n = 0;
    if (store_prepare(s, kinds[kind].sql, &st, err))
        return -1;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        grow_array((void **)items, &cap, *n + 1, sizeof **items);
        store_item *it = &(*items)[(*n)++];
        memset(it, 0, sizeof *it);
        it->id = sqlite3_column_int64(st, 0);
        strlcpy0(it->name, store_col_text(st, 1), sizeof it->name);
        it->count = sqlite3_column_int64(st, 2);
        it->count2 = sqlite3_column_int64(st, 3);
        strlcpy0(it->detail, store_col_text(st, 4), sizeof it->detail);
        strlcpy0(it->created, store_col_text(st, 5), sizeof it->created);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*items);
        *items = NULL;
        *n = 0;
        return store_sql_error(s, err, "listing");
    }
    return 0;
}
