/*
 * store_peace.c — PEACE sets (core/peaceset.h): the set's header row, its
 * workloads, profile rows and co-location rows, and the trained models
 * kept with a set (BLOBs the store does not look inside).
 *
 * A set goes in only after peace_set_check(), so what the store holds is
 * always something peace_index_new() accepts.  Rows keep the set's order
 * (idx, seq); a co-location row's workloads are indices into the set's
 * workloads, as in peace_coloc.
 */
#include "store_int.h"
#include "core/peaceset.h"

#include <stdlib.h>
#include <string.h>

/* ---- writing a set --------------------------------------------------------------------- */

static int bind_workload(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const peace_workload *w = &((const peace_set *)obj)->wl[i];
    sqlite3_bind_int64(st, 2, (int64_t)i);
    store_bind_text(st, 3, w->name);
    store_bind_text(st, 4, peace_kind_name(w->kind));
    sqlite3_bind_int(st, 5, w->compute_hi);
    sqlite3_bind_int(st, 6, w->memory_hi);
    sqlite3_bind_double(st, 7, w->mem_gib);
    return 0;
}

static int bind_profile(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const peace_profile *p = &((const peace_set *)obj)->prof[i];
    sqlite3_bind_int64(st, 2, (int64_t)i);
    sqlite3_bind_int(st, 3, p->workload);
    sqlite3_bind_int(st, 4, p->share_pct);
    sqlite3_bind_double(st, 5, p->freq_mhz);
    sqlite3_bind_double(st, 6, p->tput);
    sqlite3_bind_double(st, 7, p->power_w);
    for (int m = 0; m < PEACE_NMETRICS; m++)
        sqlite3_bind_double(st, 8 + m, p->metric[m]);
    return 0;
}

static int bind_coloc(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const peace_coloc *c = &((const peace_set *)obj)->co[i];
    sqlite3_bind_int64(st, 2, (int64_t)i);
    sqlite3_bind_int(st, 3, c->n);
    /* Columns ?4.. are w1..w3, then share1..3, then (after the clock at
     * ?10) tput1..3; a pair leaves the third of each NULL. */
    for (int k = 0; k < PEACE_MAX_COLOC; k++) {
        if (k < c->n) {
            sqlite3_bind_int(st, 4 + k, c->workload[k]);
            sqlite3_bind_int(st, 7 + k, c->share_pct[k]);
            sqlite3_bind_double(st, 11 + k, c->tput[k]);
        } else {
            sqlite3_bind_null(st, 4 + k);
            sqlite3_bind_null(st, 7 + k);
            sqlite3_bind_null(st, 11 + k);
        }
    }
    sqlite3_bind_double(st, 10, c->freq_mhz);
    sqlite3_bind_double(st, 14, c->power_w);
    return 0;
}

static int insert_header(store *s, peace_set *ps, int64_t gpu_id, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO peace_set(name, gpu_profile_id, cap_min_w, cap_max_w,"
                      " source) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id", &st, err))
        return -1;
    store_bind_text(st, 1, ps->name);
    sqlite3_bind_int64(st, 2, gpu_id);
    sqlite3_bind_double(st, 3, ps->cap_min_w);
    sqlite3_bind_double(st, 4, ps->cap_max_w);
    ps->source ? store_bind_text(st, 5, ps->source) : (void)sqlite3_bind_null(st, 5);
    return store_step_insert(s, st, &ps->id, store_noun(STORE_PEACE), err);
}

static int insert_set(store *s, peace_set *ps, int replace, gp_err *err)
{
    int64_t old, gpu_id;
    if (peace_set_check(ps, err) || store_check_new(s, STORE_PEACE, ps->name, replace, &old, err) ||
        store_find_id(s, STORE_GPU, ps->gpu, &gpu_id, err))
        return -1;
    if (!gpu_id)
        return gp_error(err, "PEACE set '%s': unknown GPU model '%s' (add the profile first)",
                        ps->name, ps->gpu);
    if ((old && store_delete_named(s, STORE_PEACE, ps->name, err)) ||
        insert_header(s, ps, gpu_id, err))
        return -1;
    return store_write_rows(s, "INSERT INTO peace_workload(set_id, idx, name, kind, compute_hi,"
                            " memory_hi, mem_gib) VALUES (?1,?2,?3,?4,?5,?6,?7)",
                            ps->id, ps, ps->nwl, bind_workload, NULL, err) ||
           store_write_rows(s, "INSERT INTO peace_profile(set_id, seq, workload_idx, share_pct,"
                            " freq_mhz, tput, power_w, sm_active_pct, sm_occupancy_pct,"
                            " fp32_active_pct, mem_bw_gbps, mem_busy_pct, pcie_tx_mbps,"
                            " pcie_rx_mbps)"
                            " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
                            ps->id, ps, ps->nprof, bind_profile, NULL, err) ||
           store_write_rows(s, "INSERT INTO peace_coloc(set_id, seq, n, w1, w2, w3, share1,"
                            " share2, share3, freq_mhz, tput1, tput2, tput3, power_w)"
                            " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)",
                            ps->id, ps, ps->nco, bind_coloc, NULL, err)
               ? -1 : 0;
}

