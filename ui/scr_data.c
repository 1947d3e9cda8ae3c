/*
 * scr_data.c — the Data screen: what the database holds, by kind (GPU and
 * CPU profiles, clusters, traces, throughput tables, snapshots, saved
 * runs).  Import files (path prompt, then format detection or a choice),
 * edit a profile's values in a form driven by src/core/profile.h's field table
 * (the same validation as `gpuplan profile`), delete with confirmation,
 * reopen saved runs in Compare, open a snapshot in Cluster, use a trace or
 * cluster in Compare.
 */
#include "app.h"
#include "draw.h"

#include <assert.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clspec.h"
#include "io/filetype.h"
#include "io/import.h"
#include "core/profile.h"

static const char *const kind_titles[STORE_KIND_COUNT] = {
    "GPU profiles", "CPU profiles", "Clusters", "Traces", "Throughput tables", "Snapshots",
    "Saved runs", "PEACE sets",
};

void data_reload(app *a)
{
    gp_err err;
    int failed = 0;
    for (int k = 0; k < STORE_KIND_COUNT; k++)
        failed |= app_load_list(a, &a->data.lists[k], (store_kind)k) != 0;
    if (failed)
        return;
    catalog_free(a->data.cat);
    a->data.cat = NULL;
    if (store_load_catalog(a->st, &a->data.cat, &err))
        app_err(a, "%s", err.msg);
}

/* The kind the left pane's cursor is on. */
static store_kind cur_kind(const app *a)
{
    return (store_kind)a->data.kinds.cursor;
}

static ui_list *cur_list(app *a)
{
    return &a->data.lists[cur_kind(a)];
}

static const store_item *cur_item(const app *a)
{
    const ui_list *l = &a->data.lists[cur_kind(a)];
    return l->lv.count ? &l->items[l->lv.cursor] : NULL;
}

/* --- geometry (drawing and keys both ask) ----------------------------------------- */

typedef struct data_geom {
    rect kinds, items, detail;
    rect form;                  /* the profile form, over items and detail */
} data_geom;

static data_geom data_layout(const app *a)
{
    data_geom g;
    rect body = layout_body(a->rows, a->cols), right;
    layout_split(body, 28, 40, &g.kinds, &right);
    g.form = right;
    g.detail = layout_take_bottom(&right, right.h > 24 ? 14 : 7);
    g.items = right;
    return g;
}

static int kinds_rows(const app *a)
{
    return layout_inner(data_layout(a).kinds).h;
}

static int items_rows(const app *a)
{
    return layout_inner(data_layout(a).items).h;
}

/* The form's last two lines are its key hints. */
static int fields_rows(const app *a)
{
    return layout_inner(data_layout(a).form).h - 2;
}

static int is_marked(const app *a, int64_t id)
{
    for (int i = 0; i < a->data.nmarked; i++)
        if (a->data.marked[i] == id)
            return 1;
    return 0;
}

/* --- drawing ------------------------------------------------------------------- */

