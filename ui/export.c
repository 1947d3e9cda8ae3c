/*
 * export.c — the export key and the writing of an export_view (export.h):
 * CSV through io/table.c, SVG and PNG through io/plot.c, into the current
 * directory or one the user types, with a status message naming the files
 * and the equivalent `gpuplan` command.
 */
#include "export.h"
#include "export_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void export_view_init(export_view *v, const char *screen)
{
    memset(v, 0, sizeof *v);
    strlcpy0(v->screen, screen, sizeof v->screen);
}

void export_view_free(export_view *v)
{
    for (int i = 0; i < v->ntables; i++)
        table_free(v->tables[i].t);
    for (int i = 0; i < v->ncharts; i++)
        plot_free(v->charts[i].c);
    v->ntables = v->ncharts = 0;
}

table *export_add_table(export_view *v, const char *name)
{
    if (v->ntables == EXPORT_MAX)
        return NULL;
    export_table *t = &v->tables[v->ntables++];
    strlcpy0(t->name, name, sizeof t->name);
    t->t = table_new();
    return t->t;
}

void export_add_chart(export_view *v, const char *name, plot_chart *c)
{
    if (v->ncharts == EXPORT_MAX) {
        plot_free(c);
        return;
    }
    export_chart *e = &v->charts[v->ncharts++];
    strlcpy0(e->name, name, sizeof e->name);
    e->c = c;
}

static char *file_path(const char *dir, const export_view *v, const char *name,
                       const char *ext)
{
    return xasprintf("%s/gpuplan-%s-%s.%s", dir, v->screen, name, ext);
}

/* The file's name without dir and without the gpuplan-<screen>- every
 * name starts with, for the message. */
static void note_written(strbuf *written, const export_view *v, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t skip = strlen("gpuplan-") + strlen(v->screen) + 1;
    strbuf_sep(written, ", ");
    strbuf_puts(written, strlen(base) > skip ? base + skip : base);
}

static int write_csv(const table *t, const char *path, gp_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return gp_error(err, "%s: cannot write (%s)", path, strerror(errno));
    table_print(t, FMT_CSV, f, NULL);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return gp_error(err, "%s: write error", path);
    return 0;
}

int export_view_write(const export_view *v, const char *dir, strbuf *written, gp_err *err)
{
    if (mkdir_p(dir, err))
        return -1;
    for (int i = 0; i < v->ntables; i++) {
        char *p = file_path(dir, v, v->tables[i].name, "csv");
        int rc = write_csv(v->tables[i].t, p, err);
        if (rc == 0)
            note_written(written, v, p);
        free(p);
        if (rc)
            return -1;
    }
    for (int i = 0; i < v->ncharts; i++) {
        static const plot_format formats[] = {PLOT_SVG, PLOT_PNG};
        for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
            char *p = file_path(dir, v, v->charts[i].name, plot_format_name(formats[k]));
            int rc = plot_write(v->charts[i].c, p, formats[k], PLOT_WIDTH, PLOT_HEIGHT, err);
            if (rc == 0)
                note_written(written, v, p);
            free(p);
            if (rc)
                return -1;
        }
    }
    return 0;
}

void export_screen(const app *a, scr_id id, export_view *v)
{
    static void (*const hooks[SCR_COUNT])(const app *, export_view *) = {
        [SCR_COMPARE] = compare_export, [SCR_STEP] = step_export,
        [SCR_CLUSTER] = cluster_export, [SCR_PLANNER] = planner_export,
        [SCR_DATA] = data_export,
    };
    static const char *const names[SCR_COUNT] = {
        [SCR_COMPARE] = "compare", [SCR_STEP] = "step", [SCR_CLUSTER] = "cluster",
        [SCR_PLANNER] = "planner", [SCR_DATA] = "data", [SCR_HELP] = "help",
    };
    export_view_init(v, id < SCR_COUNT ? names[id] : "help");
    if (id < SCR_COUNT && hooks[id])
        hooks[id](a, v);
    else
        snprintf(v->empty, sizeof v->empty, "Help has no table or chart to export");
}

/* --- the key --------------------------------------------------------------- */

static void export_into(app *a, const char *dir)
{
    export_view v;
    export_screen(a, a->scr, &v);
    if (v.ntables == 0 && v.ncharts == 0) {
        app_err(a, "%s", v.empty[0] ? v.empty : "nothing to export on this screen");
        export_view_free(&v);
        return;
    }
    strbuf written = STRBUF_INIT;
    gp_err err = {{0}};
    int n = v.ntables + 2 * v.ncharts;
    char cwd[512];
    const char *where = strcmp(dir, ".") == 0 && getcwd(cwd, sizeof cwd) ? cwd : dir;
    if (export_view_write(&v, dir, &written, &err))
        app_err(a, "%s", err.msg);
    else
        app_msg(a, "wrote %d file%s in %s: gpuplan-%s-{%s}", n, n == 1 ? "" : "s", where,
                v.screen, strbuf_str(&written));
    strbuf_free(&written);
    export_view_free(&v);
}

/* The command whole in gpuplan-SCREEN-command.sh in the working directory:
 * the status line cuts a long one at the terminal's width, and a command
 * cut at its end runs with other options.  0, or -1 when not written. */
static int write_cli_file(const export_view *v, char *path, size_t len)
{
    snprintf(path, len, "gpuplan-%s-command.sh", v->screen);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "#!/bin/sh\n%s\n", v->cli);
    return fclose(f) == 0 ? 0 : -1;
}

static void show_cli(app *a)
{
    export_view v;
    export_screen(a, a->scr, &v);
    char path[96];
    if (v.cli[0] && write_cli_file(&v, path, sizeof path) == 0)
        app_msg(a, "(whole in %s) CLI: %s", path, v.cli);
    else if (v.cli[0])
        app_msg(a, "CLI: %s", v.cli);
    else
        app_err(a, "%s", v.empty[0] ? v.empty : "no command shows this screen");
    export_view_free(&v);
}

static void dir_done(app *a, int ok, const char *text, int choice)
{
    (void)choice;
    if (ok && text[0])
        export_into(a, text);
}

static void menu_done(app *a, int ok, const char *text, int choice)
{
    (void)text;
    if (!ok)
        return;
    if (choice == 0)
        export_into(a, ".");
    else if (choice == 1)
        modal_prompt(a, "Directory to write the CSV, SVG and PNG files into", "", dir_done);
    else if (choice == 2)
        show_cli(a);
}

ui_rc export_key(app *a, int key)
{
    (void)key;
    char here[96], cwd[512];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    snprintf(here, sizeof here, "Write CSV, SVG and PNG into %s", cwd);
    const char *items[] = {here, "Write them into another directory...",
                           "Show the gpuplan command for the same"};
    char title[64];
    snprintf(title, sizeof title, "Export %s", ui_screen_of(a->scr)->name);
    modal_menu(a, title, items, 3, 0, menu_done);
    return UI_DONE;
}
