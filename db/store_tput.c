/*
 * store_tput.c — throughput catalogs (the Gavel table and estimates).
 */
#include "store_int.h"

#include <string.h>

static int insert_entries(store *s, const tput_catalog *c, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO tput_entry(catalog_id, accel, model, batch_size,"
                      " scale, co_model, co_batch_size, co_scale, tput, co_tput)"
                      " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)", &st, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < c->nentries && rc == 0; i++) {
        const tput_entry *e = &c->entries[i];
        sqlite3_bind_int64(st, 1, c->id);
        store_bind_text(st, 2, e->accel);
        store_bind_text(st, 3, e->model);
        sqlite3_bind_int(st, 4, e->batch_size);
        sqlite3_bind_int(st, 5, e->scale);
        store_bind_text(st, 6, e->co_model);
        sqlite3_bind_int(st, 7, e->co_batch_size);
        sqlite3_bind_int(st, 8, e->co_scale);
        sqlite3_bind_double(st, 9, e->tput);
        sqlite3_bind_double(st, 10, e->co_tput);
        rc = store_step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_catalog(store *s, tput_catalog *c, int replace, gp_err *err)
{
    int64_t old;
    if (store_lookup_id(s, "SELECT id FROM tput_catalog WHERE name = ?1", c->name, &old, err))
        return -1;
    if (old && !replace)
        return gp_error(err, "a throughput catalog named '%s' already exists (delete "
                        "it or import with --replace)", c->name);
    if (old && store_delete_named(s, "DELETE FROM tput_catalog WHERE name = ?1",
                                  "throughput catalog", c->name, err))
        return -1;
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO tput_catalog(name, source) VALUES (?1, ?2)"
                      " RETURNING id", &st, err))
        return -1;
    store_bind_text(st, 1, c->name);
    store_bind_text(st, 2, c->source);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        c->id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return store_sql_error(s, err, "inserting throughput catalog");
    return insert_entries(s, c, err);
}

int store_put_tput_catalog(store *s, tput_catalog *c, int replace, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_catalog(s, c, replace, err), err);
}

static int load_entries(store *s, tput_catalog *c, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "SELECT accel, model, batch_size, scale, co_model, co_batch_size,"
                      " co_scale, tput, co_tput FROM tput_entry WHERE catalog_id = ?1"
                      " ORDER BY rowid", &st, err))
        return -1;
    sqlite3_bind_int64(st, 1, c->id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        tput_entry e;
        memset(&e, 0, sizeof e);
        strlcpy0(e.accel, store_col_text(st, 0), sizeof e.accel);
        strlcpy0(e.model, store_col_text(st, 1), sizeof e.model);
        e.batch_size = sqlite3_column_int(st, 2);
        e.scale = sqlite3_column_int(st, 3);
        strlcpy0(e.co_model, store_col_text(st, 4), sizeof e.co_model);
        e.co_batch_size = sqlite3_column_int(st, 5);
        e.co_scale = sqlite3_column_int(st, 6);
        e.tput = sqlite3_column_double(st, 7);
        e.co_tput = sqlite3_column_double(st, 8);
        tput_catalog_add(c, &e);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_sql_error(s, err, "reading throughputs");
}

int store_get_tput_catalog(store *s, const char *name, tput_catalog **out, gp_err *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    if (store_prepare(s, "SELECT id, source FROM tput_catalog WHERE name = ?1", &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE)
            return gp_error(err, "no throughput catalog named '%s'", name);
        return store_sql_error(s, err, "reading throughput catalog");
    }
    tput_catalog *c = tput_catalog_new(name);
    c->id = sqlite3_column_int64(st, 0);
    if (sqlite3_column_type(st, 1) != SQLITE_NULL)
        c->source = xstrdup(store_col_text(st, 1));
    sqlite3_finalize(st);
    if (load_entries(s, c, err)) {
        tput_catalog_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

int store_delete_tput_catalog(store *s, const char *name, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, store_delete_named(s, "DELETE FROM tput_catalog WHERE name = ?1",
                                               "throughput catalog", name, err), err);
}