static void kind_row(const void *ctx, size_t k, rect r, lv_hl hl)
{
    const app *a = ctx;
    char line[64];
    if (a->data.lists[k].err[0])
        snprintf(line, sizeof line, " %-18s %4s", kind_titles[k], "err");
    else
        snprintf(line, sizeof line, " %-18s %4zu", kind_titles[k], a->data.lists[k].lv.count);
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

static void draw_kinds(const app *a, rect box)
{
    draw_box(box, "Kinds", a->data.pane == 0 && !a->data.editing);
    rect in = layout_inner(box);
    listview v = lv_shown(&a->data.kinds, STORE_KIND_COUNT, in.h);
    lv_draw(&v, in, a->data.pane == 0 ? LV_HL_FOCUSED : LV_HL_UNFOCUSED, kind_row, a);
}

static void item_line(const app *a, const store_item *it, char *line, size_t len)
{
    switch (cur_kind(a)) {
    case STORE_RUN:
        snprintf(line, len, "%s #%-4lld %-14s %s", is_marked(a, it->id) ? "*" : " ",
                 (long long)it->id, it->name, it->detail);
        break;
    case STORE_CLUSTER:
        snprintf(line, len, " %-20s %5lld nodes %6lld GPUs  %s", it->name, (long long)it->count,
                 (long long)it->count2, it->detail);
        break;
    case STORE_TRACE:
        snprintf(line, len, " %-20s %6lld tasks  %s", it->name, (long long)it->count,
                 it->detail);
        break;
    case STORE_TPUT:
    case STORE_SNAPSHOT:
        snprintf(line, len, " %-20s %6lld  %s", it->name, (long long)it->count, it->detail);
        break;
    default:
        snprintf(line, len, " %-18s %s", it->name, it->detail);
    }
}

static void item_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    const app *a = ctx;
    assert(i < a->data.lists[cur_kind(a)].lv.count);
    char line[320];
    item_line(a, &a->data.lists[cur_kind(a)].items[i], line, sizeof line);
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

static void draw_items(const app *a, rect box)
{
    const ui_list *l = &a->data.lists[cur_kind(a)];
    char title[96];
    if (l->sort.by > 0)
        snprintf(title, sizeof title, "%s by %s %s", kind_titles[cur_kind(a)],
                 ui_list_sort_names[l->sort.by - 1], draw_sort_mark(l->sort.desc));
    else
        snprintf(title, sizeof title, "%s", kind_titles[cur_kind(a)]);
    draw_box(box, title, a->data.pane == 1);
    rect in = layout_inner(box);
    if (l->err[0])
        draw_text(in.y, in.x + 1, in.w - 1, ui_attr(C_ERR) | A_BOLD, l->err);
    else if (l->lv.count == 0)
        draw_text(in.y, in.x + 1, in.w - 1, ui_attr(C_DIM), "(none)");
    lv_draw(&l->lv, in, a->data.pane == 1 ? LV_HL_FOCUSED : LV_HL_UNFOCUSED, item_row, a);
}

static void draw_profile_fields(const void *prof, const profile_field *f, rect in, int y)
{
    for (; f->key && y < in.y + in.h; f++) {
        char v[64];
        profile_get(prof, f, v, sizeof v);
        char line[256];
        snprintf(line, sizeof line, "%-16s %-10s %s", f->key, v, f->help);
        draw_line(y++, in.x, in.w, A_NORMAL, line);     /* too long: ends in … */
    }
}

static const char *const enter_does[STORE_KIND_COUNT] = {
    "Enter edits the profile", "Enter edits the profile", "Enter uses it in Compare",
    "Enter uses it in Compare", "", "Enter opens it in Cluster",
    "Enter reopens it (or the runs marked with space) in Compare", "",
};

static void draw_detail(const app *a, rect box)
{
    const store_item *it = cur_item(a);
    draw_box(box, "Details", 0);
    rect in = layout_inner(box);
    in.x++;
    in.w--;
    if (!it)
        return;
    int y = in.y;
    draw_textf(y++, in.x, in.w, A_BOLD, "%s %s", it->name, it->created[0] ? it->created : "");
    draw_line(y++, in.x, in.w, A_NORMAL, it->detail);
    draw_text(y++, in.x, in.w, ui_attr(C_DIM), enter_does[cur_kind(a)]);
    const catalog *cat = a->data.cat;
    if (cur_kind(a) == STORE_GPU && cat && catalog_gpu(cat, it->name))
        draw_profile_fields(catalog_gpu(cat, it->name), gpu_profile_fields, in, y);
    else if (cur_kind(a) == STORE_CPU && cat && catalog_cpu(cat, it->name))
        draw_profile_fields(catalog_cpu(cat, it->name), cpu_profile_fields, in, y);
}

/* The form edits a copy of the profile: its fields and its values. */
static const profile_field *form_fields(const app *a)
{
    return a->data.editing == STORE_GPU + 1 ? gpu_profile_fields : cpu_profile_fields;
}

static const void *form_values(const app *a)
{
    if (a->data.editing == STORE_GPU + 1)
        return &a->data.gpu;
    return &a->data.cpu;
}

static size_t nfields(const app *a)
{
    const profile_field *f = form_fields(a);
    size_t n = 0;
    while (f[n].key)
        n++;
    return n;
}

static void field_row(const void *ctx, size_t i, rect r, lv_hl hl)
{
    const app *a = ctx;
    assert(i < nfields(a));
    const profile_field *f = &form_fields(a)[i];
    char v[64], line[256];
    profile_get(form_values(a), f, v, sizeof v);
    snprintf(line, sizeof line, " %-16s %-12s %s", f->key, v, f->help);
    draw_line(r.y, r.x, r.w, ui_hl_attr(hl, A_NORMAL), line);
}

static void draw_edit(const app *a, rect box)
{
    char title[128];
    snprintf(title, sizeof title, "Edit %s profile %s%s", a->data.editing == STORE_GPU + 1
             ? "GPU" : "CPU", a->data.editing == STORE_GPU + 1 ? a->data.gpu.name
             : a->data.cpu.name, a->data.dirty ? " (modified)" : "");
    draw_box(box, title, 1);
    rect in = layout_inner(box);
    rect rows = in;
    rows.h = in.h > 2 ? in.h - 2 : 0;
    listview v = lv_shown(&a->data.fields, nfields(a), rows.h);
    lv_draw(&v, rows, LV_HL_FOCUSED, field_row, a);
    draw_text(in.y + in.h - 1, in.x + 1, in.w - 1, ui_attr(C_DIM),
              "Enter change value  s save  Esc discard");
}

static void data_draw(const app *a)
{
    data_geom g = data_layout(a);
    draw_kinds(a, g.kinds);
    if (a->data.editing) {
        draw_edit(a, g.form);
        draw_status(a, "Data: edit profile", "j/k field  Enter change  s save  Esc discard");
        return;
    }
    draw_items(a, g.items);
    draw_detail(a, g.detail);
    char ctx[96];
    snprintf(ctx, sizeof ctx, "Data %s %s", sym(SYM_DOT), store_path(a->st));
    draw_status(a, ctx, "Enter open  i import  c new cluster  e edit  d delete  / search  "
                "X export  ? help");
}

/* --- browsing keys ------------------------------------------------------------------ */

static ui_rc d_move(app *a, int key)
{
    if (a->data.pane == 0) {
        lv_set_count(&a->data.kinds, STORE_KIND_COUNT);
        lv_key(&a->data.kinds, key, kinds_rows(a));
    } else {
        lv_key(&cur_list(a)->lv, key, items_rows(a));
    }
    return UI_DONE;
}

static ui_rc d_pane(app *a, int key)
{
    if (key == '\t')
        a->data.pane = !a->data.pane;
    else
        a->data.pane = key == KEY_RIGHT || key == 'l';
    return UI_DONE;
}

static void start_edit(app *a, const store_item *it)
{
    const catalog *cat = a->data.cat;
    if (cur_kind(a) == STORE_GPU && cat && catalog_gpu(cat, it->name)) {
        a->data.gpu = *catalog_gpu(cat, it->name);
        a->data.editing = STORE_GPU + 1;
    } else if (cur_kind(a) == STORE_CPU && cat && catalog_cpu(cat, it->name)) {
        a->data.cpu = *catalog_cpu(cat, it->name);
        a->data.editing = STORE_CPU + 1;
    } else {
        app_err(a, "only GPU and CPU profiles can be edited here");
        return;
    }
    lv_reset(&a->data.fields, nfields(a));
    a->data.dirty = 0;
}

static ui_rc d_edit(app *a, int key)
{
    (void)key;
    const store_item *it = cur_item(a);
    if (it)
        start_edit(a, it);
    return UI_DONE;
}

static void open_runs(app *a, const store_item *it)
{
    int64_t ids[RS_MAX];
    int n = a->data.nmarked;
    memcpy(ids, a->data.marked, sizeof ids);
    if (n == 0) {
        ids[0] = it->id;
        n = 1;
    }
    a->data.nmarked = 0;
    compare_open_runs(a, ids, n);
}

static ui_rc d_enter(app *a, int key)
{
    if (a->data.pane == 0) {
        a->data.pane = 1;
        return UI_DONE;
    }
    const store_item *it = cur_item(a);
    if (!it)
        return UI_DONE;
    switch (cur_kind(a)) {
    case STORE_GPU: case STORE_CPU: return d_edit(a, key);
    case STORE_TRACE:
        compare_set_input(a, it->name, NULL);
        app_goto(a, SCR_COMPARE);
        break;
    case STORE_CLUSTER:
        compare_set_input(a, NULL, it->name);
        app_goto(a, SCR_COMPARE);
        break;
    case STORE_SNAPSHOT: cluster_open_snapshot(a, it->name); break;
    case STORE_RUN: open_runs(a, it); break;
    case STORE_PEACE: app_msg(a, "PEACE sets feed PEACE's predictors (gpuplan show peace)"); break;
    default: app_msg(a, "throughput tables feed GOGH (gpuplan solve); nothing to open here");
    }
    return UI_DONE;
}

static ui_rc d_mark(app *a, int key)
{
    (void)key;
    const store_item *it = cur_item(a);
    if (cur_kind(a) != STORE_RUN || !it)
        return UI_PASS;
    data_ui *d = &a->data;
    for (int i = 0; i < d->nmarked; i++)
        if (d->marked[i] == it->id) {
            memmove(&d->marked[i], &d->marked[i + 1], (size_t)(d->nmarked - i - 1) * sizeof *d->marked);
            d->nmarked--;
            return UI_DONE;
        }
    if (d->nmarked == RS_MAX) {
        app_err(a, "at most %d runs side by side", RS_MAX);
        return UI_DONE;
    }
    d->marked[d->nmarked++] = it->id;
    lv_key(&cur_list(a)->lv, KEY_DOWN, items_rows(a));
    return UI_DONE;
}

static int delete_item(app *a, const store_item *it, gp_err *err)
{
    switch (cur_kind(a)) {
    case STORE_GPU: return store_delete_gpu_profile(a->st, it->name, err);
    case STORE_CPU: return store_delete_cpu_profile(a->st, it->name, err);
    case STORE_CLUSTER: return store_delete_cluster(a->st, it->name, err);
    case STORE_TRACE: return store_delete_trace(a->st, it->name, err);
    case STORE_TPUT: return store_delete_tput_catalog(a->st, it->name, err);
    case STORE_SNAPSHOT: return store_delete_snapshot(a->st, it->name, err);
    case STORE_PEACE: return store_delete_peace_set(a->st, it->name, err);
    default: return store_delete_run(a->st, it->id, err);
    }
}

static void delete_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    (void)choice;
    const store_item *it = cur_item(a);
    if (!ok || !it)
        return;
    gp_err err;
    char what[GP_NAME_MAX + 32];
    snprintf(what, sizeof what, "%s", it->name);
    if (delete_item(a, it, &err)) {
        app_err(a, "%s", err.msg);
        return;
    }
    data_reload(a);
    compare_set_input(a, NULL, NULL);
    app_msg(a, "deleted %s", what);
}

