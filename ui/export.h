/*
 * export.h — taking what a dashboard screen shows away as files: its
 * tables as CSV and its charts as SVG and PNG (io/plot.h, drawn with
 * cairo), from one key on every screen, with the `gpuplan` command that
 * makes the same from the shell.
 *
 * Each screen describes what it shows through a small hook that fills an
 * export_view (the Planner's is in scr_planner.c, the others' in
 * export_screens.c, reading the same state the screens draw from); this
 * file does the writing and the key's menu.
 *
 * Ownership: an export_view owns its tables and charts;
 * export_view_free() releases them.
 */
#ifndef GP_UI_EXPORT_H
#define GP_UI_EXPORT_H

#include "app.h"
#include "core/strbuf.h"
#include "io/plot.h"
#include "io/table.h"

#define EXPORT_MAX 4

typedef struct export_table {
    char name[32];
    table *t;
} export_table;

typedef struct export_chart {
    char name[32];
    plot_chart *c;
} export_chart;

typedef struct export_view {
    char screen[16];            /* file names start gpuplan-<screen>- */
    export_table tables[EXPORT_MAX];
    int ntables;
    export_chart charts[EXPORT_MAX];
    int ncharts;
    char cli[512];              /* the shell command for the same, "" = none */
    char empty[128];            /* why there is nothing to export, when so */
} export_view;

/* A new table named name, owned by v; NULL when v holds EXPORT_MAX. */
table *export_add_table(export_view *v, const char *name);
/* Hands chart c to v (freed at once when v is full). */
void export_add_chart(export_view *v, const char *name, plot_chart *c);

/* What screen id shows, into v (initialised here). */
void export_screen(const app *a, scr_id id, export_view *v);

/* The hooks (export_screens.c; planner_export in scr_planner.c). */
void compare_export(const app *a, export_view *v);
void step_export(const app *a, export_view *v);
void cluster_export(const app *a, export_view *v);
void planner_export(const app *a, export_view *v);
void data_export(const app *a, export_view *v);

/* The export key: a menu to write the files here or into a directory
 * typed, or to show the equivalent command on the status line. */
ui_rc export_key(app *a, int key);

#endif
