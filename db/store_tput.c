/*
 * store_tput.c — throughput catalogs (the Gavel table and estimates).
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

static int bind_entry(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const tput_entry *e = &((const tput_catalog *)obj)->entries[i];
    store_bind_text(st, 2, e->accel);
    store_bind_text(st, 3, e->model);
    sqlite3_bind_int(st, 4, e->batch_size);
    sqlite3_bind_int(st, 5, e->scale);
    store_bind_text(st, 6, e->co_model);
    sqlite3_bind_int(st, 7, e->co_batch_size);
    sqlite3_bind_int(st, 8, e->co_scale);
    sqlite3_bind_double(st, 9, e->tput);
    sqlite3_bind_double(st, 10, e->co_tput);
    return 0;
}

static int insert_catalog(store *s, tput_catalog *c, int replace, gp_err *err)
{
    if (store_insert_named(s, STORE_TPUT, c->name, c->source, replace, &c->id, err))
        return -1;
    return store_write_rows(s, "INSERT INTO tput_entry(catalog_id, accel, model, batch_size,"
                            " scale, co_model, co_batch_size, co_scale, tput, co_tput)"
                            " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
                            c->id, c, c->nentries, bind_entry, NULL, err);
}

int store_put_tput_catalog(store *s, tput_catalog *c, int replace, gp_err *err)
{
    assert(c);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, insert_catalog(s, c, replace, err), err);
}

static void read_entry(sqlite3_stmt *st, void *obj)
{
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
    tput_catalog_add(obj, &e);
}

static int load_entries(store *s, void *obj, gp_err *err)
{
    const tput_catalog *c = obj;
    return store_read_rows(s, "SELECT accel, model, batch_size, scale, co_model, co_batch_size,"
                           " co_scale, tput, co_tput FROM tput_entry WHERE catalog_id = ?1"
                           " ORDER BY rowid", c->id, read_entry, obj, "reading throughputs", err);
}

static void *catalog_from_row(sqlite3_stmt *st, const char *name)
{
    tput_catalog *c = tput_catalog_new(name);
    c->id = sqlite3_column_int64(st, 0);
    c->source = store_col_strdup(st, 1);
    return c;
}

static void free_catalog(void *c)
{
    tput_catalog_free(c);
}

static const store_entity tput_entity = {
    .kind = STORE_TPUT,
    .sql = "SELECT id, source FROM tput_catalog WHERE name = ?1",
    .from_row = catalog_from_row,
    .load_children = load_entries,
    .free = free_catalog,
};

int store_get_tput_catalog(store *s, const char *name, tput_catalog **out, gp_err *err)
{
    void *c;
    int rc = store_load_named(s, &tput_entity, name, &c, err);
    *out = c;
    return rc;
}

int store_find_tput_for(store *s, const char *name, const char *trace, tput_catalog **out,
                        gp_err *err)
{
    *out = NULL;
    if (name)
        return strcmp(name, "none") == 0 ? 0 : store_get_tput_catalog(s, name, out, err);
    store_item *items;
    size_t n;
    if (store_list(s, STORE_TPUT, &items, &n, err))
        return -1;
    int named = 0;
    for (size_t i = 0; i < n && !named; i++)
        named = strcmp(items[i].name, trace) == 0;
    free(items);
    return named ? store_get_tput_catalog(s, trace, out, err) : 0;
}

int store_delete_tput_catalog(store *s, const char *name, gp_err *err)
{
    return store_delete_entity(s, STORE_TPUT, name, err);
}