static ui_rc d_delete(app *a, int key)
{
    (void)key;
    const store_item *it = cur_item(a);
    if (!it || a->data.pane == 0)
        return UI_DONE;
    char q[160];
    store_kind kind = cur_kind(a);
    if (kind == STORE_RUN)
        snprintf(q, sizeof q, "Delete saved run #%lld (%s)?", (long long)it->id, it->name);
    else
        snprintf(q, sizeof q, "Delete %s '%s'%s?", store_kind_name(kind), it->name,
                 kind == STORE_CLUSTER ? " with its snapshots and saved runs"
                 : kind == STORE_TRACE ? " with the runs saved on it" : "");
    modal_confirm(a, q, delete_done);
    return UI_DONE;
}

/* --- import ------------------------------------------------------------------------ */

typedef struct import_args {
    const char *paths[32];
    size_t npaths;
    import_opts opts;
} import_args;

/* Splits "path ... [name=N] [cluster=C] [replace]" into paths and options;
 * the strings point into buf. */
static void parse_import(char *buf, import_args *ia)
{
    memset(ia, 0, sizeof *ia);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (strncmp(t, "name=", 5) == 0)
            ia->opts.name = t + 5;
        else if (strncmp(t, "cluster=", 8) == 0)
            ia->opts.cluster = t + 8;
        else if (strcmp(t, "replace") == 0)
            ia->opts.replace = 1;
        else if (ia->npaths < 32)
            ia->paths[ia->npaths++] = t;
    }
}

