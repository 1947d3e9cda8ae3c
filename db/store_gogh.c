/*
 * store_gogh.c — GOGH's trained estimation nets (store.h): one gogh_nets
 * row per nets (name, catalog, parameters, split sizes, training times,
 * bytes) and its training report as six gogh_nets_error rows, one per
 * network (p1, p2) and split (train, validation, test).
 *
 * Every read goes by an integer (the nets' id, the catalog's id, or none
 * for all), so one loop over header rows serves get and list.  A NaN
 * figure (a split without rows) is stored as NULL and read back as NaN.
 */
#include "store_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const net_names[2] = {"p1", "p2"};
static const char *const split_names[3] = {"train", "validation", "test"};

/* The report's figures in row order: network i / 3, split i % 3. */
static store_gogh_err *figure(store_gogh_nets *n, size_t i)
{
    assert(i < 6);
    return i < 3 ? &n->p1[i] : &n->p2[i - 3];
}

/* ---- writing ---------------------------------------------------------------------- */

static int bind_error_row(store *s, sqlite3_stmt *st, const void *obj, size_t i, gp_err *err)
{
    (void)s;
    (void)err;
    const store_gogh_err *e = figure((store_gogh_nets *)obj, i);
    store_bind_text(st, 2, net_names[i / 3]);
    store_bind_text(st, 3, split_names[i % 3]);
    store_bind_real(st, 4, e->loss);
    store_bind_real(st, 5, e->mae);
    sqlite3_bind_int64(st, 6, e->rows);
    return 0;
}

static int insert_header(store *s, store_gogh_nets *n, int64_t catalog_id, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "INSERT INTO gogh_nets(name, catalog_id, params, types_train,"
                      " types_val, types_test, p1_s, p2_s, nets)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id, created",
                      &st, err))
        return -1;
    store_bind_text(st, 1, n->name);
    sqlite3_bind_int64(st, 2, catalog_id);
    store_bind_text(st, 3, n->params);
    for (int k = 0; k < 3; k++)
        sqlite3_bind_int64(st, 4 + k, n->types[k]);
    sqlite3_bind_double(st, 7, n->p1_s);
    sqlite3_bind_double(st, 8, n->p2_s);
    sqlite3_bind_blob(st, 9, n->blob, (int)n->len, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        n->id = sqlite3_column_int64(st, 0);
        strlcpy0(n->created, store_col_text(st, 1), sizeof n->created);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "storing GOGH nets");
}

