/*
 * store_named.c — entities found by their unique name: the id lookups, the
 * "already exists" check before a write, the (name, source) header row of
 * clusters, traces and throughput catalogs, deleting by name, and the one
 * reader behind every store_get_<kind>(name).
 *
 * The messages a user sees when a name is missing or taken are worded here
 * only, from one table of nouns.  What an entity's children are and how its
 * object is built stays in its own file (a store_entity it passes in).
 * Runs are not here: they go by id.
 */
#include "store_int.h"
#include "core/suggest.h"

#include <stdio.h>
#include <string.h>

/* The table names are fixed words of this file, joined at compile time:
 * no SQL is built at run time. */
#define FIND(table) "SELECT id FROM " table " WHERE name = ?1"
#define NAMES(table) "SELECT name FROM " table " ORDER BY id"
#define HEADED(noun, table) \
    {noun, FIND(table), "INSERT INTO " table "(name, source) VALUES (?1, ?2) RETURNING id", \
     "DELETE FROM " table " WHERE name = ?1", " (delete it or import with --replace)", \
     NAMES(table)}

static const struct named_kind {
    const char *noun;           /* in messages */
    const char *sql_find;
    const char *sql_insert;     /* the header row; NULL when the kind has none */
    const char *sql_delete;     /* NULL when deleting takes more (profiles, snapshots) */
    const char *exists_hint;    /* after "a <noun> named 'x' already exists" */
    const char *sql_names;      /* every name, for "did you mean" */
} named[STORE_KIND_COUNT] = {
    [STORE_GPU] = {"GPU profile", FIND("gpu_profile"), NULL, NULL, "", NAMES("gpu_profile")},
    [STORE_CPU] = {"CPU profile", FIND("cpu_profile"), NULL, NULL, "", NAMES("cpu_profile")},
    [STORE_CLUSTER] = HEADED("cluster", "cluster"),
    [STORE_TRACE] = HEADED("trace", "trace"),
    [STORE_TPUT] = HEADED("throughput catalog", "tput_catalog"),
    /* --replace exists for snapshots too, but they are made, not imported. */
    [STORE_SNAPSHOT] = {"snapshot", FIND("snapshot"), NULL, NULL, "", NAMES("snapshot")},
    /* A PEACE set's header has more than (name, source): store_peace.c
     * inserts it. */
    [STORE_PEACE] = {"PEACE set", FIND("peace_set"), NULL,
                     "DELETE FROM peace_set WHERE name = ?1",
                     " (delete it or import with --replace)", NAMES("peace_set")},
};

static const struct named_kind *named_kind(store_kind kind)
{
    assert(kind >= 0 && kind < STORE_KIND_COUNT);
    assert(named[kind].noun);   /* runs have no name to find them by */
    return &named[kind];
}

const char *store_noun(store_kind kind)
{
    return named_kind(kind)->noun;
}

const char *store_name_hint(store *s, store_kind kind, const char *name, char *buf, size_t len)
{
    const struct named_kind *k = named_kind(kind);
    suggest sg;
    suggest_init(&sg, name);
    sqlite3_stmt *st;
    /* The names are only a hint: a failure to read them leaves it out. */
    if (store_prepare(s, k->sql_names, &st, NULL) == 0) {
        while (sqlite3_step(st) == SQLITE_ROW)
            suggest_offer(&sg, (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    return suggest_hint(&sg, buf, len);
}

int store_no_such(store *s, store_kind kind, const char *name, gp_err *err)
{
    char hint[300];
    return gp_error(err, "no %s named '%s'%s", store_noun(kind), name,
                    store_name_hint(s, kind, name, hint, sizeof hint));
}

int store_find_id(store *s, store_kind kind, const char *name, int64_t *id, gp_err *err)
{
    return store_lookup_int(s, named_kind(kind)->sql_find, name, id, err);
}

int store_need_id(store *s, store_kind kind, const char *name, int64_t *id, gp_err *err)
{
    if (store_find_id(s, kind, name, id, err))
        return -1;
    if (!*id)
        return store_no_such(s, kind, name, err);
    return 0;
}

int store_check_new(store *s, store_kind kind, const char *name, int replace, int64_t *old,
                    gp_err *err)
{
    if (store_find_id(s, kind, name, old, err))
        return -1;
    if (*old && !replace)
        return gp_error(err, "a %s named '%s' already exists%s", store_noun(kind), name,
                        named_kind(kind)->exists_hint);
    return 0;
}

int store_insert_named(store *s, store_kind kind, const char *name, const char *source,
                       int replace, int64_t *id, gp_err *err)
{
    const struct named_kind *k = named_kind(kind);
    assert(k->sql_insert && s->write_depth > 0);
    int64_t old;
    if (store_check_new(s, kind, name, replace, &old, err))
        return -1;
    if (old && store_delete_named(s, kind, name, err))
        return -1;
    sqlite3_stmt *st;
    if (store_prepare(s, k->sql_insert, &st, err))
        return -1;
    store_bind_text(st, 1, name);
    store_bind_text(st, 2, source);
    return store_step_insert(s, st, id, k->noun, err);
}

int store_delete_named(store *s, store_kind kind, const char *name, gp_err *err)
{
    const struct named_kind *k = named_kind(kind);
    assert(k->sql_delete && name && s->write_depth > 0);
    sqlite3_stmt *st;
    if (store_prepare(s, k->sql_delete, &st, err))
        return -1;
    store_bind_text(st, 1, name);
    int rc = store_step_done(s, st, err);
    sqlite3_finalize(st);
    if (rc == 0 && sqlite3_changes(s->db) == 0)
        rc = store_no_such(s, kind, name, err);
    return rc;
}

int store_delete_entity(store *s, store_kind kind, const char *name, gp_err *err)
{
    if (store_savepoint(s, err))
        return -1;
    return store_release(s, store_delete_named(s, kind, name, err), err);
}

/* Steps e->sql to the row named name and leaves the statement there. */
static int find_row(store *s, const store_entity *e, const char *name, sqlite3_stmt **st,
                    gp_err *err)
{
    if (store_prepare(s, e->sql, st, err))
        return -1;
    store_bind_text(*st, 1, name);
    int rc = sqlite3_step(*st);
    if (rc == SQLITE_ROW)
        return 0;
    sqlite3_finalize(*st);
    if (rc == SQLITE_DONE)
        return store_no_such(s, e->kind, name, err);
    char what[64];
    snprintf(what, sizeof what, "reading %s", store_noun(e->kind));
    return store_sql_error(s, err, what);
}

int store_load_named(store *s, const store_entity *e, const char *name, void **out,
                     gp_err *err)
{
    assert(e && e->sql && e->from_row && e->load_children && e->free);
    assert(name && out);
    sqlite3_stmt *st;
    *out = NULL;
    if (find_row(s, e, name, &st, err))
        return -1;
    void *obj = e->from_row(st, name);
    sqlite3_finalize(st);
    if (e->load_children(s, obj, err)) {
        e->free(obj);
        return -1;
    }
    *out = obj;
    return 0;
}