static void run_import(app *a, const importer *imp)
{
    char buf[MODAL_TEXT_MAX];
    import_args ia;
    snprintf(buf, sizeof buf, "%s", a->data.import_paths);
    parse_import(buf, &ia);
    /* The import blocks; say so on the status line before it starts. */
    app_msg(a, "importing %s as %s ...", ia.paths[0], imp->format);
    draw_status(a, "", "");
    refresh();
    import_result res;
    memset(&res, 0, sizeof res);
    gp_err err;
    double t0 = now_seconds();
    if (import_run(a->st, imp, ia.paths, ia.npaths, &ia.opts, &res, &err)) {
        app_err(a, "import failed (nothing was stored): %s", err.msg);
        return;
    }
    data_reload(a);
    compare_set_input(a, NULL, NULL);
    app_msg(a, "imported %s (%s) in %.2fs: %zu nodes, %zu tasks", res.names, imp->format,
            now_seconds() - t0, res.nodes, res.tasks);
}

/* No importer reads the files: what one is when its first bytes tell (a
 * PNG, an archive), else that the format has to be chosen. */
static void unknown_file(app *a, const import_args *ia)
{
    for (size_t i = 0; i < ia->npaths; i++) {
        const char *what = filetype_sniff(ia->paths[i]);
        if (what) {
            app_err(a, "%s is %s, not a format gpuplan imports", ia->paths[i], what);
            return;
        }
    }
    app_err(a, "could not recognise the format: choose it from the list");
}