/* Deletes nets `name`; *gone = how many rows went (0 or 1). */
static int delete_by_name(store *s, const char *name, int *gone, gp_err *err)
{
    sqlite3_stmt *st;
    if (store_prepare(s, "DELETE FROM gogh_nets WHERE name = ?1", &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    *gone = sqlite3_changes(s->db);
    return rc;
}

static int put_nets(store *s, store_gogh_nets *n, gp_err *err)
{
    int64_t catalog_id;
    int gone;
    if (store_need_id(s, STORE_TPUT, n->tput, &catalog_id, err) ||
        delete_by_name(s, n->name, &gone, err) || insert_header(s, n, catalog_id, err))
        return -1;
    return store_write_rows(s, "INSERT INTO gogh_nets_error(nets_id, net, split, loss, mae,"
                            " rows) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                            n->id, n, 6, bind_error_row, NULL, err);
}

int store_put_gogh_nets(store *s, store_gogh_nets *n, gp_err *err)
{
    assert(n && n->name[0] && n->blob && n->len > 0);
    if (n->len > (size_t)sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, -1))
        return gp_error(err, "GOGH nets '%s': %zu bytes is more than the store takes",
                        n->name, n->len);
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, put_nets(s, n, err), err);
}

int store_delete_gogh_nets(store *s, const char *name, gp_err *err)
{
    assert(name);
    int gone = 0;
    if (store_savepoint(s, err))
        return -1;
    int rc = delete_by_name(s, name, &gone, err);
    if (rc == 0 && !gone)
        rc = gp_error(err, "no GOGH nets named '%s'", name);
    return store_release(s, rc, err);
}

/* ---- reading ---------------------------------------------------------------------- */

/* The header columns every read selects; the bytes only when asked. */
#define NETS_COLUMNS \
    "SELECT g.id, g.name, c.name, g.params, g.types_train, g.types_val, g.types_test," \
    " g.p1_s, g.p2_s, g.created, length(g.nets)"
#define NETS_FROM " FROM gogh_nets g JOIN tput_catalog c ON c.id = g.catalog_id"

typedef struct nets_list {
    store_gogh_nets *v;
    size_t n, cap;
    int with_blob;
} nets_list;

static void read_header(sqlite3_stmt *st, void *obj)
{
    nets_list *l = obj;
    grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    store_gogh_nets *n = &l->v[l->n++];
    memset(n, 0, sizeof *n);
    n->id = sqlite3_column_int64(st, 0);
    strlcpy0(n->name, store_col_text(st, 1), sizeof n->name);
    strlcpy0(n->tput, store_col_text(st, 2), sizeof n->tput);
    n->params = xstrdup(store_col_text(st, 3));
    for (int k = 0; k < 3; k++)
        n->types[k] = sqlite3_column_int64(st, 4 + k);
    n->p1_s = sqlite3_column_double(st, 7);
    n->p2_s = sqlite3_column_double(st, 8);
    strlcpy0(n->created, store_col_text(st, 9), sizeof n->created);
    n->len = (size_t)sqlite3_column_int64(st, 10);
    for (size_t i = 0; i < 6; i++)
        figure(n, i)->loss = figure(n, i)->mae = NAN;
    if (l->with_blob) {
        n->blob = xmalloc(n->len ? n->len : 1);
        if (n->len)
            memcpy(n->blob, sqlite3_column_blob(st, 11), n->len);
    }
}

static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static void read_error_row(sqlite3_stmt *st, void *obj)
{
    /* The schema's CHECKs keep net and split to these names. */
    int net = name_index(net_names, 2, store_col_text(st, 0));
    int split = name_index(split_names, 3, store_col_text(st, 1));
    if (net < 0 || split < 0)
        return;
    store_gogh_err *e = figure(obj, (size_t)(net * 3 + split));
    e->loss = store_col_real(st, 2);
    e->mae = store_col_real(st, 3);
    e->rows = sqlite3_column_int64(st, 4);
}

/* Runs a header query (?1 = id when it takes one) and reads each one's
 * report. */
static int read_nets(store *s, const char *sql, int64_t id, nets_list *l, gp_err *err)
{
    if (store_read_rows(s, sql, id, read_header, l, "reading GOGH nets", err))
        return -1;
    for (size_t i = 0; i < l->n; i++)
        if (store_read_rows(s, "SELECT net, split, loss, mae, rows FROM gogh_nets_error"
                            " WHERE nets_id = ?1", l->v[i].id, read_error_row, &l->v[i],
                            "reading GOGH nets' errors", err))
            return -1;
    return 0;
}

int store_get_gogh_nets(store *s, const char *name, store_gogh_nets **out, gp_err *err)
{
    assert(name && out);
    *out = NULL;
    int64_t id;
    nets_list l = {NULL, 0, 0, 1};
    if (store_lookup_int(s, "SELECT id FROM gogh_nets WHERE name = ?1", name, &id, err))
        return -1;
    if (!id)
        return gp_error(err, "no GOGH nets named '%s'", name);
    if (read_nets(s, NETS_COLUMNS ", g.nets" NETS_FROM " WHERE g.id = ?1", id, &l, err)) {
        store_gogh_nets_list_free(l.v, l.n);
        return -1;
    }
    assert(l.n == 1);
    *out = l.v;
    return 0;
}

int store_find_gogh_nets_for(store *s, const char *name, const char *tput,
                             store_gogh_nets **out, gp_err *err)
{
    assert(out);
    *out = NULL;
    if (name)
        return strcmp(name, "none") == 0 ? 0 : store_get_gogh_nets(s, name, out, err);
    if (!tput)
        return 0;
    store_gogh_nets *l;
    size_t n;
    if (store_list_gogh_nets(s, tput, &l, &n, err))
        return -1;
    /* The nets named like the table, else its only ones: with several
     * and none named so, which to use is the user's choice. */
    const char *pick = NULL;
    for (size_t i = 0; i < n && !pick; i++)
        if (strcmp(l[i].name, tput) == 0)
            pick = l[i].name;
    if (!pick && n == 1)
        pick = l[0].name;
    int rc = pick ? store_get_gogh_nets(s, pick, out, err) : 0;
    store_gogh_nets_list_free(l, n);
    return rc;
}

int store_list_gogh_nets(store *s, const char *tput, store_gogh_nets **out, size_t *n,
                         gp_err *err)
{
    assert(out && n);
    *out = NULL;
    *n = 0;
    int64_t catalog_id = 0;
    nets_list l = {NULL, 0, 0, 0};
    if (tput && store_need_id(s, STORE_TPUT, tput, &catalog_id, err))
        return -1;
    int rc = tput ? read_nets(s, NETS_COLUMNS NETS_FROM " WHERE g.catalog_id = ?1"
                              " ORDER BY g.name", catalog_id, &l, err)
                  : read_nets(s, NETS_COLUMNS NETS_FROM " ORDER BY g.name", 0, &l, err);
    if (rc) {
        store_gogh_nets_list_free(l.v, l.n);
        return -1;
    }
    *out = l.v;
    *n = l.n;
    return 0;
}

void store_gogh_nets_list_free(store_gogh_nets *n, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(n[i].params);
        free(n[i].blob);
    }
    free(n);
}

void store_gogh_nets_free(store_gogh_nets *n)
{
    store_gogh_nets_list_free(n, n ? 1 : 0);
}
