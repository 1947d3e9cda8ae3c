/*
 * store_profile.c — GPU and CPU profiles: upsert by name, load the whole
 * catalog, delete when unused.
 */
#include "store_int.h"

#include <string.h>

/* Steps a profile's upsert (RETURNING id) and finalizes it.  A value the
 * schema refuses (its CHECKs) is reported with the profile's name. */
static int step_upsert(store *s, sqlite3_stmt *st, store_kind kind, const char *name,
                       int64_t *id, gp_err *err)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return gp_error(err, "%s '%s': %s", store_noun(kind), name, sqlite3_errmsg(s->db));
    return 0;
}

static int put_gpu_profile(store *s, gpu_profile *g, gp_err *err)
{
    assert(g);
    static const char sql[] =
        "INSERT INTO gpu_profile(name, mem_gib, idle_w, max_w, sleep_w, f_min_mhz,"
        " f_max_mhz, alpha_w_per_mhz, beta, price_usd, tput_class, speed, price_source)"
        " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)"
        " ON CONFLICT(name) DO UPDATE SET mem_gib=?2, idle_w=?3, max_w=?4,"
        " sleep_w=?5, f_min_mhz=?6, f_max_mhz=?7, alpha_w_per_mhz=?8, beta=?9,"
        " price_usd=?10, tput_class=?11, speed=?12, price_source=?13 RETURNING id";
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    store_bind_text(st, 1, g->name);
    sqlite3_bind_double(st, 2, g->mem_gib);
    sqlite3_bind_double(st, 3, g->idle_w);
    sqlite3_bind_double(st, 4, g->max_w);
    sqlite3_bind_double(st, 5, g->sleep_w);
    sqlite3_bind_double(st, 6, g->f_min_mhz);
    sqlite3_bind_double(st, 7, g->f_max_mhz);
    sqlite3_bind_double(st, 8, g->alpha_w_per_mhz);
    sqlite3_bind_double(st, 9, g->beta);
    store_bind_real(st, 10, g->price_usd);     /* NAN: NULL, unknown */
    store_bind_text(st, 11, g->tput_class);
    sqlite3_bind_double(st, 12, gpu_speed(g));
    store_bind_text(st, 13, g->price_source);
    return step_upsert(s, st, STORE_GPU, g->name, &g->id, err);
}

static int put_cpu_profile(store *s, cpu_profile *p, gp_err *err)
{
    assert(p);
    static const char sql[] =
        "INSERT INTO cpu_profile(name, cores, idle_w, max_w) VALUES (?1,?2,?3,?4)"
        " ON CONFLICT(name) DO UPDATE SET cores=?2, idle_w=?3, max_w=?4 RETURNING id";
    sqlite3_stmt *st;
    if (store_prepare(s, sql, &st, err))
        return -1;
    store_bind_text(st, 1, p->name);
    sqlite3_bind_int(st, 2, p->cores);
    sqlite3_bind_double(st, 3, p->idle_w);
    sqlite3_bind_double(st, 4, p->max_w);
    return step_upsert(s, st, STORE_CPU, p->name, &p->id, err);
}

/* Each write in a savepoint of its own, so a lone one takes the write lock
 * before it reads (store_savepoint()). */
int store_put_gpu_profile(store *s, gpu_profile *g, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, put_gpu_profile(s, g, err), err);
}

int store_put_cpu_profile(store *s, cpu_profile *p, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, put_cpu_profile(s, p, err), err);
}

static void read_gpu(sqlite3_stmt *st, void *cat)
{
    gpu_profile g = {0};
    g.id = sqlite3_column_int64(st, 0);
    strlcpy0(g.name, store_col_text(st, 1), sizeof g.name);
    g.mem_gib = sqlite3_column_double(st, 2);
    g.idle_w = sqlite3_column_double(st, 3);
    g.max_w = sqlite3_column_double(st, 4);
    g.sleep_w = sqlite3_column_double(st, 5);
    g.f_min_mhz = sqlite3_column_double(st, 6);
    g.f_max_mhz = sqlite3_column_double(st, 7);
    g.alpha_w_per_mhz = sqlite3_column_double(st, 8);
    g.beta = sqlite3_column_double(st, 9);
    g.price_usd = store_col_real(st, 10);
    strlcpy0(g.tput_class, store_col_text(st, 11), sizeof g.tput_class);
    g.speed = sqlite3_column_double(st, 12);
    strlcpy0(g.price_source, store_col_text(st, 13), sizeof g.price_source);
    catalog_add_gpu(cat, &g);
}

static void read_cpu(sqlite3_stmt *st, void *cat)
{
    cpu_profile p = {0};
    p.id = sqlite3_column_int64(st, 0);
    strlcpy0(p.name, store_col_text(st, 1), sizeof p.name);
    p.cores = sqlite3_column_int(st, 2);
    p.idle_w = sqlite3_column_double(st, 3);
    p.max_w = sqlite3_column_double(st, 4);
    catalog_add_cpu(cat, &p);
}

int store_load_catalog(store *s, catalog **out, gp_err *err)
{
    assert(out);
    catalog *c = catalog_new();
    if (store_read_rows(s, "SELECT id, name, mem_gib, idle_w, max_w, sleep_w, f_min_mhz,"
                        " f_max_mhz, alpha_w_per_mhz, beta, price_usd, tput_class, speed,"
                        " price_source FROM gpu_profile ORDER BY name", 0, read_gpu, c,
                        "reading GPU profiles", err) ||
        store_read_rows(s, "SELECT id, name, cores, idle_w, max_w FROM cpu_profile"
                        " ORDER BY name", 0, read_cpu, c, "reading CPU profiles", err)) {
        catalog_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* Deletes one profile row; the foreign keys of `node` (and of
 * `peace_set`, for GPUs) refuse while a node or set uses it, which we turn
 * into a message that says so.  sql_used counts the users; users_are
 * follows their count in the message. */
static int delete_profile_row(store *s, store_kind kind, const char *sql_used,
                              const char *users_are, const char *sql_delete,
                              const char *name, gp_err *err)
{
    int64_t id, users;
    if (store_need_id(s, kind, name, &id, err) ||
        store_lookup_int(s, sql_used, name, &users, err))
        return -1;
    if (users)
        return gp_error(err, "%s '%s' is used by %lld %s", store_noun(kind), name,
                        (long long)users, users_are);
    sqlite3_stmt *st;
    if (store_prepare(s, sql_delete, &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    return rc;
}

static int delete_profile(store *s, store_kind kind, const char *sql_used,
                          const char *users_are, const char *sql_delete, const char *name,
                          gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, delete_profile_row(s, kind, sql_used, users_are, sql_delete,
                                               name, err), err);
}

int store_delete_gpu_profile(store *s, const char *name, gp_err *err)
{
    return delete_profile(s, STORE_GPU,
                          "SELECT (SELECT count(*) FROM node WHERE gpu_profile_id = g.id)"
                          " + (SELECT count(*) FROM peace_set WHERE gpu_profile_id = g.id)"
                          " FROM gpu_profile g WHERE g.name = ?1",
                          "node(s) or PEACE set(s); delete or change those clusters or sets"
                          " first", "DELETE FROM gpu_profile WHERE id = ?1", name, err);
}

int store_delete_cpu_profile(store *s, const char *name, gp_err *err)
{
    return delete_profile(s, STORE_CPU,
                          "SELECT count(*) FROM node JOIN cpu_profile c"
                          " ON c.id = node.cpu_profile_id WHERE c.name = ?1",
                          "node(s); delete or change those clusters first",
                          "DELETE FROM cpu_profile WHERE id = ?1", name, err);
}