static void format_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    if (!ok || choice < 0)
        return;
    const importer *imp = NULL;
    if (choice == 0) {
        char buf[MODAL_TEXT_MAX];
        import_args ia;
        snprintf(buf, sizeof buf, "%s", a->data.import_paths);
        parse_import(buf, &ia);
        imp = importer_detect(ia.paths, ia.npaths);
        if (!imp) {
            unknown_file(a, &ia);
            return;
        }
    } else {
        imp = importers[choice - 1];
    }
    run_import(a, imp);
}

/* What the import prompt must refuse before formats are asked about: no
 * file, a file that is not there, a name with '/'.  0 when fine. */
static int import_args_bad(app *a, const import_args *ia)
{
    if (ia->npaths == 0) {
        app_err(a, "no file named");
        return -1;
    }
    for (size_t i = 0; i < ia->npaths; i++)
        if (access(ia->paths[i], F_OK) != 0) {
            app_err(a, "%s: no such file or directory", ia->paths[i]);
            return -1;
        }
    const char *names[2] = {ia->opts.name, ia->opts.cluster};
    for (int i = 0; i < 2; i++)
        if (names[i] && strchr(names[i], '/')) {
            app_err(a, "a name cannot contain '/': '%s'", names[i]);
            return -1;
        }
    return 0;
}

static void paths_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok || !*text)
        return;
    snprintf(a->data.import_paths, sizeof a->data.import_paths, "%s", text);
    char buf[MODAL_TEXT_MAX];
    import_args ia;
    snprintf(buf, sizeof buf, "%s", text);
    parse_import(buf, &ia);
    if (import_args_bad(a, &ia))
        return;
    const importer *guess = importer_detect(ia.paths, ia.npaths);
    char items[MODAL_MENU_MAX][96];
    const char *ptrs[MODAL_MENU_MAX];
    int n = 0;
    snprintf(items[n], sizeof items[n], "detect the format (looks like: %s)",
             guess ? guess->format : "unknown");
    ptrs[n] = items[n];
    n++;
    for (size_t i = 0; importers[i] && n < MODAL_MENU_MAX; i++, n++) {
        snprintf(items[n], sizeof items[n], "%-8s %s", importers[i]->format, importers[i]->summary);
        ptrs[n] = items[n];
    }
    modal_menu(a, "Format", ptrs, n, 0, format_done);
}

static ui_rc d_import(app *a, int key)
{
    (void)key;
    /* Starts empty: the last import's paths are rarely the next one's. */
    modal_prompt(a, "Import: file or directory paths (Tab completes) [name=NAME] [cluster=C] "
                 "[replace]", "", paths_done);
    a->m.complete_paths = 1;
    return UI_DONE;
}