int store_put_peace_set(store *s, peace_set *ps, int replace, gp_err *err)
{
    assert(ps);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_set(s, ps, replace, err), err);
}

/* ---- reading a set --------------------------------------------------------------------- */

static void read_workload(sqlite3_stmt *st, void *obj)
{
    peace_workload w;
    memset(&w, 0, sizeof w);
    strlcpy0(w.name, store_col_text(st, 0), sizeof w.name);
    w.kind = (peace_kind)peace_kind_parse(store_col_text(st, 1));   /* the schema's CHECK */
    w.compute_hi = sqlite3_column_int(st, 2);
    w.memory_hi = sqlite3_column_int(st, 3);
    w.mem_gib = sqlite3_column_double(st, 4);
    peace_set_add_workload(obj, &w);
}

static void read_profile(sqlite3_stmt *st, void *obj)
{
    peace_profile p;
    memset(&p, 0, sizeof p);
    p.workload = sqlite3_column_int(st, 0);
    p.share_pct = sqlite3_column_int(st, 1);
    p.freq_mhz = sqlite3_column_double(st, 2);
    p.tput = sqlite3_column_double(st, 3);
    p.power_w = sqlite3_column_double(st, 4);
    for (int m = 0; m < PEACE_NMETRICS; m++)
        p.metric[m] = sqlite3_column_double(st, 5 + m);
    peace_set_add_profile(obj, &p);
}

static void read_coloc(sqlite3_stmt *st, void *obj)
{
    peace_coloc c;
    memset(&c, 0, sizeof c);
    c.n = sqlite3_column_int(st, 0);
    for (int k = 0; k < c.n && k < PEACE_MAX_COLOC; k++) {
        c.workload[k] = sqlite3_column_int(st, 1 + k);
        c.share_pct[k] = sqlite3_column_int(st, 4 + k);
        c.tput[k] = sqlite3_column_double(st, 8 + k);
    }
    c.freq_mhz = sqlite3_column_double(st, 7);
    c.power_w = sqlite3_column_double(st, 11);
    peace_set_add_coloc(obj, &c);
}

static int load_rows(store *s, void *obj, gp_err *err)
{
    const peace_set *ps = obj;
    return store_read_rows(s, "SELECT name, kind, compute_hi, memory_hi, mem_gib"
                           " FROM peace_workload WHERE set_id = ?1 ORDER BY idx", ps->id,
                           read_workload, obj, "reading PEACE workloads", err) ||
           store_read_rows(s, "SELECT workload_idx, share_pct, freq_mhz, tput, power_w,"
                           " sm_active_pct, sm_occupancy_pct, fp32_active_pct, mem_bw_gbps,"
                           " mem_busy_pct, pcie_tx_mbps, pcie_rx_mbps FROM peace_profile"
                           " WHERE set_id = ?1 ORDER BY seq", ps->id, read_profile, obj,
                           "reading PEACE profiles", err) ||
           store_read_rows(s, "SELECT n, w1, w2, w3, share1, share2, share3, freq_mhz, tput1,"
                           " tput2, tput3, power_w FROM peace_coloc WHERE set_id = ?1"
                           " ORDER BY seq", ps->id, read_coloc, obj,
                           "reading PEACE co-locations", err)
               ? -1 : 0;
}

static void *set_from_row(sqlite3_stmt *st, const char *name)
{
    peace_set *ps = peace_set_new(name);
    ps->id = sqlite3_column_int64(st, 0);
    strlcpy0(ps->gpu, store_col_text(st, 1), sizeof ps->gpu);
    ps->cap_min_w = sqlite3_column_double(st, 2);
    ps->cap_max_w = sqlite3_column_double(st, 3);
    ps->source = store_col_strdup(st, 4);
    return ps;
}

static void free_set(void *ps)
{
    peace_set_free(ps);
}

static const store_entity peace_entity = {
    .kind = STORE_PEACE,
    .sql = "SELECT p.id, g.name, p.cap_min_w, p.cap_max_w, p.source FROM peace_set p"
           " JOIN gpu_profile g ON g.id = p.gpu_profile_id WHERE p.name = ?1",
    .from_row = set_from_row,
    .load_children = load_rows,
    .free = free_set,
};