static void search_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok)
        return;
    snprintf(a->search, sizeof a->search, "%s", text);
    ui_list *l = cur_list(a);
    if (lv_search(&l->lv, a->search, ui_list_name, l, items_rows(a)))
        a->data.pane = 1;
    else
        app_err(a, "no %s matching '%s'", kind_titles[cur_kind(a)], a->search);
}

static ui_rc d_search(app *a, int key)
{
    if (key == 'n' && a->search[0])
        search_done(a, 1, a->search, 0);
    else
        modal_prompt(a, "Search by name", "", search_done);
    return UI_DONE;
}

/* --- a new cluster ------------------------------------------------------------------ */

static void cluster_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok || !*text)
        return;
    clspec sp;
    gp_err err;
    cluster *cl = NULL;
    int rc = clspec_parse_text(text, &sp, &err);
    if (rc == 0 && !(cl = clspec_build(&sp, a->data.cat, &err)))
        rc = -1;
    if (rc == 0) {
        cl->source = xstrdup("the dashboard");
        rc = store_put_cluster(a->st, cl, 0, &err);
    }
    if (rc) {
        app_err(a, "no cluster made: %s", err.msg);
        cluster_free(cl);
        return;
    }
    app_msg(a, "cluster '%s': %zu servers, %lld GPUs (Enter on it uses it in Compare)",
            cl->name, cl->nnodes, (long long)cluster_gpu_total(cl));
    data_reload(a);
    compare_set_input(a, NULL, NULL);
    lv_set_count(&a->data.kinds, STORE_KIND_COUNT);
    lv_select(&a->data.kinds, STORE_CLUSTER, kinds_rows(a));
    ui_list *l = &a->data.lists[STORE_CLUSTER];
    for (size_t i = 0; i < l->lv.count; i++)
        if (strcmp(l->items[i].name, cl->name) == 0)
            lv_select(&l->lv, i, items_rows(a));
    a->data.pane = 1;
    cluster_free(cl);
}

static ui_rc d_cluster(app *a, int key)
{
    (void)key;
    modal_prompt(a, "New cluster: NAME --gpu MODEL --servers N --per-server N [--cpus N] "
                 "[--ram-gib N] [--gpu ...]", "", cluster_done);
    return UI_DONE;
}

/* o: the items by the next column; O: reversed.  The cursor stays on its
 * item. */
static ui_rc d_sort(app *a, int key)
{
    ui_list *l = &a->data.lists[cur_kind(a)];
    tablesort_next(&l->sort, UI_LIST_SORT_COLS, key == 'O');
    if (l->sort.by == 0) {
        data_reload(a);         /* the store's own order */
        app_msg(a, "%s in the store's order", kind_titles[cur_kind(a)]);
        return UI_DONE;
    }
    ui_list_sort(l);
    app_msg(a, "%s by %s, %s", kind_titles[cur_kind(a)], ui_list_sort_names[l->sort.by - 1],
            l->sort.desc ? "largest first" : "smallest first");
    return UI_DONE;
}

static ui_rc d_reload(app *a, int key)
{
    (void)key;
    data_reload(a);
    app_msg(a, "reloaded");
    return UI_DONE;
}

static const ui_key browse_keys[] = {
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "move in the pane", d_move},
    {{KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END}, "PgUp PgDn", "move a page / to the ends", d_move},
    {{'\t', KEY_LEFT, 'h', KEY_RIGHT, 'l'}, "Tab h l", "kinds / items pane", d_pane},
    {{'\n', '\r', KEY_ENTER}, "Enter", "open: edit a profile, use a trace/cluster in Compare, "
     "show a snapshot, reopen runs", d_enter},
    {{' '}, "space", "mark a saved run (reopen several side by side)", d_mark},
    {{'i'}, "i", "import files (format detected or chosen)", d_import},
    {{'c'}, "c", "new cluster: NAME --gpu H100 --servers 24 --per-server 8", d_cluster},
    {{'e'}, "e", "edit the GPU/CPU profile", d_edit},
    {{'d', KEY_DC}, "d Del", "delete (asks first)", d_delete},
    {{'/', 'n'}, "/ n", "search by name / next match", d_search},
    {{'R'}, "R", "reload from the database", d_reload},
    {{'o', 'O'}, "o O", "order the items by name, count, second count, detail, date / reverse",
     d_sort},
    {{0}, NULL, NULL, NULL},
};

/* --- edit form keys ------------------------------------------------------------- */

static ui_rc e_move(app *a, int key)
{
    lv_set_count(&a->data.fields, nfields(a));
    lv_key(&a->data.fields, key, fields_rows(a));
    return UI_DONE;
}

/* The field under the form's cursor, and the profile copy it edits. */
static const profile_field *cur_field(const app *a)
{
    return &form_fields(a)[a->data.fields.cursor];
}

static void *form_values_mut(app *a)
{
    if (a->data.editing == STORE_GPU + 1)
        return &a->data.gpu;
    return &a->data.cpu;
}

static void field_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (!ok)
        return;
    gp_err err;
    gpu_profile before = a->data.gpu;
    if (profile_set(form_values_mut(a), form_fields(a), cur_field(a)->key, text, &err)) {
        app_err(a, "%s", err.msg);
        return;
    }
    a->data.dirty = 1;
    /* A GPU's CATS slope follows max_w, idle_w and f_max (profile.h). */
    if (a->data.editing != STORE_GPU + 1 || strcmp(cur_field(a)->key, "alpha_w_per_mhz") == 0)
        return;
    if (gpu_profile_follow_slope(&before, &a->data.gpu, &err)) {
        a->data.gpu = before;
        app_err(a, "%s", err.msg);
        return;
    }
    char changes[512];
    profile_changes(&before, &a->data.gpu, gpu_profile_fields, changes, sizeof changes);
    app_msg(a, "%s", changes);
}

static ui_rc e_change(app *a, int key)
{
    (void)key;
    const profile_field *f = cur_field(a);
    char v[64], title[160];
    profile_get(form_values(a), f, v, sizeof v);
    snprintf(title, sizeof title, "%s: %s", f->key, f->help);
    modal_prompt(a, title, v, field_done);
    return UI_DONE;
}

static ui_rc e_save(app *a, int key)
{
    (void)key;
    gp_err err;
    int rc = a->data.editing == STORE_GPU + 1
           ? gpu_profile_check(&a->data.gpu, &err) || store_put_gpu_profile(a->st, &a->data.gpu, &err)
           : cpu_profile_check(&a->data.cpu, &err) || store_put_cpu_profile(a->st, &a->data.cpu, &err);
    if (rc) {
        app_err(a, "not saved: %s", err.msg);
        return UI_DONE;
    }
    a->data.editing = 0;
    data_reload(a);
    app_msg(a, "profile saved");
    return UI_DONE;
}

static void discard_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    (void)choice;
    if (ok)
        a->data.editing = 0;
}

static ui_rc e_cancel(app *a, int key)
{
    (void)key;
    if (a->data.dirty)
        modal_confirm(a, "Discard the changes to this profile?", discard_done);
    else
        a->data.editing = 0;
    return UI_DONE;
}

static const ui_key edit_keys[] = {
    {{KEY_UP, 'k', KEY_DOWN, 'j'}, "Up Down j k", "choose a field", e_move},
    {{'\n', '\r', KEY_ENTER, 'e'}, "Enter e", "change the value (checked as you enter it)",
     e_change},
    {{'s'}, "s", "save the profile (nodes using it see the new values)", e_save},
    {{KEY_ESC}, "Esc", "leave the form (asks when there are changes)", e_cancel},
    {{0}, NULL, NULL, NULL},
};

static const ui_key *data_keytab(const app *a)
{
    return a->data.editing ? edit_keys : browse_keys;
}

static ui_rc data_key(app *a, int key)
{
    return ui_dispatch(a, data_keytab(a), key);
}

const ui_screen scr_data = {
    .name = "Data", .hotkey = '5', .fkey = 6, .draw = data_draw, .key = data_key,
    .keys = data_keytab, .tick = NULL,
};