int store_get_peace_set(store *s, const char *name, peace_set **out, gp_err *err)
{
    void *ps;
    int rc = store_load_named(s, &peace_entity, name, &ps, err);
    *out = ps;
    return rc;
}

int store_delete_peace_set(store *s, const char *name, gp_err *err)
{
    return store_delete_entity(s, STORE_PEACE, name, err);
}

/* ---- models ---------------------------------------------------------------------------- */

static int put_model(store *s, int64_t set_id, store_peace_model *m, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO peace_model(set_id, name, params, model)"
                      " VALUES (?1, ?2, ?3, ?4) ON CONFLICT(set_id, name) DO UPDATE SET"
                      " params = ?3, model = ?4,"
                      " created = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
                      " RETURNING id, created", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, set_id);
    store_bind_text(st, 2, m->name);
    store_bind_text(st, 3, m->params);
    if (m->len)
        sqlite3_bind_blob(st, 4, m->blob, (int)m->len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_zeroblob(st, 4, 0);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        m->id = sqlite3_column_int64(st, 0);
        strlcpy0(m->created, store_col_text(st, 1), sizeof m->created);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "storing a PEACE model");
}

int store_put_peace_model(store *s, const char *set, store_peace_model *m, gp_err *err)
{
    assert(set && m && m->name[0] && (m->blob || m->len == 0));
    if (m->len > (size_t)sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, -1))
        return gp_error(err, "PEACE model '%s': %zu bytes is more than the store takes",
                        m->name, m->len);
    int64_t set_id;
    if (store_savepoint(s, err))
        return -1;
    int rc = store_need_id(s, STORE_PEACE, set, &set_id, err);
    if (rc == 0)
        rc = put_model(s, set_id, m, err);
    return store_release(s, rc, err);
}

/* One row of "SELECT id, name, params, created, length(model)[, model]". */
static store_peace_model model_from_row(sqlite3_stmt *st, int with_blob)
{
    store_peace_model m;
    memset(&m, 0, sizeof m);
    m.id = sqlite3_column_int64(st, 0);
    strlcpy0(m.name, store_col_text(st, 1), sizeof m.name);
    m.params = xstrdup(store_col_text(st, 2));
    strlcpy0(m.created, store_col_text(st, 3), sizeof m.created);
    m.len = (size_t)sqlite3_column_int64(st, 4);
    if (with_blob) {
        const void *b = sqlite3_column_blob(st, 5);
        m.blob = xmalloc(m.len ? m.len : 1);
        if (m.len)
            memcpy(m.blob, b, m.len);
    }
    return m;
}

int store_get_peace_model(store *s, const char *set, const char *name,
                          store_peace_model **out, gp_err *err)
{
    assert(set && name && out);
    *out = NULL;
    int64_t set_id;
    sqlite3_stmt *st;
    if (store_need_id(s, STORE_PEACE, set, &set_id, err) ||
        store_prepare(s, "SELECT id, name, params, created, length(model), model"
                      " FROM peace_model WHERE set_id = ?1 AND name = ?2", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, set_id);
    store_bind_text(st, 2, name);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = xmalloc(sizeof **out);
        **out = model_from_row(st, 1);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return gp_error(err, "no PEACE model named '%s' in set '%s'", name, set);
    return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "reading a PEACE model");
}

void store_peace_model_free(store_peace_model *m)
{
    store_peace_models_free(m, m ? 1 : 0);
}

typedef struct model_list {
    store_peace_model *m;
    size_t n, cap;
} model_list;

static void read_model(sqlite3_stmt *st, void *obj)
{
    model_list *l = obj;
    grow_array((void **)&l->m, &l->cap, l->n + 1, sizeof *l->m);
    l->m[l->n++] = model_from_row(st, 0);
}

int store_list_peace_models(store *s, const char *set, store_peace_model **out, size_t *n,
                            gp_err *err)
{
    assert(set && out && n);
    *out = NULL;
    *n = 0;
    int64_t set_id;
    model_list l = {NULL, 0, 0};
    if (store_need_id(s, STORE_PEACE, set, &set_id, err))
        return -1;
    if (store_read_rows(s, "SELECT id, name, params, created, length(model) FROM peace_model"
                        " WHERE set_id = ?1 ORDER BY name", set_id, read_model, &l,
                        "listing PEACE models", err)) {
        store_peace_models_free(l.m, l.n);
        return -1;
    }
    *out = l.m;
    *n = l.n;
    return 0;
}

void store_peace_models_free(store_peace_model *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].params);
        free(m[i].blob);
    }
    free(m);
}
